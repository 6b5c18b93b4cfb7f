"""A digest of the bots' play, to check that a refactoring left their moves alone.

For every registry game and rule variant, 20 seeded games of one medium
against easy bots (medium's seat rotating) are played; every move and the
returns go into a hash, printed per variant. Run it before and after a change
and compare the two outputs: equal digests mean the same moves::

    python -m research.bot_digest [--games 20] [GAME ...]
"""

from __future__ import annotations

import argparse
import hashlib
import json

from envs.opponents import make_opponent
from envs.play import play_game
from envs.registry import GAMES, entry


def digest(game: str, params: dict, games: int = 20) -> str:
    """Hash of the moves and returns of ``games`` seeded medium-vs-easy games of ``game`` under ``params``."""
    seats = params.get("num_players", 2)
    h = hashlib.sha256()
    for g in range(games):
        players = [make_opponent(game, "medium" if s == g % seats else "easy", **params) for s in range(seats)]
        moves: list[tuple[int, int]] = []
        record = play_game(
            game,
            players,
            seed=1000 + g,
            observer=lambda seat, obs, mask, action: moves.append((seat, int(action))),  # noqa: B023
            **params,
        )  # (the observer runs within this game only)
        h.update(json.dumps([moves, record.returns]).encode())
    return h.hexdigest()[:16]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="registry games (default: all)")
    parser.add_argument("--games", dest="count", type=int, default=20, help="games per variant")
    args = parser.parse_args(argv)
    if args.count < 1:
        parser.error("--games must be >= 1")
    names = args.games or list(GAMES)
    for name in names:
        try:
            entry(name)
        except ValueError as err:
            parser.error(str(err))
    for name in names:
        for params in entry(name).variants:
            print(name, json.dumps(params, sort_keys=True), digest(name, params, args.count))


if __name__ == "__main__":
    main()
