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
