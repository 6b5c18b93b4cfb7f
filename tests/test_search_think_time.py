"""research/search_think_time.py: every move of a searching hard, timed in CPU seconds and kept in its JSON."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from policies import shipped_path
from research.search_think_time import THRESHOLDS, main

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def small_swish(tmp_path_factory):
    """Swish's hard with a small budget, so that its moves are quick."""
    player = tmp_path_factory.mktemp("player") / "small.npz"
    command = [sys.executable, "-m", "research.search_settings", str(shipped_path("swish")), str(player)]
    subprocess.run([*command, "--set", "total_work=300"], cwd=ROOT, check=True, capture_output=True)
    return player


def test_the_json_keeps_every_move_and_counts_the_slow_ones(small_swish, tmp_path, capsys):
    out, picture = tmp_path / "moves.json", tmp_path / "moves.png"
    saved = ["--json", str(out), "--plot", str(picture)]
    main(["swish", "--player", str(small_swish), "--games", "2", "--seed", "3", *saved])
    record = json.loads(out.read_text())
    printed = capsys.readouterr().out
    moves = len(record["cpu_seconds"])
    assert moves > 0 and len(record["work"]) == len(record["depth"]) == len(record["wall_seconds"]) == moves
    assert all(wall > 0 for wall in record["wall_seconds"])
    assert f"moves: {moves};" in printed
    assert sum(record["wins_draws_losses"]) == 2
    assert record["command"][-6:] == ["--seed", "3", "--json", str(out), "--plot", str(picture)]
    for limit in THRESHOLDS:
        slower = sum(seconds > limit for seconds in record["cpu_seconds"])
        assert record["moves_over_cpu_seconds"][f"{limit:g}"] == slower
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_two_processes_play_the_moves_of_one(small_swish, tmp_path):
    """The games are seeded and the work counted, so a series split over processes makes the same moves."""
    records = []
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}.json"
        main(["swish", "--player", str(small_swish), "--games", "3", "--seed", "4", "--jobs", jobs, "--json", str(out)])
        records.append(json.loads(out.read_text()))
    one, two = records
    for key in ("wins_draws_losses", "work", "depth"):
        assert one[key] == two[key], key


def test_more_jobs_than_games_is_refused(capsys):
    with pytest.raises(SystemExit):
        main(["swish", "--games", "2", "--jobs", "3"])
    assert "--jobs must be between 1 and --games (2), got 3" in capsys.readouterr().err


def test_a_player_without_alpha_beta_is_refused_before_any_process_starts(capsys):
    with pytest.raises(SystemExit):
        main(["swish", "--player", "medium", "--games", "2", "--jobs", "2"])
    assert "medium plays swish without an alpha-beta search" in capsys.readouterr().err
