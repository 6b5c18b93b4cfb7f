"""The play app: ``swgym play GAME`` in a window (or the terminal), and ``swgym scores``.

``Session`` (session.py) is the logic, ``App`` (window.py) the pygame window,
``games/`` the per-game click adapters, and ``scripts/scores.py`` the scores file.
"""

from __future__ import annotations

import argparse
from typing import Any


def run_app(session, sound: bool = True) -> None:
    """Open the play window on ``session`` (a :class:`~scripts.app.session.Session`) and run it until closed."""
    from scripts.app.window import App

    App(session, sound=sound).run()


def play_command(args: argparse.Namespace, params: dict[str, Any]) -> None:
    """``swgym play``: the window when there is a display (and not --tui), else the terminal.

    With ``--position`` the game starts there, and is not recorded in the scores (it did not begin at the start).
    """
    from scripts.app import display
    from scripts.app.session import Session
    from scripts.scores import ScoreBook

    window = not args.tui and display.has_display()
    think = (2.0 if args.think is None else args.think) if window else 0.0
    session = Session(
        args.game, vs=args.vs, seat=args.seat, player=args.name, seed=args.seed, think=think, params=params
    )  # the game and seat checked before any file is touched
    if args.position is not None:
        session.start_at(args.position)
        print(f"swgym play: starting from {args.position!r}; a game from a set position is not recorded in the scores")
    else:
        session.scores = ScoreBook(args.db)  # opened before the game: a damaged file is reported first
    if window:
        import pygame

        try:
            run_app(session)
            return
        except pygame.error as err:  # a display variable is set but no window can be opened
            print(f"swgym play: no window ({err}); playing in the terminal")
    _play_in_terminal(args, session)


def _play_in_terminal(args: argparse.Namespace, session) -> None:
    """The terminal game (scripts/play_tui.py) on the window's Session, which records it in the scores."""
    from scripts import play_tui

    result = play_tui.play(args.game, think=args.think, session=session)
    if result["ended"]:
        raise SystemExit("swgym play: input ended before the game did; the game was not recorded")


def scores_command(args: argparse.Namespace) -> None:
    """``swgym scores``: show, clear all (of a game) or remove one player's entries."""
    from envs.registry import entry
    from scripts.scores import ScoreBook, format_rows

    if args.game is not None:
        entry(args.game)  # a clear error for an unknown game
    book = ScoreBook(args.db)
    if args.remove:
        print(f"removed {book.remove(args.remove, args.game)} entr(y/ies) of {args.remove}")
    elif args.clear:
        print(f"cleared {book.clear(args.game)} entr(y/ies)")
    else:
        print(format_rows(book.rows(args.game)))
        print(f"({book.path})")
