"""How often does a Swival player keep the solved value of the position with its move?

Plays ``--games`` games in all of one player (an opponent spec, default
``hard``) against random, easy and medium (split evenly, seats alternated,
seeded), records every move the player makes, and afterwards checks with the
exact solver (:mod:`envs.swival.solver`) each move made from a position with
at most ``--max-empty`` empty cells: the move keeps the value when the
position after it is worth as much to the mover as the position before it (a
win stays a win, a draw a draw; from a lost position every move keeps it).
Prints the count and the share of moves that keep the value, the moves that
do not, W/D/L per opponent and the player's seconds a move (median, max, by
the wall clock and in CPU time; the checks are not timed). Each opponent's
games have a seed of their own (``--seed``, + 1000, + 2000). Figures: ``results/2026-11-swival-hard-endgame.md``::

    python -m research.swival_value_keeping [--player hard] [--games 200] [--max-empty 17] [--seed 0]
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from envs.opponents import make_opponent
from envs.play import play_series
from envs.swival import solver
from envs.swival.rules import FULL, NUM_CELLS, WIN_ACTION, has_line, play
from research.cpu_timed import CpuTimedPlayer

OPPONENTS = ("random", "easy", "medium")


class Recorder(CpuTimedPlayer):
    """Plays as ``player`` and keeps every position it moved from and the move, (mine, theirs, action), and the
    CPU seconds of each move (:class:`research.cpu_timed.CpuTimedPlayer`)."""

    def __init__(self, player: Any) -> None:
        super().__init__(player)
        self.moves: list[tuple[int, int, int]] = []

    def on_move(self, state: Any, action: int) -> None:
        me = state.to_move
        self.moves.append((state.boards[me], state.boards[1 - me], action))


def empty_cells(mine: int, theirs: int) -> int:
    return NUM_CELLS - (mine | theirs).bit_count()


def move_value(mine: int, theirs: int, action: int, seconds: float = 600.0) -> int:
    """Exact value for the mover (``mine``) of playing ``action``: 1 win, 0 draw, -1 loss."""
    if action == WIN_ACTION:
        if not has_line(mine):
            raise ValueError(f"the win action without a line ({mine:#08x} {theirs:#08x})")
        return 1
    m2, o2 = play(mine, theirs, *divmod(action, 3))
    if m2 | o2 == FULL and not has_line(o2):
        return 0  # the board is full and the opponent has no line: a draw
    return -solver.solve(o2, m2, seconds)


@dataclass
class Keeping:
    """Moves checked, moves that kept the value, and the others as (mine, theirs, action, value, move value)."""

    checked: int = 0
    kept: int = 0
    lapses: list[tuple[int, int, int, int, int]] = field(default_factory=list)

    @property
    def share(self) -> float:
        return self.kept / self.checked if self.checked else 1.0


def value_keeping(moves: list[tuple[int, int, int]], max_empty: int = 17, seconds: float = 600.0) -> Keeping:
    """Check each (mine, theirs, action) made from at most ``max_empty`` empty cells against the solver."""
    result = Keeping()
    for mine, theirs, action in moves:
        if empty_cells(mine, theirs) > max_empty:
            continue
        value = solver.solve(mine, theirs, seconds)
        after = move_value(mine, theirs, action, seconds)
        result.checked += 1
        if after == value:
            result.kept += 1
        else:
            result.lapses.append((mine, theirs, action, value, after))
    return result


def split(games: int, parts: int) -> list[int]:
    """``games`` split into ``parts`` counts as even as can be (the first ones one bigger)."""
    return [games // parts + (i < games % parts) for i in range(parts)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Swival: share of a player's moves that keep the solved value.")
    parser.add_argument("--player", default="hard", help="opponent spec of the measured player (default hard)")
    parser.add_argument("--games", type=int, default=200, help="games in all, split over random, easy, medium")
    parser.add_argument("--max-empty", type=int, default=17, help="check moves from at most this many empty cells")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.games < len(OPPONENTS) or not 0 <= args.max_empty <= NUM_CELLS:
        raise SystemExit(f"swival_value_keeping: --games must be >= 3 and --max-empty in 0..24, got {args}")
    try:
        player = make_opponent("swival", args.player, seed=args.seed)
    except (ValueError, FileNotFoundError) as err:
        raise SystemExit(f"swival_value_keeping: {err}") from None
    solver.solve(0x10101, 0)  # compile (or load) the solver before anything is timed
    total = Keeping()
    seconds: list[float] = []
    cpu_seconds: list[float] = []
    for i, (opponent, games) in enumerate(zip(OPPONENTS, split(args.games, len(OPPONENTS)))):
        recorder = Recorder(player)
        start = time.perf_counter()
        # a seed per opponent: random and easy (random moves but for the win) would otherwise play the same games
        series = play_series("swival", [recorder, opponent], games, seed=args.seed + 1000 * i)
        played = time.perf_counter() - start
        seconds += series.move_seconds[0]
        cpu_seconds += recorder.cpu_seconds
        start = time.perf_counter()
        keeping = value_keeping(recorder.moves, args.max_empty)
        checked = time.perf_counter() - start
        print(
            f"{args.player} vs {opponent}: {games} games, W/D/L {series.wins[0]}/{series.draws[0]}/"
            f"{series.losses[0]}; kept the value in {keeping.kept}/{keeping.checked} moves "
            f"({keeping.share:.1%}); played in {played:.0f} s, checked in {checked:.0f} s",
            flush=True,
        )
        total.checked += keeping.checked
        total.kept += keeping.kept
        total.lapses += keeping.lapses
    print(
        f"{args.player}: kept the solved value in {total.kept}/{total.checked} moves ({total.share:.2%}) "
        f"from <= {args.max_empty} empty cells; s/move (wall clock) median {statistics.median(seconds):.3f}, "
        f"max {max(seconds):.3f}; CPU s/move median {statistics.median(cpu_seconds):.3f}, "
        f"max {max(cpu_seconds):.3f}"
    )
    for mine, theirs, action, value, after in total.lapses:
        print(
            f"  lapse: mover {mine:#08x} other {theirs:#08x} ({empty_cells(mine, theirs)} empty), "
            f"action {action}: value {value} -> {after}"
        )


if __name__ == "__main__":
    main()
