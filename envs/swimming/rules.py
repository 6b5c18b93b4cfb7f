"""Swimming's rules (Schwimmen / Schnauz / 31); the env docstring has them in words.

Cards are ints ``suit*8 + rank`` (suits Diamonds, Hearts, Spades, Clubs; ranks
7, 8, 9, 10, J, Q, K, A). Hands and the middle are sorted lists of three
cards, so "hand card i" and "middle card j" of an action are in ascending card
order. Scores are kept in half points (``score2``): 62 = 31 (Bingo),
61 = 30.5 (three of a kind), 64 = Fire (three aces, above everything).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from envs.core.game import Game, RuleError
from envs.core.notation import HIDDEN, Fields, PositionError, one_line
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
                action = 3 * hands[seat].index(given) + action % 3  # the swap as this hand would name it
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

    def fresh_chance(self, state: SwimmingState, rng: np.random.Generator) -> SwimmingState:
        """The stock shuffled again from ``rng`` (in place): the one part of a deal nobody has seen that decides
        the future (the next middles). Hands and the dealer's unseen lot stay: they are dealt already. The next
        round's deal comes from the env's generator, which a clone draws afresh."""
        state.deck = [state.deck[k] for k in rng.permutation(len(state.deck))]
        return state

    # -- positions: the notation (at the end of this module; the env docstring lists the fields) ------------
    def to_text(self, state: SwimmingState, seat: int | None = None) -> str:
        """``hands middle lot stock discards coins pot dealer to-move phase knocker passes turns round last
        moves``: the whole deal, or ``seat``'s view with ``?`` for each card it has not seen."""
        return position_text(self, state, seat)

    def from_text(self, text: str, rng: np.random.Generator | None = None) -> SwimmingState:
        """The position ``text`` fixes; in a seat's view the ``?`` cards are dealt from ``rng`` among the cards
        the text does not place, as :meth:`determinize` deals them."""
        return read_position(self, text, rng)

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


# -- the position notation ------------------------------------------------------------------------------
# One line of 16 fields, the whole deal or one seat's view of it (the env docstring, the game's docs page, says
# what each holds): ``hands middle lot stock discards coins pot dealer to-move phase knocker passes turns round
# last moves``. Cards are written as the table shows them (``7D``, ``10H``, ``AS``) run together (``7D10HAS``): a
# card ends with its suit letter, so no separator is needed; ``?`` is a card the viewer has not seen, ``-`` none.
LABELS = (
    "hands",
    "middle",
    "lot",
    "stock",
    "discards",
    "coins",
    "pot",
    "dealer",
    "to-move",
    "phase",
    "knocker",
    "passes",
    "turns",
    "round",
    "last",
    "moves",
)
PHASES = ("choice", "play", "over")
REASONS = ("bingo", "fire", "knock", "deck", "turn limit", "void")
REASON_WORDS = tuple(r.replace(" ", "-") for r in REASONS)  # one word each in the text
KNOWN = "*"  # before a card everyone knows is in that hand (taken from the middle)
OUT = "-"  # a seat that has sunk, an empty list, no knocker, no showdown yet
VERBS = {"keep": KEEP_LOT, "take": TAKE_OTHER, "swap": 0, "all": SWAP_ALL, "pass": PASS, "knock": KNOCK}
TOKEN = re.compile(r"(\d)(keep|take|swap|all|pass|knock)(?::(.*))?$")
NO_DRAW = -1  # the first round's dealer draw is not part of a position


def cards_text(cards, known: int = 0) -> str:
    """Cards run together (``7D10HAS``), each one in ``known`` marked ``*``; ``-`` for none."""
    return "".join(KNOWN * (known >> c & 1) + card_name(c) for c in cards) or OUT


def read_cards(fields: Fields, label: str, text: str, marks: bool = False) -> list[tuple[int | None, bool]]:
    """(card or None for ``?``, marked known) of each card in ``text`` (``-`` for none), part of field ``label``."""
    if text == OUT:
        return []
    out, k = [], 0
    while k < len(text):
        marked = text[k] == KNOWN
        k += marked
        if marked and not marks:
            raise fields.error(label, f"{KNOWN} marks a card everyone knows in a hand; it is not allowed here")
        if text[k : k + 1] == HIDDEN:
            if marked:
                raise fields.error(label, f"a hidden card {HIDDEN} cannot be marked {KNOWN} (known)")
            out.append((None, False))
            k += 1
            continue
        rank = text[k : k + 2] if text[k : k + 2] == "10" else text[k : k + 1]
        suit = text[k + len(rank) : k + len(rank) + 1]
        if rank not in RANKS or not suit or suit not in SUITS:
            raise fields.error(
                label,
                f"bad card at {text[k:]!r}: a card is a rank ({' '.join(RANKS)}) then a suit ({' '.join(SUITS)}), "
                f"or {HIDDEN} for one not seen",
            )
        out.append((SUITS.index(suit) * 8 + RANKS.index(rank), marked))
        k += len(rank) + 1
    return out


# -- writing ------------------------------------------------------------------------------
def position_text(game: SwimmingGame, state: SwimmingState, seat: int | None = None) -> str:
    """The notation of ``state``: the whole of it, or ``seat``'s view (``?`` for each card it has not seen)."""
    view = seat is not None
    hands = "/".join(_hand_text(game, state, s, seat) for s in range(game.num_players))
    hidden = [HIDDEN * len(state.other_lot), HIDDEN * len(state.deck)]
    lot, stock = (x or OUT for x in hidden) if view else (cards_text(state.other_lot), cards_text(state.deck))
    return " ".join(
        (
            hands,
            cards_text(state.middle),
            lot,
            stock,
            cards_text(cards_of(state.discards)),
            ",".join(map(str, state.coins)),
            str(state.pot),
            str(state.dealer),
            str(state.to_move),
            PHASES[state.phase],
            OUT if state.knocker < 0 else str(state.knocker),
            str(state.passes),
            str(state.turns),
            str(state.round),
            _last_text(game, state.last),
            _moves_text(state),
        )
    )


def _hand_text(game: SwimmingGame, state: SwimmingState, seat: int, viewer: int | None) -> str:
    """One seat's hand: its cards, ``*`` before those everyone knows; in a view, ``?`` for those not seen."""
    if not state.active[seat]:
        return OUT
    hand, known = state.hands[seat], state.public[seat]
    if viewer is None or state.phase == OVER:  # the final showdown laid every hand open
        return cards_text(hand, known)
    seen = game.visible_cards(state, viewer, seat)
    shown = [c for c in hand if seen >> c & 1]
    return (cards_text(shown, known) if shown else "") + HIDDEN * (len(hand) - len(shown))


def _last_text(game: SwimmingGame, last: Showdown | None) -> str:
    """``reason:hands`` of the last showdown (every hand face up, ``-`` for a seat not in it), or ``-``."""
    if last is None:
        return OUT
    hands = "/".join(cards_text(last.hands[s]) if s in last.hands else OUT for s in range(game.num_players))
    return f"{last.reason.replace(' ', '-')}:{hands}"


def _moves_text(state: SwimmingState) -> str:
    """The round's moves as the table saw them (see the docs), or ``-`` when none or not from the deal."""
    moves = state.moves
    if not moves or moves[0].action not in (KEEP_LOT, TAKE_OTHER):
        return OUT
    tokens = []
    for k, move in enumerate(moves):
        after = list(moves[k + 1].middle) if k + 1 < len(moves) else state.middle
        seat, action = move.seat, move.action
        if action < SWAP_ALL:
            taken = move.middle[action % 3]
            given = next(c for c in after if c not in move.middle)
            tokens.append(f"{seat}swap:{card_name(given)}>{card_name(taken)}")
        elif action in (KEEP_LOT, TAKE_OTHER, SWAP_ALL):
            verb = {KEEP_LOT: "keep", TAKE_OTHER: "take", SWAP_ALL: "all"}[action]
            tokens.append(f"{seat}{verb}:{cards_text(after)}")
        elif action == PASS:
            tokens.append(f"{seat}pass" + (f":{cards_text(move.drawn)}" if move.drawn else ""))
        else:
            tokens.append(f"{seat}knock")
    return ",".join(tokens)


# -- reading ------------------------------------------------------------------------------
def read_position(game: SwimmingGame, text: str, rng: np.random.Generator | None = None) -> SwimmingState:
    """The position ``text`` fixes (a seat's view: the ``?`` cards dealt from ``rng``); bad texts raise."""
    fields = Fields(game.name, one_line(game.name, text), LABELS)
    n = game.num_players
    phase = fields.choice("phase", PHASES)
    hands, active = _read_hands(game, fields, phase)
    state = SwimmingState(coins=_read_coins(game, fields, active), active=active)
    state.pot = fields.int("pot", 0, n * game.start_coins)
    if sum(state.coins) + state.pot != n * game.start_coins:
        raise fields.error(
            "pot", f"coins and pot hold {sum(state.coins) + state.pot}; the table has {n * game.start_coins}"
        )
    state.phase = phase
    _read_seats(game, fields, state)
    middle = [c for c, _ in read_cards(fields, "middle", fields["middle"])]
    lot = read_cards(fields, "lot", fields["lot"])
    stock = read_cards(fields, "stock", fields["stock"])
    discards = [c for c, _ in read_cards(fields, "discards", fields["discards"])]
    if None in middle or None in discards:
        raise fields.error("middle" if None in middle else "discards", f"these cards are face up: no {HIDDEN}")
    state.middle, state.discards = sorted(middle), bits(discards)
    _check_layout(game, fields, state, hands, lot)
    state.last = _read_last(game, fields, state)
    _deal(game, fields, state, hands, lot, stock, rng)
    state.moves = _read_moves(game, fields, state)
    state.winner = state.to_move if phase == OVER else -1
    state.draw_cards = [NO_DRAW] * n
    return state


def _read_hands(game: SwimmingGame, fields: Fields, phase: int) -> tuple[list[list], list[bool]]:
    """Every seat's hand as (card or None, known) pairs, and which seats are in the game."""
    n = game.num_players
    parts = fields["hands"].split("/")
    if len(parts) != n:
        raise fields.error("hands", f"expected {n} hands separated by '/', got {len(parts)}")
    hands = [read_cards(fields, "hands", part, marks=True) if part != OUT else [] for part in parts]
    active = [part != OUT for part in parts]
    for seat, hand in enumerate(hands):
        if active[seat] and len(hand) != 3:
            raise fields.error("hands", f"player_{seat} holds {len(hand)} cards; a hand is 3 cards (or - if sunk)")
        if phase == CHOICE and any(known for _, known in hand):
            raise fields.error("hands", f"no card is known ({KNOWN}) before the dealer has chosen a lot")
    if phase == OVER and sum(active) != 1:
        raise fields.error("hands", f"the game is over when one player is left, not {sum(active)}")
    if phase != OVER and sum(active) < 2:
        raise fields.error("hands", "a round needs two players in the game; with one left the game is over")
    return hands, active


def _read_coins(game: SwimmingGame, fields: Fields, active: list[bool]) -> list[int]:
    coins = fields.ints("coins", game.num_players, 0, game.start_coins)
    for seat, (have, playing) in enumerate(zip(coins, active)):
        if have and not playing:
            raise fields.error("coins", f"player_{seat} has sunk (hand -), so has no coins left, not {have}")
    return coins


def _read_seats(game: SwimmingGame, fields: Fields, state: SwimmingState) -> None:
    """Dealer, seat to move, knocker and the counters, checked against the phase and the seats in the game."""
    n, phase, active = game.num_players, state.phase, state.active
    state.dealer = fields.int("dealer", 0, n - 1)
    state.to_move = fields.int("to-move", 0, n - 1)
    if phase != OVER and not active[state.dealer]:
        raise fields.error("dealer", f"player_{state.dealer} has sunk and cannot deal")
    if not active[state.to_move]:
        raise fields.error(
            "to-move", f"player_{state.to_move} has sunk" + (", so has not won" if phase == OVER else "")
        )
    if phase == CHOICE and state.to_move != state.dealer:
        raise fields.error("to-move", f"during the dealer's choice the dealer, player_{state.dealer}, is to move")
    knocker = fields["knocker"]
    state.knocker = -1 if knocker == OUT else fields.int("knocker", 0, n - 1)
    if state.knocker >= 0 and phase != OVER and (phase == CHOICE or not active[state.knocker]):
        raise fields.error("knocker", "only a player in the game can have knocked, and not before play")
    playing = sum(active)
    state.passes = fields.int("passes", 0, n)
    state.turns = fields.int("turns", 0, game.max_round_turns)
    state.round = fields.int("round", 1, 10**9)
    if phase == PLAY and state.passes >= playing:
        raise fields.error("passes", f"{playing} passes in a row refresh the middle, so at most {playing - 1}")
    if phase == CHOICE and (state.passes or state.turns):
        raise fields.error("passes" if state.passes else "turns", "nobody has played before the dealer's choice")
    if phase == PLAY and state.knocker >= 0 and state.knocker == state.to_move:
        raise fields.error("knocker", "the round ended when play came back to the knocker")


def _check_layout(game: SwimmingGame, fields: Fields, state: SwimmingState, hands: list, lot: list) -> None:
    """The middle and the dealer's other lot are where the phase has them; no hand in play holds 31 or Fire."""
    choice = state.phase == CHOICE
    if len(state.middle) != (0 if choice else 3):
        raise fields.error("middle", "the middle is - during the dealer's choice, then 3 cards")
    if len(lot) != (3 if choice else 0):
        raise fields.error("lot", "the dealer's other lot is 3 cards during his choice, then -")
    if state.phase == PLAY:
        for seat, hand in enumerate(hands):
            cards = [c for c, _ in hand]
            if len(cards) == 3 and None not in cards and score2(cards) >= BINGO2:
                raise fields.error("hands", f"player_{seat} holds 31 or Fire in play, which ends the round at once")


def _read_last(game: SwimmingGame, fields: Fields, state: SwimmingState) -> Showdown | None:
    """The last showdown (``reason:hands``): losers, payers and the sunk follow from the hands and who is left."""
    text = fields["last"]
    if text == OUT:
        return None
    reason, _, hands_text = text.partition(":")
    if reason not in REASON_WORDS:
        raise fields.error("last", f"a showdown is reason:hands, the reason one of {', '.join(REASON_WORDS)}")
    if state.round == 1:
        raise fields.error("last", "there is no showdown before round 1's")
    parts = hands_text.split("/")
    if len(parts) != game.num_players:
        raise fields.error("last", f"expected {game.num_players} hands separated by '/', got {len(parts)}")
    hands = {s: sorted(c for c, _ in read_cards(fields, "last", p)) for s, p in enumerate(parts) if p != OUT}
    if any(len(h) != 3 or None in h for h in hands.values()) or len({c for h in hands.values() for c in h}) != 3 * len(
        hands
    ):
        raise fields.error("last", "every hand shown is 3 different cards, all face up")
    scores = {s: score2(h) for s, h in hands.items()}
    fire = [s for s in hands if scores[s] == FIRE2]
    losers = [s for s in hands if s != fire[0]] if fire else [s for s in hands if scores[s] == min(scores.values())]
    reason = REASONS[REASON_WORDS.index(reason)]
    left = [s for s in range(game.num_players) if state.active[s]]
    gone = [s for s in hands if not state.active[s]]
    if (reason == "fire") != bool(fire) or not set(left) <= set(hands) or not set(gone) <= set(losers):
        raise fields.error("last", "these hands do not give this showdown and the players left (fire, who sank)")
    points = {s: FIRE_SCORE if v == FIRE2 else v / 2 for s, v in scores.items()}
    if reason == "void":
        if gone or len(losers) != len(hands):
            raise fields.error("last", "a void showdown is one where every player left tied, and nobody sank")
        return Showdown(hands, points, losers, [], [], reason)
    return Showdown(hands, points, losers, [s for s in losers if state.active[s]], gone, reason)


def _deal(game, fields: Fields, state: SwimmingState, hands: list, lot: list, stock: list, rng) -> None:
    """Place every card, each once; a view's ``?`` cards are dealt from what is left (as ``determinize`` does)."""
    places = [("hands", [c for h in hands for c, _ in h]), ("middle", state.middle), ("lot", [c for c, _ in lot])]
    places += [("stock", [c for c, _ in stock]), ("discards", cards_of(state.discards))]
    if state.phase == OVER and state.last is not None:  # the sunk players' cards, shown at the final showdown
        places.append(("last", [c for s, h in state.last.hands.items() if not state.active[s] for c in h]))
    seen, hidden = 0, 0
    for label, cards in places:
        for card in cards:
            if card is None:
                hidden += 1
            elif seen >> card & 1:
                raise fields.error(label, f"{card_name(card)} is written twice; there is one of each card")
            else:
                seen |= 1 << card
    missing = cards_of(ALL_CARDS & ~seen)
    if len(missing) != hidden:
        where = "" if hidden == 0 else f" for {hidden} cards written {HIDDEN}"
        raise fields.error("stock", f"{len(missing)} of the {NUM_CARDS} cards are not placed{where}")
    if hidden and rng is None:
        raise PositionError(f"{game.name}: a seat's view ({HIDDEN} cards) needs a generator to deal the hidden cards")
    known = {s: [c for c, _ in h if c is not None] for s, h in enumerate(hands) if h}
    dealt, rest = deal_unseen(missing, known, rng) if hidden else (known, [])
    state.hands = [sorted(dealt[s]) if s in dealt else [] for s in range(game.num_players)]
    state.public = [bits(c for c, k in h if k) for h in hands]
    pool = iter(rest)
    state.other_lot = sorted(c if c is not None else next(pool) for c, _ in lot)
    state.deck = [c if c is not None else next(pool) for c, _ in stock]


def _read_moves(game: SwimmingGame, fields: Fields, state: SwimmingState) -> list[RoundMove]:
    """The round's record, replayed from the deal on what the table saw; it must end in this position."""
    text = fields["moves"]
    if text == OUT:
        return []
    n = game.num_players
    over = state.phase == OVER and state.last is not None
    active = [s in state.last.hands for s in range(n)] if over else state.active  # who played the round
    table = SwimmingState(coins=state.coins, active=active, public=[0] * n, to_move=state.dealer)
    table.deck = [0] * (NUM_CARDS - 3 * sum(active) - 3)  # only its size matters here
    records = []
    for token in text.split(","):
        match = TOKEN.match(token)
        if not match or (match[2] in ("keep", "take", "all") and match[3] is None):
            raise fields.error(
                "moves", f"bad move {token!r}: a seat then keep:, take:, swap:, all:, pass or knock (see the docs)"
            )
        seat, verb, cards = int(match[1]), match[2], match[3]
        if seat != table.to_move or (verb in ("keep", "take")) != (table.phase == CHOICE):
            raise fields.error("moves", f"{token!r} is not a move player_{table.to_move} can make here")
        records.append(_replay(game, fields, table, seat, verb, cards))
    ends = ("middle", "discards", "knocker", "passes", "turns")
    if state.phase != OVER:  # the record's last move of a finished game ended the round: nobody moves after it
        ends += ("phase", "to_move")
    wrong = [name for name in ends if getattr(table, name) != getattr(state, name)]
    if any(table.public[s] != state.public[s] for s in range(n) if state.active[s]):
        wrong.append("known cards")
    state.public = table.public  # with the cards known in the hands of those who sank at the end
    if len(table.deck) != len(state.deck):
        wrong.append("stock size")
    if wrong:
        raise fields.error("moves", f"these moves do not lead to this position ({', '.join(wrong)} differ)")
    hands = [h[:] for h in state.hands]
    if state.phase == OVER and state.last is not None:  # the sunk players' last hands, for the walk back
        for seat, hand in state.last.hands.items():
            hands[seat] = hand[:]
    return _swap_indices(fields, state.middle, hands, records)


def _replay(game, fields: Fields, table: SwimmingState, seat: int, verb: str, cards: str | None) -> RoundMove:
    """Play one move of the record on ``table`` (public cards only) and return its record."""
    record = RoundMove(
        seat,
        VERBS[verb],
        tuple(table.middle),
        tuple(table.public),
        table.discards,
        table.knocker,
        table.passes,
        table.turns,
        len(table.deck),
    )
    if table.phase == OVER:
        raise fields.error("moves", f"{seat}{verb}: the stock had run out, so the round was over")
    shown = [c for c, _ in read_cards(fields, "moves", cards)] if cards and verb != "swap" else []
    if verb in ("keep", "take", "all") and (len(shown) != 3 or None in shown):
        raise fields.error("moves", f"{seat}{verb}: the three cards laid in the middle, face up")
    playing = sum(table.active)
    if verb in ("keep", "take"):
        table.middle, table.phase = sorted(shown), PLAY
    elif verb == "swap":
        given, taken = _swap_cards(fields, table, seat, cards)
        table.middle = sorted([c for c in table.middle if c != taken] + [given])
        table.public[seat] = (table.public[seat] & ~(1 << given)) | (1 << taken)
    elif verb == "all":
        table.public[seat], table.middle = bits(table.middle), sorted(shown)
    elif verb == "knock":
        if not game.knock_allowed(table):
            raise fields.error("moves", f"{seat}knock: knocking is not allowed there")
        table.knocker = seat
    if verb != "keep" and verb != "take":
        table.turns += 1
        table.passes = table.passes + 1 if verb == "pass" else 0
    due = verb == "pass" and table.knocker < 0 and table.passes >= playing
    out = due and len(table.deck) < 3  # no stock left to refresh the middle: the round ended in a showdown
    if (due and not out) != bool(verb == "pass" and cards) or (due and not out and len(shown) != 3):
        raise fields.error(
            "moves", f"{seat}pass: after {playing} passes in a row (and a stock left), and only then, 3 cards are drawn"
        )
    if out:
        table.phase = OVER
    elif due:
        table.discards |= bits(table.middle)
        table.middle, table.passes = sorted(shown), 0
        del table.deck[:3]
        record = record._replace(drawn=tuple(table.middle))
    table.to_move = game.next_active(table, seat)
    return record


def _swap_cards(fields: Fields, table: SwimmingState, seat: int, cards: str | None) -> tuple[int, int]:
    """(card given, card taken) of ``swap:GIVEN>TAKEN``, the taken one in the middle, the given one not."""
    parts = (cards or "").split(">")
    read = [read_cards(fields, "moves", p) for p in parts] if len(parts) == 2 else []
    if len(read) != 2 or [len(r) for r in read] != [1, 1] or None in (read[0][0][0], read[1][0][0]):
        raise fields.error("moves", f"{seat}swap:{cards}: a swap is swap:GIVEN>TAKEN, e.g. swap:7D>AS")
    given, taken = read[0][0][0], read[1][0][0]
    if taken not in table.middle or given in table.middle:
        raise fields.error("moves", f"{seat}swap:{cards}: {card_name(taken)} is not in the middle to take")
    return given, taken


def _swap_indices(fields: Fields, middle: list[int], hands: list[list[int]], records: list[RoundMove]) -> list:
    """The records with each swap's action (hand card i, middle card j), walking ``hands`` back from now."""
    for k in range(len(records) - 1, -1, -1):
        move = records[k]
        after = list(records[k + 1].middle) if k + 1 < len(records) else middle
        hand = hands[move.seat]
        if move.action < SWAP_ALL:
            given = next(c for c in after if c not in move.middle)
            taken = next(c for c in move.middle if c not in after)
            if taken not in hand:
                raise fields.error("moves", f"player_{move.seat} took {card_name(taken)} but does not hold it")
            hands[move.seat] = sorted([c for c in hand if c != taken] + [given])
            action = 3 * hands[move.seat].index(given) + move.middle.index(taken)
            records[k] = move._replace(action=action)
        elif move.action == SWAP_ALL or move.action == TAKE_OTHER:
            if move.action == SWAP_ALL and sorted(hand) != list(move.middle):
                raise fields.error("moves", f"player_{move.seat} swapped all but does not hold the middle taken")
            hands[move.seat] = list(after)
    return records
