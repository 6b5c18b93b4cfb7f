"""Swival

## Description
Swival is a two-player game of counters on three concentric rings of eight
spaces, published as a computer game by Swival Games Inc.; these rules follow
its official rules (*Swival - Official Rules*). Red (`player_0`) moves
first, Black (`player_1`) second. After placing a counter a player may swivel
the middle ring one step, carrying the counters on it along. A line of three
is one spoke (the same position `k` on all three rings); at the start of your
turn, if you have a line you may put your winning counter in the centre and
win. A line made on your own move can still be broken by the opponent's
swivel before your next turn: that is the heart of the game.

## Rules
* The board: three rings of 8 spaces and the centre. Cell = ring*8 + k;
  ring 0 outer, 1 middle, 2 inner; k = 0..7 clockwise, k = 0 just right of
  12 o'clock (the original numbers its spaces 1-8, 9-16, 17-24 the same way).
* Each player has 13 counters: 12 for the rings, the 13th the winning
  counter for the centre.
* A turn: place a counter on any empty ring space, then optionally swivel the
  middle ring one step: left = anticlockwise (middle k -> k-1 mod 8), right =
  clockwise (k -> k+1 mod 8). The swivel is allowed only when, after the
  placement, the mover has at least 2 counters on the board and at least one
  of them on the middle ring.
* At the start of a player's turn, if that player has a line of three, the
  player may place the winning counter in the centre instead, and wins.

## Termination
The game ends when the winning counter is placed (+1 to its player, -1 to the
other), or as a draw when the board is full and the player to move has no
line. Every game ends within 24 placements and one more turn, so there is no
ply limit and `truncated` stays False.

## Legal action mask
* a < 72 is legal when cell `a // 3` is empty and, for a swivel (`a % 3` 1
  or 2), the swivel is allowed after that placement.
* a = 72 is legal exactly when the mover has a line at the start of the turn;
  the placements stay legal then too (a player need not win at once).

## Observation
From the observing player's side:

| index | meaning |
|---|---|
| 0-23 | own counters, by cell |
| 24-47 | opponent's counters, by cell |
| 48-71 | empty cells |
| 72 | a swivel is allowed after placing on the middle ring (own counters >= 1) |
| 73 | a swivel is allowed after placing anywhere (also an own counter on the middle ring) |
| 74 | own line of three on the board |
| 75 | opponent's line of three on the board |
| 76 | own ring counters left / 12 |
| 77 | opponent's ring counters left / 12 |

## Action
* a < 72: place on cell `a // 3` then swivel `a % 3` (0 none, 1 left =
  anticlockwise, 2 right = clockwise).
* a = 72: the winning counter into the centre.

## Position notation
One line of three fields (`env.position()`, `env.reset(options={"position": text})`; see
[Positions and search](../positions.md)):

* **rings**: the outer, middle and inner rings joined by `/`, each from spoke 0 (just right of 12 o'clock)
  clockwise: `R` red (player_0, moves first), `B` blue (player_1), `.` empty;
* **centre**: the winner's counter (`R` or `B`) once a line of three has been crowned, else `-`;
* **to-move**: `R` or `B` (it follows from the counts: red has as many counters as blue, or one more).

Nothing is hidden, so every seat's view is the same text. The start is `......../......../........ - R`.
The seed's cases, written in it:

* a line of three at the start of red's turn: `RB....../R..B..../R.B..... - R`; the move `centre` wins,
  giving `RB....../R..B..../R.B..... R R`;
* a line made on your own move broken by the opponent's swivel: red plays `i0` in
  `R......./R...B.../..B..... - R` to make spoke 0, and blue's `o5R` turns the middle ring:
  `R....B../.R...B../R.B..... - R`;
* a draw: blue fills the last space of `RBRBRBRB/BRBRBRBR/R.RBRBRB - B` with `i1`, and red, to move on a full
  board, has no line.

## Rewards
+1 to the winner, -1 to the loser, 0 each for a draw, given at the end.

## Rule parameters
Swival has one set of rules and no rule parameters.

## Version history
* v0: first release.
"""

from __future__ import annotations

import numpy as np

from envs.core.aec import Symmetry, TurnBasedEnv, turn_based_metadata
from envs.core.board_graph import BoardGraph, make_board_graph, observation_planes
from envs.core.observation import Observation, Piece
from envs.swival import render
from envs.swival.rules import MIDDLE, SwivalGame, SwivalState, bits_array, has_line

OBSERVATION = Observation(
    Piece("own", 24, "own counters, by cell"),
    Piece("opponent", 24, "opponent's counters, by cell"),
    Piece("empty", 24, "empty cells"),
    Piece("swivel_middle", 1, "a swivel is allowed after placing on the middle ring (own counters >= 1)"),
    Piece("swivel_any", 1, "a swivel is allowed after placing anywhere (also an own counter on the middle ring)"),
    Piece("own_line", 1, "own line of three on the board"),
    Piece("opponent_line", 1, "opponent's line of three on the board"),
    Piece("own_left", 1, "own ring counters left / 12"),
    Piece("opponent_left", 1, "opponent's ring counters left / 12"),
)
OBSERVATION_SIZE = OBSERVATION.size
_OWN, _OPP, _EMPTY, _SWIVEL_MIDDLE, _SWIVEL_ANY, _OWN_LINE, _OPP_LINE, _OWN_LEFT, _OPP_LEFT = (
    OBSERVATION[p.name] for p in OBSERVATION.pieces
)


class raw_env(TurnBasedEnv):
    """Swival as a PettingZoo AEC environment (see the module docstring)."""

    game_cls = SwivalGame
    renderer = render
    metadata = turn_based_metadata("swival_v0")

    @staticmethod
    def observation(game: SwivalGame) -> Observation:
        return OBSERVATION

    @staticmethod
    def observe_state(game: SwivalGame, state: SwivalState, seat: int) -> np.ndarray:
        own, opp = state.boards[seat], state.boards[1 - seat]
        obs = np.empty(OBSERVATION_SIZE, dtype=np.float32)
        obs[_OWN] = bits_array(own)
        obs[_OPP] = bits_array(opp)
        obs[_EMPTY] = 1.0 - obs[_OWN] - obs[_OPP]
        obs[_SWIVEL_MIDDLE] = own != 0
        obs[_SWIVEL_ANY] = own != 0 and own & MIDDLE != 0
        obs[_OWN_LINE] = has_line(own)
        obs[_OPP_LINE] = has_line(opp)
        obs[_OWN_LEFT] = game.counters_left(state, seat) / 12.0
        obs[_OPP_LEFT] = game.counters_left(state, 1 - seat) / 12.0
        return obs

    @staticmethod
    def board_graph(game: SwivalGame) -> BoardGraph:
        """The three planes by cell (own counters, opponent's, empty) and each cell's neighbours: clockwise and
        anticlockwise on its ring, then out and in along its spoke (-1 past the outer or inner ring)."""
        neighbours = [
            [ring * 8 + (k + 1) % 8, ring * 8 + (k - 1) % 8, (ring - 1) * 8 + k if ring else -1,
             (ring + 1) * 8 + k if ring < 2 else -1]
            for ring in range(3)
            for k in range(8)
        ]  # fmt: skip
        planes = observation_planes(OBSERVATION, ("own", "opponent", "empty"))
        return make_board_graph(planes, np.array(neighbours), OBSERVATION.size)

    @staticmethod
    def symmetries(game: SwivalGame) -> list[Symmetry]:
        """The 16 symmetries of the rings: 8 rotations (every ring by the same steps), each also mirrored
        (spoke k to 7 - k, which turns a left swivel into a right one)."""
        out = []
        for mirror in (False, True):
            for turn in range(8):
                spoke = [((7 - k) if mirror else k) for k in range(8)]
                cells = np.array([ring * 8 + (spoke[k] + turn) % 8 for ring in range(3) for k in range(8)])
                out.append(_symmetry(cells, (0, 2, 1) if mirror else (0, 1, 2)))
        return out


def _symmetry(cells: np.ndarray, swivels: tuple[int, int, int]) -> Symmetry:
    """The symmetry that takes cell ``c`` to ``cells[c]`` and swivel ``s`` to ``swivels[s]``."""
    back = np.argsort(cells)  # back[cells[c]] = c
    observation = np.concatenate([back, 24 + back, 48 + back, np.arange(72, OBSERVATION_SIZE)])
    action = np.array([back[a // 3] * 3 + swivels[a % 3] for a in range(72)] + [72])  # swivels is its own inverse

    def state(s: SwivalState) -> SwivalState:
        boards = [sum(1 << int(cells[c]) for c in range(24) if b >> c & 1) for b in s.boards]
        return SwivalState(boards, s.to_move, s.winner, s.over, s.plies)

    return Symmetry(state, observation, action)
