"""Play-time search over a network's favourite moves (policies/search/alpha_beta.py), on hand-made Swival positions;
what only the Python reference shows (a position's value for either seat, the moves it tries) on its Python
reference (tests/search/reference_alpha_beta.py), which the compiled search is pinned to move for move."""

import numpy as np
import pytest

from envs.squeeze.rules import SqueezeGame
from envs.swival.rules import NUM_ACTIONS, WIN_ACTION, SwivalState
from policies.search.alpha_beta import PolicySearch
from tests.helpers import preference_policy
from tests.search.reference_alpha_beta import ReferenceSearch


def bits(*cells):
    return sum(1 << c for c in cells)


# The opponent holds o0, i0 and m1: a left swivel (m1 -> m0) would complete its spoke 0.
# I hold o3 and m4 (so I may swivel after any placement). Action = cell*3 + swivel.
DANGER = SwivalState(boards=[bits(3, 12), bits(0, 16, 9)], to_move=0)
PLACE_O5_SWIVEL_LEFT, PLACE_O5, PLACE_O6 = 5 * 3 + 1, 5 * 3, 6 * 3

CASES = [
    # (name, position, network's order, depth, leaf_value, expected move)
    (
        "takes the win the network ignores",
        SwivalState(boards=[bits(1, 9, 17), bits(0, 2)], to_move=0),
        [PLACE_O6],
        1,
        "none",
        WIN_ACTION,
    ),
    ("avoids handing the opponent a line", DANGER, [PLACE_O5_SWIVEL_LEFT, PLACE_O5], 2, "none", PLACE_O5),
    ("avoids it with the value head too", DANGER, [PLACE_O5_SWIVEL_LEFT, PLACE_O5], 2, "network", PLACE_O5),
    ("depth 1 cannot see the reply", DANGER, [PLACE_O5_SWIVEL_LEFT, PLACE_O5], 1, "none", PLACE_O5_SWIVEL_LEFT),
    (
        "nothing decisive: the network's favourite",
        SwivalState(boards=[bits(3), bits(20)], to_move=0),
        [PLACE_O6, PLACE_O5],
        3,
        "none",
        PLACE_O6,
    ),
]


@pytest.mark.parametrize("name,state,order,depth,leaf_value,expected", CASES, ids=[c[0] for c in CASES])
def test_search_picks(name, state, order, depth, leaf_value, expected):
    search = PolicySearch(preference_policy(order), "swival", depth=depth, width=2, leaf_value=leaf_value)
    action, _ = search.best_move(state)
    assert action == expected


@pytest.mark.parametrize(
    "cap_offset,searched_depth,expected",
    [
        (0, 2, PLACE_O5),  # the 2-ply search fits its cap exactly: it sees the reply
        (-1, 1, PLACE_O5_SWIVEL_LEFT),  # one position short: the 1-ply search plays instead
    ],
)
def test_work_cap_drops_a_ply_when_the_search_is_too_big(cap_offset, searched_depth, expected):
    order = [PLACE_O5_SWIVEL_LEFT, PLACE_O5]
    uncapped = PolicySearch(preference_policy(order), "swival", depth=2, width=2, leaf_value="none")
    assert uncapped.best_move(DANGER)[0] == PLACE_O5
    cap = uncapped.work + cap_offset
    capped = PolicySearch(preference_policy(order), "swival", depth=2, width=2, leaf_value="none", max_work=cap)
    one_ply = PolicySearch(preference_policy(order), "swival", depth=1, width=2, leaf_value="none")
    action, value = capped.best_move(DANGER)
    assert (action, capped.searched_depth) == (expected, searched_depth)
    assert (action, value) == (uncapped if searched_depth == 2 else one_ply).best_move(DANGER)
    assert capped.work <= cap


@pytest.mark.parametrize(
    "budget_offset,searched_depth,expected",
    [
        (0, 2, PLACE_O5),  # the 1-ply and the 2-ply searches fit the budget exactly: the reply is seen
        (-1, 1, PLACE_O5_SWIVEL_LEFT),  # one position short: the 2-ply search is given up, the 1-ply one plays
    ],
)
def test_total_work_deepens_while_the_budget_lasts(budget_offset, searched_depth, expected):
    order = [PLACE_O5_SWIVEL_LEFT, PLACE_O5]
    searches = {
        depth: PolicySearch(preference_policy(order), "swival", depth=depth, width=2, leaf_value="none")
        for depth in (1, 2)
    }
    answers = {depth: search.best_move(DANGER) for depth, search in searches.items()}
    budget = searches[1].work + searches[2].work + budget_offset
    deepening = PolicySearch(preference_policy(order), "swival", depth=2, width=2, leaf_value="none", total_work=budget)
    action, value = deepening.best_move(DANGER)
    assert (action, deepening.searched_depth) == (expected, searched_depth)
    assert (action, value) == answers[searched_depth]
    assert deepening.work <= budget + 1  # the position that passes the budget is the last one built


def test_total_work_stops_at_the_files_depth():
    order = [PLACE_O5_SWIVEL_LEFT, PLACE_O5]
    deepening = PolicySearch(preference_policy(order), "swival", depth=2, width=2, leaf_value="none", total_work=10**9)
    plain = PolicySearch(preference_policy(order), "swival", depth=2, width=2, leaf_value="none")
    assert deepening.best_move(DANGER) == plain.best_move(DANGER)
    assert deepening.searched_depth == 2


def test_search_proves_the_loss_it_avoids():
    search = PolicySearch(preference_policy([PLACE_O5_SWIVEL_LEFT]), "swival", depth=1, width=1, leaf_value="none")
    child = search.game.copy_state(DANGER)
    search.game.apply(child, PLACE_O5_SWIVEL_LEFT, np.random.default_rng(0))
    assert search.best_move(child) == (WIN_ACTION, 1.0)  # the opponent's win beyond the width is found


def test_search_without_state_plays_the_bare_network():
    from envs.single_agent import SingleAgentEnv

    env = SingleAgentEnv("swival", seat=0)
    obs, _ = env.reset(seed=0)
    search = PolicySearch(preference_policy([PLACE_O6]), "swival", depth=2)
    assert search.act(obs, env.action_masks()) == PLACE_O6


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"depth": 0}, "depth must be"),
        ({"width": -1}, "width >= 0"),
        ({"leaf_value": "guess"}, "leaf_value"),
        ({"quiescence": -1}, "quiescence must be"),
        ({"quiescence_width": 0}, "quiescence_width >= 1"),
        ({"order_by": "hunch"}, "order_by"),
        ({"max_work": -1}, "max_work"),
        ({"total_work": -1}, "total_work must be an int >= 0"),
        ({"total_work": 1.5}, "total_work must be an int >= 0"),
        ({"max_work": 100, "total_work": 100}, "give one"),
        ({"solve_from_empty": -1}, "solve_from_empty must be an int >= 0, got -1"),
        ({"solve_from_empty": "17"}, "solve_from_empty must be an int >= 0, got '17'"),
        ({"solve_from_empty": True}, "solve_from_empty must be an int >= 0, got True"),
        ({"solve_from_empty": 17, "solve_nodes": 0}, "solve_nodes must be an int >= 1, got 0"),
    ],
)
def test_bad_search_settings_are_named(kwargs, message):
    with pytest.raises(ValueError, match=message):
        PolicySearch(preference_policy([0]), "swival", **kwargs)


def test_solve_from_empty_needs_a_game_with_a_solver():
    with pytest.raises(ValueError, match="solve_from_empty needs an exact solver, and swish has none"):
        PolicySearch(
            preference_policy([0], "swish", {"setup": "random"}), "swish", {"setup": "random"}, solve_from_empty=5
        )


def test_search_is_for_two_player_games():
    from policies import load

    four_player_network = load("swahili", "hard", num_players=4)
    with pytest.raises(ValueError, match="two-player"):
        PolicySearch(four_player_network, "swahili", {"num_players": 4})


# Opponent (player 1) to move; I (player 0) hold spoke 0, which a swivel either way breaks.
BREAKABLE_LINE = SwivalState(boards=[bits(0, 8, 16), bits(2, 13)], to_move=1)
# Spokes 0 and 1 with both middle counters: every swivel leaves me a line.
UNBREAKABLE_LINES = SwivalState(boards=[bits(0, 1, 8, 9, 16, 17), bits(2, 3, 4, 5, 6)], to_move=1)
PLACE_O4 = 4 * 3


@pytest.mark.parametrize(
    "name,state,expected",
    [
        ("the swivels the width left out escape", BREAKABLE_LINE, 0.0),
        ("every reply fails", UNBREAKABLE_LINES, 1.0),
    ],
    ids=["escape", "forced"],
)
def test_a_win_is_proven_only_when_every_reply_fails(name, state, expected):
    # Width 1 shows the opponent only "place o4, no swivel", which leaves my line standing.
    search = PolicySearch(preference_policy([PLACE_O4]), "swival", depth=2, width=1, leaf_value="none")
    assert search.best_move(search.game.copy_state(state))[1] == -expected  # for the opponent, to move
    reference = ReferenceSearch(preference_policy([PLACE_O4]), "swival", depth=2, width=1, leaf_value="none")
    assert reference.value(search.game.copy_state(state), 2, me=0) == expected
    assert reference.value(search.game.copy_state(state), 2, me=1) == -expected


@pytest.mark.parametrize(
    "game, params", [("twirls", {}), ("swish", {"setup": "random"}), ("swival", {}), ("squeeze", {"setup": "random"})]
)
def test_ordering_by_the_legal_moves_logits_alone_keeps_the_full_heads_order(game, params):
    """The search orders moves by ``logits_of`` (only the legal moves' columns of the action
    head): the same order as the masked softmax of the whole head, on positions of real games."""
    from policies import load
    from policies.numpy_policy import masked_softmax

    network = load(game, "network", **params)
    search = ReferenceSearch(network, game, params, depth=1, width=8)
    rules, rng = search.game, np.random.default_rng(3)
    compared = 0
    while compared < 60:
        state = rules.new_state(rng)
        while not rules.is_over(state) and compared < 60:
            mask = rules.legal_mask(state)
            legal = np.flatnonzero(mask)
            observation = search.observe(rules, state, rules.to_move(state))
            logits = network.logits(observation)[0]
            assert network.logits_of(observation, legal) == pytest.approx(logits[legal], abs=1e-5)
            full_order = legal[np.argsort(-masked_softmax(logits, mask)[legal], kind="stable")][: search.width]
            candidates = search.candidates(state)
            assert [a for a in candidates if a in set(full_order.tolist())] == full_order.tolist()
            compared += 1
            rules.apply(state, int(rng.choice(legal)), rng)


def test_width_0_searches_every_legal_move():
    full = PolicySearch(preference_policy([PLACE_O6]), "swival", depth=2, width=0, leaf_value="none")
    wide = PolicySearch(preference_policy([PLACE_O6]), "swival", depth=2, width=NUM_ACTIONS, leaf_value="none")
    narrow = PolicySearch(preference_policy([PLACE_O6]), "swival", depth=2, width=2, leaf_value="none")
    results = [(s.best_move(DANGER), s.nodes) for s in (full, wide, narrow)]
    assert results[0] == results[1]
    assert results[2][1] < results[0][1]


def squeeze_exchange(beads_to_win=2):
    """Squeeze, white (player 0) to move, 1 bead in each store.

    Black's rook on (0,-2) can slide to (0,0) and squeeze the bead on (-1,0)
    against its rook on (-2,0) (with 2 beads to win, that bead wins). White's
    only rook, on (3,0), can block by landing on (0,0) itself; its favourite
    move, (3,0) -> (2,0), does not. Returns the search (a network with value 0
    everywhere), the position, the favourite and the block.
    """
    from envs.hexrook.board import PHASE_PLAY
    from envs.squeeze.rules import SqueezeGame

    params = {"beads_to_win": beads_to_win}
    rules = SqueezeGame(**params)
    cell = rules.hex.cell
    state = rules.state_from(white=[cell((3, 0))], black=[cell((-2, 0)), cell((0, -2))], beads=[cell((-1, 0))])
    state.phase, state.colour, state.to_move, state.first_mover, state.stores = PHASE_PLAY, [0, 1], 0, 0, [1, 1]
    west = 3  # direction (-1, 0)
    favourite, block = rules.move_action(cell((3, 0)), west, 1), rules.move_action(cell((3, 0)), west, 3)
    return preference_policy([favourite, block], "squeeze", params), params, state, favourite, block


@pytest.mark.parametrize(
    "depth,quiescence,blocks",
    [
        (1, 0, False),  # one ply with no quiescence cannot see black's winning capture
        (1, 1, True),  # the capture extension sees it past the horizon
        (2, 0, True),  # as does a second full ply
    ],
)
def test_quiescence_sees_the_capture_past_the_horizon(depth, quiescence, blocks):
    network, params, state, favourite, block = squeeze_exchange()
    search = PolicySearch(network, "squeeze", params, depth=depth, width=0, quiescence=quiescence)
    action, value = search.best_move(state)
    assert action == (block if blocks else favourite)
    assert value == 0.0


@pytest.mark.parametrize(
    "beads_to_win,static_value,expected",
    [
        (2, 0.25, -1.0),  # black's capture wins: it takes it
        (3, 0.5, 0.0),  # a plain capture (the network scores 0 after it) beats the static 0.5 for white
        (3, -0.5, -0.5),  # black already stands better than after its capture: it stops
    ],
)
def test_quiescence_lets_the_player_to_move_stop_capturing(beads_to_win, static_value, expected):
    network, params, state, favourite, block = squeeze_exchange(beads_to_win)
    game = SqueezeGame(**params)
    after_favourite, after_block = played(game, state, favourite), played(game, state, block)
    leaves = [after_favourite, after_block]  # black to move: the network gives them white's static_value
    search = ReferenceSearch(
        StaticValue(network, game, leaves, -static_value), "squeeze", params, width=0, quiescence=2
    )
    assert len(game.capturing_moves(after_favourite)) == 1
    assert search.value(after_favourite, 0, me=0) == expected
    assert game.capturing_moves(after_block) == []
    assert search.value(after_block, 0, me=0) == static_value


def played(game, state, action):
    """A copy of ``state`` with ``action`` played."""
    child = game.copy_state(state)
    game.apply(child, action, np.random.default_rng(0))
    return child


class StaticValue:
    """``network`` whose value head reads ``value`` on the observations of ``states`` (each seen by its mover)."""

    def __init__(self, network, game, states, value):
        from envs.registry import game_module

        observe = game_module(game.name).raw_env.observe_state
        self.network, self.value = network, value
        self.marked = [observe(game, s, game.to_move(s)) for s in states]

    def values(self, observations):
        head = np.asarray(self.network.values(observations), dtype=float).copy()
        for k, row in enumerate(observations):
            if any(np.array_equal(row, marked) for marked in self.marked):
                head[k] = self.value
        return head

    def __getattr__(self, attribute):
        return getattr(self.network, attribute)


def test_value_order_tries_the_winning_capture_first():
    network, params, state, favourite, _ = squeeze_exchange()
    by_policy = ReferenceSearch(network, "squeeze", params, depth=1, width=0)
    by_value = ReferenceSearch(network, "squeeze", params, depth=1, width=0, order_by="value")
    black_to_move = played(by_value.game, state, favourite)
    (winning_capture,) = by_value.game.capturing_moves(black_to_move)
    assert by_value.candidates(black_to_move)[0] == winning_capture
    assert by_policy.candidates(black_to_move)[0] != winning_capture  # the network ranks it low


def test_value_order_changes_the_work_not_the_values():
    from policies import load

    params = {"setup": "random"}
    network = load("squeeze", "hard", **params).policy
    by_policy = PolicySearch(network, "squeeze", params, depth=2, width=0, quiescence=1)
    by_value = PolicySearch(network, "squeeze", params, depth=2, width=0, quiescence=1, order_by="value")
    rules, rng = by_policy.game, np.random.default_rng(3)
    state, compared, nodes = rules.new_state(rng), 0, [0, 0]
    while not rules.is_over(state) and compared < 15:
        if rules.legal_mask(state).sum() > 1 and rules.to_move(state) == 0:
            assert by_value.best_move(state)[1] == pytest.approx(by_policy.best_move(state)[1], abs=1e-6)
            nodes[0] += by_policy.nodes
            nodes[1] += by_value.nodes
            compared += 1
        rules.apply(state, int(rng.choice(np.flatnonzero(rules.legal_mask(state)))), rng)
    assert compared > 5
    assert nodes[1] != nodes[0]  # the order is applied (which order is cheaper depends on the network)


# -- the exact endgame oracle (solve_from_empty) --------------------------------------------------------------------
# Positions with 10 empty cells, reached through the rules from the start by these actions (seeded random play;
# neither side holds a line): "win" ones hold 1 or 2 winning moves among 30, "draw" ones 2 to 4 drawing moves
# among 30, every other move losing.
ENDGAMES = [
    ("win", [60, 18, 63, 0, 9, 69, 57, 28, 21, 29, 6, 55, 42, 40]),
    ("win", [27, 30, 8, 47, 67, 14, 58, 15, 2, 54, 19, 53, 29, 45]),
    ("win", [57, 3, 28, 43, 43, 23, 11, 48, 7, 54, 63, 38, 2, 38]),
    ("win", [21, 63, 9, 32, 0, 28, 46, 26, 41, 45, 5, 12, 40, 54]),
    ("draw", [15, 33, 21, 57, 37, 1, 19, 54, 42, 34, 13, 6, 51, 60]),
    ("draw", [27, 36, 20, 62, 40, 70, 65, 48, 1, 12, 52, 39, 66, 44]),
    ("draw", [57, 18, 21, 42, 60, 40, 9, 56, 24, 49, 51, 63, 13, 17]),
    ("draw", [21, 33, 66, 59, 40, 55, 27, 61, 40, 14, 2, 36, 53, 8]),
]
VALUES = {"win": 1, "draw": 0}


def _played(actions):
    from envs.swival.rules import SwivalGame

    rules, state = SwivalGame(), SwivalState()
    for action in actions:
        rules.check_action(state, action)
        rules.apply(state, action, np.random.default_rng(0))
    return rules, state


def _move_values(rules, state):
    """Every legal move's exact value for the mover, from the solver."""
    from envs.swival import solver

    values = {}
    for action in np.flatnonzero(rules.legal_mask(state)).tolist():
        child = rules.copy_state(state)
        rules.apply(child, action, np.random.default_rng(0))
        values[action] = -solver.state_value(child)
    return values


@pytest.mark.parametrize("kind,actions", ENDGAMES, ids=[f"{k}-{i}" for i, (k, _) in enumerate(ENDGAMES)])
def test_the_solver_picks_the_networks_favourite_among_the_moves_that_keep_the_value(kind, actions):
    """A network that likes the worst moves best: the search alone plays one, the solver never does."""
    from envs.swival import solver

    rules, state = _played(actions)
    assert solver.empty_cells(state) == 10 and solver.state_value(state) == VALUES[kind]
    values = _move_values(rules, state)
    worst_first = sorted(values, key=lambda a: (values[a], a))
    keeping = [a for a in worst_first if values[a] == VALUES[kind]]
    assert 1 <= len(keeping) <= 4 and values[worst_first[0]] < VALUES[kind]
    search = PolicySearch(preference_policy(worst_first), "swival", depth=1, width=73, leaf_value="none")
    assert values[search.best_move(state)[0]] < VALUES[kind]  # one ply cannot see what the moves lead to
    endgame = PolicySearch(
        preference_policy(worst_first), "swival", depth=1, width=73, leaf_value="none", solve_from_empty=10
    )
    assert endgame.best_move(state) == (keeping[0], float(VALUES[kind]))
    assert endgame.solved and endgame.solver_nodes > 0


@pytest.mark.parametrize("kind,actions", ENDGAMES, ids=[f"{k}-{i}" for i, (k, _) in enumerate(ENDGAMES)])
def test_shipped_hard_keeps_the_solved_value(kind, actions):
    from policies import load

    rules, state = _played(actions)
    hard = load("swival", "hard")
    assert hard.solve_from_empty >= 10
    assert _move_values(rules, state)[hard.best_move(state)[0]] == VALUES[kind]
    assert hard.solved


def test_one_more_empty_cell_than_solve_from_empty_is_left_to_the_search():
    rules, state = _played(ENDGAMES[4][1])
    order = sorted(_move_values(rules, state).items(), key=lambda kv: (kv[1], kv[0]))
    search = PolicySearch(preference_policy([a for a, _ in order]), "swival", depth=1, solve_from_empty=9)
    assert search.best_move(state)[0] == order[0][0] and not search.solved


@pytest.mark.parametrize(
    "name,actions,solve_nodes",
    [
        # the first "win" position after its winning move (13): lost for the player to move
        ("lost: the search decides", ENDGAMES[0][1] + [13], 2_000_000),
        ("over the node budget: the search decides", ENDGAMES[4][1], 100),
    ],
)
def test_the_search_decides_where_the_solver_does_not(name, actions, solve_nodes):
    from envs.swival import solver

    rules, state = _played(actions)
    order = np.flatnonzero(rules.legal_mask(state)).tolist()[::-1]
    plain = PolicySearch(preference_policy(order), "swival", depth=2, leaf_value="none")
    endgame = PolicySearch(
        preference_policy(order), "swival", depth=2, leaf_value="none", solve_from_empty=24, solve_nodes=solve_nodes
    )
    assert endgame.best_move(state) == plain.best_move(state)
    assert not endgame.solved and 0 < endgame.solver_nodes <= solve_nodes
    if solve_nodes > 100:
        assert solver.state_value(state) == -1


@pytest.mark.parametrize("actions", [a for k, a in ENDGAMES if k == "win"])
def test_out_of_nodes_after_the_root_a_win_the_root_proved_is_played(actions):
    """Nodes for the root's solve and one more: the moves the network likes best are not asked in full, but the
    table the root left proves a winning move in a node."""
    from envs.swival import solver

    rules, state = _played(actions)
    me = state.to_move
    solver.solve(state.boards[me], state.boards[1 - me])
    root_nodes = solver.nodes()
    values = _move_values(rules, state)
    worst_first = sorted(values, key=lambda a: (values[a], a))
    endgame = PolicySearch(
        preference_policy(worst_first),
        "swival",
        depth=1,
        leaf_value="none",
        solve_from_empty=10,
        solve_nodes=root_nodes + 1,
    )
    action, value = endgame.best_move(state)
    assert (values[action], value, endgame.solved) == (1, 1.0, True)
    assert endgame.solver_nodes <= root_nodes + 1 + len(values)


def test_a_counted_budget_plays_the_same_series_in_two_processes(tmp_path):
    """The games are seeded and the search's work counted (not timed), so a series of a policy file's search split
    over processes makes the same games as one process."""
    from policies import shipped_path
    from policies.evaluation import SeriesRun, evaluate
    from policies.numpy_policy import read_policy_file, write_policy_file

    meta, arrays = read_policy_file(shipped_path("swival"))
    meta["search"] = {"depth": 3, "width": 4, "leaf_value": "network", "total_work": 200}
    player = str(write_policy_file(tmp_path / "small.npz", meta, arrays))
    one = evaluate("swival", [player, "medium"], 4, seed=4, quiet=True)
    two = evaluate("swival", [player, "medium"], 4, seed=4, quiet=True, run=SeriesRun(jobs=2))
    assert (one.wins, one.draws, one.losses, one.returns) == (two.wins, two.draws, two.losses, two.returns)
    assert [len(moves) for moves in one.move_seconds] == [len(moves) for moves in two.move_seconds]
