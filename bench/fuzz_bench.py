"""The fuzz suite's larger run: N mutated inputs (default 10,000) through every reader and endpoint.

    .venv/bin/python bench/fuzz_bench.py [--inputs N] [--seed S]

Prints the counts per target (answers, clean refusals, crashes) and a last line
``fuzz_inputs=N runs=R refused=F crashes=C``; exit status 1 when anything crashed (a traceback
or a 5xx), with the first crashes listed. The mutations are ``tests/fuzz_harness.py``'s, over
the stored corpus ``tests/data/fuzz``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from tests.fuzz_harness import Tally, Workspace, corpus, run_one  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=17)
    args = parser.parse_args()
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
