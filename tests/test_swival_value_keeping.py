"""research/swival_value_keeping.py: the share of a player's moves that keep the solved value."""

import numpy as np
import pytest

from envs.play import play_series
from envs.swival.bots import MediumBot
from envs.swival.rules import SwivalGame
from research.swival_value_keeping import Recorder, empty_cells, move_value, split, value_keeping


class MediumThenSolver:
    """Medium's moves until at most 10 cells are empty, then the move worth least (``worst``) or most to it,
    by the solver: a player that throws away every endgame, or one that never does."""

    def __init__(self, worst):
        self.worst = worst
        self.medium = MediumBot(SwivalGame(), seed=0)

    def reset(self, seed=None):
        self.medium.reset(seed)

    def act(self, observation, action_mask, state=None):
        me = state.to_move
        mine, theirs = state.boards[me], state.boards[1 - me]
        if empty_cells(mine, theirs) > 10:
            return self.medium.act(observation, action_mask, state)
        legal = [int(a) for a in np.flatnonzero(action_mask)]
        return (min if self.worst else max)(legal, key=lambda a: move_value(mine, theirs, a))


def _moves(player, games=2):
    """What ``player`` did in ``games`` games against medium (which draws against medium: the games go long)."""
    recorder = Recorder(player)
    play_series("swival", [recorder, "medium"], games, seed=3)
    return recorder.moves


def test_a_player_that_throws_the_endgame_away_is_caught():
    moves = _moves(MediumThenSolver(worst=True))
    keeping = value_keeping(moves, max_empty=10)
    assert keeping.checked == sum(empty_cells(m, t) <= 10 for m, t, _ in moves) > 0
    assert keeping.lapses and keeping.share < 1.0
    for mine, theirs, action, value, after in keeping.lapses:
        assert after == move_value(mine, theirs, action) < value


def test_a_player_that_solves_the_endgame_keeps_every_value():
    keeping = value_keeping(_moves(MediumThenSolver(worst=False)), max_empty=10)
    assert keeping.checked > 0 and keeping.share == 1.0 and not keeping.lapses


@pytest.mark.parametrize("games,parts,expected", [(200, 3, [67, 67, 66]), (3, 3, [1, 1, 1]), (7, 2, [4, 3])])
def test_games_split_evenly_over_the_opponents(games, parts, expected):
    assert split(games, parts) == expected
