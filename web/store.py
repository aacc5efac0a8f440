"""Sessions kept in SQLite: one row per table session, holding its game record.

The database is one file in the data folder (default ``./data/tuolaji.sqlite``, or
``$TUOLAJI_DATA/tuolaji.sqlite``). A session is saved after every change of its game,
so a restarted server lists it and resumes it where it stopped. Export gives back the
record exactly as stored; import takes any valid record (including a ``tuolaji
replay`` output).

>>> import tempfile, pathlib
>>> store = SessionStore(pathlib.Path(tempfile.mkdtemp()) / "t.sqlite")
>>> record = {"format": "tuolaji-record/1", "rules": "standard-2deck",
...           "players": ["东", "南", "西", "北"], "deals": []}
>>> session_id = store.create(record, name="周五牌局", source="page")
>>> [s.name for s in store.list()]
['周五牌局']
>>> store.get(session_id).record["players"][0]
'东'
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorer import safejson
from scorer.errors import InputError

DATABASE_NAME = "tuolaji.sqlite"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    source TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    record TEXT NOT NULL
);
"""


class NoSuchSessionError(InputError):
    """A session id that the store does not hold."""


class StoreError(InputError):
    """The sessions database cannot be read (not a database, corrupt, locked by another program)."""


MAX_SESSION_ID = 2**63 - 1
MAX_NAME_LENGTH = 200


def _check_id(session_id: int) -> int:
    if not 0 < session_id <= MAX_SESSION_ID:
        raise NoSuchSessionError(f"session {session_id}: no such session")
    return session_id


def default_data_dir() -> Path:
    """``$TUOLAJI_DATA`` if set, else ``./data``."""
    return Path(os.environ.get("TUOLAJI_DATA") or "data")


@dataclass(frozen=True)
class Session:
    """One stored session: its id, name, where its plays came from, and its record."""

    id: int
    name: str
    source: str
    created: float
    updated: float
    record: dict[str, Any]

    def summary(self) -> dict[str, Any]:
        """What the sessions list shows (no full record)."""
        deals = self.record.get("deals", [])
        return {
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


class SessionStore:
    """The SQLite file of sessions. Thread-safe: each call opens its own connection."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        with self._connect() as connection:
            connection.execute("PRAGMA journal_mode=WAL")
            connection.executescript(_SCHEMA)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        try:
            connection = sqlite3.connect(self.path, timeout=10)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot open the sessions database ({exc})") from None
        try:
            with connection:
                yield connection
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: the sessions database cannot be read ({exc}); "
                             "move it aside to start an empty one") from None
        finally:
            connection.close()

    def create(self, record: dict[str, Any], *, name: str, source: str) -> int:
        """Store a new session; returns its id."""
        now = time.time()
        with self._lock, self._connect() as connection:
            cursor = connection.execute(
                "INSERT INTO sessions (name, source, created, updated, record) VALUES (?, ?, ?, ?, ?)",
                (name[:MAX_NAME_LENGTH], source, now, now, json.dumps(record, ensure_ascii=False)),
            )
            return int(cursor.lastrowid or 0)

    def save(self, session_id: int, record: dict[str, Any]) -> float:
        """Replace the session's record (after every change of its game); returns the time saved."""
        saved = time.time()
        _check_id(session_id)
        with self._lock, self._connect() as connection:
            cursor = connection.execute(
                "UPDATE sessions SET record = ?, updated = ? WHERE id = ?",
                (json.dumps(record, ensure_ascii=False), saved, session_id),
            )
            if cursor.rowcount == 0:
                raise NoSuchSessionError(f"session {session_id}: no such session")
        return saved

    def rename(self, session_id: int, name: str) -> None:
        _check_id(session_id)
        with self._lock, self._connect() as connection:
            cursor = connection.execute("UPDATE sessions SET name = ? WHERE id = ?",
                                        (name[:MAX_NAME_LENGTH], session_id))
            if cursor.rowcount == 0:
                raise NoSuchSessionError(f"session {session_id}: no such session")

    def get(self, session_id: int) -> Session:
        _check_id(session_id)
        with self._connect() as connection:
            row = connection.execute(
                "SELECT id, name, source, created, updated, record FROM sessions WHERE id = ?", (session_id,)
            ).fetchone()
        if row is None:
            raise NoSuchSessionError(f"session {session_id}: no such session")
        return _session(row)

    def list(self) -> list[Session]:
        """Every session, most recently changed first."""
        with self._connect() as connection:
            rows = connection.execute(
                "SELECT id, name, source, created, updated, record FROM sessions ORDER BY updated DESC, id DESC"
            ).fetchall()
        return [_session(row) for row in rows]

    def latest(self) -> Session | None:
        sessions = self.list()
        return sessions[0] if sessions else None

    def delete(self, session_id: int) -> None:
        _check_id(session_id)
        with self._lock, self._connect() as connection:
            cursor = connection.execute("DELETE FROM sessions WHERE id = ?", (session_id,))
            if cursor.rowcount == 0:
                raise NoSuchSessionError(f"session {session_id}: no such session")


def _session(row: tuple[Any, ...]) -> Session:
    try:
        record = safejson.loads(row[5], f"session {row[0]}") if isinstance(row[5], str | bytes) else None
    except InputError:
        record = None
    if not isinstance(record, dict):  # a row written by something else: listed, never fed to the scorer as is
        record = {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": [], "deals": [],
                  "x-unreadable": True}
    return Session(id=row[0], name=str(row[1]), source=str(row[2]), created=float(row[3] or 0),
                   updated=float(row[4] or 0), record=record)
