"""What every game's batched engine shares: N boards stepped in one compiled call.

A game's ``batched.py`` describes its engine with an :class:`Engine` (sizes,
per-board state arrays, four numba kernels, conversions to and from the rules'
state) and this module does the rest, once for all games, as pgx's
``core.Env.step`` does: the seat to move, finished boards, rewards by seat,
autoreset, legality checks with clear errors, and one random stream per board.

State is a struct of arrays with the board as the first axis, handed to
every kernel as one named tuple ``s`` (the game's :func:`board_state` type).
Three arrays belong to the core and come first::

    s.to_move (N,) int8     seat to move
    s.over    (N,) bool     the game on this board is finished
    s.rng     (N,) uint64   the board's random stream (:func:`next_u64`)

followed by the game's own arrays, in the order of ``Engine.arrays``. The
variant's constants travel as a second named tuple ``c`` (``Engine.consts``,
the game's :func:`variant_consts` type: read-only arrays shared by every
board, a rule-parameter vector, move tables; so that one compiled kernel
serves every variant of a game; ``()`` for a game without any). Adding an
array touches only the code that uses it; a board copy copies ``s`` only.

The loops over boards are written once, here (:func:`each_reset`,
:func:`each_legal`, :func:`each_step`, :func:`each_observe`): a game writes
what happens on one board, ``step_one(i, action, rewards, s, c, scratch)`` and
its siblings, compiled with :func:`envs.core.jit.per_board` (without numba's
reference counting, which would count every array of ``s`` on each call; so
a per-board function allocates nothing: its work arrays come in ``scratch``),
and four two-line kernels that map them, e.g.
``step(actions, rewards, s, c): each_step(_step_one, actions, rewards, s, c, ())``.
The kernels an engine hands the core (``@njit``):

* ``reset(where, s, c)``: a new game on every board with ``where[i]`` (chance
  drawn with :func:`randint` from the board's stream);
* ``legal(out, s, c)``: ``out`` (N, A) bool, all False on a finished board (for
  A > 128, a view of rows padded to whole 8-byte words: not contiguous unless
  A is a multiple of 8);
* ``step(actions, rewards, s, c)``: play ``actions[i]`` on every board with
  ``actions[i] >= 0`` (the core passes -1 for boards that do not move and only
  legal actions otherwise) and write that move's reward of every seat into
  ``rewards[i]`` (zeroed by the core before the call);
* ``observe(seats, out, s, c)``: ``out`` (N, obs) float32, board ``i`` seen by
  ``seats[i]``, exactly the encoding of the game's AEC env.

numba is imported on first use of a batched engine (``envs.make_batched`` /
``envs.make_vec``), so ``import envs`` stays fast. Kernels are compiled with
:func:`envs.core.jit.njit` and cached on disk, one cache for every clone of the
same source (:func:`envs.core.jit.cache_root`; ``NUMBA_CACHE_DIR`` moves it). A
cached kernel is stale as soon as any file of the package changes, so a
helper here (e.g. :func:`randint`) can be edited without clearing caches.
"""

from __future__ import annotations

import sys
from collections import namedtuple
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import typeof, types
from numba.extending import overload

from envs.core.checks import as_int, as_seed
from envs.core.jit import Aside, compile_aside, njit

CORE_ARRAYS = ("to_move", "over", "rng")


def board_state(module: str, arrays: tuple[str, ...]) -> type:
    """The named tuple a game's kernels get as ``s``: the core's arrays, then the game's per-board ``arrays``.

    Bind it at the top of the game's module (``Boards = board_state(__name__, ...)``) so that numba's cache
    finds the same type in every process.
    """
    return namedtuple("Boards", (*CORE_ARRAYS, *arrays), module=module)


def variant_consts(module: str, names: tuple[str, ...]) -> type:
    """The named tuple a game's kernels get as ``c``: the variant's constant arrays, by ``names``.

    Bind it at the top of the game's module (``Consts = variant_consts(__name__, ...)``), as :func:`board_state`.
    """
    return namedtuple("Consts", names, module=module)


#: numba's options for a function that only compiled code calls: without its Python and C entry points. numba
#: otherwise compiles, with each function, a wrapper that unboxes every argument from Python objects (for a
#: per-board function, every array of the state tuple ``s``): a second or more of a first compile, for code
#: that nothing runs.
CALLED_ONLY = {"no_cpython_wrapper": True, "no_cfunc_wrapper": True}


def called(function):
    """:func:`envs.core.jit.njit` for a helper that only compiled code calls (:data:`CALLED_ONLY`)."""
    return njit(**CALLED_ONLY)(function)


def called_per_board(function):
    """:func:`envs.core.jit.per_board` for a per-board function that only compiled code calls (:data:`CALLED_ONLY`)."""
    return njit(_nrt=False, forceinline=True, **CALLED_ONLY)(function)


# -- one random stream per board (splitmix64, counter-based: no global state) --------
@njit(cache=True, inline="always")
def next_u64(rng: np.ndarray, i: int) -> np.uint64:
    """The next 64 random bits of board ``i``'s stream (splitmix64), advancing it."""
    z = rng[i] + np.uint64(0x9E3779B97F4A7C15)
    rng[i] = z
    return mix64(z)


@njit(cache=True, inline="always")
def mix64(z: np.uint64) -> np.uint64:
    """splitmix64's finaliser: 64 bits each of which depends on every bit of ``z`` (a stream's output, a hash)."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def randint(rng: np.ndarray, i: int, n: int) -> int:
    """A uniform int in [0, n) from board ``i``'s stream, 0 < n < 2**32 (multiply-shift: bias < n / 2**32)."""
    return np.int64(((next_u64(rng, i) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, inline="always")
def insert_sorted(keys, count, key):
    """Put ``key`` into the increasing ``keys[:count]`` (after equal keys), making ``count + 1`` of them."""
    q = count
    while q > 0 and keys[q - 1] > key:
        keys[q] = keys[q - 1]
        q -= 1
    keys[q] = key


@njit(cache=True, inline="always")
def won_by(i: int, seat: int, over: np.ndarray, winner: np.ndarray, rewards: np.ndarray) -> None:
    """Board ``i``'s two-player game ends, won by ``seat``: +1 to it, -1 to the other (``winner[i]`` records it)."""
    over[i] = True
    winner[i] = seat
    rewards[i, seat] = 1.0
    rewards[i, 1 - seat] = -1.0


_BYTES = np.uint64(0x0101010101010101)
_LOW16 = np.uint64(0x00FF00FF00FF00FF)
_SHORTS = np.uint64(0x0001000100010001)
GROUP = 16  # words per group in the pick's first pass (128 actions)
_LITTLE_ENDIAN = sys.byteorder == "little"  # action j*8 + b is byte b of word j


@njit(cache=True, inline="always")
def _bytes_sum(acc: np.uint64) -> np.int64:
    """The sum of the 8 bytes of ``acc`` (each at most 255)."""
    pairs = (acc & _LOW16) + ((acc >> np.uint64(8)) & _LOW16)
    return np.int64((pairs * _SHORTS) >> np.uint64(48))


@njit(cache=True, inline="always")
def _quick_draw(mask: np.ndarray, rng: np.ndarray, i: int, width: int) -> int:
    """Up to 4 uniform draws over board ``i``'s whole row: the first legal one, or -1 (the exact pick follows)."""
    for _ in range(4):
        a = randint(rng, i, width)
        if mask[i, a]:
            return a
    return -1


@njit(cache=True)
def random_legal_actions(mask: np.ndarray, rng: np.ndarray, active: np.ndarray, out: np.ndarray) -> None:
    """``out[i]``: a uniform legal action of board ``i`` where ``active[i]``, else -1 (also when none is legal).

    A few draws over the whole row first (cheap where many are legal), then an exact count-and-pick;
    uniform either way. ``mask`` (N, A) bool; a C-contiguous mask whose rows are a multiple of 8 bytes
    (:class:`BatchedGame` pads its own) is counted as little-endian uint64 words: the count sums each
    group of 16 words byte-wise, the pick walks the groups, then the words, then the bytes of one word.
    """
    if mask.shape[1] % 8 or not mask.flags.c_contiguous or not _LITTLE_ENDIAN:
        _random_legal_bytes(mask, rng, active, out)
    else:
        _random_legal_words(mask, mask.view(np.uint64), rng, active, out)


@njit(cache=True)
def _random_legal_words(mask: np.ndarray, words: np.ndarray, rng: np.ndarray, active: np.ndarray, out: np.ndarray):
    """:func:`random_legal_actions` on a C-contiguous mask whose rows are whole little-endian uint64 ``words``
    (``mask.view(np.uint64)``)."""
    n, width = mask.shape
    num_words = words.shape[1]
    groups = np.zeros((num_words + GROUP - 1) // GROUP, dtype=np.int64)
    for i in range(n):
        out[i] = -1
        if not active[i]:
            continue
        out[i] = _quick_draw(mask, rng, i, width)
        if out[i] >= 0:
            continue
        row = words[i]
        count = 0
        for g in range(groups.shape[0]):
            acc = np.uint64(0)
            for j in range(g * GROUP, min(num_words, (g + 1) * GROUP)):
                acc += row[j]
            groups[g] = _bytes_sum(acc)
            count += groups[g]
        if count == 0:
            continue
        k = randint(rng, i, count)
        g = 0
        while k >= groups[g]:
            k -= groups[g]
            g += 1
        j = g * GROUP
        while True:
            c = np.int64((row[j] * _BYTES) >> np.uint64(56))
            if k < c:
                break
            k -= c
            j += 1
        w = row[j]
        b = 0
        while True:
            if (w >> np.uint64(8 * b)) & np.uint64(1):
                if k == 0:
                    break
                k -= 1
            b += 1
        out[i] = j * 8 + b


@njit(cache=True)
def _random_legal_bytes(mask: np.ndarray, rng: np.ndarray, active: np.ndarray, out: np.ndarray) -> None:
    """:func:`random_legal_actions` on any (N, A) bool mask, a byte at a time."""
    n, num_actions = mask.shape
    for i in range(n):
        out[i] = -1
        if not active[i]:
            continue
        out[i] = _quick_draw(mask, rng, i, num_actions)
        if out[i] >= 0:
            continue
        count = 0
        for a in range(num_actions):
            count += mask[i, a]
        if count == 0:
            continue
        k = randint(rng, i, count)
        for a in range(num_actions):
            if mask[i, a]:
                if k == 0:
                    out[i] = a
                    break
                k -= 1


@njit(cache=True)
def random_listed_actions(
    moves: np.ndarray, num_moves: np.ndarray, rng: np.ndarray, active: np.ndarray, out: np.ndarray
) -> None:
    """``out[i]``: a uniform pick of ``moves[i, :num_moves[i]]`` where ``active[i]``, else -1 (also when empty).

    For games whose ``legal`` kernel lists each board's legal actions (:attr:`Engine.legal_list`): one draw
    and one read per board, where the mask pick reads the whole row.
    """
    for i in range(num_moves.shape[0]):
        out[i] = -1
        if active[i] and num_moves[i] > 0:
            out[i] = moves[i, randint(rng, i, num_moves[i])]


def random_picks(moves, num_moves, words, mask, rng, active, out) -> None:
    """``out[i]``: a uniform legal action of board ``i`` where ``active[i]``, else -1, by whichever way the
    arguments name: from the legal list (``moves``, ``num_moves``: :func:`random_listed_actions`), else from the
    mask ``mask`` read as uint64 ``words`` (its rows padded to whole words, ``mask.view(np.uint64)``), else
    from the mask byte by byte; ``None`` for what is not given. Every way draws the same action from the same
    stream.

    For compiled code: numba chooses the way from the arguments' types when it compiles the caller
    (:func:`_random_picks_way`), so that only the way a batch uses is compiled."""
    raise TypeError("random_picks is called from compiled code (random_others_loop)")


@overload(random_picks)
def _random_picks_way(moves, num_moves, words, mask, rng, active, out):
    """:func:`random_picks`' one way, by which arguments are None."""
    if not isinstance(moves, types.NoneType):
        return lambda moves, num_moves, words, mask, rng, active, out: random_listed_actions(
            moves, num_moves, rng, active, out
        )
    if not isinstance(words, types.NoneType):
        return lambda moves, num_moves, words, mask, rng, active, out: _random_legal_words(
            mask, words, rng, active, out
        )
    return lambda moves, num_moves, words, mask, rng, active, out: _random_legal_bytes(mask, rng, active, out)


@njit(cache=False, inline="always")  # numba cannot cache kernels passed as arguments: inlined, they are globals
def random_others_loop(legal, step, seats, alive, received, scratch, state, consts) -> None:
    """Uniform legal moves for every seat but ``seats[i]`` on each board, all in one compiled loop, until on
    every board ``seats[i]`` is to move or out (its game over, or ``alive[i, seats[i]]`` False); what that seat
    receives meanwhile is added to ``received[i]``.

    ``legal`` and ``step`` are the engine's kernels, ``state`` and ``consts`` the batch's (:attr:`BatchedGame.state`,
    :attr:`BatchedGame.consts`);
    ``scratch`` is (mask rows, mask, moves, num_moves, words, picks, rewards) as :class:`BatchedGame` keeps
    them (``moves``, ``num_moves`` and ``words`` as :func:`random_picks` takes them). Each round lists the moves
    of the boards still waiting only (the others are marked finished for that ``legal`` call), so a few boards
    with many moves to play cost little; on return the mask holds every board's legal moves of the current
    position. A game's engine hands it its kernels in
    a kernel of its own, ``Engine.random_others(seats, alive, received, scratch, s, c)``, e.g.::

        @njit
        def random_others(seats, alive, received, scratch, s, c):
            random_others_loop(legal, step, seats, alive, received, scratch, s, c)
    """
    mask_rows, mask, moves, num_moves, words, picks, rewards = scratch
    to_move, over, rng = state.to_move, state.over, state.rng
    n = seats.shape[0]
    waiting, over_now = np.empty(n, dtype=np.bool_), np.empty(n, dtype=np.bool_)
    while True:
        anyone = False
        for i in range(n):
            waiting[i] = not over[i] and alive[i, seats[i]] and to_move[i] != seats[i]
            anyone |= waiting[i]
        for i in range(n):  # the waiting boards' moves only: the others pass as finished for one legal call
            over_now[i] = over[i]
            over[i] = over[i] if not anyone else not waiting[i]
        legal(mask, state, consts)  # one call: LLVM inlines the kernel at each call site
        for i in range(n):  # a loop, not over[:] = over_now: numba's shape check of that compiles for seconds
            over[i] = over_now[i]
        if not anyone:  # every board's legal moves are listed: nobody else is to move
            return
        random_picks(moves, num_moves, words, mask_rows, rng, waiting, picks)
        rewards[:] = 0.0
        step(picks, rewards, state, consts)
        for i in range(n):
            received[i] += rewards[i, seats[i]]


# -- the loops over boards, written once: a game's kernels map its per-board functions (envs.core.jit.per_board)
# with these, e.g. ``@njit def step(actions, rewards, s, c): each_step(_step_one, actions, rewards, s, c, ())``.
# ``scratch``: a tuple of work arrays the game's kernel makes once per call (per-board functions allocate nothing).
@njit(cache=False, inline="always")  # inlined into the game's kernel, where the per-board function is a global
def each_reset(reset_one, where, s, c, scratch) -> None:
    """``reset_one(i, s, c, scratch)`` on every board with ``where[i]``."""
    for i in range(where.shape[0]):
        if where[i]:
            reset_one(i, s, c, scratch)


@njit(cache=False, inline="always")
def each_legal(legal_one, out, s, c, scratch) -> None:
    """``legal_one(i, out, s, c, scratch)`` on every board: it writes row ``i`` of ``out`` (all False once over)."""
    for i in range(out.shape[0]):
        legal_one(i, out, s, c, scratch)


@njit(cache=False, inline="always")
def each_step(step_one, actions, rewards, s, c, scratch) -> None:
    """``step_one(i, actions[i], rewards, s, c, scratch)`` on every board that moves (``actions[i] >= 0``)."""
    for i in range(actions.shape[0]):
        if actions[i] >= 0:
            step_one(i, actions[i], rewards, s, c, scratch)


@njit(cache=False, inline="always")
def each_observe(observe_one, seats, out, s, c, scratch) -> None:
    """``observe_one(i, seats[i], out, s, c, scratch)`` on every board: row ``i`` of ``out``, seen by that seat."""
    for i in range(out.shape[0]):
        observe_one(i, seats[i], out, s, c, scratch)


NO_MOVE = -1  # the action of a board that does not move this step (BatchedGame.step)


@njit(cache=True)
def checked_actions(actions: np.ndarray, over: np.ndarray, mask: np.ndarray, out: np.ndarray) -> int:
    """``out``: ``actions`` with -1 where a board does not move (action -1, or its game is over).

    Returns the first board whose action is out of range (below -1 included) or not legal, or -1.
    """
    num_actions = mask.shape[1]
    for i in range(actions.shape[0]):
        a = actions[i]
        if a < -1:
            return i
        if a == -1 or over[i]:
            out[i] = -1
        elif a >= num_actions or not mask[i, a]:
            return i
        else:
            out[i] = a
    return -1


@njit(cache=True)
def draw_seats(rng: np.ndarray, where: np.ndarray, num_players: int, seats: np.ndarray) -> None:
    """``seats[i]``: a uniform seat where ``where[i]`` (from board ``i``'s stream)."""
    for i in range(rng.shape[0]):
        if where[i]:
            seats[i] = randint(rng, i, num_players)


def seed_streams(seed: int | None, num_envs: int) -> np.ndarray:
    """Board streams' start states from ``seed`` (numpy's SeedSequence: independent, reproducible)."""
    return np.random.SeedSequence(seed).generate_state(num_envs, dtype=np.uint64)


def board_streams(seed: Any, num_envs: int, where: str) -> np.ndarray:
    """The start states of ``num_envs`` board streams from a ``seed`` a caller handed in, checked first.

    None (fresh entropy) or an int >= 0 seeds the batch (:func:`seed_streams`); a sequence or array of
    ``num_envs`` ints >= 0 seeds board ``i`` by ``seed[i]`` alone (the stream a one-board batch seeded by
    ``seed[i]`` gets). Anything else is a ``TypeError`` or ``ValueError`` naming it, as a single env names a
    bad seed.
    """
    if seed is None or isinstance(seed, (int, np.integer, bool)):
        return seed_streams(as_seed(seed, where), num_envs)
    if isinstance(seed, (str, bytes, dict, set)) or not hasattr(seed, "__len__"):
        raise TypeError(
            f"{where}: seed must be None, an integer >= 0 or a sequence of {num_envs} of them (one per board), "
            f"got {seed!r} of type {type(seed).__name__}"
        )
    seeds = list(seed.tolist() if isinstance(seed, np.ndarray) else seed)
    if len(seeds) != num_envs:
        raise ValueError(f"{where}: a sequence of seeds needs one per board ({num_envs}), got {len(seeds)}")
    checked = [as_seed(s, f"{where} (board {i})") for i, s in enumerate(seeds)]
    if any(s is None for s in checked):
        raise TypeError(f"{where}: a sequence of seeds must hold integers >= 0, got None for some board")
    return np.array([seed_streams(s, 1)[0] for s in checked], dtype=np.uint64)


# -- a game's description ----------------------------------------------------------
@dataclass(frozen=True)
class Engine:
    """One game (one rule variant) as a batched engine; built by the game's ``batched.engine(**params)``.

    ``arrays`` maps each per-board state array to its (shape of one board, dtype); ``state`` is the game's
    :func:`board_state` type with those names; ``consts`` the variant's constants (a :func:`variant_consts`
    tuple, or ``()``), handed to every kernel as ``c``.
    ``to_rules(batch, i)`` / ``from_rules(batch, i, state)`` convert board ``i``
    to and from the rules' state object (tests, bots and search cross there).
    ``has_chance``: the game draws from the boards' streams (in reset or step).
    The differential test (``tests/conformance/test_every_variant.py``) starts each AEC game from
    the batch's start position (``to_rules``), so chance drawn at reset agrees;
    chance drawn during a step must reach the rules' state the same way (e.g.
    the deck's order drawn at reset and kept in the state), so that both
    engines deal the same cards.

    ``legal_list``: for games with many actions and few legal ones, the names of
    two of the game's arrays, ``moves`` ((L,) int16) and ``num_moves`` (() int),
    that ``legal`` fills as well: each legal action once, in a fixed order. The
    random pick then draws from the list instead of reading the mask row.

    ``bots``: built-in bots the engine plays itself, by name (e.g. ``"medium"``):
    ``bot(batch, boards) -> actions``, the bot's move on each board of ``boards``
    (unfinished boards, the bot's seat to move), any chance drawn from the
    boards' streams. The vector env plays these opponents through them instead
    of asking the Python bot board by board.

    ``random_others``: the game's kernels in the core's random-opponent loop (:func:`random_others_loop`);
    :meth:`BatchedGame.play_random_others` runs it.

    ``seats_in_game``: for games that players leave before the end (Swimming's
    sunk players), the name of a (num_players,) bool array of the game's, True
    while the seat still plays; :meth:`BatchedGame.in_game` reads it.
    """

    name: str
    num_players: int
    num_actions: int
    obs_size: int
    arrays: dict[str, tuple[tuple[int, ...], Any]]
    reset: Callable
    legal: Callable
    step: Callable
    observe: Callable
    to_rules: Callable[[BatchedGame, int], Any]
    from_rules: Callable[[BatchedGame, int, Any], None]
    state: type  # the kernels' named state (board_state): CORE_ARRAYS, then arrays, by name
    game: Any = None  # the rules' Game object of this variant (for bots and conversions)
    has_chance: bool = False
    params: dict[str, Any] = field(default_factory=dict)
    consts: tuple = ()  # the variant's constants (a variant_consts tuple), every kernel's last argument
    legal_list: tuple[str, str] | None = None  # (moves, num_moves): see below
    bots: dict[str, Callable[[BatchedGame, np.ndarray], np.ndarray]] = field(default_factory=dict)  # by name: see above
    seats_in_game: str | None = None  # a (num_players,) bool array: the seat still plays (see in_game)
    random_others: Callable | None = None  # the game's kernel around random_others_loop (see there)


class BatchedGame:
    """N boards of one game, every seat's actions given by the caller (for self-play research).

    >>> import envs, numpy as np
    >>> batch = envs.make_batched("swival", 1024, seed=0)
    >>> mask = batch.legal_mask()                         # (N, 73) bool
    >>> obs = batch.observe(batch.to_move)                # (N, 78): each board seen by its mover
    >>> rewards, done = batch.step(batch.random_actions())  # rewards (N, 2) by seat; done (N,)
    >>> batch.reset_done()                                # new games on finished boards

    ``step`` takes one action per board for the seat to move (-1: that board
    does not move); an action that is not legal (any other negative one too)
    raises ``ValueError`` naming the boards and actions. Finished boards stay
    finished (zero rewards, empty masks) until :meth:`reset_done` or
    ``step(..., autoreset=True)``. What ``step`` and ``legal_mask`` return is
    the caller's to keep: the next step does not overwrite it.
    """

    def __init__(self, engine: Engine, num_envs: int, seed: int | None = None, random_others: bool = False) -> None:
        if (plain := as_int(num_envs)) is None or plain < 1:
            raise ValueError(f"{engine.name}: num_envs must be a positive int, got {num_envs!r}")
        self.engine = engine
        self.num_envs = n = int(num_envs)
        self.num_players = engine.num_players
        self.num_actions = engine.num_actions
        self.obs_size = engine.obs_size
        self._to_move = np.zeros(n, dtype=np.int8)  # the live arrays; to_move / over hand out copies
        self._over = np.ones(n, dtype=bool)
        self.rng = np.zeros(n, dtype=np.uint64)
        self.arrays = {name: np.zeros((n, *shape), dtype=dtype) for name, (shape, dtype) in engine.arrays.items()}
        fields = (*CORE_ARRAYS, *self.arrays)
        if engine.state._fields != fields:
            raise ValueError(f"{engine.name}: the state type's fields {engine.state._fields} are not {fields}")
        # long rows padded to whole uint64 words, so the random pick counts them 8 bytes at a time (legal_mask() is
        # then a view); short rows stay as they are: the pick's quick draws over the true width mostly hit
        padded = engine.num_actions > 8 * GROUP
        self._mask_rows = np.zeros((n, -(-engine.num_actions // 8) * 8 if padded else engine.num_actions), dtype=bool)
        self._mask = self._mask_rows[:, : engine.num_actions]
        if engine.seats_in_game is not None and engine.seats_in_game not in self.arrays:
            raise ValueError(f"{engine.name}: seats_in_game names {engine.seats_in_game!r}, not one of its arrays")
        if engine.legal_list is not None and not set(engine.legal_list) <= set(self.arrays):
            raise ValueError(
                f"{engine.name}: legal_list names {engine.legal_list}, not all among the engine's "
                f"arrays {list(self.arrays)}"
            )
        self._listed = None if engine.legal_list is None else tuple(self.arrays[k] for k in engine.legal_list)
        self._mask_fresh = False
        #: the kernels' named state ``s``: the live arrays (to_move / over hand out copies)
        self.state = engine.state(self._to_move, self._over, self.rng, *self.arrays.values())
        #: the variant's constants ``c``, every kernel's last argument
        self.consts = engine.consts
        self._all = np.ones(n, dtype=bool)
        self._everyone = np.ones((n, engine.num_players), dtype=bool)  # every seat plays (see in_game)
        self._scratch = None  # play_random_others' buffers, made on first use
        self._kernels: dict[str, Callable] = {}  # reset, legal, step compiled for this batch's types
        self._aside = self._compile_random_others_aside() if random_others else None
        self.reset(seed)
        if self._aside is not None:  # the first step's other kernel compiles here meanwhile
            self.observe(np.zeros(n, dtype=np.int8))

    # -- state ------------------------------------------------------------------
    @property
    def to_move(self) -> np.ndarray:
        """(N,) int8: each board's seat to move (a read-only copy: yours to keep, not to write)."""
        return _read_only(self._to_move)

    @property
    def over(self) -> np.ndarray:
        """(N,) bool: the game on the board is finished (a read-only copy: yours to keep, not to write)."""
        return _read_only(self._over)

    def set_turn(self, i: int, to_move: int, over: bool) -> None:
        """Board ``i``'s seat to move and whether its game is over (for an engine's ``from_rules``)."""
        self._to_move[i], self._over[i] = to_move, over
        self._mask_fresh = False

    def reset(self, seed: Any = None, where: np.ndarray | None = None) -> None:
        """A new game on every board (or on the boards where ``where``), each from its re-seeded stream.

        ``seed``: None (fresh entropy), an int >= 0 for the batch, or one int per board (board ``i`` from
        ``seed[i]``); see :func:`board_streams`. A bad seed is named before any board changes.
        """
        streams = board_streams(seed, self.num_envs, self.engine.name)
        where = self._all if where is None else where
        self.rng[where] = streams[where]
        self.reset_where(where)

    def reset_where(self, where: np.ndarray) -> None:
        """A new game on the boards where ``where`` (bool (N,)), each from its own stream."""
        where = np.ascontiguousarray(where, dtype=bool)
        self._compiled("reset", self.engine.reset, where)(where, self.state, self.consts)
        self._mask_fresh = False

    def reset_done(self) -> np.ndarray:
        """A new game on every finished board; returns which boards were reset."""
        done = self._over.copy()
        if done.any():
            self.reset_where(done)
        return done

    # -- reading --------------------------------------------------------------------
    def legal_mask(self, boards: np.ndarray | None = None) -> np.ndarray:
        """(N, A) bool: the legal actions of each board's seat to move (all False once over); a new array.

        ``boards``: only those boards' rows, (len(boards), A).
        """
        mask = self._legal()
        return mask.copy() if boards is None else mask[boards]

    def ensure_legal(self) -> None:
        """Compute the legal moves of the current position if not yet done (the legal list included)."""
        self._legal()

    def _legal(self) -> np.ndarray:
        """The engine's own mask buffer, computed once per position (never handed out)."""
        if not self._mask_fresh:
            self._compiled("legal", self.engine.legal, self._mask)(self._mask, self.state, self.consts)
            self._mask_fresh = True
        return self._mask

    def in_game(self, seats: np.ndarray | int) -> np.ndarray:
        """(N,) bool: board ``i``'s game goes on and seat ``seats[i]`` still plays in it (not left, e.g. sunk)."""
        seats = self._seats(seats)
        playing = ~self._over
        if self.engine.seats_in_game is not None:
            playing &= self.arrays[self.engine.seats_in_game][np.arange(self.num_envs), seats]
        return playing

    def observe(self, seats: np.ndarray | int, out: np.ndarray | None = None) -> np.ndarray:
        """(N, obs) float32: board ``i`` from ``seats[i]``'s side (an int: the same seat on every board)."""
        seats = self._seats(seats)
        if out is None:
            out = np.empty((self.num_envs, self.obs_size), dtype=np.float32)
        if seats.dtype == np.int8 and seats.flags.c_contiguous and out.dtype == np.float32 and out.flags.c_contiguous:
            self._compiled("observe", self.engine.observe, seats, out)(seats, out, self.state, self.consts)
        else:  # another layout: numba's dispatcher picks (or compiles) the kernel for it
            self.engine.observe(seats, out, self.state, self.consts)
        return out

    def random_actions(self, active: np.ndarray | None = None) -> np.ndarray:
        """A uniform legal action per board (from the board's stream); -1 on finished or inactive boards."""
        out = np.empty(self.num_envs, dtype=np.int64)
        self._legal()
        active = self._all if active is None else active
        if self._listed is not None:
            random_listed_actions(*self._listed, self.rng, active, out)
            return out
        random_legal_actions(self._mask_rows, self.rng, active, out)
        return out

    # -- moving -----------------------------------------------------------------------
    def play_random_others(self, seats: np.ndarray | int) -> np.ndarray:
        """Uniform legal moves (from the boards' streams) for every seat but ``seats[i]`` on board ``i``, until
        on every board ``seats[i]`` is to move or out of the game; one compiled loop for the whole batch.

        Returns (N,) float32: what seat ``seats[i]`` received meanwhile (the vector env's random opponents).
        """
        if self.engine.random_others is None:
            raise ValueError(f"{self.engine.name}: this engine has no random_others kernel (Engine.random_others)")
        seats = self._seats(seats).astype(np.int8, copy=False)
        received = np.zeros(self.num_envs, dtype=np.float32)
        if self._aside is not None:  # compiled (or failed) by now: loaded from the cache below, or compiled here
            self._aside.wait()
            self._aside = None
        self.engine.random_others(*self._random_others_arguments(seats, received))
        self._mask_fresh = True
        return received

    def _random_others_arguments(self, seats: np.ndarray, received: np.ndarray) -> tuple:
        """The random-opponent kernel's arguments: ``seats`` (int8), ``received`` (float32) and this batch's."""
        alive = self._everyone if self.engine.seats_in_game is None else self.arrays[self.engine.seats_in_game]
        if self._scratch is None:  # the pick's way as random_actions takes it, by the types of what is None
            moves, num_moves = self._listed if self._listed is not None else (None, None)
            rows = self._mask_rows
            whole = moves is None and rows.shape[1] % 8 == 0 and rows.flags.c_contiguous and _LITTLE_ENDIAN
            words = rows.view(np.uint64) if whole else None
            rewards = np.zeros((self.num_envs, self.num_players), dtype=np.float32)
            picks = np.empty(self.num_envs, dtype=np.int64)
            self._scratch = (rows, self._mask, moves, num_moves, words, picks, rewards)
        return seats, alive, received, self._scratch, self.state, self.consts

    def _compile_random_others_aside(self) -> Aside | None:
        """The random-opponent kernel (the largest of a first step) compiling in a second process while this
        one compiles the others (:func:`envs.core.jit.compile_aside`); None if cached or the engine has none."""
        if self.engine.random_others is None or not hasattr(self.engine.random_others, "compile"):
            return None
        seats, received = np.zeros(self.num_envs, dtype=np.int8), np.zeros(self.num_envs, dtype=np.float32)
        signature = tuple(typeof(a) for a in self._random_others_arguments(seats, received))
        return compile_aside([(self.engine.random_others, signature)])

    def step(
        self, actions: np.ndarray, autoreset: bool = False, checked: bool = False
    ) -> tuple[np.ndarray, np.ndarray]:
        """Play one action per board for its seat to move; -1 (or a finished board): no move.

        Returns (rewards (N, num_players) float32 of this move by seat, done (N,)
        bool: the game on the board is over). With ``autoreset`` finished boards
        get a new game after the rewards are read (``done`` still says which).
        ``checked``: ``actions`` are int64, each -1 or legal, as the caller has made sure (the vector env
        checks its learner's against the masks it handed out); they are not checked again.
        """
        actions = np.ascontiguousarray(actions, dtype=np.int64) if checked else self._check_actions(actions)
        rewards = np.zeros((self.num_envs, self.num_players), dtype=np.float32)
        self._compiled("step", self.engine.step, actions, rewards)(actions, rewards, self.state, self.consts)
        self._mask_fresh = False
        done = self._over.copy()
        if autoreset:
            self.reset_where(done)
        return rewards, done

    def _compiled(self, name: str, kernel: Callable, *args: np.ndarray) -> Callable:
        """``kernel``'s compiled code for ``args`` and this batch's state, found once per batch: a call then
        skips numba's typing of the state's many arrays (about a microsecond a call). The arrays handed to it
        keep their types: this batch's own buffers, or arrays the caller made of one dtype and layout."""
        found = self._kernels.get(name)
        if found is None:
            if not hasattr(kernel, "compile"):  # a plain Python kernel (tests' toy engines)
                found = kernel
            else:
                found = kernel.compile(tuple(typeof(a) for a in (*args, self.state, self.consts)))
            self._kernels[name] = found
        return found

    # -- one board as the rules' state ---------------------------------------------------
    def board_state(self, i: int) -> Any:
        """Board ``i`` as the rules' state object (a fresh copy)."""
        return self.engine.to_rules(self, self._board(i))

    def set_board(self, i: int, state: Any) -> None:
        """Put the rules' ``state`` on board ``i`` (its stream is kept)."""
        self.engine.from_rules(self, self._board(i), state)
        self._mask_fresh = False

    def position(self, i: int, seat: int | None = None) -> str:
        """Board ``i``'s position in the game's notation: whole, or as ``seat`` knows it (hidden parts ``?``)."""
        return self.engine.game.to_text(self.board_state(i), seat)

    def set_position(self, i: int, text: str, rng: np.random.Generator | None = None) -> None:
        """Put the position ``text`` on board ``i`` (a seat's view is completed from ``rng``); nothing stale
        stays (the masks are made again). Its stream is kept."""
        self.set_board(i, self.engine.game.from_text(text, rng))

    def sample_worlds(self, i: int, seat: int, boards: np.ndarray, rng: np.random.Generator) -> None:
        """Fill ``boards`` with full positions consistent with all ``seat`` knows on board ``i`` (hidden parts
        drawn from ``rng``, each board's future chance drawn afresh): many worlds at once for a search."""
        game, state, boards = self.engine.game, self.board_state(i), np.asarray(boards).ravel()
        for b in boards:
            self.set_board(int(b), game.fresh_chance(game.determinize(state, seat, rng), rng))
        self.rng[boards] = rng.integers(1, 2**63, size=boards.size, dtype=np.uint64)

    def copy_boards(self, source: BatchedGame, from_boards: np.ndarray, to_boards: np.ndarray) -> None:
        """Board ``from_boards[k]`` of ``source`` (a batch of the same engine, any size; this one too) becomes
        board ``to_boards[k]`` here: every per-board array, the board's random stream included."""
        if source.engine is not self.engine:
            raise ValueError(f"{self.engine.name}: boards copy between batches of one engine only")
        from_boards, to_boards = np.asarray(from_boards), np.asarray(to_boards)
        if from_boards.shape != to_boards.shape:
            raise ValueError(f"{self.engine.name}: {from_boards.size} boards to copy onto {to_boards.size}")
        self._to_move[to_boards] = source._to_move[from_boards]
        self._over[to_boards] = source._over[from_boards]
        self.rng[to_boards] = source.rng[from_boards]
        for name, array in self.arrays.items():
            array[to_boards] = source.arrays[name][from_boards]
        self._mask_fresh = False

    # -- checks ------------------------------------------------------------------------
    def _board(self, i: int) -> int:
        if not isinstance(i, (int, np.integer)) or not 0 <= i < self.num_envs:
            raise IndexError(f"{self.engine.name}: board index must be an int in [0, {self.num_envs}), got {i!r}")
        return int(i)

    def _seats(self, seats: np.ndarray | int) -> np.ndarray:
        if isinstance(seats, (int, np.integer)):
            seats = np.full(self.num_envs, seats, dtype=np.int8)
        seats = np.asarray(seats)
        if (
            seats.dtype == np.int8
            and seats.shape == (self.num_envs,)
            and (seats.view(np.uint8) < self.num_players).all()
        ):
            return seats  # the common case in one pass (a negative int8 reads as >= 128)
        if seats.shape != (self.num_envs,) or seats.dtype.kind not in "iu":
            raise ValueError(
                f"{self.engine.name}: seats must be an int or ints of shape ({self.num_envs},), "
                f"got {seats.dtype} {seats.shape}"
            )
        if seats.size and (seats.min() < 0 or seats.max() >= self.num_players):
            raise ValueError(
                f"{self.engine.name}: seats must be in [0, {self.num_players}), "
                f"got {sorted(set(seats.tolist()) - set(range(self.num_players)))}"
            )
        return seats

    def illegal_boards(self, actions: np.ndarray) -> np.ndarray:
        """The boards whose action :meth:`step` would refuse: below -1, or (on an unfinished board) out of range
        or not legal. ``actions``: (N,) ints."""
        actions = np.asarray(actions, dtype=np.int64)
        mask = self._legal()
        inside = (actions >= 0) & (actions < self.num_actions)
        legal = np.zeros(self.num_envs, dtype=bool)
        legal[inside] = mask[np.flatnonzero(inside), actions[inside]]
        return np.flatnonzero((actions < -1) | ((actions >= 0) & ~self._over & ~legal))

    def _check_actions(self, actions: np.ndarray) -> np.ndarray:
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or actions.dtype.kind not in "iu":
            raise ValueError(
                f"{self.engine.name}: actions must be ints of shape ({self.num_envs},), "
                f"got {actions.dtype} {actions.shape}"
            )
        out = np.empty(self.num_envs, dtype=np.int64)
        if checked_actions(actions.astype(np.int64, copy=False), self._over, self._legal(), out) >= 0:
            raise ValueError(
                f"{self.engine.name}: illegal action(s) for the seat to move "
                f"({describe_actions(self.illegal_boards(actions), actions)}); -1 means no move; "
                f"legal ones: legal_mask()"
            )
        return out


def _read_only(array: np.ndarray) -> np.ndarray:
    out = array.copy()
    out.flags.writeable = False
    return out


def describe_actions(boards: np.ndarray, actions: np.ndarray, most: int = 8) -> str:
    """``board 3: 80, board 9: -5, ...``: the first ``most`` of ``boards`` with their actions, for error messages."""
    shown = ", ".join(f"board {int(b)}: {int(actions[b])}" for b in boards[:most])
    return shown + (", ..." if len(boards) > most else "")


__all__ = [
    "CALLED_ONLY",
    "NO_MOVE",
    "BatchedGame",
    "Engine",
    "board_state",
    "called",
    "checked_actions",
    "board_streams",
    "called_per_board",
    "describe_actions",
    "draw_seats",
    "each_legal",
    "each_observe",
    "each_reset",
    "each_step",
    "insert_sorted",
    "mix64",
    "next_u64",
    "randint",
    "random_legal_actions",
    "random_listed_actions",
    "random_picks",
    "seed_streams",
    "variant_consts",
    "won_by",
]
