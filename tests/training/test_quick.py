"""The quick path (``swgym train GAME --minutes M``): phases within a budget, their progress, refusals."""

import json
import time
from dataclasses import replace

import numpy as np
import pytest
import torch

from envs import make
from envs.opponents import make_opponent
from envs.play import play_series
from policies.numpy_policy import NumpyPolicy, read_policy_file, write_policy_file
from scripts.cli import main
from tests.training_helpers import tiny_config
from training import quick
from training.quick import PHASES, SEARCH, Clock, Log, QuickSettings, _model, phase_budgets, ppo, quick_train

torch.set_num_threads(1)

TINY = QuickSettings(
    opponents={"easy": 1.0},
    boards=16,
    batch_size=64,
    ppo_envs=16,
    ppo={"n_steps": 8, "batch_size": 64, "n_epochs": 1, "learning_rate": 1e-4},
    ppo_steps=256,
    eval_games=4,
)


def test_a_budget_too_small_for_a_phase_is_refused_naming_it():
    with pytest.raises(ValueError, match="leaves the record .*imitate .*ppo .*evaluate"):
        phase_budgets(3.0)
    budgets = phase_budgets(600.0)
    assert list(budgets) == list(PHASES) and sum(budgets.values()) == pytest.approx(600.0)


@pytest.mark.parametrize(
    "extra, named",
    [(["--ship"], "--ship"), (["--resume"], "--resume"), (["--env", "single"], "--env"), (["--iterations", "3"],
     "--iterations"), (["--backend", "gumbel"], "--backend")],
)  # fmt: skip
def test_options_no_quick_phase_takes_are_refused(tmp_path, extra, named):
    with pytest.raises(SystemExit, match=f"--minutes .*does not take {named}"):
        main(["train", "swival", "--minutes", "1", "--out", str(tmp_path / "run"), *extra])
    assert not (tmp_path / "run").exists(), "refused before any work"


def test_cli_refuses_minutes_that_leave_a_phase_nothing(tmp_path):
    with pytest.raises(SystemExit, match="leaves the record"):
        main(["train", "swival", "--minutes", "0.01", "--out", str(tmp_path / "run")])


def test_quick_run_writes_a_playable_file_and_logs_every_phase(tmp_path):
    config = tiny_config("swival", net_arch=[32, 32])
    summary = quick_train("swival", {}, 0.25, tmp_path, config, TINY)
    log = (tmp_path / "log.txt").read_text().splitlines()
    for phase in PHASES:
        lines = [line for line in log if f" {phase}: " in line]
        assert lines, f"no progress line of {phase}"
        assert any(" s left" in line for line in lines), f"{phase}'s lines do not say what is left"
    assert 0 < summary["ppo_steps"] <= TINY.ppo_steps, "--steps bounds the ppo phase"
    assert summary["chosen"] in ("imitation", "ppo")
    assert set(summary["scores_vs_easy"]) == {"imitation", "ppo"}
    assert all(games >= 2 for _, games in summary["scores_vs_easy"].values())
    saved = json.loads((tmp_path / "summary.json").read_text())
    assert saved["policy"] == summary["policy"]
    policy = NumpyPolicy(summary["policy"], name="swival")  # numpy only: no torch to play it
    assert policy.meta["game"] == "swival"
    result = play_series("swival", [summary["policy"], "easy"], 2, seed=1)
    assert result.games == 2 and np.isfinite(result.returns).all()


def test_steps_bound_the_ppo_phase_before_its_time(tmp_path):
    model = _model("swival", {}, tiny_config("swival", net_arch=[16]), TINY)
    clock = Clock("ppo", time.time() + 3600, Log("swival", tmp_path))
    assert ppo(model, TINY, clock) == TINY.ppo_steps  # two rollouts of 16 boards x 8 steps, far before the hour
    assert "ppo: 256 env steps" in (tmp_path / "log.txt").read_text()


@pytest.mark.parametrize("name", sorted(SEARCH))
def test_the_search_a_quick_file_names_plays_a_legal_move(tmp_path, name):
    """Each game's entry of ``SEARCH`` is what the quick file's meta carries: with a network of the game, it
    loads as an opponent and moves legally (an action of another game, or a bad key, would fail here)."""
    meta, arrays = read_policy_file(f"policies/{name}_hard.npz")
    write_policy_file(tmp_path / "quick.npz", {**meta, "search": SEARCH[name]}, arrays)
    env = make(name)
    env.reset(seed=3)
    seen = env.observe(env.agent_selection)
    player = make_opponent(name, str(tmp_path / "quick.npz"), seed=0)
    assert type(player).__name__ != "NumpyPolicy", "the file's search is played, not the bare network"
    assert seen["action_mask"][player.act(seen["observation"], seen["action_mask"], env.game_state)]


@pytest.mark.parametrize("left, rounds", [(100.0, 8), (29.0, 1), (31.0, 2), (11.0, 1)])
def test_the_evaluate_phase_starts_a_round_only_if_two_as_long_as_the_last_fit(monkeypatch, tmp_path, left, rounds):
    """Rounds of 10 s: one more starts while more than 20 s are left (a load that rises makes a round run longer
    than the last, so one that only just fits would overrun the budget)."""
    now = [1000.0]
    monkeypatch.setattr(quick.time, "time", lambda: now[0])

    def series(name, entrants, games, seed, first_game, **params):
        now[0] += 5.0  # each candidate's part of a round
        return play_series(name, ["random", "random"], games, seed=seed, first_game=first_game)

    monkeypatch.setattr(quick, "play_series", series)
    clock = Clock("evaluate", now[0] + left, Log("swival", tmp_path))
    files = {"imitation": tmp_path / "a.npz", "ppo": tmp_path / "b.npz"}
    results = quick.evaluate("swival", {}, files, replace(TINY, eval_games=40), clock)
    assert {label: games for label, (_, games) in results.items()} == {"imitation": 2 * rounds, "ppo": 2 * rounds}
