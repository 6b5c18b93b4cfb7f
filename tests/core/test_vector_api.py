"""The learner's vector env (and make_batched) under what researchers send: bad actions and opponents, seeds and
reset masks, what the infos carry, arrays kept past the next step, rendering, and the SB3 view's episode log."""

from __future__ import annotations

import json

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import envs
from envs.core.batched import random_legal_actions, seed_streams
from envs.core.opponents import OpponentError
from envs.vector import PerBoard, PolicyBatch


def random_learner(vec, seed=0):
    """A learner picking a uniform legal action per board with the engine's compiled pick (fast, seeded)."""
    streams, everyone = seed_streams(seed, vec.num_envs), np.ones(vec.num_envs, dtype=bool)
    actions = np.empty(vec.num_envs, dtype=np.int64)

    def act():
        random_legal_actions(vec.action_masks(), streams, everyone, actions)
        return actions.copy()

    return act


def never_moves(observations, masks):
    return np.full(len(masks), -1)


# -- 1, 4, 6: opponents that fail ---------------------------------------------------------
@pytest.mark.parametrize("answer", [-1, -5, 73, 100])
def test_an_opponent_answering_no_move_or_out_of_range_raises_naming_it(answer):
    vec = envs.make_vec("swival", 4, opponent=lambda o, m: np.full(len(m), answer), seed=0, seat=1)
    with pytest.raises(OpponentError) as err:
        vec.reset()
    message = str(err.value)
    assert "opponent <function" in message and f"board 0 (seat 0): {answer}" in message and "board 3" in message


def test_an_opponent_that_raises_or_returns_a_wrong_shape_is_named():
    def broken(observations, masks):
        raise KeyError("no such table")

    vec = envs.make_vec("swival", 3, opponent=broken, seed=0, seat=1)
    with pytest.raises(OpponentError, match=r"opponent <function .*broken.* failed on boards \[0, 1, 2\].*KeyError"):
        vec.reset()
    vec = envs.make_vec("swival", 3, opponent=lambda o, m: np.zeros((len(m), 2), dtype=int), seed=0, seat=1)
    with pytest.raises(OpponentError, match=r"one int per board, shape \(3,\), got int64 \(3, 2\)"):
        vec.reset()


def test_an_illegal_opponent_move_names_whose_move_it_was():
    def occupied(observations, masks):  # a placement on an occupied cell once the board has counters
        own = observations[:, 24:48].argmax(axis=1)  # a cell the opponent (the observer) already holds
        return np.where(observations[:, 24:48].any(axis=1), own * 3, masks.argmax(axis=1))

    vec = envs.make_vec("swival", 2, opponent=occupied, seed=0, seat=0)
    vec.reset()
    with pytest.raises(OpponentError) as err:
        for _ in range(5):
            vec.step(vec.action_masks().argmax(axis=1))
    message = str(err.value)
    assert "occupied" in message and "(seat 1)" in message and "cannot be played" in message
    assert "legal_mask" not in message


def test_after_an_opponent_failed_step_asks_for_reset():
    calls = []

    def fails_third_time(observations, masks):
        calls.append(1)
        if len(calls) == 3:
            raise RuntimeError("out of memory")
        return masks.argmax(axis=1)

    vec = envs.make_vec("swival", 4, opponent=fails_third_time, seed=0, seat=0)
    vec.reset()
    vec.step(vec.action_masks().argmax(axis=1))
    vec.step(vec.action_masks().argmax(axis=1))
    with pytest.raises(OpponentError):
        vec.step(vec.action_masks().argmax(axis=1))
    with pytest.raises(RuntimeError, match=r"an opponent failed .*call reset\(\)"):
        vec.step(vec.action_masks().argmax(axis=1))
    obs, infos = vec.reset()
    assert (obs[:, 48:72] == 1).all() and (infos["seat"] == 0).all()  # new games, the learner (seat 0) to move
    vec.step(vec.action_masks().argmax(axis=1))


# -- 2, 6: the learner's actions -------------------------------------------------------------
@pytest.mark.parametrize("bad", [-1, -5, 73, 1000])
def test_learner_actions_outside_the_action_space_are_refused(bad):
    vec = envs.make_vec("swival", 4, seed=0)
    obs, _ = vec.reset()
    actions = vec.action_masks().argmax(axis=1)
    actions[2] = bad
    with pytest.raises(ValueError) as err:
        vec.step(actions)
    message = str(err.value)
    assert f"illegal learner action(s) (board 2: {bad})" in message and "action_masks()" in message
    assert "legal_mask" not in message
    np.testing.assert_array_equal(vec.step(vec.action_masks().argmax(axis=1))[0].shape, obs.shape)  # still usable


@pytest.mark.parametrize("ignored", [-1, -7, 10**6])
def test_next_step_ignores_any_action_on_a_board_being_reset(ignored):
    vec, twin = (envs.make_vec("swival", 8, seed=3) for _ in range(2))
    vec.reset(), twin.reset()
    act = random_learner(vec, seed=1)
    done = np.zeros(8, dtype=bool)
    while not done.any():
        actions = act()
        _, _, done, _, _ = vec.step(actions)
        twin.step(actions)
    actions = act()  # legal everywhere (all True where a board's episode is over)
    resetting = actions.copy()
    resetting[done] = ignored
    obs, rewards, terminated, _, _ = vec.step(resetting)
    expected = twin.step(actions)
    np.testing.assert_array_equal(obs, expected[0])
    np.testing.assert_array_equal(rewards, expected[1])
    assert not rewards[done].any() and not terminated[done].any()


def test_next_step_still_refuses_minus_one_on_a_live_board():
    vec = envs.make_vec("swival", 4, seed=0)
    vec.reset()
    actions = vec.action_masks().argmax(axis=1)
    actions[1] = -1
    with pytest.raises(ValueError, match=r"illegal learner action\(s\) \(board 1: -1\)"):
        vec.step(actions)


def test_make_batched_keeps_minus_one_as_no_move_and_refuses_other_negatives():
    batch = envs.make_batched("swival", 3, seed=0)
    before = batch.observe(0)
    rewards, done = batch.step(np.array([-1, -1, -1]))
    np.testing.assert_array_equal(batch.observe(0), before)
    assert not rewards.any() and not done.any() and (batch.to_move == 0).all()
    with pytest.raises(ValueError, match=r"board 1: -5.*-1 means no move"):
        batch.step(np.array([0, -5, -1]))
    np.testing.assert_array_equal(batch.observe(0), before)  # nothing was played


# -- 3: seeds and reset masks ---------------------------------------------------------------------
def test_a_list_of_seeds_seeds_each_board_as_a_one_board_env():
    seeds = [11, 3, 3, 40, 7, 0, 99, 5]
    vec = envs.make_vec("swahili", 8, seed=1)
    obs, infos = vec.reset(seed=np.array(seeds))
    assert (obs[1] == obs[2]).all() and infos["seat"][1] == infos["seat"][2]  # same seed, same game
    singles = [envs.make_vec("swahili", 1) for _ in seeds]
    for i, (single, seed) in enumerate(zip(singles, seeds)):
        one, one_infos = single.reset(seed=[seed])
        np.testing.assert_array_equal(one[0], obs[i])
        assert one_infos["seat"][0] == infos["seat"][i]
    for _ in range(20):
        actions = vec.action_masks().argmax(axis=1)
        obs, rewards, *_ = vec.step(actions)
        for i, single in enumerate(singles):
            one, one_rewards, *_ = single.step(actions[i : i + 1])
            np.testing.assert_array_equal(one[0], obs[i])
            assert one_rewards[0] == rewards[i]


@pytest.mark.parametrize(
    ("seed", "error", "named"),
    [
        (-1, ValueError, "seed must be None or an integer >= 0, got -1"),
        (1.5, TypeError, "got 1.5 of type float"),
        ([1, 2, 3], ValueError, "one per board (4), got 3"),
        ([1, 2, -3, 4], ValueError, "(board 2): seed must be None or an integer >= 0, got -3"),
        ([1, 2, 3.0, 4], TypeError, "(board 2): seed must be None or an integer >= 0, got 3.0"),
        ("7", TypeError, "got '7' of type str"),
    ],
)
def test_a_bad_seed_is_named_and_changes_nothing(seed, error, named):
    vec = envs.make_vec("swival", 4, seed=0)
    vec.reset()
    first = vec.action_masks().argmax(axis=1)
    obs, *_ = vec.step(first)
    seats = vec.seats.copy()
    with pytest.raises(error) as err:
        vec.reset(seed=seed)
    assert named in str(err.value)
    again = envs.make_vec("swival", 4, seed=0)
    again.reset()
    again.step(first)
    actions = vec.action_masks().argmax(axis=1)  # the refused reset left every board (and seat) as it was
    np.testing.assert_array_equal(vec.seats, seats)
    np.testing.assert_array_equal(vec.step(actions)[0], again.step(actions)[0])


def test_reset_mask_resets_only_those_boards():
    vec = envs.make_vec("swival", 4, seed=0, seat=0)
    vec.reset()
    for _ in range(3):
        obs, *_ = vec.step(vec.action_masks().argmax(axis=1))
    mask = np.array([False, True, False, True])
    fresh, infos = vec.reset(options={"reset_mask": mask})
    assert (fresh[mask, 48:72] == 1).all()  # new games: empty rings
    np.testing.assert_array_equal(fresh[~mask], obs[~mask])  # the others untouched
    np.testing.assert_array_equal(infos["_seat"], mask)
    again, _ = vec.reset(seed=5, options={"reset_mask": np.array([True, False, False, False])})
    np.testing.assert_array_equal(again[1:], fresh[1:])


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"reset_mask": [True, False]}, "bool numpy array of shape (2,)"),
        ({"reset_mask": np.array([1, 0])}, "bool numpy array of shape (2,)"),
        ({"reset_mask": np.zeros(2, dtype=bool)}, "resets no board"),
        ({"mask": np.ones(2, dtype=bool)}, "unknown reset option(s) ['mask']"),
    ],
)
def test_bad_reset_options_are_refused_not_ignored(options, named):
    vec = envs.make_vec("swival", 2, seed=0)
    vec.reset()
    with pytest.raises(ValueError) as err:
        vec.reset(options=options)
    assert named in str(err.value)


# -- 5, 9: Swimming's episode return is the learner seat's game result, the episode ending at its sink ---------
@pytest.mark.parametrize("players", [2, 4, 6])
def test_swimming_episode_return_is_the_seats_game_result(players):
    """Paid coins are -1 each and the last player left takes the pot, so a seat's game ends at -3 (it sank) or
    at 3 x (players - 1) (it won); 30k+ episodes, the learner's first move often after a round ended on the
    deal. The episode ends at the learner's sink: many games still go on then."""
    vec = envs.make_vec("swimming", 2048, seed=players, num_players=players)
    vec.reset()
    act = random_learner(vec, seed=players)
    returns = np.zeros(vec.num_envs)
    results = {"sank": [], "won": []}
    game_going_on = 0
    while len(results["sank"]) + len(results["won"]) < 30_000:
        _, rewards, terminated, _, infos = vec.step(act())
        returns += rewards
        for i in np.flatnonzero(terminated):
            seat = infos["seat"][i]
            sank = not vec.batch.arrays["active"][i, seat]
            assert sank or int(vec.batch.arrays["winner"][i]) == seat
            results["sank" if sank else "won"].append(returns[i])
            game_going_on += not vec.batch.over[i]
        returns[terminated] = 0.0
    assert set(results["sank"]) == {-3.0}
    assert set(results["won"]) == {3.0 * (players - 1)}
    assert game_going_on > 0.5 * len(results["sank"]) if players > 2 else game_going_on == 0


# -- 7: the mask and seat where wrappers look ------------------------------------------------------------------
def test_infos_carry_the_mask_and_seat_with_their_row_masks():
    vec = envs.make_vec("swival", 8, seed=0)
    obs, infos = vec.reset()
    assert infos["action_mask"].dtype == np.int8 and infos["action_mask"].shape == (8, 73)
    np.testing.assert_array_equal(infos["action_mask"], vec.action_masks(np.int8))
    assert vec.action_masks(np.int8).dtype == np.int8 and vec.action_masks().dtype == bool
    assert infos["_action_mask"].all() and infos["_seat"].all()
    wrapped = gymnasium.wrappers.vector.RecordEpisodeStatistics(vec)
    wrapped.reset(seed=0)
    for _ in range(30):
        masks = vec.action_masks()
        _, _, terminated, _, infos = wrapped.step(masks.argmax(axis=1))
        np.testing.assert_array_equal(infos["action_mask"], vec.action_masks(np.int8))
        if terminated.any():
            assert infos["action_mask"][terminated].all()  # over: all ones, never all zeros
            assert "episode" in infos
            break
    else:
        pytest.fail("no episode ended in 30 steps")


def test_same_step_mode_gives_final_info():
    vec = envs.make_vec("swival", 16, seed=2, autoreset_mode=AutoresetMode.SAME_STEP)
    vec.reset()
    for _ in range(40):
        seats = vec.seats.copy()
        _, _, terminated, _, infos = vec.step(vec.action_masks().argmax(axis=1))
        if terminated.any():
            np.testing.assert_array_equal(infos["_final_info"], terminated)
            np.testing.assert_array_equal(infos["final_info"]["_seat"], terminated)
            np.testing.assert_array_equal(infos["final_info"]["seat"][terminated], seats[terminated])
            return
    pytest.fail("no game ended in 40 steps")


# -- 8: arrays handed out are the caller's --------------------------------------------------------------------
def test_stored_rewards_and_masks_stay_as_they_were():
    batch = envs.make_batched("swival", 64, seed=0)
    stored, copies = [], []
    for _ in range(30):
        mask = batch.legal_mask()
        rewards, done = batch.step(batch.random_actions(), autoreset=True)
        stored.append((mask, rewards, done))
        copies.append((mask.copy(), rewards.copy(), done.copy()))
    assert sum(int((r != 0).sum()) for _, r, _ in stored) > 0
    for (mask, rewards, done), (mask0, rewards0, done0) in zip(stored, copies):
        np.testing.assert_array_equal(mask, mask0)
        np.testing.assert_array_equal(rewards, rewards0)
        np.testing.assert_array_equal(done, done0)
    mask = batch.legal_mask()
    mask[:] = False  # the caller's copy: the engine's own mask is untouched
    assert batch.legal_mask().any(axis=1).all()
    assert (batch.random_actions() >= 0).all()
    seats = batch.to_move
    batch.step(batch.random_actions(), autoreset=True)
    assert (seats != batch.to_move).any()  # a copy: the step changed the live seats, not the kept ones
    with pytest.raises(ValueError, match="read-only"):
        seats[0] = 1  # writing would change nothing in the game: it fails loudly
    with pytest.raises(ValueError, match="read-only"):
        batch.over[:] = True


def test_the_vector_env_hands_out_arrays_it_does_not_overwrite():
    vec = envs.make_vec("swival", 32, seed=0)
    vec.reset()
    stored, copies = [], []
    for _ in range(30):
        masks = vec.action_masks()
        obs, rewards, terminated, _, infos = vec.step(masks.argmax(axis=1))
        stored.append((masks, obs, rewards, terminated, infos["action_mask"], infos["seat"]))
        copies.append(tuple(np.array(a, copy=True) for a in stored[-1]))
    assert sum(int((s[2] != 0).sum()) for s in stored) > 0
    for kept, copied in zip(stored, copies):
        for a, b in zip(kept, copied):
            np.testing.assert_array_equal(a, b)
    with pytest.raises(ValueError, match="read-only"):
        stored[-1][4][0, 0] = 0


# -- 10: a policy file is one forward pass; search by name ---------------------------------------------------
def test_a_policy_file_is_its_network_batched_and_search_is_asked_by_name(tmp_path):
    from policies import shipped_path
    from policies.numpy_policy import read_policy_file

    meta, arrays = read_policy_file(shipped_path("swival"))
    assert meta.get("search")  # the shipped file names a search
    path = tmp_path / "swival_hard.npz"
    np.savez(path, meta=json.dumps(meta), **arrays)
    calls = []
    vec = envs.make_vec("swival", 16, opponent=str(path), seed=0, seat=1)
    opponent = vec.opponents[0]
    assert isinstance(opponent, PolicyBatch)
    logits = opponent.policy.logits
    opponent.policy.logits = lambda obs: calls.append(len(obs)) or logits(obs)
    vec.reset()
    assert calls == [16]  # one forward pass for the 16 boards to move
    assert isinstance(envs.make_vec("swival", 2, opponent="network").opponents[0], PolicyBatch)
    searching = envs.make_vec("swival", 2, opponent="search:" + str(path), seed=0).opponents[0]
    assert isinstance(searching, PerBoard) and not hasattr(searching.opponent, "logits")


# -- 11: rendering and Gymnasium's call / get_attr / set_attr ---------------------------------------------------
def test_render_shows_boards_as_the_aec_env_draws_them():
    vec = envs.make_vec("swival", 6, seed=0, render_mode="rgb_array", render_boards=4)
    vec.reset()
    for _ in range(3):
        vec.step(vec.action_masks().argmax(axis=1))
    raw = envs.make_raw("swival", render_mode="rgb_array")
    raw.reset(seed=0)
    raw.game_state = vec.batch.board_state(2)
    raw.last_move = None
    np.testing.assert_array_equal(vec.render_board(2), raw.render())
    grid = vec.render()
    h, w, _ = raw.render().shape
    assert grid.shape == (2 * h + 4, 2 * w + 4, 3) and grid.dtype == np.uint8
    np.testing.assert_array_equal(grid[h + 4 :, :w], vec.render_board(2))
    text = envs.make_vec("swival", 3, seed=0, render_mode="ansi", render_boards=2)
    text.reset()
    shown = text.render()
    assert "board 0, learner: player_" in shown and "board 1" in shown and "board 2" not in shown
    with pytest.raises(ValueError, match="render_mode"):
        envs.make_vec("swival", 2).render()
    with pytest.raises(ValueError, match=r"render_boards must be an int in \[1, 3\]"):
        envs.make_vec("swival", 3, render_mode="ansi", render_boards=4)


def test_call_get_attr_and_set_attr_as_gymnasium_vector_envs():
    vec = envs.make_vec("swival", 4, seed=0)
    vec.reset()
    rows = vec.call("action_masks")
    assert len(rows) == 4 and all((r == m).all() for r, m in zip(rows, vec.action_masks()))
    assert vec.get_attr("name") == ("swival",) * 4
    assert vec.call("seats") == tuple(int(s) for s in vec.seats)
    vec.set_attr("render_boards", [2, 2, 2, 2])
    assert vec.render_boards == 2
    with pytest.raises(ValueError, match="different values per board"):
        vec.set_attr("render_boards", [1, 2, 1, 2])
    with pytest.raises(AttributeError, match="no attribute 'nosuch'"):
        vec.set_attr("nosuch", 1)
    vec.set_attr("opponent", "easy")
    assert type(vec.opponents[0]).__name__ == "PerBoard"


# -- 12: the SB3 view logs episodes ------------------------------------------------------------------------------
def test_sb3_vec_env_reports_each_finished_episode():
    from training.sb3_vec import make_sb3_vec

    vec = make_sb3_vec("swival", 8, opponent="random", seed=0)
    vec.reset()
    returns, lengths, seen = np.zeros(8), np.zeros(8, dtype=int), 0
    for _ in range(60):
        masks = vec.action_masks()
        vec.step_async(masks.argmax(axis=1))
        _, rewards, dones, infos = vec.step_wait()
        returns += rewards
        lengths += 1
        for i in np.flatnonzero(dones):
            assert infos[i]["episode"]["r"] == returns[i] and infos[i]["episode"]["l"] == lengths[i]
            seen += 1
        assert all("episode" not in infos[i] for i in np.flatnonzero(~dones))
        returns[dones], lengths[dones] = 0, 0
    assert seen > 8


# -- 13: progress lines say draws ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("win", "draw", "games", "line"),
    [
        (0.0, 1.0, 400, "vs medium: 0 W / 400 D / 0 L of 400 games, score 50%"),
        (0.02, 0.98, 400, "vs medium: 8 W / 392 D / 0 L of 400 games, score 51%"),
        (0.25, 0.0, 40, "vs medium: 10 W / 0 D / 30 L of 40 games, score 25%"),
    ],
)
def test_training_progress_gives_wins_draws_and_losses(win, draw, games, line):
    from training.selfplay import result_line

    assert result_line(win, draw, games, "medium") == line


def test_bench_warms_every_measurement_before_timing(monkeypatch):
    from scripts import bench

    calls = []
    for name in ("agent_steps_per_second", "batched_steps_per_second", "vector_steps_per_second"):
        monkeypatch.setattr(bench, name, lambda *a, seed=0, name=name: calls.append((name, a[-1], seed)) or 1.0)
    rows = bench.batch_run([("swival", {})], seconds=0.5, rounds=2)
    warm = [c for c in calls if c[1] == bench.WARM_UP_SECONDS]
    timed = [c for c in calls if c[1] == 0.5]
    assert len(warm) == len(rows) == 1 + 1 + 3 + 2 and len(timed) == 2 * len(rows)
    assert calls[: len(warm)] == warm  # every measurement ran untimed before the first timed one
    vec_rows = [r for r in rows if r["engine"].startswith("vec")]
    assert [r["x_engine"] for r in vec_rows] == [2.0, 2.0]  # learner steps x 2 players / engine steps


@pytest.mark.parametrize(
    ("opponent", "aside"),
    [("random", True), (["random", "random"], True), ("easy", False), (["random", "easy"], False)],
)
def test_random_opponents_loop_compiles_aside_for_the_types_it_is_called_with(monkeypatch, opponent, aside):
    """A first step's largest kernel (the random opponents' loop) compiles in a second process on a cold cache:
    asked for with the very argument types the env then calls it with, so that it is loaded, not compiled again."""
    import envs.core.batched as batched

    asked = []
    monkeypatch.setattr(batched, "compile_aside", lambda jobs: asked.extend(jobs))
    vec = envs.make_vec("swahili", 3, opponent=opponent, seed=0, num_players=3)
    vec.reset(seed=0)
    vec.step(random_learner(vec)())
    if not aside:
        assert asked == []
        return
    [(kernel, signature)] = asked
    assert kernel is vec.batch.engine.random_others and signature in kernel.signatures
