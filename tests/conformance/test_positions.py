"""Positions and the state API, for every registry variant, through the public API only.

- the notation round-trips over positions from random play: text -> position -> text, with every seat's
  observation, the mask and the end equal; a seat's view read back (hidden parts dealt afresh) is that seat's view;
- bad texts are refused with a PositionError naming the field;
- clones: an exact copy keeps the next deal, a clone for search does not; PettingZoo's state test.
"""

import copy
import pickle
import warnings

import numpy as np
import pytest
from pettingzoo.test.state_test import test_state as pettingzoo_state_test

import envs
from envs.core.notation import PositionError
from envs.registry import GAMES, variant_label

CASES = [(name, params) for name, e in GAMES.items() for params in e.variants]
IDS = [f"{name}[{variant_label(p) or 'default'}]" for name, p in CASES]
GAMES_PER_VARIANT = 6


def positions(name, params, games=GAMES_PER_VARIANT):
    """(env, text) at every position of a few random games; the env is at that position when yielded."""
    rng = np.random.default_rng(1)
    env = envs.make(name, **params)
    for game in range(games):
        env.reset(seed=game)
        while True:
            yield env, env.position()
            if env.is_terminal():
                break
            env.apply(int(rng.choice(env.legal_actions())))


def same_position(a, b):
    """Every seat's observation, the agent to move, its mask and the end agree."""
    assert a.is_terminal() == b.is_terminal()
    assert a.agents == b.agents
    if not a.is_terminal():
        assert a.agent_selection == b.agent_selection
        assert a.legal_actions() == b.legal_actions()
    for agent in a.possible_agents:
        assert np.array_equal(a.observe(agent)["observation"], b.observe(agent)["observation"]), agent


@pytest.mark.parametrize("name,params", CASES, ids=IDS)
def test_the_whole_position_round_trips(name, params):
    copy_env = envs.make(name, **params)
    for env, text in positions(name, params):
        copy_env.reset(options={"position": text})
        assert copy_env.position() == text
        same_position(env, copy_env)


@pytest.mark.parametrize("name,params", CASES, ids=IDS)
def test_a_seats_view_round_trips_with_the_hidden_parts_dealt_afresh(name, params):
    copy_env = envs.make(name, **params)
    for env, _ in positions(name, params, games=2):
        for seat, agent in enumerate(env.possible_agents):
            view = env.position(seat)
            copy_env.reset(seed=seat, options={"position": view})
            assert copy_env.position(agent) == view
            assert np.array_equal(env.observe(agent)["observation"], copy_env.observe(agent)["observation"])


@pytest.mark.parametrize("name,params", CASES, ids=IDS)
def test_bad_texts_are_refused_naming_what_is_wrong(name, params):
    env = envs.make(name, **params)
    env.reset(seed=0)
    text = env.position()
    fields = text.split()
    with pytest.raises(PositionError, match="fields"):
        env.reset(options={"position": " ".join(fields[:-1])})
    with pytest.raises(PositionError, match=r"field 1 \("):
        env.reset(options={"position": " ".join(["#" + fields[0][1:], *fields[1:]])})
    with pytest.raises(TypeError, match="str"):
        env.reset(options={"position": 7})
    with pytest.warns(UserWarning, match=r"\['positon'\] ignored"):
        env.reset(options={"positon": text})


@pytest.mark.parametrize("name,params", CASES, ids=IDS)
def test_a_position_leaves_nothing_stale(name, params):
    env = envs.make(name, **params)
    later = None
    for played, text in positions(name, params, games=1):
        if played.is_terminal():
            later = text
    env.reset(seed=0)
    env.legal_mask()  # cached for the start position
    env.reset(options={"position": later})
    assert env.is_terminal() and env.legal_actions() == []
    assert env.position() == later


@pytest.mark.parametrize("name,params", CASES, ids=IDS)
def test_exact_copies_and_clones(name, params):
    env = envs.make(name, **params)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(3):
        env.apply(int(rng.choice(env.legal_actions())))
    for exact in (copy.deepcopy(env.unwrapped), pickle.loads(pickle.dumps(env.unwrapped)), env.clone(keep_chance=True)):
        assert exact.position() == env.position()
        assert exact.returns() == env.returns()
    clone = env.clone(seed=5)
    assert clone.position(0) == env.position(0)
    assert env.clone(seed=5).position() == clone.position()
    with pytest.raises(ValueError, match="keep_chance"):
        env.clone(keep_chance=True, seed=1)


@pytest.mark.parametrize("name,params", CASES, ids=IDS)
def test_action_names_are_unique_and_read_back(name, params):
    for env, _ in positions(name, params, games=1):
        legal = env.legal_actions()
        assert [env.string_to_action(env.action_to_string(a)) for a in legal] == legal


@pytest.mark.parametrize("name,params", CASES, ids=IDS)
def test_pettingzoo_state(name, params):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pettingzoo_state_test(envs.make(name, **params), 300)


@pytest.mark.parametrize("name,params", CASES, ids=IDS)
def test_sample_world_keeps_what_the_seat_knows(name, params):
    rng = np.random.default_rng(2)
    for env, _ in positions(name, params, games=1):
        if env.is_terminal():
            continue
        seat = env.current_player()
        world = env.sample_world(seat, rng)
        assert world.position(seat) == env.position(seat)
        assert world.legal_actions() == env.legal_actions()
        if env.position(seat) == env.position():  # nothing hidden: the world is the position itself
            assert world.position() == env.position()
