"""What one change costs the club, early and late in a game: the bytes a table pushes for one play
and the time the club takes to apply it (``POST /club/api/tables/<name>/changes``, through the club's
Flask app on PostgreSQL), in the 1st deal and in the 30th, as the change itself (what a table sends
now: :meth:`session.journal.Change.to_json`) and as the session's whole record (what it sent before,
still accepted).

    .venv/bin/python bench/club_change_bench.py [--plays 8] [--db URL]

Without ``--db`` it starts a PostgreSQL of its own (``initdb`` in a temporary folder, as the tests
do). Each case is a table of its own: its session is pushed whole once, then ``--plays`` plays of
the last deal are pushed one a request; the figures are the median of those pushes. The last
line: ``change_bytes_1=… change_bytes_30=… change_ms_1=… change_ms_30=… record_bytes_1=…
record_bytes_30=… record_ms_1=… record_ms_30=…``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.club.conftest import PostgresServer, evening_record  # noqa: E402
from tuolaji.club.app import create_club_app  # noqa: E402
from tuolaji.session.journal import record_text, text_digest  # noqa: E402
from tuolaji.session.live import LiveGame  # noqa: E402

LEADS = ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S", "5S", "4S", "3S"]


def game_at(deal: int) -> dict[str, Any]:
    """A record whose last deal, number ``deal`` (1-based), is set up and not yet played."""
    if deal == 1:
        return {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": ["东", "南", "西", "北"],
                "start_levels": ["2", "2", "2", "2"], "deals": [{"level": "2", "trump": "NT", "dealer": 0,
                                                                  "tricks": []}]}
    return evening_record(tuple(range(1, deal)))


def bench_case(client: Any, organiser: str, table: str, deal: int, plays: int, whole: bool) -> tuple[int, float]:
    """The median bytes and milliseconds of pushing one play of deal ``deal`` to table ``table``."""
    answer = client.post("/club/api/tables", json={"name": table}, headers={"Authorization": f"Bearer {organiser}"})
    token = answer.get_json()["token"]
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    record = game_at(deal)
    game = LiveGame(record)

    def push(n: int, body: dict[str, Any]) -> tuple[int, float]:
        data = json.dumps({"table": table, "changes": [{"n": n, "session": 1, "name": "s"} | body]},
                          ensure_ascii=False).encode("utf-8")
        start = time.perf_counter()
        answer = client.post(f"/club/api/tables/{table}/changes", data=data, headers=headers)
        elapsed = time.perf_counter() - start
        assert answer.status_code == 200, answer.get_json()
        return len(data), elapsed * 1000

    push(1, {"record": game.snapshot()})
    sizes, times = [], []
    leader = int(record["deals"][-1]["dealer"])
    for k in range(plays):
        # one card a seat, in turn: a trick of singles (its legality is the audit's, never refused)
        change = game.play((leader + k) % 4, [LEADS[k % len(LEADS)]])
        journalled = game.journal()[-1]
        assert journalled.deal == change.deal
        # as a table's outbox sends it: with the fingerprint of the record it makes
        made = text_digest(record_text(game.snapshot()))
        body = {"record": game.snapshot()} if whole else {"change": journalled.to_json(made=made)}
        size, ms = push(2 + k, body)
        sizes.append(size)
        times.append(ms)
    return int(statistics.median(sizes)), statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plays", type=int, default=8)
    parser.add_argument("--db", help="a postgresql:// address (default: a PostgreSQL of its own)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="tuolaji-club-change-"))
    server = None
    try:
        dsn = args.db
        if dsn is None:
            server = PostgresServer(folder)
            server.start()
            dsn = server.create_database("bench")
        app = create_club_app(dsn, {"TESTING": True}, listen=False)
        client = app.test_client()
        organiser = app.extensions["tuolaji.club"].organiser_token()
        figures: dict[str, float] = {}
        for whole in (False, True):
            form = "record" if whole else "change"
            for deal in (1, 30):
                size, ms = bench_case(client, organiser, f"{form}-{deal}", deal, args.plays, whole)
                figures[f"{form}_bytes_{deal}"] = size
                figures[f"{form}_ms_{deal}"] = ms
                print(f"{form:6} form, deal {deal:2}: {size:7d} bytes, {ms:7.1f} ms a push (median of {args.plays})")
        print(" ".join(f"{key}={value:.1f}" if isinstance(value, float) else f"{key}={value}"
                       for key, value in figures.items()))
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
