"""How much CPU does a searching hard opponent spend a move, and how much work does it count?

Plays ``--games`` seeded games of a policy file with an alpha-beta search
(``policies.search.PolicySearch``: the shipped ``hard`` or a file) against
``--opponent``, seats alternated, and times every one of its moves in CPU
seconds of this process (other work on the machine does not count, unlike the
wall clock), with the search's counted work and the depth it reached (below
the file's depth when ``max_work`` made it fall back), and the wall-clock seconds beside them. Prints W/D/L,
the median, 99th percentile and maximum of CPU seconds, wall-clock seconds and work, and how many moves each
depth decided; ``--json`` keeps every move's (CPU seconds, work, depth, wall-clock seconds) and the counts of
moves over 0.5, 0.75 and 1 s of CPU; ``--plot`` draws their histogram; ``--jobs`` plays the series in that many
processes (each on its own core: CPU times stay its own).
Figures:
``results/2026-11-twirls-search-variants.md``::

    python -m research.search_think_time twirls [--player hard] [--opponent medium] [--games 10] [--seed 11]
        [--jobs 2] [--json F] [--plot F.png]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
from typing import Any

for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):  # one BLAS thread, as swgym plays (before numpy loads)
    os.environ.setdefault(_variable, "1")

import numpy as np  # noqa: E402

from envs.opponents import make_opponent  # noqa: E402
from envs.play import play_series  # noqa: E402
from envs.registry import GAMES  # noqa: E402
from policies.search import PolicySearch  # noqa: E402
from research.cpu_timed import CpuTimedPlayer  # noqa: E402
from research.processes import run_jobs  # noqa: E402

THRESHOLDS = (0.5, 0.75, 1.0)  # CPU seconds a move: how many moves took longer is printed and kept


class TimedSearch(CpuTimedPlayer):
    """Plays as ``search`` and keeps (CPU seconds, work, searched depth, wall-clock seconds) of every move."""

    def __init__(self, search: PolicySearch) -> None:
        super().__init__(search)
        self.moves: list[tuple[float, float, int, float]] = []

    def on_move(self, state: Any, action: int) -> None:
        self.moves.append((self.cpu_seconds[-1], self.player.work, self.player.searched_depth, self.wall_seconds[-1]))


def _play(
    job: tuple[str, str, str, int, int, int, dict[str, Any]], player: PolicySearch | None = None
) -> tuple[list[tuple[float, float, int, float]], list[int]]:
    """Games ``first .. first + games - 1`` of the seeded series: (every move's figures, [W, D, L]). ``player``:
    the searcher, already made (one process); a process of its own makes it from its spec."""
    game, player_spec, opponent_spec, seed, first, games, params = job
    timed = TimedSearch(player or make_opponent(game, player_spec, seed=seed, **params))
    opponent = make_opponent(game, opponent_spec, seed=seed, **params)
    result = play_series(game, [timed, opponent], games, seed=seed, first_game=first, **params)
    return timed.moves, [result.wins[0], result.draws[0], result.losses[0]]


def plot(seconds: np.ndarray, title: str, path: str) -> None:
    """A histogram of the CPU seconds a move, with the 1 s line."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.hist(seconds, bins=np.linspace(0.0, max(1.1, float(seconds.max()) * 1.05), 56), color="tab:blue")
    ax.axvline(1.0, color="tab:red", ls="--", label="1 s")
    ax.set_yscale("log")
    ax.set_xlabel("CPU seconds a move")
    ax.set_ylabel("moves")
    ax.set_title(textwrap.fill(title, 72), fontsize=9)  # a policy file's path makes a long title
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--player", default="hard", help="hard or a policy file with an alpha-beta search")
    parser.add_argument("--opponent", default="medium")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--jobs", type=int, default=1, help="processes, each a run of consecutive games (same moves)")
    parser.add_argument("--json", metavar="PATH", help="write every move's figures and the counts over thresholds")
    parser.add_argument("--plot", metavar="PATH", help="draw a histogram of the CPU seconds a move (a .png)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be >= 1, got {args.games}")
    if not 1 <= args.jobs <= args.games:
        parser.error(f"--jobs must be between 1 and --games ({args.games}), got {args.jobs}")
    from scripts.cli import parse_params  # the CLI's reading of --rule, so the same text means the same rules

    params = parse_params(args.rule)
    player = make_opponent(args.game, args.player, seed=args.seed, **params)
    if not isinstance(player, PolicySearch):
        parser.error(f"{args.player} plays {args.game} without an alpha-beta search ({type(player).__name__})")
    bounds = np.linspace(0, args.games, args.jobs + 1).astype(int)
    jobs = [
        (args.game, args.player, args.opponent, args.seed, int(a), int(b - a), params)
        for a, b in zip(bounds[:-1], bounds[1:])
    ]
    parts = [_play(jobs[0], player)] if args.jobs == 1 else run_jobs(_play, jobs, args.jobs)
    moves = [move for part in parts for move in part[0]]
    wins, draws, losses = (sum(int(part[1][k]) for part in parts) for k in range(3))
    seconds, work, depth, wall = (np.array(column) for column in zip(*moves))
    print(f"{args.game}: {args.player} against {args.opponent}, {args.games} games: {wins} W / {draws} D / {losses} L")
    print(f"moves: {seconds.size}; reached the file's depth in {np.mean(depth == player.depth):.1%}")
    reached = {int(d): int(n) for d, n in zip(*np.unique(depth, return_counts=True))}
    print("moves by the depth that decided them: " + ", ".join(f"{d} plies {n}" for d, n in reached.items()))
    for name, values in (("CPU s/move", seconds), ("wall s/move", wall), ("work/move", work)):
        median, p99, most = np.median(values), np.percentile(values, 99), values.max()
        print(f"{name}: median {median:.3f}, 99th percentile {p99:.3f}, max {most:.3f}")
    over = {f"{limit:g}": int(np.sum(seconds > limit)) for limit in THRESHOLDS}
    print("moves over a CPU time: " + ", ".join(f"{limit} s {n}" for limit, n in over.items()))
    command = ["python", "-m", "research.search_think_time", *(argv if argv is not None else sys.argv[1:])]
    if args.json:
        record = {
            "command": command,
            "wins_draws_losses": [wins, draws, losses],
            "moves_over_cpu_seconds": over,
            "cpu_seconds": seconds.round(6).tolist(),
            "wall_seconds": wall.round(6).tolist(),
            "work": work.tolist(),
            "depth": depth.tolist(),
        }
        with open(args.json, "w") as out:
            json.dump(record, out)
            out.write("\n")
    if args.plot:
        title = f"{args.game}: {args.player} against {args.opponent}, {seconds.size} moves of {args.games} games"
        plot(seconds, title, args.plot)


if __name__ == "__main__":
    main()
