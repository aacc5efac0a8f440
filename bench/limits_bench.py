"""The cost at the limits (issue 33, item 8): a 1,000-deal 4-deck audit, and a correction answered
while 20 pages watch the table (each subscribed to ``/api/events`` and reloading ``/api/state``
after the events of a change, as web/static/live.js does), at a short and a long history.

    .venv/bin/python bench/limits_bench.py [--deals 1000] [--viewers 20] [--corrections 30]
                                           [--history 0 200 2000]

Last line, exactly: ``audit_1000_s=X correction_p50_ms=Y correction_p99_ms=Z`` (the latency at
the longest history asked for).

On the 2-core development machine, shared with other work, before issue 33 (76b4ba5) and after:

=====================================  ==========================  ======================
                                       before                      after
=====================================  ==========================  ======================
1,000-deal four-deck audit             3.48 s (CPU 3.25 s)         1.69 s (CPU 1.69 s)
correction, 20 viewers, history 0      p50 272 ms, p99 1,030 ms    p50 24 ms, p99 60 ms
correction, 20 viewers, history 200    p50 20,022 ms, p99 54,566   p50 30 ms, p99 57 ms
correction, 20 viewers, history 2000   the session unreadable      p50 62 ms, p99 116 ms
=====================================  ==========================  ======================
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tuolaji import scorer  # noqa: E402
from tuolaji.web import create_app, get_table  # noqa: E402
from tuolaji.web import history as web_history  # noqa: E402
from tuolaji.web.security import TOKEN_HEADER  # noqa: E402

PLAYERS = ["东", "南", "西", "北"]


def long_record(deals: int, profile: str = "four-deck", seed: int = 0) -> dict[str, Any]:
    """A legal game of ``deals`` complete deals: each dealt and played by the legal-play generator,
    its dealer and level the ones the previous deal leaves (an audit without violations)."""
    rng = random.Random(seed)
    levels, dealer = ["2"] * 4, 0
    record: dict[str, Any] = {"format": "tuolaji-record/1", "rules": profile, "players": list(PLAYERS),
                              "start_levels": list(levels), "deals": []}
    for index in range(deals):
        deal = scorer.random_record(profile, seed * 100_000 + index, players=4, dealer=dealer, level=levels[dealer],
                                    trump=rng.choice("SHCD"))["deals"][0]
        one = scorer.audit_record({**record, "start_levels": levels, "deals": [deal]})["deals"][0]
        record["deals"].append(deal)
        levels, dealer = one["levels_after"], one["next_dealer"]
    return record


def bench_audit(deals: int, repeat: int) -> float:
    record = long_record(deals)
    size = len(json.dumps(record, ensure_ascii=False).encode())
    times, cpu = [], []
    for _ in range(repeat):
        started, started_cpu = time.perf_counter(), time.process_time()
        audit = scorer.audit_record(record)
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
    violations = sum(len(deal["violations"]) for deal in audit["deals"])
    print(f"audit of {deals} four-deck deals ({size / 1e6:.2f} MB, {violations} violations): "
          f"median {statistics.median(times):.2f} s of {repeat} (CPU {statistics.median(cpu):.2f} s: a busy "
          "machine slows the wall clock)")
    return statistics.median(times)


def with_history(record: dict[str, Any], length: int) -> dict[str, Any]:
    """``record`` with ``length`` corrections already made on it (confirming its first trick's cards)
    and kept in its history, as the page keeps them."""
    entries = []
    current = record
    for number in range(length):
        changed = json.loads(json.dumps(current))
        trick = changed["deals"][0]["tricks"][number % 4]
        trick.setdefault("corrections", []).append({"seat": trick["leader"], "index": 0, "old": trick["plays"][0][0],
                                                   "new": trick["plays"][0][0], "source": "page-confirm"})
        entry = web_history.diff(current, changed, "confirm")
        assert entry is not None
        entries.append(entry)
        current = changed
    return current | {"history": entries}


def bench_corrections(history_length: int, viewers: int, corrections: int) -> tuple[float, float]:
    played = scorer.random_record("four-deck", 3, players=4)
    played["players"] = list(PLAYERS)
    record = with_history(played, history_length)
    app = create_app({"DATA_DIR": tempfile.mkdtemp(), "TESTING": True, "SSE_KEEPALIVE_S": 0.5})
    table = get_table(app)
    table.start(record, name="bench", source="bench")
    stop = threading.Event()
    ready = threading.Barrier(viewers + 1)
    reloads = [0] * viewers

    def viewer(number: int) -> None:
        client = app.test_client()
        response = client.get("/api/events")
        stream = iter(response.response)
        next(stream)
        next(stream)
        client.get("/api/state")
        ready.wait()
        last = 0.0
        for chunk in stream:
            if stop.is_set():
                break
            if chunk.startswith(b"id:") and time.monotonic() - last >= 0.06:  # the page's reload, debounced
                client.get("/api/state")
                reloads[number] += 1
                last = time.monotonic()
        response.close()

    threads = [threading.Thread(target=viewer, args=(n,), daemon=True) for n in range(viewers)]
    for thread in threads:
        thread.start()
    ready.wait()
    client = app.test_client()
    tricks = played["deals"][0]["tricks"]
    latencies = []
    for number in range(corrections):
        trick = tricks[-1 - number % len(tricks)]
        seat = trick["leader"]
        card = "AS" if number % 2 == 0 else trick["plays"][0][0]
        body = {"deal": 0, "trick": len(tricks) - 1 - number % len(tricks), "seat": seat, "index": 0, "card": card}
        started = time.perf_counter()
        response = client.post("/api/correct", json=body, headers={TOKEN_HEADER: app.config["WRITE_TOKEN"]})
        latencies.append(time.perf_counter() - started)
        assert response.status_code == 200, response.get_data(as_text=True)[:300]
        time.sleep(0.1)  # the viewers reload as a person's next correction comes
    stop.set()
    for thread in threads:
        thread.join(5)
    latencies.sort()
    p50 = statistics.median(latencies)
    p99 = latencies[min(len(latencies) - 1, round(0.99 * (len(latencies) - 1)))]
    print(f"correction with {viewers} viewers, history of {history_length} changes: "
          f"p50 {1000 * p50:.0f} ms, p99 {1000 * p99:.0f} ms ({corrections} corrections, "
          f"{sum(reloads)} page reloads)")
    return p50, p99


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--viewers", type=int, default=20)
    parser.add_argument("--corrections", type=int, default=30)
    parser.add_argument("--history", type=int, nargs="+", default=[0, 200, 2000])
    args = parser.parse_args()
    audit_s = bench_audit(args.deals, args.repeat)
    p50 = p99 = 0.0
    for length in args.history:
        p50, p99 = bench_corrections(length, args.viewers, args.corrections)
    print(f"audit_1000_s={audit_s:.2f} correction_p50_ms={1000 * p50:.0f} correction_p99_ms={1000 * p99:.0f}")


if __name__ == "__main__":
    main()
