"""Who may change the game (issue #17): the Host check, the table token, the Origin check, the
read-only view and its QR code; the 60-identical-cards play; lost updates under a resume;
a set-up never replacing bids; malformed requests as 4xx in both languages; size limits."""

from __future__ import annotations

import io
import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.conftest import TABLE_SETUP, anonymous
from tuolaji import scorer
from tuolaji.web import create_app, get_table
from tuolaji.web.security import TOKEN_COOKIE, TOKEN_FIELD, TOKEN_HEADER


def set_up(client: Any, **changes: Any) -> dict[str, Any]:
    response = client.post("/api/setup", json=TABLE_SETUP | changes)
    assert response.status_code in (200, 201), response.get_json()
    return response.get_json()


def session_ids(app: Flask) -> list[int]:
    return sorted(s.id for s in get_table(app).store.list())


# --- cross-site requests and host names ----------------------------------------------------------


STATE_CHANGING = [
    ("/sessions/1/delete", "form"), ("/api/sessions/1/delete", "text"), ("/sessions/1/resume", "form"),
    ("/api/sessions/1/resume", "text"), ("/sessions/import", "multipart"), ("/api/sessions/import", "text"),
    ("/api/next-deal", "form"), ("/api/play", "json"), ("/api/setup", "json"), ("/api/sessions/1/rename", "json"),
]


def _post(client: Any, path: str, how: str, **kwargs: Any) -> Any:
    record = scorer.random_record("single-deck", 1, hand_size=2)
    if how == "form":
        return client.post(path, data={"x": "1"}, **kwargs)
    if how == "multipart":
        return client.post(path, data={"file": (io.BytesIO(json.dumps(record).encode()), "r.json")},
                           content_type="multipart/form-data", **kwargs)
    if how == "text":
        return client.post(path, data=json.dumps(record), content_type="text/plain", **kwargs)
    return client.post(path, json={"seat": 0, "cards": ["AS"], "name": "x"} | TABLE_SETUP, **kwargs)


@pytest.mark.parametrize(("path", "how"), STATE_CHANGING)
def test_a_request_without_the_table_token_changes_nothing(app: Flask, client: Any, path: str, how: str) -> None:
    set_up(client)
    set_up(client, new=True)
    before = [(s.id, s.record) for s in get_table(app).store.list()]
    current = get_table(app).session_id
    stranger = anonymous(app)
    response = _post(stranger, path, how)
    assert response.status_code == 403
    if response.mimetype == "application/json":
        message = response.get_json()["message"]
        assert "口令" in message["zh"] and "token" in message["en"]
    assert [(s.id, s.record) for s in get_table(app).store.list()] == before
    assert get_table(app).session_id == current


@pytest.mark.parametrize("origin", ["http://evil.example", "null", "http://127.0.0.1:9"])
def test_a_request_from_another_origin_is_refused_even_with_the_token(app: Flask, client: Any, origin: str) -> None:
    set_up(client)
    response = client.post("/api/sessions/1/delete", headers={"Origin": origin})
    assert response.status_code == 403 and response.get_json()["code"] == "origin"
    assert session_ids(app) == [1]
    response = client.post("/api/sessions/1/delete", headers={"Referer": origin + "/page"})
    assert response.status_code == 403 and session_ids(app) == [1]
    assert client.post("/api/sessions/1/delete", headers={"Origin": "http://localhost"}).status_code == 200


def test_the_page_forms_carry_the_token_and_work(app: Flask, client: Any) -> None:
    set_up(client)
    page = anonymous(app).get("/sessions").get_data(as_text=True)  # bound to this machine: every page may write
    token = app.config["WRITE_TOKEN"]
    assert page.count(f'name="{TOKEN_FIELD}" value="{token}"') == 4  # resume, delete, import, import with pictures
    assert f'<meta name="tuolaji-token" content="{token}">' in anonymous(app).get("/").get_data(as_text=True)
    response = anonymous(app).post("/sessions/1/delete", data={TOKEN_FIELD: token})
    assert response.status_code == 302 and session_ids(app) == []


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8750", "rebind.attacker.test:80", "127.0.0.1.nip.io"])
def test_a_foreign_host_header_is_refused(client: Any, host: str) -> None:
    for response in (client.get("/", headers={"Host": host}), client.get("/api/state", headers={"Host": host}),
                     client.post("/api/setup", json=TABLE_SETUP, headers={"Host": host})):
        assert response.status_code == 400
    assert "主机名" in client.get("/api/state", headers={"Host": host}).get_json()["message"]["zh"]


@pytest.mark.parametrize("host", ["localhost:8750", "127.0.0.1:8750", "[::1]:8750", "192.168.1.20:8750",
                                  "table.localhost"])
def test_own_names_and_addresses_are_answered(client: Any, host: str) -> None:
    assert client.get("/api/state", headers={"Host": host}).status_code == 200


def test_allowed_host_names_are_answered(tmp_path: Path) -> None:
    app = create_app({"DATA_DIR": str(tmp_path), "ALLOWED_HOSTS": ("majiang-table",)})
    assert app.test_client().get("/", headers={"Host": "majiang-table:8750"}).status_code == 200
    assert app.test_client().get("/", headers={"Host": "other-table:8750"}).status_code == 400


# --- a table open to the network: the token, its cookie, the QR code, the read-only view ----------------


@pytest.fixture()
def lan_app(tmp_path: Path) -> Flask:
    return create_app({"DATA_DIR": str(tmp_path), "LOCAL_ONLY": False, "PUBLIC_URL": "http://192.168.1.20:8750/"})


def test_on_the_network_a_reader_without_the_token_only_reads(lan_app: Flask) -> None:
    lan_app.test_client().post("/api/setup", json=TABLE_SETUP)
    phone = anonymous(lan_app)
    page = phone.get("/").get_data(as_text=True)
    assert "tuolaji-token" not in page and 'class="page-live readonly"' in page and "只读" in page
    assert 'class="qr"' not in page  # no QR code (it holds the token) for a reader without it
    assert phone.get("/api/state").get_json()["session"]["id"] == 1
    assert phone.post("/api/play", json={"seat": 0, "cards": ["AS"]}).status_code == 403
    assert phone.post("/api/play", json={"seat": 0, "cards": ["AS"]}, headers={TOKEN_HEADER: "guess"}).status_code == 403
    assert phone.get("/?token=guess").status_code == 200  # a wrong token: still read-only
    assert "tuolaji-token" not in phone.get("/").get_data(as_text=True)


def test_the_qr_code_address_lets_a_phone_in(lan_app: Flask) -> None:
    token = lan_app.config["WRITE_TOKEN"]
    phone = anonymous(lan_app)
    response = phone.get(f"/?token={token}&lang=en")
    assert response.status_code == 302 and response.headers["Location"] == "/?lang=en"  # the token leaves the address bar
    cookie = response.headers["Set-Cookie"]
    assert f"{TOKEN_COOKIE}={token}" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    page = phone.get("/").get_data(as_text=True)
    assert f'content="{token}"' in page and "readonly" not in page.split("<body", 1)[1].split(">", 1)[0]
    assert '<div class="qr"><svg' in page and f"http://192.168.1.20:8750/?token={token}" in page  # for the next phone
    # the cookie alone does not write (another site's form would send it): the page sends the token
    assert phone.post("/api/setup", json=TABLE_SETUP).status_code == 403
    assert phone.post("/api/setup", json=TABLE_SETUP, headers={TOKEN_HEADER: token}).status_code == 201


def test_the_token_is_kept_in_the_data_folder_owner_only(tmp_path: Path) -> None:
    first = create_app({"DATA_DIR": str(tmp_path)}).config["WRITE_TOKEN"]
    assert create_app({"DATA_DIR": str(tmp_path)}).config["WRITE_TOKEN"] == first and len(first) >= 16
    assert (tmp_path / "table-token").stat().st_mode & 0o077 == 0


# --- 60 identical cards -----------------------------------------------------------------------------


def test_sixty_identical_cards_are_refused_within_a_second_and_resume_still_starts(tmp_path: Path) -> None:
    from tuolaji import cli
    from tuolaji.cli.serve import build_server

    app = create_app({"DATA_DIR": str(tmp_path), "TESTING": True})
    client = app.test_client()
    set_up(client)
    begun = time.monotonic()
    response = client.post("/api/play", json={"seat": 0, "cards": ["AS"] * 60})
    assert time.monotonic() - begun < 1.0
    assert response.status_code == 400 and "60" not in response.get_json()["error"].split(":")[0]
    assert "copies" in response.get_json()["error"] and "张以上" in response.get_json()["message"]["zh"]
    record = scorer.random_record("standard-2deck", 2, hand_size=3)
    record["deals"][0]["tricks"][0]["plays"][0] = ["AS"] * 60
    begun = time.monotonic()
    response = client.post("/api/sessions/import", json=record)
    assert time.monotonic() - begun < 1.0 and response.status_code == 400
    assert get_table(app).game.snapshot()["deals"][0].get("tricks", []) == []  # nothing was saved
    args = cli.build_parser().parse_args(["serve", "--resume", "--port", "0", "--data", str(tmp_path)])
    begun = time.monotonic()
    server, table = build_server(args)
    try:
        assert time.monotonic() - begun < 10 and table.session_id == 1
    finally:
        server.server_close()
        server.tuolaji_data_lock.close()


# --- lost updates -------------------------------------------------------------------------------------


def test_no_acknowledged_correction_is_lost_while_the_session_is_resumed(app: Flask) -> None:
    client = app.test_client()
    record = scorer.random_record("standard-2deck", 4, hand_size=6)
    client.post("/api/sessions/import", json=record)
    assert client.post("/api/sessions/1/resume").status_code == 200
    tricks = record["deals"][0]["tricks"]
    targets = [(t, s, i) for t, trick in enumerate(tricks) for s in range(4)
               for i in range(len(trick["plays"][(s - trick["leader"]) % 4]))]
    done: list[tuple[int, int, int]] = []
    stop = threading.Event()

    def resumer() -> None:
        other = app.test_client()
        while not stop.is_set():
            other.post("/api/sessions/1/resume")

    thread = threading.Thread(target=resumer)
    thread.start()
    try:
        for number, (t, s, i) in enumerate(targets * 3):
            response = client.post("/api/correct", json={"deal": 0, "trick": t, "seat": s, "index": i,
                                                         "card": scorer.CARD_NAMES[number % 52]})
            if response.status_code == 200:
                done.append((t, s, i))
    finally:
        stop.set()
        thread.join()
    stored = get_table(app).store.get(1).record
    kept = sum(len(trick.get("corrections", [])) for trick in stored["deals"][0]["tricks"])
    assert len(done) == len(targets) * 3 and kept == len(done)


# --- set-up and malformed requests --------------------------------------------------------------------


def test_a_set_up_never_replaces_bids_or_a_kitty(app: Flask, client: Any) -> None:
    set_up(client)
    assert client.post("/api/bid", json={"seat": 1, "cards": ["2S"]}).status_code == 200
    response = client.post("/api/setup", json=TABLE_SETUP | {"players": ["a", "b", "c", "d"]})
    assert response.status_code == 201 and response.get_json()["session"]["id"] == 2
    assert get_table(app).store.get(1).record["deals"][0]["bids"] == [{"seat": 1, "cards": ["2S"]}]
    response = client.post("/api/setup", json=TABLE_SETUP | {"players": ["e", "f", "g", "h"]})
    assert response.status_code == 200 and response.get_json()["session"]["id"] == 2  # nothing to lose: in place


@pytest.mark.parametrize(("path", "body"), [
    ("/api/setup", {"players": ["a", "b", "c", "d"], "profile": ["standard-2deck"]}),
    ("/api/setup", TABLE_SETUP | {"friends": [1]}),
    ("/api/setup", TABLE_SETUP | {"profile": "friends-3deck", "players": list("abcde"), "friends": [1]}),
    ("/api/setup", TABLE_SETUP | {"trump": ["H"]}),
    ("/api/setup", TABLE_SETUP | {"levels": [["2"]] * 4}),
    ("/api/setup", TABLE_SETUP | {"name": {"x": 1}}),
    ("/api/setup", TABLE_SETUP | {"dealer": "9" * 5000}),
    ("/api/deal", {"level": ["2"]}),
    ("/api/correct", {"deal": 2**63, "trick": 0, "seat": 0, "index": 0, "card": "AS"}),
    ("/api/correct", {"deal": -1, "trick": -1, "seat": 0, "index": 0, "card": "AS"}),
    ("/api/kitty", {"cards": ["AS"] * 500}),
])
def test_malformed_requests_are_4xx_with_a_message_in_both_languages(client: Any, path: str, body: Any) -> None:
    set_up(client)
    client.post("/api/play", json={"seat": 0, "cards": ["AS"]})
    response = client.post(path, json=body)
    assert 400 <= response.status_code < 500
    message = response.get_json()["message"]
    assert message["zh"] and message["en"]


@pytest.mark.parametrize("raw", ['{"name": "\\ud800"}', "[" * 5000 + "]" * 5000, '{"seat": ' + "1" * 5000 + "}",
                                 '{"seat": Infinity}', '{"seat": NaN}'])
def test_hostile_json_bodies_are_400(client: Any, raw: str) -> None:
    set_up(client)
    for path in ("/api/play", "/api/setup", "/api/sessions/1/rename", "/api/sessions/import", "/zuihe/api/score"):
        response = client.post(path, data=raw, content_type="application/json")
        assert response.status_code == 400, (path, response.status_code)


@pytest.mark.parametrize("path", ["/api/replay/9223372036854775808", "/api/sessions/18446744073709551616/export",
                                  "/replay/99999999999999999999", "/api/replay/1/at/99999999999999999999"])
def test_ids_beyond_sqlite_integers_are_404(client: Any, path: str) -> None:
    set_up(client)
    response = client.get(path)
    assert response.status_code == 404


def test_bodies_over_the_limit_are_413_with_a_message(app: Flask, client: Any) -> None:
    from tuolaji.web.api import MAX_IMPORT_BYTES

    big = b'{"players": "' + b"x" * (app.config["MAX_CONTENT_LENGTH"] + 10) + b'"}'
    response = client.post("/api/setup", data=big, content_type="application/json")
    assert response.status_code == 413 and "4 MB" in response.get_json()["message"]["en"]
    # an import takes a backup of whatever a table keeps (issue 45), and no more
    big = b'{"record": "' + b"x" * (MAX_IMPORT_BYTES + 10) + b'"}'
    response = client.post("/api/sessions/import", data=big, content_type="application/json")
    assert response.status_code == 413 and "33 MB" in response.get_json()["message"]["en"]
    response = client.post("/sessions/import", data={"file": (io.BytesIO(big), "big.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 413
    assert session_ids(app) == []


def test_a_corrupt_sessions_database_is_one_clear_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tuolaji import cli

    (tmp_path / "tuolaji.sqlite").write_bytes(b"this is not a database" * 100)
    assert cli.main(["serve", "--resume", "--port", "0", "--data", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "tuolaji.sqlite" in err and "cannot be read" in err and err.count("\n") == 1


def test_readers_never_wait_for_a_writes_audit(app: Flask, client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A play whose audit is held up: the page's state and a snapshot are still answered meanwhile."""
    from tuolaji.session import live

    set_up(client)
    release, auditing = threading.Event(), threading.Event()
    real_audit = live.scorer.audit_again  # the live game audits a change from its deal on

    def slow_audit(record: dict[str, Any], earlier: Any = None) -> Any:
        if threading.current_thread().name == "writer":
            auditing.set()
            release.wait(60)
        return real_audit(record, earlier)

    monkeypatch.setattr(live.scorer, "audit_again", slow_audit)
    writer = threading.Thread(target=lambda: app.test_client().post("/api/play", json={"seat": 0, "cards": ["AS"]}),
                              name="writer")
    writer.start()
    try:
        assert auditing.wait(30)
        answers: list[int] = []
        reader = threading.Thread(target=lambda: answers.append(app.test_client().get("/api/state").status_code))
        reader.start()
        reader.join(30)  # a guard against a deadlock, not a timing: it answers at once or never
        assert answers == [200]
        assert get_table(app).game.snapshot()["deals"][0]["tricks"][0]["plays"] == [["AS"]]
    finally:
        release.set()
        writer.join()


def test_resume_starts_even_when_the_latest_session_holds_sixty_identical_cards(tmp_path: Path,
                                                                                  capsys: pytest.CaptureFixture[str]
                                                                                  ) -> None:
    """A session an older version saved with 60 copies of a card (the hang of issue #17): the server starts."""
    from tuolaji import cli
    from tuolaji.cli.serve import build_server
    from tuolaji.web.store import DATABASE_NAME, SessionStore

    record = scorer.random_record("standard-2deck", 2, hand_size=3)
    record["deals"][0]["tricks"][0]["plays"][0] = ["AS"] * 60
    SessionStore(tmp_path / DATABASE_NAME).create(record, name="old", source="page")
    args = cli.build_parser().parse_args(["serve", "--resume", "--port", "0", "--data", str(tmp_path)])
    server, table = build_server(args)
    try:
        assert table.session_id is None and table.store.get(1).record == record  # kept, not opened
        assert "session 1 cannot be resumed" in capsys.readouterr().err
    finally:
        server.server_close()
        server.tuolaji_data_lock.close()
