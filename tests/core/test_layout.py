"""The product's layout and layers: it installs its four packages only, nothing edits sys.path, the envs core
knows no game and envs import nothing above them."""

import subprocess
import sys

from tests.helpers import ROOT


def test_importing_the_product_leaves_sys_path_alone():
    """Every module of the four product packages imported in a fresh interpreter: sys.path is as it was."""
    code = (
        "import importlib, pkgutil, sys\n"
        "before = list(sys.path)\n"
        "for top in ('envs', 'policies', 'training', 'scripts'):\n"
        "    package = importlib.import_module(top)\n"
        "    for info in pkgutil.walk_packages(package.__path__, top + '.'):\n"
        "        try:\n"
        "            importlib.import_module(info.name)\n"
        "        except ModuleNotFoundError as err:  # the RLlib / Tianshou glue, in its own venv\n"
        "            if err.name.split('.')[0] not in ('ray', 'tianshou'):\n"
        "                raise\n"
        "print(sys.path == before)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert (done.returncode, done.stdout.strip()) == (0, "True"), done.stderr


def test_the_repository_holds_the_product_and_its_site_only():
    """Studies are not part of the product: no folder of study scripts beside the packages, no code in results/."""
    folders = {p.name for p in ROOT.iterdir() if p.is_dir() and not p.name.startswith(".")}
    assert "research" not in folders
    assert sorted(str(p.relative_to(ROOT)) for p in (ROOT / "results").rglob("*") if p.suffix in (".py", ".sh")) == []


def test_evaluation_imports_without_torch():
    """Evaluating saved policies (series, intervals, ladder, report) is library code in policies/ that needs no
    torch: imported with torch blocked, it loads, and torch is not among the modules it pulled in."""
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "import policies.evaluation, policies.ladder, policies.report\n"
        "assert 'torch' not in {m for m in sys.modules if sys.modules[m] is not None}\n"
        "print(policies.evaluation.wilson_interval(5, 10) != (0.0, 1.0))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert (done.returncode, done.stdout.strip()) == (0, "True"), done.stderr


def test_every_package_folder_is_seen_by_the_import_checker():
    """lint-imports (run by `make lint`) checks the layers; it skips a folder without __init__.py silently."""
    missing = [
        str(d.relative_to(ROOT))
        for top in ("envs", "policies", "training", "scripts")
        for d in [ROOT / top, *(ROOT / top).rglob("*")]
        if d.is_dir() and d.name != "__pycache__" and any(d.glob("*.py")) and not (d / "__init__.py").exists()
    ]
    assert missing == []


def _imports_with_blocked(modules: list[str], blocked: list[str]) -> subprocess.CompletedProcess:
    """Import ``modules`` in a fresh interpreter where every module under ``blocked`` fails to import."""
    code = (
        "import importlib, sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        f"        if any(name == b or name.startswith(b + '.') for b in {blocked!r}):\n"
        "            raise ModuleNotFoundError(f'blocked: {name}', name=name)\n"
        "sys.meta_path.insert(0, Block())\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        "print('ok')"
    )
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)


GAMES = ["envs.hexrook", "envs.squeeze", "envs.swahili", "envs.swimming", "envs.swish"]
GAMES += ["envs.swival", "envs.twirls", "policies", "training", "scripts"]


def test_the_core_imports_without_any_game_or_layer_above():
    """envs.core knows no game: each of its modules imports with every game and the packages above envs
    blocked (``import envs`` loads the registry, which imports games only when one is asked for)."""
    core = sorted(f"envs.core.{p.stem}" for p in (ROOT / "envs" / "core").glob("*.py") if p.stem != "__init__")
    done = _imports_with_blocked(core, GAMES)
    assert (done.returncode, done.stdout.strip()) == (0, "ok"), done.stderr


def test_envs_import_without_the_layers_above_and_still_name_learned_players():
    """Everything in envs imports with policies, training and scripts blocked; with them present, "hard"
    reaches every env through the swgym.opponents entry point."""
    every = sorted(
        "envs." + ".".join(p.relative_to(ROOT / "envs").with_suffix("").parts)
        for p in (ROOT / "envs").rglob("*.py")
        if p.stem != "__init__"
    )
    done = _imports_with_blocked(every, ["policies", "training", "scripts"])
    assert (done.returncode, done.stdout.strip()) == (0, "ok"), done.stderr
    from envs.opponents import make_opponent
    from policies.search.alpha_beta import PolicySearch

    assert isinstance(make_opponent("swival", "hard"), PolicySearch)
