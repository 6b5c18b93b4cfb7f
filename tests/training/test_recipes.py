"""Tested recipe: Tianshou's PettingZooEnv on a swgym game (the RLlib recipe is tests/training/test_rllib.py).

A DQN learner in seat 0 against Tianshou's masked random player, a short
collect-and-update run, then test episodes on the bare env (where an illegal
move raises ``RuleError`` instead of ending the game), so the mask is shown to
reach Tianshou's Q-values. Needs tianshou (the ``tianshou`` extra, installed in
``.venv-rllib`` by ``make test-rllib``: its pins, pandas<3 among them, hold
there; skipped elsewhere).
"""

import numpy as np
import pytest

pytest.importorskip("tianshou", reason="the tianshou extra lives in .venv-rllib (make test-rllib)")

import torch  # noqa: E402
from tianshou.algorithm import DQN  # noqa: E402
from tianshou.algorithm.algorithm_base import policy_within_training_step  # noqa: E402
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy  # noqa: E402
from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm  # noqa: E402
from tianshou.algorithm.optim import AdamOptimizerFactory  # noqa: E402
from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm  # noqa: E402
from tianshou.data import Collector, VectorReplayBuffer  # noqa: E402
from tianshou.env import DummyVectorEnv, PettingZooEnv  # noqa: E402
from tianshou.utils.net.common import Net  # noqa: E402

import envs  # noqa: E402


@pytest.mark.parametrize("game,rules", [("swahili", {})])
def test_tianshou_dqn_against_random_on_pettingzooenv(game, rules):
    def make():
        return PettingZooEnv(envs.make_raw(game, **rules))  # bare env: an illegal move raises

    env = make()
    torch.manual_seed(0)
    obs_size = int(np.prod(env.observation_space["observation"].shape))
    net = Net(state_shape=obs_size, action_shape=env.action_space.n, hidden_sizes=[64, 64])
    learner = DQN(
        policy=DiscreteQLearningPolicy(model=net, action_space=env.action_space, eps_training=0.1),
        optim=AdamOptimizerFactory(lr=1e-3),
        gamma=0.99,
        target_update_freq=50,
    )
    players = [learner] + [
        MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space) for _ in env.agents[1:]
    ]
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=players, env=env)
    train_envs = DummyVectorEnv([make for _ in range(2)])
    train_envs.seed(0)
    collector = Collector(algorithm, train_envs, VectorReplayBuffer(2000, 2), exploration_noise=True)
    collected = collector.collect(n_step=400, reset_before_collect=True)
    assert collected.n_collected_steps >= 400
    before = [p.detach().clone() for p in net.parameters()]
    with policy_within_training_step(algorithm.policy):
        for _ in range(5):
            algorithm.update(collector.buffer, sample_size=64)
    assert any(not torch.equal(a, b) for a, b in zip(before, net.parameters()))  # the learner learned
    test_envs = DummyVectorEnv([make for _ in range(2)])
    test_envs.seed(1)
    played = Collector(algorithm, test_envs).collect(n_episode=4, reset_before_collect=True)
    assert played.n_collected_episodes == 4  # whole games of legal moves (an illegal one raises RuleError)
