"""Bidding validation (亮主 / 反主, RULES §9).

A bid shows level cards of one suit or jokers. Each profile's ``bid_order`` ranks bids:

- ``two-deck`` (seed 004, 2 decks): one level card < a pair < a small-joker pair
  (no-trump) < a big-joker pair (no-trump); 自保 and 自反 are a bidder overcalling his
  own bid (``self_overcall``), first come first served.
- ``titanic`` (seed 004, 3 decks; also 4 decks): one level card < two < two jokers
  (no-trump) < three level cards < three jokers (no-trump) < four level cards < four jokers.
- ``count`` (seed 001): two over one, three over two (level cards only). With
  ``reinforce`` (seed 001 保放, "先放一张的再补放一张可保住") a bidder who was overcalled
  and shows more of his own suit keeps the bid on a tie.
- ``chaodipi`` (seed 001 炒地皮): equal-size bids ranked ♠ > ♥ > ♣ > ♦; a pair over any
  single; a joker pair (big over small) over any pair (no-trump); three jokers over
  that, the bidder names any trump; bids may follow the kitty (``after_kitty``); nobody
  overcalls himself.

>>> from scorer.cards import parse_cards
>>> bid_strength("titanic", parse_cards(["SJ", "BJ"]), 8)
(3, 'NT')
>>> bid_strength("chaodipi", parse_cards(["10S", "10S"]), 8)
(2, 3, 'S')
"""

from __future__ import annotations

from typing import Any

from scorer.cards import BIG_JOKER, SMALL_JOKER, SUITS, pretty_card
from scorer.profiles import Options

SUIT_RANK_CHAODIPI = {"S": 3, "H": 2, "C": 1, "D": 0}


def bid_strength(order: str, cards: list[int], level: int) -> tuple | None:
    """``(strength..., trump)`` of a bid under a bid order; None if not a valid bid.

    ``trump`` is a suit letter, ``"NT"``, or ``"any"`` (炒地皮 three jokers).
    """
    m = len(cards)
    jokers = all(c >= 52 for c in cards)
    suits = {c // 13 for c in cards if c < 52}
    if not jokers and (any(c >= 52 or c % 13 != level for c in cards) or len(set(cards)) != 1):
        return None
    suit = SUITS[next(iter(suits))] if not jokers else None
    if order == "two-deck":
        if not jokers:
            return (m, suit) if m <= 2 else None
        if m == 2:
            if cards[0] == cards[1]:
                return (3 + (cards[0] == BIG_JOKER), "NT")
            return (3, "NT")
        return None
    if order == "titanic":
        if not jokers:
            return ((1 if m == 1 else 2 * m - 2), suit)
        return (2 * m - 1, "NT") if m >= 2 else None
    if order == "count":
        return None if jokers else (m, suit)
    if order == "chaodipi":
        if not jokers:
            return (m, SUIT_RANK_CHAODIPI[suit], suit) if m <= 2 else None
        if m == 2 and cards[0] == cards[1]:
            return (3, int(cards[0] == BIG_JOKER), "NT")
        if m >= 3:
            return (m + 1, 0, "any")
        return None
    raise ValueError(order)


def check_bids(options: Options, bids: list[dict[str, Any]], level: int, trump: str, dealer: int,
               first_deal: bool) -> list[dict[str, Any]]:
    """Every bidding violation: ``{"seat", "rule": "bad-bid", "detail"}``.

    >>> from scorer.profiles import PROFILES
    >>> from scorer.cards import parse_cards
    >>> bids = [{"seat": 1, "cards": parse_cards(["10H"])}, {"seat": 2, "cards": parse_cards(["10S"])}]
    >>> [v["seat"] for v in check_bids(PROFILES["standard-2deck"], bids, 8, "H", 1, True)]
    [2]
    """
    out: list[dict[str, Any]] = []
    order = options.bid_order
    best: tuple | None = None
    best_seat: int | None = None
    first_seat: int | None = None
    shown: dict[tuple[int, str], int] = {}  # (seat, suit) -> most level cards shown

    def bad(seat: int, detail: str) -> None:
        out.append({"seat": seat, "rule": "bad-bid", "detail": detail})

    for i, bid in enumerate(bids):
        seat, cards = bid["seat"], bid["cards"]
        names = " ".join(pretty_card(c) for c in cards)
        if bid.get("after_kitty") and not options.rebid_after_kitty:
            bad(seat, f"bid {i} ({names}) after the kitty: these rules have no 炒地皮")
            continue
        s = bid_strength(order, cards, level)
        if s is None:
            bad(seat, f"bid {i} ({names}) is not a bid under the {order} bid order")
            continue
        key = s[:-1]
        suit = s[-1]
        if best is not None:
            reinforcing = (
                options.reinforce and suit in SUITS and best_seat == seat
                and shown.get((seat, suit), 0) < len(cards)
            ) or (
                options.reinforce and suit in SUITS and best_seat != seat and key == best[:-1]
                and 0 < shown.get((seat, suit), 0) < len(cards)
            )
            if best_seat == seat and not options.self_overcall and not reinforcing:
                bad(seat, f"bid {i} ({names}): seat {seat} overcalls his own bid")
                continue
            if not (key > best[:-1] or (reinforcing and key >= best[:-1])):
                bad(seat, f"bid {i} ({names}) does not overcall the standing bid")
                continue
        if suit in SUITS:
            shown[(seat, suit)] = max(shown.get((seat, suit), 0), len(cards))
        if first_seat is None:
            first_seat = seat
        best, best_seat = s, seat
    if best is None:
        if order == "two-deck" and not bids and trump != "NT":
            bad(dealer, f"no bid: the deal is played in no-trump, not {trump}")
        return out
    want = best[-1]
    if want != "any" and want != trump:
        bad(best_seat, f"the winning bid makes {want} trump, the deal says {trump}")
    if first_deal:
        expected = first_seat if options.first_dealer == "first-bidder" else best_seat
        if expected is not None and expected != dealer:
            bad(dealer, f"first dealer should be seat {expected} ({options.first_dealer}), not seat {dealer}")
    return out


__all__ = ["bid_strength", "check_bids", "SMALL_JOKER", "BIG_JOKER"]
