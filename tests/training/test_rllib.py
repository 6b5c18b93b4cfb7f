"""RLlib's path (training/rllib.py): the env adapter, the masking module, its export, and a short self-play run.

Needs the ``rllib`` extra, which lives in its own virtualenv (``make test-rllib``);
skipped where Ray is not installed (the main ``.venv``).
"""

import numpy as np
import pytest

pytest.importorskip("ray.rllib", reason="the rllib extra lives in .venv-rllib (make test-rllib)")

import torch  # noqa: E402
from gymnasium import spaces  # noqa: E402
from ray.rllib.core.columns import Columns  # noqa: E402

from envs.play import play_game  # noqa: E402
from policies.numpy_policy import NumpyPolicy  # noqa: E402
from training.rllib import (  # noqa: E402
    MASK_KEY,
    OBS_KEY,
    MaskedActorCritic,
    TurnBasedMultiAgentEnv,
    export_arrays,
    make_mapping,
)

# (game, rules, players)
VARIANTS = [("swival", {}, 2), ("swahili", {"num_players": 4}, 4), ("swimming", {}, 4)]


def _random_game(env, seed):
    """Plays one game with random legal moves; every step's dicts and the returns per agent."""
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    steps, returns = [], dict.fromkeys(env.possible_agents, 0.0)
    env.actions_played = []
    while True:
        assert len(obs) == 1 or steps, obs  # reset: the first mover only
        movers = [a for a in obs if a == env.raw.agent_selection and not env.raw.game.is_over(env.raw.game_state)]
        (agent,) = movers
        mask = obs[agent][MASK_KEY]
        action = int(rng.choice(np.flatnonzero(mask)))
        env.actions_played.append(action)
        obs, rewards, terminated, truncated, _ = env.step({agent: action})
        for a, r in rewards.items():
            returns[a] += r
        steps.append((obs, rewards, terminated, truncated))
        if terminated["__all__"]:
            return steps, returns


@pytest.mark.parametrize("game,rules,players", VARIANTS)
def test_env_gives_one_observation_a_step_with_the_mask_and_every_seat_its_end(game, rules, players):
    env = TurnBasedMultiAgentEnv({"game": game, "params": rules})
    assert len(env.possible_agents) == players
    space = env.observation_spaces[env.possible_agents[0]]
    assert isinstance(space, spaces.Dict) and set(space.spaces) == {OBS_KEY, MASK_KEY}
    steps, returns = _random_game(env, seed=3)
    for obs, _, terminated, truncated in steps[:-1]:
        assert not terminated["__all__"] and not truncated["__all__"]
        assert len(obs) == 1 or any(terminated.get(a) for a in obs)  # the mover (and seats leaving the game)
        for o in obs.values():
            assert space.contains(o), o
    final_obs = steps[-1][0]
    assert set(final_obs) | {a for s in steps[:-1] for a, t in s[2].items() if t and a != "__all__"} == set(
        env.possible_agents
    )
    for o in final_obs.values():
        assert o[MASK_KEY].any()  # never an all-masked row for a network to read


@pytest.mark.parametrize("game,rules,players", VARIANTS)
def test_env_returns_are_the_aec_envs_returns(game, rules, players):
    """The rewards handed out add up, per seat, to what the same moves give in the AEC env."""
    from envs.registry import make_raw

    env = TurnBasedMultiAgentEnv({"game": game, "params": rules})
    steps, returns = _random_game(env, seed=5)
    assert any(r != 0 for r in returns.values())
    aec = make_raw(game, **rules)
    aec.reset(seed=5)
    expected = dict.fromkeys(aec.possible_agents, 0.0)
    for action in env.actions_played:
        aec.step(action)
        for a, r in aec.rewards.items():
            expected[a] += r
        while aec.agents and aec.terminations[aec.agent_selection] and not aec.game.is_over(aec.game_state):
            aec.step(None)
    assert returns == pytest.approx(expected)


def test_env_refuses_a_step_for_an_agent_not_to_move():
    env = TurnBasedMultiAgentEnv({"game": "swival"})
    env.reset(seed=0)
    with pytest.raises(ValueError, match="player_0 is to move"):
        env.step({"player_1": 3})


def test_env_needs_a_game():
    with pytest.raises(ValueError, match="config\\['game'\\]"):
        TurnBasedMultiAgentEnv({})


def _module(game, rules, net_arch, activation):
    env = TurnBasedMultiAgentEnv({"game": game, "params": rules})
    agent = env.possible_agents[0]
    torch.manual_seed(0)
    module = MaskedActorCritic(
        observation_space=env.observation_spaces[agent],
        action_space=env.action_spaces[agent],
        model_config={"net_arch": net_arch, "activation": activation},
    )
    return env, module


@pytest.mark.parametrize(
    "game,rules,net_arch,activation",
    [
        ("swival", {}, [64, 32], "tanh"),
        ("swahili", {"num_players": 4}, [32], "relu"),
        ("swimming", {}, [16, 16, 16], "tanh"),
    ],
)
def test_exported_network_gives_torchs_action_probabilities_and_values_in_numpy(game, rules, net_arch, activation):
    env, module = _module(game, rules, net_arch, activation)
    rng = np.random.default_rng(0)
    obs, masks = [], []
    for seed in range(6):  # real positions, some moves in
        o, _ = env.reset(seed=seed)
        for _ in range(seed):
            (agent,) = o
            o, *_ = env.step({agent: int(rng.choice(np.flatnonzero(o[agent][MASK_KEY])))})
            if env.raw.game.is_over(env.raw.game_state):
                break
        (o,) = [v for a, v in o.items() if a == env.raw.agent_selection]
        obs.append(o[OBS_KEY])
        masks.append(o[MASK_KEY])
    obs, masks = np.stack(obs), np.stack(masks)
    with torch.no_grad():
        batch = {Columns.OBS: {OBS_KEY: torch.as_tensor(obs), MASK_KEY: torch.as_tensor(masks)}}
        torch_probs = torch.softmax(module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS], -1).numpy()
        torch_values = module.compute_values(batch).numpy()
    meta, arrays = export_arrays(module.state_dict(), game, rules, obs.shape[1], env.num_actions, activation)
    assert meta["layers"] == {"pi": len(net_arch), "vf": len(net_arch)}
    policy = NumpyPolicy((meta, arrays), name=game, params=rules)
    numpy_probs = np.stack([policy.probabilities(o, m) for o, m in zip(obs, masks)])
    np.testing.assert_allclose(numpy_probs, torch_probs, atol=1e-5)
    np.testing.assert_allclose(policy.values(obs), torch_values, atol=1e-5)
    assert (torch_probs[masks == 0] == 0).all()  # masked actions get no probability in torch either


def test_module_refuses_an_observation_without_the_mask():
    env = TurnBasedMultiAgentEnv({"game": "swival"})
    box = env.observation_spaces["player_0"][OBS_KEY]
    with pytest.raises(ValueError, match="Dict observation space"):
        MaskedActorCritic(observation_space=box, action_space=env.action_spaces["player_0"], model_config={})


@pytest.mark.parametrize("players", [2, 4])
def test_mapping_gives_main_one_seat_and_the_others_main_or_a_snapshot(players):
    agents = [f"player_{i}" for i in range(players)]
    mapping = make_mapping(agents, snapshots=3, self_play_share=0.5)
    seen, main_seats = set(), set()
    for episode in range(200):
        modules = [mapping(a, f"episode-{episode}") for a in agents]
        assert modules == [mapping(a, f"episode-{episode}") for a in agents]  # fixed for the episode
        assert "main" in modules
        main_seats.add(modules.index("main"))
        seen.update(modules)
    assert seen == {"main", "snapshot_0", "snapshot_1", "snapshot_2"}
    assert main_seats == set(range(players))


# -- end to end: one Ray start for both games --------------------------------------------------------------------
E2E = [("swival", {}), ("swahili", {"num_players": 4})]


@pytest.fixture(scope="module")
def ray_local():
    import ray

    from training.rllib import start_ray

    start_ray(num_cpus=2)
    yield
    ray.shutdown()


@pytest.mark.parametrize("game,rules", E2E)
def test_short_self_play_run_exports_a_policy_that_plays_a_legal_game_with_numpy(
    ray_local, tmp_path, game, rules, capsys
):
    from training.rllib import train

    summary = train(
        game,
        tmp_path,
        log=lambda line: None,
        params=rules,
        iterations=2,
        train_batch_size=300,
        minibatch_size=100,
        num_epochs=1,
        snapshots=2,
        snapshot_every=1,
        eval_every=0,
        eval_games=2,
        eval_opponents=["random"],
        num_env_runners=1,
        num_envs_per_env_runner=2,
    )
    assert summary["env_steps"] >= 600
    assert set(summary["curve"][-1]["eval"]) == {"random"}
    policy = NumpyPolicy(summary["policy"], name=game, params=rules)  # the file, checked against the env
    assert policy.meta["trained_with"] == "rllib"
    players = [policy] + [
        NumpyPolicy(summary["policy"], name=game, params=rules, temperature=1.0, seed=s)
        for s in range(len(TurnBasedMultiAgentEnv({"game": game, "params": rules}).possible_agents) - 1)
    ]
    record = play_game(game, players, seed=1, **rules)  # the raw env: an illegal move would raise
    assert record.plies > 0
    from scripts.cli import main  # and as an opponent in swgym eval, by its path

    rule_args = [arg for k, v in rules.items() for arg in ("--rule", f"{k}={v}")]
    n = len(players)
    main(["eval", game, summary["policy"], *["random"] * (n - 1), "--games", str(n), *rule_args])
    assert f"{n:>5}" in capsys.readouterr().out


def test_swgym_train_backend_rllib_hands_rules_steps_and_cluster_to_train(monkeypatch, tmp_path, capsys):
    import training.rllib
    from scripts.cli import main

    calls = []

    def fake_train(game, out, address=None, **overrides):
        calls.append((game, out, address, overrides))
        return {"game": game, "policy": str(out / "p.npz"), "curve": [], "settings": {}}

    monkeypatch.setattr(training.rllib, "train", fake_train)
    main(
        [
            "train",
            "swahili",
            "--backend",
            "rllib",
            "--rule",
            "num_players=4",
            "--steps",
            "9000",
            "--address",
            "auto",
            "--env-runners",
            "2",
            "--seed",
            "3",
            "--out",
            str(tmp_path),
        ]
    )
    ((game, out, address, overrides),) = calls
    assert (game, out, address) == ("swahili", tmp_path, "auto")
    assert overrides == {"iterations": 3, "num_env_runners": 2, "seed": 3, "params": {"num_players": 4}}
    assert "swgym eval swahili" in capsys.readouterr().out


def test_swgym_train_backend_rllib_refuses_what_only_sb3_does():
    from scripts.cli import main

    with pytest.raises(SystemExit, match="--ship not supported with --backend rllib"):
        main(["train", "swival", "--backend", "rllib", "--ship"])


def test_a_snapshot_slot_gets_mains_weights_in_the_learner_and_the_env_runners(ray_local):
    from training.rllib import build_config, copy_module, settings

    s = settings(
        "swival",
        num_env_runners=1,
        num_envs_per_env_runner=1,
        snapshots=1,
        train_batch_size=100,
        minibatch_size=50,
        num_epochs=1,
    )
    config, _ = build_config("swival", s)
    algo = config.build_algo()
    try:
        algo.train()  # main moves away from the snapshot's initial weights
        learner = algo.learner_group.get_weights(module_ids=["main", "snapshot_0"])
        assert not np.allclose(learner["main"]["action_head.weight"], learner["snapshot_0"]["action_head.weight"])
        copy_module(algo, "main", "snapshot_0")
        learner = algo.learner_group.get_weights(module_ids=["main", "snapshot_0"])
        (runner,) = algo.env_runner_group.foreach_env_runner(
            lambda er: {k: v.detach().numpy() for k, v in er.module["snapshot_0"].state_dict().items()},
            local_env_runner=False,
        )
        for name, value in learner["main"].items():
            np.testing.assert_array_equal(learner["snapshot_0"][name], value)
            np.testing.assert_array_equal(runner[name], value)
    finally:
        algo.stop()


# -- Gumbel Expert Iteration's generators as Ray tasks (training/gumbel.py) ---------------------------------------
GUMBEL_TINY = {
    "boards": 16,
    "games": 16,
    "simulations": 8,
    "cheap_simulations": 2,
    "full_share": 0.5,
    "hidden": [16],
    "generators": 2,
    "iterations": 2,
}


def _gumbel_chunks(folder):
    return {p.name: dict(np.load(p)) for p in sorted((folder / "games").glob("chunk_*.npz"))}


def test_swgym_train_gumbel_runs_two_generators_on_ray_learns_here_and_resumes(ray_local, tmp_path, monkeypatch):
    """``swgym train --backend gumbel --address local`` on a Ray of two CPUs: each iteration both generators'
    positions come back as Ray objects and are written as chunks (the same as the generators played here, without
    Ray), the learner fits the network and writes network.npz and the checkpoint, and ``--resume`` goes on."""
    import json

    from scripts.cli import main
    from training.gumbel import RayGenerators, Settings, train

    ray_runs = []
    original_run = RayGenerators.run

    def counted_run(self, *args):
        results = original_run(self, *args)
        ray_runs.append(len(results))
        return results

    monkeypatch.setattr(RayGenerators, "run", counted_run)
    config = tmp_path / "tiny.json"
    config.write_text(json.dumps({"game": "swival", "gumbel": GUMBEL_TINY}))
    run = ["train", "swival", "--backend", "gumbel", "--config", str(config), "--out", str(tmp_path / "ray")]
    main([*run, "--address", "local"])
    assert ray_runs == [2, 2]  # two iterations, each with two generators' results from Ray
    chunks = _gumbel_chunks(tmp_path / "ray")
    assert list(chunks) == [f"chunk_0000{k}_00{g}.npz" for k in (0, 1) for g in (0, 1)]
    assert all(len(chunk["value"]) > 0 for chunk in chunks.values())
    state = json.loads((tmp_path / "ray" / "checkpoint.json").read_text())
    assert state["iteration"] == 2 and (tmp_path / "ray" / "checkpoint.pt").exists()
    assert all(np.isfinite(point["losses"]).all() and point["games"] >= 16 for point in state["curve"])
    policy = NumpyPolicy(tmp_path / "ray" / "network.npz", name="swival")
    assert policy.meta["search"]["kind"] == "gumbel"

    here = train("swival", {}, Settings.from_config(GUMBEL_TINY), tmp_path / "here", log=lambda line: None)
    assert here["iteration"] == 2
    here_chunks = _gumbel_chunks(tmp_path / "here")
    assert list(here_chunks) == list(chunks)
    for name, chunk in chunks.items():
        for key, value in chunk.items():
            np.testing.assert_array_equal(value, here_chunks[name][key], err_msg=f"{name}: {key}")

    main([*run, "--address", "local", "--iterations", "3", "--resume"])
    assert ray_runs == [2, 2, 2]
    state = json.loads((tmp_path / "ray" / "checkpoint.json").read_text())
    assert state["iteration"] == 3 and [point["iteration"] for point in state["curve"]] == [1, 2, 3]
    assert sorted(_gumbel_chunks(tmp_path / "ray"))[-2:] == ["chunk_00002_000.npz", "chunk_00002_001.npz"]
