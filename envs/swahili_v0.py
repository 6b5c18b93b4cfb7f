"""Swahili, version 0: ``env()`` (wrapped) and ``raw_env`` (see :mod:`envs.swahili.env`)."""

from envs.core.aec import wrap
from envs.swahili.env import __doc__ as __doc__  # noqa: F401  (the game's doc page)
from envs.swahili.env import raw_env


def env(**kwargs):
    """Swahili with PettingZoo's standard wrappers (an illegal move loses, -1)."""
    return wrap(raw_env(**kwargs))


__all__ = ["env", "raw_env"]
