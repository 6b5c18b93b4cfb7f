"""Swish's move rule in notation: rows (position, move, expected position), legal landings, the end.

The seed's cases (RULINGS "Swish and Squeeze"): a rook slides over empty cells, or slides then leaps one
unbroken row of beads or of enemy rooks and lands on any empty cell beyond; never a mixed row, never own
rooks, never without an empty cell right after the row. Row ``e`` runs e1..e9 west to east.
"""

import pytest

import envs
from tests.games.hexrook.test_hexrook_positions import landings

# player_0 white to move; beads e4 e5 (a row), c3 g3 h3; black rooks a3 a4 (a row) and e9
BASE = "W.BB./....../..o..../......../W..oo...B/......../..o..../..o.../W.... play 0 WB 7,7 1"
# a mixed row: bead e4 then black rook e5
MIXED = "W...B/....../..o..../......../W..oB...B/......../..o..../....../W.... play 0 WB 8,8 1"
# own rook e3 in e1's way; beads e4 e5 closed by the black rook e6: no empty cell after the row
CLOSED = "....B/....../......./......../W.WooB.../......../..o..../....../W...B play 0 WB 8,8 1"
# white has 9 beads: one more wins
NINE = "W.BB./....../..o..../......../W..o....B/......../..o..../....../W.... play 0 WB 9,7 1"

MOVES = [
    # a slide over empty cells
    (BASE, "e1-e3", "W.BB./....../..o..../......../..Woo...B/......../..o..../..o.../W.... play 1 WB 7,7 2"),
    # a leap of an unbroken row of beads: both go to the store, the rook lands on the first empty cell ...
    (BASE, "e1xe6", "W.BB./....../..o..../......../.....W..B/......../..o..../..o.../W.... play 1 WB 9,7 2"),
    # ... or on any empty cell beyond, before the next piece
    (BASE, "e1xe8", "W.BB./....../..o..../......../.......WB/......../..o..../..o.../W.... play 1 WB 9,7 2"),
    # a leap of an unbroken row of enemy rooks: they leave play, the store does not change
    (BASE, "a1xa5", "....W/....../..o..../......../W..oo...B/......../..o..../..o.../W.... play 1 WB 7,7 2"),
    # black's reply: a slide north-west
    (
        "W.BB./....../..o..../......../.....W..B/......../..o..../..o.../W.... play 1 WB 9,7 2",
        "e9-b6",
        "W.BB./.....B/..o..../......../.....W.../......../..o..../..o.../W.... play 0 WB 9,7 3",
    ),
]


@pytest.mark.parametrize("before,move,after", MOVES)
def test_moves(before, move, after):
    env = envs.make("swish")
    env.reset(options={"position": before})
    env.apply(env.string_to_action(move))
    assert env.position() == after
    assert not env.is_terminal() and env.returns() == [0.0, 0.0]


LANDINGS = [
    # east: slides to e2 e3, leaps e4 e5 to e6 e7 e8 (e9 is taken); north-east to d1 c1 b1; south-east f1 g1 h1
    (BASE, "e1", "b1 c1 d1 e2 e3 e6 e7 e8 f1 g1 h1"),
    # never a mixed row: e1 stops before the bead e4
    (MIXED, "e1", "b1 c1 d1 e2 e3 f1 g1 h1"),
    # never over an own rook (e3), and no leap without an empty cell right after the row (e6 is a rook)
    (CLOSED, "e1", "a1 b1 c1 d1 e2 f1 g1 h1"),
    (CLOSED, "e3", "a3 b3 c1 c3 d2 d3 e2 f2 f3 g1 h3 i3"),  # south-east: f3, then over the bead g3 to h3 i3
]


@pytest.mark.parametrize("text,cell,expected", LANDINGS)
def test_landings(text, cell, expected):
    env = envs.make("swish")
    env.reset(options={"position": text})
    assert landings(env, cell) == expected


END = [
    # the tenth bead wins: player_0 +1, player_1 -1
    (NINE, "e1xe5", "W.BB./....../..o..../......../....W...B/......../..o..../....../W.... play 1 WB 10,7 2", [1, -1]),
    # the win is checked before the ply limit
    (
        NINE[:-1] + "299",
        "e1xe5",
        "W.BB./....../..o..../......../....W...B/......../..o..../....../W.... play 1 WB 10,7 300",
        [1, -1],
    ),
    # the ply limit: a draw
    (
        BASE[:-1] + "299",
        "e1-e2",
        "W.BB./....../..o..../......../.W.oo...B/......../..o..../..o.../W.... play 1 WB 7,7 300",
        [0, 0],
    ),
    # black's last rooks leapt: black cannot move and loses
    (
        "W.BB./....../..o..../......../W..oo..../......../..o..../..o.../W.... play 0 WB 7,7 1",
        "a1xa5",
        "....W/....../..o..../......../W..oo..../......../..o..../..o.../W.... play 1 WB 7,7 2",
        [1, -1],
    ),
]


@pytest.mark.parametrize("before,move,after,returns", END)
def test_the_end(before, move, after, returns):
    env = envs.make("swish")
    env.reset(options={"position": before})
    env.apply(env.string_to_action(move))
    assert env.position() == after
    assert env.is_terminal() and env.legal_actions() == []
    assert env.returns() == returns
