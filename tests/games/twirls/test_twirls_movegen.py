"""Twirls' compiled move generator (envs/twirls/movegen.py, numba) against the Python reference, and its input
checks."""

import numpy as np
import pytest

from envs.playthrough import record
from envs.registry import entry
from envs.twirls import movegen, rules
from envs.twirls.rules import TwirlsGame, python_twirl_mask, twirl_mask
from tests.helpers import GOLDEN


def both_masks(mine: int, theirs: int, size: int) -> tuple[int, np.ndarray, int, np.ndarray]:
    n = size * size * 32
    fast, slow = np.zeros(n + 1, dtype=bool), np.zeros(n + 1, dtype=bool)
    return twirl_mask(mine, theirs, size, fast), fast, python_twirl_mask(mine, theirs, size, slow), slow


def assert_same(mine: int, theirs: int, size: int) -> int:
    """The game's generator and the reference agree, for either side to move; returns the compiled count."""
    for a, b in ((mine, theirs), (theirs, mine)):
        count, fast, slow_count, slow = both_masks(a, b, size)
        assert np.array_equal(fast, slow), f"size {size}: {np.flatnonzero(fast ^ slow)} differ"
        assert count == slow_count == fast.sum()
        assert not fast[-1]  # the swap entry is left alone
    return both_masks(mine, theirs, size)[0]


@pytest.mark.parametrize("size", [9, 8])
def test_same_masks_along_random_games(size):
    """Every position of seeded random games (swaps taken half the time) up to and including the end."""
    game = TwirlsGame(board_size=size, max_plies=150)
    rng = np.random.default_rng(size)
    positions = swaps = ends = 0
    for _ in range(40):
        state = game.new_state(rng)
        while True:
            me = state.colour_to_move
            counted = assert_same(state.stones[me], state.stones[1 - me], size)
            positions += 1
            if state.over:
                ends += 1
                break
            mask = game.legal_mask(state)
            assert mask[:-1].sum() == counted
            if mask[game.swap_action] and rng.random() < 0.5:
                action = game.swap_action
                swaps += 1
            else:
                action = int(rng.choice(np.flatnonzero(mask)))
            game.apply(state, action, rng)
    assert positions > 2000 and swaps > 5 and ends == 40


@pytest.mark.parametrize("size", [9, 8])
def test_same_masks_on_random_boards(size):
    """Sparse to crowded boards, stones anywhere (edges, corners, no stones at all); the checked generator too."""
    rng = np.random.default_rng(100 + size)
    cells = size * size
    found_empty = False
    for stones in [0, 1, 2, 3, 5, 10, 20, 30, 40, 50, 60, cells - 1, cells]:
        for _ in range(25):
            chosen = rng.choice(cells, stones, replace=False)
            split = rng.integers(0, stones + 1)
            mine = sum(1 << int(c) for c in chosen[:split])
            theirs = sum(1 << int(c) for c in chosen[split:])
            count = assert_same(mine, theirs, size)
            found_empty |= count == 0
            checked = np.zeros(cells * 32, dtype=bool)
            assert movegen.twirl_mask(mine, theirs, size, checked) == count
            assert np.array_equal(checked, both_masks(mine, theirs, size)[1][:-1])
    assert found_empty


def test_stalemate_position_has_no_twirl_in_either():
    """test_twirls_rules.py's STALEMATE_IN_ONE: Black's h6-d6 on f8 leaves White (f7, f8, a2) no twirl."""
    game = TwirlsGame(board_size=8)
    state = game.from_text("3x.w2/5w2/7x/8/8/8/w7/2x5 x - 10")
    h6_nw_plus_90 = (game.tables.names.index("h6") * 8 + 7) * 4 + 3
    game.apply(state, game.check_action(state, h6_nw_plus_90), None)
    assert state.over and game.winners(state) == [0]
    assert assert_same(state.stones[rules.WHITE], state.stones[rules.BLACK], 8) == 0


@pytest.mark.parametrize("params", [{}, {"board_size": 8}])
def test_the_python_reference_plays_the_golden_game(params, monkeypatch):
    """With the reference generator in the compiled one's place the game is the same, ply by ply."""
    monkeypatch.setattr(rules, "twirl_mask", python_twirl_mask)
    assert record("twirls", seed=0, **params) == (GOLDEN / entry("twirls").golden_file(params)).read_text()


def test_cached_mask_is_shared_safely_by_copies():
    """copy_state shares the cached legal set; moving or swapping in the copy leaves the original alone."""
    game = TwirlsGame(board_size=8)
    state = game.new_state(None)
    game.apply(state, game.legal_actions(state)[0], None)
    before = game.legal_mask(state)
    assert before[game.swap_action]
    for action in (game.swap_action, game.legal_actions(state)[0]):
        other = game.copy_state(state)
        game.apply(other, action, None)
        game.legal_mask(other)[:] = True  # callers get a copy to scribble on
        assert np.array_equal(game.legal_mask(state), before)


# -- bad input -------------------------------------------------------------------

START = TwirlsGame().setup


def mask(size=9, extra=1, dtype=bool, writeable=True):
    out = np.zeros(size * size * 32 + extra, dtype=dtype)
    out.flags.writeable = writeable
    return out


@pytest.mark.parametrize(
    "args,message",
    [
        ((*START, 7, mask()), "size must be 8 or 9, got 7"),
        ((*START, 10, mask()), "size must be 8 or 9, got 10"),
        ((*START, "9", mask()), "size must be 8 or 9, got '9'"),
        ((*START, True, mask()), "size must be 8 or 9, got True"),
        ((*START, None, mask()), "size must be 8 or 9, got None"),
        ((*START, 9, mask(extra=-1)), r"out must be a bool array of 2592 \(or 2593\) entries, writable and contiguous"),
        ((*START, 9, mask(extra=2)), "out must be a bool array of 2592"),
        ((*START, 9, mask(8)), "out must be a bool array of 2592"),
        ((0, 0, 8, mask(9)), r"out must be a bool array of 2048 \(or 2049\)"),
        ((*START, 9, mask(dtype=np.float32)), "out must be a bool array"),
        ((*START, 9, mask(dtype=np.uint8)), "out must be a bool array"),
        ((*START, 9, None), "out must be a bool array"),
        ((*START, 9, bytearray(2593)), "out must be a bool array"),
        ((*START, 9, mask(writeable=False)), "writable and contiguous"),
        ((*START, 9, mask(extra=2593)[::2]), "writable and contiguous"),
        ((-1, START[1], 9, mask()), r"disjoint bitboards of the 9x9 board \(ints from 0 to 2\*\*81 - 1\), got -1"),
        ((START[0], -(1 << 70), 9, mask()), "disjoint bitboards of the 9x9 board"),
        ((1 << 81, 0, 9, mask()), "disjoint bitboards of the 9x9 board"),
        ((0, 1 << 64, 8, mask(8)), "disjoint bitboards of the 8x8 board"),
        ((0, 1 << 200, 8, mask(8)), "disjoint bitboards of the 8x8 board"),
        ((1.0, 0, 9, mask()), "disjoint bitboards of the 9x9 board .* got 1.0"),
        ((True, 0, 9, mask()), "disjoint bitboards of the 9x9 board .* got True"),
        ((START[0], START[0] | 1, 9, mask()), "disjoint bitboards; both hold cell 79"),
    ],
)
def test_bad_input_is_named(args, message):
    with pytest.raises(ValueError, match=message):
        movegen.twirl_mask(*args)


def test_accepted_input():
    assert movegen.twirl_mask(*START, np.int64(9), mask()) == movegen.twirl_mask(*START, 9, mask(extra=0))
    assert movegen.twirl_mask(np.uint64(START[0] & (2**64 - 1)), 0, 9, mask()) >= 0  # numpy ints
    assert movegen.twirl_mask((1 << 64) - 1, 0, 8, mask(8, extra=0)) == 0  # a full 8x8 board
    assert movegen.twirl_mask((1 << 81) - 1, 0, 9, mask()) == 0
