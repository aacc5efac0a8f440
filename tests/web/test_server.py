"""``web.server``: the waitress server ``tuolaji serve`` runs the page on, in this process on 127.0.0.1."""

from __future__ import annotations

import socket
import threading
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tuolaji.web.server import BUSY_STREAM, TableServer, connection_limit, redact


def start(app: Any, **limits: Any) -> tuple[TableServer, threading.Thread, str]:
    sock = socket.create_server(("127.0.0.1", 0))
    server = TableServer(app, sock, **limits)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server, thread, f"http://127.0.0.1:{server.server_address[1]}"


def stop(server: TableServer, thread: threading.Thread) -> None:
    server.shutdown()
    server.server_close()
    thread.join(10)
    assert not thread.is_alive()


def test_a_request_under_way_is_answered_before_the_server_stops() -> None:
    begun, release = threading.Event(), threading.Event()

    def slow(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        begun.set()
        release.wait(10)
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"saved"]

    server, thread, url = start(slow)
    answers: list[bytes] = []
    client = threading.Thread(target=lambda: answers.append(urllib.request.urlopen(url + "/x", timeout=30).read()))
    client.start()
    assert begun.wait(10)
    stopper = threading.Thread(target=stop, args=(server, thread))
    stopper.start()
    stopper.join(0.5)
    # still stopping half a second on: it waits for the request (up to 10 s), it cannot have finished
    assert stopper.is_alive() and server.listener.closing
    release.set()  # the request finishes while the server is stopping
    client.join(30)
    stopper.join(30)
    assert answers == [b"saved"]
    with pytest.raises(OSError):  # and nothing listens any more
        socket.create_connection(("127.0.0.1", server.server_address[1]), timeout=2)


def test_streams_past_the_limit_are_told_to_come_back_and_the_others_still_answer() -> None:
    stop_streams = threading.Event()

    def app(environ: dict[str, Any], start_response: Any) -> Iterator[bytes] | list[bytes]:
        start_response("200 OK", [("Content-Type", "text/event-stream" if environ["PATH_INFO"] == "/api/events"
                                   else "text/plain")])
        if environ["PATH_INFO"] != "/api/events":
            return [b"ok"]

        def stream() -> Iterator[bytes]:
            yield b"retry: 1500\n\n"
            while not stop_streams.wait(0.05):
                pass
        return stream()

    server, thread, url = start(app, threads=4, max_streams=2)
    opened = []
    try:
        for _ in range(2):
            opened.append(urllib.request.urlopen(url + "/api/events", timeout=10))
            assert opened[-1].readline() == b"retry: 1500\n"
        with urllib.request.urlopen(url + "/api/events", timeout=10) as refused:
            assert refused.read() == BUSY_STREAM
        for _ in range(5):  # the two threads left answer everything else
            with urllib.request.urlopen(url + "/page", timeout=10) as page:
                assert page.read() == b"ok"
        assert server.gate.open == 2 and server.gate.refused == 1
    finally:
        stop_streams.set()
        for stream in opened:
            stream.close()
        stop(server, thread)


def test_the_stream_limit_must_leave_threads_for_the_rest() -> None:
    sock = socket.create_server(("127.0.0.1", 0))
    try:
        with pytest.raises(ValueError, match="must leave threads"):
            TableServer(lambda environ, start_response: [], sock, threads=8, max_streams=8)
    finally:
        sock.close()


@pytest.mark.parametrize(("open_files", "limit"), [(20_000, 4096), (4096, 3584), (1024, 512), (256, 128), (None, 4096)])
def test_the_connection_limit_leaves_descriptors_for_the_server_s_own_files(open_files: int | None, limit: int) -> None:
    assert connection_limit(open_files) == limit


@pytest.mark.parametrize(("query", "shown"), [
    ("token=abc123", "token=…"),
    ("lang=en&token=abc123&x=1", "lang=en&token=…&x=1"),
    ("_token=abc&TOKEN=def", "_token=…&TOKEN=…"),
    ("tokens=1&mytoken=2", "tokens=1&mytoken=2"),
])
def test_the_access_log_hides_the_token(query: str, shown: str) -> None:
    assert redact(query) == shown
