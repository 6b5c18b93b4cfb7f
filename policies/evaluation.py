"""Evaluation of saved policies and bots: seeded series with win/draw/loss, 95% confidence intervals and
think times, seats rotated (deals duplicated in card games); the progress printer the long runs share.
Needs no torch."""

from __future__ import annotations

import json
import math
import os
import statistics
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from envs.core.opponents import NETWORK_PREFIX, SHIPPED_NAMES
from envs.play import (
    Openings,
    SeriesResult,
    check_duplicate_games,
    check_opening_plies,
    merge_series,
    play_series,
    uses_duplicate_deals,
)


def wilson_interval(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: list[float], critical: float = 1.96) -> tuple[float, float, float]:
    """(mean, low, high): the mean of ``values`` +- ``critical`` standard errors (1.96: 95% by the normal
    approximation; a t quantile for few values). Infinite when there is a single value."""
    mean = statistics.fmean(values)
    half = critical * statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else float("inf")
    return mean, mean - half, mean + half


def is_terminal(stream) -> bool:
    """Whether ``stream`` is a terminal (where a bar redrawn in place with ``\\r`` is readable)."""
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (ValueError, OSError):  # a closed or detached stream
        return False


def progress_printer(total: int, label: str, stream=None):
    """A callback showing ``label: done/total``, to stderr by default: a bar redrawn in place on a
    terminal, else (a log file, a pipe) a plain line at every tenth of the way, so logs are not flooded."""
    stream = stream or sys.stderr  # looked up now: a default bound at import outlives a replaced stderr
    terminal = is_terminal(stream)
    step = max(1, total // (50 if terminal else 10))

    def show(done: int) -> None:
        if done % step == 0 or done == total:
            if terminal:
                bar = "#" * int(30 * done / total)
                stream.write(f"\r{label}: [{bar:<30}] {done}/{total}")
                if done == total:
                    stream.write("\n")
            else:
                stream.write(f"{label}: {done}/{total}\n")
            stream.flush()

    return show


def _play_chunk(job: tuple[str, list[Any], int, int, int, bool, int, dict[str, Any]]) -> tuple[int, SeriesResult]:
    """(its first game, the chunk's series) of one chunk of games."""
    name, entrants, count, seed, first, duplicate, opening_plies, params = job
    return first, play_series(
        name, entrants, count, seed=seed, first_game=first, duplicate=duplicate, opening_plies=opening_plies, **params
    )


@dataclass(frozen=True)
class SeriesRun:
    """How a series is played out, which never changes its result: in ``jobs`` processes, and with every finished
    chunk of games kept in the file ``checkpoint`` (:class:`SeriesCheckpoint`), so a series stopped part way
    plays only its missing games when run again."""

    jobs: int = 1
    checkpoint: str | Path | None = None


def evaluate(
    name: str,
    entrants: list[Any],
    games: int,
    seed: int = 0,
    quiet: bool = False,
    duplicate: bool | None = None,
    opening_plies: int | Openings = 0,
    run: SeriesRun | None = None,
    **params: Any,
) -> SeriesResult:
    """A seeded series with a progress bar; ``run`` (:class:`SeriesRun`) spreads it over processes or keeps it
    in a checkpoint file (same result). ``duplicate``: deals replayed with the seats rotated (default: the
    game's choice; see :func:`envs.play.play_series`); ``opening_plies``: random plies each game begins with
    (duplicate by default)."""
    run = run or SeriesRun()
    if games < 1:
        raise ValueError(f"games must be >= 1, got {games}")
    if run.jobs < 1:
        raise ValueError(f"jobs must be >= 1, got {run.jobs}")
    opening_plies = check_opening_plies(opening_plies)
    duplicate = uses_duplicate_deals(name, duplicate, opening_plies, **params)
    if duplicate:
        check_duplicate_games(len(entrants), games)
    progress = None if quiet else progress_printer(games, _series_label(name, entrants, duplicate, opening_plies))
    if run.checkpoint is None and (run.jobs == 1 or games < 2):
        return play_series(
            name, entrants, games, seed=seed, progress=progress, duplicate=duplicate, opening_plies=opening_plies,
            **params,
        )  # fmt: skip
    if not all(isinstance(e, (str, Path)) for e in entrants):
        raise ValueError(
            "evaluate with jobs > 1 or a checkpoint takes entrants by name or policy path (they are rebuilt per "
            "process and named in the checkpoint)"
        )
    entrants = [str(e) for e in entrants]
    book = None
    if run.checkpoint is not None:
        series = {
            "game": name, "entrants": entrants, "games": games, "seed": seed, "duplicate": duplicate,
            "opening_plies": opening_plies.to_json(), "params": params,
            "policy_files": policy_hashes(name, entrants, params),
        }  # fmt: skip
        book = SeriesCheckpoint(run.checkpoint, series)
    parts = list(book.parts.values()) if book else []
    done = sum(part.games for part in parts)
    if done and not quiet:
        print(f"checkpoint {run.checkpoint}: {done} of {games} games already played", file=sys.stderr)
    chunk = max(1, min(10, games // (4 * run.jobs)))
    if duplicate:  # whole deals in a chunk
        chunk = len(entrants) * max(1, chunk // len(entrants))
    work = [
        (name, entrants, count, seed, first, duplicate, opening_plies, params)
        for first, count in missing_games(games, book.parts if book else {}, chunk)
    ]

    def finished(first: int, part: SeriesResult) -> None:
        nonlocal done
        parts.append(part)
        if book is not None:
            book.add(first, part)
        done += part.games
        if progress is not None:
            progress(done)

    _play_chunks(work, run.jobs, finished)
    return merge_series(parts)


def _series_label(name: str, entrants: list[Any], duplicate: bool, opening_plies: Openings) -> str:
    """The progress bar's label: the game, the entrants, and how the games open."""
    if opening_plies:
        how = f" ({opening_plies.describe()}" + (", each in every seating)" if duplicate else ")")
    else:
        how = " (duplicate deals)" if duplicate else ""
    return f"{name}: {' vs '.join(map(str, entrants))}{how}"


def _play_chunks(work: list[tuple], jobs: int, finished: Callable[[int, SeriesResult], None]) -> None:
    """Every chunk of ``work``, here or in ``jobs`` processes, each handed to ``finished`` as it ends."""
    if jobs == 1:
        for job in work:
            finished(*_play_chunk(job))
        return
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        for first, part in pool.imap_unordered(_play_chunk, work):
            finished(first, part)


def missing_games(games: int, played: dict[int, SeriesResult], chunk: int) -> list[tuple[int, int]]:
    """(first game, count) of the chunks of at most ``chunk`` games that are left of ``games`` once the parts
    ``played`` (by first game) are taken out; a chunk starts at a multiple of ``chunk`` or where a part ended, so
    whole deals stay whole."""
    taken = sorted((first, first + part.games) for first, part in played.items())
    left, start = [], 0
    for first, end in [*taken, (games, games)]:
        for begin in range(start, first, chunk):
            left.append((begin, min(chunk, first - begin)))
        start = max(start, end)
    return left


def policy_hashes(name: str, entrants: list[str], params: dict[str, Any]) -> dict[str, str]:
    """The sha256 of the policy file behind each entrant that has one (a path, ``network:PATH``, or the shipped
    file behind ``hard`` and ``network``), by entrant: a checkpoint refuses to mix games of two files."""
    from policies import shipped_path
    from policies.provenance import sha256

    hashes = {}
    for entrant in entrants:
        if entrant in SHIPPED_NAMES:
            path = shipped_path(name, **params)
        elif entrant.startswith(NETWORK_PREFIX):
            path = Path(entrant[len(NETWORK_PREFIX) :])
        else:
            path = Path(entrant)
        if path.is_file():
            hashes[entrant] = sha256(path)
    return hashes


class SeriesCheckpoint:
    """A JSON file of one series' finished chunks of games, written after every chunk (to a temporary file,
    then renamed, so a stopped run leaves the last whole file). Opening a file of another series (other game,
    entrants, games, seed, rules, or a policy file whose bytes changed) is an error that names what differs."""

    FORMAT = 1

    def __init__(self, path: str | Path, series: dict[str, Any]) -> None:
        self.path, self.series = Path(path), json.loads(json.dumps(series))  # as the file will hold it
        self.parts: dict[int, SeriesResult] = {}
        if self.path.exists():
            self._load()
        elif not self.path.parent.is_dir():
            raise ValueError(f"checkpoint {self.path}: folder {self.path.parent} not found")
        else:
            self._save()

    def _load(self) -> None:
        try:
            data = json.loads(self.path.read_text())
            if data.get("format") != self.FORMAT:
                raise ValueError(f"format {data.get('format')!r}, expected {self.FORMAT}")
            kept = data["series"]
            parts = {int(p["first_game"]): SeriesResult(**p["result"]) for p in data["parts"]}
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
            raise ValueError(f"checkpoint {self.path} is not a series checkpoint of this program ({e})") from e
        differs = [
            f"{key}: {kept.get(key)!r} there, {value!r} here"
            for key, value in self.series.items()
            if kept.get(key) != value
        ]
        if differs:
            raise ValueError(f"checkpoint {self.path} holds another series ({'; '.join(differs)})")
        ends = sorted((first, first + part.games) for first, part in parts.items())
        bad = any(
            first < 0 or end > self.series["games"] or (k and first < ends[k - 1][1])
            for k, (first, end) in enumerate(ends)
        )
        names = {tuple(part.names) for part in parts.values()}
        if bad or names - {tuple(self.series["entrants"])}:
            raise ValueError(f"checkpoint {self.path} is damaged: its parts overlap, overrun or name other entrants")
        self.parts = parts

    def add(self, first: int, part: SeriesResult) -> None:
        """Keep the chunk of games from ``first``, and write the file."""
        self.parts[first] = part
        self._save()

    def _save(self) -> None:
        data = {
            "format": self.FORMAT,
            "series": self.series,
            "parts": [{"first_game": f, "result": asdict(self.parts[f])} for f in sorted(self.parts)],
        }
        partial = self.path.with_name(self.path.name + ".partial")
        partial.write_text(json.dumps(data) + "\n")
        os.replace(partial, self.path)


def table_rows(result: SeriesResult) -> list[dict[str, Any]]:
    rows = []
    for i, name in enumerate(result.names):
        lo, hi = wilson_interval(result.wins[i], result.games)
        rows.append(
            {
                "entrant": name,
                "seat_index": i,
                "games": result.games,
                "wins": result.wins[i],
                "draws": result.draws[i],
                "losses": result.losses[i],
                "win_rate": result.wins[i] / result.games,
                "win_ci95": [lo, hi],
                "mean_return": result.returns[i] / result.games,
                "duplicate_deals": result.duplicate,
                "opening_plies": result.opening_plies.to_json(),
                **think_times(result.move_seconds[i]),
            }
        )
    return rows


def think_times(seconds: list[float]) -> dict[str, float]:
    """Median and longest seconds a move (the 1 s budget of play-time search is checked against these)."""
    if not seconds:
        return {"median_move_s": 0.0, "max_move_s": 0.0}
    return {"median_move_s": float(statistics.median(seconds)), "max_move_s": float(max(seconds))}


def format_rows(rows: list[dict[str, Any]]) -> str:
    out = [
        f"{'entrant':<28} {'games':>5} {'win':>5} {'draw':>5} {'loss':>5} {'win rate':>9}  {'95% CI':<16}"
        f"  s/move (median, max)"
    ]
    for r in rows:
        lo, hi = r["win_ci95"]
        name = r["entrant"] if len(r["entrant"]) <= 28 else "..." + r["entrant"][-25:]
        out.append(
            f"{name:<28} {r['games']:>5} {r['wins']:>5} {r['draws']:>5} {r['losses']:>5} "
            f"{r['win_rate']:>8.1%}  {f'[{lo:.1%}, {hi:.1%}]':<16}"
            f"  {r['median_move_s']:.3f}, {r['max_move_s']:.3f}"
        )
    return "\n".join(out)
