"""The fuzz suite's larger run: N mutated inputs (default 10,000) through every reader and endpoint.

    .venv/bin/python bench/fuzz_bench.py [--inputs N] [--seed S]
    .venv/bin/python bench/fuzz_bench.py --cost [--repeat R]

Prints the counts per target (answers, clean refusals, crashes) and a last line
``fuzz_inputs=N runs=R refused=F crashes=C``; exit status 1 when anything crashed (a traceback
or a 5xx), with the first crashes listed. The mutations are ``tests/fuzz_harness.py``'s, over
the stored corpus ``tests/data/fuzz``.

``--cost`` measures work instead of crashes (issue #33): every reader of outside JSON and every
route that reads a body or a query string gets hostile inputs at its limit and one byte past
it (an unterminated string of escaped quotes, 4 MiB of digits, of brackets, of keys, a hand of
a million cards…), and the zip import the 1 GiB bomb and a zip of too many files; each input
is timed (the best of ``--repeat``: the process's CPU time, which is the work whatever else the
machine runs, and the wall time), and the slowest input per reader and per route is printed with
a last line ``cost_runs=N slowest_cpu=S slowest_wall=S over_1s=K``. Exit status 1 when any input
takes 1 s of CPU or more, or crashes.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from tests.fuzz_harness import Outcome, Tally, Workspace, corpus, run_one  # noqa: E402

COST_LIMIT_S = 1.0


def timed(run: Callable[[], Outcome], repeat: int) -> tuple[float, float, Outcome]:
    """The best of ``repeat`` runs: CPU seconds of this process (the work, whatever else the machine
    runs) and wall seconds."""
    best_cpu, best_wall, outcome = float("inf"), float("inf"), Outcome("ok")
    for _ in range(repeat):
        cpu, wall = time.process_time(), time.perf_counter()
        outcome = run()
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
    return best_cpu, best_wall, outcome


def cost(repeat: int) -> int:
    """Each reader and route on hostile inputs at and past its limit; the slowest per target."""
    from tests.fuzz_harness import cost_inputs, cost_readers, cost_routes, zip_bomb

    workspace = Workspace()
    rows: list[tuple[str, str, float, float, Outcome]] = []
    try:
        groups = {"reader": cost_readers(workspace), "route": cost_routes(workspace)}
        for kind, targets in groups.items():
            for name, (limit, run) in targets.items():
                for size in (limit, limit + 1):
                    for label, data in cost_inputs(size).items():
                        cpu, wall, outcome = timed(lambda run=run, data=data: run(data), repeat)
                        rows.append((f"{kind}: {name}", f"{label} ({size:,} bytes)", cpu, wall, outcome))
                print(f"... {kind} {name}", file=sys.stderr, flush=True)
        zips = {"the 1 GiB bomb (1 MB)": zip_bomb(), "a zip of 20,001 files": many_files(20_001)}
        from tests.fuzz_harness import post_endpoint

        for label, raw in zips.items():
            cpu, wall, outcome = timed(lambda raw=raw: post_endpoint(workspace, "/api/sessions/import.zip", raw, "file"),
                                       repeat)
            rows.append(("route: POST /api/sessions/import.zip (zip)", label, cpu, wall, outcome))
    finally:
        workspace.close()
    slowest: dict[str, tuple[str, float, float, Outcome]] = {}
    for target, label, cpu, wall, outcome in rows:
        if target not in slowest or cpu > slowest[target][1]:
            slowest[target] = (label, cpu, wall, outcome)
    print(f"{'slowest input per reader and route':<58} {'cpu':>9} {'wall':>9}")
    for target, (label, cpu, wall, outcome) in slowest.items():
        flag = "  OVER 1 s" if cpu >= COST_LIMIT_S else ""
        print(f"{target:<58} {cpu * 1000:6.0f} ms {wall * 1000:6.0f} ms  {outcome.kind:<7} {label}{flag}")
    crashes = [(t, label, o) for t, label, _c, _w, o in rows if o.kind == "crash"]
    for target, label, outcome in crashes[:20]:
        print("CRASH", target, label, outcome.detail)
    over = sum(1 for row in rows if row[2] >= COST_LIMIT_S)
    print(f"cost_runs={len(rows)} slowest_cpu={max(row[2] for row in rows):.3f} "
          f"slowest_wall={max(row[3] for row in rows):.3f} over_1s={over} crashes={len(crashes)}")
    return 1 if over or crashes else 0


def many_files(count: int) -> bytes:
    import io
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for number in range(count):
            archive.writestr(f"x{number}", b"")
    return buffer.getvalue()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--cost", action="store_true", help="time inputs at and past every limit (not crashes)")
    parser.add_argument("--repeat", type=int, default=3, help="with --cost: the best of this many runs per input")
    args = parser.parse_args()
    if args.cost:
        return cost(args.repeat)
    rng = random.Random(args.seed)
    seeds = corpus()
    tally = Tally()
    workspace = Workspace()
    begun = time.perf_counter()
    try:
        for number in range(args.inputs):
            run_one(workspace, rng, tally, seeds)
            if number % 1000 == 999:
                print(f"... {number + 1} inputs, {tally.total} runs, {len(tally.crashes)} crashes "
                      f"({time.perf_counter() - begun:.0f} s)", file=sys.stderr, flush=True)
    finally:
        workspace.close()
    for target, per in sorted(tally.counts.items()):
        print(f"{target:<40} ok {per['ok']:>6}  refused {per['refused']:>6}  crash {per['crash']:>4}")
    for crash in tally.crashes[:20]:
        print("CRASH", crash)
    refused = sum(per["refused"] for per in tally.counts.values())
    print(f"fuzz_inputs={args.inputs} runs={tally.total} refused={refused} crashes={len(tally.crashes)} "
          f"seconds={time.perf_counter() - begun:.0f}")
    return 1 if tally.crashes else 0


if __name__ == "__main__":
    sys.exit(main())
