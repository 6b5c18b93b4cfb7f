"""Scores that persist: per player name and game, in SQLite under the user's data directory.

Each (player, game) row counts games, wins, draws and losses, and a coin tally
(Swimming: every coin paid is -1, the pot won is +pot). The file lives at
``$XDG_DATA_HOME/swgym/scores.sqlite`` (``~/.local/share/swgym/...`` when
XDG_DATA_HOME is unset); ``path=`` / ``--db PATH`` overrides it.

Every write is one transaction taken with ``BEGIN IMMEDIATE`` (writers queue
behind each other up to ``timeout`` seconds), so a result once recorded stays
recorded and concurrent writers never lose an update. A file that is not a
readable scores database is moved aside (``<name>.corrupt-<time>``) with a
clear message, and a fresh one is started.

An aborted Swimming game (new game, "I quit" or closing the window mid-game)
shares the pot out among the players still in the game, except the one who
ended it; coins that do not divide evenly stay in a carried-over pot that the
winner of the next Swimming game also takes.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import time
from collections.abc import Iterable
from contextlib import contextmanager
from pathlib import Path
from typing import Any

OUTCOMES = ("win", "draw", "loss")
SCHEMA = """
CREATE TABLE IF NOT EXISTS scores (
    player TEXT NOT NULL,
    game   TEXT NOT NULL,
    games  INTEGER NOT NULL DEFAULT 0,
    wins   INTEGER NOT NULL DEFAULT 0,
    draws  INTEGER NOT NULL DEFAULT 0,
    losses INTEGER NOT NULL DEFAULT 0,
    coins  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (player, game)
);
CREATE TABLE IF NOT EXISTS carry (
    game TEXT PRIMARY KEY,
    pot  INTEGER NOT NULL DEFAULT 0
);
"""
COLUMNS = ("player", "game", "games", "wins", "draws", "losses", "coins")


def default_path() -> Path:
    """``$XDG_DATA_HOME/swgym/scores.sqlite`` or ``~/.local/share/swgym/scores.sqlite``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "swgym" / "scores.sqlite"


class ScoreBook:
    """The scores file. Methods open a short connection each, so threads and processes may share a file."""

    def __init__(self, path: str | Path | None = None, timeout: float = 30.0, warn=None) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.timeout = timeout
        self.notice = ""  # set when a corrupt file was moved aside (shown by the app)
        self._warn = warn if warn is not None else (lambda msg: print(msg, file=sys.stderr))
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._open_checked()

    # -- connection ------------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        con = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None)
        con.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")
        return con

    def _open_checked(self) -> None:
        try:
            con = self._connect()
            try:
                ok = con.execute("PRAGMA quick_check").fetchone()[0]
                if ok != "ok":
                    raise sqlite3.DatabaseError(f"integrity check says {ok!r}")
                con.execute("BEGIN IMMEDIATE")
                _create(con)
                cols = [r[1] for r in con.execute("PRAGMA table_info(scores)")]
                if tuple(cols) != COLUMNS:
                    raise sqlite3.DatabaseError(f"unexpected columns {cols}")
                con.execute("COMMIT")
            finally:
                con.close()
        except sqlite3.DatabaseError as err:
            if isinstance(err, sqlite3.OperationalError) and "locked" in str(err):
                raise
            self._move_aside(err)
            con = self._connect()
            try:
                _create(con)
            finally:
                con.close()

    def _move_aside(self, err: Exception) -> None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        n = 1
        while aside.exists():
            aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{n}")
            n += 1
        os.replace(self.path, aside)
        for suffix in ("-wal", "-shm", "-journal"):
            extra = self.path.with_name(self.path.name + suffix)
            if extra.exists():
                os.replace(extra, aside.with_name(aside.name + suffix))
        self.notice = (f"the scores file {self.path} could not be read ({err}); it was moved to {aside} "
                       "and a fresh scores file was started")
        self._warn(f"swgym: {self.notice}")

    @contextmanager
    def _write(self):
        """One write transaction (BEGIN IMMEDIATE: writers queue, nothing is half-written)."""
        con = self._connect()
        try:
            con.execute("BEGIN IMMEDIATE")
            try:
                yield con
            except BaseException:
                con.execute("ROLLBACK")
                raise
            con.execute("COMMIT")
        finally:
            con.close()

    @staticmethod
    def _bump(con: sqlite3.Connection, player: str, game: str, games: int = 0, wins: int = 0,
              draws: int = 0, losses: int = 0, coins: int = 0) -> None:
        con.execute("INSERT OR IGNORE INTO scores (player, game) VALUES (?, ?)", (player, game))
        con.execute("UPDATE scores SET games = games + ?, wins = wins + ?, draws = draws + ?, "
                    "losses = losses + ?, coins = coins + ? WHERE player = ? AND game = ?",
                    (games, wins, draws, losses, coins, player, game))

    # -- writing ---------------------------------------------------------------
    def record(self, game: str, results: dict[str, str], coins: dict[str, int] | None = None,
               take_carry: str | None = None) -> None:
        """One finished game: ``results`` maps player name -> "win" / "draw" / "loss".

        ``coins`` adds to the coin tallies in the same transaction; ``take_carry``
        names the player who also takes the carried-over pot of ``game``.
        """
        for name, outcome in results.items():
            if outcome not in OUTCOMES:
                raise ValueError(f"scores: outcome of {name!r} must be one of {OUTCOMES}, got {outcome!r}")
        with self._write() as con:
            for name, outcome in results.items():
                self._bump(con, _name(name), game, games=1, wins=outcome == "win", draws=outcome == "draw",
                           losses=outcome == "loss")
            for name, delta in (coins or {}).items():
                if delta:
                    self._bump(con, _name(name), game, coins=int(delta))
            if take_carry is not None:
                row = con.execute("SELECT pot FROM carry WHERE game = ?", (game,)).fetchone()
                if row and row[0]:
                    self._bump(con, _name(take_carry), game, coins=row[0])
                    con.execute("UPDATE carry SET pot = 0 WHERE game = ?", (game,))

    def add_coins(self, game: str, coins: dict[str, int]) -> None:
        """Coin changes during a game (written at once, so a crash loses none)."""
        with self._write() as con:
            for name, delta in coins.items():
                if delta:
                    self._bump(con, _name(name), game, coins=int(delta))

    def abort(self, game: str, players: Iterable[str], active: Iterable[str], pot: int,
              responsible: str | None, losers: Iterable[str] = ()) -> dict[str, int]:
        """An aborted game: every player in ``players`` gets a game played (``losers`` a loss);
        ``pot`` plus the carried-over pot is shared among ``active`` except ``responsible``;
        what does not divide stays carried over. Returns each share."""
        players, losers = list(players), set(losers)
        takers = [p for p in active if p != responsible]
        with self._write() as con:
            con.execute("INSERT OR IGNORE INTO carry (game, pot) VALUES (?, 0)", (game,))
            total = pot + con.execute("SELECT pot FROM carry WHERE game = ?", (game,)).fetchone()[0]
            share, rest = divmod(total, len(takers)) if takers else (0, total)
            for p in players:
                self._bump(con, _name(p), game, games=1, losses=p in losers)
            for p in takers:
                self._bump(con, _name(p), game, coins=share)
            con.execute("UPDATE carry SET pot = ? WHERE game = ?", (rest, game))
        return {p: share for p in takers}

    def clear(self, game: str | None = None) -> int:
        """Remove every entry (of ``game`` only, if given); returns how many rows went."""
        with self._write() as con:
            if game is None:
                con.execute("DELETE FROM carry")
                return con.execute("DELETE FROM scores").rowcount
            con.execute("DELETE FROM carry WHERE game = ?", (game,))
            return con.execute("DELETE FROM scores WHERE game = ?", (game,)).rowcount

    def remove(self, player: str, game: str | None = None) -> int:
        """Remove one player's entries (of ``game`` only, if given); returns how many rows went."""
        with self._write() as con:
            if game is None:
                return con.execute("DELETE FROM scores WHERE player = ?", (player,)).rowcount
            return con.execute("DELETE FROM scores WHERE player = ? AND game = ?", (player, game)).rowcount

    # -- reading ---------------------------------------------------------------
    def rows(self, game: str | None = None) -> list[dict[str, Any]]:
        """Entries as dicts (best first: wins, then coins, then fewest losses)."""
        con = self._connect()
        try:
            sql = f"SELECT {', '.join(COLUMNS)} FROM scores"
            args: tuple = ()
            if game is not None:
                sql += " WHERE game = ?"
                args = (game,)
            sql += " ORDER BY game, wins DESC, coins DESC, losses ASC, player"
            return [dict(zip(COLUMNS, r)) for r in con.execute(sql, args)]
        finally:
            con.close()

    def carried_pot(self, game: str) -> int:
        con = self._connect()
        try:
            row = con.execute("SELECT pot FROM carry WHERE game = ?", (game,)).fetchone()
            return row[0] if row else 0
        finally:
            con.close()

    def entry(self, player: str, game: str) -> dict[str, Any] | None:
        for row in self.rows(game):
            if row["player"] == player:
                return row
        return None


def _create(con: sqlite3.Connection) -> None:
    for statement in SCHEMA.split(";"):
        if statement.strip():
            con.execute(statement)


def _name(name: str) -> str:
    name = str(name).strip()
    if not name:
        raise ValueError("scores: a player name must not be empty")
    return name


def format_rows(rows: list[dict[str, Any]]) -> str:
    """A plain text table of score rows."""
    if not rows:
        return "no scores yet"
    head = ("game", "player", "games", "wins", "draws", "losses", "coins")
    table = [head] + [tuple(str(r[k]) for k in head) for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(head))]
    return "\n".join("  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths)))
                     for row in table)
