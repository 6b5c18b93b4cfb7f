"""How much CPU does a searching hard opponent spend a move, and how much work does it count?

Plays ``--games`` seeded games of a policy file with an alpha-beta search
(``policies.search.PolicySearch``: the shipped ``hard`` or a file) against
``--opponent``, seats alternated, and times every one of its moves in CPU
seconds of this process (other work on the machine does not count, unlike the
wall clock), with the search's counted work and the depth it reached (below
the file's depth when ``max_work`` made it fall back). Prints W/D/L, the
median, 99th percentile and maximum of both, and how many moves each depth decided. Figures:
``results/2026-11-twirls-search-variants.md``::

    python -m research.search_think_time twirls [--player hard] [--opponent medium] [--games 10] [--seed 11]
"""

from __future__ import annotations

import argparse
import os
from typing import Any

for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):  # one BLAS thread, as swgym plays (before numpy loads)
    os.environ.setdefault(_variable, "1")

import numpy as np  # noqa: E402

from envs.opponents import make_opponent  # noqa: E402
from envs.play import play_series  # noqa: E402
from envs.registry import GAMES  # noqa: E402
from policies.search import PolicySearch  # noqa: E402
from research.cpu_timed import CpuTimedPlayer  # noqa: E402


class TimedSearch(CpuTimedPlayer):
    """Plays as ``search`` and keeps (CPU seconds, work, searched depth) of every move."""

    def __init__(self, search: PolicySearch) -> None:
        super().__init__(search)
        self.moves: list[tuple[float, float, int]] = []

    def on_move(self, state: Any, action: int) -> None:
        self.moves.append((self.cpu_seconds[-1], self.player.work, self.player.searched_depth))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--player", default="hard", help="hard or a policy file with an alpha-beta search")
    parser.add_argument("--opponent", default="medium")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be >= 1, got {args.games}")
    from scripts.cli import parse_params  # the CLI's reading of --rule, so the same text means the same rules

    params = parse_params(args.rule)
    player = make_opponent(args.game, args.player, seed=args.seed, **params)
    if not isinstance(player, PolicySearch):
        parser.error(f"{args.player} plays {args.game} without an alpha-beta search ({type(player).__name__})")
    timed = TimedSearch(player)
    opponent = make_opponent(args.game, args.opponent, seed=args.seed, **params)
    result = play_series(args.game, [timed, opponent], args.games, seed=args.seed, **params)
    seconds, work, depth = (np.array(column) for column in zip(*timed.moves))
    print(
        f"{args.game}: {args.player} against {args.opponent}, {args.games} games: "
        f"{result.wins[0]} W / {result.draws[0]} D / {result.losses[0]} L"
    )
    print(f"moves: {seconds.size}; reached the file's depth in {np.mean(depth == player.depth):.1%}")
    reached = {int(d): int(n) for d, n in zip(*np.unique(depth, return_counts=True))}
    print("moves by the depth that decided them: " + ", ".join(f"{d} plies {n}" for d, n in reached.items()))
    for name, values in (("CPU s/move", seconds), ("work/move", work)):
        median, p99, most = np.median(values), np.percentile(values, 99), values.max()
        print(f"{name}: median {median:.3f}, 99th percentile {p99:.3f}, max {most:.3f}")


if __name__ == "__main__":
    main()
