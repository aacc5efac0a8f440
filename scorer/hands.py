"""复盘: the hands of a deal played with cards, rebuilt from its plays and its kitty.

Every card a seat held after the kitty was exchanged is a card it played, so once a deal is over
its plays are its hands; the dealer also buried the kitty. Each hand is put in the order a
player holds it: the trumps first, highest first (jokers, the level cards, the trump suit), then
the other suits in ♠ ♥ ♣ ♦ order, each highest first.

>>> deal = {"level": "2", "trump": "H", "dealer": 0, "kitty": ["3C", "4C"], "tricks": [
...     {"leader": 0, "plays": [["AS"], ["KS"], ["2C"], ["5S"]]},
...     {"leader": 2, "plays": [["BJ"], ["3H"], ["9D"], ["2H"]]}]}
>>> rebuilt = hands_as_played(deal, 4)
>>> rebuilt.hands
(('AS', '9D'), ('2H', 'KS'), ('BJ', '2C'), ('3H', '5S'))
>>> rebuilt.kitty
('4C', '3C')
>>> hands_as_played(deal | {"tricks": deal["tricks"][:1] + [{"winner": 1, "points": 10}]}, 4) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .cards import format_card, parse_card
from .order import TRUMP, TrumpOrder
from .record_types import is_points_trick
from .seats import seat_of


@dataclass(frozen=True)
class RebuiltHands:
    """Each seat's hand as played (by seat), and the kitty its dealer buried, each in hand order."""

    hands: tuple[tuple[str, ...], ...]
    kitty: tuple[str, ...]
    dealer: int


def hands_as_played(deal: Mapping[str, Any], players: int, twos_trump: bool = False) -> RebuiltHands | None:
    """The deal's hands rebuilt from its plays (:class:`RebuiltHands`), or None when its plays do
    not hold them all: a trick kept by points alone (只记分), a play not seen, a trick not
    complete, or the kitty not known."""
    tricks = deal.get("tricks") or []
    kitty = deal.get("kitty")
    if not tricks or not isinstance(kitty, list) or deal.get("conceded"):
        return None
    held: list[list[int]] = [[] for _ in range(players)]
    for trick in tricks:
        plays = trick.get("plays")
        if is_points_trick(trick) or plays is None or len(plays) != players or trick.get("missing"):
            return None
        for position, play in enumerate(plays):
            held[seat_of(int(trick["leader"]), position, players)].extend(parse_card(card) for card in play)
    order = TrumpOrder.of(str(deal["level"]), deal.get("trump"), twos_trump)

    def in_hand_order(cards: list[int]) -> tuple[str, ...]:
        # trumps first, then ♠ ♥ ♣ ♦; within a suit highest first (equal cards by their printed suit)
        ranked = sorted(cards, key=lambda c: (order.suit[c] != TRUMP, order.suit[c], -order.value[c], c))
        return tuple(format_card(card) for card in ranked)

    return RebuiltHands(tuple(in_hand_order(hand) for hand in held),
                        in_hand_order([parse_card(card) for card in kitty]), int(deal["dealer"]))
