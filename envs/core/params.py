"""Rule parameters: each game declares them once; one validator checks and normalises every value.

A game lists its parameters as :class:`Param` objects (``Game.RULE_PARAMS``).
:func:`normalise_params` turns what a caller passed (Python or numpy
integers and bools, lists from JSON) into plain Python values, or raises
:class:`~envs.core.game.RuleError` naming the game, the parameter, the value
and the accepted values. A float is refused even when whole (``8.0``): a rule
value is counted, not measured.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from envs.core.checks import RuleError, as_int

INT, CHOICE, BOOL, SEAT_PAIR = "int", "choice", "bool", "seat pair"


@dataclass(frozen=True)
class Param:
    """One rule parameter: its name, default and which values it accepts.

    ``kind`` is ``"int"`` (``low`` to ``high``, ``high`` None for no bound),
    ``"choice"`` (one of ``choices``: ints or strings), ``"bool"`` or
    ``"seat pair"`` (an int from ``low`` to ``high``, or a pair of them, one per seat).
    """

    name: str
    default: Any
    kind: str
    low: int | None = None
    high: int | None = None
    choices: tuple = ()

    def accepted(self) -> str:
        """The accepted values in words, for error messages."""
        if self.kind == BOOL:
            return "True or False"
        if self.kind == CHOICE:
            return "one of " + ", ".join(map(repr, self.choices))
        span = f"an int from {self.low} to {self.high}" if self.high is not None else f"an int >= {self.low}"
        if self.kind == SEAT_PAIR:
            return f"{span} or a per-seat pair of them such as ({self.high}, {self.low})"
        return span

    def normalise(self, name: str, value: Any) -> Any:
        """``value`` as a plain Python value, or a ``RuleError`` naming game ``name``, the parameter and what it
        accepts."""
        if self.kind == BOOL:
            if isinstance(value, (bool, np.bool_)):
                return bool(value)
        elif self.kind == CHOICE:
            plain = (
                as_int(value)
                if all(isinstance(c, int) for c in self.choices)
                else (str(value) if isinstance(value, str) else None)
            )
            if plain is not None and plain in self.choices:
                return plain
        elif self.kind == INT:
            plain = as_int(value)
            if plain is not None and self._in_range(plain):
                return plain
        elif self.kind == SEAT_PAIR:
            plain = as_int(value)
            if plain is not None and self._in_range(plain):
                return plain
            if isinstance(value, (tuple, list)) and len(value) == 2:
                pair = tuple(as_int(v) for v in value)
                if all(v is not None and self._in_range(v) for v in pair):
                    return pair
        else:  # pragma: no cover - a declaration error, not a user error
            raise ValueError(f"{name}: parameter {self.name} has unknown kind {self.kind!r}")
        raise RuleError(f"{name}: {self.name} must be {self.accepted()}, got {value!r} ({type(value).__name__})")

    def _in_range(self, v: int) -> bool:
        return (self.low is None or v >= self.low) and (self.high is None or v <= self.high)


def int_param(name: str, default: int, low: int, high: int | None = None) -> Param:
    """An int parameter from ``low`` to ``high`` (no upper bound when None)."""
    return Param(name, default, INT, low=low, high=high)


def choice_param(name: str, default: Any, choices: tuple) -> Param:
    """A parameter taking one of ``choices`` (all ints or all strings)."""
    return Param(name, default, CHOICE, choices=tuple(choices))


def bool_param(name: str, default: bool) -> Param:
    """A True/False parameter (0 and 1 are refused: they are not rule switches)."""
    return Param(name, default, BOOL)


def seat_pair_param(name: str, default: int, low: int, high: int) -> Param:
    """An int from ``low`` to ``high`` for every seat, or a (seat 0, seat 1) pair of them."""
    return Param(name, default, SEAT_PAIR, low=low, high=high)


def normalise_params(name: str, declared: tuple[Param, ...], given: dict[str, Any]) -> dict[str, Any]:
    """Every declared parameter of game ``name``, defaults filled in, each value normalised.

    Unknown keywords raise ``TypeError`` (as Python does for a bad keyword)
    listing the parameters; bad values raise ``RuleError``.
    """
    names = {p.name for p in declared}
    unknown = sorted(set(given) - names)
    if unknown:
        known = ", ".join(f"{p.name}={p.default!r}" for p in declared) or "none"
        raise TypeError(f"{name}: unknown keyword(s) {', '.join(unknown)}; the rule parameters are: {known}")
    return {p.name: p.normalise(name, given.get(p.name, p.default)) for p in declared}
