"""Each game's observation is declared once, as named pieces (envs/core/observation.py): its size, its doc page's
table, the AEC env's observe_state and the batched kernel are checked against that declaration, piece by piece."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import envs
from envs.core.observation import Observation, Piece
from envs.registry import GAMES, game_module

VARIANTS = [pytest.param(name, params, id=f"{name}-{params}") for name, e in GAMES.items() for params in e.variants]
BATCHED = [p for p in VARIANTS if GAMES[p.values[0]].batched]


@pytest.mark.parametrize(("name", "params"), VARIANTS)
def test_the_declared_pieces_are_the_observation_space(name, params):
    env = envs.make_raw(name, **params)
    layout = env.observation(env.game)
    assert env.observation_space(env.possible_agents[0])["observation"].shape == (layout.size,)
    env.reset(seed=0)
    assert set(layout.split(env.observe(env.agent_selection)["observation"])) == {p.name for p in layout.pieces}


@pytest.mark.parametrize("name", list(GAMES))
def test_the_doc_page_shows_the_declared_table(name):
    page = importlib.import_module(GAMES[name].module).__doc__
    env = envs.make_raw(name)  # the doc page's table is of the default rules
    assert env.observation(env.game).table() in page


def _boards_along_random_play(name, params, boards=24, plies=60, seed=0):
    """A batch whose boards are at different points of their games (finished ones started again)."""
    batch = envs.make_batched(name, boards, seed=seed, **params)
    rng = np.random.default_rng(seed)
    for _ in range(int(rng.integers(plies // 2, plies))):
        actions = batch.random_actions()
        actions[rng.random(boards) < 0.3] = -1  # some boards stay behind, so the batch mixes game stages
        batch.step(actions, autoreset=True)
    return batch


@pytest.mark.parametrize(("name", "params"), BATCHED)
def test_kernel_and_aec_env_agree_piece_by_piece(name, params):
    raw = game_module(name).raw_env
    game = envs.make_raw(name, **params).game
    layout = raw.observation(game)
    for seed in range(3):
        batch = _boards_along_random_play(name, params, seed=seed)
        for seat in range(batch.num_players):
            kernel = layout.split(batch.observe(seat))
            for i in range(batch.num_envs):
                aec = layout.split(raw.observe_state(game, batch.board_state(i), seat))
                for piece in layout.pieces:
                    np.testing.assert_allclose(
                        kernel[piece.name][i], aec[piece.name], atol=1e-6, err_msg=f"{piece.name} ({piece.meaning})"
                    )


def test_pieces_are_laid_out_in_order_and_named_once():
    layout = Observation(Piece("own", 3, "own cells"), Piece("flag", 1, "a flag"), Piece("rest", 2, "the rest"))
    assert (layout.size, layout["own"], layout["flag"], layout.start("rest")) == (6, slice(0, 3), slice(3, 4), 4)
    parts = layout.split(np.arange(12).reshape(2, 6))
    assert parts["rest"].tolist() == [[4, 5], [10, 11]]
    assert layout.table().splitlines()[2:] == ["| 0-2 | own cells |", "| 3 | a flag |", "| 4-5 | the rest |"]
    with pytest.raises(KeyError, match="no observation piece 'other'; the pieces are"):
        layout["other"]
    with pytest.raises(ValueError, match="distinct names"):
        Observation(Piece("a", 1, "x"), Piece("a", 2, "y"))
    with pytest.raises(ValueError, match="size >= 1"):
        Observation(Piece("a", 0, "x"))
