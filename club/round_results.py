"""Each round's result at each table: the figures the table's record gives, the director's fixes of
them (each with its reason and the figures before) and the standings they add up to
(:mod:`club.results`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from .database import CHANNEL, ClubDatabase, stale_retried
from .errors import ClubRefused
from .results import pair_results
from .results import standings as standings_of

FIGURES = ("levels_gained", "level_diff", "deals_won", "points")
"""A pair's figures in a round, which the standings add up (:data:`club.results.RULES`)."""

MAX_REASON = 500
"""The longest reason the director gives for fixing a result (characters)."""


class RoundResults:
    """The tables' results by round, their fixes and the standings. ``end_due_rounds()`` ends the
    rounds due to end before the standings are read."""

    def __init__(self, db: ClubDatabase, end_due_rounds: Callable[[], object]) -> None:
        self.db = db
        self.end_due_rounds = end_due_rounds

    @stale_retried
    def table_results(self) -> list[dict[str, Any]]:
        """One row a round and table: its 南北 and 东西 pairs, their figures as the table's record gives
        them (``record``: the session it was on when the round ended, under way its latest, its deals
        from the round's start, all of them in a session begun during the round, a round by deals
        counting that many at most, an ended one those finished when it ended), the director's fixes
        of them, oldest first (``fixes``: each with the figures before it, the figures it set, its
        reason and time), and the figures that count (``figures``: the latest fix's, else the record's)."""
        with self.db.connection() as connection:
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

    @stale_retried
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
        with self.db.connection() as connection, connection.transaction():
            connection.execute(
                "INSERT INTO club_fixes (round_number, table_id, before, after, reason) VALUES "
                "(%s, (SELECT id FROM club_tables WHERE name = %s), %s, %s, %s)",
                (round_number, table, json.dumps(row["figures"]), json.dumps(after), reason.strip()))
            connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, json.dumps(
                {"round": round_number, "fixed": table}, ensure_ascii=False)))
        return next(r for r in self.table_results() if r["round"] == round_number and r["table"] == table)

    def standings(self, rule: str = "levels") -> list[dict[str, Any]]:
        self.end_due_rounds()  # a round by time past its end counts the deals finished by then
        return standings_of(self.results(), rule)

