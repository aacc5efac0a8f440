"""Issue 33, item 2, with a real ``tuolaji serve`` process: a play the database refuses (another
program holds it locked) is answered 503; after kill -9, ``--resume`` opens the same session with
exactly the plays answered as saved."""

from __future__ import annotations

import json
import signal
import sqlite3
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tuolaji.web.store import DATABASE_NAME

from .test_serve import get_json, start_server, stop

SETUP = {"players": ["东", "南", "西", "北"], "profile": "standard-2deck", "levels": ["2"] * 4, "trump": "S",
         "dealer": 0}


def post(url: str, data: Path, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    token = (data / "table-token").read_text(encoding="ascii").strip()
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "X-Tuolaji-Token": token})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def plays(url: str) -> list[list[list[str]]]:
    return [trick["plays"] for trick in get_json(url + "api/state")["state"]["record"]["deals"][0]["tricks"]]


@pytest.mark.slow
def test_a_refused_play_is_not_there_after_kill_9_and_resume_and_an_answered_one_is(tmp_path: Path) -> None:
    data = tmp_path / "data"
    process, url = start_server("--resume", "--data", str(data))
    try:
        assert post(url + "api/setup", data, SETUP)[0] == 201
        session = get_json(url + "api/state")["session"]["id"]
        assert post(url + "api/play", data, {"seat": 0, "cards": ["AS"]})[0] == 201
        holder = sqlite3.connect(data / DATABASE_NAME, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        try:
            status, body = post(url + "api/play", data, {"seat": 1, "cards": ["3S"]})
        finally:
            holder.rollback()
            holder.close()
        assert status == 503 and body["message"]["zh"].startswith("未保存")
        assert plays(url) == [[["AS"]]]
        assert post(url + "api/play", data, {"seat": 1, "cards": ["4S"]})[0] == 201
        process.send_signal(signal.SIGKILL)
        process.wait(15)
    finally:
        stop(process)
    process, url = start_server("--resume", "--data", str(data))
    try:
        assert get_json(url + "api/state")["session"]["id"] == session
        assert plays(url) == [[["AS"], ["4S"]]]
    finally:
        stop(process)
