"""The card tracker (记牌器): what a deal's plays have shown, counted by the rules core.

From a record, for one deal and as far as its plays go: how many of each card are
still out (not yet played: in the hands or the kitty), the key cards (the jokers, the
level cards, the A and K of each suit), the trumps and points left, and each seat's
void suits, proven from his plays: a follower who plays a card of another effective
suit than the lead's has none of the lead's suit left (the audit says when a later
play shows he still had one: the void is then marked contradicted).

>>> from tuolaji import scorer
>>> record = {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": ["a", "b", "c", "d"],
...           "deals": [{"level": "2", "trump": "S", "dealer": 0,
...                      "tricks": [{"leader": 0, "plays": [["AH"], ["3H"], ["4C"], ["BJ"]]}]}]}
>>> tracked = track(record)
>>> tracked["trumps"], tracked["points"]
({'left': 35, 'total': 36}, {'left': 200, 'total': 200})
>>> [(v["seat"], v["suit"]) for v in tracked["voids"]]
[(2, 'H'), (3, 'H')]
>>> next(k for k in tracked["key_cards"] if k["card"] == "BJ")
{'card': 'BJ', 'left': 1, 'total': 2, 'trump': True}
"""

from __future__ import annotations

from typing import Any

from .cards import CARD_NAMES, CARD_POINTS, NUM_KINDS, RANKS, SUITS
from .order import TRUMP
from .record import ParsedDeal, ParsedRecord, parse_record
from .record_types import Record
from .seats import seat_of

SUIT_KEYS: tuple[str, ...] = (*SUITS, "trump")
"""Names of the effective suits, by :class:`~scorer.order.TrumpOrder` suit index (4: the trumps)."""


def key_card_kinds(level: int) -> list[int]:
    """The cards a tracker shows one by one: 大王, 小王, the level card of each suit, the A and K of
    each suit (a level of A or K is listed once, as a level card).

    >>> [CARD_NAMES[c] for c in key_card_kinds(RANKS.index("K"))][:7]
    ['BJ', 'SJ', 'KS', 'KH', 'KC', 'KD', 'AS']
    """
    kinds = [NUM_KINDS - 1, NUM_KINDS - 2]
    kinds += [suit * 13 + level for suit in range(4)]
    for rank in (RANKS.index("A"), RANKS.index("K")):
        if rank != level:
            kinds += [suit * 13 + rank for suit in range(4)]
    return kinds


def track(record: Record, deal: int = -1, *, plays: int | None = None) -> dict[str, Any]:
    """The tracker of ``deal`` (default: the last) after its first ``plays`` plays (default: all)."""
    parsed = parse_record(record)
    if not parsed.deals:
        raise ValueError("track: the record has no deal")
    index = deal if deal >= 0 else len(parsed.deals) + deal
    return track_parsed(parsed, index, plays=plays)


def track_parsed(parsed: ParsedRecord, deal_index: int, *, plays: int | None = None) -> dict[str, Any]:
    from .order import TrumpOrder

    deal: ParsedDeal = parsed.deals[deal_index]
    options = parsed.options
    order = TrumpOrder.of(deal.level, deal.trump, options.twos_trump)
    n = parsed.players
    played = [0] * NUM_KINDS
    voids: dict[tuple[int, int], dict[str, Any]] = {}
    counted = 0
    for trick_index, trick in enumerate(deal.tricks):
        lead_suit: int | None = None
        for position, cards in enumerate(trick.plays):
            if plays is not None and counted >= plays:
                break
            counted += 1
            seat = seat_of(trick.leader, position, n)
            for card in cards:
                played[card] += 1
                shown = voids.get((seat, order.suit[card]))
                if shown is not None and shown["contradicted"] is None:
                    shown["contradicted"] = trick_index  # he had one after all (a revoke, see the audit)
            if position == 0:
                lead_suit = order.suit[cards[0]] if cards else None
            elif lead_suit is not None and any(order.suit[card] != lead_suit for card in cards):
                voids.setdefault((seat, lead_suit), {"seat": seat, "suit": SUIT_KEYS[lead_suit],
                                                     "trick": trick_index, "contradicted": None})
        else:
            continue
        break
    total = options.decks
    left = [max(0, total - count) for count in played]
    trumps = [c for c in range(NUM_KINDS) if order.suit[c] == TRUMP]
    suits = {SUIT_KEYS[s]: {"left": sum(left[c] for c in order.members[s]),
                            "total": total * len(order.members[s])} for s in range(5)}
    return {
        "deal": deal_index,
        "plays": counted,
        "decks": total,
        "level": RANKS[deal.level],
        "trump": deal.trump,
        "left": {CARD_NAMES[c]: left[c] for c in range(NUM_KINDS)},
        "key_cards": [{"card": CARD_NAMES[c], "left": left[c], "total": total, "trump": order.suit[c] == TRUMP}
                      for c in key_card_kinds(deal.level)],
        "trumps": {"left": sum(left[c] for c in trumps), "total": total * len(trumps)},
        "points": {"left": sum(CARD_POINTS[c] * left[c] for c in range(NUM_KINDS)),
                   "total": total * sum(CARD_POINTS)},
        "suits": suits,
        "voids": sorted(voids.values(), key=lambda v: (v["seat"], SUIT_KEYS.index(v["suit"]))),
    }
