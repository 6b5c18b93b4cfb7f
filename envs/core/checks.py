"""The one place that turns what a caller hands in (an action, a seed, a count) into a plain int.

RL libraries hand actions over as Python ints, numpy integers or, from
``model.predict`` on one observation, 0-d integer arrays; all of these mean the
same action. Anything else (a bool, a float, a string, a list, an array of
another shape) is a caller's mistake and raises ``TypeError`` naming the value
and the accepted range, before any rule or wrapper looks at it. :func:`as_int`
is the one test of "an integer, not a bool" that every other check builds on
(:func:`as_number` too: an integer or a float, never a bool).
"""

from __future__ import annotations

from typing import Any

import numpy as np


class RuleError(ValueError):
    """A rule parameter or an action that the rules do not allow."""


def as_int(value: Any) -> int | None:
    """``value`` as a Python int if it is a Python or numpy integer (not a bool, not a float); else None.

    Callers raise their own error on None, naming the value and what it is for.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        return None
    return int(value)


def as_number(value: Any) -> float | None:
    """``value`` as a Python float if it is an integer (as :func:`as_int` says: not a bool) or a Python or numpy
    float; else None. Callers raise their own error on None, as for :func:`as_int`."""
    if (plain := as_int(value)) is not None:
        return float(plain)
    return float(value) if isinstance(value, (float, np.floating)) else None


def as_action(action: Any, num_actions: int, where: str) -> int:
    """``action`` as a Python int, or ``TypeError`` naming it and the range ``[0, num_actions)``.

    Accepts int, numpy integers and 0-d integer arrays; refuses bool and
    ``np.bool_`` (True is not action 1). The range itself is not checked here:
    an out-of-range or illegal int is the rules' business.
    """
    if type(action) is int:
        return action
    if (plain := as_int(action)) is not None:
        return plain
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        return int(action)
    raise TypeError(
        f"{where}: action must be an integer in [0, {num_actions}) (int, numpy integer or 0-d "
        f"integer array), got {action!r} of type {_type_name(action)}"
    )


def none_for_live_agent(where: str, agent: str) -> ValueError:
    """The error for ``step(None)`` while ``agent`` is still in the game (None is only for agents that are done)."""
    return ValueError(f"{where}: {agent} is still in the game; step(None) is only for agents that are done")


def as_seed(seed: Any, where: str) -> int | None:
    """``seed`` as None or a Python int >= 0 (Gymnasium's rule, numpy integers included); else a named error.

    ``TypeError`` for a bool, float, string or anything else; ``ValueError``
    for a negative integer.
    """
    if seed is None:
        return None
    if (plain := as_int(seed)) is not None:
        if plain < 0:
            raise ValueError(f"{where}: seed must be None or an integer >= 0, got {seed!r}")
        return plain
    raise TypeError(f"{where}: seed must be None or an integer >= 0, got {seed!r} of type {_type_name(seed)}")


def _type_name(value: Any) -> str:
    """``float``, ``str``, ``numpy.bool``, ``numpy.ndarray`` ... (numpy's own types said so)."""
    kind = type(value)
    return f"numpy.{kind.__name__}" if kind.__module__ == "numpy" else kind.__name__
