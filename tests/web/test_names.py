"""Issue 45: one rule for names (scorer/names.py). A name holding a NUL, an ESC, a newline or a
text-direction override, or longer than a record's 64 characters, is refused in one line at every
entry point of the table (the page's rename, set-up, import and players' rename; the commands), and
what a command prints of a record or a data folder reaches the terminal escaped."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

import tuolaji
from tuolaji import cli
from tuolaji.scorer.names import check_name, clean_name, printable
from tuolaji.web.store import DATABASE_NAME, SessionStore

BAD = ["周五\u0000夜", "周五\u001b[31m夜", "周五\n夜", "\u202e周五夜", "周五\u2066夜", "周" * 65]

RECORD = {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": ["东", "南", "西", "北"],
          "deals": [{"level": "2", "trump": "S", "dealer": 0, "tricks": []}]}


@pytest.mark.parametrize("name", BAD)
def test_the_rule_refuses_what_prints_nothing(name: str) -> None:
    with pytest.raises(tuolaji.scorer.errors.InputError) as caught:
        check_name(name, "name")
    assert "\n" not in str(caught.value) and len(clean_name(name)) <= 64


def test_printable_escapes_a_terminal_s_controls() -> None:
    assert printable("\x1b]0;pwned\x07\x1b[31mRED") == "\\x1b]0;pwned\\x07\\x1b[31mRED"
    assert printable("\u202eabc\x9b", json=True) == "\\u202eabc\\u009b"
    assert json.loads('"' + printable("a\u202eb", json=True) + '"') == "a\u202eb"


def _session(client) -> int:  # type: ignore[no-untyped-def]
    answer = client.post("/api/setup", json={"players": ["东", "南", "西", "北"], "profile": "standard-2deck",
                                              "name": "周五"})
    assert answer.status_code in (200, 201), answer.get_json()
    return int(client.get("/api/sessions").get_json()["sessions"][0]["id"])


@pytest.mark.parametrize("name", BAD)
def test_the_page_refuses_a_bad_name_everywhere(client, name: str) -> None:  # type: ignore[no-untyped-def]
    session_id = _session(client)
    answer = client.post(f"/api/sessions/{session_id}/rename", json={"name": name})
    assert answer.status_code == 400 and "\n" not in answer.get_json()["error"]
    assert answer.get_json()["message"]["zh"]
    assert client.get("/api/sessions").get_json()["sessions"][0]["name"] == "周五"
    players = ["东", "南", "西", name]
    assert client.post("/api/setup", json={"players": players, "profile": "standard-2deck"}).status_code == 400
    assert client.post("/api/sessions/import", json=RECORD | {"players": players}).status_code == 400
    assert client.post("/api/sessions/import", json=RECORD | {"name": name}).status_code == 400
    if len(name) <= 64:  # a file's name too long is cut to the first 64 characters (it is no name typed)
        upload = {"file": (io.BytesIO(json.dumps(RECORD).encode()), name + ".json")}
        answer = client.post("/api/sessions/import", data=upload, content_type="multipart/form-data")
        assert answer.status_code == 400
    assert client.post("/api/stats/rename", json={"name": "东", "to": name}).status_code == 400


def test_a_zip_naming_its_session_badly_is_refused(client) -> None:  # type: ignore[no-untyped-def]
    raw = io.BytesIO()
    with zipfile.ZipFile(raw, "w") as archive:
        archive.writestr("record.json", json.dumps(RECORD))
        archive.writestr("session.json", json.dumps({"name": "周五\u0000夜"}))
    answer = client.post("/api/sessions/import.zip", data=raw.getvalue(), content_type="application/zip")
    assert answer.status_code == 400 and "U+0000" in answer.get_json()["error"], answer.get_json()


def test_renaming_a_player_no_session_holds_is_refused(client) -> None:  # type: ignore[no-untyped-def]
    _session(client)
    assert client.post("/api/stats/rename", json={"name": "东", "to": "老东"}).status_code == 200
    answer = client.post("/api/stats/rename", json={"name": "无名氏", "to": "老王"})
    assert answer.status_code == 400 and "无名氏" in answer.get_json()["error"]


def test_the_commands_refuse_bad_names_and_escape_what_they_print(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    store = SessionStore(tmp_path / DATABASE_NAME)
    store.create(RECORD, name="周五", source="page")
    for bad in ("周五\u0000夜", "\u202e老东"):
        assert cli.main(["stats", "--data", str(tmp_path), "--rename", "东", bad]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "\x00" not in err and "\u202e" not in err
    assert cli.main(["stats", "--data", str(tmp_path), "--rename", "无名氏", "老王"]) == 2
    capsys.readouterr()
    # a name the store took before the rule (an older version): printed escaped
    import sqlite3

    with sqlite3.connect(tmp_path / DATABASE_NAME) as connection:
        connection.execute("INSERT INTO player_names (key, name) VALUES (?, ?)", ("东", "\x1b]0;pwned\x07\x1b[31mRED"))
    assert cli.main(["stats", "--data", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\\x1b]0;pwned\\x07" in out
    assert cli.main(["stats", "--data", str(tmp_path), "--json"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\\u001b" in out
    # a record whose players hold a control is refused by the audit (exit 2), in one line
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(RECORD | {"players": ["东", "南", "西", "\x1b[31mRED"]}), encoding="utf-8")
    assert cli.main(["audit", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "\x1b" not in err


def test_a_command_s_error_line_quotes_its_input_escaped(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "level.json"
    deal = {"level": "\x1b]0;pwned\x07\x1b[31mRED", "trump": "S", "dealer": 0, "tricks": []}
    path.write_text(json.dumps(RECORD | {"deals": [deal]}), encoding="utf-8")
    assert cli.main(["audit", str(path)]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err and "\\x1b]0;pwned\\x07" in err and err.count("\n") == 1
    assert cli.main(["audit", str(tmp_path / "no\x1b[31mfile.json")]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "no\\x1b[31mfile.json" in err and err.count("\n") == 1
