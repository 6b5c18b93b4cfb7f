"""Twirls of Action's rules on bitboards (see the env docstring for the rules in words).

Each colour's stones are one Python int: bit ``cell = rank*size + file``
(file a = 0, rank 1 = 0). Directions 0..7 are N, NE, E, SE, S, SW, W, NW,
clockwise, north towards higher ranks. The geometry is precomputed once per
board size in :class:`Tables`; the legal twirls are generated for all stones
at once, a few big-int bit operations per direction and step
(:meth:`Tables.twirl_sets`).

The game itself gets its legal twirls from :data:`twirl_mask`, which writes
them straight into a mask: the compiled generator ``envs/twirls/_movegen.c``
(about 1 us a position, built by ``pip install``; optional, so an install
without a C compiler still works) when it imports, else
:func:`python_twirl_mask` (``twirl_sets`` + ``sets_to_mask``, about 50 us),
which stays the reference the compiled one is tested against. The mask and
the number of twirls are cached in the state for the side to move. The bots
use :meth:`Tables.moves` (Python) directly. The batched engine
(``envs/twirls/batched.py``) has its own generator, numba over two-word
bitboards; for one position per call the C one stays (less call overhead).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from envs.core.game import Game
from envs.core.params import choice_param, int_param, seat_pair_param
from envs.core.rewards import win_loss_rewards

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
        # Bit-parallel twirl generation (see twirl_sets). delta[u]: cell step of direction u;
        # on_board[u][j]: cells c with c + j*u on the board (j = 1..size-1).
        self.delta = [df + dr * size for df, dr in VECTORS]
        self.on_board = []
        for df, dr in VECTORS:
            row = [0] * size
            for j in range(1, size):
                for c in range(n):
                    if 0 <= c % size + j * df < size and 0 <= c // size + j * dr < size:
                        row[j] |= 1 << c
            self.on_board.append(row[1:])
        # turn_to[d][j]: for pivot distance j in direction d, the 4 twirls as
        # (d*4 + r, direction u from origin to destination, steps origin -> destination)
        self.turn_to = []
        self.dest_step = [0] * 32  # cell step origin -> destination per unit of pivot distance
        for d in range(8):
            per_distance = []
            for j in range(size):
                row = []
                for k, turn in enumerate(TURNS):
                    back, out = VECTORS[(d + 4) % 8], VECTORS[(d + 4 + turn) % 8]
                    wf, wr = out[0] - back[0], out[1] - back[1]
                    m = max(abs(wf), abs(wr))
                    row.append((d * 4 + k, VECTORS.index((wf // m, wr // m)), j * m))
                    self.dest_step[d * 4 + k] = wf + wr * size
                per_distance.append(row)
            self.turn_to.append(per_distance)
        self._pad = [0] * (2 * size + 1)
        self.mask_bytes = (32 * n + 7) // 8
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

    def twirl_sets(self, mine: int, theirs: int) -> list[tuple[int, int, int]]:
        """Every legal twirl of the side owning ``mine``, grouped: (d*4 + r, pivot distance, origins).

        All stones are handled at once per direction u and step j: ``clear[u][j]``
        holds the stones whose j cells towards u are on the board and empty, and
        ``hits[d]`` the stones whose first stone towards d is an enemy at distance
        j. A twirl (d, r) from pivot distance j is legal for the origins in
        ``hits & clear[u][L]``, u and L being the direction and length origin ->
        destination (the destination must be empty, the cells before it too).
        """
        occupied = mine | theirs
        clear, hits = [], []
        for dl, on_board in zip(self.delta, self.on_board):
            alive, cl, hu = mine, [mine], []
            occ, their = occupied, theirs
            j = 0
            if dl > 0:
                for ok in on_board:
                    j += 1
                    alive &= ok
                    if not alive:
                        break
                    occ >>= dl
                    their >>= dl
                    hit = alive & occ
                    if hit:
                        enemy = hit & their
                        if enemy:
                            hu.append((j, enemy))
                        alive ^= hit
                    cl.append(alive)
            else:
                dl = -dl
                for ok in on_board:
                    j += 1
                    alive &= ok
                    if not alive:
                        break
                    occ <<= dl
                    their <<= dl
                    hit = alive & occ
                    if hit:
                        enemy = hit & their
                        if enemy:
                            hu.append((j, enemy))
                        alive ^= hit
                    cl.append(alive)
            cl += self._pad
            clear.append(cl)
            hits.append(hu)
        found = []
        for d in range(8):
            turn_to = self.turn_to[d]
            for j, enemy in hits[d]:
                for k, u, steps in turn_to[j]:
                    origins = enemy & clear[u][steps]
                    if origins:
                        found.append((k, j, origins))
        return found

    def moves(self, mine: int, theirs: int) -> list[tuple[int, int, int]]:
        """Every legal twirl of the side owning ``mine``: (action, origin, destination)."""
        found = []
        dest_step = self.dest_step
        for k, j, bits in self.twirl_sets(mine, theirs):
            step = j * dest_step[k]
            while bits:
                low = bits & -bits
                o = low.bit_length() - 1
                bits ^= low
                found.append((o * 32 + k, o, o + step))
        return found

    def twirls(self, mine: int, theirs: int) -> list[int]:
        """Every legal twirl action of the side owning ``mine`` (ascending order)."""
        return sorted(m[0] for m in self.moves(mine, theirs))

    def sets_to_mask(self, sets: list[tuple[int, int, int]], mask: np.ndarray) -> None:
        """Write the twirls of ``twirl_sets`` into ``mask[:size*size*32]`` (a bool array)."""
        n = self.cells
        big = 0
        for k, _, bits in sets:
            big |= bits << (k * n)
        raw = np.frombuffer(big.to_bytes(self.mask_bytes, "little"), dtype=np.uint8)
        mask[: 32 * n].reshape(n, 32)[...] = np.unpackbits(raw, count=32 * n, bitorder="little").reshape(32, n).T

    def destination(self, action: int, occupied: int) -> tuple[int, int] | None:
        """(pivot, destination) of a twirl action given the stones, or None if it has none.

        Only the geometry is checked (a stone seen, a destination on the board).
        """
        o, rest = divmod(action, 32)
        d, k = divmod(rest, 4)
        p = self.first_stone(o, d, occupied)
        if p < 0:
            return None
        dist = self.distance(o, p)
        ef, er = VECTORS[(d + 4 + TURNS[k]) % 8]
        tf, tr = self.file_of[p] + dist * ef, self.rank_of[p] + dist * er
        if not (0 <= tf < self.size and 0 <= tr < self.size):
            return None
        return p, tr * self.size + tf

    def dilate(self, bits: int) -> int:
        """``bits`` and all their 8-neighbours."""
        row = bits | (bits << 1 & self.not_file_a) | (bits >> 1 & self.not_file_last)
        return (row | row << self.size | row >> self.size) & self.full

    def groups(self, stones: int) -> int:
        """Number of 8-connected groups of ``stones``."""
        return len(self.group_list(stones))

    def group_list(self, stones: int) -> list[int]:
        """The 8-connected groups of ``stones``, as bitboards."""
        found = []
        while stones:
            group = stones & -stones
            while True:
                grown = self.dilate(group) & stones
                if grown == group:
                    break
                group = grown
            stones ^= group
            found.append(group)
        return found

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


@cache
def tables(size: int) -> Tables:
    """The (cached) geometry tables of a board size."""
    return Tables(size)


def python_twirl_mask(mine: int, theirs: int, size: int, out: np.ndarray) -> int:
    """Pure-Python ``twirl_mask``: :meth:`Tables.twirl_sets` written out by :meth:`Tables.sets_to_mask`."""
    t = tables(size)
    sets = t.twirl_sets(mine, theirs)
    t.sets_to_mask(sets, out)
    return sum(bits.bit_count() for _, _, bits in sets)


try:
    from envs.twirls._movegen import twirl_mask as compiled_twirl_mask
except ImportError:  # installed without a C compiler
    compiled_twirl_mask = None

#: The legal-twirl generator of the game, ``twirl_mask(mine, theirs, size, out) -> count``:
#: writes the legal twirls of the side owning ``mine`` into ``out[:size*size*32]`` (a bool
#: array, ``size*size*32`` or ``+ 1`` long) and returns their number. The compiled one
#: (envs/twirls/_movegen.c, built by ``pip install``) when it imports, else the Python one;
#: both give the same legal set (tests/test_twirls_movegen.py). Assigning
#: ``python_twirl_mask`` here forces the fallback.
twirl_mask = compiled_twirl_mask or python_twirl_mask


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
        self.setup = parse_setup(SETUPS[self.size], self.size)

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
        # end checks, in the RULINGS order
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

        Same answer as :meth:`Game.ending_moves` (tests/test_twirls_rules.py),
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
