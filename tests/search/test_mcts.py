"""The ladder's references beyond medium: the generic Monte-Carlo tree search opponent (policies/search/mcts.py): names,
determinism, legality, hidden cards, tactics, strength; and past hards (``hard@REV``)."""

import re
import shutil
import subprocess

import numpy as np
import pytest

import policies
from envs.opponents import make_opponent
from envs.play import play_game, play_series
from envs.registry import GAMES, make_raw
from policies.search.mcts import DEFAULT_SIMULATIONS, MCTS


def rules_of(game, **params):
    return make_raw(game, **params).game


def play(rules, actions, rng=None):
    """A new game of ``rules`` with ``actions`` played, each checked legal."""
    rng = rng or np.random.default_rng(0)
    state = rules.new_state(rng)
    for action in actions:
        rules.apply(state, rules.check_action(state, action), rng)
    return state


# -- names -------------------------------------------------------------------


@pytest.mark.parametrize("name,simulations", [("mcts", DEFAULT_SIMULATIONS), ("mcts:1", 1), ("mcts:2000", 2000)])
def test_names_give_the_search_with_that_budget(name, simulations):
    opponent = make_opponent("swahili", name, seed=0, num_players=3)
    assert isinstance(opponent, MCTS)
    assert opponent.simulations == simulations and opponent.game.num_players == 3


@pytest.mark.parametrize("bad", ["0", "-3", "1.5", "x", "", "1e3", " 5"])
def test_a_bad_budget_is_refused_naming_it(bad):
    with pytest.raises(ValueError, match=f"'mcts:{bad}'.*simulations '{bad}'"):
        make_opponent("swival", f"mcts:{bad}")


def test_a_bad_setting_is_refused_naming_it():
    rules = rules_of("swival")
    for kwargs, named in [
        ({"simulations": 0}, "simulations must be an integer >= 1, got 0"),
        ({"simulations": 2.5}, "simulations must be an integer >= 1, got 2.5"),
        ({"playout_plies": -1}, "playout_plies must be an integer >= 0, got -1"),
        ({"exploration": -0.5}, "exploration must be a number >= 0, got -0.5"),
    ]:
        with pytest.raises(ValueError, match=named):
            MCTS(rules, **kwargs)


def test_unknown_names_still_name_the_choices():
    with pytest.raises(ValueError, match="unknown opponent 'mctsx'.*mcts:N"):
        make_opponent("swival", "mctsx")


def test_without_the_rules_state_it_says_so():
    opponent = make_opponent("swival", "mcts:5")
    with pytest.raises(ValueError, match="needs the game state"):
        opponent.act(np.zeros(78, np.float32), np.ones(73, np.int8))


# -- determinism ----------------------------------------------------------------


def moves_of_a_game(game, params, mcts_seed, game_seed=0, simulations=12):
    """Every move of one game of MCTS (seat 0, seeded ``mcts_seed``) against random (seed 0)."""
    rules = rules_of(game, **params)
    searcher = MCTS(rules, simulations=simulations, playout_plies=20)
    players = [searcher] + [make_opponent(game, "random")] * (rules.num_players - 1)
    moves = []
    env = make_raw(game, **params)
    env.reset(seed=game_seed)
    searcher.reset(mcts_seed)
    players[1].reset(0)
    plies = 0
    while env.agents and plies < 60:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        obs = env.observe(agent)
        action = players[env.agent_seat[agent]].act(obs["observation"], obs["action_mask"], env.game_state)
        moves.append(int(action))
        env.step(action)
        plies += 1
    return moves


@pytest.mark.parametrize("game,params", [("swahili", {"num_players": 2}), ("swimming", {"num_players": 3})])
def test_same_seed_same_moves_another_seed_differs(game, params):
    first = moves_of_a_game(game, params, mcts_seed=5)
    assert moves_of_a_game(game, params, mcts_seed=5) == first
    assert moves_of_a_game(game, params, mcts_seed=6) != first


# -- legality ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "game,params",
    [(name, entry.variants[0]) for name, entry in GAMES.items()]
    + [("swimming", {"num_players": 2}), ("swahili", {"num_players": 4})],
)
def test_whole_games_of_legal_moves_in_every_seat(game, params):
    """The raw env raises on an illegal move, so a finished game is a game of legal moves."""
    rules = rules_of(game, **params)
    players = [MCTS(rules, simulations=4, playout_plies=10) for _ in range(rules.num_players)]
    record = play_game(game, players, seed=1, **params)
    assert record.plies > 0 and all(len(seconds) > 0 for seconds in record.move_seconds)


# -- hidden information ----------------------------------------------------------


def test_swimming_search_reads_only_what_its_seat_sees():
    """Two positions that differ only in cards seat 0 cannot see (others' hands, the stock) get the same search."""
    rules = rules_of("swimming", num_players=4)
    rng = np.random.default_rng(3)
    state = rules.new_state(rng)
    while rules.to_move(state) != 0 or state.phase != 1 or state.turns < 4:
        legal = rules.legal_actions(state)
        rules.apply(state, legal[rng.integers(len(legal))], rng)
    other = rules.determinize(state, 0, np.random.default_rng(99))
    assert other.hands[0] == state.hands[0] and other.hands != state.hands  # the hidden cards really differ
    searches = []
    for position in (state, other):
        searcher = MCTS(rules, simulations=60, seed=11)
        move = searcher.choose(position, rules.legal_mask(position))
        searches.append((move, searcher.last_scores))
    assert searches[0] == searches[1]


# -- tactics --------------------------------------------------------------------------

# Swival, red (seat 0) to move. Actions: cell * 3 + swivel (0 none, 1 left, 2 right); 72 = the winning counter.
SWIVAL_WIN = [0, 3, 48, 6, 24, 9]  # red 0, 16, 8 (spoke 0); blue 1, 2, 3 cannot swivel: red has a line
SWIVAL_DEFEND = [24, 3, 15, 51, 18, 27]  # blue 1, 17, 9 (spoke 1) made a line; red (on the middle ring) must swivel


def test_swival_takes_the_win():
    rules = rules_of("swival")
    state = play(rules, SWIVAL_WIN)
    mask = rules.legal_mask(state)
    assert mask[72] and mask.sum() > 1
    assert MCTS(rules, simulations=400, seed=0).choose(state, mask) == 72


def test_swival_breaks_the_line_the_opponent_would_win_with():
    """Seen from the player who moves into each node: red must swivel blue's line apart (blue wins on any other)."""
    rules = rules_of("swival")
    state = play(rules, SWIVAL_DEFEND)
    mask = rules.legal_mask(state)
    assert not mask[72]
    saving = []
    for action in np.flatnonzero(mask):
        after = play(rules, SWIVAL_DEFEND + [int(action)])
        if not rules.legal_mask(after)[72]:
            saving.append(int(action))
    assert 0 < len(saving) < mask.sum()
    for seed in range(3):
        assert MCTS(rules, simulations=400, seed=seed).choose(state, mask) in saving


def first_win_in_one(game, params, seed):
    """(rules, state, winning moves): random play seeded ``seed`` up to the first position whose mover can win at
    once with at most half of at least 4 legal moves."""
    rules = rules_of(game, **params)
    rng = np.random.default_rng(seed)
    state = rules.new_state(rng)
    while not rules.is_over(state):
        me, legal = rules.to_move(state), rules.legal_actions(state)
        wins = []
        for action in rules.ending_moves(state, legal, rng):
            after = rules.copy_state(state)
            rules.apply(after, action, rng)
            if rules.winners(after) == [me]:
                wins.append(action)
        if wins and len(legal) >= 4 and 2 * len(wins) <= len(legal):
            return rules, state, wins
        rules.apply(state, legal[rng.integers(len(legal))], rng)
    raise AssertionError(f"{game} {params} seed {seed}: no win in one before the end")


@pytest.mark.parametrize(
    "game,params,seed",
    [
        ("twirls", {}, 1),  # 1 winning twirl of 46
        ("twirls", {}, 162),  # 1 of 52
        ("swish", {}, 1),  # 2 of 41: the tenth bead
        ("swish", {}, 2),  # 3 of 32
        ("squeeze", {}, 1),  # 1 of 19
        ("squeeze", {}, 2),  # 1 of 24
        ("swahili", {"num_players": 2}, 154),  # 1 of 4: end the game ahead
        ("swahili", {"num_players": 3}, 37),  # 1 of 4, three players (max^n)
        ("swahili", {"num_players": 4}, 2),  # 1 of 5, four players
    ],
)
def test_the_win_in_one_is_found(game, params, seed):
    rules, state, wins = first_win_in_one(game, params, seed)
    searcher = MCTS(rules, simulations=400, seed=0)
    assert searcher.choose(state, rules.legal_mask(state)) in wins


# -- strength -------------------------------------------------------------------------


def test_beats_random_clearly_at_a_small_budget():
    """Swival, where a careless player draws: measured 18 wins and 2 draws in these 20 games (36 wins and 4 draws
    in 40 more, seed 1)."""
    result = play_series("swival", ["mcts:100", "random"], 20, seed=0)
    assert result.wins[0] >= 18, (result.wins, result.draws, result.losses)


# -- the ladder's other references: past hards -----------------------------------------


def _in_a_git_checkout():
    if shutil.which("git") is None:
        return False
    done = subprocess.run(["git", "-C", str(policies.POLICY_DIR), "rev-parse"], capture_output=True, check=False)
    return done.returncode == 0


needs_git = pytest.mark.skipif(not _in_a_git_checkout(), reason="past hards are read from git history")


@needs_git
def test_a_past_hard_is_the_file_git_held_then():
    now, past = (  # Swahili's hard searches around its network: compare the networks
        getattr(o, "policy", o) for o in (make_opponent("swahili", n, num_players=2) for n in ("hard", "hard@HEAD"))
    )
    env = make_raw("swahili", num_players=2)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(12):
        obs = env.observe(env.agent_selection)
        assert np.array_equal(
            now.probabilities(obs["observation"], obs["action_mask"]),
            past.probabilities(obs["observation"], obs["action_mask"]),
        )
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@needs_git
@pytest.mark.parametrize(
    "rev,named",
    [
        ("877491f", "git has no policies/swahili_hard.npz at revision '877491f'"),  # the first commit: no policies
        ("nosuchrev", "git has no policies/swahili_hard.npz at revision 'nosuchrev'"),
        ("", "give a git revision after '@'"),
        ("--output=x", "give a git revision after '@'"),
    ],
)
def test_a_past_hard_that_git_does_not_have_is_named(rev, named):
    with pytest.raises(ValueError, match=re.escape(named)):
        make_opponent("swahili", f"hard@{rev}", num_players=2)


@needs_git
def test_the_ladder_takes_mcts_past_hards_and_policy_files(tmp_path):
    """Swahili with four players, whose hard is its network alone: every kind of name is rated in a few games."""
    from policies.ladder import ladder

    old = tmp_path / "old.npz"
    old.write_bytes(
        subprocess.run(
            ["git", "-C", str(policies.POLICY_DIR), "show", "HEAD:./swahili_num_players-4_hard.npz"],
            capture_output=True,
            check=True,
        ).stdout
    )
    entrants = ["random", "mcts:4", "hard@HEAD", str(old)]
    result = ladder("swahili", entrants, games=1, seed=0, params={"num_players": 4})
    assert list(result["elo"]) == entrants and len(result["pairs"]) == 12  # each pair both ways round
    assert {(p["a"], p["b"]) for p in result["pairs"]} >= {("mcts:4", "hard@HEAD"), (str(old), "mcts:4")}


# -- the command ---------------------------------------------------------------------------


def test_swgym_eval_and_ladder_take_the_names(tmp_path, capsys):
    from scripts.cli import main

    main(["eval", "swival", "mcts", "medium", "--games", "2"])
    table = capsys.readouterr().out
    assert "mcts " in table and "medium" in table
    main(["ladder", "swival", "--entrants", "random", "mcts:20", "--games", "2", "--out", str(tmp_path)])
    assert "mcts:20" in capsys.readouterr().out and (tmp_path / "swival_ladder.json").exists()
    with pytest.raises(SystemExit, match="'mcts:1.5'"):
        main(["eval", "swival", "mcts:1.5", "medium", "--games", "2"])


# -- guided by a policy file's network (search kind "mcts") ------------------------------------------------------


def _swahili_hard_with(tmp_path, search, num_players=2, rev=None):
    """A copy of the shipped Swahili hard file (as git revision ``rev`` held it, when given) with ``search`` as
    its play-time search settings."""
    from policies.numpy_policy import read_policy_file, write_policy_file

    source = (
        policies.past_hard_file("swahili", rev, tmp_path, num_players=num_players)
        if rev
        else policies.shipped_path("swahili", num_players=num_players)
    )
    meta, arrays = read_policy_file(source)
    meta["search"] = search
    return write_policy_file(tmp_path / f"guided_{num_players}p.npz", meta, arrays)


GUIDED = {"kind": "mcts", "simulations": 30, "exploration": 1.0, "uniform_share": 0.25}


@pytest.mark.parametrize("value_weight", [0.0, 0.5, 1.0])
@pytest.mark.parametrize("num_players", [2, 4])
def test_the_guided_search_plays_whole_games_of_legal_moves(tmp_path, num_players, value_weight):
    from policies.search.mcts import PolicyMCTS

    path = _swahili_hard_with(tmp_path, {**GUIDED, "value_weight": value_weight, "playout_plies": 20}, num_players)
    opponent = policies.load("swahili", str(path), seed=0, num_players=num_players)
    assert isinstance(opponent, PolicyMCTS) and opponent.value_weight == value_weight
    others = [make_opponent("swahili", "random", seed=k, num_players=num_players) for k in range(1, num_players)]
    record = play_game("swahili", [opponent] + others, seed=1, num_players=num_players)
    assert record.plies > 0 and len(record.move_seconds[0]) > 0


def guided_moves(path, seed):
    """The guided player's moves (seat 0, seeded ``seed``) in 30 plies against random (seed 0)."""
    opponent = policies.load("swahili", str(path), seed=seed, num_players=2)
    players = [opponent, make_opponent("swahili", "random", seed=0)]
    env = make_raw("swahili", num_players=2)
    env.reset(seed=0)
    moves = []
    while env.agents and len(moves) < 30:
        agent = env.agent_selection
        obs = env.observe(agent)
        action = players[env.agent_seat[agent]].act(obs["observation"], obs["action_mask"], env.game_state)
        moves.append(int(action))
        env.step(action)
    return moves


def test_the_guided_search_is_seeded(tmp_path):
    """Play-outs draw from the player's generator: the same seed gives the same moves and the same root visits,
    another seed other visits."""
    path = _swahili_hard_with(tmp_path, {**GUIDED, "value_weight": 0.0})
    assert guided_moves(path, seed=5) == guided_moves(path, seed=5)
    rules = rules_of("swahili", num_players=2)
    state = rules.new_state(np.random.default_rng(0))

    def root_results(seed):
        searcher = policies.load("swahili", str(path), seed=seed, num_players=2)
        searcher.choose(state, rules.legal_mask(state))
        return searcher.last_scores

    assert root_results(5) == root_results(5)
    assert root_results(6) != root_results(5)


def test_without_the_rules_state_the_guided_search_plays_the_network(tmp_path):
    path = _swahili_hard_with(tmp_path, {**GUIDED, "value_weight": 1.0})
    opponent = policies.load("swahili", str(path), num_players=2)
    network = policies.load("swahili", "network", num_players=2)
    env = make_raw("swahili", num_players=2)
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    assert opponent.act(obs["observation"], obs["action_mask"]) == network.act(obs["observation"], obs["action_mask"])


def first_win_in_one_the_network_misses(seed):
    """(rules, state, the winning move): random Swahili 2p play seeded ``seed`` up to its first position with a
    move that wins at once among at least 3."""
    rules = rules_of("swahili", num_players=2)
    rng = np.random.default_rng(seed)
    state = rules.new_state(rng)
    while True:
        me, legal = rules.to_move(state), rules.legal_actions(state)
        for action in legal:
            after = rules.copy_state(state)
            rules.apply(after, action, rng)
            if rules.winners(after) == [me] and len(legal) >= 3:
                return rules, state, action
        rules.apply(state, legal[rng.integers(len(legal))], rng)


# (seed of the random play to the position, the winning move, the network's favourite, the network's prior of the
# win): the PPO-trained network of the hard at 714a9b8 all but rules the win out; its favourite loses. (The network
# shipped since sees these wins: in 3000 such positions none had a prior under 0.01.)
MISLEADING_PRIORS = [(133, 8, 4, 0.003), (298, 5, 10, 0.0005), (326, 7, 1, 0.0005)]
MISLED_NETWORK_REV = "714a9b8"


@pytest.mark.parametrize("seed,win,favourite,prior", MISLEADING_PRIORS)
@pytest.mark.parametrize("value_weight", [0.0, 1.0])
def test_the_guided_search_finds_the_win_its_prior_misses(tmp_path, seed, win, favourite, prior, value_weight):
    rules, state, winning = first_win_in_one_the_network_misses(seed)
    mask = rules.legal_mask(state)
    search = {**GUIDED, "simulations": 200, "value_weight": value_weight}
    path = _swahili_hard_with(tmp_path, search, rev=MISLED_NETWORK_REV)
    searcher = policies.load("swahili", str(path), seed=0, num_players=2)
    observation = make_raw("swahili", num_players=2).observe_state(rules, state, rules.to_move(state))
    probs = searcher.policy.probabilities(observation, mask)
    assert winning == win and int(np.argmax(probs)) == favourite and probs[win] < prior + 0.001
    assert searcher.choose(state, mask) == win


@pytest.mark.parametrize(
    "search,named",
    [
        ({"simulations": 0}, "simulations must be an integer >= 1, got 0"),
        ({"value_weight": 1.5}, "value_weight must be a number from 0 to 1 .* got 1.5"),
        ({"uniform_share": -0.1}, "uniform_share must be a number from 0 to 1, got -0.1"),
        ({"exploration": "lots"}, "exploration must be a number >= 0, got 'lots'"),
        ({"leaf": "value"}, "leaf"),
    ],
)
def test_bad_guided_search_settings_in_a_policy_file_are_named(tmp_path, search, named):
    path = _swahili_hard_with(tmp_path, {"kind": "mcts", **search})
    with pytest.raises(policies.PolicyFileError, match=f"guided_2p.npz: its search settings .*{named}"):
        policies.load("swahili", str(path), num_players=2)


def test_a_value_weight_needs_a_network():
    with pytest.raises(ValueError, match="value_weight > 0 needs a network"):
        MCTS(rules_of("swahili", num_players=2), value_weight=0.5)
