"""The live game: one record, kept on disk atomically, audited after every change.

:class:`LiveGame` is where the table pipeline and the page meet, and the only writer of the
record: both send it intents, its typed commands, never records. The pipeline calls
:meth:`LiveGame.play` when a play settles and :meth:`LiveGame.revise_play` or
:meth:`LiveGame.replace_play` when it sees one change; the page calls :meth:`LiveGame.correct`,
:meth:`LiveGame.confirm`, :meth:`LiveGame.bid`, :meth:`LiveGame.set_kitty`, :meth:`LiveGame.rule`,
:meth:`LiveGame.play_points`, :meth:`LiveGame.settle_points` (只记分),
:meth:`LiveGame.undo`, … (``history=True``: a person's change, kept in the record's history,
:mod:`session.history`; the rules of each change: :mod:`session.changes`). A command copies the
deal it changes (the others are shared), validates that deal, and the record is written atomically
(a crash loses nothing: :meth:`LiveGame.resume` continues from the file); it is audited once, from
the changed deal on (:func:`scorer.audit_again`: one run, its output and typed findings, read by
:meth:`LiveGame.audited`), the differences are published as events, and each change is journalled
(:class:`~session.events.Change`: numbered, its kind and params; :meth:`LiveGame.subscribe_journal`).

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
>>> game.expected_seat()
1
"""

from __future__ import annotations

import copy
import errno
import json
import logging
import os
import shutil
import stat
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tuolaji import scorer
from tuolaji.scorer import safejson
from tuolaji.scorer.cards import pretty_card
from tuolaji.scorer.errors import InputError
from tuolaji.scorer.messages import Message
from tuolaji.scorer.scoring import defender_seats, defenders_trick_points
from tuolaji.scorer.seats import position_of, seat_of

from . import changes
from . import history as session_history
from .events import (
    Change,
    CorrectionApplied,
    DealComplete,
    EventBus,
    PlaySettled,
    StateChanged,
    TrickComplete,
    ViolationFound,
)


class OutOfTurnError(InputError):
    """A play arrived for a seat whose turn it is not (mid-trick)."""


class NoSuchCardError(InputError):
    """A correction names a trick, seat or card position that the record does not have."""


class NotSavedError(InputError):
    """A change that could not be saved (the disk full, the database locked, …): it is not made.

    ``kind``: ``disk-full``, ``locked``, ``too-large`` or ``failed``; ``words``: what the page shows."""

    WORDS = {
        "disk-full": ("未保存：磁盘已满", "Not saved: the disk is full"),
        "locked": ("未保存：数据库被其他程序锁住，请稍后再试", "Not saved: another program has locked the database; try again"),
        "too-large": ("未保存：记录太大", "Not saved: the record is too large"),
        "failed": ("未保存：写入失败", "Not saved: the write failed"),
    }

    def __init__(self, key: str, /, kind: str = "failed", **params: Any) -> None:
        super().__init__(key, **params)
        self.kind = kind if kind in self.WORDS else "failed"
        zh, en = self.WORDS[self.kind]
        self.words = {"zh": zh, "en": en}


ROOM_NEEDED = 1024 * 1024
"""Below this many free bytes, a write's input/output error is the disk being full (SQLite says
``disk I/O error`` when it cannot size its shared-memory file, not ``disk is full``)."""


def not_saved(exc: BaseException, where: str, folder: Path | None = None) -> NotSavedError:
    """The :class:`NotSavedError` of a failed write: the disk full, the database locked, or else;
    ``folder``: where it was written (its free space tells a full disk from another I/O error)."""
    text = str(exc).lower()
    name = str(getattr(exc, "sqlite_errorname", ""))
    if (isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC))) or (
            name == "SQLITE_FULL" or "disk is full" in text or "no space" in text):
        kind = "disk-full"
    elif name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in text or "busy" in text:
        kind = "locked"
    elif folder is not None and (name.startswith("SQLITE_IOERR") or "i/o error" in text) and _free(folder) < ROOM_NEEDED:
        kind = "disk-full"
    else:
        kind = "failed"
    return NotSavedError("session.not_saved", kind, where=where, problem=str(exc))


def _free(folder: Path) -> int:
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return ROOM_NEEDED  # unknown: not called full


class ResumeMismatchError(InputError):
    """A resumed input (a video, a record) does not show the plays its record or session already holds:
    the record is of another game, and nothing is added to it."""


def play_matches(trick: dict[str, Any], position: int, seat: int, cards: list[str], players: int) -> bool:
    """Whether ``seat`` playing ``cards`` is the play at ``position`` of a recorded ``trick``: the same
    seat and number of cards, and the same cards but for those a person corrected or still has to
    confirm (the camera may read those differently again).

    >>> trick = {"leader": 1, "plays": [["AH", "KH"], ["3H", "4H"]], "corrections": [
    ...     {"seat": 2, "index": 0, "old": "5H", "new": "3H"}]}
    >>> play_matches(trick, 1, 2, ["5H", "4H"], 4), play_matches(trick, 0, 1, ["AH", "QH"], 4)
    (True, False)
    """
    from collections import Counter

    if seat_of(trick["leader"], position, players) != seat:
        return False
    try:
        canonical = [scorer.format_card(scorer.parse_card(card)) for card in cards]
    except InputError:
        return False
    loose = sum(1 for who, _ in trick.get("unconfirmed", []) if who == seat)
    loose += sum(1 for fix in trick.get("corrections", []) if fix.get("seat") == seat)
    # a lead recorded with a failed throw was first seen as the throw (the attempt), then taken back
    shown_as = [trick["plays"][position]] + ([trick["attempt"]] if position == 0 and trick.get("attempt") else [])
    for recorded in shown_as:
        if len(recorded) == len(canonical) and len(canonical) - sum(
                (Counter(recorded) & Counter(canonical)).values()) <= loose:
            return True
    return False


def check_resumable(existing: dict[str, Any], incoming: dict[str, Any], where: str, *, setup: bool = False) -> None:
    """Refuse to continue ``existing`` (a saved record or session) with ``incoming`` (a set-up or a
    record) unless it is the same game: the same rules and players, and every deal it holds set
    up alike (level, trump, dealer); a record's plays must also start with the plays it holds.
    ``setup``: ``incoming`` is a set-up that may hold the deal so far (the tricks before its video
    starts): ``existing`` must start with those, and may hold more (what the video showed).

    >>> setup = {"rules": "single-deck", "players": ["a", "b", "c", "d"],
    ...          "deals": [{"level": "2", "trump": "S", "dealer": 0, "tricks": []}]}
    >>> check_resumable(setup, setup, "out.json")
    >>> played = setup | {"deals": [{"level": "2", "trump": "S", "dealer": 0, "tricks": [
    ...     {"leader": 0, "plays": [["AS"]]}]}]}
    >>> check_resumable(played, setup | {"deals": [{"level": "3", "trump": "S", "dealer": 0}]}, "out.json")
    Traceback (most recent call last):
    ...
    tuolaji.session.live.ResumeMismatchError: out.json: holds another game (deals[0]: level 2, trump S, dealer 0; the input: level 3, trump S, dealer 0); nothing was changed: choose another file or session
    >>> so_far = played | {"deals": [played["deals"][0] | {"tricks": played["deals"][0]["tricks"] * 0}]}
    >>> check_resumable(played, played, "out.json", setup=True)
    >>> check_resumable(so_far, played, "out.json", setup=True)
    Traceback (most recent call last):
    ...
    tuolaji.session.live.ResumeMismatchError: out.json: holds another game (deals[0] holds 0 tricks, the deal so far 1); nothing was changed: choose another file or session
    """
    def refuse(key: str, **params: Any) -> ResumeMismatchError:
        return ResumeMismatchError("session.another_game", where=where, why=Message(key, params))

    if existing.get("rules") != incoming.get("rules") or existing.get("players") != incoming.get("players"):
        raise refuse("resume.players_or_rules")
    have, want = existing.get("deals", []), incoming.get("deals", [])
    if len(have) > max(len(want), 1):
        raise refuse("resume.deals", have=len(have), want=len(want))
    for index, (old, new) in enumerate(zip(have, want, strict=False)):
        setup_old = tuple(old.get(key) for key in ("level", "trump", "dealer"))
        setup_new = tuple(new.get(key) for key in ("level", "trump", "dealer"))
        if setup_old != setup_new and old.get("tricks"):
            raise refuse("resume.setup", deal=index, have=setup_old, want=setup_new)
        players = len(existing.get("players") or []) or 4
        new_tricks = new.get("tricks") or []
        if not new_tricks:
            continue  # a set-up: its plays are checked as the input shows them again
        old_tricks = old.get("tricks") or []
        if setup and len(old_tricks) < len(new_tricks):
            raise refuse("resume.tricks", deal=index, have=len(old_tricks), want=len(new_tricks))
        for t, trick in enumerate(old_tricks):
            if setup and t >= len(new_tricks):
                break  # beyond the deal so far: the video shows them again
            if t >= len(new_tricks) or new_tricks[t].get("leader") != trick.get("leader"):
                raise refuse("resume.trick_missing", deal=index, trick=t)
            for position, cards in enumerate(trick.get("plays", [])):
                other = new_tricks[t].get("plays", [])
                seat = seat_of(trick["leader"], position, players)
                if position >= len(other) or not play_matches(trick, position, seat, other[position], players):
                    raise refuse("resume.play", deal=index, trick=t, seat=seat, cards=tuple(cards))


def _new_file_mode() -> int:
    """The mode a new file gets under the process's umask (0666 masked), as ``open`` would give."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def write_json_atomic(path: Path, data: Any) -> None:
    """Write ``data`` as JSON to ``path`` so that a crash leaves the old or the new file, never half.

    The file keeps its mode (a new one gets the umask's), and the folder is synced after the
    rename, so the new name survives a power cut too.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        mode = _new_file_mode()
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, ensure_ascii=False, indent=1)
            handle.write("\n")
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            os.fsync(handle.fileno())
        os.replace(tmp_name, path)
    except BaseException:
        if os.path.exists(tmp_name):
            os.unlink(tmp_name)
        raise
    _fsync_folder(path.parent)


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return  # a platform whose folders cannot be opened (the rename is then as durable as it gets)
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def read_json_file(path: Path, *, max_bytes: int = safejson.MAX_BYTES) -> Any:
    """The JSON in ``path``, read by :func:`scorer.safejson.loads` (size, depth, UTF-8 and number limits);
    bad content raises :class:`InputError` naming the file and the place."""
    path = Path(path)
    with open(path, "rb") as handle:
        data = handle.read(max_bytes + 1)
    return safejson.loads(data, str(path), max_bytes=max_bytes)


log = logging.getLogger("tuolaji.session")

Saver = Callable[[dict[str, Any], dict[str, Any]], None]
"""Saves a change: called with the record before and after it; raises :class:`NotSavedError`
when the change could not be saved (it is then not made)."""


def clone(value: Any) -> Any:
    """A deep copy of JSON data (dicts, lists and scalars; anything else is shared), several times
    faster than :func:`copy.deepcopy`, which a record's every change makes."""
    if isinstance(value, dict):
        return {key: clone(item) for key, item in value.items()}
    if isinstance(value, list):
        return [clone(item) for item in value]
    return value


def copy_record(record: dict[str, Any]) -> dict[str, Any]:
    """A copy of a record that shares its ``history`` entries (they are never changed in place,
    only appended to): copying it costs the record, not every change ever made to it."""
    result = {key: clone(value) for key, value in record.items() if key != "history"}
    if "history" in record:
        history = record["history"]
        result["history"] = list(history) if isinstance(history, list) else clone(history)
    return result


def _validate_deal(record: dict[str, Any], deal_index: int) -> None:
    """:func:`scorer.validate_record` of a record whose deal ``deal_index`` alone changed: that deal
    is checked (with the record's rules and players), not every deal again."""
    try:
        scorer.validate_record(changes.rules_record(record | {"deals": [record["deals"][deal_index]]}))
    except InputError:
        scorer.validate_record(changes.rules_record(record))  # raises, naming the deal where it is
        raise


def _violation_key(violation: dict[str, Any]) -> tuple[int, int, str]:
    return (violation["trick"], violation["seat"], violation["rule"])


class LiveGame:
    """A game in progress: its record, the record's audit, and the events of each change."""

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
        audit = self._audit_run.output
        self._known_violations = {
            (deal_index, *_violation_key(v)): v["proven"]
            for deal_index, deal in enumerate(audit["deals"])
            for v in deal["violations"]
        }
        self._completed_deals = {
            deal_index for deal_index, deal in enumerate(audit["deals"]) if deal.get("outcome") is not None
        }

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
        """Cards a person must still confirm, oldest first; and plays the camera did not see, to
        enter (:meth:`enter_play`): ``{"deal", "trick", "seat", "missing": True, "size"}`` (``size``:
        the cards each known play of the trick holds, None when none is known; ``index`` and
        ``card`` None)."""
        with self._lock:
            result = []
            for deal_index, deal in enumerate(self._record["deals"]):
                for trick_index, trick in enumerate(deal.get("tricks", [])):
                    for seat, index in trick.get("unconfirmed", []):
                        play = self._play_of(trick, seat)
                        result.append(
                            {"deal": deal_index, "trick": trick_index, "seat": seat, "index": index,
                             "card": play[index] if play is not None and index < len(play) else None}
                        )
                    if trick.get("missing"):
                        size = next((len(play) for play in trick.get("plays") or [] if play), None)
                        result.extend({"deal": deal_index, "trick": trick_index, "seat": seat, "index": None,
                                       "card": None, "missing": True, "size": size} for seat in trick["missing"])
            return result

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
        with self._lock:
            deals = self._record["deals"]
            if not deals:
                return None
            tricks = deals[-1].get("tricks", [])
            if tricks and tricks[-1].get("points") is None and len(tricks[-1]["plays"]) < self.players:
                trick = tricks[-1]
                return seat_of(trick["leader"], len(trick["plays"]), self.players)
            # the leader follows from the deal alone: the other deals are not parsed again
            return scorer.next_leader(changes.rules_record(self._record | {"deals": deals[-1:]}), 0)

    # --- changing ----------------------------------------------------------------

    def play(
        self,
        seat: int,
        cards: list[str],
        *,
        confidence: list[float] | tuple[float, ...] = (),
        unconfirmed: list[int] | tuple[int, ...] = (),
        attempt: list[str] | None = None,
        frame: int | None = None,
        time_s: float | None = None,
        picture: dict[str, Any] | None = None,
        history: bool = False,
        seen: tuple[int, int] | None = None,
    ) -> PlaySettled:
        """Add a settled play by ``seat`` to the current trick of the current deal.

        A play that starts a trick may come from any seat (a wrong leader is the
        audit's business); in the middle of a trick only the expected seat may play.
        ``picture``: where the picture of the play is kept (``{"file", "frame", "time_s"}``),
        added to the deal's ``pictures`` with the trick and seat (a key docs/RECORD.md readers ignore).
        ``history``: a person made it (the page): kept in the record's history, so undo takes it back.
        ``seen``: the (deal, trick) its sender saw the play going into (the page): a play another
        device recorded meanwhile, or a table that moved on, refuses it rather than giving the cards
        to the next seat. A play after the deal's last trick is refused (the kitty comes next).
        """
        with self._lock:
            if not self._record["deals"]:
                raise InputError("session.no_deal_to_play")
            canonical = [scorer.format_card(scorer.parse_card(card)) for card in cards]
            deal_index = len(self._record["deals"]) - 1
            self._check_not_over(deal_index)
            if seen is not None:
                self._check_seen(seen, seat)
            candidate = self._with_deal_copied(deal_index)
            tricks = candidate["deals"][deal_index].setdefault("tricks", [])
            if not tricks or tricks[-1].get("points") is not None or len(tricks[-1]["plays"]) >= self.players:
                tricks.append({"leader": seat, "plays": []})  # a points-only trick (只记分) is a whole one
            trick = tricks[-1]
            expected = seat_of(trick["leader"], len(trick["plays"]), self.players)
            if trick["plays"] and seat != expected:
                raise OutOfTurnError("session.out_of_turn", deal=deal_index, trick=len(tricks) - 1, seat=seat,
                                     turn=expected)
            trick["plays"].append(canonical)
            if attempt:
                trick["attempt"] = [scorer.format_card(scorer.parse_card(card)) for card in attempt]
            for index in unconfirmed:
                trick.setdefault("unconfirmed", []).append([seat, int(index)])
            if picture is not None:
                candidate["deals"][deal_index].setdefault("pictures", []).append(
                    {"trick": len(tricks) - 1, "seat": seat, **picture})
            _validate_deal(candidate, deal_index)  # e.g. more copies of a card than the decks hold: refused, not saved
            event = PlaySettled(
                deal=deal_index,
                trick=len(tricks) - 1,
                seat=seat,
                cards=tuple(canonical),
                confidence=tuple(float(c) for c in confidence),
                unconfirmed=tuple(int(i) for i in unconfirmed),
                attempt=tuple(trick["attempt"]) if attempt else None,
                frame=frame,
                time_s=time_s,
            )
            params: dict[str, Any] = {"seat": seat, "cards": canonical, "unconfirmed": list(event.unconfirmed),
                                      "attempt": list(event.attempt) if event.attempt else None}
            self._commit(candidate, "play", params, deal_index, history="play" if history else None)
        self.bus.publish(event)
        self._publish_consequences(deal_index, len(tricks) - 1)
        return event

    def correct(self, deal: int, trick: int, seat: int, index: int, card: str, *, source: str = "page",
                history: bool = False) -> CorrectionApplied:
        """Set card ``index`` of ``seat``'s play in a trick to ``card`` (a fix, or a confirmation if unchanged)."""
        return self._correct("correct", deal, trick, seat, index, card, source, history="correction" if history else None)

    def confirm(self, deal: int, trick: int, seat: int, index: int, *, source: str = "page-confirm",
                history: bool = False) -> CorrectionApplied:
        """Confirm card ``index`` of ``seat``'s play in a trick as it was read (it leaves the pending list)."""
        return self._correct("confirm", deal, trick, seat, index, None, source, history="confirm" if history else None)

    def _correct(self, kind: str, deal: int, trick: int, seat: int, index: int, card: str | None, source: str, *,
                 history: str | None) -> CorrectionApplied:
        with self._lock:
            try:
                if deal < 0 or trick < 0:
                    raise IndexError(deal)
                self._record["deals"][deal]["tricks"][trick]
                candidate = self._with_deal_copied(deal)
                trick_data = candidate["deals"][deal]["tricks"][trick]
            except (IndexError, KeyError) as exc:
                raise NoSuchCardError("record.no_trick", deal=deal, trick=trick) from exc
            play = self._play_of(trick_data, seat)
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
            trick_data.setdefault("corrections", []).append(
                {"seat": seat, "index": index, "old": old, "new": new, "source": source}
            )
            _validate_deal(candidate, deal)
            event = CorrectionApplied(deal=deal, trick=trick, seat=seat, index=index, old=old, new=new, source=source)
            params = {"trick": trick, "seat": seat, "index": index, "card": new, "source": source}
            self._commit(candidate, kind, params, deal, history=history)
        self.bus.publish(event)
        self._publish_consequences(deal, trick)
        return event

    def revise_play(self, position: int, seat: int, cards: list[str], unconfirmed: list[int], *,
                    committed: list[str]) -> str:
        """The camera saw the last play of the current trick (at ``position``, by ``seat``,
        recorded as ``committed``) change before the next seat played: it becomes ``cards``
        (``unconfirmed``: indices a person must confirm). Returns the reason: "play-withdrawn" (no
        cards: taken back), "failed-throw" (a lead partly taken back: the record keeps the
        ``attempt``), else "play-revised"."""
        from collections import Counter

        with self._lock:
            deal_index = self._current_trick_deal()
            candidate = self._with_deal_copied(deal_index)
            deal = candidate["deals"][deal_index]
            last = deal["tricks"][-1]
            self._check_position(last, position, seat)
            changes.set_seen(last, seat)  # a play not seen (miss_play), read after all or taken back
            if not cards:
                changes.set_unconfirmed(last, seat, [])
                last["plays"].pop()
                if not last["plays"]:
                    deal["tricks"].pop()
                reason = "play-withdrawn"
            else:
                was, now_lying = Counter(committed), Counter(cards)
                reason = "play-revised"
                if position == 0 and not (now_lying - was) and (was - now_lying):
                    last.setdefault("attempt", list(committed))
                    reason = "failed-throw"
                last["plays"][position] = [scorer.format_card(scorer.parse_card(card)) for card in cards]
                changes.set_unconfirmed(last, seat, unconfirmed)
            _validate_deal(candidate, deal_index)
            params = {"position": position, "seat": seat, "cards": list(cards), "unconfirmed": list(unconfirmed),
                      "committed": list(committed), "reason": reason}
            self._commit(candidate, "revise-play", params, deal_index)
        self._announce(reason, deal_index)
        return reason

    def replace_play(self, position: int, seat: int, cards: list[str], unconfirmed: list[int], *,
                     attempt: list[str] | None = None, reason: str = "play-revised") -> Change:
        """In the current trick, the play at ``position`` (by ``seat``) becomes ``cards``: a misread
        the camera corrects, a lead filled to its follows' size (``attempt``: the failed throw it
        replaces, kept once)."""
        with self._lock:
            deal_index = self._current_trick_deal()
            candidate = self._with_deal_copied(deal_index)
            last = candidate["deals"][deal_index]["tricks"][-1]
            self._check_position(last, position, seat)
            if attempt is not None:
                last.setdefault("attempt", list(attempt))
            changes.set_seen(last, seat)  # a play not seen (miss_play), read after all
            last["plays"][position] = [scorer.format_card(scorer.parse_card(card)) for card in cards]
            changes.set_unconfirmed(last, seat, unconfirmed)
            _validate_deal(candidate, deal_index)
            params = {"position": position, "seat": seat, "cards": list(cards), "unconfirmed": list(unconfirmed),
                      "attempt": list(attempt) if attempt is not None else None, "reason": reason}
            change = self._commit(candidate, "replace-play", params, deal_index)
        self._announce(reason, deal_index)
        return change

    def _check_not_over(self, deal_index: int) -> None:
        """Refuses a play into a deal whose last trick is played (the audit found its outcome)."""
        deal = self._record["deals"][deal_index]
        tricks = deal.get("tricks", [])
        if deal.get("defender_points") is not None or (deal.get("complete") and any(
                trick.get("points") is not None for trick in tricks)):
            raise InputError("points.deal_done", deal=deal_index)  # 只记分: ended by its points
        if not tricks or tricks[-1].get("points") is not None or len(tricks[-1]["plays"]) < self.players:
            return
        audit = self._audited()[1]["deals"]
        if deal_index < len(audit) and audit[deal_index].get("outcome") is not None:
            first = tricks[0]
            played = sum(len(self._play_of(trick, first["leader"]) or []) for trick in tricks)
            raise OutOfTurnError("session.deal_over", deal=deal_index, trick=len(tricks) - 1, cards=played)

    @staticmethod
    def _check_points_seen(record: dict[str, Any], seen: tuple[int, int]) -> None:
        """Refuses a points trick whose sender saw another moment of the deal: the trick it meant is
        recorded already (two phones on one trick), or the deal moved on."""
        deal_index, trick_index = seen
        deals = record["deals"]
        tricks = deals[deal_index].get("tricks", []) if 0 <= deal_index < len(deals) else []
        if 0 <= trick_index < len(tricks) and tricks[trick_index].get("points") is not None:
            taken = tricks[trick_index]
            raise OutOfTurnError("session.points_recorded", deal=deal_index, trick=trick_index,
                                 seat=int(taken["winner"]), points=int(taken["points"]))
        if deal_index != len(deals) - 1 or trick_index != len(deals[-1].get("tricks", [])):
            raise OutOfTurnError("session.trick_moved", deal=deal_index, trick=trick_index)

    def _check_seen(self, seen: tuple[int, int], seat: int) -> None:
        """Refuses a play whose sender saw another moment of the table: ``seat`` already played in the
        trick seen (another device recorded it), or the play would go into another trick."""
        deal_index, trick_index = seen
        deals = self._record["deals"]
        tricks = deals[deal_index].get("tricks", []) if 0 <= deal_index < len(deals) else []
        if 0 <= trick_index < len(tricks):
            recorded = self._play_of(tricks[trick_index], seat)
            if recorded is not None:
                raise OutOfTurnError("session.already_played", deal=deal_index, trick=trick_index, seat=seat,
                                     cards=[pretty_card(scorer.parse_card(c)) for c in recorded])
        current = deals[-1].get("tricks", [])
        landing = len(current) - 1 if current and current[-1].get("points") is None and len(
            current[-1]["plays"]) < self.players else len(current)
        if deal_index != len(deals) - 1 or trick_index != landing:
            raise OutOfTurnError("session.trick_moved", deal=deal_index, trick=trick_index)

    def miss_play(self, seat: int, *, frame: int | None = None, time_s: float | None = None) -> Change:
        """The camera saw ``seat``'s zone busy but read nothing before the sweep: its play in the
        current trick is recorded as missing (docs/RECORD.md ``missing``: the play ``[]``, the seat
        in the trick's ``missing``), in its turn like :meth:`play` (a trick may start with it), so
        that the trick is complete and the next one can be led. The audit judges the trick for
        what is known; a person enters the cards with :meth:`enter_play`.

        >>> game = LiveGame({"rules": "standard-2deck", "players": list("abcd"),
        ...                  "deals": [{"level": "2", "trump": "S", "dealer": 0, "tricks": []}]})
        >>> for seat, cards in ((0, ["AH"]), (1, ["3H"])): _ = game.play(seat, cards)
        >>> game.miss_play(2).kind, game.expected_seat(), game.pending()[0]["missing"]
        ('miss-play', 3, True)
        """
        with self._lock:
            if not self._record["deals"]:
                raise InputError("session.no_deal_to_play")
            deal_index = len(self._record["deals"]) - 1
            candidate = self._with_deal_copied(deal_index)
            tricks = candidate["deals"][deal_index].setdefault("tricks", [])
            if not tricks or tricks[-1].get("points") is not None or len(tricks[-1]["plays"]) >= self.players:
                tricks.append({"leader": seat, "plays": []})
            trick = tricks[-1]
            expected = seat_of(trick["leader"], len(trick["plays"]), self.players)
            if trick["plays"] and seat != expected:
                raise OutOfTurnError("session.out_of_turn", deal=deal_index, trick=len(tricks) - 1, seat=seat,
                                     turn=expected)
            trick["plays"].append([])
            trick.setdefault("missing", []).append(seat)
            _validate_deal(candidate, deal_index)
            params = {"seat": seat, "trick": len(tricks) - 1, "frame": frame, "time_s": time_s}
            change = self._commit(candidate, "miss-play", params, deal_index)
        self.bus.publish(StateChanged(reason="play-missing"))
        self._publish_consequences(deal_index, len(tricks) - 1)
        return change

    def enter_play(self, deal: int, trick: int, seat: int, cards: list[str], *, history: bool = True) -> Change:
        """A person enters the cards of ``seat``'s play the camera did not see (:meth:`miss_play`):
        the play becomes ``cards`` and the seat leaves the trick's ``missing``; the audit then
        judges it like any play. ``history``: kept in the record's history (undo takes it back)."""
        canonical = [scorer.format_card(scorer.parse_card(card)) for card in cards]
        with self._lock:
            try:
                if deal < 0 or trick < 0:
                    raise IndexError(deal)
                missing = self._record["deals"][deal]["tricks"][trick].get("missing") or []
            except (IndexError, KeyError, TypeError) as exc:
                raise NoSuchCardError("record.no_trick", deal=deal, trick=trick) from exc
            if seat not in missing:
                raise NoSuchCardError("session.not_missing", deal=deal, trick=trick, seat=seat)
            if not canonical:
                raise InputError("session.enter_empty", deal=deal, trick=trick, seat=seat)
            candidate = self._with_deal_copied(deal)
            trick_data = candidate["deals"][deal]["tricks"][trick]
            trick_data["plays"][position_of(trick_data["leader"], seat, self.players)] = canonical
            left = [s for s in trick_data["missing"] if s != seat]
            if left:
                trick_data["missing"] = left
            else:
                del trick_data["missing"]
            _validate_deal(candidate, deal)
            params = {"trick": trick, "seat": seat, "cards": canonical}
            change = self._commit(candidate, "enter-play", params, deal, history="enter-play" if history else None)
        self._announce("play-entered", deal)
        return change

    def _current_trick_deal(self) -> int:
        deals = self._record["deals"]
        if not deals or not deals[-1].get("tricks"):
            raise NoSuchCardError("session.no_trick_to_revise")
        return len(deals) - 1

    def _check_position(self, trick: dict[str, Any], position: int, seat: int) -> None:
        if not 0 <= position < len(trick["plays"]) or seat_of(trick["leader"], position, self.players) != seat:
            raise NoSuchCardError("session.no_play", position=position, seat=seat)

    def bid(self, seat: int, cards: list[str], *, history: bool = False) -> Change:
        """One more bid in the current deal, if it stands (else :class:`~session.changes.RefusedError`);
        trump, dealer and level follow the standing bid."""
        def edit(record: dict[str, Any], deal: int) -> None:
            run = self.audited()[1]  # the run of the record before the bid: no earlier deal is audited again
            changes.apply_bid(record, deal, seat, list(cards), changes.levels_before(record, run.output, deal),
                              earlier=run)

        return self._edit("bid", {"seat": seat, "cards": list(cards)}, -1, edit, reason="bid",
                          history="bid" if history else None)

    def withdraw_bid(self, *, history: bool = False) -> Change:
        """The current deal's last bid taken back; trump and dealer follow the bid that then stands."""
        def edit(record: dict[str, Any], deal: int) -> None:
            run = self.audited()[1]
            changes.withdraw_bid(record, deal, changes.levels_before(record, run.output, deal), earlier=run)

        return self._edit("withdraw-bid", {}, -1, edit, reason="bid", history="withdraw" if history else None)

    def edit_deal(self, settings: dict[str, Any], *, history: bool = False) -> Change:
        """The current deal's trump, dealer, level or 找朋友 call (``settings``), before its first trick."""
        def edit(record: dict[str, Any], deal: int) -> None:
            run = self.audited()[1]
            changes.edit_deal(record, deal, settings, changes.levels_before(record, run.output, deal), earlier=run)

        return self._edit("edit-deal", copy.deepcopy(settings), -1, edit, reason="setup",
                          history="setting" if history else None)

    def set_kitty(self, deal: int, cards: list[str] | None, *, history: bool = False) -> Change:
        """A deal's kitty, once it is turned up (None: marked unknown, 底牌未知)."""
        canonical = None if cards is None else [scorer.format_card(scorer.parse_card(card)) for card in cards]

        def edit(record: dict[str, Any], index: int) -> None:
            changes.set_kitty(record, index, canonical)

        return self._edit("set-kitty", {"cards": canonical}, deal, edit, reason="kitty",
                          history="kitty" if history else None)

    def set_kitty_points(self, deal: int, points: int, *, history: bool = False) -> Change:
        """A deal's kitty by its points alone (只记分, docs/RECORD.md: ``kitty_points``)."""
        def edit(record: dict[str, Any], index: int) -> None:
            changes.set_kitty_points(record, index, points)

        return self._edit("set-kitty-points", {"points": points}, deal, edit, reason="kitty",
                          history="kitty" if history else None)

    def play_points(self, winner: int, points: int, *, unit: int | None = None, trump: bool = True, last: bool = False,
                    leader: int | None = None, history: bool = False, seen: tuple[int, int] | None = None) -> Change:
        """A trick of the current deal recorded by its winner and points alone (只记分; ``leader`` if
        known); ``last``: the deal's last trick, won with a unit of ``unit`` cards (``trump=False``: not
        a trump), which ends it. ``seen``: the (deal, trick) its sender was about to record (the page):
        a trick another device recorded meanwhile refuses it, saying what was recorded."""
        def edit(record: dict[str, Any], deal: int) -> None:
            if seen is not None:
                self._check_points_seen(record, seen)
            changes.add_points_trick(record, deal, winner, points, unit=unit, trump=trump, last=last, leader=leader)

        params = {"winner": winner, "points": points, "unit": unit, "trump": trump, "last": last, "leader": leader}
        change = self._edit("play-points", params, -1, edit, reason="play", history="play" if history else None)
        with self._lock:
            deal = len(self._record["deals"]) - 1
            trick = len(self._record["deals"][deal].get("tricks", [])) - 1
        self._publish_consequences(deal, trick)
        return change

    def settle_points(self, defender_points: int, last_winner: int, unit: int, *, trump: bool = True,
                      agreed: bool = False, kitty_points: int | None = None, history: bool = False) -> Change:
        """The current deal ended by the defenders' points from its tricks (只记分 by the deal), the
        last trick's winner and unit, and the kitty's points if given; ``agreed``: 认输 / 直接结算, settled
        before its end with the points agreed (marked ``agreed`` in the record,
        :func:`session.changes.settle_by_points`)."""
        def edit(record: dict[str, Any], deal: int) -> None:
            audit = self.audit()
            deal_audit = audit["deals"][deal] if deal < len(audit["deals"]) else {"tricks": []}
            side = self.dealer_sides()[deal] if deal < len(audit["deals"]) else [record["deals"][deal]["dealer"]]
            counted = defenders_trick_points(deal_audit["tricks"], side)
            defenders = defender_seats(int(record["deals"][deal]["dealer"]), side, self.players)
            changes.settle_by_points(record, deal, defender_points, last_winner, unit, counted=counted,
                                     defenders=defenders, trump=trump, agreed=agreed)
            if kitty_points is not None:
                changes.set_kitty_points(record, deal, kitty_points)

        params = {"defender_points": defender_points, "last_winner": last_winner, "unit": unit, "trump": trump,
                  "agreed": agreed, "kitty_points": kitty_points}
        return self._edit("settle-points", params, -1, edit, reason="deal-end", history="settle" if history else None)

    def mark_complete(self, deal: int) -> Change:
        """A deal marked complete (``complete: true``: a replayed record's deal that ended)."""
        def edit(record: dict[str, Any], index: int) -> None:
            record["deals"][index]["complete"] = True

        return self._edit("mark-complete", {}, deal, edit, reason="deal-end", history=None)

    def rule(self, deal: int, violation: int, *, points: int | None = None, levels: int | None = None,
             history: bool = False) -> Change:
        """A penalty for violation ``violation`` of a deal (the index into its audit's violations):
        the profile's when neither ``points`` nor ``levels`` is given, else the organiser's own."""
        def edit(record: dict[str, Any], index: int) -> None:
            run = self.audited()[1]
            changes.add_ruling(record, index, run.output, violation, points=points, levels=levels, run=run)

        return self._edit("rule", {"violation": violation, "points": points, "levels": levels}, deal, edit,
                          reason="ruling", history="ruling" if history else None)

    def remove_ruling(self, deal: int, ruling: int, *, history: bool = False) -> Change:
        """A penalty the table applied taken back (``ruling``: the index into the deal's rulings)."""
        def edit(record: dict[str, Any], index: int) -> None:
            changes.remove_ruling(record, index, ruling)

        return self._edit("remove-ruling", {"ruling": ruling}, deal, edit, reason="ruling",
                          history="ruling" if history else None)

    def new_deal(self, deal: dict[str, Any], *, history: bool = False) -> int:
        """Start a new deal (level, trump, dealer, …, no tricks yet); returns its index."""
        with self._lock:
            candidate = dict(self._record)
            candidate["deals"] = [*self._record["deals"], copy.deepcopy(deal)]
            index = len(candidate["deals"]) - 1
            _validate_deal(candidate, index)
            self._commit(candidate, "new-deal", {"deal": copy.deepcopy(deal)}, index,
                         history="next-deal" if history else None)
        self.bus.publish(StateChanged(reason="new-deal"))
        return index

    def next_deal(self, trump: str, *, history: bool = False) -> int:
        """Start the next deal once the current one is complete and its kitty known: the audit's next
        dealer at his new level (找朋友: the last call carries over); returns its index."""
        with self._lock:
            record, run = self.audited()
            deal = changes.next_deal_setup(record, run.output, trump, run=run)
            candidate = dict(record)
            candidate["deals"] = [*record["deals"], deal]
            index = len(candidate["deals"]) - 1
            _validate_deal(candidate, index)
            self._commit(candidate, "next-deal", {"trump": trump}, index, history="next-deal" if history else None)
        self.bus.publish(StateChanged(reason="new-deal"))
        return index

    def undo(self) -> Change:
        """The last change a person made (kept in the history) taken back; the history says so."""
        return self._step("undo", session_history.undo)

    def redo(self) -> Change:
        """The last change undone put back (until a new change is made); the history says so."""
        return self._step("redo", session_history.redo)

    def _step(self, kind: str, apply: Callable[[dict[str, Any]], dict[str, Any]]) -> Change:
        with self._lock:
            candidate = apply(self._record)
            entry = candidate["history"][candidate["history"][-1]["of"]]
            deal = entry.get("deal") if isinstance(entry, dict) else None
            change = self._commit(candidate, kind, {"of": candidate["history"][-1]["of"]}, deal)
        self.bus.publish(StateChanged(reason=kind))
        with self._lock:
            deals = list(enumerate(self._record["deals"]))
        for index, played in deals:  # an undone deal's end, a violation again: what the change made
            if (deal is None or index == deal) and played.get("tricks"):
                self._publish_consequences(index, len(played["tricks"]) - 1, announce_trick=False)
        return change

    def import_record(self, record: dict[str, Any], *, reason: str = "import") -> Change:
        """Replace the whole record (a set-up made on the page, an imported record)."""
        scorer.validate_record(changes.rules_record(record))
        with self._lock:
            change = self._commit(copy_record(record), "import", {"reason": reason}, None)
        self.bus.publish(StateChanged(reason=reason))
        for deal_index, deal in enumerate(self._record["deals"]):
            if deal.get("tricks"):
                self._publish_consequences(deal_index, len(deal["tricks"]) - 1, announce_trick=False)
        return change

    # --- the journal ---------------------------------------------------------------

    def subscribe_journal(self, callback: Callable[[Change], None]) -> Callable[[], None]:
        """Call ``callback`` with every later change of the record (:class:`~session.events.Change`:
        numbered, with its kind and params), in order, once it is saved. It is called under the
        game's lock, before the change's events: keep it short (queue the change). Returns a
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

    def _edit(self, kind: str, params: dict[str, Any], deal_index: int, edit: Callable[[dict[str, Any], int], None],
              *, reason: str, history: str | None) -> Change:
        """One change of one deal: ``edit`` changes a copy of it (the other deals shared), the deal
        is validated, saved, journalled; the page is told ``reason``."""
        with self._lock:
            deals = self._record["deals"]
            if not deals:
                raise InputError("session.no_deal", what=kind)
            if not -len(deals) <= deal_index < len(deals):
                raise NoSuchCardError("record.no_deal", deal=deal_index)
            deal_index %= len(deals)
            candidate = self._with_deal_copied(deal_index)
            edit(candidate, deal_index)
            _validate_deal(candidate, deal_index)
            change = self._commit(candidate, kind, params, deal_index, history=history)
        self._announce(reason, deal_index)
        return change

    def _announce(self, reason: str, deal_index: int) -> None:
        """A change of one deal other than a new play: the page reloads; the deal's end or a violation is told."""
        self.bus.publish(StateChanged(reason=reason))
        with self._lock:
            deals = self._record["deals"]
            tricks = deals[deal_index].get("tricks") if deal_index < len(deals) else None
        if tricks:
            self._publish_consequences(deal_index, len(tricks) - 1, announce_trick=False)

    def _play_of(self, trick: dict[str, Any], seat: int) -> list[str] | None:
        if trick.get("points") is not None:
            return None  # 只记分: no cards
        position = position_of(trick["leader"], seat, self.players)
        return trick["plays"][position] if position < len(trick["plays"]) else None

    def _with_deal_copied(self, deal_index: int) -> dict[str, Any]:
        """A new record that shares everything with the current one but deal ``deal_index`` (a copy
        to change): a change copies what it changes, not the whole game."""
        candidate = dict(self._record)
        candidate["deals"] = list(self._record["deals"])
        candidate["deals"][deal_index] = clone(self._record["deals"][deal_index])
        return candidate

    def _commit(self, candidate: dict[str, Any], kind: str, params: dict[str, Any], deal: int | None, *,
                history: str | None = None) -> Change:
        """Make ``candidate`` the current record once it is saved (under the lock); ``history``: the
        kind of change kept in the record's history (a person's change, undone by :meth:`undo`). A
        save that fails raises :class:`NotSavedError` and the game stays as it was: what is current
        is always what is stored. The change is journalled (numbered, its kind and params)."""
        if history is not None:
            candidate = session_history.logged(self._record, candidate, history)
        self._save(self._record, candidate)
        self._record = candidate
        self._audit_fresh = False
        self._version += 1
        change = Change(number=self._version, kind=kind, params=params, deal=deal)
        self._journal.append(change)
        for callback in list(self._journal_subscribers):
            callback(change)
        return change

    def _save(self, before: dict[str, Any], after: dict[str, Any]) -> None:
        try:
            if self.path is not None:
                write_json_atomic(self.path, after)
        except OSError as exc:
            error = not_saved(exc, str(self.path), self.path.parent if self.path is not None else None)
            log.error("%s", error)
            raise error from None
        if self.saver is not None:
            self.saver(before, after)

    def _publish_consequences(self, deal_index: int, trick_index: int, *, announce_trick: bool = True) -> None:
        record, audit = self._audited()
        with self._lock:
            if deal_index >= len(audit["deals"]) or trick_index >= len(record["deals"][deal_index].get("tricks", [])):
                return  # replaced meanwhile: the newer change publishes its own
            deal_audit = audit["deals"][deal_index]
            events: list[Any] = []
            trick_audit = deal_audit["tricks"][trick_index] if trick_index < len(deal_audit["tricks"]) else None
            trick = record["deals"][deal_index]["tricks"][trick_index]
            if announce_trick and trick_audit is not None and (
                    trick.get("points") is not None or len(trick["plays"]) == self.players):
                if trick_audit.get("winner") is not None:
                    events.append(
                        TrickComplete(deal=deal_index, trick=trick_index, winner=trick_audit["winner"],
                                      points=trick_audit.get("points", 0))
                    )
            for violation in deal_audit["violations"]:
                key = (deal_index, *_violation_key(violation))
                if key not in self._known_violations or (violation["proven"] and not self._known_violations[key]):
                    events.append(ViolationFound(deal=deal_index, trick=violation["trick"], seat=violation["seat"],
                                                 rule=violation["rule"], proven=violation["proven"],
                                                 detail=violation["detail"]))
                self._known_violations[key] = violation["proven"]
            if deal_audit.get("outcome") is not None and deal_index not in self._completed_deals:
                self._completed_deals.add(deal_index)
                events.append(DealComplete(deal=deal_index, summary=copy.deepcopy(deal_audit)))
        for event in events:
            self.bus.publish(event)
