"""The record's shape as types (docs/RECORD.md): a record, its deals, their tricks (with cards or
by their points alone) and a seat's play, as the JSON holds them.

These describe what a record holds after :func:`~scorer.record.validate_record`; the rules core
checks the values (:func:`~scorer.record.parse_record`), these tell the type checker and a reader
which keys there are. Unknown keys are kept on every round trip, so a record may hold more.

>>> trick: CardTrick = {"leader": 1, "plays": [["AS", "AS"], ["3S", "4S"]]}
>>> scored: PointsTrick = {"winner": 3, "points": 10, "unit": 2}
>>> deal: Deal = {"level": "2", "trump": "S", "dealer": 0, "tricks": [trick, scored]}
>>> record: Record = {"rules": "standard-2deck", "players": ["a", "b", "c", "d"], "deals": [deal]}
>>> is_points_trick(scored), is_points_trick(trick)
(True, False)
"""

from __future__ import annotations

from typing import Any, NotRequired, TypeAlias, TypedDict, TypeGuard

Play: TypeAlias = list[str]
"""One seat's cards in a trick, in the record's notation (``["AS", "AS"]``); ``[]`` when the play
was not seen (the seat is in the trick's ``missing``)."""


class CardTrick(TypedDict):
    """A trick with its cards: the leader's seat, then each seat's play in turn (only the last
    trick of a deal may be incomplete)."""

    leader: int
    plays: list[Play]
    attempt: NotRequired[Play]
    """A failed throw's cards, shown and taken back; the leader's play is the unit he was held to."""
    missing: NotRequired[list[int]]
    """The seats whose play was not seen (their play is ``[]``)."""


class PointsTrick(TypedDict):
    """A trick by its points alone (只记分): who won it and its points; no cards."""

    winner: int
    points: int
    leader: NotRequired[int]
    unit: NotRequired[int]
    """The last trick's largest winning unit (1 a single, 2 a pair, …): the kitty's multiplier."""
    trump: NotRequired[bool]
    """The last trick: ``False`` when the winning cards were not trumps."""
    agreed: NotRequired[bool]
    """认输 / 直接结算: a trick the table settled by the points agreed, before the deal's end."""


Trick: TypeAlias = CardTrick | PointsTrick


class LastTrickEntry(TypedDict):
    """A deal kept by the defenders' points: who won its last trick, with what unit."""

    winner: int
    unit: NotRequired[int]
    trump: NotRequired[bool]


class PointsDeal(TypedDict):
    """The keys that keep a whole deal by the defenders' points (no ``tricks``), merged into a deal."""

    defender_points: int
    last_trick: LastTrickEntry
    kitty_points: NotRequired[int]


class BidEntry(TypedDict):
    """One bid, in the order made: every card shown (a reinforcement repeats the earlier ones)."""

    seat: int
    cards: list[str]
    after_kitty: NotRequired[bool]


class FriendCall(TypedDict):
    """找朋友: the dealer's call, the ``nth`` copy of ``card``; ``seat`` when the record shows who."""

    card: str
    nth: int
    seat: NotRequired[int]


class ConcededEntry(TypedDict):
    """认输: the side that conceded (``"dealer"`` or ``"defenders"``) and the defenders' points agreed
    (absent: the house's fixed cost, the rules' ``concede``)."""

    by: str
    points: NotRequired[int]


class Deal(TypedDict):
    """One deal: its level, trump and dealer, then what was played (cards or points)."""

    level: str
    trump: str
    dealer: NotRequired[int]
    bids: NotRequired[list[BidEntry]]
    hands: NotRequired[list[list[str]]]
    kitty: NotRequired[list[str]]
    kitty_points: NotRequired[int]
    friends: NotRequired[list[FriendCall]]
    tricks: NotRequired[list[Trick]]
    defender_points: NotRequired[int]
    last_trick: NotRequired[LastTrickEntry]
    complete: NotRequired[bool]
    agreed: NotRequired[bool]
    conceded: NotRequired[ConcededEntry]
    rulings: NotRequired[list[dict[str, Any]]]


class Record(TypedDict):
    """A game record (``tuolaji-record/1``): the rules, the players by seat and the deals."""

    rules: str | dict[str, Any]
    """A profile's name, or ``{"profile": …, <option>: …}``."""
    players: list[str]
    deals: list[Deal]
    format: NotRequired[str]
    start_levels: NotRequired[list[str]]
    mid_game: NotRequired[bool]
    name: NotRequired[str]
    history: NotRequired[list[dict[str, Any]]]
    """The changes made on the page, for undo and redo (docs/RECORD.md)."""


def is_points_trick(trick: Trick | dict[str, Any]) -> TypeGuard[PointsTrick]:
    """Whether ``trick`` is kept by its points alone (its ``points`` given, and no cards): the one test
    of a 只记分 trick, wherever a trick is read."""
    return trick.get("points") is not None
