"""Baseline learning curves by wall-clock minute: the quick path and PPO from scratch (``swgym curves GAME``).

Two runs of ``minutes`` each, one after the other on the same machine:

* ``quick``: the quick path (:mod:`training.quick`: record, imitate, ppo, evaluate);
* ``scratch``: MaskablePPO from a random network against ``random`` on the batched vector env, with the quick
  path's network and PPO settings.

Each run saves its bare network (no play-time search) once a minute has passed since its start, in ``<out>/<run>/``
(``minute-02.npz``: the network after 2 minutes; the quick path has none while it records), and its last network at
its end. Then every saved network plays ``games`` games against each opponent (``random``, ``easy``, ``medium``),
seats rotated (duplicate deals in Swimming), and the scores (wins + half the draws) by minute go to ``curves.csv``
and ``curves.md`` in the run folder.
"""

from __future__ import annotations

import csv
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from envs.play import distinct_games, play_series
from envs.registry import make_raw
from policies.numpy_policy import read_policy_file, write_policy_file
from training.export import export_policy
from training.progress import Progress
from training.quick import Clock, Log, QuickSettings, _model, ppo, quick_train

OPPONENTS = ("random", "easy", "medium")
RUNS = ("quick", "scratch")


@dataclass(frozen=True)
class CurveSettings:
    """What ``swgym curves`` runs and plays: each run's minutes, a snapshot every ``every`` seconds, ``games``
    games a snapshot and opponent, each opening with ``opening_plies`` random plies (players that answer every
    position the same way otherwise replay one game per seating)."""

    minutes: float = 10.0
    every: float = 60.0
    games: int = 100
    opponents: tuple[str, ...] = OPPONENTS
    seed: int = 0
    opening_plies: int = 0


class Snapshots:
    """A run's network saved each time another ``every`` seconds have passed since ``start``: ``minute-K.npz``
    in ``folder`` (K the whole periods passed; a period passed with no network yet is skipped), and the run's last
    network as ``minute-end.npz``; ``saved``: each one's minute since the start (a fraction) and path."""

    def __init__(self, folder: Path, name: str, params: dict[str, Any], start: float, every: float = 60.0) -> None:
        self.folder, self.name, self.params, self.start, self.every = folder, name, params, start, every
        self.mark = -1
        self.saved: list[tuple[float, Path]] = []

    def __call__(self, policy) -> None:
        """Save ``policy`` if a new period began since the last save."""
        mark = int((time.time() - self.start) // self.every)
        if mark > self.mark:
            self.mark = mark
            self._add(export_policy(policy, self.folder / f"minute-{mark:02d}.npz", self.name, self.params))

    def end(self, policy) -> None:
        """Save ``policy`` as the run's last network."""
        self._add(export_policy(policy, self.folder / "minute-end.npz", self.name, self.params))

    def keep(self, path: str | Path) -> None:
        """The policy file ``path`` as the run's last network, without its play-time search (bare networks
        throughout the curve)."""
        meta, arrays = read_policy_file(path)
        meta.pop("search", None)
        self._add(write_policy_file(self.folder / "minute-end.npz", meta, arrays))

    def _add(self, path: Path) -> None:
        self.saved.append((round((time.time() - self.start) / 60, 2), Path(path)))


def scratch_run(
    name: str, params: dict[str, Any], out_dir: Path, config: dict[str, Any], quick: QuickSettings,
    settings: CurveSettings,
) -> Snapshots:  # fmt: skip
    """MaskablePPO from a random network against random for ``settings.minutes``, a snapshot a period."""
    start = time.time()
    out_dir.mkdir(parents=True, exist_ok=True)
    log = Log(name, out_dir)
    model = _model(name, params, config, quick, opponent="random")
    snapshots = Snapshots(out_dir, name, params, start, settings.every)
    snapshots(model.policy)
    ppo(model, replace(quick, ppo_steps=None), Clock("ppo", start + settings.minutes * 60, log), snapshots)
    snapshots.end(model.policy)
    model.get_env().close()
    return snapshots


def score_snapshots(name: str, params: dict[str, Any], runs: dict[str, Snapshots], settings: CurveSettings):
    """Every snapshot of ``runs`` against every opponent: a row each (run, minute, opponent, games, wins, draws,
    losses, score, and how many of the games differ in their moves)."""
    players = make_raw(name, **params).game.num_players
    jobs = [(run, *saved, o) for run, snaps in runs.items() for saved in snaps.saved for o in settings.opponents]
    bar = Progress("curves", f"{name}: {len(jobs)} snapshot x opponent series", len(jobs), "series")
    rows = []
    for k, (run, minute, path, opponent) in enumerate(jobs):
        entrants = [str(path)] + [opponent] * (players - 1)
        result = play_series(
            name, entrants, settings.games, seed=settings.seed, opening_plies=settings.opening_plies, **params
        )
        wins, draws = int(result.wins[0]), int(result.draws[0])
        rows.append({
            "run": run, "minute": minute, "opponent": opponent,
            "games": result.games, "wins": wins, "draws": draws, "losses": result.games - wins - draws,
            "score": round((wins + draws / 2) / result.games, 4), "distinct": distinct_games(result),
        })  # fmt: skip
        bar.update(k + 1, f"{run} at minute {minute} vs {opponent}")
    return rows


def markdown(rows: list[dict[str, Any]], opponents: tuple[str, ...]) -> str:
    """The scores as a table: a line per run and snapshot, a column per opponent."""
    lines = ["| run | minute | " + " | ".join(f"vs {o}" for o in opponents) + " |"]
    lines.append("|---|---:|" + "---:|" * len(opponents))
    points: dict[tuple[str, float], dict[str, float]] = {}
    for row in rows:
        points.setdefault((row["run"], row["minute"]), {})[row["opponent"]] = row["score"]
    for (run, minute), scores in points.items():
        cells = " | ".join(f"{scores[o]:.1%}" if o in scores else "-" for o in opponents)
        lines.append(f"| {run} | {minute:.2f} | {cells} |")
    return "\n".join(lines) + "\n"


def run_curves(
    name: str, params: dict[str, Any], out_dir: Path, config: dict[str, Any], settings: CurveSettings,
    quick: QuickSettings | None = None,
) -> list[dict[str, Any]]:  # fmt: skip
    """Both runs, then every snapshot scored; writes ``curves.csv`` and ``curves.md`` in ``out_dir``."""
    quick = replace(quick or QuickSettings(), seed=settings.seed)
    runs: dict[str, Snapshots] = {}
    start = time.time()
    snapshots = Snapshots(out_dir / "quick", name, params, start, settings.every)
    quick_train(name, params, settings.minutes, out_dir / "quick", config, quick, start, snapshots)
    runs["quick"] = snapshots
    runs["scratch"] = scratch_run(name, params, out_dir / "scratch", config, quick, settings)
    rows = score_snapshots(name, params, runs, settings)
    with open(out_dir / "curves.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    (out_dir / "curves.md").write_text(markdown(rows, settings.opponents))
    return rows
