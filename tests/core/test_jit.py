"""The kernels' on-disk cache goes stale with any file of the package (envs/core/jit.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import envs

PROBE = """
import numpy as np
from envs.core.batched import randint
from envs.core.jit import njit


@njit
def draw(rng):
    return randint(rng, 0, 1 << 30)


print(draw(np.zeros(1, dtype=np.uint64)))
"""


def _copy_package(root: Path) -> Path:
    """A copy of the package under ``root``, with the probe kernel in a file of its own."""
    package = root / "envs"
    shutil.copytree(Path(envs.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__"))
    (package / "probe.py").write_text(PROBE)
    return package


def _env(cache: Path) -> dict[str, str]:
    """The environment of a process whose compile cache is under ``cache`` (as a user's ``~/.cache``)."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(cache)
    return env


STATS = """
import sys
import numpy as np
import envs.core.jit as jit
jit.ANNOUNCE_AFTER = float(sys.argv[1])
from envs.probe import draw
print(sum(draw.stats.cache_hits.values()), sum(draw.stats.cache_misses.values()))
"""


def _probe_stats(root: Path, cache: Path, announce_after: float = 60.0) -> tuple[str, str]:
    (root / "stats.py").write_text(STATS)
    out = subprocess.run(
        [sys.executable, "stats.py", str(announce_after)], cwd=root, env=_env(cache), capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip().splitlines()[-1], out.stderr  # (after the line the probe prints)


def test_two_clones_of_one_source_share_one_cache(tmp_path):
    """A second clone in another folder loads what the first compiled: numba alone would key it by the path."""
    cache = tmp_path / "cache"
    _copy_package(tmp_path / "one")
    _copy_package(tmp_path / "two")
    assert _probe_stats(tmp_path / "one", cache)[0] == "0 1"  # compiled: a miss
    assert _probe_stats(tmp_path / "two", cache)[0] == "1 0"  # the other clone's entry: a hit
    (tmp_path / "two" / "envs" / "core" / "jit.py").write_text("# edited\n" + (ROOT / "core" / "jit.py").read_text())
    assert _probe_stats(tmp_path / "two", cache)[0] == "0 1"  # another source: compiled again, in its own folder
    assert len(list(cache.glob("swgym/numba/*/envs/probe"))) == 2


def test_a_compile_that_runs_long_says_what_and_where_once(tmp_path):
    cache = tmp_path / "cache"
    _copy_package(tmp_path)
    _, said = _probe_stats(tmp_path, cache, announce_after=0.0)
    lines = [line for line in said.splitlines() if line.startswith("swgym:")]
    assert len(lines) == 2, said
    assert lines[0].startswith("swgym: compiling envs.probe.draw (") and str(cache / "swgym" / "numba") in lines[0]
    assert lines[1].startswith("swgym: compiled in ")
    _, said = _probe_stats(tmp_path, cache, announce_after=0.0)
    assert "swgym:" not in said  # loaded from the cache: nothing to say


ROOT = Path(envs.__file__).parent


def test_a_kernel_compiled_with_a_helper_of_another_file_sees_that_file_change(tmp_path):
    """numba alone stamps a cached kernel with its own file: the probe would keep the old ``randint``."""
    package = _copy_package(tmp_path)
    env = _env(tmp_path / "cache")

    def draw() -> int:
        out = subprocess.run(
            [sys.executable, "-m", "envs.probe"], cwd=tmp_path, env=env, capture_output=True, text=True, check=True
        )
        return int(out.stdout)

    first = draw()
    assert draw() == first  # loaded from the cache: same code, same draw
    assert list((tmp_path / "cache").glob("swgym/numba/*/envs/probe/probe.draw-*.nbi"))  # cached in the shared folder
    batched = package / "core" / "batched.py"
    batched.write_text(batched.read_text().replace("0x9E3779B97F4A7C15", "0x9E3779B97F4A7C17"))
    assert draw() != first  # the helper's new constant reached the probe's cached kernel


def test_aligned_copies_begin_on_a_cache_line_whatever_numpy_gives():
    import numpy as np

    from envs.core.jit import CACHE_LINE, aligned

    source = np.arange(30, dtype=np.float64).reshape(5, 6)
    offsets = set()
    for start in range(0, 64, 4):  # sources at every 4-byte offset from a line (views into one buffer)
        raw = np.zeros(200, dtype=np.uint8)[start : start + 120].view(np.float32).reshape(5, 6)
        raw[...] = source
        offsets.add(raw.ctypes.data % CACHE_LINE)
        copy = aligned(raw.T, np.float32)  # a transposed view: the copy is C-ordered
        assert copy.ctypes.data % CACHE_LINE == 0
        assert copy.flags.c_contiguous and copy.flags.writeable and copy.dtype == np.float32
        np.testing.assert_array_equal(copy, source.T)
    assert len(offsets) == 16


KERNEL = """
from envs.core.batched import randint
from envs.core.jit import njit


@njit
def draw(rng):
    return randint(rng, 0, 1 << 30)
"""

ASIDE = """
import sys
from numba import types
from envs.core.jit import cached, compile_aside
from envs.kernel import draw

signature = (types.Array(types.uint64, 1, "C"),)
wrong = (types.float64,)  # randint indexes its argument: a float cannot be typed
assert not cached(draw, signature)
aside = compile_aside([(draw, signature), (draw, wrong)] if sys.argv[1] == "fail" else [(draw, signature)])
aside.wait()
print(cached(draw, signature), compile_aside([(draw, signature)]) is None)
"""


def test_kernels_compiled_aside_are_loaded_from_the_cache_and_a_failure_is_told(tmp_path):
    """compile_aside compiles in a process of its own into the shared cache; this one then loads, not compiles."""
    (_copy_package(tmp_path) / "kernel.py").write_text(KERNEL)
    (tmp_path / "aside.py").write_text(ASIDE)
    env = _env(tmp_path / "cache")
    out = subprocess.run([sys.executable, "aside.py", "ok"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True"]
    said = [line for line in out.stderr.splitlines() if line.startswith("swgym:")]  # this process, not the other
    assert len(said) == 2 and said[0].startswith("swgym: compiling envs.kernel.draw in a second process (")
    assert said[1].startswith("swgym: compiled in "), out.stderr
    loaded = "from envs.kernel import draw; import numpy as np; draw(np.zeros(1, np.uint64)); s = draw.stats; "
    loaded += "print(sum(s.cache_hits.values()), sum(s.cache_misses.values()))"
    out = subprocess.run([sys.executable, "-c", loaded], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert out.stdout.split() == ["1", "0"], out  # loaded, not compiled again
    shutil.rmtree(tmp_path / "cache")
    out = subprocess.run([sys.executable, "aside.py", "fail"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "swgym: compiling in a second process failed (" in out.stderr and "compiling here" in out.stderr
    assert out.stdout.split() == ["True", "True"]  # what came before the failure is in the cache


def test_a_cache_entry_is_saved_only_while_no_other_process_holds_its_folder(tmp_path):
    """numba writes an entry's index, then its data: two processes saving at once could pair one's index with the
    other's data, so each save takes its folder's lock (and each load shares it)."""
    import fcntl
    import threading

    from numba.core.caching import IndexDataCacheFile

    import envs.core.jit  # noqa: F401  (locks numba's cache files)

    cache = IndexDataCacheFile(str(tmp_path), "kernel", "stamp")
    with open(tmp_path / "swgym.lock", "a") as held:  # another process's hold, as flock sees it
        fcntl.flock(held, fcntl.LOCK_EX)
        saving = threading.Thread(target=cache.save, args=("key", b"data"))
        saving.start()
        saving.join(timeout=1.0)
        assert saving.is_alive() and not list(tmp_path.glob("kernel*.nb*"))  # waits for the lock: nothing written
        fcntl.flock(held, fcntl.LOCK_UN)
    saving.join(timeout=30)
    assert not saving.is_alive() and cache.load("key") == b"data"
