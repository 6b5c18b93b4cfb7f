"""swgym warmup (compile ahead, with progress) and swgym bench --cold (first-use seconds in an empty cache)."""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import pytest

from scripts import warmup
from scripts.cli import main


def test_the_shipped_cases_are_each_game_and_each_variant_with_a_hard_file():
    cases = warmup.shipped_cases()
    assert ("swahili", {"num_players": 4}) in cases  # ships swahili_num_players-4_hard.npz
    assert ("twirls", {"board_size": 8}) not in cases  # no hard of its own
    assert [name for name, params in cases if not params] == [
        "swival",
        "twirls",
        "swimming",
        "swahili",
        "swish",
        "squeeze",
    ]


def test_warmup_compiles_every_part_with_a_progress_line_each():
    out = io.StringIO()
    warmup.warmup([("swival", {})], out=out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("swgym warmup: compiling 2 parts into ")
    assert lines[1] == "[------------------------] 0/2 swival: engine ..."
    assert lines[2].startswith("[############------------] 1/2 swival: engine ") and lines[2].endswith(" s")
    assert lines[4].startswith("[########################] 2/2 swival: hard ")
    assert lines[-1].startswith("swgym warmup: done in ")


def test_warmup_in_two_processes_compiles_every_part_the_hards_first():
    out = io.StringIO()
    warmup.warmup([("swival", {})], out=out, jobs=2)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("swgym warmup: compiling 2 parts into ")
    assert lines[1:3] == [
        "[------------------------] 0/2 swival: hard ...",
        "[------------------------] 0/2 swival: engine ...",
    ]
    ends = sorted(re.fullmatch(r"\[[#-]+\] [12]/2 (.+) [\d.]+ s", line)[1] for line in lines[3:5])
    assert ends == ["swival: engine", "swival: hard"] and lines[4].startswith("[########################] 2/2 ")
    assert lines[-1].startswith("swgym warmup: done in ")


def test_a_part_that_fails_in_its_process_is_named_with_its_error():
    with pytest.raises(RuntimeError, match=r"(?s)swival tilt=1: hard failed:.*tilt"):
        warmup.warmup([("swival", {"tilt": 1})], out=io.StringIO(), jobs=2)


def test_an_unknown_part_is_named():
    with pytest.raises(ValueError, match="unknown part 'brain': one of engine, hard"):
        warmup.first_use("swival", "brain")


def test_bench_cold_times_each_part_cold_then_warm_in_one_new_cache_each(monkeypatch, tmp_path):
    calls = []

    def timed(name, part, params, cache):
        assert Path(cache).is_dir()
        calls.append((name, part, cache, sorted(Path(cache).iterdir())))
        Path(cache, "compiled").touch()  # what the first (cold) process leaves for the warm one
        return 2.0 if len(calls) % 2 else 1.0

    monkeypatch.setattr(warmup, "_timed_process", timed)
    rows = warmup.cold_run([("swival", {}), ("swahili", {"num_players": 4})], out=io.StringIO())
    assert [(r["game"], r["part"], r["cold_s"], r["warm_s"]) for r in rows] == [
        ("swival", "engine", 2.0, 1.0),
        ("swival", "hard", 2.0, 1.0),
        ("swahili", "engine", 2.0, 1.0),
        ("swahili", "hard", 2.0, 1.0),
    ]
    caches = [c for _, _, c, _ in calls]
    assert caches[0::2] == caches[1::2] and len(set(caches)) == 4  # cold and warm share one cache, new per part
    assert all(seen == [] for _, _, _, seen in calls[0::2])  # every cold process starts from an empty cache
    assert not any(Path(c).exists() for c in caches)  # removed after
    table = warmup.format_cold_table(rows)
    assert "| swahili num_players=4 | the hard's first move | 2.0 | 1.0 |" in table


@pytest.mark.parametrize("argv", [["warmup", "chess"], ["bench", "--cold", "chess"]])
def test_the_commands_name_an_unknown_game(argv):
    with pytest.raises(SystemExit, match="unknown game 'chess'"):
        main(argv)


def test_bench_cold_part_times_only_that_first_use(monkeypatch, capsys):
    timed = []
    monkeypatch.setattr(warmup, "_timed_process", lambda name, part, params, cache: timed.append((name, part)) or 1.0)
    main(["bench", "--cold", "--part", "engine", "swish", "squeeze"])
    assert timed == [("swish", "engine"), ("swish", "engine"), ("squeeze", "engine"), ("squeeze", "engine")]
    table = capsys.readouterr().out
    assert "| swish | make_vec's first step | 1.0 | 1.0 |" in table and "hard" not in table


def test_bench_part_goes_with_cold_only():
    with pytest.raises(SystemExit, match="--part .* goes with it only"):
        main(["bench", "--part", "engine", "swish"])


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="no CPU affinity on this system")
def test_warmup_runs_one_process_per_core_it_may_use_by_default(monkeypatch):
    from scripts.cli import build_parser

    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 3, 5})  # 3 of the machine's cores
    assert build_parser().parse_args(["warmup"]).jobs == 3
