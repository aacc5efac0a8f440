"""``tuolaji serve`` under idle, many and long-lived connections: a real server process on 127.0.0.1.

The probe of issue 33: 1,100 idle connections (no token needed) exhausted the 1,024 descriptors
of the development server and every other client timed out. Every connection here goes to
127.0.0.1, is bounded in number, and is closed by the test.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tuolaji import scorer
from tuolaji.web.server import BUSY_RETRY_MS, MAX_STREAMS

resource = pytest.importorskip("resource")  # the open-file limit: POSIX

ROOT = Path(__file__).resolve().parents[2]
IDLE = 1_100
PROBE_FILES = 1_024  # the open-file limit of the machine the probe ran on


def own_files(at_least: int) -> None:
    """Raise this test process's own open-file limit so it can hold ``at_least`` sockets (or skip)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < at_least:
        if hard != resource.RLIM_INFINITY and hard < at_least:
            pytest.skip(f"the open-file limit here is {hard}; the test needs {at_least}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (at_least, hard))


def serve(*args: str, files: int | None = None) -> tuple[subprocess.Popen[str], str, int]:
    """``tuolaji serve`` started as a user starts it (its open-file soft limit ``files`` at the start)."""
    def limit_files() -> None:
        if files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))

    process = subprocess.Popen([sys.executable, "-m", "tuolaji", "serve", "--port", "0", *args], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=limit_files,
                               env=os.environ | {"PYTHONUNBUFFERED": "1"})
    line = process.stdout.readline()
    if not line.startswith("tuolaji serve: open http://127.0.0.1:"):
        process.kill()
        raise AssertionError(line + process.communicate()[1])
    url = line.split("open ", 1)[1].split()[0]
    return process, url, int(url.rstrip("/").rsplit(":", 1)[1])


def stop(process: subprocess.Popen[str]) -> tuple[int, str]:
    """Ctrl-C, as a user stops it: its exit status and what it said on stderr."""
    process.send_signal(signal.SIGINT)
    try:
        _out, err = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        _out, err = process.communicate()
        raise AssertionError(f"serve did not stop within 30 s of Ctrl-C; stderr: {err[-2000:]}") from None
    return process.returncode, err


def idle_connections(port: int, count: int) -> list[socket.socket]:
    """``count`` connections that send nothing."""
    opened: list[socket.socket] = []
    try:
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            opened.append(sock)
    except BaseException:
        for sock in opened:
            sock.close()
        raise
    return opened


def closed_by_server(sockets: list[socket.socket], within_s: float) -> int:
    """How many of ``sockets`` the server closed (end of stream) within ``within_s`` seconds."""
    closed = 0
    with selectors.DefaultSelector() as selector:
        for sock in sockets:
            sock.setblocking(False)
            selector.register(sock, selectors.EVENT_READ)
        deadline = time.monotonic() + within_s
        while closed < len(sockets) and time.monotonic() < deadline:
            for key, _ in selector.select(timeout=max(0.0, deadline - time.monotonic())):
                try:
                    data = key.fileobj.recv(4096)  # type: ignore[union-attr]
                except ConnectionError:
                    data = b""
                if not data:
                    selector.unregister(key.fileobj)
                    closed += 1
    return closed


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=20) as response:
        assert response.status == 200
        return json.loads(response.read())


def soft_file_limit(pid: int) -> tuple[str, str] | None:
    """The open-file limits (soft, hard) of process ``pid``, from /proc (Linux); None elsewhere."""
    limits = Path(f"/proc/{pid}/limits")
    if not limits.exists():
        return None
    line = next(line for line in limits.read_text().splitlines() if line.startswith("Max open files"))
    soft, hard = line.split()[3:5]
    return soft, hard


@pytest.fixture()
def closing() -> Iterator[list[socket.socket]]:
    """Sockets the test opens, closed at its end whatever happens."""
    sockets: list[socket.socket] = []
    yield sockets
    for sock in sockets:
        sock.close()


@pytest.mark.slow
def test_1100_idle_connections_leave_the_page_answering_and_are_closed_after_the_idle_timeout(tmp_path, closing):
    own_files(IDLE + 256)
    process, url, port = serve("--resume", "--data", str(tmp_path), "--idle-timeout", "2", files=PROBE_FILES)
    try:
        limits = soft_file_limit(process.pid)
        if limits is not None:  # the server raised its soft limit to the hard one at start
            assert limits[0] == limits[1], limits
        closing += idle_connections(port, IDLE)
        state = get_json(url + "api/state")  # the development server timed out here
        assert "profiles" in state and state["session"] is None  # no session: --resume of an empty folder
        assert closed_by_server(closing, within_s=60) == IDLE  # 2 s of silence each, then closed
        assert "profiles" in get_json(url + "api/state")
    finally:
        code, err = stop(process)
    assert code == 0, err
    assert "Traceback" not in err, err


def test_at_the_connection_limit_the_longest_idle_make_room_for_a_new_client(tmp_path, closing):
    own_files(600)
    process, url, port = serve("--resume", "--data", str(tmp_path), "--max-connections", "64",
                               "--idle-timeout", "3600")
    try:
        closing += idle_connections(port, 300)
        # with no room made, this would wait the whole idle timeout (an hour) behind the idle ones
        assert "profiles" in get_json(url + "api/state")
        assert closed_by_server(closing[:64], within_s=30) > 0  # the oldest went first
    finally:
        code, err = stop(process)
    assert code == 0, err
    assert "connections open (the limit)" in err


def open_stream(port: int) -> tuple[socket.socket, bytes]:
    """A viewer's event stream: the socket and what arrived up to the first blank line."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n\r\n".encode())
    received = b""
    while b"retry:" not in received or not received.split(b"retry:", 1)[1].count(b"\n\n"):
        chunk = sock.recv(4096)
        if not chunk:
            break
        received += chunk
    return sock, received


def read_until(sock: socket.socket, marker: bytes, *, timeout_s: float) -> bytes:
    sock.settimeout(timeout_s)
    received = b""
    while marker not in received:
        chunk = sock.recv(4096)
        if not chunk:
            break
        received += chunk
    return received


def post_play(url: str, data: Path, seat: int, cards: list[str]) -> int:
    token = (data / "table-token").read_text(encoding="ascii").strip()
    request = urllib.request.Request(url + "api/play", data=json.dumps({"seat": seat, "cards": cards}).encode(),
                                     headers={"Content-Type": "application/json", "X-Tuolaji-Token": token},
                                     method="POST")
    with urllib.request.urlopen(request, timeout=20) as response:
        return response.status


def test_a_full_house_of_streams_cannot_block_a_play_and_each_gets_it_at_once(tmp_path, closing):
    own_files(400)
    record = scorer.random_record("standard-2deck", 1)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    data = tmp_path / "data"
    # the record's feed waits an hour before its first play: the plays here are the page's
    process, url, port = serve("--record", str(path), "--pace", "3600", "--data", str(data))
    trick = record["deals"][0]["tricks"][0]
    try:
        streams = []
        for _ in range(MAX_STREAMS):
            sock, head = open_stream(port)
            closing.append(sock)
            assert b"retry: 1500" in head, head
            streams.append(sock)
        for _ in range(3):  # past the limit: told to come back later, not held
            sock, head = open_stream(port)
            closing.append(sock)
            assert f"retry: {BUSY_RETRY_MS}".encode() in head and b"busy" in head, head
        assert post_play(url, data, trick["leader"], trick["plays"][0]) == 201
        for sock in streams:
            # before the stream's keep-alive (15 s), which would flush an event held in a buffer
            assert b'"play-settled"' in read_until(sock, b'"play-settled"', timeout_s=10)
        # the viewers leave; the next play's event finds their connections closed and frees their threads
        for sock in streams:
            sock.close()
        second = (trick["leader"] + 1) % len(record["players"])
        assert post_play(url, data, second, trick["plays"][1]) == 201
        deadline = time.monotonic() + 30
        while True:
            sock, head = open_stream(port)
            closing.append(sock)
            if b"retry: 1500" in head or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        assert b"retry: 1500" in head, head
    finally:
        code, err = stop(process)
    assert code == 0, err
