"""The club's rounds: started (seated by hand, drawn, by standing or by a movement), ended (by the
director, by time, or by themselves when their tables have played their deals), read."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import psycopg

from tuolaji.scorer.errors import InputError
from tuolaji.session.changes import rules_record

from .database import CHANNEL, ClubDatabase, one_row, stale_retried
from .errors import ClubRefused
from .movements import MOVEMENTS, movement_round
from .pairs import ClubPairs
from .results import RULES
from .tables import ClubTables

MAX_ROUND_MINUTES = 24 * 60
"""The longest round by time (a day)."""


class ClubRounds:
    """The rounds of the evening and their seatings. ``standings(rule)`` is the standings a round
    seated by standing (``swiss``) ranks the pairs by."""

    def __init__(self, db: ClubDatabase, tables: ClubTables, pairs: ClubPairs,
                 standings: Callable[[str], list[dict[str, Any]]]) -> None:
        self.db = db
        self.tables = tables
        self.pairs = pairs
        self.standings = standings

    @stale_retried
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
        with self.db.connection() as connection:
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
        names = self.tables.table_names()
        pair_names = [p["pair"] for p in self.pairs.pairs()]
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
            with self.db.connection() as connection:
                before = int(one_row(connection.execute("SELECT count(*) FROM club_rounds WHERE seating = %s",
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
        with self.db.connection() as connection, connection.transaction():
            open_round = connection.execute("SELECT number FROM club_rounds WHERE ended IS NULL").fetchone()
            if open_round is not None:
                raise ClubRefused("club.round_open", 409, round=open_round[0])
            number = int(one_row(connection.execute("SELECT coalesce(max(number), 0) + 1 FROM club_rounds"))[0])
            round_id = one_row(connection.execute(
                "INSERT INTO club_rounds (number, ends_by, deals, minutes, seating, ends_itself) VALUES "
                "(%s, %s, %s, %s, %s, %s) RETURNING id",
                (number, ends_by, deals if ends_by == "deals" else None, minutes if ends_by == "time" else None,
                 seating, bool(ends_itself) and ends_by == "deals"),
            ))[0]
            for table, ns, ew in plan:
                ids = one_row(connection.execute(
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

    @stale_retried
    def end_round(self) -> int:
        """End the round under way; returns its number. Each seating keeps the session its table
        was on and the deals finished by now (what a round by time counts)."""
        with self.db.connection() as connection, connection.transaction():
            row = connection.execute("UPDATE club_rounds SET ended = now(), ended_how = 'director' WHERE ended IS NULL "
                                     "RETURNING id, number").fetchone()
            if row is None:
                raise ClubRefused("club.no_round", 409)
            self._close_seatings(connection, int(row[0]), int(row[1]))
        return int(row[1])

    @stale_retried
    def end_due_rounds(self) -> list[int]:
        """End the round by time whose end time has come, as of its end time, and the round by deals
        that ends itself (``ends_itself``: started so by the director's console) once every table seated
        in it has finished the round's deals: its seatings keep the deals finished now (the club's
        server checks every second, and whenever the room, the rounds or the standings are read).
        Returns the numbers of the rounds ended (none, mostly). Several server processes may check at
        once: the round ends once."""
        with self.db.connection() as connection, connection.transaction():
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

    @stale_retried
    def ended_how(self, number: int) -> str | None:
        """How round ``number`` ended: ``director`` (ended on the console or the API), ``time`` (its end
        time came), ``deals`` (it ended itself, every table having finished its deals); None: under way,
        or ended before the club kept how."""
        with self.db.connection() as connection:
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

    @stale_retried
    def current_round(self) -> dict[str, Any] | None:
        """The round under way: its number, how it ends (``ends_at`` for a round by time) and, per
        seated table, the deals it has finished of the round's (``done`` when a round by deals has
        them all at every table)."""
        with self.db.connection() as connection:
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

    @stale_retried
    def last_round(self) -> dict[str, Any] | None:
        """The latest round (``round``, ``ends_by``, ``ended``: None while under way), if any."""
        with self.db.connection() as connection:
            row = connection.execute("SELECT number, ends_by, ended FROM club_rounds ORDER BY number DESC LIMIT 1"
                                     ).fetchone()
        return None if row is None else {"round": int(row[0]), "ends_by": row[1],
                                         "ended": row[2].isoformat() if row[2] else None}

    @stale_retried
    def rounds(self) -> list[dict[str, Any]]:
        with self.db.connection() as connection:
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

