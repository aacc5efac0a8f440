"""``tuolaji serve --club URL --table NAME``: every save of the table's sessions also goes to the
club (through :class:`club.outbox.Outbox`, then :class:`~club.outbox.ClubPusher`).

:func:`attach_club` wraps the table's :class:`~web.store.SessionStore`: a session created or renamed
is queued whole as the table's next numbered change, and every change a session's live game saves
(:attr:`web.table.Table.on_saved`: the journal's :class:`~session.journal.Change`) is queued as
itself, once the table has stored it (so the club never holds a change the table does not); the
pusher is woken. The sessions stored before (or
saved just before a stop) are queued at start (:meth:`~club.outbox.Outbox.reconcile`).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from pathlib import Path
from typing import Any

from tuolaji.scorer.errors import InputError
from tuolaji.session.changes import RefusedError
from tuolaji.session.commands import Play, Rule
from tuolaji.session.events import StateChanged
from tuolaji.session.journal import Change
from tuolaji.web.errors import status_of
from tuolaji.web.explain import describe_error, describe_violation
from tuolaji.web.points_entry import ENTRIES
from tuolaji.web.store import SessionStore
from tuolaji.web.table import Table

from .outbox import OUTBOX_NAME, ClubPusher, Command, Outbox

log = logging.getLogger("tuolaji.club")


class PushingStore:
    """A :class:`SessionStore` whose creates and renames also enter the club's outbox whole, and whose
    sessions' saved changes (:meth:`changed`) enter it as changes; everything else is the store's own."""

    def __init__(self, store: SessionStore, outbox: Outbox, pusher: ClubPusher | None = None) -> None:
        self._store = store
        self.outbox = outbox
        self.pusher = pusher
        self._names: dict[int, str] = {}
        self._lock = threading.Lock()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def _name(self, session_id: int) -> str:
        with self._lock:
            if session_id not in self._names:
                self._names.update({s.id: s.name for s in self._store.list()})
            return self._names.get(session_id, "")

    def _queued(self, session_id: int, record: dict[str, Any]) -> None:
        try:
            self.outbox.enqueue(session_id, self._name(session_id), record)
        except (sqlite3.Error, OSError) as exc:
            # the change is saved at the table: a restart queues whatever the outbox lacks (Outbox.reconcile)
            log.error("club outbox %s: change of session %d not queued (%s)", self.outbox.path, session_id, exc)
        if self.pusher is not None:
            self.pusher.wake()

    def create(self, record: dict[str, Any], *, name: str, source: str) -> int:
        session_id = self._store.create(record, name=name, source=source)
        with self._lock:
            self._names[session_id] = name
        self._queued(session_id, record)
        return session_id

    def changed(self, session_id: int, change: Change, record: dict[str, Any]) -> None:
        """A change of a session's game, saved by the table (``record``: the record after it)."""
        try:
            self.outbox.enqueue_change(session_id, self._name(session_id), change, record)
        except (sqlite3.Error, OSError) as exc:
            # saved at the table: the session's next change no longer fits the club's copy, which then asks
            # for the whole record (ClubPusher.send), as a restart queues it (Outbox.reconcile)
            log.error("club outbox %s: change of session %d not queued (%s)", self.outbox.path, session_id, exc)
        if self.pusher is not None:
            self.pusher.wake()

    def rename(self, session_id: int, name: str) -> None:
        self._store.rename(session_id, name)
        with self._lock:
            self._names[session_id] = name
        self._queued(session_id, self._store.get(session_id).record)


def apply_command(table: Table, command: Command) -> str:
    """Apply a command from the club to the table's current session (:meth:`~session.live.LiveGame.apply`):
    a ``play`` entered on a phone at the club (:class:`~session.commands.Play`), 只记分 entered there
    (``play-points``, ``settle-points``, ``concede``, ``set-kitty-points``: the fields the table's page
    sends, read as its routes read them, :data:`web.points_entry.ENTRIES`), or a referee's ``ruling``
    (:class:`~session.commands.Rule`: a penalty in the deal's ``rulings``, which the audit counts and the
    table's page shows; undoable there). Returns the result's one line: ``applied``,
    or ``refused: …`` with the table's reason."""
    return str(command_verdict(table, command)["result"])


def command_verdict(table: Table, command: Command) -> dict[str, Any]:
    """:func:`apply_command`'s verdict for the club: ``{"result": line}``, and where the table
    refused it, ``message``: the reason in both languages, as the table's own page words it, and
    ``status``: the HTTP status its own page answers it with (:func:`web.errors.status_of`)."""
    kind, body = command.get("kind"), command.get("body") or {}
    try:
        with table.writing() as game:
            if kind == "play":
                # the deal and trick the phone saw (as the table's page sends them): a play recorded meanwhile refuses it
                seen = (int(body["deal"]), int(body["trick"])) if body.get("trick") is not None else None
                game.apply(Play(int(body["seat"]), tuple(str(card) for card in body["cards"]), seen=seen))
                return {"result": "applied"}
            if kind == "ruling":
                game.apply(Rule(int(body["deal"]), int(body["violation"]), body.get("points"), body.get("levels"),
                                by_person=True))
                return {"result": "applied"}
            if isinstance(kind, str) and kind in ENTRIES:  # 只记分 from a phone at the club: read as the table's page's
                _fields, command_of = ENTRIES[kind]
                game.apply(command_of(dict(body), game.current()[0]))
                return {"result": "applied"}
            return {"result": f"refused: unknown command {kind!r}", "status": 400}
    except InputError as exc:  # the table's rules refused it (out of turn, no such violation, …): said back
        players = table.game.snapshot()["players"] if table.has_game else []
        words = describe_error(exc, players)
        message = {"zh": words["zh"], "en": words["en"]}
        if isinstance(exc, RefusedError) and exc.violation is not None:  # as the table's page says it: the finding
            found = describe_violation(exc.violation, exc.players)
            message = {lang: message[lang] + found[lang] for lang in ("zh", "en")}
        # the status the table's own page answers the same refusal with (a bad entry 400, out of turn 409, …)
        status = 400 if isinstance(exc, RefusedError) else status_of(exc)
        return {"result": f"refused: {exc}", "message": message, "status": status}
    except Exception as exc:  # anything else the table refuses: its line, as a state the table is in
        return {"result": f"refused: {exc}", "status": 409}


def attach_club(table: Table, data_dir: Path, club_url: str, table_name: str, token: str,
                **pusher_options: Any) -> ClubPusher:
    """Send every change of ``table``'s sessions to the club at ``club_url`` as table ``table_name``,
    and apply the club's commands for it (:func:`apply_command`); returns the pusher, started (stop
    it at the end)."""
    outbox = Outbox(Path(data_dir) / OUTBOX_NAME)
    store = table.store if isinstance(table.store, PushingStore) else PushingStore(table.store, outbox)
    outbox.reconcile((s.id, s.name, store._store.get(s.id).record)
                     for s in sorted(store._store.list(), key=lambda s: s.id))
    pusher_options.setdefault("on_command", lambda command: command_verdict(table, command))
    # the page reads the state again (its club line: a change the club refused, or mended)
    pusher_options.setdefault("on_state", lambda state: table.bus.publish(StateChanged(reason="club")))
    pusher_options.setdefault("sessions", lambda: [(s.id, s.name, store._store.get(s.id).record) for s in sorted(
        store._store.list(), key=lambda s: (s.updated, s.id))])
    pusher = ClubPusher(outbox, club_url, table_name, token, **pusher_options)
    store.pusher = pusher
    if store.changed not in table.on_saved:
        table.on_saved.append(store.changed)
    table.store = store  # type: ignore[assignment]
    table.club = pusher
    pusher.start()
    return pusher
