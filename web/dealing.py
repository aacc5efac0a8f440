"""A deal's set-up on the page: what the bids panel and the settlement offer (routes of blueprint ``api``).

The changes themselves (bids, the deal's settings, the kitty, rulings, the next deal) are the live
game's commands (:class:`session.live.LiveGame`, their rules in :mod:`session.changes`, whose
:class:`RefusedError`, :func:`settle_ready` and :func:`next_deal_setup` are re-exported here).
Every rule comes from the rules core: the live bidding state (:func:`scorer.bidding_state`)
says which bids stand. The settlement waits for the kitty: the next deal starts once the kitty
is recorded, or marked unknown (``"kitty_unknown": true``, a key of the deal the record keeps).

>>> record = {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": list("abcd"),
...           "start_levels": ["2", "5", "2", "5"], "deals": [{"level": "2", "trump": "NT", "dealer": 0, "tricks": []}]}
>>> [" ".join(cards) for cards in bid_offers(record)[1]][:3]  # mid-game: the deal's level, 2
['2S', '2S 2S', '2H']
>>> settle_ready(record, 0), settle_ready({"deals": [{"kitty_unknown": True}]}, 0)
(False, True)
"""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify

from tuolaji import scorer
from tuolaji.scorer.cards import SUITS, parse_cards
from tuolaji.session.changes import RefusedError, next_deal_setup, rules_record, settle_ready

from . import view
from .explain import describe_error, describe_violation

__all__ = ["RefusedError", "bid_offers", "bidding_view", "next_deal_setup", "refused_response", "rulings_view",
           "settle_ready"]


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


def bid_offers(record: dict[str, Any], deal: int = -1, *, run: scorer.AuditRun | None = None) -> list[list[list[str]]]:
    """Per seat, the bids that would stand now (the profile's bid order, the standing bid,
    the cards the decks hold; 炒地皮's three jokers, whose bidder names the trump, are left out).
    ``run``: the record's audit run (the deals before are not audited again)."""
    state = scorer.bidding_state(rules_record(record), deal, earlier=run)
    candidates = _candidate_bids(record, state)
    offers = []
    for seat in range(len(record["players"])):
        standing = []
        for cards in candidates:
            parsed = tuple(parse_cards(cards))
            if state.why_not(seat, parsed) is None and _trump_of(state, seat, parsed) != "any":
                standing.append(cards)
        offers.append(standing)
    return offers


def _trump_of(state: scorer.BiddingState, seat: int, cards: tuple[int, ...]) -> str | None:
    state.push(seat, cards)
    try:
        return state.trump
    finally:
        state.pop()


def bidding_view(record: dict[str, Any], run: scorer.AuditRun | None = None) -> dict[str, Any] | None:
    """What the bids panel shows: the standing bid, what each seat may still bid (``run``: the
    record's audit run, the game's: nothing is audited again)."""
    if not record.get("deals") or record["deals"][-1].get("tricks"):
        return None  # bids end with the first trick
    state = scorer.bidding_state(rules_record(record), -1, earlier=run)
    standing = state.standing
    return {
        "standing": None if standing is None else {"seat": standing.seat,
                                                   "cards": [scorer.format_card(c) for c in standing.cards]},
        "verdicts": list(state.verdicts),
        "offers": bid_offers(record, run=run),
    }


def refused_response(error: RefusedError) -> tuple[Response, int]:
    """The answer to a refused change: 400 with its words, from its key and facts (a refusing
    finding worded for the page after them)."""
    described = describe_error(error, error.players)
    words = {"zh": described["zh"], "en": described["en"]}
    if error.violation is not None:
        found = describe_violation(error.violation, error.players)
        words = {lang: words[lang] + found[lang] for lang in ("zh", "en")}
    return jsonify({"error": str(error), "message": words}), 400


# --- penalties the table rules (a violation's consequence) ----------------------------------


def rulings_view(record: dict[str, Any], audit: dict[str, Any], deal_index: int, *,
                 run: scorer.AuditRun | None = None) -> dict[str, Any] | None:
    """The settlement's violations with the penalty the profile offers for each (None for a deal
    that is not complete): what the page's one-click buttons apply (``run``: the audit's run, so
    that only the deal is audited again under the profile's scale, :func:`scorer.ruling_offers`)."""
    if not record["deals"] or audit["deals"][deal_index].get("outcome") is None:
        return None
    return {"deal": deal_index, "offers": scorer.ruling_offers(rules_record(record), deal_index, audit=audit, run=run)}
