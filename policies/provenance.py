"""What produced each result the documentation shows: ``results/provenance.json``.

A record names one shown result (``result``: a file; ``part``: a row of a table, or ``""``) and what produced it:
the ``command``, the ``date``, the ``commit`` and the sha256 of each policy file it measured (``policies``, paths
relative to the repository). :func:`problems` compares those hashes with the shipped files: a result measured on
another file than the one shipped is an error unless its record says ``"stale": true`` (then the page shows it as
measured on an earlier file, and ``swgym results`` measures it again).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PROVENANCE = ROOT / "results" / "provenance.json"


def sha256(path: str | Path) -> str:
    """The sha256 of a file, hex."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def load_records(path: str | Path = PROVENANCE) -> list[dict[str, Any]]:
    """The records of ``path`` (``[]`` when there is no such file)."""
    path = Path(path)
    return json.loads(path.read_text())["records"] if path.exists() else []


def save_records(records: list[dict[str, Any]], path: str | Path = PROVENANCE) -> None:
    """Write ``records``, sorted by result and part, so a diff shows what changed."""
    records = sorted(records, key=lambda r: (r["result"], r["part"]))
    Path(path).write_text(json.dumps({"records": records}, indent=1) + "\n")


def find(records: list[dict[str, Any]], result: str, part: str = "") -> dict[str, Any] | None:
    """The record of ``result`` (and ``part``), or None."""
    return next((r for r in records if r["result"] == result and r["part"] == part), None)


def is_current(record: dict[str, Any], root: str | Path = ROOT) -> bool:
    """Whether every policy file the record names is, byte for byte, the one in ``root``."""
    root = Path(root)
    return all((root / p).exists() and sha256(root / p) == h for p, h in record["policies"].items())


def problems(records: list[dict[str, Any]], root: str | Path = ROOT) -> list[str]:
    """One line per record whose policy hashes differ from the files in ``root`` without being marked stale,
    or that is marked stale although its files are current."""
    found = []
    for r in records:
        where = f"{r['result']}" + (f" [{r['part']}]" if r["part"] else "")
        current = is_current(r, root)
        if not current and not r.get("stale"):
            changed = [
                p for p, h in r["policies"].items() if not (Path(root) / p).exists() or sha256(Path(root) / p) != h
            ]
            found.append(f"{where}: measured on another {', '.join(changed)} than the shipped one (swgym results)")
        if current and r.get("stale"):
            found.append(f"{where}: marked stale, but its policy files are the shipped ones")
    return found


def shipped_file(name: str, params: dict[str, Any]) -> str:
    """The shipped hard file of game ``name`` under rule ``params``, relative to the repository."""
    from policies import shipped_path

    return shipped_path(name, **params).relative_to(ROOT).as_posix()
