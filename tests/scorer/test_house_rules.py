"""Issue 30, item 6: the house rules people use — 2 常主 (``twos_trump``), 必打级 (``must_defend``),
最多升几级 (``max_levels``), 勾J (``jack_hook``) and 保放 (``reinforce``) — each settled on a crafted
deal, the same deal without the rule settling otherwise (docs/RULES.md §13, RULES-DECISIONS 47–51)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import deal_record
from tuolaji.scorer import RulesError, audit_record, bidding_state, resolve_rules
from tuolaji.scorer.profiles import HOUSE_RULES, house_rule_words

POINTS_KITTY = ["KS", "KS", "KH", "KH", "10S", "10S", "10H", "10H"]  # 80 points
BARE_KITTY = ["3C", "3C", "4C", "4C", "6C", "6C", "7C", "7C"]  # no points


def settled(rules: dict[str, Any], last_play: str, *, level: str = "J", kitty: list[str] | None = None,
            start: list[str] | None = None) -> dict[str, Any]:
    """One complete 2-deck deal of one trick: the dealer (seat 0) leads ♠33, seat 1 (a defender) wins
    it with ``last_play`` (trumps, ♥ the trump suit) and so the kitty's points ×4 (a pair)."""
    rules = rules if "profile" in rules else {"profile": "standard-2deck", **rules}
    record = deal_record(rules, [(0, ["3S 3S", last_play, "4S 5S", "6S 7S"])], level=level, trump="H",
                         kitty=kitty if kitty is not None else POINTS_KITTY, complete=True)
    record["start_levels"] = start or [level, "2", level, "2"]
    deal = audit_record(record)["deals"][0]
    assert deal["violations"] == [], deal["violations"]
    return deal


# --- 勾J -----------------------------------------------------------------------------------------------


def test_jack_hook_sends_the_dealers_side_back_to_2_when_the_defenders_win_the_last_trick_with_jacks() -> None:
    plain = settled({}, "JH JH")
    assert plain["tricks"][0]["winner"] == 1 and plain["kitty_won_by"] == "defenders"
    assert plain["total_defender_points"] == 5 + 80 * 4 and plain["outcome"] == {"side": "defenders", "levels": 6}
    assert plain["levels_after"] == ["J", "8", "J", "8"] and "jack_hook" not in plain
    hooked = settled({"jack_hook": "2"}, "JH JH")
    assert hooked["levels_after"] == ["2", "8", "2", "8"] and hooked["jack_hook"] == "2"
    assert hooked["outcome"] == plain["outcome"] and hooked["next_dealer"] == plain["next_dealer"] == 1
    # any level below J may be the one the hooked side goes back to
    assert settled({"jack_hook": "5"}, "JS JS")["levels_after"] == ["5", "8", "5", "8"]


def test_jack_hook_holds_even_when_the_dealers_side_keeps_the_deal() -> None:
    plain = settled({}, "JH JH", kitty=BARE_KITTY)
    assert plain["total_defender_points"] == 5 and plain["outcome"] == {"side": "dealer", "levels": 2}
    assert plain["levels_after"] == ["K", "2", "K", "2"]
    hooked = settled({"jack_hook": "2"}, "JH JH", kitty=BARE_KITTY)
    assert hooked["levels_after"] == ["2", "2", "2", "2"] and hooked["next_dealer"] == plain["next_dealer"] == 2


@pytest.mark.parametrize(("last_play", "level"), [
    ("SJ SJ", "J"),  # won by jokers, not Js
    ("10H 10H", "10"),  # won by the level cards, but the level is not J
])
def test_jack_hook_needs_a_win_by_jacks_at_level_j(last_play: str, level: str) -> None:
    deal = settled({"jack_hook": "2"}, last_play, level=level, kitty=BARE_KITTY)
    assert deal["tricks"][0]["winner"] == 1 and "jack_hook" not in deal
    assert deal["levels_after"] == settled({}, last_play, level=level, kitty=BARE_KITTY)["levels_after"]
    assert deal["levels_after"][0] != "2"


def test_jack_hook_not_when_the_dealers_side_wins_the_last_trick() -> None:
    record = deal_record({"profile": "standard-2deck", "jack_hook": "2"}, [(0, ["JH JH", "3S 3S", "4S 5S", "6S 7S"])],
                         level="J", trump="H", kitty=BARE_KITTY, complete=True)
    record["start_levels"] = ["J", "2", "J", "2"]
    deal = audit_record(record)["deals"][0]
    assert deal["kitty_won_by"] == "dealer" and "jack_hook" not in deal
    assert deal["levels_after"] == ["A", "2", "A", "2"]  # 0 points (大光): J +3 → A


def test_jack_hook_takes_away_a_game_won_at_j() -> None:
    # guangzhou's step: 0 points is +4; J + 4 passes A, but the defenders hooked the dealer's side
    rules = {"profile": "guangzhou-3deck", "kitty_needs_trump": False}
    record = deal_record(rules, [(0, ["3S 3S", "JH JH", "4S 8S", "6S 7S"])], level="J", trump="H",
                         kitty=["3C", "3C", "4C", "4C", "6C", "6C"], complete=True)
    record["start_levels"] = ["J", "2", "J", "2"]
    deal = audit_record(record)["deals"][0]
    assert deal["game_winner"] == "dealer" and deal["levels_after"] == ["A", "2", "A", "2"]
    record["rules"] = {**rules, "jack_hook": "2"}
    deal = audit_record(record)["deals"][0]
    assert deal["game_winner"] is None and deal["levels_after"] == ["2", "2", "2", "2"] and deal["jack_hook"] == "2"


def test_jack_hook_values() -> None:
    assert resolve_rules({"profile": "standard-2deck", "jack_hook": "2"}).jack_hook == "2"
    assert resolve_rules({"profile": "standard-2deck", "jack_hook": "10"}).jack_hook == "10"
    assert resolve_rules({"profile": "standard-2deck", "jack_hook": None}).jack_hook is None
    assert resolve_rules("standard-2deck").jack_hook is None
    for bad in ("J", "Q", "A", True, 2, "x"):
        with pytest.raises(RulesError, match="jack_hook"):
            resolve_rules({"profile": "standard-2deck", "jack_hook": bad})


# --- 最多升几级 and 必打级 --------------------------------------------------------------------------------


def test_max_levels_caps_the_levels_of_a_settled_deal() -> None:
    deal = settled({"max_levels": 2}, "JH JH")
    assert deal["total_defender_points"] == 325 and deal["outcome"] == {"side": "defenders", "levels": 2}
    assert deal["levels_after"] == ["J", "4", "J", "4"]
    kept = settled({"max_levels": 1}, "JH JH", kitty=BARE_KITTY)
    assert kept["outcome"] == {"side": "dealer", "levels": 1} and kept["levels_after"] == ["Q", "2", "Q", "2"]


def test_must_defend_stops_a_side_on_a_level_it_would_jump_over() -> None:
    start = ["J", "3", "J", "3"]
    assert settled({}, "JH JH", start=start)["levels_after"] == ["J", "9", "J", "9"]
    deal = settled({"must_defend": ["5", "10", "K"]}, "JH JH", start=start)
    assert deal["outcome"] == {"side": "defenders", "levels": 6} and deal["levels_after"] == ["J", "5", "J", "5"]
    # the dealer's side playing a must-defend level passes it when it holds: at 10, +2 → Q
    kept = settled({"must_defend": ["10"]}, "10H 10H", level="10", kitty=BARE_KITTY)
    assert kept["levels_after"] == ["Q", "2", "Q", "2"]
    # but the defenders sitting on 5 do not pass it by taking over
    on5 = settled({"must_defend": ["5"]}, "JH JH", start=["J", "5", "J", "5"])
    assert on5["levels_after"] == ["J", "5", "J", "5"]


def test_the_house_rules_combine() -> None:
    deal = settled({"jack_hook": "2", "max_levels": 2, "must_defend": ["5"]}, "JH JH", start=["J", "4", "J", "4"])
    assert deal["levels_after"] == ["2", "5", "2", "5"]


# --- 2 常主 ----------------------------------------------------------------------------------------------


def test_twos_trump_makes_an_off_suit_2_win_the_last_trick_and_the_kitty() -> None:
    def deal(rules: dict[str, Any]) -> dict[str, Any]:
        record = deal_record({"profile": "standard-2deck", **rules}, [(0, ["AS", "2C", "10S", "4S"])], level="5",
                             trump="H", kitty=POINTS_KITTY, complete=True)
        record["start_levels"] = ["5", "5", "5", "5"]
        return audit_record(record)["deals"][0]

    plain, twos = deal({}), deal({"twos_trump": True})
    assert plain["tricks"][0]["winner"] == 0 and plain["kitty_won_by"] == "dealer"
    assert plain["total_defender_points"] == 0 and plain["levels_after"] == ["8", "5", "8", "5"]
    assert twos["tricks"][0]["winner"] == 1 and twos["kitty_won_by"] == "defenders"
    assert twos["total_defender_points"] == 10 + 80 * 2 and twos["levels_after"] == ["5", "7", "5", "7"]


# --- 保放 ------------------------------------------------------------------------------------------------


def test_reinforce_keeps_the_overcalled_bid_and_its_dealer() -> None:
    bids = [{"seat": 0, "cards": ["2H"]}, {"seat": 1, "cards": ["2D", "2D"]}, {"seat": 0, "cards": ["2H", "2H"]}]

    def record(rules: dict[str, Any], trump: str, dealer: int) -> dict[str, Any]:
        return deal_record({"profile": "guangzhou-3deck", **rules}, [], level="2", trump=trump, dealer=dealer,
                           bids=bids)

    kept = record({"reinforce": True}, "H", 0)
    assert bidding_state(kept).trump == "H" and bidding_state(kept).dealer == 0
    assert audit_record(kept)["deals"][0]["violations"] == []
    plain = record({}, "D", 1)
    assert bidding_state(plain).trump == "D" and bidding_state(plain).dealer == 1
    assert [v["rule"] for v in audit_record(plain)["deals"][0]["violations"]] == ["bad-bid"]
    # the deal played as 保放 makes it, without the rule, is wrong: the trump and the dealer are seat 1's
    assert {v["rule"] for v in audit_record(record({}, "H", 0))["deals"][0]["violations"]} == {"bad-bid"}


# --- the words ---------------------------------------------------------------------------------------------


def test_each_house_rule_has_its_words() -> None:
    for name in ("twos_trump", "must_defend", "max_levels", "jack_hook", "reinforce"):
        assert name in HOUSE_RULES
    options = resolve_rules({"profile": "standard-2deck", "twos_trump": True, "max_levels": 1, "jack_hook": "2"})
    assert house_rule_words(options) == ["2 常主: every 2 is a trump", "最多升 1 级: at most 1 level a deal",
                                         "勾J: at level J, the defenders winning the last trick with Js send the "
                                         "dealer's side back to 2"]
    assert house_rule_words(resolve_rules("guangzhou-3deck")) == []
