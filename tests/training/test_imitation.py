"""The imitation warm start: recorded games, behaviour cloning, and a config that uses it."""

import json

import numpy as np
import pytest
import torch

import training.imitation
from tests.training_helpers import game_against_random, tiny_config
from training.imitation import (
    Demonstrations,
    DiskRows,
    Recording,
    _discounted_outcomes,
    collect,
    collect_batched,
    imitation_settings,
    pretrain,
    teacher_agreement,
)
from training.selfplay import load_config, train

torch.set_num_threads(1)


def test_collect_records_every_move_with_teacher_flags_and_outcomes():
    demos = collect("swival", {}, Recording("medium", {"random": 1.0}, games=6, seed=3), progress=False)
    assert len(demos) == len(demos.observations) == len(demos.masks) == len(demos.outcomes)
    assert demos.masks[np.arange(len(demos)), demos.actions].all(), "every recorded move was legal"
    assert 0 < demos.by_teacher.sum() < len(demos), "teacher and opponent moves both recorded, told apart"
    assert set(np.unique(demos.outcomes)) <= {-1.0, 0.0, 1.0}
    # medium beats random: the teacher's positions mostly carry a winning outcome
    assert demos.outcomes[demos.by_teacher].mean() > 0.5 > demos.outcomes[~demos.by_teacher].mean()


def test_collect_is_seeded_and_discounts_per_own_later_move():
    a = collect("swival", {}, Recording("medium", {"easy": 1.0}, games=3, seed=5, gamma=0.9), progress=False)
    b = collect("swival", {}, Recording("medium", {"easy": 1.0}, games=3, seed=5, gamma=0.9), progress=False)
    np.testing.assert_array_equal(a.actions, b.actions)
    np.testing.assert_array_equal(a.observations, b.observations)
    decided = np.abs(a.outcomes) > 0
    assert decided.any()
    # the last two moves of a game (one per player) are undiscounted, earlier ones shrink by 0.9 per own move
    magnitudes = np.unique(np.round(np.abs(a.outcomes[decided]), 6))
    assert 1.0 in magnitudes and 0.9 in magnitudes and magnitudes.min() < 0.9


def test_pretraining_learns_the_teachers_moves():
    from sb3_contrib import MaskablePPO

    from envs.single_agent import SingleAgentEnv

    demos = collect("swival", {}, Recording("medium", {"random": 0.5, "medium": 0.5}, games=20), progress=False)
    model = MaskablePPO("MlpPolicy", SingleAgentEnv("swival"), seed=0, policy_kwargs={"net_arch": [64]})
    before = teacher_agreement(model.policy, demos)
    history = pretrain(model.policy, demos, epochs=15, batch_size=64, learning_rate=3e-3, progress=False)
    assert history[-1]["policy_loss"] < history[0]["policy_loss"]
    assert history[-1]["agreement"] > max(0.5, before + 0.3), (before, history[-1])


def test_imitation_settings_refuse_unknown_keys_and_fill_defaults(tmp_path):
    assert imitation_settings({"games": 3})["teacher"] == "medium"
    with pytest.raises(ValueError, match="unknown key.*'gmaes'"):
        imitation_settings({"gmaes": 3})
    path = tmp_path / "cfg.json"
    path.write_text(json.dumps({"game": "swival", "imitation": {"epochs": 2}}))
    assert load_config(str(path))["imitation"]["epochs"] == 2
    with pytest.raises(ValueError, match="opponents must map names to weights"):
        collect("swival", {}, Recording("medium", {"easy": 0.0}, games=1), progress=False)


def test_tiny_run_with_imitation_end_to_end(tmp_path):
    config = tiny_config(
        "squeeze",
        params={"setup": "fixed"},
        imitation={**imitation_settings({}), "games": 4, "epochs": 1, "opponents": {"easy": 1.0}},
    )
    summary = train(config, tmp_path, progress_bar=False, tensorboard=False)
    games = config["eval"]["games"]
    assert summary["imitation"][0]["epoch"] == 1 and (summary["imitation"][0]["win_rate"] * games).is_integer()
    assert (tmp_path / "learning_curve.png").exists()
    assert not list(tmp_path.glob("recording-*")), "the recorded games on disk are deleted after imitation"
    assert summary["curve"][0]["timesteps"] == 0, "the curve starts with the imitation-only network"
    record, legal = game_against_random("squeeze", summary["policy"], setup="fixed")
    assert all(ok for _, ok in legal) and len(legal) == record.plies
    assert sum(seat == 0 for seat, _ in legal) == len(record.move_seconds[0]) >= 1


def test_demonstrations_length():
    empty = Demonstrations(
        np.zeros((0, 3), np.float32),
        np.zeros((0, 2), bool),
        np.zeros(0, np.int64),
        np.zeros(0, bool),
        np.zeros(0, np.float32),
    )
    assert len(empty) == 0
    with pytest.raises(ValueError, match="no positions recorded"):
        pretrain(None, empty)


def test_tiny_run_with_a_value_member_end_to_end(tmp_path):
    from policies.numpy_policy import NumpyPolicy

    config = tiny_config(
        "squeeze",
        params={"setup": "fixed"},
        imitation={**imitation_settings({}), "games": 3, "epochs": 1, "opponents": {"easy": 1.0}},
        value_members=[{"imitation": {"games": 2}, "seed": 1}],
    )
    summary = train(config, tmp_path, ship_to=tmp_path / "shipped.npz", progress_bar=False, tensorboard=False)
    member_path = tmp_path / "value_member1" / "squeeze_hard.npz"
    assert summary["value_members"][0]["policy"] == str(member_path)
    assert (tmp_path / "shipped.npz").read_bytes() == (tmp_path / "squeeze_hard.npz").read_bytes()
    ensemble, member = NumpyPolicy(summary["policy"]), NumpyPolicy(member_path)
    assert len(ensemble.value_members) == 2 and len(member.value_members) == 1
    observations = np.random.default_rng(0).random((5, ensemble.obs_size), dtype=np.float32)
    alone = NumpyPolicy(
        (
            ensemble.meta,
            {k: v for k, v in np.load(summary["policy"]).items() if k != "meta" and not k.startswith("m1_")},
        )
    )
    np.testing.assert_allclose(
        ensemble.values(observations),
        (alone.values(observations) + member.values(observations)) / 2,
        rtol=1e-5,
        atol=1e-6,
    )


@pytest.mark.parametrize("members", [{"imitation": {}}, [{"gmaes": 3}], ["x"]])
def test_value_members_must_be_a_list_of_config_overrides(tmp_path, members):
    path = tmp_path / "cfg.json"
    path.write_text(json.dumps({"game": "swival", "value_members": members}))
    with pytest.raises(ValueError, match="value_members must be a list of config overrides"):
        load_config(str(path))


# (name given, game, rule parameters): configs are found through the registry
CONFIG_NAMES = [
    ("swival", "swival", {}),
    ("swahili", "swahili", {"num_players": 2}),
    ("swahili_4p", "swahili", {"num_players": 4}),
    ("swimming", "swimming", {"num_players": 4}),
]


@pytest.mark.parametrize("name,game,params", CONFIG_NAMES)
def test_configs_are_found_by_registry_name(name, game, params):
    config = load_config(name)
    assert config["game"] == game and config["params"] == params


def test_a_config_holds_settings_only(tmp_path):
    """The why of a config is written on the docs pages, not in a free-text field that nothing reads."""
    path = tmp_path / "cfg.json"
    path.write_text(json.dumps({"game": "swival", "comment": "why these settings"}))
    with pytest.raises(ValueError, match=r"unknown key\(s\) \['comment'\]"):
        load_config(str(path))


def test_unknown_config_name_lists_the_registry_ones():
    with pytest.raises(FileNotFoundError, match="no training config 'chess'.*swahili_4p"):
        load_config("chess")


def test_batched_collection_records_the_same_games_as_one_at_a_time():
    """Deterministic players (the shipped Swival network, greedy) on a game without chance: the batched
    collector must record exactly the rows the rules-based one does, teacher seats and outcomes included."""
    recording = Recording("network", {"network": 1.0}, games=4, seed=1, gamma=0.9)
    slow = collect("swival", {}, recording, progress=False)
    fast = collect_batched("swival", {}, recording, boards=3, progress=False)
    for field in ("observations", "masks", "actions", "by_teacher", "outcomes"):
        np.testing.assert_array_equal(getattr(fast, field), getattr(slow, field), err_msg=field)


def test_batched_collection_is_seeded_legal_and_keeps_every_finished_game():
    args = ("swish", {"setup": "random"})
    mix = {"random": 0.5, "easy": 0.5}
    a = collect_batched(*args, Recording("easy", mix, games=10, seed=2), boards=4, progress=False)
    b = collect_batched(*args, Recording("easy", mix, games=10, seed=2), boards=4, progress=False)
    np.testing.assert_array_equal(a.observations, b.observations)
    np.testing.assert_array_equal(a.actions, b.actions)
    assert a.masks[np.arange(len(a)), a.actions].all(), "every recorded move was legal"
    assert 0 < a.by_teacher.sum() < len(a)
    # win/loss games, undiscounted: the moves of a game carry +1 for one player and -1 for the other,
    # so over 10 finished games the outcomes of all recorded moves are all +-1 (no game cut off half-way)
    assert set(np.unique(a.outcomes)) <= {-1.0, 0.0, 1.0}
    c = collect_batched(*args, Recording("easy", mix, games=10, seed=3), boards=4, progress=False)
    assert len(c) != len(a) or not np.array_equal(c.actions, a.actions)


@pytest.mark.parametrize(
    "games,seats,returns,gamma,expected",
    [
        ([0, 0, 0, 0], [0, 1, 0, 1], [[1, -1]], 0.9, [0.9, -0.9, 1.0, -1.0]),
        ([0, 0, 0, 1, 1], [0, 1, 0, 0, 1], [[1, -1], [-1, 1]], 0.5, [0.5, -1.0, 1.0, -1.0, 1.0]),
        ([0, 0, 0], [0, 0, 0], [[2]], 1.0, [2.0, 2.0, 2.0]),
    ],
)
def test_outcomes_are_discounted_per_later_move_of_the_same_player_in_the_same_game(
    games, seats, returns, gamma, expected
):
    values = _discounted_outcomes(np.array(games), np.array(seats), np.array(returns, dtype=float), gamma)
    np.testing.assert_allclose(values, expected)


@pytest.mark.parametrize("boards", [-1, 1.5, True, "4"])
def test_a_bad_board_count_is_refused(boards):
    with pytest.raises(ValueError, match="boards must be an int"):
        imitation_settings({"boards": boards})


def test_masks_are_kept_packed_a_bit_an_action():
    rng = np.random.default_rng(0)
    masks = rng.random((5, 3114)) < 0.1
    demos = Demonstrations(
        np.zeros((5, 3), np.float32), masks, np.zeros(5, np.int64), np.ones(5, bool), np.zeros(5, np.float32)
    )
    assert demos.packed.nbytes == 5 * 390 and demos.num_actions == 3114
    np.testing.assert_array_equal(demos.masks, masks)
    np.testing.assert_array_equal(demos.mask_rows(np.array([4, 0])), masks[[4, 0]])


def test_disk_rows_read_back_what_was_appended_by_any_index(tmp_path):
    rng = np.random.default_rng(0)
    blocks = [rng.random((n, 5)).astype(np.float32) for n in (3, 0, 7, 1)]
    rows = DiskRows(tmp_path / "obs.bin", 5, np.float32)
    for block in blocks:
        rows.append(block)
    whole = np.concatenate(blocks)
    assert rows.shape == whole.shape and len(rows) == 11
    for index in (np.array([10, 0, 3, 4, 5, 3, 2]), np.arange(11), np.array([], np.int64), slice(2, 9), slice(None)):
        np.testing.assert_array_equal(rows[index], whole[index])
    rows.READ = 8  # reads of at most one row each: the same rows
    np.testing.assert_array_equal(rows[np.array([9, 1, 2, 3])], whole[[9, 1, 2, 3]])
    with pytest.raises(IndexError, match="rows 0..10 only"):
        rows[np.array([11])]
    with pytest.raises(ValueError, match="width 5"):
        rows.append(np.zeros((2, 4), np.float32))


def _canonical(demos):
    """The rows of ``demos`` as sorted tuples: the same games recorded in another order compare equal."""
    rows = np.column_stack(
        [demos.observations[:], demos.packed[:], demos.actions, demos.by_teacher, demos.outcomes]
    ).astype(np.float64)
    return rows[np.lexsort(rows.T[::-1])]


def test_batched_recording_to_disk_flushes_finished_games_and_keeps_every_row(tmp_path, monkeypatch):
    """Rows handed on as games finish (here after every finished game), to files: the same rows, in the order
    they would have in memory, as one recording flushed only at its end."""
    args = ("swish", {"setup": "random"}, Recording("easy", {"random": 0.5, "easy": 0.5}, games=9, seed=4))
    whole = collect_batched(*args, boards=4, progress=False)
    monkeypatch.setattr(training.imitation, "FLUSH_BYTES", 1)
    in_memory = collect_batched(*args, boards=4, progress=False)
    on_disk = collect_batched(*args, boards=4, progress=False, folder=tmp_path / "rec")
    assert isinstance(on_disk.observations, DiskRows) and isinstance(on_disk.packed, DiskRows)
    assert sorted(p.name for p in (tmp_path / "rec").iterdir()) == ["observations.bin", "packed.bin"]
    for field in ("observations", "packed", "actions", "by_teacher", "outcomes"):
        np.testing.assert_array_equal(getattr(on_disk, field)[:], getattr(in_memory, field)[:], err_msg=field)
    assert not np.array_equal(in_memory.actions, whole.actions), "flushing game by game changed the order"
    np.testing.assert_array_equal(_canonical(in_memory), _canonical(whole))


def test_pretraining_from_disk_fits_as_from_memory(tmp_path):
    from sb3_contrib import MaskablePPO

    from envs.single_agent import SingleAgentEnv

    recording = Recording("medium", {"random": 1.0}, games=4, seed=2)
    histories = []
    for folder in (None, tmp_path):
        demos = collect("swival", {}, recording, progress=False, folder=folder)
        model = MaskablePPO("MlpPolicy", SingleAgentEnv("swival"), seed=0, policy_kwargs={"net_arch": [16]})
        histories.append(pretrain(model.policy, demos, epochs=2, batch_size=16, progress=False))
    assert isinstance(demos.observations, DiskRows)
    assert histories[0] == histories[1]
