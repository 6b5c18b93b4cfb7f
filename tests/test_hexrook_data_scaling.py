"""research/hexrook_data_scaling.py: the training sets are prefixes of the pool (recorded once), a stopped study
resumes without training again, and nonsense sizes are refused by name."""

import json

import numpy as np
import pytest

import research.hexrook_data_scaling as study
from training.imitation import collect_batched

PARAMS = {"setup": "random"}


def fake_fit(calls):
    def fit(name, features, train_set, held_set, args, label):
        calls.append((features, train_set))
        history = [{"epoch": 1, "heldout_agreement": 0.5, "train_agreement": 0.6}]
        score = {"wins": 1, "draws": 0, "losses": 1, "score": 0.5, "wins_interval": [0.1, 0.9]}
        return None, {"history": history, "vs_medium": score, "seconds": {"train": 0.0, "eval": 0.0}}

    return fit


def test_sizes_are_prefixes_of_the_pool_and_a_rerun_trains_nothing_again(swish_recordings, tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(study, "fit_and_score", fake_fit(calls))
    recorded = []

    def fake_record(game, params, teacher, games, seed, jobs):
        recorded.append((teacher, games, seed))
        return collect_batched("swish", PARAMS, "medium", {"random": 1.0}, games=games, boards=2, seed=seed,
                               progress=False)  # fmt: skip

    monkeypatch.setattr(study, "record", fake_record)
    argv = [
        "--game",
        "swish",
        "--teacher",
        "medium",
        "--data",
        str(swish_recordings),
        "--out",
        str(tmp_path),
        "--jobs",
        "1",
    ]
    argv += ["--features", "none", "--eval-games", "2", "--more-games", "2", "--more-seed", "5"]
    study.main([*argv, "--sizes", "0.5,1"])
    base = study.load(swish_recordings / "train.npz")
    assert [len(train) for _, train in calls] == [round(0.5 * len(base)), len(base)]
    np.testing.assert_array_equal(calls[0][1].actions, base.actions[: len(calls[0][1])])
    assert recorded == [("medium", 2, 5)] and (swish_recordings / "more_5_2.npz").exists()

    study.main([*argv, "--sizes", "0.5,1,all"])  # only the new size is trained; the pool is not recorded again
    assert len(calls) == 3 and len(recorded) == 1
    more = study.load(swish_recordings / "more_5_2.npz")
    np.testing.assert_array_equal(calls[2][1].actions, np.concatenate([base.actions, more.actions]))
    report = json.loads((tmp_path / "swish.json").read_text())
    assert [run["size"] for run in report["runs"]] == [0.5, 1.0, (len(base) + len(more)) / len(base)]
    assert (tmp_path / "swish.png").exists()


@pytest.mark.parametrize(
    "sizes, word",
    [("0,1", "> 0"), ("a,1", "positive numbers"), ("1,50", "more than the pool"), ("1,most", "numbers or all")],
)
def test_nonsense_sizes_are_refused_by_name(swish_recordings, tmp_path, sizes, word, capsys):
    argv = ["--game", "swish", "--teacher", "medium", "--data", str(swish_recordings), "--out", str(tmp_path)]
    with pytest.raises(SystemExit):
        study.main([*argv, "--sizes", sizes])
    err = capsys.readouterr().err
    assert "--sizes" in err and word in err


def test_a_data_folder_without_the_recordings_is_refused_by_name(tmp_path, capsys):
    with pytest.raises(SystemExit):
        study.main(["--game", "swish", "--teacher", "medium", "--data", str(tmp_path / "nowhere")])
    err = capsys.readouterr().err
    assert "--data" in err and "train.npz" in err


def test_more_games_with_the_seed_of_the_recorded_ones_are_refused(swish_recordings, tmp_path, capsys):
    argv = ["--game", "swish", "--teacher", "medium", "--data", str(swish_recordings), "--out", str(tmp_path)]
    with pytest.raises(SystemExit):
        study.main([*argv, "--more-games", "2", "--more-seed", "0"])
    assert "--more-seed 0" in capsys.readouterr().err
