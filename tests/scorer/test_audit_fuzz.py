"""The audit never crashes: records with arbitrary (structurally valid) plays, leaders,
attempts, bids, kitties and friends are audited, and the output keeps docs/RECORD.md's shape."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tuolaji.scorer import (
    CARD_NAMES,
    PROFILES,
    audit_record,
    audit_with_findings,
    legal_plays,
    next_leader,
    random_record,
    trick_winner,
)
from tuolaji.scorer.record import RecordError
from tuolaji.scorer.violation_text import detail, penalty_detail

PROFILE_NAMES = list(PROFILES)
RULE_CODES = {"wrong-leader", "wrong-card-count", "card-not-available", "lead-mixed-suits", "must-follow-suit",
              "must-follow-format", "failed-throw", "wrong-forced-unit", "bad-bid", "bad-kitty", "bad-friend-call",
              "wrong-dealer", "bad-points"}
DEAL_KEYS = {"tricks", "violations", "penalties", "defender_points", "kitty_points", "kitty_multiplier",
             "kitty_won_by", "penalty_points", "total_defender_points", "outcome", "next_dealer", "levels_after",
             "game_winner"}


def _cards(rng: random.Random, n: int, pool: list[str]) -> list[str]:
    """Up to ``n`` cards from ``pool``, none more than four times: more copies than four decks hold is
    a malformed record, refused before any audit (RecordError), which is not what this test is about."""
    drawn: list[str] = []
    while len(drawn) < n and any(drawn.count(card) < 4 for card in set(pool)):
        card = rng.choice(pool)
        if drawn.count(card) < 4:
            drawn.append(card)
    return drawn


def mutate(rec: dict, rng: random.Random) -> dict:
    deal = rec["deals"][0]
    n = len(rec["players"])
    pool = CARD_NAMES if rng.random() < 0.3 else [c for h in deal["hands"] for c in h] or list(CARD_NAMES)
    for _ in range(rng.randint(1, 6)):
        if not deal["tricks"]:
            break
        t = rng.choice(deal["tricks"])
        what = rng.randrange(7)
        if what == 0:
            t["leader"] = rng.randrange(n)
        elif what == 1 and t["plays"]:
            j = rng.randrange(len(t["plays"]))
            t["plays"][j] = _cards(rng, rng.randint(0, 4), pool)
        elif what == 2:
            t["attempt"] = _cards(rng, rng.randint(0, 5), pool)
        elif what == 3 and t["plays"]:
            j = rng.randrange(len(t["plays"]))
            if t["plays"][j]:
                t["plays"][j][rng.randrange(len(t["plays"][j]))] = rng.choice(CARD_NAMES)
        elif what == 4:
            deal["bids"] = [{"seat": rng.randrange(n), "cards": _cards(rng, rng.randint(1, 3), CARD_NAMES),
                             "after_kitty": rng.random() < 0.2} for _ in range(rng.randint(0, 4))]
        elif what == 5:
            deal["kitty"] = _cards(rng, rng.randint(0, 9), CARD_NAMES)
            deal["friends"] = [{"card": rng.choice(CARD_NAMES), "nth": rng.randint(1, 4)}]
        else:
            deal["complete"] = rng.random() < 0.5
    if rng.random() < 0.5:
        del deal["hands"]
    if rng.random() < 0.3 and deal["tricks"]:
        deal["tricks"][-1]["plays"] = deal["tricks"][-1]["plays"][: rng.randrange(n)]
    return rec


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(profile=st.sampled_from(PROFILE_NAMES), seed=st.integers(0, 2**31))
def test_audit_survives_arbitrary_plays(profile: str, seed: int) -> None:
    rng = random.Random(seed)
    rec = mutate(random_record(profile, seed, hand_size=rng.randint(1, 6)), rng)
    out, findings = audit_with_findings(rec)
    assert out == audit_record(rec)
    deal: dict[str, Any] = out["deals"][0]
    assert set(deal) == DEAL_KEYS
    for v in deal["violations"]:
        assert set(v) == {"trick", "seat", "rule", "proven", "detail"} and v["rule"] in RULE_CODES
    # the same findings as data: the detail is the English of each fact
    assert [(v["trick"], v["seat"], v["rule"], v["proven"], v["detail"]) for v in deal["violations"]] == [
        (f.trick, f.seat, f.rule, f.proven, detail(f.fact)) for f in findings[0].violations]
    assert [(p["trick"], p["seat"], p["points"], p["detail"]) for p in deal["penalties"]] == [
        (f.trick, f.seat, f.points, penalty_detail(f.fact)) for f in findings[0].penalties]
    for t, trick in enumerate(deal["tricks"]):
        assert set(trick) == {"leader", "winner", "points", "plays"}
        for p in trick["plays"]:
            assert p["legal"] == (not p["violations"])
        if len(trick["plays"]) == len(rec["players"]) and trick["plays"][0]["cards"]:
            assert trick["winner"] == trick_winner(rec, 0, t)
    assert next_leader(rec) in range(len(rec["players"]))
    for seat in range(len(rec["players"])):
        assert isinstance(legal_plays(rec, seat, limit=50), list)


def test_out_of_range_requests_are_record_errors() -> None:
    rec = random_record("single-deck", 1, hand_size=2)
    for call in (lambda: trick_winner(rec, 0, 9), lambda: trick_winner(rec, 3, 0), lambda: legal_plays(rec, 7)):
        try:
            call()
        except RecordError:
            continue
        raise AssertionError("expected a RecordError")
