"""Table tests of Swahili's rules: the seed's worked examples and the issue's cases."""

import numpy as np
import pytest

import envs
from envs.core.game import RuleError
from envs.swahili.rules import STOP, SwahiliGame, state_from

RNG = np.random.default_rng(0)
START = [3, 3, 3, 3]


def play(game, state, actions):
    """Apply ``actions`` in turn, returning the list of reward vectors."""
    out = []
    for a in actions:
        game.check_action(state, a)
        out.append(game.apply(state, a, RNG))
    return out


# (name, num_players, rows per seat, centre, compound, actions, expected rows per seat,
#  expected centre, expected compound, expected pending row index or -1, expected to_move)
CASES = [
    (
        "diagram 2: row 2 with three pieces lands on empty row 5, move ends",
        2,
        [START, START],
        None,
        None,
        [1],
        [[3, 0, 4, 4, 1], START],
        [0, 0],
        [0, 0],
        -1,
        1,
    ),
    (
        "diagram 3 (3A->3B): row 1 lands on row 4, which now holds four: a choice",
        2,
        [START, START],
        None,
        None,
        [0],
        [[0, 4, 4, 4], START],
        [0, 0],
        [0, 0],
        3,
        0,
    ),
    (
        "diagram 3 (3B->3C): continuing sows row 4 into rows 5-8, move ends",
        2,
        [START, START],
        None,
        None,
        [0, 3],
        [[0, 4, 4, 0, 1, 1, 1, 1], START],
        [0, 0],
        [0, 0],
        -1,
        1,
    ),
    (
        "a choice pending, stop ends the move",
        2,
        [START, START],
        None,
        None,
        [0, STOP],
        [[0, 4, 4, 4], START],
        [0, 0],
        [0, 0],
        -1,
        1,
    ),
    (
        "diagram 4: five from row 9: rows 10, 11, centre, rows 1 and 2",
        2,
        [[0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0], [1]],
        None,
        None,
        [8],
        [[1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1], [1]],
        [1, 0],
        [0, 0],
        -1,
        1,
    ),
    (
        "only one piece per pass into the centre; last piece in the centre ends the move",
        2,
        [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], [1]],
        None,
        None,
        [10],
        [[0] * 11, [1]],
        [1, 0],
        [0, 0],
        -1,
        0,
    ),
    (
        "diagram 5: three from row 8, the last lands on row 11 with a single opponent: captured",
        2,
        [[0, 0, 0, 0, 0, 0, 0, 3], [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]],
        None,
        None,
        [7],
        [[0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1], [1]],
        [0, 0],
        [1, 0],
        -1,
        1,
    ),
    (
        "landing on a row with two opposing pieces: no capture",
        2,
        [[0, 0, 0, 0, 0, 0, 0, 3], [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]],
        None,
        None,
        [7],
        [[0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1], [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]],
        [0, 0],
        [0, 0],
        -1,
        1,
    ),
    (
        "landing on an own piece next to an opposing single: a choice, no capture",
        2,
        [[0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 1], [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]],
        None,
        None,
        [7],
        [[0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2], [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]],
        [0, 0],
        [0, 0],
        10,
        0,
    ),
    (
        "continuing from row 11 after a choice: one to the centre, the rest from row 1",
        2,
        [[0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 1], [1]],
        None,
        None,
        [7, 10],
        [[1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0], [1]],
        [1, 0],
        [0, 0],
        -1,
        1,
    ),
    (
        "a landing on an empty safe row (1-6) never captures",
        2,
        [[0, 2], [0, 0, 0, 1]],
        None,
        None,
        [1],
        [[0, 0, 1, 1], [0, 0, 0, 1]],
        [0, 0],
        [0, 0],
        -1,
        1,
    ),
    (
        "4 players: the singles of several opponents on one capture row are all captured",
        4,
        [[0, 0, 0, 0, 0, 0, 2], [1, 0, 0, 0, 0, 0, 0, 0, 1], [1, 0, 0, 0, 0, 0, 0, 0, 1], [1, 0, 0, 0, 0, 0, 0, 0, 2]],
        None,
        None,
        [6],
        [[0, 0, 0, 0, 0, 0, 0, 1, 1], [1], [1], [1, 0, 0, 0, 0, 0, 0, 0, 2]],
        [0, 0, 0, 0],
        [2, 0, 0, 0],
        -1,
        1,
    ),
    (
        "3 players: turn passes to the next seat, wrapping after the last",
        3,
        [[1], [1], [0, 1]],
        None,
        None,
        [0],
        [[0, 1], [1], [0, 1]],
        [0, 0, 0],
        [0, 0, 0],
        -1,
        1,
    ),
]


@pytest.mark.parametrize(
    "name,n,rows,centre,compound,actions,exp_rows,exp_centre,exp_compound,exp_pending,exp_move",
    CASES,
    ids=[c[0] for c in CASES],
)
def test_moves(name, n, rows, centre, compound, actions, exp_rows, exp_centre, exp_compound, exp_pending, exp_move):
    game = SwahiliGame(num_players=n)
    state = state_from(rows, centre, compound)
    play(game, state, actions)
    assert state.rows == state_from(exp_rows).rows
    assert state.centre == exp_centre
    assert state.compound == exp_compound
    assert state.pending == exp_pending
    if not state.over:
        assert state.to_move == exp_move


# (position, legal actions)
LEGAL = [
    (state_from([START, START]), [0, 1, 2, 3]),
    (state_from([[0, 4, 4, 4], START], pending=3), [3, STOP]),
    (state_from([[0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2], [1]], pending=10), [10, STOP]),
    (state_from([[1], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5]], to_move=1), [10]),
]


@pytest.mark.parametrize("state,legal", LEGAL)
def test_legal_actions(state, legal):
    assert SwahiliGame().legal_actions(state) == legal


def test_starting_position():
    game = SwahiliGame(num_players=3)
    state = game.new_state(RNG)
    assert state.rows == [[3, 3, 3, 3, 0, 0, 0, 0, 0, 0, 0]] * 3
    assert sum(map(sum, state.rows)) == 36 and state.to_move == 0 and not state.over


# (name, num_players, reward mode, rows, centre, compound, action, winners, rewards)
ENDINGS = [
    (
        "last piece into the centre ends the game; 10 per centre piece, 5 per capture",
        2,
        "win",
        [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], [2]],
        [3, 2],
        [0, 3],
        10,
        [0],
        [1.0, -1.0],
    ),
    (
        "the mover empties its rows but trails: the other wins",
        2,
        "win",
        [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], [2]],
        [1, 4],
        [0, 0],
        10,
        [1],
        [-1.0, 1.0],
    ),
    (
        "equal scores: a draw, nobody wins",
        2,
        "win",
        [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], [2]],
        [1, 1],
        [2, 4],
        10,
        [],
        [0.0, 0.0],
    ),
    (
        "capturing an opponent's last piece ends the game",
        2,
        "win",
        [[0, 0, 0, 0, 0, 0, 0, 3], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]],
        [0, 0],
        [1, 0],
        7,
        [0],
        [1.0, -1.0],
    ),
    (
        "4 players: two tied winners share +1, the others share -1",
        4,
        "win",
        [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], [1], [1], [1]],
        [1, 2, 0, 1],
        [0, 0, 0, 0],
        10,
        [0, 1],
        [0.5, 0.5, -0.5, -0.5],
    ),
    (
        "reward='score': the score change minus the mean",
        2,
        "score",
        [[0, 0, 0, 0, 0, 0, 0, 3], [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]],
        [0, 0],
        [0, 0],
        7,
        None,
        [2.5, -2.5],
    ),
]


@pytest.mark.parametrize(
    "name,n,mode,rows,centre,compound,action,winners,rewards", ENDINGS, ids=[e[0] for e in ENDINGS]
)
def test_end_and_scoring(name, n, mode, rows, centre, compound, action, winners, rewards):
    game = SwahiliGame(num_players=n, reward=mode)
    state = state_from(rows, centre, compound)
    (got,) = play(game, state, [action])
    assert got == pytest.approx(rewards)
    assert sum(got) == pytest.approx(0.0)
    if winners is not None:
        assert state.over
        assert game.winners(state) == winners
        assert game.legal_actions(state) == []


def test_scores_of_a_finished_game():
    game = SwahiliGame()
    state = state_from([[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], [2]], [3, 2], [0, 3])
    play(game, state, [10])
    assert [game.score_of(state, s) for s in (0, 1)] == [40, 35]


def test_score_rewards_sum_to_final_score_minus_mean():
    game = SwahiliGame(num_players=3, reward="score")
    rng = np.random.default_rng(7)
    state = game.new_state(rng)
    total = np.zeros(3)
    while not state.over:
        total += game.apply(state, int(rng.choice(game.legal_actions(state))), rng)
    final = np.array([game.score_of(state, s) for s in range(3)], dtype=float)
    assert total == pytest.approx(final - final.mean())


def test_random_games_keep_every_piece():
    for n in (2, 3, 4):
        game = SwahiliGame(num_players=n)
        rng = np.random.default_rng(n)
        for _ in range(20):
            state = game.new_state(rng)
            while not state.over:
                game.apply(state, int(rng.choice(game.legal_actions(state))), rng)
                assert sum(map(sum, state.rows)) + sum(state.centre) + sum(state.compound) == 12 * n
            assert any(not any(r) for r in state.rows)


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"num_players": 5}, "num_players"),
        ({"num_players": 1}, "num_players"),
        ({"num_players": "2"}, "num_players"),
        ({"num_players": True}, "num_players"),
        ({"reward": "points"}, "reward"),
    ],
)
def test_bad_parameters_are_named(kwargs, match):
    with pytest.raises(RuleError, match=match):
        SwahiliGame(**kwargs)
    with pytest.raises(ValueError, match=match):
        envs.make("swahili", **kwargs)


def test_illegal_continue_is_refused():
    game = SwahiliGame()
    state = state_from([[0, 4, 4, 4], START], pending=3)
    with pytest.raises(RuleError, match="illegal action 1"):
        game.check_action(state, 1)


def test_observation_is_rotated_to_the_observer():
    env = envs.make_raw("swahili", num_players=3)
    env.reset(seed=0)
    env.game_state = state_from([[1], [0, 2], [0, 0, 3]], centre=[0, 1, 0], compound=[0, 0, 2], to_move=1, pending=1)
    obs = env.observe_state(env.game, env.game_state, 1)
    assert obs.shape == (72,)
    assert obs[1] == pytest.approx(2 / 12)  # own row 2 comes first
    assert obs[16] == pytest.approx(1 / 12)  # own centre
    assert obs[19 + 2] == pytest.approx(3 / 12)  # next seat (player_2) row 3
    assert obs[38 + 0] == pytest.approx(1 / 12)  # then player_0 row 1
    assert obs[19 + 17] == pytest.approx(2 / 24)  # player_2's compound
    assert obs[57] == 1.0 and obs[58 + 1] == 1.0  # a choice pending at row 2
    assert obs[69] == 1.0  # the observer is to move
    assert env.observation_space("player_1")["observation"].contains(obs)


# ---- bots: (name, bot, position, chosen actions in turn)
BOT_CASES = [
    (
        "easy takes a capture when one sowing makes it",
        "easy",
        state_from([[0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]]),
        [7],
    ),
    (
        "medium plans the chain: row 5 lands on its own row 7, then sows on to capture in row 9",
        "medium",
        state_from([[0, 0, 0, 0, 2, 0, 1], [1, 0, 0, 0, 0, 0, 0, 0, 1]]),
        [4, 6],
    ),
    (
        "medium stops when sowing on would only expose a single to the opponent's strike",
        "medium",
        state_from([[0, 0, 0, 2, 0, 1], [0, 0, 0, 0, 0, 2]]),
        [3, STOP],
    ),
    (
        "medium keeps its single out of the row the opponent's chain lands on",
        "medium",
        state_from([[1, 0, 0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 3]]),
        [0],
    ),
]


@pytest.mark.parametrize("name,level,state,expected", BOT_CASES, ids=[c[0] for c in BOT_CASES])
def test_bot_choices(name, level, state, expected):
    from envs.swahili.bots import BOTS

    game = SwahiliGame()
    bot = BOTS[level](game, seed=0)
    for action in expected:
        assert bot.choose(state, game.legal_mask(state)) == action
        game.apply(state, action, RNG)


# (compound, centre, points): 5 a captured piece, 10 a piece in the centre
POINTS = [([0, 0], [0, 0], [0, 0]), ([2, 0], [0, 1], [10, 10]), ([1, 3, 0], [2, 0, 1], [25, 15, 10])]


@pytest.mark.parametrize("compound,centre,expected", POINTS)
def test_points_formula(compound, centre, expected):
    from envs.swahili.rules import points

    assert points(compound, centre) == expected


# (own rows before, row sown, rows after, landing position, pieces into the centre); position 11 is the centre
SOW_OWN = [
    ([3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 0, [0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0], 3, 0),
    ([0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0], 9, [0] * 10 + [1], 11, 1),
    ([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3], 10, [1, 1] + [0] * 9, 1, 1),
    ([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 13], 10, [1] * 10 + [1], 11, 2),
]


@pytest.mark.parametrize("own,row,after,pos,centre", SOW_OWN)
def test_sowing_one_players_pieces(own, row, after, pos, centre):
    from envs.swahili.rules import sow_own

    mine = own[:]
    assert sow_own(mine, row) == (pos, centre)
    assert mine == after


def test_bots_use_the_rules_points_and_sowing():
    """One formula and one sowing loop: the bots call the rules' functions, not copies."""
    from envs.swahili import bots, rules

    assert bots.points is rules.points and bots.sow_own is rules.sow_own and bots.sow is rules.sow
