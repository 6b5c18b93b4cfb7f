"""The swgym command: watch to GIF, terminal play with undo, bench, golden."""

import io

import pytest
from PIL import Image

from scripts import bench
from scripts.cli import main, parse_params
from scripts.play_tui import play
from scripts.scores import ScoreBook


def test_watch_writes_a_gif(tmp_path, capsys):
    out = tmp_path / "game.gif"
    main(["watch", "swival", "--p0", "medium", "--p1", "easy", "--seed", "7", "--gif", str(out)])
    printed = capsys.readouterr().out
    assert "swival: player_0 (medium) won" in printed and str(out) in printed
    with Image.open(out) as gif:
        assert gif.n_frames > 5
        assert gif.size[0] >= 300


def test_watch_unknown_opponent_is_a_clear_error():
    with pytest.raises(SystemExit, match="unknown opponent 'grandmaster'"):
        main(["watch", "swival", "--p0", "grandmaster"])


def test_unknown_game_is_a_clear_error():
    with pytest.raises(SystemExit, match="unknown game 'chess'"):
        main(["watch", "chess"])


def test_rule_parameters_parse_as_literals():
    assert parse_params(["board_size=8", "max_neighbors=(4, 2)", "setup=fixed"]) == {
        "board_size": 8,
        "max_neighbors": (4, 2),
        "setup": "fixed",
    }
    with pytest.raises(SystemExit, match="key=value"):
        parse_params(["board_size"])


def test_terminal_play_with_undo_then_resign():
    # Swival allows "I quit" once each side has placed 3 counters (the window's rule, through the one Session)
    keys = "\n".join(["o0", "u", "zz", "o1", "", "quit", "i0", "", "i2", "", "i4", "", "i6", "", "quit"]) + "\n"
    out = io.StringIO()
    result = play("swival", vs="easy", seed=1, stdin=io.StringIO(keys), out=out)
    text = out.getvalue()
    assert "Move taken back." in text
    assert "'zz' is not a legal move" in text
    assert "I quit: not now, each side must have placed 3 counters first." in text
    assert text.index("player_1 plays") > text.index("Move taken back.")  # no answer to the undone o0
    assert result["history"][0] == (0, 3)  # o1: the undone o0 is gone
    assert result["winners"] == [1] and result["resigned"] and not result["ended"]


def test_terminal_play_to_the_end_against_random():
    # the person types candidate moves in order; illegal ones are refused and the next line is tried
    lines = []
    for _ in range(40):
        lines += [
            "0",
            "3",
            "6",
            "9",
            "12",
            "15",
            "18",
            "21",
            "24",
            "27",
            "30",
            "33",
            "36",
            "39",
            "42",
            "45",
            "48",
            "51",
            "54",
            "57",
            "60",
            "63",
            "66",
            "69",
            "72",
        ]
    out = io.StringIO()
    result = play("swival", vs="random", seed=2, stdin=io.StringIO("\n".join(lines) + "\n"), out=out)
    # seed 2 fixes the game: random (player_1) completes a line after 22 moves, the person's lines refused on the way
    assert (result["winners"], result["resigned"], result["ended"], len(result["history"])) == ([1], False, False, 22)
    assert out.getvalue().rstrip().endswith("Winner: player_1.")


def test_bench_reports_a_ratio_to_connect_four():
    rows = bench.run([("swival", {})], seconds=0.05, rounds=1)
    assert [r["env"] for r in rows] == ["connect_four_v3", "swival"]
    assert rows[0]["ratio"] == 1.0 and rows[1]["median_steps_per_s"] > 0
    assert "x connect_four_v3" in bench.format_table(rows)


def test_golden_check_passes_from_any_folder(tmp_path, monkeypatch, capsys):
    """Run outside the repository, the check finds the source tree's golden folder. Twirls: its variants, then the
    bot matches, as every game's; its hard replays in seconds (Swahili's takes six times as long) and compiles
    little in an empty cache (Swish's and Squeeze's search, over a minute of CPU)."""
    monkeypatch.chdir(tmp_path)
    main(["golden", "twirls"])
    lines = capsys.readouterr().out.splitlines()
    assert [line.split("/")[-1] for line in lines] == [
        "twirls.txt",
        "twirls_board_size-8.txt",
        "twirls_easy-vs-medium.txt",
        "twirls_hard-vs-medium.txt",
    ]
    assert all(line.startswith("same: ") for line in lines)


@pytest.mark.parametrize(
    "command", [[], ["watch"], ["play"], ["bench"], ["eval"], ["golden"], ["train"], ["ladder"], ["export"]]
)
def test_every_help_page_renders(command, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(command + ["-h"])
    assert exit_info.value.code == 0 and "usage: swgym" in capsys.readouterr().out


def test_eval_in_several_processes_matches_one(tmp_path, capsys):
    """--jobs splits the series by game index; every game depends only on the seed and its index."""
    import json

    tables = []
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}.json"
        main(["eval", "swival", "medium", "easy", "--games", "12", "--seed", "3", "--jobs", jobs, "--json", str(out)])
        saved = json.loads(out.read_text())
        tables.append([(r["wins"], r["draws"], r["losses"]) for r in saved["rows"]] + [saved["distinct_games"]])
    assert tables[0] == tables[1] and tables[0][-1] == 12  # the parts' games are told apart when merged
    assert sum(tables[0][0]) == 12
    for row in json.loads(out.read_text())["rows"]:  # think time per move, for the search budget
        assert 0.0 < row["median_move_s"] <= row["max_move_s"] < 5.0
    with pytest.raises(SystemExit) as exit_info:
        main(["eval", "swival", "medium", "easy", "--games", "2", "--jobs", "0"])
    assert exit_info.value.code == 2 and "--jobs: must be a whole number above 0, got '0'" in capsys.readouterr().err


# -- the terminal game under bad input: end of input, huge lines, the same records as the window ------------------
def test_terminal_end_of_input_is_not_a_resignation(tmp_path, monkeypatch, capsys):
    db = tmp_path / "s.sqlite"
    for keys in ("", "o0\n"):  # closed at once, and after one move
        monkeypatch.setattr("sys.stdin", io.StringIO(keys))
        with pytest.raises(SystemExit) as exit_info:
            main(["play", "swival", "--tui", "--vs", "easy", "--name", "ann", "--db", str(db)])
        assert exit_info.value.code not in (0, None) and "input ended" in str(exit_info.value.code)
        assert "nothing recorded" in capsys.readouterr().out
        assert ScoreBook(db).rows() == []


def test_terminal_refuses_a_huge_number_and_plays_on():
    out = io.StringIO()
    result = play("swival", vs="easy", seed=1, stdin=io.StringIO("9" * 5000 + "\no0\n\n"), out=out)
    assert "is not a legal move" in out.getvalue()
    assert result["history"][0] == (0, 0)  # o0, typed after the refused line: the game went on


def test_terminal_swimming_records_coins_as_the_window_does(tmp_path):
    from scripts.app.session import Session

    lines = "\n".join(str(a) for _ in range(400) for a in range(14)) + "\n"
    tui_book = ScoreBook(tmp_path / "tui.sqlite", warn=lambda m: None)
    result = play(
        "swimming", vs="easy", seed=5, stdin=io.StringIO(lines), out=io.StringIO(), scores=tui_book, player="ann"
    )
    assert not result["ended"] and not result["resigned"]
    window_book = ScoreBook(tmp_path / "window.sqlite", warn=lambda m: None)
    session = Session("swimming", vs="easy", seed=5, player="ann", scores=window_book)
    for seat, action in result["history"]:  # the same game, driven as the window drives it
        if seat == session.seat:
            session.play(action)
        else:
            assert session.computer_move() == action
    assert session.over
    assert tui_book.rows() == window_book.rows()
    assert tui_book.entry("ann", "swimming")["coins"] != 0
