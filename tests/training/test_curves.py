"""``swgym curves``: the quick path and PPO from scratch, a snapshot a period, each scored against the bots."""

import csv
import time

import pytest
import torch

from policies.numpy_policy import read_policy_file
from scripts.cli import main
from tests.training_helpers import tiny_config
from training.curves import CurveSettings, Snapshots, markdown, run_curves
from training.quick import QuickSettings

torch.set_num_threads(1)


class _TinyPolicy:
    """What export_policy reads of an SB3 policy, from a real one of Swival (a 16-wide network)."""

    def __new__(cls):
        from sb3_contrib import MaskablePPO

        from envs.single_agent import SingleAgentEnv

        return MaskablePPO("MlpPolicy", SingleAgentEnv("swival"), seed=0, policy_kwargs={"net_arch": [16]}).policy


TINY = QuickSettings(
    opponents={"easy": 1.0}, boards=16, batch_size=64, ppo_envs=16,
    ppo={"n_steps": 8, "batch_size": 64, "n_epochs": 1, "learning_rate": 1e-4}, eval_games=4,
)  # fmt: skip


def test_both_runs_save_a_network_a_period_and_every_one_is_scored(tmp_path):
    settings = CurveSettings(minutes=0.25, every=4.0, games=2, opponents=("random", "easy"))
    rows = run_curves("swival", {}, tmp_path, tiny_config("swival", net_arch=[16]), settings, TINY)
    for run in ("quick", "scratch"):
        files = sorted((tmp_path / run).glob("minute-*.npz"))
        assert len(files) >= 2 and files[-1].name == "minute-end.npz", files
        marks = [int(f.stem[7:]) for f in files[:-1]]
        assert marks == sorted(set(marks)), "one file a period, in order"
        assert all("search" not in read_policy_file(f)[0] for f in files), "bare networks only"
        mine = [r for r in rows if r["run"] == run]
        assert len(mine) == 2 * len(files), "every snapshot against each opponent"
        minutes = [r["minute"] for r in mine]
        assert minutes == sorted(minutes) and minutes[-1] <= 0.25 + 0.5
    assert min(int(f.stem[7:]) for f in (tmp_path / "quick").glob("minute-[0-9]*.npz")) >= 1, "none while recording"
    assert all(r["games"] == 2 and r["wins"] + r["draws"] + r["losses"] == 2 for r in rows)
    assert all(r["score"] == (r["wins"] + r["draws"] / 2) / 2 for r in rows)
    assert all(1 <= r["distinct"] <= 2 for r in rows), "each row counts the games that differ"
    with open(tmp_path / "curves.csv") as f:
        saved = list(csv.DictReader(f))
    assert [(r["run"], float(r["minute"]), r["opponent"]) for r in saved] == [
        (r["run"], r["minute"], r["opponent"]) for r in rows
    ]
    assert (tmp_path / "curves.md").read_text() == markdown(rows, ("random", "easy"))


def test_a_snapshot_is_saved_once_a_period_and_at_the_end(tmp_path):
    policy = _TinyPolicy()
    snapshots = Snapshots(tmp_path, "swival", {}, start=time.time() - 130, every=60)
    snapshots(policy)
    snapshots(policy)  # the same period: nothing new
    snapshots.start -= 60  # a period later
    snapshots(policy)
    snapshots.end(policy)
    assert [p.name for _, p in snapshots.saved] == ["minute-02.npz", "minute-03.npz", "minute-end.npz"]
    assert [m for m, _ in snapshots.saved] == sorted(m for m, _ in snapshots.saved) and snapshots.saved[1][0] >= 3


def test_the_table_has_a_line_per_snapshot_and_a_column_per_opponent():
    rows = [
        {"run": "quick", "minute": 1.02, "opponent": "random", "score": 0.5},
        {"run": "quick", "minute": 1.02, "opponent": "easy", "score": 0.25},
        {"run": "scratch", "minute": 0.0, "opponent": "random", "score": 0.125},
    ]
    lines = markdown(rows, ("random", "easy")).splitlines()
    assert lines[0] == "| run | minute | vs random | vs easy |"
    assert lines[2:] == ["| quick | 1.02 | 50.0% | 25.0% |", "| scratch | 0.00 | 12.5% | - |"]


@pytest.mark.parametrize("flag,value", [("--minutes", "0"), ("--every", "-1"), ("--games", "0")])
def test_nonsense_budgets_are_refused(flag, value, capsys):
    with pytest.raises(SystemExit):
        main(["curves", "swival", flag, value])
    assert flag in capsys.readouterr().err


def test_an_unknown_game_is_refused_naming_the_games():
    with pytest.raises((SystemExit, ValueError), match="chess"):
        main(["curves", "chess"])
