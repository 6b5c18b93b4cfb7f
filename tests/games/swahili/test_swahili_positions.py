"""Swahili's rules as rows in its notation: (position, move, position after), the leaflet's diagrams and the
rulings' cases; then the end, the winners and the rewards; then texts the notation refuses. Public API only."""

import re

import pytest

import envs
import envs.swahili_v0
from envs.core.notation import PositionError

START = "3333......./3333....... 0,0 0,0 R -"
START_4 = "3333......./3333......./3333......./3333....... 0,0,0,0 0,0,0,0 R -"
# diagram 3: row 1 lands its last piece on row 4, which holds 4 now: stop, or go on with those 4
CHOICE = ".444......./3333....... 0,0 0,0 R 4"


def at(text, **params):
    env = envs.make("swahili", **params)
    env.reset(options={"position": text})
    return env


@pytest.mark.parametrize(
    "before,move,after,players",
    [
        (START, "row 2", "3.441....../3333....... 0,0 0,0 K -", 2),  # diagram 2: rows 3, 4, 5; row 5 was empty
        (START, "row 1", CHOICE, 2),  # diagram 3A to 3B
        (CHOICE, "go on from row 4", ".44.1111.../3333....... 0,0 0,0 K -", 2),  # 3B to 3C
        (CHOICE, "stop", ".444......./3333....... 0,0 0,0 K -", 2),
        # diagram 4: five in row 9 go to rows 10 and 11, one (only one) into the centre, then rows 1 and 2
        ("........5../3333....... 7,0 0,0 R -", "row 9", "11.......11/3333....... 8,0 0,0 K -", 2),
        # twelve in a row: one to each row ahead, one into the centre, the last back on row 1
        ("c........../3333....... 0,0 0,0 R -", "row 1", "11111111111/3333....... 1,0 0,0 K -", 2),
        # diagram 5: row 8's three go to 9, 10, 11; the last lands alone by a single opponent: captured
        (".......3.../333.......1 9,2 0,0 R -", "row 8", "........111/333........ 9,2 1,0 K -", 2),
        # two of one colour on a capture row are safe
        (".....3...../333.....2.. 9,1 0,0 R -", "row 6", "......111../333.....2.. 9,1 0,0 K -", 2),
        # landing on the mover's own pieces captures nothing: the mover chooses
        ("......2.1../333.....1.. 9,2 0,0 R -", "row 7", ".......12../333.....1.. 9,2 0,0 R 9", 2),
        # every opponent with a single on the landing row loses it, at once
        (
            ".....3...../333.....1../333.....1../333.....2.. 9,2,2,1 0,0,0,0 R -",
            "row 6",
            "......111../333......../333......../333.....2.. 9,2,2,1 2,0,0,0 K -",
            4,
        ),
        (START_4, "row 4", START_4.replace("3333.......", "333.111....", 1).replace(" R ", " K "), 4),
        (
            "3333......./3333......./3333....... 0,0,0 0,0,0 B -",
            "row 1",
            "3333......./3333......./.444....... 0,0,0 0,0,0 B 4",
            3,
        ),
        (
            "3333......./3333......./.444....... 0,0,0 0,0,0 B 4",
            "stop",
            "3333......./3333......./.444....... 0,0,0 0,0,0 R -",
            3,
        ),  # after the last seat, the first
    ],
)
def test_moves(before, move, after, players):
    env = at(before, num_players=players)
    env.apply(env.string_to_action(move))
    assert env.position() == after
    assert not env.is_terminal() and env.returns() == [0.0] * players


def test_a_pending_choice_allows_going_on_or_stopping_only():
    for text, names in ((CHOICE, ["go on from row 4", "stop"]), (START, ["row 1", "row 2", "row 3", "row 4"])):
        env = at(text)
        assert [env.action_to_string(a) for a in env.legal_actions()] == names


@pytest.mark.parametrize(
    "before,params,move,after,returns",
    [
        # the mover's last piece into the centre: 120 to 0
        ("..........1/3333....... 11,0 0,0 R -", {}, "row 11", ".........../3333....... 12,0 0,0 R -", [1.0, -1.0]),
        # a capture that leaves the other without a piece on the rows ends the game too: 95 to 110
        (".......3.../..........1 9,11 0,0 R -", {}, "row 8", "........111/........... 9,11 1,0 R -", [-1.0, 1.0]),
        # 100 each: a tie
        ("..........1/3.......... 9,9 0,2 R -", {}, "row 11", ".........../3.......... 10,9 0,2 R -", [0.0, 0.0]),
        # four players, R and K at 120: the winners share +1, the others -1
        (
            "..........1/2........../3331......./3331....... 11,10,0,0 0,4,0,0 R -",
            {"num_players": 4},
            "row 11",
            ".........../2........../3331......./3331....... 12,10,0,0 0,4,0,0 R -",
            [0.5, 0.5, -0.5, -0.5],
        ),
        # reward="score": each step's score change minus the mean change
        (
            ".......3.../333.......1 9,2 0,0 R -",
            {"reward": "score"},
            "row 8",
            "........111/333........ 9,2 1,0 K -",
            [2.5, -2.5],
        ),
    ],
)
def test_the_end(before, params, move, after, returns):
    env = at(before, **params)
    env.apply(env.string_to_action(move))
    assert env.position() == after
    assert env.returns() == returns
    over = "reward" not in params
    assert env.is_terminal() is over
    if over:
        assert env.legal_actions() == [] and at(after, **params).is_terminal()  # the end is read from the text


def test_the_start_positions():
    for players in (2, 3, 4):
        env = envs.make("swahili", num_players=players)
        env.reset(seed=0)
        assert env.position() == " ".join(["/".join(["3333......."] * players), *[",".join("0" * players)] * 2, "R -"])
        assert env.position(players - 1) == env.position()


@pytest.mark.parametrize(
    "text,message,players",
    [
        ("3333......./3333....... 0,0 0,0 R", "4 fields where the notation has 5", 2),
        (START_4, "field 1 \\(rows\\) .*4 seats separated by '/', expected 2", 2),
        ("3333....../3333....... 0,0 0,0 R -", "seat R has 10 rows, expected 11", 2),
        ("3333......./333d....... 0,0 0,0 R -", "seat K row 4 is 'd'", 2),
        ("4333......./3333....... 0,0 0,0 R -", "field 1 \\(rows\\) .*R has 13 pieces", 2),
        ("3333......./3333....... 0,1 0,0 R -", "field 2 \\(centre\\) .*K has 13 pieces", 2),
        ("3333......./3333....... 0 0,0 R -", "field 2 \\(centre\\) '0': expected 2 numbers", 2),
        ("333......../3333....... 0,0 0,0 R -", "compounds hold 0 pieces, but 3 are missing", 2),
        ("333......../3333....... 0,0 3,0 R -", "R has captured 3 pieces; the others miss only 0", 2),
        ("3333......./3333....... 0,0 0,0 G -", "field 4 \\(to-move\\) 'G': expected one of R, K", 2),
        ("3333......./3333....... 0,0 0,0 R 12", "field 5 \\(choice\\) '12': expected a whole number from 1 to 11", 2),
        ("3333......./3333....... 0,0 0,0 R 5", "R has 0 piece\\(s\\) in row 5", 2),
        (".........../3333....... 12,0 0,0 R 4", "no piece left on the rows, so the game is over", 2),
    ],
)
def test_bad_texts(text, message, players):
    env = envs.make("swahili", num_players=players)
    with pytest.raises(PositionError, match=message):
        env.reset(options={"position": text})


def test_the_docs_examples_read_back_as_written():
    """Every whole position the docs page shows (the env's docstring, section Position notation)."""
    section = envs.swahili_v0.__doc__.split("\n## Position notation\n")[1].split("\n## ")[0]
    texts = [t for t in re.findall(r"`([^`]+)`", section) if len(t.split()) == 5 and "/" in t]
    assert len(texts) == 9
    for text in texts:
        env = envs.make("swahili", num_players=text.count("/") + 1)
        env.reset(options={"position": text})
        assert env.position() == text
