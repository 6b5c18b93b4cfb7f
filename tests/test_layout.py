"""Research apart from the product: research/ is not installed, and nothing edits sys.path to find the code."""

import re
import tomllib
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("envs", "policies", "training", "scripts", "research", "tests")


def test_nothing_edits_sys_path():
    edits = [str(path.relative_to(ROOT)) for folder in FOLDERS for path in (ROOT / folder).rglob("*.py")
             if re.search(r"sys\.path\.(insert|append|extend)|sys\.path\s*[+]?=", path.read_text())]
    assert edits == []


def test_research_is_not_installed():
    include = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]["include"]
    assert not any(fnmatch("research", pattern) for pattern in include)
    assert not (ROOT / "research" / "__init__.py").exists()
    assert {p.name for p in (ROOT / "scripts").glob("*.py")}.isdisjoint(
        {"swival_solve.py", "swimming_bound.py", "swimming_reading.py"})
