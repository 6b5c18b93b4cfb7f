"""A series kept in a checkpoint file (policies.evaluation.SeriesCheckpoint): stopped part way and run again,
it plays only the games it lacks and adds up to the series played at once; it refuses another series' file."""

from __future__ import annotations

import json
import shutil

import pytest

from policies import evaluation, shipped_path
from policies.evaluation import SeriesCheckpoint, SeriesRun, evaluate, missing_games
from scripts.cli import main

TWIRLS = ("twirls", ["easy", "random"], 8)  # chunks of 2 games: 4 chunks
PLAY_CHUNK = evaluation._play_chunk


class Stop(Exception):
    pass


def stopping_after(chunks, monkeypatch):
    """Make the in-process chunk player stop the run after ``chunks`` chunks; returns the firsts it played."""
    played = []

    def play(job):
        if len(played) == chunks:
            raise Stop
        played.append(job[4])
        return PLAY_CHUNK(job)

    monkeypatch.setattr(evaluation, "_play_chunk", play)
    return played


def outcome(result):
    return result.names, result.wins, result.draws, result.losses, result.returns, result.games


@pytest.fixture(scope="module")
def twirls_series(tmp_path_factory):
    """The Twirls series played at once without a checkpoint (its outcome), and the file a whole run with one
    writes: played once for the module."""
    path = tmp_path_factory.mktemp("whole") / "series.json"
    evaluate(*TWIRLS, seed=3, quiet=True, run=SeriesRun(checkpoint=path))
    return outcome(evaluate(*TWIRLS, seed=3, quiet=True)), path.read_bytes()


def test_a_stopped_series_resumes_where_it_stopped_and_adds_up_to_the_whole(tmp_path, monkeypatch, twirls_series):
    whole, _ = twirls_series
    path = tmp_path / "series.json"
    first_run = stopping_after(2, monkeypatch)
    with pytest.raises(Stop):
        evaluate(*TWIRLS, seed=3, quiet=True, run=SeriesRun(checkpoint=path))
    assert first_run == [0, 2]
    assert [p["first_game"] for p in json.loads(path.read_text())["parts"]] == [0, 2]
    second_run = stopping_after(10, monkeypatch)
    resumed = evaluate(*TWIRLS, seed=3, quiet=True, run=SeriesRun(checkpoint=path))
    assert second_run == [4, 6]  # only the games the file lacks
    assert outcome(resumed) == whole
    third_run = stopping_after(10, monkeypatch)
    assert outcome(evaluate(*TWIRLS, seed=3, quiet=True, run=SeriesRun(checkpoint=path))) == whole
    assert third_run == []  # a finished file plays nothing


def test_in_processes_with_a_checkpoint_it_is_the_same_series(tmp_path, twirls_series):
    whole, _ = twirls_series
    path = tmp_path / "series.json"
    assert outcome(evaluate(*TWIRLS, seed=3, quiet=True, run=SeriesRun(jobs=2, checkpoint=path))) == whole
    assert sorted(p["first_game"] for p in json.loads(path.read_text())["parts"]) == list(range(8))  # 1 a chunk


def test_duplicate_deals_resume_in_whole_deals(tmp_path, monkeypatch):
    """Three players, three deals: chunks of 3 games (a deal in every seating), where 9 games alone make 2."""
    args = ("swimming", ["medium", "random", "random"], 9)
    whole = evaluate(*args, seed=2, quiet=True, num_players=3)
    path = tmp_path / "deals.json"
    stopping_after(1, monkeypatch)
    with pytest.raises(Stop):
        evaluate(*args, seed=2, quiet=True, run=SeriesRun(checkpoint=path), num_players=3)
    played = stopping_after(10, monkeypatch)
    resumed = evaluate(*args, seed=2, quiet=True, run=SeriesRun(checkpoint=path), num_players=3)
    assert played == [3, 6]  # chunks of one deal in every seating
    assert resumed.duplicate and outcome(resumed) == outcome(whole)


@pytest.mark.parametrize(
    ("games", "played", "chunk", "expected"),
    [
        (8, [], 2, [(0, 2), (2, 2), (4, 2), (6, 2)]),
        (8, [(0, 2), (4, 2)], 2, [(2, 2), (6, 2)]),
        (7, [(0, 3)], 3, [(3, 3), (6, 1)]),
        (10, [(0, 5)], 4, [(5, 4), (9, 1)]),  # parts played with another chunk size
        (6, [(0, 2), (2, 2), (4, 2)], 2, []),
    ],
)
def test_missing_games(games, played, chunk, expected):
    parts = {
        first: evaluation.SeriesResult(["a", "b"], [0, 0], [0, 0], [0, 0], [0, 0], count) for first, count in played
    }
    assert missing_games(games, parts, chunk) == expected


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"games": 12}, "games: 8 there, 12 here"),
        ({"seed": 4}, "seed: 3 there, 4 here"),
        ({"entrants": ["medium", "random"]}, "entrants: ['easy', 'random'] there, ['medium', 'random'] here"),
        ({"board_size": 8}, "params: {} there, {'board_size': 8} here"),
    ],
)
def test_a_checkpoint_of_another_series_is_refused_by_name(tmp_path, change, named, twirls_series):
    path = tmp_path / "series.json"
    _, kept = twirls_series
    path.write_bytes(kept)
    game, entrants, games = TWIRLS
    args = {"entrants": entrants, "games": games, "seed": 3} | change
    with pytest.raises(ValueError, match="holds another series") as refused:
        evaluate(
            game,
            args.pop("entrants"),
            args.pop("games"),
            seed=args.pop("seed"),
            quiet=True,
            run=SeriesRun(checkpoint=path),
            **args,
        )
    assert named in str(refused.value)
    assert path.read_bytes() == kept  # nothing added to it


def test_a_changed_policy_file_is_refused(tmp_path):
    policy = tmp_path / "net.npz"
    shutil.copy(shipped_path("twirls"), policy)
    path = tmp_path / "series.json"
    entrants = [f"network:{policy}", "random"]
    evaluate("twirls", entrants, 2, seed=1, quiet=True, run=SeriesRun(checkpoint=path))
    shutil.copy(shipped_path("swival"), policy)  # other bytes under the same name
    with pytest.raises(ValueError, match=f"policy_files: {{'network:{policy}': '[0-9a-f]{{64}}'}} there"):
        evaluate("twirls", entrants, 2, seed=1, quiet=True, run=SeriesRun(checkpoint=path))


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("not json", "is not a series checkpoint of this program"),
        ('{"format": 2}', "format 2, expected 1"),
        ('{"format": 1, "series": {}}', "'parts'"),
    ],
)
def test_a_file_that_is_not_a_checkpoint_is_refused(tmp_path, text, named):
    path = tmp_path / "series.json"
    path.write_text(text)
    with pytest.raises(ValueError, match="is not a series checkpoint") as refused:
        evaluate(*TWIRLS, seed=3, quiet=True, run=SeriesRun(checkpoint=path))
    assert named in str(refused.value)


def test_a_folder_in_place_of_the_file_is_refused(tmp_path):
    with pytest.raises(ValueError, match="is not a series checkpoint"):
        evaluate(*TWIRLS, seed=3, quiet=True, run=SeriesRun(checkpoint=tmp_path))


def test_overlapping_parts_are_refused_as_damage(tmp_path):
    path = tmp_path / "series.json"
    evaluate(*TWIRLS, seed=3, quiet=True, run=SeriesRun(checkpoint=path))
    data = json.loads(path.read_text())
    data["parts"][1]["first_game"] = 1  # overlaps the first part's games 0-1
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="is damaged"):
        SeriesCheckpoint(path, data["series"])


def test_entrants_as_objects_cannot_be_checkpointed(tmp_path):
    from envs.core.opponents import RandomOpponent

    with pytest.raises(ValueError, match="by name or policy path"):
        evaluate("twirls", [RandomOpponent(1), "random"], 2, quiet=True, run=SeriesRun(checkpoint=tmp_path / "c.json"))


def test_swgym_eval_resumes_from_its_checkpoint_and_refuses_a_corrupt_one(tmp_path, capsys):
    path = tmp_path / "series.json"
    argv = ["eval", "twirls", "easy", "random", "--games", "4", "--seed", "3", "--checkpoint", str(path)]
    main(argv)
    first = capsys.readouterr().out
    main(argv)
    again = capsys.readouterr()
    assert again.out == first
    assert "series.json: 4 of 4 games already played" in again.err
    path.write_text("{")
    with pytest.raises(SystemExit) as refused:
        main(argv)
    message = refused.value.code if isinstance(refused.value.code, str) else capsys.readouterr().err
    assert "is not a series checkpoint" in str(message) and "Traceback" not in str(message)
