"""swgym train on the batched vector env: path choice, the pool played batched, tiny runs per engine, resume."""

import json

import numpy as np
import pytest

import envs
from envs.registry import GAMES
from tests.training_helpers import tiny_config
from training import selfplay
from training.pool import BatchPool
from training.sb3_vec import make_sb3_vec
from training.selfplay import (
    CONFIG_DIR,
    load_config,
    run_settings,
    train,
    uses_vector_env,
)

ENGINES = [name for name, e in GAMES.items() if e.batched]
WITHOUT = [name for name, e in GAMES.items() if not e.batched]
# the PPO defaults every shipped network was trained with (DEFAULTS["ppo"] before the vector path)
SHIPPED_PPO_DEFAULTS = {
    "n_steps": 256,
    "batch_size": 512,
    "learning_rate": 3e-4,
    "n_epochs": 4,
    "gamma": 0.99,
    "gae_lambda": 0.95,
    "ent_coef": 0.01,
}


def _first_legal(obs, masks):
    return masks.argmax(axis=1)


def _last_legal(obs, masks):
    return masks.shape[1] - 1 - masks[:, ::-1].argmax(axis=1)


@pytest.mark.parametrize(
    "game, env, shaping, expected",
    [
        ("swival", "auto", False, True),
        ("swival", "single", False, False),
        ("swival", "vector", False, True),
        ("swish", "auto", True, False),  # this potential exists on the single-agent env only
        *[(g, "auto", False, False) for g in WITHOUT],
        *[(g, "single", False, False) for g in WITHOUT],
    ],
)
def test_the_path_is_chosen_from_the_registry(game, env, shaping, expected):
    config = tiny_config(game, env=env, shaping={"potential": "hex_store_lead"} if shaping else None)
    assert uses_vector_env(config) is expected


@pytest.mark.parametrize(
    "game, env, shaping, message",
    [
        *[(g, "vector", False, "has no batched engine") for g in WITHOUT],
        ("swish", "vector", True, "reward shaping"),
        ("swival", "gpu", False, "env must be one of"),
    ],
)
def test_an_impossible_path_is_refused_by_name(game, env, shaping, message):
    with pytest.raises(ValueError, match=message):
        uses_vector_env(tiny_config(game, env=env, shaping={"potential": "hex_store_lead"} if shaping else None))


@pytest.mark.parametrize("path", sorted(CONFIG_DIR.glob("*.json")), ids=lambda p: p.stem)
def test_every_config_keeps_its_shipped_training_path(path):
    """``env: single`` gives the n_envs and PPO settings the shipped network was trained with; the vector
    path has its own board count and batch sizes in the config."""
    raw = json.loads(path.read_text())
    config = load_config(str(path))
    assert run_settings({**config, "env": "single"}) == (
        raw.get("n_envs", 8),
        {**SHIPPED_PPO_DEFAULTS, **raw.get("ppo", {})},
    )
    boards, ppo = run_settings({**config, "env": "auto"})
    if config["game"] in ENGINES and not config.get("shaping"):
        assert boards == config["vector"]["num_envs"] and ppo["batch_size"] == config["vector"]["ppo"]["batch_size"]
    else:
        assert (boards, ppo) == run_settings({**config, "env": "single"})


def test_batch_pool_draws_members_only_for_boards_that_start_a_game():
    pool = BatchPool("swival", ["random", "medium", "easy"], [0.5, 0.3, 0.2], {}, seed=1)
    n = 4000
    pool.new_games(np.ones(n, dtype=bool))
    before = pool.choice.copy()
    assert pool.shares() == pytest.approx({"random": 0.5, "medium": 0.3, "easy": 0.2}, abs=0.03)
    where = np.zeros(n, dtype=bool)
    where[::2] = True
    pool.new_games(where)
    assert np.array_equal(pool.choice[~where], before[~where])
    assert (pool.choice[where] != before[where]).mean() > 0.4


def test_batch_pool_asks_each_member_once_for_its_boards():
    calls = []

    def recording(fn, name):
        def member(obs, masks):
            calls.append((name, len(obs)))
            return fn(obs, masks)

        return member

    pool = BatchPool("swival", [recording(_first_legal, "first"), recording(_last_legal, "last")], [1, 1], {}, seed=0)
    batch = envs.make_batched("swival", 64, seed=3)
    boards = np.arange(0, 64, 2)
    actions = pool.actions(batch, boards)
    assert sorted(name for name, _ in calls) == ["first", "last"]
    assert sum(k for _, k in calls) == boards.size
    masks = batch.legal_mask()[boards]
    expected = np.where(pool.choice[boards] == 0, _first_legal(None, masks), _last_legal(None, masks))
    assert np.array_equal(actions, expected)


def test_the_vector_env_tells_the_pool_which_boards_start_a_game():
    vec = make_sb3_vec("swival", 32, seed=0)
    pool = BatchPool("swival", ["random", _first_legal], [0.5, 0.5], {}, seed=0)
    vec.env_method("set_opponents", [pool])
    starts = []
    new_games = pool.new_games
    pool.new_games = lambda where: (starts.append(np.asarray(where).copy()), new_games(where))
    vec.reset()
    assert starts[-1].all()
    seen_done = False
    for _ in range(200):
        starts.clear()
        _, _, dones, _ = vec.step(vec.action_masks().argmax(axis=1))
        restarted = np.any(starts, axis=0) if starts else np.zeros(32, dtype=bool)
        assert np.array_equal(restarted, dones)
        seen_done |= dones.any()
    assert seen_done


def _tiny_vector_config(game, **over):
    config = tiny_config(
        game,
        total_timesteps=2048,
        env="vector",
        vector={"num_envs": 16, "ppo": {"n_steps": 16, "batch_size": 128}},
        eval={"every": 1024, "games": 2, "opponent": "medium"},
        pool={
            "snapshot_every": 512,
            "max_snapshots": 2,
            "start": {"random": 0.7, "easy": 0.3},
            "later": {"random": 0.3, "easy": 0.2, "snapshots": 0.5},
        },
        checkpoint={"every": 0},
    )
    config.update(over)
    return config


@pytest.mark.parametrize("game", ENGINES)
def test_a_tiny_vector_run_exports_a_policy_that_plays_a_full_game(game, tmp_path):
    from policies.numpy_policy import NumpyPolicy

    summary = train(_tiny_vector_config(game), tmp_path, progress_bar=False, tensorboard=False)
    assert summary["env"] == "vector" and summary["trained_timesteps"] == 2048
    assert [c["timesteps"] for c in summary["curve"]] == [1024, 2048]
    assert (tmp_path / "learning_curve.png").stat().st_size > 0
    assert len(list((tmp_path / "snapshots").glob("*.npz"))) == 4
    policy = NumpyPolicy(summary["policy"], name=game)
    env = envs.make_raw(game)  # an illegal move raises here
    env.reset(seed=0)
    moves = 0
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else policy.act(obs["observation"], obs["action_mask"]))
        moves += 1
    assert moves > 2 and (all(env.terminations.values()) or all(env.truncations.values()))


def test_an_interrupted_run_resumes_from_its_checkpoint_to_the_same_total(tmp_path, monkeypatch):
    config = _tiny_vector_config(
        "swival", checkpoint={"every": 1024}, eval={"every": 1024, "games": 2, "opponent": "random"}
    )
    whole = train(config, tmp_path / "whole", progress_bar=False, tensorboard=False)

    class Interrupted(Exception):
        pass

    save = selfplay.SelfPlayCallback.save_checkpoint

    def save_then_stop(self):
        save(self)
        raise Interrupted

    monkeypatch.setattr(selfplay.SelfPlayCallback, "save_checkpoint", save_then_stop)
    with pytest.raises(Interrupted):
        train(config, tmp_path / "cut", progress_bar=False, tensorboard=False)
    state = json.loads((tmp_path / "cut" / "checkpoint" / "state.json").read_text())
    assert state["num_timesteps"] == 1024 and len(state["snapshots"]) == 2
    monkeypatch.setattr(selfplay.SelfPlayCallback, "save_checkpoint", save)
    resumed = train(config, tmp_path / "cut", progress_bar=False, tensorboard=False, resume=True)
    assert resumed["trained_timesteps"] == whole["trained_timesteps"] == 2048
    assert [c["timesteps"] for c in resumed["curve"]] == [c["timesteps"] for c in whole["curve"]]


def test_resume_refuses_a_changed_config(tmp_path, monkeypatch):
    config = _tiny_vector_config(
        "swival", total_timesteps=512, checkpoint={"every": 256}, eval={"every": 1024, "games": 2, "opponent": "random"}
    )
    train(config, tmp_path, progress_bar=False, tensorboard=False)
    with pytest.raises(ValueError, match=r"differs from this run's config in \['seed'\]"):
        train({**config, "seed": 5}, tmp_path, progress_bar=False, tensorboard=False, resume=True)


@pytest.mark.parametrize(
    "members, weights, cap, expected",
    [
        (["random", "medium"], [0.5, 0.5], None, [0.5, 0.5]),
        (["random", "medium"], [0.5, 0.5], 0.1, [0.9, 0.1]),
        (["random", "easy", "medium", "snap.npz"], [0.05, 0.1, 0.45, 0.4], 0.11, [0.0989, 0.02, 0.09, 0.7911]),
        (["random", "medium"], [0.9, 0.1], 0.2, [0.9, 0.1]),  # under the cap: unchanged
        (["medium", "easy"], [0.5, 0.5], 0.1, [0.5, 0.5]),  # bots only: nothing else takes their boards
        (["random", "medium"], [0.5, 0.5], 0.0, [1.0, 0.0]),
    ],
)
def test_the_bots_share_of_boards_is_capped(members, weights, cap, expected):
    from training.pool import cap_bot_share

    assert cap_bot_share(members, weights, cap) == pytest.approx(expected, abs=1e-4)


@pytest.mark.parametrize("cap", [-0.1, 1.5])
def test_a_bad_bot_share_is_refused(cap):
    from training.pool import cap_bot_share

    with pytest.raises(ValueError, match="max_bot_share must be in"):
        cap_bot_share(["random", "medium"], [1, 1], cap)


def test_training_on_the_vector_env_keeps_the_bots_to_the_configs_share(tmp_path, monkeypatch):
    built = []

    class Recording(BatchPool):
        def __init__(self, game, members, weights, params, seed=None):
            super().__init__(game, members, weights, params, seed)
            built.append(dict(zip(members, self.weights)))

    monkeypatch.setattr(selfplay, "BatchPool", Recording)
    config = _tiny_vector_config("swival", total_timesteps=256)
    config["pool"]["start"] = {"random": 0.5, "medium": 0.5}
    config["vector"]["max_bot_share"] = 0.1
    train(config, tmp_path, progress_bar=False, tensorboard=False)
    assert built[0] == pytest.approx({"random": 0.9, "medium": 0.1})


def test_the_ppo_bench_splits_the_batched_runs_time_and_names_bad_settings():
    from scripts.bench import format_ppo_table, ppo_run, ppo_settings

    rows = ppo_run(
        "swival",
        rounds=1,
        steps=256,
        single_envs=2,
        single_steps=64,
        single_n_steps=16,
        num_envs=8,
        n_steps=8,
        batch_size=64,
        n_epochs=1,
        net_arch=[8],
    )
    batched, single = rows
    parts = sum(batched[k] for k in ("engine_s", "opponent_s", "rollout_torch_s", "update_s"))
    assert parts == pytest.approx(batched["total_s"]) and min(batched[k] for k in batched if k.endswith("_s")) >= 0
    assert batched["env_steps_per_s"] > 0 and single["env_steps_per_s"] > 0
    assert "N=8 n_steps=8 batch=64 epochs=1 net=[8] vs random" in format_ppo_table(rows)
    assert ppo_settings("swival")["num_envs"] == load_config("swival")["vector"]["num_envs"]
    with pytest.raises(ValueError, match=r"unknown PPO bench setting\(s\) \['boards'\]"):
        ppo_settings("swival", boards=4)


@pytest.mark.parametrize(
    "argv, resume, env",
    [
        ([], None, "auto"),
        (["--resume"], True, "auto"),
        (["--env", "single"], None, "single"),
        (["--resume", "--env", "vector"], True, "vector"),
    ],
)
def test_swgym_train_passes_resume_and_env_on(argv, resume, env, monkeypatch, tmp_path):
    from scripts.cli import main

    seen = {}

    def fake_train(config, out, ship_to=None, progress_bar=True, **kwargs):
        seen.update(env=config["env"], resume=kwargs.get("resume"))
        return {"curve": []}

    monkeypatch.setattr(selfplay, "train", fake_train)
    main(["train", "swival", "--out", str(tmp_path / "run"), *argv])
    assert seen == {"env": env, "resume": resume}


def test_resume_names_a_damaged_checkpoint_and_a_fresh_run_drops_an_old_one(tmp_path):
    config = _tiny_vector_config(
        "swival", total_timesteps=512, checkpoint={"every": 256}, eval={"every": 1024, "games": 2, "opponent": "random"}
    )
    train(config, tmp_path, progress_bar=False, tensorboard=False)
    weights = tmp_path / "checkpoint" / "weights.pt"
    weights.write_bytes(b"not a checkpoint")
    with pytest.raises(ValueError, match="cannot resume from .*checkpoint"):
        train(config, tmp_path, progress_bar=False, tensorboard=False, resume=True)
    train({**config, "checkpoint": {"every": 0}}, tmp_path, progress_bar=False, tensorboard=False)
    assert not (tmp_path / "checkpoint").exists()
