"""Research apart from the product: research/ is not installed, and nothing edits sys.path to find the code."""

import re
import tomllib
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("envs", "policies", "training", "scripts", "research", "tests")


def test_nothing_edits_sys_path():
    edits = [
        str(path.relative_to(ROOT))
        for folder in FOLDERS
        for path in (ROOT / folder).rglob("*.py")
        if re.search(r"sys\.path\.(insert|append|extend)|sys\.path\s*[+]?=", path.read_text())
    ]
    assert edits == []


def test_research_is_not_installed():
    include = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]["include"]
    assert not any(fnmatch("research", pattern) for pattern in include)
    assert not (ROOT / "research" / "__init__.py").exists()
    assert {p.name for p in (ROOT / "scripts").glob("*.py")}.isdisjoint(
        {"swival_solve.py", "swimming_bound.py", "swimming_reading.py"}
    )


def test_evaluation_imports_without_torch():
    """Evaluating saved policies (series, intervals, ladder, report) is library code in policies/ that needs no
    torch: imported with torch blocked, it loads, and torch is not among the modules it pulled in."""
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['torch'] = None\n"
        "import policies.evaluation, policies.ladder, policies.report\n"
        "assert 'torch' not in {m for m in sys.modules if sys.modules[m] is not None}\n"
        "print(policies.evaluation.wilson_interval(5, 10) != (0.0, 1.0))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert (done.returncode, done.stdout.strip()) == (0, "True"), done.stderr


def test_import_layers_are_declared():
    """lint-imports (run by `make lint`) checks envs <- policies <- training <- scripts; every package has an
    __init__.py, so the checker sees all of its modules (a folder without one is skipped silently)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    test_extra = {r.split(">")[0] for r in project["project"]["optional-dependencies"]["test"]}
    assert {"ruff", "import-linter"} <= test_extra  # what `make lint` runs
    assert "lint:" in (ROOT / "Makefile").read_text() and "test: lint" in (ROOT / "Makefile").read_text()
    config = project["tool"]["importlinter"]
    (contract,) = config["contracts"]
    assert (contract["type"], contract["layers"]) == ("layers", ["scripts", "training", "policies", "envs"])
    assert contract["ignore_imports"] == ["envs.core.opponents -> policies"]
    missing = [
        str(d.relative_to(ROOT))
        for top in ("envs", "policies", "training", "scripts")
        for d in [ROOT / top, *(ROOT / top).rglob("*")]
        if d.is_dir() and d.name != "__pycache__" and any(d.glob("*.py")) and not (d / "__init__.py").exists()
    ]
    assert missing == []
