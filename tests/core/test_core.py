"""The shared core: snapshots, the single-agent env's errors and options, bots' explain."""

import gymnasium
import numpy as np
import pytest

import envs
from envs.core.game import RuleError
from envs.core.opponents import RandomOpponent
from envs.opponents import make_opponent
from envs.single_agent import SingleAgentEnv


def test_snapshot_restore_puts_the_env_back_exactly():
    env = envs.make_raw("swival")
    env.reset(seed=4)
    env.step(0)
    snap = env.snapshot()
    before = env.observe(env.agent_selection)
    env.step(int(np.flatnonzero(env.legal_mask())[3]))
    env.restore(snap)
    after = env.observe(env.agent_selection)
    assert np.array_equal(before["observation"], after["observation"])
    assert np.array_equal(before["action_mask"], after["action_mask"])
    assert env.agent_selection == "player_1" and env.last_move == (0, 0)


def test_single_agent_bad_arguments_are_named():
    with pytest.raises(ValueError, match="seat must be"):
        SingleAgentEnv("swival", seat=2)
    with pytest.raises(ValueError, match="1 opponent"):
        SingleAgentEnv("swival", opponent=["easy", "easy"])
    with pytest.raises(ValueError, match="illegal_action"):
        SingleAgentEnv("swival", illegal_action="ignore")
    with pytest.raises(ValueError, match="unknown opponent 'grandmaster'"):
        SingleAgentEnv("swival", opponent="grandmaster")
    with pytest.raises(TypeError, match="opponent must be"):
        make_opponent("swival", 42)


def test_single_agent_illegal_action_loses_or_raises():
    env = SingleAgentEnv("swival", seat=0)
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(1)  # a swivel with no counter yet
    assert reward == -1.0 and terminated and "illegal action 1" in info["illegal_action"]
    strict = SingleAgentEnv("swival", seat=0, illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(RuleError, match="illegal action 1 .*legal: 0 \\(o0\\)"):
        strict.step(1)


def test_single_agent_fixed_seat_and_object_opponent():
    env = gymnasium.make("swgym/Swival-v0", opponent=RandomOpponent(3), seat=1)
    _, info = env.reset(seed=0)
    assert info["seat"] == 1
    assert env.action_masks().sum() > 0


def test_learner_reward_is_the_whole_game_outcome():
    env = SingleAgentEnv("swival", opponent="easy")
    outcomes = set()
    rng = np.random.default_rng(0)
    for seed in range(30):
        env.reset(seed=seed)
        rewards, done = [], False
        while not done:
            legal = np.flatnonzero(env.action_masks())
            _, reward, done, _, info = env.step(int(rng.choice(legal)))
            rewards.append(reward)
        expected = 0.0 if not info["winners"] else (1.0 if env.seat in info["winners"] else -1.0)
        assert rewards[-1] == expected and not any(rewards[:-1])
        outcomes.add(expected)
    assert {1.0, -1.0} <= outcomes, "both a win and a loss (the opponent's winning move) reached the learner"


def test_explain_leaves_the_bot_choice_unchanged():
    env = envs.make_raw("swival")
    env.reset(seed=1)
    obs = env.observe(env.agent_selection)
    a = make_opponent("swival", "medium", seed=9)
    b = make_opponent("swival", "medium", seed=9)
    brain = a.explain(obs["observation"], obs["action_mask"], env.game_state, top=4)
    assert len(brain["moves"]) == 4 and brain["kind"] == "scores"
    assert (
        a.act(obs["observation"], obs["action_mask"], env.game_state)
        == b.act(obs["observation"], obs["action_mask"], env.game_state)
        == brain["choice"]
    )


# (players, winners, shared, rewards): +1 to the winners, -1 to the rest; shared splits both
WIN_LOSS = [
    (2, [0], False, [1.0, -1.0]),
    (2, [1], False, [-1.0, 1.0]),
    (2, [], False, [0.0, 0.0]),
    (4, [2], False, [-1.0, -1.0, 1.0, -1.0]),
    (4, [2], True, [-1 / 3, -1 / 3, 1.0, -1 / 3]),
    (4, [0, 3], True, [0.5, -0.5, -0.5, 0.5]),
    (3, [0, 1, 2], True, [0.0, 0.0, 0.0]),
    (3, [], True, [0.0, 0.0, 0.0]),
]


@pytest.mark.parametrize("n,winners,shared,rewards", WIN_LOSS)
def test_win_loss_rewards(n, winners, shared, rewards):
    from envs.core.rewards import win_loss_rewards

    assert win_loss_rewards(n, winners, shared=shared) == pytest.approx(rewards)


def test_win_loss_rewards_rejects_a_seat_out_of_range():
    from envs.core.rewards import win_loss_rewards

    with pytest.raises(ValueError, match="winner seat 2 is not a seat of a 2-player game"):
        win_loss_rewards(2, [2])


# -- the one drive loop (envs/core/match.py: next_turn / turns) ------------------------------------------------
def test_turns_drives_a_game_with_sunk_players_to_the_end_and_sums_returns():
    """Swimming with 4 players: sunk players leave mid-game through dead steps; ``returns`` equals the rewards
    summed step by step, and every agent yielded is live and to move."""
    from envs.core.match import turns

    env = envs.make_raw("swimming", num_players=4)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    summed = dict.fromkeys(env.possible_agents, 0.0)
    decisions, sizes = 0, set()

    def note_size() -> bool:  # asked at every selection, dead steps included
        sizes.add(len(env.agents))
        return False

    for agent in turns(env, stop=note_size, returns=returns):
        assert agent == env.agent_selection and not (env.terminations[agent] or env.truncations[agent])
        env.step(int(rng.choice(np.flatnonzero(env.legal_mask()))))
        decisions += 1
        for a, r in env.rewards.items():
            summed[a] += r
    assert env.agents == [] and returns == summed and sum(returns.values()) == 0
    assert (decisions, returns["player_2"], sizes) == (220, 9.0, {1, 2, 3, 4})  # seed 3: player_2 takes the pot


@pytest.mark.parametrize("stop_after,expected_decisions", [(0, 0), (1, 1), (5, 5)])
def test_turns_stops_when_asked(stop_after, expected_decisions):
    from envs.core.match import turns

    env = envs.make_raw("swival")
    env.reset(seed=0)
    seen = []
    for agent in turns(env, stop=lambda: len(seen) >= stop_after):
        seen.append(agent)
        env.step(int(np.flatnonzero(env.legal_mask())[0]))
    assert len(seen) == expected_decisions and env.agents == env.possible_agents
