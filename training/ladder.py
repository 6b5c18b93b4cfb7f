"""Elo ladder of a game's opponents (random < easy < medium < hard) from round-robin series."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from envs.registry import GAMES
from scripts.evaluate import evaluate, table_rows


def bradley_terry_elo(names: list[str], score: np.ndarray, games: np.ndarray, anchor: str = "random",
                      iterations: int = 2000) -> dict[str, float]:
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


def two_player_rules(game: str) -> dict[str, Any]:
    """The game's first registry variant that seats two players (Elo is a two-player rating)."""
    from envs.registry import make_raw

    for params in GAMES[game].variants:
        if make_raw(game, **params).game.num_players == 2:
            return params
    raise ValueError(f"{game} has no two-player variant to rate")


def ladder(game: str, entrants: list[str], games: int = 100, seed: int = 0,
           params: dict[str, Any] | None = None) -> dict[str, Any]:
    """Round-robin two-seat series between ``entrants`` (the game's first two-player variant by default)."""
    params = two_player_rules(game) if params is None else params
    n = len(entrants)
    score, played = np.zeros((n, n)), np.zeros((n, n))
    pairs = []
    for i, j in itertools.combinations(range(n), 2):
        rows = table_rows(evaluate(game, [entrants[i], entrants[j]], games, seed=seed, **params))
        a, b = rows
        score[i, j] = a["wins"] + a["draws"] / 2
        score[j, i] = b["wins"] + b["draws"] / 2
        played[i, j] = played[j, i] = games
        pairs.append({"a": entrants[i], "b": entrants[j], "a_wins": a["wins"], "draws": a["draws"],
                      "b_wins": b["wins"]})
    elo = bradley_terry_elo(entrants, score, played, anchor=entrants[0])
    return {"game": game, "params": params, "games_per_pair": games, "pairs": pairs, "elo": elo}


def save_ladder(result: dict[str, Any], out_dir: str | Path) -> tuple[Path, Path]:
    """``<game>_ladder.json`` and a bar chart ``<game>_ladder.png``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    json_path = out_dir / f"{result['game']}_ladder.json"
    json_path.write_text(json.dumps(result, indent=2))
    names, values = list(result["elo"]), list(result["elo"].values())
    fig, ax = plt.subplots(figsize=(5, 3), dpi=100)
    ax.bar(names, values, color=["#999", "#6a6", "#c83", "#a33", "#36a"][: len(names)])
    for x, v in enumerate(values):
        ax.text(x, v, f"{v:.0f}", ha="center", va="bottom", fontsize=9)
    ax.set_ylabel(f"Elo (vs {names[0]} = 0)")
    ax.set_title(f"{result['game']}: {result['games_per_pair']} games per pair, seats alternated", fontsize=9)
    fig.tight_layout()
    png_path = out_dir / f"{result['game']}_ladder.png"
    fig.savefig(png_path)
    plt.close(fig)
    return json_path, png_path
