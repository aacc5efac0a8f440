"""Game records (docs/RECORD.md): validation, parsing, and the record-level API.

A record is plain JSON data (``dict``); this module never changes it. Parsing gives
:class:`ParsedRecord` with cards as ints; unknown keys are simply ignored here and
kept by whoever holds the dict.

>>> rec = random_record("standard-2deck", seed=1, hand_size=5)
>>> validate_record(rec)
>>> next_leader(rec) in range(4), len(rec["deals"][0]["tricks"])
(True, 5)
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .cards import CARD_INDEX, RANKS, SUITS, CardError, parse_card
from .errors import InputError
from .messages import Message
from .names import MAX_NAME, unprintable
from .profiles import Options, RulesError, resolve_rules
from .record_types import (
    CardTrick,
    Deal,
    FriendCall,
    LastTrickEntry,
    Play,
    PointsDeal,
    PointsTrick,
    Record,
    Trick,
)
from .seats import seat_of
from .state import DealState

if TYPE_CHECKING:
    from .follow import Obligation
    from .order import TrumpOrder

RECORD_FORMAT = "tuolaji-record/1"


class RecordError(InputError):
    """A malformed record; the message names the place, e.g.
    ``deals[0].tricks[4].plays[2]: unknown card "1H"``."""


@dataclass
class ParsedTrick:
    leader: int  # -1: a points-only trick that does not say who led
    plays: list[list[int]]
    attempt: list[int] | None
    winner: int | None = None  # a points-only trick (只记分): who won it ...
    points: int | None = None  # ... and the points in it (no plays)
    unit: int | None = None  # the winning play's largest unit, in cards (the last trick's kitty multiplier)
    trump: bool = True  # the winning play was trumps (``kitty_needs_trump``)
    missing: tuple[int, ...] = ()  # seats whose play was not seen (their play is [], docs/RECORD.md)
    unconfirmed: tuple[tuple[int, int], ...] = ()  # (seat, index into its play): cards a person has yet to confirm

    @property
    def points_only(self) -> bool:
        """Whether the trick is recorded by its winner and points alone (docs/RECORD.md 只记分)."""
        return self.points is not None


@dataclass
class LastTrick:
    """A deal recorded by its defenders' points: who won the last trick, with which unit."""

    winner: int
    unit: int | None
    trump: bool = True


@dataclass(frozen=True)
class Concession:
    """认输: the side that conceded the deal before its end, and the defenders' points agreed (None:
    the house's fixed cost, :func:`scorer.scoring.concession_points`)."""

    by: str  # "dealer" or "defenders"
    points: int | None = None


@dataclass
class ParsedDeal:
    level: int
    trump: str  # "S" "H" "C" "D" or "NT"
    dealer: int
    hands: list[list[int]] | None
    kitty: list[int] | None
    bids: list[dict[str, Any]] | None  # {"seat", "cards" (ints), "after_kitty"}
    friends: list[tuple[int, int]]  # (card, nth)
    tricks: list[ParsedTrick]
    complete_flag: bool | None
    rulings: list[dict[str, Any]] = field(default_factory=list)  # the table's penalties: seat, trick, points/levels
    defender_points: int | None = None  # 只记分 by the deal: the defenders' points from the tricks (no tricks)
    last_trick: LastTrick | None = None  # with ``defender_points``: the last trick's winner and unit
    kitty_points: int | None = None  # the kitty's points when its cards are not recorded
    friend_seats: list[int | None] = field(default_factory=list)  # 找朋友: who played each called card, if the record says
    conceded: Concession | None = None  # 认输: the deal ended by a side's concession, no last trick nor kitty

    @property
    def points_only(self) -> bool:
        """Whether some of the deal is recorded by points alone (points-only tricks, or the
        defenders' points): its cards do not make the hands."""
        return self.defender_points is not None or any(t.points is not None for t in self.tricks)


@dataclass
class ParsedRecord:
    options: Options
    players: int
    start_levels: list[int]
    deals: list[ParsedDeal]
    mid_game: bool = False  # the record starts mid-game: no first-deal rules (RULES §9)

    @property
    def starts_the_game(self) -> bool:
        """Whether the record's first deal is the deal that starts the game: every start
        level is the starting level 2 and the record does not say ``"mid_game": true``."""
        return not self.mid_game and all(x == 0 for x in self.start_levels)


def _int(value: Any, where: str, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value < hi:
        raise RecordError("record.seat", where=where, most=hi - 1, value=value)
    return value


MAX_DEALS = 1000
"""The most deals a record may hold (a game to A takes a few dozen)."""
MAX_NAME_LENGTH = MAX_NAME
"""The longest player name, in characters (the names' rule: :mod:`scorer.names`)."""


MAX_COPIES = 4
"""The most copies of one card any decks hold (four decks)."""


def _most_copies(cards: list[Any]) -> int:
    counts = [0] * 54
    for card in cards:
        counts[card] += 1
    return max(counts)


def _cards(value: Any, where: str, decks: int = 4, *, copies_limit: bool = False) -> list[int]:
    """A list of cards, no longer than ``decks`` decks hold; ``copies_limit`` (plays and attempts):
    no card more than :data:`MAX_COPIES` times either. Checked here, before any search reads the
    cards: a play of 60 copies of one card would make the ladders of its unit exponential. (A copy
    more than the record's own decks hold, a misread, stays the audit's ``card-not-available``.)"""
    if not isinstance(value, list):
        raise RecordError("record.cards_list", where=where)
    if len(value) > 54 * decks:
        raise RecordError("record.cards_count", where=where, count=len(value), decks=decks, cards=54 * decks)
    # canonical names (what records hold): looked up at once; anything else is parsed one by one below
    fast = [CARD_INDEX.get(text) if type(text) is str else None for text in value]
    if None not in fast and not (copies_limit and len(fast) > MAX_COPIES and _most_copies(fast) > MAX_COPIES):
        return fast  # type: ignore[return-value]
    out = []
    copies: dict[int, int] = {}
    for text in value:
        try:
            card = int(parse_card(text))
        except CardError as exc:
            raise RecordError("record.at", where=where, error=exc) from None
        copies[card] = copies.get(card, 0) + 1
        if copies_limit and copies[card] > MAX_COPIES:
            raise RecordError("record.copies", where=where, copies=copies[card], card=text, most=MAX_COPIES)
        out.append(card)
    return out


def _rank(value: Any, where: str) -> int:
    r = str(value).strip().upper() if isinstance(value, (str, int)) and not isinstance(value, bool) else None
    if r == "T":
        r = "10"
    if r not in RANKS:
        raise RecordError("record.level", where=where, value=value)
    return RANKS.index(r)


def parse_record(record: Any) -> ParsedRecord:
    """Check a record's structure and parse it; raises :class:`RecordError` naming the place."""
    if not isinstance(record, dict):
        raise RecordError("record.object")
    fmt = record.get("format", RECORD_FORMAT)
    if fmt != RECORD_FORMAT:
        raise RecordError("record.format", want=RECORD_FORMAT, value=fmt)
    if "rules" not in record:
        raise RecordError("record.missing", where="rules")
    try:
        options = resolve_rules(record["rules"])
    except RulesError as exc:
        raise RecordError(exc.key, **exc.params) from None
    deals = record.get("deals")
    if not isinstance(deals, list):
        raise RecordError("record.list", where="deals")
    players = record.get("players")
    if players is not None:
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RecordError("record.names")
        for i, p in enumerate(players):
            if len(p) > MAX_NAME_LENGTH:
                raise RecordError("record.name_length", where=f"players[{i}]", length=len(p), most=MAX_NAME_LENGTH)
            bad = next((char for char in p if unprintable(char)), None)
            if bad is not None:
                raise RecordError("name.unprintable", where=f"players[{i}]", char=f"U+{ord(bad):04X}")
        n = len(players)
    else:
        n = 0
        for _i, d in enumerate(deals):
            if isinstance(d, dict) and isinstance(d.get("hands"), list):
                n = len(d["hands"])
                break
        else:
            n = options.players[0]
    if n not in options.players:
        raise RecordError("record.player_count", allowed=tuple(options.players), players=n)
    if n % 2 and not options.friends:
        raise RecordError("record.odd_players", players=n)
    start = record.get("start_levels")
    if start is None:
        start_levels = [0] * n
    else:
        if not isinstance(start, list) or len(start) != n:
            raise RecordError("record.start_levels", players=n)
        start_levels = [_rank(v, f"start_levels[{i}]") for i, v in enumerate(start)]
    mid_game = record.get("mid_game", False)
    if not isinstance(mid_game, bool):
        raise RecordError("record.bool", where="mid_game")
    if len(deals) > MAX_DEALS:
        raise RecordError("record.deals", deals=len(deals), most=MAX_DEALS)
    parsed = [_parse_deal(d, f"deals[{i}]", n, options.decks) for i, d in enumerate(deals)]
    return ParsedRecord(options, n, start_levels, parsed, mid_game)


def _parse_deal(d: Any, where: str, n: int, decks: int = 4) -> ParsedDeal:
    if not isinstance(d, dict):
        raise RecordError("record.object_at", where=where)
    if "level" not in d:
        raise RecordError("record.missing", where=f"{where}.level")
    level = _rank(d["level"], f"{where}.level")
    trump = d.get("trump")
    if trump not in ("S", "H", "C", "D", "NT"):
        raise RecordError("record.trump", where=f"{where}.trump", value=trump)
    dealer = _int(d.get("dealer"), f"{where}.dealer", 0, n)
    hands = None
    if d.get("hands") is not None:
        if not isinstance(d["hands"], list) or len(d["hands"]) != n:
            raise RecordError("record.hands", where=f"{where}.hands", players=n)
        hands = [_cards(h, f"{where}.hands[{i}]", decks) for i, h in enumerate(d["hands"])]
    kitty = _cards(d["kitty"], f"{where}.kitty", decks) if d.get("kitty") is not None else None
    bids = None
    if d.get("bids") is not None:
        if not isinstance(d["bids"], list):
            raise RecordError("record.list", where=f"{where}.bids")
        bids = []
        for i, b in enumerate(d["bids"]):
            bw = f"{where}.bids[{i}]"
            if not isinstance(b, dict):
                raise RecordError("record.object_at", where=bw)
            cards = _cards(b.get("cards"), f"{bw}.cards", decks)
            if not cards:
                raise RecordError("record.empty_bid", where=f"{bw}.cards")
            bids.append({"seat": _int(b.get("seat"), f"{bw}.seat", 0, n), "cards": cards,
                         "after_kitty": bool(b.get("after_kitty", False))})
    friends: list[tuple[int, int]] = []
    friend_seats: list[int | None] = []
    if d.get("friends") is not None:
        if not isinstance(d["friends"], list):
            raise RecordError("record.list", where=f"{where}.friends")
        for i, f in enumerate(d["friends"]):
            fw = f"{where}.friends[{i}]"
            if not isinstance(f, dict):
                raise RecordError("record.object_at", where=fw)
            try:
                value: Any = f.get("card")
                card = int(parse_card(value))
            except CardError as exc:
                raise RecordError("record.at", where=f"{fw}.card", error=exc) from None
            nth = f.get("nth", 1)
            if not isinstance(nth, int) or isinstance(nth, bool) or nth < 1:
                raise RecordError("record.nth", where=f"{fw}.nth")
            friends.append((card, nth))
            # who played the called copy, for a deal whose cards do not show it (只记分)
            friend_seats.append(_int(f["seat"], f"{fw}.seat", 0, n) if f.get("seat") is not None else None)
    tricks_raw = d.get("tricks", [])
    if not isinstance(tricks_raw, list):
        raise RecordError("record.list", where=f"{where}.tricks")
    if len(tricks_raw) > 54 * decks:
        raise RecordError("record.tricks", where=f"{where}.tricks", tricks=len(tricks_raw), cards=54 * decks)
    tricks = []
    for i, t in enumerate(tricks_raw):
        tw = f"{where}.tricks[{i}]"
        if not isinstance(t, dict):
            raise RecordError("record.object_at", where=tw)
        if t.get("points") is not None:
            tricks.append(_points_trick(t, tw, n, decks))
            continue
        leader = _int(t.get("leader"), f"{tw}.leader", 0, n)
        plays_raw = t.get("plays")
        if not isinstance(plays_raw, list):
            raise RecordError("record.list", where=f"{tw}.plays")
        if len(plays_raw) > n:
            raise RecordError("record.plays", where=f"{tw}.plays", plays=len(plays_raw), players=n)
        if len(plays_raw) < n and i != len(tricks_raw) - 1:
            raise RecordError("record.incomplete", where=f"{tw}.plays", plays=len(plays_raw), players=n)
        plays = [_cards(p, f"{tw}.plays[{j}]", decks, copies_limit=True) for j, p in enumerate(plays_raw)]
        attempt = (_cards(t["attempt"], f"{tw}.attempt", decks, copies_limit=True)
                   if t.get("attempt") is not None else None)
        missing = _missing(t.get("missing"), f"{tw}.missing", n, leader, plays)
        unconfirmed = _unconfirmed(t.get("unconfirmed"), f"{tw}.unconfirmed", n, leader, plays)
        tricks.append(ParsedTrick(leader, plays, attempt, missing=missing, unconfirmed=unconfirmed))
    complete = d.get("complete")
    if complete is not None and not isinstance(complete, bool):
        raise RecordError("record.bool", where=f"{where}.complete")
    rulings = _parse_rulings(d.get("rulings"), f"{where}.rulings", n, len(tricks))
    deal = ParsedDeal(level, trump, dealer, hands, kitty, bids, friends, tricks, complete, rulings,
                      friend_seats=friend_seats)
    _parse_points(d, deal, where, n, decks)
    return deal


def _unconfirmed(value: Any, where: str, n: int, leader: int, plays: list[list[int]]) -> tuple[tuple[int, int], ...]:
    """A trick's ``unconfirmed``: ``[seat, index]`` of each card a person has yet to confirm
    (docs/RECORD.md). An entry naming no card of that seat's play in this trick (a play taken
    back since) leaves nothing to confirm and is passed over: records written before it was
    cleared with the play still open.

    >>> _unconfirmed([[2, 1], [2, 2], [3, 0]], "t.unconfirmed", 4, 1, [[5, 6], [7, 8]])
    ((2, 1),)
    >>> _unconfirmed([[2]], "t.unconfirmed", 4, 1, [[5, 6], [7, 8]])
    Traceback (most recent call last):
    ...
    tuolaji.scorer.record.RecordError: t.unconfirmed[0]: expected a list of [seat, card index] pairs of cards to confirm
    """
    if value is None:
        return ()
    if not isinstance(value, list) or len(value) > 54 * n:
        raise RecordError("record.unconfirmed", where=where)
    out: list[tuple[int, int]] = []
    for i, entry in enumerate(value):
        at = f"{where}[{i}]"
        if not isinstance(entry, list) or len(entry) != 2:
            raise RecordError("record.unconfirmed", where=at)
        seat = _int(entry[0], f"{at}[0]", 0, n)
        index = entry[1]
        if not isinstance(index, int) or isinstance(index, bool) or index < 0:
            raise RecordError("record.unconfirmed", where=f"{at}[1]")
        position = (seat - leader) % n  # seats.position_of
        played = len(plays[position]) if position < len(plays) else 0
        if index < played and (seat, index) not in out:
            out.append((seat, index))
    return tuple(out)


def _missing(value: Any, where: str, n: int, leader: int, plays: list[list[int]]) -> tuple[int, ...]:
    """A trick's ``missing``: the seats whose play the camera did not see (docs/RECORD.md), each
    once, each among the trick's plays so far, each with the play ``[]``.

    >>> _missing([2], "t.missing", 4, 1, [[5], [], [6]])
    (2,)
    >>> _missing([2], "t.missing", 4, 1, [[5], [7], [6]])
    Traceback (most recent call last):
    ...
    tuolaji.scorer.record.RecordError: t.missing: seat 2's play was not seen, so its play is [], not 1 card
    """
    if value is None:
        return ()
    if not isinstance(value, list) or len(value) > n:
        raise RecordError("record.missing_seats", where=where)
    out: list[int] = []
    for i, raw in enumerate(value):
        seat = _int(raw, f"{where}[{i}]", 0, n)
        if seat in out:
            raise RecordError("record.missing_twice", where=where, seat=seat)
        position = (seat - leader) % n  # seats.position_of
        if position >= len(plays):
            raise RecordError("record.missing_not_played", where=where, seat=seat)
        if plays[position]:
            raise RecordError("record.missing_played", where=where, seat=seat, count=len(plays[position]))
        out.append(seat)
    return tuple(out)


def missing_winner(order: TrumpOrder, options: Options, players: int, deal: ParsedDeal, trick: int
                   ) -> tuple[int | None, bool]:
    """Who won a complete trick with a play missing (docs/RECORD.md ``missing``), and whether that is
    provisional: the next trick's leader when a next trick names one (the table saw who won),
    else the best of the known plays, provisional (a missing play might have beaten it), else
    (the lead itself missing) nobody known: ``(None, True)``."""
    from .formats import Lead
    from .state import trick_resolution

    t = deal.tricks[trick]
    if trick + 1 < len(deal.tricks) and deal.tricks[trick + 1].leader >= 0:
        return deal.tricks[trick + 1].leader, False
    if t.leader in t.missing:
        return None, True
    lead = Lead.of(order, t.plays[0], options)
    return seat_of(t.leader, trick_resolution(order, lead, t.plays, options.throw_compare, options), players), True


MAX_POINTS = 10_000
"""The most points any count of a record may say (four decks hold 400)."""


def _points(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_POINTS:
        raise RecordError("record.points", where=where, most=MAX_POINTS, value=value)
    return value


def _unit(t: dict[str, Any], where: str, decks: int) -> tuple[int | None, bool]:
    """The ``unit`` (cards of the winning play's largest unit) and ``trump`` of a last trick."""
    unit = t.get("unit")
    if unit is not None and (not isinstance(unit, int) or isinstance(unit, bool) or not 1 <= unit <= 54 * decks):
        raise RecordError("record.unit", where=f"{where}.unit", most=54 * decks, value=unit)
    by_trump = t.get("trump", True)
    if not isinstance(by_trump, bool):
        raise RecordError("record.bool", where=f"{where}.trump")
    return unit, by_trump


def _points_trick(t: dict[str, Any], where: str, n: int, decks: int) -> ParsedTrick:
    """A points-only trick (docs/RECORD.md 只记分): ``winner`` and ``points``, ``leader`` if known,
    ``unit`` and ``trump`` for the last one; no cards."""
    for key in ("plays", "attempt", "missing"):
        if t.get(key):
            raise RecordError("record.points_and_cards", where=where, key=key)
    points = _points(t["points"], f"{where}.points")
    winner = _int(t.get("winner"), f"{where}.winner", 0, n)
    leader = _int(t["leader"], f"{where}.leader", 0, n) if t.get("leader") is not None else -1
    unit, by_trump = _unit(t, where, decks)
    return ParsedTrick(leader, [], None, winner, points, unit, by_trump)


def points_trick(winner: int, points: int, *, leader: int | None = None, unit: int | None = None,
                 trump: bool = True) -> PointsTrick:
    """A trick for a record that keeps points only (docs/RECORD.md 只记分): who won it and the
    points in it, no cards; ``leader`` when the table noted it (the audit checks it); for the
    last trick ``unit``, the cards of the winning play's largest unit (1 a single, 2 a pair,
    3 a triple, 4 a pair-tractor …), which makes the kitty's multiplier, and ``trump=False``
    when that play was no trump (``kitty_needs_trump``). Append it to a deal's ``tricks``; the
    record is checked as a whole (:func:`validate_record`) and audited like any other.

    >>> points_trick(2, 25), points_trick(1, 10, leader=2, unit=2)
    ({'winner': 2, 'points': 25}, {'leader': 2, 'winner': 1, 'points': 10, 'unit': 2})
    """
    trick: PointsTrick = ({"winner": winner, "points": points} if leader is None
                          else {"leader": leader, "winner": winner, "points": points})
    if unit is not None:
        trick["unit"] = unit
    if not trump:
        trick["trump"] = False
    return trick


def points_deal(defender_points: int, last_winner: int, unit: int, *, trump: bool = True,
                kitty_points: int | None = None) -> PointsDeal:
    """The keys that record a whole deal by points (docs/RECORD.md 只记分): the defenders' points
    from the tricks, who won the last trick and with which unit (the kitty's multiplier), and
    the kitty's points when its cards are not recorded. Merge them into a deal with no
    ``tricks``; such a deal is complete (the audit settles it like a full one).

    >>> points_deal(85, 1, 2, kitty_points=10)
    {'defender_points': 85, 'last_trick': {'winner': 1, 'unit': 2}, 'kitty_points': 10}
    """
    last: LastTrickEntry = {"winner": last_winner, "unit": unit}
    if not trump:
        last["trump"] = False
    deal: PointsDeal = {"defender_points": defender_points, "last_trick": last}
    if kitty_points is not None:
        deal["kitty_points"] = kitty_points
    return deal


def _parse_points(d: dict[str, Any], deal: ParsedDeal, where: str, n: int, decks: int) -> None:
    """A deal's 只记分 keys: ``defender_points`` with ``last_trick`` (then no tricks), and
    ``kitty_points``; a deal partly recorded by points has no ``hands``."""
    if d.get("kitty_points") is not None:
        deal.kitty_points = _points(d["kitty_points"], f"{where}.kitty_points")
    if d.get("defender_points") is not None:
        if deal.tricks:
            raise RecordError("record.points_and_tricks", where=where)
        deal.defender_points = _points(d["defender_points"], f"{where}.defender_points")
        last = d.get("last_trick")
        if last is None:
            raise RecordError("record.missing", where=f"{where}.last_trick")
        if not isinstance(last, dict):
            raise RecordError("record.object_at", where=f"{where}.last_trick")
        unit, by_trump = _unit(last, f"{where}.last_trick", decks)
        deal.last_trick = LastTrick(_int(last.get("winner"), f"{where}.last_trick.winner", 0, n), unit, by_trump)
    elif d.get("last_trick") is not None:
        raise RecordError("record.last_trick", where=f"{where}.last_trick")
    if deal.hands is not None and deal.points_only:
        raise RecordError("record.points_hands", where=f"{where}.hands")
    conceded = d.get("conceded")
    if conceded is not None:
        if not isinstance(conceded, dict):
            raise RecordError("record.object_at", where=f"{where}.conceded")
        if conceded.get("by") not in ("dealer", "defenders"):
            raise RecordError("record.conceded_by", where=f"{where}.conceded.by", value=conceded.get("by"))
        points = conceded.get("points")
        deal.conceded = Concession(conceded["by"], None if points is None else _points(points, f"{where}.conceded.points"))


MAX_RULING_POINTS = 10_000


def _parse_rulings(value: Any, where: str, n: int, tricks: int) -> list[dict[str, Any]]:
    """A deal's ``rulings``: penalties the table applied by hand (for a violation, or of its own),
    ``{"seat", "trick" (or null), "points"}`` or ``{"seat", "trick", "levels"}``; ``rule`` and
    ``note`` are kept as words.

    >>> _parse_rulings([{"seat": 1, "trick": 0, "points": 30, "rule": "must-follow-suit"}], "r", 4, 1)
    [{'seat': 1, 'trick': 0, 'points': 30, 'levels': 0, 'rule': 'must-follow-suit'}]
    """
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > 100:
        raise RecordError("record.rulings", where=where, most=100)
    out = []
    for i, r in enumerate(value):
        rw = f"{where}[{i}]"
        if not isinstance(r, dict):
            raise RecordError("record.object_at", where=rw)
        seat = _int(r.get("seat"), f"{rw}.seat", 0, n)
        trick = None if r.get("trick") is None else _int(r.get("trick"), f"{rw}.trick", 0, tricks)
        points = _int(r.get("points", 0), f"{rw}.points", 0, MAX_RULING_POINTS + 1)
        levels = _int(r.get("levels", 0), f"{rw}.levels", 0, 4)
        if (points > 0) == (levels > 0):
            raise RecordError("record.ruling_amount", where=rw)
        rule = r.get("rule")
        if rule is not None and (not isinstance(rule, str) or len(rule) > 40):
            raise RecordError("record.rule_code", where=f"{rw}.rule")
        entry: dict[str, Any] = {"seat": seat, "trick": trick, "points": points, "levels": levels}
        if rule is not None:
            entry["rule"] = rule
        out.append(entry)
    return out


def validate_record(record: Record) -> None:
    """Raise :class:`RecordError` (naming the place) if ``record`` is not a valid record.

    >>> validate_record({"rules": "standard-2deck", "deals": [{"level": "2", "trump": "H", "dealer": 0,
    ...     "tricks": [{"leader": 0, "plays": [["1H"]]}]}]})
    Traceback (most recent call last):
    ...
    tuolaji.scorer.record.RecordError: deals[0].tricks[0].plays[0]: unknown card "1H"
    """
    parse_record(record)


def loads_record(text: str | bytes, where: str = "record", *, max_bytes: int | None = None) -> Record:
    """Decode a record from JSON text and validate it (RecordError naming the place).

    >>> rec = loads_record('{"rules": "single-deck", "deals": [], "x-note": 1}')
    >>> dumps_record(rec)
    '{"rules": "single-deck", "deals": [], "x-note": 1}'
    """
    from .safejson import MAX_BYTES, JSONInputError, loads

    try:
        record: Record = loads(text, where, max_bytes=max_bytes or MAX_BYTES)
    except JSONInputError as exc:
        raise RecordError(exc.key, **exc.params) from None
    validate_record(record)
    return record


def dumps_record(record: Record, indent: int | None = None) -> str:
    """Encode a record as JSON text (UTF-8 names kept, unknown keys kept, key order kept)."""
    return json.dumps(record, ensure_ascii=False, indent=indent)


_CARD_LIST_KEYS = ("kitty", "attempt")


def normalize_record(record: Record) -> Record:
    """A copy of a valid record with every card in canonical notation (``♥T`` → ``10H``);
    everything else, unknown keys included, is kept as it is.

    >>> rec = {"rules": "single-deck", "deals": [{"level": "2", "trump": "S", "dealer": 0,
    ...        "tricks": [{"leader": 0, "plays": [["♥t"]], "seen_by": "cam1"}]}]}
    >>> normalize_record(rec)["deals"][0]["tricks"][0]
    {'leader': 0, 'plays': [['10H']], 'seen_by': 'cam1'}
    """
    validate_record(record)
    from .cards import format_card

    def canon(cards: list[str]) -> list[str]:
        return [format_card(parse_card(c)) for c in cards]

    copied: Any = json.loads(json.dumps(record))  # a deep copy whose cards are written again below
    for d in copied.get("deals", []):
        if d.get("hands") is not None:
            d["hands"] = [canon(h) for h in d["hands"]]
        for key in _CARD_LIST_KEYS:
            if d.get(key) is not None:
                d[key] = canon(d[key])
        for b in d.get("bids") or []:
            b["cards"] = canon(b["cards"])
        for f in d.get("friends") or []:
            f["card"] = format_card(parse_card(f["card"]))
        for t in d.get("tricks", []):
            if t.get("plays") is not None:  # a points-only trick has none
                t["plays"] = [canon(p) for p in t["plays"]]
            if t.get("attempt") is not None:
                t["attempt"] = canon(t["attempt"])
    normalized: Record = copied
    return normalized


def _deal_index(parsed: ParsedRecord, deal: int) -> int:
    n = len(parsed.deals)
    if not -n <= deal < n:
        raise RecordError("record.no_deal", deal=deal)
    return deal % n


def next_leader(record: Record, deal: int = -1) -> int | None:
    """The seat that must lead the next trick (or is leading the current incomplete one).

    After a trick with a missing play (docs/RECORD.md ``missing``) the best of its known plays
    leads, provisionally (:func:`missing_winner`); None when its lead itself was not seen (who
    won it is unknown: the next trick's first play says who leads).

    >>> rec = {"rules": "single-deck", "deals": [{"level": "2", "trump": "S", "dealer": 3, "tricks": []}]}
    >>> next_leader(rec)
    3
    """
    parsed = parse_record(record)
    i = _deal_index(parsed, deal)
    d = parsed.deals[i]
    if not d.tricks:
        return d.dealer
    last = d.tricks[-1]
    if last.winner is not None:  # a points-only trick: its winner leads next
        return last.winner
    if len(last.plays) < parsed.players:
        return last.leader
    return trick_winner(record, i, len(d.tricks) - 1, _parsed=parsed)


def trick_winner(record: Record, deal: int, trick: int, *, _parsed: ParsedRecord | None = None) -> int | None:
    """Winning seat of a complete trick, None for an incomplete one. A trick with a missing play:
    :func:`missing_winner` (the next trick's leader, else the best known play; None when its lead
    was not seen and no trick follows).

    >>> rec = random_record("single-deck", seed=3, hand_size=2)
    >>> trick_winner(rec, 0, 0) in range(4)
    True
    """
    from .formats import Lead
    from .order import TrumpOrder
    from .state import trick_resolution

    parsed = _parsed or parse_record(record)
    i = _deal_index(parsed, deal)
    d = parsed.deals[i]
    if not -len(d.tricks) <= trick < len(d.tricks):
        raise RecordError("record.no_trick", deal=i, trick=trick)
    t = d.tricks[trick]
    if t.winner is not None:  # a points-only trick says who won it
        return t.winner
    if len(t.plays) < parsed.players:
        return None
    order = TrumpOrder.of(d.level, d.trump, parsed.options.twos_trump)
    if t.missing:
        return missing_winner(order, parsed.options, parsed.players, d, trick % len(d.tricks))[0]
    if not t.plays[0]:
        return t.leader  # an empty lead: nothing can beat it
    lead = Lead.of(order, t.plays[0], parsed.options)
    return seat_of(t.leader, trick_resolution(order, lead, t.plays, parsed.options.throw_compare, parsed.options), parsed.players)


def legal_plays(record: Record, seat: int, deal: int = -1, *, limit: int | None = None) -> list[list[str]]:
    """Every legal play for ``seat`` now, from its hand as the record knows it.

    The hand is the record's ``hands`` minus what the seat has played (without
    ``hands``: the cards it plays later, exact once the deal is complete). Empty when
    it is not the seat's turn. ``limit`` caps the list (discards can be numerous).

    >>> rec = random_record("standard-2deck", seed=5, hand_size=3, tricks=0)
    >>> seat = next_leader(rec)
    >>> all(isinstance(c, str) for play in legal_plays(rec, seat) for c in play)
    True
    """
    from .cards import format_cards

    parsed = parse_record(record)
    i = _deal_index(parsed, deal)
    if not 0 <= seat < parsed.players:
        raise RecordError("record.no_seat", seat=seat)
    state = build_state(parsed, i)
    if state.turn != seat:
        return []
    return [format_cards(p) for p in state.legal_plays(limit)]


def follow_hint(record: Record, seat: int, deal: int = -1) -> str | None:
    """What ``seat`` must play to the trick in progress, in words (None when it is not
    following now, or when the record does not know the seat's hand: without
    ``hands`` a hand during the deal is only what the seat plays later, which says
    nothing about what it must play now). The page's "you must play …" is the same
    fact, :func:`follow_hint_message`, in its languages.

    >>> rec = {"rules": "standard-2deck", "deals": [{"level": "2", "trump": "S", "dealer": 0,
    ...   "hands": [["AH", "AH"], ["3H", "3H", "5H", "9D"], ["4D", "5D"], ["6D", "7D"]],
    ...   "tricks": [{"leader": 0, "plays": [["AH", "AH"]]}]}]}
    >>> follow_hint(rec, 1)
    'follow ♥ with 2 cards: a pair'
    """
    message = follow_hint_message(record, seat, deal)
    return None if message is None else str(message)


def follow_hint_message(record: Record, seat: int, deal: int = -1) -> Message | None:
    """:func:`follow_hint` as data: a ``hint.*`` key of :data:`scorer.messages.MESSAGES_EN` and
    its facts (the suit's label, the cards led, the cards held, the requirement's shapes).

    >>> rec = {"rules": "standard-2deck", "deals": [{"level": "2", "trump": "S", "dealer": 0,
    ...   "hands": [["AH", "AH"], ["3H", "3H", "5H", "9D"], ["4D", "5D"], ["6D", "7D"]],
    ...   "tricks": [{"leader": 0, "plays": [["AH", "AH"]]}]}]}
    >>> follow_hint_message(rec, 1)
    Message(key='hint.follow_requirement', params={'suit': '♥', 'n': 2, 'requirement': ((2, 1),)})
    """
    from .follow import required_rung, suit_holding
    from .order import SUIT_LABELS

    parsed = parse_record(record)
    i = _deal_index(parsed, deal)
    if parsed.deals[i].hands is None:
        return None
    state = build_state(parsed, i)
    trick = state.current
    if trick is None or state.turn != seat or trick.lead is None or trick.lead.mixed:
        return None
    lead = trick.lead
    label = SUIT_LABELS[lead.suit]
    holding = suit_holding(state.order, state.hands[seat], lead.suit)
    held = sum(holding.values())
    if held == 0:
        return Message("hint.none_left", {"suit": label, "n": lead.size})
    if held <= lead.size:
        extra = lead.size - held
        if extra:
            return Message("hint.play_all_and_more", {"held": held, "suit": label, "extra": extra})
        return Message("hint.play_all", {"held": held, "suit": label})
    req = lead.ladder[required_rung(state.order, lead, holding, parsed.options)] if lead.ladder else ()
    if not req:
        return Message("hint.follow", {"suit": label, "n": lead.size})
    return Message("hint.follow_requirement", {"suit": label, "n": lead.size, "requirement": tuple(req)})


def lead_obligation(record: Record, deal: int = -1) -> str | None:
    """What the lead of the trick in progress obliges the followers, in words, without
    any hand (a camera never sees the hands: :func:`follow_hint` and :func:`legal_plays`
    need them). None when no trick is in progress.

    >>> rec = {"rules": "titanic-3deck", "deals": [{"level": "2", "trump": "S", "dealer": 0,
    ...   "tricks": [{"leader": 0, "plays": [["AH", "AH"]]}]}]}
    >>> lead_obligation(rec)
    '♥ pair led: play a ♥ pair if you hold one (a triple counts), else two ♥, else all your ♥ and any other cards'
    """
    obligation = lead_obligation_fact(record, deal)
    return None if obligation is None else str(obligation)


def lead_obligation_fact(record: Record, deal: int = -1) -> Obligation | None:
    """:func:`lead_obligation` as data (:class:`scorer.follow.Obligation`: the suit, the lead's
    units, the ladder of requirements), for the page to word in its languages.

    >>> rec = {"rules": "titanic-3deck", "deals": [{"level": "2", "trump": "S", "dealer": 0,
    ...   "tricks": [{"leader": 0, "plays": [["AH", "AH"]]}]}]}
    >>> lead_obligation_fact(rec).key
    'obligation.ladder'
    """
    from .follow import obligation_of

    parsed = parse_record(record)
    d = parsed.deals[_deal_index(parsed, deal)]
    if (not d.tricks or len(d.tricks[-1].plays) >= parsed.players or not d.tricks[-1].plays
            or not d.tricks[-1].plays[0]):  # no lead yet, or a lead not seen (``missing``)
        return None
    from .formats import Lead
    from .order import TrumpOrder

    order = TrumpOrder.of(d.level, d.trump, parsed.options.twos_trump)
    return obligation_of(Lead.of(order, d.tricks[-1].plays[0], parsed.options), parsed.options)


def seat_points(record: Record, deal: int = -1) -> list[int]:
    """Points each seat has won so far (找朋友: everyone keeps his own until revealed).

    >>> rec = random_record("friends-3deck", seed=2, players=5)
    >>> sum(seat_points(rec)) + sum(parse_card(c).points for c in rec["deals"][0]["kitty"])
    300
    """
    parsed = parse_record(record)
    return list(build_state(parsed, _deal_index(parsed, deal)).points)


def dealer_side_seats(record: Record, deal: int = -1) -> list[int]:
    """Seats known to be on the dealer's side so far (friends revealed by their card).

    >>> dealer_side_seats({"rules": "standard-2deck", "deals": [{"level": "2", "trump": "S", "dealer": 1}]})
    [1, 3]
    """
    parsed = parse_record(record)
    return parsed_dealer_side(parsed, parsed.deals[_deal_index(parsed, deal)])


def dealer_sides(record: Record) -> list[list[int]]:
    """:func:`dealer_side_seats` of every deal (one reading of the record).

    >>> dealer_sides({"rules": {"profile": "standard-2deck", "players": [6]}, "players": list("abcdef"),
    ...               "deals": [{"level": "2", "trump": "S", "dealer": 0}]})
    [[0, 2, 4]]
    """
    parsed = parse_record(record)
    return [parsed_dealer_side(parsed, d) for d in parsed.deals]


def parsed_dealer_side(parsed: ParsedRecord, d: ParsedDeal) -> list[int]:
    """The seats of the dealer's side of the parsed deal ``d`` (找朋友: as its plays revealed them)."""
    from .scoring import dealer_side

    n = parsed.players
    plays = [(seat_of(t.leader, j, n), p) for t in d.tricks for j, p in enumerate(t.plays)]
    return sorted(dealer_side(parsed.options.friends, n, d.dealer, d.friends, plays, d.friend_seats))


def build_state(parsed: ParsedRecord, deal: int) -> DealState:
    """A :class:`DealState` after the deal's recorded plays (recorded leaders respected)."""
    d = parsed.deals[deal]
    n = parsed.players
    if d.hands is not None:
        hands = [list(h) for h in d.hands]
    else:
        hands = [[] for _ in range(n)]
        for t in d.tricks:
            for j, p in enumerate(t.plays):
                hands[seat_of(t.leader, j, n)].extend(p)
    state = DealState(parsed.options, d.level, d.trump, d.dealer, hands, n)
    for i, t in enumerate(d.tricks):
        if t.winner is not None and t.points is not None:  # points only
            state.push_points(t.winner, t.points, t.leader if t.leader >= 0 else None)
            continue
        for j, p in enumerate(t.plays):
            state.push(list(p), leader=t.leader if j == 0 else None)
        if t.missing and len(t.plays) == n:  # a play not seen: the winner is the audit's (missing_winner)
            winner = missing_winner(state.order, parsed.options, n, d, i)[0]
            if winner is not None:
                state.award(winner)
    return state


def random_record(profile: str, seed: int, *, players: int | None = None, tricks: int | None = None,
                  hand_size: int | None = None, rules: Any = None, attempt_chance: float = 0.0,
                  dealer: int | None = None, level: str | None = None, trump: str | None = None) -> Record:
    """A random deal played with the legal-play generator, as a record.

    ``tricks`` keeps only the first N tricks (``"complete": false`` unless all were
    played); ``hand_size`` deals smaller hands. ``rules`` may override options.
    ``dealer``, ``level`` and ``trump`` fix those instead of drawing them at random.
    ``attempt_chance``: how often a leader tries a throw that fails (recorded as the
    trick's ``attempt``; the leader then plays the forced unit).

    >>> rec = random_record("titanic-3deck", seed=7)
    >>> [len(h) for h in rec["deals"][0]["hands"]], len(rec["deals"][0]["kitty"])
    ([39, 39, 39, 39], 6)
    """
    rules_value: Any = rules if rules is not None else profile
    options = resolve_rules(rules_value)
    rng = random.Random(seed)
    n = players if players is not None else rng.choice(options.players)
    if n not in options.players:
        options = resolve_rules({**(rules_value if isinstance(rules_value, dict) else {"profile": profile}),
                                 "players": [n]})
        rules_value = {**(rules_value if isinstance(rules_value, dict) else {"profile": profile}), "players": [n]}
    deck = [c for c in range(54) for _ in range(options.decks)]
    rng.shuffle(deck)
    size = hand_size if hand_size is not None else options.hand_size_for(n)
    kitty_size = options.kitty_size_for(n)
    if size * n + kitty_size > len(deck):
        raise RulesError("rules.hand_size", size=size, players=n, decks=options.decks)
    hands = [deck[i * size:(i + 1) * size] for i in range(n)]
    kitty = deck[n * size:n * size + kitty_size]
    level_index = rng.randrange(13)
    trump_pick = rng.choice(["S", "H", "C", "D", "NT"])
    dealer_pick = rng.randrange(n)
    if level is not None:
        level_index = RANKS.index(level)
    trump = trump if trump is not None else trump_pick
    dealer = dealer if dealer is not None else dealer_pick
    state = DealState(options, level_index, trump, dealer, hands, n)
    deal: Deal = {
        "level": RANKS[level_index],
        "trump": trump,
        "dealer": dealer,
        "hands": [sorted_names(state, h) for h in hands],
        "kitty": sorted_names(state, kitty),
    }
    if options.friends:
        deal["friends"] = _random_friends(rng, options, n, state)
    played: list[Trick] = []
    while not state.is_over():
        if tricks is not None and len(played) >= tricks:
            break
        leader = state.turn
        plays: list[Play] = []
        attempt: Play | None = None
        for j in range(n):
            play = None
            if j == 0 and attempt_chance and rng.random() < attempt_chance:
                tried = state.failing_throw(leader, rng)
                if tried is not None:
                    attempt = sorted_names(state, tried[0])
                    play = tried[1]
            if play is None:
                play = state.random_play(rng)
            state.push(play)
            plays.append(sorted_names(state, play))
        trick: CardTrick = ({"leader": leader, "plays": plays} if attempt is None
                            else {"leader": leader, "attempt": attempt, "plays": plays})
        played.append(trick)
    deal["tricks"] = played
    deal["complete"] = state.is_over()
    return {
        "format": RECORD_FORMAT,
        "rules": rules_value,
        "players": [f"P{i + 1}" for i in range(n)],
        "start_levels": [RANKS[level_index]] * n,
        "deals": [deal],
    }


def _random_friends(rng: random.Random, options: Options, n: int, state: DealState) -> list[FriendCall]:
    plain = [c for c in range(52) if state.order.suit[c] != 4]
    calls: list[FriendCall] = []
    for _ in range(options.friends_count(n)):
        card = rng.choice(plain)
        calls.append({"card": _name(card), "nth": rng.randint(1, options.decks)})
    return calls


def _name(card: int) -> str:
    from .cards import CARD_NAMES

    return CARD_NAMES[card]


def sorted_names(state: DealState, cards: list[int]) -> list[str]:
    """Card names sorted high to low in the deal's order (trumps first)."""
    from .cards import CARD_NAMES

    order = state.order
    return [CARD_NAMES[c] for c in sorted(cards, key=lambda c: (order.suit[c] == 4, -order.suit[c],
                                                                order.value[c], c), reverse=True)]


__all__ = [
    "RecordError", "loads_record", "dumps_record", "normalize_record", "ParsedRecord", "ParsedDeal", "ParsedTrick", "parse_record", "validate_record",
    "next_leader", "trick_winner", "legal_plays", "follow_hint", "follow_hint_message", "lead_obligation",
    "lead_obligation_fact", "seat_points", "dealer_side_seats", "dealer_sides", "random_record", "build_state", "SUITS",
    "LastTrick", "points_deal", "points_trick", "missing_winner",
]
