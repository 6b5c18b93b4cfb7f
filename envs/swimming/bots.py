"""Swimming's easy and medium bots.

Both read only what their seat may see. Easy reads its own hand and the
middle; medium decides from :func:`seat_view`, which extracts the seat's
information from the rules state (own hand, the middle, cards known to be in
other hands, cards put aside, coins, the knock, ...).

* easy: greedy. Takes the swap that raises its score most, else passes;
  knocks at 30 or more; as dealer keeps a lot worth 20 or more.
* medium: values a hand as its score plus the expected gain of one more swap
  with a card that can still come (cards neither seen in the middle nor known
  to be held). It takes Bingo or Fire at once; otherwise, for pass, knock,
  swap all and its best-valued swaps, it plays the round out many times from
  deals of the unseen cards consistent with its view (everyone greedy, as the
  easy bot) and picks the move that loses the round least often, so it
  knocks when a strong hand is unlikely to be lowest and avoids feeding the
  next player a Bingo. As dealer it keeps the lot worth more than an average
  unseen lot.

How strong they are: ``results/EVAL.md`` and ``results/2026-11-swimming-bots.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from envs.core.bots import Bot
from envs.swimming.rules import (
    BINGO2,
    CHOICE,
    FIRE2,
    KEEP_LOT,
    KNOCK,
    PASS,
    SCORE2,
    SWAP_ALL,
    TAKE_OTHER,
    SwimmingGame,
    SwimmingState,
    deal_unseen,
    score2,
)


@dataclass
class SeatView:
    """What one seat may know of the table."""

    seat: int
    hand: list[int]
    middle: list[int]
    known: dict[int, list[int]]  # other active seats -> their cards this seat may see
    unknown: list[int]  # cards this seat cannot place: other hands' hidden cards or the stock
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
    unknown, known = game.unseen_cards(state, seat)
    return SeatView(
        seat,
        state.hands[seat][:],
        state.middle[:],
        known,
        unknown,
        len(state.deck),
        state.coins[:],
        state.active[:],
        state.dealer,
        state.knocker,
        state.phase,
        state.turns,
        seat == state.to_move and game.knock_allowed(state),
    )


def after(hand: list[int], middle: list[int], action: int) -> list[int]:
    """The mover's hand after a swap action (or the same hand)."""
    if action < SWAP_ALL:
        i, j = divmod(action, 3)
        return [middle[j] if k == i else c for k, c in enumerate(hand)]
    if action == SWAP_ALL:
        return middle
    return hand


KNOCK_AT = 60  # the easy bot knocks at 30 points or more (half points)


def swap_scores(hand: list[int], middle: list[int], table: list = SCORE2) -> list:
    """Half-point score after each swap action 0..9: ``score2(after(hand, middle, a))``, written out because
    play-out searches call it millions of times a series. ``table``: another value of an ordered triple, indexed
    like ``SCORE2``."""
    a, b, c = hand
    x, y, z = middle
    bc, ac, ab = b << 5 | c, a << 5 | c, a << 5 | b
    t = table
    return [
        t[x << 10 | bc], t[y << 10 | bc], t[z << 10 | bc],
        t[ac << 5 | x], t[ac << 5 | y], t[ac << 5 | z],
        t[ab << 5 | x], t[ab << 5 | y], t[ab << 5 | z],
        t[x << 10 | y << 5 | z],
    ]  # fmt: skip


class EasyBot(Bot):
    """Greedy: the swap that raises the score most, knock at 30, keep a lot worth 20."""

    def choose(self, state: SwimmingState, mask: np.ndarray) -> int:
        # only its own hand and the middle: no full seat view (play-out searches call this thousands of times a move)
        hand = state.hands[state.to_move]
        if state.phase == CHOICE:
            return KEEP_LOT if score2(hand) >= 40 else TAKE_OTHER
        now = score2(hand)
        if mask[KNOCK] and now >= KNOCK_AT:
            return KNOCK
        actions, scores = [PASS, *range(SWAP_ALL + 1)], [now, *swap_scores(hand, state.middle)]
        return self.pick_best(actions, scores) if max(scores) > now else PASS


class MediumBot(Bot):
    """Plays out the rest of the round many times for each of its best-looking moves.

    The others' unseen cards and the stock are drawn from the cards this seat
    cannot place (its view only); everyone then plays greedily (the easy
    policy) to the end of the round. The move with the smallest share of
    rounds lost wins; equal shares go to the higher hand value.
    """

    samples = 24
    candidates = 5  # swaps tried besides pass, swap all and knock
    potential_weight = 0.6  # weight of the expected gain of one more swap, for ordering and ties
    rollout_turns = 40

    def choose(self, state: SwimmingState, mask: np.ndarray) -> int:
        v = seat_view(self.game, state, state.to_move)
        if v.phase == CHOICE:
            keep = self.value(v.hand, v.unknown)
            other = self.mean_random_value(v)
            return KEEP_LOT if keep >= other else TAKE_OTHER
        swaps = []
        for a in range(SWAP_ALL + 1):
            hand = after(v.hand, v.middle, a)
            sc = score2(hand)
            if sc >= BINGO2:
                return a  # Bingo or Fire ends the round at once
            swaps.append((self.value(hand, v.unknown), a))
        swaps.sort(reverse=True)
        actions = [PASS] + [a for _, a in swaps[: self.candidates]]
        if SWAP_ALL not in actions:
            actions.append(SWAP_ALL)
        if mask[KNOCK]:
            actions.append(KNOCK)
        values = {a: val for val, a in swaps}
        values[PASS] = values[KNOCK] = self.value(v.hand, v.unknown)
        deals = [self.determinize(v) for _ in range(self.samples)]
        scores = []
        for a in actions:
            lost = sum(self.rollout(v, a, hands, stock) for hands, stock in deals)
            scores.append(-lost + 0.001 * values[a] + (0.0005 if a == PASS else 0.0))
        return self.pick_best(actions, scores)

    def determinize(self, v: SeatView) -> tuple[dict[int, list[int]], list[int]]:
        """Others' hands (known cards plus drawn ones) and a stock, from the unseen cards."""
        hands, rest = deal_unseen(v.unknown, v.known, self.rng)
        hands[v.seat] = v.hand
        return hands, rest[: v.stock]

    def rollout(self, v: SeatView, action: int, hands: dict[int, list[int]], stock: list[int]) -> bool:
        """Play ``action`` then the round to its end, everyone greedy; True if this seat pays."""
        me = v.seat
        order = [s for s in range(len(v.active)) if v.active[s]]
        n_active = len(order)
        nxt = {order[i]: order[(i + 1) % n_active] for i in range(n_active)}
        hands = dict(hands)
        middle = v.middle
        knocker, passes, turns = v.knocker, 0, v.turns
        stock_at = 0
        p, a = me, action
        for _ in range(self.rollout_turns):
            hand = hands[p]
            if a is None:  # the greedy policy of the easy bot
                now = score2(hand)
                if knocker < 0 and now >= KNOCK_AT and (turns >= n_active or self.game.knock_first_round):
                    a = KNOCK
                else:
                    scores = swap_scores(hand, middle)
                    best = max(scores)
                    a = scores.index(best) if best > now else PASS
            turns += 1
            if a <= SWAP_ALL:
                new = after(hand, middle, a)
                if a == SWAP_ALL:
                    middle = hand
                else:
                    i, j = divmod(a, 3)
                    middle = [hand[i] if k == j else c for k, c in enumerate(middle)]
                hands[p] = new
                passes = 0
                if score2(new) >= BINGO2:
                    break
            elif a == PASS:
                passes += 1
                if knocker < 0 and passes >= n_active:
                    if len(stock) - stock_at < 3:
                        break
                    middle = stock[stock_at : stock_at + 3]
                    stock_at += 3
                    passes = 0
            else:
                knocker, passes = p, 0
            p, a = nxt[p], None
            if p == knocker:
                break
        scores = {s: score2(h) for s, h in hands.items()}
        if max(scores.values()) == FIRE2:
            return scores[me] != FIRE2
        return scores[me] == min(scores.values())

    def value(self, hand: list[int], unknown: list[int]) -> float:
        """Score plus the weighted mean gain of swapping in one card that can still come."""
        now = score2(hand)
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


BOTS = {"easy": EasyBot, "medium": MediumBot}
