"""Swahili

## Description
Swahili is a sowing game for 2, 3 or 4 players on a stepped pyramid,
published by the Milton Bradley Company as a game "from the culture heritage
of Africa"; the rules here follow its rules leaflet. Each player has 12
pieces (tribesmen), 3 in each of their rows 1-4. Rows 1-6 are the player's
own flat, safe rows; rows 7-11 are the stepped rings shared by every player
(the capture rows); then the centre hole. Pieces move only towards the
centre; a piece in the centre scores 10, a captured piece 5.

## Rules
Pick up all of your pieces in one of your rows and sow them towards the
centre, one piece in each row ahead. After row 11 one piece (only one per
pass) drops into the centre hole and the rest carry on from your row 1.
Where the last piece lands decides what happens:

* in the centre: the move ends;
* in a row that held none of your pieces: the move ends, and if it is a
  capture row (7-11) every opponent who has exactly one piece there loses it
  to your compound (several opponents at once if they each have a single);
  two or more pieces of one colour on a row are safe;
* in a row that already held your pieces: you choose to stop, or to pick up
  that whole row and sow on (the same rules apply to the new last piece).

`player_0` moves first, then the seats in order.

## Termination
The game ends when, after a move, any player has no piece left on rows 1-11.
Score 5 per captured piece and 10 per piece in the centre; pieces still on
the rows count nothing. The highest score wins; ties share the win.
`truncated` stays False: every move takes pieces towards the centre, so every
game ends.

!!! note "Decided here"
    The original ends the game when a player has landed all of their
    remaining pieces in the centre hole; here a player whose last pieces were
    captured ends it too (no piece left on the rows). The original names no
    winner beyond the scores: the highest score wins and tied players share.

## Legal action mask
With no choice pending, row `a + 1` (a in 0..10) is legal when you have
pieces there. While a stop / continue choice is pending, exactly two actions
are legal: the landing row (continue) and 11 (stop).

## Observation
From the observer's seat. Seats are counted from the observer in turn order:
seat +0 is the observer, seat +1 the next player to move after them, and so
on. With 2 players (the default):

| index | meaning |
|---|---|
| 0-10 | seat +0: pieces in rows 1-11, / 12 |
| 11-15 | seat +0: exactly one piece (capturable) in row 7-11 |
| 16 | seat +0: pieces in the centre / 12 |
| 17 | seat +0: pieces captured / (12 (n-1)) |
| 18 | seat +0: score / (120 + 60 (n-1)) |
| 19-29 | seat +1: pieces in rows 1-11, / 12 |
| 30-34 | seat +1: exactly one piece (capturable) in row 7-11 |
| 35 | seat +1: pieces in the centre / 12 |
| 36 | seat +1: pieces captured / (12 (n-1)) |
| 37 | seat +1: score / (120 + 60 (n-1)) |
| 38 | a stop / continue choice is pending |
| 39-49 | the pending landing row (one-hot, rows 1-11) |
| 50-51 | the player to move, one-hot by seat from the observer (seat +0 first) |

With n players (20n + 12 values: 52, 72, 92) there are n blocks of 19 values
(seat +0 to seat +(n-1)), then the pending choice, the landing row and the
player to move (n values); "captured" is scaled by 12 (n-1) and "score" by
120 + 60 (n-1).

## Action
* a in 0..10: pick up your row `a + 1` and sow it (or, while a choice is
  pending, sow on from the landing row);
* a = 11: stop.

## Position notation
`env.position()` writes a position as one line of five fields separated by
spaces; `env.reset(options={"position": text})` starts from one.

1. rows: each seat's pieces in its rows 1-11, one symbol a row (`.` none,
   `1`-`9`, `a` `b` `c` for 10, 11, 12), the seats in order (`player_0`
   first) joined by `/`.
2. centre: each seat's pieces in the centre hole, joined by `,`.
3. captured: each seat's captured pieces (its compound), joined by `,`.
4. to move: the seat to move by its colour's letter, `R` (Red, `player_0`),
   `K` (Black), `B` (Blue), `G` (Green); once the game is over, the last
   mover.
5. choice: the landing row (1-11) while the mover chooses to stop or go on,
   else `-`.

The end follows from these: no choice pending and a seat without a piece on
the rows. Nothing is hidden, so every seat's view is the same text. A text
that does not fit is refused with a `PositionError` naming the field: a
wrong number of seats or rows, an unknown symbol, a seat with more than 12
pieces on its rows and in the centre, compounds that do not hold exactly the
pieces missing from the others, a choice on a row where the mover has fewer
than two pieces.

* The start, 2 players: `3333......./3333....... 0,0 0,0 R -`; 4 players:
  `3333......./3333......./3333......./3333....... 0,0,0,0 0,0,0,0 R -`.
* Diagram 2, `row 2` from the start: `3.441....../3333....... 0,0 0,0 K -`.
* Diagram 3, `row 1` from the start lands on row 4, now 4 pieces:
  `.444......./3333....... 0,0 0,0 R 4`; `go on from row 4` gives
  `.44.1111.../3333....... 0,0 0,0 K -`.
* Diagram 4, five pieces in row 9 (two to rows 10 and 11, one to the centre,
  two to rows 1 and 2): `........5../3333....... 7,0 0,0 R -` then
  `11.......11/3333....... 8,0 0,0 K -`.
* Diagram 5, row 8's three pieces, the last alone on row 11 by a single
  opposing piece: `.......3.../333.......1 9,2 0,0 R -` then
  `........111/333........ 9,2 1,0 K -`.

## Rewards
* `reward="win"` (default): at the end, 2 players +1 / -1 (0 each on a tie);
  with n players the winners share +1 and the others share -1 (zero-sum; all
  tied: 0 each).
* `reward="score"`: after every action, each seat's change in score minus
  the mean change of all seats; summed over a game this is the final score
  minus the mean score.

## Rule parameters
* `num_players`: players round the pyramid.
* `reward`: `"win"` (a share of +1 / -1 at the end) or `"score"` (score
  differences after every action), see Rewards.

## Version history
* v0: first release.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from envs.core.aec import TurnBasedEnv, turn_based_metadata
from envs.core.observation import Observation, Piece
from envs.swahili import render
from envs.swahili.rules import FIRST_CAPTURE_ROW, NUM_ROWS, PIECES, SwahiliGame, SwahiliState

CAPTURABLE_ROWS = NUM_ROWS - FIRST_CAPTURE_ROW
BLOCK = NUM_ROWS + CAPTURABLE_ROWS + 3  # one seat's values


@cache
def observation_pieces(n: int) -> Observation:
    """The observation with ``n`` players: a block per seat counted from the observer, then the turn."""
    pieces = []
    for r in range(n):
        pieces += [
            Piece(f"rows_{r}", NUM_ROWS, f"seat +{r}: pieces in rows 1-11, / 12"),
            Piece(f"alone_{r}", CAPTURABLE_ROWS, f"seat +{r}: exactly one piece (capturable) in row 7-11"),
            Piece(f"centre_{r}", 1, f"seat +{r}: pieces in the centre / 12"),
            Piece(f"captured_{r}", 1, f"seat +{r}: pieces captured / (12 (n-1))"),
            Piece(f"score_{r}", 1, f"seat +{r}: score / (120 + 60 (n-1))"),
        ]
    return Observation(
        *pieces,
        Piece("pending", 1, "a stop / continue choice is pending"),
        Piece("landing", NUM_ROWS, "the pending landing row (one-hot, rows 1-11)"),
        Piece("to_move", n, "the player to move, one-hot by seat from the observer (seat +0 first)"),
    )


def observation_size(n: int) -> int:
    """Length of the observation vector for ``n`` players."""
    return observation_pieces(n).size


class raw_env(TurnBasedEnv):
    """Swahili as a PettingZoo AEC environment (see the module docstring)."""

    game_cls = SwahiliGame
    renderer = render
    metadata = turn_based_metadata("swahili_v0")

    @staticmethod
    def observation(game: SwahiliGame) -> Observation:
        return observation_pieces(game.num_players)

    @staticmethod
    def observe_state(game: SwahiliGame, state: SwahiliState, seat: int) -> np.ndarray:
        n = game.num_players
        compound_scale = PIECES * (n - 1)
        score_scale = 120 + 60 * (n - 1)
        values: list[float] = []
        for i in range(n):
            s = (seat + i) % n
            r = state.rows[s]
            values += [c / PIECES for c in r]
            values += [1.0 if c == 1 else 0.0 for c in r[FIRST_CAPTURE_ROW:]]
            values.append(state.centre[s] / PIECES)
            values.append(state.compound[s] / compound_scale)
            values.append(game.score_of(state, s) / score_scale)
        layout = observation_pieces(n)
        obs = np.zeros(layout.size, dtype=np.float32)
        obs[: BLOCK * n] = values
        if state.pending >= 0:
            obs[layout["pending"]] = 1.0
            obs[layout.start("landing") + state.pending] = 1.0
        if not state.over:
            obs[layout.start("to_move") + (state.to_move - seat) % n] = 1.0
        return obs
