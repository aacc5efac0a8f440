"""The live game's commands: one frozen type per kind of change, each a pure ``record → record``
function over one deal (:meth:`Command.applied`).

:meth:`session.live.LiveGame.apply` is the one way a record changes: it hands a command the
current record and a :class:`Context` (the record's audit run, audited when first asked), and the
command answers an :class:`Outcome`: the new record (the deal it changed copied, every other
deal shared), the deal changed and its journal's params; or it refuses (an :class:`InputError`)
and nothing changes. The command's ``kind`` is its one name: the journal's, the events', the
club's (:class:`session.journal.Change`). ``by_person``: a person made it on the page, so the
record's history keeps it (``logged_as``, the history's name of the change, docs/RECORD.md) and
undo takes it back.

>>> record = {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": list("abcd"),
...           "deals": [{"level": "2", "trump": "S", "dealer": 0, "tricks": []}]}
>>> outcome = Play(0, ("AH",)).applied(record, Context.of(record))
>>> outcome.record["deals"][0]["tricks"], outcome.deal, record["deals"][0]["tricks"]
([{'leader': 0, 'plays': [['AH']]}], 0, [])
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from tuolaji import scorer
from tuolaji.scorer.cards import pretty_card
from tuolaji.scorer.errors import InputError
from tuolaji.scorer.record_types import is_points_trick
from tuolaji.scorer.scoring import defender_seats, defenders_trick_points
from tuolaji.scorer.seats import position_of, seat_of

from . import changes
from . import history as session_history
from .storage import clone, copy_record

Record = dict[str, Any]


class OutOfTurnError(InputError):
    """A play arrived for a seat whose turn it is not (mid-trick)."""


class NoSuchCardError(InputError):
    """A correction names a trick, seat or card position that the record does not have."""


@dataclass(frozen=True)
class Context:
    """What a command reads besides the record: the record's one audit run (audited when asked)."""

    audited: Callable[[], scorer.AuditRun]

    @classmethod
    def of(cls, record: Record) -> Context:
        """The context of a record on its own (audited whole when a command asks)."""
        return cls(lambda: scorer.audit_again(changes.rules_record(record)))


@dataclass(frozen=True)
class Outcome:
    """What a command made: the new record, the deal it changed (None: the whole record) and the
    journal's params (its arguments as JSON values, with what it found: a trick's number, …);
    ``logged``: the entry it added to the record's history itself (an undo, a redo)."""

    record: Record
    deal: int | None
    params: dict[str, Any]
    logged: dict[str, Any] | None = None


def validate_deal(record: Record, deal_index: int) -> None:
    """:func:`scorer.validate_record` of a record whose deal ``deal_index`` alone changed: that deal
    is checked (with the record's rules and players), not every deal again."""
    try:
        scorer.validate_record(changes.rules_record(record | {"deals": [record["deals"][deal_index]]}))
    except InputError:
        scorer.validate_record(changes.rules_record(record))  # raises, naming the deal where it is
        raise


def with_deal_copied(record: Record, deal_index: int) -> Record:
    """A new record that shares everything with ``record`` but deal ``deal_index`` (a copy to
    change): a change copies what it changes, not the whole game."""
    candidate = dict(record)
    candidate["deals"] = list(record["deals"])
    candidate["deals"][deal_index] = clone(record["deals"][deal_index])
    return candidate


def canonical(cards: tuple[str, ...] | list[str]) -> list[str]:
    return [scorer.format_card(scorer.parse_card(card)) for card in cards]


def play_of(trick: dict[str, Any], seat: int, players: int) -> list[str] | None:
    """``seat``'s play in a trick (None: not played yet, or a points-only trick: no cards)."""
    if is_points_trick(trick):
        return None  # 只记分: no cards
    position = position_of(trick["leader"], seat, players)
    plays: list[list[str]] = trick["plays"]
    return plays[position] if position < len(plays) else None


def _players(record: Record) -> int:
    return len(record["players"])


class Command(ABC):
    """A change of the record: ``kind`` its name, :meth:`applied` the change."""

    kind: ClassVar[str]
    logged_as: ClassVar[str | None] = None
    """The name the record's history keeps a person's change under (docs/RECORD.md)."""
    by_person: bool = False

    @abstractmethod
    def applied(self, record: Record, context: Context) -> Outcome:
        """The record with this change made (``record`` itself unchanged), or a refusal."""

    def history_name(self) -> str | None:
        """The history entry's name when the change is a person's, else None (not kept there)."""
        return self.logged_as if self.by_person else None


def _one_deal(record: Record, deal_index: int, kind: str) -> tuple[Record, int]:
    """A copy of ``record`` whose deal ``deal_index`` (negative: from the end) may be changed."""
    deals = record["deals"]
    if not deals:
        raise InputError("session.no_deal", what=kind)
    if not -len(deals) <= deal_index < len(deals):
        raise NoSuchCardError("record.no_deal", deal=deal_index)
    deal_index %= len(deals)
    return with_deal_copied(record, deal_index), deal_index


def _edited(record: Record, deal_index: int, kind: str, params: dict[str, Any],
            edit: Callable[[Record, int], None]) -> Outcome:
    candidate, index = _one_deal(record, deal_index, kind)
    edit(candidate, index)
    validate_deal(candidate, index)
    return Outcome(candidate, index, params)


def _new_trick_due(tricks: list[dict[str, Any]], players: int) -> bool:
    return not tricks or is_points_trick(tricks[-1]) or len(tricks[-1]["plays"]) >= players


# --- the plays ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Play(Command):
    """A settled play by ``seat`` into the current trick of the current deal.

    A play that starts a trick may come from any seat (a wrong leader is the audit's business); in
    the middle of a trick only the expected seat may play. ``unconfirmed``: indices into ``cards``
    a person must confirm; ``attempt``: the failed throw the lead replaces. ``picture``: where the
    picture of the play is kept (``{"file", "frame", "time_s"}``), added to the deal's ``pictures``
    with the trick and seat (a key docs/RECORD.md readers ignore). ``seen``: the (deal, trick) its
    sender saw the play going into (the page): a play another device recorded meanwhile, or a table
    that moved on, refuses it rather than giving the cards to the next seat. A play after the deal's
    last trick is refused (the kitty comes next)."""

    kind: ClassVar[str] = "play"
    logged_as: ClassVar[str | None] = "play"
    seat: int
    cards: tuple[str, ...]
    confidence: tuple[float, ...] = ()
    unconfirmed: tuple[int, ...] = ()
    attempt: tuple[str, ...] | None = None
    frame: int | None = None
    time_s: float | None = None
    picture: dict[str, Any] | None = field(default=None, compare=False)
    by_person: bool = False
    seen: tuple[int, int] | None = None

    def applied(self, record: Record, context: Context) -> Outcome:
        if not record["deals"]:
            raise InputError("session.no_deal_to_play")
        cards = canonical(self.cards)
        players = _players(record)
        deal_index = len(record["deals"]) - 1
        _check_not_over(record, deal_index, context)
        if self.seen is not None:
            _check_seen(record, self.seen, self.seat)
        candidate = with_deal_copied(record, deal_index)
        tricks = candidate["deals"][deal_index].setdefault("tricks", [])
        if _new_trick_due(tricks, players):
            tricks.append({"leader": self.seat, "plays": []})  # a points-only trick (只记分) is a whole one
        trick = tricks[-1]
        expected = seat_of(trick["leader"], len(trick["plays"]), players)
        if trick["plays"] and self.seat != expected:
            raise OutOfTurnError("session.out_of_turn", deal=deal_index, trick=len(tricks) - 1, seat=self.seat,
                                 turn=expected)
        trick["plays"].append(cards)
        attempt = canonical(self.attempt) if self.attempt else None
        if attempt:
            trick["attempt"] = attempt
        for index in self.unconfirmed:
            trick.setdefault("unconfirmed", []).append([self.seat, int(index)])
        if self.picture is not None:
            candidate["deals"][deal_index].setdefault("pictures", []).append(
                {"trick": len(tricks) - 1, "seat": self.seat, **self.picture})
        validate_deal(candidate, deal_index)  # e.g. more copies of a card than the decks hold: refused, not saved
        return Outcome(candidate, deal_index, {"seat": self.seat, "cards": cards,
                                               "unconfirmed": [int(i) for i in self.unconfirmed],
                                               "attempt": attempt})


def _check_not_over(record: Record, deal_index: int, context: Context) -> None:
    """Refuses a play into a deal whose last trick is played (the audit found its outcome)."""
    deal = record["deals"][deal_index]
    tricks = deal.get("tricks", [])
    players = _players(record)
    if deal.get("conceded") is not None:
        raise InputError("points.deal_conceded", deal=deal_index)
    if deal.get("defender_points") is not None or (deal.get("complete") and any(
            is_points_trick(trick) for trick in tricks)):
        raise InputError("points.deal_done", deal=deal_index)  # 只记分: ended by its points
    if not tricks or is_points_trick(tricks[-1]) or len(tricks[-1]["plays"]) < players:
        return
    audit = context.audited().output["deals"]
    if deal_index < len(audit) and audit[deal_index].get("outcome") is not None:
        first = tricks[0]
        played = sum(len(play_of(trick, first["leader"], players) or []) for trick in tricks)
        raise OutOfTurnError("session.deal_over", deal=deal_index, trick=len(tricks) - 1, cards=played)


def _check_seen(record: Record, seen: tuple[int, int], seat: int) -> None:
    """Refuses a play whose sender saw another moment of the table: ``seat`` already played in the
    trick seen (another device recorded it), or the play would go into another trick."""
    deal_index, trick_index = seen
    deals = record["deals"]
    players = _players(record)
    tricks = deals[deal_index].get("tricks", []) if 0 <= deal_index < len(deals) else []
    if 0 <= trick_index < len(tricks):
        recorded = play_of(tricks[trick_index], seat, players)
        if recorded is not None:
            raise OutOfTurnError("session.already_played", deal=deal_index, trick=trick_index, seat=seat,
                                 cards=[pretty_card(scorer.parse_card(c)) for c in recorded])
    current = deals[-1].get("tricks", [])
    landing = len(current) - 1 if current and not is_points_trick(current[-1]) and len(
        current[-1]["plays"]) < players else len(current)
    if deal_index != len(deals) - 1 or trick_index != landing:
        raise OutOfTurnError("session.trick_moved", deal=deal_index, trick=trick_index)


@dataclass(frozen=True)
class Correct(Command):
    """Card ``index`` of ``seat``'s play in a trick set to ``card`` (a fix; the same card: a confirmation)."""

    kind: ClassVar[str] = "correct"
    logged_as: ClassVar[str | None] = "correction"
    deal: int
    trick: int
    seat: int
    index: int
    card: str
    source: str = "page"
    by_person: bool = False

    def applied(self, record: Record, context: Context) -> Outcome:
        return _corrected(record, self.deal, self.trick, self.seat, self.index, self.card, self.source)


@dataclass(frozen=True)
class Confirm(Command):
    """Card ``index`` of ``seat``'s play in a trick confirmed as it was read (it leaves the pending list)."""

    kind: ClassVar[str] = "confirm"
    logged_as: ClassVar[str | None] = "confirm"
    deal: int
    trick: int
    seat: int
    index: int
    source: str = "page-confirm"
    by_person: bool = False

    def applied(self, record: Record, context: Context) -> Outcome:
        return _corrected(record, self.deal, self.trick, self.seat, self.index, None, self.source)


def _corrected(record: Record, deal: int, trick: int, seat: int, index: int, card: str | None,
               source: str) -> Outcome:
    try:
        if deal < 0 or trick < 0:
            raise IndexError(deal)
        record["deals"][deal]["tricks"][trick]
        candidate = with_deal_copied(record, deal)
        trick_data = candidate["deals"][deal]["tricks"][trick]
    except (IndexError, KeyError) as exc:
        raise NoSuchCardError("record.no_trick", deal=deal, trick=trick) from exc
    play = play_of(trick_data, seat, _players(record))
    if play is None or not 0 <= index < len(play):
        raise NoSuchCardError("session.no_card", deal=deal, trick=trick, seat=seat, index=index)
    old = play[index]
    new = scorer.format_card(scorer.parse_card(card if card is not None else old))
    play[index] = new
    unconfirmed = [entry for entry in trick_data.get("unconfirmed", []) if entry != [seat, index]]
    if unconfirmed:
        trick_data["unconfirmed"] = unconfirmed
    else:
        trick_data.pop("unconfirmed", None)
    trick_data.setdefault("corrections", []).append({"seat": seat, "index": index, "old": old, "new": new,
                                                     "source": source})
    validate_deal(candidate, deal)
    return Outcome(candidate, deal, {"trick": trick, "seat": seat, "index": index, "card": new, "source": source})


def _current_trick_deal(record: Record) -> int:
    deals = record["deals"]
    if not deals or not deals[-1].get("tricks"):
        raise NoSuchCardError("session.no_trick_to_revise")
    return len(deals) - 1


def _check_position(trick: dict[str, Any], position: int, seat: int, players: int) -> None:
    if not 0 <= position < len(trick["plays"]) or seat_of(trick["leader"], position, players) != seat:
        raise NoSuchCardError("session.no_play", position=position, seat=seat)


@dataclass(frozen=True)
class RevisePlay(Command):
    """The camera saw the last play of the current trick (at ``position``, by ``seat``, recorded as
    ``committed``) change before the next seat played: it becomes ``cards`` (``unconfirmed``:
    indices a person must confirm); :attr:`reason` says how."""

    kind: ClassVar[str] = "revise-play"
    position: int
    seat: int
    cards: tuple[str, ...]
    unconfirmed: tuple[int, ...]
    committed: tuple[str, ...]

    @property
    def reason(self) -> str:
        """``play-withdrawn`` (no cards: taken back), ``failed-throw`` (a lead partly taken back: the
        record keeps the ``attempt``), else ``play-revised``."""
        if not self.cards:
            return "play-withdrawn"
        was, now_lying = Counter(self.committed), Counter(self.cards)
        if self.position == 0 and not (now_lying - was) and (was - now_lying):
            return "failed-throw"
        return "play-revised"

    def applied(self, record: Record, context: Context) -> Outcome:
        deal_index = _current_trick_deal(record)
        candidate = with_deal_copied(record, deal_index)
        deal = candidate["deals"][deal_index]
        last = deal["tricks"][-1]
        _check_position(last, self.position, self.seat, _players(record))
        changes.set_seen(last, self.seat)  # a play not seen (miss_play), read after all or taken back
        reason = self.reason
        if reason == "play-withdrawn":
            changes.set_unconfirmed(last, self.seat, [])
            last["plays"].pop()
            if not last["plays"]:
                deal["tricks"].pop()
        else:
            if reason == "failed-throw":
                last.setdefault("attempt", list(self.committed))
            last["plays"][self.position] = canonical(self.cards)
            changes.set_unconfirmed(last, self.seat, list(self.unconfirmed))
        validate_deal(candidate, deal_index)
        return Outcome(candidate, deal_index, {
            "position": self.position, "seat": self.seat, "cards": list(self.cards),
            "unconfirmed": list(self.unconfirmed), "committed": list(self.committed), "reason": reason})


@dataclass(frozen=True)
class ReplacePlay(Command):
    """In the current trick, the play at ``position`` (by ``seat``) becomes ``cards``: a misread the
    camera corrects, a lead filled to its follows' size (``attempt``: the failed throw it replaces,
    kept once); ``reason``: the page's."""

    kind: ClassVar[str] = "replace-play"
    position: int
    seat: int
    cards: tuple[str, ...]
    unconfirmed: tuple[int, ...]
    attempt: tuple[str, ...] | None = None
    reason: str = "play-revised"

    def applied(self, record: Record, context: Context) -> Outcome:
        deal_index = _current_trick_deal(record)
        candidate = with_deal_copied(record, deal_index)
        last = candidate["deals"][deal_index]["tricks"][-1]
        _check_position(last, self.position, self.seat, _players(record))
        if self.attempt is not None:
            last.setdefault("attempt", list(self.attempt))
        changes.set_seen(last, self.seat)  # a play not seen (miss_play), read after all
        last["plays"][self.position] = canonical(self.cards)
        changes.set_unconfirmed(last, self.seat, list(self.unconfirmed))
        validate_deal(candidate, deal_index)
        return Outcome(candidate, deal_index, {
            "position": self.position, "seat": self.seat, "cards": list(self.cards),
            "unconfirmed": list(self.unconfirmed), "attempt": list(self.attempt) if self.attempt is not None else None,
            "reason": self.reason})


@dataclass(frozen=True)
class DoubtPlay(Command):
    """The camera doubts cards it recorded as sure in an earlier trick of the current deal, because
    the game contradicts them (``reason``: ``next-leader``, the next lead came from a seat that did
    not win that trick by these reads; ``proof-doubted``, a violation just proven rests on them and their
    reads were not all but certain): cards ``indices`` of ``seat``'s play in trick ``trick``
    join the trick's ``unconfirmed``, for a person to confirm. A violation that rests on them is
    then to check, not proven (a lead out of turn, or a misread: a person tells which).

    >>> record = {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": list("abcd"),
    ...           "deals": [{"level": "2", "trump": "S", "dealer": 0,
    ...                      "tricks": [{"leader": 0, "plays": [["AH"], ["3H"], ["5H"], ["KH"]]}]}]}
    >>> DoubtPlay(0, 3, (0,)).applied(record, Context.of(record)).record["deals"][0]["tricks"][0]["unconfirmed"]
    [[3, 0]]
    """

    kind: ClassVar[str] = "doubt-play"
    trick: int
    seat: int
    indices: tuple[int, ...]
    reason: str = "next-leader"

    def applied(self, record: Record, context: Context) -> Outcome:
        deal_index = _current_trick_deal(record)
        tricks = record["deals"][deal_index]["tricks"]
        if not 0 <= self.trick < len(tricks):
            raise NoSuchCardError("record.no_trick", deal=deal_index, trick=self.trick)
        play = play_of(tricks[self.trick], self.seat, _players(record))
        missing = [index for index in self.indices if play is None or not 0 <= index < len(play)]
        if play is None or missing:
            raise NoSuchCardError("session.no_card", deal=deal_index, trick=self.trick, seat=self.seat,
                                  index=missing[0] if missing else 0)
        candidate = with_deal_copied(record, deal_index)
        trick = candidate["deals"][deal_index]["tricks"][self.trick]
        already = [index for who, index in trick.get("unconfirmed", []) if who == self.seat]
        changes.set_unconfirmed(trick, self.seat, sorted({*already, *self.indices}))
        validate_deal(candidate, deal_index)
        return Outcome(candidate, deal_index, {"trick": self.trick, "seat": self.seat,
                                               "indices": list(self.indices), "reason": self.reason})


@dataclass(frozen=True)
class MissPlay(Command):
    """The camera saw ``seat``'s zone busy but read nothing before the sweep: its play in the current
    trick is recorded as missing (docs/RECORD.md ``missing``: the play ``[]``, the seat in the trick's
    ``missing``), in its turn like a play (a trick may start with it), so that the trick is complete
    and the next one can be led. The audit judges the trick for what is known."""

    kind: ClassVar[str] = "miss-play"
    seat: int
    frame: int | None = None
    time_s: float | None = None

    def applied(self, record: Record, context: Context) -> Outcome:
        if not record["deals"]:
            raise InputError("session.no_deal_to_play")
        players = _players(record)
        deal_index = len(record["deals"]) - 1
        candidate = with_deal_copied(record, deal_index)
        tricks = candidate["deals"][deal_index].setdefault("tricks", [])
        if _new_trick_due(tricks, players):
            tricks.append({"leader": self.seat, "plays": []})
        trick = tricks[-1]
        expected = seat_of(trick["leader"], len(trick["plays"]), players)
        if trick["plays"] and self.seat != expected:
            raise OutOfTurnError("session.out_of_turn", deal=deal_index, trick=len(tricks) - 1, seat=self.seat,
                                 turn=expected)
        trick["plays"].append([])
        trick.setdefault("missing", []).append(self.seat)
        validate_deal(candidate, deal_index)
        return Outcome(candidate, deal_index, {"seat": self.seat, "trick": len(tricks) - 1, "frame": self.frame,
                                               "time_s": self.time_s})


@dataclass(frozen=True)
class EnterPlay(Command):
    """A person enters the cards of ``seat``'s play the camera did not see (:class:`MissPlay`): the
    play becomes ``cards`` and the seat leaves the trick's ``missing``; the audit then judges it
    like any play."""

    kind: ClassVar[str] = "enter-play"
    logged_as: ClassVar[str | None] = "enter-play"
    deal: int
    trick: int
    seat: int
    cards: tuple[str, ...]
    by_person: bool = True

    def applied(self, record: Record, context: Context) -> Outcome:
        cards = canonical(self.cards)
        deal, trick, seat = self.deal, self.trick, self.seat
        try:
            if deal < 0 or trick < 0:
                raise IndexError(deal)
            missing = record["deals"][deal]["tricks"][trick].get("missing") or []
        except (IndexError, KeyError, TypeError) as exc:
            raise NoSuchCardError("record.no_trick", deal=deal, trick=trick) from exc
        if seat not in missing:
            raise NoSuchCardError("session.not_missing", deal=deal, trick=trick, seat=seat)
        if not cards:
            raise InputError("session.enter_empty", deal=deal, trick=trick, seat=seat)
        candidate = with_deal_copied(record, deal)
        trick_data = candidate["deals"][deal]["tricks"][trick]
        trick_data["plays"][position_of(trick_data["leader"], seat, _players(record))] = cards
        left = [s for s in trick_data["missing"] if s != seat]
        if left:
            trick_data["missing"] = left
        else:
            del trick_data["missing"]
        validate_deal(candidate, deal)
        return Outcome(candidate, deal, {"trick": trick, "seat": seat, "cards": cards})


# --- bids and the deal's settings ---------------------------------------------------------------


@dataclass(frozen=True)
class Bid(Command):
    """One more bid in the current deal, if it stands (else :class:`~session.changes.RefusedError`);
    trump, dealer and level follow the standing bid."""

    kind: ClassVar[str] = "bid"
    logged_as: ClassVar[str | None] = "bid"
    seat: int
    cards: tuple[str, ...]
    by_person: bool = False

    def applied(self, record: Record, context: Context) -> Outcome:
        def edit(candidate: Record, deal: int) -> None:
            run = context.audited()  # the run of the record before the bid: no earlier deal is audited again
            changes.apply_bid(candidate, deal, self.seat, list(self.cards),
                              changes.levels_before(candidate, run.output, deal), earlier=run)

        return _edited(record, -1, self.kind, {"seat": self.seat, "cards": list(self.cards)}, edit)


@dataclass(frozen=True)
class WithdrawBid(Command):
    """The current deal's last bid taken back; trump and dealer follow the bid that then stands."""

    kind: ClassVar[str] = "withdraw-bid"
    logged_as: ClassVar[str | None] = "withdraw"
    by_person: bool = False

    def applied(self, record: Record, context: Context) -> Outcome:
        def edit(candidate: Record, deal: int) -> None:
            run = context.audited()
            changes.withdraw_bid(candidate, deal, changes.levels_before(candidate, run.output, deal), earlier=run)

        return _edited(record, -1, self.kind, {}, edit)


@dataclass(frozen=True)
class EditDeal(Command):
    """The current deal's trump, dealer, level or 找朋友 call (``settings``), before its first trick."""

    kind: ClassVar[str] = "edit-deal"
    logged_as: ClassVar[str | None] = "setting"
    settings: dict[str, Any]
    by_person: bool = False

    def applied(self, record: Record, context: Context) -> Outcome:
        def edit(candidate: Record, deal: int) -> None:
            run = context.audited()
            changes.edit_deal(candidate, deal, self.settings, changes.levels_before(candidate, run.output, deal),
                              earlier=run)

        return _edited(record, -1, self.kind, copy.deepcopy(self.settings), edit)


# --- the kitty, points-only (只记分) ------------------------------------------------------------


@dataclass(frozen=True)
class SetKitty(Command):
    """A deal's kitty, once it is turned up (None: marked unknown, 底牌未知)."""

    kind: ClassVar[str] = "set-kitty"
    logged_as: ClassVar[str | None] = "kitty"
    deal: int
    cards: tuple[str, ...] | None
    by_person: bool = False

    def applied(self, record: Record, context: Context) -> Outcome:
        cards = None if self.cards is None else canonical(self.cards)
        return _edited(record, self.deal, self.kind, {"cards": cards},
                       lambda candidate, index: changes.set_kitty(candidate, index, cards))


@dataclass(frozen=True)
class SetKittyPoints(Command):
    """A deal's kitty by its points alone (只记分, docs/RECORD.md: ``kitty_points``)."""

    kind: ClassVar[str] = "set-kitty-points"
    logged_as: ClassVar[str | None] = "kitty"
    deal: int
    points: int
    by_person: bool = False

    def applied(self, record: Record, context: Context) -> Outcome:
        return _edited(record, self.deal, self.kind, {"points": self.points},
                       lambda candidate, index: changes.set_kitty_points(candidate, index, self.points))


@dataclass(frozen=True)
class PlayPoints(Command):
    """A trick of the current deal recorded by its winner and points alone (只记分; ``leader`` if
    known); ``last``: the deal's last trick, won with a unit of ``unit`` cards (``trump=False``: not a
    trump), which ends it. ``seen``: the (deal, trick) its sender was about to record (the page): a
    trick another device recorded meanwhile refuses it, saying what was recorded."""

    kind: ClassVar[str] = "play-points"
    logged_as: ClassVar[str | None] = "points"
    winner: int
    points: int
    unit: int | None = None
    trump: bool = True
    last: bool = False
    leader: int | None = None
    by_person: bool = False
    seen: tuple[int, int] | None = None

    def applied(self, record: Record, context: Context) -> Outcome:
        def edit(candidate: Record, deal: int) -> None:
            if self.seen is not None:
                _check_points_seen(candidate, self.seen)
            changes.add_points_trick(candidate, deal, self.winner, self.points, unit=self.unit, trump=self.trump,
                                     last=self.last, leader=self.leader)

        params = {"winner": self.winner, "points": self.points, "unit": self.unit, "trump": self.trump,
                  "last": self.last, "leader": self.leader}
        return _edited(record, -1, self.kind, params, edit)


def _check_points_seen(record: Record, seen: tuple[int, int]) -> None:
    """Refuses a points trick whose sender saw another moment of the deal: the trick it meant is
    recorded already (two phones on one trick), or the deal moved on."""
    deal_index, trick_index = seen
    deals = record["deals"]
    tricks = deals[deal_index].get("tricks", []) if 0 <= deal_index < len(deals) else []
    if 0 <= trick_index < len(tricks) and is_points_trick(tricks[trick_index]):
        taken = tricks[trick_index]
        raise OutOfTurnError("session.points_recorded", deal=deal_index, trick=trick_index,
                             seat=int(taken["winner"]), points=int(taken["points"]))
    if deal_index != len(deals) - 1 or trick_index != len(deals[-1].get("tricks", [])):
        raise OutOfTurnError("session.trick_moved", deal=deal_index, trick=trick_index)


@dataclass(frozen=True)
class SettlePoints(Command):
    """The current deal ended by the defenders' points from its tricks (只记分 by the deal), the last
    trick's winner and unit, and the kitty's points if given; ``agreed``: 认输 / 直接结算, settled
    before its end with the points agreed (marked ``agreed`` in the record,
    :func:`session.changes.settle_by_points`)."""

    kind: ClassVar[str] = "settle-points"
    logged_as: ClassVar[str | None] = "settle"
    defender_points: int
    last_winner: int
    unit: int
    trump: bool = True
    agreed: bool = False
    kitty_points: int | None = None
    by_person: bool = False

    def applied(self, record: Record, context: Context) -> Outcome:
        def edit(candidate: Record, deal: int) -> None:
            run = context.audited()
            audit = run.output
            deal_audit = audit["deals"][deal] if deal < len(audit["deals"]) else {"tricks": []}
            side = run.dealer_sides()[deal] if deal < len(audit["deals"]) else [candidate["deals"][deal]["dealer"]]
            counted = defenders_trick_points(deal_audit["tricks"], side)
            defenders = defender_seats(int(candidate["deals"][deal]["dealer"]), side, _players(candidate))
            changes.settle_by_points(candidate, deal, self.defender_points, self.last_winner, self.unit,
                                     counted=counted, defenders=defenders, trump=self.trump, agreed=self.agreed)
            if self.kitty_points is not None:
                changes.set_kitty_points(candidate, deal, self.kitty_points)

        params = {"defender_points": self.defender_points, "last_winner": self.last_winner, "unit": self.unit,
                  "trump": self.trump, "agreed": self.agreed, "kitty_points": self.kitty_points}
        return _edited(record, -1, self.kind, params, edit)


@dataclass(frozen=True)
class Concede(Command):
    """认输: the current deal conceded by one side (``by``: ``"dealer"`` or ``"defenders"``), settled by
    the defenders' ``points`` agreed or, when None, the house's fixed cost (``concede``) — no made-up
    last trick, no kitty (:func:`session.changes.concede`)."""

    kind: ClassVar[str] = "concede"
    logged_as: ClassVar[str | None] = "settle"
    by: str
    points: int | None = None
    by_person: bool = False

    def applied(self, record: Record, context: Context) -> Outcome:
        if self.by not in ("dealer", "defenders"):
            raise InputError("session.concede_side", by=self.by)

        def edit(candidate: Record, deal: int) -> None:
            audit = context.audited().output
            over = deal < len(audit["deals"]) and audit["deals"][deal].get("outcome") is not None
            changes.concede(candidate, deal, self.by, self.points, over=over)

        return _edited(record, -1, self.kind, {"by": self.by, "points": self.points}, edit)


@dataclass(frozen=True)
class MarkComplete(Command):
    """A deal marked complete (``complete: true``: a replayed record's deal that ended)."""

    kind: ClassVar[str] = "mark-complete"
    deal: int

    def applied(self, record: Record, context: Context) -> Outcome:
        def edit(candidate: Record, index: int) -> None:
            candidate["deals"][index]["complete"] = True

        return _edited(record, self.deal, self.kind, {}, edit)


# --- rulings ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rule(Command):
    """A penalty for violation ``violation`` of a deal (the index into its audit's violations): the
    profile's when neither ``points`` nor ``levels`` is given, else the organiser's own."""

    kind: ClassVar[str] = "rule"
    logged_as: ClassVar[str | None] = "ruling"
    deal: int
    violation: int
    points: int | None = None
    levels: int | None = None
    by_person: bool = False

    def applied(self, record: Record, context: Context) -> Outcome:
        def edit(candidate: Record, index: int) -> None:
            run = context.audited()
            changes.add_ruling(candidate, index, run.output, self.violation, points=self.points,
                               levels=self.levels, run=run)

        return _edited(record, self.deal, self.kind,
                       {"violation": self.violation, "points": self.points, "levels": self.levels}, edit)


@dataclass(frozen=True)
class RemoveRuling(Command):
    """A penalty the table applied taken back (``ruling``: the index into the deal's rulings)."""

    kind: ClassVar[str] = "remove-ruling"
    logged_as: ClassVar[str | None] = "ruling"
    deal: int
    ruling: int
    by_person: bool = False

    def applied(self, record: Record, context: Context) -> Outcome:
        return _edited(record, self.deal, self.kind, {"ruling": self.ruling},
                       lambda candidate, index: changes.remove_ruling(candidate, index, self.ruling))


# --- deals, the history, the whole record -------------------------------------------------------


def _with_deal_added(record: Record, deal: dict[str, Any], kind: str, params: dict[str, Any]) -> Outcome:
    candidate = dict(record)
    candidate["deals"] = [*record["deals"], deal]
    index = len(candidate["deals"]) - 1
    validate_deal(candidate, index)
    return Outcome(candidate, index, params)


@dataclass(frozen=True)
class NewDeal(Command):
    """A new deal started (level, trump, dealer, …, no tricks yet)."""

    kind: ClassVar[str] = "new-deal"
    logged_as: ClassVar[str | None] = "next-deal"
    deal: dict[str, Any]
    by_person: bool = False

    def applied(self, record: Record, context: Context) -> Outcome:
        return _with_deal_added(record, copy.deepcopy(self.deal), self.kind, {"deal": copy.deepcopy(self.deal)})


@dataclass(frozen=True)
class NextDeal(Command):
    """The next deal once the current one is complete and its kitty known: the audit's next dealer
    at his new level (找朋友: the last call carries over)."""

    kind: ClassVar[str] = "next-deal"
    logged_as: ClassVar[str | None] = "next-deal"
    trump: str
    by_person: bool = False

    def applied(self, record: Record, context: Context) -> Outcome:
        run = context.audited()
        deal = changes.next_deal_setup(record, run.output, self.trump, run=run)
        return _with_deal_added(record, deal, self.kind, {"trump": self.trump})


def _stepped(record: Record, step: Callable[[Record], Record]) -> Outcome:
    candidate = step(record)
    of = candidate["history"][-1]["of"]
    entry = candidate["history"][of]
    deal = entry.get("deal") if isinstance(entry, dict) else None
    return Outcome(candidate, deal, {"of": of}, logged=candidate["history"][-1])


@dataclass(frozen=True)
class Undo(Command):
    """The last change a person made (kept in the history) taken back; the history says so."""

    kind: ClassVar[str] = "undo"

    def applied(self, record: Record, context: Context) -> Outcome:
        return _stepped(record, session_history.undo)


@dataclass(frozen=True)
class Redo(Command):
    """The last change undone put back (until a new change is made); the history says so."""

    kind: ClassVar[str] = "redo"

    def applied(self, record: Record, context: Context) -> Outcome:
        return _stepped(record, session_history.redo)


@dataclass(frozen=True)
class ImportRecord(Command):
    """The whole record replaced (a set-up made on the page, an imported record); ``reason``: which."""

    kind: ClassVar[str] = "import"
    record: dict[str, Any] = field(compare=False)
    reason: str = "import"

    def applied(self, record: Record, context: Context) -> Outcome:
        scorer.validate_record(changes.rules_record(self.record))
        return Outcome(copy_record(self.record), None, {"reason": self.reason})
