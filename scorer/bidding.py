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

>>> from tuolaji.scorer.cards import parse_cards
>>> bid_strength("titanic", parse_cards(["SJ", "BJ"]), 8)
(3, 'NT')
>>> bid_strength("chaodipi", parse_cards(["10S", "10S"]), 8)
(2, 3, 'S')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from .cards import BIG_JOKER, SMALL_JOKER, SUITS, pretty_card, rank_index
from .errors import TuolajiError
from .profiles import Options
from .seats import seat_of
from .violation_text import detail
from .violations import (
    BidAfterKitty,
    BidLosingSide,
    BidNotABid,
    BidNoWinnerLevel,
    BidSelfOvercall,
    BidTooLow,
    BidTooManyCopies,
    Fact,
    NoBid,
    WrongFirstDealer,
    WrongFriendsDealer,
    WrongTrump,
)

SUIT_RANK_CHAODIPI = {"S": 3, "H": 2, "C": 1, "D": 0}


def bid_strength(order: str, cards: list[int], level: int) -> tuple[Any, ...] | None:
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
            assert suit is not None
            return (m, SUIT_RANK_CHAODIPI[suit], suit) if m <= 2 else None
        if m == 2 and cards[0] == cards[1]:
            return (3, int(cards[0] == BIG_JOKER), "NT")
        if m >= 3:
            return (m + 1, 0, "any")
        return None
    raise ValueError(order)


class Bid(NamedTuple):
    """One bid: the seat and every card it shows (a reinforcement repeats the earlier
    cards); ``after_kitty`` for a 炒地皮 re-bid after the kitty was buried."""

    seat: int
    cards: tuple[int, ...]
    after_kitty: bool = False

    def text(self) -> str:
        return " ".join(pretty_card(c) for c in self.cards)


class BidError(TuolajiError):
    """A bid that does not stand (raised by :meth:`BiddingState.push` with ``strict``)."""


class BiddingState:
    """A live bidding (亮主 / 反主 / 炒地皮), python-chess style: ``push`` a bid, ``pop`` it.

    It says what the standing bid is, whether a proposed bid overcalls it under the
    profile's bid order (自保 and 自反 where ``self_overcall``; seed 001 保放 with
    ``reinforce``; 炒地皮 re-bids after the kitty with ``rebid_after_kitty``; 4-deck 暗叫
    with ``blind_bids``, where the standing suit stays hidden until :meth:`close`), who
    deals and the trump. Like :class:`scorer.state.DealState` it lets every bid be
    pushed (the table let it happen): a bid that does not stand is kept with its reason
    and changes nothing; ``push(..., strict=True)`` raises :class:`BidError` instead.

    ``level`` is the deal's level. 找朋友 after the first deal: ``levels`` (each seat's
    level) and ``eligible`` (the side that won the last deal); a bid then shows the level
    card of one of them, and whose level it is deals (RULES §10). ``dealer``: the dealer
    fixed by rotation (later deals of fixed partnerships); ``first_deal``: the deal that
    starts the game, where the first dealer follows ``options.first_dealer``.

    >>> from tuolaji.scorer.profiles import PROFILES
    >>> from tuolaji.scorer.cards import parse_cards
    >>> b = BiddingState(PROFILES["titanic-3deck"], "10")
    >>> b.push(1, parse_cards(["10H"])), b.standing_seat, b.trump, b.dealer
    (None, 1, 'H', 1)
    >>> b.why_not(2, parse_cards(["10S"]))
    'bid 1 (♠10) does not overcall the standing bid'
    >>> b.is_overcall(2, parse_cards(["SJ", "BJ"])), b.push(2, parse_cards(["SJ", "BJ"]))
    (True, None)
    >>> b.trump, b.dealer  # 先亮者為莊家: the first bidder deals the first deal
    ('NT', 1)
    >>> b.pop().seat, b.trump
    (2, 'H')
    """

    def __init__(self, options: Options, level: int | str, players: int = 4, *, levels: list[int] | None = None,
                 eligible: set[int] | None = None, dealer: int | None = None, first_deal: bool = True):
        self.options = options
        self.level = level if isinstance(level, int) else rank_index(level)
        self.players = players
        self.levels = list(levels) if levels is not None else None
        self.eligible = set(eligible) if eligible is not None else None
        self.fixed_dealer = dealer
        self.first_deal = first_deal
        self.bids: list[Bid] = []
        self.verdicts: list[str | None] = []  # per bid: None when it stood, else why not
        self.refusals: list[Fact | None] = []  # the same as data
        self.kitty_buried = False
        self.closed = False  # bidding over: 暗叫 suits are shown
        self._reset()

    def _reset(self) -> None:
        self._best: tuple[Any, ...] | None = None
        self._best_bid: Bid | None = None
        self._first_seat: int | None = None
        self._shown: dict[tuple[int, str], int] = {}
        self._owner: int | None = None

    # ------------------------------------------------------------ position
    @property
    def standing(self) -> Bid | None:
        """The standing (strongest valid) bid, None before any."""
        return self._best_bid

    @property
    def standing_seat(self) -> int | None:
        return None if self._best_bid is None else self._best_bid.seat

    @property
    def trump(self) -> str | None:
        """The trump the standing bid makes (``S`` ``H`` ``C`` ``D``, ``NT``, or ``any``: 炒地皮
        three jokers, the bidder names it); None before any bid."""
        return None if self._best is None else self._best[-1]

    @property
    def shown_trump(self) -> str | None:
        """What the other players may know of the trump: under 暗叫 (``blind_bids``)
        nothing until the bidding is closed."""
        if self.options.blind_bids and not self.closed:
            return None
        return self.trump

    @property
    def dealer(self) -> int | None:
        """Who deals: the rotation's dealer; on the first deal the first or the winning
        bidder (``first_dealer``); 找朋友 after the first deal whose level the bid shows."""
        if self.levels is not None and self.eligible is not None:
            return self._owner
        if self.first_deal:
            if self.options.first_dealer == "first-bidder":
                return self._first_seat if self._first_seat is not None else self.fixed_dealer
            return self.standing_seat if self.standing_seat is not None else self.fixed_dealer
        return self.fixed_dealer

    @property
    def deal_level(self) -> int:
        """The level the deal is played at (找朋友: the dealer's own level)."""
        if self.levels is not None and self._owner is not None:
            return self.levels[self._owner]
        return self.level

    @property
    def kitty_holder(self) -> int | None:
        """Who takes up the kitty now (炒地皮: the winner of a re-bid after the kitty)."""
        if self.kitty_buried and self._best_bid is not None and self._best_bid.after_kitty:
            return self._best_bid.seat
        return self.dealer

    # ------------------------------------------------------------ asking
    def why_not(self, seat: int, cards: list[int] | tuple[int, ...], after_kitty: bool | None = None) -> str | None:
        """Why a bid would not stand now (the audit's ``bad-bid`` detail), None if it would."""
        fact = self.refusal(seat, cards, after_kitty)
        return None if fact is None else detail(fact)

    def refusal(self, seat: int, cards: Sequence[int], after_kitty: bool | None = None) -> Fact | None:
        """:meth:`why_not` as data (:mod:`scorer.violations`), None if the bid would stand."""
        bid = Bid(seat, tuple(cards), self.kitty_buried if after_kitty is None else after_kitty)
        return self._judge(bid, len(self.bids))[0]

    def is_overcall(self, seat: int, cards: list[int] | tuple[int, ...], after_kitty: bool | None = None) -> bool:
        """Whether the bid would stand (it overcalls the standing bid, or is the first)."""
        return self.why_not(seat, cards, after_kitty) is None

    def _judge(self, bid: Bid, i: int) -> tuple[Fact | None, tuple[Any, ...] | None, int | None]:
        options = self.options
        seat, cards = bid.seat, list(bid.cards)
        bid_cards = bid.cards
        if bid.after_kitty and not options.rebid_after_kitty:
            return BidAfterKitty(i, bid_cards), None, None
        if self.eligible is not None and seat not in self.eligible:
            return BidLosingSide(i, bid_cards, seat, tuple(sorted(self.eligible))), None, None
        for c in sorted(set(cards)):
            if cards.count(c) > options.decks:
                return BidTooManyCopies(i, bid_cards, c, cards.count(c), options.decks), None, None
        level = self.level
        owner: int | None = None
        if self.levels is not None and self.eligible is not None:
            ranks = {c % 13 for c in cards if c < 52}
            if len(ranks) == 1:
                level = ranks.pop()
                owner = self._owner_of(seat, level)
                if owner is None:
                    return BidNoWinnerLevel(i, bid_cards), None, None
        s = bid_strength(options.bid_order, cards, level)
        if s is None:
            return BidNotABid(i, bid_cards, options.bid_order), None, None
        key, suit = s[:-1], s[-1]
        best = self._best
        if best is not None:
            best_seat = self.standing_seat
            shown = self._shown
            reinforcing = (
                options.reinforce and suit in SUITS and best_seat == seat
                and shown.get((seat, suit), 0) < len(cards)
            ) or (
                options.reinforce and suit in SUITS and best_seat != seat and key == best[:-1]
                and 0 < shown.get((seat, suit), 0) < len(cards)
            )
            if best_seat == seat and not options.self_overcall and not reinforcing:
                return BidSelfOvercall(i, bid_cards, seat), None, None
            if not (key > best[:-1] or (reinforcing and key >= best[:-1])):
                return BidTooLow(i, bid_cards), None, None
        if owner is None and self.levels is not None and self.eligible is not None:
            owner = seat  # jokers: the bidder deals at his own level
        return None, s, owner

    def _owner_of(self, seat: int, level: int) -> int | None:
        """Whose level a bid of ``level`` by ``seat`` shows: the bidder if it is his own,
        else the next seat after him on the winning side at that level (RULES §10)."""
        assert self.levels is not None and self.eligible is not None
        if seat in self.eligible and self.levels[seat] == level:
            return seat
        for k in range(1, self.players):
            other = seat_of(seat, k, self.players)
            if other in self.eligible and self.levels[other] == level:
                return other
        return None

    # ------------------------------------------------------------ moves
    def push(self, seat: int, cards: list[int] | tuple[int, ...], after_kitty: bool | None = None,
             strict: bool = False) -> str | None:
        """Record a bid; returns None when it stands, else why not (then it changes
        nothing). ``after_kitty`` defaults to whether :meth:`bury_kitty` was called."""
        bid = Bid(seat, tuple(cards), self.kitty_buried if after_kitty is None else after_kitty)
        fact, s, owner = self._judge(bid, len(self.bids))
        why = None if fact is None else detail(fact)
        if why is not None and strict:
            raise BidError(why)
        self.bids.append(bid)
        self.verdicts.append(why)
        self.refusals.append(fact)
        if why is None:
            assert s is not None
            suit = s[-1]
            if suit in SUITS:
                self._shown[(seat, suit)] = max(self._shown.get((seat, suit), 0), len(bid.cards))
            if self._first_seat is None:
                self._first_seat = seat
            self._best, self._best_bid, self._owner = s, bid, owner
        return why

    def pop(self) -> Bid:
        """Take back the last bid."""
        bids = self.bids[:-1]
        last = self.bids[-1]
        self.bids, self.verdicts, self.refusals = [], [], []
        self._reset()
        for b in bids:
            self.push(b.seat, b.cards, b.after_kitty)
        return last

    def bury_kitty(self) -> None:
        """The kitty is buried: later bids are 炒地皮 re-bids (``after_kitty``)."""
        self.kitty_buried = True

    def close(self) -> None:
        """Bidding is over: under 暗叫 the standing suit is shown now."""
        self.closed = True

    # ------------------------------------------------------------ verdicts
    def problems(self, trump: str, dealer: int) -> list[tuple[int, str]]:
        """(seat, detail) of every bidding fault of a finished deal played in ``trump`` by
        ``dealer``: the bids that did not stand, a missing no-trump, a trump the winning
        bid does not make, and a dealer the bids do not make."""
        return [(seat, detail(fact)) for seat, fact in self.findings(trump, dealer)]

    def findings(self, trump: str, dealer: int) -> list[tuple[int, Fact]]:
        """:meth:`problems` as data (:mod:`scorer.violations`)."""
        out = [(b.seat, fact) for b, fact in zip(self.bids, self.refusals, strict=True) if fact is not None]
        if self._best is None:
            if self.options.no_bid_no_trump and not self.bids and trump != "NT":
                out.append((dealer, NoBid(trump)))
            return out
        want = self._best[-1]
        assert self._best_bid is not None
        if want != "any" and want != trump:
            out.append((self._best_bid.seat, WrongTrump(want, trump)))
        if self.levels is not None and self.eligible is not None:
            if self._owner is not None and self._owner != dealer:
                out.append((dealer, WrongFriendsDealer(self._owner, dealer)))
        elif self.first_deal:
            expected = self.dealer
            if expected is not None and expected != dealer:
                out.append((dealer, WrongFirstDealer(expected, self.options.first_dealer, dealer)))
        return out


def check_bids(options: Options, bids: list[dict[str, Any]], level: int, trump: str, dealer: int,
               first_deal: bool, *, players: int = 4, levels: list[int] | None = None,
               eligible: set[int] | None = None) -> list[dict[str, Any]]:
    """Every bidding violation of a deal: ``{"seat", "rule": "bad-bid", "detail"}`` (a
    replay of :class:`BiddingState`).

    >>> from tuolaji.scorer.profiles import PROFILES
    >>> from tuolaji.scorer.cards import parse_cards
    >>> bids = [{"seat": 1, "cards": parse_cards(["10H"])}, {"seat": 2, "cards": parse_cards(["10S"])}]
    >>> [v["seat"] for v in check_bids(PROFILES["standard-2deck"], bids, 8, "H", 1, True)]
    [2]
    """
    found = bid_findings(options, bids, level, trump, dealer, first_deal, players=players, levels=levels,
                         eligible=eligible)
    return [{"seat": seat, "rule": "bad-bid", "detail": detail(fact)} for seat, fact in found]


def bid_findings(options: Options, bids: list[dict[str, Any]], level: int, trump: str, dealer: int,
                 first_deal: bool, *, players: int = 4, levels: list[int] | None = None,
                 eligible: set[int] | None = None) -> list[tuple[int, Fact]]:
    """:func:`check_bids` as data: (seat, fact) of every bidding violation."""
    state = BiddingState(options, level, players, levels=levels, eligible=eligible, dealer=dealer,
                         first_deal=first_deal)
    for bid in bids:
        state.push(bid["seat"], bid["cards"], bool(bid.get("after_kitty")))
    return state.findings(trump, dealer)


__all__ = ["Bid", "BidError", "BiddingState", "bid_findings", "bid_strength", "check_bids", "SMALL_JOKER", "BIG_JOKER"]
