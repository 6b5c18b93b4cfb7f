"""Swish's and Squeeze's batched engine beyond the registry's variants: every rule parameter, set-ups, the vector env.

``tests/conformance/test_every_variant.py`` plays the registry's variants (the three set-ups)
against the AEC env; here the other rule parameters (radius, max_plies,
beads_to_win) are played the same way, a few games each, compared for the
whole batch at once per step.
"""

import numpy as np
import pytest

import envs
from envs.hexrook.board import (
    NUM_BEADS,
    PHASE_CHOICE,
    PHASE_SETUP,
    ROOKS_PER_COLOUR,
    HexState,
)

GAMES = ("swish", "squeeze")
# each rule parameter away from its default, with each set-up at least once
VARIANTS = [
    {"radius": 3, "setup": "random"},
    {"radius": 8, "setup": "fixed", "max_plies": 40},
    {"radius": 5, "setup": "marquisian", "beads_to_win": 3},
    {"radius": 6, "setup": "random", "max_plies": 60, "beads_to_win": 19},
    {"setup": "fixed", "max_plies": 1},
    {"setup": "random", "beads_to_win": 1},
]


def play_lockstep(name, params, num_games, seed):
    """Random games through the batch and one AEC env per board; masks, both seats' observations, rewards and
    ends compared for all boards at once, every step. Returns the number of steps and the AEC envs."""
    batch = envs.make_batched(name, num_games, seed=seed, **params)
    aecs = []
    for i in range(num_games):
        aec = envs.make_raw(name, **params)
        aec.reset(seed=seed + i)
        aec.game_state = batch.board_state(i)
        aec.agent_selection = aec.possible_agents[aec.game.to_move(aec.game_state)]
        aecs.append(aec)
    no_mask = np.zeros(batch.num_actions, dtype=bool)
    steps = 0
    while not batch.over.all():
        live = ~batch.over
        masks = batch.legal_mask()
        expected = np.stack([aec.legal_mask() if live[i] else no_mask for i, aec in enumerate(aecs)])
        assert (masks == expected).all(), f"masks differ on boards {np.flatnonzero((masks != expected).any(1))}"
        for seat in (0, 1):
            obs = batch.observe(seat)[live]
            expected = np.stack(
                [aec.observe_state(aec.game, aec.game_state, seat) for i, aec in enumerate(aecs) if live[i]]
            )
            assert obs.dtype == expected.dtype == np.float32
            assert (obs == expected).all(), f"seat {seat}'s observations differ, step {steps}"
        actions = batch.random_actions()
        rewards, done = batch.step(actions)
        expected_rewards = np.zeros_like(rewards)
        for i in np.flatnonzero(actions >= 0):
            aecs[i].step(int(actions[i]))
            expected_rewards[i] = [aecs[i].rewards[a] for a in aecs[i].possible_agents]
        assert (rewards == expected_rewards).all(), f"rewards differ, step {steps}"
        assert (done == [aec.game.is_over(aec.game_state) for aec in aecs]).all(), f"ends differ, step {steps}"
        assert (batch.to_move[~done] == [aecs[i].game.to_move(aecs[i].game_state) for i in np.flatnonzero(~done)]).all()
        steps += 1
    for i, aec in enumerate(aecs):
        assert batch.board_state(i) == aec.game_state, f"board {i}'s final state"
    return steps, aecs


@pytest.mark.parametrize("params", VARIANTS, ids=str)
@pytest.mark.parametrize("name", GAMES)
def test_every_rule_parameter_plays_as_the_aec_env(name, params):
    _, aecs = play_lockstep(name, params, 24, seed=7)
    results = {tuple(aec.game.winners(aec.game_state)) for aec in aecs}
    if params.get("max_plies") == 1:
        assert results == {()}  # every game a draw at its first rook move (or lost before it, never here)


@pytest.mark.parametrize(
    ("name", "params", "games"),
    [
        ("swish", {"setup": "marquisian", "radius": 3}, 40),  # set-up phase on a small board: placements and choices
        ("squeeze", {"setup": "marquisian", "max_plies": 20}, 40),
    ],
)
def test_set_up_phase_and_choices_play_as_the_aec_env(name, params, games):
    steps, _ = play_lockstep(name, params, games, seed=3)
    assert steps > 25  # 25 placements, the choices, then rook moves


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("radius", [3, 4, 8])
def test_random_set_up_is_a_legal_placement_drawn_per_board(name, radius):
    batch = envs.make_batched(name, 256, seed=0, radius=radius)
    hx = batch.engine.game.hex
    layouts = set()
    for i in range(batch.num_envs):
        s = batch.board_state(i)
        rooks = s.rooks[0] + s.rooks[1]
        beads = [c for c in range(hx.n) if s.board[c] == 3]
        assert [len(r) for r in s.rooks] == [ROOKS_PER_COLOUR] * 2 and len(set(rooks)) == 2 * ROOKS_PER_COLOUR
        assert all(hx.is_edge[c] for c in rooks) and len(beads) == NUM_BEADS and not any(hx.is_edge[c] for c in beads)
        assert (s.phase, s.to_move) == (PHASE_CHOICE, 1)
        layouts.add(bytes(s.board))
    assert len(layouts) == batch.num_envs  # each board its own draw
    again = envs.make_batched(name, 256, seed=0, radius=radius)
    assert all(again.board_state(i) == batch.board_state(i) for i in range(0, 256, 17))


@pytest.mark.parametrize("name", GAMES)
def test_same_seed_same_games_and_boards_differ(name):
    """Long games (Squeeze's random games mostly reach max_plies): compared by observations, not rewards."""

    def trace(seed):
        batch = envs.make_batched(name, 16, seed=seed, setup="marquisian")
        out = []
        for _ in range(60):
            batch.step(batch.random_actions(), autoreset=True)
            out.append(batch.observe(0).copy())
        return np.stack(out)

    a, b, c = trace(5), trace(5), trace(6)
    assert (a == b).all() and not (a == c).all()
    assert len({a[-1, i].tobytes() for i in range(16)}) == 16


@pytest.mark.parametrize(
    ("state", "error", "match"),
    [
        ("not a state", TypeError, "must be a HexState"),
        (HexState(bytearray(37), [[], []]), ValueError, "37 cells where this variant's board has 61"),
        (HexState(bytearray(61), [[0, 1, 2, 3], []]), ValueError, "more than 3 rooks"),
        (HexState(bytearray(61), [[], []], last_path=tuple(range(10))), ValueError, "last path of 10 cells"),
    ],
)
def test_a_state_that_does_not_fit_is_named(state, error, match):
    batch = envs.make_batched("squeeze", 2, seed=0)
    with pytest.raises(error, match=match):
        batch.set_board(1, state)


def test_conversion_keeps_the_set_up_phase():
    batch = envs.make_batched("swish", 4, seed=0, setup="marquisian")
    for _ in range(7):
        batch.step(batch.random_actions())
    state = batch.board_state(2)
    assert state.phase == PHASE_SETUP and sum(state.to_place()) == 2 * ROOKS_PER_COLOUR + NUM_BEADS - 7
    batch.set_board(0, state)
    np.testing.assert_array_equal(batch.legal_mask()[0], batch.legal_mask()[2])
    np.testing.assert_array_equal(batch.observe(0)[0], batch.observe(0)[2])


@pytest.mark.parametrize(
    ("name", "opponent", "num_envs", "steps", "rules"),
    [
        ("swish", "random", 64, 300, {}),
        ("squeeze", "random", 64, 300, {}),
        ("swish", "easy", 8, 120, {}),
        ("squeeze", "easy", 8, 120, {"max_plies": 60}),
    ],
)
def test_vector_env_plays_the_game(name, opponent, num_envs, steps, rules):
    vec = envs.make_vec(name, num_envs, opponent=opponent, seed=1, **rules)
    game = vec.batch.engine.game
    obs, _ = vec.reset()
    assert obs.shape == (num_envs, 5 * game.hex.n + 13) and vec.single_action_space.n == game.num_actions
    rng = np.random.default_rng(0)
    ends = 0
    results = []
    for _ in range(steps):
        masks = vec.action_masks()
        assert masks.any(axis=1).all()
        seats = vec.seats.copy()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        _, rewards, terminated, truncated, _ = vec.step(actions)
        assert not truncated.any()
        for i in np.flatnonzero(terminated):  # NEXT_STEP: the board still holds the finished game
            state = vec.batch.board_state(int(i))
            assert state.over
            winners = game.winners(state)
            expected = 0.0 if not winners else (1.0 if winners == [seats[i]] else -1.0)
            assert rewards[i] == expected, (i, winners, seats[i])
            results.append(expected)
        assert (rewards[~terminated] == 0).all()
        ends += int(terminated.sum())
    assert ends > 0
    if opponent == "random":  # many games: the learner both wins and loses
        assert {-1.0, 1.0} <= set(results)
