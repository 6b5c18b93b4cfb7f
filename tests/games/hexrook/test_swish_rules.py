"""Swish and Squeeze rules: captures, illegal moves, set-up, the choice, the end (RULINGS "Swish and Squeeze")."""

import numpy as np
import pytest

import envs
from envs.core.game import RuleError
from envs.hexrook.board import BEAD, BLACK, EMPTY, PHASE_CHOICE, PHASE_COLOUR, PHASE_PLAY, PHASE_SETUP, WHITE, hex_board
from envs.squeeze.rules import SqueezeGame
from envs.swish.rules import SwishGame

GAMES = {"swish": SwishGame, "squeeze": SqueezeGame}


def position(game, white, black, beads, stores=(0, 0), plies=0):
    """A play position: player_0 plays white and is to move."""
    state = game.state_from(white, black, beads)
    state.phase, state.colour, state.to_move = PHASE_PLAY, [WHITE, BLACK], 0
    state.stores, state.plies = list(stores), plies
    return state


def move(game, frm, to):
    """The move action from cell ``frm`` to cell ``to`` (names) along one of the six rays."""
    h = game.hex
    a, b = h.by_name[frm], h.by_name[to]
    for d, ray in enumerate(h.rays[a]):
        if b in ray:
            return game.move_action(a, d, ray.index(b) + 1)
    raise AssertionError(f"{to} is not on a line from {frm}")


def names(game, cells):
    return sorted(game.hex.names[c] for c in cells)


def landings(game, state, frm):
    """Names of every legal landing cell of the rook on ``frm``."""
    mask = game.legal_mask(state)
    h = game.hex
    out = []
    for d, ray in enumerate(h.rays[h.by_name[frm]]):
        for i, c in enumerate(ray):
            if mask[game.move_action(h.by_name[frm], d, i + 1)]:
                out.append(h.names[c])
    return sorted(out)


# -- geometry and encoding -------------------------------------------------------------------
def test_board_geometry_and_names():
    h = hex_board(4)
    assert h.n == 61 and len(h.edge_cells) == 24 and len(h.inner_cells) == 37
    assert h.coords[0] == (0, -4) and h.names[0] == "a1"  # order r then q
    assert h.coords[h.by_name["e5"]] == (0, 0)
    centre = h.by_name["e5"]
    first = [h.names[ray[0]] for ray in h.rays[centre]]
    assert first == ["e6", "d5", "d4", "e4", "f4", "f5"]  # directions 0..5 of RULINGS


@pytest.mark.parametrize("radius,actions", [(3, 37 * 36 + 111 + 3), (4, 61 * 48 + 183 + 3), (5, 91 * 60 + 273 + 3)])
def test_action_space_size(radius, actions):
    for cls in GAMES.values():
        assert cls(radius=radius).num_actions == actions


def test_action_encoding():
    g = SwishGame()
    assert g.move_action(0, 0, 1) == 0
    assert g.move_action(30, 3, 4) == (30 * 6 + 3) * 8 + 3
    assert g.decode_move((30 * 6 + 3) * 8 + 3) == (30, 3, 4)
    assert (g.place_base, g.choice_base) == (2928, 2928 + 183)
    state = g.new_state(np.random.default_rng(0))
    assert [g.action_name(state, g.choice_base + i) for i in range(3)] == ["move first", "white", "black"]
    assert g.action_name(state, g.place_base + 3 * 30 + 2) == "o@e5"


# -- Swish ----------------------------------------------------------------------------------------
# (white rooks, black rooks, beads, move from, move to, taken cells, white store after, black rooks after)
SWISH_CAPTURES = [
    ("slide", ["e1"], ["a5"], [], "e1", "e4", [], 0, ["a5"]),
    ("leap one bead", ["e1"], ["a5"], ["e3"], "e1", "e4", ["e3"], 1, ["a5"]),
    ("land anywhere beyond", ["e1"], ["a5"], ["e3"], "e1", "e9", ["e3"], 1, ["a5"]),
    ("slide then leap a row", ["e1"], ["a5"], ["e3", "e4", "e5"], "e1", "e7", ["e3", "e4", "e5"], 3, ["a5"]),
    ("leap an enemy rook", ["e1"], ["e3", "a5"], [], "e1", "e5", ["e3"], 0, ["a5"]),
    ("leap a row of enemy rooks", ["e1"], ["e3", "e4", "a5"], [], "e1", "e6", ["e3", "e4"], 0, ["a5"]),
    ("diagonal leap", ["i1"], ["a5"], ["g3", "f4"], "i1", "d5", ["f4", "g3"], 2, ["a5"]),
]


@pytest.mark.parametrize(
    "case,white,black,beads,frm,to,taken,store,black_after", SWISH_CAPTURES, ids=[c[0] for c in SWISH_CAPTURES]
)
def test_swish_captures(case, white, black, beads, frm, to, taken, store, black_after):
    g = SwishGame()
    s = position(g, white, black, beads)
    action = move(g, frm, to)
    assert g.legal_mask(s)[action]
    g.apply(s, action, None)
    assert names(g, s.last_captures) == sorted(taken)
    assert s.stores == [store, 0]
    assert names(g, s.rooks[BLACK]) == sorted(black_after)
    assert s.board[g.hex.by_name[to]] == 1 and s.board[g.hex.by_name[frm]] == EMPTY
    assert all(s.board[g.hex.by_name[c]] == EMPTY for c in taken)
    assert s.to_move == 1 and s.plies == 1


# (white rooks, black rooks, beads, rook, legal landings in direction east)
SWISH_ILLEGAL = [
    ("mixed row bead then rook", ["e1"], ["e4", "a5"], ["e3"], ["e2"]),
    ("mixed row rook then bead", ["e1"], ["e3", "a5"], ["e4"], ["e2"]),
    ("own rook blocks", ["e1", "e3"], ["a5"], [], ["e2"]),
    ("own rook behind beads", ["e1", "e4"], ["a5"], ["e3"], ["e2"]),
    ("no landing cell", ["e1"], ["a5"], ["e7", "e8", "e9"], ["e2", "e3", "e4", "e5", "e6"]),
    ("only one group", ["e1"], ["a5"], ["e3", "e5"], ["e2", "e4"]),
    ("landing stops at next piece", ["e1"], ["a5", "e6"], ["e3"], ["e2", "e4", "e5"]),
]


@pytest.mark.parametrize("case,white,black,beads,expected", SWISH_ILLEGAL, ids=[c[0] for c in SWISH_ILLEGAL])
def test_swish_illegal_moves(case, white, black, beads, expected):
    g = SwishGame()
    s = position(g, white, black, beads)
    east = g.hex.rays[g.hex.by_name["e1"]][0]
    mask = g.legal_mask(s)
    legal = sorted(g.hex.names[east[i]] for i in range(len(east)) if mask[g.move_action(g.hex.by_name["e1"], 0, i + 1)])
    assert legal == sorted(expected)


def test_move_names():
    g = SwishGame()
    s = position(g, ["e1"], ["a5"], ["e3"])
    assert g.action_name(s, move(g, "e1", "e2")) == "e1-e2"
    assert g.action_name(s, move(g, "e1", "e5")) == "e1xe5"


def test_swish_illegal_action_raises():
    g = SwishGame()
    s = position(g, ["e1"], ["e4", "a5"], ["e3"])
    with pytest.raises(RuleError, match="illegal action"):
        g.check_action(s, move(g, "e1", "e6"))


# -- Squeeze ------------------------------------------------------------------------------------
# (white rooks, black rooks, beads, move from, move to, taken, white store after, black rooks after)
SQUEEZE_CAPTURES = [
    ("bead between", ["e5", "a3"], ["i5"], ["e4"], "a3", "e3", ["e4"], 1, ["i5"]),
    ("row of beads", ["e7", "a3"], ["i5"], ["e4", "e5", "e6"], "a3", "e3", ["e4", "e5", "e6"], 3, ["i5"]),
    ("enemy rook captured and removed", ["e5", "a3"], ["e4", "i5"], [], "a3", "e3", ["e4"], 0, ["i5"]),
    ("row of enemy rooks", ["e6", "a3"], ["e4", "e5", "i5"], [], "a3", "e3", ["e4", "e5"], 0, ["i5"]),
    (
        "two directions of beads",
        ["e7", "b5", "g5"],
        ["i1"],
        ["e6", "d5", "c5"],
        "g5",
        "e5",
        ["c5", "d5", "e6"],
        3,
        ["i1"],
    ),
    (
        "bead and rook in different directions",
        ["e7", "e3", "g5"],
        ["e4", "i1"],
        ["e6"],
        "g5",
        "e5",
        ["e4", "e6"],
        1,
        ["i1"],
    ),
    ("mixed row not taken", ["e6", "a3"], ["e5", "i5"], ["e4"], "a3", "e3", [], 0, ["e5", "i5"]),
    ("row not closed", ["e6", "a3"], ["i5"], ["e4"], "a3", "e3", [], 0, ["i5"]),
    ("row closed by an enemy rook", ["a3"], ["e5", "i5"], ["e4"], "a3", "e3", [], 0, ["e5", "i5"]),
    ("row running to the edge", ["a3"], ["i5"], ["e2", "e1"], "a3", "e3", [], 0, ["i5"]),
    ("moving between enemy rooks is safe", ["a3"], ["e2", "e4"], [], "a3", "e3", [], 0, ["e2", "e4"]),
    ("one-step move", ["e5", "d3"], ["i5"], ["e4"], "d3", "e3", ["e4"], 1, ["i5"]),
]


@pytest.mark.parametrize(
    "case,white,black,beads,frm,to,taken,store,black_after", SQUEEZE_CAPTURES, ids=[c[0] for c in SQUEEZE_CAPTURES]
)
def test_squeeze_captures(case, white, black, beads, frm, to, taken, store, black_after):
    g = SqueezeGame()
    s = position(g, white, black, beads)
    action = move(g, frm, to)
    assert g.legal_mask(s)[action]
    # the bots' fast capture table agrees with the rule
    own = 1
    fast = {a: t for a, _, _, t in g.capture_moves(s.board, s.rooks[WHITE], own, 2)}
    assert sorted(fast[action]) == sorted(g.captures(s.board, *g.decode_move(action), own, 2))
    g.apply(s, action, None)
    assert names(g, s.last_captures) == sorted(taken)
    assert s.stores == [store, 0]
    assert names(g, s.rooks[BLACK]) == sorted(black_after)
    assert all(s.board[g.hex.by_name[c]] == EMPTY for c in taken)


# (white rooks, black rooks, beads, rook, its legal landings)
SQUEEZE_SLIDES = [
    (
        "open board from the corner",
        ["e1"],
        ["a5"],
        [],
        "e1",
        ["a1", "b1", "c1", "d1", "e2", "e3", "e4", "e5", "e6", "e7", "e8", "e9", "f1", "g1", "h1", "i1"],
    ),
    ("no passing over beads or rooks", ["e1", "c1"], ["e4"], ["f1"], "e1", ["d1", "e2", "e3"]),
]


@pytest.mark.parametrize("case,white,black,beads,rook,expected", SQUEEZE_SLIDES, ids=[c[0] for c in SQUEEZE_SLIDES])
def test_squeeze_slides_only(case, white, black, beads, rook, expected):
    g = SqueezeGame()
    assert landings(g, position(g, white, black, beads), rook) == expected


# -- the end ---------------------------------------------------------------------------------------
# (game, params, white, black, beads, stores, plies, from, to, winner or None, over)
END_CASES = [
    ("swish", {}, ["e1"], ["a5"], ["e3"], (9, 0), 0, "e1", "e4", 0, True),  # 10 beads
    ("swish", {}, ["e1"], ["a5"], ["e3", "e4"], (8, 9), 0, "e1", "e6", 0, True),  # 8 + 2
    ("swish", {}, ["e1"], ["a5"], ["e3"], (8, 0), 0, "e1", "e4", None, False),  # 9: play on
    ("swish", {"beads_to_win": 3}, ["e1"], ["a5"], ["e3"], (2, 0), 0, "e1", "e4", 0, True),
    ("squeeze", {}, ["e7", "a3"], ["i5"], ["e4", "e5", "e6"], (7, 0), 0, "a3", "e3", 0, True),
    ("swish", {}, ["e1"], ["e3"], [], (0, 0), 0, "e1", "e4", 0, True),  # last rook taken
    ("squeeze", {}, ["e5", "a3"], ["e4"], [], (0, 0), 0, "a3", "e3", 0, True),  # last rook taken
    # black's only rook is walled in: black cannot move and loses
    ("squeeze", {}, ["b6"], ["a1"], ["a2", "b1"], (0, 0), 0, "b6", "b2", 0, True),
    (
        "swish",
        {},
        ["b6"],
        ["a1"],
        ["a2", "a3", "a4", "a5", "b1", "c1", "d1", "e1", "c3"],
        (0, 0),
        0,
        "b6",
        "b2",
        0,
        True,
    ),
    # ply limit: a draw, counted after the win check and before the no-move check
    ("squeeze", {"max_plies": 5}, ["b6"], ["a1"], ["a2", "b1"], (0, 0), 4, "b6", "b2", None, True),
    ("swish", {"max_plies": 5}, ["e1"], ["a5"], ["e3"], (9, 0), 4, "e1", "e4", 0, True),
    ("swish", {"max_plies": 5}, ["e1"], ["a5"], [], (0, 0), 4, "e1", "e4", None, True),
    ("swish", {"max_plies": 5}, ["e1"], ["a5"], [], (0, 0), 3, "e1", "e4", None, False),
]


@pytest.mark.parametrize("name,params,white,black,beads,stores,plies,frm,to,winner,over", END_CASES)
def test_end_of_game(name, params, white, black, beads, stores, plies, frm, to, winner, over):
    g = GAMES[name](**params)
    s = position(g, white, black, beads, stores=stores, plies=plies)
    rewards = g.apply(s, g.check_action(s, move(g, frm, to)), None)
    assert s.over is over
    assert g.winners(s) == ([] if winner is None else [winner])
    expected = [0.0, 0.0] if winner is None else [1.0 if seat == winner else -1.0 for seat in (0, 1)]
    assert rewards == expected
    if over:
        assert not g.legal_mask(s).any()


def test_no_move_loss_through_the_env():
    env = envs.make_raw("squeeze")
    env.reset(seed=0)
    g = env.game
    env.game_state = position(g, ["b6"], ["a1"], ["a2", "b1"])
    env.agent_selection = "player_0"
    env._mask_cache = None
    env.step(move(g, "b6", "b2"))
    assert env.rewards == {"player_0": 1.0, "player_1": -1.0}
    assert all(env.terminations.values())


# -- set-up ----------------------------------------------------------------------------------------
def test_marquisian_first_mask_edges_and_inner():
    g = SwishGame(setup="marquisian")
    s = g.new_state(np.random.default_rng(0))
    assert s.phase == PHASE_SETUP and s.to_move == 0
    mask = g.legal_mask(s)
    assert not mask[: g.place_base].any() and not mask[g.choice_base :].any()
    placed = np.flatnonzero(mask) - g.place_base
    rooks = {(c, k) for c, k in map(lambda a: divmod(int(a), 3), placed) if k < 2}
    beads = {c for c, k in map(lambda a: divmod(int(a), 3), placed) if k == 2}
    assert rooks == {(c, k) for c in g.hex.edge_cells for k in (0, 1)}
    assert beads == set(g.hex.inner_cells)
    assert mask.sum() == 2 * 24 + 37


# (placements before, action to test as (cell, kind), legal?)
SETUP_CASES = [
    ([], ("a1", 0), True),
    ([], ("e5", 0), False),  # rook on an inner cell
    ([], ("a1", 2), False),  # bead on the edge
    ([], ("e5", 2), True),
    ([("a1", 0)], ("a1", 1), False),  # occupied
    ([("a1", 0)], ("a2", 0), True),
    ([("a1", 0), ("a2", 0), ("a3", 0)], ("a4", 0), False),  # a fourth white rook
    ([("a1", 0), ("a2", 0), ("a3", 0)], ("a4", 1), True),
    ([("a1", 1), ("a2", 1), ("a3", 1)], ("a4", 1), False),  # a fourth black rook
]


@pytest.mark.parametrize("before,action,legal", SETUP_CASES)
def test_marquisian_placement_legality(before, action, legal):
    g = SqueezeGame(setup="marquisian")
    s = g.new_state(np.random.default_rng(0))
    for cell, kind in before:
        g.apply(s, g.check_action(s, g.place_base + 3 * g.hex.by_name[cell] + kind), None)
    assert bool(g.legal_mask(s)[g.place_base + 3 * g.hex.by_name[action[0]] + action[1]]) is legal


def test_marquisian_full_setup_then_choice():
    g = SwishGame(setup="marquisian")
    s = g.new_state(np.random.default_rng(0))
    plan = (
        [(c, 0) for c in g.hex.edge_cells[:3]]
        + [(c, 1) for c in g.hex.edge_cells[3:6]]
        + [(c, 2) for c in g.hex.inner_cells[:19]]
    )
    for cell, kind in plan:
        assert s.phase == PHASE_SETUP and s.to_move == 0
        assert g.apply(s, g.check_action(s, g.place_base + 3 * cell + kind), None) == [0.0, 0.0]
    assert s.phase == PHASE_CHOICE and s.to_move == 1 and s.plies == 0
    assert s.board.count(BEAD) == 19 and len(s.rooks[0]) == 3 and len(s.rooks[1]) == 3
    assert s.to_place() == [0, 0, 0]


@pytest.mark.parametrize("seed", range(5))
def test_random_setup_counts_and_places(seed):
    g = SqueezeGame()
    s = g.new_state(np.random.default_rng(seed))
    assert s.phase == PHASE_CHOICE and s.to_move == 1
    assert s.board.count(BEAD) == 19
    assert all(not g.hex.is_edge[c] for c in range(g.hex.n) if s.board[c] == BEAD)
    for colour in (0, 1):
        assert len(s.rooks[colour]) == 3 and all(g.hex.is_edge[c] for c in s.rooks[colour])
        assert all(s.board[c] == colour + 1 for c in s.rooks[colour])
    again = g.new_state(np.random.default_rng(seed))
    assert again.board == s.board


def test_fixed_setup_is_documented_position():
    g = SwishGame(setup="fixed")
    s = g.new_state(np.random.default_rng(0))
    assert names(g, s.rooks[WHITE]) == ["a1", "e9", "i1"]
    assert names(g, s.rooks[BLACK]) == ["a5", "e1", "i5"]
    assert sorted(c for c in range(g.hex.n) if s.board[c] == BEAD) == [c for c in range(g.hex.n) if g.hex.ring[c] <= 2]


# -- the choice -------------------------------------------------------------------------------------
# (player_1's choice, player_0's colour pick or None, colour of player_0, colour of player_1, first mover)
CHOICE_CASES = [
    ("move first", "white", WHITE, BLACK, 1),
    ("move first", "black", BLACK, WHITE, 1),
    ("white", None, BLACK, WHITE, 0),
    ("black", None, WHITE, BLACK, 0),
]


@pytest.mark.parametrize("choice,pick,c0,c1,first", CHOICE_CASES)
def test_choice_phase(choice, pick, c0, c1, first):
    g = SwishGame(setup="fixed")
    s = g.new_state(np.random.default_rng(0))
    index = {"move first": 0, "white": 1, "black": 2}
    mask = g.legal_mask(s)
    assert np.flatnonzero(mask).tolist() == [g.choice_base, g.choice_base + 1, g.choice_base + 2]
    g.apply(s, g.check_action(s, g.choice_base + index[choice]), None)
    if pick is not None:
        assert s.phase == PHASE_COLOUR and s.to_move == 0
        assert np.flatnonzero(g.legal_mask(s)).tolist() == [g.choice_base + 1, g.choice_base + 2]
        g.apply(s, g.check_action(s, g.choice_base + index[pick]), None)
    assert s.phase == PHASE_PLAY and s.colour == [c0, c1] and s.to_move == first and s.plies == 0
    mask = g.legal_mask(s)
    assert mask[: g.place_base].any() and not mask[g.place_base :].any()
    cell, _, _ = g.decode_move(int(np.flatnonzero(mask)[0]))
    assert s.board[cell] == s.colour[first] + 1  # the first mover moves its own rooks


# -- observation and parameters ---------------------------------------------------------------------
def test_observation_from_each_side():
    env = envs.make_raw("squeeze", setup="fixed")
    env.reset(seed=0)
    n = 61
    env.step(env.game.choice_base + 2)  # player_1 takes black; player_0 is white, moves first
    o0 = env.observe("player_0")["observation"]
    o1 = env.observe("player_1")["observation"]
    s = env.game_state
    white = [c for c in s.rooks[WHITE]]
    assert all(o0[c] == 1 for c in white) and all(o1[n + c] == 1 for c in white)
    assert o0[5 * n + 3] == 1 and o0[5 * n + 4] == 1 and o1[5 * n + 5] == 1
    assert o0[5 * n + 6] == 1 and o1[5 * n + 6] == 0
    assert np.array_equal(o0[2 * n : 5 * n], o1[2 * n : 5 * n])
    assert o0.shape == (5 * n + 13,) and o0.dtype == np.float32 and o0.min() >= 0 and o0.max() <= 1


@pytest.mark.parametrize(
    "params,word",
    [
        ({"radius": 2}, "radius"),
        ({"radius": 9}, "radius"),
        ({"radius": "4"}, "radius"),
        ({"radius": True}, "radius"),
        ({"setup": "pie"}, "setup"),
        ({"max_plies": 0}, "max_plies"),
        ({"beads_to_win": 20}, "beads_to_win"),
        ({"beads_to_win": 0}, "beads_to_win"),
    ],
)
def test_bad_parameters_are_named(params, word):
    for name in GAMES:
        with pytest.raises(ValueError, match=word):
            envs.make(name, **params)


@pytest.mark.parametrize("name", list(GAMES))
@pytest.mark.parametrize("radius", [3, 5])
def test_other_radii_play_to_the_end(name, radius):
    g = GAMES[name](radius=radius, max_plies=60)
    rng = np.random.default_rng(radius)
    s = g.new_state(rng)
    while not s.over:
        legal = np.flatnonzero(g.legal_mask(s))
        g.apply(s, int(rng.choice(legal)), rng)
    assert s.plies <= 60


# -- bots ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name,white,black,beads,stores,win",
    [
        ("swish", ["e1", "a1"], ["a5", "i5"], ["e3", "c3"], (9, 0), ("e1", "e4")),
        ("squeeze", ["e5", "a3", "i1"], ["i5", "a5"], ["e4", "b2"], (9, 0), ("a3", "e3")),
        ("squeeze", ["e5", "a3", "i1"], ["e4"], ["b2"], (0, 0), ("a3", "e3")),  # takes the last rook
    ],
)
def test_bots_take_a_winning_capture(name, white, black, beads, stores, win):
    from envs.hexrook.bots import BOTS

    g = GAMES[name]()
    s = position(g, white, black, beads, stores=stores)
    for level in ("easy", "medium"):
        bot = BOTS[level](g, seed=0)
        action = bot.choose(s, g.legal_mask(s))
        after = g.copy_state(s)
        g.apply(after, action, None)
        assert after.winner == 0, (level, g.action_name(s, action))
    assert g.legal_mask(s)[move(g, *win)]


def test_medium_avoids_handing_over_a_rook():
    """Swish: white may leap the bead e7, but only to e8, where black d8 leaps it; medium declines."""
    from envs.hexrook.bots import MediumBot

    g = SwishGame()
    s = position(g, ["e1"], ["d8", "e9", "a5"], ["e7"])
    greedy = move(g, "e1", "e8")
    assert g.captures(s.board, *g.decode_move(greedy), 1, 2) == [g.hex.by_name["e7"]]
    action = MediumBot(g, seed=0).choose(s, g.legal_mask(s))
    assert action != greedy
    after = g.copy_state(s)
    g.apply(after, action, None)
    for _, _, _, taken in g.capture_moves(after.board, after.rooks[BLACK], 2, 1):
        assert all(after.board[c] != 1 for c in taken), g.action_name(s, action)


@pytest.mark.parametrize("phase_actions", [(), (0,)])
def test_medium_choice_and_colour_pick(phase_actions):
    from envs.hexrook.bots import MediumBot

    g = SqueezeGame(setup="fixed")
    s = g.new_state(np.random.default_rng(0))
    for a in phase_actions:
        g.apply(s, g.choice_base + a, None)
    mask = g.legal_mask(s)
    action = MediumBot(g, seed=0).choose(s, mask)
    assert mask[action] and action >= g.choice_base


@pytest.mark.parametrize("name", list(GAMES))
def test_medium_beats_easy(name):
    from envs.play import play_series

    result = play_series(name, ["medium", "easy"], 12, seed=3)
    assert result.wins[0] >= 9


def _reference_moves(game, state):
    """Every (action, taken cells) straight from the rules text, walking the rays cell by cell."""
    colour = state.colour[state.to_move]
    own, enemy = colour + 1, 2 - colour
    board, out = state.board, {}
    for cell in state.rooks[colour]:
        for d, ray in enumerate(game.hex.rays[cell]):
            for i, c in enumerate(ray):
                if board[c] == EMPTY:  # a slide
                    taken = [] if game.name == "swish" else game.squeezed(board, c, own, enemy)
                    out[game.move_action(cell, d, i + 1)] = sorted(taken)
                    continue
                if game.name == "squeeze" or board[c] not in (BEAD, enemy):
                    break
                j = i
                while j < len(ray) and board[ray[j]] == board[c]:
                    j += 1
                row = sorted(ray[i:j])
                while j < len(ray) and board[ray[j]] == EMPTY:  # landings beyond one unmixed row
                    out[game.move_action(cell, d, j + 1)] = row
                    j += 1
                break
    return out


@pytest.mark.parametrize("name", list(GAMES))
def test_move_generation_matches_a_plain_reading_of_the_rules(name):
    g = GAMES[name]()
    rng = np.random.default_rng(7)
    for _ in range(30):
        s = g.new_state(rng)
        g.apply(s, g.choice_base + int(rng.integers(1, 3)), None)
        for _ in range(int(rng.integers(0, 40))):
            if s.over:
                break
            g.apply(s, int(rng.choice(np.flatnonzero(g.legal_mask(s)))), None)
        if s.over:
            continue
        ref = _reference_moves(g, s)
        colour = s.colour[s.to_move]
        fast = {a: sorted(t) for a, _, _, t in g.capture_moves(s.board, s.rooks[colour], colour + 1, 2 - colour)}
        assert set(np.flatnonzero(g.legal_mask(s)).tolist()) == set(ref)
        assert fast == ref


# -- ending_moves: the search's fast test for game-ending moves ------------------------------------


def medium_against_random_positions(game, rng, games):
    """Every position (with its mask and legal moves) of ``games`` games of medium against random."""
    from envs.hexrook.bots import MediumBot

    for g in range(games):
        state, bots = game.new_state(rng), [MediumBot(game, seed=g), None]
        while not game.is_over(state):
            mask = game.legal_mask(state)
            legal = np.flatnonzero(mask).tolist()
            yield state, legal
            mover = bots[(g + game.to_move(state)) % 2]
            game.apply(state, mover.choose(state, mask) if mover else int(rng.choice(legal)), rng)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize(
    "params", [{}, {"max_plies": 12}, {"beads_to_win": 3}], ids=["default", "ply-limit", "3-beads"]
)
def test_fast_ending_moves_match_playing_each_move(name, params):
    from envs.core.game import Game

    game, rng = GAMES[name](**params), np.random.default_rng(5)
    found = 0
    for state, legal in medium_against_random_positions(game, rng, 4):
        expected = Game.ending_moves(game, state, legal, rng)
        assert game.ending_moves(state, legal, rng) == expected
        found += len(expected)
    assert found > 0


# (game, white rooks, black rooks, move from, move to): the move takes Black's last rook
LAST_ROOK = [("swish", ["e1"], ["e3"], "e1", "e5"), ("squeeze", ["e5", "a3"], ["e4"], "a3", "e3")]


@pytest.mark.parametrize("name,white,black,frm,to", LAST_ROOK, ids=[c[0] for c in LAST_ROOK])
def test_ending_moves_include_taking_the_last_rook(name, white, black, frm, to):
    game = GAMES[name]()
    state = position(game, white, black, [])
    legal = np.flatnonzero(game.legal_mask(state)).tolist()
    assert move(game, frm, to) in game.ending_moves(state, legal, np.random.default_rng(0))


# -- capturing_moves: the search's quiescence moves --------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_capturing_moves_are_the_moves_that_take_biggest_first(name):
    from envs.hexrook.board import ROOK_VALUE

    game, rng = GAMES[name](), np.random.default_rng(9)
    found = 0
    for state, legal in medium_against_random_positions(game, rng, 3):
        gains = {}
        for action in legal:  # what each move takes, played out
            child = game.copy_state(state)
            game.apply(child, action, rng)
            if state.phase == PHASE_PLAY:
                beads = sum(child.stores) - sum(state.stores)
                rooks = len(state.rooks[0]) + len(state.rooks[1]) - len(child.rooks[0]) - len(child.rooks[1])
                if beads or rooks:
                    gains[action] = beads + ROOK_VALUE * rooks
        capturing = game.capturing_moves(state)
        assert set(capturing) == set(gains)
        assert [gains[a] for a in capturing] == sorted(gains.values(), reverse=True)
        found += len(capturing)
    assert found > 0
