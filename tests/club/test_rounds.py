"""Rounds and standings through the club's API, on a real PostgreSQL: pairs registered once, a
round seated by hand, the next one Swiss by standing, results read from the tables' records."""

from __future__ import annotations

import csv
import io
from datetime import date
from typing import Any

from flask.testing import FlaskClient

from tuolaji.club.pages import standings_picture
from tuolaji.club.results import pair_results, standings

from .conftest import ClubServer, evening_record, organiser

PAIRS = {"P1": ["赵", "钱"], "P2": ["孙", "李"], "P3": ["周", "吴"], "P4": ["郑", "王"]}


def setup_of(record: dict[str, Any]) -> dict[str, Any]:
    """The record before its first deal's tricks (the table set up, nothing played)."""
    first = {k: v for k, v in record["deals"][0].items()} | {"tricks": []}
    return record | {"deals": [first]}


class Tables:
    """The tables' machines, pushing their records as numbered changes."""

    def __init__(self, client: FlaskClient, headers: dict[str, str], names: list[str]) -> None:
        self.client = client
        self.tokens = {}
        self.n = dict.fromkeys(names, 0)
        for name in names:
            answer = client.post("/club/api/tables", json={"name": name}, headers=headers)
            assert answer.status_code == 201
            self.tokens[name] = answer.get_json()["token"]

    def push(self, name: str, record: dict[str, Any]) -> None:
        self.n[name] += 1
        answer = self.client.post(f"/club/api/tables/{name}/changes", headers={
            "Authorization": f"Bearer {self.tokens[name]}"}, json={"changes": [
                {"n": self.n[name], "session": 1, "name": "周五", "record": record}]})
        assert answer.status_code == 200, answer.get_json()


def evening(club: ClubServer) -> tuple[FlaskClient, dict[str, dict[str, Any]], Tables]:
    """Two tables, four pairs, records of two deals each: (client, records by table, tables)."""
    client = club.app.test_client()
    headers = organiser(club)
    for name, players in PAIRS.items():
        assert client.post("/club/api/pairs", json={"name": name, "players": players},
                           headers=headers).status_code == 201
    tables = Tables(client, headers, ["A", "B"])
    records = {"A": evening_record((3, 4)), "B": evening_record((5, 6))}
    return client, records, tables


def test_two_round_evening(club: ClubServer) -> None:
    client, records, tables = evening(club)
    headers = organiser(club)
    for name in ("A", "B"):
        tables.push(name, setup_of(records[name]))
    answer = client.post("/club/api/rounds", headers=headers, json={
        "seating": "hand", "ends_by": "deals", "deals": 1,
        "tables": [{"table": "A", "ns": "P1", "ew": "P2"}, {"table": "B", "ns": "P3", "ew": "P4"}]})
    assert answer.status_code == 201, answer.get_json()
    one_deal = {name: record | {"deals": record["deals"][:1] + [record["deals"][1] | {"tricks": []}]}
                for name, record in records.items()}
    for name in ("A", "B"):
        tables.push(name, one_deal[name])
    assert client.get("/club/api/overview").get_json()["round"] | {"started": None} == {
        "round": 1, "ends_by": "deals", "deals": 1, "minutes": None, "started": None, "ends_at": None,
        "deals_played": {"A": 1, "B": 1}, "done": True}
    # a second round cannot start before the first ends
    assert client.post("/club/api/rounds", headers=headers, json={"seating": "swiss"}).status_code == 409
    assert client.post("/club/api/rounds/end", headers=headers).get_json() == {"ended": 1}
    after_one = client.get("/club/api/standings").get_json()["standings"]
    expected_one = standings([{"pair": pair, **pair_results(one_deal[t], 0, 1)[side]}
                              for t, side, pair in (("A", "ns", "P1"), ("A", "ew", "P2"),
                                                    ("B", "ns", "P3"), ("B", "ew", "P4"))])
    assert after_one == expected_one
    # round two: Swiss, first against second, third against fourth
    answer = client.post("/club/api/rounds", headers=headers, json={"seating": "swiss", "ends_by": "deals", "deals": 1})
    ranked = [row["pair"] for row in after_one]
    assert answer.get_json()["seatings"] == [{"table": "A", "ns": ranked[0], "ew": ranked[1]},
                                             {"table": "B", "ns": ranked[2], "ew": ranked[3]}]
    for name in ("A", "B"):
        tables.push(name, records[name])
    client.post("/club/api/rounds/end", headers=headers)
    rows = [{"pair": pair, **pair_results(one_deal[t], 0, 1)[side]}
            for t, side, pair in (("A", "ns", "P1"), ("A", "ew", "P2"), ("B", "ns", "P3"), ("B", "ew", "P4"))]
    rows += [{"pair": ranked[0], **pair_results(records["A"], 1, 2)["ns"]},
             {"pair": ranked[1], **pair_results(records["A"], 1, 2)["ew"]},
             {"pair": ranked[2], **pair_results(records["B"], 1, 2)["ns"]},
             {"pair": ranked[3], **pair_results(records["B"], 1, 2)["ew"]}]
    for rule in ("levels", "level_diff", "deals", "points"):
        final = client.get(f"/club/api/standings?rule={rule}").get_json()["standings"]
        assert final == standings(rows, rule)
        assert all(row["rounds"] == 2 for row in final)
        text = client.get(f"/club/standings.csv?rule={rule}").get_data(as_text=True)
        assert [r["pair"] for r in csv.DictReader(io.StringIO(text))] == [r["pair"] for r in final]
    png = client.get("/club/standings.png")
    assert png.status_code == 200 and png.data.startswith(b"\x89PNG\r\n\x1a\n")
    # the notice board's picture says what it shows: after which round, by which rule, on which day
    days = {date.today().isoformat()}
    english = client.get("/club/standings.png?rule=points&lang=en").data
    days.add(date.today().isoformat())
    header = ["Rank", "Pair", "Rounds", "Levels", "Level diff.", "Deals won", "Points"]
    by_points = standings(rows, "points")
    assert english in {standings_picture(by_points, f"Standings · after round 2 · by points · {day}", header) for day in days}
    chinese = client.get("/club/standings.png?rule=points&lang=zh").data
    assert chinese in {standings_picture(by_points, f"排名 · 第 2 轮后 · 按得分 · {day}",
                                         ["名次", "搭档", "轮", "升级", "级差", "胜局", "得分"]) for day in days}
    assert [r["round"] for r in client.get("/club/api/rounds").get_json()["rounds"]] == [1, 2]


def test_organiser_only_and_drawn_rounds(club: ClubServer) -> None:
    client, _, _ = evening(club)
    assert client.post("/club/api/rounds", json={"seating": "drawn"}).get_json() == {
        "error": "the organiser's token is needed"}
    answer = client.post("/club/api/rounds", headers=organiser(club), json={"seating": "drawn", "seed": 7,
                                                                            "ends_by": "time", "minutes": 40})
    seated = answer.get_json()["seatings"]
    assert sorted(p for s in seated for p in (s["ns"], s["ew"])) == sorted(PAIRS)
    assert client.get("/club/api/rounds").get_json()["rounds"][0]["minutes"] == 40
    refused = client.post("/club/api/pairs", headers=organiser(club), json={"name": "P1", "players": ["x", "y"]})
    assert refused.status_code == 409 and refused.get_json() == {"error": "pair 'P1' exists already"}


def test_a_round_by_time_counts_the_deals_finished_when_it_ends(club: ClubServer) -> None:
    client, records, tables = evening(club)
    headers = organiser(club)
    tables.push("A", setup_of(records["A"]))
    answer = client.post("/club/api/rounds", headers=headers, json={
        "seating": "hand", "ends_by": "time", "minutes": 30, "tables": [{"table": "A", "ns": "P1", "ew": "P2"}]})
    assert answer.status_code == 201
    one_deal = records["A"] | {"deals": records["A"]["deals"][:1] + [records["A"]["deals"][1] | {"tricks": []}]}
    tables.push("A", one_deal)
    live = client.get("/club/api/overview").get_json()["round"]
    assert live["ends_by"] == "time" and live["ends_at"] and live["done"] is False
    assert live["deals_played"] == {"A": 1}
    client.post("/club/api/rounds/end", headers=headers)
    at_end = client.get("/club/api/standings").get_json()["standings"]
    tables.push("A", records["A"])  # a deal finished after the round ended: not the round's
    assert client.get("/club/api/standings").get_json()["standings"] == at_end
    assert sum(row["deals_won"] for row in at_end) == 1
    assert client.get("/club/api/overview").get_json()["round"] is None


def backdate_round(dsn: str, seconds: int) -> None:
    """The round under way started ``seconds`` ago (a round of a minute, without waiting a minute)."""
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as connection:
        connection.execute("UPDATE club_rounds SET started = now() - make_interval(secs => %s) WHERE ended IS NULL",
                           (seconds,))


def test_a_round_by_time_ends_itself_at_its_end_time(club: ClubServer) -> None:
    """Nobody ends it: the server's clock does, at its end time; the pages are told, and the
    standings count the deals finished by then, not one finished after."""
    import time
    from datetime import datetime, timedelta

    client, records, tables = evening(club)
    store = club.app.extensions["tuolaji.club"]
    news = club.app.extensions["tuolaji.club.listener"].subscribe()
    tables.push("A", setup_of(records["A"]))
    client.post("/club/api/rounds", headers=organiser(club), json={
        "seating": "hand", "ends_by": "time", "minutes": 1, "tables": [{"table": "A", "ns": "P1", "ew": "P2"}]})
    one_deal = records["A"] | {"deals": records["A"]["deals"][:1] + [records["A"]["deals"][1] | {"tricks": []}]}
    tables.push("A", one_deal)
    time.sleep(1.5)
    assert store.rounds()[0]["ended"] is None  # a minute is not up yet: still under way
    backdate_round(store.dsn, 61)
    deadline = time.monotonic() + 10
    while store.rounds()[0]["ended"] is None and time.monotonic() < deadline:  # store.rounds() ends nothing itself
        time.sleep(0.1)
    ended = store.rounds()[0]
    assert ended["ended"] is not None, "the round by time did not end itself"
    assert datetime.fromisoformat(ended["ended"]) - datetime.fromisoformat(ended["started"]) == timedelta(minutes=1)
    seen = []
    while True:
        event = news.get(timeout=5)
        seen.append(event)
        if event.get("ended"):
            break
    assert {"round": 1, "ended": True} in seen
    at_end = client.get("/club/api/standings").get_json()["standings"]
    tables.push("A", records["A"])  # a deal finished after the end time: not the round's
    assert client.get("/club/api/standings").get_json()["standings"] == at_end
    assert sum(row["deals_won"] for row in at_end) == 1
    room = client.get("/club/api/overview").get_json()
    assert room["round"] is None and room["last_round"] == {"round": 1, "ends_by": "time", "ended": ended["ended"]}


def test_a_round_by_time_past_its_end_ends_when_the_room_is_read(club_db: str) -> None:
    """With no clock running (``ROUND_CHECK_S``: None), reading the room ends it as of its end time."""
    from datetime import datetime, timedelta

    from tuolaji.club.app import create_club_app

    app = create_club_app(club_db, {"ROUND_CHECK_S": None}, listen=False)
    server = ClubServer.__new__(ClubServer)
    server.app = app
    client, records, tables = evening(server)
    tables.push("A", setup_of(records["A"]))
    client.post("/club/api/rounds", headers=organiser(server), json={
        "seating": "hand", "ends_by": "time", "minutes": 5, "tables": [{"table": "A", "ns": "P1", "ew": "P2"}]})
    backdate_round(club_db, 301)
    assert app.extensions["tuolaji.club"].rounds()[0]["ended"] is None
    assert client.get("/club/api/overview").get_json()["round"] is None  # the room read: the round is over
    ended = client.get("/club/api/rounds").get_json()["rounds"][0]
    assert datetime.fromisoformat(ended["ended"]) - datetime.fromisoformat(ended["started"]) == timedelta(minutes=5)
    assert [row["rounds"] for row in client.get("/club/api/standings").get_json()["standings"]] == [1, 1]
