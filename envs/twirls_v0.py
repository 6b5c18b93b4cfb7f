"""Twirls of Action, version 0: ``env()`` (wrapped) and ``raw_env`` (see :mod:`envs.twirls.env`)."""

from envs.core.aec import wrap
from envs.twirls.env import __doc__ as __doc__  # noqa: F401  (the game's doc page)
from envs.twirls.env import raw_env


def env(**kwargs):
    """Twirls of Action with PettingZoo's standard wrappers (an illegal move loses, -1)."""
    return wrap(raw_env(**kwargs))


__all__ = ["env", "raw_env"]
