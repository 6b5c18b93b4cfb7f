"""Observation pieces (envs/core/observation.py): laid out in order, each named once, bad declarations refused.

Each game's observation against its declaration (size, doc page's table, the AEC env's observe_state and the
batched kernel, piece by piece) is in the conformance suite (tests/conformance/test_every_variant.py)."""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.observation import Observation, Piece


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
