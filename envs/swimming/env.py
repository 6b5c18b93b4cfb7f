"""Swimming (Schwimmen / Schnauz / 31)

## Description
Swimming (*Schwimmen*, also *Schnauz* in southern Germany, or *31*) is a
traditional German card game for about four players; the rules here follow
those of WinSwim 3.2 by Wernke zur Borg, a computer version of the game. One
episode is one whole game of many rounds. The aim is not to win a round but
not to lose one: the player(s) with the lowest hand at the end of a round pay
a coin into the pot. A player with no coins left *swims* and plays on; a
swimmer who loses again *sinks* and leaves the game. The last player left
takes the pot.

## Rules
### Cards and scores
32 cards, card = suit*8 + rank; suits 0..3 = Diamonds, Hearts, Spades, Clubs
(low to high), ranks 0..7 = 7, 8, 9, 10, J, Q, K, A, worth 7, 8, 9, 10, 10,
10, 10, 11. A hand of three scores its best single-suit sum (7S 10S QS = 27;
8H 10H KC = 18; 9D 10H JC = 10); three equal ranks score 30.5; three aces are
*Fire*, above everything. 31 is *Bingo*. Every player starts with `coins`
coins.

!!! note "Scored 33"
    The original ranks Fire above every hand without giving it a number;
    here it scores 33, so that one number orders every hand (the observation's
    own hand score is scaled by 33).

### A round
* The dealer of the first round is drawn: everyone draws a card, the highest
  rank deals, equal ranks by the higher suit. Later rounds are dealt by the
  next player still in the game to the left (seat + 1) of the previous dealer;
  a void round (below) is dealt again by the same dealer.
* The dealer deals three cards to every player and two lots of three to
  himself. He looks at one lot (his hand during the choice) and either keeps
  it (the other, unseen lot goes face up to the middle) or puts it face up in
  the middle and takes the other lot. The rest of the deck is the stock for
  refreshing the middle.
* When the deal is complete (after the dealer's choice), any player holding
  31 or Fire ends the round at once.
* Play starts at the dealer's left. On a turn: swap one card with the middle,
  swap all three, pass, or knock. Knocking is passing and announcing the last
  round: every other player has exactly one more turn, then the showdown. No
  second knock. Knocking is allowed only once every player in the game has
  had a turn this round (unless `knock_first_round=True`).
* If every player passes in a row (no knock pending), the middle is put aside
  and three new cards from the stock take its place; the first of those
  passers plays on. A knock breaks a run of passes.
* A swap reaching 31 (Bingo) or Fire ends the round at once.
* Showdown: every player with the lowest score pays a coin into the pot (a
  tie: all of them pay); with Fire, everyone else pays. A swimmer who has to
  pay sinks (its agent is terminated and removed).

!!! note "Decided here, not in the original"
    The original does not say when knocking may start, what happens when the
    stock runs out or when a showdown would sink everyone. Here knocking waits
    for everyone's first turn (`knock_first_round=False`); with fewer than
    three cards in the stock a refresh ends the round in a showdown instead;
    a showdown that would sink every remaining player is void, and the round
    is dealt again.

## Termination
The game ends when one player is left; that player takes the pot. A player
who sinks is terminated at once and leaves `env.agents`; the others play on.
`truncated` stays False.

!!! note "Not in the original"
    A safety limit: a round with no knock pending ends in a showdown after
    `max_round_turns` turns, so that a policy that never passes or knocks
    cannot make an endless episode.

## Legal action mask
In the dealer's choice only 12 and 13 are legal (for the dealer); in play
0-10 always, 11 when knocking is allowed.

## Observation
From the observer's seat. Seats are counted from the observer in turn order
(seat +0 is the observer); cards c = 0..31 by the deck's order. With 4
players (the default):

| index | meaning |
|---|---|
| 0-31 | own hand (during the dealer's choice: the lot the dealer looked at) |
| 32-63 | the middle |
| 64-95 | cards seen in the middle and put aside by a refresh |
| 96-127 | seat +1 is known to hold the card (it took it from the middle; with `open_hands` its whole hand) |
| 128-159 | seat +2 is known to hold the card (it took it from the middle; with `open_hands` its whole hand) |
| 160-191 | seat +3 is known to hold the card (it took it from the middle; with `open_hands` its whole hand) |
| 192-198 | seat +0: coins / start coins (capped at 1), swimming, still in the game, dealer, knocked, to move, lost the previous round |
| 199-205 | seat +1: coins / start coins (capped at 1), swimming, still in the game, dealer, knocked, to move, lost the previous round |
| 206-212 | seat +2: coins / start coins (capped at 1), swimming, still in the game, dealer, knocked, to move, lost the previous round |
| 213-219 | seat +3: coins / start coins (capped at 1), swimming, still in the game, dealer, knocked, to move, lost the previous round |
| 220 | pot / (n * coins) |
| 221 | stock size / 32 |
| 222-224 | phase: dealer's choice, play, game over |
| 225 | passes in a row / n |
| 226 | knocking is allowed now |
| 227 | own hand score / 33 |

With n players (72 + 39n values) there are n - 1 known-cards pieces of 32 and
n seat pieces of 7; the pot is scaled by n * coins and the passes by n.
Hidden cards (other hands, the dealer's unseen lot, the stock) never appear.

`env.state()` (PettingZoo's, space `env.state_space`) is the whole position for centralised critics, never
part of any observation: every seat's hand, the middle, the dealer's unseen lot, the stock's cards and each
one's place from the top, the discards, the cards known in each hand, each seat's piece as above (seat 0
first), the pot, the phase, passes, turns, knocking allowed and the round (`envs.swimming.env.state_pieces`).

## Action
| action | meaning |
|---|---|
| 3*i + j (0-8) | swap hand card i with middle card j (both in ascending card order) |
| 9 | swap all three |
| 10 | pass |
| 11 | knock |
| 12 | dealer keeps the lot he looked at |
| 13 | dealer takes the other lot |

## Position notation
`env.position()` writes the position as one line of 16 fields separated by spaces, and
`env.reset(options={"position": text})` starts from one; `env.position(seat)` is what that seat knows, with
`?` for each card it has not seen (the others' hidden cards, the dealer's unseen lot, the stock), and reading
such a view deals the `?` cards at random among the cards the text does not place. Cards are written as on the
table (`7D`, `10H`, `QS`, `AC`), run together (`7S10SQS`): a card ends at its suit letter. Hands, the middle,
the lot and the discards are in card order (suits D H S C, ranks 7 to A); `-` is an empty field.

| # | field | holds |
|---|---|---|
| 1 | hands | each seat's three cards, seat 0 first, separated by `/`; `*` before a card everyone knows the seat holds (it took it from the middle); `-` for a seat that has sunk. During the dealer's choice his hand is the lot he looked at |
| 2 | middle | the three face-up cards (`-` during the dealer's choice) |
| 3 | lot | the dealer's other, unseen lot during his choice, else `-` |
| 4 | stock | the cards left to refresh the middle, the top (next drawn) first |
| 5 | discards | the middles put aside by refreshes this round |
| 6 | coins | each seat's coins, separated by `,` |
| 7 | pot | coins in the pot (coins and pot add up to players * `coins`) |
| 8 | dealer | the dealer's seat |
| 9 | to-move | the seat to move (the dealer during his choice; the winner once the game is over) |
| 10 | phase | `choice` (the dealer's), `play` or `over` |
| 11 | knocker | the seat that knocked this round, or `-` |
| 12 | passes | passes in a row |
| 13 | turns | turns played this round (knocking waits for one each) |
| 14 | round | the round, from 1 |
| 15 | last | the last showdown, `reason:hands` (reason `bingo`, `fire`, `knock`, `deck`, `turn-limit` or `void`; every hand face up, `-` for a seat not in it), or `-` before the first |
| 16 | moves | the round's moves as the table saw them, separated by `,` (or `-`): a seat then `keep:` or `take:` and the three cards laid in the middle, `swap:7D>AS` (gave 7D, took AS), `all:` and the hand laid in the middle, `pass` (`pass:` and the three new cards when it refreshed the middle) or `knock` |

The moves are there because the weighting of worlds by a model of the others' past decisions
(`sample_world(..., model=...)`) replays them; read back, they must lead to the position the other fields
give. A position can be written mid-round without them (`-`), as the scoring example below is: it then plays
on from there in the AEC env and on the batched engine alike, with no past moves for a model to weigh, and the
moves field stays `-` until the next deal. A text that cannot be read, or a position the rules cannot reach (a card twice, more coins than the
table has, a hand holding 31 in play, ...), raises `PositionError` naming the field.

The start of a game (`envs.make("swimming")`, `reset(seed=0)`), the dealer, player_3, to choose a lot:

`AD10HQS/7H9HAC/JDKHJC/8H9SAS - JHJS7C 9D8C10D8DQCAH7DKDKCQHKS10SQD7S8S9C10C - 3,3,3,3 0 3 3 choice - 0 0 1 - -`

and what player_1 knows of it:

`???/7H9HAC/???/??? - ??? ????????????????? - 3,3,3,3 0 3 3 choice - 0 0 1 - -`

The original's scoring examples in play: player_0 holds 7S 10S QS (27), player_1 8H 10H KC (18), player_2 9D JH JC (10);
player_0 to move, everyone has had a turn:

`7S10SQS/8H10HKC/9DJHJC/7D8D7C 9SAS8C - KDADQH9HJDKHAH7H10D8SJSKS9C10CQCACQD - 3,3,3,3 0 3 0 play - 0 4 1 - -`

There `swap 7S for AS` is Bingo (10S QS AS = 31): the round ends at once, player_2 pays, and the next round's
`last` field reads `bingo:10SQSAS/8H10HKC/9DJHJC/7D8D7C`. Three equal values (KH KS KC, 30.5) and a tie for
the lowest (10 and 10, both pay) on player_3's last turn after player_0's knock:

`KHKSKC/JD7H8S/9DJHJC/7D8D7C 9SAS8C - 10DQDKDAD8H9H10HQHAH7S10SJSQS9C10CQCAC - 3,3,3,3 0 3 3 play 0 0 7 1 - -`

Fire: player_0's `swap 7S for AS` makes AD AH AS, and everyone else pays:

`ADAH7S/8H10HKC/9DJHJC/7D8D7C 9SAS8C - KD10SQH9HJDKHQS7H10D8SJSKS9C10CQCACQD - 3,3,3,3 0 3 0 play - 0 4 1 - -`

Everyone has passed but player_3, whose pass puts the middle aside and lays KD AD QH from the stock (player_0,
the first of the passers, plays on):

`7S10SQS/8H10HKC/9DJHJC/7D8D7C 9SAS8C - KDADQH9HJDKHAH7H10D8SJSKS9C10CQCACQD - 3,3,3,3 0 3 3 play - 3 7 1 - -`

A round as the table saw it: player_0 dealt and kept his lot (10S QS AS went to the middle), player_1 gave 7H
for AS; player_0's view:

`8D9DQD/*AS??/???/??? 7H10SQS - ????????????????? - 3,3,3,3 0 0 2 play - 0 1 1 - 0keep:10SQSAS,1swap:7H>AS`

## Rewards
In coins: -1 each time a player pays into the pot, +pot to the winner at the
end, so a game's rewards sum to zero.

## Rule parameters
* `num_players`: players at the table.
* `knock_first_round`: allow knocking before everyone has had a turn.
* `open_hands`: every hand visible to everyone (the original's "all cards
  face up" option).
* `coins`: coins each player starts with.
* `max_round_turns`: turns after which a round without a knock ends in a
  showdown (a safety limit, not in the original).

## Version history
* v0: first release.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from envs.core.aec import TurnBasedEnv, turn_based_metadata
from envs.core.observation import Observation, Piece
from envs.swimming import render
from envs.swimming.rules import CHOICE, FIRE_SCORE, OVER, PLAY, SwimmingGame, SwimmingState, cards_of, hand_score

PER_SEAT = 7
SEAT_MEANING = (
    "coins / start coins (capped at 1), swimming, still in the game, dealer, knocked, to move, lost the previous round"
)


@cache
def observation_pieces(n: int) -> Observation:
    """The observation with ``n`` players: cards seen, then a piece per seat counted from the observer, then
    the table's state."""
    return Observation(
        Piece("hand", 32, "own hand (during the dealer's choice: the lot the dealer looked at)"),
        Piece("middle", 32, "the middle"),
        Piece("discards", 32, "cards seen in the middle and put aside by a refresh"),
        *(
            Piece(
                f"known_{r}",
                32,
                f"seat +{r} is known to hold the card (it took it from the middle; with `open_hands` its whole hand)",
            )
            for r in range(1, n)
        ),
        *(Piece(f"seat_{r}", PER_SEAT, f"seat +{r}: {SEAT_MEANING}") for r in range(n)),
        Piece("pot", 1, "pot / (n * coins)"),
        Piece("stock", 1, "stock size / 32"),
        Piece("phase", 3, "phase: dealer's choice, play, game over"),
        Piece("passes", 1, "passes in a row / n"),
        Piece("knock", 1, "knocking is allowed now"),
        Piece("score", 1, "own hand score / 33"),
    )


@cache
def state_pieces(n: int) -> Observation:
    """The whole position for ``n`` players (:meth:`raw_env.state`), seats in table order (seat 0 first)."""
    return Observation(
        *(Piece(f"hand_{s}", 32, f"player_{s}'s hand (the dealer's: the lot he looked at)") for s in range(n)),
        Piece("middle", 32, "the middle"),
        Piece("lot", 32, "the dealer's unseen lot, during his choice"),
        Piece("stock", 32, "the cards in the stock"),
        Piece("stock_order", 32, "each stock card's place from the top (1, 2, ...) / 32: the top card is drawn first"),
        Piece("discards", 32, "cards put aside by a refresh"),
        *(Piece(f"known_{s}", 32, f"cards everyone knows player_{s} holds") for s in range(n)),
        *(Piece(f"seat_{s}", PER_SEAT, f"player_{s}: {SEAT_MEANING}") for s in range(n)),
        Piece("pot", 1, "pot / (n * coins)"),
        Piece("phase", 3, "phase: dealer's choice, play, game over"),
        Piece("passes", 1, "passes in a row / n"),
        Piece("turns", 1, "turns this round / max_round_turns"),
        Piece("knock", 1, "knocking is allowed now"),
        Piece("round", 1, "round / 100 (capped at 1)"),
    )


def observation_size(n: int) -> int:
    """Length of the observation vector for ``n`` players."""
    return observation_pieces(n).size


class raw_env(TurnBasedEnv):
    """Swimming as a PettingZoo AEC environment (see the module docstring)."""

    game_cls = SwimmingGame
    renderer = render
    metadata = turn_based_metadata("swimming_v0")

    def _start(self, state: SwimmingState) -> None:
        """As every env; at a finished game the agents are the players of the final round (the winner and those
        who sank in its showdown), all terminated, as the final step leaves them."""
        super()._start(state)
        if self.game.is_over(state) and state.last is not None:
            self.agents = [a for a in self.possible_agents if self.agent_seat[a] in state.last.hands]
            for name, value in (("rewards", 0.0), ("_cumulative_rewards", 0.0), ("terminations", True)):
                setattr(self, name, dict.fromkeys(self.agents, value))
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos = {a: {} for a in self.agents}

    @staticmethod
    def observation(game: SwimmingGame) -> Observation:
        return observation_pieces(game.num_players)

    @classmethod
    def state_vector(cls, game: SwimmingGame, state: SwimmingState) -> np.ndarray:
        """The whole position (every hand, the middle, the unseen lot, the stock in order, coins, pot, ...) as
        float32 in [0, 1], for centralised critics: no seat's observation holds it (pieces: :func:`state_pieces`)."""
        n = game.num_players
        layout = state_pieces(n)
        out = np.zeros(layout.size, dtype=np.float32)
        for s in range(n):
            out[layout.start(f"hand_{s}") + np.array(state.hands[s], dtype=int)] = 1.0
            out[layout.start(f"known_{s}") + np.array(cards_of(state.public[s]), dtype=int)] = 1.0
        for name, cards in (("middle", state.middle), ("lot", state.other_lot), ("stock", state.deck)):
            out[layout.start(name) + np.array(cards, dtype=int)] = 1.0
        out[layout.start("discards") + np.array(cards_of(state.discards), dtype=int)] = 1.0
        out[layout.start("stock_order") + np.array(state.deck, dtype=int)] = np.arange(1, len(state.deck) + 1) / 32
        seats = cls.observe_state(game, state, 0)[_starts(n)[4] :][: PER_SEAT * n]  # seat pieces, from seat 0
        out[layout["seat_0"].start : layout[f"seat_{n - 1}"].stop] = seats
        out[layout.start("pot")] = state.pot / (n * game.start_coins)
        out[layout.start("phase") + state.phase] = 1.0
        out[layout.start("passes")] = state.passes / n
        out[layout.start("turns")] = state.turns / game.max_round_turns
        out[layout.start("knock")] = game.knock_allowed(state)
        out[layout.start("round")] = min(state.round / 100, 1.0)
        return out

    @staticmethod
    def observe_state(game: SwimmingGame, state: SwimmingState, seat: int) -> np.ndarray:
        n = game.num_players
        size, middle, discards, known, base = _starts(n)
        hand = state.hands[seat]
        ones = hand + [middle + c for c in state.middle]  # indices set to 1, then one assignment
        _add_bits(ones, discards, state.discards)
        last = state.last
        losers = last.losers if last is not None and last.reason != "void" else ()
        coins, active, phase = state.coins, state.active, state.phase
        tail = []  # the seats' pieces and the table's, which run to the end of the vector
        for r in range(n):
            s = (seat + r) % n
            if r and active[s]:
                _add_bits(ones, known[r], game.visible_cards(state, seat, s))
            tail += (
                min(coins[s] / game.start_coins, 1.0),
                active[s] and coins[s] == 0,
                active[s],
                state.dealer == s,
                state.knocker == s,
                state.to_move == s and phase != OVER,
                s in losers,
            )
        tail += (  # pot, stock, phase (3), passes, knock, score
            state.pot / (n * game.start_coins),
            len(state.deck) / 32.0,
            phase == CHOICE,
            phase == PLAY,
            phase == OVER,
            state.passes / n,
            state.to_move == seat and game.knock_allowed(state),
            hand_score(hand) / FIRE_SCORE if len(hand) == 3 else 0.0,
        )
        obs = np.zeros(size, dtype=np.float32)
        obs[ones] = 1.0
        obs[base:] = tail
        return obs


@cache
def _starts(n: int) -> tuple[int, int, int, tuple[int, ...], int]:
    """(size, where the middle, the discards, each known_r (index r) and seat_0 begin) for ``n`` players:
    looked up once, since play-out searches observe hundreds of thousands of states a series."""
    layout = observation_pieces(n)
    known = (0, *(layout.start(f"known_{r}") for r in range(1, n)))
    assert layout.size - layout.start("seat_0") == PER_SEAT * n + 8, "observe_state writes seat_0 on as one tail"
    return layout.size, layout.start("middle"), layout.start("discards"), known, layout.start("seat_0")


def _add_bits(indices: list[int], offset: int, mask: int) -> None:
    """Append ``offset`` + each card of the bitmask ``mask`` to ``indices``."""
    while mask:
        low = mask & -mask
        indices.append(offset + low.bit_length() - 1)
        mask ^= low
