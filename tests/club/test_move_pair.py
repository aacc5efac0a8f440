"""A pair moved in the round under way from the director's console (issue 43, item 2): it takes another
table's side, the pair there takes its seat (or sits out when it had none); the room, the tables'
machines and the results follow; a move the club cannot make is refused in one line of both languages."""

from __future__ import annotations

from .conftest import ClubServer
from .test_director import console, seat_eight


def test_a_pair_moved_swaps_seats_and_the_tables_are_told(club: ClubServer) -> None:
    client, headers = console(club)
    seat_eight(client, headers)
    seating = [{"table": f"{n}号桌", "ns": f"对{2 * n - 1}", "ew": f"对{2 * n}"} for n in range(1, 4)]
    client.post("/club/director/api/rounds", headers=headers, json={"seating": "hand", "deals": 2, "tables": seating})
    store = club.app.extensions["tuolaji.club"]
    news = club.app.extensions["tuolaji.club.listener"].subscribe()
    moved = client.post("/club/director/api/rounds/move", headers=headers,
                        json={"pair": "对1", "table": "3号桌", "side": "ew"})
    assert moved.status_code == 200 and moved.get_json() == {
        "round": 1, "pair": "对1", "table": "3号桌", "side": "ew", "swapped": "对6"}
    state = client.get("/club/director/api/state", headers=headers).get_json()
    assert [(s["table"], s["ns"]["pair"], s["ew"]["pair"]) for s in state["seating"]] == [
        ("1号桌", "对6", "对2"), ("2号桌", "对3", "对4"), ("3号桌", "对5", "对1")]
    # the room and the table's machine (asking for its commands) read the new seating
    room = {t["table"]: t["seating"] for t in client.get("/club/api/overview").get_json()["tables"]}
    assert room["3号桌"]["ew"] == {"pair": "对1", "players": ["甲1", "乙1"]}
    assert room["3号桌"]["seats"] == ["甲5", "甲1", "乙5", "乙1"]
    token = dict(store.table_tokens())["1号桌"]
    told = client.get("/club/api/tables/1号桌/commands", headers={"Authorization": f"Bearer {token}"}).get_json()
    assert told["seating"]["ns"]["pair"] == "对6"
    seen = []
    while not any(event.get("moved") for event in seen):
        seen.append(news.get(timeout=5))
    assert {"round": 1, "moved": "对1"} in seen  # the tables' pages read their seating again on a round's news

    # to the other side of its own table: the two pairs change sides
    client.post("/club/director/api/rounds/move", headers=headers, json={"pair": "对1", "table": "3号桌", "side": "ns"})
    assert store.current_seatings("3号桌")["3号桌"]["ns"]["pair"] == "对1"
    assert store.current_seatings("3号桌")["3号桌"]["ew"]["pair"] == "对5"
    # a pair not seated in the round (对8: table 4 is free) takes a seat; the pair there sits out
    out = client.post("/club/director/api/rounds/move", headers=headers,
                      json={"pair": "对8", "table": "2号桌", "side": "ns"}).get_json()
    assert out["swapped"] == "对3"
    seated = {p for s in store.current_seatings().values() for p in (s["ns"]["pair"], s["ew"]["pair"])}
    assert "对8" in seated and "对3" not in seated
    # the round's results follow the seating (the pairs seated when it is read)
    client.post("/club/director/api/rounds/end", headers=headers)
    rows = client.get("/club/director/api/results", headers=headers).get_json()["results"]
    assert [(r["table"], r["ns"], r["ew"]) for r in rows] == [
        ("1号桌", "对6", "对2"), ("2号桌", "对8", "对4"), ("3号桌", "对1", "对5")]


def test_a_move_the_club_cannot_make_is_one_line(club: ClubServer) -> None:
    client, headers = console(club)
    seat_eight(client, headers)
    move = {"pair": "对1", "table": "2号桌", "side": "ns"}
    none = client.post("/club/director/api/rounds/move", headers=headers, json=move)
    assert none.status_code == 409 and none.get_json()["message"]["zh"] == "现在没有进行中的一轮"
    client.post("/club/director/api/rounds", headers=headers, json={"seating": "hand", "deals": 1, "tables": [
        {"table": "1号桌", "ns": "对1", "ew": "对2"}]})
    free = client.post("/club/director/api/rounds/move", headers=headers, json=move)
    assert free.status_code == 409 and free.get_json()["message"] == {
        "zh": "第 1 轮没有安排“2号桌”这张桌：请把搭档换到本轮有人的桌",
        "en": "table '2号桌' is not seated in round 1: move the pair to a seated table"}
    same = client.post("/club/director/api/rounds/move", headers=headers, json=move | {"table": "1号桌"})
    assert same.status_code == 409 and same.get_json()["message"]["zh"] == "搭档“对1”已经坐在“1号桌”的这一方"
    side = client.post("/club/director/api/rounds/move", headers=headers, json=move | {"side": "north"})
    assert side.status_code == 400 and side.get_json()["message"]["en"] == (
        "a pair sits North–South (ns) or East–West (ew), not 'north'")
    unknown = client.post("/club/director/api/rounds/move", headers=headers, json=move | {"pair": "对99"})
    assert unknown.status_code == 404 and unknown.get_json()["message"]["zh"] == "俱乐部里没有搭档“对99”或桌“2号桌”"
    assert client.post("/club/director/api/rounds/move", json=move).status_code == 403
    assert client.get("/club/director/api/state", headers=headers).get_json()["seating"][0]["ns"]["pair"] == "对1"
