"""The audit's findings as data: what each violation and penalty is made of.

A :class:`Violation` is the rule code, the trick (None for the deal-level checks), the seat
at fault, whether it is proven, and a *fact*: one small frozen record per kind of finding
holding the cards, units, seats, numbers and evidence the finding is about. The words are
rendered from the fact, never parsed back from them: each fact is a message
(:meth:`Fact.message`, a key of :data:`scorer.messages.FINDINGS_EN` and the fact's fields), written
by one renderer in the record's English (docs/RECORD.md's ``detail``) and, through the page's
catalogue, in Chinese and the page's English (``web/explain.py``).

Cards are card kinds (``0..53``, :mod:`scorer.cards`), units the cards of one unit
(``(c, c)`` for a pair), tricks and deals 0-based, ranks indices into ``RANKS``, suits
indices into ``SUIT_LABELS`` (``4`` is trump) and trumps the record's letters
(``S H C D NT``).

>>> from tuolaji.scorer.cards import parse_cards
>>> fact = Revoke(suit=0, seat=1, played=tuple(parse_cards(["7D"])), held=tuple(parse_cards(["9S"])),
...               evidence=Evidence(trick=3, played=(10,)))
>>> Violation("must-follow-suit", 3, 1, True, fact).fact.sentence
'revoke'
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import ClassVar, Literal

from .messages import Message

Cards = tuple[int, ...]
"""Card kinds, in the order the sentence names them."""

Shapes = tuple[tuple[int, int], ...]
"""A follow requirement: (width, length) shapes (:data:`scorer.profiles.Requirement`)."""


@dataclass(frozen=True)
class Evidence:
    """Where cards a seat held at ``trick`` show up: the tricks it played them in (``trick``
    itself for a play of this trick), the trick whose attempt showed them, and the recorded
    hand (also when nothing else shows them)."""

    trick: int
    played: tuple[int, ...] = ()
    attempt: int | None = None
    hand: bool = False


@dataclass(frozen=True)
class Beaten:
    """A unit of a throw that another seat could beat, the unit that beats it, and where
    that seat's cards show up."""

    unit: Cards
    seat: int
    by: Cards
    evidence: Evidence


@dataclass(frozen=True)
class Fact:
    """What one finding is about; ``sentence`` names the words it is rendered in: the message
    ``fact.SENTENCE`` of the catalogues, its fields the parameters."""

    sentence: ClassVar[str] = ""

    def message(self) -> Message:
        """The finding as a message (:mod:`scorer.messages`): ``str()`` of it is docs/RECORD.md's ``detail``."""
        return Message(f"fact.{self.sentence}", {f.name: getattr(self, f.name) for f in fields(self)})


# --- bids (bad-bid): ``bid`` is the bid's index in the deal's bids, ``cards`` what it shows ----


@dataclass(frozen=True)
class BidAfterKitty(Fact):
    sentence: ClassVar[str] = "bid_after_kitty"
    bid: int
    cards: Cards


@dataclass(frozen=True)
class BidNotABid(Fact):
    sentence: ClassVar[str] = "bid_not_a_bid"
    bid: int
    cards: Cards
    bid_order: str


@dataclass(frozen=True)
class BidSelfOvercall(Fact):
    sentence: ClassVar[str] = "bid_self_overcall"
    bid: int
    cards: Cards
    seat: int


@dataclass(frozen=True)
class BidTooLow(Fact):
    sentence: ClassVar[str] = "bid_too_low"
    bid: int
    cards: Cards


@dataclass(frozen=True)
class BidLosingSide(Fact):
    """找朋友 after the first deal: only the side that won the last deal (``winners``) bids."""

    sentence: ClassVar[str] = "bid_losing_side"
    bid: int
    cards: Cards
    seat: int
    winners: tuple[int, ...]


@dataclass(frozen=True)
class BidTooManyCopies(Fact):
    sentence: ClassVar[str] = "bid_too_many_copies"
    bid: int
    cards: Cards
    card: int
    copies: int
    decks: int


@dataclass(frozen=True)
class BidNoWinnerLevel(Fact):
    sentence: ClassVar[str] = "bid_no_winner_level"
    bid: int
    cards: Cards


@dataclass(frozen=True)
class BidNotHeld(Fact):
    """A bid shows more copies of ``card`` than the bidder holds: ``held`` by the recorded
    hand or his plays (``source``), with the kitty where he took it up."""

    sentence: ClassVar[str] = "bid_not_held"
    bid: int
    cards: Cards
    card: int
    copies: int
    seat: int
    held: int
    source: Literal["hand", "plays"]
    kitty: bool


@dataclass(frozen=True)
class NoBid(Fact):
    sentence: ClassVar[str] = "bid_none"
    trump: str


@dataclass(frozen=True)
class WrongTrump(Fact):
    sentence: ClassVar[str] = "bid_wrong_trump"
    want: str
    trump: str


@dataclass(frozen=True)
class WrongFirstDealer(Fact):
    """The first deal's dealer is the first or the winning bidder (``how``: ``first_dealer``)."""

    sentence: ClassVar[str] = "bid_first_dealer"
    want: int
    how: str
    seat: int


@dataclass(frozen=True)
class WrongFriendsDealer(Fact):
    """找朋友: the winning bid shows ``want``'s level, so ``want`` deals."""

    sentence: ClassVar[str] = "bid_wrong_friends_dealer"
    want: int
    seat: int


# --- the dealer (wrong-dealer) ---------------------------------------------------------------


@dataclass(frozen=True)
class DealerRotation(Fact):
    sentence: ClassVar[str] = "dealer_rotation"
    seat: int
    deal: int
    want: int
    after: int


@dataclass(frozen=True)
class DealerNotWinner(Fact):
    """找朋友: the dealer comes from the side that won deal ``after`` (``winners``)."""

    sentence: ClassVar[str] = "dealer_not_winner"
    seat: int
    deal: int
    after: int
    winners: tuple[int, ...]


@dataclass(frozen=True)
class DealerWrongLevel(Fact):
    sentence: ClassVar[str] = "dealer_wrong_level"
    deal: int
    level: int
    seat: int
    own: int


# --- friend calls, the kitty ------------------------------------------------------------------


@dataclass(frozen=True)
class FriendCallTrump(Fact):
    sentence: ClassVar[str] = "friend_call_trump"
    call: int
    card: int


@dataclass(frozen=True)
class FriendCallCopy(Fact):
    sentence: ClassVar[str] = "friend_call_copy"
    call: int
    card: int
    nth: int
    decks: int


@dataclass(frozen=True)
class KittySize(Fact):
    sentence: ClassVar[str] = "kitty_size"
    size: int
    buried: int


# --- points only (只记分, bad-points) ---------------------------------------------------------------


@dataclass(frozen=True)
class PointsNotFive(Fact):
    """Points that are no multiple of 5 (``what``: ``trick``, ``defenders`` (the deal's
    ``defender_points``) or ``kitty`` (its ``kitty_points``))."""

    sentence: ClassVar[str] = "points_not_five"
    what: Literal["trick", "defenders", "kitty"]
    points: int


@dataclass(frozen=True)
class PointsTooMany(Fact):
    """More points than the decks hold (100 a deck): in one trick (``what``: ``trick``), or in
    the deal's tricks and kitty together (``deal``)."""

    sentence: ClassVar[str] = "points_too_many"
    what: Literal["trick", "deal"]
    points: int
    decks: int


@dataclass(frozen=True)
class UnitImpossible(Fact):
    """A last trick won by a unit of ``unit`` cards, which no unit of these decks has (a tuple
    holds at most ``decks`` copies, a tractor at least two tuples of two or more)."""

    sentence: ClassVar[str] = "unit_impossible"
    unit: int
    decks: int


@dataclass(frozen=True)
class UnitMissing(Fact):
    """The last trick, recorded by points, names no winning unit: the kitty the defenders won
    is scored as won by a single."""

    sentence: ClassVar[str] = "unit_missing"
    multiplier: int


@dataclass(frozen=True)
class KittyPointsMismatch(Fact):
    """The deal's ``kitty_points`` against the points of its recorded ``kitty`` cards."""

    sentence: ClassVar[str] = "kitty_points_mismatch"
    points: int
    cards: int


# --- leads and plays ----------------------------------------------------------------------------


@dataclass(frozen=True)
class LeaderNotDealer(Fact):
    sentence: ClassVar[str] = "leader_first"
    seat: int


@dataclass(frozen=True)
class LeaderNotWinner(Fact):
    sentence: ClassVar[str] = "leader_not_winner"
    seat: int
    winner: int
    won: int


@dataclass(frozen=True)
class CardTooMany(Fact):
    """More copies of ``card`` played (and buried in the kitty) than ``decks`` hold."""

    sentence: ClassVar[str] = "card_too_many"
    card: int
    played: int
    kitty: int
    decks: int


@dataclass(frozen=True)
class CardNotInHand(Fact):
    sentence: ClassVar[str] = "card_not_in_hand"
    seat: int
    card: int


@dataclass(frozen=True)
class AttemptCardNotHeld(Fact):
    """A card of an attempt the seat did not hold: not in the recorded hand (``recorded``),
    or (a complete deal without hands) never played."""

    sentence: ClassVar[str] = "card_attempt_not_in_hand"
    seat: int
    card: int
    recorded: bool


@dataclass(frozen=True)
class EmptyLead(Fact):
    sentence: ClassVar[str] = "count_empty_lead"
    seat: int


@dataclass(frozen=True)
class CountFollow(Fact):
    sentence: ClassVar[str] = "count_follow"
    seat: int
    played: int
    led: int


@dataclass(frozen=True)
class MixedLead(Fact):
    sentence: ClassVar[str] = "mixed_lead"
    seat: int
    cards: Cards
    suits: tuple[int, ...]


@dataclass(frozen=True)
class MixedAttempt(Fact):
    sentence: ClassVar[str] = "mixed_attempt"
    seat: int
    cards: Cards


@dataclass(frozen=True)
class Revoke(Fact):
    """The follower played ``played`` while holding ``held`` of the led ``suit``."""

    sentence: ClassVar[str] = "revoke"
    suit: int
    seat: int
    played: Cards
    held: Cards
    evidence: Evidence


@dataclass(frozen=True)
class WrongFormat(Fact):
    """The follower played ``played`` to ``lead`` but held ``units`` for ``requirement``."""

    sentence: ClassVar[str] = "wrong_format"
    lead: Cards
    seat: int
    played: Cards
    units: tuple[Cards, ...]
    requirement: Shapes
    evidence: Evidence


# --- throws -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ThrowStood(Fact):
    """A throw recorded as standing, with units others could beat; ``forced`` should have been led."""

    sentence: ClassVar[str] = "throw_stood"
    cards: Cards
    beaten: tuple[Beaten, ...]
    forced: Cards


@dataclass(frozen=True)
class AttemptNotAThrow(Fact):
    """An ``attempt`` that is no failed throw (one of the three kinds below)."""

    cards: Cards


@dataclass(frozen=True)
class AttemptSingle(AttemptNotAThrow):
    """The attempt is one unit, not a throw."""

    sentence: ClassVar[str] = "attempt_single"


@dataclass(frozen=True)
class AttemptStands(AttemptNotAThrow):
    """Nobody could beat any unit of the attempted throw (the hands are known)."""

    sentence: ClassVar[str] = "attempt_stands"


@dataclass(frozen=True)
class AttemptUnproven(AttemptNotAThrow):
    """No unit of the attempted throw is shown beaten yet (the hands are known in part)."""

    sentence: ClassVar[str] = "attempt_unproven"


@dataclass(frozen=True)
class WrongForcedUnit(Fact):
    """A failed throw: the leader had to play ``forced`` (the ``how`` rule) and played ``played``."""

    sentence: ClassVar[str] = "forced_unit"
    cards: Cards
    beaten: tuple[Beaten, ...]
    forced: Cards
    how: str
    seat: int
    played: Cards


@dataclass(frozen=True)
class Violation:
    """One violation (docs/RECORD.md "Audit output": ``trick``, ``seat``, ``rule``, ``proven``,
    ``detail``), its detail as data."""

    rule: str
    trick: int | None
    seat: int
    proven: bool
    fact: Fact
    to_check: tuple[tuple[int, int, int], ...] = ()
    """(trick, seat, index) of the cards a person has yet to confirm that this violation rests on:
    until they are confirmed it is not proven (docs/RECORD.md ``to_check``)."""


# --- penalties ----------------------------------------------------------------------------------

Offence = Literal["throw", "discard", "trumping", "kitty", "card-count"]


@dataclass(frozen=True)
class PenaltyFact:
    """One penalty of seed 001 Ⅰ.九: the ``offence`` (a failed throw of ``cards``, 垫错, 毙牌出错,
    留底差错, 多牌少牌) scored by ``mode`` (:class:`scorer.profiles.Penalty`): ``wrong`` cards ×
    ``per`` points, one level's worth of ``points``, or one level."""

    offence: Offence
    mode: Literal["points", "level-points", "level"]
    wrong: int
    per: int = 0
    points: int = 0
    cards: Cards = ()

    def message(self) -> Message:
        """The penalty as a message: ``penalty.throw.MODE`` (a failed throw names its cards) or
        ``penalty.MODE``, the fields the parameters."""
        key = f"penalty.throw.{self.mode}" if self.offence == "throw" else f"penalty.{self.mode}"
        return Message(key, {f.name: getattr(self, f.name) for f in fields(self)})


@dataclass(frozen=True)
class RulingFact:
    """A penalty the table applied by hand (a record's ``rulings``, entry ``index``): for a
    violation of ``rule`` (or none named), ``points`` points or ``levels`` levels."""

    index: int
    rule: str | None
    points: int
    levels: int

    def message(self) -> Message:
        """The ruling as a message: ``ruling.levels`` or ``ruling.points``, the fields the parameters."""
        return Message("ruling.levels" if self.levels else "ruling.points",
                       {f.name: getattr(self, f.name) for f in fields(self)})


@dataclass(frozen=True)
class Penalty:
    """One penalty (docs/RECORD.md: ``trick``, ``seat``, ``points``, ``detail``); ``points`` signed
    as the audit writes them (+ for the defenders)."""

    trick: int | None
    seat: int
    points: int
    fact: PenaltyFact | RulingFact


@dataclass(frozen=True)
class DealFindings:
    """A deal's violations and penalties as data, in the order of the audit's lists."""

    violations: tuple[Violation, ...]
    penalties: tuple[Penalty, ...]


__all__ = [
    "AttemptCardNotHeld", "AttemptNotAThrow", "AttemptSingle", "AttemptStands", "AttemptUnproven", "Beaten", "BidAfterKitty", "BidLosingSide", "BidNoWinnerLevel",
    "BidNotABid", "BidNotHeld", "BidSelfOvercall", "BidTooLow", "BidTooManyCopies", "CardNotInHand", "CardTooMany",
    "Cards", "CountFollow", "DealFindings", "DealerNotWinner", "DealerRotation", "DealerWrongLevel", "EmptyLead",
    "Evidence", "Fact", "FriendCallCopy", "FriendCallTrump", "KittyPointsMismatch", "KittySize", "LeaderNotDealer",
    "LeaderNotWinner", "MixedAttempt", "MixedLead", "NoBid", "Offence", "Penalty", "PenaltyFact", "PointsNotFive",
    "PointsTooMany", "Revoke", "RulingFact", "Shapes", "ThrowStood", "UnitImpossible", "UnitMissing", "Violation", "WrongFirstDealer", "WrongForcedUnit", "WrongFormat", "WrongFriendsDealer", "WrongTrump",
]
