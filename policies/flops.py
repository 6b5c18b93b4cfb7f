"""What one forward pass of a policy network costs, counted from its shapes (no timing, no torch).

Counted: the multiply-adds of the matrix products, one observation at a time;
biases, activations and gathers are not counted. A FLOP figure is twice the
multiply-adds (one multiply and one add each), the convention of
FIELD-NOTES's "MFLOP" figures.
"""

from __future__ import annotations

from collections.abc import Sequence

from envs.core.action_layout import ActionLayout
from envs.core.board_graph import BoardGraph


def dense(widths: Sequence[int]) -> int:
    """Multiply-adds of a chain of dense layers ``widths[0] -> widths[1] -> ...``."""
    return sum(a * b for a, b in zip(widths, widths[1:]))


def factored_head(width: int, cells: int, moves: int, rank: int, others: int) -> int:
    """Multiply-adds of a factored action head (:class:`policies.numpy_policy.FactoredHead`) computing every
    action's logit: each cell's ``rank + 1`` values from ``width`` inputs, every (cell, move) pair's product with
    the move's ``rank`` values and the cell's score, and ``others`` direct logits."""
    return width * cells * (rank + 1) + cells * moves * (rank + 1) + width * others


def board_conv(graph: BoardGraph, layers: int, channels: int) -> int:
    """Multiply-adds of a board convolution (:class:`policies.numpy_policy.BoardConv`): every layer maps each
    cell's own and its neighbours' features (the graph's planes first, then ``channels``) to ``channels``."""
    around = graph.cells * (graph.directions + 1)
    return around * channels * (graph.planes.shape[0] + (layers - 1) * channels) if layers else 0


def network(
    observations: int, hidden: Sequence[int], actions: int, layout: ActionLayout | None = None, rank: int = 0,
    conv: tuple[BoardGraph, int, int] | None = None,
) -> dict[str, int]:  # fmt: skip
    """Multiply-adds of one forward pass of the network :class:`training.network.Network` builds (``conv``: a
    board convolution ``(graph, layers, channels)`` whose cells' features both towers also take; a policy tower,
    an action head: plain without ``layout``, else factored at ``rank``; a value tower of the same widths and
    one value), by part and in total."""
    inputs, parts = observations, {}
    if conv is not None:
        graph, layers, channels = conv
        inputs += graph.cells * channels
        parts["board conv"] = board_conv(graph, layers, channels)
    widths = [inputs, *hidden]
    if layout is None:
        head = hidden[-1] * actions
    else:
        head = factored_head(hidden[-1], layout.cells, layout.moves, rank, layout.others.size)
    parts |= {"policy tower": dense(widths), "action head": head, "value tower": dense(widths) + hidden[-1]}
    return parts | {"total": sum(parts.values())}


__all__ = ["board_conv", "dense", "factored_head", "network"]
