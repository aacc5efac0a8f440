"""The club's store on a real PostgreSQL: the migrations, the tables' tokens and the numbered,
idempotent changes (refused or absorbed, one clear line, nothing lost)."""

from __future__ import annotations

import psycopg
import pytest

from tuolaji.club.migrations import MIGRATIONS, migrate
from tuolaji.club.store import ClubRefused, ClubStore

from .conftest import played_records


def change(n: int, record: dict, session: int = 1) -> dict:
    return {"n": n, "session": session, "name": "周五", "record": record}


def test_migrations_apply_once_in_order(club_db: str) -> None:
    with psycopg.connect(club_db) as connection:
        assert migrate(connection) == [number for number, _, _ in MIGRATIONS]
        assert migrate(connection) == []
        rows = connection.execute("SELECT number FROM club_migrations ORDER BY number").fetchall()
    assert [row[0] for row in rows] == [number for number, _, _ in MIGRATIONS]
    ClubStore(club_db)  # a store opened on a migrated database migrates nothing again


def test_changes_apply_once_in_order(club_db: str) -> None:
    store = ClubStore(club_db)
    token = store.add_table("一号桌")
    records = played_records(seed=3, plays=6)
    result = store.push("一号桌", token, [change(n + 1, r) for n, r in enumerate(records[:3])])
    assert result == {"table": "一号桌", "applied_through": 3, "applied": 3, "duplicates": 0}
    # a duplicate push (the answer was lost on the way back): absorbed, nothing doubled
    again = store.push("一号桌", token, [change(n + 1, r) for n, r in enumerate(records[:4])])
    assert again["applied"] == 1 and again["duplicates"] == 3 and again["applied_through"] == 4
    assert store.change_numbers("一号桌") == [1, 2, 3, 4]
    assert store.record("一号桌") == records[3]
    # a gap: refused with the number expected; nothing of it applied
    with pytest.raises(ClubRefused, match=r"change 6 out of order, expected 5") as refused:
        store.push("一号桌", token, [change(6, records[5])])
    assert refused.value.status == 409 and refused.value.extra["expected"] == 5
    assert store.record("一号桌") == records[3]
    # the same number with another change: refused, the first one kept
    with pytest.raises(ClubRefused, match="change 2 differs"):
        store.push("一号桌", token, [change(2, records[5])])
    assert store.record("一号桌") == records[3] and store.last_n("一号桌") == 4


def test_wrong_token_and_unknown_table_are_refused(club_db: str) -> None:
    store = ClubStore(club_db)
    token = store.add_table("A")
    other = store.add_table("B")
    record = played_records(plays=0)[0]
    with pytest.raises(ClubRefused, match="table 'A': wrong token") as refused:
        store.push("A", other, [change(1, record)])
    assert refused.value.status == 403
    with pytest.raises(ClubRefused, match="no table 'C'"):
        store.push("C", token, [change(1, record)])
    with pytest.raises(ClubRefused, match="exists already"):
        store.add_table("A")
    with pytest.raises(ClubRefused, match="not a valid record"):
        store.push("A", token, [change(1, {"format": "nonsense"})])
    assert store.last_n("A") == 0 and store.last_n("B") == 0


def test_summary_follows_the_latest_session(club_db: str) -> None:
    store = ClubStore(club_db)
    token = store.add_table("T")
    records = played_records(seed=5, plays=5)
    store.push("T", token, [change(n + 1, r) for n, r in enumerate(records)])
    [entry] = store.overview()
    summary = entry["summary"]
    assert entry["table"] == "T" and entry["last_n"] == len(records)
    assert summary["deal"] == 1 and summary["tricks"] == 2 and summary["players"] == ["东", "南", "西", "北"]
    assert summary["expected_seat"] is not None
    # a new session at the table becomes the one shown
    store.push("T", token, [change(len(records) + 1, records[0], session=2)])
    assert store.overview()[0]["session"] == 2 and store.overview()[0]["summary"]["tricks"] == 0
    assert store.record("T", 1) == records[-1]
