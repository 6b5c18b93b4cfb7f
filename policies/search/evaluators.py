"""The tree search's evaluators (:data:`policies.search.tree.Evaluate`): a network, no knowledge, play-outs.

:func:`evaluator` turns a numpy policy into the search's evaluator (the legal
moves' logits, and values by seat from the mover's). A policy file whose value
head has one output a seat (``value_outputs``) gives them all; one with the
mover's value alone stands in for the others: in a two-player zero-sum game
the other seat's is its negative, and with more players the others share its
negative equally. :func:`flat_evaluator` knows nothing (every move alike, every
position a draw); :func:`playouts` rates every move alike and values a position
by a uniformly random play-out, which is how the ``mcts`` opponents see a game.
"""

from __future__ import annotations

import numpy as np

from envs.core.batched import BatchedGame, Engine, seed_streams
from envs.core.checks import as_int
from policies.numpy_policy import NumpyPolicy
from policies.search.tree import Evaluate, Network, logits_of_moves, observed, seats_from_mover


def policy_network(policy: NumpyPolicy, players: int, compiled_head: bool = False) -> Network:
    """A numpy ``policy`` as the search's network of observations (:func:`evaluator` without the boards).

    By default the network computes every action's logit in one matrix product and the legal moves' are read
    from it, as the play-time players do. ``compiled_head``: in games with thousands of actions and a short list
    of legal moves (Swish, Squeeze, Twirls), only those columns of a plain action head are computed, in a
    compiled loop (:meth:`policies.numpy_policy.NumpyPolicy.move_logits_and_seat_values`): more nodes a second
    (``swgym bench --search``), rounded differently, so a near tie may go the other way. Self-play uses it; the
    shipped hards' figures were measured without it.
    """
    if players < 2:
        raise ValueError(f"evaluator: a game has at least 2 players, got {players}")
    if not isinstance(compiled_head, (bool, np.bool_)):
        raise ValueError(f"evaluator: compiled_head must be True or False, got {compiled_head!r}")

    def network(observations: np.ndarray, moves: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if compiled_head:
            logits, values = policy.move_logits_and_seat_values(observations, moves)
        else:
            logits, values = policy.logits_and_seat_values(observations)
            logits = logits_of_moves(logits, moves)
        values = np.asarray(values, dtype=np.float32).reshape(len(observations), -1)
        if values.shape[1] == players:
            return logits, values
        mover = values[:, 0]
        return logits, np.column_stack([mover] + [-mover / (players - 1)] * (players - 1))

    return network


def evaluator(policy: NumpyPolicy, players: int, compiled_head: bool = False) -> Evaluate:
    """The search's evaluator of a numpy ``policy``: each board seen by its mover (:func:`policy_network`)."""
    return observed(policy_network(policy, players, compiled_head))


def flat_evaluator(players: int) -> Evaluate:
    """The evaluator that rates every legal move alike and every position a draw: the first self-play
    iteration's, and the one that measures the search and the engine alone."""

    def evaluate(batch: BatchedGame, rows: np.ndarray, moves: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.zeros(moves.shape, np.float32), np.zeros((len(rows), players), np.float32)

    return evaluate


TIE_BREAK = 1e-6  # the spread of the play-outs' logits: an order among equals, no preference a search could see


class Playouts:
    """An evaluator that rates every legal move alike (their order, in which a search tries them, at random) and
    values a position by one uniformly random play-out from it: every seat's rewards summed to the game's end, or
    for at most ``plies`` plies (a play-out cut short keeps what the game paid so far: coins in Swimming, a draw in
    the board games).

    The play-outs run on a batch of their own whose boards get fresh random streams from ``seed`` (never the
    searched game's own stream, which would replay its future chance), ``rows.size`` boards at a time.
    """

    def __init__(self, engine: Engine, plies: int = 150, seed: int | None = None) -> None:
        if (plain := as_int(plies)) is None or plain < 1:
            raise ValueError(f"play-outs: plies must be an int >= 1, got {plies!r}")
        self.engine, self.plies = engine, plain
        self.rng = np.random.default_rng(seed)
        self.batch: BatchedGame | None = None

    def reset(self, seed: int | None = None) -> None:
        """Draw the play-outs' streams from ``seed`` from now on."""
        self.rng = np.random.default_rng(seed)

    def __call__(self, batch: BatchedGame, rows: np.ndarray, moves: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        k, players = rows.size, batch.num_players
        if self.batch is None or self.batch.num_envs < k:
            self.batch = BatchedGame(self.engine, k, seed=0)
        play = self.batch
        play.copy_boards(batch, rows, np.arange(k))
        play.rng[:k] = seed_streams(int(self.rng.integers(1 << 63)), k)
        active = np.arange(play.num_envs) < k
        totals = np.zeros((play.num_envs, players), dtype=np.float64)
        for _ in range(self.plies):
            live = active & ~play.over
            if not live.any():
                break
            rewards, _ = play.step(play.random_actions(live), checked=True)
            totals += rewards
        movers = batch.to_move[rows].astype(np.int64)
        values = np.take_along_axis(totals[:k], seats_from_mover(movers, players), axis=1)
        order = (self.rng.random(moves.shape) * TIE_BREAK).astype(np.float32)
        return order, values.astype(np.float32)


def playouts(engine: Engine, plies: int = 150, seed: int | None = None) -> Playouts:
    """The play-out evaluator of ``engine``'s boards (:class:`Playouts`)."""
    return Playouts(engine, plies, seed)


__all__ = ["Playouts", "evaluator", "flat_evaluator", "playouts", "policy_network"]
