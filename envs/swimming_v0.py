"""Swimming, version 0: ``env()`` (wrapped) and ``raw_env`` (see :mod:`envs.swimming.env`)."""

from envs.core.aec import wrap
from envs.swimming.env import __doc__ as __doc__  # noqa: F401  (the game's doc page)
from envs.swimming.env import raw_env


def env(**kwargs):
    """Swimming with PettingZoo's standard wrappers (an illegal move loses, -1)."""
    return wrap(raw_env(**kwargs))


__all__ = ["env", "raw_env"]
