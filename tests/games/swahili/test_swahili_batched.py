"""Swahili's batched engine beyond the shared differential test: every rule parameter, chosen positions, and
the learner's vector env with 2 and 4 players (an opponent per other seat, rewards from every move)."""

import numpy as np
import pytest

import envs
from envs.core.game import RuleError
from envs.swahili.bots import EasyBot
from envs.swahili.env import BLOCK
from envs.swahili.rules import STOP, SwahiliGame, state_from
from tests.helpers import play_both

N_ROWS = 11


# -- every rule parameter: the registry lists reward="win" only ------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_score_rewards_play_as_the_aec_env(players):
    params = {"num_players": players, "reward": "score"}
    batch, aecs = play_both("swahili", params, 40, seed=7)
    assert batch.engine.params == SwahiliGame(**params).params
    assert all(aec.game.winners(aec.game_state) == aec.game.winners(batch.board_state(i)) for i, aec in enumerate(aecs))


def rows(*counts):
    """Rows 1-11 of one seat from the leading counts."""
    return list(counts) + [0] * (N_ROWS - len(counts))


# (name, players, reward, position (rows per seat, centre, compound, to_move, pending), action,
#  expected (rows per seat, centre, compound, to_move, pending, over), expected rewards by seat)
POSITIONS = [
    (
        "lands on own pieces: choice pending",
        2,
        "win",
        ([rows(1, 1, 0, 3), rows(3, 3)], None, None, 0, -1),
        0,
        ([rows(0, 2, 0, 3), rows(3, 3)], [0, 0], [0, 0], 0, 1, False),
        [0, 0],
    ),
    (
        "stop ends the move",
        2,
        "win",
        ([rows(0, 2, 0, 3), rows(3, 3)], None, None, 0, 1),
        STOP,
        ([rows(0, 2, 0, 3), rows(3, 3)], [0, 0], [0, 0], 1, -1, False),
        [0, 0],
    ),
    (
        "continue sows the landing row on",
        2,
        "win",
        ([rows(0, 2, 0, 3), rows(3, 3)], None, None, 0, 1),
        1,
        ([rows(0, 0, 1, 4), rows(3, 3)], [0, 0], [0, 0], 0, 3, False),
        [0, 0],
    ),
    (
        "one landing captures two opponents' singles",
        3,
        "win",
        ([rows(2, 0, 0, 0, 0, 1), rows(3, 0, 0, 0, 0, 0, 1), rows(1, 0, 0, 0, 0, 0, 1)], None, None, 0, -1),
        5,
        ([rows(2, 0, 0, 0, 0, 0, 1), rows(3), rows(1)], [0, 0, 0], [2, 0, 0], 1, -1, False),
        [0, 0, 0],
    ),
    (
        "two pieces of one colour are safe",
        3,
        "win",
        ([rows(2, 0, 0, 0, 0, 1), rows(3, 0, 0, 0, 0, 0, 2), rows(1, 0, 0, 0, 0, 0, 1)], None, None, 0, -1),
        5,
        ([rows(2, 0, 0, 0, 0, 0, 1), rows(3, 0, 0, 0, 0, 0, 2), rows(1)], [0, 0, 0], [1, 0, 0], 1, -1, False),
        [0, 0, 0],
    ),
    (
        "over the top: one piece into the centre, on from row 1",
        2,
        "win",
        ([rows(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3), rows(3)], None, None, 0, -1),
        10,
        ([rows(1, 1), rows(3)], [1, 0], [0, 0], 1, -1, False),
        [0, 0],
    ),
    (
        "no capture outside rows 7-11",
        2,
        "win",
        ([rows(1), rows(0, 1, 2)], None, None, 0, -1),
        0,
        ([rows(0, 1), rows(0, 1, 2)], [0, 0], [0, 0], 1, -1, False),
        [0, 0],
    ),
    (
        "last piece into the centre ends the game: one winner of four",
        4,
        "win",
        ([rows(*[0] * 10, 1), rows(3), rows(3), rows(3)], None, None, 0, -1),
        10,
        ([rows(), rows(3), rows(3), rows(3)], [1, 0, 0, 0], [0, 0, 0, 0], 0, -1, True),
        [1.0, -1 / 3, -1 / 3, -1 / 3],
    ),
    (
        "the end with three of four tied on top",
        4,
        "win",
        ([rows(*[0] * 10, 1), rows(3), rows(3), rows(3)], None, [0, 2, 2, 0], 0, -1),
        10,
        ([rows(), rows(3), rows(3), rows(3)], [1, 0, 0, 0], [0, 2, 2, 0], 0, -1, True),
        [1 / 3, 1 / 3, 1 / 3, -1.0],
    ),
    (
        "the end with every seat tied: a draw",
        2,
        "win",
        ([rows(*[0] * 10, 1), rows(3)], None, [0, 2], 0, -1),
        10,
        ([rows(), rows(3)], [1, 0], [0, 2], 0, -1, True),
        [0, 0],
    ),
    (
        "score rewards: a capture's gain minus the mean",
        3,
        "score",
        ([rows(2, 0, 0, 0, 0, 1), rows(3, 0, 0, 0, 0, 0, 1), rows(1, 0, 0, 0, 0, 0, 2)], None, None, 0, -1),
        5,
        ([rows(2, 0, 0, 0, 0, 0, 1), rows(3), rows(1, 0, 0, 0, 0, 0, 2)], [0, 0, 0], [1, 0, 0], 1, -1, False),
        [10 / 3, -5 / 3, -5 / 3],
    ),
    (
        "score rewards at the end: the gain minus the mean, no win bonus",
        2,
        "score",
        ([rows(*[0] * 10, 1), rows(3)], None, None, 0, -1),
        10,
        ([rows(), rows(3)], [1, 0], [0, 0], 0, -1, True),
        [5.0, -5.0],
    ),
]


@pytest.mark.parametrize(
    ("players", "reward", "position", "action", "expected", "rewards"),
    [pytest.param(*case[1:], id=case[0]) for case in POSITIONS],
)
def test_chosen_positions(players, reward, position, action, expected, rewards):
    batch = envs.make_batched("swahili", 3, seed=0, num_players=players, reward=reward)
    board_rows, centre, compound, to_move, pending = position
    batch.set_board(1, state_from(board_rows, centre, compound, to_move, pending))
    mask = batch.legal_mask()[1]
    assert mask[action]
    if pending >= 0:
        assert np.flatnonzero(mask).tolist() == [pending, STOP]
    step_rewards, done = batch.step(np.array([-1, action, -1]))
    state = batch.board_state(1)
    assert (state.rows, state.centre, state.compound, state.to_move, state.pending, state.over) == expected
    np.testing.assert_array_equal(step_rewards[1], np.array(rewards, dtype=np.float32))
    assert done[1] == expected[-1] and not done[[0, 2]].any()
    assert state.plies == 1


def test_bad_input_is_named():
    with pytest.raises(RuleError, match="num_players"):
        envs.make_batched("swahili", 4, num_players=5)
    with pytest.raises(RuleError, match="reward"):
        envs.make_batched("swahili", 4, reward="points")
    batch = envs.make_batched("swahili", 4, num_players=3)
    with pytest.raises(ValueError, match="3-player board"):
        batch.set_board(0, SwahiliGame(num_players=2).new_state(None))
    with pytest.raises(ValueError, match="not a position of 3 players"):
        batch.set_board(0, state_from([[13], [3], [3]]))
    with pytest.raises(ValueError, match="illegal action.*board 1: 11"):
        batch.step(np.array([0, STOP, 0, 0]))  # stop with no choice pending


# -- the learner's vector env -----------------------------------------------------------------------
def final_reward(obs, players):
    """The learner's win reward from its final observation (scores in the blocks, the learner's first)."""
    scale = 120 + 60 * (players - 1)
    scores = np.rint(obs[[BLOCK * b + 18 for b in range(players)]] * scale)
    top = scores == scores.max()
    if top.all():
        return 0.0
    return 1.0 / top.sum() if top[0] else -1.0 / (players - top.sum())


def play(vec, steps, rng):
    """Random legal learner moves; every step's (obs, rewards, terminated, seats, last mover)."""
    out = []
    obs, _ = vec.reset()
    for _ in range(steps):
        masks = vec.action_masks()
        assert masks.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, terminated, truncated, infos = vec.step(actions)
        assert not truncated.any()
        out.append((obs, rewards, terminated, infos["seat"], vec.batch.to_move.copy()))
    return out


@pytest.mark.parametrize(("players", "opponent"), [(2, "random"), (2, "easy"), (4, "random"), (4, "easy")])
def test_vector_env_win_rewards_arrive_at_the_end(players, opponent):
    vec = envs.make_vec("swahili", 64, opponent=opponent, seed=1, num_players=players)
    assert vec.single_observation_space.shape == (BLOCK * players + 12 + players,)
    ended = by_opponent = 0
    for obs, rewards, terminated, seats, last_mover in play(vec, 150, np.random.default_rng(0)):
        assert (rewards[~terminated] == 0).all()  # win rewards: only at the end
        for b in np.flatnonzero(terminated):
            assert rewards[b] == np.float32(final_reward(obs[b], players)), b
            ended += 1
            by_opponent += last_mover[b] != seats[b]
    assert ended > 64 and by_opponent > 10  # episodes end, also on another seat's move


def test_vector_env_score_rewards_reach_the_learner_from_every_move():
    """Seat 0 moves first, so every move of a game is in its episode: the rewards sum to final score - mean."""
    players = 4
    vec = envs.make_vec("swahili", 64, opponent="random", seed=2, seat=0, num_players=players, reward="score")
    total = np.zeros(64)
    scale = 120 + 60 * (players - 1)
    checked = 0
    for obs, rewards, terminated, _, _ in play(vec, 200, np.random.default_rng(1)):
        total += rewards
        for b in np.flatnonzero(terminated):
            scores = np.rint(obs[b, [BLOCK * k + 18 for k in range(players)]] * scale)
            assert total[b] == pytest.approx(scores[0] - scores.mean(), abs=1e-4)
            checked += 1
        total[terminated] = 0.0
    assert checked > 64


class SeatChecker:
    """A batched callable opponent that checks it is asked exactly for the boards where its seat moves."""

    def __init__(self, index):
        self.index, self.vec, self.boards = index, None, 0

    def __call__(self, observations, masks):
        batch, seats = self.vec.batch, self.vec.seats
        seat = np.where(self.index < seats, self.index, self.index + 1)  # other seats in order, learner's skipped
        boards = np.flatnonzero(~batch.over & (batch.to_move == seat))
        np.testing.assert_array_equal(observations, batch.observe(batch.to_move)[boards])
        np.testing.assert_array_equal(masks, batch.legal_mask()[boards])
        self.boards += len(boards)
        return masks.argmax(axis=1)


class SeatRecorder(EasyBot):
    """The easy bot, recording the seat of every position it is asked to move in."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = set()

    def act(self, observation, action_mask, state=None):
        self.seats.add(state.to_move)
        return super().act(observation, action_mask, state)


@pytest.mark.parametrize("seat", [None, 0, 1, 2, 3])
def test_vector_env_plays_each_other_seat_with_its_own_opponent(seat):
    checker, easy = SeatChecker(1), SeatRecorder(SwahiliGame(num_players=4), seed=0)
    vec = envs.make_vec("swahili", 64, opponent=["random", checker, easy], seed=3, seat=seat, num_players=4)
    checker.vec = vec
    trace = play(vec, 60, np.random.default_rng(2))
    assert checker.boards > 64
    if seat is not None:
        assert easy.seats == {2 if seat > 2 else 3}
        assert (trace[-1][3] == seat).all()
    else:
        assert set(np.concatenate([t[3] for t in trace]).tolist()) == {0, 1, 2, 3}
    with pytest.raises(ValueError, match="3 opponent"):
        vec.set_opponents(["random", "easy"])
