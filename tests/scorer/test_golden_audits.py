"""Fixture files: bundled example records (examples/), golden audits for every profile
and a perft-like table of legal-follow counts (tests/data/scorer/).

Regenerate after a deliberate change of the generator or the audit text with
``REGEN_SCORER_FIXTURES=1 pytest tests/scorer/test_golden_audits.py`` and review the diff.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from tuolaji.scorer import PROFILES, audit_record, dealer_side_seats, random_record, validate_record
from tuolaji.scorer.cards import CARD_NAMES, parse_cards
from tuolaji.scorer.formats import Lead
from tuolaji.scorer.order import TrumpOrder
from tuolaji.scorer.profiles import resolve_rules
from tuolaji.scorer.state import legal_follows

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
DATA = ROOT / "tests" / "data" / "scorer"
REGEN = os.environ.get("REGEN_SCORER_FIXTURES") == "1"


def _bid_for(profile: str, level: str, trump: str) -> list[str] | None:
    order = PROFILES[profile].bid_order
    if trump != "NT":
        return [level + trump]
    if PROFILES[profile].decks == 1:
        return ["SJ", "BJ"] if order == "two-deck" else None  # one deck holds one SJ
    return {"two-deck": ["SJ", "SJ"], "titanic": ["SJ", "BJ"], "chaodipi": ["BJ", "BJ"]}.get(order)


def build_example(name: str) -> dict:
    """The bundled example of a profile (and the 3-deck demo): complete, legal, with bids."""
    profile = "titanic-3deck" if name == "demo-3deck" else name
    seed = sorted(PROFILES).index(profile) + (100 if name == "demo-3deck" else 1)
    rec = random_record(profile, seed, attempt_chance=0.1)
    rec["players"] = ["东", "南", "西", "北"] if len(rec["players"]) == 4 else rec["players"]
    first = rec["deals"][0]
    bid = _bid_for(profile, first["level"], first["trump"])
    held = first["hands"][first["dealer"]] + first["kitty"]
    if bid is not None and all(held.count(c) >= bid.count(c) for c in bid):  # a bid shows cards of the hand
        first["bids"] = [{"seat": first["dealer"], "cards": bid}]
    if name == "standard-2deck":
        # a second deal: the levels and the dealer carry over
        out = audit_record(rec)["deals"][0]
        nd = out["next_dealer"]
        second = random_record(profile, seed + 1000, dealer=nd, level=out["levels_after"][nd],
                               attempt_chance=0.1)["deals"][0]
        rec["deals"].append(second)
    return rec


EXAMPLE_NAMES = sorted(PROFILES) + ["demo-3deck"]


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_bundled_examples(name: str) -> None:
    path = EXAMPLES / f"{name}.json"
    built = build_example(name)
    if REGEN:
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps(built, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    rec = json.loads(path.read_text(encoding="utf-8"))
    assert rec == built  # the generator is deterministic for a seed
    validate_record(rec)
    out = audit_record(rec)
    for deal in out["deals"]:
        assert deal["violations"] == []
        assert deal["outcome"] is not None
    if name == "demo-3deck":
        assert len(rec["players"]) == 4 and all(len(h) == 39 for h in rec["deals"][0]["hands"])


def build_friends_game(deals: int = 4, players: int = 5) -> dict:
    """A 找朋友 game of several deals (RULES §10): after the first deal a player of the side
    that won bids his own level card, deals and plays at his own level; levels per player."""
    from tuolaji.scorer.cards import RANKS

    rec = random_record("friends-3deck", 1500, players=players, level="2", dealer=0, attempt_chance=0.1)
    rec["players"] = ["甲", "乙", "丙", "丁", "戊", "己", "庚"][:players]
    for k in range(1, deals):
        audit = audit_record(rec)["deals"][-1]
        side = set(dealer_side_seats(rec, -1))
        winners = sorted(side if audit["outcome"]["side"] == "dealer" else set(range(players)) - side)
        levels = audit["levels_after"]
        if audit["game_winner"] is not None:
            break
        seed = 1500 + k
        dealer = winners[k % len(winners)]
        level = levels[dealer]
        probe = random_record("friends-3deck", seed, players=players, dealer=dealer, level=level)["deals"][0]
        held = probe["hands"][dealer] + probe["kitty"]
        shown = next((c for c in held if c[:-1] == level and c not in ("SJ", "BJ")), None)
        trump = shown[-1] if shown else "NT"
        deal = random_record("friends-3deck", seed, players=players, dealer=dealer, level=level, trump=trump,
                             attempt_chance=0.1)["deals"][0]
        if shown:
            deal["bids"] = [{"seat": dealer, "cards": [shown]}]
        rec["deals"].append(deal)
    rec["start_levels"] = [RANKS[0]] * players
    return rec


def test_friends_game_example() -> None:
    path = EXAMPLES / "friends-game.json"
    built = build_friends_game()
    if REGEN:
        path.write_text(json.dumps(built, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    rec = json.loads(path.read_text(encoding="utf-8"))
    assert rec == built
    out = audit_record(rec)["deals"]
    assert len(out) >= 3
    for deal in out:
        assert deal["violations"] == [] and deal["outcome"] is not None
    # per-player levels: after the first deal not every player is at the same level
    assert len(set(out[0]["levels_after"])) > 1
    # every later deal is dealt by a winner of the last one, at his own level
    assert [d["dealer"] for d in rec["deals"][1:]] != [rec["deals"][0]["dealer"]] * (len(out) - 1)


def test_seeds_example_三带二_and_the_lowest_forced_unit() -> None:
    rec = json.loads((EXAMPLES / "seeds-3deck.json").read_text(encoding="utf-8"))
    out = audit_record(rec)["deals"][0]
    assert out["violations"] == []
    # trick 0: ♥KKK QQ stood against seat 1's ♥A; the void seat 2 trumps with ♠333 99
    assert out["tricks"][0]["winner"] == 2 and rec["deals"][0]["tricks"][0]["plays"][1] == [
        "9H", "9H", "9H", "6H", "6H"]
    # trick 1: ♣QQ J failed against ♣AA; the leader played the lowest beaten unit ♣J
    assert rec["deals"][0]["tricks"][1]["attempt"] == ["QC", "QC", "JC"]
    assert rec["deals"][0]["tricks"][1]["plays"][0] == ["JC"]
    spoiled = json.loads(json.dumps(rec))
    spoiled["deals"][0]["tricks"][1]["plays"][0] = ["QC", "QC"]
    spoiled["deals"][0]["tricks"][1]["plays"][1:] = [["AC", "AC"], ["3C", "3D"], ["4C", "7C"]]
    assert "wrong-forced-unit" in [v["rule"] for v in audit_record(spoiled)["deals"][0]["violations"]]


def _spoil(rec: dict, seed: int) -> dict:
    """A copy of a record with a revoke injected by swapping two cards of one seat."""
    rng = random.Random(seed)
    rec = json.loads(json.dumps(rec))
    deal = rec["deals"][0]
    del deal["hands"]
    n = len(rec["players"])
    order = TrumpOrder.of(deal["level"], deal["trump"], resolve_rules(rec["rules"]).twos_trump)
    suit_of = {name: order.suit[i] for i, name in enumerate(CARD_NAMES)}
    tricks = deal["tricks"]
    for _ in range(2000):
        t = rng.randrange(len(tricks) - 1)
        j = rng.randrange(1, n)
        seat = (tricks[t]["leader"] + j) % n
        lead_suit = suit_of[tricks[t]["plays"][0][0]]
        play = tricks[t]["plays"][j]
        ins = [i for i, c in enumerate(play) if suit_of[c] == lead_suit]
        if not ins:
            continue
        for t2 in range(t + 1, len(tricks)):
            j2 = (seat - tricks[t2]["leader"]) % n
            later = tricks[t2]["plays"][j2]
            outs = [i for i, c in enumerate(later) if suit_of[c] != lead_suit]
            if outs:
                a, b = ins[0], outs[0]
                play[a], later[b] = later[b], play[a]
                return rec
    raise AssertionError("no revoke could be injected")


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_golden_audits(profile: str) -> None:
    """The exact docs/RECORD.md audit output for a record of every profile, one with a revoke."""
    rec = _spoil(build_example(profile), seed=len(profile))
    rec_path = DATA / "records" / f"{profile}-revoke.json"
    audit_path = DATA / "audits" / f"{profile}-revoke.audit.json"
    if REGEN:
        rec_path.parent.mkdir(parents=True, exist_ok=True)
        audit_path.parent.mkdir(parents=True, exist_ok=True)
        rec_path.write_text(json.dumps(rec, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        audit_path.write_text(json.dumps(audit_record(rec), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    stored = json.loads(rec_path.read_text(encoding="utf-8"))
    golden = json.loads(audit_path.read_text(encoding="utf-8"))
    assert audit_record(stored) == golden
    deal = golden["deals"][0]
    assert any(v["rule"] == "must-follow-suit" and v["proven"] for v in deal["violations"])
    for v in deal["violations"]:
        if v["trick"] is not None:
            plays = deal["tricks"][v["trick"]]["plays"]
            assert any(v in p["violations"] and not p["legal"] for p in plays)


# ------------------------------------------------------------------ perft-like follow counts
PERFT_CASES: list[dict[str, Any]] = [
    # hand-checked small cases first
    {"profile": "standard-2deck", "level": "2", "trump": "S", "lead": "AH AH", "hand": "3H 3H 5H 9D"},
    {"profile": "standard-2deck", "level": "2", "trump": "S", "lead": "AH AH", "hand": "3H 5H 7H 9D"},
    {"profile": "standard-2deck", "level": "2", "trump": "S", "lead": "AH AH", "hand": "3H 9D 9C"},
    {"profile": "standard-2deck", "level": "2", "trump": "S", "lead": "KH KH QH QH", "hand": "3H 3H 6H 6H 9H 2C"},
    {"profile": "standard-2deck", "level": "2", "trump": "S", "lead": "KH KH QH QH", "hand": "3H 3H 6H 7H 9H"},
    {"profile": "guangzhou-3deck", "level": "2", "trump": "S", "lead": "AH AH", "hand": "3H 3H 3H 5H"},
    {"profile": {"profile": "guangzhou-3deck", "protect_longer_tuples": True}, "level": "2", "trump": "S",
     "lead": "AH AH", "hand": "3H 3H 3H 5H"},
    # larger ones, counted by the engine and pinned
    {"profile": "titanic-3deck", "level": "5", "trump": "H", "lead": "KS KS KS QS QS QS",
     "hand": "3S 3S 3S 4S 4S 6S 6S 6S 7S 9S 9S JS AS AS 2H 5D BJ"},
    {"profile": "guangzhou-3deck", "level": "5", "trump": "H", "lead": "KS KS KS QS QS QS",
     "hand": "3S 3S 3S 4S 4S 6S 6S 6S 7S 9S 9S JS AS AS 2H 5D BJ"},
    {"profile": "standard-2deck", "level": "10", "trump": "S", "lead": "AH AH KH QH QH JH JH",
     "hand": "2H 2H 3H 4H 4H 5H 6H 6H 7H 9H 9H 8D SJ"},
    {"profile": "competition-3deck", "level": "4", "trump": "D", "lead": "SJ SJ 4D 4D",
     "hand": "BJ 4C 4C 4S 4S AD AD AD KD 3D 2D 2D 9H"},
    {"profile": "four-deck", "level": "7", "trump": "C", "lead": "9H 9H 9H 9H",
     "hand": "2H 2H 2H 3H 3H 3H 5H 5H 6H JH QH QH KS"},
    {"profile": "standard-2deck", "level": "3", "trump": "NT", "lead": "AC AC",
     "hand": "4C 5D 6D 7S 8S"},
    {"profile": "standard-2deck", "level": "3", "trump": "H", "lead": "AC AC KC KC",
     "hand": "2D 2D 4D 5D 6S 7S 8S 9S JH QH SJ"},
    {"profile": "titanic-3deck", "level": "9", "trump": "S", "lead": "BJ BJ BJ SJ SJ SJ",
     "hand": "9S 9S 9S 9H 9H 9D AS AS KS KS KS QS 2S 3C 4C"},
    {"profile": {"profile": "titanic-3deck", "protect_longer_tuples": True}, "level": "9", "trump": "S",
     "lead": "BJ BJ BJ SJ SJ SJ", "hand": "9S 9S 9S 9H 9H 9D AS AS KS KS KS QS 2S 3C 4C"},
    {"profile": {"profile": "standard-2deck", "twos_trump": True}, "level": "10", "trump": "H",
     "lead": "AH AH", "hand": "2S 2S 2H 3H 4H 10C 10D 5C 6C"},
    {"profile": "four-deck", "level": "J", "trump": "NT", "lead": "QD QD QD QD KD",
     "hand": "2D 2D 2D 2D 3D 3D 3D 4D 4D 5D 6D AD AD AD"},
]


def _count(case: dict[str, Any]) -> tuple[int, list[list[str]]]:
    opts = resolve_rules(case["profile"])
    order = TrumpOrder.of(case["level"], case["trump"], opts.twos_trump)
    lead = Lead.of(order, [int(c) for c in parse_cards(case["lead"].split())], opts)
    hand = [0] * 54
    for c in parse_cards(case["hand"].split()):
        hand[c] += 1
    plays = [[CARD_NAMES[c] for c in p] for p in legal_follows(order, lead, hand, opts)]
    return len(plays), plays


def test_hand_checked_follow_counts() -> None:
    counts = [_count(c)[0] for c in PERFT_CASES[:7]]
    # pair: 33 only; any 2 of 3 hearts; 3H + 9D or 9C; tractor → 3366; 33 + two of 6 7 9;
    # a pair carved from 333; protected 333: 33 or 35
    assert counts == [1, 3, 2, 1, 3, 1, 2]
    assert _count(PERFT_CASES[3])[1] == [["3H", "3H", "6H", "6H"]]


def test_perft_fixture() -> None:
    path = DATA / "perft.json"
    table = [{**case, "count": _count(case)[0]} for case in PERFT_CASES]
    if REGEN:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(table, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    stored = json.loads(path.read_text(encoding="utf-8"))
    assert len(stored) == len(PERFT_CASES)
    for entry in stored:
        case = {k: v for k, v in entry.items() if k != "count"}
        assert _count(case)[0] == entry["count"], case
