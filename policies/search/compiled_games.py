"""The games the compiled alpha-beta (:mod:`policies.search.compiled`) searches: each engine's per-board functions,
registered by the class of its batch's named state, and a kernel that makes their scratch.

The engines keep the functions of their rules (legal moves, step, observation, captures, whether a move may end
the game); what only the search needs, the scratch it hands them and the registration, lives here, so that
nothing in ``envs`` knows the search. Importing this module registers every game below.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.hexrook import batched as hexrook
from envs.hexrook.board import ROOKS_PER_COLOUR
from envs.swival import batched as swival
from envs.swival.rules import NUM_ACTIONS as SWIVAL_ACTIONS
from policies.search.compiled import GameFunctions, Kernels, register_game


# -- Swish and Squeeze ------------------------------------------------------------------------------------------
@njit(cache=True)
def hexrook_kernels(s, c):
    """The hex-rook engine's :data:`Kernels`: its legal moves listed in the batch's own ``moves``, the captures'
    scratch (:data:`envs.hexrook.batched.CaptureScratch`), the step's and ``may_end_one``'s."""
    n, listed = c.params[hexrook.P_CELLS], s.moves.shape[1]
    actions = c.params[hexrook.P_CHOICE_BASE] + 3
    captures = hexrook.CaptureScratch(
        np.zeros(ROOKS_PER_COLOUR, dtype=np.int16),
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.int16),
        np.zeros(listed, dtype=np.int32),
        np.zeros(listed, dtype=np.float64),
        np.zeros(actions, dtype=np.bool_),
        np.zeros(hexrook.MAX_CAPTURES, dtype=np.int16),
    )
    step_scratch = (np.zeros(1, dtype=np.int16),)
    return Kernels((), s.moves, s.nmoves, step_scratch, (), captures, np.zeros(hexrook.MAX_CAPTURES, dtype=np.int16))


register_game(
    hexrook.Boards,
    GameFunctions(
        hexrook.legal_one,
        hexrook.step_one,
        hexrook.observe_one,
        hexrook.captures_one,
        hexrook.may_end_one,
        hexrook_kernels,
    ),
    lambda engine: engine.arrays["moves"][0][0],
)


# -- Swival -----------------------------------------------------------------------------------------------------
@njit(cache=True)
def swival_kernels(s, c):
    """Swival's :data:`Kernels`: the list its legal moves go into (the engine keeps only the mask); the other
    functions need no scratch."""
    boards = s.boards.shape[0]
    moves, count = np.zeros((boards, SWIVAL_ACTIONS), dtype=np.int16), np.zeros(boards, dtype=np.int16)
    return Kernels((moves, count), moves, count, (), (), (), ())


register_game(
    swival.Boards,
    GameFunctions(
        swival.legal_listed_one,
        swival.step_one,
        swival.observe_one,
        swival.captures_one,
        swival.may_end_one,
        swival_kernels,
    ),
    lambda engine: SWIVAL_ACTIONS,
)
