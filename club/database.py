"""The club's PostgreSQL database: one connection a thread, and what every part of the store
(:mod:`club.store`) shares to use it.

Each thread keeps its own connection; a connection lost (PostgreSQL restarted, the network)
is dropped and the call raises :class:`~club.errors.ClubDatabaseDown`, one line; the next call
connects again (:func:`stale_retried`: once more at once, when the connection was found dead).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar

import psycopg

from .errors import ClubDatabaseDown, first_line

T = TypeVar("T")

CHANNEL = "tuolaji_club"
"""The NOTIFY channel of applied changes (payload: ``{"table": name, "n": last_n}``)."""


class ClubDatabase:
    """The club's database at ``dsn`` (a ``postgresql://`` address): a connection a thread."""

    def __init__(self, dsn: str, *, connect_timeout_s: int = 3) -> None:
        self.dsn = dsn
        self.connect_timeout_s = connect_timeout_s
        self._local = threading.local()

    @property
    def reused(self) -> bool:
        """Whether this thread's latest :meth:`connection` reused the connection it had (which may
        have died since its last use) rather than making a new one."""
        return bool(getattr(self._local, "reused", False))

    def connect(self, *, autocommit: bool = False) -> psycopg.Connection[Any]:
        """A new connection (its caller closes it); :class:`ClubDatabaseDown` when there is none."""
        try:
            return psycopg.connect(self.dsn, autocommit=autocommit, connect_timeout=self.connect_timeout_s)
        except psycopg.OperationalError as exc:
            raise ClubDatabaseDown(f"club database unavailable ({first_line(exc)})") from None

    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection[Any]]:
        """This thread's connection (made when it has none); a lost one is dropped: :class:`ClubDatabaseDown`."""
        connection: psycopg.Connection[Any] | None = getattr(self._local, "connection", None)
        self._local.reused = connection is not None and not connection.closed
        if not self._local.reused:
            connection = self._local.connection = self.connect()
        assert connection is not None
        try:
            yield connection
        except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
            self._local.connection = None
            try:
                connection.close()
            except psycopg.Error:
                pass
            raise ClubDatabaseDown(f"club database unavailable ({first_line(exc)})") from None
        finally:
            current: psycopg.Connection[Any] | None = getattr(self._local, "connection", None)
            if current is connection and connection.info.transaction_status != 0:
                connection.rollback()  # a read leaves no transaction open behind it

    def close(self) -> None:
        """Close this thread's connection."""
        connection = getattr(self._local, "connection", None)
        self._local.connection = None
        if connection is not None:
            connection.close()

    def ping(self) -> bool:
        """Whether the database answers now."""
        for _ in range(2):  # a connection found dead (a restart since its last use): once more, anew
            try:
                with self.connection() as connection:
                    connection.execute("SELECT 1")
                return True
            except ClubDatabaseDown:
                if not self.reused:
                    return False
        return False


class UsesDatabase(Protocol):
    """A part of the club's store: it works on :attr:`db`."""

    @property
    def db(self) -> ClubDatabase: ...


def stale_retried(method: Callable[..., T]) -> Callable[..., T]:
    """Run ``method`` once more on a new connection when this thread's connection was found dead
    (PostgreSQL restarted since its last use): nothing of a failed transaction was kept, and a push
    is idempotent, so running it again is safe."""

    @functools.wraps(method)
    def retried(self: UsesDatabase, *args: Any, **kwargs: Any) -> T:
        try:
            return method(self, *args, **kwargs)
        except ClubDatabaseDown:
            if not self.db.reused:
                raise
            return method(self, *args, **kwargs)

    return retried


def one_row(cursor: psycopg.Cursor[Any]) -> Any:
    """The row of a statement that always returns one (an aggregate, ``INSERT … RETURNING``, a row
    of scalar subqueries, the setting written when the store was opened)."""
    row = cursor.fetchone()
    assert row is not None, "the statement returns one row"
    return row
