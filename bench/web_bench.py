"""Figures for the live table page: how long the page's state takes to serve, how big it is,
and how long a settled play takes to reach a subscribed page over server-sent events.

    .venv/bin/python bench/web_bench.py [--profile titanic-3deck] [--repeat 20]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tuolaji import scorer  # noqa: E402
from tuolaji.web import create_app, get_table  # noqa: E402
from tuolaji.web.table import RecordFeed, record_setup  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--profile", default="titanic-3deck")
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    record = scorer.random_record(args.profile, 1)
    plays = sum(len(t["plays"]) for t in record["deals"][0]["tricks"])
    app = create_app({"DATA_DIR": tempfile.mkdtemp(), "TESTING": True, "SSE_KEEPALIVE_S": 30})
    table = get_table(app)
    table.start(record_setup(record), name="bench", source="bench")
    started = time.perf_counter()
    RecordFeed(table, record, pace_s=0).run()
    feed_s = time.perf_counter() - started
    client = app.test_client()
    times = []
    for _ in range(args.repeat):
        table.game._audit = None  # measure a fresh audit, as after every change
        begun = time.perf_counter()
        body = client.get("/api/state").get_data()
        times.append(time.perf_counter() - begun)
    print(f"{args.profile}: full deal of {len(record['deals'][0]['tricks'])} tricks, {plays} plays")
    print(f"  feeding every play (save + audit + events): {feed_s:.2f} s total, {1000 * feed_s / plays:.1f} ms per play")
    print(f"  GET /api/state after a change: median {1000 * statistics.median(times):.1f} ms, "
          f"{len(body) / 1024:.0f} KiB")

    response = client.get("/api/events")
    stream = iter(response.response)
    next(stream), next(stream)
    latencies = []
    for _ in range(args.repeat):
        sent = time.perf_counter()
        table.game.import_record(table.game.snapshot(), reason="bench")
        for chunk in stream:
            if b"state-changed" in chunk:
                break
        latencies.append(time.perf_counter() - sent)
    response.close()
    print(f"  change -> event on the stream: median {1000 * statistics.median(latencies):.2f} ms")


if __name__ == "__main__":
    main()
