"""Elo ladder of a game's opponents (random < easy < medium < hard) from round-robin series (numpy only;
the chart of ``save_ladder`` needs matplotlib)."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from envs.play import SeriesResult
from envs.registry import GAMES, make_raw
from policies.evaluation import SeriesRun, evaluate


def bradley_terry_elo(
    names: list[str], score: np.ndarray, games: np.ndarray, anchor: str = "random", iterations: int = 2000
) -> dict[str, float]:
    """Elo ratings fitted to pairwise scores (win = 1, draw = 1/2), ``anchor`` at 0.

    ``score[i, j]`` is what i scored against j in ``games[i, j]`` games.
    A small prior (one draw against every other entrant) keeps perfect records finite.
    """
    n = len(names)
    prior = np.where(np.eye(n) == 1, 0.0, 0.5)
    s = score + prior
    g = games + 2 * prior
    strength = np.ones(n)
    for _ in range(iterations):
        wins = s.sum(axis=1)
        denom = np.array([sum(g[i, j] / (strength[i] + strength[j]) for j in range(n) if j != i) for i in range(n)])
        strength = wins / denom
        strength /= strength[names.index(anchor)]
    return {name: 400 * math.log10(strength[i]) for i, name in enumerate(names)}


def two_player_rules(name: str) -> dict[str, Any]:
    """The game's first registry variant that seats two players."""
    for params in GAMES[name].variants:
        if make_raw(name, **params).game.num_players == 2:
            return params
    raise ValueError(f"{name} has no two-player variant to rate")


def ladder_rules(name: str) -> dict[str, Any]:
    """The rules a game is rated under: the first registry variant its hard
    opponent ships for (Swimming: 4 players), else its first two-player variant."""
    from policies import shipped_path

    for params in GAMES[name].variants:
        if shipped_path(name, **params).exists():
            return params
    return two_player_rules(name)


def lone_entrant_score(result: SeriesResult) -> tuple[float, float]:
    """What seat group 0 (one entrant among ``n - 1`` copies of another) scored
    against the others, counted pair by pair, and how many pairs were counted.

    A game's winner beats each other player; players who did not win tie with
    each other (a game with no winner ties everyone; a shared win counts as a
    win). So the lone entrant scores ``n - 1`` for a win, ``(n - 2) / 2`` when
    another player wins and ``(n - 1) / 2`` for a game without a winner; with
    two players this is the usual win = 1, draw = 1/2.
    """
    others = len(result.names) - 1
    score = others * result.wins[0] + (others - 1) / 2 * result.losses[0] + others / 2 * result.draws[0]
    return score, float(others * result.games)


def ladder(
    name: str,
    entrants: list[str],
    games: int = 100,
    seed: int = 0,
    params: dict[str, Any] | None = None,
    jobs: int = 1,
    opening_plies: int = 0,
) -> dict[str, Any]:
    """Round-robin series between ``entrants`` under ``params`` (default ``ladder_rules``), rated by Elo.

    Two players: ``games`` games a pair, seats alternated. More players: for
    each pair, ``games`` games of one against ``n - 1`` copies of the other and
    ``games`` the other way round, seats rotated, scored pair by pair
    (``lone_entrant_score``). ``jobs`` processes play each series (same result).
    """
    params = ladder_rules(name) if params is None else params
    players = make_raw(name, **params).game.num_players
    n = len(entrants)
    score, played = np.zeros((n, n)), np.zeros((n, n))
    pairs = []
    for i, j in itertools.combinations(range(n), 2):
        for lone, rest in ((i, j), (j, i)) if players > 2 else ((i, j),):
            result = evaluate(
                name, [entrants[lone]] + [entrants[rest]] * (players - 1), games, seed=seed,
                opening_plies=opening_plies, run=SeriesRun(jobs=jobs), **params,
            )  # fmt: skip
            lone_score, compared = lone_entrant_score(result)
            score[lone, rest] += lone_score
            score[rest, lone] += compared - lone_score
            played[lone, rest] += compared
            played[rest, lone] += compared
            pairs.append(
                {
                    "a": entrants[lone],
                    "b": entrants[rest],
                    "seats": f"1 x a, {players - 1} x b",
                    "a_wins": result.wins[0],
                    "draws": result.draws[0],
                    "b_wins": result.losses[0],
                }
            )
    elo = bradley_terry_elo(entrants, score, played, anchor=entrants[0])
    return {
        "game": name, "params": params, "players": players, "games_per_pair": games, "opening_plies": opening_plies,
        "pairs": pairs, "elo": elo,
    }  # fmt: skip


def save_ladder(result: dict[str, Any], out_dir: str | Path) -> tuple[Path, Path]:
    """``<game>_ladder.json`` and a bar chart ``<game>_ladder.png`` (the chart needs matplotlib)."""
    try:
        import matplotlib
    except ImportError:
        raise ImportError(
            "save_ladder draws its chart with matplotlib, which is not installed: "
            "from a clone, pip install -e '.[train]'"
        ) from None

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    json_path = out_dir / f"{result['game']}_ladder.json"
    json_path.write_text(json.dumps(result, indent=2))
    names, values = list(result["elo"]), list(result["elo"].values())
    fig, ax = plt.subplots(figsize=(max(5.0, 1.1 * len(names)), 3.4), dpi=100)
    palette = ["#999", "#6a6", "#c83", "#a33", "#36a", "#84b", "#3aa"]
    ax.bar(names, values, color=[palette[i % len(palette)] for i in range(len(names))])
    for x, v in enumerate(values):
        ax.text(x, v, f"{v:.0f}", ha="center", va="bottom" if v >= 0 else "top", fontsize=9)
    if max(map(len, names)) > 8:  # past hards' names (hard@REV) would run into each other
        ax.tick_params(axis="x", labelrotation=25)
        for label in ax.get_xticklabels():
            label.set_horizontalalignment("right")
    ax.set_ylabel(f"Elo (vs {names[0]} = 0)")
    players = result.get("players", 2)
    per_pair = "seats alternated" if players == 2 else f"1 vs {players - 1} each way"
    if result.get("opening_plies"):
        per_pair += f", {result['opening_plies']}-ply random openings"
    ax.set_title(
        f"{result['game']} ({players} players): {result['games_per_pair']} games per pair, {per_pair}", fontsize=9
    )
    fig.tight_layout()
    png_path = out_dir / f"{result['game']}_ladder.png"
    fig.savefig(png_path)
    plt.close(fig)
    return json_path, png_path
