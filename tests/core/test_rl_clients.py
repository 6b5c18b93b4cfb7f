"""What real RL clients send gets the right answer (issue 18, the env side).

Actions as SB3 / Tianshou / numpy hand them in, the learner's whole Swimming
return, copies of live envs, the mask handed out, failing opponents, seeds and
the mask dtype.
"""

import copy
import pickle
import warnings

import gymnasium
import numpy as np
import pytest

import envs
from envs.core.game import RuleError
from envs.core.opponents import OpponentError
from envs.opponents import make_opponent
from envs.registry import GAMES
from envs.single_agent import SingleAgentEnv

# -- 1. actions: what is accepted, what is refused --------------------------------------------------------

# Swival's action 3 (cell 1, no swivel) is legal on the first move; 73 actions.
ACCEPTED = [
    (3, "int"),
    (np.int64(3), "np.int64"),
    (np.int32(3), "np.int32"),
    (np.uint8(3), "np.uint8"),
    (np.array(3), "0-d int64 array (MaskablePPO.predict on one observation)"),
    (np.array(3, dtype=np.int16), "0-d int16 array"),
]
REFUSED = [
    (True, "bool"),
    (np.bool_(True), "numpy bool"),
    (3.0, "float"),
    (np.float64(3.0), "numpy float"),
    ("3", "str"),
    ([3], "list"),
    (np.array([3]), "1-d array"),
    (np.array(3.0), "0-d float array"),
]
KINDS = ["raw", "wrapped", "single"]


def _fresh(kind):
    if kind == "raw":
        env = envs.make_raw("swival")
    elif kind == "wrapped":
        env = envs.make("swival")
    else:
        env = SingleAgentEnv("swival", opponent="random", seat=0)
    env.reset(seed=0)
    return env


def _played(kind, env, action):
    """What the env shows after ``action``: the observation of the seat that moved, the mover's reward."""
    if kind == "single":
        obs, reward, _, _, info = env.step(action)
        assert "illegal_action" not in info, info
        return obs, reward
    env.step(action)
    return env.observe("player_0")["observation"], env.rewards["player_0"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("value,label", ACCEPTED, ids=[label for _, label in ACCEPTED])
def test_integer_actions_of_every_kind_play_as_the_int(kind, value, label):
    as_int = _played(kind, _fresh(kind), 3)
    given = _played(kind, _fresh(kind), value)
    assert np.array_equal(given[0], as_int[0]) and given[1] == as_int[1], label


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("value,label", REFUSED, ids=[label for _, label in REFUSED])
def test_non_integer_actions_are_a_type_error_with_value_and_range(kind, value, label):
    env = _fresh(kind)
    with pytest.raises(TypeError) as refused:
        env.step(value)
    assert repr(value) in str(refused.value) and "[0, 73)" in str(refused.value)
    # nothing was played or scored: the same seat is still to move with every counter off the board
    if kind == "single":
        assert env.action_masks()[3]
    else:
        assert env.agent_selection == "player_0" and env.rewards["player_0"] == 0
        assert not any(env.terminations.values())


@pytest.mark.parametrize("kind", KINDS)
def test_an_in_range_illegal_array_action_keeps_pettingzoo_s_convention(kind):
    env = _fresh(kind)
    illegal = np.array(1)  # a swivel with no counter on the board
    if kind == "raw":
        with pytest.raises(RuleError, match="illegal action 1"):
            env.step(illegal)
    elif kind == "wrapped":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            env.step(illegal)
        assert env.rewards["player_0"] == -1 and all(env.terminations.values())
    else:
        _, reward, terminated, _, info = env.step(illegal)
        assert reward == -1 and terminated and "illegal action 1" in info["illegal_action"]
        strict = SingleAgentEnv("swival", seat=0, illegal_action="raise")
        strict.reset(seed=0)
        with pytest.raises(RuleError, match="illegal action 1"):
            strict.step(illegal)


@pytest.mark.parametrize("kind", KINDS)
def test_out_of_range_and_none_are_named(kind):
    env = _fresh(kind)
    if kind == "single":
        _, reward, terminated, _, info = env.step(np.int64(73))
        assert reward == -1 and terminated and "out of range [0, 73)" in info["illegal_action"]
        return
    with pytest.raises(RuleError if kind == "raw" else AssertionError, match=r"73.*\[0, 73\)"):
        env.step(73)
    with pytest.raises(
        ValueError, match="player_0 is still in the game; step\\(None\\) is only for agents that are done"
    ):
        env.step(None)
    assert env.agent_selection == "player_0" and not any(env.terminations.values())


def test_maskable_ppo_predict_output_plays_in_the_single_agent_env():
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    env = gymnasium.make("swgym/Swival-v0", opponent="random")
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64, seed=0, policy_kwargs={"net_arch": [16]})
    for seed in range(3):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=env.unwrapped.action_masks(), deterministic=True)
            assert isinstance(action, np.ndarray) and action.shape == ()
            obs, reward, done, _, info = env.step(action)
            assert "illegal_action" not in info, info
        assert reward in (-1.0, 0.0, 1.0)


# -- 2. Swimming: every coin reaches the learner ---------------------------------------------------------


def test_swimming_single_agent_return_is_the_learner_s_coin_result():
    env = SingleAgentEnv("swimming", opponent="easy")
    learner_bot = make_opponent("swimming", "easy", seed=1)  # plays the learner's seat in odd episodes: some wins
    rng = np.random.default_rng(0)
    start = env.aec.game.start_coins
    won = 0
    for seed in range(400):
        obs, _ = env.reset(seed=seed)
        total, done = 0.0, False
        while not done:
            mask = env.action_masks()
            action = learner_bot.act(obs, mask, env.aec.game_state) if seed % 2 else rng.choice(np.flatnonzero(mask))
            obs, reward, done, _, _ = env.step(action)
            total += reward
        state = env.aec.game_state
        won += state.winner == env.seat
        result = -(start - state.coins[env.seat]) + (state.pot if state.winner == env.seat else 0)
        assert total == result, f"seed {seed}: the learner's rewards sum to {total}, its coins say {result}"
    assert won >= 20, "the pot reached the learner in some episodes"


# -- 6. copies of a live env play on identically --------------------------------------------------------


def _copies(env):
    return [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]


def _play_on_aec(envs_, rng):
    """Step every env with the same random legal actions to the end; each step's view must agree."""
    while envs_[0].agents:
        assert all(e.agents == envs_[0].agents for e in envs_)
        views = []
        for e in envs_:
            agent = e.agent_selection
            obs, reward, terminated, truncated, _ = e.last()
            views.append(
                (
                    agent,
                    obs["observation"].tobytes(),
                    obs["action_mask"].tobytes(),
                    reward,
                    terminated,
                    truncated,
                    dict(e.rewards),
                    dict(e.terminations),
                )
            )
        assert all(v == views[0] for v in views[1:])
        agent, _, mask, _, terminated, truncated = views[0][:6]
        if terminated or truncated:
            action = None
        else:
            legal = np.flatnonzero(np.frombuffer(mask, dtype=np.int8))
            action = int(rng.choice(legal))
        for e in envs_:
            e.step(action)


@pytest.mark.parametrize("kind", ["raw", "wrapped"])
@pytest.mark.parametrize("name", list(GAMES))
def test_copies_of_a_live_aec_env_play_on_identically(name, kind):
    env = (envs.make_raw if kind == "raw" else envs.make)(name)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(7):  # into the game (Swimming: past the deal; Swish: the random set-up is drawn)
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    _play_on_aec([env, *_copies(env)], np.random.default_rng(4))
    assert not any(e.agents for e in _copies(env))


@pytest.mark.parametrize("via_gymnasium", [False, True], ids=["SingleAgentEnv", "gymnasium.make"])
@pytest.mark.parametrize("name", list(GAMES))
def test_copies_of_a_live_single_agent_env_play_on_identically(name, via_gymnasium):
    opponent = "easy" if name == "swimming" else "random"  # Swimming's easy bot draws from its generator
    if via_gymnasium:
        env = gymnasium.make(GAMES[name].gym_id, opponent=opponent).unwrapped
    else:
        env = SingleAgentEnv(name, opponent=opponent)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(3):
        env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
    group = [env, *_copies(env)]
    done = False
    while not done:
        masks = [e.action_masks() for e in group]
        assert all(np.array_equal(m, masks[0]) for m in masks)
        action = int(rng.choice(np.flatnonzero(masks[0])))
        results = [e.step(action) for e in group]
        for obs, reward, terminated, truncated, info in results[1:]:
            assert np.array_equal(obs, results[0][0])
            assert (reward, terminated, truncated) == results[0][1:4]
            assert info.keys() == results[0][4].keys()
            assert all(np.array_equal(v, results[0][4][k]) for k, v in info.items())
        done = results[0][2]


def test_a_copy_of_a_rendering_env_draws_its_own_canvas():
    env = envs.make_raw("swival", render_mode="rgb_array")
    env.reset(seed=0)
    env.step(0)
    first = env.render()
    twin = pickle.loads(pickle.dumps(env))
    assert twin._canvas is None or twin._canvas is not env._canvas
    assert np.array_equal(twin.render(), first)


# -- 7. the mask handed out cannot change the game -------------------------------------------------------


def test_the_mask_handed_out_cannot_be_edited():
    env = envs.make_raw("swival")
    env.reset(seed=0)
    env.step(0)  # player_0 on cell 0
    mask = env.legal_mask()
    with pytest.raises(ValueError, match="read-only"):
        mask[1] = True  # cell 0 again (action 1 = cell 0 + swivel)
    with pytest.raises(RuleError, match="illegal action 0"):
        env.step(0)


# -- 8. a failing opponent ends the episode, named -------------------------------------------------------


class Broken:
    """An opponent that raises."""

    def reset(self, seed=None):
        pass

    def act(self, observation, action_mask, state=None):
        raise ZeroDivisionError("the broken bot divides by zero")

    def __repr__(self):
        return "Broken()"


class Cheat:
    """An opponent that always plays Swival's cell 0 (illegal once taken) or an action out of range."""

    def __init__(self, action):
        self.action = action

    def reset(self, seed=None):
        pass

    def act(self, observation, action_mask, state=None):
        return self.action

    def __repr__(self):
        return f"Cheat({self.action})"


@pytest.mark.parametrize(
    "opponent,named",
    [
        (Broken(), r"Broken\(\).*divides by zero"),
        (Cheat(0), r"Cheat\(0\).*illegal action 0"),
        (Cheat(99), r"Cheat\(99\).*99"),
        (Cheat(1.5), r"Cheat\(1.5\).*1.5"),
    ],
)
def test_a_failing_opponent_ends_the_episode_with_its_name_and_move(opponent, named):
    env = SingleAgentEnv("swival", opponent=opponent, seat=0)
    env.reset(seed=0)
    with pytest.raises(OpponentError, match=named):
        env.step(0)  # the learner takes cell 0; then the opponent fails
    assert env.action_masks().all(), "never the opponent's mask"
    with pytest.raises(RuntimeError, match=r"call reset\(\)"):
        env.step(3)


def test_an_opponent_failing_in_reset_leaves_the_env_done():
    env = SingleAgentEnv("swival", opponent=Broken(), seat=1)
    with pytest.raises(OpponentError, match="Broken"):
        env.reset(seed=0)
    assert env.action_masks().all()
    with pytest.raises(RuntimeError, match=r"call reset\(\)"):
        env.step(3)


# -- 11. seeds: what Gymnasium accepts, and numpy integers -----------------------------------------------

GOOD_SEEDS = [7, np.int64(7), np.uint32(7), np.int8(7)]
BAD_SEEDS = [-1, np.int64(-1), 1.5, "7", True, np.bool_(True), [7]]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", GOOD_SEEDS, ids=[repr(s) for s in GOOD_SEEDS])
def test_integer_seeds_give_the_int_seed_s_game(kind, seed):
    def observed(s):
        env = _fresh(kind)
        out = env.reset(seed=s)
        return (out[0] if kind == "single" else env.observe(env.agent_selection)["observation"]).tobytes()

    assert observed(seed) == observed(7)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", BAD_SEEDS, ids=[repr(s) for s in BAD_SEEDS])
def test_bad_seeds_are_refused_by_name(kind, seed):
    env = _fresh(kind)
    with pytest.raises((TypeError, ValueError), match="seed"):
        env.reset(seed=seed)


# -- smaller: the mask's dtype ----------------------------------------------------------------------------


def test_action_masks_are_bool_and_int8_on_request():
    env = SingleAgentEnv("swival", opponent="random", seat=0)
    env.reset(seed=0)
    env.step(0)
    assert env.action_masks().dtype == bool
    mask8 = env.action_masks(np.int8)
    assert mask8.dtype == np.int8 and np.array_equal(mask8.astype(bool), env.action_masks())
    env.action_space.seed(0)
    for _ in range(50):
        assert env.action_masks()[env.action_space.sample(mask=env.action_masks(np.int8))]


@pytest.mark.parametrize("game", ["swival", "swimming"])
def test_the_mask_reaches_libraries_through_info_and_wrappers(game):
    """info["action_mask"] (int8) survives TimeLimit and drives action_space.sample: only legal moves are played."""
    from gymnasium.wrappers import TimeLimit

    env = TimeLimit(SingleAgentEnv(game, opponent="random", illegal_action="raise"), max_episode_steps=500)
    env.action_space.seed(0)
    for episode in range(5):
        obs, info = env.reset(seed=episode)
        done = False
        while not done:
            mask = info["action_mask"]
            assert mask.dtype == np.int8 and mask.any()
            assert np.array_equal(mask, env.unwrapped.action_masks(np.int8))
            obs, reward, terminated, truncated, info = env.step(env.action_space.sample(mask=mask))
            done = terminated or truncated
        assert info["action_mask"].all()  # once over: all ones, never all zeros


def test_dict_observation_carries_the_mask():
    from gymnasium.utils.env_checker import check_env

    env = SingleAgentEnv("swival", opponent="random", dict_observation=True)
    check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=3)
    assert set(obs) == {"observation", "action_mask"} and env.observation_space.contains(obs)
    assert np.array_equal(obs["action_mask"], info["action_mask"])
    plain = SingleAgentEnv("swival", opponent="random")
    plain_obs, _ = plain.reset(seed=3)
    assert np.array_equal(obs["observation"], plain_obs)
    action = int(np.flatnonzero(obs["action_mask"])[0])
    obs, *_ = env.step(action)
    plain_obs, *_ = plain.step(action)
    assert np.array_equal(obs["observation"], plain_obs) and env.observation_space.contains(obs)


def test_gymnasium_finds_the_ids_without_import_envs():
    """gymnasium.make / make_vec with the module prefix work in a fresh interpreter that never imported envs."""
    import subprocess
    import sys

    code = (
        "import gymnasium, sys; assert 'envs' not in sys.modules; "
        "e = gymnasium.make('envs:swgym/Swival-v0', opponent='random'); e.reset(seed=0); "
        "v = gymnasium.make_vec('envs:swgym/Swival-v0', num_envs=2, vectorization_mode='vector_entry_point'); "
        "print(type(e.unwrapped).__name__, type(v).__name__)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["SingleAgentEnv", "BatchedVectorEnv"]
