"""The table page's server, before (Werkzeug's development server) and after (waitress, what
``tuolaji serve`` runs): how fast a play reaches N viewers over server-sent events, and how fast
the camera preview refreshes.

    .venv/bin/python bench/serve_bench.py [--viewers 20] [--plays 40] [--camera-s 5] [--servers werkzeug,waitress]

Each server runs in its own process on 127.0.0.1, as ``tuolaji serve --record`` (a random
standard 2-deck deal; its feed waits an hour, so every play is one this bench posts, as the
page posts a play entered by hand). Figures per server:

- **play -> event**: from a play posted (``POST /api/play``) to its ``play-settled`` event on
  each of N viewers' streams (``/api/events``): p50 and p99 over every viewer and play; and
  the play's own answer time.
- **the same with 1,000 idle connections open** (10 plays): what a loop that looks at every
  connection costs.
- **camera preview**: ``GET /api/camera/frame.jpg`` in a loop on one kept-alive connection
  (as the set-up page refreshes it), with the bundled demo video open: frames per second.
- **a play with the streams all taken**: 60 more streams opened (past the server's limit of
  streams), then one play: its answer time and whether it was answered.
- **idle connections**: 1,100 idle connections, then ``GET /api/state``: answered or not
  within 10 s (the server's open-file soft limit set to 1,024 at its start, as on the probe's
  machine).

A last line ``serve_bench: ...`` sums them up.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tuolaji import scorer  # noqa: E402

try:
    import resource
except ImportError:  # Windows: no open-file limit to set
    resource = None  # type: ignore[assignment]


# --- the server under test (a child process) ---------------------------------------------------


def serve_with_werkzeug(argv: list[str]) -> int:
    """What ``tuolaji serve`` ran before: the same application on Werkzeug's threaded development server."""
    from werkzeug.serving import make_server

    from tuolaji import cli
    from tuolaji.cli.serve import app_config, attach_source, listen_socket, lock_data_dir
    from tuolaji.web import create_app, get_table

    args = cli.build_parser().parse_args(["serve", *argv])
    lock = lock_data_dir(Path(args.data))
    sock = listen_socket(args.host, args.port)
    app = create_app(app_config(args, args.data, local_only=True, public_url=None))
    table = get_table(app)
    feed = attach_source(table, args)
    server = make_server(args.host, sock.getsockname()[1], app, threaded=True, fd=sock.fileno())
    sock.close()
    if feed is not None:
        table.feed = feed
        feed.start()
    print(f"tuolaji serve: open http://127.0.0.1:{server.server_address[1]}/  (Ctrl-C stops)", flush=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        while thread.is_alive():
            thread.join(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        table.stop_feed(timeout=10)
        server.shutdown()
        server.server_close()
        lock.close()
    return 0


class Server:
    """A server process for the bench: ``kind`` werkzeug (before) or waitress (``tuolaji serve``)."""

    def __init__(self, kind: str, record_path: Path, data: Path, *, files: int | None = None) -> None:
        argv = ["--record", str(record_path), "--pace", "3600", "--data", str(data), "--port", "0"]
        command = ([sys.executable, __file__, "--child-werkzeug", *argv] if kind == "werkzeug"
                   else [sys.executable, "-m", "tuolaji", "serve", *argv])

        def limit_files() -> None:
            if files is not None and resource is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (files, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))

        self.log = tempfile.TemporaryFile("w+")  # the server's stderr, shown if it does not start
        self.process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=self.log,
                                        text=True, env=os.environ | {"PYTHONUNBUFFERED": "1"},
                                        preexec_fn=limit_files if resource is not None else None)
        line = self.process.stdout.readline()  # type: ignore[union-attr]
        if "open http://" not in line:
            self.process.kill()
            self.process.wait()
            self.log.seek(0)
            raise SystemExit(f"serve_bench: the {kind} server did not start: {line!r}\n{self.log.read()[-2000:]}")
        self.url = line.split("open ", 1)[1].split()[0]
        self.port = int(self.url.rstrip("/").rsplit(":", 1)[1])
        self.token = (data / "table-token").read_text(encoding="ascii").strip()

    def post(self, path: str, body: Any, timeout: float = 60) -> tuple[int, float]:
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json", "X-Tuolaji-Token": self.token})
        begun = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                response.read()
                return response.status, time.perf_counter() - begun
        except urllib.error.HTTPError as error:
            return error.code, time.perf_counter() - begun

    def stop(self) -> None:
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


# --- the viewers ---------------------------------------------------------------------------------


class Viewer(threading.Thread):
    """One page's event stream: when each ``play-settled`` event arrived."""

    def __init__(self, port: int, arrived: threading.Condition) -> None:
        super().__init__(daemon=True)
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.sock.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                          "Accept: text/event-stream\r\n\r\n".encode())
        self.arrived = arrived
        self.plays: list[float] = []
        self.head = b""
        self.opened = threading.Event()

    def run(self) -> None:
        pending = b""
        try:
            while True:
                chunk = self.sock.recv(65536)
                now = time.perf_counter()
                if not chunk:
                    break
                if not self.opened.is_set():
                    self.head += chunk
                    if b"retry:" in self.head:
                        self.opened.set()
                pending += chunk
                count = pending.count(b'"play-settled"')
                if count:
                    pending = pending[pending.rfind(b'"play-settled"') + 1:]
                    with self.arrived:
                        self.plays.extend([now] * count)
                        self.arrived.notify_all()
                pending = pending[-64:]
        except OSError:
            pass
        finally:
            self.opened.set()

    def close(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def plays_of(record: dict[str, Any]) -> list[tuple[int, list[str]]]:
    players = len(record["players"])
    return [((trick["leader"] + position) % players, cards)
            for trick in record["deals"][0]["tricks"] for position, cards in enumerate(trick["plays"])]


def open_viewers(server: Server, count: int) -> tuple[threading.Condition, list[Viewer]]:
    """``count`` pages subscribed to the server's events, each open (or given up after 30 s), and the
    condition they signal when an event arrives."""
    arrived = threading.Condition()
    pages = [Viewer(server.port, arrived) for _ in range(count)]
    for page in pages:
        page.start()
    for page in pages:
        page.opened.wait(30)
    return arrived, pages


def bench_events(server: Server, record: dict[str, Any], viewers: int, plays: int, first: int = 0) -> dict[str, float]:
    arrived, pages = open_viewers(server, viewers)
    latencies: list[float] = []
    answers: list[float] = []
    missing = 0
    for number, (seat, cards) in enumerate(plays_of(record)[first:first + plays]):
        sent = time.perf_counter()
        status, took = server.post("api/play", {"seat": seat, "cards": cards})
        if status != 201:
            raise SystemExit(f"serve_bench: play {number} answered {status}")
        answers.append(took)
        deadline = time.monotonic() + 20
        with arrived:
            while any(len(page.plays) <= number for page in pages) and time.monotonic() < deadline:
                arrived.wait(0.5)
        for page in pages:
            if len(page.plays) > number:
                latencies.append(page.plays[number] - sent)
            else:
                missing += 1
    for page in pages:
        page.close()
    return {"p50": statistics.median(latencies), "p99": percentile(latencies, 0.99), "max": max(latencies),
            "answer_p50": statistics.median(answers), "missing": missing, "samples": len(latencies)}


def bench_camera(server: Server, seconds: float) -> float:
    status, _ = server.post("api/camera/open", {"source": "demo", "size": "1920x1080"})
    if status != 200:
        raise SystemExit(f"serve_bench: opening the demo video for the preview answered {status}")
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    deadline = time.monotonic() + 30
    while True:  # the first picture
        connection.request("GET", "/api/camera/frame.jpg")
        response = connection.getresponse()
        response.read()
        if response.status == 200 or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    frames = 0
    begun = time.perf_counter()
    while time.perf_counter() - begun < seconds:
        connection.request("GET", f"/api/camera/frame.jpg?n={frames}")
        response = connection.getresponse()
        if response.read() and response.status == 200:
            frames += 1
    elapsed = time.perf_counter() - begun
    connection.close()
    server.post("api/camera/close", {})
    return frames / elapsed


def bench_full_streams(server: Server, record: dict[str, Any], streams: int, play: int) -> tuple[int, float]:
    _arrived, pages = open_viewers(server, streams)
    seat, cards = plays_of(record)[play]
    status, took = server.post("api/play", {"seat": seat, "cards": cards}, timeout=30)
    for page in pages:
        page.close()
    return status, took


def bench_idle(server: Server, count: int) -> str:
    opened = []
    try:
        for _ in range(count):
            opened.append(socket.create_connection(("127.0.0.1", server.port), timeout=10))
        begun = time.perf_counter()
        try:
            with urllib.request.urlopen(server.url + "api/state", timeout=10) as response:
                response.read()
            return f"answered in {1000 * (time.perf_counter() - begun):.0f} ms"
        except OSError as exc:
            return f"not answered ({type(exc).__name__} after {time.perf_counter() - begun:.0f} s)"
    except OSError as exc:
        return f"the bench could not open them ({exc})"
    finally:
        for sock in opened:
            sock.close()


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--child-werkzeug":
        return serve_with_werkzeug(sys.argv[2:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", type=int, default=20)
    parser.add_argument("--plays", type=int, default=40)
    parser.add_argument("--camera-s", type=float, default=5.0)
    parser.add_argument("--servers", default="werkzeug,waitress")
    args = parser.parse_args()
    if resource is not None:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft != resource.RLIM_INFINITY and soft < 2048 and (hard == resource.RLIM_INFINITY or hard >= 2048):
            resource.setrlimit(resource.RLIMIT_NOFILE, (2048, hard))
    record = scorer.random_record("standard-2deck", 1)
    plays = min(args.plays, len(plays_of(record)) - 11)
    summary = []
    with tempfile.TemporaryDirectory(prefix="serve-bench-") as folder:
        path = Path(folder) / "game.json"
        path.write_text(json.dumps(record), encoding="utf-8")
        for kind in args.servers.split(","):
            server = Server(kind, path, Path(folder) / kind)
            try:
                events = bench_events(server, record, args.viewers, plays)
                idle_sockets = [socket.create_connection(("127.0.0.1", server.port), timeout=10) for _ in range(1000)]
                try:
                    crowded = bench_events(server, record, args.viewers, 10, first=plays)
                finally:
                    for sock in idle_sockets:
                        sock.close()
                fps = bench_camera(server, args.camera_s)
                status, took = bench_full_streams(server, record, 60, plays + 10)
            finally:
                server.stop()
            idle_server = Server(kind, path, Path(folder) / f"{kind}-idle", files=1024)
            try:
                idle = bench_idle(idle_server, 1100)
            finally:
                idle_server.stop()
            print(f"{kind}:")
            print(f"  play -> event on {args.viewers} viewers ({events['samples']} events, {plays} plays): "
                  f"p50 {1000 * events['p50']:.1f} ms, p99 {1000 * events['p99']:.1f} ms, "
                  f"max {1000 * events['max']:.1f} ms; missing {events['missing']}; "
                  f"the play answered in {1000 * events['answer_p50']:.1f} ms (p50)")
            print(f"  the same with 1,000 idle connections open ({crowded['samples']} events, 10 plays): "
                  f"p50 {1000 * crowded['p50']:.1f} ms, p99 {1000 * crowded['p99']:.1f} ms; missing {crowded['missing']}")
            print(f"  camera preview (frame.jpg, one kept-alive connection): {fps:.1f} frames/s")
            print(f"  a play with 60 more streams open: {status} in {1000 * took:.0f} ms")
            print(f"  GET /api/state past 1,100 idle connections (open-file limit 1,024 at start): {idle}")
            summary.append(f"{kind} p50={1000 * events['p50']:.1f}ms p99={1000 * events['p99']:.1f}ms "
                           f"fps={fps:.1f} idle={'ok' if idle.startswith('answered') else 'starved'}")
    print("serve_bench: " + "; ".join(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
