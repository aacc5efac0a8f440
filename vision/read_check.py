"""Reads checked against the game: what a deal makes possible weighs an unsure read.

The reader gives each card its candidates with their probabilities
(:meth:`vision.detector.CardInstance.candidates`). The game knows more:

* a deal of ``d`` decks holds at most ``d`` copies of a card, and the cards already
  played this deal are gone;
* a hand, where the record holds it, bounds what its seat can play;
* a player following a lead very likely follows its suit;
* a player who once could not follow a suit holds none of it (a proven void).

:func:`weigh_read` chooses among the candidates with these weights. A card read
clearly (probability at least :data:`CLEAR_READ`) stays what it reads, so a prior never
hides a real revoke, unless the game says it cannot be: a card whose every copy is
already out, or a card of a suit its player has shown to be void in, is never written
as sure. Such a read, and whatever stays unsure, goes to a person (the pipeline's
confidence threshold: probability 0 is always under it).

>>> facts = DealFacts(decks=2, gone=Counter({"AS": 2}))
>>> weigh_read([("AS", 0.6), ("AC", 0.35)], facts, seat=1)
('AC', 0.35)
>>> weigh_read([("AS", 0.95), ("AC", 0.05)], facts, seat=1)
('AC', 0.05)
>>> weigh_read([("AS", 0.95)], facts, seat=1)
('AS', 0.0)
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tuolaji.scorer.cards import JOKERS
from tuolaji.scorer.record_types import is_points_trick
from tuolaji.scorer.seats import seat_of
from tuolaji.vision.tracking import ZoneContent

CLEAR_READ = 0.9
"""A read at least this sure is kept, whatever the game says."""
FOLLOW_PRIOR = 3.0
"""How much likelier a follower's card is to be of the led suit than not."""
OUTSIDE_HAND = 0.05
"""The weight of a card the seat's recorded hand does not (or no longer) hold."""
VOID_SUIT = 0.05
"""The weight of a card of a suit its seat has shown it holds none of."""


@dataclass(frozen=True)
class DealFacts:
    """What the game says about the cards of the deal in progress.

    The last trick of the record is still on the table (until the next lead is played,
    its cards lie in their zones and are read again), so its cards count as gone only
    for the other seats; the tricks before it are swept and gone for everyone.
    """

    decks: int
    gone: Counter[str] = field(default_factory=Counter)  # cards of the swept tricks of this deal
    on_table: dict[int, Counter[str]] = field(default_factory=dict)  # seat -> its play in the last trick
    hands: dict[int, Counter[str]] | None = None  # seat -> what its recorded hand held before the last trick
    led_suit: int | None = None  # effective suit (scorer.order) of the trick being followed
    leader: int | None = None  # seat that led it
    suit_of: Any = None  # card name -> effective suit, for this deal's trump and level
    voids: dict[int, frozenset[int]] = field(default_factory=dict)  # seat -> suits it failed to follow in a swept trick

    def copies_elsewhere(self, card: str, seat: int) -> int:
        """How many copies of ``card`` the other seats have played or the swept tricks hold."""
        return self.gone[card] + sum(play[card] for s, play in self.on_table.items() if s != seat)

    def copies_out(self, card: str, seat: int) -> bool:
        """Whether every copy of ``card`` is already played by the other seats or swept."""
        return self.copies_elsewhere(card, seat) >= self.decks

    def void_in(self, card: str, seat: int) -> bool:
        """Whether ``seat`` has shown it holds no card of ``card``'s suit."""
        return self.suit_of is not None and self.suit_of(card) in self.voids.get(seat, frozenset())

    def weight(self, card: str, seat: int) -> float:
        """How possible ``card`` is at ``seat``: 0 when every copy is gone elsewhere, less
        when the seat's hand does not hold it or the seat is void in its suit, more when
        it follows the led suit."""
        if self.copies_out(card, seat):
            return 0.0
        w = 1.0
        if self.hands is not None and seat in self.hands and self.hands[seat][card] <= 0:
            w *= OUTSIDE_HAND
        if self.void_in(card, seat):
            w *= VOID_SUIT
        if self.led_suit is not None and self.suit_of is not None and seat != self.leader and self.suit_of(card) == self.led_suit:
            w *= FOLLOW_PRIOR
        return w


def beyond_the_decks(play: tuple[str, ...] | list[str], facts: DealFacts, seat: int,
                     unsure: tuple[int, ...] | list[int] = ()) -> tuple[int, ...]:
    """The positions in ``seat``'s ``play`` of the sure cards (not at the positions ``unsure``) of
    every card the play holds more sure copies of than the deal's decks have left (after the swept
    tricks and the other seats' plays on the table): one of them at least is misread (a fan's card
    counted twice, a lower card's index read as its neighbour's), and which one the reads cannot
    say, so all of them go to a person. An extra copy read unsure is already a person's.

    >>> facts = DealFacts(decks=3, gone=Counter({"8S": 1}))
    >>> beyond_the_decks(["8S", "8S", "8S", "7S"], facts, seat=0)
    (0, 1, 2)
    >>> beyond_the_decks(["8S", "8S", "8S", "7S"], facts, seat=0, unsure=[2])
    ()
    """
    counts = Counter(card for k, card in enumerate(play) if k not in unsure)
    over = {card for card, n in counts.items() if n + facts.copies_elsewhere(card, seat) > facts.decks}
    return tuple(k for k, card in enumerate(play) if card in over and k not in unsure)


def weigh_read(candidates: list[tuple[str, float]], facts: DealFacts, seat: int) -> tuple[str, float]:
    """The card to take among ``candidates`` (card, probability; most probable first) at
    ``seat``, and its probability. The best read stands when it is clear and the game allows
    it; a clear read of a suit the seat is void in stands too (a revoke is real), but with
    probability 0, for a person to confirm; when the game rules out every candidate the best
    read stands with probability 0."""
    best = candidates[0]
    if best[1] >= CLEAR_READ and not facts.copies_out(best[0], seat):
        return (best[0], 0.0) if facts.void_in(best[0], seat) else best
    weighed = [(facts.weight(card, seat) * p, card, p) for card, p in candidates]
    top = max(weighed, key=lambda item: item[0])
    return (best[0], 0.0) if top[0] <= 0 else (top[1], top[2])


def deal_facts(record: dict[str, Any]) -> DealFacts | None:
    """The facts of the last deal of a record (None before any deal)."""
    from tuolaji.scorer.cards import parse_card
    from tuolaji.scorer.order import TrumpOrder
    from tuolaji.scorer.profiles import resolve_rules

    if not record.get("deals"):
        return None
    deal = record["deals"][-1]
    try:
        options = resolve_rules(record.get("rules", "standard-2deck"))
        order = TrumpOrder.of(deal.get("level", "2"), deal.get("trump"), bool(getattr(options, "twos_trump", False)))
    except Exception:  # a record the rules core refuses is the audit's to report, not the reader's
        return None
    players = max(1, len(record.get("players", [])))
    tricks = [t for t in (deal.get("tricks") or []) if isinstance(t, dict)]
    gone: Counter[str] = Counter()
    played_by: dict[int, Counter[str]] = {}
    on_table: dict[int, Counter[str]] = {}
    leader: int | None  # each trick's in turn; then the trick being followed's (None: none)

    def suit_of(card: str) -> int:
        return order.suit[parse_card(card)]

    voids: dict[int, set[int]] = {}
    contradicted: dict[int, set[int]] = {}  # a void a later play showed false (a revoke): no longer weighed
    for number, trick in enumerate(tricks):
        leader = int(trick.get("leader", 0))
        plays = trick.get("plays") or []
        led = _led_suit(plays, suit_of)
        for j, play in enumerate(plays):
            if not play:
                continue
            seat = seat_of(leader, j, players)
            if number == len(tricks) - 1:
                on_table[seat] = Counter(play)
                continue
            gone.update(play)
            played_by.setdefault(seat, Counter()).update(play)
            shown = voids.get(seat, set()) & _suits_of(play, suit_of)
            contradicted[seat] = contradicted.get(seat, set()) | shown
            if j > 0 and led is not None and _short_of_suit(play, len(plays[0]), led, suit_of) \
                    and led not in contradicted.get(seat, set()):
                voids.setdefault(seat, set()).add(led)
            voids[seat] = voids.get(seat, set()) - contradicted.get(seat, set())
    hands = None
    if deal.get("hands"):
        hands = {seat: Counter(hand) - played_by.get(seat, Counter()) for seat, hand in enumerate(deal["hands"]) if hand}

    led_suit = leader = None
    if tricks:
        plays = tricks[-1].get("plays") or []
        if plays and plays[0] and len(plays) < players:
            leader = int(tricks[-1].get("leader", 0))
            led_suit = suit_of(plays[0][0])
    return DealFacts(options.decks, gone, on_table, hands, led_suit, leader, suit_of,
                     {seat: frozenset(suits) for seat, suits in voids.items()})


ONE_SUIT_KEEP = 0.3
"""A lead card the one-suit rule changes stays sure when its reads gave it at least this share."""


def one_suit_lead(content: ZoneContent, suit_of: Callable[[str], int]) -> ZoneContent:
    """A lead of several cards is of one effective suit (a throw too): a lead read of mixed
    suits is a misread unless every card of it reads clearly. Each unsure card then takes its
    likeliest fused candidate (:attr:`ZoneContent.candidates`) of the suit the whole lead reads
    likeliest in; a card so changed is marked for a person unless its reads gave it at least
    :data:`ONE_SUIT_KEEP`. Returned unchanged when there is nothing to weigh.

    >>> from tuolaji.vision.tracking import ZoneContent
    >>> suit = {"JS": 0, "JC": 2}.__getitem__
    >>> read = ZoneContent(("JC", "JS"), (0.55, 0.97), (), ((("JC", 0.55), ("JS", 0.4)), (("JS", 0.97),)))
    >>> one_suit_lead(read, suit)
    ZoneContent(cards=('JS', 'JS'), confidence=(0.4, 0.97), unconfirmed=())
    """
    if len(content) < 2 or len(content.candidates) != len(content) or not all(content.candidates):
        return content
    try:
        if len({suit_of(card) for card in content.cards}) == 1:
            return content
        options = [[(card, p, suit_of(card)) for card, p in fused] for fused in content.candidates]
    except Exception:  # a card the rules core cannot name is the audit's to report
        return content
    clear = [fused[0][1] >= CLEAR_READ for fused in content.candidates]
    if all(clear):
        return content  # a mixed lead read clearly is what was led (the audit reports it)
    best: tuple[float, int, list[tuple[str, float]]] | None = None
    for suit in {s for fused in options for _, _, s in fused}:
        chosen: list[tuple[str, float]] = []
        for index, fused in enumerate(options):
            inside = [(card, p) for card, p, s in fused if s == suit]
            if clear[index] and content.cards[index] not in {card for card, _ in inside}:
                break  # a clear card of another suit: not this suit
            if not inside:
                break
            chosen.append(max(inside, key=lambda item: item[1]))
        else:
            score = math.fsum(math.log(max(p, 1e-9)) for _, p in chosen)
            if best is None or score > best[0]:
                best = (score, suit, chosen)
    if best is None:
        return content
    cards = list(content.cards)
    confidence = list(content.confidence)
    unconfirmed = set(content.unconfirmed)
    for index, (card, share) in enumerate(best[2]):
        if card == cards[index]:
            continue
        cards[index], confidence[index] = card, round(share, 3)
        if share < ONE_SUIT_KEEP:
            unconfirmed.add(index)
    return dataclasses.replace(content, cards=tuple(cards), confidence=tuple(confidence),
                               unconfirmed=tuple(sorted(unconfirmed)))


PAIR_SHARE = 0.2
"""An unsure card of a two-card play whose reads gave the other card's name at least this share is
taken for its copy (:func:`as_a_pair`)."""


LEAD_PAIR_SHARE = 0.05
"""For a lead (:func:`as_a_pair` with ``lead``), the share its unsure card's reads must give the clear card."""


def as_a_pair(content: ZoneContent, lead: bool = False) -> ZoneContent:
    """A two-card play read as two cards of one rank in two suits, one of them clear (read at least
    :data:`CLEAR_READ`, or sure enough not to be marked for a person) and the other unsure with the
    clear one's card among its candidates (at least :data:`PAIR_SHARE`), is a pair
    of the clear card: two cards are led as a pair (a throw of two singles of one rank is rare) and
    followed as a pair where the follower holds one. A ``lead`` of two cards is a pair all the more
    where its unsure card's rank is in doubt: a throw of two singles is rare, and a throw of just
    those two rarer still, so there the clear card need only be among the unsure one's candidates
    (at least :data:`LEAD_PAIR_SHARE`), whatever its rank (a 10♦ pair read 10♦ Q♦, the Q♦ unsure
    with 10♦ at 0.17); jokers still pair only with their own kind. The card so changed stays
    marked for a person.

    >>> from tuolaji.vision.tracking import ZoneContent
    >>> read = ZoneContent(("KD", "KH"), (0.52, 0.94), (0,), ((("KD", 0.6), ("KH", 0.36)), (("KH", 0.998),)))
    >>> as_a_pair(read)
    ZoneContent(cards=('KH', 'KH'), confidence=(0.36, 0.94), unconfirmed=(0,))
    >>> as_a_pair(ZoneContent(("KD", "KH"), (0.95, 0.94), (), ((("KD", 0.95),), (("KH", 0.99),)))).cards
    ('KD', 'KH')
    >>> lead = ZoneContent(("QD", "10D"), (0.46, 0.97), (0,), ((("QD", 0.61), ("10D", 0.17)), (("10D", 0.99),)))
    >>> as_a_pair(lead).cards, as_a_pair(lead, lead=True)
    (('QD', '10D'), ZoneContent(cards=('10D', '10D'), confidence=(0.17, 0.97), unconfirmed=(0,)))
    """
    if len(content) != 2 or len(content.candidates) != 2 or content.cards[0] == content.cards[1]:
        return content
    first, second = content.cards
    if first[:-1] != second[:-1] and (not lead or first in JOKERS or second in JOKERS):  # (大王 and 小王 differ here too)
        return content
    clear = [bool(fused) and (fused[0][1] >= CLEAR_READ or k not in content.unconfirmed)
             for k, fused in enumerate(content.candidates)]
    if clear[0] == clear[1]:
        return content
    unsure = clear.index(False)
    other = content.cards[1 - unsure]
    share = dict(content.candidates[unsure]).get(other, 0.0)
    if share < (LEAD_PAIR_SHARE if lead else PAIR_SHARE):
        return content
    cards, confidence = list(content.cards), list(content.confidence)
    cards[unsure], confidence[unsure] = other, round(share, 3)
    return dataclasses.replace(content, cards=tuple(cards), confidence=tuple(confidence),
                               unconfirmed=tuple(sorted({*content.unconfirmed, unsure})))


DOUBTED_SHARE = 0.02
"""A sure lead card whose reads gave a card of the suit every follow was of at least this share
is marked for a person (:func:`doubted_by_follows`)."""


def doubted_by_follows(lead: ZoneContent, follows: list[list[str]], suit_of: Callable[[str], int]) -> tuple[int, ...]:
    """The lead's sure cards put in doubt by its follows: the lead reads as one effective suit and
    every follow is wholly of one other suit, the same for all. Players follow suit when they
    can, so a lead nobody followed is likelier misread (a 9♣ pair read as 9♠) than a round of
    voids: the lead's sure cards whose reads gave that other suit at least :data:`DOUBTED_SHARE`
    are returned, to be marked for a person, never changed (a round of voids does happen). A
    revoke proven on such a lead would be an accusation resting on a misread.

    >>> suit = {"9S": 0, "9C": 2, "10C": 2, "4C": 2, "7C": 2}.__getitem__
    >>> lead = ZoneContent(("9S", "9S"), (0.93, 0.5), (1,), ((("9S", 0.9), ("9C", 0.08)), (("9S", 0.5), ("9C", 0.4))))
    >>> doubted_by_follows(lead, [["10C", "4C"], ["7C", "7C"]], suit)
    (0,)
    >>> doubted_by_follows(lead, [["10C", "4C"], ["9S", "7C"]], suit)  # a follow of the led suit: no doubt
    ()
    """
    if not follows or len(lead.candidates) != len(lead) or not all(lead.candidates):
        return ()
    try:
        led = {suit_of(card) for card in lead.cards}
        followed = [{suit_of(card) for card in play} for play in follows]
        if len(led) != 1 or any(len(suits) != 1 for suits in followed):
            return ()
        other = set.union(*followed)
        if len(other) != 1 or other & led:
            return ()
        suit = next(iter(other))
        return tuple(i for i, fused in enumerate(lead.candidates) if i not in lead.unconfirmed
                     and any(suit_of(card) == suit and p >= DOUBTED_SHARE for card, p in fused))
    except Exception:  # a card the rules core cannot name is the audit's to report
        return ()


def doubted_by_next_leader(trick: dict[str, Any], read_winner: int, leader: int, players: int
                           ) -> dict[int, list[int]]:
    """The cards of a recorded ``trick`` put in doubt by the next lead: it came from ``leader``,
    not from the seat the reads made its winner (``read_winner``). Players rarely lead out of
    turn; a misread of the trick (a 10♥ that was an 8♥) moves its winner far more often. So the
    sure cards of both seats' plays (the read winner's and the next leader's, by seat) are
    returned, to be marked for a person: a wrong-leader proven on sure misreads would accuse a
    player of leading out of turn. Nothing when the trick already holds a card to confirm (the
    audit already holds a wrong-leader resting on it as to check), or when the seats agree.

    >>> trick = {"leader": 0, "plays": [["10H", "8H"], ["3H", "4H"], ["9H", "9H"], ["5H", "6H"]]}
    >>> doubted_by_next_leader(trick, read_winner=0, leader=2, players=4)
    {0: [0, 1], 2: [0, 1]}
    >>> doubted_by_next_leader(trick | {"unconfirmed": [[1, 0]]}, read_winner=0, leader=2, players=4)
    {}
    """
    if read_winner == leader or is_points_trick(trick) or trick.get("unconfirmed"):
        return {}
    plays = trick.get("plays") or []
    doubted: dict[int, list[int]] = {}
    for position, play in enumerate(plays):
        seat = seat_of(trick["leader"], position, players)
        if seat in (read_winner, leader) and play:
            doubted[seat] = list(range(len(play)))
    return dict(sorted(doubted.items()))


def _led_suit(plays: list[Any], suit_of: Any) -> int | None:
    """The suit of a lead whose cards are all of one suit (None for no lead, or a card the
    rules core cannot name)."""
    try:
        suits = {suit_of(card) for card in plays[0]} if plays and plays[0] else set()
    except Exception:  # an unknown card name is the audit's to report
        return None
    return suits.pop() if len(suits) == 1 else None


def _suits_of(play: list[str], suit_of: Any) -> set[int]:
    """The effective suits of the cards of ``play`` (none for a card the rules core cannot name)."""
    try:
        return {suit_of(card) for card in play}
    except Exception:  # an unknown card name is the audit's to report
        return set()


def _short_of_suit(play: list[str], lead_size: int, led: int, suit_of: Any) -> bool:
    """Whether a follow of a full-size ``play`` holds fewer cards of the led suit than the
    lead: its player had no more of that suit (a follow short of cards proves nothing)."""
    if len(play) < lead_size:
        return False
    try:
        return sum(1 for card in play if suit_of(card) == led) < lead_size
    except Exception:
        return False
