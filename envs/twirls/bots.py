"""Twirls of Action's easy and medium bots.

* easy: takes a winning twirl when it has one; otherwise half of the time a
  random legal action and half of the time the twirl that most reduces the
  spread of its stones (distance to their centroid), blind to groups and to
  the neighbour limit.
* medium: takes a winning twirl; otherwise scores every distinct
  origin->destination twirl by a connectedness evaluation of its own stones
  (number of groups, spread around the centroid, neighbour-limit excess),
  looks one more own twirl ahead from the best candidates (a win next turn
  counts), and refuses twirls after which the opponent has a winning reply
  while it has a safer one. It never swaps.

How strong they are: ``results/EVAL.md`` and ``results/2026-11-twirls-bots.md``.
"""

from __future__ import annotations

import numpy as np

from envs.core.bots import Bot
from envs.twirls.board import Tables
from envs.twirls.rules import TwirlsGame, TwirlsState

WIN = 1e6
GROUP_WEIGHT = 6.0
SPREAD_WEIGHT = 1.0
EXCESS_WEIGHT = 2.5
LOOKAHEAD_WIDTH = 6  # candidates expanded by a second own twirl
NEAR_WIN_GROUPS = 2  # the opponent's replies are checked when it has at most this many groups


def spread(tables: Tables, stones: int) -> float:
    """Sum of the stones' Chebyshev distances to their centroid."""
    files, ranks = [], []
    file_of, rank_of = tables.file_of, tables.rank_of
    bits = stones
    while bits:
        low = bits & -bits
        bits ^= low
        c = low.bit_length() - 1
        files.append(file_of[c])
        ranks.append(rank_of[c])
    if not files:
        return 0.0
    cf, cr = sum(files) / len(files), sum(ranks) / len(ranks)
    return sum(max(abs(f - cf), abs(r - cr)) for f, r in zip(files, ranks))


def evaluate(tables: Tables, stones: int, limit: int) -> float:
    """Connectedness of one side's stones (higher is closer to the goal; WIN when reached)."""
    groups = tables.groups(stones)
    excess = tables.excess_neighbours(stones, limit)
    if groups == 1 and excess == 0:
        return WIN
    return -(GROUP_WEIGHT * (groups - 1) + SPREAD_WEIGHT * spread(tables, stones) + EXCESS_WEIGHT * excess)


def distinct_moves(tables: Tables, mine: int, theirs: int) -> list[tuple[int, int, int]]:
    """Legal twirls, one action per distinct (origin, destination) pair."""
    seen, out = set(), []
    for action, o, d in tables.moves(mine, theirs):
        if (o, d) not in seen:
            seen.add((o, d))
            out.append((action, o, d))
    return out


class _TwirlsBot(Bot):
    game: TwirlsGame

    def _sides(self, state: TwirlsState) -> tuple[int, int, int, int]:
        seat = state.seat_to_move
        me = state.colour_to_move
        return state.stones[me], state.stones[1 - me], self.game.limits[seat], self.game.limits[1 - seat]

    def _winning(self, moves, mine: int, limit: int) -> list[int]:
        has_won = self.game.tables.has_won
        return [a for a, o, d in moves if has_won(mine ^ (1 << o) ^ (1 << d), limit)]


class EasyBot(_TwirlsBot):
    def choose(self, state: TwirlsState, mask: np.ndarray) -> int:
        tables = self.game.tables
        mine, theirs, limit, _ = self._sides(state)
        moves = distinct_moves(tables, mine, theirs)
        wins = self._winning(moves, mine, limit)
        if wins:
            return wins[int(self.rng.integers(len(wins)))]
        if not moves or self.rng.random() < 0.5:
            return self.pick_random(mask)
        scores = [-spread(tables, mine ^ (1 << o) ^ (1 << d)) for _, o, d in moves]
        return self.pick_best([m[0] for m in moves], scores)


class MediumBot(_TwirlsBot):
    def choose(self, state: TwirlsState, mask: np.ndarray) -> int:
        tables = self.game.tables
        mine, theirs, limit, their_limit = self._sides(state)
        moves = distinct_moves(tables, mine, theirs)
        if not moves:
            return self.pick_random(mask)  # only the swap is left
        wins = self._winning(moves, mine, limit)
        if wins:
            return wins[int(self.rng.integers(len(wins)))]
        after = [mine ^ (1 << o) ^ (1 << d) for _, o, d in moves]
        scores = [evaluate(tables, m, limit) for m in after]
        # random tie-break order, then best first
        order = sorted(range(len(moves)), key=lambda i: (-scores[i], self.rng.random()))
        top = order[:LOOKAHEAD_WIDTH]
        for i in top:  # a second own twirl: reward positions from which a win is near
            best_next = max(
                (
                    evaluate(tables, after[i] ^ (1 << o) ^ (1 << d), limit)
                    for _, o, d in distinct_moves(tables, after[i], theirs)
                ),
                default=-WIN,
            )
            scores[i] = scores[i] + 0.5 * best_next if best_next < WIN else WIN / 2
        order = sorted(top, key=lambda i: (-scores[i], self.rng.random())) + order[LOOKAHEAD_WIDTH:]
        if tables.groups(theirs) <= NEAR_WIN_GROUPS:
            for i in order:
                if not self._opponent_wins(theirs, after[i], their_limit):
                    return moves[i][0]
        return moves[order[0]][0]

    def _opponent_wins(self, theirs: int, mine: int, their_limit: int) -> bool:
        has_won = self.game.tables.has_won
        return any(
            has_won(theirs ^ (1 << o) ^ (1 << d), their_limit) for _, o, d in self.game.tables.moves(theirs, mine)
        )


BOTS = {"easy": EasyBot, "medium": MediumBot}
