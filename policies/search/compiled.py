"""Alpha-beta inside a batched engine: the play-time search of :class:`policies.search.alpha_beta.PolicySearch`.

One position is searched on the boards of a private batch: board 0 holds the
root, and the children of the node at stack level ``t`` are built on the
boards of level ``t`` (copied from their parent, then stepped with the
engine's own kernel). The search is the Python reference of
``tests/search/reference_alpha_beta.py``, move for move, with quiescence,
``leaf_wins`` and ``leaf_value`` ``"network"`` or ``"none"``, in either of its
orders: ``order_by="value"`` with every legal move searched (``width=0``,
``root_width=0``), or ``order_by="policy"`` with a width, the game-ending moves
beyond it (found by playing each on the last board, uncounted, as the rules'
``ending_moves``) and the moves it left out searched when every tried one
loses. The same moves in the same order, the same alpha-beta windows and
cut-offs, and the same work counted (each position built 1, each pass of the
value towers or of the policy ``NETWORK_PASS_WORK``), so that a capped search
gives up at the same point. Its values and move probabilities come from the
network's compiled forward (:mod:`policies.compiled_network`), which rounds
differently from numpy's; with weights whose sums are exact (a test's
network) the two searches agree exactly.

A pass of the towers or of the policy is kept in a pass cache
(``Space.cache_*``), keyed by a 64-bit hash of everything it reads: deepening
searches the shallower tree again, and those passes are read back, the same
floats, instead of computed.
The work arrays begin on cache lines (:func:`envs.core.jit.aligned`), as the
towers' weights do.

The recursion is an explicit stack, inlined into one kernel (:func:`alpha_beta`,
compiled once for each game's state types); the steps that call a game's
per-board functions (which LLVM inlines wherever they are called) are called,
not inlined (:data:`called`), so each is compiled once. The search proper is
compiled without numba's reference counting (``njit(_nrt=False)``, as a
per-board function), so nothing in it allocates an array: its work arrays
come in as ``space``. Nothing here knows a game: a game registers its
per-board ``legal_one``, ``step_one``, ``observe_one``, ``captures_one`` (its
capturing moves, biggest first, as its rules' ``capturing_moves``) and
``may_end_one``, and a kernel that makes their scratch and the arrays its
legal moves are listed in (:data:`Kernels`), by the class of its batch's
named state (:func:`register_game`; the games: :mod:`policies.search.compiled_games`).
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable
from dataclasses import astuple, dataclass
from typing import Any

import numpy as np
from numba import literal_unroll, typeof, types
from numba.extending import overload

from envs.core.batched import insert_sorted, mix64
from envs.core.jit import aligned, announced, cached, compile_aside, copy_into, njit
from policies.compiled_network import (
    after_first_layer,
    bias_of,
    first_layer,
    first_layer_from,
    policy_keys,
    weights_of,
)

HASH_SEED = 0x5EA5C4  # the pass cache's hash multipliers (any fixed seed: they only have to differ from input to input)
NETWORK_PASS_WORK = 4  # the work of one pass of the value towers, in positions built (as policies/search/alpha_beta.py)

# the frames of the explicit stack, by what their children are
ROOT, NODE, LEAVES, CAPTURES = 0, 1, 2, 3
# counters[...]
C_NODES, C_WORK, C_ABORTED, C_CACHED = range(4)
POLICY_PASS = np.uint64(0x9E3779B97F4A7C15)  # tags the pass cache's keys of the policy's passes

#: A game's functions, as the search calls them (:func:`register_game`): its per-board ``legal_one(i, out, s, c,
#: scratch)`` (the mask row, and the legal moves listed in ``Kernels.listed``), ``step_one``, ``observe_one``,
#: ``captures_one(i, out, s, c, scratch)`` (board ``i``'s capturing moves, biggest first, into ``out``; how many:
#: the rules' ``capturing_moves``) and ``may_end_one(i, a, s, c, scratch)`` (False only where the legal action
#: ``a`` cannot end the game: the search plays the others out to see); and ``kernels(s, c)``, a kernel that makes
#: the game's :data:`Kernels` for the batch ``s`` (its scratch, allocated once a search).
GameFunctions = namedtuple(
    "GameFunctions",
    ("legal_one", "step_one", "observe_one", "captures_one", "may_end_one", "kernels"),
    module=__name__,
)

#: A game's data in the search: the per-board functions' scratch tuples and the arrays its legal moves are listed in
#: (``listed[i, :nlisted[i]]``, each legal action of board ``i`` once).
Kernels = namedtuple(
    "Kernels",
    (
        "legal_scratch", "listed", "nlisted", "step_scratch", "observe_scratch", "captures_scratch",
        "may_end_scratch",
    ),
    module=__name__,
)  # fmt: skip

#: The games' functions by the class of their batch's named state (``s``, the engine's ``state``): how the search,
#: compiled once for all games, calls a game's functions. They are found when the search is compiled, so they are
#: compiled into it as direct calls: passed in as values (a tuple of functions), they would be addresses of this
#: process, and numba could not cache the search. With each, the most moves a position of the engine has.
_GAMES: dict[type, tuple[GameFunctions, Callable[[Any], int]]] = {}


def register_game(state: type, functions: GameFunctions, most_moves: Callable[[Any], int]) -> None:
    """Make ``functions`` those of the search on batches whose named state is ``state``; ``most_moves(engine)``:
    the most legal moves a position of one of its engines has (the width of the search's levels)."""
    _GAMES[state] = (functions, most_moves)


def most_moves(engine: Any) -> int | None:
    """The most legal moves a position of ``engine`` has, or None when its game has no functions registered."""
    found = _GAMES.get(engine.state)
    return None if found is None else found[1](engine)


def _registered(state: type) -> GameFunctions:
    """The functions registered for the named state class ``state``."""
    if state not in _GAMES:
        raise TypeError(f"no game registered for the search on the state {state.__name__}")
    return _GAMES[state][0]


def _game_legal(i, out, s, c, scratch):
    """Board ``i``'s legal moves into ``out[i]`` (and listed), by the game of ``s`` (compiled only)."""


def _game_step(i, a, rewards, s, c, scratch):
    """Board ``i`` with ``a`` played, its rewards into ``rewards[i]``, by the game of ``s`` (compiled only)."""


def _game_observe(i, seat, out, s, c, scratch):
    """``out[i]``: board ``i`` seen by ``seat``, by the game of ``s`` (compiled only)."""


def _game_captures(i, out, s, c, scratch):
    """Board ``i``'s capturing moves into ``out``, biggest first; how many (compiled only)."""


def _game_may_end(i, a, s, c, scratch):
    """False only when ``a`` cannot end board ``i``'s game (compiled only)."""


@overload(_game_legal)
def _legal_of(i, out, s, c, scratch):
    legal_one = _registered(s.instance_class).legal_one
    return lambda i, out, s, c, scratch: legal_one(i, out, s, c, scratch)


@overload(_game_step)
def _step_of(i, a, rewards, s, c, scratch):
    step_one = _registered(s.instance_class).step_one
    return lambda i, a, rewards, s, c, scratch: step_one(i, a, rewards, s, c, scratch)


@overload(_game_observe)
def _observe_of(i, seat, out, s, c, scratch):
    observe_one = _registered(s.instance_class).observe_one
    return lambda i, seat, out, s, c, scratch: observe_one(i, seat, out, s, c, scratch)


@overload(_game_captures)
def _captures_of(i, out, s, c, scratch):
    captures_one = _registered(s.instance_class).captures_one
    return lambda i, out, s, c, scratch: captures_one(i, out, s, c, scratch)


@overload(_game_may_end)
def _may_end_of(i, a, s, c, scratch):
    may_end_one = _registered(s.instance_class).may_end_one
    return lambda i, a, s, c, scratch: may_end_one(i, a, s, c, scratch)


#: The search's settings: plies, the work cap (-1: none), quiescence plies and width, the policy's ``width``
#: favourite moves (``root_width`` at the root) when it orders the moves (:func:`alpha_beta`'s ``policy``),
#: ``leaf_wins`` (a leaf whose mover can win at once scores the win) and ``use_value`` (False:
#: ``leaf_value="none"``, a leaf the search cannot settle scores 0 and no pass of the towers values it).
Settings = namedtuple(
    "Settings",
    ("depth", "cap", "quiescence", "quiescence_width", "width", "root_width", "leaf_wins", "use_value"),
    module=__name__,
)  # fmt: skip

#: The search's work arrays (see :func:`new_space`), level ``t`` the children of the node at stack level ``t``.
Space = namedtuple(
    "Space",
    (
        "obs",  # (boards, obs) float32: positions seen by their mover
        "mask",  # (boards, actions) bool: legal_one's rows
        "rewards",  # (boards, players) float32: the rewards of the step that built each board
        "actions",  # (levels, L) int32: each level's moves, in the order they were built
        "order",  # (levels, L) int32: the order they are searched in (indices into actions)
        "head",  # (levels, L) float64: the value of each built child for the node's seat (see frames)
        "rows",  # (L,) int64: boards handed to the towers
        "movers",  # (L,) int64: their movers
        "first",  # (members, L, widest) float32: their first layers
        "hidden",  # (1, L, widest) float32: the towers' later layers
        "parent_seen",  # (players,) bool: the parent of the boards handed over was seen by the seat ...
        "parent_obs",  # (players, obs) float32: ... so ...
        "parent_pre",  # (members, players, widest) float32: ... and its first layers are these
        "seat_rows",  # (1,) int64: one seat
        "tower_out",  # (L,) float32
        "obs_bits",  # obs and ...
        "parent_bits",  # ... parent_obs as uint32 (views): what the pass cache hashes
        "hash_weights",  # (obs,) uint64: odd multipliers, one for each input
        "parent_hash",  # (players,) uint64: parent_obs[seat]'s hash
        "cache_keys",  # (slots,) uint64: the pass kept in each slot (0: none) ...
        "cache_live",  # (slots,) int64: ... its rows ...
        "cache_at",  # (slots,) int64: ... and where its values begin in the pool, counted since the space was made
        "cache_pool",  # (P,) float32: kept passes' values, a ring (a slot whose values were overwritten is stale)
        "cache_end",  # (1,) int64: values written to the pool since the space was made
        "legal",  # (levels, L) int32: the legal moves of the node whose children are level t, ascending
        "chosen",  # (levels, actions) bool: scratch marks of the moves a node tries (all False between uses)
        "ranked",  # (L,) int64: legal moves (indices into legal[t]) by the policy, best first
        "enders",  # (L,) int32: the game-ending moves outside the policy's width
        "keys",  # (L,) float32: the policy's probabilities of the legal moves
        "pi_row",  # (1,) int64: the board handed to the policy tower
        "pi_hidden",  # (2, widest) float32: its layers
        "frame_extended",  # (levels,) bool: the moves left out by the width were added (every tried move lost)
        "frame_board",  # (levels,) int64: the frame's position
        "frame_kind",  # (levels,) int8
        "frame_depth",  # (levels,) int64: plies left (quiescence frames: quiescence plies left)
        "frame_max",  # (levels,) bool: the searching seat is to move
        "frame_alpha",  # (levels,) float64
        "frame_beta",  # (levels,) float64
        "frame_best",  # (levels,) float64
        "frame_n",  # (levels,) int64: children
        "frame_next",  # (levels,) int64: the next child to search
        "counters",  # (4,) int64: C_NODES, C_WORK, C_ABORTED, C_CACHED (values read from the pass cache)
    ),
    module=__name__,
)


def levels_needed(depth: int, quiescence: int) -> int:
    """Stack levels a search of ``depth`` plies with ``quiescence`` plies needs (each holds one node's children)."""
    return depth + quiescence + 1


def _zeros(shape: int | tuple[int, ...], dtype: type) -> np.ndarray:
    """Zeros whose data begins on a cache line (:func:`envs.core.jit.aligned`): the towers' loops read them."""
    return aligned(np.zeros(shape, dtype=dtype))


@dataclass(frozen=True)
class SpaceSizes:
    """The sizes of the search's work arrays (:func:`new_space`): ``levels`` stack levels of at most ``moves``
    children each, the game's observation, actions and players, value towers of ``members`` members and a policy
    tower at most ``widest`` wide, and a pass cache of ``cache_slots`` passes (a power of two; 0: none) and
    ``cache_values`` values."""

    levels: int
    moves: int
    obs_size: int
    num_actions: int
    players: int
    widest: int
    members: int
    cache_slots: int = 1 << 15
    cache_values: int = 1 << 18


def new_space(sizes: SpaceSizes) -> Space:
    """Work arrays of ``sizes`` (board 0: the root; the last board: the game-ending test's)."""
    levels, moves, obs_size, num_actions, players, widest, members, cache_slots, cache_values = astuple(sizes)
    if cache_slots & (cache_slots - 1) or (cache_slots and cache_values < moves):
        raise ValueError(
            f"cache_slots must be 0 or a power of two and cache_values at least {moves} (a pass's values), "
            f"got {cache_slots} and {cache_values}"
        )
    boards = 1 + levels * moves + 1
    obs = _zeros((boards, obs_size), dtype=np.float32)
    parent_obs = _zeros((players, obs_size), dtype=np.float32)
    return Space(
        obs=obs,
        mask=_zeros((boards, num_actions), dtype=np.bool_),
        rewards=_zeros((boards, players), dtype=np.float32),
        actions=_zeros((levels, moves), dtype=np.int32),
        order=_zeros((levels, moves), dtype=np.int32),
        head=_zeros((levels, moves), dtype=np.float64),
        rows=_zeros(moves, dtype=np.int64),
        movers=_zeros(moves, dtype=np.int64),
        first=_zeros((members, moves, widest), dtype=np.float32),
        hidden=_zeros((1, moves, widest), dtype=np.float32),
        parent_seen=_zeros(players, dtype=np.bool_),
        parent_obs=parent_obs,
        parent_pre=_zeros((members, players, widest), dtype=np.float32),
        seat_rows=_zeros(1, dtype=np.int64),
        tower_out=_zeros(moves, dtype=np.float32),
        obs_bits=obs.view(np.uint32),
        parent_bits=parent_obs.view(np.uint32),
        hash_weights=aligned(
            np.random.default_rng(HASH_SEED).integers(0, 2**63, obs_size, dtype=np.uint64) << np.uint64(1)
            | np.uint64(1)
        ),
        parent_hash=_zeros(players, dtype=np.uint64),
        cache_keys=_zeros(cache_slots, dtype=np.uint64),
        cache_live=_zeros(cache_slots, dtype=np.int64),
        cache_at=_zeros(cache_slots, dtype=np.int64),
        cache_pool=_zeros(cache_values if cache_slots else 1, dtype=np.float32),
        cache_end=_zeros(1, dtype=np.int64),
        legal=_zeros((levels, moves), dtype=np.int32),
        chosen=_zeros((levels, num_actions), dtype=np.bool_),
        ranked=_zeros(moves, dtype=np.int64),
        enders=_zeros(moves, dtype=np.int32),
        keys=_zeros(moves, dtype=np.float32),
        pi_row=_zeros(1, dtype=np.int64),
        pi_hidden=_zeros((2, widest), dtype=np.float32),
        frame_extended=_zeros(levels, dtype=np.bool_),
        frame_board=_zeros(levels, dtype=np.int64),
        frame_kind=_zeros(levels, dtype=np.int8),
        frame_depth=_zeros(levels, dtype=np.int64),
        frame_max=_zeros(levels, dtype=np.bool_),
        frame_alpha=_zeros(levels, dtype=np.float64),
        frame_beta=_zeros(levels, dtype=np.float64),
        frame_best=_zeros(levels, dtype=np.float64),
        frame_n=_zeros(levels, dtype=np.int64),
        frame_next=_zeros(levels, dtype=np.int64),
        counters=_zeros(4, dtype=np.int64),
    )


# -- the value towers ----------------------------------------------------------------------------------------
# -- the search (inlined into a game's kernel) ---------------------------------------------------------------
#: The search's steps that hold a call of the game's per-board functions (which LLVM inlines wherever they are
#: called) are called, not inlined into the loop: each is compiled once, with the game's functions in it, where
#: inlined they were compiled again at every call site (figures: ``results/2026-12-compile-times.md``). Compiled without
#: reference counting, as their caller. Cached, so that :func:`compile_search` can compile one in another process.
STEP_OPTIONS = {"_nrt": False, "no_cpython_wrapper": True, "no_cfunc_wrapper": True}
called = njit(cache=True, **STEP_OPTIONS)

#: What every step of the search reads: the game's :data:`Kernels`, the value towers and the policy tower
#: (:data:`~policies.compiled_network.Layers`; the policy None when the towers order the moves), the
#: :data:`Settings` and the work arrays (:data:`Space`). A game's kernel makes it and calls :func:`search`.
Search = namedtuple("Search", ("kernels", "towers", "policy", "settings", "space"), module=__name__)


@called  # its own compile: literal_unroll of an argument needs the argument's type, which inlining hides
def copy_board(s, src, dst):
    """Board ``dst`` of the state ``s`` becomes a copy of board ``src`` (every array, its stream included), by
    :func:`envs.core.jit.copy_into` over one-board slices, so a kernel without reference counting can call it."""
    for a in literal_unroll(s):
        copy_into(a[dst : dst + 1], a[src : src + 1])


@njit(cache=False, inline="always")
def _spend(ab, work):
    """Count ``work``; True once the cap is passed (the search at this depth is given up)."""
    counters, cap = ab.space.counters, ab.settings.cap
    counters[C_WORK] += work
    if cap >= 0 and counters[C_WORK] > cap:
        counters[C_ABORTED] = 1
        return True
    return False


@njit(cache=False, inline="always")
def _outcome(space, b, seat):
    """+1 / -1 / 0: the finished game on board ``b`` won, lost or drawn for ``seat`` (its last step's rewards)."""
    r = space.rewards[b, seat]
    return 1.0 if r > 0 else (-1.0 if r < 0 else 0.0)


@njit(cache=False, inline="always")
def _base(space, t):
    """The first board of level ``t``."""
    return 1 + t * space.actions.shape[1]


@called
def _play(ab, parent, child, action, s, c):
    """Board ``child`` becomes board ``parent`` with ``action`` played (its step's rewards in ``rewards[child]``).
    The one place the search steps a board: the game's step is compiled into it once."""
    k, space = ab.kernels, ab.space
    copy_board(s, parent, child)
    space.rewards[child, :] = 0.0
    _game_step(child, action, space.rewards, s, c, k.step_scratch)


@njit(cache=False, inline="always")
def _build_level(ab, t, parent, n, s, c):
    """Boards ``base(t) + j``: board ``parent`` with ``actions[t, j]`` played, for j < ``n`` (1 work each); False
    once the work cap is passed."""
    base = _base(ab.space, t)
    for j in range(n):
        if _spend(ab, 1):
            return False
        _play(ab, np.int64(parent), np.int64(base + j), np.int64(ab.space.actions[t, j]), s, c)
    return True


@njit(cache=False)
def _bits_hash(bits, weights):
    """A 64-bit hash of a row of float32 inputs (their bits): the sum of each input times its odd multiplier."""
    h = np.uint64(0)
    for i in range(len(bits)):
        h += weights[i] * np.uint64(bits[i])
    return h


@njit(cache=False)  # called, not inlined: one compile for every call site
def _pass_key(space, live):
    """The pass cache's key of the ``live`` rows handed to the towers: a hash of everything the pass reads (each
    row's observation and mover, and the parent's observation by each mover: its first layers are the reference
    the rows' are computed from), never 0."""
    key = mix64(np.uint64(live))
    for r in range(live):
        row = _bits_hash(space.obs_bits[space.rows[r]], space.hash_weights)
        key = mix64(key ^ row ^ np.uint64(space.movers[r] + 1))
    for seat in range(len(space.parent_seen)):
        if space.parent_seen[seat]:
            key = mix64(key ^ space.parent_hash[seat] ^ (np.uint64(seat + 1) << np.uint64(32)))
    return key | np.uint64(1)


@njit(cache=False)  # called, not inlined: one compile for every call site
def _policy_pass_key(space, board, legal, n):
    """The pass cache's key of the policy's pass over board ``board`` (its observation row) for the legal moves
    ``legal[:n]``: all that :func:`policy_keys` reads, never 0 (tagged apart from the towers' passes)."""
    key = mix64(POLICY_PASS ^ np.uint64(n))
    key = mix64(key ^ _bits_hash(space.obs_bits[board], space.hash_weights))
    for j in range(n):
        key = mix64(key ^ np.uint64(legal[j]))
    return key | np.uint64(1)


@njit(cache=False)  # called, not inlined: one compile for every call site
def _cached_pass(space, key, live):
    """The pass cache's slot holding the pass ``key`` of ``live`` values with them still in the pool, or -1."""
    slots = len(space.cache_keys)
    if slots == 0:
        return -1
    slot = np.int64(key & np.uint64(slots - 1))
    fresh = space.cache_at[slot] >= space.cache_end[0] - len(space.cache_pool)
    if space.cache_keys[slot] == key and space.cache_live[slot] == live and fresh:
        return slot
    return -1


@njit(cache=False)  # called, not inlined: one compile for every call site
def _read_pass(space, slot, live, out):
    """``out[:live]``: the values kept in ``slot``; counted in ``counters[C_CACHED]``."""
    pool, at = space.cache_pool, space.cache_at[slot]
    for r in range(live):
        out[r] = pool[(at + r) % len(pool)]
    space.counters[C_CACHED] += live


@njit(cache=False)  # called, not inlined: one compile for every call site
def _keep_pass(space, key, live, values):
    """Keep ``values[:live]`` as the values of the pass ``key`` (in its slot, over what was there)."""
    slots, pool = len(space.cache_keys), space.cache_pool
    if slots == 0:
        return
    slot = np.int64(key & np.uint64(slots - 1))
    at = space.cache_end[0]
    for r in range(live):
        pool[(at + r) % len(pool)] = values[r]
    space.cache_keys[slot], space.cache_live[slot], space.cache_at[slot] = key, live, at
    space.cache_end[0] = at + live


@called
def _heads(ab, level, parent, base, n, seat, s, c):
    """``head[level, :n]``: the value of boards ``base .. base+n-1`` for ``seat`` (the towers' value for their
    mover, clipped to [-1, 1], negated where ``seat`` is not to move; 0 for finished games), in one pass.
    The boards are one move from board ``parent``: their first layers are computed from its
    (:func:`first_layer_from`), which is computed once for each seat that moves on them. A pass made before
    (the same rows from the same parent: deepening searches the shallower tree again) is read from the pass
    cache instead: the same floats, as the towers would compute them again the same way."""
    k, space, towers = ab.kernels, ab.space, ab.towers
    live = 0
    space.parent_seen[:] = False
    for j in range(n):
        b = base + j
        space.head[level, j] = 0.0
        if not s.over[b]:
            mover = s.to_move[b]
            if not space.parent_seen[mover]:  # the parent seen by this seat
                space.parent_seen[mover] = True
                _game_observe(parent, mover, space.obs, s, c, k.observe_scratch)
                copy_into(space.parent_obs[mover], space.obs[parent])
                space.parent_hash[mover] = _bits_hash(space.parent_bits[mover], space.hash_weights)
            _game_observe(b, mover, space.obs, s, c, k.observe_scratch)
            space.rows[live] = b
            space.movers[live] = mover
            live += 1
    if live == 0:
        return
    live = np.int64(live)  # one signature for the pass cache's helpers (not one for a constant 0 too)
    key = _pass_key(space, live)
    slot = _cached_pass(space, key, live)
    if slot >= 0:
        _read_pass(space, slot, live, space.tower_out)
    else:
        for mover in range(len(space.parent_seen)):  # the parent's first layers by each seat seen
            if space.parent_seen[mover]:
                space.seat_rows[0] = mover
                for m in range(towers.members):
                    first_layer(
                        space.parent_obs, space.seat_rows, 1, weights_of(towers, m), bias_of(towers, m),
                        space.parent_pre[m, mover:],
                    )  # fmt: skip
        for m in range(towers.members):
            first_layer_from(
                space.obs, space.rows, live, space.movers, space.parent_obs, space.parent_pre[m],
                weights_of(towers, m), space.first[m],
            )  # fmt: skip
        after_first_layer(live, towers, space.hidden, space.first, space.tower_out)
        _keep_pass(space, key, live, space.tower_out)
    r = 0
    for j in range(n):
        b = base + j
        if not s.over[b]:
            v = min(max(np.float64(space.tower_out[r]), -1.0), 1.0)
            space.head[level, j] = v if s.to_move[b] == seat else -v
            r += 1


@njit(cache=False, inline="always")
def _score(ab, t, parent, base, n, seat, s, c):
    """One pass of the towers over the ``n`` boards from ``base`` (one move from board ``parent``) into
    ``head[t]`` for ``seat`` (``NETWORK_PASS_WORK``, if any is unfinished); ``order[t]`` the build order.
    False once the work cap is passed."""
    live = False
    for j in range(n):
        live = live or not s.over[base + j]
    if live and _spend(ab, NETWORK_PASS_WORK):
        return False
    _heads(ab, np.int64(t), np.int64(parent), np.int64(base), np.int64(n), np.int64(seat), s, c)
    for j in range(n):
        ab.space.order[t, j] = j
    return True


@njit(cache=False, inline="always")
def _best_first(space, t, base, n, seat, s):
    """``order[t]``: level ``t``'s ``n`` children best first for ``seat``, finished games beyond any value (+2 won,
    0 drawn, -2 lost), ties in build order (``PolicySearch._move_values``)."""
    order, head = space.order[t], space.head[t]
    for j in range(n):
        if s.over[base + j]:
            head[j] = 2.0 * _outcome(space, base + j, seat)
    for j in range(1, n):  # a stable insertion sort
        q = j
        while q > 0 and head[order[q - 1]] < head[j]:
            order[q] = order[q - 1]
            q -= 1
        order[q] = j


@called
def _expand(ab, t, parent, seat, by_value, s, c):
    """Every legal move of board ``parent`` built on level ``t`` in action order (the rules' mask order) and
    scored for ``seat`` (:func:`_score`; ``by_value``: ordered best first, :func:`_best_first`). Returns the
    children's number, -1 once the work cap is passed."""
    space = ab.space
    n = _legal_sorted(ab, np.int64(t), np.int64(parent), s, c)
    moves = space.actions[t]
    for j in range(n):
        moves[j] = space.legal[t, j]
    base = _base(space, t)
    if not _build_level(ab, t, parent, n, s, c) or not _score(ab, t, parent, base, n, seat, s, c):
        return -1
    if by_value:
        _best_first(space, t, base, n, seat, s)
    return n


@called
def _legal_sorted(ab, t, board, s, c):
    """``legal[t]``: board ``board``'s legal moves, ascending (the rules' mask order); returns how many."""
    k, space = ab.kernels, ab.space
    _game_legal(board, space.mask, s, c, k.legal_scratch)
    n = k.nlisted[board]
    for j in range(n):
        insert_sorted(space.legal[t], j, k.listed[board, j])
    return n


@njit(cache=False, inline="always")
def _ends(ab, board, action, s, c):
    """Whether ``action`` ends the game on board ``board``: played on the last board unless the game's
    ``may_end_one`` rules it out (no work counted, as the rules' ``ending_moves``)."""
    if not _game_may_end(board, action, s, c, ab.kernels.may_end_scratch):
        return False
    probe = ab.space.obs.shape[0] - 1
    _play(ab, np.int64(board), np.int64(probe), np.int64(action), s, c)
    return s.over[probe]


@called
def _candidates(ab, t, board, width, enders_first, ordered, s, c):
    """``actions[t, :n]``: the moves ``PolicySearch.candidates`` tries on board ``board``, in the order tried
    (``order[t]`` the identity): the policy's ``width`` favourite legal moves (a stable sort of its
    probabilities; one pass, ``NETWORK_PASS_WORK``) and, when that leaves moves out, every one of those that ends
    the game, before them (``enders_first``, each put first in turn) or after them. Unordered (``ordered``
    False) and no wider than ``width``: the legal moves ascending, no pass. Returns n, -1 once the work cap is
    passed."""
    k, space = ab.kernels, ab.space
    n = _legal_sorted(ab, np.int64(t), np.int64(board), s, c)
    legal, moves, order = space.legal[t], space.actions[t], space.order[t]
    for j in range(n):
        order[j] = j
    if not ordered and n <= width:
        for j in range(n):
            moves[j] = legal[j]
        return n
    if _spend(ab, NETWORK_PASS_WORK):
        return -1
    _game_observe(board, s.to_move[board], space.obs, s, c, k.observe_scratch)
    keys, ranked = space.keys, space.ranked
    n = np.int64(n)  # one signature for the pass cache's helpers (the list's count is int16)
    key = _policy_pass_key(space, board, legal, n)
    slot = _cached_pass(space, key, n)
    if slot >= 0:  # the policy's pass made before (the pass cache, as the towers' in _heads)
        _read_pass(space, slot, n, keys)
    else:
        space.pi_row[0] = board
        policy_keys(space.obs, space.pi_row, legal, n, ab.policy, space.pi_hidden, keys)
        _keep_pass(space, key, n, keys)
    for j in range(n):  # best first, ties in action order (a stable insertion sort)
        q = j
        while q > 0 and keys[ranked[q - 1]] < keys[j]:
            ranked[q] = ranked[q - 1]
            q -= 1
        ranked[q] = j
    chosen = min(width, n)
    ending = 0
    if n > width:
        for j in range(chosen):
            space.chosen[t, legal[ranked[j]]] = True
        for j in range(n):
            if not space.chosen[t, legal[j]] and _ends(ab, board, legal[j], s, c):
                space.enders[ending] = legal[j]
                ending += 1
        for j in range(chosen):
            space.chosen[t, legal[ranked[j]]] = False
    first = ending if enders_first else 0
    for j in range(chosen):
        moves[first + j] = legal[ranked[j]]
    for e in range(ending):
        moves[ending - 1 - e if enders_first else chosen + e] = space.enders[e]
    return chosen + ending


@njit(cache=False, inline="always")
def _rest(ab, t, n, s, c):
    """``actions[t, :m]``: the legal moves of the node whose children are level ``t`` that its first ``n``
    (``actions[t, :n]``) left out, ascending (``order[t]`` the identity); returns m."""
    space = ab.space
    legal, moves = space.legal[t], space.actions[t]
    for j in range(n):
        space.chosen[t, moves[j]] = True
    m = 0
    for j in range(ab.kernels.nlisted[space.frame_board[t]]):
        if not space.chosen[t, legal[j]]:
            space.order[t, m] = m
            moves[m] = legal[j]
            m += 1
        else:
            space.chosen[t, legal[j]] = False
    return m


# -- the move order, chosen by the type of the search's ``policy`` when the search is compiled -------------------
# A hard orders its moves by its policy or by its value towers, never both, so the search compiles only the steps
# of its own order (figures: ``results/2026-12-compile-times.md``).
def _root_moves(policy, ab, s, c):
    """The root's moves on level 0 (how many; -1 once the work cap is passed): the policy's ``root_width``
    favourites and the game-ending moves after them, or every legal move, built and ordered by the towers."""


@overload(_root_moves, jit_options=STEP_OPTIONS)
def _root_moves_of(policy, ab, s, c):
    if isinstance(policy, types.NoneType):
        return lambda policy, ab, s, c: _expand(
            ab, np.int64(0), np.int64(0), np.int64(s.to_move[0]), np.bool_(True), s, c
        )
    return lambda policy, ab, s, c: _candidates(
        ab, np.int64(0), np.int64(0), np.int64(ab.settings.root_width), np.bool_(False), np.bool_(True), s, c
    )


def _node_moves(policy, ab, t, child, scored, s, c):
    """Board ``child``'s moves on level ``t`` (how many; -1 once the work cap is passed), built and scored for the
    searching seat when ``scored`` (one ply above the leaves). By the policy: its ``width`` favourites with the
    game-ending moves first (unordered when scored), built as they are searched unless scored. By the towers:
    every legal move, in build order when scored, else best first for their mover."""


@overload(_node_moves, jit_options=STEP_OPTIONS)
def _node_moves_of(policy, ab, t, child, scored, s, c):
    if isinstance(policy, types.NoneType):

        def by_value(policy, ab, t, child, scored, s, c):
            seat = s.to_move[0] if scored else s.to_move[child]
            return _expand(ab, np.int64(t), np.int64(child), np.int64(seat), not scored, s, c)

        return by_value

    def by_policy(policy, ab, t, child, scored, s, c):
        width = np.int64(ab.settings.width)
        n = _candidates(ab, np.int64(t), np.int64(child), width, np.bool_(True), not scored, s, c)
        if n >= 0 and scored:
            me = s.to_move[0]
            if not (_build_level(ab, t, child, n, s, c) and _score(ab, t, child, _base(ab.space, t), n, me, s, c)):
                return -1
        return n

    return by_policy


@njit(cache=False, inline="always")
def _push(space, t, board, kind, depth, maximise, bounds, n):
    """Frame ``t``: board ``board``'s ``n`` children (on level ``t``) to search; ``bounds`` (alpha, beta, best)."""
    space.frame_board[t] = board
    space.frame_kind[t] = kind
    space.frame_depth[t] = depth
    space.frame_max[t] = maximise
    space.frame_alpha[t], space.frame_beta[t], space.frame_best[t] = bounds
    space.frame_n[t] = n
    space.frame_next[t] = 0
    space.frame_extended[t] = False


@called
def _quiesce(ab, t, b, stand, plies, window, s, c):
    """``PolicySearch._quiesce`` from board ``b`` (static value ``stand``, ``plies`` left, ``window`` (alpha,
    beta)): (1, value) when nothing is to be searched; (0, _) with a CAPTURES frame pushed on level ``t``;
    (-1, _) once the work cap is passed."""
    space, me = ab.space, s.to_move[0]
    if plies == 0:
        return 1, stand
    n = _game_captures(b, space.actions[t], s, c, ab.kernels.captures_scratch)
    n = min(n, ab.settings.quiescence_width)
    if n == 0:
        return 1, stand
    alpha, beta = window
    maximise = s.to_move[b] == me
    if maximise:
        alpha = max(alpha, stand)
    else:
        beta = min(beta, stand)
    if alpha >= beta:
        return 1, stand
    if not _build_level(ab, t, b, n, s, c) or not _score_if_valued(ab, t, b, n, me, s, c):
        return -1, 0.0
    _push(space, t, b, CAPTURES, plies, maximise, (alpha, beta, stand), n)
    return 0, 0.0


@njit(cache=False, inline="always")
def _score_if_valued(ab, t, parent, n, seat, s, c):
    """:func:`_score` of level ``t``'s ``n`` children, or with ``leaf_value="none"`` (``use_value`` False) 0 for
    each and no pass. False once the work cap is passed."""
    if ab.settings.use_value:
        return _score(ab, t, parent, _base(ab.space, t), n, seat, s, c)
    for j in range(n):
        ab.space.head[t, j] = 0.0
        ab.space.order[t, j] = j
    return True


@called
def _can_win_now(ab, t, b, s, c):
    """``PolicySearch._can_win_now``: 1 when board ``b``'s mover has a move that wins at once, else 0; -1 once the
    work cap is passed. Its legal moves go into ``legal[t]``; each game-ending one (the rules' ``ending_moves``,
    in action order) is built (1 work) until one wins."""
    space = ab.space
    n = _legal_sorted(ab, np.int64(t), np.int64(b), s, c)
    probe, mover = space.obs.shape[0] - 1, s.to_move[b]
    for j in range(n):
        if _ends(ab, b, space.legal[t, j], s, c):
            if _spend(ab, 1):
                return -1
            if _outcome(space, probe, mover) > 0:
                return 1
    return 0


@njit(cache=False, inline="always")
def _leaf(ab, t, parent, b, stand, window, s, c):
    """``PolicySearch._leaf_value`` of the unfinished board ``b`` (one move from ``parent``), its towers' value
    ``stand`` if already scored (else NaN: scored here, or 0 with ``leaf_value="none"``): +-1 when its mover can
    win at once (``leaf_wins``), else the quiescence search's value; as :func:`_quiesce` returns it."""
    space, me = ab.space, s.to_move[0]
    if ab.settings.leaf_wins:
        wins = _can_win_now(ab, np.int64(t), np.int64(b), s, c)
        if wins < 0:
            return -1, 0.0
        if wins:
            return 1, 1.0 if s.to_move[b] == me else -1.0
    if np.isnan(stand):
        if not ab.settings.use_value:
            stand = 0.0
        elif not _score(ab, t, parent, b, 1, me, s, c):
            return -1, 0.0
        else:
            stand = space.head[t, 0]
    return _quiesce(ab, np.int64(t), np.int64(b), stand, np.int64(ab.settings.quiescence), window, s, c)


@njit(cache=False, inline="always")
def _take(space, f, v):
    """Frame ``f``'s child was worth ``v``: its best and window move; True when that cuts the frame off."""
    if space.frame_kind[f] == ROOT:  # only a strictly better value replaces the best (ties: the earlier move)
        space.frame_best[f] = max(space.frame_best[f], v)
        space.frame_alpha[f] = max(space.frame_alpha[f], v - 1e-9)  # keeps equal values exact, for the tie-break
        return False
    if space.frame_max[f]:
        space.frame_best[f] = max(space.frame_best[f], v)
        space.frame_alpha[f] = max(space.frame_alpha[f], v)
    else:
        space.frame_best[f] = min(space.frame_best[f], v)
        space.frame_beta[f] = min(space.frame_beta[f], v)
    return space.frame_alpha[f] >= space.frame_beta[f]


@njit(cache=False, inline="always")
def _enter(ab, f, s, c):
    """Search frame ``f``'s next child: (1, value) when it is worth ``value`` at once (a finished game, a leaf
    with nothing to quiesce); (0, _) with its frame pushed on level ``f + 1``; (-1, _) once the work cap is
    passed."""
    space, me, by_policy = ab.space, s.to_move[0], ab.policy is not None
    j = space.order[f, space.frame_next[f]]
    space.frame_next[f] += 1
    child = _base(space, f) + j
    kind = space.frame_kind[f]
    if by_policy and kind in (ROOT, NODE):  # built as it is searched (PolicySearch._child)
        if _spend(ab, 1):
            return -1, 0.0
        _play(ab, np.int64(space.frame_board[f]), np.int64(child), np.int64(space.actions[f, j]), s, c)
    window = (space.frame_alpha[f], space.frame_beta[f])
    t = f + 1
    space.counters[C_NODES] += 1  # PolicySearch counts every position it values or expands
    if s.over[child]:
        return 1, _outcome(space, child, me)
    if kind == CAPTURES:  # scored with its siblings
        plies = space.frame_depth[f] - 1
        return _quiesce(ab, np.int64(t), np.int64(child), space.head[f, j], np.int64(plies), window, s, c)
    d = space.frame_depth[f] - 1
    if kind == LEAVES or d == 0:  # a leaf: scored with its siblings, or at the depth limit by itself (NaN)
        stand = space.head[f, j] if kind == LEAVES else np.nan
        return _leaf(ab, np.int64(t), np.int64(space.frame_board[f]), np.int64(child), stand, window, s, c)
    maximise = s.to_move[child] == me
    # one ply above the leaves the towers score every child in one pass (PolicySearch.value), so the node's
    # children are scored leaves (LEAVES); with leaf_value="none" they are searched as the other nodes' (NODE)
    scored = d == 1 and ab.settings.use_value
    n = _node_moves(ab.policy, ab, np.int64(t), np.int64(child), scored, s, c)
    if n < 0:
        return -1, 0.0
    bounds = (window[0], window[1], -np.inf if maximise else np.inf)
    _push(space, t, child, LEAVES if scored else NODE, d, maximise, bounds, n)
    return 0, 0.0


@njit(cache=False, inline="always")
def _extend(ab, f, s, c):
    """When every move frame ``f`` tried lost for its mover, its moves left out by the width become its
    children (``PolicySearch.value``: a loss is proven only once every legal move is refuted; below the root,
    with ``by_policy``, once). Returns their number (0: none, or nothing to extend), -1 once the work cap is
    passed."""
    space = ab.space
    kind = space.frame_kind[f]
    if ab.policy is None or kind not in (NODE, LEAVES) or space.frame_extended[f]:
        return 0
    space.frame_extended[f] = True
    if space.frame_best[f] != (-1.0 if space.frame_max[f] else 1.0):
        return 0
    board = space.frame_board[f]
    n = _rest(ab, f, space.frame_n[f], s, c)
    if n and kind == LEAVES:
        me = s.to_move[0]
        if not (_build_level(ab, f, board, n, s, c) and _score(ab, f, board, _base(space, f), n, me, s, c)):
            return -1
    space.frame_n[f] = n
    space.frame_next[f] = 0
    return n


@njit(cache=False, inline="always")
def search(ab, s, c):
    """(action, value for the player to move) of board 0, searched ``ab.settings.depth`` plies deep
    (``PolicySearch._search_root``); ``space.counters`` holds the nodes and work. (-1, 0.0) with
    ``counters[C_ABORTED]`` set once the work passes ``settings.cap`` (when >= 0)."""
    space = ab.space
    space.counters[:] = 0
    n = _root_moves(ab.policy, ab, s, c)
    if n < 0:
        return -1, 0.0
    _push(space, 0, 0, ROOT, ab.settings.depth, True, (-np.inf, np.inf, -np.inf), n)
    best_action, top = -1, 0
    while True:
        if space.frame_next[top] == space.frame_n[top]:  # every child searched: the frame is worth its best
            more = _extend(ab, top, s, c)
            if more < 0:
                return -1, 0.0
            if more > 0:
                continue
            v = space.frame_best[top]
            if top == 0:
                return best_action, v
            top -= 1
        else:
            entered, v = _enter(ab, top, s, c)
            if entered < 0:
                return -1, 0.0
            if entered == 0:  # the child's own frame, one level down
                top += 1
                continue
        while True:  # v is the value of a child of frame top; a cut finishes that frame too
            if space.frame_kind[top] == ROOT and v > space.frame_best[top]:
                best_action = space.actions[0, space.order[0, space.frame_next[0] - 1]]
            if not _take(space, top, v) or top == 0:
                break
            v = space.frame_best[top]
            top -= 1


# -- the entry ------------------------------------------------------------------------------------------------
EXPECTED_SECONDS = 60  # the search's compile on 2 cores, rounded up (``swgym bench --cold --part hard``)


def compile_search(arguments: tuple, what: str) -> None:
    """Compile :func:`alpha_beta` for ``arguments`` (its arguments) unless it is cached, saying so (``what``).

    numba compiles on one core: the move order's step (:func:`_candidates` or :func:`_expand`, the largest)
    compiles in a second process while this one compiles the quiescence search and the win check; then the
    search itself, which loads them from the cache (figures: ``results/2026-12-compile-times.md``)."""
    signature = tuple(typeof(a) for a in arguments)
    if cached(alpha_beta, signature):
        return
    kernels, towers, policy, settings, space, s, c = arguments
    ab, state, consts = typeof(Search(kernels, towers, policy, settings, space)), signature[-2], signature[-1]
    i64, yes_no = types.int64, types.boolean
    if policy is None:
        order = (_expand, (ab, i64, i64, i64, yes_no, state, consts))
    else:
        order = (_candidates, (ab, i64, i64, i64, yes_no, yes_no, state, consts))
    window = types.UniTuple(types.float64, 2)
    with announced(what, EXPECTED_SECONDS):
        aside = compile_aside([order], imports=("policies.search.compiled_games",))
        _quiesce.compile((ab, i64, i64, types.float64, i64, window, state, consts))
        _can_win_now.compile((ab, i64, i64, state, consts))
        if aside is not None:
            aside.wait()
        alpha_beta.compile(signature)


def game_kernels(s, c):
    """The :data:`Kernels` (fresh scratch) of the game whose batch state is ``s`` (constants ``c``), made by the
    function it registered (:func:`register_game`); what :func:`alpha_beta` takes as ``kernels``."""
    return _registered(type(s)).kernels(s, c)


@njit(cache=True, _nrt=False)
def alpha_beta(kernels, towers, policy, settings, space, s, c):
    """(action, value) of board 0 of the batch ``s`` (constants ``c``) by :func:`search`, over the functions its
    game registered (:func:`register_game`), with their scratch ``kernels`` (:func:`game_kernels`). Compiled
    without numba's reference counting, as the per-board functions (:func:`envs.core.jit.per_board`): with it,
    numba counts references to every array of the search's tuples at each of its inlined helpers, on every node.
    One compiled layer: its scratch is made by the caller, so no kernel with reference counting wraps it (each
    layer of numba's compile optimises and generates the machine code of all it calls again)."""
    return search(Search(kernels, towers, policy, settings, space), s, c)
