"""The commands the club queues for a table's machine, the one writer of its record: plays and 只记分
entries (a trick's points, a deal's, 认输, the kitty's points) made on a phone at the club and the
referee's rulings; the machine asks for them (and is heard from),
applies them and says how each went."""

from __future__ import annotations

import hmac
import json
from typing import Any

import psycopg

from tuolaji.scorer import format_card, parse_card
from tuolaji.scorer.errors import InputError
from tuolaji.web.points_entry import ENTRIES

from .database import CHANNEL, ClubDatabase, one_row, stale_retried
from .errors import ClubRefused

REFUSAL_STATUSES = frozenset({400, 404, 409})
"""The statuses a table's machine may give a refused command, as its own page answers the same
refusal: a bad entry 400, something not there 404, out of turn or in the wrong state 409."""

MAX_FIELD_TEXT = 40
"""The most characters of a 只记分 entry's field kept (a number is at most 20 digits, a side is ``defenders``)."""

HEARD_EVERY_S = 15
"""How often, at most, a table's machine asking for its commands (every second) is written down as heard from."""


class CommandQueue:
    """Each table's commands: queued, asked for, done."""

    def __init__(self, db: ClubDatabase) -> None:
        self.db = db

    @stale_retried
    def add_command(self, name: str, kind: str, body: dict[str, Any]) -> int:
        """Queue a command for a table's machine, the one writer of its record: a ``play``
        (``{"seat", "cards"}``, entered on a phone at the club), a 只记分 entry made there (``play-points``,
        ``settle-points``, ``concede``, ``set-kitty-points``: the fields the table's page sends,
        :data:`web.points_entry.ENTRIES`, read by the table as its own routes read them) or a ``ruling`` (``{"deal", "violation",
        "points", "levels", "note"}``, from the referee's console: a penalty for one of the deal's
        violations, the rules' own when neither points nor levels is given). The table applies it to its
        current session and its record comes back as its next change. Returns the command's id."""
        body = _command_body(kind, body)
        with self.db.connection() as connection, connection.transaction():
            row = connection.execute("SELECT id FROM club_tables WHERE name = %s", (name,)).fetchone()
            if row is None:
                raise ClubRefused("club.no_table", 404, name=name)
            command_id = int(one_row(connection.execute(
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

    @stale_retried
    def commands(self, name: str, token: str | None, after: int = 0) -> list[dict[str, Any]]:
        """The table's commands not yet done, after id ``after``, oldest first (its token needed); the
        table is heard from (``seen``: what says a table's machine is offline, :data:`OFFLINE_AFTER_S`)."""
        with self.db.connection() as connection, connection.transaction():
            table_id = self._authorised(connection, name, token)
            # the table's machine asks every second: heard from, written down at most every HEARD_EVERY_S
            connection.execute("UPDATE club_tables SET seen = now() WHERE id = %s AND (seen IS NULL OR "
                               "seen < now() - make_interval(secs => %s))", (table_id, HEARD_EVERY_S))
            rows = connection.execute("SELECT id, kind, body FROM club_commands WHERE table_id = %s AND id > %s "
                                      "AND done IS NULL ORDER BY id LIMIT 100", (table_id, after)).fetchall()
        return [{"id": int(row[0]), "kind": row[1], "body": json.loads(row[2])} for row in rows]

    @stale_retried
    def command_done(self, name: str, token: str | None, command_id: int, result: str,
                     message: dict[str, str] | None = None, status: int | None = None) -> None:
        """The table applied (or refused) a command: ``result`` is its one line, ``message`` the
        same in both languages (``{"zh", "en"}``) where the table words it, ``status`` the HTTP status
        the table's own page answers that refusal with (:data:`REFUSAL_STATUSES`; else none kept)."""
        status = status if status in REFUSAL_STATUSES else None
        words = None
        if isinstance(message, dict) and all(isinstance(message.get(k), str) for k in ("zh", "en")):
            words = {"zh": message["zh"][:500], "en": message["en"][:500]}
        with self.db.connection() as connection, connection.transaction():
            table_id = self._authorised(connection, name, token)
            connection.execute("UPDATE club_commands SET done = coalesce(done, now()), result = coalesce(result, %s), "
                               "message = coalesce(message, %s), status = coalesce(status, %s) "
                               "WHERE id = %s AND table_id = %s",
                               (result[:500], json.dumps(words, ensure_ascii=False) if words else None, status,
                                command_id, table_id))
            connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, json.dumps(
                {"table": name, "command": command_id, "result": result[:500], "message": words, "status": status},
                ensure_ascii=False)))

    @stale_retried
    def command(self, name: str, command_id: int) -> dict[str, Any]:
        with self.db.connection() as connection:
            row = connection.execute(
                "SELECT c.id, c.kind, c.body, c.done, c.result, c.message, c.status FROM club_commands c JOIN club_tables t "
                "ON t.id = c.table_id WHERE t.name = %s AND c.id = %s", (name, command_id)).fetchone()
        if row is None:
            raise ClubRefused("club.no_command", 404, name=name, command=command_id)
        return {"id": int(row[0]), "kind": row[1], "body": json.loads(row[2]),
                "done": row[3].isoformat() if row[3] else None, "result": row[4],
                "message": json.loads(row[5]) if row[5] else None, "status": row[6]}


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
        seen = {"deal": whole("deal"), "trick": whole("trick")} if body.get("trick") is not None else {}
        return {"seat": whole("seat"), "cards": canonical} | seen  # seen: the deal and trick its sender saw
    if kind == "ruling":
        points, levels = whole("points", optional=True), whole("levels", optional=True)
        note = body.get("note")
        if note is not None and (not isinstance(note, str) or len(note) > 500):
            raise ClubRefused("club.ruling_note")
        return {"deal": whole("deal"), "violation": whole("violation"), "points": points or None,
                "levels": levels or None, "note": note}
    if kind in ENTRIES:  # 只记分: the fields the table's page sends, read there (web.points_entry) as its routes read them
        fields, _command_of = ENTRIES[kind]
        kept: dict[str, Any] = {}
        for key in fields:
            value = body.get(key)
            if key not in body:
                continue
            if isinstance(value, str):
                value = value[:MAX_FIELD_TEXT]
            elif isinstance(value, list | dict):  # refused by the table in its words (not a number): kept empty
                value = [] if isinstance(value, list) else {}
            kept[key] = value
        return kept
    raise ClubRefused("club.unknown_command", kind=kind)

