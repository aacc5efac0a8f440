"""只记分 (issue 30, item 1): deals recorded by points alone — per trick its winner and points, or
per deal the defenders' points — audited and settled like full deals (docs/RECORD.md)."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import deal_record
from tuolaji.scorer import (
    PROFILES,
    DealState,
    RecordError,
    audit_findings,
    audit_record,
    dealer_side_seats,
    next_dealers,
    next_leader,
    points_deal,
    points_trick,
    random_record,
    seat_points,
    trick_winner,
    validate_record,
)
from tuolaji.scorer.cards import parse_card, parse_cards
from tuolaji.scorer.formats import Lead
from tuolaji.scorer.order import TRUMP, TrumpOrder
from tuolaji.scorer.profiles import resolve_rules

SETTLEMENT = ("defender_points", "kitty_points", "kitty_multiplier", "kitty_won_by", "penalty_points",
              "total_defender_points", "outcome", "next_dealer", "levels_after", "game_winner")


def _last_unit(rec: dict[str, Any], deal: int = 0) -> tuple[int, bool]:
    """The cards of the last trick's winning unit and whether it was trumps, from its cards."""
    d = rec["deals"][deal]
    opts = resolve_rules(rec["rules"])
    order = TrumpOrder.of(d["level"], d["trump"], opts.twos_trump)
    last = d["tricks"][-1]
    lead = Lead.of(order, parse_cards(last["plays"][0]), opts)
    winner = trick_winner(rec, deal, len(d["tricks"]) - 1)
    play = parse_cards(last["plays"][(winner - last["leader"]) % len(rec["players"])])
    return (1 if lead.mixed else lead.largest), all(order.suit[c] == TRUMP for c in play)


def _as_points(rec: dict[str, Any], first: int = 0, *, kitty_cards: bool = True, leaders: bool = False,
               deal: int = 0) -> dict[str, Any]:
    """The record with deal ``deal``'s tricks from ``first`` on recorded by winner and points."""
    out = copy.deepcopy(rec)
    audit = audit_record(rec)["deals"][deal]
    d = out["deals"][deal]
    unit, by_trump = _last_unit(rec, deal)
    tricks = d["tricks"]
    for t in range(first, len(tricks)):
        last = t == len(tricks) - 1
        tricks[t] = points_trick(audit["tricks"][t]["winner"], audit["tricks"][t]["points"],
                                 leader=tricks[t]["leader"] if leaders else None,
                                 unit=unit if last else None, trump=by_trump or not last)
    d.pop("hands", None)
    d["complete"] = True
    if not kitty_cards:
        d["kitty_points"] = audit["kitty_points"]
        del d["kitty"]
    if "friends" in d:
        side = dealer_side_seats(rec, deal)
        d["friends"] = [call | {"seat": s} for call, s in zip(d["friends"], [s for s in side if s != d["dealer"]] +
                                                                   [None] * len(d["friends"]), strict=False)]
    return out


def _settlement(audit: dict[str, Any]) -> dict[str, Any]:
    return {key: audit[key] for key in SETTLEMENT}


# ---------------------------------------------------------------- the same settlement as the cards give
@pytest.mark.parametrize("profile", sorted(PROFILES))
@pytest.mark.parametrize(("how", "seed"), [("all", 31), ("all", 77), ("mixed", 31), ("mixed", 78), ("kitty points", 31),
                                           ("leaders", 31)])
def test_points_tricks_settle_like_the_cards(profile: str, how: str, seed: int) -> None:
    rec = random_record(profile, seed=seed, players=5 + seed % 3 if profile == "friends-3deck" else None)
    full = audit_record(rec)["deals"][0]
    assert full["violations"] == [] and full["outcome"] is not None
    n_tricks = len(rec["deals"][0]["tricks"])
    first = n_tricks // 2 if how == "mixed" else 0
    points = _as_points(rec, first, kitty_cards=how != "kitty points", leaders=how == "leaders")
    validate_record(points)
    out = audit_record(points)["deals"][0]
    assert out["violations"] == []
    assert _settlement(out) == _settlement(full)
    assert [(t["winner"], t["points"]) for t in out["tricks"]] == [(t["winner"], t["points"]) for t in full["tricks"]]
    assert [t.get("points_only", False) for t in out["tricks"]] == [t >= first for t in range(n_tricks)]
    assert [t["plays"] for t in out["tricks"][:first]] == [t["plays"] for t in full["tricks"][:first]]
    assert seat_points(points) == seat_points(rec) and next_leader(points) == next_leader(rec)


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_a_deal_recorded_by_the_defenders_points(profile: str) -> None:
    rec = random_record(profile, seed=32, players=7 if profile == "friends-3deck" else None)
    full = audit_record(rec)["deals"][0]
    d = _as_points(rec)["deals"][0]
    unit, by_trump = _last_unit(rec)
    summary = {key: d[key] for key in ("level", "trump", "dealer", "kitty", "friends") if key in d}
    summary |= points_deal(full["defender_points"], full["tricks"][-1]["winner"], unit, trump=by_trump)
    points = rec | {"deals": [summary]}
    out = audit_record(points)["deals"][0]
    assert out["violations"] == [] and out["tricks"] == []
    assert _settlement(out) == _settlement(full)


def test_a_game_of_points_deals_carries_levels_and_dealers() -> None:
    # deal 0 by tricks' points, deal 1 by the defenders' points, deal 2 cards then points
    rec = {"rules": "standard-2deck", "players": ["甲", "乙", "丙", "丁"], "deals": [
        {"level": "2", "trump": "H", "dealer": 0, "kitty": ["5C", "KD", "3S", "4S", "7D", "8D", "9C", "JC"],
         "complete": True, "tricks": [points_trick(0, 20), points_trick(1, 45, leader=0), points_trick(3, 35, unit=2)]},
    ]}
    first = audit_record(rec)["deals"][0]
    # the defenders: 45 + 35 + the kitty's 15 × 4 (a pair won the last trick) = 140: they go up one
    assert (first["defender_points"], first["kitty_points"], first["kitty_multiplier"]) == (80, 15, 4)
    assert first["total_defender_points"] == 140 and first["outcome"] == {"side": "defenders", "levels": 1}
    assert first["next_dealer"] == 1 and first["levels_after"] == ["2", "3", "2", "3"]
    rec["deals"].append({"level": "3", "trump": "S", "dealer": 1} | points_deal(35, 1, 1, kitty_points=10))
    second = audit_record(rec)["deals"][1]
    assert second["violations"] == [] and second["total_defender_points"] == 35
    assert second["outcome"] == {"side": "dealer", "levels": 2} and second["levels_after"] == ["2", "5", "2", "5"]
    assert second["next_dealer"] == 3
    rec["deals"].append({"level": "5", "trump": "NT", "dealer": 3, "complete": True, "kitty_points": 0, "tricks": [
        {"leader": 3, "plays": [["AS"], ["3S"], ["KS"], ["4S"]]},  # seat 3 wins 10
        points_trick(2, 60), points_trick(3, 5, unit=1)]})
    third = audit_record(rec)["deals"][2]
    assert third["violations"] == [] and third["defender_points"] == 60 and third["next_dealer"] == 1
    # the dealer follows the settlement like in any record
    rec["deals"][2]["dealer"] = 0
    assert [v["rule"] for v in audit_record(rec)["deals"][2]["violations"]] == ["wrong-dealer", "wrong-dealer",
                                                                            "wrong-leader"]


def test_a_deal_in_progress_has_no_settlement() -> None:
    rec = deal_record("standard-2deck", []) | {}
    rec["deals"][0]["tricks"] = [points_trick(0, 10), points_trick(2, 0)]
    out = audit_record(rec)["deals"][0]
    assert out["outcome"] is None and out["defender_points"] == 0 and next_leader(rec) == 2
    rec["deals"][0]["tricks"].append({"leader": 2, "plays": [["AH"]]})  # the camera is back mid-deal
    assert audit_record(rec)["deals"][0]["violations"] == [] and next_leader(rec) == 2
    rec["deals"][0]["tricks"][-1]["leader"] = 1
    assert [(v["trick"], v["rule"]) for v in audit_record(rec)["deals"][0]["violations"]] == [(2, "wrong-leader")]


def test_rulings_and_the_kitty_rule_of_the_profile() -> None:
    # guangzhou: 须用主牌扣底 — a last trick won with a plain suit doubles nothing
    rec = deal_record("guangzhou-3deck", [], kitty_points=20, complete=True)
    rec["deals"][0]["tricks"] = [points_trick(1, 40), points_trick(1, 10, unit=2, trump=False)]
    out = audit_record(rec)["deals"][0]
    assert (out["kitty_multiplier"], out["total_defender_points"]) == (1, 70)
    rec["deals"][0]["tricks"][-1].pop("trump")
    assert audit_record(rec)["deals"][0]["kitty_multiplier"] == 4
    rec["deals"][0]["rulings"] = [{"seat": 0, "trick": 1, "points": 30}]  # the dealer's side: +30
    out = audit_record(rec)["deals"][0]
    assert (out["penalty_points"], out["total_defender_points"]) == (30, 50 + 80 + 30)


def test_friends_by_points_name_who_played_the_called_card() -> None:
    rec = deal_record("friends-3deck", [], players=5, trump="C", kitty_points=0, friends=[{"card": "AS", "nth": 1}])
    rec["deals"][0] |= points_deal(60, 3, 1)
    out = audit_record(rec)["deals"][0]
    assert out["kitty_won_by"] == "defenders" and out["outcome"]["side"] == "dealer" and next_dealers(rec) == [0]
    rec["deals"][0]["friends"][0]["seat"] = 3  # seat 3 played the 1st ♠A: he won the last trick for the dealer
    out = audit_record(rec)["deals"][0]
    assert out["kitty_won_by"] == "dealer" and dealer_side_seats(rec) == [0, 3] and next_dealers(rec) == [3, 0]


# ---------------------------------------------------------------- what points allow (bad-points)
def _bad(rec: dict[str, Any]) -> list[tuple[int | None, int, str]]:
    return [(v["trick"], v["seat"], v["detail"]) for v in audit_record(rec)["deals"][0]["violations"]
            if v["rule"] == "bad-points"]


def test_points_come_in_fives_and_what_the_decks_hold() -> None:
    rec = deal_record("standard-2deck", [], complete=True, kitty_points=12)
    rec["deals"][0]["tricks"] = [points_trick(1, 12), points_trick(2, 205), points_trick(3, 0, unit=2)]
    assert _bad(rec) == [
        (0, 1, "the trick's 12 points: cards count in fives (5, 10 and K)"),
        (1, 2, "205 points in one trick: 2 decks hold 200"),
        (None, 0, "the kitty's 12 points: cards count in fives (5, 10 and K)"),
        (None, 0, "229 points in the tricks and the kitty: 2 decks hold 200"),
    ]
    summary = deal_record("single-deck", [], kitty_points=10)
    summary["deals"][0] |= points_deal(97, 1, 1)
    assert _bad(summary) == [(None, 0, "the defenders' 97 points: cards count in fives (5, 10 and K)"),
                             (None, 0, "107 points in the tricks and the kitty: 1 deck holds 100")]


def test_the_last_trick_unit_is_one_the_decks_make() -> None:
    rec = deal_record("standard-2deck", [], complete=True, kitty_points=10)
    rec["deals"][0]["tricks"] = [points_trick(1, 10), points_trick(1, 10, unit=3)]
    assert _bad(rec) == [(1, 1, "the last trick won with a unit of 3 cards: no unit of 2 decks has 3")]
    rec["deals"][0]["tricks"][-1]["unit"] = 4  # a pair-tractor: ×8
    assert _bad(rec) == [] and audit_record(rec)["deals"][0]["kitty_multiplier"] == 8
    rec["deals"][0]["tricks"][-1].pop("unit")  # not said: the kitty counts as won by a single
    out = audit_record(rec)["deals"][0]
    assert _bad(rec) == [(1, 1, "the last trick names no winning unit: the kitty counts as won by a single (×2)")]
    assert out["kitty_multiplier"] == 2 and out["total_defender_points"] == 40
    rec["deals"][0]["tricks"][-1]["winner"] = 0  # the dealer keeps the kitty: the unit does not matter
    assert _bad(rec) == []


def test_kitty_points_agree_with_its_cards() -> None:
    rec = deal_record("standard-2deck", [], complete=True, kitty=["5C", "KD", "3S", "4S", "7D", "8D", "9C", "JC"],
                      kitty_points=20)
    rec["deals"][0]["tricks"] = [points_trick(1, 10, unit=1)]
    assert _bad(rec) == [(None, 0, "the kitty's points say 20, but its cards hold 15")]
    assert audit_record(rec)["deals"][0]["kitty_points"] == 15  # the cards count


# ---------------------------------------------------------------- the record format
@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["tricks"][0].update(plays=[["AS"]]), "deals[0].tricks[0]: a points-only trick has no plays"),
    (lambda d: d["tricks"][0].update(attempt=["AS", "KS"]), "deals[0].tricks[0]: a points-only trick has no attempt"),
    (lambda d: d["tricks"][0].update(points=-5), "deals[0].tricks[0].points: expected a number of points 0..10000"),
    (lambda d: d["tricks"][0].update(points="10"), "deals[0].tricks[0].points: expected a number of points"),
    (lambda d: d["tricks"][0].pop("winner"), "deals[0].tricks[0].winner: expected a seat number 0..3, got null"),
    (lambda d: d["tricks"][0].update(unit=0), "deals[0].tricks[0].unit: expected the cards of the winning unit"),
    (lambda d: d["tricks"][0].update(trump="no"), "deals[0].tricks[0].trump: expected true or false"),
    (lambda d: d.update(hands=[["AS"], ["KS"], ["QS"], ["JS"]]), "deals[0].hands: a deal recorded by points has no hands"),
    (lambda d: d.update(defender_points=40), "deals[0]: a deal recorded by its defender_points has no tricks"),
    (lambda d: d.update(last_trick={"winner": 1, "unit": 1}), "deals[0].last_trick: only a deal recorded by its"),
    (lambda d: d.update(kitty_points=True), "deals[0].kitty_points: expected a number of points"),
])
def test_malformed_points_records_name_the_place(change: Any, message: str) -> None:
    rec = deal_record("standard-2deck", [])
    rec["deals"][0]["tricks"] = [points_trick(1, 10)]
    change(rec["deals"][0])
    with pytest.raises(RecordError) as err:
        validate_record(rec)
    assert str(err.value).startswith(message)


def test_a_deal_by_points_needs_its_last_trick() -> None:
    rec = deal_record("standard-2deck", [], defender_points=40)
    with pytest.raises(RecordError, match=r"deals\[0\].last_trick: missing"):
        validate_record(rec)
    rec["deals"][0]["last_trick"] = {"winner": 9, "unit": 1}
    with pytest.raises(RecordError, match=r"deals\[0\].last_trick.winner: expected a seat number"):
        validate_record(rec)


# ---------------------------------------------------------------- the live state
def test_deal_state_pushes_points_tricks_between_card_tricks() -> None:
    hands = [parse_cards(h) for h in (["AS", "3H"], ["KS", "4H"], ["QS", "5H"], ["JS", "6H"])]
    deal = DealState(PROFILES["standard-2deck"], "2", "H", dealer=0, hands=hands)
    deal.push_points(2, 20)
    assert deal.turn == 2 and deal.points == [0, 0, 20, 0] and deal.current is None
    deal.push([parse_card("QS")])
    with pytest.raises(ValueError, match="between tricks"):
        deal.push_points(1, 5)
    for card in ("JS", "AS", "KS"):
        deal.push([parse_card(card)])
    assert deal.trick_winners() == [2, 0] and deal.turn == 0 and deal.points == [10, 0, 20, 0]
    deal.push_points(1, 5, leader=0)
    assert deal.turn == 1 and deal.pop() == [] and deal.turn == 0 and deal.points == [10, 0, 20, 0]


# ---------------------------------------------------------------- a record of every points fault, and its audit
FAULTS = Path(__file__).resolve().parents[2] / "tests" / "data" / "scorer"
REGEN = os.environ.get("REGEN_SCORER_FIXTURES") == "1"


def build_points_faults() -> dict[str, Any]:
    """Every kind of ``bad-points``: deal 0 by tricks (12 points, a trick of 205, a unit of 3
    cards with 2 decks, more than 200 points in all, kitty points against its cards), deal 1 by the
    defenders' points (97, a kitty of 12, a last trick naming no unit)."""
    rec = {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": ["东", "南", "西", "北"], "deals": [
        {"level": "2", "trump": "H", "dealer": 0, "kitty": ["5C", "KD", "3S", "4S", "7D", "8D", "9C", "JC"],
         "kitty_points": 20, "complete": True,
         "tricks": [points_trick(1, 12), points_trick(2, 205), points_trick(3, 10, unit=3)]}]}
    first = audit_record(rec)["deals"][0]
    dealer = first["next_dealer"]
    rec["deals"].append({"level": first["levels_after"][dealer], "trump": "S", "dealer": dealer,
                         "defender_points": 97, "kitty_points": 12, "last_trick": {"winner": (dealer + 1) % 4}})
    return rec


def test_the_points_faults_record_and_its_golden_audit() -> None:
    rec_path, audit_path = FAULTS / "records" / "points-only-faults.json", FAULTS / "audits" / "points-only-faults.audit.json"
    built = build_points_faults()
    if REGEN:
        rec_path.write_text(json.dumps(built, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        audit_path.write_text(json.dumps(audit_record(built), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    stored = json.loads(rec_path.read_text(encoding="utf-8"))
    assert stored == built
    out = audit_record(stored)
    assert out == json.loads(audit_path.read_text(encoding="utf-8"))
    sentences = {type(v.fact).__name__ for deal in audit_findings(stored) for v in deal.violations}
    assert sentences == {"PointsNotFive", "PointsTooMany", "UnitImpossible", "UnitMissing", "KittyPointsMismatch"}
    assert {v["rule"] for deal in out["deals"] for v in deal["violations"]} == {"bad-points"}


def test_the_page_settles_a_game_kept_by_points() -> None:
    """The session and the results line read a points-only game like one of cards (the kitty by
    its points counts as recorded)."""
    from tuolaji.session.changes import next_deal_setup, settle_ready
    from tuolaji.web.results import deal_results

    rec = json.loads((Path(__file__).resolve().parents[2] / "examples" / "points-only-2deck.json").read_text("utf-8"))
    audit = audit_record(rec)
    assert [settle_ready(rec, i) for i in range(3)] == [True, True, True]
    rows = deal_results(rec, audit)
    assert [(row["complete"], row["settled"], row["defender_points"]) for row in rows] == [
        (True, True, d["defender_points"]) for d in audit["deals"]]
    nxt = next_deal_setup(rec, audit, "NT")
    assert (nxt["dealer"], nxt["level"]) == (audit["deals"][2]["next_dealer"], audit["deals"][2]["levels_after"][nxt["dealer"]])
