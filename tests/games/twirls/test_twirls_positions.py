"""Twirls of Action's rules as rows in its notation: (position, move, position after), the seed's examples and
the rulings' cases; then the end, the winners and the rewards; then texts the notation refuses. Public API only."""

import re

import pytest

import envs
import envs.twirls_v0
from envs.core.game import RuleError
from envs.core.notation import PositionError

START_8 = ".xxxxxx./w6w/w6w/w6w/w6w/w6w/w6w/.xxxxxx. x - 0"
START_9 = ".xwxwxwx./w7w/x7x/w7w/x7x/w7w/x7x/w7w/.xwxwxwx. x - 0"
# the seed's "some basic twirls", one position after the other (its picture is the second, capitals lowered)
AFTER_ONE = ".xx.xxx./w6w/w6w/w2x3w/w6w/w6w/w6w/.xxxxxx. w - 1"
AFTER_TWO = ".xx.xxx./w6w/4w2w/w2x3w/w6w/w6w/w6w/.xxxxxx. x - 2"
AFTER_THREE = ".x2xxx./w6w/4w2w/w2x3w/w.x4w/w6w/w6w/.xxxxxx. w - 3"
# the seed's "winning restrictions" picture, Black to move: White's stones are one group, f4 has 5 friends
NOT_WON_YET = ".x2xxx./7w/4w2w/3x.ww./2x.ww2/3ww.ww/2w5/.xxxxxx. x - 10"
SEED_NOT_WON_YET = ".x..xxx./7w/4w..w/3x.ww./..x.wW../...ww.ww/..w5/.xxxxxx."  # as the seed writes it
# White to move: g5-f4 on g4 joins White's stones, none with more than 3 friendly neighbours
WIN_IN_ONE = "x7/8/8/6w./6x./2wwwx2/3w4/7x w - 11"
WON = "x7/8/8/8/5wx./2wwwx2/3w4/7x x - 12"
# Black to move: h6-d6 on f8 leaves White (f7, f8, a2) without a twirl
STALEMATE_IN_ONE = "3x.w2/5w2/7x/8/8/8/w7/2x5 x - 10"
STALEMATED = "3x.w2/5w2/3x4/8/8/8/w7/2x5 w - 11"


def at(text, **params):
    env = envs.make("twirls", board_size=8, **params)
    env.reset(options={"position": text})
    return env


@pytest.mark.parametrize(
    "before,move,after",
    [
        (START_8, "d8-d5@a5", AFTER_ONE),  # the seed: D8 to D5 pivoting on A5
        (AFTER_ONE, "a6-e6@c8", AFTER_TWO),  # then White's A6 on C8
        (AFTER_TWO, "c8-c4@e6", AFTER_THREE),  # C8 to C4 on E6: d5 between the pivot and c4 does not matter
        (START_8, "d8-d2@a5", ".xx.xxx./w6w/w6w/w6w/w6w/w6w/w2x3w/.xxxxxx. w - 1"),  # turned 90 degrees
        (START_8, "b8-a8@a7", "x.xxxxx./w6w/w6w/w6w/w6w/w6w/w6w/.xxxxxx. w - 1"),  # the pivot's next cell
        (AFTER_ONE, "swap", AFTER_ONE.replace("w - 1", "w s 2")),  # the pie rule: White still to move
        (AFTER_ONE.replace("w - 1", "w s 2"), "a6-e6@c8", AFTER_TWO.replace("x - 2", "x s 3")),
    ],
)
def test_moves(before, move, after):
    env = at(before)
    env.apply(env.string_to_action(move))
    assert env.position() == after
    assert not env.is_terminal() and env.returns() == [0.0, 0.0]


@pytest.mark.parametrize(
    "before,move",
    [
        (".xx.xxx./w6w/2x1w2w/w2x3w/w6w/w6w/w6w/.xxxxx.. x - 2", "c8-c4@e6"),  # c6 stands between c8 and c4
        (START_8, "c8-a8@a6"),  # b8 stands between the origin and the destination
        ("8/8/8/wxx5/8/8/8/7w x - 10", "c5-a7@a5"),  # the first stone seen (b5) must be an enemy: none seen
        ("8/8/8/wxx5/8/8/8/7w x - 10", "b5-a7@a5"),  # the pivot and the destination at different distances
        (START_8, "swap"),  # the swap only on White's first turn ...
        (AFTER_TWO, "swap"),  # ... and only then
        (AFTER_ONE.replace("w - 1", "w s 2"), "swap"),
    ],
)
def test_illegal_moves(before, move):
    env = at(before)
    with pytest.raises(RuleError, match="no legal action is named"):
        env.string_to_action(move)


@pytest.mark.parametrize(
    "before,params,move,after,returns",
    [
        (WIN_IN_ONE, {}, "g5-f4@g4", WON, [-1.0, 1.0]),
        (WIN_IN_ONE, {"max_neighbors": 2}, "g5-f4@g4", WON, None),  # d3 and e3 have 3 friends: not yet
        (WIN_IN_ONE, {"max_neighbors": (2, 3)}, "g5-f4@g4", WON, [-1.0, 1.0]),
        # after the swap player_0 plays White: the limit follows the seat
        (WIN_IN_ONE.replace("w - 11", "w s 10"), {"max_neighbors": (3, 2)}, "g5-f4@g4", WON[:-4] + "s 11", [1.0, -1.0]),
        (WIN_IN_ONE, {"max_plies": 12}, "g5-f4@g4", WON, [-1.0, 1.0]),  # the win is checked before the ply limit
        (WIN_IN_ONE, {"max_plies": 12}, "g5-h4@g4", "x7/8/8/8/6xw/2wwwx2/3w4/7x x - 12", [0.0, 0.0]),
        (STALEMATE_IN_ONE, {}, "h6-d6@f8", STALEMATED, [1.0, -1.0]),  # White has no twirl: White loses
        (STALEMATE_IN_ONE.replace("x - 10", "x s 11"), {}, "h6-d6@f8", STALEMATED[:-4] + "s 12", [-1.0, 1.0]),
        (STALEMATE_IN_ONE, {"max_plies": 11}, "h6-d6@f8", STALEMATED, [0.0, 0.0]),  # the ply limit comes first
        (START_8, {"max_plies": 1}, "d8-d5@a5", AFTER_ONE, [0.0, 0.0]),
        (AFTER_ONE, {"max_plies": 2}, "swap", AFTER_ONE.replace("w - 1", "w s 2"), [0.0, 0.0]),  # a ply too
    ],
)
def test_the_end(before, params, move, after, returns):
    env = at(before, **params)
    env.apply(env.string_to_action(move))
    assert env.position() == after
    assert env.is_terminal() is (returns is not None)
    if returns is not None:
        assert env.returns() == returns and env.legal_actions() == []
        assert at(after, **params).is_terminal()  # the end follows from the text alone


@pytest.mark.parametrize(
    "text,params,over",
    [
        (NOT_WON_YET, {}, False),  # the seed: f4 has 5 friendly neighbours
        (NOT_WON_YET, {"max_neighbors": 5}, True),
        (NOT_WON_YET, {"max_neighbors": (5, 3)}, False),  # White is player_1 ...
        (NOT_WON_YET.replace("x - 10", "x s 11"), {"max_neighbors": (5, 3)}, True),  # ... or player_0 after a swap
        (WON, {}, True),
        (STALEMATED, {}, True),
        (WIN_IN_ONE, {"max_plies": 11}, True),
    ],
)
def test_the_end_is_read_from_the_text(text, params, over):
    env = at(text, **params)
    assert env.is_terminal() is over
    assert env.position() == text


def test_the_start_positions():
    for size, text in ((9, START_9), (8, START_8)):
        env = envs.make("twirls", board_size=size)
        env.reset(seed=0)
        assert env.position() == text == env.position(1)
        copy = envs.make("twirls", board_size=size)
        copy.reset(options={"position": text})
        assert copy.legal_actions() == env.legal_actions()


def test_the_seeds_boards_read_as_written():
    """Its marked stones (capitals) are plain stones; ``..`` and ``1`` are the same empty cells as ``2`` and ``.``."""
    assert at(".xX.xxx./w6w/4w2w/W2x3w/w6w/w6w/w6w/1xxxxxx1 x - 2").position() == AFTER_TWO
    assert at(SEED_NOT_WON_YET + " x - 10").position() == NOT_WON_YET


@pytest.mark.parametrize(
    "text,message",
    [
        (START_8[:-2], "3 fields where the notation has 4"),
        (".xxxxxx./w6w/w6w/w6w/w6w/w6w/.xxxxxx. x - 0", "7 ranks separated by '/', expected 8"),
        (".xxxxxx./w7w/w6w/w6w/w6w/w6w/w6w/.xxxxxx. x - 0", "rank 7 has 9 cells, expected 8"),
        (".xxxxxx./w6/w6w/w6w/w6w/w6w/w6w/.xxxxxx. x - 0", "rank 7 has 7 cells"),
        (".xxxxxx./o6w/w6w/w6w/w6w/w6w/w6w/.xxxxxx. x - 0", "rank 7 holds 'o'"),
        (".xxxxxx./x6w/w6w/w6w/w6w/w6w/w6w/.xxxxxx. x - 0", "Black has 13 stones; each colour has 1 to 12"),
        ("x7/8/8/8/8/8/8/8 x - 0", "White has 0 stones"),
        (START_8.replace("x - 0", "w - 0"), "field 2 (to-move) 'w': after 0 plies Black is to move"),
        (START_8.replace("x - 0", "b - 0"), "field 2 (to-move) 'b': expected one of x, w"),
        (AFTER_ONE.replace("w - 1", "x s 2"), "after 2 plies and the swap White is to move"),
        (START_8.replace("x - 0", "x S 0"), "field 3 (swap) 'S': expected one of -, s"),
        (AFTER_ONE.replace("w - 1", "w s 1"), "field 4 (plies) '1': expected a whole number from 2 to 400"),
        (START_8.replace("x - 0", "x - 402"), "field 4 (plies) '402': expected a whole number from 0 to 400"),
        ("xx6/8/8/7w/8/8/8/8 x - 0", "Black, to move first, has no twirl"),
    ],
)
def test_bad_texts(text, message):
    env = envs.make("twirls", board_size=8)
    with pytest.raises(PositionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        env.reset(options={"position": text})


def test_the_docs_examples_read_back_as_written():
    """Every whole position the docs page shows (the env's docstring, section Position notation)."""
    section = envs.twirls_v0.__doc__.split("\n## Position notation\n")[1].split("\n## ")[0]
    texts = [t for t in re.findall(r"`([^`]+)`", section) if len(t.split()) == 4 and "..." not in t]
    assert len(texts) == 6
    for text in texts:
        env = envs.make("twirls", board_size=text.count("/") + 1)
        env.reset(options={"position": text})
        assert env.position() == text
