"""The PettingZoo adapter Swish and Squeeze share: observations and the doc page's common sections.

Each game's ``env.py`` (:mod:`envs.swish.env`, :mod:`envs.squeeze.env`) fills
:data:`DOC_TEMPLATE` with its summary and move rule and subclasses
:class:`HexRookEnv` with its rules.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from envs.core.action_layout import ActionLayout, make_layout
from envs.core.aec import Symmetry, TurnBasedEnv
from envs.core.board_graph import BoardGraph, grid_neighbours, make_board_graph, observation_planes
from envs.core.observation import Observation, Piece
from envs.hexrook import render
from envs.hexrook.board import (
    BEAD,
    DIRECTIONS,
    EMPTY,
    NUM_BEADS,
    PHASE_PLAY,
    ROOKS_PER_COLOUR,
    HexRookGame,
    HexState,
)

DOC_TEMPLATE = """{title}

## Description
{summary} Swish and Squeeze are twin bead-capture games published by MindSports
(the rule text: "Swish & Squeeze © MindSports"), played on a hexagonal board with three hexagonal rooks a side
that move in the six main directions; the rules here follow the MindSports
page of the two games. The original begins with the *Marquisian method*: one
player sets up the whole position, the other chooses between moving first
and picking a colour.

## Rules
### Board
A hexagonal board of `radius` 4 (61 cells). Cells are axial `(q, r)` with
`max(|q|, |r|, |q+r|) <= radius`, indexed in order of `r` then `q`; cell
names are a row letter (`a` = top row, r = -radius) and the place in the row
from the left (the centre is `e5`). Directions 0..5 are (+1,0) east,
(+1,-1) north-east, (0,-1) north-west, (-1,0) west, (-1,+1) south-west,
(0,+1) south-east. Edge = the cells at distance `radius` from the centre,
inner = the rest.

### Pieces, set-up and the choice
3 white rooks, 3 black rooks, 19 beads.
* `setup="marquisian"` (the original): `player_0` places the 6 rooks on edge
  cells and the 19 beads on inner cells, one piece per action, in any order.
  Then `player_1` either takes "move first" (`player_0` then picks its colour
  with "white" or "black") or picks a colour ("white"/"black": `player_1`
  plays it and `player_0` moves first).
* `setup="random"` (default): the placement is drawn from the seed (6
  distinct edge cells: the first 3 white; 19 distinct inner cells); the game
  starts at `player_1`'s choice.
* `setup="fixed"`: white rooks on the corners (radius, 0), (0, -radius),
  (-radius, radius); black rooks on (radius, -radius), (-radius, 0),
  (0, radius); beads on the 19 cells within two steps of the centre. The game
  starts at `player_1`'s choice.

!!! note "Not in the original"
    The default set-up is drawn from the seed, not made by `player_0`, and
    `setup="fixed"` is one position of this package's; `setup="marquisian"`
    plays the original's.

### Moves
{moves}

## Termination
First to `beads_to_win` (10) captured beads wins (+1, the other -1). After
every action the end is checked in this order: the mover has won;
`max_plies` (300) rook moves have been played (a draw: set-up placements and
choices are not plies); the next player has no legal move (no rooks left, or
all blocked) and loses. The ply limit ends the game as a draw, a terminal
state: `truncated` stays False.

!!! note "Not in the original"
    The original has no move limit and does not say what happens to a player
    who cannot move. The limit (`max_plies=300`) is a safety cap so that no
    episode is endless; a player without a legal move loses.

## Legal action mask
* Set-up (`setup="marquisian"`, `player_0`): a placement of a piece still to
  place on an empty cell of its kind (rooks on edge cells, beads on inner
  cells).
* The choice (`player_1`): "move first", "white" and "black"; after "move
  first", `player_0` has "white" and "black".
* Play: every rook move of the mover's colour as above.

The mask is never empty while the game goes on: a player without a legal
move has lost.

## Observation
From the observing player's side; radius 4, 61 cells:

| index | meaning |
|---|---|
| 0-60 | own rooks (white rooks while colours are not chosen yet) |
| 61-121 | opponent's rooks (black rooks while colours are not chosen yet) |
| 122-182 | beads |
| 183-243 | empty cells |
| 244-304 | edge cells (constant) |
| 305-308 | phase one-hot: set-up, choice, colour pick, play |
| 309-310 | the observer plays white / black (both 0 before the choice) |
| 311 | the observer makes the first rook move (known after the choice) |
| 312-313 | own / opponent's store / beads_to_win (at most 1) |
| 314 | rook moves played / max_plies |
| 315-317 | white rooks / black rooks / beads still to place (/3, /3, /19) |

Other radii keep the order, with one value per cell in each of the first five
pieces (`5*cells + 13` values).

## Action
`Discrete(cells*6*2*radius + 3*cells + 3)`: 3114 on radius 4.
* `a < cells*6*2*radius` (2928): a move,
  `a = (cell*6 + direction)*2*radius + (distance - 1)`, distance in cells from
  the rook to its landing cell.
* next `3*cells` (183): a set-up placement `cell*3 + kind` (kind 0 white
  rook, 1 black rook, 2 bead), offset by 2928.
* last three (3111, 3112, 3113): "move first", "white", "black".

Readable names (`env.action_name(a)`): `e1-e4` a move, `e1xe4` a move that
captures, `W@a1` / `B@a1` / `o@e5` a placement, then the choice names.

## Position notation
`env.position()` writes the position as one line of six fields separated by
spaces (`board phase to-move colours stores plies`), and
`env.reset(options={{"position": text}})` starts from such a line:

1. `board`: the rows from `a` (top) down, each from the left, joined by `/`:
   `W` a white rook, `B` a black rook, `o` a bead, `.` an empty cell (the
   letters of the text drawing). On radius 4 the rows have 5, 6, 7, 8, 9, 8,
   7, 6 and 5 cells.
2. `phase`: `setup` (player_0 places pieces), `choice` (player_1 chooses),
   `colour` (player_0 picks its colour after "move first") or `play`.
3. `to-move`: the seat to act, `0` or `1`.
4. `colours`: player_0's colour then player_1's, `WB` or `BW`; `-` before
   the choice.
5. `stores`: the beads player_0 and player_1 have captured, `7,8`.
6. `plies`: rook moves played.

The rest follows from these fields: the seat to move made the first rook move
when `plies` is even; a position is over when the seat that just moved has
`beads_to_win` beads, `max_plies` moves are played, or the seat to move has
no move. Nothing is hidden, so every seat's view (`env.position(seat)`) is
the same text. The last move's path and captures, which the drawings mark,
are not part of the position.

A text is refused, naming the field, for a wrong symbol or row length, more
than 3 rooks of a colour or 19 beads, a bead on an edge cell, a rook on an
inner cell before play, beads on the board and in the stores that do not
make 19, a phase, seat or colours that cannot go together, or a store of
`beads_to_win` for the seat to move (the game would have ended).

`setup="fixed"` starts at

```
W...B/....../..ooo../..oooo../B.ooooo.W/..oooo../..ooo../....../W...B choice 1 - 0,0 0
```

and `setup="marquisian"` at an empty board in the `setup` phase:

```
...../....../......./......../........./......../......./....../..... setup 0 - 0,0 0
```

After `player_1` takes "move first" and `player_0` picks "white", white
(`player_0`) and black (`player_1`, to move) are set and no rook has moved:

```
W...B/....../..ooo../..oooo../B.ooooo.W/..oooo../..ooo../....../W...B play 1 WB 0,0 0
```

{positions}

## Rewards
+1 to the winner, -1 to the loser, 0 each for a draw, given at the end.

## Rule parameters
* `radius`: the board's radius (cells from the centre to an edge).
* `setup`: who makes the set-up (see Pieces, set-up and the choice).
* `max_plies`: rook moves after which the game is a draw (not in the
  original).
* `beads_to_win`: captured beads that win (10 in the original).

## Version history
* v0: first release.
"""

# _PLANES[own code - 1][cell code]: the cell's entries in the 4 board planes (own rooks, enemy rooks, beads, empty)
_PLANES = np.zeros((2, 4, 4), dtype=np.float32)
for _own in (1, 2):
    for _plane, _code in enumerate((_own, 3 - _own, BEAD, EMPTY)):
        _PLANES[_own - 1, _code, _plane] = 1.0
_TEMPLATES: dict[int, np.ndarray] = {}


@cache
def _observation(n: int) -> Observation:
    """The observation of a board of ``n`` cells."""
    return Observation(
        Piece("own", n, "own rooks (white rooks while colours are not chosen yet)"),
        Piece("opponent", n, "opponent's rooks (black rooks while colours are not chosen yet)"),
        Piece("beads", n, "beads"),
        Piece("empty", n, "empty cells"),
        Piece("edge", n, "edge cells (constant)"),
        Piece("phase", 4, "phase one-hot: set-up, choice, colour pick, play"),
        Piece("colour", 2, "the observer plays white / black (both 0 before the choice)"),
        Piece("first_mover", 1, "the observer makes the first rook move (known after the choice)"),
        Piece("stores", 2, "own / opponent's store / beads_to_win (at most 1)"),
        Piece("plies", 1, "rook moves played / max_plies"),
        Piece("to_place", 3, "white rooks / black rooks / beads still to place (/3, /3, /19)"),
    )


EXTRA_FEATURES = _observation(1).size - 5  # the values after the five planes of one value per cell


def _template(game: HexRookGame) -> np.ndarray:
    """All-zero observation with the constant edge plane filled in (one per radius)."""
    if game.radius not in _TEMPLATES:
        n = game.hex.n
        t = np.zeros(_observation(n).size, dtype=np.float32)
        t[_observation(n)["edge"]] = game.hex.is_edge
        _TEMPLATES[game.radius] = t
    return _TEMPLATES[game.radius]


class HexRookEnv(TurnBasedEnv):
    """The adapter both games share (observations); subclasses set game_cls and metadata."""

    renderer = render

    @staticmethod
    def observation(game: HexRookGame) -> Observation:
        return _observation(game.hex.n)

    @staticmethod
    def observe_state(game: HexRookGame, state: HexState, seat: int) -> np.ndarray:
        n = game.hex.n
        layout = _observation(n)
        obs = _template(game).copy()
        colour = state.colour[seat]
        own = 1 if colour < 0 else colour + 1
        obs[: 4 * n].reshape(4, n)[:] = _PLANES[own - 1].take(np.frombuffer(state.board, dtype=np.uint8), axis=0).T
        obs[layout.start("phase") + state.phase] = 1.0
        if colour >= 0:
            obs[layout.start("colour") + colour] = 1.0
        obs[layout["first_mover"]] = state.first_mover == seat
        params = game.params
        target = params["beads_to_win"]
        obs[layout["stores"]] = min(1.0, state.stores[seat] / target), min(1.0, state.stores[1 - seat] / target)
        obs[layout["plies"]] = min(1.0, state.plies / params["max_plies"])
        if state.phase != PHASE_PLAY:
            left = state.to_place()
            obs[layout["to_place"]] = left[0] / ROOKS_PER_COLOUR, left[1] / ROOKS_PER_COLOUR, left[2] / NUM_BEADS
        return obs

    @staticmethod
    def board_graph(game: HexRookGame) -> BoardGraph:
        """The five planes by cell (own rooks, opponent's, beads, empty, edge) and each cell's six neighbours, in
        the move directions' order."""
        layout = _observation(game.hex.n)
        planes = observation_planes(layout, ("own", "opponent", "beads", "empty", "edge"))
        return make_board_graph(planes, grid_neighbours(game.hex.coords, list(DIRECTIONS)), layout.size)

    @staticmethod
    def symmetries(game: HexRookGame) -> list[Symmetry]:
        """The 12 symmetries of the hexagon: 6 turns by 60 degrees, each also mirrored (axial ``(q, r)`` to
        ``(r, q)``). A rook slides, leaps and captures along the six directions alike, so every rules state
        plays the same turned; the random set-up is drawn from a distribution the turns keep."""
        out = []
        for mirror in (False, True):
            for turns in range(6):
                out.append(_symmetry(game, mirror, turns))
        return out

    @staticmethod
    def action_layout(game: HexRookGame) -> ActionLayout:
        """Every rook move as (its origin cell, direction * span + distance - 1), by the rules' own
        :meth:`~envs.hexrook.board.HexRookGame.decode_move`; every set-up placement as (its cell, 6 * span + kind);
        the three choices are actions of their own. Cells are the board's, ``6 * span + 3`` moves."""
        n, span = game.hex.n, game.span
        cell = np.full(game.num_actions, -1, dtype=np.int64)
        move = np.full(game.num_actions, -1, dtype=np.int64)
        for action in range(game.num_moves):
            origin, direction, distance = game.decode_move(action)
            cell[action], move[action] = origin, direction * span + distance - 1
        placements = np.arange(game.place_base, game.choice_base)
        cell[placements], kind = np.divmod(placements - game.place_base, 3)
        move[placements] = 6 * span + kind
        return make_layout(cell, move, n, 6 * span + 3)


def _turned(q: int, r: int, mirror: bool, turns: int) -> tuple[int, int]:
    """Axial ``(q, r)`` mirrored (``(r, q)``) if ``mirror``, then turned ``turns`` times by 60 degrees
    (``(q, r)`` to ``(-r, q + r)``)."""
    if mirror:
        q, r = r, q
    for _ in range(turns):
        q, r = -r, q + r
    return q, r


def _symmetry(game: HexRookGame, mirror: bool, turns: int) -> Symmetry:
    """The symmetry taking cell ``c`` to ``cells[c]`` and direction ``d`` to ``directions[d]``."""
    board, n, span = game.hex, game.hex.n, game.span
    cells = np.array([board.index[_turned(q, r, mirror, turns)] for q, r in board.coords])
    directions = np.array([DIRECTIONS.index(_turned(dq, dr, mirror, turns)) for dq, dr in DIRECTIONS])
    back, back_direction = np.argsort(cells), np.argsort(directions)
    planes = _observation(n).start("phase") // n  # own, opponent, beads, empty, edge: one value per cell each
    observation = np.concatenate([p * n + back for p in range(planes)] + [np.arange(planes * n, _observation(n).size)])
    image = np.arange(game.num_moves)
    origin, direction, step = image // (6 * span), image // span % 6, image % span
    moves = (back[origin] * 6 + back_direction[direction]) * span + step
    placement_cell, kind = np.divmod(np.arange(3 * n), 3)
    placements = game.place_base + back[placement_cell] * 3 + kind
    action = np.concatenate([moves, placements, np.arange(game.choice_base, game.num_actions)])

    def moved(path: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(int(cells[c]) for c in path)

    def state(s: HexState) -> HexState:
        image = game.copy_state(s)
        image.board = bytearray(n)
        for c in range(n):
            image.board[cells[c]] = s.board[c]
        image.rooks = [list(moved(tuple(r))) for r in s.rooks]
        image.last_path, image.last_captures = moved(s.last_path), moved(s.last_captures)
        return image

    return Symmetry(state, observation, action)
