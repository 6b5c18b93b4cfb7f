"""The exact Swival solver (envs/swival/solver.py): against brute force, on hand-made cases, on bad input."""

import re

import numpy as np
import pytest

from envs.swival import solver
from envs.swival.rules import has_line, placements, play


def bits(cells):
    return sum(1 << c for c in cells)


@pytest.fixture(scope="module", autouse=True)
def small_table(tmp_path_factory):
    """Compile into a temporary cache (the user's ~/.cache stays untouched) and use a small table."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
        solver.init(18)
    solver.init_numba(18)
    yield


def random_position(rng, empties):
    """Both boards after random legal placements (the win action never taken), the next mover first."""
    me, op = 0, 0
    for _ in range(24 - empties):
        moves = placements(me, op)
        cell, direction = moves[rng.integers(len(moves))]
        m2, o2 = play(me, op, cell, direction)
        me, op = o2, m2
    return me, op


def test_solver_agrees_with_brute_force_on_random_positions():
    rng = np.random.default_rng(20240)
    seen = {-1: 0, 0: 0, 1: 0}
    for _ in range(300):
        me, op = random_position(rng, int(rng.integers(1, 7)))
        expected = solver.brute_force(me, op)
        assert solver.solve(me, op, seconds=10.0) == expected, (hex(me), hex(op))
        seen[expected] += 1
    assert all(seen.values()), seen  # losses, draws and wins all occur


# (label, mover's cells, opponent's cells, value for the mover)
CASES = [
    # spoke 0 (o0, m0, i0) is the mover's already: it takes the win action
    ("mover already has a line", [0, 8, 16, 3], [1, 2, 9, 4], 1),
    # outer ring + m0..m3 against m4..m7 + inner ring: no spoke for either, nothing left to place
    ("full board, no line for the mover", list(range(12)), list(range(12, 24)), 0),
    # the opponent holds spoke 0 plus o1/i1 and o7/i7: a left swivel takes its m0 to spoke 7, a right one
    # to spoke 1, and a placement without a swivel leaves spoke 0; so every move hands it a line
    # (only an existing line can be handed over: a move without a swivel leaves the opponent as it was)
    ("every move hands the opponent a line", [2, 3, 6, 12, 13, 22], [0, 1, 7, 8, 16, 17, 23], -1),
    # with m7, m0, m1 the mover completes spoke 0 on i0 and either swivel still leaves one of them on m0:
    # the line cannot be broken; every other move only draws or loses
    ("unbreakable line on i0", [0, 2, 4, 8, 9, 15, 19, 21], [1, 3, 5, 10, 11, 12, 17, 18, 20], 1),
    # the same with m6 instead of m7: a right swivel takes m0 away from spoke 0, so i0 only draws
    ("line broken by a right swivel", [0, 2, 4, 8, 9, 14, 19, 21], [1, 3, 5, 10, 11, 12, 17, 18, 20], 0),
    # i0 completes spoke 0 but fills the board: the opponent is to move with no line, a draw, not a win
    ("line with the last counter is a draw", [0, 1, 2, 6, 8, 11, 12, 15, 19, 21, 22],
     [3, 4, 5, 7, 9, 10, 13, 14, 17, 18, 20, 23], 0),
]


@pytest.mark.parametrize("label,mine,theirs,value", CASES, ids=[c[0] for c in CASES])
def test_hand_made_positions(label, mine, theirs, value):
    me, op = bits(mine), bits(theirs)
    assert not me & op
    assert solver.brute_force(me, op) == value
    assert solver.solve(me, op) == value


def test_numba_search_is_the_c_search():
    """Same value and same node count (the same search, move order and table) on the hand-made cases and on
    random positions of 1-13 empty cells."""
    positions = [(bits(mine), bits(theirs)) for _, mine, theirs, _ in CASES]
    rng = np.random.default_rng(77)
    positions += [random_position(rng, int(rng.integers(1, 14))) for _ in range(150)]
    for me, op in positions:
        value, count = solver.solve(me, op), solver.nodes()
        assert (solver.solve_numba(me, op), solver.nodes_numba()) == (value, count), (hex(me), hex(op))


def test_unbreakable_line_is_the_only_win():
    me, op = bits(CASES[3][1]), bits(CASES[3][2])
    assert not has_line(me)
    winning = []
    for cell, direction in placements(me, op):
        m2, o2 = play(me, op, cell, direction)
        if solver.brute_force(o2, m2) == -1:  # the opponent, to move, loses
            winning.append((cell, direction))
    assert winning == [(16, 0)]


# (label, mine, theirs, words in the message)
BAD_BOARDS = [
    ("overlap", bits([0, 5]), bits([5, 6]), "overlap on cells [5]"),
    ("mine beyond 24 bits", 1 << 24, 0, "mine has bits outside the 24 cells"),
    ("theirs beyond 24 bits", 0, bits([3]) | 1 << 30, "theirs has bits outside the 24 cells"),
    ("negative board", -1, 0, "mine has bits outside the 24 cells"),
    ("not an int", 1.0, 0, "mine must be an int"),
]


@pytest.mark.parametrize("label,mine,theirs,words", BAD_BOARDS, ids=[c[0] for c in BAD_BOARDS])
def test_bad_boards_raise(label, mine, theirs, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        solver.solve(mine, theirs)
    with pytest.raises(ValueError, match=re.escape(words)):
        solver.brute_force(mine, theirs)


def test_time_limit_raises_timeout():
    with pytest.raises(TimeoutError, match="0.01 s time limit"):
        solver.solve(0, 0, seconds=0.01)  # the empty board needs about 10 minutes
    assert solver.nodes() > 0
    assert solver.solve(bits([0, 8, 16]), bits([1, 2])) == 1  # and the next solve is unaffected


def test_nonpositive_time_limit_rejected():
    with pytest.raises(ValueError, match="seconds must be positive"):
        solver.solve(0, 0, seconds=0)


def test_build_compiles_only_when_source_is_newer(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    library = solver.build()
    assert library == tmp_path / "swgym" / solver.LIBRARY_NAME and library.exists()

    def no_gcc_run(*args, **kwargs):
        raise AssertionError("recompiled although the library is up to date")

    monkeypatch.setattr(solver.subprocess, "run", no_gcc_run)
    assert solver.build() == library


def test_build_without_gcc(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(solver.shutil, "which", lambda name: None)
    with pytest.raises(RuntimeError, match="gcc was not found"):
        solver.build()


def test_build_reports_compile_errors(tmp_path, monkeypatch):
    broken = tmp_path / "broken.c"
    broken.write_text("int sw_solve(void) { return missing; }\n")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(solver, "SOURCE", broken)
    with pytest.raises(RuntimeError, match="gcc failed to compile .*missing"):
        solver.build()
    assert not list((tmp_path / "cache" / "swgym").iterdir())  # no half-written library left behind
