"""``njit``: numba's compiler with an on-disk cache that goes stale with any source of ``envs`` or ``policies``.

numba stamps a cached kernel with its own file only. A kernel compiled with a
helper from another file (``randint`` here, a game's kernels handed to a core
loop, a constant imported from a game's ``env.py``) keeps running the old
helper after that file changes. Every kernel of the package is compiled with
:func:`njit` from this module instead: its cache entries are stamped with one
hash of all the package's ``.py`` files, so an edit anywhere recompiles every
kernel that is used next, and nothing stale runs. Helpers can therefore live
once, in the file they belong to. The search library's kernels (``policies/search``)
call the engines' kernels, so both packages share one stamp.

The cache is shared: it lives in one folder per stamp under the user's cache
(:func:`cache_root`), its entries named by their file's path inside the
package, so every clone and install of the same source reads what any of
them compiled. A compile that runs past :data:`ANNOUNCE_AFTER` seconds says
so once on stderr (:class:`_CompileNotice`).

Importing this module imports numba; only the batched engines, the tree
search and the Swival solver do, on first use (``import envs`` stays fast).
"""

from __future__ import annotations

import hashlib
import os
import pickle
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from functools import cache
from pathlib import Path

import numba
import numpy as np
from numba.core import caching, event

try:
    import fcntl
except ImportError:  # not POSIX: numba's cache as it is
    fcntl = None

ROOT = Path(__file__).resolve().parents[2]  # the folder that holds envs/ and policies/
PACKAGES = (ROOT / "envs", ROOT / "policies")  # the packages whose kernels are compiled with njit


def in_packages(path: str | Path) -> bool:
    """Whether ``path`` is a file of one of :data:`PACKAGES`."""
    resolved = Path(path).resolve()
    return any(resolved.is_relative_to(package) for package in PACKAGES)


@cache
def package_stamp() -> str:
    """One hash of every ``.py`` file under :data:`PACKAGES` (path and content), computed once per process."""
    digest = hashlib.sha256()
    for path in sorted(p for package in PACKAGES for p in package.rglob("*.py")):
        digest.update(path.relative_to(ROOT).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


STAMP_DIGITS = 16  # of the stamp, in the name of its cache folder
KEEP_DAYS = 30  # a stamp's folder unused for longer is removed when another stamp's is made


def cache_root() -> Path:
    """Where the package's compiled kernels are kept: ``NUMBA_CACHE_DIR`` if set (numba's own variable), else
    ``swgym/numba`` in ``XDG_CACHE_HOME`` (``~/.cache`` by default)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "swgym" / "numba"


@cache
def stamp_dir() -> Path:
    """This source's cache folder (``cache_root() / <stamp>``), marked as used now; other stamps' folders unused
    for :data:`KEEP_DAYS` go, so that edits do not fill the disk."""
    root = cache_root()
    folder = root / package_stamp()[:STAMP_DIGITS]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "used").touch()
    _forget_old_stamps(root, keep=folder)
    return folder


def _forget_old_stamps(root: Path, keep: Path) -> None:
    import shutil

    cutoff = time.time() - KEEP_DAYS * 86400
    for folder in root.iterdir():
        marker = folder / "used"
        if folder != keep and marker.is_file() and marker.stat().st_mtime < cutoff:
            shutil.rmtree(folder, ignore_errors=True)


class _SharedLocator(getattr(caching, "CacheLocator", None) or caching._CacheLocator):
    """Caches a kernel of the package in :func:`stamp_dir`, under its file's path inside the package (not the
    absolute path numba's own locators hash), stamped by :func:`package_stamp`."""

    def __init__(self, py_func, py_file):
        self._py_file, self._lineno = py_file, py_func.__code__.co_firstlineno
        relative = Path(py_file).resolve().relative_to(ROOT)
        self._cache_path = str(stamp_dir() / relative.parent / relative.stem)

    def get_cache_path(self):
        return self._cache_path

    def get_source_stamp(self):
        return package_stamp()

    def get_disambiguator(self):
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file):
        if not in_packages(py_file):
            return None
        try:
            locator = cls(py_func, py_file)
            locator.ensure_cache_path()
        except OSError:  # no writable cache: numba's own locators (beside the source, then its user dir) try
            return None
        return locator


class _PackageStamp:
    """A numba cache locator whose freshness stamp is :func:`package_stamp` for the package's files."""

    def get_source_stamp(self):
        if in_packages(self._py_file):
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
        _SharedLocator,
        *(_stamped(c) for c in _LOCATORS),
        *(c for c in _IMPL._locator_classes if c not in _LOCATORS),
    ]


def _locked(method, how: int):
    """numba's cache-file ``method`` under a lock of its folder: numba writes an entry's index and data one after
    the other, so two processes saving kernels of one file at once (:func:`compile_aside`, ``swgym warmup``) could
    leave the index naming the other's data."""

    def run(self, *args):
        if not os.path.isdir(self._cache_path):
            return method(self, *args)
        with open(os.path.join(self._cache_path, "swgym.lock"), "a") as lock:
            fcntl.flock(lock, how)
            return method(self, *args)

    run.locked = True
    return run


if fcntl is not None and not getattr(caching.IndexDataCacheFile.save, "locked", False):
    caching.IndexDataCacheFile.save = _locked(caching.IndexDataCacheFile.save, fcntl.LOCK_EX)
    caching.IndexDataCacheFile.load = _locked(caching.IndexDataCacheFile.load, fcntl.LOCK_SH)


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


ANNOUNCE_AFTER = 2.0  # seconds of compiling before the user is told what is happening

#: Seconds that a kernel's first compile took in an empty cache on a 2-core x86-64 machine (``swgym bench --cold``,
#: rounded up), by kernel: what the notice says to expect. Kernels not listed get no estimate.
EXPECTED_SECONDS = {
    "envs.hexrook.batched.medium_kernel": 8,
    "envs.hexrook.batched.random_others": 8,
    "envs.swahili.batched.random_others": 6,
    "envs.swimming.batched.observe": 3,
    "envs.swimming.batched.random_others": 10,
    "envs.swimming.batched.reset": 3,
    "envs.swival.batched.random_others": 4,
    "envs.twirls.batched.random_others": 6,
}


def _about(expected: float | None) -> str:
    return f"about {expected:.0f} s" if expected else "seconds to minutes"


def _say_compiling(what: str, about: str) -> None:
    """The one line that says a compile begins: what, about how long, where it is cached."""
    print(f"swgym: compiling {what} ({about}, once for this version of the package; cached in {stamp_dir()})",
          file=sys.stderr, flush=True)  # fmt: skip


def _say_compiled(started: float) -> None:
    print(f"swgym: compiled in {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)


class _CompileNotice(event.Listener):
    """Says on stderr, once per kernel, that a compile of one of the package's kernels has run for
    :data:`ANNOUNCE_AFTER` seconds (what, about how long, where it is cached), and when it ends; nothing while
    :func:`announced` has said it for a whole compile (``quiet``)."""

    def __init__(self):
        self.depth, self.timer, self.started, self.told, self.telling, self.quiet = 0, None, 0.0, set(), False, 0

    def on_start(self, ev):
        self.depth += 1
        function = ev.data["dispatcher"].py_func
        name = f"{function.__module__}.{function.__qualname__}"
        if self.quiet or os.environ.get(_ASIDE):
            return
        if self.depth == 1 and name not in self.told and name.split(".")[0] in ("envs", "policies"):
            self.started = time.perf_counter()
            self.timer = threading.Timer(ANNOUNCE_AFTER, self._tell, (name,))
            self.timer.daemon = True
            self.timer.start()

    def on_end(self, ev):
        self.depth -= 1
        if self.depth == 0 and self.timer is not None:
            self.timer.cancel()
            self.timer = None
            if self.telling:
                _say_compiled(self.started)
            self.telling = False

    def _tell(self, name):
        if self.depth == 0:
            return
        self.told.add(name)
        self.telling = True
        _say_compiling(name, _about(EXPECTED_SECONDS.get(name)))


_NOTICE = _CompileNotice()
event.register("numba:compile", _NOTICE)


@contextmanager
def announced(what: str, expected: float):
    """Say on stderr that ``what`` compiles now (about ``expected`` seconds, where it is cached), and how long it
    took; the compiles inside say nothing more."""
    _say_compiling(what, _about(expected))
    started = time.perf_counter()
    _NOTICE.quiet += 1
    try:
        yield
    finally:
        _NOTICE.quiet -= 1
    _say_compiled(started)


def cached(dispatcher, signature: tuple) -> bool:
    """Whether ``dispatcher`` (a :func:`njit` function) has ``signature`` (its argument types) compiled, in this
    process or in the cache (numba's index of the function's cache entries, read, not loaded)."""
    if tuple(signature) in dispatcher.overloads:
        return True
    cache = dispatcher._cache
    if not hasattr(cache, "_index_key"):  # compiled without a cache
        return False
    key = cache._index_key(tuple(signature), dispatcher.targetctx.codegen())
    return key in cache._cache_file._load_index()


_ASIDE = "SWGYM_COMPILING_ASIDE"  # set in the process of compile_aside: it says nothing on stderr


class Aside:
    """Kernels compiling into the cache in a process of their own (:func:`compile_aside`); :meth:`wait` for it.
    Said on stderr as it starts and ends, unless inside :func:`announced`."""

    def __init__(self, jobs: list, imports: tuple[str, ...]) -> None:
        self._told = not _NOTICE.quiet
        if self._told:
            names = ", ".join(f"{module}.{name}" for module, name, _ in jobs)
            expected = max(EXPECTED_SECONDS.get(f"{module}.{name}", 0) for module, name, _ in jobs)
            _say_compiling(f"{names} in a second process", _about(expected))
        self._started = time.perf_counter()
        self._log = tempfile.TemporaryFile()  # noqa: SIM115  (closed by wait: the process writes it meanwhile)
        env = {**os.environ, _ASIDE: "1", "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
        self._process = subprocess.Popen(
            [sys.executable, "-m", "envs.core.compile_aside"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
            stderr=self._log, env=env,
        )  # fmt: skip
        self._process.stdin.write(pickle.dumps((imports, jobs)))
        self._process.stdin.close()

    def wait(self) -> None:
        """Wait until it ends. Should it fail, say so (its last line): what it did not compile is compiled here."""
        if self._process.wait():
            self._log.seek(0)
            lines = self._log.read().decode(errors="replace").strip().splitlines() or ["no message"]
            print(f"swgym: compiling in a second process failed ({lines[-1]}); compiling here", file=sys.stderr)
        elif self._told:
            _say_compiled(self._started)
        self._log.close()


def compile_aside(jobs, imports: tuple[str, ...] = ()) -> Aside | None:
    """Compile ``jobs`` (pairs of a :func:`njit` function and its argument types) into the cache in a new process,
    after importing ``imports`` (modules that register what they call), while this process compiles something
    else: numba compiles on one core. None when each is compiled or cached already."""
    todo = [
        (function.py_func.__module__, function.py_func.__name__, tuple(signature))
        for function, signature in jobs
        if not cached(function, signature)
    ]
    return Aside(todo, imports) if todo else None


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


__all__ = [
    "CACHE_LINE",
    "PACKAGES",
    "aligned",
    "announced",
    "cached",
    "compile_aside",
    "cache_root",
    "copy_into",
    "njit",
    "package_stamp",
    "per_board",
    "stamp_dir",
]
