"""The position notation Swish and Squeeze share, in notation: the set-up, the choice, the first mover, bad texts.

Rows are (position, action name, expected position); the move rules' rows are in each game's file
(``test_swish_positions.py``, ``test_squeeze_positions.py``). Public API only.
"""

import importlib

import pytest

import envs
from envs.core.game import RuleError
from envs.core.notation import PositionError

GAMES = ("swish", "squeeze")
EMPTY = "...../....../......./......../........./......../......./....../....."
# setup="fixed": white rooks a1 e9 i1, black rooks a5 e1 i5, beads on the 19 cells within two steps of e5
FIXED = "W...B/....../..ooo../..oooo../B.ooooo.W/..oooo../..ooo../....../W...B"
NO_E5 = "W...B/....../..ooo../..oooo../B.oo.oo.W/..oooo../..ooo../....../W...B"


def landings(env, cell):
    """The landing cells of the legal moves of the rook on ``cell``, by name, sorted."""
    names = [env.action_to_string(a) for a in env.legal_actions()]
    return " ".join(sorted(n.replace("x", "-").split("-")[1] for n in names if n.startswith(cell)))


def at(name, text, **params):
    env = envs.make(name, **params)
    env.reset(options={"position": text})
    return env


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("setup", ["random", "fixed", "marquisian"])
def test_the_start_positions(name, setup):
    env = envs.make(name, setup=setup)
    env.reset(seed=0)
    board, *rest = env.position().split()
    assert rest == (["setup", "0", "-", "0,0", "0"] if setup == "marquisian" else ["choice", "1", "-", "0,0", "0"])
    if setup == "fixed":
        assert board == FIXED
    if setup == "marquisian":
        assert board == EMPTY


SETUP_AND_CHOICE = [
    # the Marquisian method: player_0 places rooks on edge cells, beads on inner cells, one a turn
    (
        f"{EMPTY} setup 0 - 0,0 0",
        "W@a1",
        "W..../....../......./......../........./......../......./....../..... setup 0 - 0,0 0",
    ),
    (
        f"{EMPTY} setup 0 - 0,0 0",
        "B@i5",
        "...../....../......./......../........./......../......./....../....B setup 0 - 0,0 0",
    ),
    (
        f"{EMPTY} setup 0 - 0,0 0",
        "o@e5",
        "...../....../......./......../....o..../......../......./....../..... setup 0 - 0,0 0",
    ),
    # the last piece placed: player_1 has the choice
    (f"{NO_E5} setup 0 - 0,0 0", "o@e5", f"{FIXED} choice 1 - 0,0 0"),
    # player_1 moves first: player_0 then picks its colour, and player_1 makes the first rook move
    (f"{FIXED} choice 1 - 0,0 0", "move first", f"{FIXED} colour 0 - 0,0 0"),
    (f"{FIXED} colour 0 - 0,0 0", "white", f"{FIXED} play 1 WB 0,0 0"),
    (f"{FIXED} colour 0 - 0,0 0", "black", f"{FIXED} play 1 BW 0,0 0"),
    # player_1 picks a colour: player_0 has the other and moves first
    (f"{FIXED} choice 1 - 0,0 0", "white", f"{FIXED} play 0 BW 0,0 0"),
    (f"{FIXED} choice 1 - 0,0 0", "black", f"{FIXED} play 0 WB 0,0 0"),
    # the first rook move, by the colour player_0 plays, and then the other seat's
    (
        f"{FIXED} play 0 WB 0,0 0",
        "a1-a2",
        ".W..B/....../..ooo../..oooo../B.ooooo.W/..oooo../..ooo../....../W...B play 1 WB 0,0 1",
    ),
    (
        f"{FIXED} play 1 BW 0,0 1",
        "a1-a2",
        ".W..B/....../..ooo../..oooo../B.ooooo.W/..oooo../..ooo../....../W...B play 0 BW 0,0 2",
    ),
    (
        f"{FIXED} play 0 BW 0,0 0",
        "a5-a4",
        "W..B./....../..ooo../..oooo../B.ooooo.W/..oooo../..ooo../....../W...B play 1 BW 0,0 1",
    ),
]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("before,action,after", SETUP_AND_CHOICE)
def test_set_up_and_choice(name, before, action, after):
    env = at(name, before, setup="marquisian")
    env.apply(env.string_to_action(action))
    assert env.position() == after
    assert not env.is_terminal() and env.returns() == [0.0, 0.0]


NOT_LEGAL = [
    (f"{EMPTY} setup 0 - 0,0 0", "o@a1"),  # a bead on an edge cell
    (f"{EMPTY} setup 0 - 0,0 0", "W@e5"),  # a rook on an inner cell
    ("WW.WB/....../......./......../........./......../......./....../..... setup 0 - 0,0 0", "W@i1"),  # a 4th
    (f"{NO_E5} setup 0 - 0,0 0", "move first"),  # no choice before the set-up is done
    (f"{FIXED} colour 0 - 0,0 0", "move first"),  # after "move first", only a colour
    (f"{FIXED} play 0 WB 0,0 0", "a5-a4"),  # player_0 plays white: not a black rook
    (f"{FIXED} play 1 WB 0,0 1", "a1-a2"),  # player_1 plays black: not a white rook
]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("text,action", NOT_LEGAL)
def test_what_is_not_legal(name, text, action):
    env = at(name, text)
    with pytest.raises(RuleError, match="no legal action"):
        env.string_to_action(action)


@pytest.mark.parametrize("name", GAMES)
def test_a_finished_game_reads_back_finished(name):
    # player_0 (white) took its tenth bead: the position is over, nobody acts
    env = at(name, "W...B/....../..ooo../..oooo../B.oo...W./......../......./....../W...B play 1 WB 10,0 7")
    assert env.is_terminal() and env.legal_actions() == []
    # the ply limit (max_plies) reached: over too
    env = at(name, f"{FIXED} play 0 WB 0,0 8", max_plies=8)
    assert env.is_terminal()


BAD = [
    (f"{FIXED} choice 1 - 0,0", "5 fields where the notation has 6"),
    ("W...B/....../..ooo../..oooo../B.ooooo.W/..oooo../..ooo../...... choice 1 - 0,0 0", "expected 9 rows"),
    (f"{FIXED[:5]}./{FIXED[6:]} choice 1 - 0,0 0", "row a has 6 cells, expected 5"),
    (f"X{FIXED[1:]} choice 1 - 0,0 0", r"field 1 \(board\).*cell 1 is 'X'"),
    (f"WW..B{FIXED[5:]} choice 1 - 0,0 0", "4 W where the game has 3"),
    (f"Wo..B{NO_E5[5:]} choice 1 - 0,0 0", "a bead on edge cell a2: beads stand on inner cells"),
    (f"{FIXED} start 1 - 0,0 0", r"field 2 \(phase\).*expected one of setup, choice, colour, play"),
    (f"{FIXED} choice 0 - 0,0 0", "in the choice phase player_1 acts"),
    (f"{FIXED} colour 1 - 0,0 0", "in the colour phase player_0 acts"),
    (f"{FIXED} choice 2 - 0,0 0", r"field 3 \(to-move\) '2': expected a whole number from 0 to 1"),
    (f"{FIXED} choice 1 WB 0,0 0", "the colours are chosen only after the choice phase"),
    (f"{FIXED} choice 1 WW 0,0 0", r"field 4 \(colours\).*expected one of -, WB, BW"),
    (f"{FIXED} choice 1 - 1,0 0", "nothing is captured before the rook moves begin"),
    (f"{FIXED} choice 1 - 0;0 0", r"field 5 \(stores\).*expected 2 numbers"),
    (f"{FIXED} choice 1 - 0,0 2", "no rook move is played before the colours are chosen"),
    (f"{FIXED} play 0 WB 0,0 301", r"field 6 \(plies\).*from 0 to 300"),
    (f"{FIXED} setup 0 - 0,0 0", "every piece is placed, so the set-up is over"),
    (f"{NO_E5} choice 1 - 0,0 0", "0 W, 0 B and 1 o still to place"),
    (
        "....B/.W..../..ooo../..oooo../B.ooooo.W/..oooo../..ooo../....../W...B choice 1 - 0,0 0",
        "a rook on inner cell b2",
    ),
    (f"{FIXED} play 0 - 0,0 0", "in the play phase each seat has a colour"),
    (f"{FIXED} play 0 WB 1,0 5", "19 beads on the board and 1 in the stores: the game has 19"),
    (f"....B{FIXED[5:]} play 0 WB 0,0 0", "before the first rook move every piece of the set-up is on the board"),
    ("W...B/....../......./......../B.......W/......../......./....../W...B play 0 WB 10,9 5", "player_0 reached 10"),
    (
        "W..../....../..ooo../..oooo../..ooooo.W/..oooo../..ooo../....../W.... play 0 WB 0,0 5",
        "player_1 has just moved a rook",
    ),
]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("text,message", BAD)
def test_bad_texts_name_what_is_wrong(name, text, message):
    env = envs.make(name)
    with pytest.raises(PositionError, match=message):
        env.reset(options={"position": text})


@pytest.mark.parametrize("name", GAMES)
def test_the_docs_pages_positions_read_back(name):
    page = importlib.import_module(f"envs.{name}_v0").__doc__
    shown = [line for block in page.split("```")[1::2] for line in block.strip().splitlines()]
    assert len(shown) >= 5
    env = envs.make(name)
    for text in shown:
        env.reset(options={"position": text})
        assert env.position() == text
