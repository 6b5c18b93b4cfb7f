"""Is a policy file's value head biased toward the mover, and how often does a move leave the same player to move?
A tree search that backs up the mover's value through both kinds of edge favours keeping the turn by twice a
constant bias, whatever the move is worth.

    python -m research.value_bias swahili policies/swahili_hard.npz
"""

from __future__ import annotations

import argparse

import numpy as np

from envs.registry import make_batched
from policies.numpy_policy import NumpyPolicy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("policy")
    parser.add_argument("--boards", type=int, default=256)
    parser.add_argument("--plies", type=int, default=60, help="random plies played on every board (autoreset)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.boards < 1 or args.plies < 1:
        parser.error("--boards and --plies must be at least 1")
    policy = NumpyPolicy(args.policy, game=args.game)
    batch = make_batched(args.game, args.boards, seed=args.seed)
    values, same, moves = [], 0, 0
    for _ in range(args.plies):
        values.append(policy.values(batch.observe(batch.to_move)))
        mover = batch.to_move.copy()
        _, done = batch.step(batch.random_actions(), autoreset=True)
        same, moves = same + int((batch.to_move[~done] == mover[~done]).sum()), moves + int((~done).sum())
    v = np.concatenate(values)
    names, at = ("min", "5%", "25%", "median", "75%", "95%", "max"), [0, 5, 25, 50, 75, 95, 100]
    points = dict(zip(names, np.percentile(v, at)))
    print(f"{args.game} {args.policy}: the mover's value over {v.size} positions of random play:")
    print("  " + ", ".join(f"{k} {x:+.2f}" for k, x in points.items()) + f"; mean {v.mean():+.3f}")
    print(f"  moves after which the same player moves again: {same} of {moves} ({same / max(moves, 1):.1%})")


if __name__ == "__main__":
    main()
