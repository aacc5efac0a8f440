"""The audit's findings in English: docs/RECORD.md's ``detail`` of each violation and penalty.

Every sentence is rendered here from the data of :mod:`scorer.violations`, with seats as
numbers and tricks and deals counted from 0, exactly as docs/RECORD.md's audit output writes
them (the golden audits in ``tests/data/scorer/audits`` hold the text). The page renders the
same data in its own words (``web/explain.py``).

>>> from tuolaji.scorer.cards import parse_cards
>>> from tuolaji.scorer.violations import Evidence, Revoke
>>> detail(Revoke(suit=0, seat=1, played=tuple(parse_cards(["7D"])), held=tuple(parse_cards(["9S"])),
...               evidence=Evidence(trick=3, played=(3, 10))))
'led ♠; seat 1 played ♦7 while holding ♠9 (played in tricks 3 (this trick), 10)'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from .cards import RANKS, pretty_card
from .order import SUIT_LABELS
from .profiles import requirement_name
from .violations import (
    AttemptCardNotHeld,
    AttemptSingle,
    AttemptStands,
    AttemptUnproven,
    Beaten,
    BidAfterKitty,
    BidLosingSide,
    BidNotABid,
    BidNotHeld,
    BidNoWinnerLevel,
    BidSelfOvercall,
    BidTooLow,
    BidTooManyCopies,
    CardNotInHand,
    CardTooMany,
    CountFollow,
    DealerNotWinner,
    DealerRotation,
    DealerWrongLevel,
    EmptyLead,
    Evidence,
    Fact,
    FriendCallCopy,
    FriendCallTrump,
    KittyPointsMismatch,
    KittySize,
    LeaderNotDealer,
    LeaderNotWinner,
    MixedAttempt,
    MixedLead,
    NoBid,
    PenaltyFact,
    PointsNotFive,
    PointsTooMany,
    Revoke,
    RulingFact,
    ThrowStood,
    UnitImpossible,
    UnitMissing,
    WrongFirstDealer,
    WrongForcedUnit,
    WrongFormat,
    WrongFriendsDealer,
    WrongTrump,
)

F = TypeVar("F", bound=Fact)


def cards_text(cards: Iterable[int]) -> str:
    """Cards by name, space-separated (``♠A ♠A SJ``)."""
    return " ".join(pretty_card(c) for c in cards)


def unit_text(cards: Iterable[int]) -> str:
    """One unit's cards run together (``♥6♥6``)."""
    return "".join(pretty_card(c) for c in cards)


def _decks(decks: int) -> str:
    return f"{decks} deck{'s' if decks > 1 else ''}"


def evidence_text(evidence: Evidence) -> str:
    """Where the held cards show up (``played in tricks 3 (this trick), 5; in the recorded hand``)."""
    parts = []
    if evidence.played:
        label = ", ".join(f"{t} (this trick)" if t == evidence.trick else str(t) for t in evidence.played)
        parts.append(("played in trick " if len(evidence.played) == 1 else "played in tricks ") + label)
    if evidence.attempt is not None:
        parts.append(f"shown in the attempt of trick {evidence.attempt}")
    if evidence.hand or not parts:
        parts.append("in the recorded hand")
    return "; ".join(parts)


def beaten_text(beaten: Iterable[Beaten]) -> str:
    """Each beaten unit of a throw, who beats it with what, and the evidence."""
    return "; ".join(f"{unit_text(b.unit)} beaten by seat {b.seat}'s {unit_text(b.by)} ({evidence_text(b.evidence)})"
                     for b in beaten)


_SENTENCES: dict[type[Fact], Callable[[Any], str]] = {}


def _sentence(kind: type[F]) -> Callable[[Callable[[F], str]], Callable[[F], str]]:
    def register(render: Callable[[F], str]) -> Callable[[F], str]:
        _SENTENCES[kind] = render
        return render

    return register


def detail(fact: Fact) -> str:
    """A violation's ``detail``: its fact in docs/RECORD.md's English."""
    return _SENTENCES[type(fact)](fact)


# --- bids ---------------------------------------------------------------------------------------


def _bid(bid: int, cards: Iterable[int]) -> str:
    return f"bid {bid} ({cards_text(cards)})"


@_sentence(BidAfterKitty)
def _bid_after_kitty(f: BidAfterKitty) -> str:
    return f"{_bid(f.bid, f.cards)} after the kitty: these rules have no 炒地皮"


@_sentence(BidLosingSide)
def _bid_losing_side(f: BidLosingSide) -> str:
    return (f"{_bid(f.bid, f.cards)}: seat {f.seat} is not on the side that won the last deal "
            f"(seats {', '.join(str(x) for x in f.winners)})")


@_sentence(BidTooManyCopies)
def _bid_too_many_copies(f: BidTooManyCopies) -> str:
    return f"{_bid(f.bid, f.cards)} shows {f.copies} copies of {pretty_card(f.card)}; {_decks(f.decks)} hold {f.decks}"


@_sentence(BidNoWinnerLevel)
def _bid_no_winner_level(f: BidNoWinnerLevel) -> str:
    return f"{_bid(f.bid, f.cards)} shows a level no player of the winning side is at"


@_sentence(BidNotABid)
def _bid_not_a_bid(f: BidNotABid) -> str:
    return f"{_bid(f.bid, f.cards)} is not a bid under the {f.bid_order} bid order"


@_sentence(BidSelfOvercall)
def _bid_self_overcall(f: BidSelfOvercall) -> str:
    return f"{_bid(f.bid, f.cards)}: seat {f.seat} overcalls his own bid"


@_sentence(BidTooLow)
def _bid_too_low(f: BidTooLow) -> str:
    return f"{_bid(f.bid, f.cards)} does not overcall the standing bid"


@_sentence(BidNotHeld)
def _bid_not_held(f: BidNotHeld) -> str:
    source = ("the recorded hand" if f.source == "hand" else "his plays") + (" and the kitty" if f.kitty else "")
    return f"{_bid(f.bid, f.cards)} shows {f.copies} {pretty_card(f.card)}; seat {f.seat} holds {f.held} ({source})"


@_sentence(NoBid)
def _no_bid(f: NoBid) -> str:
    return f"no bid: the deal is played in no-trump, not {f.trump}"


@_sentence(WrongTrump)
def _wrong_trump(f: WrongTrump) -> str:
    return f"the winning bid makes {f.want} trump, the deal says {f.trump}"


@_sentence(WrongFriendsDealer)
def _wrong_friends_dealer(f: WrongFriendsDealer) -> str:
    return f"the winning bid makes seat {f.want} dealer, not seat {f.seat}"


@_sentence(WrongFirstDealer)
def _wrong_first_dealer(f: WrongFirstDealer) -> str:
    return f"first dealer should be seat {f.want} ({f.how}), not seat {f.seat}"


# --- the dealer, friend calls, the kitty ----------------------------------------------------------


@_sentence(DealerRotation)
def _dealer_rotation(f: DealerRotation) -> str:
    return f"seat {f.seat} deals deal {f.deal}; seat {f.want} deals after deal {f.after}"


@_sentence(DealerNotWinner)
def _dealer_not_winner(f: DealerNotWinner) -> str:
    return (f"seat {f.seat} deals deal {f.deal}; the side that won deal {f.after} "
            f"is seats {', '.join(str(x) for x in f.winners)}")


@_sentence(DealerWrongLevel)
def _dealer_wrong_level(f: DealerWrongLevel) -> str:
    return f"deal {f.deal} is played at level {RANKS[f.level]}; its dealer, seat {f.seat}, is at level {RANKS[f.own]}"


@_sentence(FriendCallTrump)
def _friend_call_trump(f: FriendCallTrump) -> str:
    return f"friend call {f.call} ({pretty_card(f.card)}) is a trump: only off-suit cards are called"


@_sentence(FriendCallCopy)
def _friend_call_copy(f: FriendCallCopy) -> str:
    return f"friend call {f.call} ({pretty_card(f.card)}, copy {f.nth}): {_decks(f.decks)} hold {f.decks}"


@_sentence(KittySize)
def _kitty_size(f: KittySize) -> str:
    return f"the kitty holds {f.size} cards; these rules bury {f.buried}"


_POINTS_OF = {"trick": "the trick's", "defenders": "the defenders'", "kitty": "the kitty's"}


@_sentence(PointsNotFive)
def _points_not_five(f: PointsNotFive) -> str:
    return f"{_POINTS_OF[f.what]} {f.points} points: cards count in fives (5, 10 and K)"


@_sentence(PointsTooMany)
def _points_too_many(f: PointsTooMany) -> str:
    where = "one trick" if f.what == "trick" else "the tricks and the kitty"
    return f"{f.points} points in {where}: {_decks(f.decks)} hold{'s' if f.decks == 1 else ''} {100 * f.decks}"


@_sentence(UnitImpossible)
def _unit_impossible(f: UnitImpossible) -> str:
    return f"the last trick won with a unit of {f.unit} cards: no unit of {_decks(f.decks)} has {f.unit}"


@_sentence(UnitMissing)
def _unit_missing(f: UnitMissing) -> str:
    return f"the last trick names no winning unit: the kitty counts as won by a single (×{f.multiplier})"


@_sentence(KittyPointsMismatch)
def _kitty_points_mismatch(f: KittyPointsMismatch) -> str:
    return f"kitty_points {f.points}, but the kitty's cards hold {f.cards}"


# --- leads and plays ------------------------------------------------------------------------------


@_sentence(LeaderNotDealer)
def _leader_not_dealer(f: LeaderNotDealer) -> str:
    return f"seat {f.seat} led; the dealer leads the first trick"


@_sentence(LeaderNotWinner)
def _leader_not_winner(f: LeaderNotWinner) -> str:
    return f"seat {f.seat} led; seat {f.winner} won trick {f.won}"


@_sentence(CardTooMany)
def _card_too_many(f: CardTooMany) -> str:
    kitty = f" and {f.kitty} in the kitty" if f.kitty else ""
    return f"{pretty_card(f.card)}: {f.played} copies played{kitty}, {_decks(f.decks)} hold {f.decks}"


@_sentence(CardNotInHand)
def _card_not_in_hand(f: CardNotInHand) -> str:
    return f"seat {f.seat} played {pretty_card(f.card)} not in the recorded hand"


@_sentence(AttemptCardNotHeld)
def _attempt_card_not_held(f: AttemptCardNotHeld) -> str:
    where = "the recorded hand" if f.recorded else "his hand (never played)"
    return f"seat {f.seat} attempted {pretty_card(f.card)} not in {where}"


@_sentence(EmptyLead)
def _empty_lead(f: EmptyLead) -> str:
    return f"seat {f.seat} led no cards"


@_sentence(CountFollow)
def _count_follow(f: CountFollow) -> str:
    return f"seat {f.seat} played {f.played} card{'s' if f.played != 1 else ''} to a lead of {f.led}"


@_sentence(MixedLead)
def _mixed_lead(f: MixedLead) -> str:
    return f"seat {f.seat} led {cards_text(f.cards)} mixing {', '.join(SUIT_LABELS[s] for s in f.suits)}"


@_sentence(MixedAttempt)
def _mixed_attempt(f: MixedAttempt) -> str:
    return f"seat {f.seat} attempted {cards_text(f.cards)} mixing suits"


@_sentence(Revoke)
def _revoke(f: Revoke) -> str:
    return (f"led {SUIT_LABELS[f.suit]}; seat {f.seat} played {cards_text(f.played)} while holding "
            f"{cards_text(f.held)} ({evidence_text(f.evidence)})")


@_sentence(WrongFormat)
def _wrong_format(f: WrongFormat) -> str:
    return (f"led {cards_text(f.lead)}; seat {f.seat} played {cards_text(f.played)} but held "
            f"{' '.join(unit_text(u) for u in f.units)} for {requirement_name(f.requirement)} "
            f"({evidence_text(f.evidence)})")


# --- throws ---------------------------------------------------------------------------------------


@_sentence(ThrowStood)
def _throw_stood(f: ThrowStood) -> str:
    return (f"throw {cards_text(f.cards)} stood but {beaten_text(f.beaten)}; "
            f"the leader should have played {unit_text(f.forced)}")


@_sentence(AttemptSingle)
def _attempt_single(f: AttemptSingle) -> str:
    return f"the attempt {cards_text(f.cards)} is a single unit, not a throw"


@_sentence(AttemptStands)
def _attempt_stands(f: AttemptStands) -> str:
    return f"the attempted throw {cards_text(f.cards)} stands: nobody could beat any of its units"


@_sentence(AttemptUnproven)
def _attempt_unproven(f: AttemptUnproven) -> str:
    return f"the attempted throw {cards_text(f.cards)} is not yet shown to fail"


@_sentence(WrongForcedUnit)
def _wrong_forced_unit(f: WrongForcedUnit) -> str:
    return (f"failed throw {cards_text(f.cards)} ({beaten_text(f.beaten)}): the forced unit is "
            f"{unit_text(f.forced)} ({f.how}), seat {f.seat} played {cards_text(f.played)}")


# --- penalties ------------------------------------------------------------------------------------

OFFENCE_EN: dict[str, str] = {"throw": "failed throw", "discard": "wrong discard", "trumping": "wrong trumping",
                              "kitty": "wrong kitty", "card-count": "wrong card count"}
"""The English name of each offence seed 001 Ⅰ.九 penalises (:data:`scorer.violations.Offence`): the one
table of them; the page's Chinese is ``web.i18n.OFFENCES_ZH``, and both are read, never spelled again."""

PENALTY_OPTION_OFFENCES: dict[str, str] = {"throw_penalty": "throw", "discard_penalty": "discard",
                                           "trump_penalty": "trumping", "kitty_penalty": "kitty",
                                           "card_count_penalty": "card-count"}
"""The offence each penalty option (:data:`scorer.profiles.PENALTY_OPTIONS`) penalises."""

_RECORD_TAGS = {"discard": "垫错", "trumping": "毙牌出错", "kitty": "留底差错", "card-count": "多牌少牌"}
"""The Chinese name docs/RECORD.md's ``detail`` gives each offence after its English (part of the
record format; tests/scorer/test_messages.py checks that they are the page's ``OFFENCES_ZH``)."""

OFFENCE_NAMES = {offence: f"{OFFENCE_EN[offence]} ({tag})" for offence, tag in _RECORD_TAGS.items()}
"""The penalties of seed 001 Ⅰ.九 other than a failed throw, as docs/RECORD.md names them."""


def penalty_detail(fact: PenaltyFact | RulingFact) -> str:
    """A penalty's ``detail``.

    >>> penalty_detail(PenaltyFact("discard", "points", wrong=2, per=10))
    'wrong discard (垫错): 2 wrong cards × 10'
    >>> penalty_detail(PenaltyFact("throw", "level", wrong=1, cards=(0, 0, 1)))
    "failed throw ♠2 ♠2 ♠3: the thrower's side loses one level"
    >>> penalty_detail(RulingFact(0, "must-follow-suit", 20, 0))
    'ruling for must-follow-suit: 20 points'
    """
    if isinstance(fact, RulingFact):
        what = f"ruling for {fact.rule}" if fact.rule else "ruling"
        if fact.levels:
            return f"{what}: the offender's side loses {fact.levels} level{'s' if fact.levels > 1 else ''}"
        return f"{what}: {fact.points} points"
    throw = fact.offence == "throw"
    what = f"{OFFENCE_EN['throw']} {cards_text(fact.cards)}" if throw else OFFENCE_NAMES[fact.offence]
    if fact.mode == "points":
        unit = "stuck card" if throw else "wrong card"
        return f"{what}: {fact.wrong} {unit}{'s' if fact.wrong != 1 else ''} × {fact.per}"
    if fact.mode == "level-points":
        return f"{what}: one level's worth of points ({fact.points})"
    return f"{what}: the {'thrower' if throw else 'offender'}'s side loses one level"


SENTENCES: frozenset[str] = frozenset(kind.sentence for kind in _SENTENCES)
"""The name of every violation sentence (tests check that each one is met)."""

__all__ = ["OFFENCE_EN", "OFFENCE_NAMES", "PENALTY_OPTION_OFFENCES", "SENTENCES", "beaten_text", "cards_text", "detail", "evidence_text", "penalty_detail",
           "unit_text"]
