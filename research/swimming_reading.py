"""How much Swimming players' moves tell about the cards they hide.

Games of four mediums are played. At each move of seat 0, every other
player who holds hidden cards and has moved this round is looked at: its
true hidden cards are planted among ``--guesses`` random guesses of them,
drawn from the cards seat 0 cannot place. Each guess is weighed by the
probability of that player's moves this round were the guess true
(the rules' ``past_decisions`` rebuild the states it moved in), under two
models of the player:

* ``network``: the network of the shipped hard policy (the model its
  search weighs deals by);
* ``medium``: the medium bot itself, the players' own policy (its move
  frequencies over ``--tries`` calls; medium samples deals, so it is not
  deterministic).

Printed per model and weight power: the mean weight on the random guesses
that hold each true hidden card (``placed``; the unweighed share is about
10%, being told the hands 100%), and the share of random guesses more
likely than the truth (``rank``; 50% says nothing)::

    python -m research.swimming_reading --positions 100 --seed 700   (and --seed 900)

The figures of both runs: ``results/2026-11-swimming-reading.md``.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import numpy as np

from envs.play import play_game
from envs.swimming.bots import MediumBot
from envs.swimming.rules import CHOICE, SwimmingGame, SwimmingState
from policies import load
from policies.evaluation import progress_printer
from policies.numpy_policy import masked_log_softmax

POWERS = (0.5, 1.0, 2.0)
# a model of a player: (the state it moved in, its legal moves, its move) -> log probability of the move
MoveModel = Callable[[SwimmingState, np.ndarray, int], float]


def network_model(search: Any) -> MoveModel:
    """The log probability of a move under the network of the hard policy ``search``."""

    def log_prob(state: SwimmingState, mask: np.ndarray, action: int) -> float:
        observation = search.observe(search.game, state, state.to_move)
        return float(masked_log_softmax(search.policy.logits(observation[None]), mask[None])[0, action])

    return log_prob


def bot_model(bot: MediumBot, tries: int) -> MoveModel:
    """The log frequency of a move among ``tries`` choices of ``bot``, smoothed by half a try per legal move."""

    def log_prob(state: SwimmingState, mask: np.ndarray, action: int) -> float:
        hits = sum(bot.choose(state, mask) == action for _ in range(tries))
        return float(np.log((hits + 0.5) / (tries + 0.5 * mask.sum())))

    return log_prob


def guess_log_likelihoods(
    rules: SwimmingGame, deal: SwimmingState, viewer: int, seat: int, guesses: list[tuple[int, ...]], model: MoveModel
) -> np.ndarray:
    """Per guess of ``seat``'s hidden cards: the log probability of its moves this round, were the guess true.

    ``deal`` is a deal from ``viewer``'s view (``rules.determinize``); its
    hidden cards for ``seat`` are swapped for each guess in every past state
    that holds them (hidden cards stay in the hand from the deal or a
    blind lot on, so a past hand holds all of them or none).
    """
    _, known = rules.unseen_cards(deal, viewer)
    dealt = [c for c in deal.hands[seat] if c not in known[seat]]
    moves = [(past, action) for past, action in rules.past_decisions(deal, viewer) if past.to_move == seat]
    out = np.zeros(len(guesses))
    for past, action in moves:
        mask = rules.legal_mask(past)
        held = [c for c in past.hands[seat] if c not in dealt]
        for k, guess in enumerate(guesses):
            state = rules.copy_state(past)
            if len(held) < len(past.hands[seat]):
                state.hands[seat] = sorted(held + list(guess))
            out[k] += model(state, mask, action)
    return out


def placed_share(log_likelihoods: np.ndarray, guesses: list[tuple[int, ...]], card: int, power: float) -> float:
    """The weight (likelihood ** power, normalised) of the guesses that hold ``card``."""
    weights = np.exp(power * (log_likelihoods - log_likelihoods.max()))
    return float(weights[[card in guess for guess in guesses]].sum() / weights.sum())


class Reader:
    """Seat 0: plays as medium and, at each of its moves, measures how well each model reads the others."""

    def __init__(
        self,
        rules: SwimmingGame,
        models: dict[str, MoveModel],
        guesses: int,
        rng: np.random.Generator,
        positions: int,
        seed: int,
    ) -> None:
        self.rules, self.models, self.guesses, self.rng = rules, models, guesses, rng
        self.player = MediumBot(rules, seed=seed)
        self.left = positions
        self.placed: dict[tuple[str, float], list[float]] = defaultdict(list)
        self.ranks: dict[str, list[float]] = defaultdict(list)

    def reset(self, seed: int | None = None) -> None:
        self.player.reset(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: SwimmingState) -> int:
        if state.phase != CHOICE and self.left > 0:
            self.measure(state, state.to_move)
        return self.player.act(observation, action_mask, state)

    def measure(self, state: SwimmingState, me: int) -> None:
        rules = self.rules
        unknown, known = rules.unseen_cards(state, me)
        deal = rules.determinize(state, me, self.rng)
        movers = {past.to_move for past, _ in rules.past_decisions(deal, me)}
        for seat, seen in known.items():
            hidden = [c for c in state.hands[seat] if c not in seen]
            if not hidden or seat not in movers:
                continue
            self.left -= 1
            guesses = [tuple(hidden)] + [
                tuple(int(c) for c in self.rng.choice(unknown, len(hidden), replace=False)) for _ in range(self.guesses)
            ]
            for name, model in self.models.items():
                log_likelihoods = guess_log_likelihoods(rules, deal, me, seat, guesses, model)
                truth, drawn = log_likelihoods[0], log_likelihoods[1:]
                self.ranks[name].append(float((drawn > truth).mean()))
                for power in POWERS:
                    self.placed[name, power] += [placed_share(drawn, guesses[1:], c, power) for c in hidden]
            self.placed["uniform", 0.0] += [float(np.mean([c in g for g in guesses[1:]])) for c in hidden]
            if self.left == 0:
                return


def run(
    positions: int, seed: int = 700, guesses: int = 120, tries: int = 4, progress: Callable[[int], None] | None = None
) -> Reader:
    """Games of four mediums (4 players) until ``positions`` (a player seen at a move of seat 0) are measured."""
    search = load("swimming", "hard", num_players=4)
    rules = search.game
    models = {"network": network_model(search), "medium": bot_model(MediumBot(rules, seed=seed + 1), tries)}
    reader = Reader(rules, models, guesses, np.random.default_rng(seed), positions, seed)
    shown = None if progress is None else lambda: progress(positions - reader.left)
    against_mediums(reader, rules, seed, done=lambda: reader.left <= 0, after_game=shown)
    return reader


def against_mediums(
    player: Any,
    rules: SwimmingGame,
    seed: int,
    done: Callable[[], bool],
    after_game: Callable[[], None] | None = None,
) -> None:
    """Seeded 4-player games of ``player`` (seat 0) against three mediums until ``done()``: game k is seeded
    ``seed + k``, its mediums ``seed + 10 + 4k + j``."""
    game = 0
    while not done():
        others = [MediumBot(rules, seed=seed + 10 + 4 * game + k) for k in range(3)]
        play_game("swimming", [player, *others], seed=seed + game, num_players=4)
        game += 1
        if after_game is not None:
            after_game()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=700)
    parser.add_argument("--guesses", type=int, default=120, help="random guesses of a player's hidden cards")
    parser.add_argument("--tries", type=int, default=4, help="calls of the medium bot per move and guess")
    args = parser.parse_args(argv)
    if min(args.positions, args.guesses, args.tries) < 1:
        parser.error("--positions, --guesses and --tries must be >= 1")

    reader = run(args.positions, args.seed, args.guesses, args.tries, progress_printer(args.positions, "positions"))
    print(f"{args.positions} positions, {args.guesses} random guesses each")
    print(f"uniform: placed {np.mean(reader.placed['uniform', 0.0]):.1%}")
    for name in ("network", "medium"):
        placed = ", ".join(f"power {p}: {np.mean(reader.placed[name, p]):.1%}" for p in POWERS)
        print(f"{name}: placed {placed}; rank of the truth {np.mean(reader.ranks[name]):.1%}")


if __name__ == "__main__":
    main()
