"""Ratings of whole games (policies/ratings.py, policies/ladder.py): known answers recovered with intervals that
cover them, deals resampled together, and ladders of many players read from whole finishing orders."""

import json

import numpy as np
import pytest

from policies.ladder import bradley_terry_elo, refit
from policies.ratings import ELO_PER_NAT, RatedGames, rate, resample_weights, sample_games

TRUE_ELO = np.array([0.0, 150.0, 300.0, 450.0])


def one_against_three(entrants: int, per_way: int) -> tuple[np.ndarray, np.ndarray]:
    """Tables of one entrant against three copies of another, every pair both ways, and their series."""
    tables, strata = [], []
    for i in range(entrants):
        for j in range(entrants):
            if i != j:
                tables += [[i, j, j, j]] * per_way
                strata += [len(set(strata))] * per_way
    return np.array(tables), np.array(strata)


def test_known_strengths_are_recovered_in_order_with_intervals_that_cover():
    tables, strata = one_against_three(4, 20)
    covered = 0
    for seed in range(4):
        ranks = sample_games(TRUE_ELO / ELO_PER_NAT, tables, np.random.default_rng(seed))
        ratings = rate(RatedGames.of(tables, ranks, strata=strata), 4, samples=50, seed=seed)
        points = [r.rating for r in ratings]
        assert points[0] == 0 and np.all(np.diff(points) > 0), points  # in order
        covered += sum(r.low <= true <= r.high for r, true in zip(ratings[1:], TRUE_ELO[1:]))
    assert covered >= 10  # of 12 intervals: about 95% should cover


def test_a_player_that_never_wins_rates_far_below_by_its_places():
    """Four players: the lone random entrant always last against three copies of a stronger one, which beats it
    every time: the whole finishing order puts it far lower than the old pairwise reading (ties among losers)."""
    tables = np.array([[0, 1, 1, 1]] * 40 + [[1, 0, 0, 0]] * 40)
    ranks = np.array([[3, 0, 1, 2]] * 40 + [[0, 3, 2, 1]] * 40)
    (_, strong) = rate(RatedGames.of(tables, ranks, strata=[0] * 40 + [1] * 40), 2, samples=20)
    score = np.array([[0.0, 40 * 1 + 40 * 0], [40 * 3 + 40 * 2, 0.0]])  # the old pairwise scores: 3 and 2 of 3
    pairwise = bradley_terry_elo(["random", "strong"], score, np.array([[0.0, 240.0], [240.0, 0.0]]))
    assert strong.rating > 600 and strong.low > 400
    assert strong.rating > 2 * pairwise["strong"]


def test_two_player_ratings_are_the_bradley_terry_elo_of_earlier_ladders():
    saved = {
        "game": "swival", "params": {}, "players": 2, "games_per_pair": 10, "elo": {},
        "pairs": [
            {"a": "medium", "b": "x", "seats": "1 x a, 1 x b", "a_wins": 7, "draws": 3, "b_wins": 0},
            {"a": "medium", "b": "y", "seats": "1 x a, 1 x b", "a_wins": 2, "draws": 2, "b_wins": 6},
            {"a": "x", "b": "y", "seats": "1 x a, 1 x b", "a_wins": 1, "draws": 0, "b_wins": 9},
        ],
    }  # fmt: skip
    names = ["medium", "x", "y"]
    score, games = np.zeros((3, 3)), np.zeros((3, 3))
    for p in saved["pairs"]:
        a, b = names.index(p["a"]), names.index(p["b"])
        score[a, b], score[b, a] = p["a_wins"] + p["draws"] / 2, p["b_wins"] + p["draws"] / 2
        games[a, b] = games[b, a] = 10
    old = bradley_terry_elo(names, score, games, anchor="medium")
    new = refit(saved, samples=50)
    for name in names:
        assert new["elo"][name] == pytest.approx(old[name], abs=1.0)
        low, high = new["interval95"][name]
        assert low <= new["elo"][name] <= high
    assert new["interval95"]["medium"] == [0.0, 0.0] and new["games"] == 30


def test_the_bootstrap_keeps_the_games_of_a_deal_together():
    games = RatedGames.of(np.zeros((12, 2), int), np.zeros((12, 2), int), blocks=np.arange(12) // 4)
    for seed in range(5):
        counts = resample_weights(games, np.random.default_rng(seed))
        assert np.all(counts.reshape(3, 4) == counts.reshape(3, 4)[:, :1]) and counts.sum() == 12


def test_epsilon_mixtures_of_medium_are_rated_in_order_from_four_player_games(tmp_path):
    """Swahili with four players, medium mixed with random moves: medium > half medium > random, each game
    read as its whole order (scores), and the entrants given as module:callable from the command line."""
    from scripts.cli import main

    entrants = ["random", "tests.evaluation.agents:half_medium", "medium"]
    main(["ladder", "swahili", "--rule", "num_players=4", "--entrants", *entrants, "--games", "8", "--samples",
          "60", "--out", str(tmp_path)])  # fmt: skip
    saved = json.loads((tmp_path / "swahili_ladder.json").read_text())
    elo, interval = saved["elo"], saved["interval95"]
    assert saved["params"] == {"num_players": 4} and saved["games"] == 6 * 8
    assert 0 == elo["random"] < elo[entrants[1]] < elo["medium"]
    assert interval[entrants[1]][0] > 0 and interval["medium"][0] > interval[entrants[1]][0]
    assert all(low <= elo[e] <= high for e, (low, high) in interval.items())
    lone_random = saved["pairs"][0]  # random against three half mediums: its places, first to fourth
    assert lone_random["a"] == "random" and sum(lone_random["a_places"]) == 8
    again = refit(saved, samples=60)  # from the games' places it keeps: the same ratings
    assert again["elo"] == pytest.approx(elo)
    assert all(again["interval95"][e] == pytest.approx(interval[e]) for e in entrants)
    assert (tmp_path / "swahili_ladder.png").stat().st_size > 1000


def test_finishing_order_reads_winners_scores_then_who_left_last():
    from envs.opponents import make_opponent
    from envs.play import finishing_ranks, play_game

    assert finishing_ranks([2], [10.0, 30.0, 40.0, 30.0], {}, 4) == [3, 1, 0, 1]  # ties share a place, as in a race
    assert finishing_ranks([1], None, {0: 50, 2: 50, 3: 80}, 4) == [2, 0, 2, 1]  # sunk later: better place
    assert finishing_ranks([], None, {}, 2) == [0, 0]  # a draw
    record = play_game("swimming", [make_opponent("swimming", "random", seed=s) for s in range(4)], seed=3)
    assert record.ranks[record.winners[0]] == 0 and sorted(set(record.ranks))[0] == 0 and max(record.ranks) >= 1
