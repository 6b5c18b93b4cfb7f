"""The play window: the game's own picture on the left, a panel of buttons and the brain on the right.

A thin layer over :class:`scripts.app.session.Session`: mouse clicks become
``session.click(key)`` (board) or a button's callback (panel); each frame
asks the session to let the computer move when its time has come, then draws.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from envs.core import rendering
from scripts.app.brainview import draw_brain
from scripts.app.games.base import is_button
from scripts.app.session import CONTROLS, SPEEDS, Session, available_difficulties
from scripts.app.sound import Sound
from scripts.scores import normal_name

PANEL_W = 270
MIN_H = 660
PAD = 10
BUTTON_H = 26
PANEL_BG = (225, 214, 190)
BUTTON_BG = (250, 245, 232)
BUTTON_OFF = (205, 198, 182)
ACTION_BG = (255, 226, 140)
RED = (190, 30, 30)


@dataclass
class Button:
    label: str
    rect: object  # pygame.Rect, window coordinates
    action: Callable[[], object]
    enabled: bool = True
    kind: str = "control"  # "control", "action" (a move), "row" (a score line)


class App:
    """The window of one :class:`Session`; call :meth:`step` per frame or :meth:`run`."""

    def __init__(self, session: Session, sound: bool = True, fps: int = 30) -> None:
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame

        self.pg = pygame
        pygame.display.init()
        pygame.font.init()
        self.session = session
        self.sound = Sound(sound)
        self.fps = fps
        self.running = True
        self.show_scores = False
        self.score_pick: str | None = None
        self.confirm_clear = False
        self.editing_name: str | None = None
        self.pending_params = dict(session.params)
        self.pending_vs = session.vs
        self.buttons: list[Button] = []
        self.screen = None
        self._layout()
        self.clock = pygame.time.Clock()
        if session.scores is not None and session.scores.notice:
            session.message = "Scores: the old file was unreadable and was moved aside (see the terminal)."
        self.draw()

    # -- layout ---------------------------------------------------------------------
    def _layout(self) -> None:
        pg = self.pg
        bw, bh = self.session.renderer.size(self.session.game)
        size = (bw + PANEL_W, max(bh, MIN_H))
        if self.screen is None or self.screen.get_size() != size:
            pg.display.set_caption(f"swgym: {self.session.game_name}")
            self.screen = pg.display.set_mode(size)
        self.board_rect = pg.Rect(0, 0, bw, bh)
        self.panel_rect = pg.Rect(bw, 0, PANEL_W, size[1])
        self.board = self.screen.subsurface(self.board_rect)

    # -- the panel's buttons -------------------------------------------------------------
    def _build_buttons(self) -> int:
        """Lay out this frame's buttons below the status text; returns the y where the brain starts."""
        s = self.session
        pg = self.pg
        x0, w = self.panel_rect.x + PAD, PANEL_W - 2 * PAD
        y = self._status_bottom
        self.buttons = []

        def row(*items, kind="control"):
            nonlocal y
            items = [it for it in items if it is not None]
            if not items:
                return
            gap = 6
            bw = (w - gap * (len(items) - 1)) / len(items)
            for i, (label, action, enabled) in enumerate(items):
                rect = pg.Rect(int(x0 + i * (bw + gap)), y, int(bw), BUTTON_H)
                self.buttons.append(Button(label, rect, action, enabled, kind))
            y += BUTTON_H + 5

        if self.show_scores:
            return self._score_buttons(row)
        # the moves that are buttons (swivel, swap all, stop, ...), two per row
        actions = [k for k in s.next_keys() if is_button(k)]
        items = [(s.adapter.button_label(s.game, s.state, k), (lambda k=k: s.click(k)), True) for k in actions]
        for i in range(0, len(items), 2):
            row(*items[i : i + 2], kind="action")
        if s.selection:
            row(("cancel selection (Esc)", s.cancel, True))
        if s.waiting_continue and not s.over:
            row(("Continue", s.continue_, True), kind="action")
        y += 4
        row(("New game", self.new_game, True), ("Undo", s.undo, s.can_undo() is None))
        row(("I quit", s.resign, s.can_resign() is None), ("Scores", self.toggle_scores, True))
        row(
            (f"Sound: {'on' if self.sound.enabled else 'off'}", self.sound.toggle, True),
            (f"Brain: {'on' if s.brain_on else 'off'}", self.toggle_brain, True),
        )
        row(
            (f"Speed: {s.speed}", lambda: setattr(s, "speed", s.cycle(s.speed, SPEEDS)), True),
            (f"vs: {self.pending_vs}", self.cycle_vs, True),
        )
        row(
            (f"Think: {s.think:g} s", None, False),
            ("-", lambda: s.set_think(False), s.think > 0),
            ("+", lambda: s.set_think(True), True),
        )
        row((f"Name: {self.editing_name + '_' if self.editing_name is not None else s.player}", self.edit_name, True))
        if "open_hands" in s.adapter.game_buttons:
            on = bool(self.pending_params.get("open_hands", False))
            row(
                (
                    f"Face up: {'on' if on else 'off'}" + (" (next)" if on != bool(s.params.get("open_hands")) else ""),
                    self.toggle_open_hands,
                    True,
                )
            )
        if "control" in s.adapter.game_buttons:
            row((f"Computer turns: {s.control}", lambda: setattr(s, "control", s.cycle(s.control, CONTROLS)), True))
        return y + 6

    def _score_buttons(self, row) -> int:
        s = self.session
        row(("Close scores", self.toggle_scores, True))
        row((f"Remove {self.score_pick or '(pick a line)'}", self.remove_pick, self.score_pick is not None))
        row(("Really clear all?" if self.confirm_clear else "Clear all", self.clear_all, s.scores is not None))
        return self.buttons[-1].rect.bottom + 8

    # -- callbacks --------------------------------------------------------------------
    def new_game(self) -> None:
        s = self.session
        seed = None if s.seed is None else s.seed + 1
        s.new_game(seed=seed, params=self.pending_params, vs=self.pending_vs)
        self._layout()

    def toggle_brain(self) -> None:
        s = self.session
        s.brain_on = not s.brain_on

    def cycle_vs(self) -> None:
        self.pending_vs = self.session.cycle(self.pending_vs, available_difficulties(self.session.game_name))
        self.session.message = f"The next game is against {self.pending_vs}."

    def toggle_open_hands(self) -> None:
        self.pending_params["open_hands"] = not self.pending_params.get("open_hands", False)
        self.session.message = "Face up applies from the next game (New game)."

    def toggle_scores(self) -> None:
        self.show_scores = not self.show_scores
        self.confirm_clear = False

    def remove_pick(self) -> None:
        s = self.session
        if s.scores is not None and self.score_pick:
            s.scores.remove(self.score_pick, s.game_name)
            s.message = f"Removed {self.score_pick} from the {s.game_name} scores."
            self.score_pick = None

    def clear_all(self) -> None:
        s = self.session
        if not self.confirm_clear:
            self.confirm_clear = True
            return
        s.scores.clear()
        self.confirm_clear = False
        s.message = "All scores cleared."

    def edit_name(self) -> None:
        self.editing_name = "" if self.editing_name is None else None

    # -- events -----------------------------------------------------------------------
    def handle(self, event) -> None:
        pg = self.pg
        s = self.session
        if event.type == pg.QUIT:
            self.running = False
        elif event.type == pg.KEYDOWN:
            self._key(event)
        elif event.type == pg.MOUSEMOTION:
            pos = event.pos
            s.hover = (
                s.adapter.hit(s.game, s.state, s.seat, self.board_pos(pos))
                if self.board_rect.collidepoint(pos)
                else None
            )
        elif event.type == pg.MOUSEBUTTONDOWN:
            if event.button == 3:
                s.cancel()
            elif event.button == 1:
                self.click(event.pos)

    def click(self, pos) -> None:
        s = self.session
        for b in self.buttons:
            if b.rect.collidepoint(pos):
                if b.enabled and b.action is not None:
                    b.action()
                    self._layout()
                    self.draw()
                return
        if self.board_rect.collidepoint(pos) and not self.show_scores:
            key = s.adapter.hit(s.game, s.state, s.seat, self.board_pos(pos))
            s.click(key)
            self.draw()

    def board_pos(self, pos):
        """A window point in the board's own coordinates (what the game's ``hit`` reads); see :meth:`board_point`."""
        return pos[0] - self.board_rect.x, pos[1] - self.board_rect.y

    def _key(self, event) -> None:
        pg = self.pg
        s = self.session
        if self.editing_name is not None:
            if event.key == pg.K_RETURN:
                name = self.editing_name.strip()
                self.editing_name = None
                if name:
                    if s.person_moved and not s.over:
                        s.message = "Finish or quit this game before changing names."
                    else:
                        s.player = normal_name(name)  # as the scores file stores it
            elif event.key == pg.K_ESCAPE:
                self.editing_name = None
            elif event.key == pg.K_BACKSPACE:
                self.editing_name = self.editing_name[:-1]
            elif event.unicode and event.unicode.isprintable() and len(self.editing_name) < 20:
                self.editing_name += event.unicode
            return
        if event.key == pg.K_ESCAPE:
            s.cancel()
        elif event.key == pg.K_u:
            s.undo()
        elif event.key == pg.K_n:
            self.new_game()
        elif event.key == pg.K_SPACE:
            s.continue_()

    # -- a frame ----------------------------------------------------------------------
    def step(self) -> bool:
        """Handle the queued events, let the computer move if due, draw; False once closed."""
        for event in self.pg.event.get():
            self.handle(event)
            if not self.running:
                self.session.close()
                return False
        self.session.tick()
        for name in self.session.events:
            self.sound.play(name)
        self.session.events.clear()
        self.draw()
        self.pg.display.flip()
        return True

    def run(self) -> None:
        while self.step():
            self.clock.tick(self.fps)
        self.pg.display.quit()

    # -- drawing ------------------------------------------------------------------------
    def draw(self) -> None:
        pg = self.pg
        s = self.session
        self.screen.fill(PANEL_BG)
        s.renderer.draw(self.board, s.game, s.state, s.env.last_move)
        s.adapter.draw_view(self.board, s.game, s.state, s.seat)
        if s.my_turn:
            s.adapter.draw_selection(self.board, s)
        pg.draw.line(self.screen, (150, 130, 100), self.panel_rect.topleft, self.panel_rect.bottomleft, 2)
        self._draw_status()
        brain_top = self._build_buttons()
        for b in self.buttons:
            fill = ACTION_BG if b.kind == "action" else BUTTON_BG if b.enabled else BUTTON_OFF
            pg.draw.rect(self.screen, fill, b.rect, border_radius=5)
            pg.draw.rect(self.screen, (120, 100, 80), b.rect, width=1, border_radius=5)
            rendering.text(
                self.screen,
                b.label,
                b.rect.center,
                size=20,
                anchor="center",
                colour=rendering.INK if b.enabled else (130, 125, 115),
            )
        if self.show_scores:
            self._draw_scores(brain_top)
        elif s.brain_on:
            self._draw_brain(brain_top)

    def _lines(self, text: str, width: int, size: int, bold: bool = False) -> list[str]:
        f = rendering.font(size, bold)
        lines, line = [], ""
        for word in text.split():
            trial = f"{line} {word}".strip()
            if f.size(trial)[0] > width and line:
                lines.append(line)
                line = word
            else:
                line = trial
        return lines + ([line] if line else [])

    def _text_block(self, text: str, y: int, size: int = 20, colour=rendering.INK, bold: bool = False) -> int:
        for line in self._lines(text, PANEL_W - 2 * PAD, size, bold):
            rendering.text(self.screen, line, (self.panel_rect.x + PAD, y), size=size, colour=colour, bold=bold)
            y += size - 3
        return y

    def _draw_status(self) -> None:
        s = self.session
        x = self.panel_rect.x + PAD
        y = PAD
        rendering.text(self.screen, s.game_name.capitalize(), (x, y), size=30, bold=True)
        y += 28
        colour = rendering.SEAT_COLOURS[s.seat % len(rendering.SEAT_COLOURS)]
        y = self._text_block(f"You: {s.player} (player_{s.seat}) vs {s.vs}", y, colour=colour, bold=True) + 2
        if s.over:
            status = s.message
        elif s.my_turn:
            status = s.adapter.prompt(s.game, s.state, s.seat, s.selection)
        elif not s.game.seat_active(s.state, s.seat):
            status = "You are out of this game: the others play on (New game starts again)."
        elif s.waiting_continue:
            status = "Press Continue for the computer's move."
        elif s.countdown() is not None:
            status = f"The computer answers in {s.countdown():.1f} s: Undo takes your move back."
        else:
            status = f"player_{s.to_move} is thinking..."
        y = self._text_block(status, y + 2, size=21, bold=True)
        if s.message and not s.over:
            y = self._text_block(s.message, y + 2, size=19, colour=(70, 60, 50))
        if s.refusal:
            y = self._text_block(s.refusal, y + 2, size=19, colour=RED, bold=True)
        self._status_bottom = y + 6

    def _draw_brain(self, top: int) -> None:
        draw_brain(self.screen, self.panel_rect.x + PAD, top, PANEL_W - 2 * PAD, self.session.brain)

    def _draw_scores(self, top: int) -> None:
        s = self.session
        x = self.panel_rect.x + PAD
        rendering.text(self.screen, f"Scores: {s.game_name}", (x, top), size=24, bold=True)
        y = top + 24
        if s.scores is None:
            self._text_block("Scores are off (no scores file).", y, size=18)
            return
        coins = s.adapter.coins
        rendering.text(self.screen, "name   games W D L" + ("  coins" if coins else ""), (x, y), size=17)
        y += 18
        for r in s.scores.rows(s.game_name)[:14]:
            rect = self.pg.Rect(x - 2, y - 1, PANEL_W - 2 * PAD + 4, 18)
            if r["player"] == self.score_pick:
                self.pg.draw.rect(self.screen, (255, 230, 150), rect)
            line = f"{r['player'][:14]:<14} {r['games']:>3} {r['wins']}/{r['draws']}/{r['losses']}"
            if coins:
                line += f"  {r['coins']:+d}"
            rendering.text(self.screen, line, (x, y), size=17)
            self.buttons.append(Button(r["player"], rect, (lambda p=r["player"]: self._pick(p)), True, "row"))
            y += 18

    def _pick(self, player: str) -> None:
        self.score_pick = player
        self.confirm_clear = False

    # -- for tests --------------------------------------------------------------------------
    def button(self, label_start: str) -> Button:
        """The button whose label starts with ``label_start`` (after a draw)."""
        for b in self.buttons:
            if b.label.startswith(label_start):
                return b
        raise KeyError(f"no button {label_start!r}; buttons: {[b.label for b in self.buttons]}")

    def board_point(self, key) -> tuple[int, int]:
        """Window pixel of a board key (its anchor)."""
        s = self.session
        x, y, _ = s.adapter.anchor(s.game, s.state, s.seat, key)
        return int(round(x + self.board_rect.x)), int(round(y + self.board_rect.y))
