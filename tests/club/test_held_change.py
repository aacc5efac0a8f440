"""Issue 45: a change the club cannot store (a session renamed with a NUL by an older version, left in
the table's outbox) is refused with its reason, held rather than sent forever, shown on the table's
page and on the club's room, and mended from the table's page: the feed goes on. Over HTTP, on a
real PostgreSQL."""

from __future__ import annotations

import json
import sqlite3
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tuolaji.club.attach import attach_club
from tuolaji.club.outbox import OUTBOX_NAME, Outbox
from tuolaji.web import create_app, get_table

from .conftest import ClubServer, played_records
from .test_table_push import add_table, play, stored_record, wait_for


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read())


def _post(url: str, body: bytes, token: str | None = None) -> tuple[int, dict[str, Any]]:
    headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {})
    request = urllib.request.Request(url, data=body, method="POST", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        assert exc.headers.get_content_type() == "application/json", exc.read()[:200]
        return exc.code, json.loads(exc.read())


def test_a_push_naming_a_session_with_nul_is_refused_with_its_reason(club: ClubServer) -> None:
    token = add_table(club, "一号桌")
    url = club.url + "/club/api/tables/%E4%B8%80%E5%8F%B7%E6%A1%8C/changes"
    record = played_records(1)[0]
    for name in ("周五\u0000夜", "周五\u001b[31m夜", "\u202e周五夜", "周" * 65):
        change = {"n": 1, "session": 1, "name": name, "record": record}
        status, answer = _post(url, json.dumps({"changes": [change]}).encode(), token)
        assert status == 422, answer
        assert answer["n"] == 1 and answer["applied_through"] == 0 and answer["error"].startswith("change 1: ")
    overview = _get(club.url + "/club/api/overview")["tables"][0]
    assert overview["refused"]["n"] == 1 and "change 1" in overview["refused"]["reason"]
    # the change before a refused one is applied; a good change clears the room's line
    good = {"n": 1, "session": 1, "name": "周五夜", "record": record}
    bad = {"n": 2, "session": 1, "name": "\u0000", "record": record}
    status, answer = _post(url, json.dumps({"changes": [good, bad]}).encode(), token)
    assert status == 422 and answer["applied_through"] == 1 and answer["n"] == 2
    status, answer = _post(url, json.dumps({"changes": [bad | {"name": "周五夜", "n": 2}]}).encode(), token)
    assert status == 200 and answer["applied_through"] == 2
    assert _get(club.url + "/club/api/overview")["tables"][0]["refused"] is None


def test_what_postgresql_itself_refuses_is_refused_with_its_reason(club: ClubServer,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the names' rule (an older club, a value the rule lets through): the database's own refusal
    is the change's, 422 with its line, the changes before it kept; never a 500."""
    from tuolaji.club import store as club_store

    monkeypatch.setattr(club_store, "check_name", lambda name, where, **kwargs: name)
    token = add_table(club, "五号桌")
    url = club.url + "/club/api/tables/%E4%BA%94%E5%8F%B7%E6%A1%8C/changes"
    record = played_records(1)[0]
    changes = [{"n": 1, "session": 1, "name": "周五", "record": record},
               {"n": 2, "session": 1, "name": "周五\u0000夜", "record": record}]
    status, answer = _post(url, json.dumps({"changes": changes}).encode(), token)
    assert status == 422 and answer["n"] == 2 and answer["applied_through"] == 1, answer
    assert "database cannot store it" in answer["error"] and "NUL" in answer["error"]
    assert _get(club.url + "/club/api/overview")["tables"][0]["refused"]["n"] == 2


def _poisoned_table(tmp_path: Path, club: ClubServer, name: str, token: str) -> tuple[Any, Any, list[dict]]:
    """A table whose outbox holds, first, a change naming its session with a NUL (what an older
    version queued), then attached to the club."""
    records = played_records(2)
    app = create_app({"DATA_DIR": str(tmp_path / "t"), "TESTING": True, "RESUME_LATEST": False})
    table = get_table(app)
    session_id = table.start(records[0], name="周五夜", source="page")
    outbox = Outbox(tmp_path / "t" / OUTBOX_NAME)
    assert outbox.enqueue(session_id, "周五夜", records[0]) == 1
    with sqlite3.connect(outbox.path) as connection:
        connection.execute("UPDATE changes SET name = ? WHERE n = 1", ("周五\u0000夜",))
    pusher = attach_club(table, tmp_path / "t", club.url, name, token, retry_s=0.05, max_retry_s=0.2, timeout_s=3.0)
    return app, pusher, records


@pytest.mark.parametrize("mend", ["resend", "skip"])
def test_a_change_the_club_refuses_is_held_shown_and_mended_from_the_page(tmp_path: Path, club: ClubServer,
                                                                          mend: str) -> None:
    token = add_table(club, "二号桌")
    app, pusher, records = _poisoned_table(tmp_path, club, "二号桌", token)
    table = get_table(app)
    store = club.app.extensions["tuolaji.club"]
    try:
        wait_for(lambda: pusher.state == "held")
        assert pusher.outbox.held is not None and pusher.outbox.held[0] == 1
        client = app.test_client()
        state = client.get("/api/state").get_json()
        assert state["club"]["state"] == "held" and state["club"]["held"]["n"] == 1
        assert "U+0000" in state["club"]["held"]["reason"]
        room = _get(club.url + "/club/api/overview")["tables"][0]
        assert room["refused"]["n"] == 1 and "U+0000" in room["refused"]["reason"]
        page = club.app.test_client().get("/club/table/%E4%BA%8C%E5%8F%B7%E6%A1%8C/api/state").get_json()
        assert page["club"]["refused"]["n"] == 1
        # the table plays on; its changes wait behind the held one, which is not sent again and again
        play(table, records[1])
        time.sleep(0.5)
        assert pusher.state == "held" and store.last_n("二号桌") == 0 and pusher.outbox.last_n == 2
        # the page's buttons need the table's token
        from tests.conftest import anonymous

        assert anonymous(app).post(f"/api/club/{mend}", json={}).status_code == 403
        answer = client.post(f"/api/club/{mend}", json={})
        assert answer.status_code == 200, answer.get_json()
        assert answer.get_json()["club"]["held"] is None
        wait_for(lambda: store.last_n("二号桌") >= 1 and store.record("二号桌") == stored_record(table))
        wait_for(lambda: pusher.state == "up")
        assert _get(club.url + "/club/api/overview")["tables"][0]["refused"] is None
        assert client.get("/api/state").get_json()["club"]["held"] is None
        assert client.post(f"/api/club/{mend}", json={}).status_code == 400  # nothing held now
    finally:
        pusher.stop()


def test_the_last_change_skipped_clears_the_room_s_line(tmp_path: Path, club: ClubServer) -> None:
    token = add_table(club, "四号桌")
    app, pusher, _ = _poisoned_table(tmp_path, club, "四号桌", token)
    try:
        wait_for(lambda: pusher.state == "held")
        assert _get(club.url + "/club/api/overview")["tables"][0]["refused"]["n"] == 1
        assert app.test_client().post("/api/club/skip", json={}).status_code == 200
        wait_for(lambda: _get(club.url + "/club/api/overview")["tables"][0]["refused"] is None)
        wait_for(lambda: pusher.state == "up")
        assert pusher.outbox.last_n == 0 and pusher.outbox.held is None
    finally:
        pusher.stop()


@pytest.mark.browser
def test_the_table_s_page_shows_a_held_change_and_mends_it(page: Any, tmp_path: Path, club: ClubServer) -> None:
    import socket
    import threading

    from tuolaji.web.server import TableServer

    token = add_table(club, "三号桌")
    app, pusher, records = _poisoned_table(tmp_path, club, "三号桌", token)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    server = TableServer(app, sock)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        wait_for(lambda: pusher.state == "held")
        page.goto(f"{club.url}/club")  # the room (the director's page) says it too
        refused = page.locator(".table[data-table='三号桌'] .refused")
        refused.wait_for()
        assert "U+0000" in refused.inner_text()
        page.goto(f"http://127.0.0.1:{server.server_address[1]}/")
        line = page.locator("#club-line")
        line.wait_for()
        assert "U+0000" in line.inner_text() and "1" in line.inner_text()
        page.locator("#club-resend").click()
        line.wait_for(state="hidden", timeout=20_000)  # mended: the page is told (its state again)
        store = club.app.extensions["tuolaji.club"]
        wait_for(lambda: store.record("三号桌") == stored_record(get_table(app)))
        page.goto(f"{club.url}/club")
        page.locator(".table[data-table='三号桌']").wait_for()
        assert page.locator(".table[data-table='三号桌'] .refused").count() == 0
    finally:
        pusher.stop()
        server.shutdown(1.0)
        server.server_close()
