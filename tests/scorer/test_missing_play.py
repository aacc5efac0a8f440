"""A play the camera did not see (docs/RECORD.md ``missing``, issue 29 item 7): the record keeps the
trick with that play empty and flagged; the audit judges what is known, charges nothing for the
missing seat, takes the winner from the next trick's leader (no wrong leader after it) or, with no
trick after it, provisionally from the known plays; entering the play gives the audit of a record
that had it all along."""

from __future__ import annotations

import copy
import json

import pytest

from tuolaji import scorer
from tuolaji.scorer.record import random_record
from tuolaji.scorer.tracker import track


def _deal(rec: dict) -> dict:
    return rec["deals"][0]


def _without_hands(rec: dict) -> dict:
    rec = copy.deepcopy(rec)
    _deal(rec).pop("hands", None)
    return rec


def _miss(rec: dict, trick: int, seat: int) -> dict:
    """``rec`` with ``seat``'s play in ``trick`` not seen."""
    rec = copy.deepcopy(rec)
    tr = _deal(rec)["tricks"][trick]
    tr["plays"][(seat - tr["leader"]) % len(rec["players"])] = []
    tr.setdefault("missing", []).append(seat)
    return rec


def _trick_won_by_follower(rec: dict) -> tuple[int, int]:
    """A trick (not the last) won by a seat other than its leader, and that seat."""
    audit = scorer.audit_record(rec)["deals"][0]
    for t, tr in enumerate(_deal(rec)["tricks"][:-1]):
        if audit["tricks"][t]["winner"] != tr["leader"]:
            return t, audit["tricks"][t]["winner"]
    raise AssertionError("no trick won by a follower")


@pytest.fixture(scope="module")
def whole() -> dict:
    return _without_hands(random_record("standard-2deck", seed=2))


# --- the record ------------------------------------------------------------------------------------


def _one_trick(plays: list, missing: object, leader: int = 0) -> dict:
    return {"rules": "standard-2deck", "players": list("abcd"),
            "deals": [{"level": "2", "trump": "S", "dealer": 0,
                       "tricks": [{"leader": leader, "plays": plays, "missing": missing}]}]}


@pytest.mark.parametrize(("plays", "missing", "error"), [
    ([["AH"], [], ["3H"], ["4H"]], [1], None),
    ([[], ["AH"], ["3H"], ["4H"]], [0], None),
    ([["AH"], []], [1], None),  # the trick in progress
    ([["AH"], [], [], ["4H"]], [1, 2], None),
    ([["AH"], ["5H"], ["3H"], ["4H"]], [1],
     "deals[0].tricks[0].missing: seat 1's play was not seen, so its play is [], not 1 card"),
    ([["AH"], [], ["3H"], ["4H"]], [1, 1], "deals[0].tricks[0].missing: seat 1 is listed twice"),
    ([["AH"], [], ["3H"], ["4H"]], [4], "deals[0].tricks[0].missing[0]: expected a seat number 0..3, got 4"),
    ([["AH"], [], ["3H"], ["4H"]], ["1"], 'deals[0].tricks[0].missing[0]: expected a seat number 0..3, got "1"'),
    ([["AH"], [], ["3H"], ["4H"]], 1, "deals[0].tricks[0].missing: expected a list of the seats whose play was not seen"),
    ([["AH"], []], [2], "deals[0].tricks[0].missing: seat 2 has no play in this trick yet"),
])
def test_missing_is_validated(plays: list, missing: object, error: str | None) -> None:
    rec = _one_trick(plays, missing)
    if error is None:
        scorer.validate_record(rec)
        return
    with pytest.raises(scorer.RecordError) as caught:
        scorer.validate_record(rec)
    assert str(caught.value) == error


def test_a_points_only_trick_has_no_missing() -> None:
    rec = {"rules": "standard-2deck", "players": list("abcd"),
           "deals": [{"level": "2", "trump": "S", "dealer": 0, "tricks": [{"winner": 1, "points": 10, "missing": [2]}]}]}
    with pytest.raises(scorer.RecordError, match="has no missing"):
        scorer.validate_record(rec)


def test_missing_survives_a_round_trip() -> None:
    rec = _one_trick([["AH"], [], ["3H"], ["4H"]], [1])
    assert scorer.loads_record(scorer.dumps_record(rec)) == rec
    assert scorer.normalize_record(rec)["deals"][0]["tricks"][0]["missing"] == [1]


# --- the audit --------------------------------------------------------------------------------------


def test_the_winner_is_the_next_leader_and_no_wrong_leader_follows(whole: dict) -> None:
    t, winner = _trick_won_by_follower(whole)
    full = scorer.audit_record(whole)["deals"][0]
    rec = _miss(whole, t, winner)  # the winning play itself not seen
    out = scorer.audit_record(rec)["deals"][0]
    assert [v for v in out["violations"] if v["rule"] == "wrong-leader"] == []
    assert out["tricks"][t]["winner"] == winner and "provisional" not in out["tricks"][t]
    assert out["tricks"][t]["missing"] == [winner]
    assert out["missing_plays"] == [{"trick": t, "seat": winner}] and out["provisional"] is True
    missing_points = sum(scorer.parse_card(c).points for c in whole["deals"][0]["tricks"][t]["plays"]
                         [(winner - whole["deals"][0]["tricks"][t]["leader"]) % 4])
    assert out["tricks"][t]["points"] == full["tricks"][t]["points"] - missing_points
    assert scorer.trick_winner(rec, 0, t) == winner
    missing_play = next(p for p in out["tricks"][t]["plays"] if p["seat"] == winner)
    assert missing_play == {"seat": winner, "cards": [], "legal": True, "violations": []}


def test_no_wrong_card_count_for_the_missing_seat(whole: dict) -> None:
    """Every seat's play missing in turn, in every trick: never a violation of the missing seat
    in that trick, never a wrong leader, and the other tricks keep their winners."""
    full = scorer.audit_record(whole)["deals"][0]
    assert full["violations"] == []
    tricks = whole["deals"][0]["tricks"]
    for t in (0, len(tricks) // 2, len(tricks) - 2):
        for seat in range(4):
            out = scorer.audit_record(_miss(whole, t, seat))["deals"][0]
            assert out["violations"] == [], (t, seat, out["violations"])
            assert [x["winner"] for x in out["tricks"]] == [x["winner"] for x in full["tricks"]]


def test_the_last_trick_is_won_provisionally_by_the_best_known_play(whole: dict) -> None:
    tricks = whole["deals"][0]["tricks"]
    full = scorer.audit_record(whole)["deals"][0]
    last = len(tricks) - 1
    winner = full["tricks"][last]["winner"]
    loser = next(s for s in range(4) if s != winner and s != tricks[last]["leader"])
    out = scorer.audit_record(_miss(whole, last, loser))["deals"][0]
    assert out["tricks"][last]["winner"] == winner and out["tricks"][last]["provisional"] is True
    # the deal is marked complete by the record: its settlement is given, marked provisional
    assert out["outcome"] is not None and out["provisional"] is True
    rec = _miss(whole, last, loser)
    assert scorer.next_leader({**rec, "deals": [{**_deal(rec), "complete": False}]}) == winner


def test_a_lead_not_seen_in_the_last_trick_leaves_its_winner_unknown(whole: dict) -> None:
    tricks = whole["deals"][0]["tricks"]
    last = len(tricks) - 1
    rec = _miss(whole, last, tricks[last]["leader"])
    out = scorer.audit_record(rec)["deals"][0]
    assert out["tricks"][last]["winner"] is None and out["tricks"][last]["provisional"] is True
    assert out["violations"] == []
    assert out["outcome"] is None  # who took the kitty is unknown
    assert scorer.trick_winner(rec, 0, last) is None and scorer.next_leader(rec) is None
    assert scorer.lead_obligation(rec) is None


def test_the_deal_is_not_complete_without_the_flag(whole: dict) -> None:
    rec = _miss(whole, 3, 1)
    _deal(rec).pop("complete")
    out = scorer.audit_record(rec)["deals"][0]
    assert out["outcome"] is None and out["provisional"] is True


def test_entering_the_play_gives_the_audit_of_the_record_with_it(whole: dict) -> None:
    t, winner = _trick_won_by_follower(whole)
    rec = _miss(whole, t, winner)
    tr = _deal(rec)["tricks"][t]
    tr["plays"][(winner - tr["leader"]) % 4] = whole["deals"][0]["tricks"][t]["plays"][(winner - tr["leader"]) % 4]
    del tr["missing"]
    assert json.dumps(scorer.audit_record(rec)) == json.dumps(scorer.audit_record(whole))


def test_known_plays_are_still_judged() -> None:
    """A revoke by a seen seat in a trick with another seat's play not seen is still found."""
    rec = {"rules": "standard-2deck", "players": list("abcd"),
           "deals": [{"level": "2", "trump": "S", "dealer": 0, "tricks": [
               {"leader": 0, "plays": [["AH"], [], ["4D"], ["5H"]], "missing": [1]},
               {"leader": 1, "plays": [["9C"], ["6H"], ["7C"], ["8C"]]},
           ]}]}
    out = scorer.audit_record(rec)["deals"][0]
    assert [(v["trick"], v["seat"], v["rule"]) for v in out["violations"]] == [(0, 2, "must-follow-suit")]
    assert out["tricks"][0]["winner"] == 1  # the next trick's leader: his unseen play won it
    assert out["tricks"][0]["points"] == 5


def test_a_short_play_of_a_seen_seat_is_still_wrong() -> None:
    rec = {"rules": "standard-2deck", "players": list("abcd"),
           "deals": [{"level": "2", "trump": "S", "dealer": 0, "tricks": [
               {"leader": 0, "plays": [["AH", "AH"], [], ["4H"], ["5H", "6H"]], "missing": [1]}]}]}
    out = scorer.audit_record(rec)["deals"][0]
    assert [(v["seat"], v["rule"]) for v in out["violations"]] == [(2, "wrong-card-count")]
    assert out["tricks"][0]["winner"] == 0 and out["tricks"][0]["provisional"] is True


def test_with_hands_the_unseen_seat_is_not_judged_from_a_hand_it_no_longer_holds() -> None:
    """With ``hands``, the cards of a play not seen never leave the seat's hand: its later follows
    are not judged for suit (a ♥ it played unseen must not make a revoke)."""
    rec = {"rules": "standard-2deck", "players": list("abcd"),
           "deals": [{"level": "2", "trump": "S", "dealer": 0,
                      "hands": [["AH", "KH"], ["6H", "7D"], ["4H", "3H"], ["5H", "8H"]],
                      "tricks": [
                          {"leader": 0, "plays": [["AH"], [], ["4H"], ["5H"]], "missing": [1]},
                          {"leader": 0, "plays": [["KH"], ["7D"], ["3H"], ["8H"]]},
                      ]}]}
    out = scorer.audit_record(rec)["deals"][0]
    assert out["violations"] == []


def test_the_state_the_tracker_and_the_hints_take_an_empty_play(whole: dict) -> None:
    t, winner = _trick_won_by_follower(whole)
    rec = _miss(whole, t, winner)
    part = {**rec, "deals": [{**_deal(rec), "tricks": _deal(rec)["tricks"][:t + 1], "complete": False}]}
    assert scorer.next_leader(part) != winner or True  # no crash: the best known play leads
    seat = scorer.next_leader(part)
    assert seat is not None
    scorer.legal_plays(part, seat)
    # with the next trick: its leader leads, the points go to the winner (as the audit says)
    rec2 = {**rec, "deals": [{**_deal(rec), "tricks": _deal(rec)["tricks"][:t + 2], "complete": False}]}
    audit = scorer.audit_record(rec2)["deals"][0]
    points = [0] * 4
    for x in audit["tricks"]:
        if x["winner"] is not None:
            points[x["winner"]] += x["points"]
    assert scorer.seat_points(rec2) == points
    tracked = track(rec)
    assert tracked["plays"] == sum(len(tr["plays"]) for tr in _deal(rec)["tricks"])


def test_an_incomplete_trick_with_a_missing_play() -> None:
    rec = _one_trick([["AH"], []], [1])
    out = scorer.audit_record(rec)["deals"][0]
    assert out["tricks"][0]["winner"] is None and out["tricks"][0]["missing"] == [1]
    assert scorer.next_leader(rec) == 0
    assert scorer.follow_hint(rec, 2) is None
    assert scorer.lead_obligation(rec) is not None
    rec = _one_trick([[]], [0])
    assert scorer.lead_obligation(rec) is None and scorer.audit_record(rec)["deals"][0]["violations"] == []
