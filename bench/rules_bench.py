"""Rules-engine benchmark (issue 2).

1. Follow-legality check on a 39-card 3-deck hand against a pair, a tractor, a 泰坦尼克
   and a 7-card throw lead: p50 / p95 per check (legal follows, both the first rung and
   lower rungs, and illegal ones).
2. Audit of a complete 3-deck 4-player deal (median of several runs).
3. Random complete deals generated (with the legal-play generator) and audited per second.

Last line, exactly: ``follow_check_p50_ms=X deal_audit_ms=Y deals_per_s=Z``.

    .venv/bin/python bench/rules_bench.py [--seconds 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tuolaji.scorer import PROFILES, audit_record, random_record  # noqa: E402
from tuolaji.scorer.cards import parse_cards  # noqa: E402
from tuolaji.scorer.follow import check_follow, hand_counts  # noqa: E402
from tuolaji.scorer.formats import Lead  # noqa: E402
from tuolaji.scorer.order import TrumpOrder  # noqa: E402
from tuolaji.scorer.state import random_follow  # noqa: E402

LEADS = {
    "pair": "AS AS",
    "tractor": "KS KS QS QS",
    "titanic": "AS AS AS KS KS KS",
    "throw7": "AS AS AS KS KS QS JS",
}


def _hand(rng: random.Random) -> list[int]:
    """A 39-card hand from 3 decks, rich in spades (so the format obligation matters)."""
    deck = [c for c in range(54) for _ in range(3)]
    spades = [c for c in deck if c < 13 and c not in (11, 12)]  # no ♠K ♠A (they are led)
    rng.shuffle(spades)
    rest = [c for c in deck if c >= 13]
    rng.shuffle(rest)
    return spades[:20] + rest[:19]


def bench_follow(samples: int) -> list[float]:
    opts = PROFILES["titanic-3deck"]
    order = TrumpOrder.of("5", "H")
    rng = random.Random(1)
    times: list[float] = []
    for name, lead_text in LEADS.items():
        lead = Lead.of(order, [int(c) for c in parse_cards(lead_text.split())], opts)
        for i in range(samples):
            cards = _hand(rng)
            hand = hand_counts(cards)
            if i % 3 == 2:
                spades = [c for c in cards if order.suit[c] == 0]
                play = rng.sample(spades, lead.size)  # usually breaks the format obligation
            else:
                play = random_follow(order, lead, hand, opts, rng)
            t0 = time.perf_counter()
            check_follow(order, lead, hand, play, opts)
            times.append((time.perf_counter() - t0) * 1000)
        del name
    return times


def bench_audit(runs: int) -> float:
    rec = random_record("titanic-3deck", 12345, attempt_chance=0.1)
    assert len(rec["deals"][0]["hands"][0]) == 39
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        out = audit_record(rec)
        times.append((time.perf_counter() - t0) * 1000)
    assert out["deals"][0]["violations"] == []
    return statistics.median(times)


def bench_deals(seconds: float) -> tuple[float, int]:
    profiles = list(PROFILES)
    t0 = time.perf_counter()
    count = 0
    while time.perf_counter() - t0 < seconds:
        rec = random_record(profiles[count % len(profiles)], count, attempt_chance=0.05)
        out = audit_record(rec)
        assert out["deals"][0]["violations"] == [], (profiles[count % len(profiles)], count)
        count += 1
    return count / (time.perf_counter() - t0), count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time for the deals-per-second part")
    parser.add_argument("--samples", type=int, default=300, help="follow checks per lead")
    args = parser.parse_args()

    follow = bench_follow(args.samples)
    q = statistics.quantiles(follow, n=20)
    p50, p95 = statistics.median(follow), q[18]
    print(f"follow check ({len(follow)} checks, 39-card 3-deck hand; pair, tractor, 泰坦尼克, 7-card throw): "
          f"p50 {p50:.3f} ms, p95 {p95:.3f} ms")
    audit_ms = bench_audit(15)
    print(f"audit of a complete 3-deck 4-player deal: {audit_ms:.1f} ms (median of 15)")
    rate, count = bench_deals(args.seconds)
    print(f"random complete deals generated and audited: {count} in {args.seconds:.0f} s → {rate:.1f}/s, "
          "no violation")
    print(f"follow_check_p50_ms={p50:.3f} deal_audit_ms={audit_ms:.1f} deals_per_s={rate:.1f}")


if __name__ == "__main__":
    main()
