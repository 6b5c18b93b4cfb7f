"""Duplicate deals: in card games each deal is played once in every rotation of the seats, so the luck of the
cards evens out between entrants (``play_series``, ``evaluate``, ``swgym eval --duplicate``)."""

from __future__ import annotations

import pytest

from envs.core.opponents import RandomOpponent
from envs.play import play_series, uses_duplicate_deals
from policies.evaluation import SeriesRun, evaluate, table_rows
from policies.report import markdown


class DealRecorder(RandomOpponent):
    """A random player that writes down the round's first hands when it opens a game as dealer."""

    def __init__(self, seen: list, seat: int) -> None:
        super().__init__()
        self.seen, self.seat = seen, seat

    def act(self, observation, action_mask, state=None):
        if state.round == 1 and state.turns == 0 and not state.moves:
            self.seen.append((self.seat, state.dealer, tuple(map(tuple, state.hands)), tuple(state.deck)))
        return super().act(observation, action_mask, state)


def dealt(duplicate: bool, games: int = 12) -> list:
    seen: list = []
    recorders = [DealRecorder(seen, entrant) for entrant in range(4)]
    play_series("swimming", recorders, games, seed=5, duplicate=duplicate, num_players=4)
    assert len(seen) == games  # one dealer's opening move a game
    return seen


def test_a_block_replays_one_deal_with_every_entrant_in_the_dealer_seat():
    seen = dealt(duplicate=True)
    for block in range(3):
        games = seen[4 * block : 4 * block + 4]
        assert len({(dealer, hands, deck) for _, dealer, hands, deck in games}) == 1  # the same deal 4 times
        assert sorted(entrant for entrant, *_ in games) == [0, 1, 2, 3]  # held by each entrant once
    assert len({hands for _, _, hands, _ in seen}) == 3  # and three different deals


def test_fresh_deals_differ_from_game_to_game():
    seen = dealt(duplicate=False)
    assert len({hands for _, _, hands, _ in seen}) == len(seen)


def test_card_games_duplicate_by_default_and_board_games_do_not():
    assert uses_duplicate_deals("swimming", num_players=3)
    assert not uses_duplicate_deals("swish")
    assert not uses_duplicate_deals("swimming", False)
    assert play_series("swimming", ["medium", "random"], 2, num_players=2).duplicate
    assert not play_series("swival", ["random", "random"], 2).duplicate


@pytest.mark.parametrize("games, first", [(10, 0), (4, 2)])
def test_partial_deals_are_refused(games, first):
    with pytest.raises(ValueError, match=f"multiple of 4, got {games}"):
        play_series("swimming", ["random"] * 4, games, first_game=first, num_players=4)


def test_evaluate_refuses_partial_deals_and_a_bad_switch():
    with pytest.raises(ValueError, match="multiple of 3, got 4"):
        evaluate("swimming", ["medium", "easy", "easy"], 4, quiet=True, num_players=3)
    with pytest.raises(TypeError, match="duplicate must be True, False or None"):
        evaluate("swimming", ["random"] * 4, 4, quiet=True, duplicate="yes", num_players=4)


def test_played_in_processes_it_is_the_same_series():
    """Chunks of whole deals: two processes add up to the one-process series, game for game (three deals of three
    players: three chunks)."""
    args = ("swimming", ["medium", "easy", "easy"], 9)
    one = evaluate(*args, seed=2, quiet=True, num_players=3)
    two = evaluate(*args, seed=2, quiet=True, run=SeriesRun(jobs=2), num_players=3)
    assert one.duplicate and two.duplicate
    assert (one.wins, one.losses, one.returns) == (two.wins, two.losses, two.returns)


def test_the_table_says_the_deals_were_duplicated():
    rows = table_rows(evaluate("swimming", ["medium", "random", "random", "random"], 4, quiet=True, num_players=4))
    assert rows[0]["duplicate_deals"] is True
    row = {**rows[0], "game": "swimming", "params": {"num_players": 4}, "players": 4, "against": "3 x random"}
    assert "| 3 x random | 4 / 0 / 0 | 100.0% (fair share 25%, duplicate deals) |" in markdown([row])
