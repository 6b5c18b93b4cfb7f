"""Twirls of Action

## Description
Twirls of Action is an abstract game for two players by Claude Chaunier and
João Pedro Neto (2001), played on a 9x9 or 8x8 Go board; the rules here
follow the authors' rules page. Claude Chaunier had the idea of a pivot move
after seeing the pivot scaling of *Scalus*; the goal comes from *Lines of
Action*, hence the name. A stone never moves alone: it *twirls* around an
enemy stone, and the winner is the first to join all of their stones into one
loose group.

## Rules
* The board: cell = rank*size + file, file a = 0, rank 1 = 0; north is
  towards higher ranks. Set-ups (x = Black, w = White, first row = top rank):
  9x9 `.xwxwxwx./w7w/x7x/w7w/x7x/w7w/x7x/w7w/.xwxwxwx.` (14 stones each),
  8x8 `.xxxxxx./w6w/w6w/w6w/w6w/w6w/w6w/.xxxxxx.` (12 each).
* Black (`player_0`) moves first; there is no passing.
* Pie rule: on White's first turn White may swap instead of moving. The
  agents keep their names, the colours change hands: `player_1` then owns
  the black stones (and the move already made) and `player_0` plays White,
  moving next.
* A twirl: the moving stone O looks along one of the 8 directions; the first
  stone it sees there must be an enemy stone, the pivot P, at distance N.
  The destination D is the empty cell at distance N from P in a direction
  turned 45 or 90 degrees, either way, from the direction P->O. O and D are
  then always on one straight line, which must hold no stone between them.
  The path from P to D may be blocked. (Examples on 8x8: D8->D5
  pivoting on A5; A6->E6 on C8; C8->C4 on E6, with D5 between E6 and C4.)
* Goal: all the mover's stones form one 8-connected group and none has more
  than `max_neighbors` friendly 8-neighbours (3 in the original). Only the
  mover can win on a move. The limit may differ per seat, as the original
  suggests for handicaps: `max_neighbors=(4, 2)` gives `player_0` 4 and
  `player_1` 2, whichever colour they end up with.

## Termination
After every action the end is checked in this order: the mover has won (+1,
the other -1); `max_plies` actions have been played (a draw; the swap counts
as a ply); the next player has no legal twirl (that player loses). The ply
limit ends the game as a draw, a terminal state: `truncated` stays False.

!!! note "Not in the original"
    The original has no ply limit and does not say what happens to a player
    who cannot twirl. The limit (`max_plies=400`) is a safety cap so that no
    episode is endless; a player without a legal twirl loses.

## Legal action mask
Every twirl of the mover's stones (as above) is legal; the swap only on
White's first turn. The mask is never empty while the game goes on: a player
without a legal twirl has lost.

## Observation
From the observing player's side; on the default 9x9 board (81 cells):

| index | meaning |
|---|---|
| 0-80 | own stones, by cell |
| 81-161 | opponent's stones, by cell |
| 162-242 | empty cells |
| 243 | the observer plays Black |
| 244 | the observer is to move |
| 245 | the swap is available now (White's first turn) |
| 246 | own `max_neighbors` / 8 |
| 247 | opponent's `max_neighbors` / 8 |
| 248 | plies played / `max_plies` |

On the 8x8 board the pieces keep their order, 64 cells each (198 values).

## Action
`Discrete(size*size*32 + 1)`: 2593 on 9x9, 2049 on 8x8.
Directions 0..7 = N, NE, E, SE, S, SW, W, NW (clockwise).
* `a < size*size*32`: `a = (origin*8 + d)*4 + r`, d = direction from the
  origin to the pivot, r = 0..3 turns the direction pivot->origin by -90,
  -45, +45, +90 degrees (+ = clockwise) to give pivot->destination.
  Example: D8->D5 on A5 (8x8) = (59*8 + 5)*4 + 2 = 1910.
* `a = size*size*32`: swap.

Action names (`env.action_name(a)`) read `d8-d5@a5` (origin-destination@pivot)
and `swap`.

## Position notation
`env.position()` writes a position as one line of four fields separated by
spaces; `env.reset(options={"position": text})` starts from one.

1. board: the ranks from the top one down, each from file a, joined by `/`:
   `x` a Black stone, `w` a White stone (the seed's letters; the text
   drawing shows X and O), `.` an empty cell, a digit 2-9 that many empty
   cells in a row. The seed's capitals (marked stones) and `1` read too.
2. to move: the colour to move, `x` or `w`.
3. swap: `s` once White has swapped (`player_0` then plays White), else `-`.
4. plies: the plies played, the swap included.

The end follows from these (the checks of Termination, as after the last
ply). Nothing is hidden, so every seat's view is the same text. A text that
does not fit is refused with a `PositionError` naming the field: a rank of
the wrong length, an unknown symbol, more stones of a colour than the set-up
has (fewer are allowed, for puzzles), a colour to move that the plies and the
swap do not give, Black without a twirl at ply 0.

* The starts: 9x9 `.xwxwxwx./w7w/x7x/w7w/x7x/w7w/x7x/w7w/.xwxwxwx. x - 0`,
  8x8 `.xxxxxx./w6w/w6w/w6w/w6w/w6w/w6w/.xxxxxx. x - 0`.
* The seed's basic twirls on 8x8: `d8-d5@a5` gives
  `.xx.xxx./w6w/w6w/w2x3w/w6w/w6w/w6w/.xxxxxx. w - 1`, White's `a6-e6@c8`
  the seed's first picture `.xx.xxx./w6w/4w2w/w2x3w/w6w/w6w/w6w/.xxxxxx. x - 2`,
  then `c8-c4@e6` gives `.x2xxx./w6w/4w2w/w2x3w/w.x4w/w6w/w6w/.xxxxxx. w - 3`.
  The swap instead of White's twirl: `... w s 2`.
* The seed's second picture, White's stones one group but not a win (f4 has
  5 friendly neighbours), Black to move (the plies are ours):
  `.x2xxx./7w/4w2w/3x.ww./2x.ww2/3ww.ww/2w5/.xxxxxx. x - 10`.

## Rewards
+1 to the winner, -1 to the loser, 0 each for a draw, given at the end.

## Rule parameters
* `board_size`: the board, 9x9 or 8x8 (set-ups above).
* `max_neighbors`: the most friendly neighbours a stone may have in a winning
  group, for both seats or per seat (a handicap).
* `max_plies`: actions after which the game is a draw (not in the original).

## Version history
* v0: first release.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from envs.core.action_layout import ActionLayout, make_layout
from envs.core.aec import Symmetry, TurnBasedEnv, turn_based_metadata
from envs.core.board_graph import BoardGraph, grid_neighbours, make_board_graph, observation_planes
from envs.core.observation import Observation, Piece
from envs.twirls import render
from envs.twirls.board import TURNS, VECTORS
from envs.twirls.rules import BLACK, TwirlsGame, TwirlsState


class raw_env(TurnBasedEnv):
    """Twirls of Action as a PettingZoo AEC environment (see the module docstring)."""

    game_cls = TwirlsGame
    renderer = render
    metadata = turn_based_metadata("twirls_v0")

    @staticmethod
    def observation(game: TwirlsGame) -> Observation:
        return _observation(game.size * game.size)

    @staticmethod
    def observe_state(game: TwirlsGame, state: TwirlsState, seat: int) -> np.ndarray:
        n = game.size * game.size
        layout = _observation(n)
        colour = game.colour_of(state, seat)
        own, opp = state.stones[colour], state.stones[1 - colour]
        planes = own | opp << n | (game.tables.full ^ own ^ opp) << (2 * n)  # own, opponent, empty: one go
        raw = np.frombuffer(planes.to_bytes((3 * n + 7) // 8, "little"), dtype=np.uint8)
        obs = np.empty(layout.size, dtype=np.float32)
        obs[: 3 * n] = np.unpackbits(raw, count=3 * n, bitorder="little")
        obs[layout["black"]] = colour == BLACK
        obs[layout["to_move"]] = not state.over and game.to_move(state) == seat
        obs[layout["swap"]] = game.swap_available(state)
        obs[layout["own_limit"]] = game.limits[seat] / 8.0
        obs[layout["opponent_limit"]] = game.limits[1 - seat] / 8.0
        obs[layout["plies"]] = state.plies / game.max_plies
        return obs

    @staticmethod
    def board_graph(game: TwirlsGame) -> BoardGraph:
        """The three planes by cell (own stones, opponent's, empty) and each cell's eight neighbours, in the
        twirl directions' order."""
        board = game.tables
        coords = list(zip(board.file_of, board.rank_of))  # (file, rank), as the directions step
        layout = _observation(board.cells)
        planes = observation_planes(layout, ("own", "opponent", "empty"))
        return make_board_graph(planes, grid_neighbours(coords, list(VECTORS)), layout.size)

    @staticmethod
    def symmetries(game: TwirlsGame) -> list[Symmetry]:
        """The 8 symmetries of the square board: 4 quarter turns, each also mirrored (file f to size - 1 - f).

        A twirl is an origin, the direction to its pivot and a turn: a quarter turn clockwise moves the
        direction two steps clockwise; the mirror reflects it and turns a clockwise twirl into an
        anticlockwise one.
        """
        size = game.size
        out = []
        for mirror in (False, True):
            for quarter in range(4):
                cells, directions = np.arange(size * size), np.arange(8)
                if mirror:
                    cells = (cells // size) * size + (size - 1 - cells % size)
                    directions = (8 - directions) % 8
                for _ in range(quarter):  # (f, r) -> (r, size - 1 - f); direction d -> d + 2
                    cells = (size - 1 - cells % size) * size + cells // size
                    directions = (directions + 2) % 8
                out.append(_symmetry(game, cells, directions, mirror))
        return out

    @staticmethod
    def action_layout(game: TwirlsGame) -> ActionLayout:
        """Every twirl as (its origin cell, direction to the pivot * 4 + turn), as the rules decode it
        (``origin * 32 + direction * 4 + turn``); the swap is an action of its own."""
        twirls = np.arange(game.swap_action)
        cell, move = np.divmod(twirls, 32)
        return make_layout(np.append(cell, -1), np.append(move, -1), game.size * game.size, 32)


@cache
def _observation(n: int) -> Observation:
    """The observation of a board of ``n`` cells."""
    return Observation(
        Piece("own", n, "own stones, by cell"),
        Piece("opponent", n, "opponent's stones, by cell"),
        Piece("empty", n, "empty cells"),
        Piece("black", 1, "the observer plays Black"),
        Piece("to_move", 1, "the observer is to move"),
        Piece("swap", 1, "the swap is available now (White's first turn)"),
        Piece("own_limit", 1, "own `max_neighbors` / 8"),
        Piece("opponent_limit", 1, "opponent's `max_neighbors` / 8"),
        Piece("plies", 1, "plies played / `max_plies`"),
    )


def _symmetry(game: TwirlsGame, cells: np.ndarray, directions: np.ndarray, mirror: bool) -> Symmetry:
    """The symmetry taking cell ``c`` to ``cells[c]``, direction ``d`` to ``directions[d]``, and (``mirror``)
    every turn to its opposite."""
    n = game.size * game.size
    back, back_direction = np.argsort(cells), np.argsort(directions)
    turn_back = np.array([TURNS.index(-t) for t in TURNS]) if mirror else np.arange(len(TURNS))
    observation = np.concatenate([back, n + back, 2 * n + back, np.arange(3 * n, 3 * n + 6)])
    image = np.arange(n * 32)
    origin, direction, turn = image // 32, image // 4 % 8, image % 4
    action = np.append(back[origin] * 32 + back_direction[direction] * 4 + turn_back[turn], game.swap_action)

    def moved(bits: int) -> int:
        return sum(1 << int(cells[c]) for c in range(n) if bits >> c & 1)

    def state(s: TwirlsState) -> TwirlsState:
        last = None if s.last is None else tuple(int(cells[c]) for c in s.last)
        return TwirlsState(
            [moved(b) for b in s.stones], s.colour_to_move, s.swapped, s.plies, s.over, s.winner, last, None
        )

    return Symmetry(state, observation, action)
