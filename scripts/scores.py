"""Scores that persist: per player name and game, in SQLite under the user's data directory.

Each (player, game) row counts games, wins, draws and losses, and a coin tally
(Swimming: every coin paid is -1, the pot won is +pot). The file lives at
``$XDG_DATA_HOME/swgym/scores.sqlite`` (``~/.local/share/swgym/...`` when
XDG_DATA_HOME is unset); ``path=`` / ``--db PATH`` overrides it.

The file is in WAL mode, so reading (``swgym scores``) never waits for a
writer. Every write is one transaction taken with ``BEGIN IMMEDIATE`` (writers
queue behind each other up to ``timeout`` seconds; after that a
:class:`ScoresError` says the file is locked), so a result once recorded stays
recorded and concurrent writers never lose an update.

A path that is a folder, or lies under a file, is refused (ScoresError). A
file that fails SQLite's check or has other tables' columns than ours is moved
aside (``<name>.corrupt-<time>``), every row that still reads is carried into
a fresh file, and a message says how many rows were saved and where the old
file went.

Player names are normalised before use: Unicode NFC, surrounding blanks
stripped and inner runs of blanks made one space (" ann  b " is "ann b");
letter case is kept, so "Ann" and "ann" are two players. Names with control
characters, or over ``MAX_NAME`` characters, are refused. Coins and pots are
whole numbers (a pot never negative).

An aborted Swimming game (new game, "I quit" or closing the window mid-game)
shares the pot out among the players still in the game, except the one who
ended it; coins that do not divide evenly stay in a carried-over pot that the
winner of the next Swimming game also takes.
"""

from __future__ import annotations

import operator
import os
import sqlite3
import sys
import time
import unicodedata
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
TABLES = {"scores": COLUMNS, "carry": ("game", "pot")}
MAX_NAME = 40


class ScoresError(ValueError):
    """The scores file cannot be used as asked: a folder, a path under a file, locked by a writer, a bad value."""


def default_path() -> Path:
    """``$XDG_DATA_HOME/swgym/scores.sqlite`` or ``~/.local/share/swgym/scores.sqlite``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "swgym" / "scores.sqlite"


class ScoreBook:
    """The scores file. Methods open a short connection each, so threads and processes may share a file."""

    def __init__(self, path: str | Path | None = None, timeout: float = 30.0, warn=None) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.timeout = timeout
        self.notice = ""  # set when a damaged file was moved aside (shown by the app)
        self._warn = warn if warn is not None else (lambda msg: print(msg, file=sys.stderr))
        self._check_place()
        self._open_checked()

    # -- connection ------------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        con = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None)
        con.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")
        return con

    def _locked(self) -> ScoresError:
        return ScoresError(
            f"the scores file {self.path} is locked by another program writing to it "
            f"(waited {self.timeout:g} s); nothing was written, try again"
        )

    def _check_place(self) -> None:
        """Refuse a folder, or a path under a file, before anything is opened or moved."""
        if self.path.is_dir():
            raise ScoresError(f"the scores file {self.path} is a folder; give the path of a file")
        for parent in self.path.parents:
            if parent.exists():
                if not parent.is_dir():
                    raise ScoresError(f"cannot keep scores at {self.path}: {parent} is a file, not a folder")
                break
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise ScoresError(f"cannot make the folder {self.path.parent} for the scores ({err.strerror})") from None

    def _open_checked(self) -> None:
        """Check the file with read-only queries (no write lock); set it up if new, salvage it if damaged."""
        try:
            con = self._connect()
            try:
                problem, missing = _inspect(con)
                wal = con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            finally:
                con.close()
        except sqlite3.DatabaseError as err:
            if _busy(err):
                raise self._locked() from None
            problem, missing, wal = str(err), True, False
        if problem is not None:
            self._salvage(problem)
        elif missing or not wal:
            self._set_up(need_tables=missing)

    def _set_up(self, need_tables: bool = True) -> None:
        """WAL mode (readers never wait for a writer) and the tables."""
        con = self._connect()
        try:
            try:
                con.execute("PRAGMA journal_mode = WAL")
            except sqlite3.OperationalError as err:  # another program has it open: stay in its mode
                if not _busy(err) or need_tables:
                    raise self._locked() from None if _busy(err) else err
            if need_tables:
                try:
                    con.execute("BEGIN IMMEDIATE")
                except sqlite3.OperationalError as err:
                    if _busy(err):
                        raise self._locked() from None
                    raise
                _create(con)
                con.execute("COMMIT")
        finally:
            con.close()

    def _salvage(self, problem: str) -> None:
        """Move the damaged file aside, start a fresh one and carry into it every row that still reads."""
        aside = self._move_aside()
        self._set_up()
        rows, pots = _readable_rows(aside)
        with self._write() as con:
            for row in rows:
                self._bump(con, row["player"], row["game"], **{k: row[k] for k in COLUMNS[2:]})
            for name, pot in pots:
                con.execute(
                    "INSERT INTO carry (game, pot) VALUES (?, ?) "
                    "ON CONFLICT (game) DO UPDATE SET pot = pot + excluded.pot",
                    (name, pot),
                )
        self.notice = (
            f"the scores file {self.path} could not be used ({problem}); it was moved to {aside}; "
            f"{len(rows)} score row(s) that still read were saved into a fresh scores file"
        )
        self._warn(f"swgym: {self.notice}")

    def _move_aside(self) -> Path:
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
        return aside

    @contextmanager
    def _write(self):
        """One write transaction (BEGIN IMMEDIATE: writers queue, nothing is half-written)."""
        con = self._connect()
        try:
            try:
                con.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as err:
                if _busy(err):
                    raise self._locked() from None
                raise
            try:
                yield con
            except BaseException:
                con.execute("ROLLBACK")
                raise
            con.execute("COMMIT")
        finally:
            con.close()

    @staticmethod
    def _bump(
        con: sqlite3.Connection,
        player: str,
        name: str,
        games: int = 0,
        wins: int = 0,
        draws: int = 0,
        losses: int = 0,
        coins: int = 0,
    ) -> None:
        con.execute("INSERT OR IGNORE INTO scores (player, game) VALUES (?, ?)", (player, name))
        con.execute(
            "UPDATE scores SET games = games + ?, wins = wins + ?, draws = draws + ?, "
            "losses = losses + ?, coins = coins + ? WHERE player = ? AND game = ?",
            (games, wins, draws, losses, coins, player, name),
        )

    # -- writing ---------------------------------------------------------------
    def record(
        self, name: str, results: dict[str, str], coins: dict[str, int] | None = None, take_carry: str | None = None
    ) -> None:
        """One finished game: ``results`` maps player name -> "win" / "draw" / "loss".

        ``coins`` adds to the coin tallies in the same transaction; ``take_carry``
        names the player who also takes the carried-over pot of game ``name``.
        """
        for player, outcome in results.items():
            if outcome not in OUTCOMES:
                raise ValueError(f"scores: outcome of {player!r} must be one of {OUTCOMES}, got {outcome!r}")
        results = _by_name(results, "results")
        coins = _coin_changes(coins)
        with self._write() as con:
            for player, outcome in results.items():
                self._bump(
                    con, player, name, games=1, wins=outcome == "win", draws=outcome == "draw", losses=outcome == "loss"
                )
            for player, delta in coins.items():
                if delta:
                    self._bump(con, player, name, coins=delta)
            if take_carry is not None:
                row = con.execute("SELECT pot FROM carry WHERE game = ?", (name,)).fetchone()
                if row and row[0]:
                    self._bump(con, normal_name(take_carry), name, coins=row[0])
                    con.execute("UPDATE carry SET pot = 0 WHERE game = ?", (name,))

    def add_coins(self, name: str, coins: dict[str, int]) -> None:
        """Coin changes during a game of ``name`` (written at once, so a crash loses none)."""
        coins = _coin_changes(coins)
        with self._write() as con:
            for player, delta in coins.items():
                if delta:
                    self._bump(con, player, name, coins=delta)

    def abort(
        self,
        name: str,
        players: Iterable[str],
        active: Iterable[str],
        pot: int,
        responsible: str | None,
        losers: Iterable[str] = (),
    ) -> dict[str, int]:
        """An aborted game: every player in ``players`` gets a game played (``losers`` a loss);
        ``pot`` plus the carried-over pot is shared among ``active`` except ``responsible``;
        what does not divide stays carried over. Returns each share."""
        pot = _whole(pot, "the pot")
        if pot < 0:
            raise ValueError(f"scores: the pot must not be negative, got {pot}")
        players = list(dict.fromkeys(normal_name(p) for p in players))
        losers = {normal_name(p) for p in losers}
        responsible = None if responsible is None else normal_name(responsible)
        takers = list(dict.fromkeys(p for p in map(normal_name, active) if p != responsible))
        with self._write() as con:
            con.execute("INSERT OR IGNORE INTO carry (game, pot) VALUES (?, 0)", (name,))
            total = pot + con.execute("SELECT pot FROM carry WHERE game = ?", (name,)).fetchone()[0]
            share, rest = divmod(total, len(takers)) if takers else (0, total)
            for p in players:
                self._bump(con, p, name, games=1, losses=p in losers)
            for p in takers:
                self._bump(con, p, name, coins=share)
            con.execute("UPDATE carry SET pot = ? WHERE game = ?", (rest, name))
        return {p: share for p in takers}

    def clear(self, name: str | None = None) -> int:
        """Remove every entry (of game ``name`` only, if given); returns how many rows went."""
        with self._write() as con:
            if name is None:
                con.execute("DELETE FROM carry")
                return con.execute("DELETE FROM scores").rowcount
            con.execute("DELETE FROM carry WHERE game = ?", (name,))
            return con.execute("DELETE FROM scores WHERE game = ?", (name,)).rowcount

    def remove(self, player: str, name: str | None = None) -> int:
        """Remove one player's entries (of game ``name`` only, if given); returns how many rows went."""
        player = normal_name(player)
        with self._write() as con:
            if name is None:
                return con.execute("DELETE FROM scores WHERE player = ?", (player,)).rowcount
            return con.execute("DELETE FROM scores WHERE player = ? AND game = ?", (player, name)).rowcount

    # -- reading ---------------------------------------------------------------
    def rows(self, name: str | None = None) -> list[dict[str, Any]]:
        """Entries as dicts (best first: wins, then coins, then fewest losses)."""
        con = self._connect()
        try:
            sql = f"SELECT {', '.join(COLUMNS)} FROM scores"
            args: tuple = ()
            if name is not None:
                sql += " WHERE game = ?"
                args = (name,)
            sql += " ORDER BY game, wins DESC, coins DESC, losses ASC, player"
            return [dict(zip(COLUMNS, r)) for r in con.execute(sql, args)]
        finally:
            con.close()

    def carried_pot(self, name: str) -> int:
        con = self._connect()
        try:
            row = con.execute("SELECT pot FROM carry WHERE game = ?", (name,)).fetchone()
            return row[0] if row else 0
        finally:
            con.close()

    def entry(self, player: str, name: str) -> dict[str, Any] | None:
        player = normal_name(player)
        for row in self.rows(name):
            if row["player"] == player:
                return row
        return None


def _create(con: sqlite3.Connection) -> None:
    for statement in SCHEMA.split(";"):
        if statement.strip():
            con.execute(statement)


def normal_name(name: str) -> str:
    """A player name as stored: NFC, blanks stripped and inner runs made one space; case kept."""
    name = " ".join(unicodedata.normalize("NFC", str(name)).split())
    if not name:
        raise ValueError("scores: a player name must not be empty")
    if len(name) > MAX_NAME:
        raise ValueError(f"scores: a player name has at most {MAX_NAME} characters, got {len(name)}: {name[:20]!r}...")
    if any(unicodedata.category(c).startswith("C") for c in name):
        raise ValueError(f"scores: a player name must not hold control characters, got {name!r}")
    return name


def _by_name(values: dict[str, Any], what: str) -> dict[str, Any]:
    """``values`` keyed by normalised names; two keys that normalise alike are one player, refused."""
    out: dict[str, Any] = {}
    for name, value in values.items():
        key = normal_name(name)
        if key in out:
            raise ValueError(f"scores: {what} name the player {key!r} twice")
        out[key] = value
    return out


def _whole(value: Any, what: str) -> int:
    try:
        return operator.index(value)
    except TypeError:
        raise ValueError(f"scores: {what} must be a whole number, got {value!r}") from None


def _coin_changes(coins: dict[str, Any] | None) -> dict[str, int]:
    return {name: _whole(delta, f"the coins of {name!r}") for name, delta in _by_name(coins or {}, "coins").items()}


def _busy(err: sqlite3.Error) -> bool:
    return isinstance(err, sqlite3.OperationalError) and ("locked" in str(err) or "busy" in str(err))


def _inspect(con: sqlite3.Connection) -> tuple[str | None, bool]:
    """(what is wrong with the file or None, whether tables are missing), by read-only queries."""
    ok = con.execute("PRAGMA quick_check").fetchone()[0]
    if ok != "ok":
        return f"integrity check says {ok!r}", False
    missing = False
    for table, columns in TABLES.items():
        cols = tuple(r[1] for r in con.execute(f"PRAGMA table_info({table})"))
        if not cols:
            missing = True
        elif cols != columns:
            return f"its {table} table has the columns {list(cols)}, not {list(columns)}", False
    return None, missing


def _readable_rows(path: Path) -> tuple[list[dict[str, Any]], list[tuple[str, int]]]:
    """Every score row and carried pot of a damaged file that still reads and makes sense."""
    rows: list[dict[str, Any]] = []
    pots: list[tuple[str, int]] = []
    try:
        con = sqlite3.connect(path, timeout=0.0, isolation_level=None)
    except sqlite3.Error:
        return rows, pots
    try:
        for table, wanted, out in (("scores", COLUMNS, rows), ("carry", TABLES["carry"], pots)):
            try:
                have = {r[1] for r in con.execute(f"PRAGMA table_info({table})")}
                if not {"player", "game"} <= have and not (table == "carry" and "game" in have):
                    continue
                select = ", ".join(c if c in have else "0" for c in wanted)
                for values in _scan(con, table, select):
                    item = _sane(table, dict(zip(wanted, values)))
                    if item is not None:
                        out.append(item)
            except sqlite3.Error:
                continue  # the table itself cannot be read
    finally:
        con.close()
    return rows, pots


def _scan(con: sqlite3.Connection, table: str, select: str) -> list[tuple]:
    """The rows of ``table`` in rowid order, stepping over the rowids of unreadable pages."""
    out: list[tuple] = []
    start = None  # the lowest rowid still to read (None: from the first)
    while True:
        where, args = ("", ()) if start is None else (" WHERE rowid >= ?", (start,))
        try:
            for rowid, *values in con.execute(f"SELECT rowid, {select} FROM {table}{where} ORDER BY rowid", args):
                out.append(tuple(values))
                start = rowid + 1
            return out
        except sqlite3.DatabaseError:
            start = _next_readable(con, table, -(2**63) if start is None else start)
            if start is None:
                return out


def _next_readable(con: sqlite3.Connection, table: str, broken: int) -> int | None:
    """The first rowid after ``broken`` (which cannot be read) that a search can reach, or None."""

    def probe(rowid: int) -> tuple[bool, int | None]:
        try:
            row = con.execute(f"SELECT rowid FROM {table} WHERE rowid >= ? ORDER BY rowid LIMIT 1", (rowid,)).fetchone()
        except sqlite3.DatabaseError:
            return False, None
        return True, None if row is None else row[0]

    top = 2**63 - 1
    low, step = broken, 1  # low: a rowid known unreadable; gallop up, then halve down to the first readable
    while True:
        high = min(top, low + step)
        ok, found = probe(high)
        if ok:
            break
        if high == top:
            return None
        low, step = high, step * 2
    while high - low > 1:
        middle = (low + high) // 2
        ok, first = probe(middle)
        if ok:
            high, found = middle, first
        else:
            low = middle
    return found


def _sane(table: str, row: dict[str, Any]) -> Any:
    """A salvaged row as stored, or None when it does not make sense."""
    if not isinstance(row["game"], str) or not all(isinstance(row[c], int) for c in row if c not in ("player", "game")):
        return None
    if table == "carry":
        return (row["game"], row["pot"]) if row["pot"] >= 0 else None
    try:
        row["player"] = normal_name(row["player"])
    except ValueError:
        return None
    if min(row["games"], row["wins"], row["draws"], row["losses"]) < 0:
        return None
    return row


def format_rows(rows: list[dict[str, Any]]) -> str:
    """A plain text table of score rows."""
    if not rows:
        return "no scores yet"
    head = ("game", "player", "games", "wins", "draws", "losses", "coins")
    table = [head] + [tuple(str(r[k]) for k in head) for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(head))]
    return "\n".join(
        "  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))) for row in table
    )
