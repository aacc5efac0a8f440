"""Short game records for the page's tests: a deal with one revoke, and a correction that moves the score.

>>> record, (trick, seat) = revoke_record()
>>> any(v["rule"] == "must-follow-suit" and v["trick"] == trick and v["seat"] == seat
...     for v in scorer.audit_record(record)["deals"][0]["violations"])
True
"""

from __future__ import annotations

import copy
from typing import Any

from tuolaji import scorer

POINTS = {"5": 5, "10": 10, "K": 10}


def _rank(card: str) -> str:
    return card[:-1]


def revoke_record(profile: str = "standard-2deck", *, hand_size: int = 6, seed_from: int = 0
                  ) -> tuple[dict[str, Any], tuple[int, int]]:
    """A complete short random deal in which one seat fails to follow suit (proven once the deal is played).

    The revoke is made by swapping two single-card plays of one seat: in trick t it plays a
    card of another suit while holding the led suit's card that it plays later. The deal
    also has a trick won by the defenders with a point card that :func:`point_correction`
    can change. Returns the record and (trick, seat) of the revoke.
    """
    for seed in range(seed_from, seed_from + 400):
        record = scorer.random_record(profile, seed, hand_size=hand_size)
        deal = record["deals"][0]
        players = len(record["players"])
        tricks = deal["tricks"]
        for t, trick in enumerate(tricks[:-1]):
            for position in range(1, players):
                seat = (trick["leader"] + position) % players
                for u in range(t + 1, len(tricks)):
                    later = tricks[u]
                    later_position = (seat - later["leader"]) % players
                    if len(trick["plays"][position]) != 1 or len(later["plays"][later_position]) != 1:
                        continue
                    candidate = copy.deepcopy(record)
                    plays_t = candidate["deals"][0]["tricks"][t]["plays"]
                    plays_u = candidate["deals"][0]["tricks"][u]["plays"]
                    plays_t[position], plays_u[later_position] = plays_u[later_position], plays_t[position]
                    audit = scorer.audit_record(candidate)["deals"][0]
                    rules = {(v["trick"], v["seat"], v["rule"]) for v in audit["violations"]}
                    if (t, seat, "must-follow-suit") in rules and len(audit["violations"]) == 1 \
                            and point_correction(candidate) is not None and audit["outcome"] is not None:
                        return candidate, (t, seat)
    raise AssertionError("no seed gives a record with a single revoke")


def point_correction(record: dict[str, Any]) -> dict[str, Any] | None:
    """A one-card correction that changes the defenders' points: a point card the defenders won,
    not the winning card, replaced by a low card of the same suit. None if the deal has none."""
    audit = scorer.audit_record(record)["deals"][0]
    deal = record["deals"][0]
    players = len(record["players"])
    dealer_side = {deal["dealer"], (deal["dealer"] + 2) % players} if players == 4 else {deal["dealer"]}
    level = deal["level"]
    for t, trick_audit in enumerate(audit["tricks"]):
        winner = trick_audit.get("winner")
        if winner is None or winner in dealer_side or not trick_audit.get("points"):
            continue
        trick = deal["tricks"][t]
        for position, cards in enumerate(trick["plays"]):
            seat = (trick["leader"] + position) % players
            if seat == winner or len(cards) != 1 or cards[0] in ("SJ", "BJ") or _rank(cards[0]) not in POINTS:
                continue
            suit = cards[0][-1]
            low = next(rank for rank in ("3", "4", "6") if rank != level)
            return {"deal": 0, "trick": t, "seat": seat, "index": 0, "old": cards[0], "new": low + suit,
                    "points": POINTS[_rank(cards[0])]}
    return None


def played_deal_record(profile: str = "standard-2deck", *, hand_size: int = 6, players: int | None = None,
                       changed_level: bool = True, friends: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A record whose first deal is complete (kitty included); with ``changed_level`` the next
    dealer's level after it is not his starting level (the case where a stale form would be wrong)."""
    for seed in range(400):
        record = scorer.random_record(profile, seed, hand_size=hand_size, players=players)
        if friends is not None:
            record["deals"][0]["friends"] = copy.deepcopy(friends)
        audit = scorer.audit_record(record)["deals"][0]
        if audit["outcome"] is None or audit["game_winner"] or audit["violations"]:
            continue
        dealer = audit["next_dealer"]
        start = record.get("start_levels") or ["2"] * len(record["players"])
        if changed_level and audit["levels_after"][dealer] == start[dealer]:
            continue
        return record
    raise AssertionError("no seed gives a complete deal that changes the next dealer's level")


def with_next_deal(record: dict[str, Any], trump: str = "NT") -> dict[str, Any]:
    """The record with its next deal set up as the audit says (dealer, his level), no plays yet."""
    record = copy.deepcopy(record)
    audit = scorer.audit_record(record)["deals"][-1]
    dealer = audit["next_dealer"]
    record["deals"].append({"level": audit["levels_after"][dealer], "trump": trump, "dealer": dealer, "tricks": []})
    return record


def whole_deal_record(seed_from: int = 0) -> tuple[dict[str, Any], int, tuple[int, int]]:
    """A whole 2-deck deal at level 2 (every card played), without hands, as a table enters it by
    hand: the dealer's bid (one level card he shows), a failed throw (``attempt``, the forced unit
    played), one proven revoke (the deal's only violation), and the defenders win the last trick (抠底). Returns the record, the failed
    throw's trick and (trick, seat) of the revoke."""
    for seed in range(seed_from, seed_from + 400):
        trump = "SHCD"[seed % 4]
        record = scorer.random_record("standard-2deck", seed, attempt_chance=0.25, level="2", trump=trump, players=4)
        deal = record["deals"][0]
        deal.pop("hands", None)
        dealer = deal["dealer"]
        tricks = deal["tricks"]
        throws = [t for t, trick in enumerate(tricks) if trick.get("attempt")]
        shown = sum(cards.count("2" + trump) for trick in tricks
                    for position, cards in enumerate(trick["plays"]) if (trick["leader"] + position) % 4 == dealer)
        if len(throws) != 1 or shown + deal["kitty"].count("2" + trump) < 1:
            continue
        deal["bids"] = [{"seat": dealer, "cards": ["2" + trump]}]
        if scorer.audit_record(record)["deals"][0]["violations"]:
            continue
        found = _with_revoke(record, avoid=throws[0])
        if found is not None:
            return found[0], throws[0], found[1]
    raise AssertionError("no seed gives a whole deal with one failed throw and a revoke")


def _with_revoke(record: dict[str, Any], avoid: int) -> tuple[dict[str, Any], tuple[int, int]] | None:
    tricks = record["deals"][0]["tricks"]
    for t, trick in enumerate(tricks[:-1]):
        if t == avoid:
            continue
        for position in range(1, 4):
            seat = (trick["leader"] + position) % 4
            for u in range(t + 1, len(tricks)):
                if u == avoid:
                    continue
                later_position = (seat - tricks[u]["leader"]) % 4
                if len(trick["plays"][position]) != 1 or len(tricks[u]["plays"][later_position]) != 1:
                    continue
                candidate = copy.deepcopy(record)
                plays_t = candidate["deals"][0]["tricks"][t]["plays"]
                plays_u = candidate["deals"][0]["tricks"][u]["plays"]
                plays_t[position], plays_u[later_position] = plays_u[later_position], plays_t[position]
                audit = scorer.audit_record(candidate)["deals"][0]
                rules = [(v["trick"], v["seat"], v["rule"], v["proven"]) for v in audit["violations"]]
                if rules == [(t, seat, "must-follow-suit", True)] and audit["outcome"] is not None \
                        and not audit["game_winner"] and audit["kitty_won_by"] == "defenders":
                    return candidate, (t, seat)
    return None
