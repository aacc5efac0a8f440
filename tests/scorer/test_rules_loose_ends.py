"""Rules loose ends found in an audit (issue 30, item 8): the first deal's level, no bid with
3 decks, and 找朋友's next dealer."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import deal_record
from tuolaji.scorer import audit_record, bidding_state, next_dealers, parse_cards, resolve_rules


def _found(rec: dict[str, Any], deal: int = 0) -> list[tuple[int, str, str]]:
    return [(v["seat"], v["rule"], v["detail"]) for v in audit_record(rec)["deals"][deal]["violations"]]


# ---------------------------------------------------------------- (a) the first deal's level
@pytest.mark.parametrize("mid_game", [False, True])
def test_the_first_deal_is_played_at_the_dealers_start_level(mid_game: bool) -> None:
    # seed 000 4.2.1.2 「级别牌只反映庄家的级别」: a game recorded from level 5 cannot be dealt at 7
    rec = deal_record("standard-2deck", [], level="7", dealer=1) | {"start_levels": ["5"] * 4}
    if mid_game:
        rec["mid_game"] = True
    assert _found(rec) == [(1, "wrong-dealer", "deal 0 is played at level 7; its dealer, seat 1, is at level 5")]
    rec["deals"][0]["level"] = "5"
    assert _found(rec) == []


def test_the_first_deal_level_is_the_dealers_own_when_the_sides_differ() -> None:
    rec = deal_record("standard-2deck", [], level="3", dealer=0) | {"start_levels": ["3", "8", "3", "8"]}
    assert _found(rec) == []
    rec["deals"][0]["dealer"] = 1  # seat 1 is at 8
    assert _found(rec) == [(1, "wrong-dealer", "deal 0 is played at level 3; its dealer, seat 1, is at level 8")]


def test_without_start_levels_the_game_starts_at_2() -> None:
    rec = deal_record("titanic-3deck", [], level="5", dealer=2)
    assert _found(rec) == [(2, "wrong-dealer", "deal 0 is played at level 5; its dealer, seat 2, is at level 2")]


def test_friends_first_deal_at_the_winning_bidders_level() -> None:
    rec = deal_record("friends-3deck", [], level="4", dealer=2, players=5, trump="H",
                      bids=[{"seat": 2, "cards": ["4H"]}]) | {"start_levels": ["2", "2", "4", "2", "2"]}
    assert _found(rec) == []
    rec["start_levels"] = ["2", "2", "6", "2", "2"]
    assert (2, "wrong-dealer", "deal 0 is played at level 4; its dealer, seat 2, is at level 6") in _found(rec)


# ---------------------------------------------------------------- (b) no bid: no-trump with 3 decks too
@pytest.mark.parametrize("profile", ["standard-2deck", "single-deck", "titanic-3deck", "four-deck"])
def test_no_bid_is_no_trump_in_the_seed_004_profiles(profile: str) -> None:
    # seed 004: 「若發牌結束仍無人亮牌，則打無主」; 泰坦尼克's bidding 「和兩副牌拖拉機規則類似」
    rec = deal_record(profile, [], level="2", trump="H", bids=[])
    assert _found(rec) == [(0, "bad-bid", "no bid: the deal is played in no trump, not ♥ trump")]
    rec["deals"][0]["trump"] = "NT"
    assert _found(rec) == []


@pytest.mark.parametrize("profile", ["guangzhou-3deck", "competition-3deck", "chaodipi-2deck"])
def test_no_bid_is_not_judged_where_the_seeds_say_nothing(profile: str) -> None:
    rec = deal_record(profile, [], level="2", trump="H", bids=[])
    assert _found(rec) == []


def test_a_profile_may_say_otherwise() -> None:
    rules = {"profile": "titanic-3deck", "no_bid_no_trump": False}
    assert not resolve_rules(rules).no_bid_no_trump
    assert _found(deal_record(rules, [], level="2", trump="H", bids=[])) == []
    rules = {"profile": "guangzhou-3deck", "no_bid_no_trump": True}
    assert [r for _, r, _ in _found(deal_record(rules, [], level="2", trump="H", bids=[]))] == ["bad-bid"]


# ---------------------------------------------------------------- (c) 找朋友: the winners' bids make the dealer
def _friends_game() -> dict[str, Any]:
    """5 players, dealer 0 calls the 1st ♠A; seat 3 plays it and joins him; they keep the deal
    (the defenders take 20): seats 0 and 3 go up three levels, from 2 to 5."""
    hands = [["3H", "4D"], ["KH", "5D"], ["5H", "6D"], ["6H", "AS"], ["7H", "7D"]]
    rec = deal_record("friends-3deck", [(0, ["3H", "KH", "5H", "6H", "7H"]), (1, ["5D", "6D", "AS", "7D", "4D"])],
                      players=5, trump="C", hands=hands, friends=[{"card": "AS", "nth": 1}],
                      kitty=["3S", "3S", "3S", "4S", "4S", "4S", "6S"])
    return rec


def test_friends_names_no_next_dealer_by_rotation() -> None:
    rec = _friends_game()
    out = audit_record(rec)["deals"][0]
    assert out["outcome"] == {"side": "dealer", "levels": 3} and out["levels_after"] == ["5", "2", "2", "5", "2"]
    assert out["next_dealer"] is None  # seed 001: 由上盘赢的一边其中一人做庄, 放谁的级牌就由谁做庄
    assert next_dealers(rec) == [3, 0]  # who may deal: the winners, from the dealer's next seat
    assert next_dealers(deal_record("standard-2deck", [])) == []  # not complete: nobody yet


@pytest.mark.parametrize(("bidder", "dealer", "rules"), [
    (0, 0, []),  # the dealer of the last deal bids his own level again and deals: no rotation to his friend
    (3, 3, []),
    (3, 0, ["bad-bid"]),  # seat 3's level card makes seat 3 the dealer, not seat 0
    (1, 1, ["wrong-dealer", "bad-bid"]),  # seat 1 lost: he may neither bid nor deal
])
def test_friends_next_dealer_is_the_winning_bid_of_the_winners(bidder: int, dealer: int, rules: list[str]) -> None:
    rec = _friends_game()
    level = audit_record(rec)["deals"][0]["levels_after"][dealer]
    rec["deals"].append({"level": level, "trump": "H", "dealer": dealer, "bids": [{"seat": bidder, "cards": ["5H"]}],
                         "tricks": []})
    assert [r for _, r, _ in _found(rec, 1)] == rules
    state = bidding_state(rec)
    if bidder in (0, 3):
        assert state.dealer == bidder and state.deal_level == 3  # level 5 (index 3)
    assert state.is_overcall(0, parse_cards(["5S", "5S"])) and not state.is_overcall(1, parse_cards(["2S", "2S"]))


def test_the_next_friends_deal_starts_with_a_winner_until_a_bid_stands() -> None:
    from tuolaji.session.changes import next_deal_setup

    rec = _friends_game()
    rec["start_levels"] = ["2"] * 5
    deal = next_deal_setup(rec, audit_record(rec), "NT")
    assert (deal["dealer"], deal["level"], deal["friends"]) == (3, "5", [{"card": "AS", "nth": 1}])
    rec["deals"].append(deal | {"bids": [{"seat": 0, "cards": ["5H"]}], "dealer": 0, "trump": "H"})
    assert _found(rec, 1) == []  # seat 0's own level card: he deals instead
