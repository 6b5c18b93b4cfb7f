"""Swimming's rules (Schwimmen / Schnauz / 31); the env docstring has them in words.

Cards are ints ``suit*8 + rank`` (suits Diamonds, Hearts, Spades, Clubs; ranks
7, 8, 9, 10, J, Q, K, A). Hands and the middle are sorted lists of three
cards, so "hand card i" and "middle card j" of an action are in ascending card
order. Scores are kept in half points (``score2``): 62 = 31 (Bingo),
61 = 30.5 (three of a kind), 64 = Fire (three aces, above everything).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from envs.core.game import Game, RuleError
from envs.core.params import bool_param, int_param

NUM_CARDS = 32
ALL_CARDS = (1 << NUM_CARDS) - 1
NUM_ACTIONS = 14
SWAP_ALL, PASS, KNOCK, KEEP_LOT, TAKE_OTHER = 9, 10, 11, 12, 13
CHOICE, PLAY, OVER = 0, 1, 2  # phases: the dealer's lot choice, play, game over

SUITS = "DHSC"
RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
RANK_VALUES = (7, 8, 9, 10, 10, 10, 10, 11)
ACE = 7
BINGO2, TRIPS2, FIRE2 = 62, 61, 64
FIRE_SCORE = 33.0  # Fire as a number: above every other score


def card_name(card: int) -> str:
    """E.g. ``"10H"``, ``"AS"``, ``"7D"``."""
    return RANKS[card & 7] + SUITS[card >> 3]


def parse_card(name: str) -> int:
    """Inverse of :func:`card_name` (``"QS"`` -> 21)."""
    rank, suit = name[:-1].upper(), name[-1].upper()
    if rank not in RANKS or suit not in SUITS:
        raise ValueError(f"bad card name {name!r}: use a rank of {RANKS} then a suit of {SUITS}")
    return SUITS.index(suit) * 8 + RANKS.index(rank)


def _score_table() -> list[int]:
    """score2 of every ordered triple (a, b, c), indexed ``a << 10 | b << 5 | c``."""
    cards = np.arange(NUM_CARDS)
    a, b, c = np.meshgrid(cards, cards, cards, indexing="ij")
    values = np.array(RANK_VALUES)
    best = np.zeros(a.shape, dtype=np.int64)
    for suit in range(4):
        s = sum(np.where(x >> 3 == suit, values[x & 7], 0) for x in (a, b, c))
        best = np.maximum(best, s * 2)
    ra, rb, rc = a & 7, b & 7, c & 7
    trips = (ra == rb) & (rb == rc)
    best = np.where(trips, np.where(ra == ACE, FIRE2, TRIPS2), best)
    return best.reshape(-1).tolist()


SCORE2 = _score_table()


def score2(hand) -> int:
    """Half-point score of a three-card hand (any order)."""
    a, b, c = hand
    return SCORE2[a << 10 | b << 5 | c]


def hand_score(hand) -> float:
    """Score in points: best single-suit sum, 30.5 for three of a kind, 33.0 (``FIRE_SCORE``) for Fire."""
    s = score2(hand)
    return FIRE_SCORE if s == FIRE2 else s / 2


def bits(cards) -> int:
    """Bitmask of a collection of cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    """Sorted cards of a bitmask."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def deal_unseen(
    unknown: list[int], known: dict[int, list[int]], rng: np.random.Generator
) -> tuple[dict[int, list[int]], list[int]]:
    """Shuffle the ``unknown`` cards and fill every hand of ``known`` up to three.

    Returns (seat -> its known cards plus the dealt ones, the unknown cards
    left over in shuffled order).
    """
    pool = [unknown[i] for i in rng.permutation(len(unknown))]
    hands, k = {}, 0
    for s, cards in known.items():
        missing = 3 - len(cards)
        hands[s] = cards + pool[k : k + missing]
        k += missing
    return hands, pool[k:]


@dataclass
class Showdown:
    """What the table saw at the end of a round (all hands face up)."""

    hands: dict[int, list[int]]
    scores: dict[int, float]
    losers: list[int]
    paid: list[int]
    sunk: list[int]
    reason: str  # "bingo", "fire", "knock", "deck", "turn limit", "void"


class RoundMove(NamedTuple):
    """One move of the round as the whole table saw it, and the public table just before it."""

    seat: int
    action: int
    middle: tuple[int, ...]  # the middle before the move
    public: tuple[int, ...]  # per seat: bitmask of its cards everyone knew
    discards: int
    knocker: int
    passes: int
    turns: int
    stock: int  # cards in the stock before the move
    drawn: tuple[int, ...] = ()  # the new middle a refresh dealt straight after this move


@dataclass
class SwimmingState:
    coins: list[int]
    active: list[bool]
    pot: int = 0
    dealer: int = 0
    hands: list[list[int]] = field(default_factory=list)
    middle: list[int] = field(default_factory=list)
    deck: list[int] = field(default_factory=list)
    other_lot: list[int] = field(default_factory=list)  # the dealer's unseen lot, during CHOICE
    public: list[int] = field(default_factory=list)  # per seat: bitmask of its cards everyone knows
    discards: int = 0  # middle cards put aside by a refresh
    phase: int = CHOICE
    to_move: int = 0
    knocker: int = -1
    passes: int = 0  # passes in a row
    turns: int = 0  # play-phase turns this round
    round: int = 0
    moves: list[RoundMove] = field(default_factory=list)  # this round's moves, for everyone to read
    winner: int = -1
    draw_cards: list[int] = field(default_factory=list)  # the dealer draw, by seat
    last: Showdown | None = None


class SwimmingGame(Game):
    """Swimming for 2-6 players; one game is many rounds, until one player is left."""

    name = "swimming"
    RULE_PARAMS = (
        int_param("num_players", 4, 2, 6),
        bool_param("knock_first_round", False),
        bool_param("open_hands", False),
        int_param("coins", 3, 1, 20),
        int_param("max_round_turns", 100, 1, 100_000),
    )
    num_actions = NUM_ACTIONS
    duplicate_deals = True

    def __init__(self, **params) -> None:
        super().__init__(**params)
        self.num_players = self.params["num_players"]
        self.start_coins = self.params["coins"]
        self.knock_first_round = self.params["knock_first_round"]
        self.open_hands = self.params["open_hands"]
        self.max_round_turns = self.params["max_round_turns"]

    # -- setting up --------------------------------------------------------
    def new_state(self, rng: np.random.Generator) -> SwimmingState:
        n = self.num_players
        draw = rng.permutation(NUM_CARDS)[:n].tolist()
        # highest rank deals; equal ranks: the higher suit
        dealer = max(range(n), key=lambda s: ((draw[s] & 7) << 2) | (draw[s] >> 3))
        state = SwimmingState(coins=[self.start_coins] * n, active=[True] * n, dealer=dealer, draw_cards=draw)
        self.start_round(state, rng)
        return state

    def start_round(self, state: SwimmingState, rng: np.random.Generator) -> None:
        """Shuffle and deal: three cards to every active player, two lots to the dealer."""
        n = self.num_players
        deck = rng.permutation(NUM_CARDS).tolist()
        k = 0
        state.hands = [[] for _ in range(n)]
        for seat in range(n):
            if state.active[seat]:
                state.hands[seat] = sorted(deck[k : k + 3])
                k += 3
        state.other_lot = sorted(deck[k : k + 3])
        state.deck = deck[k + 3 :]
        state.middle = []
        state.public = [0] * n
        state.discards = 0
        state.phase = CHOICE
        state.to_move = state.dealer
        state.knocker = -1
        state.passes = 0
        state.turns = 0
        state.round += 1
        state.moves = []

    def copy_state(self, state: SwimmingState) -> SwimmingState:
        s = SwimmingState(
            coins=state.coins[:],
            active=state.active[:],
            pot=state.pot,
            dealer=state.dealer,
            hands=[h[:] for h in state.hands],
            middle=state.middle[:],
            deck=state.deck[:],
            other_lot=state.other_lot[:],
            public=state.public[:],
            discards=state.discards,
            phase=state.phase,
            to_move=state.to_move,
            knocker=state.knocker,
            passes=state.passes,
            turns=state.turns,
            round=state.round,
            moves=state.moves[:],
            winner=state.winner,
            draw_cards=state.draw_cards[:],
            last=state.last,
        )  # Showdown records are never mutated
        return s

    # -- queries -----------------------------------------------------------
    def to_move(self, state: SwimmingState) -> int:
        return state.to_move

    def is_over(self, state: SwimmingState) -> bool:
        return state.phase == OVER

    def winners(self, state: SwimmingState) -> list[int]:
        return [state.winner] if state.winner >= 0 else []

    def seat_active(self, state: SwimmingState, seat: int) -> bool:
        return state.active[seat]

    def num_active(self, state: SwimmingState) -> int:
        return sum(state.active)

    def next_active(self, state: SwimmingState, seat: int) -> int:
        """The next seat to the left (seat + 1, ...) still in the game."""
        n = self.num_players
        for step in range(1, n + 1):
            s = (seat + step) % n
            if state.active[s]:
                return s
        raise RuleError("swimming: no active seat")  # pragma: no cover

    def swimming(self, state: SwimmingState, seat: int) -> bool:
        """True for a player still in the game with no coins left."""
        return state.active[seat] and state.coins[seat] == 0

    def knock_allowed(self, state: SwimmingState) -> bool:
        """Whether the player to move may knock now."""
        if state.phase != PLAY or state.knocker >= 0:
            return False
        return self.knock_first_round or state.turns >= self.num_active(state)

    def legal_mask(self, state: SwimmingState) -> np.ndarray:
        mask = np.zeros(NUM_ACTIONS, dtype=bool)
        if state.phase == CHOICE:
            mask[KEEP_LOT] = mask[TAKE_OTHER] = True
        elif state.phase == PLAY:
            mask[:KNOCK] = True
            mask[KNOCK] = self.knock_allowed(state)
        return mask

    def visible_cards(self, state: SwimmingState, viewer: int, holder: int) -> int:
        """Bitmask of ``holder``'s cards that ``viewer`` may see (all of its own)."""
        if viewer == holder or self.open_hands:
            return bits(state.hands[holder])
        return state.public[holder]

    # -- hidden information ------------------------------------------------
    def unseen_cards(self, state: SwimmingState, seat: int) -> tuple[list[int], dict[int, list[int]]]:
        """(cards ``seat`` cannot place, sorted; the cards it sees in each other active hand).

        The unseen cards are the others' hidden cards, the dealer's unseen lot
        and the stock.
        """
        seen = bits(state.hands[seat]) | bits(state.middle) | state.discards
        known = {}
        for s in range(self.num_players):
            if s != seat and state.active[s]:
                mask = self.visible_cards(state, seat, s)
                known[s] = cards_of(mask)
                seen |= mask
        return cards_of(ALL_CARDS & ~seen), known

    def determinize(self, state: SwimmingState, seat: int, rng: np.random.Generator) -> SwimmingState:
        """A copy of ``state`` with every card ``seat`` cannot see dealt again at random.

        The others keep the cards ``seat`` saw them take; their other cards,
        the dealer's unseen lot and the stock order are drawn from the unseen
        cards (:func:`deal_unseen`).
        """
        unknown, known = self.unseen_cards(state, seat)
        hands, rest = deal_unseen(unknown, known, rng)
        out = self.copy_state(state)
        for s, hand in hands.items():
            out.hands[s] = sorted(hand)
        if state.other_lot:
            out.other_lot, rest = sorted(rest[:3]), rest[3:]
        out.deck = rest
        return out

    def past_decisions(self, state: SwimmingState, viewer: int) -> list[tuple[SwimmingState, int]]:
        """The other players' moves this round, each as (the state it was made in, the move), oldest first.

        The states are rebuilt from ``state``'s hands (in a deal from
        :meth:`determinize`, the guessed ones) walked back through the round's
        public record (``state.moves``): a swap gives back the card taken and
        takes back the card given; swapping all (or taking the other lot)
        means the hand before was the middle after. The stock before a move
        is the stock now with the cards refreshes dealt since put back on top.
        """
        moves = state.moves
        hands = [h[:] for h in state.hands]
        stock = state.deck[:]
        decisions = []
        for k in range(len(moves) - 1, -1, -1):
            move = moves[k]
            seat, action = move.seat, move.action
            middle_after = list(moves[k + 1].middle) if k + 1 < len(moves) else state.middle
            stock = list(move.drawn) + stock
            hand_after = hands[seat]
            if action < SWAP_ALL:
                taken = move.middle[action % 3]
                given = next(c for c in middle_after if c not in move.middle)
                hands[seat] = sorted([c for c in hand_after if c != taken] + [given])
            elif action in (SWAP_ALL, TAKE_OTHER):
                hands[seat] = list(middle_after)
            if seat == viewer:
                continue
            past = self.copy_state(state)
            past.hands = [h[:] for h in hands]
            past.middle, past.public = list(move.middle), list(move.public)
            past.discards, past.knocker, past.passes, past.turns = move.discards, move.knocker, move.passes, move.turns
            past.deck = stock[:]
            past.moves = moves[:k]
            past.to_move = seat
            past.phase = CHOICE if action in (KEEP_LOT, TAKE_OTHER) else PLAY
            past.other_lot = (middle_after if action == KEEP_LOT else hand_after)[:] if past.phase == CHOICE else []
            decisions.append((past, action))
        return decisions[::-1]

    def round_key(self, state: SwimmingState) -> int:
        return state.round

    def round_loser(self, state: SwimmingState, seat: int) -> bool:
        """Whether ``seat`` was among the lowest (paid or sank) in the last showdown; a void round is no loss."""
        last = state.last
        return last is not None and last.reason != "void" and seat in last.losers

    def round_margin(self, state: SwimmingState, seat: int) -> float:
        """``seat``'s points in the last showdown minus the lowest other player's (Fire counts 33); 0 if void."""
        last = state.last
        if last is None or last.reason == "void" or seat not in last.scores:
            return 0.0
        others = [points for s, points in last.scores.items() if s != seat]
        return last.scores[seat] - min(others)

    # -- playing -----------------------------------------------------------
    def apply(self, state: SwimmingState, action: int, rng: np.random.Generator) -> list[float]:
        rewards = [0.0] * self.num_players
        me = state.to_move
        state.moves.append(
            RoundMove(
                me,
                action,
                tuple(state.middle),
                tuple(state.public),
                state.discards,
                state.knocker,
                state.passes,
                state.turns,
                len(state.deck),
            )
        )
        if state.phase == CHOICE:
            hand, other = state.hands[me], state.other_lot
            if action == KEEP_LOT:
                state.middle = other
            else:
                state.middle, state.hands[me] = hand, other
            state.other_lot = []
            state.phase = PLAY
            state.to_move = self.next_active(state, me)
            if any(score2(state.hands[s]) >= BINGO2 for s in range(self.num_players) if state.active[s]):
                self.showdown(state, rng, rewards, "bingo")
            return rewards
        hand, middle = state.hands[me], state.middle
        state.turns += 1
        if action < SWAP_ALL:
            i, j = divmod(action, 3)
            given, taken = hand[i], middle[j]
            hand[i], middle[j] = taken, given
            hand.sort()
            middle.sort()
            state.public[me] = (state.public[me] & ~(1 << given)) | (1 << taken)
            state.passes = 0
        elif action == SWAP_ALL:
            state.hands[me], state.middle = middle, hand
            state.public[me] = bits(middle)
            state.passes = 0
        elif action == PASS:
            state.passes += 1
        else:  # KNOCK
            state.knocker = me
            state.passes = 0
        if action <= SWAP_ALL and score2(state.hands[me]) >= BINGO2:
            self.showdown(state, rng, rewards, "bingo")
            return rewards
        if state.knocker < 0 and state.passes >= self.num_active(state):
            if len(state.deck) < 3:
                self.showdown(state, rng, rewards, "deck")
                return rewards
            state.discards |= bits(state.middle)
            state.middle = sorted(state.deck[:3])
            del state.deck[:3]
            state.moves[-1] = state.moves[-1]._replace(drawn=tuple(state.middle))
            state.passes = 0
        nxt = self.next_active(state, me)
        if nxt == state.knocker:
            self.showdown(state, rng, rewards, "knock")
            return rewards
        if state.knocker < 0 and state.turns >= self.max_round_turns:
            self.showdown(state, rng, rewards, "turn limit")
            return rewards
        state.to_move = nxt
        return rewards

    def showdown(self, state: SwimmingState, rng: np.random.Generator, rewards: list[float], reason: str) -> None:
        """Score the round, collect coins, sink swimmers; start the next round or end the game."""
        seats = [s for s in range(self.num_players) if state.active[s]]
        scores = {s: score2(state.hands[s]) for s in seats}
        fire = [s for s in seats if scores[s] == FIRE2]
        if fire:
            reason = "fire"
            losers = [s for s in seats if s != fire[0]]
        else:
            low = min(scores.values())
            losers = [s for s in seats if scores[s] == low]
        shown = {s: state.hands[s][:] for s in seats}
        points = {s: (FIRE_SCORE if v == FIRE2 else v / 2) for s, v in scores.items()}
        if len(losers) == len(seats) and all(state.coins[s] == 0 for s in seats):
            state.last = Showdown(shown, points, losers, [], [], "void")
            self.start_round(state, rng)  # replayed by the same dealer
            return
        paid, sunk = [], []
        for s in losers:
            if state.coins[s] > 0:
                state.coins[s] -= 1
                state.pot += 1
                rewards[s] -= 1.0
                paid.append(s)
            else:
                state.active[s] = False
                state.hands[s] = []
                sunk.append(s)
        state.last = Showdown(shown, points, losers, paid, sunk, reason)
        remaining = [s for s in seats if state.active[s]]
        if len(remaining) == 1:
            state.winner = remaining[0]
            rewards[state.winner] += float(state.pot)
            state.phase = OVER
            state.to_move = state.winner
            return
        state.dealer = self.next_active(state, state.dealer)
        self.start_round(state, rng)

    # -- names -------------------------------------------------------------
    def action_name(self, state: SwimmingState, action: int) -> str:
        if action < SWAP_ALL:
            i, j = divmod(action, 3)
            hand = state.hands[state.to_move] if state.hands else []
            if len(hand) == 3 and len(state.middle) == 3:
                return f"swap {card_name(hand[i])} for {card_name(state.middle[j])}"
            return f"swap hand#{i} for middle#{j}"
        return (
            ("swap all", "pass", "knock", "keep lot", "take other lot")[action - SWAP_ALL]
            if action < NUM_ACTIONS
            else str(action)
        )
