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


def test_a_kernel_compiled_with_a_helper_of_another_file_sees_that_file_change(tmp_path):
    """numba alone stamps a cached kernel with its own file: the probe would keep the old ``randint``."""
    package = tmp_path / "envs"
    shutil.copytree(Path(envs.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__"))
    (package / "probe.py").write_text(PROBE)  # a kernel of the package, in a file of its own
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}  # the cache beside the copied sources

    def draw() -> int:
        out = subprocess.run(
            [sys.executable, "-m", "envs.probe"], cwd=tmp_path, env=env, capture_output=True, text=True, check=True
        )
        return int(out.stdout)

    first = draw()
    assert draw() == first  # loaded from the cache: same code, same draw
    assert list(package.glob("__pycache__/probe.draw-*.nbi"))  # the probe's kernel was cached
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
