"""research/value_bootstrap.py: the positions it records, their outcomes, and their search labels."""

import numpy as np
import pytest

from envs.hexrook.board import PHASE_PLAY
from policies import shipped_path
from policies.numpy_policy import NumpyPolicy
from policies.search import PolicySearch
from research.value_bootstrap import PARAMS, label_positions, labelled, record_positions


@pytest.fixture(scope="module")
def recorded():
    return record_positions("squeeze", 120, every=4, seed=3, boards=16)


def test_positions_are_seeded_play_phase_positions(recorded):
    states, outcomes, games = recorded
    again, outcomes_again, games_again = record_positions("squeeze", 120, every=4, seed=3, boards=16)
    assert [bytes(s.board) for s in states] == [bytes(s.board) for s in again]
    assert np.array_equal(outcomes, outcomes_again) and np.array_equal(games, games_again)
    assert len(states) == 120 and all(s.phase == PHASE_PLAY and not s.over for s in states)
    assert len({bytes(s.board) for s in states}) > 100  # many different positions, not one game's few


def test_outcomes_are_the_movers_and_zero_sum(recorded):
    states, outcomes, games = recorded
    assert set(np.unique(outcomes)) <= {-1.0, 0.0, 1.0}
    pairs = 0
    for g in np.unique(games):
        rows = np.flatnonzero(games == g)
        for i in rows:
            for j in rows:
                same = states[i].to_move == states[j].to_move
                assert outcomes[i] == (outcomes[j] if same else -outcomes[j])
                pairs += not same
    assert pairs > 0  # some game gave positions of both movers
    assert 0 < np.mean(outcomes == 1) < 1


def test_labels_are_the_searched_values_at_the_given_budget(recorded):
    states = recorded[0][:3]
    base = str(shipped_path("squeeze", **PARAMS))
    labels = label_positions(states, base, "squeeze", {"total_work": 300, "depth": 6, "max_work": 0}, jobs=1)
    search = PolicySearch(
        NumpyPolicy(base), "squeeze", PARAMS, depth=6, width=0, quiescence=2, order_by="value", total_work=300
    )
    expected = [search.best_move(s)[1] for s in states]
    assert labels == pytest.approx(expected, abs=1e-6)
    deeper = PolicySearch(
        NumpyPolicy(base), "squeeze", PARAMS, depth=6, width=0, quiescence=2, order_by="value", total_work=3000
    )
    assert labels != pytest.approx([deeper.best_move(s)[1] for s in states], abs=1e-6)  # the budget was applied


def test_labels_are_cached_only_for_the_settings_that_made_them(tmp_path, capsys):
    base = str(shipped_path("squeeze", **PARAMS))
    cheap = {"total_work": 200, "depth": 6, "max_work": 0}
    first = labelled(tmp_path, "squeeze", 4, every=4, seed=9, base=base, overrides=cheap, jobs=1)
    again = labelled(tmp_path, "squeeze", 4, every=4, seed=9, base=base, overrides=cheap, jobs=1)
    assert "labels of seed 9 from" in capsys.readouterr().out
    for key in ("observations", "labels", "outcomes"):
        np.testing.assert_array_equal(first[key], again[key])
    dearer = labelled(
        tmp_path, "squeeze", 4, every=4, seed=9, base=base, overrides={**cheap, "total_work": 3000}, jobs=1
    )
    assert "made with other settings: labelling again" in capsys.readouterr().out
    np.testing.assert_array_equal(dearer["observations"], first["observations"])  # the same positions
    assert not np.array_equal(dearer["labels"], first["labels"])  # searched deeper
