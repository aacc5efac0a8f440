"""The club's players and pairs: registered (a pasted list at once), and where the pairs sit in the
round under way (read, and a pair moved by the director)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from .database import CHANNEL, ClubDatabase, one_row, stale_retried
from .errors import ClubRefused, checked_name


class ClubPairs:
    """The players, the pairs and their seats in the round under way."""

    def __init__(self, db: ClubDatabase) -> None:
        self.db = db

    @stale_retried
    def add_player(self, name: str) -> int:
        name = checked_name(name, "player")
        with self.db.connection() as connection, connection.transaction():
            row = one_row(connection.execute("INSERT INTO club_players (name) VALUES (%s) ON CONFLICT (name) DO UPDATE "
                                             "SET name = EXCLUDED.name RETURNING id", (name,)))
        return int(row[0])

    def add_pair(self, name: str, player_a: str, player_b: str) -> int:
        """Register a pair of two players (registered with them if new)."""
        return self.add_pairs([(name, player_a, player_b)])[0]

    @stale_retried
    def add_pairs(self, pairs: Iterable[tuple[str, str, str]]) -> list[int]:
        """Register pairs (``(name, player, player)``, their players with them if new) all at once: one
        the club refuses (a name, the same player twice, a pair it has) registers none of them."""
        checked: list[tuple[str, str, str]] = []
        for pair, player_a, player_b in pairs:
            name, a, b = checked_name(pair, "pair"), checked_name(player_a, "player"), checked_name(player_b, "player")
            if a == b:
                raise ClubRefused("club.pair_same", name=name)
            if any(name == other for other, _, _ in checked):
                raise ClubRefused("club.pair_exists", 409, name=name)
            checked.append((name, a, b))
        ids = []
        with self.db.connection() as connection, connection.transaction():
            for name, a, b in checked:
                players = [one_row(connection.execute("INSERT INTO club_players (name) VALUES (%s) ON CONFLICT (name) DO "
                                                      "UPDATE SET name = EXCLUDED.name RETURNING id", (player,)))[0]
                           for player in (a, b)]
                row = connection.execute("INSERT INTO club_pairs (name, player_a, player_b) VALUES (%s, %s, %s) "
                                         "ON CONFLICT (name) DO NOTHING RETURNING id", (name, *players)).fetchone()
                if row is None:
                    raise ClubRefused("club.pair_exists", 409, name=name)
                ids.append(int(row[0]))
        return ids

    @stale_retried
    def pairs(self) -> list[dict[str, Any]]:
        with self.db.connection() as connection:
            rows = connection.execute(
                "SELECT p.name, a.name, b.name FROM club_pairs p JOIN club_players a ON a.id = p.player_a "
                "JOIN club_players b ON b.id = p.player_b ORDER BY p.id").fetchall()
        return [{"pair": row[0], "players": [row[1], row[2]]} for row in rows]

    @stale_retried
    def move_pair(self, pair: Any, table: Any, side: Any) -> dict[str, Any]:
        """Move ``pair`` to ``table``'s ``side`` (``ns`` or ``ew``) in the round under way: the pair there
        takes the moved pair's seat, or sits out when the moved pair had none. The table must be seated
        in the round; the tables' pages and machines read their seating again (a round's news).
        Returns ``{"round", "pair", "table", "side", "swapped"}`` (``swapped``: the pair that was there)."""
        if side not in ("ns", "ew"):
            raise ClubRefused("club.move_side", side=str(side)[:20])
        with self.db.connection() as connection, connection.transaction():
            row = connection.execute("SELECT id, number FROM club_rounds WHERE ended IS NULL FOR UPDATE").fetchone()
            if row is None:
                raise ClubRefused("club.no_round", 409)
            round_id, number = int(row[0]), int(row[1])
            ids = one_row(connection.execute("SELECT (SELECT id FROM club_pairs WHERE name = %s), "
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
            swapped = str(one_row(connection.execute("SELECT name FROM club_pairs WHERE id = %s", (occupant,)))[0])
            connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, json.dumps(
                {"round": number, "moved": str(pair)}, ensure_ascii=False)))
        return {"round": number, "pair": str(pair), "table": str(table), "side": side, "swapped": swapped}

    @stale_retried
    def current_seatings(self, name: str | None = None) -> dict[str, dict[str, Any]]:
        """Where the pairs sit in the round under way, by table (``name``: that table alone): the round's
        number, the 南北 and 东西 pairs with their players, and ``seats``, the four players in the seats'
        order (南北 at seats 0 and 2, 东西 at 1 and 3, as the results read them). Empty between rounds."""
        with self.db.connection() as connection:
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

