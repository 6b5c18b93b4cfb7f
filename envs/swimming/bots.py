"""Swimming's easy and medium bots.

Both read only what their seat may see: :func:`seat_view` extracts it from
the rules state (own hand, the middle, cards known to be in other hands,
cards put aside, coins, the knock, ...) and the bots decide from that view.

* easy: greedy. Takes the swap that raises its score most, else passes;
  knocks at 30 or more; as dealer keeps a lot worth 20 or more.
* medium: values a hand as its score plus the expected gain of one more swap
  with a card that can still come (cards neither seen in the middle nor known
  to be held); it knocks when the chance of being lowest, estimated by sampling
  the others' unseen cards, is small; on the last turn after a knock it
  maximises its score; as dealer it keeps the lot worth more than an unseen one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from envs.core.bots import Bot
from envs.swimming.rules import (
    CHOICE, KEEP_LOT, KNOCK, NUM_CARDS, PASS, SCORE2, SWAP_ALL, TAKE_OTHER, SwimmingGame, SwimmingState, bits,
    cards_of,
)

ALL_CARDS = (1 << NUM_CARDS) - 1


@dataclass
class SeatView:
    """What one seat may know of the table."""

    seat: int
    hand: list[int]
    middle: list[int]
    known: dict[int, list[int]]   # other active seats -> their cards this seat may see
    unknown: list[int]            # cards this seat cannot place: other hands' hidden cards or the stock
    stock: int
    coins: list[int]
    active: list[bool]
    dealer: int
    knocker: int
    phase: int
    turns: int
    knock_allowed: bool


def seat_view(game: SwimmingGame, state: SwimmingState, seat: int) -> SeatView:
    """The information of ``seat`` only (no hidden cards of other players, no stock order)."""
    hand, middle = state.hands[seat][:], state.middle[:]
    seen = bits(hand) | bits(middle) | state.discards
    known = {}
    for s in range(game.num_players):
        if s != seat and state.active[s]:
            mask = game.visible_cards(state, seat, s)
            known[s] = cards_of(mask)
            seen |= mask
    return SeatView(seat, hand, middle, known, cards_of(ALL_CARDS & ~seen), len(state.deck), state.coins[:],
                    state.active[:], state.dealer, state.knocker, state.phase, state.turns,
                    seat == state.to_move and game.knock_allowed(state))


def after(hand: list[int], middle: list[int], action: int) -> list[int]:
    """The mover's hand after a swap action (or the same hand)."""
    if action < SWAP_ALL:
        i, j = divmod(action, 3)
        return [middle[j] if k == i else c for k, c in enumerate(hand)]
    if action == SWAP_ALL:
        return middle
    return hand


def s2(hand: list[int]) -> int:
    a, b, c = hand
    return SCORE2[a << 10 | b << 5 | c]


class EasyBot(Bot):
    """Greedy: the swap that raises the score most, knock at 30, keep a lot worth 20."""

    def choose(self, state: SwimmingState, mask: np.ndarray) -> int:
        v = seat_view(self.game, state, state.to_move)
        if v.phase == CHOICE:
            return KEEP_LOT if s2(v.hand) >= 40 else TAKE_OTHER
        now = s2(v.hand)
        if mask[KNOCK] and now >= 60:
            return KNOCK
        actions, scores = [PASS], [now]
        for a in range(SWAP_ALL + 1):
            actions.append(a)
            scores.append(s2(after(v.hand, v.middle, a)))
        return self.pick_best(actions, scores) if max(scores) > now else PASS


class MediumBot(Bot):
    """Hand value against what can still come; knocks when unlikely to be lowest."""

    samples = 40
    potential_weight = 0.6
    knock_risk = 0.12

    def choose(self, state: SwimmingState, mask: np.ndarray) -> int:
        v = seat_view(self.game, state, state.to_move)
        if v.phase == CHOICE:
            keep = self.value(v.hand, v.unknown)
            other = self.mean_random_value(v)
            return KEEP_LOT if keep >= other else TAKE_OTHER
        now = s2(v.hand)
        if v.knocker >= 0:  # my last turn: the highest score now
            actions, scores = [PASS], [now + 0.5]  # prefer passing on equal scores
            for a in range(SWAP_ALL + 1):
                actions.append(a)
                scores.append(s2(after(v.hand, v.middle, a)))
            return self.pick_best(actions, scores)
        if mask[KNOCK] and self.lowest_risk(v, v.hand) < self.knock_risk:
            return KNOCK
        actions, scores = [PASS], [self.value(v.hand, v.unknown)]
        for a in range(SWAP_ALL + 1):
            hand = after(v.hand, v.middle, a)
            if s2(hand) >= 62:
                return a  # Bingo or Fire
            actions.append(a)
            scores.append(self.value(hand, v.unknown) - 0.01)  # pass on equal value
        return self.pick_best(actions, scores)

    def value(self, hand: list[int], unknown: list[int]) -> float:
        """Score plus the weighted mean gain of swapping in one card that can still come."""
        now = s2(hand)
        if not unknown:
            return float(now)
        a, b, c = hand
        gain = 0
        for u in unknown:
            best = max(SCORE2[u << 10 | b << 5 | c], SCORE2[a << 10 | u << 5 | c], SCORE2[a << 10 | b << 5 | u])
            if best > now:
                gain += best - now
        return now + self.potential_weight * gain / len(unknown)

    def mean_random_value(self, v: SeatView) -> float:
        """Mean value of a lot of three drawn from the cards the dealer has not seen."""
        pool = np.array(v.unknown)
        total = 0.0
        for _ in range(self.samples):
            lot = self.rng.choice(pool, 3, replace=False).tolist()
            total += self.value(lot, v.unknown)
        return total / self.samples

    def lowest_risk(self, v: SeatView, hand: list[int]) -> float:
        """Estimated chance that ``hand`` is (tied) lowest after everyone else's last turn.

        Each other player's unseen cards are drawn from the cards that can
        still be anywhere; it is then improved once for every turn it has had
        this round (the best swap with three drawn cards) and finally with
        the best swap with the middle as it is now.
        """
        mine = s2(hand)
        pool = v.unknown
        others = list(v.known.items())
        need = sum(3 - len(k) for _, k in others)
        if need + 3 > len(pool):
            return 1.0
        n_active = sum(v.active)
        rounds_played = v.turns // n_active
        lowest = 0
        for _ in range(self.samples):
            draw = [pool[i] for i in self.rng.permutation(len(pool))]
            k = 0
            low = True
            for _, cards in others:
                h = cards + draw[k:k + 3 - len(cards)]
                k += 3 - len(cards)
                for _ in range(rounds_played):
                    start = int(self.rng.integers(len(draw) - 2))
                    h = best_swap(h, draw[start:start + 3])
                h = best_swap(h, v.middle)
                if s2(h) < mine:  # someone below me: I do not pay
                    low = False
                    break
            lowest += low
        return lowest / self.samples


def best_swap(hand: list[int], middle: list[int]) -> list[int]:
    """The highest-scoring hand reachable by keeping, swapping one or swapping all."""
    best, best_score = hand, s2(hand)
    for a in range(SWAP_ALL + 1):
        h = after(hand, middle, a)
        sc = s2(h)
        if sc > best_score:
            best, best_score = h, sc
    return best


BOTS = {"easy": EasyBot, "medium": MediumBot}
