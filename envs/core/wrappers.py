"""PettingZoo's standard AEC wrappers with direct access to the hot attributes.

PettingZoo's wrappers reach ``agent_selection``, ``terminations`` and the like
through a chain of ``__getattr__`` calls, one per wrapper layer; that chain
costs more than a whole Swival move. These subclasses behave exactly as
PettingZoo's (same classes by ``isinstance``, same checks) but read those
attributes straight from the unwrapped env.
"""

from __future__ import annotations

import numpy as np
from pettingzoo.utils import wrappers

HOT_ATTRIBUTES = ("agent_selection", "agents", "rewards", "terminations", "truncations", "infos",
                  "_cumulative_rewards")


def _direct(name: str, check_reset: bool) -> property:
    def get(self):
        if check_reset and not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._raw, name)

    def set_(self, value):
        setattr(self._raw, name, value)

    return property(get, set_)


class _Direct:
    def __init__(self, env, *args, **kwargs) -> None:
        super().__init__(env, *args, **kwargs)
        self._raw = env.unwrapped


class TerminateIllegalWrapper(_Direct, wrappers.TerminateIllegalWrapper):
    """An illegal move ends the game with ``illegal_reward`` for the mover."""


class AssertOutOfBoundsWrapper(_Direct, wrappers.AssertOutOfBoundsWrapper):
    """Actions outside the action space fail an assertion."""

    def step(self, action) -> None:
        # the common case checked directly; anything else goes through PettingZoo's own check
        if type(action) is int or isinstance(action, np.integer):
            raw = self._raw
            agent = raw.agent_selection
            assert 0 <= action < raw.action_spaces[agent].n, "action is not in action space"
            self.env.step(action)
        else:
            super().step(action)


class OrderEnforcingWrapper(_Direct, wrappers.OrderEnforcingWrapper):
    """Errors for stepping or reading before ``reset()``."""


for _name in HOT_ATTRIBUTES:
    setattr(TerminateIllegalWrapper, _name, _direct(_name, check_reset=False))
    setattr(AssertOutOfBoundsWrapper, _name, _direct(_name, check_reset=False))
    # _cumulative_rewards is read by last() before any check in PettingZoo too
    setattr(OrderEnforcingWrapper, _name, _direct(_name, check_reset=_name != "_cumulative_rewards"))
