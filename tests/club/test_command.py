"""``tuolaji club`` as an organiser runs it: tables registered, a table's SQLite sessions moved in,
and several gunicorn workers on one PostgreSQL whose pages all follow every change (LISTEN/NOTIFY)."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from tuolaji import cli
from tuolaji.club.store import ClubStore
from tuolaji.web.store import SessionStore

from .conftest import played_records

ROOT = Path(__file__).resolve().parents[2]


def test_add_table_and_import_sqlite(club_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["club", "--db", club_db, "--add-table", "一号桌"]) == 0
    said = capsys.readouterr()
    token = said.out.strip()
    assert ClubStore(club_db).table_token_ok("一号桌", token)
    assert f"/club/table/%E4%B8%80%E5%8F%B7%E6%A1%8C?token={token}" in said.err  # the table's page, for its phones
    sessions = SessionStore(tmp_path / "tuolaji.sqlite")
    records = played_records(seed=21, plays=9)
    first = sessions.create(records[0], name="周一", source="page")
    sessions.save(first, records[5])
    second = sessions.create(records[9], name="周二", source="page")
    assert cli.main(["club", "--db", club_db, "--import-sqlite", str(tmp_path / "tuolaji.sqlite"),
                         "--table", "一号桌"]) == 0
    assert "2 sessions" in capsys.readouterr().out
    store = ClubStore(club_db)
    assert store.record("一号桌", first) == sessions.get(first).record
    assert store.record("一号桌", second) == sessions.get(second).record
    assert [s["name"] for s in store.sessions("一号桌")] == ["周二", "周一"]
    # a table that holds changes already (its machine pushing) is refused: its numbering stays its machine's
    last = store.last_n("一号桌")
    assert cli.main(["club", "--db", club_db, "--import-sqlite", str(tmp_path / "tuolaji.sqlite"),
                         "--table", "一号桌"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "already pushes" in err
    assert store.last_n("一号桌") == last


def test_bad_options_are_one_line(club_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["club", "--db", "sqlite:///x", "--add-table", "A"]) == 2
    assert capsys.readouterr().err.strip() == "tuolaji club: --db must be a postgresql:// address, got 'sqlite:///x'"
    assert cli.main(["club", "--db", club_db, "--import-sqlite", str(tmp_path / "none.sqlite"),
                         "--table", "A"]) == 2
    assert capsys.readouterr().err.strip().endswith("none.sqlite: no such file")
    down = "postgresql://nobody@/x?host=/nonexistent&port=1"
    assert cli.main(["club", "--db", down, "--add-table", "A"]) == 2
    assert capsys.readouterr().err.strip().startswith("tuolaji club: club database unavailable (")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class EventStream:
    """One page's event stream (``/club/api/events``, or a table page's), read line by line."""

    def __init__(self, port: int, path: str = "/club/api/events") -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
        self.connection.request("GET", quote(path))
        self.response = self.connection.getresponse()
        assert self.response.status == 200
        self.hello = self.next()

    def next(self) -> dict[str, Any]:
        while True:
            line = self.response.readline().decode("utf-8")
            if not line:
                raise EOFError("stream closed")
            if line.startswith("data: "):
                event: dict[str, Any] = json.loads(line[6:])
                return event

    def close(self) -> None:
        self.connection.close()


def test_workers_share_the_database_and_every_page_follows(club_db: str) -> None:
    store = ClubStore(club_db)
    tokens = {name: store.add_table(name) for name in ("A", "B")}
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "tuolaji", "club", "--db", club_db, "--port", str(port),
                                "--workers", "3", "--threads", "8"], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, env=os.environ | {"PYTHONUNBUFFERED": "1"})
    streams: list[EventStream] = []
    pages: list[EventStream] = []
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/club/api/health", timeout=2) as answer:
                    assert json.loads(answer.read()) == {"database": "up"}
                break
            except OSError:
                assert process.poll() is None, process.stdout.read() if process.stdout else ""
                assert time.monotonic() < deadline, "the club did not start"
                time.sleep(0.2)
        # pages on at least two workers (each stream says which worker serves it)
        tries = 0
        while len({s.hello["worker"] for s in streams}) < 2 or len(streams) < 4:
            tries += 1
            assert tries <= 40, "every stream on one worker"
            try:
                streams.append(EventStream(port))
            except EOFError:  # a worker's streams all taken (its gate): told to come back, the next may land elsewhere
                continue
        while len(pages) < 2:  # table A's own page, twice
            tries += 1
            assert tries <= 80, "no worker took table A's page"
            try:
                pages.append(EventStream(port, "/club/table/A/api/events"))
            except EOFError:  # the worker that took it has its streams all taken, as a browser is told: again
                continue
        records = played_records(seed=31, plays=12)
        for n, record in enumerate(records[1:], start=1):
            for name in ("A", "B"):  # each push through whichever worker takes the connection
                body = json.dumps({"changes": [{"n": n, "session": 1, "name": "s", "record": record}]}).encode()
                request = urllib.request.Request(f"http://127.0.0.1:{port}/club/api/tables/{name}/changes", data=body,
                                                 method="POST", headers={"Content-Type": "application/json",
                                                                         "Authorization": f"Bearer {tokens[name]}"})
                with urllib.request.urlopen(request, timeout=10) as answer:
                    assert json.loads(answer.read())["applied_through"] == n
        for stream in streams:
            seen: dict[str, list[int]] = {"A": [], "B": []}
            while len(seen["A"]) < 12 or len(seen["B"]) < 12:
                event = stream.next()
                if "table" in event:
                    seen[event["table"]].append(event["n"])
            assert seen == {"A": list(range(1, 13)), "B": list(range(1, 13))}  # all of them, in order per table
        for page in pages:  # a table's page: its changes alone, in order, whichever worker took them
            assert [page.next() for _ in range(12)] == [
                {"type": "state-changed", "reason": "club", "table": "A", "n": n} for n in range(1, 13)]
        for _ in range(3):  # its state, as serve's page reads it, from whichever worker answers
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{quote('/club/table/A/api/state')}", timeout=10) as answer:
                state = json.loads(answer.read())
            assert state["state"]["record"] == records[-1] and state["club"] == {"table": "A", "n": 12, "refused": None}
    finally:
        for stream in streams + pages:
            stream.close()
        process.terminate()
        process.wait(30)


def test_one_process_club_serves_the_room_and_stops_on_sigterm(club_db: str) -> None:
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "tuolaji", "club", "--db", club_db, "--port", str(port)],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               env=os.environ | {"PYTHONUNBUFFERED": "1"})
    try:
        assert process.stdout is not None
        token = process.stdout.readline().removeprefix("tuolaji club: organiser token ").strip()
        assert process.stdout.readline().strip() == (f"tuolaji club: open http://127.0.0.1:{port}/club  "
                                                     "(Ctrl-C stops)")
        assert process.stdout.readline().strip() == (f"tuolaji club: the director's console: "
                                                     f"http://127.0.0.1:{port}/club/director?token={token}")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/club", timeout=10) as answer:
            assert '<h1 id="club-title" data-i18n="room.title">俱乐部</h1>' in answer.read().decode("utf-8")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/club/api/overview", timeout=10) as answer:
            assert json.loads(answer.read()) == {"round": None, "last_round": None, "tables": []}
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(30) == 0
