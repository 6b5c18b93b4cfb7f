"""Swish as a PettingZoo AEC environment, on the shared hex-rook adapter (:mod:`envs.hexrook.env`).

:data:`SWISH_DOC` is the game's doc page (the docstring of :mod:`envs.swish_v0`).
"""

from __future__ import annotations

from envs.core.aec import turn_based_metadata
from envs.hexrook.env import DOC_TEMPLATE, HexRookEnv
from envs.swish.rules import SwishGame

SWISH_DOC = DOC_TEMPLATE.format(
    title="Swish",
    module="swish_v0",
    summary="In Swish a rook captures by leaping over an unbroken row of beads or of enemy rooks; "
    "the first to capture 10 beads wins.",
    moves="""On each turn the player must move one of his rooks in one of the six
directions, ending on an empty cell. A rook may
* slide over any number of empty cells; or
* slide over empty cells (possibly none), then leap one unbroken row of
  beads, or one unbroken row of enemy rooks, and land on any empty cell
  beyond it, before the next piece. Leapt beads go to the mover's store;
  leapt rooks leave play.

Never a mixed row (beads and rooks), never over own rooks, and there must be
an empty cell right after the row.""",
    positions="""The seed's cases, in notation (`player_0` plays white and moves; the lines
after the first show the position after each move). The rook on e1 leaps the beads e4 e5 with `e1xe6` (or lands further, `e1xe8`), and its
neighbour on a1 leaps the black rooks a3 a4 with `a1xa5`:

```
W.BB./....../..o..../......../W..oo...B/......../..o..../..o.../W.... play 0 WB 7,7 1
W.BB./....../..o..../......../.....W..B/......../..o..../..o.../W.... play 1 WB 9,7 2
....W/....../..o..../......../W..oo...B/......../..o..../..o.../W.... play 1 WB 7,7 2
```

A mixed row (the bead e4, then the black rook e5) cannot be leapt: the rook
on e1 goes no further east than e3.

```
W...B/....../..o..../......../W..oB...B/......../..o..../....../W.... play 0 WB 8,8 1
```""",
)


class SwishEnv(HexRookEnv):
    __doc__ = SWISH_DOC
    game_cls = SwishGame
    metadata = turn_based_metadata("swish_v0")
