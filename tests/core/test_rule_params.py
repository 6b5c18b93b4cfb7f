"""Rule parameters: one validator for every game (type, range, choices), numpy values normalised."""

import numpy as np
import pytest

import envs
from envs.core.game import RuleError
from envs.registry import game_module

# (game, params, expected): a dict of the normalised values, or a fragment of the RuleError's text
CASES = [
    # swival has no parameters
    ("swival", {}, {}),
    # twirls
    ("twirls", {"board_size": 8}, {"board_size": 8}),
    ("twirls", {"board_size": np.int64(9)}, {"board_size": 9}),
    ("twirls", {"board_size": np.int32(8)}, {"board_size": 8}),
    ("twirls", {"board_size": 8.0}, "twirls: board_size must be one of 9, 8, got 8.0 (float)"),
    ("twirls", {"board_size": np.float64(9)}, "board_size must be one of 9, 8"),
    ("twirls", {"board_size": 7}, "board_size must be one of 9, 8, got 7"),
    ("twirls", {"board_size": "9"}, "board_size must be one of 9, 8, got '9' (str)"),
    ("twirls", {"board_size": True}, "board_size must be one of 9, 8, got True (bool)"),
    ("twirls", {"board_size": np.bool_(True)}, "board_size must be one of 9, 8"),
    ("twirls", {"max_neighbors": np.int64(4)}, {"max_neighbors": 4}),
    ("twirls", {"max_neighbors": (4, 2)}, {"max_neighbors": (4, 2)}),
    ("twirls", {"max_neighbors": [np.int32(2), 8]}, {"max_neighbors": (2, 8)}),
    ("twirls", {"max_neighbors": 1}, "max_neighbors must be an int from 2 to 8 or a per-seat pair"),
    ("twirls", {"max_neighbors": 9}, "max_neighbors must be an int from 2 to 8"),
    ("twirls", {"max_neighbors": 3.0}, "max_neighbors must be an int from 2 to 8"),
    ("twirls", {"max_neighbors": (4, 2.0)}, "max_neighbors must be an int from 2 to 8"),
    ("twirls", {"max_neighbors": (4,)}, "max_neighbors must be"),
    ("twirls", {"max_neighbors": (True, 3)}, "max_neighbors must be"),
    ("twirls", {"max_plies": np.int64(50)}, {"max_plies": 50}),
    ("twirls", {"max_plies": 0}, "max_plies must be an int >= 1, got 0"),
    ("twirls", {"max_plies": 2.5}, "max_plies must be an int >= 1"),
    ("twirls", {"max_plies": None}, "max_plies must be an int >= 1, got None (NoneType)"),
    # swimming
    ("swimming", {"num_players": np.int64(3)}, {"num_players": 3}),
    ("swimming", {"num_players": 7}, "swimming: num_players must be an int from 2 to 6, got 7"),
    ("swimming", {"num_players": 4.0}, "num_players must be an int from 2 to 6, got 4.0 (float)"),
    ("swimming", {"num_players": "4"}, "num_players must be an int from 2 to 6"),
    ("swimming", {"coins": np.int16(5)}, {"coins": 5}),
    ("swimming", {"coins": 0}, "coins must be an int from 1 to 20, got 0"),
    ("swimming", {"coins": 21}, "coins must be an int from 1 to 20"),
    ("swimming", {"coins": True}, "coins must be an int from 1 to 20, got True (bool)"),
    ("swimming", {"max_round_turns": np.uint32(50)}, {"max_round_turns": 50}),
    ("swimming", {"max_round_turns": 0}, "max_round_turns must be an int from 1 to 100000"),
    ("swimming", {"knock_first_round": np.bool_(True)}, {"knock_first_round": True}),
    ("swimming", {"knock_first_round": 1}, "knock_first_round must be True or False, got 1 (int)"),
    ("swimming", {"open_hands": True}, {"open_hands": True}),
    ("swimming", {"open_hands": "yes"}, "open_hands must be True or False, got 'yes'"),
    # swahili
    ("swahili", {"num_players": np.int64(4)}, {"num_players": 4}),
    ("swahili", {"num_players": 5}, "swahili: num_players must be one of 2, 3, 4, got 5"),
    ("swahili", {"num_players": 3.0}, "num_players must be one of 2, 3, 4, got 3.0 (float)"),
    ("swahili", {"num_players": np.bool_(True)}, "num_players must be one of 2, 3, 4"),
    ("swahili", {"reward": np.str_("score")}, {"reward": "score"}),
    ("swahili", {"reward": "points"}, "reward must be one of 'win', 'score', got 'points'"),
    ("swahili", {"reward": 1}, "reward must be one of 'win', 'score', got 1 (int)"),
    # swish and squeeze share the hex-rook rules
    *[
        c
        for g in ("swish", "squeeze")
        for c in [
            (g, {"radius": np.int64(5)}, {"radius": 5}),
            (g, {"radius": 2}, f"{g}: radius must be an int from 3 to 8, got 2"),
            (g, {"radius": 4.0}, "radius must be an int from 3 to 8, got 4.0 (float)"),
            (g, {"radius": np.bool_(True)}, "radius must be an int from 3 to 8"),
            (g, {"setup": "marquisian"}, {"setup": "marquisian"}),
            (g, {"setup": "spiral"}, "setup must be one of 'random', 'fixed', 'marquisian', got 'spiral'"),
            (g, {"setup": None}, "setup must be one of"),
            (g, {"max_plies": np.int32(20)}, {"max_plies": 20}),
            (g, {"max_plies": 0}, "max_plies must be an int >= 1"),
            (g, {"beads_to_win": np.int8(3)}, {"beads_to_win": 3}),
            (g, {"beads_to_win": 20}, "beads_to_win must be an int from 1 to 19, got 20"),
            (g, {"beads_to_win": 10.0}, "beads_to_win must be an int from 1 to 19"),
        ]
    ],
]


@pytest.mark.parametrize("game,params,expected", CASES)
def test_rule_values(game, params, expected):
    game_cls = game_module(game).raw_env.game_cls
    if isinstance(expected, str):
        with pytest.raises(RuleError) as caught:
            envs.make(game, **params)
        assert expected in str(caught.value)
        with pytest.raises(RuleError) as caught:
            game_cls(**params)
        assert expected in str(caught.value)
        return
    rules = game_cls(**params).params
    assert rules == {**game_cls.PARAMS, **expected}
    for key, value in expected.items():  # plain Python values, not numpy ones
        assert type(rules[key]) is type(value)


def test_every_game_and_parameter_is_covered():
    covered = {(g, k) for g, params, _ in CASES for k in params}
    declared = {(g, k) for g in envs.list_games() for k in game_module(g).raw_env.game_cls.PARAMS}
    assert declared <= covered
    # and each parameter is both accepted and refused somewhere in the table
    accepted = {(g, k) for g, params, e in CASES if isinstance(e, dict) for k in params}
    refused = {(g, k) for g, params, e in CASES if isinstance(e, str) for k in params}
    assert declared <= accepted and declared <= refused


@pytest.mark.parametrize("size", [np.int64(9), np.int32(9)])
def test_numpy_board_size_builds_the_real_game(size):
    env = envs.make_raw("twirls", board_size=size)
    env.reset(seed=0)
    stones = [bin(s).count("1") for s in env.game_state.stones]
    assert stones == [14, 14]
    obs = env.observe(env.agent_selection)
    assert obs["observation"].shape == envs.make_raw("twirls").observation_space("player_0")["observation"].shape
    assert int(obs["action_mask"].sum()) > 0


def test_unknown_keyword_lists_the_parameters():
    with pytest.raises(TypeError, match="unknown keyword.*size.*board_size=9"):
        envs.make("twirls", size=8)


def test_params_defaults_stay_public():
    assert game_module("swahili").raw_env.game_cls.PARAMS == {"num_players": 2, "reward": "win"}
    assert game_module("swival").raw_env.game_cls.PARAMS == {}
