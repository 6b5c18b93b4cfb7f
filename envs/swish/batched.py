"""Swish's batched engine: the hex-rook kernels (:mod:`envs.hexrook.batched`) with Swish's leap capture."""

from __future__ import annotations

from envs.core.batched import Engine
from envs.hexrook.batched import engine_for
from envs.swish.rules import SwishGame


def engine(**params) -> Engine:
    """Swish's engine under ``rules`` (every rule parameter of :class:`SwishGame`; bad ones are named)."""
    return engine_for(SwishGame(**params))
