"""Factored action heads in policy files (policies/numpy_policy.py): a pair's logit is what the layout says, only
the asked actions are computed, every wrong file is refused by name, the file plays without torch, and the
forward pass's multiply-adds are counted (policies/flops.py). The torch network that writes these files is
checked against them in tests/training/test_gumbel_training.py."""

from __future__ import annotations

import json

import numpy as np
import pytest

from envs.core.opponents import RandomOpponent
from envs.play import play_game
from envs.registry import make_raw
from policies import flops
from policies.numpy_policy import NumpyPolicy, PolicyFileError, write_policy_file
from tests.helpers import factored_policy_file, plies_without_torch


def observations(policy, rows=6, seed=0):
    return np.random.default_rng(seed).random((rows, policy.obs_size), dtype=np.float32)


@pytest.mark.parametrize("moves_from_position", [False, True])
@pytest.mark.parametrize(("game", "params"), [("swish", {}), ("squeeze", {"radius": 3}), ("twirls", {})])
def test_a_pair_logit_is_its_cell_vector_times_its_move_vector(game, params, moves_from_position):
    meta, arrays = factored_policy_file(game, params, moves_from_position=moves_from_position)
    policy = NumpyPolicy((meta, arrays), name=game, params=params)
    x = observations(policy)
    h = np.tanh(x @ arrays["pi_w0"] + arrays["pi_b0"])
    u = (h @ arrays["head_u_w"] + arrays["head_u_b"]).reshape(len(x), meta["head"]["cells"], -1)
    logits = policy.logits(x)
    rank, moves = meta["head"]["rank"], meta["head"]["moves"]
    v = np.broadcast_to(arrays["head_v"], (len(x), moves, rank))  # each row's move vectors
    if moves_from_position:
        v = v + (h @ arrays["head_vh_w"] + arrays["head_vh_b"]).reshape(len(x), moves, rank)
    for action in np.random.default_rng(1).choice(policy.num_actions, 40, replace=False).tolist() + [
        policy.num_actions - 1
    ]:
        cell, move = arrays["head_cell"][action], arrays["head_move"][action]
        if cell >= 0:
            pair = np.einsum("rk,rk->r", u[:, cell, :rank], v[:, move])
            expected = pair + u[:, cell, rank] + arrays["head_move_b"][move]
        else:
            column = int((arrays["head_cell"][:action] < 0).sum())
            expected = h @ arrays["head_other_w"][:, column] + arrays["head_other_b"][column]
        if moves_from_position:
            expected = expected + arrays["head_action_b"][action]
        np.testing.assert_allclose(logits[:, action], expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("game", ["swish", "twirls"])
def test_a_head_with_move_terms_is_held_as_one_of_a_rank_more(game):
    """PPO's term per move (``t[move] = h @ w + c``, on every pair of that move) folds into a head of rank + 1 that
    the numpy policy plays as it plays any: its logits are the head's without the terms, plus each pair's term."""
    from policies.network import Factored

    meta, arrays = factored_policy_file(game, moves_from_position=True)
    without = NumpyPolicy((meta, arrays), name=game)
    rng = np.random.default_rng(3)
    moves = meta["head"]["moves"]
    term_w, term_b = rng.normal(0, 0.3, (8, moves)).astype(np.float32), rng.normal(0, 0.3, moves).astype(np.float32)
    spec = Factored(3, meta["head"]["cells"], moves, int((arrays["head_cell"] < 0).sum()), True)
    folded_spec, folded = spec.with_move_terms(arrays | {"head_vt_w": term_w, "head_vt_b": term_b})
    assert folded_spec.rank == 4 and "head_vt_w" not in folded
    policy = NumpyPolicy((meta | {"head": folded_spec.meta()}, folded), name=game)
    x = observations(policy)
    h = np.tanh(x @ arrays["pi_w0"] + arrays["pi_b0"])
    pair = arrays["head_cell"] >= 0
    terms = np.where(pair, (h @ term_w + term_b)[:, arrays["head_move"].clip(0)], 0.0)
    np.testing.assert_allclose(policy.logits(x), without.logits(x) + terms, rtol=1e-5, atol=1e-5)
    with pytest.raises(ValueError, match="move terms need its moves from the position"):
        Factored(3, spec.cells, moves, spec.others).with_move_terms(arrays)


@pytest.mark.parametrize("moves_from_position", [False, True])
@pytest.mark.parametrize("game", ["swish", "twirls"])
def test_logits_of_computes_the_asked_actions_alone(game, moves_from_position):
    policy = NumpyPolicy(factored_policy_file(game, moves_from_position=moves_from_position), name=game)
    x = observations(policy, rows=1)
    logits = policy.logits(x)[0]
    rng = np.random.default_rng(2)
    for asked in (rng.choice(policy.num_actions, 30, replace=False), np.array([policy.num_actions - 1]), [0, 0, 5]):
        np.testing.assert_allclose(policy.logits_of(x, asked), logits[asked], rtol=1e-5, atol=1e-6)


def test_a_factored_file_round_trips_and_plays_a_game(tmp_path):
    path = write_policy_file(tmp_path / "twirls.npz", *factored_policy_file("twirls", {"board_size": 8}))
    policy = NumpyPolicy(path, name="twirls", params={"board_size": 8})
    record = play_game("twirls", [policy, RandomOpponent(0)], seed=0, board_size=8)
    assert record.plies > 2


def test_a_factored_file_loads_and_plays_without_torch(tmp_path):
    path = write_policy_file(tmp_path / "swish.npz", *factored_policy_file("swish"))
    assert plies_without_torch("swish", path) > 2


def _edit(change):
    def build():
        meta, arrays = factored_policy_file("swish")
        change(meta, arrays)
        return meta, arrays

    return build


def _swap_two_cells(meta, arrays):
    cell = arrays["head_cell"].copy()
    cell[[0, 48]] = cell[[48, 0]]
    move = arrays["head_move"]
    move[[0, 48]] = move[[48, 0]]  # still a bijection, but not the game's
    arrays["head_cell"] = cell


@pytest.mark.parametrize(
    ("case", "build", "fragment"),
    [
        ("unknown head kind", _edit(lambda m, a: m.update(head={"kind": "conv"})), "its meta has head = "),
        ("rank 0", _edit(lambda m, a: m["head"].update(rank=0)), "its meta has head = "),
        ("no move vectors", _edit(lambda m, a: a.pop("head_v")), "lacks the array 'head_v'"),
        (
            "moves from the position, said in words",
            _edit(lambda m, a: m["head"].update(moves_from_position="yes")),
            "its meta has head = ",
        ),
        (
            "moves from the position without their weights",
            _edit(lambda m, a: m["head"].update(moves_from_position=True)),
            "lacks the array 'head_vh_w'",
        ),
        (
            "weights of moves from the position, not said",
            _edit(lambda m, a: a.update(head_vh_w=a["head_v"])),
            "arrays that are not part of its network: head_vh_w",
        ),
        (
            "move vectors of another rank",
            _edit(lambda m, a: a.update(head_v=a["head_v"][:, :2])),
            "factored head's head_v has shape (51, 2), expected (51, 3)",
        ),
        (
            "cell vectors of another width",
            _edit(lambda m, a: a.update(head_u_w=a["head_u_w"][:5])),
            "factored head's head_u_w has shape (5, 244), expected (8, 244)",
        ),
        (
            "a layout in floats",
            _edit(lambda m, a: a.update(head_cell=a["head_cell"].astype(np.float32))),
            "'head_cell' is float32 of shape (3114,), expected one row of whole numbers",
        ),
        (
            "two actions on one pair",
            _edit(lambda m, a: a["head_move"].__setitem__(1, 0)),
            "action layout is wrong: two actions share a (cell, move) pair",
        ),
        (
            "a cell past the board",
            _edit(lambda m, a: a["head_cell"].__setitem__(1, 61)),
            "action layout is wrong: cells must be in [-1, 61)",
        ),
        (
            "the layout of fewer actions",
            _edit(lambda m, a: a.update(head_cell=a["head_cell"][:-1], head_move=a["head_move"][:-1])),
            "lays out 3113 actions for a game with 3114 actions",
        ),
        ("not the game's layout", _edit(_swap_two_cells), "is not swish's (61 x 51): 2 actions differ, e.g. action 0"),
        (
            "a plain head left in",
            _edit(lambda m, a: a.update(action_w=a["head_u_w"], action_b=a["head_u_b"])),
            "arrays that are not part of its network: action_b, action_w",
        ),
        (
            "a plain file's arrays under a factored meta",
            _edit(lambda m, a: [a.pop(k) for k in list(a) if k.startswith("head_")]),
            "lacks the array 'head_cell'",
        ),
        (
            "non-finite cell weights",
            _edit(lambda m, a: a["head_u_b"].__setitem__(3, np.nan)),
            "array 'head_u_b' holds NaN or infinite numbers",
        ),
    ],
)
def test_a_wrong_factored_file_is_refused_by_name(tmp_path, case, build, fragment):
    meta, arrays = build()
    path = write_policy_file(tmp_path / "bad.npz", json.loads(json.dumps(meta)), arrays)
    with pytest.raises(PolicyFileError) as err:
        NumpyPolicy(path, name="swish")
    assert fragment in str(err.value) and str(path) in str(err.value), f"{case}: {err.value}"


def test_a_factored_file_for_a_game_without_a_layout_is_refused():
    meta, arrays = factored_policy_file("swish")
    meta["game"] = "swival"
    raw = make_raw("swival")
    meta["observation_shape"], meta["num_actions"] = [78], 73
    arrays["pi_w0"] = arrays["pi_w0"][:78]
    arrays["vf_w0"] = arrays["vf_w0"][:78]
    arrays["head_cell"], arrays["head_move"] = arrays["head_cell"][:72], arrays["head_move"][:72]
    arrays["head_cell"] = np.append(arrays["head_cell"], -1).astype(np.int32)
    arrays["head_move"] = np.append(arrays["head_move"], -1).astype(np.int32)
    arrays["head_other_w"], arrays["head_other_b"] = arrays["head_other_w"][:, :1], arrays["head_other_b"][:1]
    assert raw.game.num_actions == 73
    NumpyPolicy((meta, arrays))  # a well-formed file on its own
    with pytest.raises(PolicyFileError, match="has a factored action head, but swival declares no action layout"):
        NumpyPolicy((meta, arrays), name="swival")


def test_multiply_adds_are_counted_from_the_shapes():
    meta, arrays = factored_policy_file("twirls", hidden=8, rank=3)
    policy = NumpyPolicy((meta, arrays), name="twirls")
    counted = policy.multiply_adds()
    cells, moves, others = 81, 32, 1
    head = 8 * cells * 4 + cells * moves * 4 + 8 * others
    assert counted == {
        "policy tower": 249 * 8,
        "action head": head,
        "value tower": 249 * 8 + 8,
        "total": counted["total"],
    }
    assert counted["total"] == 249 * 8 * 2 + 8 + head
    from envs.registry import game_module

    layout = game_module("twirls").raw_env.action_layout(make_raw("twirls").game)
    assert flops.network(249, (8,), 2593, layout, rank=3) == counted
    assert flops.network(249, (8,), 2593)["action head"] == 8 * 2593


def test_the_flops_report_counts_every_config(capsys):
    from training.flops import CONFIGS, config_rows, main

    rows = [row for path in sorted(CONFIGS.glob("*.json")) for row in config_rows(path, [4, 8])]
    configs = {row.config for row in rows}
    assert configs == {path.stem for path in CONFIGS.glob("*.json")}
    assert all(sum(row.mine for row in rows if row.config == c) == 1 for c in configs)  # the config's own head
    for config in configs:
        heads = [row.head for row in rows if row.config == config]
        factored = config in ("swish", "squeeze", "twirls")
        assert heads[0] == "plain" and any(h.startswith("factored") for h in heads) == factored
    twirls = {row.head: row.counts for row in rows if row.config == "twirls"}
    assert twirls["plain"]["action head"] == 128 * 2593 > twirls["factored r=8"]["action head"]
    main(["--ranks", "8", "--conv", "1", "4"])
    printed = capsys.readouterr().out
    assert "| twirls | 249 | 2593 | 128x128 | plain" in printed and "factored r=8" in printed
    swival = {row.head: row.counts for row in config_rows(CONFIGS / "swival.json", [8], (1, 4))}
    graph_inputs = 24 * 5 * 3  # cells x (itself and 4 neighbours) x 3 planes
    assert swival["plain + conv 1x4"]["board conv"] == graph_inputs * 4
    assert swival["plain + conv 1x4"]["policy tower"] == swival["plain"]["policy tower"] + 24 * 4 * 128
    assert "| swival | 78 | 73 | 128x128 | plain + conv 1x4 |" in printed
    assert not any("conv" in row.head for row in config_rows(CONFIGS / "swahili.json", [8], (1, 4)))
    with pytest.raises(SystemExit):
        main(["--conv", "0", "4"])
    assert "--conv and --ranks take whole numbers >= 1" in capsys.readouterr().err
