"""``swgym train`` shows every phase's progress with what is left, keeps the lines in the run folder's log, and
applies each budget to the phase it names or refuses it naming the phase."""

import json

import pytest

from scripts.cli import main
from tests.training_helpers import tiny_config
from training import progress
from training.progress import Progress, duration


def test_progress_estimates_what_is_left_from_the_time_so_far(capsys):
    now = [100.0]
    bar = Progress("recording", "swish", 40, "games", every=5, clock=lambda: now[0])
    now[0] += 10
    bar.update(10)  # a quarter in 10 s: 30 s left
    now[0] += 1
    bar.update(11)  # too soon for another line
    now[0] += 29
    bar.update(40, "1234 positions")
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "[recording] swish: 0/40 games, 0 s, estimate after the first ones",
        "[recording] swish: 10/40 games, 10 s, about 30 s left",
        "[recording] swish: 40/40 games, 40 s, done; 1234 positions",
    ]
    assert [duration(s) for s in (59.4, 200, 3900)] == ["59 s", "3 min 20 s", "1 h 05 min"]


def test_a_quiet_phase_prints_only_once_it_runs_long(capsys):
    now = [0.0]
    bar = Progress("evaluation", "swival vs medium", 4, "games", every=5, announce=False, clock=lambda: now[0])
    bar.update(4)
    assert capsys.readouterr().out == ""
    bar = Progress("evaluation", "swival vs medium", 4, "games", every=5, announce=False, clock=lambda: now[0])
    now[0] += 6
    bar.update(1)
    bar.update(4)
    assert capsys.readouterr().out.splitlines()[-1] == "[evaluation] swival vs medium: 4/4 games, 6 s, done"


def _config_file(tmp_path, **over):
    config = tiny_config("swival", env="single", checkpoint={"every": 0}, **over)
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(config))
    return path


def test_every_phase_reports_through_the_cli_and_into_the_run_log(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(progress, "EVERY", 0.0)  # a line at every update, so that tiny phases show theirs
    imitation = {"teacher": "easy", "games": 50, "opponents": {"random": 1.0}, "epochs": 5, "eval_every_epochs": 0}
    config = _config_file(tmp_path, imitation=imitation)
    out = tmp_path / "run"
    main(["train", "swival", "--config", str(config), "--steps", "128", "--imitation-games", "3",
          "--imitation-epochs", "1", "--eval-games", "2", "--out", str(out), "--no-progress"])  # fmt: skip
    printed = capsys.readouterr().out
    for phase, total in (("recording", "3 games"), ("imitation", "minibatches"), ("ppo", "128 env steps"),
                         ("evaluation", "2 games")):  # fmt: skip
        lines = [line for line in printed.splitlines() if line.startswith(f"[{phase}]") and total in line]
        assert lines and lines[-1].split(", ")[-1].startswith("done"), (phase, lines)
    assert "phases: recording 3 games (--imitation-games); imitation 1 epochs (--imitation-epochs); PPO 128" in printed
    log = (out / "train.log").read_text()
    assert all(line in log for line in printed.splitlines() if line.startswith("["))
    summary = json.loads((out / "summary.json").read_text())
    assert summary["trained_timesteps"] >= 128 and len(summary["imitation"]) == 1


def test_imitation_games_zero_skips_recording_and_imitation(tmp_path, capsys):
    imitation = {"teacher": "easy", "games": 50, "opponents": {"random": 1.0}, "epochs": 5}
    config = _config_file(tmp_path, imitation=imitation)
    main(["train", "swival", "--config", str(config), "--steps", "64", "--imitation-games", "0",
          "--out", str(tmp_path / "run"), "--no-progress"])  # fmt: skip
    printed = capsys.readouterr().out
    assert "[recording]" not in printed and "[imitation]" not in printed and "[ppo] swival: 64/64" in printed


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--imitation-games", "5"], "has no such phase for --imitation-games (the recording phase)"),
        (["--imitation-epochs", "2"], "--imitation-epochs (the imitation phase)"),
        (["--backend", "gumbel", "--eval-games", "4"], "--eval-games not supported with --backend gumbel"),
        (["--backend", "gumbel", "--head", "factored"], "--head not supported with --backend gumbel"),
    ],
)
def test_a_budget_that_reaches_no_phase_is_refused_naming_it(tmp_path, argv, message):
    config = _config_file(tmp_path)
    with pytest.raises(SystemExit) as err:
        main(["train", "swival", "--config", str(config), "--out", str(tmp_path / "run"), *argv])
    assert message in str(err.value)
