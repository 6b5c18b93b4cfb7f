"""Swahili's rules on small lists of counts (see the env docstring for the rules in words).

The state keeps, for every seat ``p``, ``rows[p][i]``: how many of p's pieces
stand in row ``i + 1`` (rows 1-6 are p's own, rows 7-11 the shared capture
rings, so ``rows[q][i]`` for ``i >= 6`` are other players' pieces on the same
ring), ``centre[p]`` (pieces in the centre hole) and ``compound[p]`` (pieces p
has captured). Sowing walks the 12 positions ``0..10`` (rows 1-11) and
``CENTRE = 11`` cyclically, so each pass over the top drops exactly one piece
into the centre and carries on from row 1.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from envs.core.game import Game, RuleError
from envs.core.notation import Fields
from envs.core.params import choice_param
from envs.core.rewards import win_loss_rewards

NUM_ROWS = 11  # rows 1..11 are indices 0..10
FIRST_CAPTURE_ROW = 6  # index of row 7: rows 7-11 are the shared capture rows
CENTRE = 11  # sowing position of the centre hole
STOP = 11  # the action "stop here" while a choice is pending
NUM_ACTIONS = 12
PIECES = 12
START_ROWS = (3, 3, 3, 3, 0, 0, 0, 0, 0, 0, 0)
CAPTURE_POINTS = 5
CENTRE_POINTS = 10
REWARD_MODES = ("win", "score")
PLAYER_COUNTS = (2, 3, 4)
SEAT_SYMBOLS = ("R", "K", "B", "G")  # Red, Black, Blue, Green: the notation's and the drawings' letters
COUNT_SYMBOLS = ".123456789abc"  # pieces in one row: none, 1 to 9, 10 to 12
POSITION_FIELDS = ("rows", "centre", "captured", "to-move", "choice")

# A precomputed mask per position: "no choice pending" masks are built from counts,
# a pending choice at row i allows exactly {i, STOP}.
_PENDING_MASKS = []
for _i in range(NUM_ROWS):
    _m = np.zeros(NUM_ACTIONS, dtype=bool)
    _m[_i] = _m[STOP] = True
    _PENDING_MASKS.append(_m)
_NO_MASK = np.zeros(NUM_ACTIONS, dtype=bool)


@dataclass
class SwahiliState:
    rows: list[list[int]]
    centre: list[int]
    compound: list[int]
    to_move: int = 0
    pending: int = -1  # row index where the mover must choose stop / continue, or -1
    over: bool = False
    plies: int = 0


def sow_own(mine: list[int], row: int) -> tuple[int, int]:
    """Pick up one player's pieces in ``row`` of its counts ``mine`` and sow them, one a position.

    Returns the landing position of the last piece (``CENTRE`` or a row index)
    and how many pieces dropped into the centre (which ``mine`` does not hold).
    No capture: :func:`sow` applies them; the bots call this to see where a
    player's chains can land.
    """
    k = mine[row]
    mine[row] = 0
    pos = row
    into_centre = 0
    for _ in range(k):
        pos += 1
        if pos == CENTRE:
            into_centre += 1
        else:
            if pos > CENTRE:
                pos = 0
            mine[pos] += 1
    return pos, into_centre


def sow(rows: list[list[int]], centre: list[int], compound: list[int], me: int, row: int) -> int:
    """Pick up all of ``me``'s pieces in ``row`` and sow them; apply any capture.

    Returns the landing position of the last piece: ``CENTRE``, or a row index.
    The caller decides from it whether the move ends (see :func:`choice_after`).
    """
    mine = rows[me]
    pos, into_centre = sow_own(mine, row)
    centre[me] += into_centre
    if pos != CENTRE and mine[pos] == 1 and pos >= FIRST_CAPTURE_ROW:
        for q, theirs in enumerate(rows):
            if q != me and theirs[pos] == 1:
                theirs[pos] = 0
                compound[me] += 1
    return pos


def choice_after(rows: list[list[int]], me: int, pos: int) -> bool:
    """True when the last piece landed on a row that already held ``me``'s pieces."""
    return pos != CENTRE and rows[me][pos] > 1


def points(compound: list[int], centre: list[int]) -> list[int]:
    """Points of every seat from its captured pieces and its pieces in the centre: 5 and 10 each."""
    return [CAPTURE_POINTS * c + CENTRE_POINTS * m for c, m in zip(compound, centre)]


def scores(state: SwahiliState) -> list[int]:
    """Points of every seat of ``state`` (see :func:`points`)."""
    return points(state.compound, state.centre)


def best_seats(points: list[int]) -> list[int]:
    """Seats with the highest score, or [] when every seat ties (a draw)."""
    top = max(points)
    best = [p for p, s in enumerate(points) if s == top]
    return [] if len(best) == len(points) else best


class SwahiliGame(Game):
    """Swahili for 2, 3 or 4 players: 12 actions (rows 1-11, stop)."""

    name = "swahili"
    RULE_PARAMS = (choice_param("num_players", 2, PLAYER_COUNTS), choice_param("reward", "win", REWARD_MODES))
    num_actions = NUM_ACTIONS

    def __init__(self, **params) -> None:
        super().__init__(**params)
        self.num_players = self.params["num_players"]
        self.score_rewards = self.params["reward"] == "score"

    # -- state ---------------------------------------------------------------
    def new_state(self, rng: np.random.Generator) -> SwahiliState:
        n = self.num_players
        return SwahiliState([list(START_ROWS) for _ in range(n)], [0] * n, [0] * n)

    def copy_state(self, state: SwahiliState) -> SwahiliState:
        return SwahiliState(
            [r[:] for r in state.rows],
            state.centre[:],
            state.compound[:],
            state.to_move,
            state.pending,
            state.over,
            state.plies,
        )

    def to_move(self, state: SwahiliState) -> int:
        return state.to_move

    def is_over(self, state: SwahiliState) -> bool:
        return state.over

    def winners(self, state: SwahiliState) -> list[int]:
        return best_seats(scores(state)) if state.over else []

    def standings(self, state: SwahiliState) -> list[float]:
        return [float(points) for points in scores(state)]

    def legal_mask(self, state: SwahiliState) -> np.ndarray:
        if state.over:
            return _NO_MASK.copy()
        if state.pending >= 0:
            return _PENDING_MASKS[state.pending].copy()
        mask = np.zeros(NUM_ACTIONS, dtype=bool)
        mask[:NUM_ROWS] = state.rows[state.to_move]
        return mask

    # -- play ----------------------------------------------------------------
    def apply(self, state: SwahiliState, action: int, rng: np.random.Generator) -> list[float]:
        me = state.to_move
        state.plies += 1
        before = scores(state) if self.score_rewards else None
        if action == STOP:
            state.pending = -1
        else:
            pos = sow(state.rows, state.centre, state.compound, me, action)
            state.pending = pos if choice_after(state.rows, me, pos) else -1
        if state.pending < 0:  # the move is over
            if any(not any(r) for r in state.rows):
                state.over = True
            else:
                state.to_move = (me + 1) % self.num_players
        if self.score_rewards:
            after = scores(state)
            gains = [a - b for a, b in zip(after, before)]
            mean = sum(gains) / self.num_players
            return [float(g - mean) for g in gains]
        if state.over:
            return self.win_rewards(state)
        return [0.0] * self.num_players

    def win_rewards(self, state: SwahiliState) -> list[float]:
        """Winners share +1, the others share -1; all even: zeros."""
        return win_loss_rewards(self.num_players, self.winners(state), shared=True)

    def action_name(self, state: SwahiliState, action: int) -> str:
        if action == STOP:
            return "stop"
        if state.pending == action:
            return f"go on from row {action + 1}"
        return f"row {action + 1}"

    # -- positions -------------------------------------------------------------
    def to_text(self, state: SwahiliState, seat: int | None = None) -> str:
        """``rows centre captured to-move choice``: each seat's pieces in its rows 1-11 (one symbol a row:
        ``.`` none, ``1``-``9``, ``a`` ``b`` ``c`` for 10-12), seats in order joined by ``/``; the pieces in
        the centre and the pieces captured, by seat, joined by ``,``; the seat to move (``R`` ``K`` ``B``
        ``G``; at the end, the last mover); the landing row of a pending stop / go-on choice or ``-``.
        Nothing is hidden, so every seat's view is the same text."""
        rows = "/".join("".join(COUNT_SYMBOLS[c] for c in r) for r in state.rows)
        choice = "-" if state.pending < 0 else str(state.pending + 1)
        centre, captured = (",".join(map(str, counts)) for counts in (state.centre, state.compound))
        return f"{rows} {centre} {captured} {SEAT_SYMBOLS[state.to_move]} {choice}"

    def from_text(self, text: str, rng: np.random.Generator | None = None) -> SwahiliState:
        n = self.num_players
        fields = Fields(self.name, text, POSITION_FIELDS)
        rows = _read_rows(fields, n)
        centre = fields.ints("centre", n, 0, PIECES)
        compound = fields.ints("captured", n, 0, PIECES * (n - 1))
        to_move = fields.choice("to-move", SEAT_SYMBOLS[:n])
        pending = -1 if fields["choice"] == "-" else fields.int("choice", 1, NUM_ROWS) - 1
        missing = []
        for seat, r in enumerate(rows):
            here = sum(r) + centre[seat]
            if here > PIECES:
                raise fields.error(
                    "rows" if sum(r) > PIECES else "centre",
                    f"{SEAT_SYMBOLS[seat]} has {here} pieces on its rows and in the centre; each player has {PIECES}",
                )
            missing.append(PIECES - here)
        for seat, taken in enumerate(compound):
            if taken > sum(missing) - missing[seat]:
                raise fields.error(
                    "captured",
                    f"{SEAT_SYMBOLS[seat]} has captured {taken} pieces; the others miss "
                    f"only {sum(missing) - missing[seat]} from their rows and the centre",
                )
        if sum(compound) != sum(missing):
            raise fields.error(
                "captured",
                f"the compounds hold {sum(compound)} pieces, but {sum(missing)} are "
                "missing from the rows and the centre",
            )
        ended = any(not any(r) for r in rows)
        if pending >= 0 and ended:
            raise fields.error("choice", "a player has no piece left on the rows, so the game is over")
        if pending >= 0 and rows[to_move][pending] < 2:
            raise fields.error(
                "choice",
                f"{SEAT_SYMBOLS[to_move]} has {rows[to_move][pending]} piece(s) in row {pending + 1}; the choice "
                "comes only when the last piece joins the mover's own",
            )
        return SwahiliState(rows, centre, compound, to_move, pending, ended and pending < 0)

    def score_of(self, state: SwahiliState, seat: int) -> int:
        """Points of ``seat`` so far."""
        return CAPTURE_POINTS * state.compound[seat] + CENTRE_POINTS * state.centre[seat]


def _read_rows(fields: Fields, n: int) -> list[list[int]]:
    """The rows field: ``n`` seats' counts in rows 1-11 (see :meth:`SwahiliGame.to_text`)."""
    blocks = fields["rows"].split("/")
    if len(blocks) != n:
        raise fields.error("rows", f"{len(blocks)} seats separated by '/', expected {n}")
    rows = []
    for seat, block in enumerate(blocks):
        if len(block) != NUM_ROWS:
            raise fields.error("rows", f"seat {SEAT_SYMBOLS[seat]} has {len(block)} rows, expected {NUM_ROWS}")
        for k, symbol in enumerate(block):
            if symbol not in COUNT_SYMBOLS:
                raise fields.error(
                    "rows", f"seat {SEAT_SYMBOLS[seat]} row {k + 1} is {symbol!r}; a row is . 1-9 a b c (0-12 pieces)"
                )
        rows.append([COUNT_SYMBOLS.index(symbol) for symbol in block])
    return rows


def state_from(
    rows: list[list[int]],
    centre: list[int] | None = None,
    compound: list[int] | None = None,
    to_move: int = 0,
    pending: int = -1,
) -> SwahiliState:
    """A state from row counts (rows 1-11 per seat, padded with zeros), for tests and tools."""
    n = len(rows)
    full = []
    for r in rows:
        if len(r) > NUM_ROWS:
            raise RuleError(f"swahili: at most {NUM_ROWS} rows per seat, got {len(r)}")
        full.append(list(r) + [0] * (NUM_ROWS - len(r)))
    return SwahiliState(full, list(centre or [0] * n), list(compound or [0] * n), to_move, pending)


__all__ = [
    "SwahiliGame",
    "SwahiliState",
    "sow",
    "sow_own",
    "choice_after",
    "points",
    "scores",
    "state_from",
    "NUM_ACTIONS",
    "NUM_ROWS",
    "STOP",
    "CENTRE",
    "FIRST_CAPTURE_ROW",
    "PIECES",
]
