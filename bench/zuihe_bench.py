"""Benchmark the 嘴和 scorer: p50 time to score random 31-card hands (dealer hands).

Usage: ``python bench/zuihe_bench.py [--hands N] [--seed S]``. The last line is exactly
``zuihe_p50_ms=X``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tuolaji.scorer.zuihe import ALL_CARDS, Hand, ZuiheOptions, score_hand  # noqa: E402

DECK = [card for card in ALL_CARDS for _ in range(4)]


def random_hand(rng: random.Random, size: int = 31) -> Hand:
    """31 cards dealt from a shuffled 120-card deck (what the target is about)."""
    return Hand(tuple(sorted(rng.sample(DECK, size))))


def dense_hand(rng: random.Random, size: int = 31) -> Hand:
    """A harder case: 31 cards drawn from 15 白 kinds plus the 幺, so pairs, runs, 报 and 车 abound."""
    kinds = [c for c in ALL_CARDS if not c.is_yao]
    pool = [c for c in rng.sample(kinds, 15) + [c for c in ALL_CARDS if c.is_yao] for _ in range(4)]
    return Hand(tuple(sorted(rng.sample(pool, size))))


def timed(hands: list[Hand], options: ZuiheOptions) -> tuple[list[float], int]:
    times_ms: list[float] = []
    wins = 0
    for hand in hands:
        start = time.perf_counter()
        result = score_hand(hand, options)
        times_ms.append((time.perf_counter() - start) * 1000)
        wins += result.wins
    return sorted(times_ms), wins


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    options = ZuiheOptions()
    dense = [dense_hand(rng) for _ in range(args.hands // 5)]
    dense_ms, dense_wins = timed(dense, options)
    print(f"dense hands={len(dense)} wins={dense_wins} p50_ms={statistics.median(dense_ms):.2f} "
          f"max_ms={dense_ms[-1]:.2f}")
    hands = [random_hand(rng) for _ in range(args.hands)]
    times_ms, wins = timed(hands, options)
    p50 = statistics.median(times_ms)
    p90 = times_ms[int(0.9 * (len(times_ms) - 1))]
    print(f"random 31-card hands={len(hands)} wins={wins} p90_ms={p90:.2f} max_ms={times_ms[-1]:.2f} "
          f"mean_ms={statistics.fmean(times_ms):.2f}")
    print(f"zuihe_p50_ms={p50:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
