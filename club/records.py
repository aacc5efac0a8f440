"""What the tables pushed, read: the room's overview (each table's latest session and its summary),
a table's sessions, a session's record and the change numbers the club holds
(:class:`club.store.TableChanges` writes them)."""

from __future__ import annotations

import json
from typing import Any

from .database import ClubDatabase, stale_retried
from .errors import ClubRefused


class TableRecords:
    """The tables' sessions and records as the club holds them."""

    def __init__(self, db: ClubDatabase) -> None:
        self.db = db

    @stale_retried
    def overview(self) -> list[dict[str, Any]]:
        """Every table with its latest session's summary (what the room's page shows)."""
        with self.db.connection() as connection:
            rows = connection.execute(
                "SELECT t.name, t.last_n, t.seen, s.local_id, s.name, s.summary, t.refused_n, t.refused "
                "FROM club_tables t LEFT JOIN LATERAL (SELECT local_id, name, summary FROM club_sessions "
                "WHERE table_id = t.id ORDER BY n DESC LIMIT 1) s ON true ORDER BY t.id").fetchall()
        return [{"table": row[0], "last_n": int(row[1]), "seen": row[2].isoformat() if row[2] else None,
                 "session": row[3], "session_name": row[4], "summary": json.loads(row[5]) if row[5] else None,
                 "refused": {"n": int(row[6]), "reason": row[7]} if row[6] is not None else None}
                for row in rows]

    def table_overview(self, name: str) -> dict[str, Any]:
        for entry in self.overview():
            if entry["table"] == name:
                return entry
        raise ClubRefused("club.no_table", 404, name=name)

    @stale_retried
    def sessions(self, name: str) -> list[dict[str, Any]]:
        with self.db.connection() as connection:
            rows = connection.execute(
                "SELECT s.local_id, s.name, s.n, s.updated FROM club_sessions s JOIN club_tables t ON t.id = s.table_id "
                "WHERE t.name = %s ORDER BY s.n DESC", (name,)).fetchall()
        return [{"session": row[0], "name": row[1], "n": row[2], "updated": row[3].isoformat()} for row in rows]

    @stale_retried
    def record(self, name: str, session: int | None = None) -> dict[str, Any]:
        """A table's session's record as last pushed (None: its latest session)."""
        with self.db.connection() as connection:
            if session is None:
                row = connection.execute(
                    "SELECT s.record FROM club_sessions s JOIN club_tables t ON t.id = s.table_id WHERE t.name = %s "
                    "ORDER BY s.n DESC LIMIT 1", (name,)).fetchone()
            else:
                row = connection.execute(
                    "SELECT s.record FROM club_sessions s JOIN club_tables t ON t.id = s.table_id "
                    "WHERE t.name = %s AND s.local_id = %s", (name, session)).fetchone()
        if row is None:
            raise ClubRefused("club.no_session", 404, name=name)
        result: dict[str, Any] = json.loads(row[0])
        return result

    @stale_retried
    def latest_session(self, name: str, *, with_record: bool = False) -> dict[str, Any] | None:
        """The table's latest session (``session``: its local id, ``name``, ``n``: the change that
        last touched it, ``updated``), with its ``record`` when asked; None before the table's first
        change. :class:`ClubRefused` (404) for an unknown table."""
        with self.db.connection() as connection:
            row = connection.execute(
                "SELECT t.id, s.local_id, s.name, s.n, s.updated, t.refused_n, t.refused"
                + (", s.record" if with_record else "")
                + " FROM club_tables t LEFT JOIN LATERAL (SELECT * FROM club_sessions WHERE table_id = t.id "
                "ORDER BY n DESC LIMIT 1) s ON true WHERE t.name = %s", (name,)).fetchone()
        if row is None:
            raise ClubRefused("club.no_table", 404, name=name)
        if row[1] is None:
            return None
        out = {"session": int(row[1]), "name": row[2], "n": int(row[3]), "updated": row[4],
               "refused": {"n": int(row[5]), "reason": row[6]} if row[5] is not None else None}
        if with_record:
            out["record"] = json.loads(row[7])
        return out

    @stale_retried
    def change_numbers(self, name: str) -> list[int]:
        """Every change number the club holds for a table, in order (one each: nothing doubled)."""
        with self.db.connection() as connection:
            return [int(row[0]) for row in connection.execute(
                "SELECT c.n FROM club_changes c JOIN club_tables t ON t.id = c.table_id WHERE t.name = %s ORDER BY c.n",
                (name,))]

