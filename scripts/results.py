"""``swgym results``: measure again every shown result whose policy files are not the shipped ones.

Each result of ``results/provenance.json`` (EVAL rows, Elo ladders, the game pages' GIFs and board pictures) is
made again when its record is stale or names a policy file that differs from the shipped one (``--all``: every
one), and its record is rewritten at once: command, date, commit and the sha256 of each policy file. So a run cut
short goes on where it stopped when started again.
"""

from __future__ import annotations

import datetime
import importlib.util
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from policies.provenance import ROOT, find, is_current, load_records, save_records, sha256

RESULTS = ROOT / "results"


def _commit() -> str:
    """HEAD's commit, with ``-dirty`` when the work tree differs from it."""

    def git(*a: str) -> str:
        return subprocess.run(["git", *a], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()

    try:
        head = git("rev-parse", "HEAD")
        return head + ("-dirty" if git("status", "--porcelain", "--untracked-files=no") else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown (no git checkout)"


def _params(rules: str) -> dict[str, Any]:
    if rules == "default":
        return {}
    key, value = rules.split("=")
    return {key: int(value) if value.isdigit() else value}


def _eval_row(record: dict[str, Any], games: int, jobs: int) -> str:
    from policies.report import report, write_report

    name, rules, entrant, against = (c.strip() for c in record["part"].split("|"))
    params = _params(rules)
    rows = report(games, [name], variants={name: [params]}, pairs=[(entrant, against.split(" x ")[1])], jobs=jobs)
    write_report(rows, RESULTS)
    return f"swgym report {name} (the row {entrant} against {against}, --games {games}, --seed 1)"


def _ladder(record: dict[str, Any], jobs: int) -> str:
    """The ladder made again by the command its record names, run as that command (``swgym ladder ...``, in a
    process of its own: scripts.cli runs this module, so this module does not import it)."""
    path = ROOT / record["result"]
    saved = json.loads(path.with_suffix(".json").read_text())
    entrants = list(dict.fromkeys(name for pair in saved["pairs"] for name in (pair["a"], pair["b"])))
    argv = ["ladder", saved["game"], "--entrants", *entrants, "--games", str(saved["games_per_pair"])]
    if saved.get("opening_plies"):
        argv += ["--opening-plies", str(saved["opening_plies"])]
    for key, value in saved.get("params", {}).items():  # the rules it was rated under, as --rule
        argv += ["--rule", f"{key}={value!r}"]
    argv += ["--out", str(path.parent.relative_to(ROOT))]
    subprocess.run([sys.executable, "-m", "scripts.cli", *argv, "--jobs", str(jobs)], cwd=ROOT, check=True)
    return "swgym " + " ".join(argv)


def _assets():
    spec = importlib.util.spec_from_file_location("make_assets", ROOT / "docs" / "make_assets.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def picture_record(records: list[dict[str, Any]], result: str, command: str, policies: dict, **extra: Any) -> None:
    """Write (in ``records``) what made the picture ``result``: ``command``, today, the commit, the sha256 of each
    of ``policies`` (paths) and ``extra`` (a GIF's seed and outcome)."""
    record = next((r for r in records if r["result"] == result), None)
    if record is None:
        record = {}
        records.append(record)
    record.clear()
    record.update(
        result=result,
        part="",
        command=command,
        date=datetime.date.today().isoformat(),
        commit=_commit(),
        policies={p: sha256(ROOT / p) for p in policies},
        **extra,
    )


def regenerate(record: dict[str, Any], games: int, jobs: int = 1) -> None:
    """Make ``record``'s result (an EVAL row or a ladder) again and rewrite the record (in place); ``jobs``
    processes play each series (the same games as one)."""
    result = record["result"]
    if result == "results/EVAL.md":
        command = _eval_row(record, games, jobs)
    elif result.endswith("_ladder.png"):
        command = _ladder(record, jobs)
    else:
        raise ValueError(f"swgym results does not know how to make {result}")
    record.update(
        command=command,
        date=datetime.date.today().isoformat(),
        commit=_commit(),
        policies={p: sha256(ROOT / p) for p in record["policies"]},
    )
    record.pop("stale", None)
    record.pop("note", None)


def main(redo_all: bool = False, dry_run: bool = False, games: int = 400, jobs: int = 1) -> int:
    """Make again the results that need it, printing progress; returns how many were (or would be) made."""
    records = load_records()
    todo = [(r["result"], r["part"]) for r in records if redo_all or r.get("stale") or not is_current(r)]
    print(f"swgym results: {len(todo)} of {len(records)} results to make", flush=True)
    for i, (result, part) in enumerate(todo, 1):
        print(f"[{i}/{len(todo)}] {result}" + (f" [{part}]" if part else ""), flush=True)
        if dry_run:
            continue
        started = time.time()
        if result.startswith("docs/assets/"):  # the game's GIF and board picture; make_assets.py records them
            _assets().main([Path(result).stem.removesuffix("_board")])
        else:
            records = load_records()  # as the last result left them
            regenerate(find(records, result, part), games, jobs)
            save_records(records)  # after each result: an interrupted run goes on from here
        print(f"[{i}/{len(todo)}] done in {time.time() - started:.0f} s", flush=True)
    return len(todo)
