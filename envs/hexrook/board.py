"""The one engine shared by Swish and Squeeze: hex-board geometry, set-up, choices, end checks.

The two games differ only in how a rook moves and what it captures; a game
subclasses :class:`HexRookGame` and supplies :meth:`HexRookGame.rook_actions`
and :meth:`HexRookGame.captures` (see :mod:`envs.swish.rules`, :mod:`envs.squeeze.rules`).

Geometry: axial cells ``(q, r)`` with ``max(|q|, |r|, |q+r|) <= radius``,
indexed in order of ``r`` then ``q``; directions 0..5 are (+1,0), (+1,-1),
(0,-1), (-1,0), (-1,+1), (0,+1). Edge = the cells at distance ``radius``
from the centre, inner = the rest. A cell is named by its row letter
(``a`` = the top row, r = -radius) and its place in the row from the left
(``1`` = smallest q): the centre of the default board is ``e5``.

Actions (one space for every phase):

* ``[0, M)`` moves, ``M = cells*6*2*radius``:
  ``(cell*6 + direction)*2*radius + (distance - 1)``, distance counted in
  cells from the rook to its landing cell;
* ``[M, M + 3*cells)`` set-up placements ``M + cell*3 + kind`` (kind 0 white
  rook, 1 black rook, 2 bead);
* ``M + 3*cells + 0/1/2``: the choices "move first", "white", "black".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

import numpy as np

from envs.core.game import Game, RuleError
from envs.core.notation import Fields
from envs.core.params import choice_param, int_param
from envs.core.rewards import win_loss_rewards

DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
EMPTY, WHITE_ROOK, BLACK_ROOK, BEAD = 0, 1, 2, 3  # cell contents; the rook of colour c is c + 1
WHITE, BLACK = 0, 1
COLOUR_NAMES = ("white", "black")
ROOKS_PER_COLOUR = 3
NUM_BEADS = 19
ROOK_VALUE = 3.0  # a captured rook is worth this many beads to the bots and the search's move order
# the medium bot's weights (envs.hexrook.bots, its kernel in envs.hexrook.batched)
WIN = 1000.0  # a move that wins at once (a reply that wins: -WIN)
THREAT_WEIGHT = 0.4  # medium's weight of the best capture a move threatens next
THREAT_CAP = 10.0  # threats count up to this many beads
CAPTURE_RULES = ("leap", "custody")  # Swish's, Squeeze's: HexRookGame.capture_rule
KIND_NAMES = ("W", "B", "o")  # placement kinds: white rook, black rook, bead
PHASE_SETUP, PHASE_CHOICE, PHASE_COLOUR, PHASE_PLAY = range(4)
CHOICE_NAMES = ("move first", "white", "black")
CHOICE_MOVE_FIRST, CHOICE_WHITE, CHOICE_BLACK = range(3)
SETUPS = ("random", "fixed", "marquisian")
# the position notation (HexRookGame.to_text): the board's letters (as the ansi drawing's), the phases, the colours
CELL_SYMBOLS = ".WBo"  # by cell code: EMPTY, WHITE_ROOK, BLACK_ROOK, BEAD
PHASE_NAMES = ("setup", "choice", "colour", "play")
SEAT_COLOURS = ("-", "WB", "BW")  # player_0's then player_1's colour: not chosen yet, or chosen
FIELDS = ("board", "phase", "to-move", "colours", "stores", "plies")
RADII = range(3, 9)


class HexBoard:
    """Cells, neighbours and rays of a hexagonal board of ``radius``."""

    def __init__(self, radius: int) -> None:
        self.radius = radius
        self.coords = [
            (q, r)
            for r in range(-radius, radius + 1)
            for q in range(-radius, radius + 1)
            if max(abs(q), abs(r), abs(q + r)) <= radius
        ]
        self.n = len(self.coords)
        self.index = {c: i for i, c in enumerate(self.coords)}
        self.ring = [max(abs(q), abs(r), abs(q + r)) for q, r in self.coords]
        self.is_edge = [d == radius for d in self.ring]
        self.edge_cells = [i for i in range(self.n) if self.is_edge[i]]
        self.inner_cells = [i for i in range(self.n) if not self.is_edge[i]]
        # rays[cell][d]: the cells met going from ``cell`` in direction d, nearest first
        self.rays: list[tuple[tuple[int, ...], ...]] = []
        for q, r in self.coords:
            per_dir = []
            for dq, dr in DIRECTIONS:
                ray, k = [], 1
                while (q + k * dq, r + k * dr) in self.index:
                    ray.append(self.index[(q + k * dq, r + k * dr)])
                    k += 1
                per_dir.append(tuple(ray))
            self.rays.append(tuple(per_dir))
        self.names = []
        for q, r in self.coords:
            row_start = max(-radius, -radius - r)
            self.names.append(f"{chr(ord('a') + r + radius)}{q - row_start + 1}")
        self.by_name = {name: i for i, name in enumerate(self.names)}

    def cell(self, name_or_coords: str | tuple[int, int]) -> int:
        """Index of a cell given as a name (``"e5"``) or axial coordinates."""
        try:
            if isinstance(name_or_coords, str):
                return self.by_name[name_or_coords]
            return self.index[tuple(name_or_coords)]
        except KeyError:
            raise RuleError(f"no cell {name_or_coords!r} on the radius-{self.radius} board") from None


def gain(board: bytearray, taken: list[int]) -> tuple[int, int]:
    """(beads, rooks) among the ``taken`` cells of ``board``."""
    beads = sum(1 for c in taken if board[c] == BEAD)
    return beads, len(taken) - beads


def take_value(board: bytearray, taken: list[int]) -> float:
    """What taking ``taken`` is worth, in beads (a rook counts :data:`ROOK_VALUE`)."""
    beads, rooks = gain(board, taken)
    return beads + ROOK_VALUE * rooks


def biggest_first(scored: list[tuple[float, int]]) -> list[int]:
    """The actions of ``(value, action)`` pairs, biggest value first (ties keep their order)."""
    scored.sort(key=lambda item: -item[0])
    return [action for _, action in scored]


@cache
def hex_board(radius: int) -> HexBoard:
    """The (shared, immutable) board of ``radius``."""
    return HexBoard(radius)


@dataclass
class HexState:
    """A position. ``colour[seat]`` is -1 until the colours are chosen."""

    board: bytearray  # per cell: EMPTY, WHITE_ROOK, BLACK_ROOK or BEAD
    rooks: list[list[int]]  # rooks[colour]: cells of that colour's rooks
    phase: int = PHASE_SETUP
    to_move: int = 0
    colour: list[int] = field(default_factory=lambda: [-1, -1])
    stores: list[int] = field(default_factory=lambda: [0, 0])  # beads captured, by seat
    plies: int = 0  # rook moves played
    first_mover: int = -1  # seat that made (or makes) the first rook move
    over: bool = False
    winner: int | None = None
    last_path: tuple[int, ...] = ()  # cells of the last move, origin to landing
    last_captures: tuple[int, ...] = ()  # cells whose beads or rooks the last move took

    def to_place(self) -> list[int]:
        """Pieces still to place in the set-up: white rooks, black rooks, beads."""
        return [
            ROOKS_PER_COLOUR - len(self.rooks[WHITE]),
            ROOKS_PER_COLOUR - len(self.rooks[BLACK]),
            NUM_BEADS - self.board.count(BEAD),
        ]


class HexRookGame(Game):
    """What Swish and Squeeze share; subclasses give the move and capture rule."""

    RULE_PARAMS = (
        int_param("radius", 4, RADII.start, RADII.stop - 1),
        choice_param("setup", "random", SETUPS),
        int_param("max_plies", 300, 1),
        int_param("beads_to_win", 10, 1, NUM_BEADS),
    )
    num_players = 2
    #: which of :data:`CAPTURE_RULES` :meth:`captures` follows: what the batched engine runs for this game
    capture_rule = ""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        self.radius = self.params["radius"]
        self.hex = hex_board(self.radius)
        self.span = 2 * self.radius  # distances 1..2*radius
        self.num_moves = self.hex.n * 6 * self.span
        self.place_base = self.num_moves
        self.choice_base = self.place_base + 3 * self.hex.n
        self.num_actions = self.choice_base + 3
        # ray_actions[cell][d]: ((cell met, action moving there), ...) nearest first
        self.ray_actions = tuple(
            tuple(tuple((c, self.move_action(cell, d, i + 1)) for i, c in enumerate(ray)) for d, ray in enumerate(rays))
            for cell, rays in enumerate(self.hex.rays)
        )
        # landing_of[move action]: its landing cell (-1 where the move would leave the board)
        self.landing_of = [-1] * self.num_moves
        for ras in self.ray_actions:
            for ra in ras:
                for c, a in ra:
                    self.landing_of[a] = c

    # -- the move rule: supplied by each game ------------------------------
    def rook_actions(self, board: list[int], cell: int, own: int, enemy: int, out: list[int]) -> list[int]:
        """Append to ``out`` (and return it) the action of every legal move of the rook on ``cell``.

        ``own`` / ``enemy`` are the board codes of the mover's and the
        opponent's rooks. :attr:`ray_actions` gives, per direction, the
        (cell, action) pairs along the ray.
        """
        raise NotImplementedError

    def can_move(self, board: list[int], cell: int, own: int, enemy: int) -> bool:
        """True when the rook on ``cell`` has a legal move (an empty neighbour is enough in both games)."""
        for ray in self.hex.rays[cell]:
            if ray and board[ray[0]] == EMPTY:
                return True
        return bool(self.rook_actions(board, cell, own, enemy, []))

    def captures(self, board: list[int], cell: int, direction: int, distance: int, own: int, enemy: int) -> list[int]:
        """Cells taken by the (legal) move; ``board`` is the position before it."""
        raise NotImplementedError

    def capture_moves(
        self, board: bytearray, rook_cells: list[int], own: int, enemy: int
    ) -> list[tuple[int, int, int, list[int]]]:
        """(action, origin, landing, taken cells) of every move of the rooks on ``rook_cells``.

        Games may override this with a faster equivalent (used by the bots).
        """
        landing = self.landing_of
        out = []
        for cell in rook_cells:
            for a in self.rook_actions(board, cell, own, enemy, []):
                _, d, dist = self.decode_move(a)
                out.append((a, cell, landing[a], self.captures(board, cell, d, dist, own, enemy)))
        return out

    # -- positions -----------------------------------------------------------
    def empty_state(self) -> HexState:
        return HexState(bytearray(self.hex.n), [[], []])

    def state_from(self, white: list, black: list, beads: list) -> HexState:
        """A choice-phase position with rooks and beads on the given cells (names or indices)."""
        state = self.empty_state()
        for kind, cells in ((WHITE_ROOK, white), (BLACK_ROOK, black), (BEAD, beads)):
            for c in cells:
                c = c if isinstance(c, int) else self.hex.cell(c)
                if state.board[c] != EMPTY:
                    raise RuleError(f"{self.name}: cell {self.hex.names[c]} given twice")
                state.board[c] = kind
                if kind != BEAD:
                    state.rooks[kind - 1].append(c)
        state.phase, state.to_move = PHASE_CHOICE, 1
        return state

    def fixed_cells(self) -> tuple[list[int], list[int], list[int]]:
        """The "fixed" set-up: white rooks on the corners in directions 0, 2, 4, black on 1, 3, 5,
        beads on the 19 cells within two steps of the centre."""
        corners = [self.hex.index[(self.radius * dq, self.radius * dr)] for dq, dr in DIRECTIONS]
        beads = [i for i in range(self.hex.n) if self.hex.ring[i] <= 2]
        return corners[0::2], corners[1::2], beads

    def new_state(self, rng: np.random.Generator) -> HexState:
        setup = self.params["setup"]
        if setup == "marquisian":
            return self.empty_state()
        if setup == "fixed":
            return self.state_from(*self.fixed_cells())
        edge = rng.choice(self.hex.edge_cells, size=2 * ROOKS_PER_COLOUR, replace=False).tolist()
        beads = rng.choice(self.hex.inner_cells, size=NUM_BEADS, replace=False).tolist()
        return self.state_from(edge[:ROOKS_PER_COLOUR], edge[ROOKS_PER_COLOUR:], beads)

    # -- the position notation (the docs page's "Position notation") ---------------
    def to_text(self, state: HexState, seat: int | None = None) -> str:
        """``board phase to-move colours stores plies``: the rows from ``a`` (top) down, each from the left
        (``W``, ``B`` rooks, ``o`` beads, ``.`` empty) joined by ``/``; ``setup``, ``choice``, ``colour`` or
        ``play``; the seat to act (``0``, ``1``); the colours of player_0 and player_1 (``WB``, ``BW``, ``-``
        before the choice); the seats' stores (``3,2``); rook moves played. Nothing is hidden, so every seat's
        view is the same text; the first mover, the end and the winner follow from the fields."""
        rows, start = [], 0
        for length in self.row_lengths():
            rows.append("".join(CELL_SYMBOLS[k] for k in state.board[start : start + length]))
            start += length
        colours = SEAT_COLOURS[0] if state.colour[0] < 0 else SEAT_COLOURS[1 + state.colour[0]]
        stores = f"{state.stores[0]},{state.stores[1]}"
        return f"{'/'.join(rows)} {PHASE_NAMES[state.phase]} {state.to_move} {colours} {stores} {state.plies}"

    def from_text(self, text: str, rng: np.random.Generator | None = None) -> HexState:
        fields = Fields(self.name, text, FIELDS)
        state = self.empty_state()
        state.board = self._read_board(fields)
        for cell, kind in enumerate(state.board):
            if kind in (WHITE_ROOK, BLACK_ROOK):
                state.rooks[kind - 1].append(cell)
        state.phase = fields.choice("phase", PHASE_NAMES)
        state.to_move = fields.int("to-move", 0, 1)
        colours = fields.choice("colours", SEAT_COLOURS)
        state.stores = fields.ints("stores", 2, 0, NUM_BEADS)
        state.plies = fields.int("plies", 0, self.params["max_plies"])
        if state.phase == PHASE_PLAY:
            self._check_play(fields, state, colours)
            state.colour = [colours - 1, 2 - colours]
            state.first_mover = state.to_move if state.plies % 2 == 0 else 1 - state.to_move
            self._end_checks(state, 1 - state.to_move)
        else:
            self._check_before_play(fields, state, colours)
            state.first_mover = 1 if state.phase == PHASE_COLOUR else -1
        return state

    def row_lengths(self) -> list[int]:
        """Cells in each row of the board, top row (``a``) first."""
        return [2 * self.radius + 1 - abs(r) for r in range(-self.radius, self.radius + 1)]

    def _read_board(self, fields: Fields) -> bytearray:
        """The board field as cell codes, its rows, symbols and piece counts checked."""
        rows, lengths = fields["board"].split("/"), self.row_lengths()
        if len(rows) != len(lengths):
            raise fields.error("board", f"expected {len(lengths)} rows separated by '/', got {len(rows)}")
        for k, (row, length) in enumerate(zip(rows, lengths)):
            if len(row) != length:
                raise fields.error("board", f"row {chr(ord('a') + k)} has {len(row)} cells, expected {length}")
        cells = fields.cells("board", self.hex.n, CELL_SYMBOLS)
        board = bytearray(CELL_SYMBOLS.index(symbol) for symbol in cells)
        for kind, most in ((WHITE_ROOK, ROOKS_PER_COLOUR), (BLACK_ROOK, ROOKS_PER_COLOUR), (BEAD, NUM_BEADS)):
            if board.count(kind) > most:
                raise fields.error("board", f"{board.count(kind)} {CELL_SYMBOLS[kind]} where the game has {most}")
        on_edge = [self.hex.names[c] for c in self.hex.edge_cells if board[c] == BEAD]
        if on_edge:
            raise fields.error("board", f"a bead on edge cell {on_edge[0]}: beads stand on inner cells")
        return board

    def _check_before_play(self, fields: Fields, state: HexState, colours: int) -> None:
        """The set-up, the choice or the colour pick: who acts, nothing chosen or played yet, rooks on the edge."""
        phase = PHASE_NAMES[state.phase]
        actor = 1 if state.phase == PHASE_CHOICE else 0
        if state.to_move != actor:
            raise fields.error("to-move", f"in the {phase} phase player_{actor} acts")
        if colours:
            raise fields.error("colours", f"the colours are chosen only after the {phase} phase: write -")
        if any(state.stores):
            raise fields.error("stores", "nothing is captured before the rook moves begin")
        if state.plies:
            raise fields.error("plies", "no rook move is played before the colours are chosen")
        inner = [self.hex.names[c] for r in state.rooks for c in r if not self.hex.is_edge[c]]
        if inner:
            raise fields.error("board", f"a rook on inner cell {inner[0]} before play: rooks are set on the edge")
        placed = not any(state.to_place())
        if state.phase == PHASE_SETUP and placed:
            raise fields.error("phase", "every piece is placed, so the set-up is over: player_1 has the choice")
        if state.phase != PHASE_SETUP and not placed:
            w, b, beads = state.to_place()
            raise fields.error("board", f"{w} W, {b} B and {beads} o still to place: only the set-up phase has that")

    def _check_play(self, fields: Fields, state: HexState, colours: int) -> None:
        """A position of the rook moves: colours chosen, every bead on the board or in a store, a live mover."""
        if not colours:
            raise fields.error("colours", "in the play phase each seat has a colour: WB or BW")
        beads = state.board.count(BEAD)
        if beads + sum(state.stores) != NUM_BEADS:
            stored = sum(state.stores)
            raise fields.error(
                "stores", f"{beads} beads on the board and {stored} in the stores: the game has {NUM_BEADS}"
            )
        if state.plies == 0 and any(state.to_place()):
            raise fields.error("board", "before the first rook move every piece of the set-up is on the board")
        target, mover = self.params["beads_to_win"], 1 - state.to_move
        if state.stores[state.to_move] >= target:
            raise fields.error("stores", f"player_{state.to_move} reached {target} beads before: the game ended")
        if not state.rooks[colours - 1 if mover == 0 else 2 - colours]:
            raise fields.error("board", f"player_{mover} has just moved a rook, so it has one left")

    def copy_state(self, s: HexState) -> HexState:
        return HexState(
            s.board[:],
            [s.rooks[0][:], s.rooks[1][:]],
            s.phase,
            s.to_move,
            s.colour[:],
            s.stores[:],
            s.plies,
            s.first_mover,
            s.over,
            s.winner,
            s.last_path,
            s.last_captures,
        )

    def to_move(self, state: HexState) -> int:
        return state.to_move

    def is_over(self, state: HexState) -> bool:
        return state.over

    def winners(self, state: HexState) -> list[int]:
        return [] if state.winner is None else [state.winner]

    # -- moves -------------------------------------------------------------------
    def move_action(self, cell: int, direction: int, distance: int) -> int:
        return (cell * 6 + direction) * self.span + distance - 1

    def decode_move(self, action: int) -> tuple[int, int, int]:
        """(cell, direction, distance) of a move action."""
        cd, dist = divmod(action, self.span)
        cell, direction = divmod(cd, 6)
        return cell, direction, dist + 1

    def landing(self, cell: int, direction: int, distance: int) -> int:
        return self.hex.rays[cell][direction][distance - 1]

    def move_actions(self, state: HexState, seat: int | None = None) -> list[int]:
        """Actions of every rook move of ``seat`` (default: the player to move)."""
        seat = state.to_move if seat is None else seat
        colour = state.colour[seat]
        out: list[int] = []
        if colour >= 0:
            for cell in state.rooks[colour]:
                self.rook_actions(state.board, cell, colour + 1, 2 - colour, out)
        return out

    def has_move(self, state: HexState, seat: int) -> bool:
        colour = state.colour[seat]
        own, enemy = colour + 1, 2 - colour
        return any(self.can_move(state.board, cell, own, enemy) for cell in state.rooks[colour])

    def ending_moves(self, state: HexState, actions: list[int], rng: np.random.Generator) -> list[int]:
        """Those of the legal ``actions`` that end the game, mostly without playing them out.

        Same answer as :meth:`Game.ending_moves`, faster. A move
        wins by its captures; otherwise it can leave the opponent without a move
        only by taking its rooks or by landing on the last empty neighbour of
        every one left (empty neighbours are all a rook needs), and only such
        moves are played out.
        """
        if state.phase != PHASE_PLAY:
            return Game.ending_moves(self, state, actions, rng)
        if state.plies + 1 >= self.params["max_plies"]:
            return list(actions)  # every move reaches the ply limit
        board, colour = state.board, state.colour[state.to_move]
        own, enemy = colour + 1, 2 - colour
        beads_needed = self.params["beads_to_win"] - state.stores[state.to_move]
        free = {
            rook: [ray[0] for ray in self.hex.rays[rook] if ray and board[ray[0]] == EMPTY]
            for rook in state.rooks[enemy - 1]
        }
        wanted, ending = set(actions), set()
        for action, _cell, land, taken in self.capture_moves(board, state.rooks[colour], own, enemy):
            if action not in wanted:
                continue
            if gain(board, taken)[0] >= beads_needed:
                ending.add(action)
                continue
            left = [empties for rook, empties in free.items() if rook not in taken]
            if any(len(empties) > 1 or empties and empties[0] != land for empties in left):
                continue  # a rook of the opponent keeps an empty neighbour
            ending.update(Game.ending_moves(self, state, [action], rng))
        return [a for a in actions if a in ending]

    def capturing_moves(self, state: HexState) -> list[int]:
        """Moves that take beads or rooks, by what they take (a rook counts as :data:`ROOK_VALUE` beads)."""
        if state.over or state.phase != PHASE_PLAY:
            return []
        board, colour = state.board, state.colour[state.to_move]
        return biggest_first(
            [
                (take_value(board, taken), action)
                for action, _cell, _land, taken in self.capture_moves(
                    board, state.rooks[colour], colour + 1, 2 - colour
                )
                if taken
            ]
        )

    def legal_mask(self, state: HexState) -> np.ndarray:
        mask = np.zeros(self.num_actions, dtype=bool)
        if state.over:
            return mask
        if state.phase == PHASE_PLAY:
            mask[self.move_actions(state)] = True
        elif state.phase == PHASE_SETUP:
            left = state.to_place()
            base = self.place_base
            for cell in range(self.hex.n):
                if state.board[cell] == EMPTY:
                    if self.hex.is_edge[cell]:
                        mask[base + 3 * cell] = left[WHITE] > 0
                        mask[base + 3 * cell + 1] = left[BLACK] > 0
                    else:
                        mask[base + 3 * cell + 2] = left[2] > 0
        elif state.phase == PHASE_CHOICE:
            mask[self.choice_base : self.choice_base + 3] = True
        else:  # PHASE_COLOUR: player_0 picks its colour
            mask[self.choice_base + CHOICE_WHITE : self.choice_base + 3] = True
        return mask

    # -- playing -------------------------------------------------------------------
    def apply(self, state: HexState, action: int, rng: np.random.Generator | None) -> list[float]:
        me = state.to_move
        if action < self.place_base:
            self._play_move(state, action)
        elif action < self.choice_base:
            cell, kind = divmod(action - self.place_base, 3)
            state.board[cell] = BEAD if kind == 2 else kind + 1
            if kind != 2:
                state.rooks[kind].append(cell)
            if not any(state.to_place()):
                state.phase, state.to_move = PHASE_CHOICE, 1
            return [0.0, 0.0]
        else:
            self._choose(state, action - self.choice_base)
        return self._end_checks(state, me)

    def _play_move(self, state: HexState, action: int) -> None:
        cell, d, dist = self.decode_move(action)
        colour = state.colour[state.to_move]
        own, enemy = colour + 1, 2 - colour
        board = state.board
        taken = self.captures(board, cell, d, dist, own, enemy)
        ray = self.hex.rays[cell][d]
        land = ray[dist - 1]
        board[cell] = EMPTY
        board[land] = own
        rooks = state.rooks[colour]
        rooks[rooks.index(cell)] = land
        for c in taken:
            if board[c] == BEAD:
                state.stores[state.to_move] += 1
            else:
                state.rooks[enemy - 1].remove(c)
            board[c] = EMPTY
        state.plies += 1
        state.last_path = (cell,) + ray[:dist]
        state.last_captures = tuple(taken)
        state.to_move = 1 - state.to_move

    def _choose(self, state: HexState, choice: int) -> None:
        if state.phase == PHASE_CHOICE:  # player_1 chooses
            if choice == CHOICE_MOVE_FIRST:
                state.first_mover, state.phase, state.to_move = 1, PHASE_COLOUR, 0
                return
            state.colour = [1 - (choice - 1), choice - 1]
            state.first_mover = 0
        else:  # player_0 picks its colour after "move first"
            state.colour = [choice - 1, 2 - choice]
        state.phase, state.to_move = PHASE_PLAY, state.first_mover

    def _end_checks(self, state: HexState, mover: int) -> list[float]:
        """In the rules' order: the mover has won; the ply limit (draw); the next player cannot move (loses)."""
        if state.phase != PHASE_PLAY:
            return [0.0, 0.0]
        winner = None
        if state.stores[mover] >= self.params["beads_to_win"]:
            winner = mover
        elif state.plies >= self.params["max_plies"]:
            state.over = True
            return [0.0, 0.0]
        elif not self.has_move(state, state.to_move):
            winner = 1 - state.to_move
        if winner is None:
            return [0.0, 0.0]
        state.over, state.winner = True, winner
        return win_loss_rewards(2, [winner])

    def action_name(self, state: HexState, action: int) -> str:
        names = self.hex.names
        if action >= self.choice_base:
            return CHOICE_NAMES[action - self.choice_base]
        if action >= self.place_base:
            cell, kind = divmod(action - self.place_base, 3)
            return f"{KIND_NAMES[kind]}@{names[cell]}"
        cell, d, dist = self.decode_move(action)
        ray = self.hex.rays[cell][d]
        if dist > len(ray):
            return f"{names[cell]}-off-board"
        sep = "-"
        if state.phase == PHASE_PLAY and state.board[cell] in (WHITE_ROOK, BLACK_ROOK) and self.mask_has(state, action):
            own = state.board[cell]
            taken = self.captures(state.board, cell, d, dist, own, 3 - own)
            if taken:
                sep = "x"
        return f"{names[cell]}{sep}{names[ray[dist - 1]]}"

    def mask_has(self, state: HexState, action: int) -> bool:
        """True when the move ``action`` is legal for the rook standing on its cell."""
        cell = self.decode_move(action)[0]
        own = state.board[cell]
        return action in self.rook_actions(state.board, cell, own, 3 - own, [])
