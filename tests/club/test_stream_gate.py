"""Issue 45: event streams are a bounded resource at the club. Tokenless streams past the gate are
told to come back later, and the club's other routes (health, the room, a table's push) still
answer: ``tuolaji club`` on one process (waitress) and on two gunicorn workers, over HTTP, on a
real PostgreSQL."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from .conftest import played_records

ROOT = Path(__file__).resolve().parents[2]

THREADS = 12
"""The club's threads (each worker's): the gate lets ``THREADS - 8`` (at least half) streams run."""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _request(port: int, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None,
             timeout: float = 10.0) -> tuple[int, bytes]:
    """One request on a fresh connection: its status and body (raises when no answer comes in ``timeout``)."""
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=body or None, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


@contextmanager
def _club(dsn: str, *extra: str) -> Iterator[int]:
    port = _free_port()
    process = subprocess.Popen([sys.executable, "-m", "tuolaji", "club", "--db", dsn, "--port", str(port),
                                "--threads", str(THREADS), *extra], cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, env=os.environ | {"PYTHONUNBUFFERED": "1"})
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, process.stderr.read().decode() if process.stderr else ""
            try:
                if _request(port, "GET", "/club/api/health", timeout=2)[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the club did not start"
            time.sleep(0.2)
        yield port
    finally:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def _open_streams(port: int, paths: list[str]) -> tuple[list[socket.socket], int]:
    """Open a stream on each path and read its head; returns the sockets held open and how many were
    refused (told to come back later: a short answer with its length, ``Retry-After`` and an SSE ``retry``)."""
    held, refused = [], 0
    for path in paths:
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(4096)
            assert chunk, f"{path}: closed without an answer"
            head += chunk
        text = head.decode("latin-1").lower()
        assert text.startswith("http/1.1 200"), text
        if "content-length:" in text.split("\r\n\r\n", 1)[0]:
            assert "retry-after: 10" in text, text
            refused += 1
            sock.close()
        else:
            held.append(sock)
    return held, refused


def _still_answers(port: int, token: str) -> None:
    """Health, the room and a table's push answer while the streams are held."""
    status, body = _request(port, "GET", "/club/api/health")
    assert status == 200 and json.loads(body) == {"database": "up"}
    status, body = _request(port, "GET", "/club/api/overview")
    assert status == 200 and json.loads(body)["tables"][0]["table"] == "一号桌"
    last = json.loads(_request(port, "GET", "/club/api/tables/%E4%B8%80%E5%8F%B7%E6%A1%8C/changes")[1])
    n = int(last["applied_through"]) + 1
    change = {"n": n, "session": 1, "name": "周五", "record": played_records(3)[n - 1]}
    status, body = _request(port, "POST", "/club/api/tables/%E4%B8%80%E5%8F%B7%E6%A1%8C/changes",
                            json.dumps({"changes": [change]}, ensure_ascii=False).encode(),
                            {"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    assert status == 200, body
    assert json.loads(body)["applied_through"] == n


def _token(dsn: str) -> str:
    from tuolaji.club.store import ClubStore

    store = ClubStore(dsn)
    try:
        return store.add_table("一号桌")
    finally:
        store.close()


@pytest.mark.slow
def test_streams_past_the_gate_leave_the_club_answering(club_db: str) -> None:
    token = _token(club_db)
    paths = ["/club/api/events", "/club/table/%E4%B8%80%E5%8F%B7%E6%A1%8C/api/events"] * 15
    with _club(club_db) as port:
        held, refused = _open_streams(port, paths)
        try:
            assert len(held) == 6  # max(12 // 2, 12 - 8) run at once
            assert refused == len(paths) - len(held)
            _still_answers(port, token)
        finally:
            for sock in held:
                sock.close()


@pytest.mark.slow
def test_streams_past_the_gate_leave_gunicorn_workers_answering(club_db: str) -> None:
    token = _token(club_db)
    paths = ["/club/table/%E4%B8%80%E5%8F%B7%E6%A1%8C/api/events", "/club/api/events"] * 20
    with _club(club_db, "--workers", "2") as port:
        held, refused = _open_streams(port, paths)
        try:
            assert 6 <= len(held) <= 2 * 6  # each worker's gate: 6 at most
            assert refused == len(paths) - len(held)
            _still_answers(port, token)
        finally:
            for sock in held:
                sock.close()
