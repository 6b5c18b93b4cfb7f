"""Twirls of Action's rules on bitboards (see the env docstring for the rules in words).

Each colour's stones are one Python int: bit ``cell = rank*size + file``
(file a = 0, rank 1 = 0). Directions 0..7 are N, NE, E, SE, S, SW, W, NW,
clockwise, north towards higher ranks. All geometry (rays, destinations,
the cells between origin and destination) is precomputed once per board size
in :class:`Tables`, so generating the legal twirls is a few table look-ups
and bit operations per stone and direction.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from envs.core.game import Game, RuleError

BLACK, WHITE = 0, 1
COLOUR_NAMES = ("Black", "White")
DIRECTION_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
VECTORS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))  # (dfile, drank)
TURNS = (-2, -1, 1, 2)  # r = 0..3: P->O turned by -90, -45, +45, +90 degrees (+ = clockwise)
TURN_NAMES = ("-90", "-45", "+45", "+90")
FILES = "abcdefghi"
SETUPS = {  # first row listed is the top rank; x = Black, w = White
    9: ".xwxwxwx./w7w/x7x/w7w/x7x/w7w/x7x/w7w/.xwxwxwx.",
    8: ".xxxxxx./w6w/w6w/w6w/w6w/w6w/w6w/.xxxxxx.",
}
MAX_NEIGHBORS_ALLOWED = range(2, 9)


def parse_setup(text: str, size: int) -> tuple[int, int]:
    """(black bits, white bits) of a board string: rows top rank first, digits = empty runs.

    ``x``/``w`` are Black/White stones, ``.`` an empty cell; capitals (the
    seed's marked stones) read as the same colour.
    """
    rows = text.split("/")
    if len(rows) != size:
        raise ValueError(f"set-up {text!r} has {len(rows)} rows, expected {size}")
    black = white = 0
    for i, row in enumerate(rows):
        rank = size - 1 - i
        file = 0
        for ch in row.lower():
            if ch.isdigit():
                file += int(ch)
                continue
            if ch == "x":
                black |= 1 << (rank * size + file)
            elif ch == "w":
                white |= 1 << (rank * size + file)
            elif ch != ".":
                raise ValueError(f"set-up {text!r}: unknown symbol {ch!r}")
            file += 1
        if file != size:
            raise ValueError(f"set-up {text!r}: row {i} has {file} cells, expected {size}")
    return black, white


class Tables:
    """Precomputed geometry of one board size."""

    def __init__(self, size: int) -> None:
        self.size = size
        n = self.cells = size * size
        self.full = (1 << n) - 1
        self.file_of = [c % size for c in range(n)]
        self.rank_of = [c // size for c in range(n)]
        self.names = [f"{FILES[c % size]}{c // size + 1}" for c in range(n)]
        # rays[c*8 + d]: bits of the cells from c (excluded) to the edge in direction d
        self.rays = [0] * (n * 8)
        # ascending[d]: the cell index grows along direction d (first stone = lowest bit)
        self.ascending = [df + dr * size > 0 for df, dr in VECTORS]
        for c in range(n):
            f, r = c % size, c // size
            for d, (df, dr) in enumerate(VECTORS):
                bits, ff, rr = 0, f + df, r + dr
                while 0 <= ff < size and 0 <= rr < size:
                    bits |= 1 << (rr * size + ff)
                    ff, rr = ff + df, rr + dr
                self.rays[c * 8 + d] = bits
        # twirl[((o*8 + d)*size + N)*4 + r] = (destination, needs) or None, where
        # needs = destination bit | cells strictly between origin and destination
        self.twirl: list[tuple[int, int] | None] = [None] * (n * 8 * size * 4)
        for o in range(n):
            f, r = o % size, o // size
            for d, (df, dr) in enumerate(VECTORS):
                for dist in range(1, size):
                    pf, pr = f + dist * df, r + dist * dr
                    if not (0 <= pf < size and 0 <= pr < size):
                        break
                    for k, turn in enumerate(TURNS):
                        ef, er = VECTORS[(d + 4 + turn) % 8]
                        tf, tr = pf + dist * ef, pr + dist * er
                        if not (0 <= tf < size and 0 <= tr < size):
                            continue
                        dest = tr * size + tf
                        self.twirl[((o * 8 + d) * size + dist) * 4 + k] = (dest, self.between(o, dest) | 1 << dest)
        # neighbours[c]: bits of the 8 cells around c
        self.neighbours = []
        for c in range(n):
            f, r = c % size, c // size
            bits = 0
            for df, dr in VECTORS:
                if 0 <= f + df < size and 0 <= r + dr < size:
                    bits |= 1 << ((r + dr) * size + f + df)
            self.neighbours.append(bits)
        not_a = self.full
        not_last = self.full
        for rank in range(size):
            not_a &= ~(1 << (rank * size))
            not_last &= ~(1 << (rank * size + size - 1))
        self.not_file_a, self.not_file_last = not_a, not_last

    def between(self, a: int, b: int) -> int:
        """Bits strictly between two cells on one line (queen line)."""
        size = self.size
        fa, ra, fb, rb = a % size, a // size, b % size, b // size
        df, dr = fb - fa, rb - ra
        steps = max(abs(df), abs(dr))
        if not (df == 0 or dr == 0 or abs(df) == abs(dr)):
            raise ValueError(f"cells {a} and {b} are not on one line")
        sf, sr = (df > 0) - (df < 0), (dr > 0) - (dr < 0)
        bits = 0
        for i in range(1, steps):
            bits |= 1 << ((ra + i * sr) * size + fa + i * sf)
        return bits

    def first_stone(self, origin: int, d: int, occupied: int) -> int:
        """Cell of the first stone from ``origin`` in direction ``d``, or -1."""
        blockers = occupied & self.rays[origin * 8 + d]
        if not blockers:
            return -1
        if self.ascending[d]:
            return (blockers & -blockers).bit_length() - 1
        return blockers.bit_length() - 1

    def distance(self, a: int, b: int) -> int:
        """Steps between two cells on one line (Chebyshev distance)."""
        return max(abs(self.file_of[a] - self.file_of[b]), abs(self.rank_of[a] - self.rank_of[b]))

    def moves(self, mine: int, theirs: int) -> list[tuple[int, int, int]]:
        """Every legal twirl of the side owning ``mine``: (action, origin, destination), ascending."""
        occupied = mine | theirs
        size, rays, ascending, twirl = self.size, self.rays, self.ascending, self.twirl
        file_of, rank_of = self.file_of, self.rank_of
        found = []
        bits = mine
        while bits:
            low = bits & -bits
            o = low.bit_length() - 1
            bits ^= low
            fo, ro = file_of[o], rank_of[o]
            for d in range(8):
                blockers = occupied & rays[o * 8 + d]
                if not blockers:
                    continue
                p = (blockers & -blockers).bit_length() - 1 if ascending[d] else blockers.bit_length() - 1
                if not theirs >> p & 1:
                    continue
                df, dr = file_of[p] - fo, rank_of[p] - ro
                dist = df if df > 0 else (-df if df else (dr if dr > 0 else -dr))
                base = ((o * 8 + d) * size + dist) * 4
                for k in range(4):
                    entry = twirl[base + k]
                    if entry is not None and not occupied & entry[1]:
                        found.append(((o * 8 + d) * 4 + k, o, entry[0]))
        return found

    def twirls(self, mine: int, theirs: int) -> list[int]:
        """Every legal twirl action of the side owning ``mine`` (ascending order)."""
        return [m[0] for m in self.moves(mine, theirs)]

    def destination(self, action: int, occupied: int) -> tuple[int, int] | None:
        """(pivot, destination) of a twirl action given the stones, or None if it has none."""
        o, rest = divmod(action, 32)
        d, k = divmod(rest, 4)
        p = self.first_stone(o, d, occupied)
        if p < 0:
            return None
        entry = self.twirl[((o * 8 + d) * self.size + self.distance(o, p)) * 4 + k]
        return None if entry is None else (p, entry[0])

    def dilate(self, bits: int) -> int:
        """``bits`` and all their 8-neighbours."""
        row = bits | (bits << 1 & self.not_file_a) | (bits >> 1 & self.not_file_last)
        return (row | row << self.size | row >> self.size) & self.full

    def groups(self, stones: int) -> int:
        """Number of 8-connected groups of ``stones``."""
        count = 0
        while stones:
            group = stones & -stones
            while True:
                grown = self.dilate(group) & stones
                if grown == group:
                    break
                group = grown
            stones ^= group
            count += 1
        return count

    def connected(self, stones: int) -> bool:
        """True when ``stones`` form one 8-connected group."""
        if not stones:
            return False
        group = stones & -stones
        while True:
            grown = self.dilate(group) & stones
            if grown == group:
                return group == stones
            group = grown

    def excess_neighbours(self, stones: int, limit: int) -> int:
        """Sum over the stones of friendly 8-neighbours above ``limit``."""
        total = 0
        neighbours = self.neighbours
        bits = stones
        while bits:
            low = bits & -bits
            bits ^= low
            extra = (stones & neighbours[low.bit_length() - 1]).bit_count() - limit
            if extra > 0:
                total += extra
        return total

    def has_won(self, stones: int, limit: int) -> bool:
        """One 8-connected group and no stone with more than ``limit`` friendly neighbours."""
        return self.connected(stones) and self.excess_neighbours(stones, limit) == 0


@lru_cache(maxsize=None)
def tables(size: int) -> Tables:
    """The (cached) geometry tables of a board size."""
    return Tables(size)


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
    legal: list[int] | None = None  # cached legal actions of the side to move (never mutated)

    @property
    def seat_to_move(self) -> int:
        return self.colour_to_move ^ self.swapped


class TwirlsGame(Game):
    """Twirls of Action: two players, ``size*size*32 + 1`` actions (the last is the swap)."""

    name = "twirls"
    PARAMS = {"board_size": 9, "max_neighbors": 3, "max_plies": 400}
    num_players = 2

    def __init__(self, **params) -> None:
        super().__init__(**params)
        self.size = self.params["board_size"]
        self.tables = tables(self.size)
        limit = self.params["max_neighbors"]
        self.limits = (limit, limit) if isinstance(limit, (int, np.integer)) else tuple(int(x) for x in limit)
        self.max_plies = int(self.params["max_plies"])
        self.swap_action = self.size * self.size * 32
        self.num_actions = self.swap_action + 1
        self.setup = parse_setup(SETUPS[self.size], self.size)

    def validate_params(self) -> None:
        size = self.params["board_size"]
        if isinstance(size, bool) or size not in (8, 9):
            raise RuleError(f"twirls: board_size must be 9 or 8, got {size!r}")
        limit = self.params["max_neighbors"]
        values = limit if isinstance(limit, (tuple, list)) else (limit,)
        if isinstance(limit, (tuple, list)) and len(limit) != 2 or not all(
                isinstance(v, (int, np.integer)) and not isinstance(v, bool) and v in MAX_NEIGHBORS_ALLOWED
                for v in values):
            raise RuleError("twirls: max_neighbors must be an int from 2 to 8 or a per-seat pair of them "
                            f"such as (4, 2), got {limit!r}")
        plies = self.params["max_plies"]
        if isinstance(plies, bool) or not isinstance(plies, (int, np.integer)) or plies < 1:
            raise RuleError(f"twirls: max_plies must be a positive int, got {plies!r}")

    # -- state ---------------------------------------------------------------
    def new_state(self, rng: np.random.Generator) -> TwirlsState:
        return TwirlsState(list(self.setup))

    def copy_state(self, state: TwirlsState) -> TwirlsState:
        return TwirlsState(state.stones[:], state.colour_to_move, state.swapped, state.plies,
                           state.over, state.winner, state.last, state.legal)

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

    def legal_actions(self, state: TwirlsState) -> list[int]:
        if state.over:
            return []
        if state.legal is None:
            me = state.colour_to_move
            state.legal = self.tables.twirls(state.stones[me], state.stones[1 - me])
        if self.swap_available(state):
            return state.legal + [self.swap_action]
        return state.legal

    def legal_mask(self, state: TwirlsState) -> np.ndarray:
        mask = np.zeros(self.num_actions, dtype=bool)
        mask[self.legal_actions(state)] = True
        return mask

    def apply(self, state: TwirlsState, action: int, rng: np.random.Generator) -> list[float]:
        seat = state.seat_to_move
        state.plies += 1
        if action == self.swap_action:
            state.swapped = not state.swapped  # the colour to move stays White: player_0 now
            state.last = None
        else:
            me = state.colour_to_move
            occupied = state.stones[0] | state.stones[1]
            pivot, dest = self.tables.destination(action, occupied)
            origin = action // 32
            state.stones[me] ^= (1 << origin) | (1 << dest)
            state.last = (origin, pivot, dest)
            state.colour_to_move = 1 - me
            state.legal = None
        # end checks, in the RULINGS order
        if self.tables.has_won(state.stones[self.colour_of(state, seat)], self.limits[seat]):
            return self._finish(state, seat)
        if state.plies >= self.max_plies:
            state.over = True
            return [0.0, 0.0]
        if not self.legal_actions(state):
            return self._finish(state, seat)
        return [0.0, 0.0]

    @staticmethod
    def _finish(state: TwirlsState, winner: int) -> list[float]:
        state.over, state.winner = True, winner
        rewards = [-1.0, -1.0]
        rewards[winner] = 1.0
        return rewards

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
