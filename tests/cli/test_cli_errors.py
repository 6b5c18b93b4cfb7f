"""The swgym command under bad input: a one-line message naming the value, a non-zero exit, no traceback."""

from __future__ import annotations

import importlib.util
import io
import os
import subprocess
import sys

import pytest

from scripts.cli import build_parser, main
from tests.helpers import ROOT

BAD = [
    (["eval", "swival", "easy", "random", "--games", "0"], "'0'"),
    (["eval", "swival", "easy", "random", "--games", "-3"], "'-3'"),
    (["eval", "swival", "easy", "random", "--games", "2", "--jobs", "-1"], "'-1'"),
    (["eval", "swimming", "medium", "easy", "easy", "easy", "--games", "10"], "must be a multiple of 4, got 10"),
    (["warmup", "swival", "--jobs", "0"], "'0'"),
    (["ladder", "nosuch"], "'nosuch'"),
    (["ladder", "swival", "--games", "0"], "'0'"),
    (["report", "nosuch"], "'nosuch'"),
    (["report", "swival", "--games", "0"], "'0'"),
    (["golden", "nosuch"], "'nosuch'"),
    (["watch", "swival", "--fps", "0"], "'0'"),
    (["watch", "swival", "--fps", "-2"], "'-2'"),
    (["watch", "swival", "--fps", "nan"], "'nan'"),
    (["watch", "swival", "--p2", "easy", "--text"], "--p2"),
    (["bench", "swival", "--seconds", "0"], "'0'"),
    (["bench", "swival", "--rounds", "0"], "'0'"),
    (["bench", "nosuch"], "nosuch"),
    (["bench", "swival", "--ppo", "--seconds", "5"], "--steps"),
    (["bench", "swival", "--steps", "100"], "--steps counts PPO env steps"),
    (["bench", "swival", "--ppo", "--steps", "0"], "'0'"),
    (["play", "swival", "--seat", "5", "--tui"], "5"),
    (["play", "swival", "--seat", "-1", "--tui"], "'-1'"),
    (["play", "swival", "--think", "-1", "--tui"], "'-1'"),
    (["train", "swival", "--steps", "0"], "'0'"),
    (["watch", "swival", "--seed", "-1", "--text"], "'-1'"),
    (["ladder", "swival", "--seed", "-5"], "'-5'"),
    (
        ["eval", "swival", "easy", "random", "--games", "2", "--json", "nowhere/x.json"],
        "'nowhere/x.json' (nowhere) does not exist",
    ),
    (
        ["eval", "swival", "easy", "random", "--games", "2", "--checkpoint", "nowhere/c.json"],
        "'nowhere/c.json' (nowhere) does not exist",
    ),
    (["watch", "swival", "--gif", "nowhere/x.gif"], "'nowhere/x.gif' (nowhere) does not exist"),
    (["watch", "twirls", "--rule", "board_size=9.0", "--text"], "board_size"),
    (["train", "swival", "--address", "auto"], "--address only with --backend rllib"),
    (["train", "swival", "--rule", "x=1"], "--rule only with --backend rllib"),
    (["train", "swival", "--backend", "rllib", "--iterations", "0"], "'0'"),
    (["train", "swival", "--backend", "ray"], "'ray'"),
    (["train", "swival", "--backend", "gumbel", "--address", "nowhere"], "not a Ray address: 'nowhere'"),
    (["train", "swival", "--backend", "gumbel", "--ship"], "--ship with --backend gumbel needs the config's"),
    (["train", "swival", "--backend", "rllib", "--address", "head:port"], "not a Ray address: 'head:port'"),
]


@pytest.mark.parametrize("argv, named", BAD, ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_bad_value_is_one_line_naming_it(argv, named, capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # end of input at once
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    code = exit_info.value.code
    err = capsys.readouterr().err
    message = code if isinstance(code, str) else err.strip().splitlines()[-1]  # argparse: usage, then the error
    assert code not in (0, None)
    assert named in message and "\n" not in message and "Traceback" not in err
    assert not list(tmp_path.iterdir())  # nothing written


def test_golden_missing_file_is_missing_not_differs(tmp_path, capsys):
    """A file that is not there is ``missing`` (a changed one ``DIFFERS``); either fails the check."""
    (tmp_path / "twirls_board_size-8.txt").write_text("another game\n")
    with pytest.raises(SystemExit) as exit_info:
        main(["golden", "twirls", "--dir", str(tmp_path)])
    assert exit_info.value.code == 1
    out = capsys.readouterr().out
    assert f"missing: {tmp_path / 'twirls.txt'}" in out
    assert f"missing: {tmp_path / 'twirls_hard-vs-medium.txt'}" in out
    assert out.count("DIFFERS") == 1 and f"DIFFERS: {tmp_path / 'twirls_board_size-8.txt'}" in out


def test_golden_folder_not_found_is_named(tmp_path):
    with pytest.raises(SystemExit, match="golden folder .*nowhere not found"):
        main(["golden", "twirls", "--dir", str(tmp_path / "nowhere")])


def test_training_commands_are_always_listed(capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--help"])
    listed = capsys.readouterr().out
    for command in ("train", "export", "ladder", "report"):
        assert command in listed


# Run the command where the training extras cannot be imported: a meta-path finder refuses them.
BLOCKED = ("torch", "stable_baselines3", "sb3_contrib", "tensorboard", "tqdm", "rich", "matplotlib", "ray")
BOOT = f"""
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {BLOCKED!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
sys.meta_path.insert(0, Block())
from scripts.cli import main
main(sys.argv[1:])
"""


def _run_without_extras(argv, cwd):
    env = dict(os.environ, PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return subprocess.run(
        [sys.executable, "-c", BOOT, *argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["train", "swival", "--out", "run"],
        ["export", "swival", "model.zip", "--out", "out.npz"],
        ["ladder", "swival", "--games", "2", "--out", "results"],
    ],
)
def test_without_the_training_extras_the_command_says_which_extra(argv, tmp_path):
    done = _run_without_extras(argv, tmp_path)
    assert done.returncode != 0
    assert "pip install -e '.[train]'" in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())  # no work done, nothing written


def test_without_ray_train_on_rllib_says_which_extra(tmp_path):
    done = _run_without_extras(["train", "swival", "--backend", "rllib", "--out", "run"], tmp_path)
    assert done.returncode != 0
    assert "pip install -e '.[rllib]'" in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())


def test_without_the_training_extras_help_lists_every_command(tmp_path):
    done = _run_without_extras(["--help"], tmp_path)
    assert done.returncode == 0
    for command in ("train", "export", "ladder", "report"):
        assert command in done.stdout


# -- logs: no in-place bars where stderr is not a terminal ---------------------------------------------------------
class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_in_a_log_is_plain_lines():
    from policies.evaluation import progress_printer

    log = io.StringIO()
    show = progress_printer(200, "swival: a vs b", stream=log)
    for done in range(1, 201):
        show(done)
    lines = log.getvalue().splitlines()
    assert "\r" not in log.getvalue()
    assert lines == [f"swival: a vs b: {k}/200" for k in range(20, 201, 20)]
    terminal = _Terminal()
    show = progress_printer(200, "x", stream=terminal)
    for done in range(1, 201):
        show(done)
    assert terminal.getvalue().count("\r") == 50 and terminal.getvalue().endswith("200/200\n")


@pytest.mark.parametrize("terminal, bar", [(False, False), (True, True)])
def test_training_bar_only_on_a_terminal(terminal, bar, monkeypatch, tmp_path, capsys):
    import training.selfplay

    seen = []

    def fake_train(config, out, ship_to=None, progress_bar=True):
        seen.append(progress_bar)
        return {"curve": []}

    monkeypatch.setattr(training.selfplay, "train", fake_train)
    monkeypatch.setattr("sys.stderr", _Terminal() if terminal else io.StringIO())
    main(["train", "swival", "--out", str(tmp_path / "run")])
    assert seen == [bar]
    assert capsys.readouterr().out.startswith("{")  # the summary printed


@pytest.mark.skipif(importlib.util.find_spec("ray") is not None, reason="Ray is installed here")
def test_gumbel_with_an_address_and_no_ray_names_the_extra(capsys, tmp_path):
    with pytest.raises(SystemExit) as exit_info:
        main(["train", "swival", "--backend", "gumbel", "--address", "auto", "--out", str(tmp_path / "run")])
    message = exit_info.value.code
    assert isinstance(message, str) and "\n" not in message and "Traceback" not in capsys.readouterr().err
    assert "--address auto: runs the generators on Ray, which is not installed here" in message
    assert "pip install -e '.[rllib]'" in message and "one machine needs no Ray" in message
    assert not (tmp_path / "run").exists()
