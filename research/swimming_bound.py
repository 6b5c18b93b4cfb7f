"""How well Swimming's hard opponent would play if it knew every hidden hand.

The shipped search (``policies/rollouts.py``) is given the true hands of the
other players in every deal it plays out; only the stock order is drawn at
random, and the weighing of deals is switched off (there is nothing left to
guess). Played against three mediums, seats rotated, seeded like
``swgym eval``. It bounds what any reading of the others' cards can add to
the search (the figures: ``results/2026-11-swimming-bound.md``)::

    python -m research.swimming_bound --games 400 [--first 0] [--seed 1]

Games ``first .. first + games - 1`` depend only on the seed and their
number, so slices run in separate processes add up to the whole series.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from envs.play import SeriesResult, play_series
from policies import load
from policies.evaluation import progress_printer
from policies.rollouts import RolloutSearch


def told_the_hands(search: RolloutSearch) -> RolloutSearch:
    """``search`` with every deal keeping the true hands (the stock reshuffled) and no weighing of deals."""
    rules = search.game

    def true_hands(state, seat, rng):
        deal = rules.copy_state(state)
        deal.deck = [deal.deck[i] for i in rng.permutation(len(deal.deck))]
        return deal

    rules.determinize = true_hands
    search.belief_deals = 0
    return search


def run(games: int, first: int = 0, seed: int = 1, progress=None) -> SeriesResult:
    """The told-the-hands hard opponent against three mediums, 4 players."""
    bot = told_the_hands(load("swimming", "hard", num_players=4))
    return play_series(
        "swimming",
        [bot, "medium", "medium", "medium"],
        games,
        seed=seed,
        first_game=first,
        progress=progress,
        num_players=4,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--first", type=int, default=0, help="number of the first game (to split a series)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.games < 1 or args.first < 0:
        parser.error("--games must be >= 1 and --first >= 0")
    started = time.time()

    result = run(args.games, args.first, args.seed, progress_printer(args.games, "games"))
    seconds = np.median(result.move_seconds[0]) if result.move_seconds[0] else 0.0
    print(
        f"hard told the hands vs 3 medium: {result.wins[0]} of {args.games} games "
        f"({result.wins[0] / args.games:.1%}), {time.time() - started:.0f} s, {seconds:.3f} s a move (median)"
    )


if __name__ == "__main__":
    main()
