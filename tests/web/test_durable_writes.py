"""Issue 33, item 2: a change is answered as done only once it is saved. A save the database
refuses (another program holding an exclusive lock, a full disk) is answered 503/507 with words
the page shows, the live game stays as stored, the failure is logged, and a restart (or the next
good save) finds exactly what was answered as saved."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tuolaji.web import create_app, get_table
from tuolaji.web.store import DATABASE_NAME

PLAYERS = ["东", "南", "西", "北"]
SETUP = {"players": PLAYERS, "profile": "standard-2deck", "levels": ["2"] * 4, "trump": "S", "dealer": 0}
LEAD = ["3S", "4S", "5S", "6S", "7S", "8S"]


def make_app(data: Path) -> Any:
    app = create_app({"DATA_DIR": str(data), "TESTING": True})
    get_table(app).store.busy_timeout_s = 0.2  # a save waits this long for another program's lock
    return app


def tricks_of(client: Any) -> list[dict[str, Any]]:
    return client.get("/api/state").get_json()["state"]["record"]["deals"][0]["tricks"]


def play(client: Any, seat: int, card: str) -> Any:
    return client.post("/api/play", json={"seat": seat, "cards": [card]})


class FullDisk(sqlite3.Connection):
    """A connection to a database on a disk with no room left: every write fails as SQLite's does."""

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:  # type: ignore[override]
        if sql.lstrip().split(" ", 1)[0].upper() in ("INSERT", "UPDATE", "DELETE", "REPLACE"):
            raise sqlite3.OperationalError("database or disk is full")
        return super().execute(sql, *args)

    def executemany(self, sql: str, *args: Any) -> sqlite3.Cursor:  # type: ignore[override]
        raise sqlite3.OperationalError("database or disk is full")


@pytest.fixture()
def full_disk(monkeypatch: pytest.MonkeyPatch) -> dict[str, bool]:
    """``full_disk["on"] = True``: every connection the store opens is on a full disk."""
    state = {"on": False}
    connect = sqlite3.connect

    def connecting(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        if state["on"]:
            kwargs["factory"] = FullDisk
        return connect(*args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", connecting)
    return state


def test_a_play_under_another_programs_exclusive_lock_is_refused_kept_out_and_logged(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    app = make_app(tmp_path)
    client = app.test_client()
    assert client.post("/api/setup", json=SETUP).status_code == 201
    assert play(client, 0, "AS").status_code == 201
    holder = sqlite3.connect(tmp_path / DATABASE_NAME, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # the sqlite3 shell, or a backup tool
    with caplog.at_level(logging.ERROR):
        refused = play(client, 1, "3S")
    assert refused.status_code == 503
    body = refused.get_json()
    assert body["code"] == "not-saved" and body["kind"] == "locked"
    assert body["message"]["zh"].startswith("未保存") and body["message"]["en"].startswith("Not saved")
    assert "not saved" in caplog.text
    assert [t["plays"] for t in tricks_of(client)] == [[["AS"]]]  # the live game is what is stored
    holder.rollback()
    holder.close()
    assert play(client, 1, "3S").status_code == 201  # the next good save: exactly what was acknowledged
    restarted = make_app(tmp_path).test_client()  # kill -9 and --resume: the latest session, as answered
    assert [t["plays"] for t in tricks_of(restarted)] == [[["AS"], ["3S"]]]


def test_on_a_full_disk_an_imported_archive_answers_507_and_no_session_is_added(
        tmp_path: Path, full_disk: dict[str, bool]) -> None:
    client = make_app(tmp_path).test_client()
    client.post("/api/setup", json=SETUP | {"name": "周五"})
    session_id = client.get("/api/state").get_json()["session"]["id"]
    assert play(client, 0, "AS").status_code == 201
    archive = client.get(f"/api/sessions/{session_id}/export.zip").data
    full_disk["on"] = True
    answer = client.post("/api/sessions/import.zip", data=archive, content_type="application/zip")
    assert answer.status_code == 507, answer.get_data(as_text=True)
    assert answer.get_json()["message"] == {"zh": "未保存：磁盘已满", "en": "Not saved: the disk is full"}
    full_disk["on"] = False
    assert [s["id"] for s in client.get("/api/sessions").get_json()["sessions"]] == [session_id]


def test_on_a_full_disk_plays_corrections_renames_and_deletes_answer_507_and_nothing_is_lost(
        tmp_path: Path, full_disk: dict[str, bool]) -> None:
    app = make_app(tmp_path)
    client = app.test_client()
    client.post("/api/setup", json=SETUP | {"name": "周五"})
    session_id = client.get("/api/state").get_json()["session"]["id"]
    for seat, card in enumerate(["AS", "3S", "4S", "5S"]):
        assert play(client, seat, card).status_code == 201
    full_disk["on"] = True
    answers = [play(client, 0, "6S"), client.post("/api/correct", json={"deal": 0, "trick": 0, "seat": 1, "index": 0,
                                                                        "card": "7S"}),
               client.post("/api/undo"), client.post(f"/api/sessions/{session_id}/rename", json={"name": "改名"}),
               client.post(f"/api/sessions/{session_id}/delete"),
               client.post("/api/setup", json=SETUP | {"new": True})]
    for answer in answers:
        assert answer.status_code == 507, answer.get_data(as_text=True)
        assert answer.get_json()["message"] == {"zh": "未保存：磁盘已满", "en": "Not saved: the disk is full"}
    state = client.get("/api/state").get_json()
    assert [t["plays"] for t in state["state"]["record"]["deals"][0]["tricks"]] == [[["AS"], ["3S"], ["4S"], ["5S"]]]
    assert state["session"]["id"] == session_id
    listed = client.get("/api/sessions").get_json()
    assert [(s["id"], s["name"]) for s in listed["sessions"]] == [(session_id, "周五")] and listed["bin"] == []
    full_disk["on"] = False  # room again: the next change is saved on top of what was answered
    assert play(client, 0, "6S").status_code == 201
    restarted = make_app(tmp_path).test_client()
    state = restarted.get("/api/state").get_json()
    assert state["session"]["id"] == session_id  # --resume opens the same session, not another
    assert [t["plays"] for t in state["state"]["record"]["deals"][0]["tricks"]] == [
        [["AS"], ["3S"], ["4S"], ["5S"]], [["6S"]]]


def test_a_feed_whose_play_cannot_be_saved_stops_with_the_reason_and_adds_nothing(
        tmp_path: Path, full_disk: dict[str, bool]) -> None:
    """The camera's (or a replayed record's) plays go through the same save: never kept unsaved."""
    from tuolaji import scorer
    from tuolaji.web.table import RecordFeed, record_setup

    app = make_app(tmp_path)
    table = get_table(app)
    record = scorer.random_record("standard-2deck", 4, players=4)
    table.start(record_setup(record), name="feed", source="record")
    full_disk["on"] = True
    feed = RecordFeed(table, record, pace_s=0)
    feed.run_guarded = feed._run_guarded
    feed.run_guarded()
    assert feed.error is not None and "not saved" in feed.error
    assert table.game.snapshot()["deals"][0]["tricks"] == []
    full_disk["on"] = False
    assert make_app(tmp_path).test_client().get("/api/state").get_json()["state"]["record"]["deals"][0]["tricks"] == []


def test_a_record_file_that_cannot_be_written_refuses_the_play_and_keeps_the_old_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``tuolaji replay``'s record on disk: a full disk refuses the play (one clear line), the file
    keeps the plays written before, the game in memory stays as the file."""
    import errno
    import os

    from tuolaji.session import storage as live
    from tuolaji.session.live import LiveGame, NotSavedError

    path = tmp_path / "out.json"
    record = {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": PLAYERS,
              "deals": [{"level": "2", "trump": "S", "dealer": 0, "tricks": []}]}
    game = LiveGame(record, path=path)
    game.play(0, ["AS"])
    written = path.read_bytes()

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(live.os, "fsync", full)
    with pytest.raises(NotSavedError) as refused:
        game.play(1, ["3S"])
    assert refused.value.kind == "disk-full" and "\n" not in str(refused.value)
    assert path.read_bytes() == written and list(tmp_path.iterdir()) == [path]  # no half-written file left
    assert game.snapshot()["deals"][0]["tricks"] == [{"leader": 0, "plays": [["AS"]]}]
    monkeypatch.undo()
    game.play(1, ["3S"])
    assert LiveGame.resume(path).snapshot()["deals"][0]["tricks"][0]["plays"] == [["AS"], ["3S"]]


@pytest.fixture()
def small_disk(tmp_path: Path) -> Any:
    """A 1 MiB tmpfs (root only: skipped where it cannot be mounted)."""
    import shutil
    import subprocess

    folder = tmp_path / "disk"
    folder.mkdir()
    mount = shutil.which("mount")
    if mount is None or subprocess.run([mount, "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(folder)],
                                       capture_output=True).returncode != 0:
        pytest.skip("a small tmpfs cannot be mounted here (needs root)")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def fill(folder: Path) -> Path:
    """Fill the filesystem of ``folder`` to the last byte; returns the file that holds the room."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as handle:
        for chunk in (65536, 4096, 512, 1):
            try:
                while True:
                    handle.write(b"\0" * chunk)
            except OSError:
                pass
    return filler


def test_on_a_really_full_disk_a_play_is_refused_and_a_restart_finds_what_was_answered(small_disk: Path) -> None:
    data = small_disk / "data"
    app = make_app(data)
    client = app.test_client()
    assert client.post("/api/setup", json=SETUP).status_code == 201
    assert play(client, 0, "AS").status_code == 201
    filler = fill(small_disk)
    refused = [play(client, 1, "3S"), client.post("/api/sessions/1/delete")]
    assert [answer.status_code for answer in refused] == [507, 507]
    assert refused[0].get_json()["message"]["zh"] == "未保存：磁盘已满"
    assert [t["plays"] for t in tricks_of(client)] == [[["AS"]]]
    filler.unlink()  # room again
    assert play(client, 1, "3S").status_code == 201
    restarted = make_app(data).test_client()
    assert [t["plays"] for t in tricks_of(restarted)] == [[["AS"], ["3S"]]]
    assert [s["id"] for s in restarted.get("/api/sessions").get_json()["sessions"]] == [1]


def test_listing_the_sessions_never_waits_for_another_programs_lock(tmp_path: Path) -> None:
    """Emptying the bin is a write: tried only when something is due, and a lock defers it."""
    app = make_app(tmp_path)
    client = app.test_client()
    client.post("/api/setup", json=SETUP)
    client.post("/api/setup", json=SETUP | {"new": True})
    client.post("/api/sessions/1/delete")
    holder = sqlite3.connect(tmp_path / DATABASE_NAME, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        listed = client.get("/api/sessions")  # nothing due: no write tried
        assert listed.status_code == 200 and [s["id"] for s in listed.get_json()["bin"]] == [1]
        assert get_table(app).purge_bin(older_than_s=0) == []  # due, but locked: at a later listing
    finally:
        holder.rollback()
        holder.close()
    assert [s["id"] for s in client.get("/api/sessions").get_json()["bin"]] == [1]
    assert get_table(app).purge_bin(older_than_s=0) == [1]
    assert client.get("/api/sessions").get_json()["bin"] == []
