"""The club's tables and their tokens (what a table's machine and its phones push with), and the
organiser's token (the director's console's)."""

from __future__ import annotations

import hmac
import secrets

from .database import ClubDatabase, one_row, stale_retried
from .errors import ClubRefused, checked_name

OFFLINE_AFTER_S = 60
"""A table's machine not heard from (a push, or asking for its commands) for this long is offline."""


class ClubTables:
    """The tables registered at the club, their tokens, and the organiser's token."""

    def __init__(self, db: ClubDatabase) -> None:
        self.db = db

    @stale_retried
    def organiser_token(self) -> str:
        with self.db.connection() as connection:
            row = one_row(connection.execute("SELECT value FROM club_settings WHERE key = 'organiser_token'"))
        return str(row[0])

    @stale_retried
    def is_organiser(self, token: str | None) -> bool:
        return bool(token) and hmac.compare_digest(str(token), self.organiser_token())

    @stale_retried
    def add_table(self, name: str) -> str:
        """Register a table; returns its token (what its machine and its phones push with)."""
        name = checked_name(name, "table")
        token = secrets.token_urlsafe(18)
        with self.db.connection() as connection, connection.transaction():
            row = connection.execute("INSERT INTO club_tables (name, token) VALUES (%s, %s) "
                                     "ON CONFLICT (name) DO NOTHING RETURNING id", (name, token)).fetchone()
        if row is None:
            raise ClubRefused("club.table_exists", 409, name=name)
        return token

    @stale_retried
    def table_tokens(self) -> list[tuple[str, str]]:
        """Every table's name and token, in the order they were added (the organiser's to hand out)."""
        with self.db.connection() as connection:
            return [(str(row[0]), str(row[1])) for row in connection.execute(
                "SELECT name, token FROM club_tables ORDER BY id")]

    @stale_retried
    def table_token_ok(self, name: str, token: str | None) -> bool:
        with self.db.connection() as connection:
            row = connection.execute("SELECT token FROM club_tables WHERE name = %s", (name,)).fetchone()
        return row is not None and bool(token) and hmac.compare_digest(str(row[0]), str(token))

    @stale_retried
    def check_table_token(self, name: str, token: str | None) -> None:
        """Refuse (404) a table the club does not know and (403) a token that is not the table's."""
        with self.db.connection() as connection:
            row = connection.execute("SELECT token FROM club_tables WHERE name = %s", (name,)).fetchone()
        if row is None:
            raise ClubRefused("club.no_table", 404, name=name)
        if not token or not hmac.compare_digest(str(row[0]), str(token)):
            raise ClubRefused("club.wrong_token", 403, name=name)

    @stale_retried
    def table_names(self) -> list[str]:
        with self.db.connection() as connection:
            return [row[0] for row in connection.execute("SELECT name FROM club_tables ORDER BY id")]

    @stale_retried
    def last_n(self, name: str) -> int:
        with self.db.connection() as connection:
            row = connection.execute("SELECT last_n FROM club_tables WHERE name = %s", (name,)).fetchone()
        if row is None:
            raise ClubRefused("club.no_table", 404, name=name)
        return int(row[0])
