"""Twirls of Action's board: cells, directions and the bitboard geometry of one board size.

Each colour's stones are one Python int: bit ``cell = rank*size + file``
(file a = 0, rank 1 = 0). Directions 0..7 are N, NE, E, SE, S, SW, W, NW,
clockwise, north towards higher ranks. The geometry is precomputed once per
board size in :class:`Tables`; the legal twirls are generated for all stones
at once, a few big-int bit operations per direction and step
(:meth:`Tables.twirl_sets`). The rules (:mod:`envs.twirls.rules`), the bots
and the compiled move generator (:mod:`envs.twirls.movegen`) all read it.
"""

from __future__ import annotations

from functools import cache

import numpy as np

VECTORS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))  # (dfile, drank)
TURNS = (-2, -1, 1, 2)  # r = 0..3: P->O turned by -90, -45, +45, +90 degrees (+ = clockwise)
FILES = "abcdefghi"


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
