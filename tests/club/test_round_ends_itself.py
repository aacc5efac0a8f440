"""A round by deals started on the director's console ends itself when its last table finishes its deals
(issue 43, item 2), and the console says so; one started by the JSON API waits for its end as before,
unless it asks to end itself."""

from __future__ import annotations

import time
from typing import Any

from flask.testing import FlaskClient

from .conftest import ClubServer, organiser
from .test_director import console
from .test_rounds import evening, setup_of


def state_when(client: FlaskClient, headers: dict[str, str], done: Any, seconds: float = 10.0) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        state: dict[str, Any] = client.get("/club/director/api/state", headers=headers).get_json()
        if done(state) or time.monotonic() > deadline:
            return state
        time.sleep(0.1)


def test_a_round_by_deals_ends_itself_when_its_last_table_finishes(club: ClubServer) -> None:
    client, records, tables = evening(club)
    _, headers = console(club)
    news = club.app.extensions["tuolaji.club.listener"].subscribe()
    for name in ("A", "B"):
        tables.push(name, setup_of(records[name]))
    assert client.post("/club/director/api/rounds", headers=headers, json={"seating": "hand", "deals": 1, "tables": [
        {"table": "A", "ns": "P1", "ew": "P2"}, {"table": "B", "ns": "P3", "ew": "P4"}]}).status_code == 201
    one_deal = {name: record | {"deals": record["deals"][:1] + [record["deals"][1] | {"tricks": []}]}
                for name, record in records.items()}
    tables.push("A", one_deal["A"])
    time.sleep(1.5)  # the server's clock has looked: table B still plays
    state = client.get("/club/director/api/state", headers=headers).get_json()
    assert state["round"]["round"] == 1 and state["round"]["deals_played"] == {"A": 1, "B": 0}
    assert state["ended_how"] is None
    tables.push("B", one_deal["B"])
    over = state_when(client, headers, lambda s: s["round"] is None)
    assert over["round"] is None and over["latest"]["round"] == 1 and over["latest"]["ended"]
    assert over["ended_how"] == "deals"
    seen = []
    while not any(event.get("ended") for event in seen):
        seen.append(news.get(timeout=5))
    assert {"round": 1, "ended": True} in seen
    # a deal finished after the round ended is not the round's; the next round may start at once
    tables.push("A", records["A"])
    assert sum(row["deals_won"] for row in client.get("/club/api/standings").get_json()["standings"]) == 2
    assert client.post("/club/director/api/rounds", headers=headers, json={"seating": "swiss", "deals": 1}
                       ).status_code == 201
    # ended by the director: said so (not "every table has finished")
    client.post("/club/director/api/rounds/end", headers=headers)
    assert client.get("/club/director/api/state", headers=headers).get_json()["ended_how"] == "director"


def test_a_round_that_should_not_end_itself_waits_for_its_end(club: ClubServer) -> None:
    client, records, tables = evening(club)
    _, headers = console(club)
    tables.push("A", setup_of(records["A"]))
    one_deal = records["A"] | {"deals": records["A"]["deals"][:1] + [records["A"]["deals"][1] | {"tricks": []}]}
    seat = {"seating": "hand", "deals": 1, "tables": [{"table": "A", "ns": "P1", "ew": "P2"}]}
    client.post("/club/director/api/rounds", headers=headers, json=seat | {"ends_itself": False})
    tables.push("A", one_deal)
    time.sleep(1.5)
    state = client.get("/club/director/api/state", headers=headers).get_json()
    assert state["round"]["done"] is True and state["round"]["round"] == 1  # done, waiting for the director
    assert client.post("/club/director/api/rounds/end", headers=headers).get_json() == {"ended": 1}
    # the JSON API's round ends itself when asked to
    client.post("/club/api/rounds", headers=organiser(club), json=seat | {"ends_itself": True, "deals": 1})
    tables.push("A", records["A"])
    assert state_when(client, headers, lambda s: s["round"] is None)["ended_how"] == "deals"
