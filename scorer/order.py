"""Trump order: effective suits and dense order values for one deal.

For a level, a trump suit (or no-trump) and ``twos_trump``, every card kind gets an
**effective suit** (0–3 its printed suit, :data:`TRUMP` for trumps) and an **order
value**: a dense rank inside its effective suit where equal cards share a value and
adjacent cards (for tractors) differ by exactly 1. Everything else in the engine works
on these two precomputed tables.

>>> order = TrumpOrder.of("4", "H")
>>> from tuolaji.scorer.cards import parse_card as c
>>> order.suit[c("4C")] == TRUMP, order.value[c("4C")] == order.value[c("4S")]
(True, True)
>>> order.value[c("4H")] - order.value[c("4C")], order.value[c("4C")] - order.value[c("AH")]
(1, 1)
>>> order.value[c("5S")] - order.value[c("3S")]
1
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .cards import BIG_JOKER, RANKS, SMALL_JOKER, SUITS, CardError, rank_index

TRUMP = 4
SUIT_LABELS = ("♠", "♥", "♣", "♦", "trump")


@dataclass(frozen=True, eq=False)
class TrumpOrder:
    """Precomputed per-card tables for one (level, trump, twos_trump).

    ``suit[c]``: effective suit of card kind ``c``; ``value[c]``: order value;
    ``members[s]``: the card kinds of effective suit ``s``, ascending by value.
    """

    level: int
    trump: int | None  # suit index, None for no-trump
    twos_trump: bool
    suit: tuple[int, ...]
    value: tuple[int, ...]
    members: tuple[tuple[int, ...], ...]

    @staticmethod
    def of(level: str | int, trump: str | None, twos_trump: bool = False) -> TrumpOrder:
        """Order for a level rank (``"10"`` or index) and trump (``"S"``… or ``"NT"``/None)."""
        lvl = level if isinstance(level, int) else rank_index(level)
        if trump is None or trump == "NT":
            t = None
        elif isinstance(trump, int):
            t = trump
        elif trump in SUITS:
            t = SUITS.index(trump)
        else:
            raise CardError("card.trump", text=trump)
        return _build(lvl, t, bool(twos_trump))

    def is_trump(self, card: int) -> bool:
        return self.suit[card] == TRUMP

    def successor(self, card: int) -> tuple[int, ...]:
        """The card kinds right above ``card`` in its effective suit (its tractor
        neighbours upwards); several for the off-suit level cards, none for the top.

        >>> o = TrumpOrder.of("4", "H")
        >>> from tuolaji.scorer.cards import parse_card as c, format_cards
        >>> format_cards(o.successor(c("AH"))), format_cards(o.successor(c("4C"))), o.successor(c("BJ"))
        (['4S', '4C', '4D'], ['4H'], ())
        >>> format_cards(o.successor(c("3S")))
        ['5S']
        """
        s, v = self.suit[card], self.value[card]
        return tuple(c for c in self.members[s] if self.value[c] == v + 1)

    def is_adjacent(self, low: int, high: int) -> bool:
        """Whether ``high`` is directly above ``low`` (same effective suit, next value).

        >>> from tuolaji.scorer.cards import parse_card as c
        >>> o = TrumpOrder.of("4", "NT")
        >>> o.is_adjacent(c("4C"), c("SJ")), o.is_adjacent(c("4C"), c("BJ")), o.is_adjacent(c("4C"), c("4S"))
        (True, False, False)
        """
        return self.suit[low] == self.suit[high] and self.value[high] == self.value[low] + 1

    @property
    def level_name(self) -> str:
        return RANKS[self.level]

    @property
    def trump_name(self) -> str:
        return "NT" if self.trump is None else SUITS[self.trump]


@lru_cache(maxsize=256)
def _build(level: int, trump: int | None, twos: bool) -> TrumpOrder:
    twos = twos and level != 0  # at level 2 the 2s are level cards anyway
    suit = [0] * 54
    value = [0] * 54
    for s in range(4):
        v = 0
        for r in range(13):
            card = s * 13 + r
            if r == level or (twos and r == 0) or s == trump:
                suit[card] = TRUMP
                continue
            suit[card] = s
            value[card] = v
            v += 1
    # Trump ladder, low to high.
    v = 0
    if trump is not None:
        for r in range(13):
            if r == level or (twos and r == 0):
                continue
            value[trump * 13 + r] = v
            v += 1
    if twos:
        for s in range(4):
            if s != trump:
                value[s * 13] = v
        v += 1
        if trump is not None:
            value[trump * 13] = v
            v += 1
    for s in range(4):
        if s != trump:
            value[s * 13 + level] = v
    v += 1
    if trump is not None:
        value[trump * 13 + level] = v
        v += 1
    suit[SMALL_JOKER] = suit[BIG_JOKER] = TRUMP
    value[SMALL_JOKER] = v
    value[BIG_JOKER] = v + 1
    members = tuple(
        tuple(sorted((c for c in range(54) if suit[c] == s), key=lambda c: (value[c], c))) for s in range(5)
    )
    return TrumpOrder(level, trump, twos, tuple(suit), tuple(value), members)
