"""Limits that hold in ``envs/``, ``policies/`` and ``training/``: no function over 80 lines, none over 8 parameters.

Lines are counted by the flake8 plugin flake8-max-function-length from a function's ``def`` line to its last
line (decorators not counted; its docstring, blank and comment lines counted). Parameters are ruff's PLR0913
with ``max-args`` from ``pyproject.toml`` (``self``, ``cls``, ``*args`` and ``**kwargs`` are not counted), with
nothing set aside: no ``noqa``, no per-file ignore, and ``_``-named parameters counted too.

``make lint`` runs ``python -m tests.function_limits``: it prints each function over a limit and exits 1 if any.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("envs", "policies", "training")
MAX_LINES = 80


def long_functions(paths: Sequence[str | Path]) -> list[str]:
    """``path:line:col: MFL000 Function too long (n > 80)`` for each function of ``paths`` over the line limit."""
    command = [
        sys.executable, "-m", "flake8", "--isolated", "--select=MFL000", f"--max-function-length={MAX_LINES}",
        "--mfl-include-function-definition", "--mfl-include-docstring", "--mfl-include-empty-lines",
        "--mfl-include-comment-lines", *map(str, paths),
    ]  # fmt: skip
    return _findings(command)


def crowded_functions(paths: Sequence[str | Path]) -> list[str]:
    """``path:line:col: PLR0913 Too many arguments ...`` for each function of ``paths`` over the parameter limit."""
    command = [
        sys.executable, "-m", "ruff", "check", "--no-cache", "--quiet", "--output-format=concise", "--ignore-noqa",
        f"--config={ROOT / 'pyproject.toml'}", "--config=lint.per-file-ignores = {}",
        '--config=lint.dummy-variable-rgx = "^$"', "--select=PLR0913", *map(str, paths),
    ]  # fmt: skip
    return _findings(command)


def _findings(command: list[str]) -> list[str]:
    """The lines a linter printed for its findings. A failure of its own (a missing linter or plugin, a bad
    option: a non-zero exit with no finding printed) is raised, never read as a clean tree."""
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    found = [line for line in done.stdout.splitlines() if line.strip() and not line.startswith("Found ")]
    if done.returncode > 1 or (done.returncode and not found):
        raise RuntimeError(f"{' '.join(command[:4])} failed ({done.returncode}): {done.stderr.strip()}")
    return found


def violations(paths: Sequence[str | Path] = FOLDERS) -> list[str]:
    """Every function of ``paths`` over either limit, one line each."""
    return long_functions(paths) + crowded_functions(paths)


def main(argv: Sequence[str] | None = None) -> int:
    found = violations(list(argv) if argv else FOLDERS)
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
