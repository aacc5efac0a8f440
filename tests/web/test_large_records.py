"""Issue 33, item 3: the store never writes what it cannot read back, and the history keeps what
changed, not copies: a legal record imported at the size limit (1,000 four-deck deals, ~3.99 MiB)
and then corrected 11 times stays listed with its players, resumable, exportable whole and
auditable."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tuolaji import scorer
from tuolaji.cli.audit import load_record
from tuolaji.scorer import safejson
from tuolaji.web import create_app, get_table
from tuolaji.web.store import DATABASE_NAME, STORED_MAX_BYTES, SessionStore

PLAYERS = ["东", "南", "西", "北"]
TARGET_BYTES = 4_183_000  # 3.99 MiB


def _deal_pool() -> dict[int, list[dict[str, Any]]]:
    """Complete four-deck deals at level 2, by dealer, that leave every level at 2 with the next
    seat dealing (the defenders came to the threshold but no further): chained, they make a legal
    game of any length (no violations)."""
    pool: dict[int, list[dict[str, Any]]] = {seat: [] for seat in range(4)}
    seed = 5000
    while min(len(deals) for deals in pool.values()) < 3:
        dealer = seed % 4
        record = scorer.random_record("four-deck", seed, players=4, dealer=dealer, level="2", trump="SHCD"[seed % 4])
        seed += 1
        audit = scorer.audit_record(record)["deals"][0]
        if audit["levels_after"] == ["2"] * 4 and not audit["violations"] and audit["next_dealer"] == (dealer + 1) % 4:
            pool[dealer].append(record["deals"][0])
    return pool


def legal_record(deals: int, size: int | None = None) -> dict[str, Any]:
    """A legal game of ``deals`` four-deck deals; ``size``: grown to about that many bytes of JSON
    with the pictures' places the camera writes (a key the scorer ignores)."""
    pool = _deal_pool()
    record: dict[str, Any] = {"format": "tuolaji-record/1", "rules": "four-deck", "players": list(PLAYERS),
                              "start_levels": ["2"] * 4,
                              "deals": [json.loads(json.dumps(pool[i % 4][(i // 4) % 3])) for i in range(deals)]}
    if size is not None:
        picture = {"trick": 0, "seat": 0, "file": "d0-f000000-s0.jpg", "frame": 0, "time_s": 0.0}
        number = 0
        while (missing := size - _size(record)) > 120:
            for _ in range(max(1, missing // 90)):  # a picture's place takes 75 to 90 bytes
                deal = record["deals"][number % deals]
                deal.setdefault("pictures", []).append(picture | {"trick": number % 30, "frame": number % 1000})
                number += 1
    return record


def _size(record: dict[str, Any]) -> int:
    return len(json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode())


def stored_bytes(data: Path, session_id: int) -> int:
    with sqlite3.connect(data / DATABASE_NAME) as connection:
        record = connection.execute("SELECT length(CAST(record AS BLOB)) FROM sessions WHERE id = ?",
                                    (session_id,)).fetchone()[0]
        changes = connection.execute("SELECT coalesce(sum(length(CAST(entry AS BLOB))), 0) FROM changes "
                                     "WHERE session = ?", (session_id,)).fetchone()[0]
    return int(record) + int(changes)


@pytest.fixture(scope="module")
def big_record() -> dict[str, Any]:
    record = legal_record(1000, TARGET_BYTES)
    size = _size(record)
    assert TARGET_BYTES - 200 <= size <= TARGET_BYTES < safejson.MAX_BYTES
    return record


@pytest.mark.slow
def test_a_legal_record_at_the_limit_corrected_11_times_stays_listed_resumable_exportable_and_auditable(
        tmp_path: Path, big_record: dict[str, Any]) -> None:
    app = create_app({"DATA_DIR": str(tmp_path), "TESTING": True, "RESUME_LATEST": False})
    client = app.test_client()
    imported = client.post("/api/sessions/import", data=json.dumps(big_record, ensure_ascii=False,
                                                                  separators=(",", ":")),
                           content_type="application/json")
    assert imported.status_code == 201, imported.get_data(as_text=True)
    session_id = imported.get_json()["id"]
    assert client.post(f"/api/sessions/{session_id}/resume").status_code == 200
    before = stored_bytes(tmp_path, session_id)
    last = len(big_record["deals"]) - 1
    tricks = big_record["deals"][last]["tricks"]
    for number in range(11):  # each one confirms a card of the first tricks of the last deal
        trick = tricks[number % 3]
        answer = client.post("/api/correct", json={"deal": last, "trick": number % 3, "seat": trick["leader"],
                                                   "index": 0, "card": trick["plays"][0][0]})
        assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    grown = stored_bytes(tmp_path, session_id) - before
    assert 0 < grown < 11 * 1000  # what happened (a correction and its history entry), not copies of tricks
    restarted = create_app({"DATA_DIR": str(tmp_path), "TESTING": True, "RESUME_LATEST": False}).test_client()
    listed = restarted.get("/api/sessions").get_json()["sessions"]
    assert [(s["id"], s["players"], s["deals"]) for s in listed] == [(session_id, PLAYERS, 1000)]
    resumed = restarted.post(f"/api/sessions/{session_id}/resume")
    assert resumed.status_code == 200
    state = resumed.get_json()
    assert len(state["state"]["audit"]["deals"]) == 1000
    assert sum(len(deal["violations"]) for deal in state["state"]["audit"]["deals"]) == 0
    assert state["view"]["history"]["entries"] == 11
    export = restarted.get(f"/api/sessions/{session_id}/export")
    exported = json.loads(export.data)
    assert len(exported["deals"]) == 1000 and len(exported["history"]) == 11
    assert [len(t.get("corrections", [])) for t in exported["deals"][last]["tricks"][:3]] == [4, 4, 3]
    assert exported.pop("name")  # the export carries the game's name
    assert exported | {"history": None} == get_table(app).game.snapshot() | {"history": None}
    path = tmp_path / "export.json"
    path.write_bytes(export.data)
    assert scorer.audit_record(load_record(str(path)))["deals"][last]["violations"] == []  # tuolaji audit reads it


def test_the_store_refuses_a_row_it_could_not_read_back_and_reads_what_it_writes(tmp_path: Path) -> None:
    from tuolaji.session.live import NotSavedError

    store = SessionStore(tmp_path / DATABASE_NAME)
    record = {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": PLAYERS, "deals": []}
    session_id = store.create(record | {"x-notes": "备" * (safejson.MAX_BYTES // 3 + 10)}, name="big", source="page")
    assert store.get(session_id).record["players"] == PLAYERS  # over the import limit, within the store's
    with pytest.raises(NotSavedError) as refused:
        store.save(session_id, record | {"x-notes": "x" * (STORED_MAX_BYTES + 1)})
    assert refused.value.kind == "too-large"
    assert store.get(session_id).record["players"] == PLAYERS  # nothing was written


def test_a_session_saved_with_its_history_inside_the_record_keeps_all_of_it_when_saved_again(tmp_path: Path) -> None:
    """A database of an earlier version: the history inside the record row, no ``changes`` table."""
    path = tmp_path / DATABASE_NAME
    history = [{"change": "setting", "at": 1.0, "deal": 0, "before": {"trump": "NT"}, "after": {"trump": "S"}}]
    record = {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": PLAYERS,
              "deals": [{"level": "2", "trump": "S", "dealer": 0, "tricks": []}], "history": history}
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE sessions (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, "
                           "source TEXT NOT NULL, created REAL NOT NULL, updated REAL NOT NULL, record TEXT NOT NULL)")
        connection.execute("INSERT INTO sessions (name, source, created, updated, record) VALUES (?, ?, 1, 1, ?)",
                           ("旧", "page", json.dumps(record, ensure_ascii=False)))
    store = SessionStore(path)
    assert store.get(1).record["history"] == history
    entry = {"change": "setting", "at": 2.0, "deal": 0, "before": {"trump": "S"}, "after": {"trump": "H"}}
    store.save(1, record | {"history": [*history, entry]}, history_stored=1)
    assert SessionStore(path).get(1).record["history"] == [*history, entry]
