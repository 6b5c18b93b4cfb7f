"""The scores database: records, coins and aborted pots, concurrent writers, corrupt files, CLI."""

from __future__ import annotations

import multiprocessing
import sqlite3
import threading

import numpy as np
import pytest

from scripts.scores import ScoreBook, ScoresError, default_path, format_rows


@pytest.fixture
def book(tmp_path):
    return ScoreBook(tmp_path / "scores.sqlite", warn=lambda msg: None)


def test_default_path_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_path() == tmp_path / "swgym" / "scores.sqlite"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_path().parts[-4:] == (".local", "share", "swgym", "scores.sqlite")


@pytest.mark.parametrize(
    "results, expected",
    [
        ({"ann": "win", "bot": "loss"}, {"ann": (1, 1, 0, 0), "bot": (1, 0, 0, 1)}),
        ({"ann": "draw", "bot": "draw"}, {"ann": (1, 0, 1, 0), "bot": (1, 0, 1, 0)}),
        ({"ann": "loss"}, {"ann": (1, 0, 0, 1)}),
    ],
)
def test_record_and_read_back(book, results, expected):
    book.record("swival", results)
    for name, (games, wins, draws, losses) in expected.items():
        row = book.entry(name, "swival")
        assert (row["games"], row["wins"], row["draws"], row["losses"]) == (games, wins, draws, losses)
    # a second book on the same file sees the same
    assert ScoreBook(book.path).rows("swival") == book.rows("swival")


def test_bad_outcome_is_refused_and_writes_nothing(book):
    with pytest.raises(ValueError, match="outcome"):
        book.record("swival", {"ann": "won"})
    assert book.rows() == []


def test_coins_and_pot(book):
    book.add_coins("swimming", {"ann": -1, "c1": 0, "c2": -1})
    book.record("swimming", {"ann": "win", "c2": "loss"}, coins={"ann": 2})
    assert book.entry("ann", "swimming")["coins"] == 1
    assert book.entry("c2", "swimming")["coins"] == -1
    assert book.entry("c1", "swimming") is None  # zero changes create no entry


@pytest.mark.parametrize(
    "pot, active, responsible, shares, carry",
    [
        (6, ["ann", "c1", "c2", "c3"], "ann", {"c1": 2, "c2": 2, "c3": 2}, 0),
        (5, ["ann", "c1", "c2", "c3"], "ann", {"c1": 1, "c2": 1, "c3": 1}, 2),
        (3, ["ann", "c1"], "ann", {"c1": 3}, 0),
        (4, ["c1", "c2", "c3"], "ann", {"c1": 1, "c2": 1, "c3": 1}, 1),  # ann already sank
    ],
)
def test_abort_shares_the_pot(book, pot, active, responsible, shares, carry):
    got = book.abort("swimming", ["ann", "c1", "c2", "c3"], active, pot, responsible, losers=["ann"])
    assert got == shares
    assert book.carried_pot("swimming") == carry
    for name, share in shares.items():
        assert book.entry(name, "swimming")["coins"] == share
    assert book.entry("ann", "swimming")["losses"] == 1
    assert book.entry("ann", "swimming")["coins"] == 0


def test_carried_pot_goes_to_the_next_share_and_the_next_winner(book):
    book.abort("swimming", ["ann", "c1", "c2"], ["ann", "c1", "c2"], 3, "ann")  # 3 // 2 = 1 each, 1 carried
    assert book.carried_pot("swimming") == 1
    book.record("swimming", {"c1": "win"}, coins={"c1": 4}, take_carry="c1")
    assert book.entry("c1", "swimming")["coins"] == 1 + 4 + 1
    assert book.carried_pot("swimming") == 0


def test_clear_and_remove(book):
    book.record("swival", {"ann": "win", "bob": "loss"})
    book.record("twirls", {"ann": "loss", "bob": "win"})
    assert book.remove("bob", "swival") == 1
    assert [r["player"] for r in book.rows("swival")] == ["ann"]
    assert book.remove("ann") == 2
    assert [r["player"] for r in book.rows()] == ["bob"]
    book.record("swival", {"ann": "win"})
    assert book.clear("swival") == 1
    assert book.rows("twirls")
    assert book.clear() == 1
    assert book.rows() == []
    assert format_rows([]) == "no scores yet"


def _writer(path, name, n):
    b = ScoreBook(path, timeout=60)
    for _ in range(n):
        b.record("swival", {name: "win", "shared": "loss"})
        b.add_coins("swimming", {"shared": 1})


def test_concurrent_threads_lose_no_update(book):
    threads = [threading.Thread(target=_writer, args=(book.path, f"t{i}", 15)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert book.entry("shared", "swival")["losses"] == 60
    assert book.entry("shared", "swimming")["coins"] == 60
    assert all(book.entry(f"t{i}", "swival")["wins"] == 15 for i in range(4))


def test_concurrent_processes_lose_no_update(book):
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_writer, args=(str(book.path), f"p{i}", 10)) for i in range(3)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    assert [p.exitcode for p in procs] == [0, 0, 0]
    assert book.entry("shared", "swival")["games"] == 30


def test_a_failed_transaction_leaves_nothing_half_written(book, monkeypatch):
    book.record("swival", {"ann": "win"})
    original = ScoreBook._bump
    calls = []

    def failing(con, *args, **kwargs):
        calls.append(args)
        if len(calls) == 2:
            raise sqlite3.OperationalError("disk full (simulated)")
        return original(con, *args, **kwargs)

    monkeypatch.setattr(ScoreBook, "_bump", staticmethod(failing))
    with pytest.raises(sqlite3.OperationalError):
        book.record("swival", {"ann": "win", "bob": "loss"})
    monkeypatch.undo()
    assert book.entry("ann", "swival")["wins"] == 1
    assert book.entry("bob", "swival") is None


@pytest.mark.parametrize("content", [b"this is not a database at all" * 50, b"SQLite format 3\x00" + b"\xff" * 600])
def test_corrupt_file_is_moved_aside(tmp_path, content):
    path = tmp_path / "scores.sqlite"
    path.write_bytes(content)
    messages = []
    book = ScoreBook(path, warn=messages.append)
    assert "moved" in book.notice and "fresh" in book.notice and messages
    asides = list(tmp_path.glob("scores.sqlite.corrupt-*"))
    assert len(asides) == 1 and asides[0].read_bytes() == content
    book.record("swival", {"ann": "win"})
    assert book.entry("ann", "swival")["wins"] == 1


def test_foreign_sqlite_file_is_moved_aside(tmp_path):
    path = tmp_path / "scores.sqlite"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE scores (x TEXT)")
    con.commit()
    con.close()
    book = ScoreBook(path, warn=lambda m: None)
    assert book.notice
    book.record("swival", {"ann": "draw"})
    assert book.entry("ann", "swival")["draws"] == 1


def test_scores_command(tmp_path, capsys):
    from scripts.cli import main

    db = tmp_path / "s.sqlite"
    ScoreBook(db).record("swival", {"ann": "win", "bob": "loss"})
    ScoreBook(db).record("twirls", {"ann": "draw"})
    main(["scores", "--db", str(db)])
    out = capsys.readouterr().out
    assert "ann" in out and "bob" in out and "twirls" in out
    main(["scores", "--db", str(db), "--game", "swival"])
    assert "twirls" not in capsys.readouterr().out
    main(["scores", "--db", str(db), "--remove", "bob"])
    assert "removed 1" in capsys.readouterr().out
    main(["scores", "--db", str(db), "--clear", "--game", "twirls"])
    assert [r["game"] for r in ScoreBook(db).rows()] == ["swival"]
    main(["scores", "--db", str(db), "--clear"])
    assert ScoreBook(db).rows() == []
    with pytest.raises(SystemExit):
        main(["scores", "--db", str(db), "--game", "chess"])


# -- bad input: places, damaged files, locks, schema, names, values ------------------------------------------------
def test_a_folder_is_refused_not_renamed(tmp_path):
    from scripts.cli import main

    folder = tmp_path / "somewhere"
    folder.mkdir()
    with pytest.raises(ScoresError, match="is a folder"):
        ScoreBook(folder)
    with pytest.raises(SystemExit) as exit_info:
        main(["scores", "--db", str(folder)])
    assert "is a folder" in str(exit_info.value.code) and "\n" not in str(exit_info.value.code)
    assert [p.name for p in tmp_path.iterdir()] == ["somewhere"] and folder.is_dir()


@pytest.mark.parametrize("under", ["scores.sqlite", "deeper/scores.sqlite"])
def test_a_path_under_a_file_is_refused(tmp_path, under):
    (tmp_path / "afile").write_text("x")
    with pytest.raises(ScoresError, match=r"afile is a file, not a folder"):
        ScoreBook(tmp_path / "afile" / under)


def _filled(path, n, extra_column=False):
    """A real scores file of ``n`` rows (optionally with one column too many)."""
    ScoreBook(path, warn=lambda m: None)
    con = sqlite3.connect(path)
    if extra_column:
        con.execute("ALTER TABLE scores ADD COLUMN note TEXT")
    con.executemany(
        "INSERT INTO scores (player, game, games, wins, draws, losses, coins) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(f"player{i:04d}", "swival", 3, 1, 1, 1, i % 7 - 3) for i in range(n)],
    )
    con.execute("INSERT INTO carry (game, pot) VALUES ('swimming', 2)")
    con.commit()
    con.close()


def _salvaged(path, messages):
    asides = list(path.parent.glob(path.name + ".corrupt-*"))
    assert len(asides) == 1
    notice = messages[0]
    assert str(asides[0]) in notice
    saved = int(notice.split(";")[-1].split()[0])
    return asides[0], saved


def test_a_damaged_file_keeps_every_row_that_reads(tmp_path):
    path = tmp_path / "scores.sqlite"
    _filled(path, 1500)
    data = bytearray(path.read_bytes())
    middle = len(data) // 2 // 4096 * 4096
    data[middle : middle + 4096] = np.random.default_rng(0).integers(0, 256, 4096, dtype=np.uint8).tobytes()
    path.write_bytes(bytes(data))
    messages = []
    book = ScoreBook(path, warn=messages.append)
    aside, saved = _salvaged(path, messages)
    assert aside.read_bytes() == bytes(data)  # the old file kept whole
    assert 1500 - 150 <= saved == len(book.rows()) <= 1500  # at most one 4 KiB page of rows lost
    assert all(r["games"] == 3 and r["wins"] == 1 for r in book.rows())


def test_an_extra_column_keeps_every_row(tmp_path):
    path = tmp_path / "scores.sqlite"
    _filled(path, 1502, extra_column=True)
    messages = []
    book = ScoreBook(path, warn=messages.append)
    _, saved = _salvaged(path, messages)
    assert saved == 1502 == len(book.rows())
    assert book.entry("player0010", "swival")["coins"] == 10 % 7 - 3
    assert book.carried_pot("swimming") == 2


def test_a_wrong_carry_table_is_found_at_open(tmp_path):
    path = tmp_path / "scores.sqlite"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE carry (game TEXT PRIMARY KEY, coins INTEGER)")
    con.commit()
    con.close()
    messages = []
    book = ScoreBook(path, warn=messages.append)
    assert "carry" in book.notice and messages
    book.abort("swimming", ["ann", "c1"], ["ann", "c1"], 2, "ann")
    assert book.entry("c1", "swimming")["coins"] == 2


def test_reading_does_not_wait_for_a_writer(tmp_path, capsys):
    import time

    from scripts.cli import main

    db = tmp_path / "s.sqlite"
    ScoreBook(db).record("swival", {"ann": "win"})
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("INSERT INTO scores (player, game) VALUES ('zed', 'swival')")
    try:
        started = time.monotonic()
        main(["scores", "--db", str(db)])
        assert time.monotonic() - started < 5
        out = capsys.readouterr().out
        assert "ann" in out and "zed" not in out  # what was committed, at once
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_a_write_that_cannot_get_the_lock_says_so(tmp_path):
    path = tmp_path / "s.sqlite"
    ScoreBook(path).record("swival", {"ann": "win"})
    book = ScoreBook(path, timeout=0.2)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(ScoresError, match=r"locked by another program .*waited 0.2 s.*nothing was written"):
            book.record("swival", {"ann": "win"})
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert book.entry("ann", "swival")["wins"] == 1


@pytest.mark.parametrize(
    "typed, stored",
    [
        (" ann ", "ann"),
        ("ann\t", "ann"),
        ("ann  lee", "ann lee"),
        (" ann \u00a0lee", "ann lee"),
        ("e\u0301va", "\u00e9va"),
        ("Ann", "Ann"),  # NFC; case kept: "Ann" and "ann" are two players
    ],
)
def test_names_are_normalised(book, typed, stored):
    book.record("swival", {typed: "win"})
    assert [r["player"] for r in book.rows()] == [stored]
    assert book.entry(typed, "swival")["wins"] == 1


@pytest.mark.parametrize("results", [{" a ": "win", "a": "loss"}, {"a b": "win", "a  b": "loss"}])
def test_one_player_twice_in_one_game_is_refused(book, results):
    with pytest.raises(ValueError, match="twice"):
        book.record("swival", results)
    assert book.rows() == []


@pytest.mark.parametrize("name, error", [("", "empty"), ("  ", "empty"), ("a\x07b", "control"), ("x" * 41, "at most")])
def test_bad_names_are_refused(book, name, error):
    with pytest.raises(ValueError, match=error):
        book.record("swival", {name: "win"})
    assert book.rows() == []


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda b: b.add_coins("swimming", {"ann": 1.7}), "whole number, got 1.7"),
        (lambda b: b.record("swimming", {"ann": "win"}, coins={"ann": 2.0}), "whole number, got 2.0"),
        (lambda b: b.record("swimming", {"ann": "win"}, coins={"ann": "3"}), "whole number, got '3'"),
        (lambda b: b.abort("swimming", ["ann", "c1"], ["ann", "c1"], -1, "ann"), "must not be negative, got -1"),
        (lambda b: b.abort("swimming", ["ann", "c1"], ["ann", "c1"], 2.5, "ann"), "whole number, got 2.5"),
    ],
)
def test_bad_coins_and_pots_are_refused(book, call, error):
    with pytest.raises(ValueError, match=error):
        call(book)
    assert book.rows() == [] and book.carried_pot("swimming") == 0
