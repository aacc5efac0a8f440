"""The director's console's API (``/club/director/api/…``, club/director.py) on a real PostgreSQL:
pairs pasted as a list (all or none), tables with their tokens, addresses and QR codes, rounds
started and ended, the seating and each table's status; every refusal in both languages."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tuolaji.club.director import pairs_from_text

from .conftest import ClubServer, organiser
from .test_rounds import PAIRS, Tables, evening_record, setup_of

EIGHT_PAIRS = "\n".join(f"对{n} 甲{n} 乙{n}" for n in range(1, 9))


def console(club: ClubServer) -> tuple[FlaskClient, dict[str, str]]:
    """The console's client and the header its page sends (the organiser's token)."""
    token = organiser(club)["Authorization"].removeprefix("Bearer ")
    return club.app.test_client(), {"X-Tuolaji-Token": token}


def test_the_page_needs_the_organisers_token(club: ClubServer) -> None:
    client, headers = console(club)
    token = headers["X-Tuolaji-Token"]
    page = client.get(f"/club/director?token={token}")
    body = page.get_data(as_text=True)
    assert page.status_code == 200 and f'<meta name="tuolaji-token" content="{token}">' in body
    assert "赛事控制台" in body and page.headers["Cache-Control"] == "no-store"
    assert page.headers["Referrer-Policy"] == "no-referrer"
    for address in ("/club/director", "/club/director?token=wrong"):
        refused = client.get(address)
        text = refused.get_data(as_text=True)
        assert refused.status_code == 403 and 'id="forbidden"' in text and "tuolaji-token" not in text
    english = client.get(f"/club/director?token={token}&lang=en").get_data(as_text=True)
    assert "director&#39;s console" in english and '<html lang="en"' in english
    for path in ("/club/director/api/state", "/club/director/api/tables"):
        answer = client.get(path)
        assert answer.status_code == 403
        assert answer.get_json()["message"] == {"zh": "需要组织者的令牌", "en": "the organiser's token is needed"}
    assert client.post("/club/director/api/rounds/end", headers={"X-Tuolaji-Token": "wrong"}).status_code == 403


def test_pairs_pasted_as_a_list_are_registered_all_or_none(club: ClubServer) -> None:
    client, headers = console(club)
    answer = client.post("/club/director/api/pairs", headers=headers, json={"text": EIGHT_PAIRS + "\n\n"})
    assert answer.status_code == 201 and answer.get_json()["added"] == 8
    assert answer.get_json()["pairs"][0] == {"pair": "对1", "players": ["甲1", "乙1"]}
    # a list with one pair the club has: none of it is registered, the refusal names the pair
    again = client.post("/club/director/api/pairs", headers=headers, json={"text": "新对 老张 老李\n对3 丙 丁"})
    assert again.status_code == 409
    assert again.get_json()["message"] == {"zh": "搭档“对3”已经有了", "en": "pair '对3' exists already"}
    assert len(client.get("/club/director/api/state", headers=headers).get_json()["pairs"]) == 8
    bad = client.post("/club/director/api/pairs", headers=headers, json={"text": "好对 老张 老李\n坏对 老王"})
    assert bad.status_code == 400 and bad.get_json()["message"]["zh"] == "第 2 行：一对搭档写对名和两位玩家（'坏对 老王'）"
    same = client.post("/club/director/api/pairs", headers=headers, json={"text": "同人 老张 老张"})
    assert same.status_code == 400 and "两位不同的玩家" in same.get_json()["message"]["zh"]
    assert client.post("/club/director/api/pairs", headers=headers, json={"text": " \n"}).status_code == 400
    assert client.post("/club/director/api/pairs", headers=headers, json={"text": 3}).status_code == 400
    assert len(client.get("/club/director/api/state", headers=headers).get_json()["pairs"]) == 8


def test_a_pasted_list_is_read_by_spaces_and_commas() -> None:
    assert pairs_from_text("甲乙　老张\t老李\r\n丙丁,老王，小周\n戊己、a;b") == [
        ("甲乙", "老张", "老李"), ("丙丁", "老王", "小周"), ("戊己", "a", "b")]


def test_the_tables_with_their_tokens_addresses_and_qr_codes(club: ClubServer) -> None:
    client, headers = console(club)
    assert client.post("/club/director/api/tables", headers=headers, json={"name": "一号桌"}).status_code == 201
    twice = client.post("/club/director/api/tables", headers=headers, json={"name": "一号桌"})
    assert twice.status_code == 409 and twice.get_json()["message"]["zh"] == "桌“一号桌”已经有了"
    tables = client.get("/club/director/api/tables", headers=headers).get_json()["tables"]
    assert [t["table"] for t in tables] == ["一号桌"]
    token = tables[0]["token"]
    assert club.app.extensions["tuolaji.club"].table_token_ok("一号桌", token)
    assert tables[0]["address"] == f"http://localhost/club/table/%E4%B8%80%E5%8F%B7%E6%A1%8C?token={token}"
    assert tables[0]["qr"].startswith("<svg")


def seat_eight(client: FlaskClient, headers: dict[str, str]) -> None:
    client.post("/club/director/api/pairs", headers=headers, json={"text": EIGHT_PAIRS})
    for n in range(1, 5):
        client.post("/club/director/api/tables", headers=headers, json={"name": f"{n}号桌"})


def test_a_round_started_seated_and_ended_from_the_console(club: ClubServer) -> None:
    client, headers = console(club)
    seat_eight(client, headers)
    state = client.get("/club/director/api/state", headers=headers).get_json()
    assert state["round"] is None and state["latest"] is None and state["seating"] == []
    assert [t["state"] for t in state["tables"]] == ["offline"] * 4 and state["tables"][0]["since"] is None
    seating = [{"table": f"{n}号桌", "ns": f"对{2 * n - 1}", "ew": f"对{2 * n}"} for n in range(1, 5)]
    started = client.post("/club/director/api/rounds", headers=headers,
                          json={"seating": "hand", "ends_by": "deals", "deals": 2, "tables": seating})
    assert started.status_code == 201 and started.get_json()["round"] == 1
    state = client.get("/club/director/api/state", headers=headers).get_json()
    assert state["round"]["round"] == 1 and state["seating"][0] == {
        "table": "1号桌", "ns": {"pair": "对1", "players": ["甲1", "乙1"]},
        "ew": {"pair": "对2", "players": ["甲2", "乙2"]}}
    assert [s["table"] for s in state["seating"]] == ["1号桌", "2号桌", "3号桌", "4号桌"]
    # a round under way refuses the next; the refusal in both languages
    refused = client.post("/club/director/api/rounds", headers=headers, json={"seating": "drawn", "deals": 1})
    assert refused.status_code == 409 and refused.get_json()["message"]["zh"] == "第 1 轮还在进行：请先结束它"
    assert client.post("/club/director/api/rounds/end", headers=headers).get_json() == {"ended": 1}
    over = client.get("/club/director/api/state", headers=headers).get_json()
    assert over["round"] is None and over["latest"]["round"] == 1 and len(over["seating"]) == 4
    again = client.post("/club/director/api/rounds/end", headers=headers)
    assert again.status_code == 409 and again.get_json()["message"] == {
        "zh": "现在没有进行中的一轮", "en": "no round is under way"}
    drawn = client.post("/club/director/api/rounds", headers=headers, json={"seating": "swiss", "deals": 1})
    assert drawn.status_code == 201 and len(drawn.get_json()["seatings"]) == 4
    assert client.post("/club/director/api/rounds/end", headers=headers).get_json() == {"ended": 2}
    bad = client.post("/club/director/api/rounds", headers=headers,
                      json={"seating": "hand", "deals": 1, "tables": ["1号桌"]})
    assert bad.status_code == 400 and bad.get_json()["message"]["en"].startswith("a round seated by hand names")


def test_each_tables_status_from_what_the_club_knows(club: ClubServer) -> None:
    client, headers = console(club)
    for name, players in PAIRS.items():
        client.post("/club/api/pairs", headers=organiser(club), json={"name": name, "players": players})
    tables = Tables(client, organiser(club), ["A", "B", "C"])
    records = {"A": evening_record((3, 4)), "B": evening_record((5, 6))}
    for name in ("A", "B"):
        tables.push(name, setup_of(records[name]))
    client.post("/club/director/api/rounds", headers=headers, json={"seating": "hand", "deals": 1, "tables": [
        {"table": "A", "ns": "P1", "ew": "P2"}, {"table": "B", "ns": "P3", "ew": "P4"}]})

    def status() -> dict[str, dict[str, Any]]:
        rows = client.get("/club/director/api/state", headers=headers).get_json()["tables"]
        return {row["table"]: row for row in rows}

    now = status()
    assert now["A"] == {"table": "A", "state": "playing", "deal": 1, "deals": 1, "since": None}
    assert now["C"]["state"] == "offline" and now["C"]["since"] is None  # never heard from
    one_deal = records["A"] | {"deals": records["A"]["deals"][:1] + [records["A"]["deals"][1] | {"tricks": []}]}
    tables.push("A", one_deal)
    assert status()["A"]["state"] == "finished"
    # B's machine silent for two minutes: offline since then; asking for its commands, it is heard from again
    store = club.app.extensions["tuolaji.club"]
    with store.connect(autocommit=True) as connection:
        connection.execute("UPDATE club_tables SET seen = now() - interval '2 minutes' WHERE name = 'B'")
    silent = status()["B"]
    assert silent["state"] == "offline" and silent["since"] is not None
    assert client.get("/club/api/tables/B/commands", headers={"Authorization": f"Bearer {tables.tokens['B']}"}
                      ).status_code == 200
    assert status()["B"]["state"] == "playing"
    # C, seated in no round and heard from: free
    client.get("/club/api/tables/C/commands", headers={"Authorization": f"Bearer {tables.tokens['C']}"})
    assert status()["C"] == {"table": "C", "state": "free", "deal": None, "deals": None, "since": None}


def test_the_database_away_is_one_line_in_both_languages(club: ClubServer, monkeypatch: Any) -> None:
    from tuolaji.club.store import ClubDatabaseDown

    client, headers = console(club)

    def away(*args: Any, **kwargs: Any) -> Any:
        raise ClubDatabaseDown("club database unavailable (connection refused)")

    monkeypatch.setattr(club.app.extensions["tuolaji.club"], "pairs", away)
    answer = client.get("/club/director/api/state", headers=headers)
    assert answer.status_code == 503
    assert answer.get_json()["message"]["zh"] == (
        "俱乐部数据库暂时不可用（club database unavailable (connection refused)），各桌继续打牌，恢复后补传")
    assert client.get("/club/api/pairs").status_code == 503  # the JSON API's own answer, as before
    assert client.get("/club/api/pairs").get_json() == {"error": "club database unavailable (connection refused)"}
