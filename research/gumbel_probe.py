"""How strong is a policy file's network with the engine's Gumbel search at a given number of simulations?
A probe for the direction (40 games a match-up by default, seats alternated), not a strength claim.

    python -m research.gumbel_probe swish policies/swish_hard.npz 512 medium hard [--leaf-wins]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from envs.play import play_series
from policies import load
from training.gumbel import network_from_file, write_network


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("policy", type=Path, help="the policy file whose network the search uses")
    parser.add_argument("simulations", type=int)
    parser.add_argument("opponents", nargs="+")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--leaf-wins", action="store_true", help="the search values a win one move away as won")
    args = parser.parse_args()
    if args.simulations < 1 or args.games < 1:
        parser.error("simulations and games must be at least 1")
    net = network_from_file(args.policy, args.game, {})
    search = {"kind": "gumbel", "simulations": args.simulations, "considered": 16}
    if args.leaf_wins:
        search["leaf_wins"] = True
    with tempfile.TemporaryDirectory() as folder:
        path = write_network(net, Path(folder) / "probe.npz", args.game, {}, search)
        for opponent in args.opponents:
            clock = time.time()
            player = load(args.game, str(path), seed=0)
            r = play_series(args.game, [player, opponent], args.games, seed=args.seed)
            print(
                f"{args.simulations} simulations vs {opponent}: {r.wins[0]} W / {r.draws[0]} D / {r.losses[0]} L "
                f"({time.time() - clock:.0f} s)",
                flush=True,
            )


if __name__ == "__main__":
    main()
