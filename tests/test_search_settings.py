"""research/search_settings.py: the copy of a policy file with other search settings."""

import subprocess
import sys
from pathlib import Path

import pytest

from policies import shipped_path
from policies.numpy_policy import read_policy_file
from research.search_settings import changed_search

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("settings", "drop", "expected"),
    [
        (["depth=3"], [], {"depth": 3, "width": 8}),
        (['order_by="value"', "compiled=true"], ["width"], {"depth": 6, "order_by": "value", "compiled": True}),
        ([], ["nothing"], {"depth": 6, "width": 8}),
    ],
)
def test_changed_search(settings, drop, expected):
    assert changed_search({"depth": 6, "width": 8}, settings, drop) == expected


@pytest.mark.parametrize(("item", "message"), [("depth", "KEY=VALUE"), ("=3", "KEY=VALUE"), ("order_by=value", "JSON")])
def test_changed_search_refuses_what_is_not_key_json(item, message):
    with pytest.raises(SystemExit, match=message):
        changed_search({}, [item], [])


def _run(*argv):
    return subprocess.run(
        [sys.executable, "-m", "research.search_settings", *argv], cwd=ROOT, capture_output=True, text=True
    )


def test_the_copy_has_the_same_arrays_and_the_new_search(tmp_path):
    source = shipped_path("squeeze")
    out = tmp_path / "variant.npz"
    done = _run(str(source), str(out), "--set", "total_work=1000", "--drop", "compiled")
    assert done.returncode == 0, done.stderr
    meta, arrays = read_policy_file(out)
    old_meta, old_arrays = read_policy_file(source)
    assert meta["search"] == {k: v for k, v in old_meta["search"].items() if k != "compiled"} | {"total_work": 1000}
    assert arrays.keys() == old_arrays.keys() and all((arrays[k] == old_arrays[k]).all() for k in arrays)


def test_settings_the_search_refuses_write_no_file(tmp_path):
    out = tmp_path / "variant.npz"
    done = _run(str(shipped_path("squeeze")), str(out), "--set", "width=8")  # compiled serves width 0 only
    assert done.returncode != 0 and "width=8" in done.stderr and not out.exists()


def test_every_set_is_kept_whether_repeated_or_listed(tmp_path):
    """``--set A --set B`` keeps both, as ``--set A B`` does (a repeated option once kept only its last)."""
    source = shipped_path("swimming", num_players=4)
    repeated, listed = tmp_path / "repeated.npz", tmp_path / "listed.npz"
    done = _run(str(source), str(repeated), "--set", "samples=384", "--set", "belief_deals=1536")
    assert done.returncode == 0, done.stderr
    done = _run(str(source), str(listed), "--set", "samples=384", "belief_deals=1536")
    assert done.returncode == 0, done.stderr
    for path in (repeated, listed):
        search = read_policy_file(path)[0]["search"]
        assert (search["samples"], search["belief_deals"]) == (384, 1536)
