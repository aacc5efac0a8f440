"""The audit on hand-made records: every rule code, evidence, proven/not yet proven,
penalties, kitty, levels, bids and 找朋友."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.conftest import deal_record
from tuolaji.scorer import RecordError, audit_record, next_dealers, next_leader, trick_winner, validate_record

record = deal_record  # the one builder of hand-made records (tests/conftest.py)


def violations(rec: dict) -> list[tuple[int | None, int, str, bool]]:
    return [(v["trick"], v["seat"], v["rule"], v["proven"]) for v in audit_record(rec)["deals"][0]["violations"]]


REVOKE = [
    (0, ["AH", "3D", "4H", "6H"]),
    (0, ["7D", "5H", "8D", "9D"]),
]


def test_revoke_found_and_proven_by_the_later_play() -> None:
    rec = record("standard-2deck", REVOKE)
    out = audit_record(rec)["deals"][0]
    assert violations(rec) == [(0, 1, "must-follow-suit", True)]
    v = out["violations"][0]
    assert "♥5" in v["detail"] and "played in trick 1" in v["detail"]
    play = out["tricks"][0]["plays"][1]
    assert play["legal"] is False and play["violations"] == [v]
    assert all(p["legal"] for p in out["tricks"][1]["plays"])


def test_revoke_not_flagged_before_the_evidence_appears() -> None:
    rec = record("standard-2deck", REVOKE[:1])
    assert violations(rec) == []
    # with recorded hands the hand is known at once
    rec = record("standard-2deck", REVOKE[:1], hands=[["AH", "7D"], ["3D", "5H"], ["4H", "8D"], ["6H", "9D"]])
    assert violations(rec) == [(0, 1, "must-follow-suit", True)]
    assert "in the recorded hand" in audit_record(rec)["deals"][0]["violations"][0]["detail"]


def test_format_revoke_pair() -> None:
    rec = record("standard-2deck", [
        (0, ["AH AH", "3H 5H", "4H 6H", "8H 9H"]),
        (0, ["3D 3D", "7H 7H", "5D 5D", "8D 8D"]),
    ])
    assert violations(rec) == [(0, 1, "must-follow-format", True)]
    detail = audit_record(rec)["deals"][0]["violations"][0]["detail"]
    assert "♥7♥7" in detail and "trick 1" in detail


def test_failed_throw_that_stood() -> None:
    rec = record("standard-2deck", [
        (0, ["AH QH", "3H 4H", "KH 5H", "6H 7H"]),
        (0, ["3D", "4D", "5D", "6D"]),
    ])
    assert violations(rec) == [(0, 0, "failed-throw", True)]
    detail = audit_record(rec)["deals"][0]["violations"][0]["detail"]
    assert "seat 2" in detail and "♥K" in detail and "should have played ♥Q" in detail


def test_failed_throw_judged_against_hands_reconstructed_from_later_plays() -> None:
    # seat 3 discards on the throw and only shows ♥KK two tricks later
    tricks = [
        (0, ["AH AH QH", "3H 4H 5H", "6H 7H 8H", "3C 4C 5C"]),
        (0, ["3D", "4D", "5D", "6D"]),
        (0, ["7C 8C", "9C 10C", "JC QC", "KH KH"]),
    ]
    rec = record("standard-2deck", tricks[:2])
    assert violations(rec) == []  # no evidence yet
    rec = record("standard-2deck", tricks)
    found = violations(rec)
    assert (0, 0, "failed-throw", True) in found
    # seat 3 also revoked in trick 0 (held ♥KK): proven by trick 2
    assert (0, 3, "must-follow-suit", True) in found


@pytest.mark.parametrize(
    ("other", "played", "ok"),
    [("JH", "9H", True), ("JH", "4H 4H", False), ("QH QH", "4H 4H", True), ("5H 5H", "4H 4H", True),
     ("5H 5H", "8H 8H", False)],
)
def test_attempt_and_forced_unit_seed_004(other: str, played: str, ok: bool) -> None:
    n_cards = len(played.split())
    filler = " ".join(["3D", "4D", "5D", "6D"][:n_cards])
    other_play = " ".join((other.split() + ["7D", "8D"])[:n_cards])
    rec = record("standard-2deck", [(0, [played, other_play, filler, filler.replace("D", "C")], "9H 8H 8H 4H 4H")],
                 level="10", hands=None)
    rec["deals"][0]["hands"] = [["9H", "8H", "8H", "4H", "4H"], other.split() + ["7D", "8D"][: max(0, 2 - len(other.split()))],
                                ["3D", "4D", "5D", "6D"], ["3C", "4C", "5C", "6C"]]
    found = [v for v in violations(rec) if v[2] == "wrong-forced-unit"]
    assert (found == []) == ok


def test_attempt_that_could_have_stood() -> None:
    rec = record("standard-2deck", [(0, ["AH", "3H", "4H", "5H"], "AH KH")],
                 hands=[["AH", "KH"], ["3H", "QD"], ["4H", "5D"], ["5H", "6D"]])
    assert violations(rec) == [(0, 0, "wrong-forced-unit", True)]
    # during the deal, without hands, it is only a suspicion
    rec = record("standard-2deck", [(0, ["AH", "3H", "4H", "5H"], "AH KH")])
    assert violations(rec) == [(0, 0, "wrong-forced-unit", False)]


def test_throw_penalty_points_guangzhou() -> None:
    # seat 0 (dealer side) throws ♥A ♥Q; seat 1 holds ♥K: the throw fails, 10 points per stuck card
    hands = [["AH", "QH", "SJ"], ["KH", "3H", "4C"], ["5H", "6H", "7C"], ["7H", "8H", "9C"]]
    rec = record("guangzhou-3deck", [(0, ["QH", "KH", "5H", "7H"], "AH QH")], hands=hands)
    out = audit_record(rec)["deals"][0]
    assert out["violations"] == []
    assert out["penalties"][0]["points"] == 10 and out["penalty_points"] == 10
    assert out["penalties"][0]["seat"] == 0
    # a defender's failed throw is taken from the defenders
    rec = record("guangzhou-3deck", [(1, ["QH", "KH", "5H", "7H"], "AH QH")], hands=hands[1:] + hands[:1], dealer=1)
    rec["deals"][0]["tricks"][0]["leader"] = 1
    rec["deals"][0]["dealer"] = 0
    rec["deals"][0]["hands"] = [hands[3], hands[0], hands[1], hands[2]]
    out = audit_record(rec)["deals"][0]
    assert out["penalty_points"] == -10


def test_throw_penalty_level() -> None:
    hands = [["AH", "QH"], ["KH", "3H"], ["5H", "6H"], ["7H", "8H"]]
    rules = {"profile": "standard-2deck", "throw_penalty": "level"}
    tricks = [(0, ["QH", "KH", "5H", "7H"], "AH QH"), (1, ["3H", "6H", "8H", "AH"])]
    out = audit_record(record(rules, tricks, hands=hands))["deals"][0]
    assert out["penalties"][0]["points"] == 0
    plain = audit_record(record("standard-2deck", tricks, hands=hands))["deals"][0]
    # the thrower's side (seats 0/2) ends one level lower than without the penalty
    assert int(plain["levels_after"][0].replace("A", "14")) - 1 == int(out["levels_after"][0]) or (
        plain["levels_after"][0] == "2" and out["levels_after"][0] == "2")


def test_other_rule_codes() -> None:
    rec = record("standard-2deck", [
        (1, ["AH", "3H", "4H", "5H"]),  # wrong leader (the dealer 0 leads trick 0)
        (1, ["AD 9C", "3D 4D", "5D", "6D 7D"]),  # mixed lead; seat 3 one card; seat 0 … ok
        (1, ["AC", "AC", "AC", "2C"]),  # three ♣A in two decks
    ])
    found = violations(rec)
    assert (0, 1, "wrong-leader", True) in found
    assert (1, 1, "lead-mixed-suits", True) in found
    assert (1, 3, "wrong-card-count", True) in found
    assert (2, 3, "card-not-available", True) in found


def test_card_not_in_recorded_hand_and_bad_kitty() -> None:
    rec = record("standard-2deck", [(0, ["AH", "3H", "4H", "5H"])],
                 hands=[["AH"], ["3H"], ["4H"], ["6H"]], kitty=["5C", "KD"])
    found = violations(rec)
    assert (0, 3, "card-not-available", True) in found
    assert (None, 0, "bad-kitty", True) in found


def test_complete_deal_outcome_and_kitty() -> None:
    # defenders (1/3) win the last trick with a pair: kitty 25 points × 4
    hands = [["6H", "7H", "9C"], ["AH", "AH", "KC"], ["3H", "3H", "8C"], ["4H", "5H", "10C"]]
    kitty = ["5D", "10D", "KD", "3C", "4C", "6C", "7C", "8D"]
    rec = record("standard-2deck", [
        (0, ["9C", "KC", "8C", "10C"]),
        (1, ["AH AH", "3H 3H", "4H 5H", "6H 7H"]),
    ], hands=hands, kitty=kitty)
    out = audit_record(rec)["deals"][0]
    assert out["violations"] == []
    assert [t["winner"] for t in out["tricks"]] == [1, 1]
    assert out["defender_points"] == 25
    assert (out["kitty_points"], out["kitty_multiplier"], out["kitty_won_by"]) == (25, 4, "defenders")
    assert out["total_defender_points"] == 125
    assert out["outcome"] == {"side": "defenders", "levels": 1}
    assert out["next_dealer"] == 1
    assert out["levels_after"] == ["2", "3", "2", "3"]
    assert out["game_winner"] is None
    assert next_leader(rec) == 1 and trick_winner(rec, 0, 1) == 1


def test_game_winner_and_levels_carry_over() -> None:
    hands = [["AH"], ["3H"], ["4H"], ["6H"]]
    rec = record("standard-2deck", [(0, ["AH", "3H", "4H", "6H"])], hands=hands, level="A")
    rec["start_levels"] = ["A", "K", "A", "K"]
    rec["deals"].append(copy.deepcopy(rec["deals"][0]))
    out = audit_record(rec)["deals"]
    assert out[0]["outcome"] == {"side": "dealer", "levels": 3} and out[0]["game_winner"] == "dealer"
    assert out[0]["levels_after"] == ["A", "K", "A", "K"]


def test_incomplete_deal_has_null_outcome() -> None:
    rec = record("standard-2deck", [(0, ["AH", "3H"])])
    out = audit_record(rec)["deals"][0]
    for key in ("outcome", "next_dealer", "levels_after", "kitty_points", "kitty_multiplier", "kitty_won_by",
                "total_defender_points"):
        assert out[key] is None
    assert out["tricks"][0]["winner"] is None and next_leader(rec) == 0


# ------------------------------------------------------------------ bidding
@pytest.mark.parametrize(
    ("profile", "bids", "trump", "dealer", "bad_seats"),
    [
        ("standard-2deck", [(1, "2H"), (2, "2S 2S")], "S", 1, []),  # seed 004: 先亮者為莊家
        ("standard-2deck", [(1, "2H"), (2, "2S 2S")], "S", 2, [2]),  # the winning bidder is not the first dealer
        ("standard-2deck", [(1, "2H"), (2, "2S")], "H", 1, [2]),  # a single cannot overcall a single
        ("standard-2deck", [(1, "2H"), (1, "2H 2H")], "H", 1, []),  # 自保
        ("standard-2deck", [(1, "2H"), (1, "2S 2S")], "S", 1, []),  # 自反
        ("standard-2deck", [(1, "2H"), (2, "2S 2S"), (1, "2H 2H")], "S", 1, [1]),  # 反主 came first
        ("standard-2deck", [(1, "2H 2H"), (3, "SJ SJ")], "NT", 1, []),  # joker pair → no-trump
        ("standard-2deck", [(1, "2H 2H"), (3, "SJ SJ")], "H", 1, [3]),  # trump must follow the bid
        ("standard-2deck", [], "H", 0, [0]),  # no bid → no-trump
        ("titanic-3deck", [(0, "2H"), (1, "2D 2D"), (2, "SJ BJ"), (3, "2C 2C 2C"), (0, "SJ SJ BJ")], "NT", 0, []),
        ("titanic-3deck", [(0, "2H 2H"), (1, "SJ BJ"), (2, "2C 2C")], "NT", 0, [2]),
        ("guangzhou-3deck", [(0, "2H"), (1, "2D 2D"), (2, "2C 2C")], "D", 1, [2]),
        ("guangzhou-3deck", [(0, "2H"), (1, "2D 2D"), (0, "2H 2H")], "D", 1, [0]),  # no 自保 by default
        ({"profile": "guangzhou-3deck", "reinforce": True}, [(0, "2H"), (1, "2D 2D"), (0, "2H 2H")], "H", 0, []),
        ({"profile": "guangzhou-3deck", "first_dealer": "first-bidder"}, [(0, "2H"), (1, "2D 2D")], "D", 0, []),
        ("guangzhou-3deck", [(0, "2H"), (1, "2D 2D")], "D", 0, [0]),  # winning-bidder deals first
        ("chaodipi-2deck", [(0, "2D"), (1, "2H"), (2, "2C 2C"), (3, "2S 2S")], "S", 3, []),
        ("chaodipi-2deck", [(0, "2H"), (1, "2D")], "H", 0, [1]),  # ♦ under ♥
        ("chaodipi-2deck", [(0, "2H 2H"), (1, "SJ SJ"), (2, "BJ BJ")], "NT", 2, []),
        ("chaodipi-2deck", [(0, "2H 2H"), (1, "BJ BJ"), (2, "SJ SJ")], "NT", 1, [2]),
        ("chaodipi-2deck", [(0, "2H"), (0, "2S")], "H", 0, [0]),  # nobody overcalls himself
        ("chaodipi-2deck", [(0, "SJ SJ BJ")], "C", 0, []),  # three jokers: any trump
    ],
)
def test_bids(profile: Any, bids: list[tuple[int, str]], trump: str, dealer: int, bad_seats: list[int]) -> None:
    rec = record(profile, [], trump=trump, dealer=dealer, bids=[{"seat": s, "cards": c.split()} for s, c in bids])
    found = [v for v in violations(rec) if v[2] == "bad-bid"]
    assert sorted(v[1] for v in found) == sorted(bad_seats)


def test_chaodipi_rebidding_after_the_kitty() -> None:
    bids = [{"seat": 0, "cards": ["2H"]}, {"seat": 1, "cards": ["2S", "2S"], "after_kitty": True}]
    assert violations(record("chaodipi-2deck", [], trump="S", dealer=1, bids=bids)) == []
    out = audit_record(record("standard-2deck", [], trump="S", dealer=1, bids=bids))["deals"][0]["violations"]
    assert any(v["seat"] == 1 and "after the kitty" in v["detail"] for v in out)


# ------------------------------------------------------------------ 找朋友
def test_friends_reveal_and_individual_points() -> None:
    # 5 players, dealer 0 calls the 1st ♠A; seat 3 plays it in trick 1 and joins the dealer
    hands = [["3H", "4D"], ["KH", "5D"], ["5H", "6D"], ["6H", "AS"], ["7H", "7D"]]
    rec = record("friends-3deck", [
        (0, ["3H", "KH", "5H", "6H", "7H"]),  # seat 1 wins 20 points
        (1, ["5D", "6D", "AS", "7D", "4D"]),  # ♠A is a discard: seat 4 wins 5
    ], players=5, trump="C", hands=hands, friends=[{"card": "AS", "nth": 1}],
        kitty=["3S", "3S", "3S", "4S", "4S", "4S", "6S"])
    out = audit_record(rec)["deals"][0]
    assert out["violations"] == []
    assert out["defender_points"] == 20  # seats 1 (15) and 4 (5)
    # the dealer's side keeps: its bids make the next dealer (RULES §10), no rotation names one
    assert out["outcome"]["side"] == "dealer" and out["next_dealer"] is None
    assert next_dealers(rec) == [3, 0]  # the winners, from the dealer's next seat
    assert out["levels_after"][0] != "2" and out["levels_after"][3] != "2" and out["levels_after"][1] == "2"


def test_friends_dealer_playing_the_called_copy_uses_it_up() -> None:
    hands = [["AS", "4D"], ["3S", "5D"], ["AS", "6D"], ["6H", "KH"], ["7H", "7D"]]
    tricks = [(0, ["AS", "3S", "AS", "6H", "7H"]), (0, ["4D", "5D", "6D", "KH", "7D"])]
    # the dealer plays the 1st ♠A himself: no friend, he plays alone (and stays dealer)
    alone = audit_record(record("friends-3deck", tricks, players=5, trump="C", hands=hands,
                                friends=[{"card": "AS", "nth": 1}]))["deals"][0]
    assert alone["defender_points"] == 15 and alone["outcome"] == {"side": "dealer", "levels": 3}
    assert alone["next_dealer"] is None and alone["levels_after"] == ["5", "2", "2", "2", "2"]
    # the 2nd ♠A (seat 2's) makes seat 2 the friend
    paired = audit_record(record("friends-3deck", tricks, players=5, trump="C", hands=hands,
                                 friends=[{"card": "AS", "nth": 2}]))["deals"][0]
    assert paired["next_dealer"] is None and paired["levels_after"] == ["5", "2", "5", "2", "2"]


# ------------------------------------------------------------------ malformed records
@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda r: r["deals"][0]["tricks"][0]["plays"].__setitem__(2, ["1H"]),
         'deals[0].tricks[0].plays[2]: unknown card "1H"'),
        (lambda r: r.__setitem__("rules", "bridge"), 'rules: unknown profile "bridge"'),
        (lambda r: r["deals"][0].__setitem__("trump", "X"), "deals[0].trump"),
        (lambda r: r["deals"][0].__setitem__("dealer", 9), "deals[0].dealer"),
        (lambda r: r["deals"][0]["tricks"][0].__setitem__("leader", "x"), "deals[0].tricks[0].leader"),
        (lambda r: r.__setitem__("deals", {}), "deals: expected a list"),
        (lambda r: r.__setitem__("players", ["a", "b", "c"]), "players"),
    ],
)
def test_malformed_records_name_the_place(mutate: Any, message: str) -> None:
    rec = record("standard-2deck", REVOKE)
    mutate(rec)
    with pytest.raises(RecordError) as err:
        validate_record(rec)
    assert message in str(err.value)


def test_attempt_cards_count_as_held() -> None:
    # seat 0 attempts ♥A ♥Q, must play ♥Q (seat 2 holds ♥K), keeps ♥A; in trick 1 he
    # discards on a ♥ lead: the attempt proves he held ♥A although it is not played yet
    rec = record("standard-2deck", [
        (0, ["QH", "3H", "KH", "5H"], "AH QH"),
        (2, ["4H", "6H", "3D", "7H"]),
    ])
    found = violations(rec)
    assert (1, 0, "must-follow-suit", True) in found
    detail = next(v["detail"] for v in audit_record(rec)["deals"][0]["violations"] if v["trick"] == 1)
    assert "shown in the attempt of trick 0" in detail
    # an attempted card its owner never had
    rec = record("standard-2deck", [(0, ["QH", "KH", "5H", "7H"], "AH QH")], complete=True)
    assert (0, 0, "card-not-available", True) in violations(rec)
