"""A game's observation vector declared once, as named pieces in order (as OpenSpiel declares its tensors).

Each game's env declares ``observation(game) -> Observation``; from it come the
observation's size, the index table of the game's doc page, the slices its
``observe_state`` writes and the names by which the batched kernel's
observation is checked against it, piece by piece.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Piece:
    """``size`` consecutive values of the observation, all meaning one thing (e.g. own counters by cell)."""

    name: str
    size: int
    meaning: str


class Observation:
    """The pieces of an observation vector, in order: where each starts, its size and what it means."""

    def __init__(self, *pieces: Piece) -> None:
        names = [p.name for p in pieces]
        if len(set(names)) != len(names):
            raise ValueError(f"observation pieces need distinct names, got {names}")
        if any(p.size < 1 for p in pieces):
            raise ValueError(f"observation pieces need a size >= 1, got {[(p.name, p.size) for p in pieces]}")
        self.pieces = pieces
        starts = np.cumsum([0, *(p.size for p in pieces)])
        self.size = int(starts[-1])
        self._slices = {p.name: slice(int(a), int(b)) for p, a, b in zip(pieces, starts[:-1], starts[1:])}

    def __getitem__(self, name: str) -> slice:
        """The indices of piece ``name`` in the vector."""
        try:
            return self._slices[name]
        except KeyError:
            raise KeyError(f"no observation piece {name!r}; the pieces are {list(self._slices)}") from None

    def start(self, name: str) -> int:
        """The index of piece ``name``'s first value."""
        return self[name].start

    def split(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """``vector`` (its last axis the observation) cut into its pieces, by name."""
        return {name: vector[..., where] for name, where in self._slices.items()}

    def describe(self, vector: np.ndarray) -> str:
        """One line per piece: its name, then its value (one value) or where it is non-zero (many)."""
        vector = np.asarray(vector, dtype=np.float32)
        if vector.shape != (self.size,):
            raise ValueError(f"an observation of {self.size} values is needed, got shape {vector.shape}")
        lines = []
        for piece in self.pieces:
            values = vector[self[piece.name]]
            if piece.size == 1:
                shown = f"{values[0]:g}"
            else:
                nonzero = np.flatnonzero(values)
                shown = " ".join(f"{k}:{values[k]:g}" if values[k] != 1 else str(k) for k in nonzero) or "-"
            lines.append(f"{piece.name}: {shown}")
        return "\n".join(lines)

    def table(self) -> str:
        """The doc page's index table: one row per piece (``index`` a single value or ``first-last``)."""
        rows = ["| index | meaning |", "|---|---|"]
        for piece in self.pieces:
            where = self[piece.name]
            index = str(where.start) if piece.size == 1 else f"{where.start}-{where.stop - 1}"
            rows.append(f"| {index} | {piece.meaning} |")
        return "\n".join(rows)


__all__ = ["Observation", "Piece"]
