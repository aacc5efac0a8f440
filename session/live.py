"""The live game: one record, kept on disk atomically, audited after every change.

:class:`LiveGame` is where the table pipeline, the page and the club meet, and the only writer of
the record: each sends it commands (:mod:`session.commands`: frozen types, one a kind of change),
never records, and :meth:`LiveGame.apply` is the one way in. A command makes the new record from
the current one (the deal it changes copied, the others shared); the game journals the
:class:`~session.journal.Change` it made (numbered, its kind, params and effect on that deal),
moves its record on by it, and every reader of a change consumes that change: the save (the file,
written atomically, :mod:`session.storage`, and the ``saver``: the table's store and the club's
outbox), the record's history (a person's change, which undo takes back, :mod:`session.history`),
the page's events (:mod:`session.announce`) and the journal's subscribers. The record is audited
once per change, from the changed deal on (:func:`scorer.audit_again`, read by
:meth:`LiveGame.audited`). The methods named after the commands (:meth:`LiveGame.play`,
:meth:`LiveGame.correct`, :meth:`LiveGame.bid`, :meth:`LiveGame.undo`, …) apply one each.

A play the camera did not see is recorded as missing (:meth:`LiveGame.miss_play`: docs/RECORD.md's
``tricks[i].missing``) and entered later by a person (:meth:`LiveGame.enter_play`).

Two record keys beyond docs/RECORD.md are used (unknown keys survive round trips):
``tricks[i].unconfirmed`` — ``[[seat, index], ...]`` cards a person must confirm —
and ``tricks[i].corrections`` — every change a person made.

>>> record = {"format": "tuolaji-record/1", "rules": "standard-2deck",
...           "players": ["东", "南", "西", "北"],
...           "deals": [{"level": "2", "trump": "S", "dealer": 0, "tricks": []}]}
>>> game = LiveGame(record)
>>> game.expected_seat()
0
>>> game.play(0, ["AH"]).trick
0
>>> game.apply(Play(1, ("3H",))).kind, game.expected_seat()
('play', 2)
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from tuolaji import scorer
from tuolaji.scorer.record_types import is_points_trick
from tuolaji.scorer.seats import seat_of

from . import changes
from .announce import Announcer, change_event
from .commands import (
    Bid,
    Command,
    Concede,
    Confirm,
    Context,
    Correct,
    DoubtPlay,
    EditDeal,
    EnterPlay,
    ImportRecord,
    MarkComplete,
    MissPlay,
    NewDeal,
    NextDeal,
    NoSuchCardError,
    Outcome,
    OutOfTurnError,
    Play,
    PlayPoints,
    Redo,
    RemoveRuling,
    ReplacePlay,
    RevisePlay,
    Rule,
    SetKitty,
    SetKittyPoints,
    SettlePoints,
    Undo,
    WithdrawBid,
    play_of,
)
from .events import CorrectionApplied, EventBus, PlaySettled
from .history import entry as history_entry
from .journal import Change, deal_digest
from .resume import ResumeMismatchError, check_resumable, play_matches
from .storage import (
    ROOM_NEEDED,
    NotSavedError,
    clone,
    copy_record,
    not_saved,
    read_json_file,
    write_json_atomic,
)

__all__ = ["ROOM_NEEDED", "Change", "LiveGame", "NoSuchCardError", "NotSavedError", "OutOfTurnError",
           "ResumeMismatchError", "Saver", "check_resumable", "clone", "copy_record", "not_saved", "play_matches",
           "read_json_file", "write_json_atomic"]

log = logging.getLogger("tuolaji.session")

FirstEvent = TypeVar("FirstEvent", PlaySettled, CorrectionApplied)

Saver = Callable[[Change, dict[str, Any], dict[str, Any]], None]
"""Saves a change: called with the change and the record before and after it; raises
:class:`NotSavedError` when the change could not be saved (it is then not made)."""


def pending_of(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Cards a person must still confirm, oldest first; and plays the camera did not see, to enter
    (:meth:`LiveGame.enter_play`): ``{"deal", "trick", "seat", "missing": True, "size"}`` (``size``:
    the cards each known play of the trick holds, None when none is known; ``index`` and ``card`` None)."""
    players = len(record["players"])
    result = []
    for deal_index, deal in enumerate(record["deals"]):
        for trick_index, trick in enumerate(deal.get("tricks", [])):
            for seat, index in trick.get("unconfirmed", []):
                play = play_of(trick, seat, players)
                result.append({"deal": deal_index, "trick": trick_index, "seat": seat, "index": index,
                               "card": play[index] if play is not None and index < len(play) else None})
            if trick.get("missing"):
                size = next((len(play) for play in trick.get("plays") or [] if play), None)
                result.extend({"deal": deal_index, "trick": trick_index, "seat": seat, "index": None,
                               "card": None, "missing": True, "size": size} for seat in trick["missing"])
    return result


def expected_seat_of(record: dict[str, Any]) -> int | None:
    """The seat that plays next in a record's current deal (None when there is no deal)."""
    deals, players = record["deals"], len(record["players"])
    if not deals:
        return None
    tricks = deals[-1].get("tricks", [])
    if tricks and not is_points_trick(tricks[-1]) and len(tricks[-1]["plays"]) < players:
        trick = tricks[-1]
        return seat_of(trick["leader"], len(trick["plays"]), players)
    # the leader follows from the deal alone: the other deals are not parsed again
    return scorer.next_leader(changes.rules_record(record | {"deals": deals[-1:]}), 0)


def change_of(number: int, command: Command, before: dict[str, Any], outcome: Outcome) -> Change:
    """The journal's change ``number``: what ``command`` made of record ``before`` (``outcome``),
    with its effect on the one deal it changed and, when a person made it, its history entry."""
    deal = outcome.deal
    if deal is None:
        return Change(number, command.kind, outcome.params, None, record=outcome.record, command=command)
    deals_before, deals_after = before["deals"], outcome.record["deals"]
    was = deals_before[deal] if deal < len(deals_before) else None
    now = deals_after[deal] if deal < len(deals_after) else None
    logged = outcome.logged
    name = command.history_name()
    if logged is None and name is not None:
        logged = history_entry(name, deal, was, now)
    # a deal added started from the one before it (a copy elsewhere that lacks it does not take it)
    base = deal_digest(deals_before[deal - 1]) if was is None and 0 < deal <= len(deals_before) else None
    return Change(number, command.kind, outcome.params, deal, before=was, after=now, logged=logged, base=base,
                  command=command)


class LiveGame:
    """A game in progress: its record, the record's audit, and the journal of its changes."""

    def __init__(self, record: dict[str, Any], *, path: Path | None = None, bus: EventBus | None = None,
                 saver: Saver | None = None) -> None:
        self._record = copy_record(record)
        # the audit reads the record as scorer.validate_record does: a malformed one is refused here;
        # the run is kept, so that a change is audited again from its deal on (scorer.audit_again)
        self._audit_run: scorer.AuditRun = scorer.audit_again(changes.rules_record(self._record))
        self._audit_fresh = True  # the run is of the current record (a change makes it stale until read)
        self.path = Path(path) if path is not None else None
        self.saver = saver
        self.bus = bus if bus is not None else EventBus()
        self._lock = threading.RLock()
        self._version = 0
        self._journal: list[Change] = []
        self._journal_subscribers: list[Callable[[Change], None]] = []
        self._announcer = Announcer(self.bus, self.players, self._audit_run.output, self._audited)

    @classmethod
    def resume(cls, path: Path, *, bus: EventBus | None = None) -> LiveGame:
        """Continue the game stored at ``path`` (written by an earlier session, perhaps one that crashed)."""
        return cls(read_json_file(path), path=Path(path), bus=bus)

    # --- reading -----------------------------------------------------------------

    @property
    def players(self) -> int:
        return len(self._record["players"])

    @property
    def version(self) -> int:
        """How many changes were made since the game was opened (what the page's state is cached by)."""
        return self._version

    def snapshot(self) -> dict[str, Any]:
        """A copy of the current record (its history entries shared: see :func:`copy_record`)."""
        with self._lock:
            return copy_record(self._record)

    def record(self) -> dict[str, Any]:
        """The current record, not copied: read it, never change it (a change makes a new record).
        For a reader that looks often (the camera pipeline, at every read), where
        :meth:`snapshot`'s copy would cost more than the read."""
        with self._lock:
            return self._record

    def audit(self) -> dict[str, Any]:
        """The scorer's audit of the current record (cached until the next change)."""
        return self._audited()[1]

    def audited(self) -> tuple[dict[str, Any], scorer.AuditRun]:
        """The current record and its one audit run, of one version, not copied: read them, never
        change them. The run holds the audit's output, its typed findings (``findings``, parallel
        to the output's violations and penalties) and :meth:`~scorer.AuditRun.dealer_sides`: what
        the page's state is made of, once per change."""
        with self._lock:
            record, run, version, fresh = self._record, self._audit_run, self._version, self._audit_fresh
        if not fresh:  # audited outside the lock: readers (snapshots, the page's state) never wait for it
            run = scorer.audit_again(changes.rules_record(record), run)  # the deals before the first changed one keep their audit
            with self._lock:
                if self._version == version and not self._audit_fresh:
                    self._audit_run, self._audit_fresh = run, True
                elif self._version == version:
                    run = self._audit_run  # audited meanwhile by another reader: one run per version is kept
        return record, run

    def _audited(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """The current record and its audit, of one version. A record is never changed in place
        once it is current (changes build a new one), so it can be read unlocked."""
        record, run = self.audited()
        return record, run.output

    def pending(self) -> list[dict[str, Any]]:
        """:func:`pending_of` the current record: cards to confirm, plays to enter."""
        return pending_of(self.record())

    def findings(self) -> list[Any]:
        """:func:`scorer.audit_findings` of the current record (kept with its audit, not run again)."""
        return self.audited()[1].findings

    def dealer_sides(self) -> list[list[int]]:
        """:func:`scorer.dealer_sides` of the current record (from the audit's reading of it)."""
        return self.audited()[1].dealer_sides()

    def current(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """The current record and its audit, of one version, not copied: read them, never change
        them (a change makes a new record). What the page's state is made of, once per change."""
        return self._audited()

    def state(self) -> dict[str, Any]:
        """Everything the page shows: the record, its audit, pending confirmations and whose turn it is."""
        record, audit = self._audited()
        with self._lock:
            if record is not self._record:  # changed meanwhile: the newer one, audited
                return self.state()
            return {
                "record": self.snapshot(),
                "audit": clone(audit),
                "pending": self.pending(),
                "expected_seat": self.expected_seat(),
            }

    def expected_seat(self) -> int | None:
        """The seat that plays next in the current deal (None when there is no deal)."""
        return expected_seat_of(self.record())

    # --- changing: one way in ------------------------------------------------------

    def apply(self, command: Command) -> Change:
        """Make the change ``command`` says, or refuse it (an :class:`InputError`; nothing changes).
        The change is saved before it is made (:class:`NotSavedError`: not saved, not made), then
        journalled and announced; returns it."""
        with self._lock:
            before = self._record
            outcome = command.applied(before, Context(lambda: self.audited()[1]))
            change, after = self._commit(command, before, outcome)
        self._announcer.announce(change, after)
        return change

    def play(self, seat: int, cards: list[str], *, confidence: list[float] | tuple[float, ...] = (),
             unconfirmed: list[int] | tuple[int, ...] = (), attempt: list[str] | None = None, frame: int | None = None,
             time_s: float | None = None, picture: dict[str, Any] | None = None, history: bool = False,
             seen: tuple[int, int] | None = None) -> PlaySettled:
        """A settled play by ``seat`` in the current trick (:class:`~session.commands.Play`;
        ``history``: a person's, kept in the record's history); returns its event."""
        change = self.apply(Play(seat, tuple(cards), tuple(confidence), tuple(unconfirmed),
                                 tuple(attempt) if attempt else None, frame, time_s, picture, history, seen))
        return self._first_event(change, PlaySettled)

    def correct(self, deal: int, trick: int, seat: int, index: int, card: str, *, source: str = "page",
                history: bool = False) -> CorrectionApplied:
        """Set card ``index`` of ``seat``'s play in a trick to ``card`` (a fix, or a confirmation if unchanged)."""
        return self._first_event(self.apply(Correct(deal, trick, seat, index, card, source, history)),
                                 CorrectionApplied)

    def confirm(self, deal: int, trick: int, seat: int, index: int, *, source: str = "page-confirm",
                history: bool = False) -> CorrectionApplied:
        """Confirm card ``index`` of ``seat``'s play in a trick as it was read (it leaves the pending list)."""
        return self._first_event(self.apply(Confirm(deal, trick, seat, index, source, history)), CorrectionApplied)

    def revise_play(self, position: int, seat: int, cards: list[str], unconfirmed: list[int], *,
                    committed: list[str]) -> str:
        """The last play of the current trick seen changing (:class:`~session.commands.RevisePlay`);
        returns the reason: ``play-withdrawn``, ``failed-throw`` or ``play-revised``."""
        command = RevisePlay(position, seat, tuple(cards), tuple(unconfirmed), tuple(committed))
        self.apply(command)
        return command.reason

    def replace_play(self, position: int, seat: int, cards: list[str], unconfirmed: list[int], *,
                     attempt: list[str] | None = None, reason: str = "play-revised") -> Change:
        """A play of the current trick replaced (:class:`~session.commands.ReplacePlay`)."""
        return self.apply(ReplacePlay(position, seat, tuple(cards), tuple(unconfirmed),
                                      tuple(attempt) if attempt is not None else None, reason))

    def doubt_play(self, trick: int, seat: int, indices: list[int], *, reason: str = "next-leader") -> Change:
        """Sure cards of an earlier trick of the current deal marked for a person because the game
        contradicts them (:class:`~session.commands.DoubtPlay`)."""
        return self.apply(DoubtPlay(trick, seat, tuple(indices), reason))

    def miss_play(self, seat: int, *, frame: int | None = None, time_s: float | None = None) -> Change:
        """``seat``'s play recorded as missing (:class:`~session.commands.MissPlay`); a person
        enters its cards with :meth:`enter_play`.

        >>> game = LiveGame({"rules": "standard-2deck", "players": list("abcd"),
        ...                  "deals": [{"level": "2", "trump": "S", "dealer": 0, "tricks": []}]})
        >>> for seat, cards in ((0, ["AH"]), (1, ["3H"])): _ = game.play(seat, cards)
        >>> game.miss_play(2).kind, game.expected_seat(), game.pending()[0]["missing"]
        ('miss-play', 3, True)
        """
        return self.apply(MissPlay(seat, frame, time_s))

    def enter_play(self, deal: int, trick: int, seat: int, cards: list[str], *, history: bool = True) -> Change:
        """The cards of a play recorded missing, entered by a person (:class:`~session.commands.EnterPlay`)."""
        return self.apply(EnterPlay(deal, trick, seat, tuple(cards), history))

    def bid(self, seat: int, cards: list[str], *, history: bool = False) -> Change:
        """One more bid in the current deal, if it stands (:class:`~session.commands.Bid`)."""
        return self.apply(Bid(seat, tuple(cards), history))

    def withdraw_bid(self, *, history: bool = False) -> Change:
        """The current deal's last bid taken back; trump and dealer follow the bid that then stands."""
        return self.apply(WithdrawBid(history))

    def edit_deal(self, settings: dict[str, Any], *, history: bool = False) -> Change:
        """The current deal's trump, dealer, level or 找朋友 call (``settings``), before its first trick."""
        return self.apply(EditDeal(clone(settings), history))

    def set_kitty(self, deal: int, cards: list[str] | None, *, history: bool = False) -> Change:
        """A deal's kitty, once it is turned up (None: marked unknown, 底牌未知)."""
        return self.apply(SetKitty(deal, None if cards is None else tuple(cards), history))

    def set_kitty_points(self, deal: int, points: int, *, history: bool = False) -> Change:
        """A deal's kitty by its points alone (只记分, docs/RECORD.md: ``kitty_points``)."""
        return self.apply(SetKittyPoints(deal, points, history))

    def play_points(self, winner: int, points: int, *, unit: int | None = None, trump: bool = True, last: bool = False,
                    leader: int | None = None, history: bool = False, seen: tuple[int, int] | None = None) -> Change:
        """A trick by its winner and points alone (只记分, :class:`~session.commands.PlayPoints`)."""
        return self.apply(PlayPoints(winner, points, unit, trump, last, leader, history, seen))

    def settle_points(self, defender_points: int, last_winner: int, unit: int, *, trump: bool = True,
                      agreed: bool = False, kitty_points: int | None = None, history: bool = False) -> Change:
        """The current deal ended by the defenders' points (只记分, :class:`~session.commands.SettlePoints`)."""
        return self.apply(SettlePoints(defender_points, last_winner, unit, trump, agreed, kitty_points, history))

    def concede(self, by: str, points: int | None = None, *, history: bool = False) -> Change:
        """认输: the current deal conceded by ``by``'s side (:class:`~session.commands.Concede`)."""
        return self.apply(Concede(by, points, history))

    def mark_complete(self, deal: int) -> Change:
        """A deal marked complete (``complete: true``: a replayed record's deal that ended)."""
        return self.apply(MarkComplete(deal))

    def rule(self, deal: int, violation: int, *, points: int | None = None, levels: int | None = None,
             history: bool = False) -> Change:
        """A penalty for one of a deal's violations (:class:`~session.commands.Rule`)."""
        return self.apply(Rule(deal, violation, points, levels, history))

    def remove_ruling(self, deal: int, ruling: int, *, history: bool = False) -> Change:
        """A penalty the table applied taken back (``ruling``: the index into the deal's rulings)."""
        return self.apply(RemoveRuling(deal, ruling, history))

    def new_deal(self, deal: dict[str, Any], *, history: bool = False) -> int:
        """Start a new deal (level, trump, dealer, …, no tricks yet); returns its index."""
        change = self.apply(NewDeal(clone(deal), history))
        assert change.deal is not None
        return change.deal

    def next_deal(self, trump: str, *, history: bool = False) -> int:
        """Start the next deal (:class:`~session.commands.NextDeal`); returns its index."""
        change = self.apply(NextDeal(trump, history))
        assert change.deal is not None
        return change.deal

    def undo(self) -> Change:
        """The last change a person made (kept in the history) taken back; the history says so."""
        return self.apply(Undo())

    def redo(self) -> Change:
        """The last change undone put back (until a new change is made); the history says so."""
        return self.apply(Redo())

    def import_record(self, record: dict[str, Any], *, reason: str = "import") -> Change:
        """Replace the whole record (a set-up made on the page, an imported record)."""
        return self.apply(ImportRecord(record, reason))

    # --- the journal ---------------------------------------------------------------

    def subscribe_journal(self, callback: Callable[[Change], None]) -> Callable[[], None]:
        """Call ``callback`` with every later change of the record (:class:`~session.journal.Change`:
        numbered, with its kind, params and effect), in order, once it is saved. It is called under
        the game's lock, before the change's events: keep it short (queue the change). Returns a
        function that unsubscribes."""
        with self._lock:
            self._journal_subscribers.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._journal_subscribers:
                    self._journal_subscribers.remove(callback)

        return unsubscribe

    def journal(self, since: int = 0) -> list[Change]:
        """The changes made since the game was opened, those numbered above ``since``."""
        with self._lock:
            return [change for change in self._journal if change.number > since]

    # --- internals -----------------------------------------------------------------

    def _first_event(self, change: Change, kind: type[FirstEvent]) -> FirstEvent:
        """The event ``change`` was announced by, of the kind its command makes."""
        event = change_event(change, self.players)
        assert isinstance(event, kind)
        return event

    def _commit(self, command: Command, before: dict[str, Any], outcome: Outcome) -> tuple[Change, dict[str, Any]]:
        """The change of ``outcome``, saved and made current (under the lock). A save that fails
        raises :class:`NotSavedError` and the game stays as it was: what is current is always what
        is stored. The change is journalled (numbered, its kind, params and effect)."""
        change = change_of(self._version + 1, command, before, outcome)
        after = change.applied_to(before)
        self._save(change, before, after)
        self._record = after
        self._audit_fresh = False
        self._version += 1
        self._journal.append(change)
        for callback in list(self._journal_subscribers):
            callback(change)
        return change, after

    def _save(self, change: Change, before: dict[str, Any], after: dict[str, Any]) -> None:
        try:
            if self.path is not None:
                write_json_atomic(self.path, after)
        except OSError as exc:
            error = not_saved(exc, str(self.path), self.path.parent if self.path is not None else None)
            log.error("%s", error)
            raise error from None
        if self.saver is not None:
            self.saver(change, before, after)
