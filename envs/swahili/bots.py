"""Swahili's easy and medium bots.

* easy: plays an action whose sowing captures at once when there is one,
  otherwise a random legal action (stop / continue included).
* medium: plans the whole chained move. From a row, a move is one chain:
  at every landing on its own pieces it may stop or sow on, so the possible
  moves are "stop at the j-th choice" or "sow on to the end" for every
  starting row. Medium plays each of them out and scores the end position:
  points (captures, centre pieces), the pieces' progress towards the centre,
  and the exposure of its own single pieces in rows 7-11 to the opponents'
  next chains (the landing row of every opponent chain is known exactly),
  against the same for the opponents. A move that ends the game is scored by
  its result.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from envs.core.bots import Bot
from envs.swahili.rules import (
    CAPTURE_POINTS,
    CENTRE,
    FIRST_CAPTURE_ROW,
    NUM_ROWS,
    STOP,
    SwahiliGame,
    SwahiliState,
    points,
    sow,
    sow_own,
)

# value of a piece still on row index r: a little for its hope of reaching the
# centre (few do: most of the points come from captures)
PROGRESS = tuple(1.0 + 0.3 * r for r in range(NUM_ROWS))
END_BONUS = 1000.0
# (weight of an own single exposed to a strike, share of a threat of mine), by player count:
# with several opponents the next strike is often someone else's and threats are rarely cashed
WEIGHTS = {2: (1.0, 0.3), 3: (0.3, 0.0), 4: (0.3, 0.0)}


def captures_now(rows: list[list[int]], me: int, row: int) -> int:
    """Opponent pieces a sowing of ``row`` by ``me`` captures at once."""
    pos = (row + rows[me][row]) % 12
    if pos == CENTRE or pos < FIRST_CAPTURE_ROW or (rows[me][pos] and pos != row):
        return 0
    return sum(1 for q, r in enumerate(rows) if q != me and r[pos] == 1)


class EasyBot(Bot):
    """Captures when one action does it; otherwise random."""

    def choose(self, state: SwahiliState, mask: np.ndarray) -> int:
        me = state.to_move
        rows = state.rows
        best = [a for a in np.flatnonzero(mask[:NUM_ROWS]) if captures_now(rows, me, int(a))]
        if best:
            return int(best[self.rng.integers(len(best))])
        return self.pick_random(mask)


@lru_cache(maxsize=200_000)
def strike_rows(own: tuple[int, ...]) -> frozenset[int]:
    """Capture rows (indices 6-10) where a player with rows ``own`` can end a move next turn.

    Each starting row gives one chain (sow on at every choice); stopping earlier
    never captures, so the chain's final landing is the only capture it offers.
    """
    hits = set()
    for start in range(NUM_ROWS):
        if not own[start]:
            continue
        mine = list(own)
        row = start
        while True:
            pos, _ = sow_own(mine, row)
            if pos == CENTRE:
                break
            if mine[pos] == 1:
                if pos >= FIRST_CAPTURE_ROW:
                    hits.add(pos)
                break
            row = pos
    return frozenset(hits)


class MediumBot(Bot):
    """Plans the whole chained move (see the module docstring)."""

    def __init__(self, game: SwahiliGame, seed: int | None = None) -> None:
        super().__init__(game, seed)
        self.n = game.num_players
        self.exposure, self.threat = WEIGHTS[self.n]
        # an exposed single loses its progress and hands the striker 5 points (shared among rivals)
        self.capture_swing = CAPTURE_POINTS if self.n == 2 else CAPTURE_POINTS / 2

    def choose(self, state: SwahiliState, mask: np.ndarray) -> int:
        me = state.to_move
        actions, values = [], []
        if state.pending >= 0:
            actions.append(STOP)
            values.append(self.evaluate(state.rows, state.centre, state.compound, me))
            actions.append(state.pending)
            values.append(self.best_chain(state, me, state.pending))
        else:
            for row in np.flatnonzero(mask[:NUM_ROWS]):
                actions.append(int(row))
                values.append(self.best_chain(state, me, int(row)))
        return self.pick_best(actions, values)

    def best_chain(self, state: SwahiliState, me: int, row: int) -> float:
        """Best value over the ways to finish a move that starts by sowing ``row``."""
        rows = [r[:] for r in state.rows]
        centre, compound = state.centre[:], state.compound[:]
        best = -float("inf")
        while True:
            pos = sow(rows, centre, compound, me, row)
            value = self.evaluate(rows, centre, compound, me)
            best = max(best, value)  # stopping here (or the move's end)
            if pos == CENTRE or rows[me][pos] == 1:
                return best
            row = pos

    def evaluate(self, rows: list[list[int]], centre: list[int], compound: list[int], me: int) -> float:
        """Value for ``me`` of the position after its move has ended."""
        n = self.n
        score = points(compound, centre)
        if any(not any(r) for r in rows):  # the game ends now
            others = max(score[p] for p in range(n) if p != me)
            diff = score[me] - others
            return (END_BONUS if diff > 0 else -END_BONUS if diff < 0 else 0.0) + diff
        worth = []
        for p in range(n):
            worth.append(score[p] + sum(c * PROGRESS[i] for i, c in enumerate(rows[p]) if c))
        # who can land where next turn
        strikes = [strike_rows(tuple(r)) for r in rows]
        danger = set().union(*(strikes[p] for p in range(n) if p != me))
        mine = rows[me]
        for i in danger:
            if mine[i] == 1:
                worth[me] -= self.exposure * (PROGRESS[i] + self.capture_swing)
        if self.threat:
            for i in strikes[me]:
                for p in range(n):
                    if p != me and rows[p][i] == 1:
                        worth[me] += self.threat * CAPTURE_POINTS
                        worth[p] -= self.threat * PROGRESS[i]
        others = [worth[p] for p in range(n) if p != me]
        return worth[me] - 0.5 * (max(others) + sum(others) / len(others))


BOTS = {"easy": EasyBot, "medium": MediumBot}
