"""research/hexrook_conv_imitation.py: the hex conv net's wiring, its greedy player, medium's tie ceiling and
the recording of another teacher's games."""

import dataclasses

import numpy as np
import pytest
import torch

import research.hexrook_conv_imitation as study
from envs.play import play_game
from research.hexrook_conv_imitation import (
    Greedy,
    HexConvNet,
    MlpNet,
    check_wiring,
    neighbour_table,
    record,
    rules,
    tie_ceiling,
)
from training.imitation import collect, collect_batched

PARAMS = {"setup": "random"}


@pytest.fixture(scope="module")
def demos():
    return collect_batched(
        "swish", PARAMS, "medium", {"medium": 0.7, "random": 0.3}, games=12, boards=12, progress=False
    )


@pytest.mark.parametrize(
    "cell, expected",
    [
        ("e5", ["e6", "d5", "d4", "e4", "f4", "f5"]),  # the centre: all six, in directions 0..5 (E, NE, NW, W, SW, SE)
        ("a1", ["a2", None, None, None, "b1", "b2"]),  # top-left corner: east, south-west, south-east only
        ("i5", [None, "h6", "h5", "i4", None, None]),  # bottom-right corner: north-east, north-west, west
    ],
)
def test_neighbour_table(cell, expected):
    game = rules("swish", PARAMS)
    hexb = game.hex
    table = neighbour_table(game)
    got = [None if c == hexb.n else hexb.names[c] for c in table[hexb.cell(cell)]]
    assert got == expected


def test_the_conv_wiring_holds_on_recorded_positions(demos):
    net = HexConvNet(rules("swish", PARAMS), demos.masks.shape[1], layers=3, channels=8)
    assert net.moves == 61 * 48 and demos.masks.shape[1] - net.moves == 186
    check_wiring(net, demos)


class CellsLast(HexConvNet):
    """A wrong layout: logit k of cell c put at action k*cells + c."""

    def heads(self, x, extras):
        logits, value = super().heads(x, extras)
        moves = logits[:, : self.moves].reshape(-1, self.cells, self.per_cell).transpose(1, 2).reshape(-1, self.moves)
        return torch.cat([moves, logits[:, self.moves :]], dim=1), value


def test_the_wiring_check_catches_a_move_logit_from_the_wrong_cell(demos):
    with pytest.raises(AssertionError, match="moves changed by cell"):
        check_wiring(CellsLast(rules("swish", PARAMS), demos.masks.shape[1], layers=2, channels=8), demos)


@pytest.mark.parametrize("game", ["swish", "squeeze"])
def test_greedy_nets_play_whole_games_with_legal_moves(game):
    rules_ = rules(game, PARAMS)
    n = rules_.hex.n
    for net in (HexConvNet(rules_, 3114, layers=2, channels=8), MlpNet(5 * n + 13, 3114, hidden=(16,))):
        record = play_game(game, [Greedy(net.eval()), Greedy(net)], seed=5, **PARAMS)  # the raw env raises if illegal
        assert record.plies > 1


def test_the_tie_ceiling_is_the_mean_chance_of_naming_a_tied_best_move():
    ceiling = tie_ceiling("swish", PARAMS, games=6, seed=1)
    assert ceiling["positions"] > 0
    assert 0.0 < ceiling["ceiling"] <= 1.0
    assert (ceiling["share_tied"] == 0) == (ceiling["ceiling"] == 1.0)
    assert ceiling["mean_tied_moves"] >= 1.0 and ceiling["ceiling"] >= 1.0 / ceiling["mean_tied_moves"] - 1e-12


def test_an_unknown_game_is_refused_by_name():
    with pytest.raises(ValueError, match="not a hex-rook game: 'swival'"):
        rules("swival", PARAMS)


def test_masked_probabilities_of_the_mlp_are_finite(demos):
    net = MlpNet(demos.observations.shape[1], demos.masks.shape[1], hidden=(16,))
    logits, values = net(torch.as_tensor(demos.observations[:32]))
    assert logits.shape == (32, demos.masks.shape[1]) and values.shape == (32,)
    assert np.isfinite(logits.detach().numpy()).all()


def test_a_teachers_games_are_its_seeded_chunks_whatever_the_processes(monkeypatch):
    monkeypatch.setattr(study, "CHUNK_GAMES", 2)  # 5 games: chunks of 2, 2 and 1
    one = record("swish", PARAMS, "easy", games=5, seed=3, jobs=1)
    two = record("swish", PARAMS, "easy", games=5, seed=3, jobs=2)
    for field in dataclasses.fields(one):
        np.testing.assert_array_equal(getattr(one, field.name), getattr(two, field.name))
    first = collect("swish", PARAMS, "easy", study.OPPONENTS, games=2, seed=3 * 100_003, progress=False)
    np.testing.assert_array_equal(one.actions[: len(first)], first.actions)  # chunk 0 is its own seeded recording
    assert one.by_teacher.any() and not one.by_teacher.all()
    assert set(np.unique(one.outcomes)) <= {-1.0, 0.0, 1.0}


def test_a_teacher_that_is_not_a_player_is_refused_by_name(capsys):
    with pytest.raises(SystemExit):
        study.main(["--game", "swish", "--teacher", "no_such_file.npz", "--games", "1"])
    assert "--teacher" in capsys.readouterr().err
