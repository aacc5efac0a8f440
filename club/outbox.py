"""A table's side of club mode: every change of its record, numbered, kept on disk until the
club has it (``tuolaji serve --club URL --table NAME``).

:class:`Outbox` is a small SQLite file beside the table's sessions (``club-outbox.sqlite``): each
saved change of a session becomes change ``n`` (1, 2, 3, … for the table, whatever the session),
holding what the club needs to move its copy of the session's record on: the journal's
:class:`~session.journal.Change` (its kind, params and the one deal it made, :meth:`Outbox.enqueue_change`),
or, for a session new to the club or mended, the session's whole record (:meth:`Outbox.enqueue`): a
change costs the same at the 30th deal as at the first. :class:`ClubPusher` sends the changes not yet
acknowledged, in order, in batches, to ``POST {club}/club/api/tables/{name}/changes``; the club
applies change ``n`` once (a change sent twice is absorbed), so a lost answer costs a resend and
nothing more. While the club or the network is down the table plays on: the changes wait in the
outbox, on disk, and leave when the club answers again. A change saved by the table but not yet
in the outbox when the machine stopped is found when it starts again (:meth:`Outbox.reconcile`:
each session's stored record is compared with the last one queued for it).

Refusals are one line in the log (a wrong token, a table the club does not know, a change the
club holds otherwise) and the pusher keeps the changes and tries again later. A club that holds
fewer changes than it acknowledged (restored from an older backup) is sent what it lacks: each
session's current record again, as the changes after its last (:meth:`Outbox.rewind`), found when
a push is refused as out of order or when an idle table asks (:meth:`ClubPusher.check_club`); a
club whose copy of a session does not hold what a change started from (a change skipped, say) is
sent each session's current record the same way.

>>> import tempfile, pathlib
>>> outbox = Outbox(pathlib.Path(tempfile.mkdtemp()) / "club-outbox.sqlite")
>>> record = {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": ["东", "南", "西", "北"], "deals": []}
>>> outbox.enqueue(1, "周五", record), outbox.enqueue(1, "周五", record)   # the same record again: no change
(1, None)
>>> [change["n"] for change in outbox.pending()]
[1]
>>> outbox.ack(1); outbox.pending()
[]
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

from tuolaji.scorer.names import clean_name
from tuolaji.session.journal import Change, record_text, text_digest

log = logging.getLogger("tuolaji.club")

OUTBOX_NAME = "club-outbox.sqlite"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS changes (
    n INTEGER PRIMARY KEY,
    session INTEGER NOT NULL,
    name TEXT NOT NULL,
    record TEXT NOT NULL,
    change TEXT
);
CREATE TABLE IF NOT EXISTS last (
    session INTEGER PRIMARY KEY,
    digest TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS commands (
    id INTEGER PRIMARY KEY,
    digest TEXT NOT NULL,
    verdict TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS held (
    n INTEGER PRIMARY KEY,
    reason TEXT NOT NULL
);
"""

KEPT_COMMANDS = 1000
"""The commands applied whose verdicts are kept (what a club restored from a backup asks again is not applied twice)."""


def _digest(name: str, record_text: str) -> str:
    return hashlib.sha256(f"{name}\n{record_text}".encode()).hexdigest()


class Outbox:
    """The table's numbered changes not yet acknowledged by the club, in a SQLite file."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        with self._connect() as connection:
            connection.execute("PRAGMA journal_mode=WAL")
            connection.executescript(_SCHEMA)
            if "change" not in {row[1] for row in connection.execute("PRAGMA table_info(changes)")}:
                connection.execute("ALTER TABLE changes ADD COLUMN change TEXT")  # an outbox of an earlier version
            connection.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('acked', 0), ('last_n', 0), "
                               "('command', 0)")

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        connection = sqlite3.connect(self.path, timeout=30.0)
        try:
            connection.execute("PRAGMA synchronous=FULL")
            with connection:
                yield connection
        finally:
            connection.close()

    def enqueue(self, session: int, name: str, record: dict[str, Any]) -> int | None:
        """Queue a session's record after a change as the table's next change; returns its number
        (None when the session's last queued record is this one: nothing changed). The name goes as
        the names' rule has it (:func:`scorer.names.clean_name`: one stored before the rule holds
        no character the club cannot keep)."""
        name = clean_name(name)
        text = record_text(record)
        digest = _digest(name, text)
        with self._lock, self._connect() as connection:
            row = connection.execute("SELECT digest FROM last WHERE session = ?", (session,)).fetchone()
            if row is not None and row[0] == digest:
                return None
            n = int(connection.execute("SELECT value FROM meta WHERE key = 'last_n'").fetchone()[0]) + 1
            connection.execute("INSERT INTO changes (n, session, name, record) VALUES (?, ?, ?, ?)",
                               (n, session, name, text))
            connection.execute("INSERT OR REPLACE INTO last (session, digest) VALUES (?, ?)", (session, digest))
            connection.execute("UPDATE meta SET value = ? WHERE key = 'last_n'", (n,))
        return n

    def enqueue_change(self, session: int, name: str, change: Change, record: dict[str, Any]) -> int:
        """Queue one change of a session's record (``record``: the record after it, whose fingerprint
        :meth:`reconcile` compares and the club's copy must hold once moved on) as the table's next
        change, carrying the change alone (its ``record`` column empty); returns its number."""
        name = clean_name(name)
        record_json = record_text(record)
        text = json.dumps(change.to_json(made=text_digest(record_json)), ensure_ascii=False, separators=(",", ":"))
        digest = _digest(name, record_json)
        with self._lock, self._connect() as connection:
            n = int(connection.execute("SELECT value FROM meta WHERE key = 'last_n'").fetchone()[0]) + 1
            connection.execute("INSERT INTO changes (n, session, name, record, change) VALUES (?, ?, ?, '', ?)",
                               (n, session, name, text))
            connection.execute("INSERT OR REPLACE INTO last (session, digest) VALUES (?, ?)", (session, digest))
            connection.execute("UPDATE meta SET value = ? WHERE key = 'last_n'", (n,))
        return n

    def reconcile(self, sessions: Iterable[tuple[int, str, dict[str, Any]]]) -> int:
        """Queue every session whose stored record is not the one last queued for it (a change saved
        just before the machine stopped); returns how many were queued."""
        return sum(1 for session, name, record in sessions if self.enqueue(session, name, record) is not None)

    def pending(self, limit: int = 100, max_bytes: int = 4 * 1024 * 1024) -> list[dict[str, Any]]:
        """The changes not yet acknowledged, oldest first: at most ``limit`` and about ``max_bytes``
        (always at least one)."""
        with self._connect() as connection:
            acked = self._acked(connection)
            rows = connection.execute("SELECT n, session, name, record, change FROM changes WHERE n > ? ORDER BY n "
                                      "LIMIT ?", (acked, limit)).fetchall()
        out: list[dict[str, Any]] = []
        size = 0
        for n, session, name, text, change in rows:
            size += len(change or text)
            if out and size > max_bytes:
                break
            body = {"change": json.loads(change)} if change is not None else {"record": json.loads(text)}
            out.append({"n": n, "session": session, "name": name} | body)
        return out

    def _acked(self, connection: sqlite3.Connection) -> int:
        return int(connection.execute("SELECT value FROM meta WHERE key = 'acked'").fetchone()[0])

    @property
    def acked(self) -> int:
        """The last change the club acknowledged."""
        with self._connect() as connection:
            return self._acked(connection)

    @property
    def last_n(self) -> int:
        """The last change queued."""
        with self._connect() as connection:
            return int(connection.execute("SELECT value FROM meta WHERE key = 'last_n'").fetchone()[0])

    def ack(self, through: int) -> None:
        """The club holds every change up to ``through``: they leave the outbox."""
        with self._lock, self._connect() as connection:
            through = min(through, int(connection.execute("SELECT value FROM meta WHERE key = 'last_n'").fetchone()[0]))
            if through <= self._acked(connection):
                return
            connection.execute("UPDATE meta SET value = ? WHERE key = 'acked'", (through,))
            connection.execute("DELETE FROM changes WHERE n <= ?", (through,))
            connection.execute("DELETE FROM held WHERE n <= ?", (through,))

    @property
    def held(self) -> tuple[int, str] | None:
        """The change the club refused to store and why (``(n, reason)``): none is sent until it is
        mended (:meth:`skip`, :meth:`resend`)."""
        with self._connect() as connection:
            row = connection.execute("SELECT n, reason FROM held ORDER BY n LIMIT 1").fetchone()
        return (int(row[0]), str(row[1])) if row is not None else None

    def hold(self, n: int, reason: str) -> None:
        """The club refused change ``n`` as one it cannot store: it waits, with its reason, for a person."""
        with self._lock, self._connect() as connection:
            connection.execute("INSERT OR REPLACE INTO held (n, reason) VALUES (?, ?)", (n, reason[:500]))

    def skip(self, n: int) -> None:
        """Drop the held change ``n``; the changes after it move up one (the club numbers them without a
        gap). A later change of its session then no longer fits the club's copy, which asks for the
        session's whole record (:meth:`resend`)."""
        with self._lock, self._connect() as connection:
            if connection.execute("SELECT 1 FROM held WHERE n = ?", (n,)).fetchone() is None:
                raise ValueError(f"change {n} is not held")
            later = connection.execute("SELECT n, session, name, record, change FROM changes WHERE n > ? ORDER BY n",
                                       (n,)).fetchall()
            connection.execute("DELETE FROM changes WHERE n >= ?", (n,))
            connection.executemany("INSERT INTO changes (n, session, name, record, change) VALUES (?, ?, ?, ?, ?)",
                                   [(number - 1, *rest) for number, *rest in later])
            connection.execute("UPDATE meta SET value = value - 1 WHERE key = 'last_n'")
            connection.execute("DELETE FROM held")

    def resend(self, sessions: Callable[[], Iterable[tuple[int, str, dict[str, Any]]]]) -> int:
        """Mend a held change: every change not yet acknowledged is replaced by each session's current
        record (its name as the rule has it), sent as the changes after the club's last. Returns how
        many were queued."""
        with self._lock, self._connect() as connection:
            queued = self._requeue(connection, self._acked(connection), sessions)
            connection.execute("DELETE FROM held")
        return queued


    def rewind(self, through: int, sessions: Callable[[], Iterable[tuple[int, str, dict[str, Any]]]]) -> int:
        """The club holds the changes through ``through`` only, fewer than it acknowledged (restored
        from an older backup): every change after it is dropped here, and each session's current
        record (``sessions()``: the table's sessions, the one changed last at the end) is queued
        again as the changes from ``through + 1``: a change holds its session's whole record, so
        this is all the club lacks, whatever the lost changes were. The club's commands are asked
        for from the first again (its numbering restarts from its backup's): one this table applied
        already is answered with the verdict it gave (:meth:`verdict`), not applied twice. Returns
        how many changes were queued."""
        with self._lock, self._connect() as connection:
            queued = self._requeue(connection, through, sessions)
            # the restored club numbers its commands again from its backup's: every one not done is
            # asked for, and one this table applied already is answered with its kept verdict
            connection.execute("UPDATE meta SET value = 0 WHERE key = 'command'")
        return queued

    @staticmethod
    def _requeue(connection: sqlite3.Connection, through: int,
                 sessions: Callable[[], Iterable[tuple[int, str, dict[str, Any]]]]) -> int:
        """Every change after ``through`` replaced by each session's current record (the one changed
        last at the end), as the changes from ``through + 1``; the club acknowledged ``through``."""
        # read under the lock: a save that lands meanwhile is queued after these, as a later change
        current = [(session, clean_name(name), record_text(record))
                   for session, name, record in sessions()]
        connection.execute("DELETE FROM changes WHERE n > ?", (through,))
        connection.execute("DELETE FROM last")
        connection.execute("DELETE FROM held WHERE n > ?", (through,))
        for n, (session, name, text) in enumerate(current, start=through + 1):
            connection.execute("INSERT INTO changes (n, session, name, record) VALUES (?, ?, ?, ?)",
                               (n, session, name, text))
            connection.execute("INSERT OR REPLACE INTO last (session, digest) VALUES (?, ?)",
                               (session, _digest(name, text)))
        connection.execute("UPDATE meta SET value = ? WHERE key = 'acked'", (through,))
        connection.execute("UPDATE meta SET value = ? WHERE key = 'last_n'", (through + len(current),))
        return len(current)

    @property
    def command(self) -> int:
        """The last command from the club this table applied (or refused)."""
        with self._connect() as connection:
            return int(connection.execute("SELECT value FROM meta WHERE key = 'command'").fetchone()[0])

    def command_done(self, command_id: int, command: Command | None = None, verdict: Any = None) -> None:
        """The table applied (or refused) command ``command_id``: its verdict is kept, by the command's
        id and content (:meth:`verdict`)."""
        with self._lock, self._connect() as connection:
            connection.execute("UPDATE meta SET value = max(value, ?) WHERE key = 'command'", (command_id,))
            if command is not None:
                connection.execute("INSERT OR REPLACE INTO commands (id, digest, verdict) VALUES (?, ?, ?)",
                                   (command_id, _command_digest(command), json.dumps(verdict, ensure_ascii=False)))
                connection.execute("DELETE FROM commands WHERE id <= ?", (command_id - KEPT_COMMANDS,))

    def verdict(self, command: Command) -> Any:
        """The verdict this table gave the same command (its id and content) before, else None."""
        with self._connect() as connection:
            row = connection.execute("SELECT digest, verdict FROM commands WHERE id = ?",
                                     (int(command["id"]),)).fetchone()
        return json.loads(row[1]) if row is not None and row[0] == _command_digest(command) else None


def _command_digest(command: Command) -> str:
    text = json.dumps([command.get("kind"), command.get("body")], ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


Command = dict[str, Any]
"""A command from the club: ``{"id", "kind": "play" | "ruling" | a 只记分 entry's (``web.points_entry.ENTRIES``), "body"}``."""


class ClubPusher:
    """Sends an :class:`Outbox` to the club in a background thread: at once after each change
    (:meth:`wake`), again and again while the club is away (``retry_s`` up to ``max_retry_s``)."""

    def __init__(self, outbox: Outbox, club_url: str, table: str, token: str, *, timeout_s: float = 10.0,
                 retry_s: float = 0.2, max_retry_s: float = 5.0, batch: int = 100,
                 on_state: Callable[[str], None] | None = None,
                 on_command: Callable[[Command], str | dict[str, Any]] | None = None,
                 command_poll_s: float = 1.0,
                 sessions: Callable[[], Iterable[tuple[int, str, dict[str, Any]]]] | None = None,
                 check_s: float = 30.0) -> None:
        self.outbox = outbox
        self.url = f"{club_url.rstrip('/')}/club/api/tables/{quote(table, safe='')}/changes"
        self.table = table
        self.token = token
        self.timeout_s = timeout_s
        self.retry_s = retry_s
        self.max_retry_s = max_retry_s
        self.batch = batch
        self.on_state = on_state
        self.on_command = on_command
        self.command_poll_s = command_poll_s
        self.sessions = sessions  # the table's sessions now: what a club that lost changes is sent again
        self.check_s = check_s  # how often an idle table asks the club what it holds (check_club)
        self._next_check = 0.0
        self._one_by_one = False  # a batch refused as too large: the changes go one a push
        self._commands_url = self.url.rsplit("/changes", 1)[0] + "/commands"
        self._next_poll = 0.0
        self.state = "starting"  # "up": all sent; "sending"; "offline": the club is away; "refused": see last_error;
        # "held": the club cannot store a change (Outbox.held): none is sent until a person skips or resends it
        self.last_error: str | None = None
        self.seating: dict[str, Any] | None = None  # where the club seats this table's players now (take_commands)
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tuolaji-club-push", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def wake(self) -> None:
        self._wake.set()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout)

    def flush(self, timeout: float = 30.0) -> bool:
        """Wait until every queued change is acknowledged (or ``timeout``); whether they all are."""
        deadline = time.monotonic() + timeout
        self.wake()
        while time.monotonic() < deadline:
            if self.outbox.acked >= self.outbox.last_n:
                return True
            time.sleep(0.02)
        return self.outbox.acked >= self.outbox.last_n

    def _set(self, state: str, error: str | None = None) -> None:
        if error is not None and error != self.last_error:
            log.warning("club %s, table %s: %s", self.url.split("/club/api/")[0], self.table, error)
        if state == "up" and self.state != "up":  # the table's console says when the club takes its changes
            log.info("club %s, table %s: reached; it holds the table's changes up to %d", self.url.split("/club/api/")[0],
                     self.table, self.outbox.acked)
        self.last_error = error
        if state != self.state:
            self.state = state
            if self.on_state is not None:
                self.on_state(state)

    def status(self) -> dict[str, Any]:
        """What the table's page says of the club: the state, its last line, the changes waiting, the
        change held (``{"n", "reason"}``) the club refused to store, and the round's seating of the table."""
        held = self.outbox.held
        return {"state": self.state, "error": self.last_error, "waiting": self.outbox.last_n - self.outbox.acked,
                "held": {"n": held[0], "reason": held[1]} if held is not None else None, "seating": self.seating}

    def skip(self) -> int:
        """Drop the change held (the club refused to store it); returns its number."""
        held = self.outbox.held
        if held is None:
            raise LookupError("no change is held")
        self.outbox.skip(held[0])
        log.warning("club %s, table %s: change %d skipped (%s)", self.url.split("/club/api/")[0], self.table,
                    held[0], held[1])
        if not self.outbox.pending(1):  # nothing after it: an empty push tells the club the line is mended
            try:
                self._call(self.url, {"table": self.table, "changes": []})
            except (urllib.error.URLError, OSError, ValueError):
                pass  # the club away: its line clears with the table's next change
        self._set("sending")
        self.wake()
        return held[0]

    def resend(self) -> int:
        """Mend the change held: the changes waiting are replaced by each session's current record
        (:meth:`Outbox.resend`); returns how many are queued."""
        if self.outbox.held is None or self.sessions is None:
            raise LookupError("no change is held")
        queued = self.outbox.resend(self.sessions)
        self._set("sending")
        self.wake()
        return queued

    def _run(self) -> None:
        delay = self.retry_s
        while not self._stop.is_set():
            if self.on_command is not None and time.monotonic() >= self._next_poll:
                self._next_poll = time.monotonic() + self.command_poll_s
                self.take_commands()
            held = self.outbox.held
            if held is not None:  # refused for good: sent again only once a person mends it
                self._set("held", f"the club refused change {held[0]}: {held[1]}")
                self._wake.wait(min(1.0, self.command_poll_s))
                self._wake.clear()
                continue
            changes = self.outbox.pending(1 if self._one_by_one else self.batch)
            if not changes and self.sessions is not None and time.monotonic() >= self._next_check:
                self._next_check = time.monotonic() + self.check_s
                if self.check_club():
                    continue
            if not changes:
                self._set("up")
                self._wake.wait(min(1.0, self.command_poll_s))
                self._wake.clear()
                continue
            sent = self.send(changes)
            if sent:
                delay = self.retry_s
                continue
            self._stop.wait(delay)
            delay = min(self.max_retry_s, delay * 2)

    def _call(self, url: str, body: dict[str, Any] | None = None) -> Any:
        request = urllib.request.Request(url, data=None if body is None else json.dumps(body).encode("utf-8"),
                                         method="GET" if body is None else "POST", headers={
                                             "Content-Type": "application/json", "Authorization": f"Bearer {self.token}"})
        with urllib.request.urlopen(request, timeout=self.timeout_s) as response:
            return json.loads(response.read() or b"{}")

    def check_club(self) -> bool:
        """Ask the club which changes it holds; where it lost some it had acknowledged (restored from
        an older backup), queue what it lacks (:meth:`Outbox.rewind`). Whether anything was queued."""
        assert self.sessions is not None
        try:
            through = int(self._call(self.url)["applied_through"])
        except (urllib.error.URLError, OSError, ValueError, KeyError, TypeError):
            return False  # the club away or refusing: the next push says why
        return self._behind(through, self.outbox.acked + 1)

    def _behind(self, through: int, first: int) -> bool:
        """The club holds changes through ``through``, fewer than the table's acknowledged ones before
        change ``first``: each session's current record is queued again after ``through``."""
        if self.sessions is None or through >= self.outbox.acked:
            return False
        queued = self.outbox.rewind(through, self.sessions)
        log.warning("club %s, table %s: the club holds changes through %d, it had acknowledged %d (restored from "
                    "a backup?): each session's current record is sent again as changes %d to %d",
                    self.url.split("/club/api/")[0], self.table, through, first - 1, through + 1, through + queued)
        self.wake()
        return True

    def take_commands(self) -> int:
        """Apply the club's commands for this table (plays entered at the club, rulings) through
        ``on_command``, in order, each once, and keep where the club seats its players (:attr:`seating`);
        returns how many were taken. The club away: none."""
        assert self.on_command is not None
        taken = 0
        try:
            answer = self._call(f"{self._commands_url}?after={self.outbox.command}")
            self._seat(answer.get("seating"))
            for command in answer["commands"]:
                verdict = self.outbox.verdict(command)  # applied before, its done lost with the club's data
                if verdict is None:
                    verdict = self.on_command(command)  # its one line, or {"result": line, "message": {"zh", "en"}}
                self.outbox.command_done(int(command["id"]), command, verdict)
                self._call(f"{self._commands_url}/{int(command['id'])}/done",
                           verdict if isinstance(verdict, dict) else {"result": verdict})
                taken += 1
        except urllib.error.HTTPError as exc:
            try:
                line = str(json.loads(exc.read() or b"{}").get("error") or f"HTTP {exc.code}")
            except ValueError:
                line = f"HTTP {exc.code}"
            if exc.code < 500:
                self._set("refused", line)
        except (urllib.error.URLError, OSError, ValueError, KeyError):
            pass  # the club away: the commands wait there, and the changes say why (send)
        if taken:
            self.wake()  # the changes the commands made
        return taken

    def _seat(self, seating: Any) -> None:
        """The club's seating of this table as it asks for its commands: a new one (a round started or
        ended) is the page's news (``on_state``), the table's players set from it there."""
        seating = seating if isinstance(seating, dict) else None
        if seating != self.seating:
            self.seating = seating
            if self.on_state is not None:
                self.on_state(self.state)

    def send(self, changes: list[dict[str, Any]]) -> bool:
        """One push of ``changes``; whether the club answered it (acknowledged, or said what it holds)."""
        self._set("sending")
        body = json.dumps({"table": self.table, "changes": changes}, ensure_ascii=False).encode("utf-8")
        request = urllib.request.Request(self.url, data=body, method="POST", headers={
            "Content-Type": "application/json", "Authorization": f"Bearer {self.token}"})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout_s) as response:
                answer = json.loads(response.read() or b"{}")
            self.outbox.ack(int(answer["applied_through"]))
            self._one_by_one = False
            return True
        except urllib.error.HTTPError as exc:
            try:
                answer = json.loads(exc.read(64 * 1024) or b"{}")
            except ValueError:
                answer = {}
            if not isinstance(answer, dict):
                answer = {}
            line = str(answer.get("error") or f"HTTP {exc.code}")
            if exc.code == 422 and isinstance(answer.get("applied_through"), int):
                self.outbox.ack(int(answer["applied_through"]))  # those before the one refused
            if exc.code == 413 and len(changes) > 1:
                self._one_by_one = True  # each alone, and the one too large is held
                return False
            held = answer.get("n") if exc.code == 422 else changes[0]["n"] if exc.code == 413 else None
            if isinstance(held, int) and not isinstance(held, bool):
                self.outbox.hold(held, line)  # sent again and again, it would be refused again and again
                self._set("held", f"the club refused change {held}: {line}")
                return False
            if exc.code == 409 and answer.get("resend") is True and self.sessions is not None:
                # the club's copy of a session does not hold what a change started from: whole records mend it
                self.outbox.ack(int(answer.get("applied_through") or 0))
                queued = self.outbox.resend(self.sessions)
                log.warning("club %s, table %s: %s; each session's current record is sent again (%d changes)",
                            self.url.split("/club/api/")[0], self.table, line, queued)
                return True
            if exc.code == 409 and isinstance(answer.get("applied_through"), int):
                through = int(answer["applied_through"])
                if through >= changes[0]["n"] - 1 and "differs" not in line:
                    self.outbox.ack(through)  # the club holds these already: the rest follow
                    return through >= int(changes[0]["n"])
                if self._behind(through, changes[0]["n"]):  # the club lost changes it had acknowledged
                    return True
            self._set("offline" if exc.code >= 500 else "refused", line)
            return False
        except (urllib.error.URLError, OSError, ValueError, KeyError) as exc:
            reason = getattr(exc, "reason", exc)
            self._set("offline", f"the club cannot be reached ({reason}); the table keeps playing, "
                      f"{self.outbox.last_n - self.outbox.acked} changes wait")
            return False
