"""Ladder of a game's opponents (random < easy < medium < hard) from round-robin series: Plackett-Luce ratings
in Elo points with 95% intervals (:mod:`policies.ratings`; numpy only; the chart of ``save_ladder`` needs
matplotlib)."""

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
from policies.ratings import RatedGames, rate


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
    samples: int = 200,
) -> dict[str, Any]:
    """Round-robin series between ``entrants`` under ``params`` (default ``ladder_rules``), rated by a
    Plackett-Luce fit of every game's whole finishing order (:mod:`policies.ratings`) with 95% intervals from
    ``samples`` bootstrap refits that resample whole deals and openings.

    Two players: ``games`` games a pair, seats alternated. More players: for each pair, ``games`` games of one
    against ``n - 1`` copies of the other and ``games`` the other way round, seats rotated; each game counts
    once, by its finishing order (scores, or the order players left the game). ``jobs`` processes play each
    series (same result). The pairwise Elo of earlier ladders (:func:`bradley_terry_elo` on
    :func:`lone_entrant_score`) is kept beside it as ``pairwise_elo``, for comparison.
    """
    params = ladder_rules(name) if params is None else params
    players = make_raw(name, **params).game.num_players
    n = len(entrants)
    score, played = np.zeros((n, n)), np.zeros((n, n))
    pairs, tables = [], {"players": [], "ranks": [], "blocks": [], "strata": []}
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
            _add_tables(tables, result, [lone] + [rest] * (players - 1), len(pairs))
            pairs.append(_pair_row(entrants[lone], entrants[rest], players, result))
    ratings = rate(RatedGames.of(**tables), n, samples=samples, seed=seed)
    return {
        "game": name, "params": params, "players": players, "games_per_pair": games, "opening_plies": opening_plies,
        "games": len(tables["ranks"]), "model": MODEL, "pairs": pairs,
        "elo": {e: r.rating for e, r in zip(entrants, ratings)},
        "interval95": {e: [r.low, r.high] for e, r in zip(entrants, ratings)},
        "pairwise_elo": bradley_terry_elo(entrants, score, played, anchor=entrants[0]),
    }  # fmt: skip


MODEL = (
    "Plackett-Luce on whole finishing orders; 95% intervals: bootstrap of whole deals and openings, widened to the "
    "likelihood-ratio interval where it is wider"
)


REFIT_MODEL = (
    "Plackett-Luce refitted from the saved pairs' win counts; 95% intervals: bootstrap of single games, widened to "
    "the likelihood-ratio interval where it is wider"
)
REFIT_MANY = " (the places behind the winner and the deals were not saved)"


def _add_tables(tables: dict[str, list], result: SeriesResult, seated: list[int], stratum: int) -> None:
    """Append ``result``'s games (entrant ``seated[k]`` at its k-th place) to the ladder's rated games: one block
    per deal or opening when they were played in every seating, else one per game."""
    width = len(seated) if result.duplicate else 1
    for g, ranks in zip(result.game_ids, result.game_ranks):
        tables["players"].append(seated)
        tables["ranks"].append(ranks)
        tables["blocks"].append(g // width)
        tables["strata"].append(stratum)


def _pair_row(a: str, b: str, players: int, result: SeriesResult) -> dict[str, Any]:
    """A pair's line of the ladder: the lone entrant's wins, draws and losses, and how often it took each
    place (``a_places[k]``: games it finished (k + 1)-th, ties sharing the better place), and every game's
    places (``ranks``, a for seat group 0) with the games a deal or opening took (``deal_games``), so that the
    ladder can be rated again exactly (:func:`refit`)."""
    places = np.bincount([ranks[0] for ranks in result.game_ranks], minlength=players)
    return {
        "a": a, "b": b, "seats": f"1 x a, {players - 1} x b", "a_wins": result.wins[0], "draws": result.draws[0],
        "b_wins": result.losses[0], "a_places": [int(c) for c in places],
        "deal_games": players if result.duplicate else 1, "ranks": result.game_ranks,
    }  # fmt: skip


def refit(saved: dict[str, Any], samples: int = 200, seed: int = 0) -> dict[str, Any]:
    """A saved ladder rated again: exactly from its games' places where it keeps them (``ranks``), else (a ladder
    saved before ratings had intervals) from its pairs' win counts, each game read as its winner first and every
    other player tied behind (all tied for a draw), one block a game. With two
    players that is all a game says, so the fit is the full one; with more, the places behind the winner are
    lost, and a saved ladder keeps no deals to resample together, so its intervals are narrower than a new
    ladder's would be (``model`` says so)."""
    entrants = list(dict.fromkeys(name for pair in saved["pairs"] for name in (pair["a"], pair["b"])))
    players = saved.get("players", 2)
    tables: dict[str, list] = {"players": [], "ranks": [], "blocks": [], "strata": []}
    whole = all("ranks" in pair for pair in saved["pairs"])
    for k, pair in enumerate(saved["pairs"]):
        seated = [entrants.index(pair["a"])] + [entrants.index(pair["b"])] * (players - 1)
        outcomes = [[0] + [1] * (players - 1)] * pair["a_wins"] + [[0] * players] * pair["draws"]
        outcomes += [[1, 0] + [1] * (players - 2)] * pair["b_wins"]
        for g, ranks in enumerate(pair["ranks"] if whole else outcomes):
            tables["players"].append(seated)
            tables["ranks"].append(ranks)
            tables["blocks"].append(g // pair["deal_games"] if whole else len(tables["blocks"]))
            tables["strata"].append(k)
    ratings = rate(RatedGames.of(**tables), len(entrants), samples=samples, seed=seed)
    refitted = {key: value for key, value in saved.items() if key not in ("elo", "interval95", "model")}
    refitted["pairwise_elo"] = saved.get("pairwise_elo", saved["elo"])
    return {
        **refitted,
        "games": len(tables["ranks"]),
        "model": MODEL if whole else REFIT_MODEL + ("" if players == 2 else REFIT_MANY),
        "elo": {e: r.rating for e, r in zip(entrants, ratings)},
        "interval95": {e: [r.low, r.high] for e, r in zip(entrants, ratings)},
    }


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
    low, high = zip(*(result["interval95"][e] for e in names))
    fig, ax = plt.subplots(figsize=(max(5.0, 1.1 * len(names)), 3.6), dpi=100)
    palette = ["#999", "#6a6", "#c83", "#a33", "#36a", "#84b", "#3aa"]
    errors = [np.subtract(values, low).clip(0), np.subtract(high, values).clip(0)]
    ax.bar(names, values, color=[palette[i % len(palette)] for i in range(len(names))], yerr=errors, capsize=4)
    for x, v in enumerate(values):
        label = f"{round(v)}\n[{round(low[x])}, {round(high[x])}]" if x else f"{round(v)}"
        ax.text(x + 0.08, v, label, ha="left", va="bottom" if v >= 0 else "top", fontsize=7)
    if max(map(len, names)) > 8:  # past hards' names (hard@REV) would run into each other
        ax.tick_params(axis="x", labelrotation=25)
        for label in ax.get_xticklabels():
            label.set_horizontalalignment("right")
    ax.set_ylabel(f"rating, Elo (vs {names[0]} = 0)")
    players = result.get("players", 2)
    per_pair = "seats alternated" if players == 2 else f"1 vs {players - 1} each way"
    if result.get("opening_plies"):
        per_pair += f", {result['opening_plies']}-ply random openings"
    ax.set_title(
        f"{result['game']} ({players} players): {result['games_per_pair']} games per pair, {per_pair}; "
        "bars: 95% intervals",
        fontsize=8,
    )
    fig.tight_layout()
    png_path = out_dir / f"{result['game']}_ladder.png"
    fig.savefig(png_path)
    plt.close(fig)
    return json_path, png_path
