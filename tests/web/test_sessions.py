"""Sessions in SQLite: listed, resumed (also after a restart), exported, imported, replayed with a timeline."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from tests.browser.records import revoke_record
from tuolaji.web import create_app, get_table
from tuolaji.web.table import RecordFeed, record_setup


@pytest.fixture()
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


def make_app(data_dir: Path):
    return create_app({"DATA_DIR": str(data_dir), "TESTING": True})


def played_session(app, record: dict) -> int:
    table = get_table(app)
    session_id = table.start(record_setup(record), name="周五牌局", source="record")
    RecordFeed(table, record, pace_s=0).run()
    return session_id


def test_database_is_one_file_in_the_data_folder_and_env_sets_the_default(data_dir, monkeypatch, tmp_path):
    make_app(data_dir)
    assert (data_dir / "tuolaji.sqlite").is_file()
    monkeypatch.setenv("TUOLAJI_DATA", str(tmp_path / "from-env"))
    create_app({"TESTING": True})
    assert (tmp_path / "from-env" / "tuolaji.sqlite").is_file()


def test_sessions_are_listed_on_the_page_and_in_the_api(data_dir):
    app = make_app(data_dir)
    record, _ = revoke_record()
    first = played_session(app, record)
    client = app.test_client()
    client.post("/api/setup", json={"players": ["a", "b", "c", "d"], "profile": "titanic-3deck", "name": "第二局",
                                    "levels": ["2"] * 4, "trump": "NT", "dealer": 0})
    listing = client.get("/api/sessions").get_json()
    assert [s["name"] for s in listing["sessions"]] == ["第二局", "周五牌局"]
    assert listing["sessions"][1] | {} == listing["sessions"][1] | {"id": first, "deals": 1, "tricks": 6}
    html = client.get("/sessions").get_data(as_text=True)
    assert "周五牌局" in html and "第二局" in html and f'/replay/{first}' in html
    assert f"/api/sessions/{first}/export" in html
    assert '<td data-i18n="profile.titanic-3deck">三副牌·泰坦尼克</td>' in html  # rules by their Chinese name


def test_the_live_state_counts_the_tricks_played_so_far(data_dir):
    """``/api/state``'s session summary follows the game as it is played (it once kept the
    counts of the moment the session opened: 0 tricks beside a record of 6)."""
    app = make_app(data_dir)
    record, _ = revoke_record()
    client = app.test_client()
    opened = client.get("/api/state").get_json()
    assert opened["session"] is None
    session_id = played_session(app, record)
    live = client.get("/api/state").get_json()
    assert len(live["state"]["record"]["deals"][0]["tricks"]) == 6
    listed = client.get("/api/sessions").get_json()["sessions"][0]
    assert live["session"] | {} == live["session"] | {"id": session_id, "deals": 1, "tricks": 6, "updated": listed["updated"]}
    assert live["session"]["updated"] > live["session"]["created"]


def test_a_restarted_server_resumes_the_latest_session(data_dir):
    app = make_app(data_dir)
    record, _ = revoke_record()
    session_id = played_session(app, record)
    client = app.test_client()
    fix = {"deal": 0, "trick": 1, "seat": 2, "index": 0, "card": "2C"}
    client.post("/api/correct", json=fix)
    before = client.get("/api/state").get_json()

    restarted = make_app(data_dir).test_client()  # a new process would do exactly this
    after = restarted.get("/api/state").get_json()
    assert after["session"]["id"] == session_id
    assert after["state"]["record"] == before["state"]["record"]
    assert after["state"]["audit"] == before["state"]["audit"]


def test_resume_switches_the_live_session(data_dir):
    app = make_app(data_dir)
    record, _ = revoke_record()
    first = played_session(app, record)
    client = app.test_client()
    client.post("/api/setup", json={"players": ["a", "b", "c", "d"], "profile": "standard-2deck", "new": True,
                                    "levels": ["2"] * 4, "trump": "NT", "dealer": 0})
    assert client.get("/api/state").get_json()["session"]["id"] != first
    assert client.post(f"/api/sessions/{first}/resume").get_json()["session"]["id"] == first
    response = client.post(f"/sessions/{first}/resume")  # the page's form
    assert response.status_code == 302 and response.headers["Location"].endswith("/")
    assert client.post("/api/sessions/999/resume").status_code == 404


def test_export_then_import_round_trips_the_record(data_dir):
    app = make_app(data_dir)
    record, _ = revoke_record()
    session_id = played_session(app, record)
    client = app.test_client()
    response = client.get(f"/api/sessions/{session_id}/export")
    assert response.status_code == 200 and "attachment" in response.headers["Content-Disposition"]
    exported = json.loads(response.get_data(as_text=True))
    name = get_table(app).store.get(session_id).name
    assert exported == get_table(app).game.snapshot() | {"name": name}  # the game's name travels with it
    imported = client.post("/api/sessions/import", json=exported)
    assert imported.status_code == 201 and imported.get_json()["name"] == name
    assert get_table(app).store.get(imported.get_json()["id"]).record == {k: v for k, v in exported.items() if k != "name"}
    upload = client.post("/sessions/import", data={"file": (io.BytesIO(json.dumps(exported).encode()), "game.json"),
                                                   "replay": "1"}, content_type="multipart/form-data")
    assert upload.status_code == 302 and "/replay/" in upload.headers["Location"]


def test_import_of_a_replay_output_wrapping_its_record(data_dir):
    app = make_app(data_dir)
    record, _ = revoke_record()
    client = app.test_client()
    response = client.post("/api/sessions/import", json={"record": record, "name": "video.mp4"})
    assert response.status_code == 201 and response.get_json()["name"] == "video.mp4"


@pytest.mark.parametrize(("body", "message", "zh"), [
    (b"{not json", "not valid JSON", "bad.json 不是有效的 JSON（第 1 行第 2 列）"),
    (json.dumps({"format": "tuolaji-record/1", "rules": "standard-2deck", "players": ["a"], "deals": []}).encode(), "",
     "这套规则要 4 人玩，记录里是 1 人"),  # every scorer error has its Chinese (scorer/messages.py's RULES_MESSAGES_ZH)
    (json.dumps({"format": "tuolaji-record/1", "rules": "standard-2deck", "players": list("abcd"), "deals": [
        {"level": "2", "trump": "S", "dealer": 0, "tricks": [{"leader": 0, "plays": [["AS"], ["1H"]]}]}]}).encode(),
     "unknown card", '记录有误：第 1 副第 1 墩第 2 手不认识的牌 "1H"'),
])
def test_bad_imports_are_refused_with_a_message(data_dir, body, message, zh):
    client = make_app(data_dir).test_client()
    response = client.post("/sessions/import", data={"file": (io.BytesIO(body), "bad.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 302 and "error=" in response.headers["Location"]
    assert message.replace(" ", "+") in response.headers["Location"] or message in response.headers["Location"]
    assert client.get("/api/sessions").get_json()["sessions"] == []
    html = client.get(response.headers["Location"]).get_data(as_text=True)
    shown = html.split('<span class="only-zh" lang="zh-CN">', 1)[1].split("</span>", 1)[0]
    assert zh in shown.replace("&#34;", '"')


def test_rename_and_delete(data_dir):
    app = make_app(data_dir)
    record, _ = revoke_record()
    session_id = played_session(app, record)
    client = app.test_client()
    assert client.post(f"/api/sessions/{session_id}/rename", json={"name": "决赛"}).status_code == 200
    assert client.get("/api/sessions").get_json()["sessions"][0]["name"] == "决赛"
    assert client.post(f"/api/sessions/{session_id}/delete").status_code == 200
    assert client.get("/api/state").get_json()["session"] is None
    assert client.post(f"/api/sessions/{session_id}/delete").status_code == 404
    other = played_session(app, record)
    response = client.post(f"/sessions/{other}/delete")  # the sessions page's button
    assert response.status_code == 302 and client.get("/api/sessions").get_json()["sessions"] == []


def test_replay_timeline_steps_through_every_play(data_dir):
    app = make_app(data_dir)
    record, (trick, seat) = revoke_record()
    session_id = played_session(app, record)
    client = app.test_client()
    timeline = client.get(f"/api/replay/{session_id}").get_json()
    steps = timeline["steps"]
    assert len(steps) == 24 and steps[0] == {"deal": 0, "trick": 0, "position": 0,
                                             "seat": record["deals"][0]["dealer"],
                                             "cards": record["deals"][0]["tricks"][0]["plays"][0]}
    start = client.get(f"/api/replay/{session_id}/at/0").get_json()
    assert start["state"]["record"]["deals"][0]["tricks"] == [] and start["total"] == 24
    middle = client.get(f"/api/replay/{session_id}/at/6").get_json()
    assert [len(t["plays"]) for t in middle["state"]["record"]["deals"][0]["tricks"]] == [4, 2]
    assert middle["state"]["audit"]["deals"][0]["outcome"] is None
    end = client.get(f"/api/replay/{session_id}/at/24").get_json()
    deal_audit = end["state"]["audit"]["deals"][0]
    assert deal_audit["outcome"] is not None and end["state"]["record"]["deals"][0]["kitty"]
    assert [(v["trick"], v["seat"]) for v in deal_audit["violations"]] == [(trick, seat)]
    assert client.get(f"/api/replay/{session_id}/at/25").status_code == 404
    assert client.get("/api/replay/99").status_code == 404


def test_replay_page_renders_for_a_stored_session_and_404_otherwise(data_dir):
    app = make_app(data_dir)
    record, _ = revoke_record()
    session_id = played_session(app, record)
    client = app.test_client()
    html = client.get(f"/replay/{session_id}").get_data(as_text=True)
    assert 'id="timeline"' in html and f'data-session="{session_id}"' in html and "/static/replay.js" in html
    assert "周五牌局" in html
    assert client.get("/replay/77").status_code == 404
