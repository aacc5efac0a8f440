"""A deal's set-up on the page: bids, its settings, the kitty and the next deal (routes of blueprint ``api``).

Every rule comes from the rules core: the live bidding state (:func:`scorer.bidding_state`)
says which bids stand and decides trump, dealer and the deal's level; the audit says each
seat's level before the deal. A change that contradicts the game is refused with a
reason in both languages, never applied silently. The settlement waits for the kitty: the
next deal starts once the kitty is recorded, or marked unknown (``"kitty_unknown": true``,
a key of the deal the record keeps).

>>> record = {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": list("abcd"),
...           "start_levels": ["2", "5", "2", "5"], "deals": [{"level": "2", "trump": "NT", "dealer": 0, "tricks": []}]}
>>> [" ".join(cards) for cards in bid_offers(record)[1]][:3]  # mid-game: the deal's level, 2
['2S', '2S 2S', '2H']
>>> deal = apply_bid(record, 1, ["2H"])["deals"][0]
>>> deal["trump"], deal["dealer"], deal["level"]
('H', 0, '2')
>>> settle_ready(record, 0), settle_ready({"deals": [{"kitty_unknown": True}]}, 0)
(False, True)
"""

from __future__ import annotations

import copy
from typing import Any

from flask import Response, jsonify

from tuolaji import scorer
from tuolaji.scorer.cards import SUITS, parse_cards
from tuolaji.scorer.violation_text import detail
from tuolaji.scorer.violations import Violation

from . import view
from .explain import describe_violation


class RefusedError(Exception):
    """A change the game contradicts; ``words`` say why in Chinese and English (the page shows them)."""

    def __init__(self, detail: str, zh: str, en: str) -> None:
        super().__init__(detail)
        self.words = {"zh": zh, "en": en}


# --- bids --------------------------------------------------------------------------------


def _candidate_bids(record: dict[str, Any], state: scorer.BiddingState) -> list[list[str]]:
    """Every bid a table could show: level cards of each suit, and jokers, 1 … decks copies."""
    decks = state.options.decks
    if state.levels is not None and state.eligible is not None:  # 找朋友 later deals: the winners' levels
        ranks = sorted({state.levels[seat] for seat in state.eligible})
    else:
        ranks = [state.level]
    result = []
    for rank in ranks:
        for suit in SUITS:
            result += [[view.LEVELS[rank] + suit] * copies for copies in range(1, decks + 1)]
    for joker in ("SJ", "BJ"):
        result += [[joker] * copies for copies in range(1, decks + 1)]
    return result


def bid_offers(record: dict[str, Any], deal: int = -1) -> list[list[list[str]]]:
    """Per seat, the bids that would stand now (the profile's bid order, the standing bid,
    the cards the decks hold; 炒地皮's three jokers, whose bidder names the trump, are left out)."""
    state = scorer.bidding_state(record, deal)
    candidates = _candidate_bids(record, state)
    offers = []
    for seat in range(len(record["players"])):
        standing = []
        for cards in candidates:
            parsed = parse_cards(cards)
            if state.why_not(seat, parsed) is None and _trump_of(state, seat, parsed) != "any":
                standing.append(cards)
        offers.append(standing)
    return offers


def _trump_of(state: scorer.BiddingState, seat: int, cards: list[int]) -> str | None:
    state.push(seat, cards)
    try:
        return state.trump
    finally:
        state.pop()


def _follow_bids(record: dict[str, Any], deal_index: int) -> None:
    """Trump, dealer and level of the deal as its standing bid decides (unchanged without one)."""
    state = scorer.bidding_state(record, deal_index)
    deal = record["deals"][deal_index]
    if state.standing is None:
        return
    if state.trump in ("S", "H", "C", "D", "NT"):
        deal["trump"] = state.trump
    if state.dealer is not None:
        deal["dealer"] = state.dealer
        deal["level"] = view.LEVELS[state.deal_level] if state.levels is not None else _dealer_level(
            record, deal_index, state.dealer)


def _dealer_level(record: dict[str, Any], deal_index: int, dealer: int) -> str:
    return levels_before(record, deal_index)[dealer]


def levels_before(record: dict[str, Any], deal_index: int) -> list[str]:
    """Each seat's level when the deal starts: the start levels, then what the audit carries on."""
    audit = scorer.audit_record({**record, "deals": record["deals"][:deal_index]}) if deal_index else {"deals": []}
    history = view.level_history(record, audit)
    return history[-1]


def apply_bid(record: dict[str, Any], seat: int, cards: list[str], deal_index: int = -1) -> dict[str, Any]:
    """The record with one more bid, if it stands; trump, dealer and level follow the standing bid."""
    record = copy.deepcopy(record)
    deal_index %= len(record["deals"])
    deal = record["deals"][deal_index]
    if deal.get("tricks"):
        raise RefusedError("bid: the deal has started", "这一局已经开始出牌，不能再亮主",
                           "the deal has started: no more bids")
    state = scorer.bidding_state(record, deal_index)
    refusal = state.refusal(seat, parse_cards(cards))
    if refusal is not None:
        words = describe_violation(Violation("bad-bid", None, seat, True, refusal), record["players"])
        raise RefusedError(f"bid: {detail(refusal)}", "这个亮主不成立：" + words["zh"],
                           "this bid does not stand: " + words["en"])
    deal.setdefault("bids", []).append({"seat": seat, "cards": list(cards)})
    _follow_bids(record, deal_index)
    return record


def withdraw_bid(record: dict[str, Any], deal_index: int = -1) -> dict[str, Any]:
    """The record without the deal's last bid (taken back); trump and dealer follow the bid that then stands."""
    record = copy.deepcopy(record)
    deal_index %= len(record["deals"])
    deal = record["deals"][deal_index]
    if deal.get("tricks"):
        raise RefusedError("bid: the deal has started", "这一局已经开始出牌，不能撤回亮主",
                           "the deal has started: bids cannot be withdrawn")
    if not deal.get("bids"):
        raise RefusedError("bid: no bid to withdraw", "没有可撤回的亮主", "there is no bid to withdraw")
    deal["bids"].pop()
    if not deal["bids"]:
        del deal["bids"]
    _follow_bids(record, deal_index)
    return record


def bidding_view(record: dict[str, Any]) -> dict[str, Any] | None:
    """What the bids panel shows: the standing bid, what each seat may still bid."""
    if not record.get("deals") or record["deals"][-1].get("tricks"):
        return None  # bids end with the first trick
    state = scorer.bidding_state(record, -1)
    standing = state.standing
    return {
        "standing": None if standing is None else {"seat": standing.seat,
                                                   "cards": [scorer.format_card(c) for c in standing.cards]},
        "verdicts": list(state.verdicts),
        "offers": bid_offers(record),
    }


# --- the deal's settings -----------------------------------------------------------------


def edit_deal(record: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """The current deal with ``changes`` (trump, dealer, level, friends) applied, before its first trick.

    The level is the dealer's own level (it is set with him); a level that is not his, or a
    trump or dealer the standing bid contradicts, is refused."""
    record = copy.deepcopy(record)
    deal_index = len(record["deals"]) - 1
    deal = record["deals"][deal_index]
    if deal.get("tricks"):
        raise RefusedError("deal: the deal has started; correct single cards instead",
                           "这一局已经开始出牌，不能再改设置（请更正单张牌）",
                           "the deal has started: correct single cards instead")
    names = record["players"]
    state = scorer.bidding_state(record, deal_index)
    if state.standing is not None:
        if "trump" in changes and changes["trump"] != deal["trump"]:
            raise RefusedError("trump: the standing bid decides the trump", "主由亮主决定：要改主，先撤回亮主",
                               "the standing bid decides the trump: withdraw the bid to change it")
        if "dealer" in changes and changes["dealer"] != deal["dealer"]:
            raise RefusedError("dealer: the standing bid decides the dealer", "庄家由亮主决定：要换庄，先撤回亮主",
                               "the standing bid decides the dealer: withdraw the bid to change him")
    if "trump" in changes:
        deal["trump"] = changes["trump"]
    if "dealer" in changes:
        deal["dealer"] = changes["dealer"]
    own = _dealer_level(record, deal_index, deal["dealer"])
    if "level" in changes and changes["level"] != own:
        name = names[deal["dealer"]]
        raise RefusedError(f"level: {changes['level']} is not the dealer's level {own}",
                           f"打 {changes['level']} 不对：庄家 {name} 在打 {own}",
                           f"level {changes['level']} is wrong: the dealer {name} is at {own}")
    deal["level"] = own
    if "friends" in changes:
        if changes["friends"]:
            deal["friends"] = changes["friends"]
        else:
            deal.pop("friends", None)
    return record


# --- the kitty and the settlement ------------------------------------------------------------


def settle_ready(record: dict[str, Any], deal_index: int) -> bool:
    """Whether the deal's settlement may be drawn: its kitty recorded, or marked unknown."""
    deal = record["deals"][deal_index]
    return bool(deal.get("kitty")) or bool(deal.get("kitty_unknown"))


def set_kitty(record: dict[str, Any], deal_index: int, cards: list[str] | None) -> dict[str, Any]:
    """The record with the deal's kitty (None: marked unknown, 底牌未知)."""
    record = copy.deepcopy(record)
    deal = record["deals"][deal_index]
    if cards is None:
        deal.pop("kitty", None)
        deal["kitty_unknown"] = True
    else:
        deal["kitty"] = cards
        deal.pop("kitty_unknown", None)
    return record


def next_deal_setup(record: dict[str, Any], audit: dict[str, Any], trump: str) -> dict[str, Any]:
    """The next deal: the audit's next dealer at his new level; in 找朋友 the last dealer's call
    carries over (the new dealer edits it like any setting before the first trick)."""
    last = audit["deals"][-1] if audit["deals"] else None
    if last is None or last.get("outcome") is None:
        raise RefusedError("next deal: the current deal is not complete", "这一局还没打完",
                           "the current deal is not complete")
    if last.get("game_winner"):
        raise RefusedError("next deal: the game is over", "牌局已经结束，不能再开下一局", "the game is over")
    if not settle_ready(record, len(record["deals"]) - 1):
        raise RefusedError("next deal: the kitty is not recorded", "请先记录底牌（或选择“底牌未知”）",
                           "record the kitty first (or mark it unknown)")
    dealer = int(last["next_dealer"])
    deal: dict[str, Any] = {"level": last["levels_after"][dealer], "trump": trump, "dealer": dealer, "tricks": []}
    previous = record["deals"][-1]
    if previous.get("friends"):
        deal["friends"] = copy.deepcopy(previous["friends"])
    return deal


def refused_response(error: RefusedError) -> tuple[Response, int]:
    return jsonify({"error": str(error), "message": error.words}), 400


# --- penalties the table rules (a violation's consequence) ----------------------------------


def apply_ruling(record: dict[str, Any], deal_index: int, violation: int, *, points: int | None = None,
                 levels: int | None = None) -> dict[str, Any]:
    """The record with a penalty for one of the deal's violations in its ``rulings``: the profile's
    (:func:`scorer.ruling_offers`) when neither ``points`` nor ``levels`` is given, else the
    organiser's own. The audit then counts it in the deal's points and levels."""
    record = copy.deepcopy(record)
    deal_index %= len(record["deals"])
    violations = scorer.audit_record({**record, "deals": record["deals"][:deal_index + 1]})["deals"][deal_index][
        "violations"]
    if not 0 <= violation < len(violations):
        raise RefusedError(f"ruling: deal {deal_index} has no violation {violation}", "没有这条违规",
                           "there is no such violation")
    found = violations[violation]
    if points is None and levels is None:
        offer = scorer.ruling_offers(record, deal_index)[violation]
        if offer is None:
            raise RefusedError("ruling: the rules give this violation no penalty", "规则对这条违规没有规定罚分（可自定罚分）",
                               "the rules give this violation no penalty (set one of your own)")
        ruling = offer
    else:
        ruling = {"seat": found["seat"], "trick": found["trick"], "rule": found["rule"]}
        if levels:
            ruling["levels"] = levels
        elif points:
            ruling["points"] = points
        else:
            raise RefusedError("ruling: a penalty of 0", "罚分要大于 0", "a penalty must be above 0")
    ruling["by"] = "table"
    record["deals"][deal_index].setdefault("rulings", []).append(ruling)
    scorer.validate_record(record)
    return record


def remove_ruling(record: dict[str, Any], deal_index: int, ruling: int) -> dict[str, Any]:
    """The record without one of the deal's rulings (the penalty taken back)."""
    record = copy.deepcopy(record)
    deal_index %= len(record["deals"])
    rulings = record["deals"][deal_index].get("rulings") or []
    if not 0 <= ruling < len(rulings):
        raise RefusedError(f"ruling: deal {deal_index} has no ruling {ruling}", "没有这条罚分", "there is no such penalty")
    rulings.pop(ruling)
    if not rulings:
        record["deals"][deal_index].pop("rulings", None)
    return record


def rulings_view(record: dict[str, Any], audit: dict[str, Any], deal_index: int) -> dict[str, Any] | None:
    """The settlement's violations with the penalty the profile offers for each (None for a deal
    that is not complete): what the page's one-click buttons apply."""
    if not record["deals"] or audit["deals"][deal_index].get("outcome") is None:
        return None
    return {"deal": deal_index, "offers": scorer.ruling_offers(record, deal_index, audit=audit)}
