"""Squeeze's batched engine: the hex-rook kernels (:mod:`envs.hexrook.batched`) with Squeeze's custody capture."""

from __future__ import annotations

from envs.core.batched import Engine
from envs.hexrook.batched import engine_for
from envs.squeeze.rules import SqueezeGame


def engine(**params) -> Engine:
    """Squeeze's engine under ``rules`` (every rule parameter of :class:`SqueezeGame`; bad ones are named)."""
    return engine_for(SqueezeGame(**params))
