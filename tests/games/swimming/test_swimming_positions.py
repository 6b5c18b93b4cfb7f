"""Swimming's rules written in its notation: (position, move, expected position) rows, ends, and bad texts.

Positions are in the notation of the env's docs page: ``hands middle lot stock discards coins pot dealer to-move
phase knocker passes turns round last moves``. A showdown deals the next round from the env's generator, so
its rows compare the fields the showdown decides (coins, pot, dealer, round, last showdown, ...), not the deal.
"""

import numpy as np
import pytest

import envs
from envs.core.game import RuleError
from envs.core.notation import PositionError

LABELS = (
    *("hands", "middle", "lot", "stock", "discards", "coins", "pot", "dealer", "to-move", "phase", "knocker"),
    *("passes", "turns", "round", "last", "moves"),
)
STOCK = "KDADQH9HJDKHAH7H10D8SJSKS9C10CQCACQD"  # top card first
# Four players in play, dealer 3, player_0 to move, everyone has had a turn. Scores: 27 (the seed's 7S 10S QS),
# 18 (the seed's 8H 10H KC), 10 (9D JH JC, as the seed's 9D 10H JC), 15.
P = f"7S10SQS/8H10HKC/9DJHJC/7D8D7C 9SAS8C - {STOCK} - 3,3,3,3 0 3 0 play - 0 4 1 - -"
# The dealer's choice of round 1: player_3 looked at 7D8D7C; the other lot is 9SAS8C.
CHOICE = f"7S10SQS/8H10HKC/9DJHJC/7D8D7C - 9SAS8C {STOCK} - 3,3,3,3 0 3 3 choice - 0 0 1 - -"


def at(text, seed=0, **params):
    env = envs.make("swimming", **params)
    env.reset(seed=seed, options={"position": text})
    return env


def play(text, *moves, seed=0, **params):
    env = at(text, seed, **params)
    for move in moves:
        env.apply(env.string_to_action(move))
    return env


def fields(text):
    return dict(zip(LABELS, text.split()))


def edit(text, **changes):
    """``text`` with some fields replaced (``to_move`` for ``to-move``)."""
    values = fields(text)
    values.update({k.replace("_", "-"): str(v) for k, v in changes.items()})
    return " ".join(values[label] for label in LABELS)


ROWS = [
    # a swap: the card taken is known to all (*), the card given lies face up in the middle
    (P, "swap 7S for 9S", edit(P, hands="*9S10SQS/8H10HKC/9DJHJC/7D8D7C", middle="7SAS8C", to_move=1, turns=5)),
    # swap all: the whole new hand is known, the old one is the middle
    (P, "swap all", edit(P, hands="*9S*AS*8C/8H10HKC/9DJHJC/7D8D7C", middle="7S10SQS", to_move=1, turns=5)),
    (P, "pass", edit(P, to_move=1, passes=1, turns=5)),
    (P, "knock", edit(P, to_move=1, knocker=0, turns=5)),
    # a knock breaks a run of passes
    (edit(P, to_move=2, passes=2, turns=6), "knock", edit(P, to_move=3, knocker=2, passes=0, turns=7)),
    # every player passes in a row: the middle is put aside, three new cards from the stock, the first passer on
    (
        edit(P, to_move=3, passes=3, turns=7),
        "pass",
        edit(P, middle="KDADQH", stock=STOCK[6:], discards="9SAS8C", to_move=0, passes=0, turns=8),
    ),
    # the dealer keeps the lot he looked at: the other lot goes face up to the middle; play starts at his left
    (
        CHOICE,
        "keep lot",
        edit(P, middle="9SAS8C", turns=0, moves="3keep:9SAS8C"),
    ),
    # or he lays it in the middle and takes the other, unseen lot
    (
        CHOICE,
        "take other lot",
        edit(P, hands="7S10SQS/8H10HKC/9DJHJC/9SAS8C", middle="7D8D7C", turns=0, moves="3take:7D8D7C"),
    ),
    # the round's record grows by each move as the table saw it
    (
        edit(P, turns=0, moves="3keep:9SAS8C"),
        "swap 7S for 9S",
        edit(
            P,
            hands="*9S10SQS/8H10HKC/9DJHJC/7D8D7C",
            middle="7SAS8C",
            to_move=1,
            turns=1,
            moves="3keep:9SAS8C,0swap:7S>9S",
        ),
    ),
]


@pytest.mark.parametrize("before,move,after", ROWS)
def test_moves_in_notation(before, move, after):
    env = play(before, move)
    assert env.position() == after
    assert env.returns() == [0.0] * 4


# (position, move, the fields the showdown decides, every seat's coins won or lost)
SHOWDOWNS = [
    # a knock: every other player has one more turn, then the lowest (player_2, 10) pays; player_0 deals next
    (
        edit(P, to_move=3, knocker=0, turns=7),
        "pass",
        {"coins": "3,3,2,3", "pot": "1", "dealer": "0", "to-move": "0", "phase": "choice", "round": "2"}
        | {"last": "knock:7S10SQS/8H10HKC/9DJHJC/7D8D7C", "knocker": "-", "moves": "-"},
        [0, 0, -1, 0],
    ),
    # a swap to 31 (Bingo) ends the round at once
    (
        P,
        "swap 7S for AS",
        {"coins": "3,3,2,3", "pot": "1", "last": "bingo:10SQSAS/8H10HKC/9DJHJC/7D8D7C"},
        [0, 0, -1, 0],
    ),
    # Fire (three aces) ends the round at once, and everyone else pays
    (
        "ADAH7S/8H10HKC/9DJHJC/7D8D7C 9SAS8C - KD10SQH9HJDKHQS7H10D8SJSKS9C10CQCACQD - 3,3,3,3 0 3 0 play - 0 4 1 - -",
        "swap 7S for AS",
        {"coins": "3,2,2,2", "pot": "3", "last": "fire:ADAHAS/8H10HKC/9DJHJC/7D8D7C"},
        [0, -1, -1, -1],
    ),
    # Bingo straight after the deal: player_0's AS KS QS ends the round once the dealer has chosen
    (
        edit(CHOICE, hands="QSKSAS/8H10HKC/9DJHJC/7D8D7C", lot="7S9S8C", stock=STOCK.replace("KS", "10S")),
        "keep lot",
        {"coins": "3,3,2,3", "last": "bingo:QSKSAS/8H10HKC/9DJHJC/7D8D7C", "round": "2"},
        [0, 0, -1, 0],
    ),
    # a tie for the lowest (10 and 10): both pay; three equal ranks score 30.5 (the seed's KH KS KC)
    (
        "KHKSKC/JD7H8S/9DJHJC/7D8D7C 9SAS8C - 10DQDKDAD8H9H10HQHAH7S10SJSQS9C10CQCAC - 3,3,3,3 0 3 3 play 0 0 7 1 - -",
        "pass",
        {"coins": "3,2,2,3", "pot": "2", "last": "knock:KHKSKC/JD7H8S/9DJHJC/7D8D7C"},
        [0, -1, -1, 0],
    ),
    # a swimmer (no coins left) who loses sinks and leaves; the deal passes to the next player still in
    (
        edit(P, coins="3,3,0,3", pot="3", dealer=1, to_move=0, knocker=1, turns=7),
        "pass",
        {"hands": "???/???/-/???", "coins": "3,3,0,3", "pot": "3", "dealer": "3", "to-move": "3"}
        | {"last": "knock:7S10SQS/8H10HKC/9DJHJC/7D8D7C"},
        [0, 0, 0, 0],
    ),
    # all players pass with fewer than three cards in the stock: a showdown
    (
        "7S10SQS/8H10HKC/9DJHJC/7D8D7C 9SAS8C - QDKS KDADQH9HJDKHAH7H10D8SJS9C10CQCAC 3,3,3,3 0 3 3 play - 3 30 1 - -",
        "pass",
        {"coins": "3,3,2,3", "last": "deck:7S10SQS/8H10HKC/9DJHJC/7D8D7C"},
        [0, 0, -1, 0],
    ),
    # a showdown that would sink every player left is void: the same dealer deals the round again
    (
        "7S10SQS/-/-/7D10DQD 9SAS8C - 8DJDKDAD7H9HQHKHAH8SJSKS7C9C10CQCAC 9D8H10HJHJCKC 0,0,0,0 12 3 0 play 3 0 7 5"
        " - -",
        "pass",
        {"hands": "???/-/-/???", "coins": "0,0,0,0", "pot": "12", "dealer": "3", "round": "6"}
        | {"last": "void:7S10SQS/-/-/7D10DQD"},
        [0, 0, 0, 0],
    ),
]


@pytest.mark.parametrize("before,move,expected,paid", SHOWDOWNS)
def test_showdowns_in_notation(before, move, expected, paid):
    env = play(before, move)
    sunk = [s for s in range(4) if expected.get("hands", "").split("/")[s : s + 1] == ["-"]]
    after = fields(env.position(sunk[0]) if sunk else env.position())
    assert {label: after[label] for label in expected} == expected
    assert env.returns() == [float(p) for p in paid]
    assert not env.is_terminal()


def test_the_last_player_left_wins_the_pot():
    # player_3 swims and loses again: it sinks, player_0 is left and takes the pot of 11
    before = f"7S10SQS/-/-/7D8D7C 9SAS8C - {STOCK} 9D8H10HJHJCKC 1,0,0,0 11 3 3 play 0 0 7 9 - -"
    env = play(before, "pass")
    assert env.position() == (
        f"7S10SQS/-/-/- 9SAS8C - {STOCK} 9D8H10HJHJCKC 1,0,0,0 11 3 0 over 0 1 8 9 knock:7S10SQS/-/-/7D8D7C -"
    )
    assert env.is_terminal() and env.returns() == [11.0, 0.0, 0.0, 0.0]
    assert env.agents == ["player_0", "player_3"] and all(env.terminations.values())
    again = at(env.position())
    assert again.is_terminal() and again.agents == env.agents and again.legal_actions() == []


@pytest.mark.parametrize(
    "position,move",
    [
        (edit(P, turns=3), "knock"),  # not before every player in the game has had a turn
        (edit(P, knocker=1, to_move=2, turns=6), "knock"),  # no second knock
        (CHOICE, "pass"),  # the dealer's choice comes first
        (P, "keep lot"),
        (P, "swap 7S for 7D"),  # 7D is player_3's
    ],
)
def test_illegal_moves_in_notation(position, move):
    with pytest.raises(RuleError, match="no legal action"):
        play(position, move)


def test_knocking_in_the_first_round_of_turns_with_the_rule_on():
    assert play(edit(P, turns=0), "knock", knock_first_round=True).position() == edit(P, knocker=0, to_move=1, turns=1)


def test_a_seats_view_hides_what_it_has_not_seen_and_deals_it_afresh():
    before = play(P, "swap 7S for 9S", "swap all")  # player_1 swapped all: its hand is known to everyone
    view = before.position(2)
    assert view == ("*9S??/*7S*AS*8C/9DJHJC/??? 8H10HKC - ????????????????? - 3,3,3,3 0 3 2 play - 0 6 1 - -")
    seen = set()
    for seed in range(20):
        world = at(view, seed=seed)
        assert world.position(2) == view
        assert np.array_equal(world.observe("player_2")["observation"], before.observe("player_2")["observation"])
        seen.add(fields(world.position())["hands"])
    assert len(seen) > 15  # the hidden cards are dealt afresh
    assert at(view, seed=3).position() == at(view, seed=3).position()  # from the env's generator


def test_open_hands_show_every_hand_but_not_the_stock():
    env = at(P, open_hands=True)
    assert env.position(1) == edit(P, stock="?" * 17)


def test_the_dealer_does_not_see_the_other_lot():
    assert at(CHOICE).position(3) == edit(CHOICE, hands="???/???/???/7D8D7C", lot="???", stock="?" * 17)


def test_the_rounds_record_read_back_gives_the_same_past_decisions():
    # sample_world weighs worlds by the others' past moves this round: a position read back from its text
    # shows the model the same past observations, masks and moves
    env = envs.make("swimming")
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    while len(fields(env.position())["moves"].split(",")) < 12:
        env.apply(int(rng.choice(env.legal_actions())))
    calls = {}
    for name, source in (("played", env), ("read back", at(env.position()))):
        seen = calls[name] = []

        def model(observation, mask, seen=seen):
            seen.append((observation.tobytes(), mask.tobytes()))
            return np.full(len(mask), 1.0 / len(mask))

        source.sample_world(1, np.random.default_rng(5), model=model, candidates=3)
    assert len(calls["played"]) >= 3 * 8 and calls["played"] == calls["read back"]


BAD = [
    (P.replace("7S10SQS", "7S10SQS9H"), "player_0 holds 4 cards"),
    (P.replace("7S10SQS", "7S10SZS"), "bad card"),
    (P.replace("7S10SQS", "7S10S8H"), "8H is written twice"),
    (edit(P, stock=STOCK[2:]), "1 of the 32 cards are not placed"),
    (edit(P, coins="3,3,3,2"), "coins and pot hold 11"),
    (edit(P, coins="3,3,3,4"), "outside 0..3"),
    (edit(P, to_move=4), "field 9 (to-move)"),
    (edit(P, hands="7S10SQS/-/9DJHJC/7D8D7C", coins="3,1,3,3", pot=2, stock=STOCK + "8H10HKC"), "hand -"),
    (edit(P, hands="7S10SQS/-/9DJHJC/7D8D7C", pot=3, coins="3,0,3,3", to_move=1, stock=STOCK + "8H10HKC"), "sunk"),
    (edit(P, dealer=0, to_move=0, turns=0, phase="choice"), "middle is -"),
    (edit(CHOICE, to_move=0), "the dealer, player_3, is to move"),
    (edit(P, passes=4), "at most 3"),
    (edit(P, phase="done"), "expected one of choice, play, over"),
    (edit(P, hands="ASKSQS/8H10HKC/9DJHJC/7D8D7C", middle="9S7S8C"), "31 or Fire in play"),
    (edit(P, middle="9S?8C", stock=STOCK + "AS"), "face up"),
    (edit(P, last="knock:7S10SQS/8H10HKC/9DJHJC/7D8D7C"), "no showdown before round 1"),
    (edit(P, round=2, last="knock:7S10SQS/8H10HKC/9DJHJC"), "expected 4 hands"),
    (edit(P, round=2, last="bingo:ADAHAS/8H10HKC/9DJHJC/7D8D7C"), "do not give this showdown"),
    (edit(P, moves="3keep:9SAS8C,1pass"), "not a move player_0 can make"),
    (edit(P, moves="3keep:9SAS8C"), "(turns differ)"),
    (edit(P, moves="3keep:9SAS8C,0swap:7S+9S"), "swap:GIVEN>TAKEN"),
    (edit(P, moves="3peek:9SAS8C"), "bad move"),
    (edit(P, knocker=0), "came back to the knocker"),
    (edit(P, hands="*7S10SQS/8H10HKC/9DJHJC/7D8D7C", phase="choice", middle="-", lot="9SAS8C", to_move=3), "known"),
    (P + " extra", "17 fields where the notation has 16"),
    ("7S10SQS/8H10HKC\n" + P, "one line"),
]


@pytest.mark.parametrize("text,message", BAD)
def test_bad_positions_are_refused_naming_what_is_wrong(text, message):
    env = envs.make("swimming")
    with pytest.raises(PositionError, match=message.replace("(", r"\(").replace(")", r"\)").replace("?", r"\?")):
        env.reset(options={"position": text})


def test_the_docs_examples_read_back_as_written():
    import envs.swimming.env

    examples = [
        line.strip("`") for line in envs.swimming.env.__doc__.splitlines() if line.count("`") == 2 and "/" in line
    ]
    assert len(examples) == 7
    for text in examples:
        env = at(text)
        views = [env.position()] + [env.position(seat) for seat in range(4)]
        assert text in views
