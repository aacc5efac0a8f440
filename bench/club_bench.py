"""The club under a room's load: ``--tables`` tables, each with ``--clients`` clients (the table's
machine pushing its numbered changes, and the others' pages following the table's event stream),
against ``tuolaji club --workers N`` (gunicorn) on one PostgreSQL.

    .venv/bin/python bench/club_bench.py [--tables 50] [--clients 4] [--workers 4] [--changes 40] [--db URL]
    .venv/bin/python bench/club_bench.py --minutes 10 [--interval 2]   # the evening's pace, 10 minutes

Without ``--db`` the club runs on its own PostgreSQL, as ``tuolaji club --data DIR`` runs it for a
user (:mod:`club.own_database`, pgserver from the ``club`` extra), in a temporary folder; the bench
holds the same server to register the tables and check them at the end. Every tenth change is
pushed twice (a lost answer): the club must absorb it. At the end each
table's changes in the database are checked against what was pushed (numbers 1..N once each, the
last record equal), and each page's events against the changes (every number once, in order).
The last line: ``changes_per_s=… p50_ms=… p99_ms=… lost=… doubled=…`` (the push round trips;
lost: changes missing from the database or from a page, records that differ; doubled: changes
or events more than once).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.club.conftest import played_records  # noqa: E402
from tuolaji.club.own_database import OwnDatabase  # noqa: E402
from tuolaji.club.store import ClubStore  # noqa: E402


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Viewer(threading.Thread):
    """One page following one table's events."""

    def __init__(self, port: int, table: str, expected: int, sent_at: dict[tuple[str, int], float]) -> None:
        super().__init__(daemon=True)
        self.port, self.table, self.expected, self.sent_at = port, table, expected, sent_at
        self.seen: list[int] = []
        self.delays: list[float] = []
        self.ready = threading.Event()
        self.error: str | None = None

    def run(self) -> None:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
            connection.request("GET", f"/club/api/events?table={self.table}")
            response = connection.getresponse()
            while len(self.seen) < self.expected:
                line = response.readline().decode("utf-8")
                if not line:
                    break
                if not line.startswith("data: "):
                    continue
                event = json.loads(line[6:])
                if "worker" in event:
                    self.ready.set()
                if event.get("table") == self.table:
                    self.seen.append(int(event["n"]))
                    sent = self.sent_at.get((self.table, int(event["n"])))
                    if sent is not None:
                        self.delays.append(time.perf_counter() - sent)
            connection.close()
        except OSError as exc:
            self.error = str(exc)
        finally:
            self.ready.set()


class Pusher(threading.Thread):
    """One table's machine pushing its changes, one at a time, keep-alive."""

    def __init__(self, port: int, table: str, token: str, records: list[dict[str, Any]],
                 sent_at: dict[tuple[str, int], float], start: threading.Event, interval: float = 0.0,
                 offset: float = 0.0) -> None:
        super().__init__(daemon=True)
        self.port, self.table, self.token, self.records, self.sent_at, self.go = port, table, token, records, sent_at, start
        self.interval, self.offset = interval, offset
        self.latencies: list[float] = []
        self.duplicates = 0
        self.errors: list[str] = []

    def post(self, connection: http.client.HTTPConnection, changes: list[dict[str, Any]]) -> dict[str, Any]:
        body = json.dumps({"changes": changes}, ensure_ascii=False).encode("utf-8")
        connection.request("POST", f"/club/api/tables/{self.table}/changes", body=body, headers={
            "Content-Type": "application/json", "Authorization": f"Bearer {self.token}"})
        response = connection.getresponse()
        answer: dict[str, Any] = json.loads(response.read())
        if response.status != 200:
            raise RuntimeError(f"{self.table}: {response.status} {answer.get('error')}")
        return answer

    def run(self) -> None:
        self.go.wait()
        began = time.perf_counter() + self.offset
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        try:
            for n, record in enumerate(self.records, start=1):
                if self.interval:  # a table's pace: a change every interval seconds
                    time.sleep(max(0.0, began + (n - 1) * self.interval - time.perf_counter()))
                change = {"n": n, "session": 1, "name": "bench", "record": record}
                self.sent_at[(self.table, n)] = begun = time.perf_counter()
                answer = self.post(connection, [change])
                self.latencies.append(time.perf_counter() - begun)
                if answer["applied_through"] != n:
                    self.errors.append(f"{self.table}: change {n} answered {answer}")
                if n % 10 == 0:  # the answer "lost": the same change again, absorbed
                    self.duplicates += int(self.post(connection, [change])["duplicates"])
        except (OSError, RuntimeError, http.client.HTTPException) as exc:
            self.errors.append(str(exc))
        finally:
            connection.close()


def table_records(seed: int, changes: int) -> list[dict[str, Any]]:
    """``changes`` records of one table: a deal played one play at a time, then (a long run) the
    page's notes on it, one a change, so every change is a new record."""
    records = played_records(seed=seed, plays=changes - 1)
    while len(records) < changes:
        records.append({**records[-1], "bench_note": len(records)})
    return records


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--clients", type=int, default=4, help="per table: its machine and clients-1 pages")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--changes", type=int, default=40, help="changes each table pushes")
    parser.add_argument("--minutes", type=float, default=0.0,
                        help="run this long at a table's pace (--interval) instead of pushing --changes at once")
    parser.add_argument("--interval", type=float, default=2.0,
                        help="with --minutes: seconds between one table's changes (a play every 2 s by default)")
    parser.add_argument("--db", help="a postgresql:// address (default: the club's own PostgreSQL, `tuolaji club --data`)")
    args = parser.parse_args()

    own: OwnDatabase | None = None
    folder = Path(tempfile.mkdtemp(prefix="tuolaji-club-bench-"))
    if args.db:
        dsn = args.db
        where = ["--db", dsn]
    else:  # the club's own server, which the club's command finds running in its folder and shares
        own = OwnDatabase(folder / "club").__enter__()
        dsn = own.dsn
        where = ["--data", str(folder / "club")]
    store = ClubStore(dsn)
    names = [f"T{i:02d}" for i in range(1, args.tables + 1)]
    tokens = {name: store.add_table(name) for name in names}
    if args.minutes:
        args.changes = max(2, int(args.minutes * 60 / args.interval))
    records = {name: table_records(i, args.changes) for i, name in enumerate(names, start=1)}
    viewers_per_table = max(0, args.clients - 1)
    threads = max(16, (args.tables * args.clients) // args.workers + 16)
    port = free_port()
    club = subprocess.Popen([sys.executable, "-m", "tuolaji", "club", *where, "--port", str(port),
                             "--workers", str(args.workers), "--threads", str(threads)],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env={k: v for k, v in os.environ.items() if k != "TUOLAJI_CLUB_DB"} | {"PYTHONUNBUFFERED": "1"})
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/club/api/health", timeout=2):
                    break
            except OSError:
                if club.poll() is not None or time.monotonic() > deadline:
                    print(club.stderr.read() if club.stderr else "", file=sys.stderr)
                    raise SystemExit("the club did not start") from None
                time.sleep(0.2)
        sent_at: dict[tuple[str, int], float] = {}
        viewers = [Viewer(port, name, len(records[name]), sent_at) for name in names for _ in range(viewers_per_table)]
        for viewer in viewers:
            viewer.start()
        for viewer in viewers:
            viewer.ready.wait(30)
        go = threading.Event()
        interval = args.interval if args.minutes else 0.0
        pushers = [Pusher(port, name, tokens[name], records[name], sent_at, go, interval,
                          offset=interval * k / len(names)) for k, name in enumerate(names)]
        for pusher in pushers:
            pusher.start()
        started = time.perf_counter()
        go.set()
        for pusher in pushers:
            pusher.join()
        elapsed = time.perf_counter() - started
        for viewer in viewers:
            viewer.join(30)

        lost = doubled = 0
        for name in names:
            numbers = store.change_numbers(name)
            expected = list(range(1, len(records[name]) + 1))
            lost += len(set(expected) - set(numbers))
            doubled += len(numbers) - len(set(numbers)) + len(set(numbers) - set(expected))
            if store.record(name) != records[name][-1]:
                lost += 1
        for viewer in viewers:
            expected = list(range(1, viewer.expected + 1))
            lost += len(set(expected) - set(viewer.seen))
            doubled += len(viewer.seen) - len(set(viewer.seen))
            if viewer.seen != sorted(viewer.seen):
                print(f"{viewer.table}: events out of order", file=sys.stderr)
                lost += 1
        errors = [e for p in pushers for e in p.errors] + [v.error for v in viewers if v.error]
        for error in errors[:5]:
            print(f"error: {error}", file=sys.stderr)
        latencies = sorted(x for p in pushers for x in p.latencies)
        delays = sorted(x for v in viewers for x in v.delays)
        total = sum(len(p.latencies) for p in pushers)
        absorbed = sum(p.duplicates for p in pushers)

        def pct(values: list[float], q: float) -> float:
            return values[min(len(values) - 1, int(q * len(values)))] * 1000 if values else float("nan")

        print(f"club_bench: {args.tables} tables x {args.clients} clients ({viewers_per_table} pages each), "
              f"{args.workers} workers x {threads} threads, {total} changes in {elapsed:.1f} s, "
              f"{absorbed} duplicate pushes absorbed, {len(errors)} errors")
        if delays:
            print(f"page events: {len(delays)} received, p50 {pct(delays, 0.5):.1f} ms, p99 {pct(delays, 0.99):.1f} ms "
                  "after the push was sent")
        print(f"changes_per_s={total / elapsed:.1f} p50_ms={statistics.median(latencies) * 1000:.1f} "
              f"p99_ms={pct(latencies, 0.99):.1f} lost={lost + len(errors)} doubled={doubled}")
        return 0 if lost == 0 and doubled == 0 and not errors else 1
    finally:
        club.terminate()
        club.wait(30)
        store.close()
        if own is not None:
            own.__exit__(None, None, None)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
