"""One command line: the game first, rules as --rule, and agents of the user's own code as module:callable."""

import pytest

from scripts.cli import main


def test_export_with_the_old_flags_says_what_to_type_now():
    with pytest.raises(SystemExit, match=r"swgym export swimming m\.zip --out p\.npz --rule num_players=2"):
        main(["export", "m.zip", "--game", "swimming", "--params", '{"num_players": 2}', "--out", "p.npz"])
    with pytest.raises(SystemExit, match="swgym export GAME MODEL.zip"):
        main(["export", "swival", "--out", "p.npz"])


def test_a_module_callable_plays_in_eval(capsys):
    main(["eval", "swival", "tests.evaluation.agents:half_medium", "random", "--games", "2"])
    assert "agents:half_medium" in capsys.readouterr().out  # (long names are shortened from the left)


def test_a_series_that_replays_a_few_games_says_so(tmp_path, capsys):
    """Two players that always answer alike play one game per seating; random opening plies vary them."""
    import json

    players = ["tests.evaluation.agents:first_legal", "tests.evaluation.agents:last_legal"]
    out = tmp_path / "series.json"
    main(["eval", "swival", *players, "--games", "10", "--json", str(out)])
    assert "10 games but only 2 distinct ones:" in capsys.readouterr().err
    assert json.loads(out.read_text())["distinct_games"] == 2
    main(["eval", "swival", *players, "--games", "10", "--opening-plies", "3", "--json", str(out)])
    assert "distinct" not in capsys.readouterr().err
    assert json.loads(out.read_text())["distinct_games"] == 10


@pytest.mark.parametrize(
    "spec, message",
    [
        ("no_such_module_here:agent", "no module 'no_such_module_here'"),
        ("tests.evaluation.agents:missing", "has no 'missing'"),
    ],
)
def test_a_module_callable_that_is_not_there_is_named(spec, message):
    from envs.opponents import make_opponent

    with pytest.raises(ValueError, match=message):
        make_opponent("swival", spec)


def test_an_sprt_of_more_than_two_players_is_refused():
    with pytest.raises(SystemExit, match="two players"):
        main(["eval", "swimming", "medium", "easy", "easy", "easy", "--sprt", "0", "10", "--games", "8"])
