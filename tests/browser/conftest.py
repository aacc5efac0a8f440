"""Headless Chromium (Debian's /usr/bin/chromium, driven by Playwright — no browser download)
and a real ``tuolaji serve`` process replaying a short deal with one revoke."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from .records import point_correction, revoke_record

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Served:
    """A running server: its address, data folder, the record it replays and what the tests poke at."""

    url: str
    data: Path
    record: dict[str, Any]
    revoke: tuple[int, int]
    fix: dict[str, Any]
    unsure: int
    process: subprocess.Popen


def write_headers(data: str | Path) -> dict[str, str]:
    """The headers of a change sent as the page sends it: JSON, and the table token of the server on ``data``."""
    token = (Path(data) / "table-token").read_text(encoding="ascii").strip()
    return {"Content-Type": "application/json", "X-Tuolaji-Token": token}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_serve(*args: str, port: int = 0) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen([sys.executable, "-m", "tuolaji", "serve", "--port", str(port), *args],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               env=os.environ | {"PYTHONUNBUFFERED": "1"})
    line = process.stdout.readline()
    if not line.startswith("tuolaji serve: open "):
        process.kill()
        raise AssertionError(f"tuolaji serve did not start: {line!r}")
    return process, line.split("open ", 1)[1].split()[0]


def stop_serve(process: subprocess.Popen) -> None:
    process.send_signal(signal.SIGINT)
    try:
        process.wait(15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    process.stdout.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory, browser_context) -> Iterator[Served]:
    """``tuolaji serve --record`` on a six-trick deal with one revoke and one unconfirmed card, a play every 0.3 s.

    It starts once the browser is up, so the first test sees the deal from its beginning."""
    folder = tmp_path_factory.mktemp("served")
    record, revoke = revoke_record()
    fix = point_correction(record)
    # One card the camera could not settle, for a person to confirm on the page.
    unsure = next(t for t in range(len(record["deals"][0]["tricks"])) if t != fix["trick"])
    trick = record["deals"][0]["tricks"][unsure]
    trick["unconfirmed"] = [[trick["leader"], 0]]
    path = folder / "deal.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    process, url = start_serve("--record", str(path), "--pace", "0.3", "--data", str(folder / "data"))
    try:
        yield Served(url=url, data=folder / "data", record=record, revoke=revoke, fix=fix, unsure=unsure,
                     process=process)
    finally:
        stop_serve(process)


def guide_screenshot(page: Any, folder: Path, name: str, part: str | None = None) -> Path:
    """A screenshot of the page for the README's guide (``docs/NAME``), refreshed when
    ``TUOLAJI_UPDATE_SCREENSHOT`` is set; always taken, so the test sees the page draws. ``part``: a
    selector to take only that part of the page."""
    shot = Path(folder) / name
    (page.locator(part) if part else page).screenshot(path=str(shot))
    assert shot.stat().st_size > 20_000
    if os.environ.get("TUOLAJI_UPDATE_SCREENSHOT"):
        (ROOT / "docs").mkdir(exist_ok=True)
        shutil.copyfile(shot, ROOT / "docs" / name)
    return shot


def get_json(url: str) -> Any:
    """The JSON answer of a GET to the running server."""
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read())


def post_json(url: str, data: Path, body: Any) -> Any:
    """POST ``body`` as JSON with the table token of the server whose data folder is ``data``."""
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=write_headers(data), method="POST")
    with urllib.request.urlopen(request, timeout=20) as response:
        return json.loads(response.read())


class Server:
    """A real ``tuolaji serve`` of a test (:func:`server`): its address and data folder."""

    def __init__(self, url: str, data: Path) -> None:
        self.url, self.data = url, data

    def state(self) -> dict[str, Any]:
        return get_json(self.url + "api/state")

    def post(self, path: str, body: Any) -> Any:
        return post_json(self.url + path, self.data, body)

    def open_record(self, record: dict[str, Any], name: str = "test") -> int:
        """Import a record as a session and make it the live one (as the sessions page does)."""
        session = self.post("api/sessions/import", {"name": name, "record": record})["id"]
        self.post(f"api/sessions/{session}/resume", {})
        return session


@pytest.fixture()
def server(tmp_path) -> Iterator[Server]:
    """A ``tuolaji serve --resume`` of the test's own, on a data folder of its own."""
    data = tmp_path / "data"
    process, url = start_serve("--resume", "--data", str(data))
    try:
        yield Server(url, data)
    finally:
        stop_serve(process)


def export_and_audit(server: Server, tmp_path: Path, session: int | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The saved record (the session's export; default: the live session's) and ``tuolaji audit
    --json`` run on it as a user would: what the page's settlement must equal."""
    session = server.state()["session"]["id"] if session is None else session
    saved = get_json(server.url + f"api/sessions/{session}/export")
    path = tmp_path / "saved.json"
    path.write_text(json.dumps(saved, ensure_ascii=False), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "tuolaji", "audit", str(path), "--json"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return saved, json.loads(done.stdout)

