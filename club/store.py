"""The club's PostgreSQL store: tables and their tokens, the sessions and records the tables
push, players, pairs, rounds and their seatings.

A table pushes **numbered changes** (:meth:`ClubStore.push`): change ``n`` of a table carries the
local session it belongs to and either the table's journal entry (``change``: a
:class:`session.journal.Change`, the one deal it made), which the club applies to its own copy of
the session's record through the same :meth:`~session.journal.Change.applied_to` as the table's
live game, or that session's whole record after the change (``record``: a session new to the
club, or mended). A change whose copy does not hold what it started from is refused (409,
``resend``): the table then sends its sessions' records whole. Change ``n`` is
applied once: the table's ``last_n`` moves on by one in the same transaction that stores the
record; a change already applied is absorbed (when it is the same change: its digest is kept), a
change past the next one is refused with the number expected, and nothing is lost either way (the
table keeps it and sends it again). Each applied batch sends one ``NOTIFY`` (at commit, so in
order per table) that every server process relays to its pages (:mod:`club.notify`).

Each thread keeps its own connection; a connection lost (PostgreSQL restarted, the network)
is dropped and the call raises :class:`ClubDatabaseDown`, one line; the next call connects again.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import random
import secrets
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import psycopg

from tuolaji.scorer import AuditRun, format_card, parse_card, validate_record
from tuolaji.scorer.errors import InputError
from tuolaji.scorer.names import MAX_NAME, BadNameError, check_name
from tuolaji.session.changes import rules_record
from tuolaji.session.commands import validate_deal
from tuolaji.session.journal import Change as JournalChange
from tuolaji.session.journal import record_text as json_text
from tuolaji.session.journal import text_digest

from .migrations import migrate
from .movements import MOVEMENTS, movement_round
from .results import RULES, pair_results, summary_and_run

T = TypeVar("T")

CHANNEL = "tuolaji_club"
"""The NOTIFY channel of applied changes (payload: ``{"table": name, "n": last_n}``)."""

MAX_BATCH = 500
"""The most changes one push may carry."""

KEPT_SESSIONS = 256
"""The sessions whose copy and audit run a club process keeps (the tables of an evening, several times over)."""


@dataclass(frozen=True)
class KeptSession:
    """What a club process keeps of a session it applied a change to: the change's number and digest,
    the record after it and that record's audit run. The next change of the session starts from that
    copy (when the database's is still the one change ``n`` made) and audits again from the deal it
    made on (the deals before keep their audit), so the 30th deal's change costs near what the 1st's does."""

    n: int
    digest: str
    record: dict[str, Any]
    run: AuditRun

MAX_ROUND_MINUTES = 24 * 60
"""The longest round by time (a day)."""

FIGURES = ("levels_gained", "level_diff", "deals_won", "points")
"""A pair's figures in a round, which the standings add up (:data:`club.results.RULES`)."""

MAX_REASON = 500
"""The longest reason the director gives for fixing a result (characters)."""

HEARD_EVERY_S = 15
"""How often, at most, a table's machine asking for its commands (every second) is written down as heard from."""

OFFLINE_AFTER_S = 60
"""A table's machine not heard from (a push, or asking for its commands) for this long is offline."""



class ClubDatabaseDown(Exception):
    """PostgreSQL cannot be reached (stopped, restarting, the network): one line, status 503."""


class ClubRefused(InputError):
    """A request the club refuses: a ``club.*`` key of :data:`scorer.messages.MESSAGES_EN` and its
    facts (``str(error)`` its English line; a page words it by :func:`web.explain.describe_error`);
    ``status`` is its HTTP status, ``extra`` what its JSON answer adds (``expected``)."""

    def __init__(self, key: str, status: int = 400, /, *, extra: dict[str, Any] | None = None,
                 **params: Any) -> None:
        super().__init__(key, **params)
        self.status = status
        self.extra = dict(extra or {})


@dataclass(frozen=True)
class Change:
    """One numbered change of a table: its number, the table's local session, the session's name
    and either its record after the change (``record``) or the table's journal entry (``move``)."""

    n: int
    session: int
    name: str
    record: dict[str, Any] | None
    move: JournalChange | None = None

    @property
    def digest(self) -> str:
        body = self.record if self.move is None else self.move.to_json()
        text = json.dumps([self.session, self.name, body], ensure_ascii=False, sort_keys=True,
                          separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    @classmethod
    def parse(cls, value: Any) -> Change:
        if not isinstance(value, dict):
            raise ClubRefused("club.change_object")
        n, session, name, record = value.get("n"), value.get("session"), value.get("name", ""), value.get("record")
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ClubRefused("club.change_number", n=n)
        if not isinstance(session, int) or isinstance(session, bool) or session < 1:
            raise ClubRefused("club.change_session", n=n, session=session)
        if not isinstance(name, str) or not isinstance(record, dict) and "change" not in value:
            raise ClubRefused("club.change_fields", 422, extra={"n": n}, n=n)
        try:
            name = check_name(name, "name", empty=True)
        except BadNameError as exc:
            raise ClubRefused("club.change_name", 422, extra={"n": n}, n=n, error=exc) from None
        if "change" in value:
            try:
                return cls(n, session, name, None, JournalChange.from_json(n, value["change"]))
            except InputError as exc:
                raise ClubRefused("club.change_record", 422, extra={"n": n}, n=n, error=exc) from None
        assert isinstance(record, dict)
        try:
            validate_record(rules_record(record))
        except InputError as exc:
            raise ClubRefused("club.change_record", 422, extra={"n": n}, n=n, error=exc) from None
        return cls(n, session, name, record)

    def applied_to(self, copy: dict[str, Any] | None) -> dict[str, Any]:
        """The session's record after this change, from the club's ``copy`` of it (None: none yet);
        :class:`ClubRefused` when the copy does not hold what the change started from (409,
        ``resend``: the table sends the record whole) or the change makes a record the rules refuse."""
        if self.move is None:
            assert self.record is not None
            return self.record
        if copy is None or not self.move.fits(copy):
            raise ClubRefused("club.change_base", 409, extra={"resend": True}, n=self.n, session=self.session)
        record = self.move.applied_to(copy)
        try:
            if self.move.deal is not None and self.move.after is not None:
                validate_deal(record, self.move.deal)
            elif self.move.deal is None:
                validate_record(rules_record(record))
        except InputError as exc:
            raise ClubRefused("club.change_record", 422, extra={"n": self.n}, n=self.n, error=exc) from None
        return record

    def holds_what_it_made(self, text: str) -> None:
        """Refuse (409, ``resend``) a copy moved on by this change whose JSON ``text`` is not the record
        the table's change made (the copy differed elsewhere than where the change started)."""
        if self.move is not None and self.move.made is not None and text_digest(text) != self.move.made:
            raise ClubRefused("club.change_base", 409, extra={"resend": True}, n=self.n, session=self.session)


def _stale_retried(method: Callable[..., T]) -> Callable[..., T]:
    """Run ``method`` once more on a new connection when this thread's connection was found dead
    (PostgreSQL restarted since its last use): nothing of a failed transaction was kept, and a push
    is idempotent, so running it again is safe."""

    @functools.wraps(method)
    def retried(self: ClubStore, *args: Any, **kwargs: Any) -> T:
        try:
            return method(self, *args, **kwargs)
        except ClubDatabaseDown:
            if not getattr(self._local, "reused", False):
                raise
            return method(self, *args, **kwargs)

    return retried


class ClubStore:
    """The club's database at ``dsn`` (a ``postgresql://`` address); migrated when opened."""

    def __init__(self, dsn: str, *, connect_timeout_s: int = 3) -> None:
        self.dsn = dsn
        self.connect_timeout_s = connect_timeout_s
        self._local = threading.local()
        self._kept_sessions: dict[tuple[int, int], KeptSession] = {}  # by (table, session), the newest last
        self._kept_lock = threading.Lock()
        with self._connection() as connection:
            migrate(connection)
            with connection.transaction():
                connection.execute("INSERT INTO club_settings (key, value) VALUES ('organiser_token', %s) "
                                   "ON CONFLICT (key) DO NOTHING", (secrets.token_urlsafe(18),))

    # --- connections ------------------------------------------------------------------------

    def connect(self, *, autocommit: bool = False) -> psycopg.Connection[Any]:
        """A new connection (its caller closes it); :class:`ClubDatabaseDown` when there is none."""
        try:
            return psycopg.connect(self.dsn, autocommit=autocommit, connect_timeout=self.connect_timeout_s)
        except psycopg.OperationalError as exc:
            raise ClubDatabaseDown(f"club database unavailable ({first_line(exc)})") from None

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
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
                with self._connection() as connection:
                    connection.execute("SELECT 1")
                return True
            except ClubDatabaseDown:
                if not self._local.reused:
                    return False
        return False

    # --- tables -----------------------------------------------------------------------------

    @_stale_retried
    def organiser_token(self) -> str:
        with self._connection() as connection:
            row = _one(connection.execute("SELECT value FROM club_settings WHERE key = 'organiser_token'"))
        return str(row[0])

    @_stale_retried
    def is_organiser(self, token: str | None) -> bool:
        return bool(token) and hmac.compare_digest(str(token), self.organiser_token())

    @_stale_retried
    def add_table(self, name: str) -> str:
        """Register a table; returns its token (what its machine and its phones push with)."""
        name = _name(name, "table")
        token = secrets.token_urlsafe(18)
        with self._connection() as connection, connection.transaction():
            row = connection.execute("INSERT INTO club_tables (name, token) VALUES (%s, %s) "
                                     "ON CONFLICT (name) DO NOTHING RETURNING id", (name, token)).fetchone()
        if row is None:
            raise ClubRefused("club.table_exists", 409, name=name)
        return token

    @_stale_retried
    def table_tokens(self) -> list[tuple[str, str]]:
        """Every table's name and token, in the order they were added (the organiser's to hand out)."""
        with self._connection() as connection:
            return [(str(row[0]), str(row[1])) for row in connection.execute(
                "SELECT name, token FROM club_tables ORDER BY id")]

    @_stale_retried
    def table_token_ok(self, name: str, token: str | None) -> bool:
        with self._connection() as connection:
            row = connection.execute("SELECT token FROM club_tables WHERE name = %s", (name,)).fetchone()
        return row is not None and bool(token) and hmac.compare_digest(str(row[0]), str(token))

    @_stale_retried
    def check_table_token(self, name: str, token: str | None) -> None:
        """Refuse (404) a table the club does not know and (403) a token that is not the table's."""
        with self._connection() as connection:
            row = connection.execute("SELECT token FROM club_tables WHERE name = %s", (name,)).fetchone()
        if row is None:
            raise ClubRefused("club.no_table", 404, name=name)
        if not token or not hmac.compare_digest(str(row[0]), str(token)):
            raise ClubRefused("club.wrong_token", 403, name=name)

    @_stale_retried
    def table_names(self) -> list[str]:
        with self._connection() as connection:
            return [row[0] for row in connection.execute("SELECT name FROM club_tables ORDER BY id")]

    @_stale_retried
    def last_n(self, name: str) -> int:
        with self._connection() as connection:
            row = connection.execute("SELECT last_n FROM club_tables WHERE name = %s", (name,)).fetchone()
        if row is None:
            raise ClubRefused("club.no_table", 404, name=name)
        return int(row[0])

    # --- the changes --------------------------------------------------------------------------

    def _kept(self, table_id: int, session: int) -> KeptSession | None:
        with self._kept_lock:
            return self._kept_sessions.get((table_id, session))

    def _keep(self, table_id: int, session: int, kept: KeptSession) -> None:
        with self._kept_lock:
            self._kept_sessions.pop((table_id, session), None)  # the newest last
            self._kept_sessions[(table_id, session)] = kept
            while len(self._kept_sessions) > KEPT_SESSIONS:
                self._kept_sessions.pop(next(iter(self._kept_sessions)))

    def _copy(self, connection: psycopg.Connection[Any], table_id: int, session: int) -> dict[str, Any] | None:
        """The club's copy of a session's record (None: none yet): this process's, when the database
        holds the change it was kept at, else read from the database."""
        kept = self._kept(table_id, session)
        # the database's copy is the one kept when it was made by the same change (its number and digest)
        row = connection.execute(
            "SELECT s.n, CASE WHEN s.n = %s AND c.digest = %s THEN NULL ELSE s.record END FROM club_sessions s "
            "LEFT JOIN club_changes c ON c.table_id = s.table_id AND c.n = s.n WHERE s.table_id = %s AND s.local_id = %s",
            (kept.n if kept is not None else -1, kept.digest if kept is not None else "", table_id, session)).fetchone()
        if row is None:
            return None
        if row[1] is None and kept is not None:
            return kept.record
        return dict(json.loads(row[1]))

    @_stale_retried
    def push(self, name: str, token: str | None, changes: Iterable[Any]) -> dict[str, Any]:
        """Apply a table's numbered changes, in order: returns ``applied_through`` (the table's last
        change now), how many were ``applied`` and how many were ``duplicates`` (absorbed). Raises
        :class:`ClubRefused`: a wrong token (403), an unknown table (404), a change out of order
        (409, after applying those before it, with ``expected``), the same number with another
        change (409)."""
        values = list(changes)
        if len(values) > MAX_BATCH:
            raise ClubRefused("club.batch", 413, most=MAX_BATCH, got=len(values))
        self.check_table_token(name, token)  # before anything of the body is looked at: a wrong token costs nothing
        parsed: list[Change] = []
        refusal: ClubRefused | None = None
        for value in values:  # those before a change the club cannot take are applied, as before a gap
            try:
                parsed.append(Change.parse(value))
            except ClubRefused as exc:
                if "n" not in exc.extra:
                    raise
                refusal = exc
                break
        latest: dict[int, Change] = {}
        for change in parsed:
            latest[change.session] = change
        copies: dict[int, dict[str, Any] | None] = {}  # each session's record as the changes so far left it
        applied = duplicates = 0
        with self._connection() as connection, connection.transaction():
            row = connection.execute("SELECT id, token, last_n, refused_n FROM club_tables WHERE name = %s FOR UPDATE",
                                     (name,)).fetchone()
            if row is None:
                raise ClubRefused("club.no_table", 404, name=name)
            table_id, table_token, last_n = int(row[0]), str(row[1]), int(row[2])
            refused_before = row[3] is not None
            if not token or not hmac.compare_digest(table_token, str(token)):
                raise ClubRefused("club.wrong_token", 403, name=name)
            session_ids: dict[int, int] = {}
            for change in parsed:
                if change.n <= last_n:
                    known = connection.execute("SELECT digest FROM club_changes WHERE table_id = %s AND n = %s",
                                               (table_id, change.n)).fetchone()
                    if known is not None and known[0] != change.digest:
                        refusal = ClubRefused("club.change_differs", 409, extra={"expected": last_n + 1}, name=name,
                                              n=change.n)
                        break
                    duplicates += 1
                    continue
                if change.n != last_n + 1:
                    refusal = ClubRefused("club.out_of_order", 409, extra={"expected": last_n + 1}, name=name,
                                          n=change.n, expected=last_n + 1)
                    break
                if change.move is not None and change.session not in copies:
                    copies[change.session] = self._copy(connection, table_id, change.session)
                try:
                    record = change.applied_to(copies.get(change.session))
                except ClubRefused as exc:
                    exc.extra.setdefault("expected", last_n + 1)
                    refusal = exc
                    break
                record_text = json_text(record)
                try:
                    change.holds_what_it_made(record_text)
                except ClubRefused as exc:
                    exc.extra.setdefault("expected", last_n + 1)
                    refusal = exc
                    break
                copies[change.session] = record
                summary, run = "{}", None
                if latest[change.session] is change:
                    kept = self._kept(table_id, change.session)
                    facts, run = summary_and_run(record, kept.run if kept is not None else None)
                    summary = json.dumps(facts, ensure_ascii=False)
                try:
                    with connection.transaction():  # a savepoint: a change PostgreSQL refuses leaves those before it
                        session_id = _one(connection.execute(
                            "INSERT INTO club_sessions (table_id, local_id, name, record, summary, n) "
                            "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (table_id, local_id) DO UPDATE SET "
                            "name = EXCLUDED.name, record = EXCLUDED.record, summary = CASE WHEN EXCLUDED.summary = "
                            "'{}' THEN club_sessions.summary ELSE EXCLUDED.summary END, "
                            "n = EXCLUDED.n, updated = now() RETURNING id",
                            (table_id, change.session, change.name, record_text, summary, change.n)))[0]
                        connection.execute("INSERT INTO club_changes (table_id, n, session_id, digest) "
                                           "VALUES (%s, %s, %s, %s)", (table_id, change.n, session_id, change.digest))
                except (psycopg.DataError, psycopg.IntegrityError, psycopg.errors.ProgramLimitExceeded) as exc:
                    refusal = ClubRefused("club.change_unstorable", 422, extra={"n": change.n}, n=change.n,
                                          reason=first_line(exc))
                    break
                session_ids[change.session] = int(session_id)
                if run is not None:
                    self._keep(table_id, change.session, KeptSession(change.n, change.digest, record, run))
                last_n = change.n
                applied += 1
            unstorable = refusal is not None and "n" in refusal.extra
            # a push taken whole (even an empty one, a table's word that it mended what was refused) clears the line
            clear = refusal is None
            connection.execute(
                "UPDATE club_tables SET last_n = %s, seen = now(), refused_n = CASE WHEN %s THEN %s WHEN %s "
                "THEN NULL ELSE refused_n END, refused = CASE WHEN %s THEN %s WHEN %s THEN NULL ELSE refused END "
                "WHERE id = %s",
                (last_n, unstorable, refusal.extra.get("n") if unstorable and refusal else None, clear,
                 unstorable, str(refusal) if unstorable and refusal else None, clear, table_id))
            if applied or unstorable or (clear and refused_before):
                event: dict[str, Any] = {"table": name, "n": last_n}
                if unstorable and refusal is not None:
                    event["refused"] = {"n": refusal.extra["n"], "reason": str(refusal)}
                connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, json.dumps(event, ensure_ascii=False)))
        if refusal is not None:
            refusal.extra |= {"applied_through": last_n, "applied": applied, "duplicates": duplicates}
            raise refusal
        return {"table": name, "applied_through": last_n, "applied": applied, "duplicates": duplicates}

    # --- reading ----------------------------------------------------------------------------

    @_stale_retried
    def overview(self) -> list[dict[str, Any]]:
        """Every table with its latest session's summary (what the room's page shows)."""
        with self._connection() as connection:
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

    @_stale_retried
    def sessions(self, name: str) -> list[dict[str, Any]]:
        with self._connection() as connection:
            rows = connection.execute(
                "SELECT s.local_id, s.name, s.n, s.updated FROM club_sessions s JOIN club_tables t ON t.id = s.table_id "
                "WHERE t.name = %s ORDER BY s.n DESC", (name,)).fetchall()
        return [{"session": row[0], "name": row[1], "n": row[2], "updated": row[3].isoformat()} for row in rows]

    @_stale_retried
    def record(self, name: str, session: int | None = None) -> dict[str, Any]:
        """A table's session's record as last pushed (None: its latest session)."""
        with self._connection() as connection:
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

    @_stale_retried
    def latest_session(self, name: str, *, with_record: bool = False) -> dict[str, Any] | None:
        """The table's latest session (``session``: its local id, ``name``, ``n``: the change that
        last touched it, ``updated``), with its ``record`` when asked; None before the table's first
        change. :class:`ClubRefused` (404) for an unknown table."""
        with self._connection() as connection:
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

    @_stale_retried
    def change_numbers(self, name: str) -> list[int]:
        """Every change number the club holds for a table, in order (one each: nothing doubled)."""
        with self._connection() as connection:
            return [int(row[0]) for row in connection.execute(
                "SELECT c.n FROM club_changes c JOIN club_tables t ON t.id = c.table_id WHERE t.name = %s ORDER BY c.n",
                (name,))]

    # --- commands: plays entered at the club, rulings -------------------------------------------------

    @_stale_retried
    def add_command(self, name: str, kind: str, body: dict[str, Any]) -> int:
        """Queue a command for a table's machine, the one writer of its record: a ``play``
        (``{"seat", "cards"}``, entered on a phone at the club) or a ``ruling`` (``{"deal", "violation",
        "points", "levels", "note"}``, from the referee's console: a penalty for one of the deal's
        violations, the rules' own when neither points nor levels is given). The table applies it to its
        current session and its record comes back as its next change. Returns the command's id."""
        body = _command_body(kind, body)
        with self._connection() as connection, connection.transaction():
            row = connection.execute("SELECT id FROM club_tables WHERE name = %s", (name,)).fetchone()
            if row is None:
                raise ClubRefused("club.no_table", 404, name=name)
            command_id = int(_one(connection.execute(
                "INSERT INTO club_commands (table_id, kind, body) VALUES (%s, %s, %s) RETURNING id",
                (row[0], kind, json.dumps(body, ensure_ascii=False))))[0])
            connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, json.dumps(
                {"table": name, "command": command_id}, ensure_ascii=False)))
        return command_id

    def _authorised(self, connection: psycopg.Connection[Any], name: str, token: str | None) -> int:
        row = connection.execute("SELECT id, token FROM club_tables WHERE name = %s", (name,)).fetchone()
        if row is None:
            raise ClubRefused("club.no_table", 404, name=name)
        if not token or not hmac.compare_digest(str(row[1]), str(token)):
            raise ClubRefused("club.wrong_token", 403, name=name)
        return int(row[0])

    @_stale_retried
    def commands(self, name: str, token: str | None, after: int = 0) -> list[dict[str, Any]]:
        """The table's commands not yet done, after id ``after``, oldest first (its token needed); the
        table is heard from (``seen``: what says a table's machine is offline, :data:`OFFLINE_AFTER_S`)."""
        with self._connection() as connection, connection.transaction():
            table_id = self._authorised(connection, name, token)
            # the table's machine asks every second: heard from, written down at most every HEARD_EVERY_S
            connection.execute("UPDATE club_tables SET seen = now() WHERE id = %s AND (seen IS NULL OR "
                               "seen < now() - make_interval(secs => %s))", (table_id, HEARD_EVERY_S))
            rows = connection.execute("SELECT id, kind, body FROM club_commands WHERE table_id = %s AND id > %s "
                                      "AND done IS NULL ORDER BY id LIMIT 100", (table_id, after)).fetchall()
        return [{"id": int(row[0]), "kind": row[1], "body": json.loads(row[2])} for row in rows]

    @_stale_retried
    def command_done(self, name: str, token: str | None, command_id: int, result: str,
                     message: dict[str, str] | None = None) -> None:
        """The table applied (or refused) a command: ``result`` is its one line, ``message`` the
        same in both languages (``{"zh", "en"}``) where the table words it."""
        words = None
        if isinstance(message, dict) and all(isinstance(message.get(k), str) for k in ("zh", "en")):
            words = {"zh": message["zh"][:500], "en": message["en"][:500]}
        with self._connection() as connection, connection.transaction():
            table_id = self._authorised(connection, name, token)
            connection.execute("UPDATE club_commands SET done = coalesce(done, now()), result = coalesce(result, %s), "
                               "message = coalesce(message, %s) WHERE id = %s AND table_id = %s",
                               (result[:500], json.dumps(words, ensure_ascii=False) if words else None, command_id,
                                table_id))
            connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, json.dumps(
                {"table": name, "command": command_id, "result": result[:500], "message": words}, ensure_ascii=False)))

    @_stale_retried
    def command(self, name: str, command_id: int) -> dict[str, Any]:
        with self._connection() as connection:
            row = connection.execute(
                "SELECT c.id, c.kind, c.body, c.done, c.result, c.message FROM club_commands c JOIN club_tables t "
                "ON t.id = c.table_id WHERE t.name = %s AND c.id = %s", (name, command_id)).fetchone()
        if row is None:
            raise ClubRefused("club.no_command", 404, name=name, command=command_id)
        return {"id": int(row[0]), "kind": row[1], "body": json.loads(row[2]),
                "done": row[3].isoformat() if row[3] else None, "result": row[4],
                "message": json.loads(row[5]) if row[5] else None}

    # --- players, pairs, rounds -----------------------------------------------------------------

    @_stale_retried
    def add_player(self, name: str) -> int:
        name = _name(name, "player")
        with self._connection() as connection, connection.transaction():
            row = _one(connection.execute("INSERT INTO club_players (name) VALUES (%s) ON CONFLICT (name) DO UPDATE "
                                          "SET name = EXCLUDED.name RETURNING id", (name,)))
        return int(row[0])

    def add_pair(self, name: str, player_a: str, player_b: str) -> int:
        """Register a pair of two players (registered with them if new)."""
        return self.add_pairs([(name, player_a, player_b)])[0]

    @_stale_retried
    def add_pairs(self, pairs: Iterable[tuple[str, str, str]]) -> list[int]:
        """Register pairs (``(name, player, player)``, their players with them if new) all at once: one
        the club refuses (a name, the same player twice, a pair it has) registers none of them."""
        checked: list[tuple[str, str, str]] = []
        for pair, player_a, player_b in pairs:
            name, a, b = _name(pair, "pair"), _name(player_a, "player"), _name(player_b, "player")
            if a == b:
                raise ClubRefused("club.pair_same", name=name)
            if any(name == other for other, _, _ in checked):
                raise ClubRefused("club.pair_exists", 409, name=name)
            checked.append((name, a, b))
        ids = []
        with self._connection() as connection, connection.transaction():
            for name, a, b in checked:
                players = [_one(connection.execute("INSERT INTO club_players (name) VALUES (%s) ON CONFLICT (name) DO "
                                                   "UPDATE SET name = EXCLUDED.name RETURNING id", (player,)))[0]
                           for player in (a, b)]
                row = connection.execute("INSERT INTO club_pairs (name, player_a, player_b) VALUES (%s, %s, %s) "
                                         "ON CONFLICT (name) DO NOTHING RETURNING id", (name, *players)).fetchone()
                if row is None:
                    raise ClubRefused("club.pair_exists", 409, name=name)
                ids.append(int(row[0]))
        return ids

    @_stale_retried
    def pairs(self) -> list[dict[str, Any]]:
        with self._connection() as connection:
            rows = connection.execute(
                "SELECT p.name, a.name, b.name FROM club_pairs p JOIN club_players a ON a.id = p.player_a "
                "JOIN club_players b ON b.id = p.player_b ORDER BY p.id").fetchall()
        return [{"pair": row[0], "players": [row[1], row[2]]} for row in rows]

    @_stale_retried
    def start_round(self, *, seating: str = "hand", tables: list[dict[str, str]] | None = None,
                    ends_by: str = "deals", deals: int | None = 2, minutes: int | None = None,
                    rule: str = "levels", seed: int | None = None, ends_itself: bool = False) -> dict[str, Any]:
        """Start the next round. ``seating``: ``hand`` (``tables``: ``[{"table", "ns", "ew"}]``),
        ``drawn`` (pairs drawn at random onto the tables), ``swiss`` (by standing under ``rule``:
        first against second, third against fourth…) or a movement (``roundrobin``, ``howell``,
        ``mitchell``: :mod:`club.movements`, its next round after those it seated before, the pairs in
        the order registered on the tables in the order added; refused when it does not fit). A round ends by ``deals`` played at each table,
        or by ``minutes``; a round by deals ``ends_itself`` when every table seated in it has finished
        them (:meth:`end_due_rounds`). Each seating starts at the table's current session, after its
        deals so far."""
        with self._connection() as connection:
            open_round = connection.execute("SELECT number FROM club_rounds WHERE ended IS NULL").fetchone()
        if open_round is not None:
            raise ClubRefused("club.round_open", 409, round=open_round[0])
        if ends_by not in ("deals", "time"):
            raise ClubRefused("club.round_ends_by")
        if ends_by == "deals" and not (isinstance(deals, int) and not isinstance(deals, bool) and 1 <= deals <= 1000):
            raise ClubRefused("club.round_deals")
        if ends_by == "time" and not (isinstance(minutes, int) and not isinstance(minutes, bool) and minutes >= 1):
            raise ClubRefused("club.round_minutes")
        if ends_by == "time" and isinstance(minutes, int) and minutes > MAX_ROUND_MINUTES:
            raise ClubRefused("club.minutes", most=MAX_ROUND_MINUTES, value=minutes)
        if seating == "swiss" and rule not in RULES:
            raise ClubRefused("club.standings_rule", rule=str(rule)[:40], choices=list(RULES))
        names = self.table_names()
        pair_names = [p["pair"] for p in self.pairs()]
        if seating == "hand":
            if tables is not None and not (isinstance(tables, list) and all(isinstance(t, dict) and all(
                    isinstance(t.get(key), str) for key in ("table", "ns", "ew")) for t in tables)):
                raise ClubRefused("club.round_tables")
            plan = [(t["table"], t["ns"], t["ew"]) for t in tables or []]
        elif seating in ("drawn", "swiss"):
            if seating == "drawn":
                order = list(pair_names)
                random.Random(seed).shuffle(order)
            else:
                ranked = [row["pair"] for row in self.standings(rule)]
                order = ranked + [p for p in pair_names if p not in ranked]
            if len(order) // 2 > len(names):
                raise ClubRefused("club.too_few_tables", pairs=len(order), needed=len(order) // 2, tables=len(names))
            plan = [(names[i], order[2 * i], order[2 * i + 1]) for i in range(len(order) // 2)]
        elif seating in MOVEMENTS:
            with self._connection() as connection:
                before = int(_one(connection.execute("SELECT count(*) FROM club_rounds WHERE seating = %s",
                                                     (seating,)))[0])
            try:
                schedule = movement_round(seating, len(pair_names), before + 1, len(names))
            except InputError as exc:
                raise ClubRefused(exc.key, 409 if exc.key == "club.movement_done" else 400, **exc.params) from None
            plan = [(names[i], pair_names[ns], pair_names[ew]) for i, (ns, ew) in enumerate(schedule)]
        else:
            raise ClubRefused("club.seating", seating=seating)
        if not plan:
            raise ClubRefused("club.round_empty")
        seated = [p for _, ns, ew in plan for p in (ns, ew)]
        if len(set(seated)) != len(seated):
            raise ClubRefused("club.pair_twice")
        with self._connection() as connection, connection.transaction():
            open_round = connection.execute("SELECT number FROM club_rounds WHERE ended IS NULL").fetchone()
            if open_round is not None:
                raise ClubRefused("club.round_open", 409, round=open_round[0])
            number = int(_one(connection.execute("SELECT coalesce(max(number), 0) + 1 FROM club_rounds"))[0])
            round_id = _one(connection.execute(
                "INSERT INTO club_rounds (number, ends_by, deals, minutes, seating, ends_itself) VALUES "
                "(%s, %s, %s, %s, %s, %s) RETURNING id",
                (number, ends_by, deals if ends_by == "deals" else None, minutes if ends_by == "time" else None,
                 seating, bool(ends_itself) and ends_by == "deals"),
            ))[0]
            for table, ns, ew in plan:
                ids = _one(connection.execute(
                    "SELECT (SELECT id FROM club_tables WHERE name = %s), (SELECT id FROM club_pairs WHERE name = %s), "
                    "(SELECT id FROM club_pairs WHERE name = %s)", (table, ns, ew)))
                if None in ids:
                    raise ClubRefused("club.round_unknown", 404, round=number, table=table, ns=ns, ew=ew)
                session = connection.execute(
                    "SELECT id, record FROM club_sessions WHERE table_id = %s ORDER BY n DESC LIMIT 1",
                    (ids[0],)).fetchone()
                first_deal = _finished_deals(json.loads(session[1])) if session is not None else 0
                connection.execute(
                    "INSERT INTO club_seatings (round_id, table_id, pair_ns, pair_ew, session_id, first_deal) "
                    "VALUES (%s, %s, %s, %s, %s, %s)",
                    (round_id, ids[0], ids[1], ids[2], session[0] if session is not None else None, first_deal))
            connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, json.dumps({"round": number})))
        return {"round": number, "seatings": [{"table": t, "ns": ns, "ew": ew} for t, ns, ew in plan]}

    @_stale_retried
    def end_round(self) -> int:
        """End the round under way; returns its number. Each seating keeps the session its table
        was on and the deals finished by now (what a round by time counts)."""
        with self._connection() as connection, connection.transaction():
            row = connection.execute("UPDATE club_rounds SET ended = now(), ended_how = 'director' WHERE ended IS NULL "
                                     "RETURNING id, number").fetchone()
            if row is None:
                raise ClubRefused("club.no_round", 409)
            self._close_seatings(connection, int(row[0]), int(row[1]))
        return int(row[1])

    @_stale_retried
    def end_due_rounds(self) -> list[int]:
        """End the round by time whose end time has come, as of its end time, and the round by deals
        that ends itself (``ends_itself``: started so by the director's console) once every table seated
        in it has finished the round's deals: its seatings keep the deals finished now (the club's
        server checks every second, and whenever the room, the rounds or the standings are read).
        Returns the numbers of the rounds ended (none, mostly). Several server processes may check at
        once: the round ends once."""
        with self._connection() as connection, connection.transaction():
            rows = connection.execute(
                "UPDATE club_rounds SET ended = started + make_interval(mins => minutes), ended_how = 'time' "
                "WHERE ended IS NULL AND ends_by = 'time' AND started + make_interval(mins => minutes) <= now() "
                "RETURNING id, number").fetchall()
            by_deals = connection.execute("SELECT id, deals FROM club_rounds WHERE ended IS NULL AND ends_by = 'deals' "
                                          "AND ends_itself").fetchone()
            if by_deals is not None:
                played = _deals_played(connection, int(by_deals[0]))
                if played and all(deals >= int(by_deals[1]) for deals in played.values()):
                    rows += connection.execute("UPDATE club_rounds SET ended = now(), ended_how = 'deals' WHERE id = %s "
                                               "AND ended IS NULL RETURNING id, number", (by_deals[0],)).fetchall()
            for round_id, number in rows:
                self._close_seatings(connection, int(round_id), int(number))
        return [int(number) for _, number in rows]

    @_stale_retried
    def ended_how(self, number: int) -> str | None:
        """How round ``number`` ended: ``director`` (ended on the console or the API), ``time`` (its end
        time came), ``deals`` (it ended itself, every table having finished its deals); None: under way,
        or ended before the club kept how."""
        with self._connection() as connection:
            row = connection.execute("SELECT ended_how FROM club_rounds WHERE number = %s", (number,)).fetchone()
        return None if row is None or row[0] is None else str(row[0])

    @staticmethod
    def _close_seatings(connection: psycopg.Connection[Any], round_id: int, number: int) -> None:
        """A round just ended: each seating keeps its table's session now and the deals it has
        finished; the pages are told (at commit)."""
        seatings = connection.execute(
            "SELECT s.table_id, l.id, l.record FROM club_seatings s LEFT JOIN LATERAL (SELECT id, record FROM "
            "club_sessions WHERE table_id = s.table_id ORDER BY n DESC LIMIT 1) l ON true WHERE s.round_id = %s",
            (round_id,)).fetchall()
        for table_id, session_id, record_text in seatings:
            finished = _finished_deals(json.loads(record_text)) if record_text is not None else 0
            connection.execute("UPDATE club_seatings SET end_session_id = %s, last_deal = %s "
                               "WHERE round_id = %s AND table_id = %s", (session_id, finished, round_id, table_id))
        connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, json.dumps({"round": number, "ended": True})))

    @_stale_retried
    def move_pair(self, pair: Any, table: Any, side: Any) -> dict[str, Any]:
        """Move ``pair`` to ``table``'s ``side`` (``ns`` or ``ew``) in the round under way: the pair there
        takes the moved pair's seat, or sits out when the moved pair had none. The table must be seated
        in the round; the tables' pages and machines read their seating again (a round's news).
        Returns ``{"round", "pair", "table", "side", "swapped"}`` (``swapped``: the pair that was there)."""
        if side not in ("ns", "ew"):
            raise ClubRefused("club.move_side", side=str(side)[:20])
        with self._connection() as connection, connection.transaction():
            row = connection.execute("SELECT id, number FROM club_rounds WHERE ended IS NULL FOR UPDATE").fetchone()
            if row is None:
                raise ClubRefused("club.no_round", 409)
            round_id, number = int(row[0]), int(row[1])
            ids = _one(connection.execute("SELECT (SELECT id FROM club_pairs WHERE name = %s), "
                                          "(SELECT id FROM club_tables WHERE name = %s)", (str(pair), str(table))))
            if None in ids:
                raise ClubRefused("club.move_unknown", 404, pair=str(pair)[:64], table=str(table)[:64])
            pair_id, table_id = int(ids[0]), int(ids[1])
            seats: dict[tuple[int, str], int] = {}
            for seated_table, ns, ew in connection.execute(
                    "SELECT table_id, pair_ns, pair_ew FROM club_seatings WHERE round_id = %s", (round_id,)):
                seats[(int(seated_table), "ns")], seats[(int(seated_table), "ew")] = int(ns), int(ew)
            if (table_id, side) not in seats:
                raise ClubRefused("club.move_free_table", 409, table=str(table), round=number)
            occupant = seats[(table_id, side)]
            if occupant == pair_id:
                raise ClubRefused("club.move_same", 409, pair=str(pair), table=str(table))
            source = next((seat for seat, seated in seats.items() if seated == pair_id), None)
            seats[(table_id, side)] = pair_id
            if source is not None:
                seats[source] = occupant
            for changed in {table_id, *([source[0]] if source is not None else [])}:
                connection.execute("UPDATE club_seatings SET pair_ns = %s, pair_ew = %s WHERE round_id = %s "
                                   "AND table_id = %s", (seats[(changed, "ns")], seats[(changed, "ew")], round_id,
                                                         changed))
            swapped = str(_one(connection.execute("SELECT name FROM club_pairs WHERE id = %s", (occupant,)))[0])
            connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, json.dumps(
                {"round": number, "moved": str(pair)}, ensure_ascii=False)))
        return {"round": number, "pair": str(pair), "table": str(table), "side": side, "swapped": swapped}

    @_stale_retried
    def current_round(self) -> dict[str, Any] | None:
        """The round under way: its number, how it ends (``ends_at`` for a round by time) and, per
        seated table, the deals it has finished of the round's (``done`` when a round by deals has
        them all at every table)."""
        with self._connection() as connection:
            row = connection.execute("SELECT id, number, ends_by, deals, minutes, started FROM club_rounds "
                                     "WHERE ended IS NULL").fetchone()
            if row is None:
                return None
            round_id, number, ends_by, deals, minutes, started = row
            tables = _deals_played(connection, round_id)
        ends_at = started + timedelta(minutes=minutes) if ends_by == "time" and minutes else None
        return {"round": number, "ends_by": ends_by, "deals": deals, "minutes": minutes,
                "started": started.isoformat(), "ends_at": ends_at.isoformat() if ends_at else None,
                "deals_played": tables,
                "done": (ends_by == "deals" and all(played >= (deals or 0) for played in tables.values())) or (
                    ends_at is not None and datetime.now(ends_at.tzinfo) >= ends_at)}

    @_stale_retried
    def current_seatings(self, name: str | None = None) -> dict[str, dict[str, Any]]:
        """Where the pairs sit in the round under way, by table (``name``: that table alone): the round's
        number, the 南北 and 东西 pairs with their players, and ``seats``, the four players in the seats'
        order (南北 at seats 0 and 2, 东西 at 1 and 3, as the results read them). Empty between rounds."""
        with self._connection() as connection:
            rows = connection.execute(
                "SELECT t.name, r.number, ns.name, nsa.name, nsb.name, ew.name, ewa.name, ewb.name FROM club_seatings s "
                "JOIN club_rounds r ON r.id = s.round_id AND r.ended IS NULL JOIN club_tables t ON t.id = s.table_id "
                "JOIN club_pairs ns ON ns.id = s.pair_ns JOIN club_players nsa ON nsa.id = ns.player_a "
                "JOIN club_players nsb ON nsb.id = ns.player_b JOIN club_pairs ew ON ew.id = s.pair_ew "
                "JOIN club_players ewa ON ewa.id = ew.player_a JOIN club_players ewb ON ewb.id = ew.player_b "
                "WHERE %s::text IS NULL OR t.name = %s ORDER BY t.id", (name, name)).fetchall()
        return {table: {"round": int(number), "ns": {"pair": ns, "players": [ns_a, ns_b]},
                        "ew": {"pair": ew, "players": [ew_a, ew_b]}, "seats": [ns_a, ew_a, ns_b, ew_b]}
                for table, number, ns, ns_a, ns_b, ew, ew_a, ew_b in rows}

    @_stale_retried
    def last_round(self) -> dict[str, Any] | None:
        """The latest round (``round``, ``ends_by``, ``ended``: None while under way), if any."""
        with self._connection() as connection:
            row = connection.execute("SELECT number, ends_by, ended FROM club_rounds ORDER BY number DESC LIMIT 1"
                                     ).fetchone()
        return None if row is None else {"round": int(row[0]), "ends_by": row[1],
                                         "ended": row[2].isoformat() if row[2] else None}

    @_stale_retried
    def rounds(self) -> list[dict[str, Any]]:
        with self._connection() as connection:
            rows = connection.execute(
                "SELECT r.number, r.ends_by, r.deals, r.minutes, r.started, r.ended, t.name, ns.name, ew.name "
                "FROM club_rounds r JOIN club_seatings s ON s.round_id = r.id JOIN club_tables t ON t.id = s.table_id "
                "JOIN club_pairs ns ON ns.id = s.pair_ns JOIN club_pairs ew ON ew.id = s.pair_ew "
                "ORDER BY r.number, t.id").fetchall()
        rounds: dict[int, dict[str, Any]] = {}
        for number, ends_by, deals, minutes, started, ended, table, ns, ew in rows:
            entry = rounds.setdefault(number, {"round": number, "ends_by": ends_by, "deals": deals, "minutes": minutes,
                                               "started": started.isoformat(),
                                               "ended": ended.isoformat() if ended else None, "seatings": []})
            entry["seatings"].append({"table": table, "ns": ns, "ew": ew})
        return list(rounds.values())

    @_stale_retried
    def table_results(self) -> list[dict[str, Any]]:
        """One row a round and table: its 南北 and 东西 pairs, their figures as the table's record gives
        them (``record``: the session it was on when the round ended, under way its latest, its deals
        from the round's start, all of them in a session begun during the round, a round by deals
        counting that many at most, an ended one those finished when it ended), the director's fixes
        of them, oldest first (``fixes``: each with the figures before it, the figures it set, its
        reason and time), and the figures that count (``figures``: the latest fix's, else the record's)."""
        with self._connection() as connection:
            rows = connection.execute(
                "SELECT r.number, r.ends_by, r.deals, ns.name, ew.name, s.session_id, s.first_deal, s.last_deal, "
                "l.id, l.record, t.name FROM club_seatings s JOIN club_rounds r ON r.id = s.round_id "
                "JOIN club_tables t ON t.id = s.table_id "
                "JOIN club_pairs ns ON ns.id = s.pair_ns JOIN club_pairs ew ON ew.id = s.pair_ew "
                "LEFT JOIN LATERAL (SELECT id, record FROM club_sessions WHERE id = s.end_session_id OR "
                "(s.end_session_id IS NULL AND table_id = s.table_id) ORDER BY n DESC LIMIT 1) l ON true "
                "ORDER BY r.number, s.table_id").fetchall()
            fixes: dict[tuple[int, str], list[dict[str, Any]]] = {}
            for number, table, before, after, reason, made in connection.execute(
                    "SELECT f.round_number, t.name, f.before, f.after, f.reason, f.created FROM club_fixes f "
                    "JOIN club_tables t ON t.id = f.table_id ORDER BY f.id"):
                fixes.setdefault((int(number), table), []).append(
                    {"before": json.loads(before), "after": json.loads(after), "reason": reason,
                     "at": made.isoformat()})
        out = []
        for number, ends_by, deals, ns, ew, start_session, first_deal, last_deal, session_id, record_text, table in rows:
            figures: dict[str, dict[str, int]] = {"ns": {}, "ew": {}}
            if record_text is not None:
                record = json.loads(record_text)
                first = first_deal if session_id == start_session else 0
                last = first + deals if ends_by == "deals" and deals else None
                if last_deal is not None:
                    last = last_deal if last is None else min(last, last_deal)
                if len(record.get("players", [])) == 4:
                    figures = pair_results(record, first, last)
            from_record = {side: {k: figures[side].get(k, 0) for k in FIGURES} for side in ("ns", "ew")}
            fixed = fixes.get((int(number), table), [])
            out.append({"round": number, "table": table, "ns": ns, "ew": ew, "record": from_record, "fixes": fixed,
                        "figures": fixed[-1]["after"] if fixed else from_record})
        return out

    def results(self) -> list[dict[str, Any]]:
        """One row a pair and round: the pair's figures at its table (:meth:`table_results`: the
        director's latest fix of them, else the table's record's)."""
        return [{"round": row["round"], "pair": row[side], **row["figures"][side]}
                for row in self.table_results() for side in ("ns", "ew")]

    @_stale_retried
    def fix_result(self, round_number: Any, table: Any, figures: Any, reason: Any) -> dict[str, Any]:
        """The director fixes a table's result in a round: ``figures`` (``{"ns": {…}, "ew": {…}}``, any of
        :data:`FIGURES` as whole numbers; those left out keep the figures that count now) become the
        figures that count, with ``reason`` (required) kept beside the figures before. Returns the
        table's row of :meth:`table_results`."""
        if not isinstance(reason, str) or not reason.strip() or len(reason.strip()) > MAX_REASON:
            raise ClubRefused("club.fix_reason", most=MAX_REASON)
        row = next((r for r in self.table_results() if r["round"] == round_number and r["table"] == table), None) if (
            isinstance(round_number, int) and not isinstance(round_number, bool)) else None
        if row is None:
            raise ClubRefused("club.fix_no_seating", 404, round=str(round_number)[:20], table=str(table)[:64])
        if not isinstance(figures, dict):
            raise ClubRefused("club.fix_figures", pair=row["ns"], field="levels_gained", value=None)
        after = {side: dict(row["figures"][side]) for side in ("ns", "ew")}
        for side in ("ns", "ew"):
            given = figures.get(side) or {}
            if not isinstance(given, dict):
                raise ClubRefused("club.fix_figures", pair=row[side], field="levels_gained", value=None)
            for key, value in given.items():
                if key not in FIGURES or not isinstance(value, int) or isinstance(value, bool) or abs(value) > 100_000:
                    raise ClubRefused("club.fix_figures", pair=row[side], field=str(key)[:20], value=str(value)[:20])
                after[side][key] = value
        with self._connection() as connection, connection.transaction():
            connection.execute(
                "INSERT INTO club_fixes (round_number, table_id, before, after, reason) VALUES "
                "(%s, (SELECT id FROM club_tables WHERE name = %s), %s, %s, %s)",
                (round_number, table, json.dumps(row["figures"]), json.dumps(after), reason.strip()))
            connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, json.dumps(
                {"round": round_number, "fixed": table}, ensure_ascii=False)))
        return next(r for r in self.table_results() if r["round"] == round_number and r["table"] == table)

    def standings(self, rule: str = "levels") -> list[dict[str, Any]]:
        from .results import standings

        self.end_due_rounds()  # a round by time past its end counts the deals finished by then
        return standings(self.results(), rule)

    # --- backup and restore -------------------------------------------------------------------------

    @_stale_retried
    def server_major(self) -> int:
        """The major version of the club's PostgreSQL (which client tools may dump it)."""
        with self._connection() as connection:
            return int(_one(connection.execute("SHOW server_version_num"))[0]) // 10000

    def backup(self) -> bytes:
        """The club's whole database as a ``pg_dump`` archive (:mod:`club.backup`)."""
        from .backup import backup

        return backup(self.dsn, self.server_major())

    def restore(self, archive: bytes) -> None:
        """Replace the club's database with a backup's (:mod:`club.backup`), then bring its schema up to
        date; this process forgets the copies it kept, and every page is told to read the club again."""
        from .backup import restore

        major = self.server_major()
        self.close()  # this thread's connection holds nothing the restore waits for
        restore(self.dsn, major, archive)
        with self._kept_lock:
            self._kept_sessions.clear()
        with self._connection() as connection:
            migrate(connection)
            with connection.transaction():
                connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, json.dumps({"restored": True, "round": 0})))

    # --- moving a table's SQLite sessions in ----------------------------------------------------

    def import_sqlite(self, name: str, sessions: Iterable[tuple[int, str, dict[str, Any]]]) -> int:
        """Push a table's stored sessions (``(local id, name, record)``, e.g. read from its
        ``tuolaji.sqlite``) as its next changes, one a session; returns how many were applied."""
        with self._connection() as connection:
            row = connection.execute("SELECT token, last_n FROM club_tables WHERE name = %s", (name,)).fetchone()
        if row is None:
            raise ClubRefused("club.no_table", 404, name=name)
        token, n = str(row[0]), int(row[1])
        if n > 0:  # its machine numbers the changes: those moved in would take its numbers and stall its feed
            raise ClubRefused("club.import_pushing", 409, name=name, n=n)
        changes = []
        for local_id, session_name, record in sessions:
            n += 1
            changes.append({"n": n, "session": local_id, "name": session_name, "record": record})
        applied = 0
        for start in range(0, len(changes), MAX_BATCH):
            applied += int(self.push(name, token, changes[start:start + MAX_BATCH])["applied"])
        return applied


def _command_body(kind: str, body: Any) -> dict[str, Any]:
    """A command's body, checked: one line for what is wrong."""
    if not isinstance(body, dict):
        raise ClubRefused("club.command_body")

    def whole(key: str, *, optional: bool = False) -> int | None:
        value = body.get(key)
        if value is None and optional:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ClubRefused("club.whole_number", kind=kind, field=key, value=value)
        return value

    if kind == "play":
        cards = body.get("cards")
        if not isinstance(cards, list) or not cards or not all(isinstance(c, str) for c in cards):
            raise ClubRefused("club.play_cards")
        try:
            canonical = [format_card(parse_card(card)) for card in cards]
        except InputError as exc:
            raise ClubRefused("club.play_card", error=exc) from None
        return {"seat": whole("seat"), "cards": canonical}
    if kind == "ruling":
        points, levels = whole("points", optional=True), whole("levels", optional=True)
        note = body.get("note")
        if note is not None and (not isinstance(note, str) or len(note) > 500):
            raise ClubRefused("club.ruling_note")
        return {"deal": whole("deal"), "violation": whole("violation"), "points": points or None,
                "levels": levels or None, "note": note}
    raise ClubRefused("club.unknown_command", kind=kind)


def _deals_played(connection: psycopg.Connection[Any], round_id: int) -> dict[str, int]:
    """Per table seated in round ``round_id``, the deals it has finished since the round started (its
    latest session's, less those before the round when it is the session the round started on)."""
    seatings = connection.execute(
        "SELECT t.name, s.session_id, s.first_deal, l.id, l.summary FROM club_seatings s "
        "JOIN club_tables t ON t.id = s.table_id LEFT JOIN LATERAL (SELECT id, summary FROM club_sessions "
        "WHERE table_id = s.table_id ORDER BY n DESC LIMIT 1) l ON true WHERE s.round_id = %s ORDER BY t.id",
        (round_id,)).fetchall()
    tables = {}
    for name, start_session, first_deal, session_id, summary_text in seatings:
        done = json.loads(summary_text).get("deals_done", 0) if summary_text else 0
        tables[str(name)] = max(0, done - (first_deal if session_id == start_session else 0))
    return tables


def _finished_deals(record: dict[str, Any]) -> int:
    """The deals of a record before its last one (the one under way, or the next one set up)."""
    from tuolaji.scorer import audit_record

    audit = audit_record(rules_record(record))
    return sum(1 for deal in audit["deals"] if deal.get("outcome") is not None)


def _one(cursor: psycopg.Cursor[Any]) -> Any:
    """The row of a statement that always returns one (an aggregate, ``INSERT … RETURNING``, a row
    of scalar subqueries, the setting written when the store was opened)."""
    row = cursor.fetchone()
    assert row is not None, "the statement returns one row"
    return row


def _name(name: Any, what: str) -> str:
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME:
        raise ClubRefused("club.name_length", what=what, most=MAX_NAME)
    try:
        return check_name(name, what)
    except BadNameError as exc:
        raise ClubRefused(exc.key, **exc.params) from None


def first_line(exc: BaseException) -> str:
    """The first line of an exception's words (PostgreSQL's may run on), or its class's name."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def read_sqlite_sessions(path: Path) -> list[tuple[int, str, dict[str, Any]]]:
    """Every session of a table's SQLite store (``data/tuolaji.sqlite``), oldest first, with its
    whole record: what :meth:`ClubStore.import_sqlite` moves into the club."""
    from tuolaji.web.store import SessionStore

    store = SessionStore(Path(path))
    return [(s.id, s.name, store.get(s.id).record) for s in sorted(store.list(), key=lambda s: s.id)]
