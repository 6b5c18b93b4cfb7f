"""The conformance suite: the checks every registered game passes, for each of its registry variants (as pgx's
``api_test`` is for its games). Adding a game or a variant to envs/registry.py adds it to every test here.

- PettingZoo's api, seed and render tests, a picture in every rgb frame, pickling, gymnasium's check_env and the
  single-agent env's mask and seat;
- the batched engine against the rules (the AEC env), move by move: masks, every seat's observation, rewards,
  ends and winners. Swimming's steps deal chance and sink seats, so its engine is played against its AEC env in
  tests/games/swimming/test_batched_swimming.py instead;
- the observation against its declaration (envs/core/observation.py): the observation space, the doc page's table,
  and the batched kernel and the AEC env's ``observe_state``, piece by piece;
- golden playthroughs, illegal and bad input named, seeded games and bots' moves repeating.
"""

import functools
import importlib
import pickle
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test, seed_test

import envs
from envs.core.game import RuleError
from envs.playthrough import record
from envs.registry import GAMES, game_module, observation_shape, variant_label
from tests.helpers import GOLDEN, play_both

CASES = [(name, params) for name, e in GAMES.items() for params in e.variants]
IDS = [f"{name}[{variant_label(p) or 'default'}]" for name, p in CASES]
# every game has a batched engine today; Swimming's is played against its AEC env in its own folder (see above)
BATCHED = [pytest.param(name, params, id=i) for (name, params), i in zip(CASES, IDS) if GAMES[name].batched]
OWN_DIFFERENTIAL = {"swimming"}
# random games per variant: as many rules lines of envs/ run as with 200, but for the rarest events, which each
# game's own differential tests reach on purpose (Twirls' swap and wins: tests/games/twirls/test_twirls_batched.py)
GAMES_PER_VARIANT = 64


# -- PettingZoo's tests and the gymnasium view -------------------------------------------------------------------


@pytest.mark.parametrize("name,params", CASES, ids=IDS)
def test_pettingzoo_api(name, params):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(envs.make(name, **params), num_cycles=300)


@pytest.mark.parametrize("name,params", CASES, ids=IDS)
def test_pettingzoo_seed(name, params):
    seed_test(functools.partial(game_module(name).env, **params), num_cycles=300)


@pytest.mark.parametrize("name,params", CASES, ids=IDS)
def test_pettingzoo_render(name, params):
    render_test(functools.partial(game_module(name).env, **params))


@pytest.mark.parametrize("name,params", CASES, ids=IDS)
def test_rgb_frame_has_a_picture(name, params):
    env = envs.make(name, render_mode="rgb_array", **params)
    env.reset(seed=3)
    frame = env.render()
    assert frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == np.uint8
    assert frame.shape[0] >= 200 and frame.shape[1] >= 200
    colours = frame.reshape(-1, 3).astype(np.int32) @ np.array([1 << 16, 1 << 8, 1], np.int32)  # one int each
    assert len(np.unique(colours)) > 4, "the frame is (nearly) blank"


@pytest.mark.parametrize("name,params", CASES, ids=IDS)
def test_pickle_round_trip(name, params):
    """A copy pickled mid-game plays on exactly as the original: same moves, same observations, rewards and ends
    (chance included: the copy carries the generator)."""
    env = envs.make(name, **params)
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(6):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    clone = pickle.loads(pickle.dumps(env))
    steps = 0
    while env.agents and steps < 3000:
        assert clone.agent_selection == env.agent_selection
        a, b = env.last(), clone.last()
        assert np.array_equal(a[0]["observation"], b[0]["observation"])
        assert np.array_equal(a[0]["action_mask"], b[0]["action_mask"])
        assert a[1:4] == b[1:4]
        action = None if a[2] or a[3] else int(rng.choice(np.flatnonzero(a[0]["action_mask"])))
        env.step(action)
        clone.step(action)
        steps += 1
    assert env.agents == clone.agents == []  # both games played to the end


@pytest.mark.parametrize("name,params", CASES, ids=IDS)
def test_gymnasium_check_env(name, params):
    env = gymnasium.make(GAMES[name].gym_id, opponent="random", **params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)


@pytest.mark.parametrize("name,params", CASES, ids=IDS)
def test_single_agent_mask_and_seat(name, params):
    env = gymnasium.make(GAMES[name].gym_id, opponent="easy", **params)
    seats = set()
    for seed in range(6):
        obs, info = env.reset(seed=seed)
        seats.add(info["seat"])
        done = False
        while not done:
            mask = env.action_masks()
            assert mask.dtype == bool and mask.any()
            legal = np.flatnonzero(mask)
            obs, reward, done, truncated, info = env.step(int(legal[seed % len(legal)]))
            assert env.observation_space.contains(obs)
        assert env.action_masks().all(), "a finished episode's mask must be all True, never all False"
    assert len(seats) > 1, "the learner's seat should be drawn per episode"


# -- the batched engine against the rules ----------------------------------------------------------------------
@pytest.mark.parametrize(("name", "params"), [p for p in BATCHED if p.values[0] not in OWN_DIFFERENTIAL])
def test_batched_engine_plays_as_the_aec_env(name, params):
    batch, aecs = play_both(name, params, GAMES_PER_VARIANT, seed=12)
    for i, aec in enumerate(aecs):
        assert aec.game.winners(aec.game_state) == aec.game.winners(batch.board_state(i))


# -- the observation against its declaration ---------------------------------------------------------------------
@pytest.mark.parametrize("name,params", CASES, ids=IDS)
def test_the_declared_pieces_are_the_observation_space(name, params):
    env = envs.make_raw(name, **params)
    layout = env.observation(env.game)
    assert env.observation_space(env.possible_agents[0])["observation"].shape == (layout.size,)
    assert type(env).observation_shape(env.game) == (layout.size,)
    assert observation_shape(name, **params) == (layout.size,)  # the registry's, which policy files are checked by
    env.reset(seed=0)
    assert env.observe(env.agent_selection)["observation"].shape == (layout.size,)
    assert set(layout.split(env.observe(env.agent_selection)["observation"])) == {p.name for p in layout.pieces}


@pytest.mark.parametrize("name", list(GAMES))
def test_the_doc_page_shows_the_declared_table(name):
    page = importlib.import_module(GAMES[name].module).__doc__
    env = envs.make_raw(name)  # the doc page's table is of the default rules
    assert env.observation(env.game).table() in page


def _boards_along_random_play(name, params, boards=24, plies=60, seed=0):
    """A batch whose boards are at different points of their games (finished ones started again)."""
    batch = envs.make_batched(name, boards, seed=seed, **params)
    rng = np.random.default_rng(seed)
    for _ in range(int(rng.integers(plies // 2, plies))):
        actions = batch.random_actions()
        actions[rng.random(boards) < 0.3] = -1  # some boards stay behind, so the batch mixes game stages
        batch.step(actions, autoreset=True)
    return batch


@pytest.mark.parametrize(("name", "params"), BATCHED)
def test_kernel_and_aec_env_agree_piece_by_piece(name, params):
    raw = game_module(name).raw_env
    game = envs.make_raw(name, **params).game
    layout = raw.observation(game)
    for seed in range(3):
        batch = _boards_along_random_play(name, params, seed=seed)
        for seat in range(batch.num_players):
            kernel = layout.split(batch.observe(seat))
            for i in range(batch.num_envs):
                aec = layout.split(raw.observe_state(game, batch.board_state(i), seat))
                for piece in layout.pieces:
                    np.testing.assert_allclose(
                        kernel[piece.name][i], aec[piece.name], atol=1e-6, err_msg=f"{piece.name} ({piece.meaning})"
                    )


# -- golden playthroughs, bad input, seeded repeats ----------------------------------------------------------------
GOLDEN_GAMES = [(name, params, match) for name in GAMES for params, match in GAMES[name].golden_games]


@pytest.mark.parametrize(
    "name,params,match",
    GOLDEN_GAMES,
    ids=[GAMES[name].golden_file(params, match)[:-4] for name, params, match in GOLDEN_GAMES],
)
def test_golden_playthrough(name, params, match):
    """Random play under every variant, and the bot matches easy vs medium and hard vs medium under the default
    rules: a change in rules, observations, encodings or in how a bot or the hard opponent plays shows here."""
    path = GOLDEN / GAMES[name].golden_file(params, match)
    assert path.exists(), f"missing {path}: write it with `swgym golden --write`"
    assert record(name, seed=0, match=match, **params) == path.read_text(), (
        f"{name} {params}: the seeded game no longer matches {path.name}; if the change is intended, "
        "rewrite it with `swgym golden --write`"
    )


@pytest.mark.parametrize("name,params", CASES, ids=IDS)
def test_raw_env_illegal_action_names_the_problem(name, params):
    env = envs.make_raw(name, **params)
    env.reset(seed=0)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = np.flatnonzero(mask == 0)
    if illegal.size:
        with pytest.raises(RuleError, match=rf"illegal action {illegal[0]}\b.*legal:"):
            env.step(int(illegal[0]))
    with pytest.raises(RuleError, match="out of range"):
        env.step(env.game.num_actions)
    with pytest.raises(TypeError, match=r"must be an integer in \[0, \d+\).*'3' of type str"):
        env.step("3")


@pytest.mark.parametrize("name,params", CASES, ids=IDS)
def test_wrapped_env_illegal_action_loses(name, params):
    env = envs.make(name, **params)
    env.reset(seed=0)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    illegal = np.flatnonzero(mask == 0)
    if illegal.size == 0:
        pytest.skip("every action is legal at the start")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(int(illegal[0]))
    assert env.rewards[agent] == -1
    assert all(env.terminations.values())


@pytest.mark.parametrize("name", list(GAMES))
def test_bad_keyword_is_named(name):
    with pytest.raises(TypeError, match="no_such_rule"):
        envs.make(name, no_such_rule=1)
    with pytest.raises(ValueError, match="render_mode"):
        envs.make(name, render_mode="movie")


def first_moves(name, params, seed, plies=30):
    """The first ``plies`` actions of a seeded game, medium in seat 0 and easy bots elsewhere."""
    from envs.core.match import turns
    from envs.opponents import make_opponent

    env = envs.make_raw(name, **params)
    env.reset(seed=seed)
    players = [
        make_opponent(name, "medium" if s == 0 else "easy", seed=seed + s, **params)
        for s in range(env.game.num_players)
    ]
    actions = []
    for agent in turns(env, stop=lambda: len(actions) >= plies):
        obs = env.observe(agent)
        actions.append(players[env.agent_seat[agent]].act(obs["observation"], obs["action_mask"], env.game_state))
        env.step(actions[-1])
    return actions


@pytest.mark.parametrize("name,params", CASES, ids=IDS)
def test_same_seed_same_game_and_bot_moves(name, params):
    assert first_moves(name, params, seed=11) == first_moves(name, params, seed=11)


def test_unknown_game_is_named():
    with pytest.raises(ValueError, match="unknown game 'chess'.*swival"):
        envs.make("chess")
