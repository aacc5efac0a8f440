"""Fast end-to-end checks of the scorer's public API (the contract in docs/scorer_api)."""

from __future__ import annotations

from tuolaji import scorer
from tuolaji.scorer import (
    PROFILES,
    audit_record,
    legal_plays,
    next_leader,
    random_record,
    trick_winner,
    validate_record,
)

API = ["Card", "parse_card", "format_card", "CARD_NAMES", "RecordError", "validate_record", "audit_record",
       "next_leader", "trick_winner", "random_record", "legal_plays"]


def test_api_names_exported() -> None:
    for name in API:
        assert hasattr(scorer, name), name
    assert len(scorer.CARD_NAMES) == 54
    assert scorer.CARD_NAMES[:3] == ("2S", "3S", "4S") and scorer.CARD_NAMES[-2:] == ("SJ", "BJ")
    assert issubclass(scorer.RecordError, scorer.errors.InputError)


def test_random_deals_of_every_profile_audit_clean() -> None:
    for profile in PROFILES:
        rec = random_record(profile, seed=11)
        validate_record(rec)
        deal = audit_record(rec)["deals"][0]
        assert deal["violations"] == [], profile
        assert deal["outcome"] is not None
        assert next_leader(rec) == deal["tricks"][-1]["winner"]
        assert trick_winner(rec, 0, 0) == deal["tricks"][0]["winner"]


def test_truncated_deal_and_legal_plays() -> None:
    rec = random_record("standard-2deck", seed=4, tricks=3)
    deal = rec["deals"][0]
    assert deal["complete"] is False and len(deal["tricks"]) == 3
    out = audit_record(rec)["deals"][0]
    assert out["outcome"] is None and out["total_defender_points"] is None
    seat = next_leader(rec)
    plays = legal_plays(rec, seat)
    assert plays and all(isinstance(c, str) for p in plays for c in p)
    assert legal_plays(rec, (seat + 1) % 4) == []


def test_follow_hint_for_the_page() -> None:
    from tuolaji.scorer import follow_hint

    rec = {"rules": "standard-2deck", "deals": [{
        "level": "2", "trump": "S", "dealer": 0,
        "hands": [["AH", "AH", "KH", "KH"], ["3H", "3H", "5H", "9D", "4H", "4H"], ["4D", "5D", "6D", "7D"],
                  ["5H", "6D", "7D", "8D"]],
        "tricks": [{"leader": 0, "plays": [["AH", "AH", "KH", "KH"]]}]}]}
    assert follow_hint(rec, 1) == "follow ♥ with 4 cards: a tractor"
    assert follow_hint(rec, 0) is None  # not his turn
    rec["deals"][0]["tricks"][0]["plays"].append(["3H", "3H", "4H", "4H"])
    assert follow_hint(rec, 2) == "no ♥ left: play any 4 cards"
    rec["deals"][0]["tricks"][0]["plays"].append(["4D", "5D", "6D", "7D"])
    assert follow_hint(rec, 3) == "play all 1 ♥ card and any 3 more"
    assert legal_plays(rec, 3) == [["5H", "6D", "7D", "8D"]]
