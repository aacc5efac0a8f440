"""The table's HTTP server: waitress, with the limits a club can leave running on its network.

Werkzeug's development server gave every connection a thread and never closed an idle one, so
anyone on the network could exhaust the open files with idle connections. Here (waitress):

- **Connections cost a descriptor, not a thread.** One loop (``poll``, not ``select``: no
  1,024-descriptor ceiling) reads every connection; a request takes one of :data:`THREADS`
  worker threads only once it has fully arrived (its body too, at most ``max_body`` bytes), and
  only while it is answered (its answer is buffered, so a slow reader holds no thread).
- **Idle connections close.** A connection with no request under way is closed after
  ``idle_timeout_s`` seconds of silence; a half-sent request counts as idle.
- **A limit, and room for the next client.** At most ``connection_limit`` connections are open
  at once (``tuolaji serve`` derives it from the open-file limit, so the server never runs out
  of descriptors for its database and pictures); when the limit is reached, the connections
  idle the longest are closed to make room, instead of the newcomers waiting behind them.
- **Streams are bounded.** A server-sent event stream (:func:`is_stream`: serve's ``/api/events``
  and the club's ``/club/api/events`` and ``/club/table/<name>/api/events``) holds a worker
  thread for its whole life. At most :data:`MAX_STREAMS` run at once, so :data:`THREADS` minus
  that many threads always answer the plays, corrections and pages; a stream past the limit is
  answered at once with an SSE ``retry`` (and ``Retry-After``) that brings the browser back later
  (:data:`BUSY_RETRY_MS`), not held. The club's gunicorn workers put the same gate (:class:`StreamGate`)
  in front of their application, one a worker (:func:`streams_for` its threads).
- **Events leave at once.** Waitress sends what a stream yields as soon as it is written
  (its ``send_bytes`` is 1, a setting deprecated for removal: the tests check that an event
  reaches its viewers while their streams stay open).
"""

from __future__ import annotations

import logging
import re
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TextIO, cast

from waitress import wasyncore
from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher

STREAM_SUFFIX = "/api/events"
"""Every route whose answer is a long-lived stream (server-sent events) ends so: serve's ``/api/events``,
the club's ``/club/api/events`` and a table's ``/club/table/<name>/api/events``."""

THREADS = 48
"""Worker threads: :data:`MAX_STREAMS` viewers' streams, and the rest for everything else."""

MAX_STREAMS = 40
"""Streams at once: a table's screen, 20 viewers' phones and their other tabs, with room to spare."""

BUSY_RETRY_MS = 10_000
"""When the streams are all taken: the browser's EventSource tries again after this long."""

IDLE_TIMEOUT_S = 60
"""A connection with no request under way is closed after this many seconds of silence."""

MAX_CONNECTIONS = 4096
"""The most connections ever kept open at once, whatever the open-file limit allows."""

RESERVED_FILES = 512
"""Descriptors kept for the server's own files (the database, pictures, the camera, the worker
threads' connections to the database) out of the open-file limit."""

ACCEPT_BATCH = 64
"""Connections taken at once when several wait (one turn of the loop)."""

SELECT_LIMIT = 500
"""Where there is no ``poll`` (Windows), ``select`` watches at most 512 sockets."""

STREAM_RESERVE = 8
"""Threads a server (or a gunicorn worker) keeps for everything but streams."""

BUSY_STREAM = f"retry: {BUSY_RETRY_MS}\n\n: busy: too many streams open\n\n".encode("ascii")

logger = logging.getLogger("tuolaji.server")

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def connection_limit(open_files: int | None) -> int:
    """How many connections to keep open at once with ``open_files`` descriptors (None: unknown):
    what is left after :data:`RESERVED_FILES`, at most :data:`MAX_CONNECTIONS`; half of a small limit."""
    import select

    if open_files is None or open_files <= 0:
        limit = MAX_CONNECTIONS
    elif open_files - RESERVED_FILES >= 128:
        limit = min(MAX_CONNECTIONS, open_files - RESERVED_FILES)
    else:
        limit = max(16, open_files // 2)
    if not hasattr(select, "poll"):
        limit = min(limit, SELECT_LIMIT)
    return limit


def is_stream(path: str) -> bool:
    """Whether a request's path is one of the event streams (:data:`STREAM_SUFFIX`)."""
    return path.endswith(STREAM_SUFFIX)


def streams_for(threads: int) -> int:
    """The streams a server of ``threads`` worker threads lets run at once: all but
    :data:`STREAM_RESERVE` (half of a small pool)."""
    return max(threads // 2, threads - STREAM_RESERVE)


class StreamGate:
    """WSGI middleware: at most ``limit`` streams (:func:`is_stream`) at once; one more is told to
    come back later. Counts the streams open, so a shutdown knows which requests are worth waiting for."""

    def __init__(self, app: WSGIApp, limit: int = MAX_STREAMS) -> None:
        self.app = app
        self.limit = limit
        self.open = 0
        self.refused = 0
        self._lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if not is_stream(str(environ.get("PATH_INFO", ""))):
            return self.app(environ, start_response)
        with self._lock:
            full = self.open >= self.limit
            if full:
                self.refused += 1
            else:
                self.open += 1
        if full:
            if self.refused == 1 or self.refused % 100 == 0:
                logger.warning("%d event streams open (the limit): another one is told to come back in %d s",
                               self.limit, BUSY_RETRY_MS // 1000)
            start_response("200 OK", [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache"),
                                      ("Retry-After", str(BUSY_RETRY_MS // 1000)),
                                      ("Content-Length", str(len(BUSY_STREAM)))])
            return [BUSY_STREAM]
        try:
            body = self.app(environ, start_response)
        except BaseException:
            self._closed()
            raise
        return _Stream(body, self._closed)

    def _closed(self) -> None:
        with self._lock:
            self.open -= 1


class _Stream:
    """A stream's body, which tells its gate when it is closed (the server closes every body it got)."""

    def __init__(self, body: Iterable[bytes], on_close: Callable[[], None]) -> None:
        self.body = body
        self.on_close: Callable[[], None] | None = on_close

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.body)

    def close(self) -> None:
        try:
            close = getattr(self.body, "close", None)
            if close is not None:
                close()
        finally:
            if self.on_close is not None:
                done, self.on_close = self.on_close, None
                done()


_TOKEN_IN_QUERY = re.compile(r"((?:^|&)(?:_?token)=)[^&]*", re.IGNORECASE)


def redact(query: str) -> str:
    """A query string with the value of any ``token`` parameter hidden (``token=…``)."""
    return _TOKEN_IN_QUERY.sub(r"\1…", query)


class AccessLog:
    """WSGI middleware: one line per request on ``stream`` (``tuolaji serve --verbose``), the token never in it."""

    def __init__(self, app: WSGIApp, stream: TextIO | None = None) -> None:
        self.app = app
        self.stream = stream

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        query = environ.get("QUERY_STRING", "")
        line = (f"{environ.get('REMOTE_ADDR', '-')} {environ.get('REQUEST_METHOD', '-')} "
                f"{environ.get('PATH_INFO', '')}{'?' + redact(query) if query else ''}")

        def logged(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            print(f"tuolaji serve: {line} {status.split(' ', 1)[0]}", file=self.stream or sys.stderr, flush=True)
            return start_response(status, headers, exc_info) if exc_info is not None else start_response(status, headers)

        return self.app(environ, logged)


class _Listener(TcpWSGIServer):
    """Waitress's listener, which at the connection limit closes the connections idle the longest
    (no request under way: waiting, or a request half-sent) to make room for new ones."""

    closing = False  # set by TableServer.shutdown: no more connections taken
    _next_warning = 0.0
    _map: dict[int, Any]  # wasyncore.dispatcher's map of the open connections (its stubs leave it out)

    def readable(self) -> bool:
        if self.closing:
            return False
        if self.accepting and len(self._map) >= self.adj.connection_limit:
            self.make_room()
        return bool(super().readable())

    def handle_accept(self) -> None:
        # waitress takes one connection per turn of its loop, and each turn looks at every open
        # connection: a flood of them would be taken in quadratic time, the next client behind it
        for _ in range(ACCEPT_BATCH):
            before = len(self._map)
            if before >= self.adj.connection_limit:
                return
            super().handle_accept()
            if len(self._map) == before:  # none waiting (or one that failed)
                return

    def make_room(self) -> None:
        # waitress keeps its channels by descriptor in a dict (its stubs say one channel)
        channels = list(cast("dict[int, HTTPChannel]", self.active_channels).values())
        if any(channel.will_close for channel in channels):
            return  # the last ones chosen are still closing
        idle = sorted((c for c in channels if not c.requests), key=lambda channel: channel.last_activity)
        chosen = idle[: max(1, self.adj.connection_limit // 10)]
        for channel in chosen:
            channel.will_close = True
        now = time.monotonic()
        if chosen and now >= self._next_warning:
            self._next_warning = now + 60.0
            logger.warning("%d connections open (the limit): closing the %d idle the longest to make room",
                           self.adj.connection_limit, len(chosen))


class _QuietOverflow(logging.Filter):
    """Waitress's own line at every crossing of the connection limit: said once a minute by :class:`_Listener`."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "connection limit" not in record.getMessage()


class TableServer:
    """The page's HTTP server on a listening socket (which it takes over): :meth:`serve_forever` in one
    thread, :meth:`shutdown` from another, :meth:`server_close` to release everything."""

    def __init__(self, app: WSGIApp, sock: Any, *, connection_limit: int = MAX_CONNECTIONS,
                 idle_timeout_s: int = IDLE_TIMEOUT_S, threads: int = THREADS, max_streams: int = MAX_STREAMS,
                 max_body: int = 16 * 1024 * 1024, access_log: bool = False) -> None:
        if max_streams >= threads:
            raise ValueError(f"max_streams ({max_streams}) must leave threads ({threads}) for other requests")
        self.app = app  # the application served (Werkzeug's server had it too: tests and tools reach the page through it)
        self.gate = StreamGate(app, max_streams)
        served: WSGIApp = AccessLog(self.gate) if access_log else self.gate
        self.server_address: tuple[str, int] = sock.getsockname()[:2]
        adjustments = Adjustments(
            sockets=[sock], threads=threads, connection_limit=connection_limit,
            channel_timeout=idle_timeout_s, cleanup_interval=max(1, min(30, idle_timeout_s // 4)),
            asyncore_use_poll=True, asyncore_loop_timeout=1,
            # keep reading a connection while its request is answered: a viewer who leaves is
            # noticed at the stream's next write, and its thread freed
            channel_request_lookahead=1,
            max_request_body_size=max_body, ident="tuolaji", log_socket_errors=False,
            # the name a request without a Host header is taken for (as the development server did)
            server_name=self.server_address[0] if ":" not in self.server_address[0] else f"[{self.server_address[0]}]")
        waitress_log = logging.getLogger("waitress")
        if not any(isinstance(f, _QuietOverflow) for f in waitress_log.filters):
            waitress_log.addFilter(_QuietOverflow())
        self.dispatcher = ThreadedTaskDispatcher()
        self.dispatcher.set_thread_count(threads)
        self._map: dict[int, Any] = {}
        try:
            self.listener = _Listener(served, map=self._map, _sock=sock, dispatcher=self.dispatcher,
                                      adj=adjustments, bind_socket=False,
                                      sockinfo=(sock.family, sock.type, sock.proto, sock.getsockname()))
        except BaseException:
            self.dispatcher.set_thread_count(0)
            raise
        self.adjustments = adjustments
        self._stop = threading.Event()
        self._loop_done = threading.Event()
        self._loop_started = False
        self._closed = False
        self._close_lock = threading.Lock()

    def serve_forever(self) -> None:
        """Answer requests until :meth:`shutdown`; then close every connection (in this thread, the loop's)."""
        self._loop_started = True
        try:
            while not self._stop.is_set():
                wasyncore.loop(timeout=self.adjustments.asyncore_loop_timeout, map=self._map,
                               use_poll=True, count=1)
        finally:
            self._close_all()
            self._loop_done.set()

    def _busy(self) -> bool:
        """Whether a request other than a stream is being answered or waits for a thread."""
        return bool(self.dispatcher.queue) or self.dispatcher.active_count > self.gate.open

    def shutdown(self, grace_s: float = 10.0) -> None:
        """Stop taking connections, let the requests under way finish (up to ``grace_s`` seconds; the
        streams are not waited for), then stop the loop, which closes every connection."""
        self.listener.closing = True
        deadline = time.monotonic() + grace_s
        while self._loop_started and self._busy() and time.monotonic() < deadline and not self._loop_done.is_set():
            time.sleep(0.02)
        self._stop.set()
        if self._loop_started:
            self._wake()
            self._loop_done.wait(5.0)

    def server_close(self) -> None:
        """Release the socket, the connections and the worker threads (a stream's thread ends at its
        next write, on the closed connection)."""
        self._stop.set()
        if self._loop_started and not self._loop_done.is_set():
            self._wake()
            self._loop_done.wait(5.0)
        self._close_all()
        self.dispatcher.set_thread_count(0)
        with self.dispatcher.lock:
            while self.dispatcher.queue:
                # the queue holds the channels waiting for a thread (its stubs say tasks)
                cast(HTTPChannel, self.dispatcher.queue.popleft()).cancel()

    def _wake(self) -> None:
        """Wake the loop (its trigger), unless it is closed already (its descriptor may be another's now)."""
        with self._close_lock:
            if not self._closed:
                self.listener.pull_trigger()

    def _close_all(self) -> None:
        with self._close_lock:
            if self._closed:
                return
            self._closed = True
        wasyncore.close_all(self._map)
