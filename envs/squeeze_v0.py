"""Squeeze, version 0: ``env()`` (wrapped) and ``raw_env`` (see :data:`envs.squeeze.env.SQUEEZE_DOC`)."""

from envs.core.aec import wrap
from envs.squeeze.env import SQUEEZE_DOC
from envs.squeeze.env import SqueezeEnv as raw_env

__doc__ = SQUEEZE_DOC  # the game's doc page


def env(**kwargs):
    """Squeeze with PettingZoo's standard wrappers (an illegal move loses, -1)."""
    return wrap(raw_env(**kwargs))


__all__ = ["env", "raw_env"]
