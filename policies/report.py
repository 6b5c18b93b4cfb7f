"""The evaluation table of every game: bots and shipped hard opponents, seats rotated.

Two-player games: medium vs random, medium vs easy, hard vs random, hard vs
medium. Games of more players (the game's default rules): the entrant in one
seat against a full table of the other kind, e.g. hard + three mediums. Card games replay each deal with the
seats rotated (duplicate deals, :func:`envs.play.play_series`).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from envs.registry import GAMES, make_raw
from policies import shipped_path
from policies.evaluation import SeriesRun, evaluate, table_rows


def matchups(name: str, params: dict[str, Any]) -> list[tuple[str, str]]:
    pairs = [("medium", "random"), ("medium", "easy")]
    if shipped_path(name, **params).exists():
        pairs += [("hard", "random"), ("hard", "medium")]
    return pairs


def report(
    games: int,
    names: list[str] | None = None,
    seed: int = 1,
    variants: dict[str, list[dict]] | None = None,
    jobs: int = 1,
    pairs: list[tuple[str, str]] | None = None,
) -> list[dict[str, Any]]:
    """One row per (game, variant, matchup): the first entrant's W/D/L and 95% CI; ``pairs``: only these
    matchups (entrant, opponent)."""
    rows = []
    for name in names or list(GAMES):
        for params in (variants or {}).get(name, [GAMES[name].variants[0]]):
            n = make_raw(name, **params).game.num_players
            for first, other in matchups(name, params):
                if pairs is not None and (first, other) not in pairs:
                    continue
                started = time.time()
                entrants = [first] + [other] * (n - 1)
                result = evaluate(name, entrants, games, seed=seed, run=SeriesRun(jobs=jobs), **params)
                row = table_rows(result)[0]
                rows.append(
                    {
                        "game": name,
                        "params": params,
                        "players": n,
                        "entrant": first,
                        "against": f"{n - 1} x {other}",
                        "seconds": round(time.time() - started, 1),
                        **{
                            k: row[k]
                            for k in (
                                "games",
                                "wins",
                                "draws",
                                "losses",
                                "win_rate",
                                "win_ci95",
                                "median_move_s",
                                "max_move_s",
                                "duplicate_deals",
                            )
                        },
                    }
                )
    return rows


def score_share(wins: int, draws: int, losses: int) -> float:
    """Wins plus half the draws, as a share of the games (0 without games)."""
    return (wins + draws / 2) / max(wins + draws + losses, 1)


def score(wins: int, draws: int, losses: int, players: int, duplicate: bool = False) -> str:
    """:func:`score_share` as a percentage; with more than two players the fair share beside it (what an equal
    player scores: 25% at 4 players); on duplicate deals, that said beside it too."""
    notes = ([] if players == 2 else [f"fair share {1 / players:.0%}"]) + (["duplicate deals"] if duplicate else [])
    share = f"{score_share(wins, draws, losses):.1%}"
    return f"{share} ({', '.join(notes)})" if notes else share


def markdown(rows: list[dict[str, Any]]) -> str:
    """The EVAL.md table: each row's W / D / L, score (:func:`score`) and win rate with its interval."""
    out = [
        "| game | rules | entrant | against | W / D / L | score | win rate | 95% CI | s/move: median, max |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        rules = ", ".join(f"{k}={v}" for k, v in r["params"].items()) or "default"
        lo, hi = r["win_ci95"]
        think = f"{r['median_move_s']:.3f}, {r['max_move_s']:.3f}" if "max_move_s" in r else "-"
        shown = score(r["wins"], r["draws"], r["losses"], r["players"], r.get("duplicate_deals", False))
        out.append(
            f"| {r['game']} | {rules} | {r['entrant']} | {r['against']} | {r['wins']} / {r['draws']} / "
            f"{r['losses']} | {shown} | {r['win_rate']:.1%} | "
            f"{lo:.1%}-{hi:.1%} | {think} |"
        )
    return "\n".join(out)


def _key(row: dict[str, Any]) -> tuple:
    return row["game"], json.dumps(row["params"], sort_keys=True), row["entrant"], row["against"]


def write_report(rows: list[dict[str, Any]], out_dir: str | Path) -> Path:
    """eval.json and EVAL.md: ``rows`` replace the same matchups of the saved table, the rest is kept."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    saved = out_dir / "eval.json"
    table = {_key(r): r for r in (json.loads(saved.read_text()) if saved.exists() else [])}
    table.update({_key(r): r for r in rows})
    order, levels = list(GAMES), ["random", "easy", "medium", "hard"]

    def place(r: dict[str, Any]) -> tuple:  # by game, rules, then entrant and opponent weakest first
        seats = [levels.index(s) if s in levels else len(levels) for s in (r["entrant"], r["against"].split(" x ")[-1])]
        return (order.index(r["game"]) if r["game"] in order else len(order), sorted(r["params"].items()), seats)

    rows = sorted(table.values(), key=place)
    saved.write_text(json.dumps(rows, indent=2))
    path = out_dir / "EVAL.md"
    path.write_text(markdown(rows) + "\n")
    return path
