"""Swimming's batched engine: N games of 2-6 players as numba kernels (see :mod:`envs.core.batched`).

Per board (n = ``num_players``; cards are ints 0..31, -1 for none; hands and
the middle kept sorted as in the rules):

* ``hands`` (n, 3), ``middle`` (3,), ``other_lot`` (3,) int8;
* ``deck`` (32,) int8: the round's whole deck order, drawn from the board's
  stream when the round starts; the deal takes it from the front, the stock
  is ``deck[pos:]`` and refreshes take three from ``pos`` on (each lot of
  three kept sorted in it: one deck order per deal, so conversions round-trip);
* ``public`` (n,) uint32 (cards each seat was seen to take), ``discards`` uint32;
* ``coins`` (n,), ``active`` (n,), ``pot``, ``dealer``, ``phase``, ``knocker``,
  ``passes``, ``turns``, ``round``, ``winner``, ``draw_cards`` (n,);
* the last showdown (for the "lost the previous round" flag and ``state.last``):
  ``last_hands`` (n, 3), bitmasks of seats shown / losers / paid / sunk, a reason code;
* the round's public record as a fixed buffer: ``actions`` (max_round_turns +
  n + 2,) and ``num_moves``. With the deck order it is the whole round:
  :func:`to_rules` replays it through the rules to rebuild ``state.moves``.

Actions, observations (float32, the same expressions as ``env.py``) and
rewards are those of ``envs/swimming/env.py``; ``tests/test_batched_swimming.py``
plays both side by side to keep it so. The buffer holds one byte per possible
move of a round per board: a large ``max_round_turns`` costs memory, not time.
"""

from __future__ import annotations

import numpy as np

from envs.core.batched import BatchedGame, Engine, board_state, randint, random_others_loop
from envs.core.jit import njit
from envs.swimming.env import PER_SEAT, observation_size
from envs.swimming.rules import (
    BINGO2,
    CHOICE,
    FIRE2,
    FIRE_SCORE,
    KEEP_LOT,
    KNOCK,
    NUM_ACTIONS,
    NUM_CARDS,
    OVER,
    PASS,
    PLAY,
    SCORE2,
    SWAP_ALL,
    Showdown,
    SwimmingGame,
    SwimmingState,
    bits,
)

REASONS = ("bingo", "fire", "knock", "deck", "turn limit", "void")
_BINGO, _FIRE, _KNOCK, _DECK, _TURN_LIMIT, _VOID = range(6)
_SCORE2 = np.array(SCORE2, dtype=np.int8)
# the variant's rule parameters, in this order, as the first constant of every kernel
_N, _KNOCK_FIRST, _OPEN, _COINS, _MAX_TURNS = range(5)

_GAME_ARRAYS = (
    "hands",
    "middle",
    "other_lot",
    "deck",
    "pos",
    "public",
    "discards",
    "coins",
    "active",
    "pot",
    "dealer",
    "phase",
    "knocker",
    "passes",
    "turns",
    "round",
    "winner",
    "draw_cards",
    "last_valid",
    "last_hands",
    "last_shown",
    "last_losers",
    "last_paid",
    "last_sunk",
    "last_reason",
    "actions",
    "num_moves",
)
Boards = board_state(__name__, _GAME_ARRAYS, ("params", "score"))


# -- helpers (inlined into the kernels) -------------------------------------------------------
@njit(cache=True, inline="always")
def _score(score, a, b, c):
    return np.int64(score[(np.int64(a) << 10) | (np.int64(b) << 5) | np.int64(c)])


@njit(cache=True, inline="always")
def _sort3(x, i):
    """Sort row ``i`` of an (m, 3) array in place (three cards, or -1s)."""
    a, b, c = x[i, 0], x[i, 1], x[i, 2]
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    x[i, 0], x[i, 1], x[i, 2] = a, b, c


@njit(cache=True, inline="always")
def _next_active(active, i, seat, n):
    for k in range(1, n + 1):
        s = (seat + k) % n
        if active[i, s]:
            return s
    return -1


@njit(cache=True, inline="always")
def _num_active(active, i, n):
    count = 0
    for s in range(n):
        count += active[i, s]
    return count


@njit(cache=True, inline="always")
def _knock_allowed(i, s):
    if s.phase[i] != PLAY or s.knocker[i] >= 0:
        return False
    return s.params[_KNOCK_FIRST] != 0 or s.turns[i] >= _num_active(s.active, i, s.params[_N])


@njit(cache=True, inline="always")
def _mask3(cards):
    one = np.int64(1)
    return (one << np.int64(cards[0])) | (one << np.int64(cards[1])) | (one << np.int64(cards[2]))


@njit(cache=True, inline="always")
def _plane(out, i, offset, mask):
    """``out[i, offset + c]`` = bit ``c`` of ``mask`` for the 32 cards (every entry written: no zeroing needed)."""
    for c in range(NUM_CARDS):
        out[i, offset + c] = (mask >> c) & 1


@njit(cache=True)
def _start_round(i, s, n):
    """Shuffle the board's deck and deal: three cards to every active seat, two lots to the dealer."""
    for k in range(NUM_CARDS):
        s.deck[i, k] = k
    for k in range(NUM_CARDS - 1, 0, -1):
        j = randint(s.rng, i, k + 1)
        s.deck[i, k], s.deck[i, j] = s.deck[i, j], s.deck[i, k]
    p = 0
    for si in range(n):
        s.public[i, si] = 0
        if s.active[i, si]:
            for k in range(3):
                s.hands[i, si, k] = s.deck[i, p + k]
            _sort3(s.hands[i], si)
            for k in range(3):  # the deck keeps each lot sorted too: one deck order per deal
                s.deck[i, p + k] = s.hands[i, si, k]
            p += 3
        else:
            for k in range(3):
                s.hands[i, si, k] = -1
    for k in range(3):
        s.other_lot[i, k] = s.deck[i, p + k]
        s.middle[i, k] = -1
    _sort3(s.other_lot, i)
    for k in range(3):
        s.deck[i, p + k] = s.other_lot[i, k]
    for b in range(p + 3, NUM_CARDS, 3):  # and each refresh's three (a refresh sorts them anyway)
        for k in range(b + 1, min(b + 3, NUM_CARDS)):
            c = s.deck[i, k]
            j = k
            while j > b and s.deck[i, j - 1] > c:
                s.deck[i, j] = s.deck[i, j - 1]
                j -= 1
            s.deck[i, j] = c
    s.pos[i] = p + 3
    s.discards[i] = 0
    s.phase[i] = CHOICE
    s.to_move[i] = s.dealer[i]
    s.knocker[i] = -1
    s.passes[i] = 0
    s.turns[i] = 0
    s.round[i] += 1
    s.num_moves[i] = 0


@njit(cache=True)
def _showdown(i, reason, rewards, s):
    """Score the round, collect coins, sink swimmers; the next round or the game's end (rules.showdown)."""
    n = s.params[_N]
    fire = -1
    low = 1000
    shown = 0
    for si in range(n):
        if s.active[i, si]:
            shown |= 1 << si
            v = _score(s.score, s.hands[i, si, 0], s.hands[i, si, 1], s.hands[i, si, 2])
            if v == FIRE2 and fire < 0:
                fire = si
            low = min(low, v)
            for k in range(3):
                s.last_hands[i, si, k] = s.hands[i, si, k]
        else:
            for k in range(3):
                s.last_hands[i, si, k] = -1
    losers = 0
    all_broke = True
    for si in range(n):
        if not s.active[i, si]:
            continue
        if fire >= 0:
            lost = si != fire
        else:
            lost = _score(s.score, s.hands[i, si, 0], s.hands[i, si, 1], s.hands[i, si, 2]) == low
        if lost:
            losers |= 1 << si
        if s.coins[i, si] != 0:
            all_broke = False
    s.last_valid[i] = True
    s.last_shown[i] = shown
    s.last_losers[i] = losers
    s.last_paid[i] = 0
    s.last_sunk[i] = 0
    if losers == shown and all_broke:
        s.last_reason[i] = _VOID
        _start_round(i, s, n)
        return
    s.last_reason[i] = _FIRE if fire >= 0 else reason
    paid = 0
    sunk = 0
    for si in range(n):
        if losers & (1 << si):
            if s.coins[i, si] > 0:
                s.coins[i, si] -= 1
                s.pot[i] += 1
                rewards[i, si] -= 1.0
                paid |= 1 << si
            else:
                s.active[i, si] = False
                for k in range(3):
                    s.hands[i, si, k] = -1
                sunk |= 1 << si
    s.last_paid[i] = paid
    s.last_sunk[i] = sunk
    if _num_active(s.active, i, n) == 1:
        w = _next_active(s.active, i, 0, n)  # the only one left (seat 0 itself counts last)
        s.winner[i] = w
        rewards[i, w] += np.float32(s.pot[i])
        s.phase[i] = OVER
        s.over[i] = True
        s.to_move[i] = w
        return
    s.dealer[i] = _next_active(s.active, i, s.dealer[i], n)
    _start_round(i, s, n)


# -- kernels ----------------------------------------------------------------------------------
@njit(cache=True)
def reset(where, s):
    n = s.params[_N]
    for i in range(where.shape[0]):
        if not where[i]:
            continue
        # the dealer draw: n distinct cards (a partial shuffle); highest rank deals, equal ranks the higher suit
        for k in range(NUM_CARDS):
            s.deck[i, k] = k
        best = -1
        for si in range(n):
            j = si + randint(s.rng, i, NUM_CARDS - si)
            s.deck[i, si], s.deck[i, j] = s.deck[i, j], s.deck[i, si]
            c = np.int64(s.deck[i, si])
            s.draw_cards[i, si] = c
            key = ((c & 7) << 2) | (c >> 3)
            if key > best:
                best = key
                s.dealer[i] = si
        for si in range(n):
            s.coins[i, si] = s.params[_COINS]
            s.active[i, si] = True
            for k in range(3):
                s.last_hands[i, si, k] = -1
        s.pot[i] = 0
        s.round[i] = 0
        s.winner[i] = -1
        s.last_valid[i] = False
        s.last_shown[i] = 0
        s.last_losers[i] = 0
        s.last_paid[i] = 0
        s.last_sunk[i] = 0
        s.last_reason[i] = 0
        s.over[i] = False
        _start_round(i, s, n)


@njit(cache=True)
def legal(out, s):
    for i in range(out.shape[0]):
        for a in range(NUM_ACTIONS):
            out[i, a] = False
        if s.over[i] or s.phase[i] == OVER:
            continue
        if s.phase[i] == CHOICE:
            out[i, KEEP_LOT] = True
            out[i, KEEP_LOT + 1] = True
            continue
        for a in range(KNOCK):
            out[i, a] = True
        out[i, KNOCK] = _knock_allowed(i, s)


@njit(cache=True)
def step(acts, rewards, s):
    n = s.params[_N]
    for i in range(acts.shape[0]):
        action = acts[i]
        if action < 0:
            continue
        me = s.to_move[i]
        s.actions[i, s.num_moves[i]] = action
        s.num_moves[i] += 1
        if s.phase[i] == CHOICE:
            _dealers_choice(s, i, action, me, rewards)
            continue
        s.turns[i] += 1
        _play_turn(s, i, action, me)
        if action <= SWAP_ALL and _score(s.score, s.hands[i, me, 0], s.hands[i, me, 1], s.hands[i, me, 2]) >= BINGO2:
            _showdown(i, _BINGO, rewards, s)
            continue
        if s.knocker[i] < 0 and s.passes[i] >= _num_active(s.active, i, n):
            if NUM_CARDS - s.pos[i] < 3:
                _showdown(i, _DECK, rewards, s)
                continue
            d = np.int64(s.discards[i])
            for k in range(3):
                d |= np.int64(1) << np.int64(s.middle[i, k])
                s.middle[i, k] = s.deck[i, s.pos[i] + k]
            s.discards[i] = d
            _sort3(s.middle, i)
            s.pos[i] += 3
            s.passes[i] = 0
        nxt = _next_active(s.active, i, me, n)
        if nxt == s.knocker[i]:
            _showdown(i, _KNOCK, rewards, s)
            continue
        if s.knocker[i] < 0 and s.turns[i] >= s.params[_MAX_TURNS]:
            _showdown(i, _TURN_LIMIT, rewards, s)
            continue
        s.to_move[i] = nxt


@njit(cache=True, inline="always")
def _dealers_choice(s, i, action, me, rewards):
    """Board ``i``: the dealer ``me`` keeps its hand (the other lot to the middle) or takes the other lot;
    play starts, unless a hand already holds 31 (a showdown)."""
    n = s.params[_N]
    if action != KEEP_LOT:
        for k in range(3):
            s.middle[i, k] = s.hands[i, me, k]
            s.hands[i, me, k] = s.other_lot[i, k]
    else:
        for k in range(3):
            s.middle[i, k] = s.other_lot[i, k]
    for k in range(3):
        s.other_lot[i, k] = -1
    s.phase[i] = PLAY
    s.to_move[i] = _next_active(s.active, i, me, n)
    for si in range(n):
        if s.active[i, si] and _score(s.score, s.hands[i, si, 0], s.hands[i, si, 1], s.hands[i, si, 2]) >= BINGO2:
            _showdown(i, _BINGO, rewards, s)
            break


@njit(cache=True, inline="always")
def _play_turn(s, i, action, me):
    """Board ``i``: player ``me``'s swap of one card, swap of all three, pass or knock (no end checks)."""
    if action < SWAP_ALL:
        h, m = action // 3, action % 3
        given = np.int64(s.hands[i, me, h])
        taken = np.int64(s.middle[i, m])
        s.hands[i, me, h] = taken
        s.middle[i, m] = given
        _sort3(s.hands[i], me)
        _sort3(s.middle, i)
        s.public[i, me] = (np.int64(s.public[i, me]) & ~(np.int64(1) << given)) | (np.int64(1) << taken)
        s.passes[i] = 0
    elif action == SWAP_ALL:
        seen = np.int64(0)
        for k in range(3):
            c = s.middle[i, k]
            s.middle[i, k] = s.hands[i, me, k]
            s.hands[i, me, k] = c
            seen |= np.int64(1) << np.int64(c)
        s.public[i, me] = seen
        s.passes[i] = 0
    elif action == PASS:
        s.passes[i] += 1
    else:  # KNOCK
        s.knocker[i] = me
        s.passes[i] = 0


@njit(cache=True)
def observe(seats, out, s):
    n = s.params[_N]
    start_coins = s.params[_COINS]
    base = 64 + 32 * n
    o = base + PER_SEAT * n
    for i in range(out.shape[0]):
        seat = seats[i]
        full = s.hands[i, seat, 0] >= 0
        _plane(out, i, 0, _mask3(s.hands[i, seat]) if full else np.int64(0))
        _plane(out, i, 32, _mask3(s.middle[i]) if s.middle[i, 0] >= 0 else np.int64(0))
        _plane(out, i, 64, np.int64(s.discards[i]))
        losers = np.int64(s.last_losers[i]) if s.last_valid[i] and s.last_reason[i] != _VOID else np.int64(0)
        ph = s.phase[i]
        for r in range(n):
            si = (seat + r) % n
            if r:
                seen = np.int64(0)
                if s.active[i, si]:
                    if not s.params[_OPEN]:
                        seen = np.int64(s.public[i, si])
                    elif s.hands[i, si, 0] >= 0:
                        seen = _mask3(s.hands[i, si])
                _plane(out, i, 64 + 32 * r, seen)
            b = base + PER_SEAT * r
            out[i, b] = min(s.coins[i, si] / start_coins, 1.0)
            out[i, b + 1] = s.active[i, si] and s.coins[i, si] == 0
            out[i, b + 2] = s.active[i, si]
            out[i, b + 3] = s.dealer[i] == si
            out[i, b + 4] = s.knocker[i] == si
            out[i, b + 5] = s.to_move[i] == si and ph != OVER
            out[i, b + 6] = (losers >> si) & 1
        out[i, o] = s.pot[i] / (n * start_coins)
        out[i, o + 1] = (NUM_CARDS - s.pos[i]) / 32.0
        out[i, o + 2] = ph == CHOICE
        out[i, o + 3] = ph == PLAY
        out[i, o + 4] = ph == OVER
        out[i, o + 5] = s.passes[i] / n
        out[i, o + 6] = s.to_move[i] == seat and _knock_allowed(i, s)
        out[i, o + 7] = 0.0
        if full:
            v = _score(s.score, s.hands[i, seat, 0], s.hands[i, seat, 1], s.hands[i, seat, 2])
            out[i, o + 7] = (FIRE_SCORE if v == FIRE2 else v / 2) / FIRE_SCORE


# -- one board <-> the rules' state ---------------------------------------------------------------
def _cards(row) -> list[int]:
    return [int(c) for c in row if c >= 0]


def _seats_of(mask: int, n: int) -> list[int]:
    return [s for s in range(n) if mask >> s & 1]


def _last(batch: BatchedGame, i: int, n: int) -> Showdown | None:
    a = batch.arrays
    if not a["last_valid"][i]:
        return None
    shown = _seats_of(int(a["last_shown"][i]), n)
    hands = {s: _cards(a["last_hands"][i, s]) for s in shown}
    scores = {}
    for s in shown:
        v = SCORE2[hands[s][0] << 10 | hands[s][1] << 5 | hands[s][2]]
        scores[s] = FIRE_SCORE if v == FIRE2 else v / 2
    return Showdown(
        hands,
        scores,
        _seats_of(int(a["last_losers"][i]), n),
        _seats_of(int(a["last_paid"][i]), n),
        _seats_of(int(a["last_sunk"][i]), n),
        REASONS[int(a["last_reason"][i])],
    )


def _replayed_moves(game: SwimmingGame, state: SwimmingState, deck: list[int], actions: list[int]) -> list:
    """The round's ``state.moves``: its deal (``deck``, the round's deck order) and ``actions`` through the rules."""
    n = game.num_players
    start = game.copy_state(state)
    if state.phase == OVER and state.last is not None:  # undo the final showdown: the round as it was dealt
        for s in state.last.paid:
            start.coins[s] += 1
        start.pot -= len(state.last.paid)
        for s in state.last.sunk:
            start.active[s] = True
        start.phase, start.winner = CHOICE, -1
    k = 0
    start.hands = [[] for _ in range(n)]
    for s in range(n):
        if start.active[s]:
            start.hands[s] = sorted(deck[k : k + 3])
            k += 3
    start.other_lot, start.deck = sorted(deck[k : k + 3]), deck[k + 3 :]
    start.middle, start.public, start.discards = [], [0] * n, 0
    start.phase, start.to_move, start.knocker, start.passes, start.turns = CHOICE, start.dealer, -1, 0, 0
    start.moves = []
    for action in actions:  # within a round the rules draw nothing: no generator needed
        game.apply(start, action, None)
    return start.moves


@njit(cache=True)
def random_others(seats, alive, received, scratch, state):
    """The core's random-opponent loop over this game's kernels (``Engine.random_others``)."""
    random_others_loop(legal, step, seats, alive, received, scratch, state)


def to_rules(batch: BatchedGame, i: int) -> SwimmingState:
    """Board ``i`` as the rules' :class:`SwimmingState` (``moves`` rebuilt by replaying the round's record)."""
    a = batch.arrays
    game = batch.engine.game
    n = game.num_players
    pos = int(a["pos"][i])
    deck = [int(c) for c in a["deck"][i]]
    state = SwimmingState(
        coins=[int(c) for c in a["coins"][i]],
        active=[bool(x) for x in a["active"][i]],
        pot=int(a["pot"][i]),
        dealer=int(a["dealer"][i]),
        hands=[_cards(h) for h in a["hands"][i]],
        middle=_cards(a["middle"][i]),
        deck=deck[pos:],
        other_lot=_cards(a["other_lot"][i]),
        public=[int(p) for p in a["public"][i]],
        discards=int(a["discards"][i]),
        phase=int(a["phase"][i]),
        to_move=int(batch.to_move[i]),
        knocker=int(a["knocker"][i]),
        passes=int(a["passes"][i]),
        turns=int(a["turns"][i]),
        round=int(a["round"][i]),
        winner=int(a["winner"][i]),
        draw_cards=[int(c) for c in a["draw_cards"][i]],
        last=_last(batch, i, n),
    )
    state.moves = _replayed_moves(game, state, deck, [int(x) for x in a["actions"][i, : int(a["num_moves"][i])]])
    return state


def from_rules(batch: BatchedGame, i: int, state: SwimmingState) -> None:
    """Put the rules' ``state`` on board ``i``; the round's deal is recovered by walking ``state.moves`` back."""
    game = batch.engine.game
    n = game.num_players
    a = batch.arrays
    if not isinstance(state, SwimmingState) or len(state.coins) != n or len(state.hands) != n:
        raise ValueError(
            f"swimming: set_board needs a SwimmingState of {n} players, got "
            f"{type(state).__name__} with {len(getattr(state, 'coins', ()))} seats"
        )
    walk = game.copy_state(state)
    if state.phase == OVER and state.last is not None:  # the sunk seats' hands as shown, for the walk back
        for s, hand in state.last.hands.items():
            walk.hands[s] = hand[:]
    if state.moves:
        dealt, _ = game.past_decisions(walk, -1)[0]
    else:
        dealt = walk
    deck = []
    for s in range(n):
        if dealt.hands[s]:
            deck += sorted(dealt.hands[s])
    deck += sorted(dealt.other_lot) + list(dealt.deck)
    if sorted(deck) != list(range(NUM_CARDS)):
        raise ValueError(f"swimming: the round's deal recovered from the state is not the 32 cards: {deck}")
    if len(state.moves) > a["actions"].shape[1]:
        raise ValueError(
            f"swimming: {len(state.moves)} moves in the round do not fit the engine's record "
            f"({a['actions'].shape[1]}: max_round_turns + num_players + 2)"
        )

    def row(cards):
        return list(cards) + [-1] * (3 - len(cards))

    a["hands"][i] = [row(h) for h in state.hands]
    a["middle"][i] = row(state.middle)
    a["other_lot"][i] = row(state.other_lot)
    a["deck"][i] = deck
    a["pos"][i] = NUM_CARDS - len(state.deck)
    a["public"][i] = state.public
    a["discards"][i] = state.discards
    a["coins"][i] = state.coins
    a["active"][i] = state.active
    a["pot"][i] = state.pot
    a["dealer"][i] = state.dealer
    a["phase"][i] = state.phase
    a["knocker"][i] = state.knocker
    a["passes"][i] = state.passes
    a["turns"][i] = state.turns
    a["round"][i] = state.round
    a["winner"][i] = state.winner
    a["draw_cards"][i] = state.draw_cards
    last = state.last
    a["last_valid"][i] = last is not None
    a["last_hands"][i] = -1
    if last is not None:
        for s, hand in last.hands.items():
            a["last_hands"][i, s] = row(hand)
        a["last_shown"][i] = bits(last.hands.keys())
        a["last_losers"][i], a["last_paid"][i], a["last_sunk"][i] = bits(last.losers), bits(last.paid), bits(last.sunk)
        a["last_reason"][i] = REASONS.index(last.reason)
    else:
        a["last_shown"][i] = a["last_losers"][i] = a["last_paid"][i] = a["last_sunk"][i] = a["last_reason"][i] = 0
    a["actions"][i] = 0
    a["actions"][i, : len(state.moves)] = [m.action for m in state.moves]
    a["num_moves"][i] = len(state.moves)
    batch.set_turn(i, state.to_move, state.phase == OVER)


def engine(**params) -> Engine:
    """Swimming's engine for the rule parameters of :class:`SwimmingGame` (a bad one is named there)."""
    rules = SwimmingGame(**params)
    n = rules.num_players
    record = rules.max_round_turns + n + 2  # the dealer's choice, the turns, a knock's last round
    arrays = {
        "hands": ((n, 3), np.int8),
        "middle": ((3,), np.int8),
        "other_lot": ((3,), np.int8),
        "deck": ((NUM_CARDS,), np.int8),
        "pos": ((), np.int8),
        "public": ((n,), np.uint32),
        "discards": ((), np.uint32),
        "coins": ((n,), np.int8),
        "active": ((n,), np.bool_),
        "pot": ((), np.int16),
        "dealer": ((), np.int8),
        "phase": ((), np.int8),
        "knocker": ((), np.int8),
        "passes": ((), np.int8),
        "turns": ((), np.int32),
        "round": ((), np.int32),
        "winner": ((), np.int8),
        "draw_cards": ((n,), np.int8),
        "last_valid": ((), np.bool_),
        "last_hands": ((n, 3), np.int8),
        "last_shown": ((), np.uint8),
        "last_losers": ((), np.uint8),
        "last_paid": ((), np.uint8),
        "last_sunk": ((), np.uint8),
        "last_reason": ((), np.int8),
        "actions": ((record,), np.int8),
        "num_moves": ((), np.int32),
    }
    consts = (
        np.array(
            [n, rules.knock_first_round, rules.open_hands, rules.start_coins, rules.max_round_turns], dtype=np.int64
        ),
        _SCORE2,
    )
    return Engine(
        name="swimming",
        num_players=n,
        num_actions=NUM_ACTIONS,
        obs_size=observation_size(n),
        arrays=arrays,
        reset=reset,
        legal=legal,
        step=step,
        random_others=random_others,
        observe=observe,
        to_rules=to_rules,
        from_rules=from_rules,
        state=Boards,
        game=rules,
        has_chance=True,
        params=dict(rules.params),
        consts=consts,
        seats_in_game="active",
    )
