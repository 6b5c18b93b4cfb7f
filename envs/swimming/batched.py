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
  :func:`to_rules` replays it through the rules to rebuild ``state.moves``;
* ``origin`` int64: where that record starts when a position was set mid-round
  without its moves (its first entry 1, then the position: :func:`_origin_row`;
  0 otherwise, and a deal makes it 0 again): the deal is unknown then, and the
  record is replayed from the position as set.

Actions, observations (float32, the same expressions as ``env.py``) and
rewards are those of ``envs/swimming/env.py``; ``tests/games/swimming/test_batched_swimming.py``
plays both side by side to keep it so. The buffer holds one byte per possible
move of a round per board: a large ``max_round_turns`` costs memory, not time.
"""

from __future__ import annotations

import numpy as np

from envs.core.batched import (
    BatchedGame,
    Engine,
    board_state,
    called_per_board,
    each_legal,
    each_observe,
    each_step,
    randint,
    random_others_loop,
    variant_consts,
)
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
    cards_of,
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
    "origin",
)
Boards = board_state(__name__, _GAME_ARRAYS)
Consts = variant_consts(__name__, ("params", "score"))


# -- helpers of a few arrays (inlined by numba where they are used) --------------------------------
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
def _knock_allowed(i, phase, knocker, turns, active, params):
    if phase[i] != PLAY or knocker[i] >= 0:
        return False
    return params[_KNOCK_FIRST] != 0 or turns[i] >= _num_active(active, i, params[_N])


@njit(cache=True, inline="always")
def _mask3(cards):
    one = np.int64(1)
    return (one << np.int64(cards[0])) | (one << np.int64(cards[1])) | (one << np.int64(cards[2]))


@njit(cache=True, inline="always")
def _plane(out, i, offset, mask):
    """``out[i, offset + c]`` = bit ``c`` of ``mask`` for the 32 cards (every entry written: no zeroing needed)."""
    for c in range(NUM_CARDS):
        out[i, offset + c] = (mask >> c) & 1


# -- a round's deal and showdown: per-board functions (envs.core.jit.per_board) of reset and step ---------
@called_per_board
def _start_round(i, s, c, n):
    """Shuffle the board's deck and deal: three cards to every active seat, two lots to the dealer."""
    other_lot, pos, discards, phase, to_move = s.other_lot, s.pos, s.discards, s.phase, s.to_move
    dealer, knocker, passes, turns, round = s.dealer, s.knocker, s.passes, s.turns, s.round
    num_moves, deck, rng, public, active, middle = s.num_moves, s.deck, s.rng, s.public, s.active, s.middle
    hands = s.hands
    s.origin[i, 0] = 0  # the record starts at this deal
    for k in range(NUM_CARDS):
        deck[i, k] = k
    for k in range(NUM_CARDS - 1, 0, -1):
        j = randint(rng, i, k + 1)
        deck[i, k], deck[i, j] = deck[i, j], deck[i, k]
    p = 0
    for si in range(n):
        public[i, si] = 0
        if active[i, si]:
            for k in range(3):
                hands[i, si, k] = deck[i, p + k]
            _sort3(hands[i], si)
            for k in range(3):  # the deck keeps each lot sorted too: one deck order per deal
                deck[i, p + k] = hands[i, si, k]
            p += 3
        else:
            for k in range(3):
                hands[i, si, k] = -1
    for k in range(3):
        other_lot[i, k] = deck[i, p + k]
        middle[i, k] = -1
    _sort3(other_lot, i)
    for k in range(3):
        deck[i, p + k] = other_lot[i, k]
    for b in range(p + 3, NUM_CARDS, 3):  # and each refresh's three (a refresh sorts them anyway)
        for k in range(b + 1, min(b + 3, NUM_CARDS)):
            card = deck[i, k]
            j = k
            while j > b and deck[i, j - 1] > card:
                deck[i, j] = deck[i, j - 1]
                j -= 1
            deck[i, j] = card
    pos[i] = p + 3
    discards[i] = 0
    phase[i] = CHOICE
    to_move[i] = dealer[i]
    knocker[i] = -1
    passes[i] = 0
    turns[i] = 0
    round[i] += 1
    num_moves[i] = 0


@called_per_board
def _show(i, s, c, n):
    """The showdown's hands: ``last_hands`` recorded; returns (seats shown, losers, the seat with fire or -1,
    whether every active seat is out of coins) as bitmasks and flags."""
    active, hands, last_hands, coins, score = s.active, s.hands, s.last_hands, s.coins, c.score
    fire = -1
    low = 1000
    shown = 0
    for si in range(n):
        if active[i, si]:
            shown |= 1 << si
            v = _score(score, hands[i, si, 0], hands[i, si, 1], hands[i, si, 2])
            if v == FIRE2 and fire < 0:
                fire = si
            low = min(low, v)
            for k in range(3):
                last_hands[i, si, k] = hands[i, si, k]
        else:
            for k in range(3):
                last_hands[i, si, k] = -1
    losers = 0
    all_broke = True
    for si in range(n):
        if not active[i, si]:
            continue
        if fire >= 0:
            lost = si != fire
        else:
            lost = _score(score, hands[i, si, 0], hands[i, si, 1], hands[i, si, 2]) == low
        if lost:
            losers |= 1 << si
        if coins[i, si] != 0:
            all_broke = False
    return shown, losers, fire, all_broke


@called_per_board
def _pay(i, losers, rewards, s, c, n):
    """Every loser pays a coin into the pot, or sinks (leaves the game) without one; recorded in ``last_paid`` /
    ``last_sunk``."""
    coins, pot, active, hands = s.coins, s.pot, s.active, s.hands
    paid = 0
    sunk = 0
    for si in range(n):
        if losers & (1 << si):
            if coins[i, si] > 0:
                coins[i, si] -= 1
                pot[i] += 1
                rewards[i, si] -= 1.0
                paid |= 1 << si
            else:
                active[i, si] = False
                for k in range(3):
                    hands[i, si, k] = -1
                sunk |= 1 << si
    s.last_paid[i] = paid
    s.last_sunk[i] = sunk


@called_per_board
def _showdown(i, reason, rewards, s, c):
    """Score the round, collect coins, sink swimmers; the next round or the game's end (rules.showdown).

    ``reason`` comes as an int64, not as the constant itself: numba would compile one copy per constant."""
    active, last_reason = s.active, s.last_reason
    n = c.params[_N]
    shown, losers, fire, all_broke = _show(i, s, c, n)
    s.last_valid[i] = True
    s.last_shown[i] = shown
    s.last_losers[i] = losers
    s.last_paid[i] = 0
    s.last_sunk[i] = 0
    if losers == shown and all_broke:
        last_reason[i] = _VOID
    else:
        last_reason[i] = _FIRE if fire >= 0 else reason
        _pay(i, losers, rewards, s, c, n)
        if _num_active(active, i, n) == 1:
            w = _next_active(active, i, 0, n)  # the only one left (seat 0 itself counts last)
            s.winner[i] = w
            rewards[i, w] += np.float32(s.pot[i])
            s.phase[i] = OVER
            s.over[i] = True
            s.to_move[i] = w
            return
        s.dealer[i] = _next_active(active, i, s.dealer[i], n)
    _start_round(i, s, c, n)  # one call: LLVM inlines each call of a per-board function


# -- kernels: legal, step and observe map per-board functions over the batch (envs.core.batched) -----------
@called_per_board
def _legal_one(i, out, s, c, scratch):
    phase = s.phase
    for a in range(NUM_ACTIONS):
        out[i, a] = False
    if s.over[i] or phase[i] == OVER:
        return
    if phase[i] == CHOICE:
        out[i, KEEP_LOT] = True
        out[i, KEEP_LOT + 1] = True
        return
    for a in range(KNOCK):
        out[i, a] = True
    out[i, KNOCK] = _knock_allowed(i, phase, s.knocker, s.turns, s.active, c.params)


@called_per_board
def _choose(i, me, action, s, c):
    """The dealer keeps its hand (``KEEP_LOT``: the other lot goes to the middle) or takes the other lot; play
    begins. Returns whether someone holds a bingo (the round then ends)."""
    hands, middle, other_lot, active, score = s.hands, s.middle, s.other_lot, s.active, c.score
    n = c.params[_N]
    if action != KEEP_LOT:
        for k in range(3):
            middle[i, k] = hands[i, me, k]
            hands[i, me, k] = other_lot[i, k]
    else:
        for k in range(3):
            middle[i, k] = other_lot[i, k]
    for k in range(3):
        other_lot[i, k] = -1
    s.phase[i] = PLAY
    s.to_move[i] = _next_active(active, i, me, n)
    for si in range(n):
        if active[i, si] and _score(score, hands[i, si, 0], hands[i, si, 1], hands[i, si, 2]) >= BINGO2:
            return True
    return False


@called_per_board
def _turn(i, me, action, s, c):
    """Seat ``me``'s turn in play: swap one card, swap all three, pass or knock (the move itself, nothing after)."""
    hands, middle, public, passes = s.hands, s.middle, s.public, s.passes
    if action < SWAP_ALL:
        h, m = action // 3, action % 3
        given = np.int64(hands[i, me, h])
        taken = np.int64(middle[i, m])
        hands[i, me, h] = taken
        middle[i, m] = given
        _sort3(hands[i], me)
        _sort3(middle, i)
        public[i, me] = (np.int64(public[i, me]) & ~(np.int64(1) << given)) | (np.int64(1) << taken)
        passes[i] = 0
    elif action == SWAP_ALL:
        seen = np.int64(0)
        for k in range(3):
            card = middle[i, k]
            middle[i, k] = hands[i, me, k]
            hands[i, me, k] = card
            seen |= np.int64(1) << np.int64(card)
        public[i, me] = seen
        passes[i] = 0
    elif action == PASS:
        passes[i] += 1
    else:  # KNOCK
        s.knocker[i] = me
        passes[i] = 0


@called_per_board
def _refresh(i, s, c):
    """Everyone passed: the middle goes to the discards and the next three of the stock replace it."""
    middle, deck, pos = s.middle, s.deck, s.pos
    d = np.int64(s.discards[i])
    for k in range(3):
        d |= np.int64(1) << np.int64(middle[i, k])
        middle[i, k] = deck[i, pos[i] + k]
    s.discards[i] = d
    _sort3(middle, i)
    pos[i] += 3
    s.passes[i] = 0


@called_per_board
def _step_one(i, action, rewards, s, c, scratch):
    hands, knocker, active, params = s.hands, s.knocker, s.active, c.params
    n = params[_N]
    me = s.to_move[i]
    s.actions[i, s.num_moves[i]] = action
    s.num_moves[i] += 1
    reason = -1  # the round ends: why (one call of _showdown below, so that LLVM inlines one copy of it)
    if s.phase[i] == CHOICE:
        if _choose(i, me, action, s, c):
            reason = _BINGO
    else:
        s.turns[i] += 1
        _turn(i, me, action, s, c)
        everyone_passed = knocker[i] < 0 and s.passes[i] >= _num_active(active, i, n)
        if action <= SWAP_ALL and _score(c.score, hands[i, me, 0], hands[i, me, 1], hands[i, me, 2]) >= BINGO2:
            reason = _BINGO
        elif everyone_passed and NUM_CARDS - s.pos[i] < 3:
            reason = _DECK
        else:
            if everyone_passed:
                _refresh(i, s, c)
            nxt = _next_active(active, i, me, n)
            if nxt == knocker[i]:
                reason = _KNOCK
            elif knocker[i] < 0 and s.turns[i] >= params[_MAX_TURNS]:
                reason = _TURN_LIMIT
            else:
                s.to_move[i] = nxt
    if reason >= 0:
        _showdown(i, np.int64(reason), rewards, s, c)


@called_per_board
def _observe_one(i, seat, out, s, c, scratch):
    params, phase, hands, active, pot, passes = c.params, s.phase, s.hands, s.active, s.pot, s.passes
    knocker, turns, score, discards, last_valid = s.knocker, s.turns, c.score, s.discards, s.last_valid
    last_losers, dealer, pos, to_move, middle = s.last_losers, s.dealer, s.pos, s.to_move, s.middle
    last_reason, coins, public = s.last_reason, s.coins, s.public
    n = params[_N]
    start_coins = params[_COINS]
    base = 64 + 32 * n
    o = base + PER_SEAT * n
    full = hands[i, seat, 0] >= 0
    _plane(out, i, 0, _mask3(hands[i, seat]) if full else np.int64(0))
    _plane(out, i, 32, _mask3(middle[i]) if middle[i, 0] >= 0 else np.int64(0))
    _plane(out, i, 64, np.int64(discards[i]))
    losers = np.int64(last_losers[i]) if last_valid[i] and last_reason[i] != _VOID else np.int64(0)
    ph = phase[i]
    for r in range(n):
        si = (seat + r) % n
        if r:
            seen = np.int64(0)
            if active[i, si]:
                if not params[_OPEN]:
                    seen = np.int64(public[i, si])
                elif hands[i, si, 0] >= 0:
                    seen = _mask3(hands[i, si])
            _plane(out, i, 64 + 32 * r, seen)
        b = base + PER_SEAT * r
        out[i, b] = min(coins[i, si] / start_coins, 1.0)
        out[i, b + 1] = active[i, si] and coins[i, si] == 0
        out[i, b + 2] = active[i, si]
        out[i, b + 3] = dealer[i] == si
        out[i, b + 4] = knocker[i] == si
        out[i, b + 5] = to_move[i] == si and ph != OVER
        out[i, b + 6] = (losers >> si) & 1
    out[i, o] = pot[i] / (n * start_coins)
    out[i, o + 1] = (NUM_CARDS - pos[i]) / 32.0
    out[i, o + 2] = ph == CHOICE
    out[i, o + 3] = ph == PLAY
    out[i, o + 4] = ph == OVER
    out[i, o + 5] = passes[i] / n
    out[i, o + 6] = to_move[i] == seat and _knock_allowed(i, phase, knocker, turns, active, params)
    out[i, o + 7] = 0.0
    if full:
        v = _score(score, hands[i, seat, 0], hands[i, seat, 1], hands[i, seat, 2])
        out[i, o + 7] = (FIRE_SCORE if v == FIRE2 else v / 2) / FIRE_SCORE


@njit(cache=True)
def reset(where, s, c):  # one loop: written per board (each_reset) it measured 1.3x slower
    params, pot, round, winner, last_valid = c.params, s.pot, s.round, s.winner, s.last_valid
    last_shown, last_losers, last_paid, last_sunk = s.last_shown, s.last_losers, s.last_paid, s.last_sunk
    last_reason, over, deck, draw_cards, coins = s.last_reason, s.over, s.deck, s.draw_cards, s.coins
    active, rng, dealer, last_hands = s.active, s.rng, s.dealer, s.last_hands
    n = params[_N]
    for i in range(where.shape[0]):
        if not where[i]:
            continue
        # the dealer draw: n distinct cards (a partial shuffle); highest rank deals, equal ranks the higher suit
        for k in range(NUM_CARDS):
            deck[i, k] = k
        best = -1
        for si in range(n):
            j = si + randint(rng, i, NUM_CARDS - si)
            deck[i, si], deck[i, j] = deck[i, j], deck[i, si]
            card = np.int64(deck[i, si])
            draw_cards[i, si] = card
            key = ((card & 7) << 2) | (card >> 3)
            if key > best:
                best = key
                dealer[i] = si
        for si in range(n):
            coins[i, si] = params[_COINS]
            active[i, si] = True
            for k in range(3):
                last_hands[i, si, k] = -1
        pot[i] = 0
        round[i] = 0
        winner[i] = -1
        last_valid[i] = False
        last_shown[i] = 0
        last_losers[i] = 0
        last_paid[i] = 0
        last_sunk[i] = 0
        last_reason[i] = 0
        over[i] = False
        _start_round(i, s, c, n)


@njit(cache=True)
def legal(out, s, c):
    each_legal(_legal_one, out, s, c, ())


@njit(cache=True)
def step(actions, rewards, s, c):
    each_step(_step_one, actions, rewards, s, c, ())


@njit(cache=True)
def observe(seats, out, s, c):
    each_observe(_observe_one, seats, out, s, c, ())


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


_ORIGIN_SCALARS = ("phase", "to_move", "knocker", "passes", "turns", "discards")


def _origin_size(n: int) -> int:
    return 2 + len(_ORIGIN_SCALARS) + n + 3 * n + 6  # flag, scalars, stock size, public, hands, middle, other lot


def _origin_row(state: SwimmingState) -> list[int]:
    """``origin`` for a position set mid-round without its moves: the record is replayed from it."""
    row = [1] + [int(getattr(state, name)) for name in _ORIGIN_SCALARS] + [len(state.deck)]
    row += [int(p) for p in state.public]
    for cards in (*state.hands, state.middle, state.other_lot):
        row += list(cards) + [-1] * (3 - len(cards))
    return row


def _all_cards(state: SwimmingState) -> bool:
    """Whether the hands, the middle, the lot, the stock and the discards hold the 32 cards, each once."""
    placed = [c for hand in state.hands for c in hand] + state.middle + state.other_lot + list(state.deck)
    return sorted(placed + cards_of(state.discards)) == list(range(NUM_CARDS))


def _from_origin(start: SwimmingState, row: list[int], deck: list[int]) -> None:
    """``start`` (a copy of the board's state) set back to the position of ``origin``'s ``row`` (its stock the
    end of the round's ``deck``)."""
    n, k = len(start.coins), 1 + len(_ORIGIN_SCALARS)
    for name, value in zip(_ORIGIN_SCALARS, row[1:k]):
        setattr(start, name, value)
    start.deck, k = deck[NUM_CARDS - row[k] :], k + 1
    start.public, k = row[k : k + n], k + n
    lots = [[card for card in row[k + 3 * j : k + 3 * j + 3] if card >= 0] for j in range(n + 2)]
    start.hands, start.middle, start.other_lot = lots[:n], lots[n], lots[n + 1]


def _from_deal(start: SwimmingState, deck: list[int]) -> None:
    """``start`` (a copy of the board's state) set back to the round's deal, dealt from ``deck``."""
    n, k = len(start.coins), 0
    start.hands = [[] for _ in range(n)]
    for s in range(n):
        if start.active[s]:
            start.hands[s] = sorted(deck[k : k + 3])
            k += 3
    start.other_lot, start.deck = sorted(deck[k : k + 3]), deck[k + 3 :]
    start.middle, start.public, start.discards = [], [0] * n, 0
    start.phase, start.to_move, start.knocker, start.passes, start.turns = CHOICE, start.dealer, -1, 0, 0


def _replayed_moves(
    game: SwimmingGame, state: SwimmingState, deck: list[int], actions: list[int], origin: list[int]
) -> list:
    """The round's ``state.moves``: ``actions`` through the rules from its deal (``deck``, the round's deck
    order) or, for a position set without its moves, from that position (``origin``)."""
    start = game.copy_state(state)
    if state.phase == OVER and state.last is not None:  # undo the final showdown: the round as it was dealt
        for s in state.last.paid:
            start.coins[s] += 1
        start.pot -= len(state.last.paid)
        for s in state.last.sunk:
            start.active[s] = True
        start.phase, start.winner = CHOICE, -1
    if origin[0]:
        _from_origin(start, origin, deck)
    else:
        _from_deal(start, deck)
    start.moves = []
    for action in actions:  # within a round the rules draw nothing: no generator needed
        game.apply(start, action, None)
    return start.moves


@njit(cache=True)
def random_others(seats, alive, received, scratch, s, c):
    """The core's random-opponent loop over this game's kernels (``Engine.random_others``)."""
    random_others_loop(legal, step, seats, alive, received, scratch, s, c)


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
    actions = [int(x) for x in a["actions"][i, : int(a["num_moves"][i])]]
    state.moves = _replayed_moves(game, state, deck, actions, [int(x) for x in a["origin"][i]])
    return state


def from_rules(batch: BatchedGame, i: int, state: SwimmingState) -> None:
    """Put the rules' ``state`` on board ``i``; the round's deal is recovered by walking ``state.moves`` back (to
    the position the record starts at, if the round was set up without its moves)."""
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
    origin = [0] * a["origin"].shape[1]
    if sorted(deck) != list(range(NUM_CARDS)) and _all_cards(dealt):  # the record starts mid-round, at a position
        deck = sorted(set(range(NUM_CARDS)) - set(dealt.deck)) + list(dealt.deck)  # set without its moves: no deal
        origin = _origin_row(dealt)
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
    a["origin"][i] = origin
    batch.set_turn(i, state.to_move, state.phase == OVER)


def engine(**params) -> Engine:
    """Swimming's engine for the rule parameters of :class:`SwimmingGame` (a bad one is named there)."""
    game = SwimmingGame(**params)
    n = game.num_players
    record = game.max_round_turns + n + 2  # the dealer's choice, the turns, a knock's last round
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
        "origin": ((_origin_size(n),), np.int64),
    }
    consts = (
        np.array([n, game.knock_first_round, game.open_hands, game.start_coins, game.max_round_turns], dtype=np.int64),
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
        game=game,
        has_chance=True,
        params=dict(game.params),
        consts=Consts(*consts),
        seats_in_game="active",
    )
