"""Training -> export -> numpy policy -> play: the hard-opponent pipeline."""

import json

import numpy as np
import pytest
import torch

import policies
from envs.opponents import make_opponent
from envs.play import play_game, play_series
from envs.registry import GAMES
from envs.single_agent import SingleAgentEnv
from policies.numpy_policy import NumpyPolicy, PolicyFileError, masked_log_softmax, masked_softmax
from tests.training_helpers import tiny_config
from training.export import export_policy, torch_probabilities
from training.selfplay import train

torch.set_num_threads(1)


@pytest.fixture(scope="module")
def swival_policy(tmp_path_factory):
    out = tmp_path_factory.mktemp("swival_run")
    summary = train(tiny_config("swival"), out, progress_bar=False, tensorboard=False)
    return out, summary


def test_training_without_tensorboard_leaves_no_log_folder_in_the_temp_directory(tmp_path, monkeypatch):
    import tempfile

    from sb3_contrib import MaskablePPO

    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    monkeypatch.delenv("SB3_LOGDIR", raising=False)
    train(tiny_config("swival"), tmp_path / "run", progress_bar=False, tensorboard=False)
    assert list(temp.glob("SB3-*")) == []
    model = MaskablePPO("MlpPolicy", SingleAgentEnv("swival", opponent="random"), n_steps=64, batch_size=64, seed=0)
    model.learn(64)
    assert len(list(temp.glob("SB3-*"))) == 1  # SB3's own habit, which training.selfplay.log_nowhere spares


def test_numpy_forward_matches_torch(tmp_path):
    from sb3_contrib import MaskablePPO

    env = SingleAgentEnv("swival", opponent="random")
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64, seed=3, policy_kwargs={"net_arch": [24, 12]})
    model.learn(64)
    path = export_policy(model.policy, tmp_path / "p.npz", "swival", {})
    numpy_policy = NumpyPolicy(path, name="swival")
    obs, masks = [], []
    for seed in range(40):
        o, _ = env.reset(seed=seed)
        for _ in range(seed % 7):
            legal = np.flatnonzero(env.action_masks())
            o, _, done, _, _ = env.step(int(legal[seed % legal.size]))
            if done:
                o, _ = env.reset(seed=seed + 100)
        obs.append(o)
        masks.append(env.action_masks())
    obs, masks = np.array(obs), np.array(masks)
    torch_probs, torch_values = torch_probabilities(model.policy, obs, masks)
    for i in range(len(obs)):
        np.testing.assert_allclose(numpy_policy.probabilities(obs[i], masks[i]), torch_probs[i], atol=1e-5)
    _, values = numpy_policy.forward(obs)
    np.testing.assert_allclose(values, torch_values, atol=1e-5)
    np.testing.assert_allclose(numpy_policy.values(obs), torch_values, atol=1e-5)


def test_tiny_run_writes_policy_curve_and_summary(swival_policy):
    out, summary = swival_policy
    for name in ("swival_hard.npz", "learning_curve.csv", "learning_curve.png", "summary.json", "config.json"):
        assert (out / name).exists(), name
    games = tiny_config("swival")["eval"]["games"]  # each point is a count of won (and drawn) games over these
    assert summary["curve"] and all(
        (c["win_rate"] * games).is_integer()
        and (c["draw_rate"] * games).is_integer()
        and c["win_rate"] + c["draw_rate"] <= 1
        for c in summary["curve"]
    )
    assert list((out / "snapshots").glob("*.npz")), "self-play snapshots were taken"


@pytest.mark.parametrize("name", list(GAMES))
def test_tiny_training_run_end_to_end(name, tmp_path):
    params = GAMES[name].variants[0]
    summary = train(tiny_config(name, params=params), tmp_path, progress_bar=False, tensorboard=False)
    opponent = make_opponent(name, summary["policy"], seed=0, **params)
    assert isinstance(opponent, NumpyPolicy)
    n = SingleAgentEnv(name, **params).aec.game.num_players
    legal = []  # (seat, whether the move was in the mask) of every move
    record = play_game(
        name,
        [opponent] + [make_opponent(name, "random", seed=1, **params)] * (n - 1),
        seed=0,
        observer=lambda seat, obs, mask, action: legal.append((seat, bool(mask[action]))),
        **params,
    )
    assert all(ok for _, ok in legal) and len(legal) == record.plies
    assert sum(seat == 0 for seat, _ in legal) == len(record.move_seconds[0]) >= 1  # the exported policy moved


def test_explain_lists_top_legal_moves_and_value(swival_policy):
    out, _ = swival_policy
    policy = NumpyPolicy(out / "swival_hard.npz", name="swival")
    env = SingleAgentEnv("swival")
    obs, _ = env.reset(seed=0)
    mask = env.action_masks()
    brain = policy.explain(obs, mask, top=3)
    assert len(brain["moves"]) == 3 and all(mask[a] for a, _ in brain["moves"])
    probs = [p for _, p in brain["moves"]]
    assert probs == sorted(probs, reverse=True) and isinstance(brain["value"], float)


def test_temperature_sampling_is_seeded_and_legal(swival_policy):
    out, _ = swival_policy
    env = SingleAgentEnv("swival")
    obs, _ = env.reset(seed=0)
    mask = env.action_masks()
    a = [NumpyPolicy(out / "swival_hard.npz", temperature=1.0, seed=5).act(obs, mask) for _ in range(2)]
    assert a[0] == a[1] and mask[a[0]]
    with pytest.raises(ValueError, match="temperature"):
        NumpyPolicy(out / "swival_hard.npz", temperature=-1)


def test_corrupt_file_is_named(tmp_path):
    bad = tmp_path / "broken.npz"
    bad.write_bytes(b"not a zip at all")
    with pytest.raises(PolicyFileError, match="broken.npz.*not a readable"):
        NumpyPolicy(bad)


def test_missing_file_is_named(tmp_path):
    with pytest.raises(FileNotFoundError, match="nothing.npz"):
        NumpyPolicy(tmp_path / "nothing.npz")


def test_foreign_npz_is_named(tmp_path):
    path = tmp_path / "weights.npz"
    np.savez(path, w=np.zeros(3))
    with pytest.raises(PolicyFileError, match="no 'meta'"):
        NumpyPolicy(path)


def test_wrong_game_and_wrong_shapes_are_named(swival_policy, tmp_path):
    out, _ = swival_policy
    with pytest.raises(PolicyFileError, match="is for 'swival', not 'twirls'"):
        NumpyPolicy(out / "swival_hard.npz", name="twirls")
    with np.load(out / "swival_hard.npz") as f:
        arrays = {k: f[k] for k in f.files}
    arrays["pi_w0"] = arrays["pi_w0"][:-1]
    np.savez(tmp_path / "cut.npz", **arrays)
    with pytest.raises(PolicyFileError, match=r"cut.npz: policy layer 0 has weights \(77, 16\)"):
        NumpyPolicy(tmp_path / "cut.npz")


def test_hard_without_a_shipped_policy_says_so(monkeypatch, tmp_path):
    monkeypatch.setattr(policies, "POLICY_DIR", tmp_path)
    with pytest.raises(FileNotFoundError, match="no hard opponent is shipped for swival"):
        policies.load("swival", "hard")


SHIPPED = [
    (name, params)
    for name in GAMES
    for params in GAMES[name].variants
    if policies.shipped_path(name, **params).exists()
]


def test_shipped_path_names_the_variant():
    assert policies.shipped_path("swival").name == "swival_hard.npz"


# The shipped network alone (no search) against random players: (wins, draws, losses) of 12 seeded games, seats
# rotated. The search around it is pinned move by move by the hard-vs-medium golden playthroughs
# (tests/golden/*_hard-vs-medium.txt, conformance/test_every_variant.py::test_golden_playthrough).
NETWORK_VS_RANDOM = {
    ("swival", "{}"): (12, 0, 0),
    ("twirls", "{}"): (3, 9, 0),  # the network alone draws most games (its strength is the search); never loses
    ("swimming", '{"num_players": 4}'): (12, 0, 0),
    ("swahili", '{"num_players": 2}'): (12, 0, 0),
    ("swahili", '{"num_players": 4}'): (11, 0, 1),
    ("swish", '{"setup": "random"}'): (12, 0, 0),
    ("squeeze", '{"setup": "random"}'): (12, 0, 0),
}


def test_every_shipped_policy_is_in_the_table():
    assert {(name, json.dumps(params, sort_keys=True)) for name, params in SHIPPED} == set(NETWORK_VS_RANDOM)


@pytest.mark.parametrize("name,params", SHIPPED, ids=[f"{n}-{p}" for n, p in SHIPPED])
def test_shipped_network_loads_and_beats_random(name, params):
    n = SingleAgentEnv(name, **params).aec.game.num_players
    network = NumpyPolicy(policies.shipped_path(name, **params), name=name, params=params)
    result = play_series(name, [network] + ["random"] * (n - 1), games=12, seed=0, **params)
    expected = NETWORK_VS_RANDOM[name, json.dumps(params, sort_keys=True)]
    assert (result.wins[0], result.draws[0], result.losses[0]) == expected


def test_elo_fit_orders_by_strength():
    from policies.ladder import bradley_terry_elo

    names = ["random", "easy", "medium"]
    games = np.full((3, 3), 100.0) - 100 * np.eye(3)
    score = np.array([[0, 30, 5], [70, 0, 20], [95, 80, 0]], dtype=float)
    elo = bradley_terry_elo(names, score, games)
    assert elo["random"] == 0 and 0 < elo["easy"] < elo["medium"]
    assert abs(elo["easy"] - 400 * np.log10(70 / 30)) < 60  # close to the two-player Elo of a 70% score


def test_sb3_zip_opponent_plays_and_checks_shapes(tmp_path):
    from sb3_contrib import MaskablePPO

    from policies.sb3_opponent import SB3Opponent

    model = MaskablePPO("MlpPolicy", SingleAgentEnv("swival"), n_steps=32, batch_size=32, seed=0)
    model.save(tmp_path / "m.zip")
    opponent = make_opponent("swival", str(tmp_path / "m.zip"), trusted=True)
    assert isinstance(opponent, SB3Opponent)
    predicted = []  # (the opponent's move, what the SB3 model itself predicts) at each of its turns

    def compare(seat, obs, mask, action):
        if seat == 0:
            best, _ = opponent.model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
            predicted.append((int(action), int(best)))

    play_game("swival", [opponent, make_opponent("swival", "random", seed=0)], seed=0, observer=compare)
    assert predicted and all(a == b for a, b in predicted)
    with pytest.raises(ValueError, match="m.zip: model has observation"):
        SB3Opponent(tmp_path / "m.zip", name="swahili")


def test_ladder_rates_two_player_rules_and_writes_files(tmp_path):
    from policies.ladder import ladder, ladder_rules, save_ladder, two_player_rules

    assert two_player_rules("swimming") == {"num_players": 2}
    assert two_player_rules("swival") == {}
    # rated under the rules the hard opponent ships for
    assert ladder_rules("swimming") == {"num_players": 4}
    assert ladder_rules("swahili") == {"num_players": 2}
    assert ladder_rules("swival") == {}
    result = ladder("swival", ["random", "easy", "medium"], games=6, seed=0)
    assert result["elo"]["random"] == 0 and result["elo"]["medium"] > result["elo"]["random"]
    json_path, png_path = save_ladder(result, tmp_path)
    assert json_path.exists() and png_path.stat().st_size > 1000


@pytest.mark.parametrize(
    "players,wins,draws,losses,expected",
    [
        (2, 7, 2, 1, (8.0, 10.0)),  # two players: win 1, draw 1/2
        (4, 10, 0, 30, (60.0, 120.0)),  # a fair share of wins scores half the pairs
        (4, 1, 0, 0, (3.0, 3.0)),  # a win beats all three others
        (4, 0, 0, 1, (1.0, 3.0)),  # a loss: beaten by the winner, tied with the other two losers
        (4, 0, 1, 0, (1.5, 3.0)),  # nobody won: three ties
    ],
)
def test_lone_entrant_scores_pair_by_pair(players, wins, draws, losses, expected):
    from envs.play import SeriesResult
    from policies.ladder import lone_entrant_score

    games = wins + draws + losses
    result = SeriesResult(
        ["a"] + ["b"] * (players - 1),
        [wins] + [0] * (players - 1),
        [draws] * players,
        [losses] + [0] * (players - 1),
        [0.0] * players,
        games,
    )
    assert lone_entrant_score(result) == expected


def test_four_player_ladder_plays_each_pair_both_ways(tmp_path):
    from policies.ladder import ladder, save_ladder

    result = ladder("swahili", ["random", "medium"], games=4, seed=0, params={"num_players": 4})
    assert result["players"] == 4
    assert [(p["a"], p["b"], p["seats"], p["a_wins"], p["draws"], p["b_wins"]) for p in result["pairs"]] == [
        ("random", "medium", "1 x a, 3 x b", 0, 0, 4),
        ("medium", "random", "1 x a, 3 x b", 4, 0, 0),
    ]
    # pair by pair: lone medium 4 wins = 12 of 12 pairs; lone random 4 losses = 4 of 12 (ties with the other losers)
    assert result["pairwise_elo"]["random"] == 0 and round(result["pairwise_elo"]["medium"]) == 263
    # whole finishing orders: random's places behind the three mediums count too, so it rates far lower
    assert result["elo"]["random"] == 0 and result["elo"]["medium"] > 2 * 263
    # eight games, each with random last of four: medium's interval lies wholly above random's rating
    assert result["interval95"]["random"] == [0.0, 0.0] and result["interval95"]["medium"][0] > 200
    assert save_ladder(result, tmp_path)[1].stat().st_size > 1000


@pytest.mark.parametrize(
    "game,potential,params",
    [
        ("twirls", "twirls_groups", {"board_size": 8, "max_plies": 40}),
        ("squeeze", "hex_store_lead", {"setup": "fixed"}),
    ],
)
def test_shaping_telescopes_to_the_game_reward(game, potential, params):
    from training.shaping import ShapedReward

    base = SingleAgentEnv(game, opponent="easy", seat=0, **params)
    shaped = ShapedReward(SingleAgentEnv(game, opponent="easy", seat=0, **params), potential, gamma=1.0)
    rng_a, rng_b = np.random.default_rng(1), np.random.default_rng(1)
    base.reset(seed=3)
    shaped.reset(seed=3)
    phi0 = shaped.phi
    total_base = total_shaped = 0.0
    done = False
    while not done:
        a = int(rng_a.choice(np.flatnonzero(base.action_masks())))
        assert a == int(rng_b.choice(np.flatnonzero(shaped.unwrapped.action_masks())))
        _, r, done, _, _ = base.step(a)
        _, rs, done_s, _, _ = shaped.step(a)
        assert done == done_s
        total_base += r
        total_shaped += rs
    assert total_shaped == pytest.approx(total_base - phi0)
    with pytest.raises(ValueError, match="unknown shaping potential"):
        ShapedReward(base, "nope", gamma=1.0)


def test_report_rows_replace_their_matchups_and_keep_the_rest(tmp_path):
    import json as _json

    from policies.report import report, write_report

    rows = report(2, ["swahili"], seed=0, pairs=[("medium", "random"), ("medium", "easy")])
    assert [(r["entrant"], r["against"]) for r in rows] == [("medium", "1 x random"), ("medium", "1 x easy")]
    assert all(0.0 <= r["median_move_s"] <= r["max_move_s"] for r in rows)
    write_report(rows, tmp_path)
    changed = {**rows[0], "wins": 99}
    write_report([changed], tmp_path)
    saved = _json.loads((tmp_path / "eval.json").read_text())
    assert len(saved) == len(rows) and saved[0]["wins"] == 99 and saved[1] == rows[1]
    assert "| swahili | num_players=2 | medium | 1 x random | 99 / " in (tmp_path / "EVAL.md").read_text()


def test_report_pairs_and_the_score_column():
    from policies.report import markdown, report, score

    rows = report(2, ["swival"], seed=0, pairs=[("medium", "random")])
    assert [(r["entrant"], r["against"]) for r in rows] == [("medium", "1 x random")]
    assert markdown(rows).splitlines()[0].split(" | ")[4:6] == ["W / D / L", "score"]
    assert score(8, 392, 0, 2) == "51.0%"  # an unbeaten drawer, not a loser
    assert score(96, 0, 304, 4) == "24.0% (fair share 25%)"


def test_value_members_must_match_the_policy_file(tmp_path):
    import shutil

    from policies import shipped_path
    from training.export import add_value_members

    target = tmp_path / "squeeze.npz"
    shutil.copyfile(shipped_path("squeeze", setup="random"), target)
    with pytest.raises(ValueError, match="value member .*swish.npz has game 'swish'"):
        shutil.copyfile(shipped_path("swish", setup="random"), tmp_path / "swish.npz")
        add_value_members(target, [tmp_path / "swish.npz"])


@pytest.mark.parametrize(
    "game,params,search,message",
    [
        ("swish", {"setup": "random"}, {"depth": 3, "quiesence": 2}, "quiesence"),
        ("swish", {"setup": "random"}, {"depth": 3, "order_by": "hunch"}, "order_by"),
        ("swival", {}, {"depth": 3, "solve_from_empty": -17}, "solve_from_empty must be an int >= 0, got -17"),
        ("swival", {}, {"depth": 3, "solve_from_empty": 17.5}, "solve_from_empty must be an int >= 0, got 17.5"),
        ("swival", {}, {"depth": 3, "solve_from_empty": 17, "solve_nodes": -1}, "solve_nodes must be an int >= 1"),
        ("swish", {"setup": "random"}, {"depth": 3, "solve_from_empty": 17}, "swish has none"),
    ],
)
def test_bad_search_settings_in_a_policy_file_are_named(tmp_path, game, params, search, message):
    from policies.numpy_policy import read_policy_file

    meta, arrays = read_policy_file(policies.shipped_path(game, **params))
    meta["search"] = search
    path = tmp_path / "bad_search.npz"
    np.savez_compressed(path, meta=np.array(json.dumps(meta)), **arrays)
    with pytest.raises(policies.PolicyFileError, match=f"bad_search.npz: its search settings .*{message}"):
        policies.load(game, str(path), **params)


def _with_search(tmp_path, game, params, search):
    """A copy of the shipped policy file of ``game`` with ``search`` as its play-time search settings."""
    from policies.numpy_policy import read_policy_file

    meta, arrays = read_policy_file(policies.shipped_path(game, **params))
    meta["search"] = search
    path = tmp_path / "with_search.npz"
    np.savez_compressed(path, meta=np.array(json.dumps(meta)), **arrays)
    return path


def test_search_kind_picks_the_search(tmp_path):
    from policies.search.alpha_beta import PolicySearch
    from policies.search.rollouts import RolloutSearch

    params = {"num_players": 4}
    path = _with_search(
        tmp_path, "swimming", params, {"kind": "rollouts", "samples": 4, "width": 2, "always": [10, 11]}
    )
    opponent = policies.load("swimming", str(path), seed=1, **params)
    assert isinstance(opponent, RolloutSearch)
    assert (opponent.samples, opponent.width, opponent.always) == (4, 2, (10, 11))
    path = _with_search(tmp_path, "swival", {}, {"kind": "alphabeta", "depth": 2})
    assert isinstance(policies.load("swival", str(path)), PolicySearch)


@pytest.mark.parametrize(
    "search,message",
    [
        ({"kind": "uct"}, "unknown search kind 'uct'; known: alphabeta, rollouts, mcts"),
        ({"kind": "rollouts", "samples": 0}, "its search settings .*samples"),
    ],
)
def test_bad_search_kind_in_a_policy_file_is_named(tmp_path, search, message):
    path = _with_search(tmp_path, "swimming", {"num_players": 4}, search)
    with pytest.raises(policies.PolicyFileError, match=f"with_search.npz: .*{message}"):
        policies.load("swimming", str(path), num_players=4)


@pytest.mark.parametrize("name,params", SHIPPED, ids=[f"{n}-{p}" for n, p in SHIPPED])
def test_shipped_search_settings_are_the_training_configs(name, params):
    """A policy file plays with the search its game's config names (`swgym train GAME --ship` reproduces it)."""
    from training.selfplay import CONFIG_DIR, load_config

    shipped = policies.shipped_path(name, **params)
    configs = [
        c
        for c in map(load_config, map(str, sorted(CONFIG_DIR.glob("*.json"))))
        if c["game"] == name and policies.shipped_path(name, **c["params"]) == shipped
    ]
    assert len(configs) == 1, f"{shipped.name}: {len(configs)} training configs ship it"
    assert NumpyPolicy(shipped).meta.get("search") == configs[0].get("search")


def test_masked_softmax_takes_each_row_of_a_batch_apart():
    logits = np.array([[1.0, 2.0, 3.0, 0.0], [0.0, -1000.0, 5.0, 5.0]], dtype=np.float32)
    mask = np.array([[True, True, False, True], [True, True, False, False]])
    probs = masked_softmax(logits, mask)
    for row in range(2):
        assert np.array_equal(probs[row], masked_softmax(logits[row], mask[row]))
    e = np.exp([1.0 - 2.0, 0.0, 0.0 - 2.0])
    assert probs[0] == pytest.approx([e[0] / e.sum(), e[1] / e.sum(), 0.0, e[2] / e.sum()])
    assert probs[1] == pytest.approx([1.0, 0.0, 0.0, 0.0])  # e**-1000 is 0 in floats
    log_probs = masked_log_softmax(logits, mask)
    assert log_probs[1, 1] == pytest.approx(-1000.0)  # ... but its log is kept
    assert np.isneginf(log_probs[~mask]).all()
    assert np.exp(log_probs[0]) == pytest.approx(probs[0])


def test_network_is_the_shipped_network_alone_without_its_search():
    """'network' plays the shipped file's greedy moves; 'hard' wraps the same file in its search."""
    from envs.opponents import make_opponent

    bare = make_opponent("swish", "network", seed=0, setup="random")
    hard = make_opponent("swish", "hard", seed=0, setup="random")
    assert isinstance(bare, NumpyPolicy) and not isinstance(hard, NumpyPolicy)
    network = NumpyPolicy(policies.shipped_path("swish", setup="random"), name="swish", params={"setup": "random"})
    env = SingleAgentEnv("swish", opponent="random", setup="random")
    obs, info = env.reset(seed=3)
    for _ in range(30):
        mask = info["action_mask"]
        assert bare.act(obs, mask) == network.act(obs, mask)
        obs, _, done, _, info = env.step(bare.act(obs, mask))
        if done:
            break


def test_network_without_a_shipped_file_says_so(monkeypatch, tmp_path):
    monkeypatch.setattr(policies, "POLICY_DIR", tmp_path)
    with pytest.raises(FileNotFoundError, match="no hard opponent is shipped"):
        policies.load("swival", "network")
