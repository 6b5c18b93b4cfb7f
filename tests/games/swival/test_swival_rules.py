"""Swival rules as tables: (position, action, expected)."""

import numpy as np
import pytest

from envs.core.game import RuleError
from envs.swival.rules import FULL, WIN_ACTION, SwivalGame, SwivalState, has_line

GAME = SwivalGame()
RNG = np.random.default_rng(0)


def bits(cells):
    return sum(1 << c for c in cells)


def position(red=(), black=(), to_move=0):
    return SwivalState(boards=[bits(red), bits(black)], to_move=to_move)


def cells_of(state, seat):
    return sorted(c for c in range(24) if state.boards[seat] >> c & 1)


def act(cell, swivel=0):
    return cell * 3 + swivel


# (red, black, to_move, action, red after, black after)
SWIVEL_CASES = [
    # left = anticlockwise: middle k -> k-1; the counter on m0 (cell 8) goes to m7 (cell 15)
    ("left wraps m0 to m7", [8], [], 0, act(0, 1), [0, 15], []),
    ("right moves m0 to m1", [8], [], 0, act(0, 2), [0, 9], []),
    ("right wraps m7 to m0", [15], [], 0, act(3, 2), [3, 8], []),
    ("opponent's middle counters turn too", [8], [12, 1], 0, act(2, 1), [2, 15], [1, 11]),
    ("the counter just placed on the middle turns with it", [0], [], 0, act(10, 2), [0, 11], []),
    ("outer and inner rings never move", [8, 16], [7, 23], 0, act(4, 1), [4, 15, 16], [7, 23]),
    ("no swivel leaves the middle alone", [8], [9], 0, act(5, 0), [5, 8], [9]),
]


@pytest.mark.parametrize(
    "label,red,black,to_move,action,red_after,black_after", SWIVEL_CASES, ids=[c[0] for c in SWIVEL_CASES]
)
def test_swivel_moves_middle_counters(label, red, black, to_move, action, red_after, black_after):
    state = position(red, black, to_move)
    GAME.check_action(state, action)
    GAME.apply(state, action, RNG)
    assert cells_of(state, 0) == red_after
    assert cells_of(state, 1) == black_after


# (red, black, to_move, action, legal?)
PERMISSION_CASES = [
    ("first counter: no swivel", [], [], 0, act(8, 1), False),
    ("first counter on the middle: still only one counter", [], [], 0, act(8, 2), False),
    ("second counter, none on the middle: no swivel", [0], [], 0, act(1, 1), False),
    ("second counter placed on the middle earns it", [0], [], 0, act(9, 1), True),
    ("second counter anywhere with one already on the middle", [8], [], 0, act(0, 2), True),
    ("opponent's middle counters do not count", [0], [8], 0, act(1, 1), False),
    ("plain placement on an empty cell", [0], [8], 0, act(1, 0), True),
    ("placement on an occupied cell", [0], [8], 0, act(8, 0), False),
    ("centre without a line", [0, 8], [1], 0, WIN_ACTION, False),
    ("centre with a line", [0, 8, 16], [1, 2], 1, WIN_ACTION, False),
    ("centre with a line, own turn", [0, 8, 16], [1, 2], 0, WIN_ACTION, True),
    ("placing stays legal with a line", [0, 8, 16], [1, 2], 0, act(3, 0), True),
]


@pytest.mark.parametrize("label,red,black,to_move,action,legal", PERMISSION_CASES, ids=[c[0] for c in PERMISSION_CASES])
def test_legality(label, red, black, to_move, action, legal):
    state = position(red, black, to_move)
    assert bool(GAME.legal_mask(state)[action]) is legal
    if not legal:
        with pytest.raises(RuleError, match=f"illegal action {action}"):
            GAME.check_action(state, action)


def test_win_action_legal_exactly_when_mover_has_a_line():
    rng = np.random.default_rng(3)
    for _ in range(200):
        state = GAME.new_state(rng)
        while not state.over:
            mask = GAME.legal_mask(state)
            assert mask[WIN_ACTION] == has_line(state.boards[state.to_move])
            legal = np.flatnonzero(mask)
            GAME.apply(state, int(legal[rng.integers(legal.size)]), rng)


def test_line_made_on_your_move_can_be_swivelled_apart():
    # Red completes spoke 0 (o0, m0, i0); Black, with a counter on the middle, swivels it apart.
    state = position(red=[0, 16, 3], black=[12, 5], to_move=0)
    GAME.apply(state, act(8), RNG)
    assert has_line(state.boards[0])
    GAME.apply(state, act(6, 1), RNG)  # Black: place o6, swivel left: m0 -> m7
    assert not has_line(state.boards[0])
    assert not GAME.legal_mask(state)[WIN_ACTION]


def test_unbroken_line_wins_at_the_start_of_the_next_turn():
    state = position(red=[0, 16, 3], black=[5, 6], to_move=0)
    GAME.apply(state, act(8), RNG)
    GAME.apply(state, act(7), RNG)  # Black has no middle counter and places off it: no swivel possible
    assert GAME.legal_mask(state)[WIN_ACTION]
    rewards = GAME.apply(state, WIN_ACTION, RNG)
    assert state.over and GAME.winners(state) == [0] and rewards == [1.0, -1.0]


def test_swivel_can_complete_a_line():
    # Red has o1, i1 and m0: swivelling right turns m0 into m1 and makes spoke 1.
    state = position(red=[1, 17, 8], black=[2, 3], to_move=0)
    GAME.apply(state, act(20, 2), RNG)
    assert has_line(state.boards[0])


def test_draw_on_a_full_board_without_a_line():
    # Spokes alternate owners ring by ring, so nobody has a spoke; Red fills the last cell.
    red = [c for c in range(24) if (c // 8 + c % 8) % 2 == 0]
    black = [c for c in range(24) if (c // 8 + c % 8) % 2 == 1]
    last = red.pop()
    state = position(red, black, to_move=0)
    GAME.apply(state, act(last), RNG)
    assert state.boards[0] | state.boards[1] == FULL
    assert state.over and GAME.winners(state) == []


def test_full_board_with_a_line_leaves_only_the_centre():
    red = [c for c in range(24) if c % 8 in (0, 2, 4, 6)][:11] + [22]
    black = [c for c in range(24) if c not in red]
    last = black.pop()
    state = position(red, black, to_move=1)
    GAME.apply(state, act(last), RNG)
    assert has_line(state.boards[0]) and not state.over
    assert np.flatnonzero(GAME.legal_mask(state)).tolist() == [WIN_ACTION]


def test_swival_has_no_rule_parameters():
    with pytest.raises(TypeError, match="unknown keyword.*board_size"):
        SwivalGame(board_size=9)
