"""Twirls of Action

| | |
|---|---|
| Import | `from envs import twirls_v0` |
| Actions | Discrete(size*size*32 + 1): 2593 on 9x9, 2049 on 8x8 |
| Agents | `player_0` (Black, moves first), `player_1` (White; may swap on its first turn) |
| Observation | dict: `observation` Box(0, 1, (3*size*size + 6,), float32) (249 on 9x9, 198 on 8x8), `action_mask` Box(0, 1, (num_actions,), int8) |
| Rewards | +1 win, -1 loss, 0 draw |
| Rule parameters | `board_size=9` (or 8), `max_neighbors=3` (2..8, or a per-seat pair like `(4, 2)`), `max_plies=400` |

A game by Claude Chaunier and João Pedro Neto (2001) on a 9x9 or 8x8 Go
board. A stone never moves alone: it *twirls* around an enemy stone.

## Board and set-ups
Cell = rank*size + file, file a = 0, rank 1 = 0; north is towards higher
ranks. Set-ups (x = Black, w = White, first row = top rank):
9x9 `.xwxwxwx./w7w/x7x/w7w/x7x/w7w/x7x/w7w/.xwxwxwx.` (14 stones each),
8x8 `.xxxxxx./w6w/w6w/w6w/w6w/w6w/w6w/.xxxxxx.` (12 each).

## Rules
* Black moves first; there is no passing.
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
  than `max_neighbors` friendly 8-neighbours. Only the mover can win on a
  move. The limit may differ per seat (handicap), e.g. `max_neighbors=(4, 2)`
  gives `player_0` 4 and `player_1` 2, whichever colour they end up with.
* After every action the end is checked in this order: the mover has won;
  `max_plies` actions have been played (draw; the swap counts as a ply); the
  next player has no legal action (that player loses).

## Actions
Directions 0..7 = N, NE, E, SE, S, SW, W, NW (clockwise).
* `a < size*size*32`: `a = (origin*8 + d)*4 + r`, d = direction from the
  origin to the pivot, r = 0..3 turns the direction pivot->origin by -90,
  -45, +45, +90 degrees (+ = clockwise) to give pivot->destination.
  Example: D8->D5 on A5 (8x8) = (59*8 + 5)*4 + 2 = 1910.
* `a = size*size*32`: swap (legal only on White's first turn, once).

Action names read `d8-d5@a5` (origin-destination@pivot) and `swap`.

## Observation (from the observing player's side; on the default 9x9 board, 81 cells)
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

On the 8x8 board the pieces keep their order, 64 cells each.

## Version history
* v0: first release.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from envs.core.aec import Symmetry, TurnBasedEnv, turn_based_metadata
from envs.core.observation import Observation, Piece
from envs.twirls import render
from envs.twirls.board import TURNS
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
