"""Twirls' batched engine beyond the registry's variants: every rule parameter, the ends random play never reaches.

``tests/conformance/test_every_variant.py`` plays the registry's variants (9x9, 8x8) from the
start; random Twirls games never win there (they all reach ``max_plies``).
Here the engine and the AEC env also play from sparse random positions,
where wins (connection within the neighbour limit) and losses by having no
twirl are common, under handicaps, short ply limits and the pie rule, all
compared at every step, vectorised over the boards.
"""

from dataclasses import replace

import numpy as np
import pytest

import envs
from envs.twirls.rules import BLACK, WHITE, TwirlsState
from tests.games.twirls.test_twirls_rules import STALEMATE_IN_ONE, WIN_IN_ONE, position, twirl


def sparse_positions(params, count, rng):
    """Random positions with 1-6 stones a side where the side to move has a twirl (or may swap)."""
    game = envs.make_raw("twirls", **params).game
    cells = game.size * game.size
    found = []
    while len(found) < count:
        k, m = (int(x) for x in rng.integers(1, 7, size=2))
        chosen = rng.choice(cells, k + m, replace=False)
        black = sum(1 << int(c) for c in chosen[:k])
        white = sum(1 << int(c) for c in chosen[k:])
        plies = int(rng.choice([0, 1, 1, 6]))
        colour = WHITE if plies == 1 else int(rng.integers(2))
        swapped = plies > 1 and bool(rng.integers(2))
        state = TwirlsState([black, white], colour_to_move=colour, swapped=swapped, plies=plies)
        if game.legal_mask(state).any():
            found.append(state)
    return found


def aec_at(params, state, seed):
    """A raw AEC env put on the rules' ``state``."""
    aec = envs.make_raw("twirls", **params)
    aec.reset(seed=seed)
    snap = aec.snapshot()
    snap["state"] = state
    snap["selection"] = aec.possible_agents[aec.game.to_move(state)]
    aec.restore(snap)
    return aec


def play_lockstep(params, num_games, seed, states=None, swap_rate=0.5):
    """Random games through the batch and the AEC envs side by side; masks, both seats' observations,
    rewards and ends compared for all boards at once at every step. Returns the ends by kind."""
    batch = envs.make_batched("twirls", num_games, seed=seed, **params)
    if states is not None:
        for i, state in enumerate(states):
            batch.set_board(i, state)
    aecs = [aec_at(params, batch.board_state(i), seed + i) for i in range(num_games)]
    swap = batch.num_actions - 1
    rng = np.random.default_rng(seed)
    ends = {"won": 0, "no twirl": 0, "ply limit": 0, "swaps": 0}
    step = 0
    while True:
        mask = batch.legal_mask()
        live = np.flatnonzero(~batch.over)
        if not live.size:
            return ends
        np.testing.assert_array_equal(batch.to_move[live], [aecs[i].game.to_move(aecs[i].game_state) for i in live])
        np.testing.assert_array_equal(mask[live], [aecs[i].legal_mask() for i in live], err_msg=f"masks, step {step}")
        for seat in (0, 1):
            expected = [aecs[i].observe_state(aecs[i].game, aecs[i].game_state, seat) for i in live]
            np.testing.assert_array_equal(
                batch.observe(seat)[live], expected, err_msg=f"observations of seat {seat}, step {step}"
            )
        actions = batch.random_actions()
        take_swap = mask[:, swap] & (rng.random(num_games) < swap_rate)
        actions[take_swap] = swap
        ends["swaps"] += int(take_swap.sum())
        rewards, done = batch.step(actions)
        expected_rewards = np.zeros_like(rewards)
        for i in live:
            aec = aecs[i]
            aec.step(int(actions[i]))
            expected_rewards[i] = [aec.rewards[a] for a in aec.possible_agents]
            assert done[i] == aec.game.is_over(aec.game_state), (i, step)
            if done[i]:
                state = aec.game_state
                kind = (
                    "won"
                    if state.winner is not None
                    and aec.game.tables.has_won(
                        state.stones[aec.game.colour_of(state, state.winner)], aec.game.limits[state.winner]
                    )
                    else "ply limit"
                    if state.winner is None
                    else "no twirl"
                )
                ends[kind] += 1
                assert batch.board_state(i) == replace(state, legal=None)  # the rules' move cache aside
        np.testing.assert_array_equal(rewards, expected_rewards, err_msg=f"rewards, step {step}")
        step += 1


# every rule parameter: handicaps (an int, a per-seat pair either way), ply limits, both sizes
VARIANTS = [
    {"max_neighbors": 2},
    {"max_neighbors": 8},
    {"max_neighbors": (4, 2)},
    {"board_size": 8, "max_neighbors": (2, 5)},
    {"board_size": 8, "max_plies": 25},
    {"max_plies": 2},
    {"max_plies": 1},
]


@pytest.mark.parametrize("params", VARIANTS, ids=str)
def test_from_the_start_under_every_rule_parameter(params):
    ends = play_lockstep({"max_plies": 40, **params}, 24, seed=1)
    assert ends["ply limit"] == 24 and (ends["swaps"] > 0 or params.get("max_plies") == 1)


SPARSE_VARIANTS = [{}, {"board_size": 8}] + [p for p in VARIANTS if p.get("max_plies", 60) > 2]


@pytest.mark.parametrize("params", SPARSE_VARIANTS, ids=str)
def test_from_sparse_positions_wins_and_losses_without_a_twirl(params):
    params = {"max_plies": 60, **params}
    states = sparse_positions(params, 100, np.random.default_rng(7))
    ends = play_lockstep(params, 100, seed=2, states=states, swap_rate=0.3)
    assert ends["won"] > 0 and ends["no twirl"] > 0


@pytest.mark.parametrize(
    "board,to_move,params,swapped,action,over,winners",
    [
        (WIN_IN_ONE, WHITE, {}, False, twirl("g5", "S", -90), True, [1]),  # g5-f4: one group, <= 3 each
        (WIN_IN_ONE, WHITE, {}, False, twirl("g5", "S", 90), False, []),  # g5-h4: two groups
        (WIN_IN_ONE, WHITE, {"max_neighbors": 2}, False, twirl("g5", "S", -90), False, []),
        (WIN_IN_ONE, WHITE, {"max_neighbors": (2, 3)}, False, twirl("g5", "S", -90), True, [1]),
        (WIN_IN_ONE, WHITE, {"max_neighbors": (3, 2)}, False, twirl("g5", "S", -90), False, []),
        (
            WIN_IN_ONE,
            WHITE,
            {"max_neighbors": (3, 2)},
            True,
            twirl("g5", "S", -90),
            True,
            [0],
        ),  # limit follows the seat
        (WIN_IN_ONE, WHITE, {"max_plies": 11}, False, twirl("g5", "S", -90), True, [1]),  # a win before the ply limit
        (WIN_IN_ONE, WHITE, {"max_plies": 11}, False, twirl("g5", "S", 90), True, []),
        (STALEMATE_IN_ONE, BLACK, {}, False, twirl("h6", "NW", 90), True, [0]),  # White has no twirl left
        (STALEMATE_IN_ONE, BLACK, {}, True, twirl("h6", "NW", 90), True, [1]),
        (STALEMATE_IN_ONE, BLACK, {}, False, twirl("h6", "NW", 45), False, []),
        (STALEMATE_IN_ONE, BLACK, {"max_plies": 11}, False, twirl("h6", "NW", 90), True, []),  # the ply limit first
    ],
)
def test_end_of_game_in_the_batch(board, to_move, params, swapped, action, over, winners):
    batch = envs.make_batched("twirls", 3, seed=0, board_size=8, **params)
    batch.set_board(1, position(board, to_move, swapped=swapped))
    rewards, done = batch.step(np.array([-1, action, -1]))
    assert done.tolist() == [False, over, False]
    expected = [1.0 if s in winners else -1.0 for s in (0, 1)] if winners else [0.0, 0.0]
    assert rewards[1].tolist() == expected and not rewards[[0, 2]].any()
    assert batch.board_state(1).winner == (winners[0] if winners else None)
    assert batch.legal_mask()[1].any() != over


def test_swap_in_the_batch_hands_the_colours_over():
    """Black's first twirl, then White swaps: player_0 now plays White and moves; player_1 observes Black."""
    batch = envs.make_batched("twirls", 2, seed=0, board_size=8)
    mask = batch.legal_mask()
    assert not mask[:, -1].any()
    batch.step(batch.random_actions())
    assert batch.legal_mask()[:, -1].all() and (batch.to_move == 1).all()
    batch.step(np.array([batch.num_actions - 1, -1]))
    assert batch.to_move.tolist() == [0, 1] and batch.board_state(0).swapped
    assert not batch.legal_mask()[0, -1] and batch.legal_mask()[1, -1]
    tail = 3 * 64
    assert batch.observe(1)[0, tail] == 1.0 and batch.observe(0)[0, tail] == 0.0  # player_1 plays Black now
    assert batch.board_state(0).plies == 2


@pytest.mark.parametrize("size", [9, 8])
def test_move_generator_for_one_position_matches_the_python_one(size):
    """The batch's generator on the rules' bitboards (``batched.twirl_mask``) against the Python reference."""
    from envs.twirls.batched import twirl_mask
    from envs.twirls.rules import python_twirl_mask

    rng = np.random.default_rng(size)
    cells = size * size
    for stones in [0, 1, 2, 5, 10, 20, 30, 40, 60, cells - 1, cells]:
        for _ in range(20):
            chosen = rng.choice(cells, stones, replace=False)
            split = rng.integers(0, stones + 1)
            mine = sum(1 << int(c) for c in chosen[:split])
            theirs = sum(1 << int(c) for c in chosen[split:])
            fast, slow = np.zeros(cells * 32 + 1, dtype=bool), np.zeros(cells * 32 + 1, dtype=bool)
            assert twirl_mask(mine, theirs, size, fast) == python_twirl_mask(mine, theirs, size, slow)
            np.testing.assert_array_equal(fast, slow)


@pytest.mark.parametrize("opponent", ["random", "easy"])
def test_vector_env_plays_twirls(opponent):
    """The learner's vector env on Twirls: masks honoured, episodes end, rewards are the game's."""
    params = {"board_size": 8, "max_plies": 30}
    num_envs = 64 if opponent == "random" else 16
    vec = envs.make_vec("twirls", num_envs, opponent=opponent, seed=0, **params)
    obs, infos = vec.reset()
    assert obs.shape == (num_envs, 198) and vec.single_action_space.n == 2049
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(40 if opponent == "random" else 20):
        masks = vec.action_masks()
        assert masks.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, terminated, truncated, _ = vec.step(actions)
        assert set(rewards.tolist()) <= {-1.0, 0.0, 1.0} and not truncated.any()
        ended += int(terminated.sum())
        assert vec.observation_space.contains(obs)
    assert ended >= num_envs  # max_plies=30: every board's game has ended at least once
    with pytest.raises(ValueError, match="illegal learner action"):
        vec.step(np.argmin(vec.action_masks(), axis=1))  # the first illegal action of each board


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((0, 0, 7, np.zeros(2593, bool)), "size must be 8 or 9, got 7"),
        ((0, 0, True, np.zeros(2593, bool)), "size must be 8 or 9, got True"),
        ((-1, 0, 9, np.zeros(2593, bool)), "disjoint bitboards of the 9x9 board"),
        ((1 << 64, 0, 8, np.zeros(2049, bool)), "disjoint bitboards of the 8x8 board"),
        ((3, 1, 9, np.zeros(2593, bool)), "disjoint bitboards"),
        ((0, 0, 9, np.zeros(2049, bool)), "out must be a bool array of 2592"),
        ((0, 0, 9, np.zeros(2593, np.int8)), "out must be a bool array"),
    ],
)
def test_single_position_generator_names_bad_input(args, message):
    from envs.twirls.batched import twirl_mask

    with pytest.raises(ValueError, match=message):
        twirl_mask(*args)


def test_a_state_with_more_stones_than_the_setup_is_refused():
    """The batch has room for the set-up's stones per colour (twirls never add any): more is named, not written."""
    batch = envs.make_batched("twirls", 2, seed=0, board_size=8)
    state = batch.board_state(0)
    free = [c for c in range(64) if not (state.stones[0] | state.stones[1]) >> c & 1]
    extra = replace(state, stones=[state.stones[0] | 1 << free[0], state.stones[1]])
    with pytest.raises(ValueError, match="more than 12 stones of a colour"):
        batch.set_board(1, extra)
