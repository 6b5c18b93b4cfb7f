"""``python -m envs.core.compile_aside``: compile the kernels a parent process hands over into the shared cache.

The parent (:func:`envs.core.jit.compile_aside`) writes on this process's standard input the modules to import
first and the kernels to compile, as (module, function name, argument types), pickled; it compiles other kernels
meanwhile and then loads these from the cache.
"""

from __future__ import annotations

import importlib
import pickle
import sys


def main() -> None:
    imports, jobs = pickle.loads(sys.stdin.buffer.read())
    for module in imports:
        importlib.import_module(module)
    for module, name, signature in jobs:
        getattr(importlib.import_module(module), name).compile(signature)


if __name__ == "__main__":
    main()
