"""A table's own page at the club (``/club/table/<name>``): serve's live page drawn from the club's
copy of the table's record. Its state is serve's state for the same record; its events follow the
table's changes in order (LISTEN/NOTIFY); with the table's token a play typed there is played by the
table's machine, and a refusal comes back in both languages; without it, nothing is changed."""

from __future__ import annotations

import json
import threading
import urllib.request
from pathlib import Path
from typing import Any

from tuolaji.club.table_page import _cookie

from .conftest import ClubServer, played_records
from .test_table_push import add_table, play_on, stored_record, table_machine, wait_for


def test_state_is_serves_state(tmp_path: Path, club: ClubServer) -> None:
    token = add_table(club, "一号桌")
    table, pusher = table_machine(tmp_path, club, "一号桌", token)
    records = played_records(seed=21, plays=6)
    try:
        table.start(records[0], name="周五", source="page")  # type: ignore[attr-defined]
        play_on(table, records, 0, 6)
        assert pusher.flush(20.0)
        from tuolaji.web.state import state_payload

        served = json.loads(json.dumps(state_payload(table)))  # type: ignore[arg-type]
        at_club = club.app.test_client().get("/club/table/一号桌/api/state").get_json()
        assert at_club["state"] == served["state"]
        assert at_club["view"] == served["view"]
        assert at_club["profiles"] == served["profiles"]
        assert at_club["session"]["name"] == "周五" and at_club["club"] == {"table": "一号桌", "n": pusher.outbox.last_n,
                                                                 "refused": None}
    finally:
        pusher.stop()


def read_events(url: str, count: int, out: list[dict[str, Any]], ready: threading.Event) -> None:
    with urllib.request.urlopen(url, timeout=20) as stream:
        for raw in stream:
            line = raw.decode("utf-8").strip()
            if line.startswith("event: hello"):
                ready.set()
            if line.startswith("data: ") and not out and '"database"' in line and '"table"' in line:
                continue  # the hello's data
            if line.startswith("data: "):
                out.append(json.loads(line[6:]))
                if len(out) >= count:
                    return


def test_events_follow_the_table_in_order(club: ClubServer) -> None:
    token, other = add_table(club, "T"), add_table(club, "U")
    store = club.app.extensions["tuolaji.club"]
    records = played_records(seed=22, plays=8)
    events: list[dict[str, Any]] = []
    ready = threading.Event()
    reader = threading.Thread(target=read_events, args=(f"{club.url}/club/table/T/api/events", 8, events, ready),
                              daemon=True)
    reader.start()
    assert ready.wait(10)
    for n, record in enumerate(records[:8], start=1):
        store.push("U", other, [{"n": n, "session": 1, "name": "u", "record": record}])  # another table: not shown
        store.push("T", token, [{"n": n, "session": 1, "name": "t", "record": record}])
    reader.join(20)
    assert [e["n"] for e in events] == list(range(1, 9))
    assert all(e["type"] == "state-changed" and e["table"] == "T" for e in events)


def test_a_play_entered_on_the_page_is_the_tables(tmp_path: Path, club: ClubServer) -> None:
    token = add_table(club, "T")
    table, pusher = table_machine(tmp_path, club, "T", token)
    records = played_records(seed=23, plays=3)
    client = club.app.test_client()
    try:
        table.start(records[0], name="s", source="page")  # type: ignore[attr-defined]
        play_on(table, records, 0, 2)
        assert pusher.flush(20.0)
        trick = records[3]["deals"][0]["tricks"][-1]
        seat = (trick["leader"] + len(trick["plays"]) - 1) % 4

        # without the token: read-only
        refused = client.post("/club/table/T/api/play", json={"seat": seat, "cards": trick["plays"][-1]})
        assert refused.status_code == 403 and refused.get_json()["message"]["zh"].startswith("只读")
        assert "tuolaji-token" not in client.get("/club/table/T").get_data(as_text=True)

        # the token opened once (?token=…): kept in a cookie, in the page, and plays go to the table
        opened = client.get(f"/club/table/T?token={token}")
        assert opened.status_code == 302 and opened.headers["Location"] == "/club/table/T"
        assert client.get_cookie(_cookie("T"), path="/club/table/") is not None
        assert f'content="{token}"' in client.get("/club/table/T").get_data(as_text=True)
        # the cookie alone changes nothing (another site's page could make the browser send it): the header does
        assert client.post("/club/table/T/api/play", json={"seat": seat, "cards": trick["plays"][-1]}).status_code == 403
        headers = {"X-Tuolaji-Token": token}
        out_of_turn = client.post("/club/table/T/api/play", headers=headers,
                                  json={"seat": (seat + 1) % 4, "cards": " ".join(trick["plays"][-1])})
        assert out_of_turn.status_code == 409, out_of_turn.get_json()
        words = out_of_turn.get_json()["message"]
        assert "不是" in words["zh"] and "is to play" in words["en"]  # the table's reason, in both languages

        answer = client.post("/club/table/T/api/play", headers=headers, json={"seat": seat, "cards": trick["plays"][-1]})
        assert answer.status_code == 200, answer.get_json()
        assert answer.get_json()["state"]["record"]["deals"][0]["tricks"] == records[3]["deals"][0]["tricks"]
        assert stored_record(table)["deals"][0]["tricks"] == records[3]["deals"][0]["tricks"]
        wait_for(lambda: pusher.outbox.acked == pusher.outbox.last_n)

        # any other change is the table's own page's
        undo = client.post("/club/table/T/api/undo", headers=headers, json={})
        assert undo.status_code == 409 and "table's own page" in undo.get_json()["error"]

        # the table's machine away: the play waits at the club, and the page says so
        pusher.stop()
        club.app.config["CLUB_COMMAND_WAIT_S"] = 1.5
        waiting = client.post("/club/table/T/api/play", headers=headers, json={"seat": 0, "cards": ["AS"]})
        assert waiting.status_code == 504 and waiting.get_json()["queued"] is True, waiting.get_json()
        assert "已排队" in waiting.get_json()["message"]["zh"]
    finally:
        pusher.stop()
