"""Rewards every game shares: a decided game gives +1 to its winners and -1 to the rest."""

from __future__ import annotations

from collections.abc import Sequence


def win_loss_rewards(num_players: int, winners: Sequence[int], shared: bool = False) -> list[float]:
    """Rewards by seat of a finished game: +1 to each winner, -1 to each other seat.

    ``shared``: the winners split +1 and the others split -1, so the rewards sum
    to zero however many win (Swahili with more than two players). No winners,
    or every seat a winner, is a draw: all zeros.
    """
    for seat in winners:
        if not 0 <= seat < num_players:
            raise ValueError(f"winner seat {seat} is not a seat of a {num_players}-player game")
    won = len(winners)
    if won == 0 or won == num_players:
        return [0.0] * num_players
    win, lose = (1.0 / won, -1.0 / (num_players - won)) if shared else (1.0, -1.0)
    return [win if seat in winners else lose for seat in range(num_players)]
