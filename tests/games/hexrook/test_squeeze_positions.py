"""Squeeze's move rule in notation: rows (position, move, expected position), legal landings, the end.

The seed's cases (RULINGS "Swish and Squeeze"): a rook slides over empty cells only; after it lands, each
unbroken row of beads, or of enemy rooks, closed on the far side by another own rook is taken, in several
directions at once, never a mixed row; only the moving rook captures. Row ``e`` runs e1..e9 west to east.
"""

import pytest

import envs
from tests.games.hexrook.test_hexrook_positions import landings

# player_0 white to move; white rooks a1, e2, e7; beads e3 e4 (closed by e2) and e6 (closed by e7)
TWO_WAYS = "W...B/....../......./......../.Woo.oW../......../..oo.../....../B...B play 0 WB 6,8 1"

MOVES = [
    # the rook lands on e5: the beads e3 e4 (against e2) and e6 (against e7) are taken at once
    (TWO_WAYS, "a1xe5", "....B/....../......./......../.W..W.W../......../..oo.../....../B...B play 1 WB 9,8 2"),
    # a bead row one way, an enemy rook the other (different directions): both taken, the rook leaves play
    (
        "W...B/....../......./......../.Woo.BW../......../..oo.../....../....B play 0 WB 7,8 1",
        "a1xe5",
        "....B/....../......./......../.W..W.W../......../..oo.../....../....B play 1 WB 9,8 2",
    ),
    # a mixed row (bead e4, black rook e3, then e2) is not taken
    (
        "W...B/....../......./......../.WBo...../......../..oo.../....../W...B play 0 WB 8,8 1",
        "a1-e5",
        "....B/....../......./......../.WBoW..../......../..oo.../....../W...B play 1 WB 8,8 2",
    ),
    # a rook moving between two enemy rooks is not taken: only the moving rook captures
    (
        "W...B/....../......./......../...B.B.../......../..oo.../....../W.... play 0 WB 8,9 1",
        "a1-e5",
        "....B/....../......./......../...BWB.../......../..oo.../....../W.... play 1 WB 8,9 2",
    ),
    # the bead e3 already between white's e2 and e4 stays: the first rook must be in place before the second comes
    (
        "W...B/....../......./......../.WoW...../......../..oo.../....../B...B play 0 WB 8,8 1",
        "a1-b2",
        "....B/.W..../......./......../.WoW...../......../..oo.../....../B...B play 1 WB 8,8 2",
    ),
]


@pytest.mark.parametrize("before,move,after", MOVES)
def test_moves(before, move, after):
    env = envs.make("squeeze")
    env.reset(options={"position": before})
    env.apply(env.string_to_action(move))
    assert env.position() == after
    assert not env.is_terminal() and env.returns() == [0.0, 0.0]


LANDINGS = [
    # slides only: east to the black rook a5, south-east to the black rook i5, south-west to e1
    (TWO_WAYS, "a1", "a2 a3 a4 b1 b2 c1 c3 d1 d4 e1 e5 f5 g5 h5"),
    # never over a bead: nothing east of e2
    (TWO_WAYS, "e2", "a2 b2 c2 d1 d2 e1 f1 f2 g2 h2 i2"),
]


@pytest.mark.parametrize("text,cell,expected", LANDINGS)
def test_landings(text, cell, expected):
    env = envs.make("squeeze")
    env.reset(options={"position": text})
    assert landings(env, cell) == expected


END = [
    # the tenth bead (and more) wins: player_0 +1, player_1 -1
    (
        TWO_WAYS.replace("6,8", "9,5"),
        "a1xe5",
        "....B/....../......./......../.W..W.W../......../..oo.../....../B...B play 1 WB 12,5 2",
        [1, -1],
    ),
    # black's last rook (a1) is shut in by d4-b2: black cannot move and loses
    (
        "BW.../W...../...o.../...W.o../.....o.../....o.../...o.../....../..... play 0 WB 7,7 1",
        "d4-b2",
        "BW.../WW..../...o.../.....o../.....o.../....o.../...o.../....../..... play 1 WB 7,7 2",
        [1, -1],
    ),
    # the ply limit: a draw
    (
        TWO_WAYS[:-1] + "299",
        "e2-e1",
        "W...B/....../......./......../W.oo.oW../......../..oo.../....../B...B play 1 WB 6,8 300",
        [0, 0],
    ),
]


@pytest.mark.parametrize("before,move,after,returns", END)
def test_the_end(before, move, after, returns):
    env = envs.make("squeeze")
    env.reset(options={"position": before})
    env.apply(env.string_to_action(move))
    assert env.position() == after
    assert env.is_terminal() and env.legal_actions() == []
    assert env.returns() == returns
