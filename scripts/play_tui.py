"""A person against the computer in the terminal, for any game, through the play app's ``Session``.

At your turn type an action's number or its name (as listed), ``?`` to list the
legal moves again, or ``quit`` to resign. After your move, before the computer
answers, you may type ``u`` to take it back (within ``think`` seconds when a
think time is set; Enter lets the computer answer at once).

The game is the window's: one :class:`~scripts.app.session.Session` keeps the
position, undo, resignation and what goes into the scores (Swimming's coins
too), so a game records the same result in the terminal as in the window.
End of input is not a resignation: the game stops unfinished and nothing is
recorded (:class:`InputEnded`).
"""

from __future__ import annotations

import select
import sys
from collections.abc import Callable
from typing import Any, TextIO

import numpy as np

from scripts.app.session import Session

MAX_LINE = 200  # longest line read as a move; longer lines are refused whole


class InputEnded(Exception):
    """Input ended (stdin closed) before the game did."""


def _timed_input(prompt: str, timeout: float | None, stdin: TextIO, out: TextIO) -> str | None:
    """A line from ``stdin``, None when ``timeout`` seconds pass first; InputEnded at the end of input.

    Read in bounded pieces: of a line over MAX_LINE characters the first MAX_LINE + 1 are returned (the
    rest is skipped), which no move parses as."""
    out.write(prompt)
    out.flush()
    if timeout is not None and hasattr(stdin, "fileno"):
        try:
            ready, _, _ = select.select([stdin], [], [], timeout)
        except (OSError, ValueError):
            ready = [stdin]
        if not ready:
            out.write("\n")
            return None
    line = stdin.readline(MAX_LINE + 1)
    if line == "":
        raise InputEnded
    if len(line) > MAX_LINE and not line.endswith("\n"):
        while True:  # skip the rest of the over-long line
            rest = stdin.readline(MAX_LINE + 1)
            if rest == "" or rest.endswith("\n"):
                break
    return line.strip()


def parse_action(text: str, legal: list[int], name_of: Callable[[int], str]) -> int | None:
    """An action number or a legal action's name (case-insensitive) -> action, or None."""
    if len(text) > MAX_LINE:
        return None
    if text.isdigit() and len(text) <= 9 and int(text) in legal:
        return int(text)
    matches = [a for a in legal if name_of(a).lower() == text.lower()]
    return matches[0] if len(matches) == 1 else None


def play(
    name: str,
    vs: str = "medium",
    seat: int = 0,
    seed: int | None = None,
    think: float | None = None,
    stdin: TextIO | None = None,
    out: TextIO | None = None,
    scores=None,
    player: str | None = None,
    session: Session | None = None,
    **params: Any,
) -> dict[str, Any]:
    """Play one game in the terminal.

    Returns {"winners": seats, "resigned": bool, "ended": bool, "history": [(seat, action)]};
    "ended" is True (winners None, nothing recorded) when input ended mid-game.
    ``scores`` (a ScoreBook) records the game as the window does; ``session`` plays an existing one.
    """
    stdin = sys.stdin if stdin is None else stdin  # looked up now: pytest and callers replace sys.stdin
    out = sys.stdout if out is None else out
    if session is None:
        session = Session(name, vs=vs, seat=seat, player=player, seed=seed, think=0.0, params=params, scores=scores)
    env = session.env
    me = env.possible_agents[session.seat]
    out.write(f"You are {me}. Type a move's number or name, '?' for the list, 'quit' to resign.\n")
    try:
        _play(session, think, stdin, out)
    except InputEnded:
        out.write("\nInput ended before the game did: nothing recorded.\n")
        return {"winners": None, "resigned": False, "ended": True, "history": list(session.history)}
    out.write("\n" + _board(env) + "\n")
    if session.resigned:
        winners = [s for s in range(session.n) if s != session.seat]
        out.write("You resigned.\n")
    else:
        winners = list(session.game.winners(session.state))
        out.write(
            (
                "You win!"
                if winners == [session.seat]
                else "Draw."
                if not winners
                else f"Winner: {', '.join(env.possible_agents[w] for w in winners)}."
            )
            + "\n"
        )
    return {"winners": winners, "resigned": session.resigned, "ended": False, "history": list(session.history)}


def _board(env) -> str:
    return env.renderer.ansi(env.game, env.game_state, env.last_move)


def _play(session: Session, think: float | None, stdin: TextIO, out: TextIO) -> None:
    env = session.env
    me = env.possible_agents[session.seat]
    while not session.over:
        if not session.my_turn:
            if session.can_undo() is None:
                answer = _timed_input("Enter: let the computer answer, u: undo your move > ", think, stdin, out)
                if answer is not None and answer.lower() == "u":
                    session.undo()
                    out.write("Move taken back.\n")
                    continue
            seat = session.to_move
            action = session.computer_move()
            out.write(f"{env.possible_agents[seat]} plays {env.action_name(action)}\n")
            continue
        out.write("\n" + _board(env) + "\n")
        legal = np.flatnonzero(env.legal_mask()).tolist()
        listing = ", ".join(f"{a}={env.action_name(a)}" for a in legal)
        out.write(f"legal: {listing}\n")
        while True:
            text = _timed_input(f"{me} > ", None, stdin, out)
            if text.lower() in ("quit", "q", "resign"):
                if session.resign():
                    out.write(f"{me} resigns.\n")
                    return
                out.write(session.refusal + "\n")
                continue
            if text == "?":
                out.write(f"legal: {listing}\n")
                continue
            action = parse_action(text, legal, env.action_name)
            if action is not None:
                break
            shown = text if len(text) <= 40 else f"{text[:20]}... ({len(text)} characters or more)"
            out.write(f"'{shown}' is not a legal move here; type '?' for the list.\n")
        session.play(action)
