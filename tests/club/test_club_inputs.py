"""Issue 45: the club checks cheaply first and refuses in one line of JSON, never an HTML 500: the
token before the body is read, a body limit, the project's JSON reader, values PostgreSQL cannot
take; and its pages carry serve's hardening. Over HTTP, on a real PostgreSQL."""

from __future__ import annotations

import http.client
import json
import socket
from typing import Any

from .conftest import ClubServer, organiser, played_records
from .test_table_push import add_table

TABLE = "/club/api/tables/%E4%B8%80%E5%8F%B7%E6%A1%8C"


def _call(club: ClubServer, method: str, path: str, body: bytes | None = None,
          headers: dict[str, str] | None = None) -> tuple[int, Any, http.client.HTTPResponse]:
    connection = http.client.HTTPConnection("127.0.0.1", club.port, timeout=10)
    try:
        connection.request(method, path, body=body, headers={"Content-Type": "application/json"} | (headers or {}))
        response = connection.getresponse()
        raw = response.read()
    finally:
        connection.close()
    if response.getheader("Content-Type", "").startswith("application/json"):
        return response.status, json.loads(raw), response
    return response.status, raw, response


def _refused_in_one_line(status: int, answer: Any, expected: int) -> None:
    assert status == expected, (status, answer)
    assert isinstance(answer, dict) and "\n" not in answer["error"], answer


def test_a_push_with_a_wrong_token_is_refused_before_its_body_is_read(club: ClubServer) -> None:
    add_table(club, "一号桌")
    record = played_records(1)[-1]
    big = {"changes": [{"n": n, "session": 1, "name": "x", "record": record} for n in range(1, 500)]}
    body = json.dumps(big).encode()
    assert len(body) > 1_000_000
    status, answer, _ = _call(club, "POST", TABLE + "/changes", body, {"Authorization": "Bearer wrong"})
    _refused_in_one_line(status, answer, 403)
    # malformed bodies with a wrong token: the token first (before, they were parsed and answered 400 or 500)
    for bad in (b"[" * 100_000 + b"]" * 100_000, b'{"changes": [{"n": 1}]}', b"\xff\xfe"):
        status, answer, _ = _call(club, "POST", TABLE + "/changes", bad, {"Authorization": "Bearer wrong"})
        _refused_in_one_line(status, answer, 403)
    status, answer, _ = _call(club, "POST", "/club/api/tables/nowhere/changes", b"[[[", {"Authorization": "Bearer x"})
    _refused_in_one_line(status, answer, 404)


def test_no_malformed_push_gets_a_500(club: ClubServer) -> None:
    token = add_table(club, "一号桌")
    auth = {"Authorization": f"Bearer {token}"}
    record = played_records(1)[0]
    bodies = [b"[" * 5000 + b"]" * 5000, b'{"changes": ' + b"[" * 40 + b"]" * 40 + b"}", b"\xff", b"{",
              b'{"changes": [{"n": 1e400}]}', b'{"changes": [{"n": 1, "session": 1, "record": {"x": "\\ud800"}}]}',
              json.dumps({"changes": [{"n": 2**70, "session": 1, "name": "x", "record": record}]}).encode(),
              json.dumps({"changes": [{"n": 1, "session": 2**63, "name": "x", "record": record}]}).encode(),
              json.dumps({"changes": [{"n": 1, "session": 1, "name": "\u0000", "record": record}]}).encode(),
              json.dumps({"changes": "x"}).encode(), b"null", b"12"]
    for body in bodies:
        status, answer, _ = _call(club, "POST", TABLE + "/changes", body, auth)
        assert 400 <= status < 500, (body[:60], status, answer)
        assert isinstance(answer, dict) and "\n" not in answer["error"], (body[:60], answer)


def test_a_body_over_the_limit_is_refused_unread(club: ClubServer) -> None:
    token = add_table(club, "一号桌")
    with socket.create_connection(("127.0.0.1", club.port), timeout=10) as sock:
        sock.sendall((f"POST {TABLE}/changes HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
                      f"Content-Type: application/json\r\nContent-Length: {400 * 1024 * 1024}\r\n\r\n{{").encode())
        head = sock.recv(4096).decode("latin-1")  # answered with 399 MiB never sent
    assert head.startswith("HTTP/1.1 413"), head[:200]
    client = club.app.test_client()  # the application's own limit (gunicorn has none)
    answer = client.post(TABLE + "/changes", data=b"{", headers={"Authorization": f"Bearer {token}"},
                         environ_overrides={"CONTENT_LENGTH": str(400 * 1024 * 1024)})
    assert answer.status_code == 413 and "MiB" in answer.get_json()["error"], answer.get_json()


def test_values_postgresql_cannot_take_are_refused_as_json(club: ClubServer) -> None:
    add_table(club, "一号桌")
    for path in (TABLE + "?session=9223372036854775808", "/club/api/tables/%00", "/club/table/%00/api/state",
                 TABLE + "/commands/99999999999999999999", TABLE + "/commands?after=9223372036854775808"):
        status, answer, _ = _call(club, "GET", path)
        assert 400 <= status < 500 and isinstance(answer, dict), (path, status, answer)
    for body in ({"ends_by": "time", "minutes": 99999999999, "seating": "hand", "tables": []},
                 {"ends_by": "deals", "deals": 2, "seating": "swiss", "rule": "nonsense"},
                 {"ends_by": "deals", "deals": 10**12, "seating": "hand", "tables": []}):
        status, answer, _ = _call(club, "POST", "/club/api/rounds", json.dumps(body).encode(), organiser(club))
        _refused_in_one_line(status, answer, 400)
    status, answer, _ = _call(club, "GET", "/club/no-such-page")
    _refused_in_one_line(status, answer, 404)


def test_the_club_s_pages_are_hardened(club: ClubServer) -> None:
    for path in ("/club", "/club/standings", "/club/api/overview", "/club/table/x"):
        _, _, response = _call(club, "GET", path)
        assert response.getheader("X-Frame-Options") == "DENY", path
        assert "frame-ancestors 'none'" in response.getheader("Content-Security-Policy", ""), path
        assert response.getheader("X-Content-Type-Options") == "nosniff", path
    status, answer, _ = _call(club, "GET", "/club/api/overview", headers={"Host": "evil.example"})
    _refused_in_one_line(status, answer, 400)
    assert _call(club, "GET", "/club/api/overview", headers={"Host": "localhost:8760"})[0] == 200


def test_the_standings_csv_escapes_formulas(club: ClubServer) -> None:
    store = club.app.extensions["tuolaji.club"]
    store.add_pair("=1+2", "甲", "乙")
    store.add_pair("@SUM(A1)", "丙", "丁")
    add_table(club, "一号桌")
    store.start_round(seating="hand", tables=[{"table": "一号桌", "ns": "=1+2", "ew": "@SUM(A1)"}])
    status, text, _ = _call(club, "GET", "/club/standings.csv")
    assert status == 200
    cells = [line.split(",")[1] for line in text.decode().splitlines()[1:]]
    assert sorted(cells) == ["'=1+2", "'@SUM(A1)"]


def test_a_command_s_body_needs_a_token(club: ClubServer) -> None:
    token = add_table(club, "一号桌")
    command = club.app.extensions["tuolaji.club"].add_command("一号桌", "play", {"seat": 0, "cards": ["AS"]})
    status, answer, _ = _call(club, "GET", f"{TABLE}/commands/{command}")
    assert status == 200 and "body" not in answer and answer["kind"] == "play"
    status, answer, _ = _call(club, "GET", f"{TABLE}/commands/{command}", headers={"Authorization": f"Bearer {token}"})
    assert status == 200 and answer["body"] == {"seat": 0, "cards": ["AS"]}


def test_names_at_the_club_follow_the_rule(club: ClubServer) -> None:
    for name in ("周\u0000五", "\u202e一号桌", "一号\n桌", "桌" * 65):
        status, answer, _ = _call(club, "POST", "/club/api/tables", json.dumps({"name": name}).encode(),
                                  organiser(club))
        _refused_in_one_line(status, answer, 400)
        body = {"name": name, "players": ["甲", "乙"]}
        status, answer, _ = _call(club, "POST", "/club/api/pairs", json.dumps(body).encode(), organiser(club))
        _refused_in_one_line(status, answer, 400)
        body = {"name": "对一", "players": ["甲", name]}
        status, answer, _ = _call(club, "POST", "/club/api/pairs", json.dumps(body).encode(), organiser(club))
        _refused_in_one_line(status, answer, 400)
    assert _call(club, "GET", "/club/api/pairs")[1] == {"pairs": []}
