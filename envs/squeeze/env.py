"""Squeeze as a PettingZoo AEC environment, on the shared hex-rook adapter (:mod:`envs.hexrook.env`).

:data:`SQUEEZE_DOC` is the game's doc page (the docstring of :mod:`envs.squeeze_v0`).
"""

from __future__ import annotations

from envs.core.aec import turn_based_metadata
from envs.hexrook.env import DOC_TEMPLATE, HexRookEnv
from envs.squeeze.rules import SqueezeGame

SQUEEZE_DOC = DOC_TEMPLATE.format(
    title="Squeeze",
    module="squeeze_v0",
    summary="In Squeeze beads and enemy rooks are captured custodian fashion, sandwiched between "
    "two own rooks; the first to capture 10 beads wins.",
    moves="""On each turn the player must move one of his rooks in one of the six
directions over empty cells only, ending on an empty cell. After it lands,
in each of the six directions from the landing cell an unbroken row of
beads, or of enemy rooks, closed on the far side by another own rook, is
captured: beads to the mover's store, rooks out of play. Several directions
may capture at once (so a move may take beads and a rook, in different
directions); never a mixed row. Only the moving rook captures: a rook that
moves between two enemy rooks is safe.""",
    positions="""The seed's cases, in notation (`player_0` plays white and moves; the second
line is the position after the move). The white rook on a1 slides to e5 (`a1xe5`) and takes the beads e3 e4 against e2 and the bead
e6 against e7, in two directions at once:

```
W...B/....../......./......../.Woo.oW../......../..oo.../....../B...B play 0 WB 6,8 1
....B/....../......./......../.W..W.W../......../..oo.../....../B...B play 1 WB 9,8 2
```

With a black rook on e6 instead, the same move takes the beads one way and
the rook the other; a mixed row (a black rook on e3, a bead on e4) is not
taken:

```
W...B/....../......./......../.Woo.BW../......../..oo.../....../....B play 0 WB 7,8 1
W...B/....../......./......../.WBo...../......../..oo.../....../W...B play 0 WB 8,8 1
```""",
)


class SqueezeEnv(HexRookEnv):
    __doc__ = SQUEEZE_DOC
    game_cls = SqueezeGame
    metadata = turn_based_metadata("squeeze_v0")
