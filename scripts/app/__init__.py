"""The play app: ``swgym play GAME`` in a window (or the terminal), and ``swgym scores``.

``Session`` (session.py) is the logic, ``App`` (window.py) the pygame window,
``games/`` the per-game click adapters, and ``scripts/scores.py`` the scores file.
"""

from __future__ import annotations

import argparse
from typing import Any


def run_app(
    name: str,
    vs: str = "medium",
    seat: int = 0,
    player: str | None = None,
    seed: int | None = None,
    think: float | None = None,
    db: str | None = None,
    sound: bool = True,
    **params: Any,
) -> None:
    """Open the play window and run it until it is closed."""
    from scripts.app.session import Session
    from scripts.app.window import App
    from scripts.scores import ScoreBook

    session = Session(
        name,
        vs=vs,
        seat=seat,
        player=player,
        seed=seed,
        think=2.0 if think is None else think,
        params=params,
        scores=ScoreBook(db),
    )
    App(session, sound=sound).run()


def play_command(args: argparse.Namespace, params: dict[str, Any]) -> None:
    """``swgym play``: the window when there is a display (and not --tui), else the terminal."""
    from scripts.app import display

    if not args.tui and display.has_display():
        import pygame

        try:
            run_app(
                args.game,
                vs=args.vs,
                seat=args.seat,
                player=args.name,
                seed=args.seed,
                think=args.think,
                db=args.db,
                **params,
            )
            return
        except pygame.error as err:  # a display variable is set but no window can be opened
            print(f"swgym play: no window ({err}); playing in the terminal")
    _play_in_terminal(args, params)


def _play_in_terminal(args: argparse.Namespace, params: dict[str, Any]) -> None:
    """The terminal game (scripts/play_tui.py) on the window's Session, which records it in the scores."""
    from scripts import play_tui
    from scripts.app.session import Session
    from scripts.scores import ScoreBook

    session = Session(
        args.game, vs=args.vs, seat=args.seat, player=args.name, seed=args.seed, think=0.0, params=params
    )  # the game and seat checked before any file is touched
    session.scores = ScoreBook(args.db)  # opened before the game: a damaged file is reported first
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
