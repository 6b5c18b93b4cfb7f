"""Twirls of Action's rules on bitboards (see the env docstring for the rules in words).

Each colour's stones are one Python int (the cells and directions of
:mod:`envs.twirls.board`, whose :class:`~envs.twirls.board.Tables` hold the
geometry of one board size and the bitboard operations the rules use).

The game gets its legal twirls from :func:`twirl_mask`, which writes them
straight into a mask: the compiled generator :mod:`envs.twirls.movegen`
(numba, the batched engine's own). :func:`python_twirl_mask`
(``Tables.twirl_sets`` + ``sets_to_mask``) stays the readable reference it is
tested against. The mask and the number of twirls are cached in the state for
the side to move. The bots use :meth:`envs.twirls.board.Tables.moves`
(Python) directly.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from envs.core.game import Game
from envs.core.notation import Fields
from envs.core.params import choice_param, int_param, seat_pair_param
from envs.core.rewards import win_loss_rewards
from envs.twirls.board import tables

BLACK, WHITE = 0, 1
COLOUR_NAMES = ("Black", "White")
DIRECTION_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
TURN_NAMES = ("-90", "-45", "+45", "+90")
SETUPS = {  # first row listed is the top rank; x = Black, w = White
    9: ".xwxwxwx./w7w/x7x/w7w/x7x/w7w/x7x/w7w/.xwxwxwx.",
    8: ".xxxxxx./w6w/w6w/w6w/w6w/w6w/w6w/.xxxxxx.",
}
MAX_NEIGHBORS_ALLOWED = range(2, 9)
COLOUR_SYMBOLS = ("x", "w")  # the notation's and the seed's letters (the ansi drawing shows X and O)
POSITION_FIELDS = ("board", "to-move", "swap", "plies")


def board_text(black: int, white: int, size: int) -> str:
    """The notation's board field: ranks top first joined by ``/``; ``x`` Black, ``w`` White, ``.`` one empty
    cell, a digit a run of 2 to 9 empty cells (the seed's set-up strings are written so)."""
    runs = ("", ".", *"23456789")  # how a run of 0 to 9 empty cells is written
    rows = []
    for rank in range(size - 1, -1, -1):
        row, run = "", 0
        for c in range(rank * size, rank * size + size):
            symbol = "x" if black >> c & 1 else "w" if white >> c & 1 else ""
            if symbol:
                row, run = row + runs[run] + symbol, 0
            else:
                run += 1
        rows.append(row + runs[run])
    return "/".join(rows)


def read_board(fields: Fields, size: int) -> tuple[int, int]:
    """(black bits, white bits) of the board field of ``fields`` (see :func:`board_text`).

    Capitals ``X`` and ``W`` (the seed's marked stones) read as the same
    colours; a digit 1 reads as ``.``.
    """
    rows = fields["board"].split("/")
    if len(rows) != size:
        raise fields.error("board", f"{len(rows)} ranks separated by '/', expected {size}")
    stones = [0, 0]
    for i, row in enumerate(rows):
        rank, file = size - 1 - i, 0
        for symbol in row:
            if symbol in "123456789":
                file += int(symbol)
            elif symbol in ".xXwW":
                if symbol != "." and file < size:
                    stones[symbol in "wW"] |= 1 << (rank * size + file)
                file += 1
            else:
                raise fields.error(
                    "board",
                    f"rank {rank + 1} holds {symbol!r}; a cell is x (Black), w (White) or . (empty), "
                    "a digit so many empty cells",
                )
        if file != size:
            raise fields.error("board", f"rank {rank + 1} has {file} cells, expected {size}")
    return stones[0], stones[1]


def python_twirl_mask(mine: int, theirs: int, size: int, out: np.ndarray) -> int:
    """Pure-Python ``twirl_mask``: :meth:`Tables.twirl_sets` written out by :meth:`Tables.sets_to_mask`."""
    t = tables(size)
    sets = t.twirl_sets(mine, theirs)
    t.sets_to_mask(sets, out)
    return sum(bits.bit_count() for _, _, bits in sets)


def twirl_mask(mine: int, theirs: int, size: int, out: np.ndarray) -> int:
    """The game's legal-twirl generator: writes the legal twirls of the side owning ``mine`` into
    ``out[:size*size*32]`` and returns their number (:mod:`envs.twirls.movegen`'s compiled code).

    The input is the game's own and is not checked: disjoint bitboards of the
    board, ``out`` a writable C-contiguous bool array of ``size*size*32`` (or one
    more: the swap entry is left alone) entries. :func:`envs.twirls.movegen.twirl_mask`
    is the same with every input checked.
    """
    return _compiled_twirl_mask(size)(mine, theirs, out)


@cache
def _compiled_twirl_mask(size: int):
    # imported on the first legal-move query, not with the rules: it imports numba, and `import envs` stays fast
    from envs.twirls.movegen import compiled_twirl_mask

    return compiled_twirl_mask(size)


@dataclass(slots=True)
class TwirlsState:
    """A Twirls position. ``stones[colour]`` are bitboards; seat s plays colour ``s ^ swapped``."""

    stones: list[int]
    colour_to_move: int = BLACK
    swapped: bool = False
    plies: int = 0
    over: bool = False
    winner: int | None = None  # seat
    last: tuple[int, int, int] | None = None  # (origin, pivot, destination) of the last twirl
    legal: tuple[int, np.ndarray] | None = None  # cached (count, mask) of the side to move (never mutated)

    @property
    def seat_to_move(self) -> int:
        return self.colour_to_move ^ self.swapped


class TwirlsGame(Game):
    """Twirls of Action: two players, ``size*size*32 + 1`` actions (the last is the swap)."""

    name = "twirls"
    RULE_PARAMS = (
        choice_param("board_size", 9, (9, 8)),
        seat_pair_param("max_neighbors", 3, MAX_NEIGHBORS_ALLOWED.start, MAX_NEIGHBORS_ALLOWED.stop - 1),
        int_param("max_plies", 400, 1),
    )
    num_players = 2

    def __init__(self, **params) -> None:
        super().__init__(**params)
        self.size = self.params["board_size"]
        self.tables = tables(self.size)
        limit = self.params["max_neighbors"]
        self.limits = (limit, limit) if isinstance(limit, int) else limit
        self.max_plies = self.params["max_plies"]
        self.swap_action = self.size * self.size * 32
        self.num_actions = self.swap_action + 1
        self.setup = read_board(Fields(self.name, SETUPS[self.size], ("board",)), self.size)
        self.stones_each = self.setup[0].bit_count()

    # -- state ---------------------------------------------------------------
    def new_state(self, rng: np.random.Generator) -> TwirlsState:
        return TwirlsState(list(self.setup))

    def copy_state(self, state: TwirlsState) -> TwirlsState:
        return TwirlsState(
            state.stones[:],
            state.colour_to_move,
            state.swapped,
            state.plies,
            state.over,
            state.winner,
            state.last,
            state.legal,
        )

    def colour_of(self, state: TwirlsState, seat: int) -> int:
        """Colour (0 Black, 1 White) that ``seat`` plays."""
        return seat ^ state.swapped

    def to_move(self, state: TwirlsState) -> int:
        return state.colour_to_move ^ state.swapped

    def is_over(self, state: TwirlsState) -> bool:
        return state.over

    def winners(self, state: TwirlsState) -> list[int]:
        return [] if state.winner is None else [state.winner]

    def swap_available(self, state: TwirlsState) -> bool:
        """White's first turn, before any swap."""
        return not state.over and state.plies == 1 and not state.swapped

    def _legal(self, state: TwirlsState) -> tuple[int, np.ndarray]:
        """(number, mask over the actions) of the twirls of the colour to move; the swap entry is False."""
        if state.legal is None:
            me = state.colour_to_move
            mask = np.empty(self.num_actions, dtype=bool)
            mask[self.swap_action] = False
            state.legal = (twirl_mask(state.stones[me], state.stones[1 - me], self.size, mask), mask)
        return state.legal

    def legal_actions(self, state: TwirlsState) -> list[int]:
        if state.over:
            return []
        me = state.colour_to_move
        actions = self.tables.twirls(state.stones[me], state.stones[1 - me])
        if self.swap_available(state):
            actions.append(self.swap_action)
        return actions

    def legal_mask(self, state: TwirlsState) -> np.ndarray:
        if state.over:
            return np.zeros(self.num_actions, dtype=bool)
        mask = self._legal(state)[1].copy()
        mask[self.swap_action] = self.swap_available(state)
        return mask

    def apply(self, state: TwirlsState, action: int, rng: np.random.Generator) -> list[float]:
        seat = state.seat_to_move
        state.plies += 1
        if action == self.swap_action:
            state.swapped = not state.swapped  # the colour to move stays White: player_0 now
            state.last = None
        else:
            me = state.colour_to_move
            origin, pivot, dest = self._twirl(action, state.stones[0] | state.stones[1])
            state.stones[me] ^= (1 << origin) | (1 << dest)
            state.last = (origin, pivot, dest)
            state.colour_to_move = 1 - me
            state.legal = None
        # the end checks, in this order: the mover has won; the ply limit (a draw); the next player has no action
        if self.tables.has_won(state.stones[self.colour_of(state, seat)], self.limits[seat]):
            return self._finish(state, seat)
        if state.plies >= self.max_plies:
            state.over = True
            return [0.0, 0.0]
        if not self._legal(state)[0] and not self.swap_available(state):
            return self._finish(state, seat)
        return [0.0, 0.0]

    def _twirl(self, action: int, occupied: int) -> tuple[int, int, int]:
        """(origin, pivot, destination) of a legal twirl action."""
        tables = self.tables
        origin, k = divmod(action, 32)
        pivot = tables.first_stone(origin, k >> 2, occupied)
        return origin, pivot, origin + tables.distance(origin, pivot) * tables.dest_step[k]

    def ending_moves(self, state: TwirlsState, actions: list[int], rng: np.random.Generator) -> list[int]:
        """Those of the legal ``actions`` that end the game, without playing them out.

        Same answer as :meth:`Game.ending_moves` (tests/games/twirls/test_twirls_rules.py),
        several times faster: a twirl wins only if its destination touches every
        group of the mover's stones but the one it leaves, and the "no twirl
        left" check calls the move generator on the bitboards alone.
        """
        if state.plies + 1 >= self.max_plies:
            return list(actions)  # every move reaches the ply limit
        seat, me = state.seat_to_move, state.colour_to_move
        mine, theirs = state.stones[me], state.stones[1 - me]
        tables, limit, scratch = self.tables, self.limits[seat], np.empty(self.num_actions, dtype=bool)
        occupied = mine | theirs
        # after Black's first twirl White may still swap, so it is never left without a move
        opponent_may_swap = state.plies == 0 and not state.swapped
        # A twirl from a group connects everything only if it lands next to every other group.
        groups = tables.group_list(mine)
        halos = [tables.dilate(g) for g in groups]
        touching = {}  # origin -> cells next to every group but its own
        for i, group in enumerate(groups):
            cells = tables.full
            for j, halo in enumerate(halos):
                if j != i:
                    cells &= halo
            bits = group
            while bits:
                low = bits & -bits
                bits ^= low
                touching[low.bit_length() - 1] = cells
        ending = []
        for action in actions:
            if action == self.swap_action:
                ending += Game.ending_moves(self, state, [action], rng)
                continue
            origin, _pivot, dest = self._twirl(action, occupied)
            after = mine ^ (1 << origin) ^ (1 << dest)
            if (
                touching[origin] >> dest & 1
                and tables.has_won(after, limit)
                or not opponent_may_swap
                and not twirl_mask(theirs, after, self.size, scratch)
            ):
                ending.append(action)
        return ending

    @staticmethod
    def _finish(state: TwirlsState, winner: int) -> list[float]:
        state.over, state.winner = True, winner
        return win_loss_rewards(2, [winner])

    # -- positions -------------------------------------------------------------
    def to_text(self, state: TwirlsState, seat: int | None = None) -> str:
        """``board to-move swap plies``: the board (:func:`board_text`), the colour to move (``x`` Black, ``w``
        White), ``s`` once White has swapped (``player_0`` plays White) or ``-``, and the plies played. The end
        follows from these; nothing is hidden, so every seat's view is the same text."""
        board = board_text(state.stones[BLACK], state.stones[WHITE], self.size)
        return f"{board} {COLOUR_SYMBOLS[state.colour_to_move]} {'s' if state.swapped else '-'} {state.plies}"

    def from_text(self, text: str, rng: np.random.Generator | None = None) -> TwirlsState:
        fields = Fields(self.name, text, POSITION_FIELDS)
        black, white = read_board(fields, self.size)
        for colour, bits in enumerate((black, white)):
            if not 1 <= bits.bit_count() <= self.stones_each:
                raise fields.error(
                    "board",
                    f"{COLOUR_NAMES[colour]} has {bits.bit_count()} stones; each colour has 1 to "
                    f"{self.stones_each} on a {self.size}x{self.size} board (stones are never taken)",
                )
        colour = fields.choice("to-move", COLOUR_SYMBOLS)
        swapped = bool(fields.choice("swap", ("-", "s")))
        plies = fields.int("plies", 2 if swapped else 0, self.max_plies)
        if colour != (plies - swapped) % 2:
            raise fields.error(
                "to-move",
                f"after {plies} plies{' and the swap' if swapped else ''} {COLOUR_NAMES[(plies - swapped) % 2]} "
                "is to move (Black moves first; the swap does not change the colour to move)",
            )
        state = TwirlsState([black, white], colour, swapped, plies)
        if plies == 0 and not self._legal(state)[0]:
            raise fields.error("board", "Black, to move first, has no twirl")
        self._end_of(state)
        return state

    def _end_of(self, state: TwirlsState) -> None:
        """Mark ``state`` over as :meth:`apply`'s end checks would have right after its last ply."""
        if state.plies == 0:
            return
        mover = (1 - state.colour_to_move) ^ state.swapped  # the seat that played the last ply (twirl or swap)
        if self.tables.has_won(state.stones[self.colour_of(state, mover)], self.limits[mover]):
            self._finish(state, mover)
        elif state.plies >= self.max_plies:
            state.over = True
        elif not self._legal(state)[0] and not self.swap_available(state):
            self._finish(state, mover)

    # -- names ---------------------------------------------------------------
    def action_name(self, state: TwirlsState, action: int) -> str:
        """``d8-d5@a5`` (origin-destination@pivot), ``swap``, or the raw geometry if no twirl fits."""
        if action == self.swap_action:
            return "swap"
        names = self.tables.names
        o, rest = divmod(action, 32)
        d, k = divmod(rest, 4)
        found = self.tables.destination(action, state.stones[0] | state.stones[1])
        if found is None:
            return f"{names[o]}>{DIRECTION_NAMES[d]}{TURN_NAMES[k]}"
        pivot, dest = found
        return f"{names[o]}-{names[dest]}@{names[pivot]}"

    def seat_to_colour_name(self, state: TwirlsState, seat: int) -> str:
        return COLOUR_NAMES[self.colour_of(state, seat)]
