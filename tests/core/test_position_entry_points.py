"""Positions in every entry point (vector env, single-agent env, batched engine, command line) and the state
API's smaller parts, shown on Swival (its notation: docs/games/swival.md)."""

import json

import numpy as np
import pytest

import envs
from envs.core.game import RuleError
from envs.core.notation import PositionError
from envs.single_agent import SingleAgentEnv
from scripts.cli import main

OPENING = "RB....../......../........ - R"
OTHER = "......../R......./B....... - R"
WON = "RB....../R..B..../R.B..... R R"


def test_the_vector_env_starts_every_board_or_each_board_from_a_position():
    env = envs.make_vec("swival", 3, seed=0, seat=0)
    env.reset(options={"position": OPENING})
    assert [env.position(b) for b in range(3)] == [OPENING] * 3
    obs, info = env.reset(options={"position": [OPENING, OTHER, OPENING]})
    assert [env.position(b) for b in range(3)] == [OPENING, OTHER, OPENING]
    single = envs.make("swival")
    single.reset(options={"position": OTHER})
    assert np.array_equal(obs[1], single.observe("player_0")["observation"])
    assert np.array_equal(info["action_mask"][1].astype(bool), single.legal_mask())


def test_the_vector_env_refuses_bad_positions_before_changing_a_board():
    env = envs.make_vec("swival", 2, seed=0, seat=0)
    env.reset(options={"position": OPENING})
    with pytest.raises(ValueError, match="a list of 2"):
        env.reset(options={"position": [OPENING]})
    with pytest.raises(PositionError, match="field 3"):
        env.reset(options={"position": [OPENING, "RB....../......../........ - Q"]})
    assert [env.position(b) for b in range(2)] == [OPENING] * 2


def test_a_position_that_ends_before_the_learner_moves_is_named():
    env = envs.make_vec("swival", 1, seed=0, seat=1)
    with pytest.raises(RuntimeError, match="ends before its learner"):
        env.reset(options={"position": WON})
    single = SingleAgentEnv("swival", opponent="random", seat=0)
    with pytest.raises(RuntimeError, match="ends before the learner"):
        single.reset(seed=0, options={"position": WON})


def test_the_single_agent_env_starts_from_a_position_and_the_opponent_answers():
    env = SingleAgentEnv("swival", opponent="random", seat=1)
    env.reset(seed=0, options={"position": OPENING})
    rings = env.position().split()[0].replace("/", "")
    assert rings.count("R") == 2 and rings.count("B") == 1  # red, the opponent, has moved once
    with pytest.warns(UserWarning, match=r"\['start'\] ignored"):
        env.reset(options={"start": OPENING})


def test_the_batched_engine_sets_reads_and_samples_positions():
    batch = envs.make_batched("swival", 3, seed=0)
    batch.set_position(1, OTHER)
    assert batch.position(1) == OTHER
    rules = envs.make("swival")
    rules.reset(options={"position": OTHER})
    assert np.array_equal(batch.legal_mask()[1], rules.legal_mask())
    batch.sample_worlds(1, 0, np.array([0, 2]), np.random.default_rng(0))
    assert batch.position(0) == batch.position(2) == OTHER  # nothing is hidden in Swival


def test_clones_names_and_observations():
    env = envs.make("swival")
    env.reset(options={"position": OPENING})
    clone = env.clone(seed=1)
    clone.apply(clone.string_to_action("m0L"))
    assert env.position() == OPENING and clone.position() == "RB....../.......R/........ - B"
    assert not env.is_chance()
    assert env.current_player() == 0
    with pytest.raises(RuleError, match="no legal action is named 'm9'"):
        env.string_to_action("m9")
    pieces = env.decode_observation(env.observe("player_0")["observation"])
    assert pieces["own"].tolist()[:2] == [1, 0] and pieces["opponent"].tolist()[:2] == [0, 1]
    text = env.describe_observation(env.observe("player_0")["observation"])
    assert "own: 0\n" in text and "opponent: 1\n" in text
    state = env.state()
    assert state.shape == env.state_space.shape and env.state_space.contains(state)
    with pytest.raises(ValueError, match="seat must be"):
        env.position(seat=5)


def test_eval_plays_each_opening_of_a_file_in_every_seating(tmp_path):
    openings = tmp_path / "openings.txt"
    openings.write_text(f"# two openings\n{OPENING}\n\n{OTHER}\n")
    out = tmp_path / "table.json"
    main(["eval", "swival", "easy", "random", "--games", "4", "--position", str(openings), "--json", str(out)])
    rows = json.loads(out.read_text())["rows"]
    assert [row["games"] for row in rows] == [4, 4]
    with pytest.raises(SystemExit, match="must be a multiple of 4"):
        main(["eval", "swival", "easy", "random", "--games", "6", "--position", str(openings)])


def test_watch_and_a_bad_position_on_the_command_line(capsys):
    main(["watch", "swival", "--p0", "easy", "--p1", "easy", "--text", "--seed", "1", "--position", OPENING])
    assert "outer   R B . . . . . ." in capsys.readouterr().out
    with pytest.raises(SystemExit, match="expected 24 cells, got 8"):
        main(["watch", "swival", "--text", "--position", "RB...... - R"])
