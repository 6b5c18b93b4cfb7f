"""What a game's click adapter provides: clicks -> actions, in the game's own render geometry.

A *key* is a small tuple naming something the person can click: a board
target such as ``("cell", 12)`` (its pixel place comes from :meth:`anchor`,
and :meth:`hit` maps a pixel back to it) or a panel button
``("button", "swivel left")``. Every legal action has one or more *paths*:
the sequence of keys that selects it (Twirls: origin, destination; Swival:
cell, then a swivel button when a swivel is possible). The session plays an
action as soon as the clicks so far are exactly one action's whole path.
"""

from __future__ import annotations

import math

import numpy as np

Key = tuple
Path = tuple  # tuple of keys

TARGET = (40, 200, 90)  # legal next targets
SELECTED = (40, 120, 230)  # keys clicked so far


def is_button(key: Key) -> bool:
    return key[0] == "button"


class Adapter:
    """Default behaviour; each game's module subclasses it (see scripts/app/games/)."""

    coins = False  # the rewards are coins (Swimming): tallied in the scores
    game_buttons: tuple = ()  # extra panel toggles the app offers for this game

    # -- actions -----------------------------------------------------------------
    def paths(self, game, state, mask: np.ndarray, seat: int) -> dict[int, list[Path]]:
        raise NotImplementedError

    # -- geometry ------------------------------------------------------------------
    def hit(self, game, state, seat: int, pos: tuple[float, float]) -> Key | None:
        """The board key under pixel ``pos`` (board coordinates), or None."""
        best, best_d = None, math.inf
        for key, (x, y, r) in self.targets(game, state, seat):
            d = math.hypot(pos[0] - x, pos[1] - y)
            if d <= r and d < best_d:
                best, best_d = key, d
        return best

    def targets(self, game, state, seat: int) -> list[tuple[Key, tuple[float, float, float]]]:
        """Every clickable board key with its (x, y, radius)."""
        return []

    def anchor(self, game, state, seat: int, key: Key) -> tuple[float, float, float] | None:
        for k, place in self.targets(game, state, seat):
            if k == key:
                return place
        return None

    def button_label(self, game, state, key: Key) -> str:
        return str(key[1])

    # -- words -----------------------------------------------------------------------
    def reason(self, game, state, seat: int, selection: list[Key], key: Key | None) -> str:
        """Why a click is refused (the session only asks for refused clicks)."""
        if key is None:
            return "Click on a highlighted place."
        if selection:
            return "That does not finish a legal move: choose one of the highlighted places (Esc to start again)."
        return "That is not a legal move here: the highlighted places are."

    def prompt(self, game, state, seat: int, selection: list[Key]) -> str:
        """What the person is asked to do now."""
        return "Your move: click a highlighted place." if not selection else "Now finish the move."

    def can_resign(self, game, state, seat: int) -> str | None:
        """None when the person may resign now, else why not."""
        return None

    def undo_blocked(self, game, before, after) -> str | None:
        """None when the person's move from ``before`` to ``after`` may be taken back."""
        return "the game is over" if game.is_over(after) else None

    # -- drawing ---------------------------------------------------------------------
    def draw_view(self, surface, game, state, seat: int) -> None:
        """Drawn after the game's renderer: what only the person sees (e.g. their own cards)."""

    def draw_target(self, surface, game, state, seat: int, key: Key, colour, width: int = 3) -> None:
        import pygame

        place = self.anchor(game, state, seat, key)
        if place is not None:
            x, y, r = place
            pygame.draw.circle(surface, colour, (x, y), r + 2, width=width)

    def draw_selection(self, surface, session) -> None:
        """Highlights: the clicked keys, the legal next targets, and any game extras."""
        game, state, seat = session.game, session.state, session.seat
        for key in session.next_keys():
            if not is_button(key):
                self.draw_target(surface, game, state, seat, key, TARGET, 2)
        for key in session.selection:
            if not is_button(key):
                self.draw_target(surface, game, state, seat, key, SELECTED, 4)
