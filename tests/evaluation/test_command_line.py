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
