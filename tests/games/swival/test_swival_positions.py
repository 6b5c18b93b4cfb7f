"""Swival's rules as (position, move, expected position) rows in its notation, the seed's cases among them.

The notation (docs/games/swival.md): ``outer/middle/inner centre to-move``, rings from spoke 0 clockwise,
``R`` red (seat 0, moves first), ``B`` blue (seat 1), ``.`` empty; the centre holds the winner's counter or ``-``.
"""

import pytest

import envs
from envs.core.game import RuleError
from envs.core.notation import PositionError

START = "......../......../........ - R"
FULL_BUT_ONE = "RBRBRBRB/BRBRBRBR/R.RBRBRB - B"  # no spoke of one colour; blue fills the last space

MOVES = [
    # (position, move, expected position, game over, returns)
    (START, "o0", "R......./......../........ - B", False, [0, 0]),
    # a swivel turns the middle ring with every counter on it: right is clockwise (k -> k + 1)
    ("R......./B......./........ - R", "m1R", "R......./.BR...../........ - B", False, [0, 0]),
    # left is anticlockwise (k -> k - 1): the counter just placed on m0 goes to m7
    ("R......./.B....../........ - R", "m0L", "R......./B......R/........ - B", False, [0, 0]),
    # with a counter already on the middle ring, a placement anywhere may swivel
    ("......../R......./.B...... - R", "o3L", "...R..../.......R/.B...... - B", False, [0, 0]),
    # without one, only a counter placed on the middle ring earns the swivel
    ("R......./......../.B...... - R", "m3R", "R......./....R.../.B...... - B", False, [0, 0]),
    # the seed's winning line: a line of three at the start of your turn lets the fourth counter into the centre
    ("RB....../R..B..../R.B..... - R", "centre", "RB....../R..B..../R.B..... R R", True, [1, -1]),
    # a line made on your own move ...
    ("R......./R...B.../..B..... - R", "i0", "R......./R...B.../R.B..... - B", False, [0, 0]),
    # ... can still be broken by the opponent's swivel before your next turn (the heart of the game)
    ("R......./R...B.../R.B..... - B", "o5R", "R....B../.R...B../R.B..... - R", False, [0, 0]),
    # a full board and the player to move has no line: a draw
    (FULL_BUT_ONE, "i1", "RBRBRBRB/BRBRBRBR/RBRBRBRB - R", True, [0, 0]),
    # the same last space with a swivel hands red four lines on a full board: red may still win by the centre
    (FULL_BUT_ONE, "i1L", "RBRBRBRB/RBRBRBRB/RBRBRBRB - R", False, [0, 0]),
]


@pytest.mark.parametrize("position,move,expected,over,returns", MOVES)
def test_a_move_from_a_position(position, move, expected, over, returns):
    env = envs.make("swival")
    env.reset(options={"position": position})
    env.apply(env.string_to_action(move))
    assert env.position() == expected
    assert env.is_terminal() == over
    assert env.returns() == returns


ILLEGAL = [
    # (position, move): the swivel needs, after the placement, two counters and one on the middle ring
    (START, "m0L"),
    ("R......./......../.B...... - R", "o3L"),
    # the centre only with a line of three at the start of the turn
    ("R......./R...B.../..B..... - R", "centre"),
    ("R......./R...B.../R.B..... - B", "centre"),
    # an occupied space
    ("R......./......../.B...... - R", "o0"),
]


@pytest.mark.parametrize("position,move", ILLEGAL)
def test_moves_the_rules_refuse(position, move):
    env = envs.make("swival")
    env.reset(options={"position": position})
    with pytest.raises(RuleError, match=f"no legal action is named '{move}'"):
        env.string_to_action(move)


def test_the_only_move_with_a_line_on_a_full_board_is_the_centre():
    env = envs.make("swival")
    env.reset(options={"position": "RBRBRBRB/RBRBRBRB/RBRBRBRB - R"})
    assert [env.action_to_string(a) for a in env.legal_actions()] == ["centre"]


BAD = [
    ("RRRR..../......../........ - R", "as many counters as B or one more"),
    ("R......./......../........ - R", "B is to move"),
    ("RRRRRRRR/RRRRRBBB/BBBBBBBB - B", "12 ring counters"),
    ("......../......../........ R R", "only the seat to move, with a line of three"),
    ("RB....../......../........ - X", r"field 3 \(to-move\) 'X': expected one of R, B"),
    ("RB....../......../........ * R", r"field 2 \(centre\)"),
    ("RB...../......../........ - R", "expected 24 cells, got 23"),
    ("RB....../......../........ -", "2 fields where the notation has 3"),
]


@pytest.mark.parametrize("text,message", BAD)
def test_bad_positions_name_what_is_wrong(text, message):
    env = envs.make("swival")
    with pytest.raises(PositionError, match=message):
        env.reset(options={"position": text})


def test_a_finished_game_reads_back_finished():
    env = envs.make("swival")
    env.reset(options={"position": "RB....../R..B..../R.B..... R R"})
    assert env.is_terminal() and env.legal_actions() == []
    env.reset(options={"position": "RBRBRBRB/BRBRBRBR/RBRBRBRB - R"})
    assert env.is_terminal()


def test_the_docs_puzzle_has_one_winning_move():
    """docs/positions.md's puzzle: red to move wins, with i5 only (every other move lets blue win or draw)."""
    from envs.swival import solver

    env = envs.make("swival")
    env.reset(options={"position": "..B..R.R/.BRBRR../..BR..BB - R"})
    winning = []
    for action in env.legal_actions():
        child = env.clone(keep_chance=True)
        child.apply(action)
        if child.is_terminal():
            winning += [env.action_to_string(action)] * (child.returns()[0] > 0)
        elif solver.state_value(child.game.from_text(child.position())) == -1:
            winning.append(env.action_to_string(action))
    assert winning == ["i5"]
