"""Swimming clicks: one of your cards then a middle card (either order) swaps them; swap all, pass,
knock and the dealer's keep / take are buttons. Your own hand is drawn face up over the table."""

from __future__ import annotations

from envs.swimming import render
from scripts.app.games.base import Adapter

BUTTONS = {9: "swap all", 10: "pass", 11: "knock", 12: "keep lot", 13: "take other lot"}


class SwimmingAdapter(Adapter):
    coins = True
    game_buttons = ("open_hands", "control")

    def paths(self, game, state, mask, seat):
        out = {}
        for a in mask.nonzero()[0]:
            a = int(a)
            if a < 9:
                i, j = divmod(a, 3)
                out[a] = [(("hand", i), ("middle", j)), (("middle", j), ("hand", i))]
            else:
                out[a] = [(("button", BUTTONS[a]),)]
        return out

    def _hand_rects(self, game, seat):
        x, y = render._seat_position(game, seat)
        return [(x - 1.5 * render.CARD_W - 4 + k * (render.CARD_W + 4), y - render.CARD_H / 2) for k in range(3)]

    def _middle_rects(self):
        mx = render.CENTRE[0] - 1.5 * render.CARD_W - 8
        return [(mx + k * (render.CARD_W + 8), render.CENTRE[1] - render.CARD_H / 2) for k in range(3)]

    def _corners(self, game, state, seat):
        out = []
        if state.active[seat]:
            out += [(("hand", k), xy) for k, xy in enumerate(self._hand_rects(game, seat)[: len(state.hands[seat])])]
        out += [(("middle", k), xy) for k, xy in enumerate(self._middle_rects()[: len(state.middle)])]
        return out

    def targets(self, game, state, seat):
        w, h = render.CARD_W, render.CARD_H
        return [(key, (x + w / 2, y + h / 2, w / 2)) for key, (x, y) in self._corners(game, state, seat)]

    def hit(self, game, state, seat, pos):
        for key, (x, y) in self._corners(game, state, seat):
            if x <= pos[0] < x + render.CARD_W and y <= pos[1] < y + render.CARD_H:
                return key
        return None

    def draw_target(self, surface, game, state, seat, key, colour, width=3):
        import pygame

        for k, (x, y) in self._corners(game, state, seat):
            if k == key:
                rect = pygame.Rect(int(x) - 3, int(y) - 3, render.CARD_W + 6, render.CARD_H + 6)
                pygame.draw.rect(surface, colour, rect, width=width, border_radius=6)

    def draw_view(self, surface, game, state, seat):
        if state.active[seat] and state.hands[seat]:
            for card, (x, y) in zip(state.hands[seat], self._hand_rects(game, seat)):
                render._draw_card(surface, card, x, y, highlight=state.to_move == seat)

    def reason(self, game, state, seat, selection, key):
        if key is None:
            return "Click one of your cards and a middle card to swap them, or use the buttons."
        if not state.middle:
            return "The dealer is choosing a lot: keep this lot or take the other (buttons)."
        if selection and selection[0][0] == key[0]:
            return "Swap one of your cards with a middle card: now click a card in the other row."
        return "Not a move here: use your cards, the middle cards or the buttons."

    def prompt(self, game, state, seat, selection):
        if not state.middle:
            return "You deal: keep the lot you looked at, or take the other, unseen one?"
        if selection:
            which = "middle card" if selection[0][0] == "hand" else "card of yours"
            return f"Now click the {which} to swap with."
        knock = "" if game.knock_allowed(state) else " (knocking opens once everyone has had a turn)"
        return f"Swap a card (yours, then the middle), swap all, pass or knock{knock}."

    def button_label(self, game, state, key):
        return str(key[1])

    def can_resign(self, game, state, seat):
        return None

    def undo_blocked(self, game, before, after):
        if game.is_over(after):
            return "the game is over"
        if after.round != before.round:
            return "the round is over: the cards were shown"
        return None


ADAPTER = SwimmingAdapter  # found by adapter_for("swimming")
