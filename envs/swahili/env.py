"""Swahili

| | |
|---|---|
| Import | `from envs import swahili_v0` |
| Actions | Discrete(12) |
| Agents | `player_0` ... `player_{n-1}`, n = `num_players` (2, 3 or 4); `player_0` moves first |
| Observation | dict: `observation` Box(0, 1, (20n+12,), float32) (52 / 72 / 92), `action_mask` Box(0, 1, (12,), int8) |
| Rewards | `reward="win"`: +1/-1/0 (2 players); winners share +1, the others share -1 |
| Rule parameters | `num_players=2`, `reward="win"` |

Milton Bradley's Swahili, a sowing game for 2, 3 or 4 players on a stepped
pyramid. Each player has 12 pieces, 3 in each of their rows 1-4. Rows 1-6
are the player's own flat, safe rows; rows 7-11 are the stepped rings shared
by every player (the capture rows); then the centre hole.

## A move
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

The game ends when, after a move, any player has no piece left on rows 1-11.
Score 5 per captured piece and 10 per piece in the centre; pieces still on
the rows count nothing. The highest score wins; ties share the win.

## Actions
* a in 0..10: pick up your row ``a + 1`` (legal when you have pieces there
  and no choice is pending);
* a = 11: stop.
While a stop / continue choice is pending, exactly two actions are legal: the
landing row (continue) and 11 (stop).

## Observation (from the observer's seat)
Seats are rotated so that block 0 is the observer, block 1 the next player
to move after them, and so on. Each block (19 values) for seat ``s``:

| offset | meaning |
|---|---|
| 0-10 | pieces of s in rows 1-11, / 12 |
| 11-15 | s has exactly one piece (capturable) in row 7-11 |
| 16 | pieces of s in the centre / 12 |
| 17 | pieces captured by s / (12 (n-1)) |
| 18 | score of s / (120 + 60 (n-1)) |

After the n blocks (index ``19n`` onwards):

| offset | meaning |
|---|---|
| 0 | a stop / continue choice is pending |
| 1-11 | the pending landing row (one-hot, rows 1-11) |
| 12 .. 12+n-1 | the player to move, one-hot in the rotated order (12 = observer) |

## Rewards
* `reward="win"` (default): at the end, 2 players +1 / -1 (0 each on a tie);
  with n players the winners share +1 and the others share -1 (zero-sum; all
  tied: 0 each).
* `reward="score"`: after every action, each seat's change in score minus
  the mean change of all seats; summed over a game this is the final score
  minus the mean score.

## Rule parameters
* `num_players`: 2 (default), 3 or 4; anything else raises `RuleError`.
* `reward`: `"win"` (default) or `"score"`.

## Version history
* v0: first release.
"""

from __future__ import annotations

import numpy as np

from envs.core.aec import TurnBasedEnv, turn_based_metadata
from envs.swahili import render
from envs.swahili.rules import FIRST_CAPTURE_ROW, NUM_ROWS, PIECES, SwahiliGame, SwahiliState

BLOCK = 19
EXTRA = 12  # pending flag + pending row one-hot


def observation_size(n: int) -> int:
    """Length of the observation vector for ``n`` players."""
    return BLOCK * n + EXTRA + n


class raw_env(TurnBasedEnv):
    """Swahili as a PettingZoo AEC environment (see the module docstring)."""

    game_cls = SwahiliGame
    renderer = render
    metadata = turn_based_metadata("swahili_v0")

    @staticmethod
    def observation_shape(game: SwahiliGame) -> tuple[int, ...]:
        return (observation_size(game.num_players),)

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
        obs = np.zeros(observation_size(n), dtype=np.float32)
        obs[: BLOCK * n] = values
        base = BLOCK * n
        if state.pending >= 0:
            obs[base] = 1.0
            obs[base + 1 + state.pending] = 1.0
        if not state.over:
            obs[base + 1 + NUM_ROWS + (state.to_move - seat) % n] = 1.0
        return obs
