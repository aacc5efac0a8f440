"""The players' records page and API (/stats, web/stats.py) and the store's player names (web/store.py)."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from tests.conftest import anonymous
from tuolaji import scorer
from tuolaji.web.store import SessionStore


def stored(client: Any, players: list[str], seed: int) -> dict[str, Any]:
    record = scorer.random_record("standard-2deck", seed, hand_size=6)
    record["players"] = players
    assert client.post("/api/sessions/import", json=record).status_code == 201
    return record


def row(data: dict[str, Any], name: str) -> dict[str, Any]:
    return next(player for player in data["players"] if player["name"] == name)


def test_the_records_over_every_stored_session(client):
    first = stored(client, ["老李", "b", "c", "d"], 1)
    stored(client, [" 老李", "e", "f", "g"], 2)
    data = client.get("/api/stats").get_json()
    assert data["sessions"] == 2 and data["skipped"] == 0
    assert data["keys"] == ["games", "games_won", "deals", "dealer", "took_over", "levels_won", "kitty", "violations"]
    li = row(data, "老李")
    assert (li["games"], li["deals"], sorted(li["names"])) == (2, 2, [" 老李", "老李"])
    assert len(data["players"]) == 7 and [p["rank"] for p in data["players"]] == list(range(1, 8))
    outcome = scorer.audit_record(first)["deals"][0]["outcome"]
    dealer_seats = scorer.dealer_sides(first)[0]
    expected = outcome["levels"] if (1 in dealer_seats) == (outcome["side"] == "dealer") else 0
    assert row(data, "b")["levels_won"] == expected


def test_a_player_renamed_and_two_merged(client, app):
    stored(client, ["老李", "b", "c", "d"], 1)
    stored(client, ["Li", "e", "f", "g"], 2)
    data = client.post("/api/stats/rename", json={"name": "li", "to": "老李"}).get_json()
    assert row(data, "老李")["games"] == 2 and sorted(row(data, "老李")["names"]) == ["Li", "老李"]
    data = client.post("/api/stats/rename", json={"name": "老李", "to": "李哥"}).get_json()
    assert row(data, "李哥")["games"] == 2 and not any(p["name"] in ("老李", "Li") for p in data["players"])
    # kept in the store: a fresh view, and the records themselves unchanged
    assert row(client.get("/api/stats").get_json(), "李哥")["games"] == 2
    assert {tuple(s["players"]) for s in client.get("/api/sessions").get_json()["sessions"]} >= {("Li", "e", "f", "g")}


@pytest.mark.parametrize("body", [{"name": "b"}, {"name": "b", "to": "  "}, {"name": "b", "to": 3}, {"name": "b", "to": "x" * 201},
                                  [1, 2]])
def test_a_rename_refused(client, body):
    stored(client, ["老李", "b", "c", "d"], 1)
    response = client.post("/api/stats/rename", json=body)
    assert response.status_code == 400 and response.get_json()["message"]["zh"]


def test_a_rename_needs_the_table_token(app, client):
    app.config["LOCAL_ONLY"] = False
    stored(client, ["老李", "b", "c", "d"], 1)
    visitor = anonymous(app)
    assert visitor.get("/api/stats").status_code == 200
    assert visitor.post("/api/stats/rename", json={"name": "b", "to": "c"}).status_code == 403


def test_the_page_in_both_languages(client):
    zh = client.get("/stats?lang=zh").get_data(as_text=True)
    en = client.get("/stats?lang=en").get_data(as_text=True)
    assert "排行榜" in zh and "战绩" in zh and "Leaderboard" in en and "stats.js" in en
    assert 'href="/stats"' in zh and 'href="/tv"' in zh


def test_an_unreadable_session_is_left_out(client, app):
    stored(client, ["a", "b", "c", "d"], 1)
    store = SessionStore(app.extensions["tuolaji.table"].store.path)
    store.create({"rules": "standard-2deck", "players": ["a", "b", "c", "d"],
                  "deals": [{"level": "2", "trump": "S", "dealer": 9}]}, name="bad", source="import")
    data = client.get("/api/stats").get_json()
    assert (data["sessions"], data["skipped"], row(data, "a")["games"]) == (1, 1, 1)


def test_the_store_keeps_renames_without_circles(tmp_path):
    path = tmp_path / "t.sqlite"
    with sqlite3.connect(path) as old:  # a database of an earlier version: no table of player names
        old.execute("CREATE TABLE sessions (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, source TEXT NOT NULL,"
                    " created REAL NOT NULL, updated REAL NOT NULL, record TEXT NOT NULL)")
    store = SessionStore(path)
    assert store.player_names() == {}
    store.rename_player("Li", "老李")
    store.rename_player("老李", "李哥")
    assert store.player_names() == {"li": "李哥", "老李": "李哥"}
    store.rename_player("李哥", "Li")  # back again: no rename leads round in a circle
    assert SessionStore(path).player_names() == {"老李": "Li", "李哥": "Li"}
    store.rename_player("li", " LI ")  # a new spelling of the same name
    assert store.player_names()["li"] == "LI"


@pytest.mark.parametrize("data, content_type", [(b"{", "application/json"), (b"name=a", "text/plain"), (b"\xff", "application/json"),
                                                (b'{"name": "a", "to": "\\ud800"}', "application/json")])
def test_a_malformed_rename_is_a_4xx_in_both_languages(client, data, content_type):
    response = client.post("/api/stats/rename", data=data, content_type=content_type)
    assert 400 <= response.status_code < 500
    assert {"zh", "en"} <= set(response.get_json()["message"])


def test_an_evenings_records_win_rates_and_partners(client, monkeypatch):
    """Issue 43, item 7: 战绩 per evening (a game past midnight counts to its evening), each player's
    share of deals won and whom he played with."""
    import time

    friday_late = time.mktime((2026, 12, 4, 23, 30, 0, 0, 0, -1))
    saturday_past_midnight = time.mktime((2026, 12, 6, 1, 15, 0, 0, 0, -1))  # still Saturday's evening
    for when, players, seed in ((friday_late, ["老李", "b", "c", "d"], 1), (saturday_past_midnight, ["老李", "e", "f", "g"], 2)):
        monkeypatch.setattr("tuolaji.web.store.time.time", lambda when=when: when)
        stored(client, players, seed)
    monkeypatch.undo()
    data = client.get("/api/stats").get_json()
    assert data["evenings"] == ["2026-12-05", "2026-12-04"] and data["evening"] is None
    li = row(data, "老李")
    assert li["games"] == 2 and {p["name"] for p in li["partners"]} == {"c", "f"}  # across the table: his partner
    assert li["deal_rate"] == round(100 * li["deals_won"] / li["deals"])
    saturday = client.get("/api/stats?evening=2026-12-05").get_json()
    assert saturday["sessions"] == 1 and {p["name"] for p in saturday["players"]} == {"老李", "e", "f", "g"}
    assert [p["name"] for p in row(saturday, "老李")["partners"]] == ["f"]
    assert row(saturday, "f")["partners"][0]["deals"] == row(saturday, "f")["deals"]
    refused = client.get("/api/stats?evening=friday")
    assert refused.status_code == 400 and "2026-12-06" in refused.get_json()["message"]["zh"]
