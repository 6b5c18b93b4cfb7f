"""PettingZoo's standard AEC wrappers with direct access to the hot attributes.

PettingZoo's wrappers reach ``agent_selection``, ``terminations`` and the like
through a chain of ``__getattr__`` calls, one per wrapper layer; that chain
costs more than a whole Swival move. These subclasses behave exactly as
PettingZoo's (same classes by ``isinstance``, same checks) but read those
attributes straight from the unwrapped env.
"""

from __future__ import annotations

from pettingzoo.utils import wrappers

from envs.core.checks import as_action, none_for_live_agent

HOT_ATTRIBUTES = ("agent_selection", "agents", "rewards", "terminations", "truncations", "infos", "_cumulative_rewards")


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
    """Actions outside the action space fail an assertion; what is not an integer action is a ``TypeError``.

    The type is checked here, before PettingZoo's wrappers index the mask with
    it, so ``step(np.array(3))`` plays action 3 and ``step(True)`` names the
    value and the range (:func:`~envs.core.checks.as_action`).
    """

    def step(self, action) -> None:
        raw = self._raw
        if action is None:  # only for agents that are done (the raw env's own words otherwise)
            agent = raw.agent_selection
            if not (raw.terminations[agent] or raw.truncations[agent]):
                raise none_for_live_agent(raw.metadata["name"], agent)
            self.env.step(None)
            return
        n = raw.action_spaces[raw.agent_selection].n
        if type(action) is not int:
            action = as_action(action, n, raw.metadata["name"])
        if not 0 <= action < n:
            raise AssertionError(f"{raw.metadata['name']}: action {action} is not in the action space [0, {n})")
        self.env.step(action)


class OrderEnforcingWrapper(_Direct, wrappers.OrderEnforcingWrapper):
    """Errors for stepping or reading before ``reset()``."""


for _name in HOT_ATTRIBUTES:
    setattr(TerminateIllegalWrapper, _name, _direct(_name, check_reset=False))
    setattr(AssertOutOfBoundsWrapper, _name, _direct(_name, check_reset=False))
    # _cumulative_rewards is read by last() before any check in PettingZoo too
    setattr(OrderEnforcingWrapper, _name, _direct(_name, check_reset=_name != "_cumulative_rewards"))
