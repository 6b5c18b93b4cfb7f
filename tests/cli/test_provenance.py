"""Every result the documentation shows names the policy files it measured (results/provenance.json), and those
are the shipped files unless the result is marked stale and shown so."""

import importlib.util
import re
import shutil

import pytest

from envs.registry import GAMES
from policies.provenance import is_current, load_records, problems, save_records, sha256
from tests.helpers import ROOT

RECORDS = load_records()
_spec = importlib.util.spec_from_file_location("gen_pages", ROOT / "docs" / "gen_pages.py")
gen_pages = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen_pages)
EVAL_MD = (ROOT / "results" / "EVAL.md").read_text()


def test_every_shown_result_was_measured_on_the_shipped_files_or_is_marked_stale():
    assert problems(RECORDS) == []


def test_every_shown_result_has_a_record():
    shown = {
        ("results/EVAL.md", " | ".join(c.strip() for c in line.split("|")[1:5]))
        for line in EVAL_MD.splitlines()
        if line.startswith("| ") and line.split("|")[1].strip() in GAMES
    }
    for game in GAMES:
        shown |= {(gen_pages.ladder_chart(game).relative_to(ROOT).as_posix(), "")}
        shown |= {(f"docs/assets/{game}.gif", ""), (f"docs/assets/{game}_board.png", "")}
    recorded = {(r["result"], r["part"]) for r in RECORDS}
    assert shown - recorded == set()
    for r in RECORDS:
        assert r["command"] and re.fullmatch(r"\d{4}-\d\d-\d\d", r["date"]) and re.match(r"[0-9a-f]{40}", r["commit"])
        assert all(re.fullmatch(r"[0-9a-f]{64}", h) for h in r["policies"].values())


def test_a_swapped_policy_file_makes_the_check_fail(tmp_path):
    for path in (ROOT / "policies").glob("*.npz"):
        (tmp_path / "policies").mkdir(exist_ok=True)
        shutil.copy(path, tmp_path / "policies" / path.name)
    assert problems(RECORDS, tmp_path) == []
    shutil.copy(ROOT / "policies" / "swival_hard.npz", tmp_path / "policies" / "twirls_hard.npz")  # a new hard
    found = problems(RECORDS, tmp_path)
    current_twirls = [r for r in RECORDS if "policies/twirls_hard.npz" in r["policies"] and not r.get("stale")]
    assert len(found) == len(current_twirls) > 0
    assert all("policies/twirls_hard.npz" in line for line in found)


def test_a_stale_mark_on_a_current_result_is_refused(tmp_path):
    record = next(r for r in RECORDS if r["policies"] and is_current(r))
    assert problems([{**record, "stale": True, "note": "x"}]) == [
        f"{record['result']}"
        + (f" [{record['part']}]" if record["part"] else "")
        + ": marked stale, but its policy files are the shipped ones"
    ]
    save_records([record], tmp_path / "p.json")
    assert load_records(tmp_path / "p.json") == [record]
    assert sha256(tmp_path / "p.json") != sha256(ROOT / "results" / "provenance.json")


@pytest.mark.parametrize("game", list(GAMES))
def test_results_measured_on_an_earlier_file_are_marked_on_the_page(game):
    page = gen_pages.game_markdown(game, EVAL_MD, has_ladder=True, records=RECORDS)
    stale_rows = [r for r in RECORDS if r.get("stale") and r["part"].startswith(f"{game} |")]
    evaluation = page.split("## Results")[1].split("\n## ")[0]
    assert evaluation.count(" † |") == evaluation.count("\n† ") == len(stale_rows)
    for r in stale_rows:
        assert next(iter(r["policies"].values()))[:12] in evaluation
    gif = next(r for r in RECORDS if r["result"] == f"docs/assets/{game}.gif")
    caption = re.search(r"<figcaption>hard \(player_0\) against (.*?)</figcaption>", page).group(1)
    assert next(iter(gif["policies"].values()))[:12] in caption  # the file the animation was made with
    assert ("makes it again" in caption) == bool(gif.get("stale"))


def test_swgym_results_makes_again_what_is_stale(capsys):
    from scripts.results import main

    stale = [r for r in RECORDS if r.get("stale")]
    assert main(dry_run=True) == len(stale)
    out = capsys.readouterr().out
    assert f"{len(stale)} of {len(RECORDS)} results to make" in out
    assert all(f"] {r['result']}" in out for r in stale)
    assert load_records() == RECORDS  # a dry run writes nothing


def test_swgym_results_plays_each_series_in_the_jobs_asked(monkeypatch):
    """``swgym results --jobs N`` hands N to every EVAL series it makes again (the games are the same as one)."""
    import policies.report
    from scripts.results import regenerate

    asked = []
    monkeypatch.setattr(policies.report, "report", lambda games, names, **kw: asked.append((games, kw["jobs"])) or [])
    monkeypatch.setattr(policies.report, "write_report", lambda rows, folder: None)
    record = dict(next(r for r in RECORDS if r["result"] == "results/EVAL.md"))
    regenerate(record, 4, jobs=2)
    assert asked == [(4, 2)]
    assert record["command"].startswith("swgym report ") and "--games 4" in record["command"]
