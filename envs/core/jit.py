"""``njit``: numba's compiler with an on-disk cache that goes stale with any source of the ``envs`` package.

numba stamps a cached kernel with its own file only. A kernel compiled with a
helper from another file (``randint`` here, a game's kernels handed to a core
loop, a constant imported from a game's ``env.py``) keeps running the old
helper after that file changes. Every kernel of the package is compiled with
:func:`njit` from this module instead: its cache entries are stamped with one
hash of all the package's ``.py`` files, so an edit anywhere recompiles every
kernel that is used next, and nothing stale runs. Helpers can therefore live
once, in the file they belong to.

Importing this module imports numba; only the batched engines, the tree
search and the Swival solver do, on first use (``import envs`` stays fast).
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

import numba
import numpy as np
from numba.core import caching

PACKAGE = Path(__file__).resolve().parents[1]  # envs/


@cache
def package_stamp() -> str:
    """One hash of every ``.py`` file under ``envs/`` (path and content), computed once per process."""
    digest = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*.py")):
        digest.update(path.relative_to(PACKAGE).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


class _PackageStamp:
    """A numba cache locator whose freshness stamp is :func:`package_stamp` for the package's files."""

    def get_source_stamp(self):
        if Path(self._py_file).resolve().is_relative_to(PACKAGE):
            return package_stamp()
        return super().get_source_stamp()


def _stamped(locator: type) -> type:
    return type(f"Package{locator.__name__}", (_PackageStamp, locator), {})


_LOCATORS = tuple(  # public names since numba 0.60's successors; underscored before
    getattr(caching, name, None) or getattr(caching, "_" + name)
    for name in ("UserProvidedCacheLocator", "InTreeCacheLocator", "UserWideCacheLocator")
)
_IMPL = getattr(caching, "CacheImpl", None) or caching._CacheImpl  # where numba lists its locators
if not any(issubclass(c, _PackageStamp) for c in _IMPL._locator_classes):
    _IMPL._locator_classes = [
        *(_stamped(c) for c in _LOCATORS),
        *(c for c in _IMPL._locator_classes if c not in _LOCATORS),
    ]


CACHE_LINE = 64  # bytes


def aligned(array: np.ndarray, dtype: np.dtype | type | None = None) -> np.ndarray:
    """A writeable C-ordered copy of ``array`` (as ``dtype``) whose data begins on a cache line.

    numpy aligns only to 16 bytes. A kernel's vector loads from an array that begins mid-line straddle two lines
    on every other load, so a compiled network layer's speed would depend on where its arrays happened to land
    (figures: ``results/2026-11-squeeze-compiled.md``)."""
    source = np.asarray(array, dtype=dtype)
    buffer = np.empty(source.nbytes + CACHE_LINE, dtype=np.uint8)
    start = -buffer.ctypes.data % CACHE_LINE
    out = buffer[start : start + source.nbytes].view(source.dtype).reshape(source.shape)
    out[...] = source
    return out


def njit(*args, **kwargs):
    """``numba.njit`` with ``cache=True`` by default, the cache stamped by :func:`package_stamp`."""
    kwargs.setdefault("cache", True)
    return numba.njit(*args, **kwargs)


def per_board(function):
    """:func:`njit` for a function of one board that a core loop maps over the batch (``step_one(i, ...)``).

    Compiled without numba's reference counting (``_nrt=False``): numba otherwise counts references to every
    array of the batch's state tuple on each call, which makes a per-board function several times slower than
    the same body written inside the loop (numba issue #2345; figures in ``results/2026-11-engine-state.md``). So a
    per-board function allocates nothing and returns no array: its scratch space comes in as an argument. It is
    not inlined by numba (that would bring the counting back) but always by LLVM (``forceinline``: LLVM's
    ``alwaysinline``): left to its own judgement, LLVM keeps a large body a call, which hands over every array of
    the state one field at a time, on every board.

    A plain :func:`njit` helper that a per-board function calls is compiled with the caller's flags, once per
    signature: the first caller to compile it decides them for every later caller of that signature. A helper
    shared with an ordinary kernel (Hex-rook's ``_captures``, also called by the medium bot) therefore takes
    numba's ``inline="always"``, so that each caller compiles its own copy.
    """
    return njit(_nrt=False, forceinline=True)(function)


@njit(cache=False, inline="always")
def copy_into(dst, src):
    """``dst`` becomes a copy of ``src`` (arrays of one size), element by element. Nothing is allocated, so a
    function compiled without reference counting (:func:`per_board`, ``njit(_nrt=False)``) can copy with it:
    numba's slice or row assignment (``dst[:] = src``) may copy its source first, which allocates."""
    to = dst.flat
    for j, v in enumerate(src.flat):
        to[j] = v


__all__ = ["CACHE_LINE", "PACKAGE", "aligned", "copy_into", "njit", "package_stamp", "per_board"]
