"""The compiled alpha-beta (policies/search/compiled.py, run by ``PolicySearch``) against the Python search it
compiles (tests/search/reference_alpha_beta.py): the same moves, values, nodes and work, position by position, in the
value's order (every move) and in the policy's (a width, the game-ending moves beyond it, the moves left out searched
when every tried one loses), for Swish, Squeeze and Swival (``leaf_wins``, ``leaf_value="none"``).

A network whose sums are exact in float32 (0/1 inputs, weights in eighths, relu) makes both searches' values
and policy orders equal to the bit, so every tie-break and cut-off must agree too; the shipped Squeeze and Swish
networks are checked within rounding."""

import json
import subprocess
import sys

import numpy as np
import pytest

from envs.registry import make_batched, make_raw
from policies.compiled_network import tower_values
from policies.numpy_policy import NumpyPolicy
from policies.search.alpha_beta import PolicySearch
from tests.helpers import ROOT, factored_policy_file, network_meta, preference_policy
from tests.search.reference_alpha_beta import ReferenceSearch

SEARCH = {"depth": 4, "order_by": "value", "width": 0, "quiescence": 2, "quiescence_width": 3}
#: narrow enough that game-ending moves lie outside the width and every tried move often loses
POLICY_SEARCH = {"depth": 4, "width": 3, "root_width": 5, "quiescence": 2, "quiescence_width": 3}


def exact_value_network(game, params=None, hidden=12, members=2, seed=0, policy=False, value_scale=1 / 64):
    """A network whose value towers compute exactly in float32 in any order: relu, weights in eighths, and
    nothing but the observation's 0/1 planes read (the other inputs' weights are 0). With ``policy`` its policy
    tower (two layers) and action head are exact too, otherwise zero (every move alike). ``value_scale``: of
    the value head's weights (large ones put many values at the clip, +-1: proven wins and losses)."""
    env = make_raw(game, **(params or {}))
    size = int(np.prod(env.observation_space(env.possible_agents[0])["observation"].shape))
    # the 0/1 inputs (HexRookEnv's planes; Swival's cells and flags); the features after them are fractions
    planes = 76 if game == "swival" else 5 * env.game.hex.n
    rng = np.random.default_rng(seed)

    def eighths(*shape, most=8):
        return (rng.integers(-most, most + 1, shape) / 8).astype(np.float32)

    arrays = {
        "pi_w0": np.zeros((size, 4), np.float32),
        "pi_b0": np.zeros(4, np.float32),
        "action_w": np.zeros((4, env.game.num_actions), np.float32),
        "action_b": np.zeros(env.game.num_actions, np.float32),
    }
    if policy:
        pi_first = eighths(size, 8)
        pi_first[planes:] = 0.0
        arrays |= {
            "pi_w0": pi_first,
            "pi_b0": eighths(8),
            "pi_w1": eighths(8, 8),
            "pi_b1": eighths(8),
            "action_w": eighths(8, env.game.num_actions) / 64,
            "action_b": eighths(env.game.num_actions) / 64,
        }
    for k in range(members):
        prefix = f"m{k}_" if k else ""
        first = eighths(size, hidden)
        first[planes:] = 0.0
        arrays |= {
            f"{prefix}vf_w0": first,
            f"{prefix}vf_b0": eighths(hidden),
            f"{prefix}vf_w1": eighths(hidden, hidden),
            f"{prefix}vf_b1": eighths(hidden),
            f"{prefix}value_w": eighths(hidden, 1, most=1) * np.float32(value_scale),
            f"{prefix}value_b": np.zeros(1, np.float32),
        }
    meta = network_meta(game, params, size, env.game.num_actions, activation="relu")
    return NumpyPolicy((json.loads(json.dumps(meta)), arrays))


def positions(game, count, seed, most_plies=40):
    """``count`` unfinished positions of ``game`` (a rules object) after random moves from random set-ups."""
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < count:
        state = game.new_state(rng)
        for _ in range(int(rng.integers(0, most_plies))):
            if game.is_over(state):
                break
            game.apply(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))), rng)
        if not game.is_over(state):
            found.append(state)
    return found


def positions_near_the_end(game, count, seed, most_plies_left=6):
    """``count`` unfinished positions of ``game`` at most ``most_plies_left`` plies before the end of a random
    game (where game-ending moves are found)."""
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < count:
        states = [game.new_state(rng)]
        while not game.is_over(states[-1]):
            state = game.copy_state(states[-1])
            game.apply(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))), rng)
            states.append(state)
        found.append(states[-1 - int(rng.integers(1, min(most_plies_left, len(states) - 1) + 1))])
    return found


def searches_agree(python, compiled, states, depths=(1, 2, 3)):
    """Assert that the two searches give every state, at every depth, the same (move, value), nodes and work;
    returns how many searches were compared."""
    game = python.game
    checked = 0
    for state in states:
        for depth in depths:
            expected = python._capped_search(game.copy_state(state), depth, np.inf)
            got = compiled._capped_search(game.copy_state(state), depth, np.inf)
            assert (got, compiled.nodes, compiled.work) == (expected, python.nodes, python.work), (depth, state)
            checked += 1
    return checked


@pytest.mark.parametrize("name", ["squeeze", "swish"])
def test_compiled_search_equals_the_python_search_move_for_move(name):
    policy = exact_value_network(name)
    python = ReferenceSearch(policy, name, **SEARCH)
    compiled = PolicySearch(policy, name, **SEARCH)
    assert searches_agree(python, compiled, positions(python.game, 5, seed=1)) == 15


#: Swival's searches: its hard's settings (policies/swival_hard.npz, the solver aside), those of a counted budget
#: (tests/search/test_search.py) and a narrow width (game-ending moves beyond it, nodes whose tried moves all lost
#: widened), with and without leaf_wins and the value head. All in the policy's order, as its hard searches: the
#: value's order is pinned on Squeeze, whose hard searches in it (each order of each game is a compile of its own,
#: about a minute from an empty cache).
SWIVAL_SEARCHES = {
    "hard": {"depth": 3, "width": 73, "leaf_value": "none", "leaf_wins": True},
    "budget": {"depth": 3, "width": 4, "leaf_value": "network"},
    "narrow": {"depth": 3, "width": 2, "root_width": 5, "leaf_wins": True},
    "narrow-none": {"depth": 3, "width": 1, "leaf_value": "none", "leaf_wins": True},
}


@pytest.mark.parametrize("settings", list(SWIVAL_SEARCHES.values()), ids=list(SWIVAL_SEARCHES))
def test_compiled_search_equals_the_python_search_on_swival(settings):
    policy = exact_value_network("swival", members=1, policy=True, value_scale=4, seed=7)
    python = ReferenceSearch(policy, "swival", **settings)
    compiled = PolicySearch(policy, "swival", **settings)
    game = python.game
    states = positions(game, 6, seed=11, most_plies=22) + positions_near_the_end(game, 4, seed=11)
    assert searches_agree(python, compiled, states) == 30


def test_swivals_shipped_hard_searches_as_the_python_search():
    """The shipped network (its float32 policy rounded by the compiled towers, not numpy's) orders the moves as
    numpy does, so the hard's search (the solver aside) plays the same moves with the same work."""
    policy = NumpyPolicy("policies/swival_hard.npz", name="swival")
    settings = policy.meta["search"]
    python = ReferenceSearch(policy, "swival", **settings)
    compiled = PolicySearch(policy, "swival", **settings)
    game = python.game
    states = positions(game, 8, seed=12, most_plies=18) + positions_near_the_end(game, 4, seed=12, most_plies_left=10)
    assert searches_agree(python, compiled, states, depths=(settings["depth"],)) == 12


VALUE_ORDER = ("squeeze", SEARCH, {"seed": 3}, 2)  # game, search, network, positions' seed
POLICY_ORDER = ("swish", POLICY_SEARCH | {"depth": 6}, {"members": 1, "policy": True, "seed": 6}, 9)


@pytest.mark.parametrize(
    ("case", "budget"),
    [(VALUE_ORDER, 700), (VALUE_ORDER, 2500), (VALUE_ORDER, 9000), (POLICY_ORDER, 900), (POLICY_ORDER, 6000)],
)
def test_compiled_search_gives_up_a_depth_where_the_python_search_does(case, budget):
    name, settings, network, seed = case
    policy = exact_value_network(name, **network)
    python = ReferenceSearch(policy, name, **settings, total_work=budget)
    compiled = PolicySearch(policy, name, **settings, total_work=budget)
    game = python.game
    depths = set()
    for state in positions(game, 6, seed=seed):
        expected = python.best_move(game.copy_state(state))
        got = compiled.best_move(game.copy_state(state))
        assert (got, compiled.searched_depth, compiled.nodes, compiled.work) == (
            expected,
            python.searched_depth,
            python.nodes,
            python.work,
        )
        depths.add(python.searched_depth)
    assert len(depths) > 1 or budget == 700  # the budgets stop at different depths


def spied(monkeypatch, python):
    """Counts of what the Python search ``python`` does beyond its width: game-ending moves found outside it,
    and nodes whose tried moves all lost (so the rest were searched: ``legal_mask`` asked once more than
    ``candidates``)."""
    counts = {"enders": 0, "legal_mask": 0, "candidates": 0}
    game = python.game

    def counted(name, function, size=lambda result: 1):
        def wrapper(*args, **kwargs):
            result = function(*args, **kwargs)
            counts[name] += size(result)
            return result

        return wrapper

    monkeypatch.setattr(game, "ending_moves", counted("enders", game.ending_moves, len))
    monkeypatch.setattr(game, "legal_mask", counted("legal_mask", game.legal_mask))
    monkeypatch.setattr(python, "candidates", counted("candidates", python.candidates))
    return counts


# members as the shipped networks have them: one compiled kernel for each
@pytest.mark.parametrize(
    ("name", "members", "value_scale"), [("squeeze", 2, 1 / 64), ("swish", 1, 1 / 64), ("swish", 1, 4)]
)
def test_compiled_policy_order_equals_the_python_search_move_for_move(monkeypatch, name, members, value_scale):
    policy = exact_value_network(name, members=members, policy=True, value_scale=value_scale, seed=5)
    python = ReferenceSearch(policy, name, **POLICY_SEARCH)
    compiled = PolicySearch(policy, name, **POLICY_SEARCH)
    game = python.game
    counts = spied(monkeypatch, python)
    states = positions(game, 6, seed=8, most_plies=80) + positions_near_the_end(game, 6, seed=8)
    assert searches_agree(python, compiled, states) == 36
    assert counts["enders"] > 0  # game-ending moves outside the width were searched
    if value_scale > 1:
        assert counts["legal_mask"] > counts["candidates"]  # and nodes whose tried moves all lost were widened


@pytest.mark.parametrize("name", ["squeeze", "swish"])
def test_compiled_search_with_the_shipped_network_agrees_within_rounding(name):
    policy = NumpyPolicy(f"policies/{name}_hard.npz", name=name)
    settings = {key: value for key, value in policy.meta["search"].items() if key not in ("total_work", "compiled")}
    python = ReferenceSearch(policy, name, **settings)
    compiled = PolicySearch(policy, name, **settings)
    game = python.game
    for state in positions(game, 4, seed=4):
        expected = python._capped_search(game.copy_state(state), 2, np.inf)
        got = compiled._capped_search(game.copy_state(state), 2, np.inf)
        assert got[0] == expected[0]
        assert got[1] == pytest.approx(expected[1], abs=1e-5)
        assert (compiled.nodes, compiled.work) == (python.nodes, python.work)


@pytest.mark.parametrize("name", ["squeeze", "swish"])
def test_pass_cache_gives_the_search_the_floats_the_towers_compute(name):
    """Searched with the pass cache (the default, and one of 64 slots over a pool of four passes, so that slots
    are taken over and kept values go stale) and without it, the shipped network's every move, value (to the
    bit), node and work count agree; the cache is read (Squeeze: the towers' passes; Swish: the policy's too)."""
    from dataclasses import replace

    from policies.search.compiled import C_CACHED, new_space

    policy = NumpyPolicy(f"policies/{name}_hard.npz", name=name)
    settings = {key: value for key, value in policy.meta["search"].items() if key not in ("total_work", "compiled")}
    searches = {size: PolicySearch(policy, name, **settings) for size in ("default", "tiny", "none")}
    sizes = searches["none"].compiled._space_sizes
    searches["tiny"].compiled.space = new_space(replace(sizes, cache_slots=64, cache_values=4 * sizes.moves))
    searches["none"].compiled.space = new_space(replace(sizes, cache_slots=0))
    game = searches["none"].game
    read = {size: 0 for size in searches}
    for state in positions(game, 6, seed=8, most_plies=30):
        for depth in (1, 2, 3):
            found = {}
            for size, search in searches.items():
                found[size] = (search._capped_search(game.copy_state(state), depth, np.inf), search.nodes, search.work)
                read[size] += int(search.compiled.space.counters[C_CACHED])
            assert found["default"] == found["none"] == found["tiny"], (depth, state)
    assert read["none"] == 0
    assert read["default"] > read["tiny"] > 0
    tiny = searches["tiny"].compiled.space
    assert (tiny.cache_at[tiny.cache_keys != 0] < tiny.cache_end[0] - len(tiny.cache_pool)).any()  # stale slots


def test_the_compiled_searchs_work_arrays_and_networks_begin_on_cache_lines():
    """The towers' and the policy's loops read these with vector loads, which straddle two lines from an array
    begun mid-line (numpy aligns to 16 bytes): every work array, and every layer's weights and bias."""
    from envs.core.jit import CACHE_LINE
    from policies.compiled_network import bias_of, weights_of

    compiled = PolicySearch(exact_value_network("swish", policy=True), "swish", **POLICY_SEARCH).compiled
    layers = [compiled.towers, compiled.policy_tower]
    arrays = [
        *compiled.space,
        *(f(net, i) for net in layers for i in range(len(net.table)) for f in (weights_of, bias_of)),
    ]
    assert len(compiled.towers.table) == 2 + 2 * 2  # two members of two layers each after the first
    for array in arrays:
        for a in array if isinstance(array, tuple) else (array,):
            assert a.ctypes.data % CACHE_LINE == 0 or a.size == 0


def test_networks_of_other_depths_and_members_play_with_the_search_compiled_once():
    """The towers are of one numba type whatever their depth and number of members: a network shaped unlike the
    shipped hard's reuses the compiled search (numba compiles nothing), and plays as the Python search does."""
    from policies import load
    from policies.search.compiled import alpha_beta

    load("swish", "hard")  # the shipped hard's search compiled (or loaded) first
    before = len(alpha_beta.signatures)
    for members, hidden in ((2, 12), (3, 6)):
        policy = exact_value_network("swish", members=members, hidden=hidden, policy=True, seed=members)
        search = PolicySearch(policy, "swish", **POLICY_SEARCH)
        assert len(alpha_beta.signatures) == before, "a new signature: the search compiled again"
        state = search.game.new_state(np.random.default_rng(members))
        assert search.best_move(state) == ReferenceSearch(policy, "swish", **POLICY_SEARCH).best_move(state)


def test_tower_values_equal_the_numpy_network_within_rounding():
    policy = NumpyPolicy("policies/squeeze_hard.npz", name="squeeze")
    compiled = PolicySearch(policy, "squeeze", **SEARCH).compiled
    batch = make_batched("squeeze", 40, seed=5)
    for _ in range(6):
        batch.step(batch.random_actions(), autoreset=True)
    observations = batch.observe(batch.to_move)
    space = compiled.space
    space.obs[:40] = observations
    for k in (1, 3, 40):
        tower_values(
            space.obs, np.arange(k, dtype=np.int64), k, compiled.towers, space.hidden, space.first, space.tower_out
        )
        np.testing.assert_allclose(space.tower_out[:k], policy.values(observations[:k]), atol=2e-6)


@pytest.mark.parametrize("name", ["squeeze", "swish"])
def test_engine_capturing_moves_equal_the_rules(name):
    from envs.hexrook.batched import CaptureScratch, captures_one

    batch = make_batched(name, 1, seed=0)
    game = batch.engine.game
    n, listed = game.hex.n, batch.arrays["moves"].shape[1]
    scratch = CaptureScratch(
        np.zeros(3, np.int16),
        np.zeros(n, np.int64),
        np.zeros(n, np.int64),
        np.zeros(n, np.int16),
        np.zeros(listed, np.int32),
        np.zeros(listed, np.float64),
        np.zeros(game.num_actions, np.bool_),
        np.zeros(24, np.int16),
    )
    out = np.zeros(listed, np.int32)
    with_captures = 0
    for state in positions(game, 150, seed=6, most_plies=60):
        batch.set_board(0, state)
        count = captures_one(0, out, batch.state, batch.consts, scratch)
        assert out[:count].tolist() == game.capturing_moves(state), state
        with_captures += count > 0
    assert with_captures > 30


@pytest.mark.parametrize("name", ["squeeze", "swish", "swival"])
def test_engine_rules_out_only_moves_that_do_not_end_the_game(name):
    import importlib

    engine_module = importlib.import_module("envs.swival.batched" if name == "swival" else "envs.hexrook.batched")
    scratch = () if name == "swival" else np.zeros(engine_module.MAX_CAPTURES, np.int16)
    batch = make_batched(name, 1, seed=0)
    game = batch.engine.game
    rng = np.random.default_rng(0)
    ruled_out = ending = 0
    for state in positions(game, 40, seed=10, most_plies=80) + positions_near_the_end(game, 40, seed=10):
        batch.set_board(0, state)
        legal = [int(a) for a in np.flatnonzero(game.legal_mask(state))]
        ends = set(game.ending_moves(state, legal, rng))
        for action in legal:
            may_end = engine_module.may_end_one(0, action, batch.state, batch.consts, scratch)
            assert may_end or action not in ends, (state, action)
            ruled_out += not may_end
            ending += action in ends
    assert ruled_out > 1000 and ending > 20


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"width": 8}, "width=8 with order_by='value'"),
        ({"root_width": 16}, "root_width=16 with order_by='value'"),
        ({"compiled": "yes"}, "compiled must be true or false"),
    ],
)
def test_compiled_search_names_what_it_does_not_serve(settings, message):
    with pytest.raises(ValueError, match=message):
        PolicySearch(exact_value_network("squeeze"), "squeeze", **(SEARCH | settings))


def test_compiled_search_names_a_head_it_cannot_order_by():
    factored = NumpyPolicy(factored_policy_file("swish"), name="swish")
    with pytest.raises(ValueError, match="a plain action head only, got a factored head"):
        PolicySearch(factored, "swish", **POLICY_SEARCH)


def test_old_files_compiled_setting_is_accepted_and_changes_nothing():
    policy = exact_value_network("squeeze")
    state = positions(ReferenceSearch(policy, "squeeze").game, 1, seed=2)[0]
    moves = {flag: PolicySearch(policy, "squeeze", **SEARCH, compiled=flag).best_move(state) for flag in (True, False)}
    assert moves[True] == moves[False]


def test_compiled_search_needs_an_engine_with_its_functions():
    with pytest.raises(ValueError, match="twirls's batched engine has no functions for the compiled search"):
        PolicySearch(preference_policy([0], "twirls"), "twirls", **SEARCH)


@pytest.mark.parametrize("name", ["squeeze", "swish", "swival"])
def test_the_shipped_compiled_hard_is_compiled_when_made_not_in_its_first_move(name):
    """In a fresh process (nothing compiled yet), loading the shipped hard compiles its kernel (or loads it from
    numba's cache), so the first move's think time is the search's own."""
    script = (
        "from policies import load\n"
        "from policies.search.compiled import alpha_beta\n"
        "before = len(alpha_beta.signatures)\n"
        f"player = load({name!r}, 'policies/{name}_hard.npz', seed=0)\n"
        "print(before, len(alpha_beta.signatures))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "1"]
