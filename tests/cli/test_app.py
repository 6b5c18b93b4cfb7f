"""The play app driven headless (SDL dummy video) by posted mouse events, and its session logic."""

from __future__ import annotations

import io
import os
import sys
import types

import numpy as np
import pytest

from envs.registry import GAMES
from scripts.app.session import Session
from scripts.app.sound import Sound, tone
from scripts.app.window import App
from scripts.scores import ScoreBook
from tests.helpers import ROOT

SCREENS = ROOT / "tests" / "screens"
# rule parameters that keep a whole game short
SHORT = {
    "twirls": {"max_plies": 80},
    "swish": {"max_plies": 60},
    "squeeze": {"max_plies": 60},
    "swimming": {"num_players": 3, "coins": 1},
}


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def make_app(game, tmp_path=None, clock=None, **kw):
    clock = clock or Clock()
    book = ScoreBook(tmp_path / "scores.sqlite") if tmp_path is not None else None
    kw.setdefault("think", 1.0)
    kw.setdefault("vs", "random")
    session = Session(game, seed=kw.pop("seed", 3), player="ann", clock=clock, scores=book, **kw)
    return App(session, sound=False), clock


def click_at(app, pos, button=1):
    pg = app.pg
    pg.event.post(pg.event.Event(pg.MOUSEBUTTONDOWN, pos=pos, button=button))
    return app.step()


def click_key(app, key):
    """Click a board key at its anchor, or the panel button of a button key."""
    s = app.session
    if key[0] == "button":
        pos = app.button(s.adapter.button_label(s.game, s.state, key)).rect.center
    else:
        pos = app.board_point(key)
        assert s.adapter.hit(s.game, s.state, s.seat, app.board_pos(pos)) == key
    click_at(app, pos)


def play_by_clicks(app, clock, rng, limit=3000):
    """The person picks random legal moves and clicks their paths; the computers answer in time."""
    s = app.session
    moves = 0
    for _ in range(limit):
        if s.over:
            break
        if s.my_turn:
            options = s.options()
            action = list(options)[rng.integers(len(options))]
            path = options[action][rng.integers(len(options[action]))]
            before = len(s.history)
            for key in path:
                click_key(app, key)
            assert s.history[before] == (s.seat, action), (path, s.refusal)
            moves += 1
        clock.t += 5.0
        app.step()
    return moves


@pytest.mark.parametrize("game", list(GAMES))
def test_a_whole_game_through_clicks(game, tmp_path):
    seat = 1 if game in ("swival", "swahili") else 0
    app, clock = make_app(game, tmp_path, params=SHORT.get(game, {}), seat=seat)
    moves = play_by_clicks(app, clock, np.random.default_rng(0))
    s = app.session
    assert s.over and moves > 0 and s.recorded
    row = s.scores.entry("ann", game)
    assert row["games"] == 1 and row["wins"] + row["draws"] + row["losses"] == 1
    assert {"win": "You win!", "loss": "You lose."}.get(s.outcome, s.message) == s.message
    if s.adapter.coins:  # the coin tally of every seat is the sum of its rewards
        coins = {r["player"]: r["coins"] for r in s.scores.rows(game)}
        assert sum(coins.values()) == 0 and coins.get("ann", 0) == s.coins[s.seat]
    app.step()


def test_squeeze_hand_setup_through_clicks(tmp_path):
    """Squeeze's hand set-up: placements (a cell, then which rook) and the colour choice, by clicks."""
    app, clock = make_app("squeeze", tmp_path, params={"setup": "marquisian", "max_plies": 20})
    s = app.session
    play_by_clicks(app, clock, np.random.default_rng(1), limit=200)
    assert s.over
    assert any(a >= s.game.place_base for _, a in s.history)


def test_undo_before_the_computer_answers(tmp_path):
    app, clock = make_app("swival", tmp_path, think=3.0)
    s = app.session
    click_key(app, ("cell", 0))
    assert s.history == [(0, 0)] and s.countdown() == pytest.approx(3.0)
    click_at(app, app.button("Undo").rect.center)
    assert s.history == [] and s.my_turn and s.state.boards == [0, 0]
    click_key(app, ("cell", 5))
    clock.t += 3.5
    app.step()  # the think time is over: the computer answers
    assert len(s.history) == 2 and s.my_turn
    assert not app.button("Undo").enabled
    assert s.undo() is False and "computer has answered" in s.refusal


def test_selection_cancel_and_restart(tmp_path):
    app, clock = make_app("swival", tmp_path)
    s = app.session
    s.play(0)  # o0
    clock.t += 2
    app.step()
    # a middle-ring space: with a counter on the board and one on the middle ring, a swivel is possible
    cell = next(c for c in range(8, 16) if not (s.state.boards[0] | s.state.boards[1]) >> c & 1)
    click_key(app, ("cell", cell))
    assert s.selection == [("cell", cell)] and app.button("swivel left")
    app.pg.event.post(app.pg.event.Event(app.pg.KEYDOWN, key=app.pg.K_ESCAPE, unicode="", mod=0))
    app.step()
    assert s.selection == []
    click_key(app, ("cell", cell))
    click_key(app, ("button", "swivel right"))
    assert s.history[2] == (0, cell * 3 + 2)


def test_illegal_click_is_refused_with_a_reason(tmp_path):
    app, clock = make_app("swival", tmp_path)
    s = app.session
    s.play(0)
    clock.t += 2
    app.step()
    taken = next(c for c in range(24) if (s.state.boards[0] | s.state.boards[1]) >> c & 1)
    click_key(app, ("cell", taken))
    assert "taken" in s.refusal and len(s.history) == 2
    click_at(app, app.board_point(("centre",)))
    assert "line of three" in s.refusal
    click_at(app, (5, app.board_rect.height - 3))  # no target there
    assert s.refusal


def test_resign(tmp_path):
    app, clock = make_app("swival", tmp_path)
    s = app.session
    assert not app.button("I quit").enabled
    assert s.resign() is False and "3 counters" in s.refusal
    for _ in range(3):
        s.play(next(a for a in s.options()))
        clock.t += 2
        app.step()
    click_at(app, app.button("I quit").rect.center)
    assert s.over and s.resigned
    assert s.scores.entry("ann", "swival")["losses"] == 1
    assert s.scores.entry("computer random", "swival")["wins"] == 1
    s.click(("cell", 23))
    assert "over" in s.refusal


def test_swimming_quit_shares_the_pot(tmp_path):
    app, clock = make_app("swimming", tmp_path, params={"num_players": 4})
    s = app.session
    rng = np.random.default_rng(2)
    while s.state.pot < 2 and not s.over:  # play until some coins are in the pot
        if s.my_turn:
            s.play(list(s.options())[rng.integers(len(s.options()))])
        clock.t += 5
        app.step()
    pot = s.state.pot
    active = [s.seat_name(k) for k in range(4) if s.state.active[k] and k != s.seat]
    assert s.resign()
    coins = {r["player"]: r["coins"] for r in s.scores.rows("swimming")}
    share = pot // len(active)
    for name in active:
        paid = -s.coins[[s.seat_name(k) for k in range(4)].index(name)]
        assert coins.get(name, 0) == share - paid
    assert s.scores.carried_pot("swimming") == pot - share * len(active)
    assert s.scores.entry("ann", "swimming")["losses"] == 1


def _my_turn_done(s):
    """The person plays first legal moves until the turn passes."""
    while s.my_turn:
        s.play(next(iter(s.options())))


def test_manual_and_semiauto_control():
    clock = Clock()
    s = Session("swahili", vs="random", seed=1, think=2.0, clock=clock, control="manual", params={"num_players": 3})
    _my_turn_done(s)
    clock.t += 10
    assert s.waiting_continue and not s.tick()  # manual: nothing happens without Continue
    assert s.undo()  # and the move can still be taken back
    _my_turn_done(s)
    n = len(s.history)
    assert s.continue_() and s.tick() and len(s.history) == n + 1
    assert s.waiting_continue and not s.my_turn  # the next computer waits for Continue too
    assert s.can_undo() is not None  # a computer has moved: no undo
    s.control = "semiauto"
    for _ in range(50):
        if s.my_turn or s.over:
            break
        s.continue_()
        clock.t += 1
        s.tick()
    _my_turn_done(s)
    clock.t += 10
    assert s.waiting_continue and not s.tick()  # semiauto: Continue after the person's turn
    s.continue_()
    assert s.tick()
    clock.t += 10
    assert not s.waiting_continue and (s.my_turn or s.tick())  # then the computers go on by themselves


def test_think_time_and_speed_settings():
    clock = Clock()
    s = Session("swival", vs="random", seed=1, think=2.0, clock=clock)
    assert s.set_think(True) == 3.0 and s.set_think(False) == 2.0
    for _ in range(10):
        s.set_think(False)
    assert s.think == 0.0
    s.play(0)
    assert s.countdown() == 0.0 and s.tick()  # no think time: the computer answers at once
    with pytest.raises(ValueError, match="speed"):
        Session("swival", speed="warp")


def test_brain_of_bots_and_policies():
    clock = Clock()
    s = Session("swival", vs="medium", seed=1, clock=clock, brain=True, think=0)
    s.play(0)
    s.tick()
    assert s.brain["seat"] == 1 and s.brain["kind"] == "scores" and len(s.brain["moves"]) >= 1
    assert all(isinstance(name, str) for name, _ in s.brain["moves"])

    class Policy:  # a learned policy's explain: probabilities and a value, no state argument
        def reset(self, seed=None):
            pass

        def act(self, obs, mask, state=None):
            return int(np.flatnonzero(mask)[0])

        def explain(self, obs, mask, top=5):
            legal = np.flatnonzero(mask)[:2]
            return {"moves": [(int(legal[0]), 0.75), (int(legal[1]), 0.25)], "value": 0.5}

    s.computers[1] = Policy()
    s.play(next(iter(s.options())))
    s.tick()
    assert s.brain["kind"] == "probabilities" and s.brain["value"] == 0.5


def test_scores_panel_remove_and_clear(tmp_path):
    app, clock = make_app("swival", tmp_path)
    s = app.session
    s.scores.record("swival", {"ann": "win", "bob": "loss"})
    click_at(app, app.button("Scores").rect.center)
    click_at(app, app.button("bob").rect.center)
    click_at(app, app.button("Remove bob").rect.center)
    assert [r["player"] for r in s.scores.rows("swival")] == ["ann"]
    click_at(app, app.button("Clear all").rect.center)
    assert s.scores.rows()  # the first click only asks
    click_at(app, app.button("Really clear all?").rect.center)
    assert s.scores.rows() == []
    click_at(app, app.button("Close scores").rect.center)
    assert app.button("New game")


def test_name_entry_and_new_game(tmp_path):
    app, clock = make_app("swival", tmp_path)
    pg = app.pg
    click_at(app, app.button("Name:").rect.center)
    for ch in "Zoe":
        pg.event.post(pg.event.Event(pg.KEYDOWN, key=ord(ch.lower()), unicode=ch, mod=0))
    pg.event.post(pg.event.Event(pg.KEYDOWN, key=pg.K_RETURN, unicode="\r", mod=0))
    app.step()
    assert app.session.player == "Zoe"
    click_at(app, app.button("vs:").rect.center)
    click_at(app, app.button("New game").rect.center)
    assert app.session.vs == "easy" and app.session.history == []


def test_window_closes_cleanly_and_counts_an_abandoned_game(tmp_path):
    app, clock = make_app("twirls", tmp_path)
    s = app.session
    s.play(next(iter(s.options())))
    app.pg.event.post(app.pg.event.Event(app.pg.QUIT))
    assert app.step() is False
    assert s.scores.entry("ann", "twirls")["losses"] == 1


def test_sound_tones_and_switch():
    samples = tone([(440, 0.1)], rate=8000)
    assert samples.dtype == np.int16 and samples.shape == (800,) and np.abs(samples).max() > 1000
    assert tone([(440, 0.05)], rate=8000, channels=2).shape == (400, 2)
    quiet = Sound(False)
    assert quiet.play("move") is False
    assert quiet.toggle() is True  # on: plays if there is an audio device, silently not otherwise
    quiet.toggle()


# -- screenshots ---------------------------------------------------------------------
def _screen_case(game):
    """A deterministic screen: fixed seed, first move made by the person, a selection pending."""
    clock = Clock()
    app, _ = make_app(
        game, None, clock=clock, params={"num_players": 2} if game == "swahili" else {}, seat=0, seed=11, vs="random"
    )
    s = app.session
    for _ in range(20):
        if s.my_turn:
            multi = [ps[0] for ps in s.options().values() if len(ps[0]) > 1]
            if multi:
                s.click(sorted(multi)[0][0])
                break
            s.play(sorted(s.options())[0])
        clock.t += 5
        app.step()
    app.draw()
    return app


def _small(app):
    from PIL import Image

    from envs.core.rendering import surface_to_array

    image = Image.fromarray(surface_to_array(app.screen))
    return image.resize((image.width // 2, image.height // 2), Image.BILINEAR)


@pytest.mark.parametrize("game", list(GAMES))
def test_screens_match_the_stored_pictures(game):
    from PIL import Image

    image = _small(_screen_case(game))
    path = SCREENS / f"{game}.png"
    if os.environ.get("SWGYM_UPDATE_SCREENS"):
        SCREENS.mkdir(exist_ok=True)
        image.save(path, optimize=True)
    assert path.exists(), f"{path} is missing (references are committed): SWGYM_UPDATE_SCREENS=1 writes it"
    stored = np.asarray(Image.open(path).convert("RGB"), dtype=np.int16)
    got = np.asarray(image, dtype=np.int16)
    assert stored.shape == got.shape
    diff = np.abs(stored - got).max(axis=2)
    assert diff.mean() < 2.0 and (diff > 40).mean() < 0.01, (
        f"{game}: screen differs from {path} (mean {diff.mean():.2f}); SWGYM_UPDATE_SCREENS=1 rewrites"
    )


# -- the commands -------------------------------------------------------------------------
def test_play_command_uses_the_terminal_without_a_display(tmp_path, monkeypatch):
    from scripts.cli import main

    monkeypatch.setattr("scripts.app.display.has_display", lambda: False)
    keys = ["o1", "", "i0", "", "i2", "", "i4", "", "i6", "", "quit"]  # Swival: "I quit" after 3 counters each
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(keys) + "\n"))
    db = tmp_path / "s.sqlite"
    main(["play", "swival", "--vs", "easy", "--name", "ann", "--db", str(db)])
    assert ScoreBook(db).entry("ann", "swival")["losses"] == 1
    assert ScoreBook(db).entry("computer easy", "swival")["wins"] == 1


def test_play_command_opens_the_window(tmp_path, monkeypatch):
    from scripts.cli import main

    opened = []
    monkeypatch.setattr("scripts.app.display.has_display", lambda: True)
    monkeypatch.setattr(App, "run", lambda self: opened.append(self.session))
    main(
        [
            "play",
            "twirls",
            "--vs",
            "easy",
            "--name",
            "ann",
            "--db",
            str(tmp_path / "s.sqlite"),
            "--seat",
            "1",
            "--think",
            "4",
            "--rule",
            "board_size=8",
        ]
    )
    (s,) = opened
    assert (s.game_name, s.seat, s.think, s.player, s.game.size) == ("twirls", 1, 4.0, "ann", 8)


def test_watch_with_brain_to_gif_and_mp4(tmp_path, monkeypatch, capsys):
    from PIL import Image

    from scripts.cli import main

    gif = tmp_path / "w.gif"
    main(["watch", "swival", "--p0", "medium", "--p1", "easy", "--seed", "7", "--gif", str(gif), "--brain"])
    assert "GIF written" in capsys.readouterr().out
    with Image.open(gif) as im:
        assert im.n_frames > 5 and im.size[1] > 540  # the brain strip under the board

    sent = []

    def write_frames(path, size, fps=None, macro_block_size=None):  # imageio-ffmpeg's generator API
        while True:
            frame = yield
            if frame is not None:
                sent.append((size, len(frame)))

    monkeypatch.setitem(sys.modules, "imageio_ffmpeg", types.SimpleNamespace(write_frames=write_frames))
    main(["watch", "swival", "--seed", "3", "--mp4", str(tmp_path / "w.mp4")])
    assert "MP4 written" in capsys.readouterr().out
    (w, h), n = sent[0]
    assert w % 16 == 0 and h % 16 == 0 and n == w * h * 3


def test_watch_mp4_without_the_writer_is_a_clear_error(monkeypatch):
    from scripts.cli import main

    monkeypatch.setitem(sys.modules, "imageio_ffmpeg", None)
    with pytest.raises(SystemExit, match="imageio-ffmpeg"):
        main(["watch", "swival", "--mp4", "x.mp4"])


def test_watch_writes_a_real_mp4(tmp_path, capsys):
    import imageio_ffmpeg

    from scripts.cli import main

    path = tmp_path / "real.mp4"
    main(["watch", "swival", "--p0", "medium", "--p1", "easy", "--seed", "7", "--mp4", str(path)])
    assert "MP4 written" in capsys.readouterr().out
    reader = imageio_ffmpeg.read_frames(str(path))
    meta = next(reader)
    frames = sum(1 for _ in reader)
    assert meta["size"][0] >= 480 and frames > 5


def test_the_session_shows_the_name_the_scores_keep(tmp_path):
    book = ScoreBook(tmp_path / "s.sqlite", warn=lambda m: None)
    s = Session("swival", vs="easy", player="  ann   lee ", seed=1, scores=book)
    assert s.player == "ann lee"
    with pytest.raises(ValueError, match="control characters"):
        Session("swival", vs="easy", player="ann\x07", seed=1)
