"""Sessions kept in SQLite: one row per table session, holding its game record.

The database is one file in the data folder (default ``./data/tuolaji.sqlite``, or
``$TUOLAJI_DATA/tuolaji.sqlite``). A session is saved after every change of its game,
so a restarted server lists it and resumes it where it stopped. Export gives back the
record exactly as stored; import takes any valid record (including a ``tuolaji
replay`` output).

A save is durable before it returns (``synchronous=FULL``, one transaction); a save that
cannot be made (the disk full, the database locked by another program past the busy
timeout) raises :class:`session.live.NotSavedError` and leaves the stored session as it
was, so what was answered as saved is exactly what a restart finds.

The record's ``history`` (web/history.py) is kept apart, one row per change in the table
``changes``: a save writes the record and appends the changes made since the last save,
never the whole history again. The record row is read back with :data:`STORED_MAX_BYTES`
(four times the import limit, room for a record imported at the limit and then played and
corrected on), and a save never writes a row over it, so every row written can be read.

Deleting a session moves it to a bin (:meth:`SessionStore.delete`): listed apart, restored
with :meth:`SessionStore.restore` for :data:`BIN_DAYS` days, then purged.

>>> import tempfile, pathlib
>>> store = SessionStore(pathlib.Path(tempfile.mkdtemp()) / "t.sqlite")
>>> record = {"format": "tuolaji-record/1", "rules": "standard-2deck",
...           "players": ["东", "南", "西", "北"], "deals": []}
>>> session_id = store.create(record, name="周五牌局", source="page")
>>> [s.name for s in store.list()]
['周五牌局']
>>> store.get(session_id).record["players"][0]
'东'
>>> store.delete(session_id)
>>> [s.name for s in store.list()], [s.name for s in store.binned()]
([], ['周五牌局'])
>>> store.restore(session_id)
>>> [s.name for s in store.list()]
['周五牌局']
"""

from __future__ import annotations

import builtins
import dataclasses
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tuolaji.scorer import safejson
from tuolaji.scorer.errors import InputError
from tuolaji.scorer.names import MAX_NAME, check_name
from tuolaji.scorer.player_stats import name_key
from tuolaji.session.live import NotSavedError, not_saved

DATABASE_NAME = "tuolaji.sqlite"

STORED_MAX_BYTES = 4 * safejson.MAX_BYTES
"""The largest record row written and read back (the history is apart, one small row a change)."""
BIN_DAYS = 30
"""How long a deleted session stays in the bin, restorable, before it is purged."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    source TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    record TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS changes (
    session INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (session, seq)
);
CREATE TABLE IF NOT EXISTS player_names (
    key TEXT PRIMARY KEY,
    name TEXT NOT NULL
);
"""


class NoSuchSessionError(InputError):
    """A session id that the store does not hold."""


class StoreError(InputError):
    """The sessions database cannot be read (not a database, corrupt, locked by another program)."""


log = logging.getLogger("tuolaji.store")

MAX_SESSION_ID = 2**63 - 1
MAX_NAME_LENGTH = MAX_NAME


def _check_id(session_id: int) -> int:
    if not 0 < session_id <= MAX_SESSION_ID:
        raise NoSuchSessionError("store.no_session", session=session_id)
    return session_id


def default_data_dir() -> Path:
    """``$TUOLAJI_DATA`` if set, else ``./data``."""
    return Path(os.environ.get("TUOLAJI_DATA") or "data")


@dataclass(frozen=True)
class Session:
    """One stored session: its id, name, where its plays came from, and its record.

    ``deleted``: when it went to the bin (None: not deleted)."""

    id: int
    name: str
    source: str
    created: float
    updated: float
    record: dict[str, Any]
    deleted: float | None = None

    def summary(self) -> dict[str, Any]:
        """What the sessions list shows (no full record)."""
        deals = self.record.get("deals", [])
        summary = {
            "id": self.id,
            "name": self.name,
            "source": self.source,
            "created": self.created,
            "updated": self.updated,
            "players": list(self.record.get("players", [])),
            "rules": self.record.get("rules"),
            "deals": len(deals),
            "tricks": sum(len(deal.get("tricks", [])) for deal in deals),
        }
        if self.deleted is not None:
            summary |= {"deleted": self.deleted, "purge": self.deleted + BIN_DAYS * 86400}
        return summary


class SessionStore:
    """The SQLite file of sessions. Thread-safe: each call opens its own connection.

    ``busy_timeout_s``: how long a write waits for another program's lock before it is refused."""

    def __init__(self, path: Path, *, busy_timeout_s: float = 5.0) -> None:
        self.path = Path(path)
        self.busy_timeout_s = busy_timeout_s
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        with self._connect() as connection:
            connection.execute("PRAGMA journal_mode=WAL")
            connection.executescript(_SCHEMA)
            columns = {row[1] for row in connection.execute("PRAGMA table_info(sessions)")}
            if "deleted" not in columns:  # a database of an earlier version: no bin yet
                connection.execute("ALTER TABLE sessions ADD COLUMN deleted REAL")

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        try:
            connection = sqlite3.connect(self.path, timeout=self.busy_timeout_s)
        except sqlite3.Error as exc:
            raise StoreError("store.open", path=str(self.path), problem=str(exc)) from None
        try:
            connection.execute("PRAGMA synchronous=FULL")  # a commit is on the disk before a write returns
            with connection:
                yield connection
        except sqlite3.DatabaseError as exc:
            raise StoreError("store.unreadable", path=str(self.path), problem=str(exc)) from None
        finally:
            connection.close()

    @contextmanager
    def _writing(self, where: str) -> Iterator[sqlite3.Connection]:
        """One write transaction, committed (durably) when the block ends; any failure raises
        :class:`NotSavedError` with nothing of the transaction kept."""
        try:
            with self._lock, self._connect() as connection:
                yield connection
        except (NotSavedError, NoSuchSessionError):
            raise
        except (sqlite3.Error, OSError, StoreError) as exc:
            cause = exc.__context__ if isinstance(exc, StoreError) and exc.__context__ is not None else exc
            error = not_saved(cause, f"{self.path}: {where}", self.path.parent)
            log.error("%s", error)
            raise error from None

    def create(self, record: dict[str, Any], *, name: str, source: str) -> int:
        """Store a new session; returns its id."""
        now = time.time()
        name = check_name(name, "name", empty=True)
        body, changes = _split(record)
        text = _dumps(body, "new session")
        with self._writing("new session") as connection:
            cursor = connection.execute(
                "INSERT INTO sessions (name, source, created, updated, record) VALUES (?, ?, ?, ?, ?)",
                (name[:MAX_NAME_LENGTH], source, now, now, text),
            )
            session_id = int(cursor.lastrowid or 0)
            _append_changes(connection, session_id, changes, 0)
            return session_id

    def save(self, session_id: int, record: dict[str, Any], *, history_stored: int | None = None) -> float:
        """Replace the session's record (after every change of its game); returns the time saved.

        ``history_stored``: how many of the record's ``history`` entries are stored already (the
        rest are appended); None: the whole history is written anew."""
        saved = time.time()
        _check_id(session_id)
        body, changes = _split(record)
        where = f"session {session_id}"
        text = _dumps(body, where)
        first = 0 if history_stored is None else min(history_stored, len(changes))
        with self._writing(where) as connection:
            cursor = connection.execute("UPDATE sessions SET record = ?, updated = ? WHERE id = ? AND deleted IS NULL",
                                        (text, saved, session_id))
            if cursor.rowcount == 0:
                raise NoSuchSessionError("store.no_session", session=session_id)
            if first and connection.execute("SELECT count(*) FROM changes WHERE session = ? AND seq < ?",
                                            (session_id, first)).fetchone()[0] != first:
                first = 0  # a session saved by an earlier version (its history inside the record): all of it
            connection.execute("DELETE FROM changes WHERE session = ? AND seq >= ?", (session_id, first))
            _append_changes(connection, session_id, changes[first:], first)
        return saved

    def rename(self, session_id: int, name: str) -> None:
        _check_id(session_id)
        name = check_name(name, "name")
        with self._writing(f"session {session_id}") as connection:
            cursor = connection.execute("UPDATE sessions SET name = ? WHERE id = ? AND deleted IS NULL",
                                        (name[:MAX_NAME_LENGTH], session_id))
            if cursor.rowcount == 0:
                raise NoSuchSessionError("store.no_session", session=session_id)

    def get(self, session_id: int, *, binned: bool = False) -> Session:
        """A stored session with its whole record (its history included); ``binned``: one in the bin."""
        _check_id(session_id)
        with self._connect() as connection:
            row = connection.execute(
                "SELECT id, name, source, created, updated, record, deleted FROM sessions WHERE id = ? AND "
                + ("deleted IS NOT NULL" if binned else "deleted IS NULL"), (session_id,)
            ).fetchone()
            entries = connection.execute("SELECT seq, entry FROM changes WHERE session = ? ORDER BY seq",
                                         (session_id,)).fetchall() if row is not None else []
        if row is None:
            raise NoSuchSessionError("store.no_session", session=session_id)
        session = _session(row)
        if entries and "x-unreadable" not in session.record:
            history = [_entry(session_id, seq, text) for seq, text in entries]
            return dataclasses.replace(session, record=session.record | {"history": history})
        return session

    def list(self) -> builtins.list[Session]:  # builtins: in the class, list names this method
        """Every session not in the bin, most recently changed first (records without their history)."""
        return self._rows("deleted IS NULL ORDER BY updated DESC, id DESC")

    def binned(self) -> builtins.list[Session]:
        """The sessions in the bin, most recently deleted first (records without their history)."""
        return self._rows("deleted IS NOT NULL ORDER BY deleted DESC, id DESC")

    def _rows(self, where: str) -> builtins.list[Session]:
        with self._connect() as connection:
            rows = connection.execute(
                "SELECT id, name, source, created, updated, record, deleted FROM sessions WHERE " + where
            ).fetchall()
        return [_session(row) for row in rows]

    def latest(self) -> Session | None:
        sessions = self.list()
        return sessions[0] if sessions else None

    def delete(self, session_id: int) -> None:
        """Move a session to the bin (restorable for :data:`BIN_DAYS` days)."""
        _check_id(session_id)
        with self._writing(f"session {session_id}") as connection:
            cursor = connection.execute("UPDATE sessions SET deleted = ? WHERE id = ? AND deleted IS NULL",
                                        (time.time(), session_id))
            if cursor.rowcount == 0:
                raise NoSuchSessionError("store.no_session", session=session_id)

    def restore(self, session_id: int) -> None:
        """Take a session out of the bin."""
        _check_id(session_id)
        with self._writing(f"session {session_id}") as connection:
            cursor = connection.execute("UPDATE sessions SET deleted = NULL WHERE id = ? AND deleted IS NOT NULL",
                                        (session_id,))
            if cursor.rowcount == 0:
                raise NoSuchSessionError("store.not_binned", session=session_id)

    def player_names(self) -> dict[str, str]:
        """The players' renames (战绩): a name's key (:func:`scorer.player_stats.name_key`) -> the name
        the player is known by."""
        with self._connect() as connection:
            return {str(key): str(name) for key, name in connection.execute("SELECT key, name FROM player_names")}

    def rename_player(self, old: str, new: str) -> None:
        """Know the player ``old`` as ``new`` from now on, in every session (two players become one
        when ``new`` is the other's name). The renames that led to ``old`` lead to ``new``; ``new``
        itself is renamed no further, so no rename leads round in a circle."""
        old_key, new_key, new = name_key(old), name_key(new), check_name(new, "to")
        with self._writing("player names") as connection:
            if new_key != old_key:
                connection.execute("DELETE FROM player_names WHERE key = ?", (new_key,))
            targets = [key for key, name in connection.execute("SELECT key, name FROM player_names")
                       if name_key(name) == old_key]
            connection.executemany("UPDATE player_names SET name = ? WHERE key = ?", [(new, key) for key in targets])
            connection.execute("INSERT OR REPLACE INTO player_names (key, name) VALUES (?, ?)", (old_key, new))

    def purge(self, *, older_than_s: float = BIN_DAYS * 86400, now: float | None = None) -> builtins.list[int]:
        """Remove for good the sessions deleted more than ``older_than_s`` ago; returns their ids."""
        cutoff = (time.time() if now is None else now) - older_than_s
        with self._connect() as connection:  # a read first: listing never waits for a write lock
            if connection.execute("SELECT 1 FROM sessions WHERE deleted IS NOT NULL AND deleted <= ? LIMIT 1",
                                  (cutoff,)).fetchone() is None:
                return []
        with self._writing("bin") as connection:
            ids = [row[0] for row in connection.execute(
                "SELECT id FROM sessions WHERE deleted IS NOT NULL AND deleted <= ?", (cutoff,))]
            for session_id in ids:
                connection.execute("DELETE FROM changes WHERE session = ?", (session_id,))
                connection.execute("DELETE FROM sessions WHERE id = ?", (session_id,))
        return ids


def _split(record: dict[str, Any]) -> tuple[dict[str, Any], list[Any]]:
    """The record without its history, and the history."""
    history = record.get("history")
    body = {key: value for key, value in record.items() if key != "history"}
    return body, list(history) if isinstance(history, list) else []


def _dumps(value: Any, where: str, limit: int = STORED_MAX_BYTES) -> str:
    """JSON text of a row; one the store could not read back is refused (nothing is written)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    size = len(text.encode("utf-8"))
    if size > limit:
        raise NotSavedError("session.too_large", "too-large", where=where, size=size, most=limit)
    return text


def _append_changes(connection: sqlite3.Connection, session_id: int, entries: list[Any], first: int) -> None:
    connection.executemany(
        "INSERT INTO changes (session, seq, entry) VALUES (?, ?, ?)",
        [(session_id, first + offset, _dumps(entry, f"session {session_id}: history[{first + offset}]",
                                             safejson.MAX_BYTES))
         for offset, entry in enumerate(entries)])


def _entry(session_id: int, seq: int, text: Any) -> Any:
    try:
        return safejson.loads(text, f"session {session_id}: history[{seq}]") if isinstance(text, str | bytes) else None
    except InputError:
        return None  # an entry written by something else: undo refuses it with the reason


def _session(row: tuple[Any, ...]) -> Session:
    try:
        record = (safejson.loads(row[5], f"session {row[0]}", max_bytes=STORED_MAX_BYTES)
                  if isinstance(row[5], str | bytes) else None)
    except InputError:
        record = None
    if not isinstance(record, dict):  # a row written by something else: listed, never fed to the scorer as is
        record = {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": [], "deals": [],
                  "x-unreadable": True}
    return Session(id=row[0], name=str(row[1]), source=str(row[2]), created=float(row[3] or 0),
                   updated=float(row[4] or 0), record=record, deleted=None if row[6] is None else float(row[6]))
