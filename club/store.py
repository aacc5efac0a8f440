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

The store is one object, :class:`ClubStore`, made of parts by responsibility, each on the same
:class:`~club.database.ClubDatabase` (a connection a thread): :class:`~club.tables.ClubTables` (the
tables, their tokens and the organiser's), :class:`TableChanges` (here: the changes the tables push,
applied to the club's copies), :class:`~club.records.TableRecords` (what they pushed, read),
:class:`~club.command_queue.CommandQueue` (the commands queued for a table's machine),
:class:`~club.pairs.ClubPairs` (the players, the pairs and their seats), :class:`~club.rounds.ClubRounds`
(the rounds) and :class:`~club.round_results.RoundResults` (the results, their fixes, the standings).

Each thread keeps its own connection; a connection lost (PostgreSQL restarted, the network)
is dropped and the call raises :class:`ClubDatabaseDown`, one line; the next call connects again.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg

from tuolaji.scorer import AuditRun, validate_record
from tuolaji.scorer.errors import InputError
from tuolaji.scorer.names import BadNameError, check_name
from tuolaji.session.changes import rules_record
from tuolaji.session.commands import validate_deal
from tuolaji.session.journal import Change as JournalChange
from tuolaji.session.journal import record_text as json_text
from tuolaji.session.journal import text_digest

from .command_queue import HEARD_EVERY_S, CommandQueue
from .database import CHANNEL, ClubDatabase, one_row, stale_retried
from .errors import ClubDatabaseDown, ClubRefused, first_line
from .migrations import migrate
from .pairs import ClubPairs
from .records import TableRecords
from .results import summary_and_run
from .round_results import FIGURES, MAX_REASON, RoundResults
from .rounds import MAX_ROUND_MINUTES, ClubRounds
from .tables import OFFLINE_AFTER_S, ClubTables

__all__ = ["CHANNEL", "FIGURES", "HEARD_EVERY_S", "KEPT_SESSIONS", "MAX_BATCH", "MAX_REASON", "MAX_ROUND_MINUTES",
           "OFFLINE_AFTER_S", "Change", "ClubDatabaseDown", "ClubRefused", "ClubStore", "KeptSession", "TableChanges",
           "first_line", "read_sqlite_sessions"]

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


class TableChanges:
    """The numbered changes the tables push, applied to the club's copies of their sessions' records;
    the copies and audit runs this process keeps (:class:`KeptSession`)."""

    def __init__(self, db: ClubDatabase, tables: ClubTables) -> None:
        self.db = db
        self.tables = tables
        self._kept_sessions: dict[tuple[int, int], KeptSession] = {}  # by (table, session), the newest last
        self._kept_lock = threading.Lock()

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

    @stale_retried
    def push(self, name: str, token: str | None, changes: Iterable[Any]) -> dict[str, Any]:
        """Apply a table's numbered changes, in order: returns ``applied_through`` (the table's last
        change now), how many were ``applied`` and how many were ``duplicates`` (absorbed). Raises
        :class:`ClubRefused`: a wrong token (403), an unknown table (404), a change out of order
        (409, after applying those before it, with ``expected``), the same number with another
        change (409)."""
        values = list(changes)
        if len(values) > MAX_BATCH:
            raise ClubRefused("club.batch", 413, most=MAX_BATCH, got=len(values))
        self.tables.check_table_token(name, token)  # before anything of the body is looked at: a wrong token costs nothing
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
        with self.db.connection() as connection, connection.transaction():
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
                        session_id = one_row(connection.execute(
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

    def forget(self) -> None:
        """Forget the copies this process kept (the database was replaced: a backup restored)."""
        with self._kept_lock:
            self._kept_sessions.clear()

    def import_sqlite(self, name: str, sessions: Iterable[tuple[int, str, dict[str, Any]]]) -> int:
        """Push a table's stored sessions (``(local id, name, record)``, e.g. read from its
        ``tuolaji.sqlite``) as its next changes, one a session; returns how many were applied."""
        with self.db.connection() as connection:
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


class ClubStore:
    """The club's database at ``dsn`` (a ``postgresql://`` address); migrated when opened. One object
    for its callers, each call handed to the part that does it (the module's docstring)."""

    def __init__(self, dsn: str, *, connect_timeout_s: int = 3) -> None:
        self.db = ClubDatabase(dsn, connect_timeout_s=connect_timeout_s)
        self._tables = ClubTables(self.db)
        self._changes = TableChanges(self.db, self._tables)
        self._records = TableRecords(self.db)
        self._commands = CommandQueue(self.db)
        self._pairs = ClubPairs(self.db)
        self._rounds = ClubRounds(self.db, self._tables, self._pairs, self.standings)
        self._results = RoundResults(self.db, self._rounds.end_due_rounds)
        with self.db.connection() as connection:
            migrate(connection)
            with connection.transaction():
                connection.execute("INSERT INTO club_settings (key, value) VALUES ('organiser_token', %s) "
                                   "ON CONFLICT (key) DO NOTHING", (secrets.token_urlsafe(18),))

    @property
    def dsn(self) -> str:
        return self.db.dsn

    @property
    def connect_timeout_s(self) -> int:
        return self.db.connect_timeout_s

    # --- connections (club.database) -----------------------------------------------------------

    def connect(self, *, autocommit: bool = False) -> psycopg.Connection[Any]:
        return self.db.connect(autocommit=autocommit)

    def close(self) -> None:
        self.db.close()

    def ping(self) -> bool:
        return self.db.ping()

    # --- tables (club.tables) ----------------------------------------------------------------------

    def organiser_token(self) -> str:
        return self._tables.organiser_token()

    def is_organiser(self, token: str | None) -> bool:
        return self._tables.is_organiser(token)

    def add_table(self, name: str) -> str:
        return self._tables.add_table(name)

    def table_tokens(self) -> list[tuple[str, str]]:
        return self._tables.table_tokens()

    def table_token_ok(self, name: str, token: str | None) -> bool:
        return self._tables.table_token_ok(name, token)

    def check_table_token(self, name: str, token: str | None) -> None:
        self._tables.check_table_token(name, token)

    def table_names(self) -> list[str]:
        return self._tables.table_names()

    def last_n(self, name: str) -> int:
        return self._tables.last_n(name)

    # --- the changes (TableChanges) and what they made (club.records) -----------------------------

    def push(self, name: str, token: str | None, changes: Iterable[Any]) -> dict[str, Any]:
        return self._changes.push(name, token, changes)

    def import_sqlite(self, name: str, sessions: Iterable[tuple[int, str, dict[str, Any]]]) -> int:
        return self._changes.import_sqlite(name, sessions)

    def overview(self) -> list[dict[str, Any]]:
        return self._records.overview()

    def table_overview(self, name: str) -> dict[str, Any]:
        return self._records.table_overview(name)

    def sessions(self, name: str) -> list[dict[str, Any]]:
        return self._records.sessions(name)

    def record(self, name: str, session: int | None = None) -> dict[str, Any]:
        return self._records.record(name, session)

    def latest_session(self, name: str, *, with_record: bool = False) -> dict[str, Any] | None:
        return self._records.latest_session(name, with_record=with_record)

    def change_numbers(self, name: str) -> list[int]:
        return self._records.change_numbers(name)

    # --- commands (club.command_queue) -------------------------------------------------------------

    def add_command(self, name: str, kind: str, body: dict[str, Any]) -> int:
        return self._commands.add_command(name, kind, body)

    def commands(self, name: str, token: str | None, after: int = 0) -> list[dict[str, Any]]:
        return self._commands.commands(name, token, after)

    def command_done(self, name: str, token: str | None, command_id: int, result: str,
                     message: dict[str, str] | None = None, status: int | None = None) -> None:
        self._commands.command_done(name, token, command_id, result, message, status)

    def command(self, name: str, command_id: int) -> dict[str, Any]:
        return self._commands.command(name, command_id)

    # --- players, pairs and their seats (club.pairs) -------------------------------------------------

    def add_player(self, name: str) -> int:
        return self._pairs.add_player(name)

    def add_pair(self, name: str, player_a: str, player_b: str) -> int:
        return self._pairs.add_pair(name, player_a, player_b)

    def add_pairs(self, pairs: Iterable[tuple[str, str, str]]) -> list[int]:
        return self._pairs.add_pairs(pairs)

    def pairs(self) -> list[dict[str, Any]]:
        return self._pairs.pairs()

    def move_pair(self, pair: Any, table: Any, side: Any) -> dict[str, Any]:
        return self._pairs.move_pair(pair, table, side)

    def current_seatings(self, name: str | None = None) -> dict[str, dict[str, Any]]:
        return self._pairs.current_seatings(name)

    # --- rounds (club.rounds) -------------------------------------------------------------------

    def start_round(self, *, seating: str = "hand", tables: list[dict[str, str]] | None = None,
                    ends_by: str = "deals", deals: int | None = 2, minutes: int | None = None,
                    rule: str = "levels", seed: int | None = None, ends_itself: bool = False) -> dict[str, Any]:
        return self._rounds.start_round(seating=seating, tables=tables, ends_by=ends_by, deals=deals,
                                        minutes=minutes, rule=rule, seed=seed, ends_itself=ends_itself)

    def end_round(self) -> int:
        return self._rounds.end_round()

    def end_due_rounds(self) -> list[int]:
        return self._rounds.end_due_rounds()

    def ended_how(self, number: int) -> str | None:
        return self._rounds.ended_how(number)

    def current_round(self) -> dict[str, Any] | None:
        return self._rounds.current_round()

    def last_round(self) -> dict[str, Any] | None:
        return self._rounds.last_round()

    def rounds(self) -> list[dict[str, Any]]:
        return self._rounds.rounds()

    # --- results, fixes, standings (club.round_results) ---------------------------------------------

    def table_results(self) -> list[dict[str, Any]]:
        return self._results.table_results()

    def results(self) -> list[dict[str, Any]]:
        return self._results.results()

    def fix_result(self, round_number: Any, table: Any, figures: Any, reason: Any) -> dict[str, Any]:
        return self._results.fix_result(round_number, table, figures, reason)

    def standings(self, rule: str = "levels") -> list[dict[str, Any]]:
        return self._results.standings(rule)

    # --- backup and restore (club.backup) -----------------------------------------------------------

    @stale_retried
    def server_major(self) -> int:
        """The major version of the club's PostgreSQL (which client tools may dump it)."""
        with self.db.connection() as connection:
            return int(one_row(connection.execute("SHOW server_version_num"))[0]) // 10000

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
        self._changes.forget()
        with self.db.connection() as connection:
            migrate(connection)
            with connection.transaction():
                connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, json.dumps({"restored": True, "round": 0})))


def read_sqlite_sessions(path: Path) -> list[tuple[int, str, dict[str, Any]]]:
    """Every session of a table's SQLite store (``data/tuolaji.sqlite``), oldest first, with its
    whole record: what :meth:`ClubStore.import_sqlite` moves into the club."""
    from tuolaji.web.store import SessionStore

    store = SessionStore(Path(path))
    return [(s.id, s.name, store.get(s.id).record) for s in sorted(store.list(), key=lambda s: s.id)]
