"""The acyclic contract (tests/import_cycles.py) finds every import cycle, and lint-imports fails on one."""

import os
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

from tests.helpers import ROOT
from tests.import_cycles import describe, one_cycle, strongly_connected

LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

CONFIG = """[importlinter]
root_packages =
    tinypkg
    otherpkg
contract_types =
    acyclic: tests.import_cycles.AcyclicContract

[importlinter:contract:acyclic]
name = No cycle
type = acyclic
"""


def write_packages(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


# a -> b -> a (a function-level import closes it), the package's __init__ <-> its own module, and two root
# packages that import each other: none of them siblings that acyclic_siblings would compare, but for the first
CYCLIC = {
    "tinypkg/__init__.py": "from tinypkg.core.c import C\n",
    "tinypkg/a.py": "from tinypkg import b\n",
    "tinypkg/b.py": "def f():\n    from tinypkg import a\n\n    return a\n",
    "tinypkg/core/__init__.py": "",
    "tinypkg/core/c.py": "import tinypkg\n\nC = 1\n",
    "tinypkg/d.py": "import otherpkg.e\n",
    "otherpkg/__init__.py": "",
    "otherpkg/e.py": "import tinypkg.d\n",
    "tinypkg/fine.py": "from tinypkg import a\n",
}


@pytest.fixture
def cyclic(tmp_path, monkeypatch):
    write_packages(tmp_path, CYCLIC)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_every_cycle_is_found_with_its_lines(cyclic):
    graph = grimp.build_graph("tinypkg", "otherpkg", cache_dir=None)
    groups = strongly_connected(graph, graph.modules)
    assert groups == [
        ["otherpkg.e", "tinypkg.d"],
        ["tinypkg", "tinypkg.core.c"],
        ["tinypkg.a", "tinypkg.b"],
    ]
    assert describe(graph, one_cycle(graph, ["tinypkg.a", "tinypkg.b"])) == (
        "tinypkg.a (line 1) -> tinypkg.b (line 2) -> tinypkg.a"
    )


def test_a_graph_without_cycles_has_no_group(tmp_path, monkeypatch):
    write_packages(tmp_path, {"tinypkg/__init__.py": "", "tinypkg/a.py": "from tinypkg import b\n", "tinypkg/b.py": ""})
    monkeypatch.syspath_prepend(str(tmp_path))
    graph = grimp.build_graph("tinypkg", cache_dir=None)
    assert strongly_connected(graph, graph.modules) == []


def lint_imports(folder: Path) -> subprocess.CompletedProcess:
    (folder / ".importlinter").write_text(CONFIG)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # where the contract type is imported from
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"], cwd=folder, env=env, capture_output=True, text=True, timeout=120
    )


def test_lint_imports_fails_on_a_cycle_and_names_it(cyclic):
    result = lint_imports(cyclic)
    assert result.returncode != 0, result.stdout
    assert "No cycle BROKEN" in result.stdout
    assert "2 modules import one another: tinypkg.a, tinypkg.b" in result.stdout
    assert "tinypkg.a (line 1) -> tinypkg.b (line 2) -> tinypkg.a" in result.stdout
    assert "otherpkg.e, tinypkg.d" in result.stdout


def test_lint_imports_keeps_the_contract_once_the_cycles_are_gone(cyclic):
    for name in ("tinypkg/b.py", "tinypkg/core/c.py", "otherpkg/e.py"):
        (cyclic / name).write_text("C = 1\n")
    result = lint_imports(cyclic)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No cycle KEPT" in result.stdout


def test_the_project_has_no_import_cycle():
    graph = grimp.build_graph("envs", "policies", "training", "scripts", cache_dir=None)
    groups = strongly_connected(graph, graph.modules)
    assert groups == [], [describe(graph, one_cycle(graph, g)) for g in groups]
