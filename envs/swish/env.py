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
)


class SwishEnv(HexRookEnv):
    __doc__ = SWISH_DOC
    game_cls = SwishGame
    metadata = turn_based_metadata("swish_v0")
