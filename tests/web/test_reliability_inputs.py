"""Issue #33's input findings: the escaped-quote string every reader must read in linear time,
the data folder resolved once, no framing and no sniffing, zip imports checked from their
directory (damaged zips, the zip bomb, a picture that is not a JPEG), the token kept out of the
logs and of the spectator view, names matched whole.

No test here times anything: each one asserts the answer (a clear refusal, the bytes read, the
memory used); ``bench/fuzz_bench.py --cost`` prints how long each reader and route takes."""

from __future__ import annotations

import io
import json
import logging
import struct
import threading
import tracemalloc
import urllib.request
import zipfile
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, Response

from tests.conftest import anonymous
from tests.fuzz_harness import Workspace, cli_targets, escaped_quotes, run_cli, zip_bomb
from tuolaji import scorer
from tuolaji.scorer import safejson
from tuolaji.scorer.safejson import MAX_HAND_BYTES
from tuolaji.web import create_app
from tuolaji.web.pictures import MAX_ZIP_ENTRIES, pictures_dir
from tuolaji.web.security import MAX_QUERY_BYTES, REDACTOR, TOKEN_COOKIE, protect_response

SIZES = (64 * 1024, 128 * 1024)


# --- 1. every reader linear in its input -------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_the_json_reader_refuses_an_unterminated_string_of_escaped_quotes(size: int) -> None:
    text = escaped_quotes(size)
    assert len(text) == size and text.startswith('"\\"\\"')
    with pytest.raises(safejson.JSONInputError) as refused:
        safejson.loads(text, "body")
    assert str(refused.value) == "body: not valid JSON: Unterminated string starting at line 1 column 1"
    assert safejson.nesting_depth("[" + text) == 1  # the unterminated string runs to the end: its brackets do not count
    assert safejson.nesting_depth('["\\\\", "[[", "\\"[", {"a": "\\\\\\"]"}]') == 2


@pytest.fixture(scope="module")
def ws() -> Any:
    workspace = Workspace()
    yield workspace
    workspace.close()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("target", ["audit", "audit --json", "zuihe", "replay --setup", "serve --record",
                                    "render-video --record"])
def test_every_command_refuses_the_escaped_quote_string_with_one_line(ws: Workspace, target: str, size: int) -> None:
    outcome = cli_targets(ws)[target](escaped_quotes(size).encode())
    assert outcome.kind == "refused", outcome
    if target == "zuihe" and size > MAX_HAND_BYTES:  # a hand is read no further than 64 KiB and a byte
        assert f"{MAX_HAND_BYTES + 1:,} bytes, over the limit of {MAX_HAND_BYTES:,}" in outcome.detail
    else:
        assert "not valid JSON: Unterminated string starting at line 1 column 1" in outcome.detail


def test_tuolaji_audit_prints_one_line_for_the_escaped_quote_string(ws: Workspace, capsys: Any) -> None:
    from tuolaji import cli

    path = ws.file(escaped_quotes(128 * 1024).encode(), "quotes.json")
    assert cli.main(["audit", path]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not valid JSON: Unterminated string starting at line 1 column 1" in err


def test_the_zuihe_route_without_a_token_refuses_the_escaped_quote_string(app: Flask) -> None:
    stranger = anonymous(app)
    at_limit = escaped_quotes(MAX_HAND_BYTES - 1)
    answer = stranger.post("/zuihe/api/score", data=at_limit, content_type="application/json")
    assert answer.status_code == 400
    assert answer.get_json()["error"] == "request body: not valid JSON: Unterminated string starting at line 1 column 1"
    for size in (MAX_HAND_BYTES + 1, 128 * 1024):  # past the 嘴和's limit: refused before it is parsed
        answer = stranger.post("/zuihe/api/score", data=escaped_quotes(size), content_type="application/json")
        assert answer.status_code == 400
        assert answer.get_json()["error"] == f"request body: {size:,} bytes, over the limit of {MAX_HAND_BYTES:,}"
        assert answer.get_json()["message"]["zh"].startswith("请求内容")


def test_get_parameters_are_bounded_and_read_in_linear_time(app: Flask) -> None:
    stranger = anonymous(app)
    for size in SIZES:
        for path in ("/api/rules?options=", "/sessions?error=", "/api/rules?profile=", "/?lang="):
            assert stranger.get(path + escaped_quotes(size)).status_code == 414, path
        answer = stranger.get("/api/rules?options=" + escaped_quotes(size), headers={"Accept": "application/json"})
        message = answer.get_json()["message"]
        assert message["zh"].startswith("地址太长") and f"the limit is {MAX_QUERY_BYTES:,}" in message["en"]
    under = escaped_quotes((MAX_QUERY_BYTES - len("options=")) // 3)  # under the limit even %-encoded: read
    answer = stranger.get("/api/rules?options=" + under)
    assert answer.status_code == 400 and "Unterminated string" in answer.get_json()["error"]
    assert stranger.get("/api/rules?options=" + json.dumps({"dealer_stays": "true"})).status_code == 200


@pytest.mark.parametrize("size", SIZES)
def test_imports_refuse_the_escaped_quote_string(client: Any, size: int) -> None:
    data = escaped_quotes(size)
    answer = client.post("/api/sessions/import", data=data, content_type="application/json")
    assert answer.status_code == 400
    assert answer.get_json()["error"] == "request body: not valid JSON: Unterminated string starting at line 1 column 1"
    answer = client.post("/api/sessions/import.zip", data=zip_of({"record.json": data.encode()}),
                         content_type="application/zip")
    assert answer.status_code == 400 and "record.json: not valid JSON: Unterminated string" in answer.get_json()["error"]


# --- 4. the data folder resolved once ----------------------------------------------------------


@pytest.mark.parametrize("given", ["data", None])
def test_pictures_are_served_from_a_relative_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        given: str | None) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TUOLAJI_DATA", raising=False)
    app = create_app({"DATA_DIR": given, "TESTING": True})  # None: the default ./data
    assert app.config["DATA_DIR"] == str(tmp_path / "data")
    folder = pictures_dir(Path("data"), 1)
    folder.mkdir(parents=True)
    (folder / "d0-f1-s0.jpg").write_bytes(b"\xff\xd8\xff\xe0 a picture")
    answer = app.test_client().get("/pictures/1/d0-f1-s0.jpg")
    assert answer.status_code == 200 and answer.data == b"\xff\xd8\xff\xe0 a picture"
    assert answer.mimetype == "image/jpeg"


# --- 5. no framing, no sniffing ----------------------------------------------------------------


def test_every_response_forbids_framing_and_sniffing(app: Flask, client: Any) -> None:
    folder = pictures_dir(Path(app.config["DATA_DIR"]), 1)
    folder.mkdir(parents=True)
    (folder / "d0-f1-s0.jpg").write_bytes(b"\xff\xd8\xff")
    stranger = anonymous(app)
    answers = [client.get(path) for path in ("/", "/sessions", "/watch", "/referee", "/api/state", "/zuihe/",
                                             "/zuihe/static/zuihe.js", "/cards/AS.svg", "/pictures/1/d0-f1-s0.jpg",
                                             "/no-such-page", "/api/replay/99")]
    answers += [stranger.post("/api/setup", json={}), client.get("/", headers={"Host": "evil.example"}),
                stranger.post("/zuihe/api/score", json={"hand": []})]
    for answer in answers:
        assert answer.headers["X-Frame-Options"] == "DENY", answer
        assert answer.headers["Content-Security-Policy"] == "frame-ancestors 'none'", answer
        assert answer.headers["X-Content-Type-Options"] == "nosniff", answer
    assert {answer.status_code for answer in answers} >= {200, 400, 403, 404}


@pytest.mark.parametrize(("given", "merged"), [
    ("default-src 'self'", "default-src 'self'; frame-ancestors 'none'"),
    ("default-src 'self'; ", "default-src 'self'; frame-ancestors 'none'"),
    ("frame-ancestors *; img-src data:", "frame-ancestors 'none'; img-src data:"),
    ("img-src data:;frame-ancestors https://a.example", "img-src data:;frame-ancestors 'none'"),
])
def test_a_policy_already_set_keeps_its_rules_and_forbids_framing(app: Flask, given: str, merged: str) -> None:
    with app.test_request_context("/"):
        answer = protect_response(Response("x", headers={"Content-Security-Policy": given}))
    assert answer.headers["Content-Security-Policy"] == merged
    assert answer.headers.getlist("Content-Security-Policy") == [merged]


# --- 6. zip imports ------------------------------------------------------------------------------


def zip_of(files: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def patched(raw: bytes, name: bytes, field: int, fmt: str, value: int, *, local: int | None = None) -> bytes:
    """``raw`` with one field of ``name``'s central directory entry (and of its local header) changed."""
    data = bytearray(raw)
    at = data.index(b"PK\x01\x02")
    while data[at + 46:at + 46 + len(name)] != name:
        at = data.index(b"PK\x01\x02", at + 4)
    struct.pack_into(fmt, data, at + field, value)
    if local is not None:
        struct.pack_into(fmt, data, struct.unpack_from("<L", data, at + 42)[0] + local, value)
    return bytes(data)


def a_record() -> bytes:
    return json.dumps(scorer.random_record("single-deck", 1, tricks=2)).encode()


def import_zip(client: Any, raw: bytes) -> Any:
    return client.post("/api/sessions/import.zip", data=raw, content_type="application/zip")


def refused(answer: Any, *words: str) -> str:
    assert answer.status_code == 400, answer.get_json()
    body = answer.get_json()
    assert body["error"].startswith("import: ") and "\n" not in body["error"]
    assert body["message"]["zh"].startswith("导入："), body
    for word in words:
        assert word in body["error"], body["error"]
    return body["error"]


def test_damaged_zips_are_one_clear_400(client: Any) -> None:
    good = zip_of({"record.json": a_record(), "session.json": b'{"name": "x"}'})
    assert import_zip(client, good).status_code == 201
    encrypted = patched(good, b"record.json", 8, "<H", 0x1, local=6)
    refused(import_zip(client, encrypted), "record.json is encrypted")
    method = patched(good, b"record.json", 10, "<H", 99, local=8)
    refused(import_zip(client, method), "record.json is compressed by method 99")
    data_at = good.index(b"record.json") + len(b"record.json")  # the local header's name, then the deflate stream
    corrupt = good[:data_at] + b"\xff\xff\xff" + good[data_at + 3:]
    refused(import_zip(client, corrupt), "record.json: its compressed data is damaged")
    bad_crc = patched(good, b"record.json", 16, "<L", 0x12345678)
    refused(import_zip(client, bad_crc), "record.json fails its checksum")
    stored = zip_of({"record.json": a_record()}, zipfile.ZIP_STORED)
    size = struct.unpack_from("<L", stored, stored.index(b"PK\x01\x02") + 20)[0]
    cut = patched(patched(stored, b"record.json", 20, "<L", size + 5000), b"record.json", 24, "<L", size + 5000)
    refused(import_zip(client, cut), "record.json is cut short")  # its data runs past the end of the zip
    refused(import_zip(client, good[: len(good) // 2]), "expected a zip with record.json")
    refused(import_zip(client, b"PK\x05\x06" + b"\x00" * 18), "expected a zip with record.json")
    bzip2 = zip_of({"record.json": a_record()}, zipfile.ZIP_BZIP2)
    refused(import_zip(client, bzip2), "compressed by method 12")


def import_zip_measured(client: Any, raw: bytes) -> tuple[Any, int]:
    """The answer to importing ``raw``, and the peak of memory Python allocated meanwhile."""
    tracemalloc.start()
    try:
        answer = import_zip(client, raw)
        return answer, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_zip_bomb_is_refused_from_its_directory_with_little_memory(client: Any) -> None:
    raw = zip_bomb()
    assert len(raw) < 2 * 1024 * 1024
    assert zipfile.ZipFile(io.BytesIO(raw)).getinfo("record.json").file_size == 1 << 30
    answer, peak = import_zip_measured(client, raw)
    refused(answer, "record.json: 1,073,741,824 bytes unpacked, over the limit of 33,554,432")
    assert peak < 32 * 1024 * 1024  # the zip (1 MB) and its directory, never the 1 GiB inside
    # a directory that lies (a small size for the same stream): the read stops at what it claims
    lying = patched(raw, b"record.json", 24, "<L", 1000)
    answer, peak = import_zip_measured(client, lying)
    refused(answer, "record.json fails its checksum")
    assert peak < 32 * 1024 * 1024


def test_zips_of_too_many_files_or_pictures_are_refused_before_reading(client: Any) -> None:
    many = zip_of({"record.json": a_record()} | {f"x{n}": b"" for n in range(MAX_ZIP_ENTRIES)}, zipfile.ZIP_STORED)
    refused(import_zip(client, many), f"a zip of {MAX_ZIP_ENTRIES + 1:,} files (at most {MAX_ZIP_ENTRIES:,})")
    big = {f"pictures/d0-f{n}-s0.jpg": b"\xff\xd8" + b"\x00" * (2 * 1024 * 1024 - 2) for n in range(33)}
    refused(import_zip(client, zip_of({"record.json": a_record()} | big)), "pictures of 69,206,016 bytes unpacked")
    one = {"pictures/d0-f1-s0.jpg": b"\xff\xd8" + b"\x00" * (3 * 1024 * 1024)}
    refused(import_zip(client, zip_of({"record.json": a_record()} | one)), "d0-f1-s0.jpg: 3,145,730 bytes unpacked")


def test_a_picture_that_is_not_a_jpeg_is_refused(app: Flask, client: Any) -> None:
    page = b"<html><script>alert(document.cookie)</script></html>"
    raw = zip_of({"record.json": a_record(), "pictures/d0-f1-s0.jpg": page})
    refused(import_zip(client, raw), "pictures/d0-f1-s0.jpg is not a JPEG picture")
    assert not (Path(app.config["DATA_DIR"]) / "pictures").exists()
    # one kept before imports checked them is not served as a picture either
    folder = pictures_dir(Path(app.config["DATA_DIR"]), 1)
    folder.mkdir(parents=True)
    (folder / "d0-f1-s0.jpg").write_bytes(page)
    assert client.get("/pictures/1/d0-f1-s0.jpg").status_code == 404


def test_the_sessions_form_shows_a_damaged_zip_as_one_line(client: Any) -> None:
    good = zip_of({"record.json": a_record()})
    encrypted = patched(good, b"record.json", 8, "<H", 0x1, local=6)
    answer = client.post("/sessions/import.zip", data={"file": (io.BytesIO(encrypted), "x.zip")},
                         content_type="multipart/form-data")
    assert answer.status_code == 302 and "encrypted" in answer.headers["Location"]
    assert client.get(answer.headers["Location"]).status_code == 200


# --- 9. the token out of the logs and of the spectator view; names matched whole ----------------


def test_the_token_is_redacted_from_the_request_log(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from werkzeug.serving import make_server

    app = create_app({"DATA_DIR": str(tmp_path), "LOCAL_ONLY": False})
    token = app.config["WRITE_TOKEN"]
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    port = server.server_address[1]
    try:
        with caplog.at_level(logging.INFO, logger="werkzeug"):
            for path in (f"/sessions?token={token}", f"/?lang=en&token={token}", f"/api/state?_token={token}"):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30).read()
                except urllib.error.HTTPError:
                    pass
    finally:
        server.shutdown()
        server.server_close()
    logged = [record.getMessage() for record in caplog.records if record.name == "werkzeug"]
    assert any("GET /sessions?token=…redacted HTTP" in line for line in logged), logged
    assert any("GET /?lang=en&token=…redacted HTTP" in line for line in logged), logged
    assert any("GET /api/state?_token=…redacted HTTP" in line for line in logged), logged
    assert not any(token in line for line in logged)


def test_the_token_is_redacted_wherever_a_server_logs_it(app: Flask, caplog: pytest.LogCaptureFixture) -> None:
    token = app.config["WRITE_TOKEN"]
    with caplog.at_level(logging.INFO):
        logging.getLogger("waitress").error("Exception while serving %s", f"/sessions?token={token}")
        logging.getLogger("werkzeug").info("Referer: http://x/%s", f"watch#{token}")
        app.logger.warning("token %s in a message", token)
    assert token not in caplog.text
    assert "/sessions?token=…redacted" in caplog.text and "watch#…redacted" in caplog.text
    assert REDACTOR.redact("a=1&TOKEN=abc d") == "a=1&TOKEN=…redacted d"


@pytest.mark.parametrize("local_only", [True, False])
def test_the_spectator_view_holds_no_token_and_a_script_on_it_cannot_fetch_one(tmp_path: Path,
                                                                               local_only: bool) -> None:
    app = create_app({"DATA_DIR": str(tmp_path), "TESTING": True, "LOCAL_ONLY": local_only})
    token = app.config["WRITE_TOKEN"]
    browser = anonymous(app)
    browser.set_cookie(TOKEN_COOKIE, token)  # the referee's browser: it holds the token
    page = browser.get("/watch", headers={"Sec-Fetch-Dest": "document", "Sec-Fetch-Mode": "navigate"})
    assert page.status_code == 200 and token not in page.get_data(as_text=True)
    assert page.headers["Cross-Origin-Opener-Policy"] == "same-origin"
    # what a script on /watch could fetch: the pages that hold the token, without it
    for path in ("/", "/sessions", "/referee", "/camera"):
        fetched = browser.get(path, headers={"Sec-Fetch-Dest": "empty", "Sec-Fetch-Mode": "cors",
                                             "Referer": "http://localhost/watch"})
        assert fetched.status_code == 200 and token not in fetched.get_data(as_text=True), path
    # opened as a page, the table holds it (so it can write); a change without it is refused
    assert token in browser.get("/", headers={"Sec-Fetch-Dest": "document"}).get_data(as_text=True)
    assert token in browser.get("/").get_data(as_text=True)  # a client that sends no Sec-Fetch headers
    refused = browser.post("/api/setup", json={}, headers={"Origin": "http://localhost"})
    assert refused.status_code == 403 and refused.get_json()["code"] == "token"


def test_names_are_matched_whole(app: Flask, client: Any) -> None:
    from tuolaji.scorer.errors import InputError
    from tuolaji.vision.decks import check_deck_name, list_decks

    assert check_deck_name("club-3decks") == "club-3decks"
    for bad in ("club\n", "club\n\n", "\nclub"):
        with pytest.raises(InputError, match="deck name"):
            check_deck_name(bad)
    data = Path(app.config["DATA_DIR"])
    for name in ("ok", "bad\n"):
        (data / "decks" / name).mkdir(parents=True)
        (data / "decks" / name / "head.npz").write_bytes(b"")
    assert list_decks(data) == ["ok"]
    answer = client.post("/api/decks/enrol/start", json={"name": "a/b\n"})
    assert answer.status_code == 400
    # a picture's file name ending in a newline: neither served nor imported
    folder = pictures_dir(data, 7)
    folder.mkdir(parents=True)
    (folder / "d0-f1-s0.jpg\n").write_bytes(b"\xff\xd8\xff")
    assert client.get("/pictures/7/d0-f1-s0.jpg%0A").status_code == 404
    raw = zip_of({"record.json": a_record(), "pictures/d0-f1-s0.jpg\n": b"\xff\xd8\xff"})
    answer = import_zip(client, raw)
    assert answer.status_code == 201 and answer.get_json()["pictures"] == 0
    assert not pictures_dir(data, answer.get_json()["id"]).exists()


def test_a_record_naming_a_picture_with_a_newline_gets_no_address() -> None:
    from tuolaji.web.pictures import pictures_of

    record = {"deals": [{"pictures": [{"trick": 0, "seat": 0, "file": "d0-f1-s0.jpg\n"},
                                      {"trick": 0, "seat": 1, "file": "d0-f2-s1.jpg"}]}]}
    assert [p["url"] for p in pictures_of(record, 5).values()] == ["/pictures/5/d0-f2-s1.jpg"]


def test_the_cli_reads_the_escaped_quote_string_from_stdin(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    import sys

    class Stdin:
        buffer = io.BytesIO(escaped_quotes(MAX_HAND_BYTES).encode() + b"more than a hand holds")

    monkeypatch.setattr(sys, "stdin", Stdin())
    outcome = run_cli(["zuihe", "-"])
    assert outcome.kind == "refused"
    assert f"stdin: {MAX_HAND_BYTES + 1:,} bytes, over the limit of {MAX_HAND_BYTES:,}" in outcome.detail
    Stdin.buffer = io.BytesIO(escaped_quotes(MAX_HAND_BYTES).encode())
    outcome = run_cli(["zuihe", "-"])
    assert outcome.kind == "refused" and "stdin: not valid JSON: Unterminated string starting at line 1" in outcome.detail


def test_the_routes_without_a_token_answer_every_cost_input_at_and_past_their_limits() -> None:
    """The cost bench's inputs through the routes anyone may call (their limits are small): each one
    answered or cleanly refused (the bench prints how long each takes)."""
    from tests.fuzz_harness import Tally, cost_inputs, cost_readers, cost_routes

    workspace = Workspace()
    tally = Tally()
    try:
        everything = cost_routes(workspace) | cost_readers(workspace)
        targets = {name: target for name, target in everything.items() if target[0] <= MAX_HAND_BYTES}
        assert set(targets) == {"POST /zuihe/api/score (no token)", "GET /api/rules?options= (no token)",
                                "GET /api/rules?profile= (no token)", "GET /api/rules?players= (no token)",
                                "GET /sessions?error= (no token)", "GET /?lang= (no token)",
                                "zuihe hand (reader + score)", "tuolaji zuihe"}
        for name, (limit, run) in targets.items():
            for size in (limit, limit + 1):
                for label, data in cost_inputs(size).items():
                    tally.add(name, run(data), label)
    finally:
        workspace.close()
    assert tally.crashes == []
    assert tally.counts["POST /zuihe/api/score (no token)"]["refused"] == 2 * len(cost_inputs(10))
    assert tally.counts["GET /api/rules?options= (no token)"]["refused"] == 2 * len(cost_inputs(10))


@pytest.mark.parametrize("route", ["/sessions/import", "/sessions/import.zip"])
def test_an_import_error_naming_a_long_text_is_shown_within_the_query_limit(client: Any, route: str) -> None:
    record = scorer.random_record("single-deck", 1, tricks=1)
    record["deals"][0]["tricks"][0]["plays"][0] = ["Z" * 20_000]
    raw = json.dumps(record).encode()
    upload = zip_of({"record.json": raw}) if route.endswith(".zip") else raw
    answer = client.post(route, data={"file": (io.BytesIO(upload), "x")}, content_type="multipart/form-data")
    assert answer.status_code == 302
    address = answer.headers["Location"]
    assert len(address) < MAX_QUERY_BYTES and address.endswith("%E2%80%A6")  # cut, with an ellipsis
    page = client.get(address)
    assert page.status_code == 200 and "unknown card" in page.get_data(as_text=True)


@pytest.mark.parametrize("size", [2048, *SIZES])
def test_the_string_scan_takes_an_unterminated_string_in_one_pass(size: int) -> None:
    """The work of the nesting scan, counted: an unterminated string is one match that runs to the
    end (a scan that fails there restarts at every quote after it: n passes of n characters)."""
    from tuolaji.scorer.safejson import _STRINGS, _outside_strings

    text = "[" + escaped_quotes(size)
    unescaped = text.replace("\\\\", "").replace('\\"', "")
    assert [match.span() for match in _STRINGS.finditer(unescaped)] == [(1, len(unescaped))]
    assert _outside_strings(text) == "["
