"""Follow legality (RULES §5): the suit obligation and the format obligation.

>>> from scorer.cards import parse_cards
>>> from scorer.order import TrumpOrder
>>> from scorer.profiles import PROFILES
>>> from scorer.formats import Lead
>>> opts = PROFILES["standard-2deck"]
>>> order = TrumpOrder.of("2", "S")
>>> lead = Lead.of(order, parse_cards(["AH", "AH"]), opts)
>>> hand = hand_counts(parse_cards(["3H", "3H", "5H", "9D"]))
>>> check_follow(order, lead, hand, parse_cards(["3H", "5H"]), opts).rule
'must-follow-format'
>>> check_follow(order, lead, hand, parse_cards(["3H", "3H"]), opts) is None
True
"""

from __future__ import annotations

from typing import NamedTuple

from scorer.formats import Lead, Unit, counts_of, embeddings, satisfies
from scorer.order import TrumpOrder
from scorer.profiles import Options, Requirement


class FollowFault(NamedTuple):
    """Why a follow is illegal: rule code, the cards of the suit the hand held but did
    not play (``missing``) and, for the format, the requirement and units it could make."""

    rule: str
    missing: list[int]
    requirement: Requirement | None
    units: list[Unit]


def hand_counts(cards: list[int]) -> list[int]:
    """A hand as 54 counts (one per card kind).

    >>> hand_counts([0, 0, 53])[0], hand_counts([0, 0, 53])[53]
    (2, 1)
    """
    out = [0] * 54
    for c in cards:
        out[c] += 1
    return out


def suit_holding(order: TrumpOrder, hand: list[int], suit: int) -> dict[int, int]:
    """The cards of one effective suit in a 54-count hand."""
    return {c: hand[c] for c in order.members[suit] if hand[c] > 0}


def check_follow(order: TrumpOrder, lead: Lead, hand: list[int], play: list[int], options: Options,
                 holding: dict[int, int] | None = None) -> FollowFault | None:
    """Check one follow against the hand it came from (``hand`` includes ``play``).

    Returns None when legal. Card count and availability are checked by the caller.
    """
    k = lead.size
    suit = lead.suit
    if holding is None:
        holding = suit_holding(order, hand, suit)
    held = sum(holding.values())
    esuit = order.suit
    in_suit = [c for c in play if esuit[c] == suit]
    if len(in_suit) < min(k, held):
        rest = dict(holding)
        for c in in_suit:
            rest[c] = rest.get(c, 0) - 1
        missing = [c for c, n in rest.items() for _ in range(n) if n > 0]
        return FollowFault("must-follow-suit", missing, None, [])
    if held <= k or len(lead.ladder) <= 1:
        return None
    ladder = lead.ladder
    value = order.value
    play_holding = counts_of(in_suit)
    played_rung = len(ladder) - 1
    for i, req in enumerate(ladder):
        if satisfies(req, play_holding, value):
            played_rung = i
            break
    if played_rung == 0:
        return None
    protect = options.protect_longer_tuples
    for i in range(played_rung):
        for units in embeddings(ladder[i], holding, value, protect):
            return FollowFault("must-follow-format", [], ladder[i], units)
    return None


def required_rung(order: TrumpOrder, lead: Lead, holding: dict[int, int], options: Options) -> int:
    """Index of the first rung of the lead's ladder the holding can satisfy."""
    for i, req in enumerate(lead.ladder):
        if satisfies(req, holding, order.value, options.protect_longer_tuples):
            return i
    return len(lead.ladder) - 1
