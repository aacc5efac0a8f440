"""Commands from the club to a table's machine, the one writer of its record: a play entered on a
phone at the club, a referee's ruling from the console. Each comes back as the table's next
change: the club and the table keep one record."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from tuolaji.datasets.demo import demo_game

from .conftest import ClubServer, organiser, played_records
from .test_table_push import add_table, stored_record, table_machine


def wait_for(condition: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_a_phone_enters_plays_at_the_club(tmp_path: Path, club: ClubServer) -> None:
    token = add_table(club, "T")
    table, pusher = table_machine(tmp_path, club, "T", token)
    client = club.app.test_client()
    store = club.app.extensions["tuolaji.club"]
    records = played_records(seed=17, plays=3)
    try:
        table.start(records[0], name="s", source="page")  # type: ignore[attr-defined]
        first = records[1]["deals"][0]["tricks"][0]
        answer = client.post("/club/api/tables/T/plays", headers={"Authorization": f"Bearer {token}"},
                             json={"seat": first["leader"], "cards": first["plays"][0]})
        assert answer.status_code == 202
        command = answer.get_json()["command"]
        wait_for(lambda: client.get(f"/club/api/tables/T/commands/{command}").get_json()["result"] == "applied")
        assert pusher.flush(20.0)
        assert store.record("T") == stored_record(table) and stored_record(table)["deals"] == records[1]["deals"]
        # out of turn: refused by the table's rules, one line back, nothing changed
        answer = client.post("/club/api/tables/T/plays", headers={"Authorization": f"Bearer {token}"},
                             json={"seat": first["leader"], "cards": ["3C"]})
        late = answer.get_json()["command"]
        wait_for(lambda: client.get(f"/club/api/tables/T/commands/{late}").get_json()["result"] is not None)
        assert client.get(f"/club/api/tables/T/commands/{late}").get_json()["result"].startswith(
            "refused: trick 0: seat")  # the message in its one English (issue 44, item 3)
        assert stored_record(table)["deals"] == records[1]["deals"]
        # without the table's token, or with a card that is none: refused at the club, one line
        wrong = client.post("/club/api/tables/T/plays", json={"seat": 1, "cards": ["3C"]})
        assert wrong.status_code == 403 and wrong.get_json() == {"error": "table 'T': wrong token"}
        bad = client.post("/club/api/tables/T/plays", headers={"Authorization": f"Bearer {token}"},
                          json={"seat": 1, "cards": ["ZZ"]})
        assert bad.status_code == 400 and bad.get_json()["error"].startswith("play: ")
    finally:
        pusher.stop()


def test_a_ruling_from_the_console_goes_into_the_tables_record(tmp_path: Path, club: ClubServer) -> None:
    token = add_table(club, "T")
    table, pusher = table_machine(tmp_path, club, "T", token)
    client = club.app.test_client()
    store = club.app.extensions["tuolaji.club"]
    try:
        table.start(demo_game(), name="demo", source="page")  # type: ignore[attr-defined]
        assert pusher.flush(20.0)
        [violation] = client.get("/club/api/referee").get_json()["violations"]
        assert violation["table"] == "T" and violation["rule"] == "must-follow-suit" and violation["violation"] == 0
        assert client.post("/club/api/rulings", json={"table": "T", "deal": 0, "violation": 0}).status_code == 403
        before = client.get("/club/api/tables/T").get_json()["summary"]
        answer = client.post("/club/api/rulings", headers=organiser(club), json={
            "table": "T", "deal": violation["deal"] - 1, "violation": violation["violation"], "points": 20,
            "note": "垫牌违规"})
        assert answer.status_code == 202
        wait_for(lambda: bool(client.get("/club/api/referee").get_json()["rulings"]))
        [ruling] = client.get("/club/api/referee").get_json()["rulings"]
        assert ruling == {"table": "T", "deal": violation["deal"], "trick": violation["trick"],
                          "seat": violation["seat"], "rule": "must-follow-suit", "points": 20, "levels": None,
                          "by": "table", "player": demo_game()["players"][violation["seat"]]}  # by name (issue 43, item 4)
        recorded = stored_record(table)["deals"][violation["deal"] - 1]["rulings"]  # in the table's own record
        assert [(r["seat"], r["points"]) for r in recorded] == [(violation["seat"], 20)]
        assert client.get(f"/club/api/tables/T/commands/{answer.get_json()['command']}").get_json()["result"] == "applied"
        # a violation the deal does not have: refused by the table, one line back
        again = client.post("/club/api/rulings", headers=organiser(club), json={"table": "T", "deal": 0, "violation": 9})
        command = again.get_json()["command"]
        wait_for(lambda: client.get(f"/club/api/tables/T/commands/{command}").get_json()["result"] is not None)
        assert client.get(f"/club/api/tables/T/commands/{command}").get_json()["result"].startswith("refused: ")
        assert client.get("/club/api/tables/T").get_json()["summary"]["deal"] == before["deal"]
        assert pusher.flush(20.0) and store.record("T") == stored_record(table)
    finally:
        pusher.stop()
