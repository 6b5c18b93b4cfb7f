"""research/hexrook_dagger.py: the apprentice plays its own moves while the teacher's are recorded, each round
trains on the teacher's games and every round's labels so far, and a stopped study resumes without labelling or
training again."""

import json

import numpy as np
import pytest
import torch

import research.hexrook_dagger as study
from envs.play import play_game
from research.hexrook_capture_features import FeatureNet, extra_size

PARAMS = {"setup": "random"}


class First:
    """Plays the lowest legal action."""

    def reset(self, seed=None):
        pass

    def act(self, observation, action_mask, state=None):
        return int(np.flatnonzero(action_mask)[0])


class Last(First):
    def act(self, observation, action_mask, state=None):
        return int(np.flatnonzero(action_mask)[-1])


def test_the_apprentice_moves_and_the_teacher_labels():
    labelled = study.Labelled(Last(), First())
    played = []
    play_game(
        "swish", [labelled, First()], seed=3, observer=lambda seat, o, m, a: played.append((seat, m, a)), **PARAMS
    )
    mine = [(mask, action) for seat, mask, action in played if seat == 0]
    assert len(labelled.rows) == len(mine) > 5
    for (_obs, mask, label), (seen_mask, action) in zip(labelled.rows, mine):
        np.testing.assert_array_equal(mask, seen_mask)
        assert label == np.flatnonzero(mask)[0] and action == np.flatnonzero(mask)[-1]
    assert any(label != action for (_, _, label), (_, action) in zip(labelled.rows, mine))


def test_a_chunk_labels_every_apprentice_position_and_repeats(swish_recordings):
    game = study.rules("swish", PARAMS)
    base = study.load(swish_recordings / "train.npz")
    size, actions = base.observations.shape[1], base.masks.shape[1]
    net = FeatureNet(game, size, actions, "now")
    task = ("swish", net.state_dict(), "now", "medium", size, actions, [11, 12])
    first, again = study._label_chunk(task), study._label_chunk(task)
    for field in ("observations", "masks", "actions", "by_teacher", "outcomes"):
        np.testing.assert_array_equal(getattr(first, field), getattr(again, field))
    assert first.by_teacher.all() and len(first) > 5
    assert first.masks[np.arange(len(first)), first.actions].all()  # every label is a legal move there
    assert set(np.unique(first.outcomes)) <= {-1.0, 0.0, 1.0}


def fake_fit(calls):
    def fit(name, features, train_set, held_set, args, label):
        calls.append(train_set)
        game = study.rules(name, PARAMS)
        net = FeatureNet(
            game, train_set.observations.shape[1] - extra_size(game, "now"), train_set.masks.shape[1], "now"
        )
        history = [{"epoch": 1, "heldout_agreement": 0.5, "train_agreement": 0.6}]
        score = {"wins": 1, "draws": 0, "losses": 1, "score": 0.5, "wins_interval": [0.1, 0.9]}
        return net, {"history": history, "vs_medium": score, "seconds": {"train": 0.0, "eval": 0.0}}

    return fit


def test_rounds_train_on_all_labels_so_far_and_a_rerun_does_nothing_again(swish_recordings, tmp_path, monkeypatch):
    calls, labelled_rounds = [], []
    monkeypatch.setattr(study, "fit_and_score", fake_fit(calls))
    real_label_chunk = study._label_chunk

    def counted(task):
        labelled_rounds.append(task[-1])
        return real_label_chunk(task)

    monkeypatch.setattr(study, "_label_chunk", counted)
    folder = tmp_path / "data"
    folder.mkdir()
    for name in ("train.npz", "heldout.npz"):
        (folder / name).write_bytes((swish_recordings / name).read_bytes())
    argv = ["--game", "swish", "--teacher", "medium", "--data", str(folder), "--out", str(tmp_path), "--jobs", "1"]
    study.main([*argv, "--rounds", "2", "--round-games", "2", "--eval-games", "2"])
    base = study.load(folder / "train.npz")
    one, two = (study.load(folder / f"dagger_{r}_2.npz") for r in (1, 2))
    assert [len(t) for t in calls] == [len(base), len(base) + len(one), len(base) + len(one) + len(two)]
    np.testing.assert_array_equal(calls[2].actions, np.concatenate([base.actions, one.actions, two.actions]))
    assert len(labelled_rounds) == 2 and labelled_rounds[0] != labelled_rounds[1]  # each round its own games
    report = json.loads((tmp_path / "swish.json").read_text())
    assert [r["round"] for r in report["rounds"]] == [0, 1, 2]
    assert [r["apprentice_positions"] for r in report["rounds"]] == [0, len(one), len(one) + len(two)]
    assert (tmp_path / "swish.png").exists()
    game = study.rules("swish", PARAMS)
    for r in (0, 1):  # a round's network, measured on the positions of its own games (the next round's labels)
        net = FeatureNet(game, base.observations.shape[1], base.masks.shape[1], "now")
        net.load_state_dict(torch.load(folder / f"swish_round{r}.pt"))
        own = study.with_features("swish", study.load(folder / f"dagger_{r + 1}_2.npz"), "now", 1)
        assert report["rounds"][r]["own_agreement"] == study.agreement(net, own, np.arange(len(own)))
    assert "own_agreement" not in report["rounds"][2]

    study.main([*argv, "--rounds", "2", "--round-games", "2", "--eval-games", "2"])
    assert len(calls) == 3 and len(labelled_rounds) == 2


@pytest.mark.parametrize(
    "extra, word",
    [
        (["--features", "none"], "--features"),
        (["--round-games", "0"], "--round-games"),
        (["--rounds", "-1"], "--rounds"),
    ],
)
def test_nonsense_options_are_refused_by_name(swish_recordings, tmp_path, extra, word, capsys):
    with pytest.raises(SystemExit):
        study.main(
            ["--game", "swish", "--teacher", "medium", "--data", str(swish_recordings), "--out", str(tmp_path), *extra]
        )
    assert word in capsys.readouterr().err
