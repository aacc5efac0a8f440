"""Follow legality (RULES §5): the suit obligation and the format obligation.

>>> from tuolaji.scorer.cards import parse_cards
>>> from tuolaji.scorer.order import TrumpOrder
>>> from tuolaji.scorer.profiles import PROFILES
>>> from tuolaji.scorer.formats import Lead
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

from dataclasses import dataclass
from typing import NamedTuple

from .formats import SINGLE, Lead, Unit, counts_of, embeddings, satisfies
from .messages import Message
from .order import SUIT_LABELS, TrumpOrder
from .profiles import Options, Requirement, Shape


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
    if len(play) == k and order.suit[play[0]] == suit and (
            (k == 1 and len(lead.ladder) <= 1) or (lead.ladder[0] == ((k, 1),) and play.count(play[0]) == k)):
        # a single card of the led suit answering a single card, or the led tuple answered by a tuple
        # of the suit: the first rung is met (what the checks below find)
        return None
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


# ---------------------------------------------------------------- obligations without hands

@dataclass(frozen=True)
class Obligation:
    """What a lead obliges every follower, without any hand, as facts (RULES §5); ``str()`` is
    the English of :func:`describe_obligation`, the page words the same facts in its languages.

    ``size``: the cards led; ``suit``: the suit led (None: a mixed lead, any ``size`` cards);
    ``units``: the shapes of the lead's units (several for a throw); ``rungs``: the ladder of
    requirements, the first one owed if held; ``wider``: the tuple widths that count for the first
    rung's tuples (3: a triple, 4: a quad); ``protected``: they may not be carved from a wider tuple.

    >>> Obligation(3).key, str(Obligation(3))
    ('obligation.mixed', 'mixed lead: play any three cards')
    """

    size: int
    suit: int | None = None
    units: tuple[Shape, ...] = ()
    throw: bool = False
    rungs: tuple[Requirement, ...] = ()
    wider: tuple[int, ...] = ()
    protected: bool = False

    @property
    def key(self) -> str:
        """``obligation.mixed``, ``obligation.single`` or ``obligation.ladder``."""
        if self.suit is None:
            return "obligation.mixed"
        return "obligation.single" if self.size == 1 else "obligation.ladder"

    @property
    def label(self) -> str:
        """The suit's label (``♥``, ``trump``); empty for a mixed lead."""
        return "" if self.suit is None else SUIT_LABELS[self.suit]

    @property
    def hold_first(self) -> bool:
        """Whether the first rung is owed only if held (it is not all singles)."""
        return bool(self.rungs) and set(self.rungs[0]) != {SINGLE}

    def message(self) -> Message:
        """The obligation as a message (``obligation.mixed``, ``.single`` or ``.ladder``), worded by the
        catalogues (:data:`scorer.messages.FINDINGS_EN` and the page's) and written by a voice."""
        return Message(self.key, {"size": self.size, "suit": self.suit, "lead": self})

    def __str__(self) -> str:
        return str(self.message())


def obligation_of(lead: Lead, options: Options) -> Obligation:
    """The :class:`Obligation` of ``lead`` under ``options``."""
    k = lead.size
    if lead.mixed or not lead.units:
        return Obligation(k)
    rungs = tuple(lead.ladder)
    wider: tuple[int, ...] = ()
    protected = False
    widths = sorted({w for w, _ in rungs[0] if w > 1}) if rungs else []
    if widths and k > 1:  # what may stand in for the first rung's tuples: wider tuples, unless protected
        w = widths[0]
        if options.protect_longer_tuples:
            protected = w < options.decks
        else:
            wider = tuple(x for x in range(w + 1, options.decks + 1) if x in (3, 4))
    return Obligation(k, lead.suit, tuple(u.shape for u in lead.units), lead.is_throw, rungs, wider, protected)


def describe_obligation(lead: Lead, options: Options) -> str:
    """What a lead obliges every follower, without knowing any hand (RULES §5): the
    ladder in words, for a live table where nobody sees the hands (:func:`obligation_of` as data).

    >>> from tuolaji.scorer.cards import parse_cards
    >>> from tuolaji.scorer.profiles import PROFILES
    >>> opts = PROFILES["titanic-3deck"]
    >>> describe_obligation(Lead.of(TrumpOrder.of("2", "S"), parse_cards(["AH", "AH"]), opts), opts)
    '♥ pair led: play a ♥ pair if you hold one (a triple counts), else two ♥, else all your ♥ and any other cards'
    >>> describe_obligation(Lead.of(TrumpOrder.of("2", "S"), parse_cards(["AS", "AS", "KS"]), opts), opts)
    'trump throw of a pair and a single led: play a trump pair and one other trump if you hold them (a triple counts), else three trumps, else all your trumps and any other cards'
    >>> describe_obligation(Lead.of(TrumpOrder.of("2", "S"), parse_cards(["9D"]), opts), opts)
    '♦ single led: play one ♦ if you hold one, else any card'
    """
    return str(obligation_of(lead, options))
