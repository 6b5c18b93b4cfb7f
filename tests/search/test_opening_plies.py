"""Random openings: between players that always answer a position the same way, in a game without chance,
every game with the same seating is the same game, so a series of 400 is two games. ``opening_plies`` begins
each game with seeded random plies, each opening played once in every seating (``play_game``,
``play_series``, ``evaluate``, ``swgym eval --opening-plies``)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from envs.play import play_game, play_series
from policies.evaluation import SeriesRun, evaluate, table_rows
from scripts.cli import main as swgym


class FirstLegal:
    """A player that never varies: the first legal move; it writes down the first position it sees a game."""

    def __init__(self) -> None:
        self.firsts: list[bytes] = []
        self._new = True

    def reset(self, seed=None) -> None:
        self._new = True

    def act(self, observation, action_mask, state=None) -> int:
        if self._new:
            self.firsts.append(np.asarray(observation).tobytes())
            self._new = False
        return int(np.flatnonzero(action_mask)[0])


def series(opening_plies: int, games: int = 6) -> tuple[FirstLegal, FirstLegal]:
    a, b = FirstLegal(), FirstLegal()
    play_series("twirls", [a, b], games, seed=3, opening_plies=opening_plies)
    return a, b


def test_without_an_opening_players_that_never_vary_play_one_game_per_seating():
    a, _ = series(0)
    assert a.firsts[0] == a.firsts[2] == a.firsts[4] and a.firsts[1] == a.firsts[3] == a.firsts[5]  # two games


def test_each_opening_is_played_in_both_seatings_and_the_next_pair_gets_another():
    a, b = series(4)
    # the player in seat 0 first sees the position after the opening: entrant a in even games, b in odd ones
    assert a.firsts[0] == b.firsts[1] and a.firsts[2] == b.firsts[3]
    assert len({a.firsts[0], a.firsts[2], a.firsts[4]}) == 3


def test_a_game_repeats_with_its_seed_and_the_players_do_not_see_the_opening():
    seen: list[int] = []
    records = [
        play_game("twirls", [FirstLegal(), FirstLegal()], seed=11, opening_plies=5, observer=lambda *m: seen.append(1))
        for _ in range(2)
    ]
    assert records[0].opening == records[1].opening and len(records[0].opening) == 5
    assert records[0].plies == records[1].plies and len(seen) == 2 * (records[0].plies - 5)
    other = play_game("twirls", [FirstLegal(), FirstLegal()], seed=12, opening_plies=5)
    assert other.opening != records[0].opening


def test_a_game_that_ends_within_its_opening_is_refused_not_scored():
    with pytest.raises(ValueError, match="ended within its 5000 random opening plies"):
        play_game("swival", [FirstLegal(), FirstLegal()], seed=0, opening_plies=5000)


@pytest.mark.parametrize("bad", [-1, 1.5, True, "4"])
def test_bad_opening_plies_are_named(bad):
    with pytest.raises(ValueError, match="opening_plies must be an int >= 0"):
        play_series("twirls", ["random", "random"], 2, opening_plies=bad)


def test_openings_come_in_whole_pairs_and_the_table_says_so():
    with pytest.raises(ValueError, match="must be a multiple of 2, got 3"):
        evaluate("twirls", ["random", "random"], 3, quiet=True, opening_plies=2)
    result = evaluate("twirls", ["random", "random"], 4, quiet=True, opening_plies=2)
    assert result.duplicate and result.opening_plies.plies == 2 and not result.opening_plies.positions
    assert {row["opening_plies"] for row in table_rows(result)} == {2}


def test_two_processes_play_the_same_openings_as_one():
    one = evaluate("twirls", ["network", "random"], 8, seed=1, quiet=True, opening_plies=3)
    two = evaluate("twirls", ["network", "random"], 8, seed=1, quiet=True, opening_plies=3, run=SeriesRun(jobs=2))
    assert (one.wins, one.draws, one.losses, one.returns) == (two.wins, two.draws, two.losses, two.returns)


def test_the_cli_takes_opening_plies_and_refuses_nonsense(tmp_path, capsys):
    out = tmp_path / "t.json"
    swgym(["eval", "twirls", "random", "random", "--games", "2", "--opening-plies", "2", "--json", str(out)])
    assert {row["opening_plies"] for row in json.loads(out.read_text())["rows"]} == {2}
    with pytest.raises(SystemExit):
        swgym(["eval", "twirls", "random", "random", "--games", "2", "--opening-plies", "-3"])
    assert "--opening-plies: must be a whole number of at least 0, got '-3'" in capsys.readouterr().err


def test_the_ladder_plays_random_openings_and_saves_how_many(tmp_path, capsys):
    from policies.ladder import ladder

    result = ladder("swival", ["random", "easy"], games=4, opening_plies=2)
    assert result["opening_plies"] == 2 and sum(result["pairs"][0][k] for k in ("a_wins", "draws", "b_wins")) == 4
    swgym(["ladder", "swival", "--entrants", "random", "easy", "--games", "2", "--opening-plies", "2",
           "--out", str(tmp_path)])  # fmt: skip
    assert json.loads((tmp_path / "swival_ladder.json").read_text())["opening_plies"] == 2
    with pytest.raises(SystemExit):
        swgym(["ladder", "swival", "--entrants", "random", "easy", "--opening-plies", "x"])
    assert "--opening-plies: must be a whole number of at least 0, got 'x'" in capsys.readouterr().err
