"""What every game's position notation shares: its error, and reading a text's fields.

A game's notation (``Game.to_text`` / ``Game.from_text``) is one line of
fields separated by spaces, as chess's FEN: each game's docs page gives its
fields. A text that cannot be read raises :class:`PositionError` saying
which field is wrong, what it holds and what it should hold.
"""

from __future__ import annotations

from collections.abc import Sequence

from envs.core.checks import RuleError

#: the character a seat's own view of a position shows where something is hidden from it
HIDDEN = "?"


class PositionError(RuleError):
    """A position text the game cannot read, or one the rules do not allow (the message says where)."""


class Fields:
    """The fields of one position text, by label, with checked readers.

    >>> f = Fields("swival", "x.o 0", ("board", "to-move"))
    >>> f.int("to-move", 0, 1)
    0
    """

    def __init__(self, name: str, text: str, labels: Sequence[str]) -> None:
        if not isinstance(text, str):
            raise TypeError(f"{name}: a position is a str of the game's notation, got {type(text).__name__}")
        self.name, self.text, self.labels = name, text.strip(), tuple(labels)
        parts = self.text.split()
        if len(parts) != len(self.labels):
            raise PositionError(
                f"{name} position {self.text!r}: {len(parts)} fields where the notation has "
                f"{len(self.labels)} ({' '.join(self.labels)})"
            )
        self.values = dict(zip(self.labels, parts))

    def __getitem__(self, label: str) -> str:
        return self.values[label]

    def error(self, label: str, problem: str) -> PositionError:
        """An error about field ``label``: its number, its name, its text and ``problem``."""
        number = self.labels.index(label) + 1
        return PositionError(
            f"{self.name} position {self.text!r}: field {number} ({label}) {self.values[label]!r}: {problem}"
        )

    def int(self, label: str, low: int, high: int) -> int:
        """Field ``label`` as an int in ``[low, high]``."""
        value = self.values[label]
        try:
            number = int(value)
        except ValueError:
            raise self.error(label, f"expected a whole number from {low} to {high}") from None
        if not low <= number <= high:
            raise self.error(label, f"expected a whole number from {low} to {high}")
        return number

    def choice(self, label: str, options: Sequence[str]) -> int:
        """The index of field ``label`` among ``options``."""
        value = self.values[label]
        if value not in options:
            raise self.error(label, f"expected one of {', '.join(options)}")
        return list(options).index(value)

    def ints(self, label: str, count: int, low: int, high: int, sep: str = ",") -> list[int]:
        """Field ``label`` as ``count`` ints in ``[low, high]`` separated by ``sep``."""
        parts = self.values[label].split(sep)
        if len(parts) != count:
            raise self.error(label, f"expected {count} numbers separated by {sep!r}, got {len(parts)}")
        numbers = []
        for k, part in enumerate(parts):
            try:
                number = int(part)
            except ValueError:
                raise self.error(label, f"item {k + 1} {part!r} is not a whole number") from None
            if not low <= number <= high:
                raise self.error(label, f"item {k + 1} is {number}, outside {low}..{high}")
            numbers.append(number)
        return numbers

    def cells(self, label: str, count: int, symbols: str, sep: str = "/") -> str:
        """Field ``label`` as ``count`` cell symbols from ``symbols`` (``sep`` allowed between groups, ignored)."""
        cells = self.values[label].replace(sep, "")
        if len(cells) != count:
            raise self.error(label, f"expected {count} cells, got {len(cells)}")
        for k, symbol in enumerate(cells):
            if symbol not in symbols:
                raise self.error(label, f"cell {k + 1} is {symbol!r}; a cell is one of {' '.join(symbols)}")
        return cells


def one_line(name: str, text: str) -> str:
    """``text`` (a str, possibly with surrounding space) checked to be one line."""
    if not isinstance(text, str):
        raise TypeError(f"{name}: a position is a str of the game's notation, got {type(text).__name__}")
    if "\n" in text.strip():
        raise PositionError(f"{name} position {text!r}: a position is one line of text")
    return text.strip()


__all__ = ["HIDDEN", "Fields", "PositionError", "one_line"]
