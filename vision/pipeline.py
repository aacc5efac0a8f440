"""From frames to the game record: the table pipeline.

Data flows one way::

    frames -> motion / arms (every frame, cheap) -> card reads (only when a zone settles)
           -> tracked zone contents -> plays in turn order -> LiveGame (record, audit, events)

:class:`TablePipeline` watches every seat zone (``docs/TABLE.md``). A zone is *busy* while
something moves in it or an arm reaches over it; once it has been quiet for
``settle_s`` (0.7 s) the card reader reads the frame, and a second read ``confirm_s``
later must agree (:mod:`vision.tracking`). What the zone then holds is its settled
content, and the rules decide what it means:

* the seat whose turn it is (``LiveGame.expected_seat``) has played when its zone
  settles with new cards; a lead from another seat is taken after ``wrong_leader_wait_s``
  more (a wrong leader is the audit's business); a follow must have as many cards as
  the lead — otherwise the player may still be laying cards, or a read missed one, so
  the table is read again and the play waits (after ``short_play_wait_s`` it is taken,
  missing cards marked for a person to confirm);
* the last play of the trick can still change until the next one settles: cards taken
  back from a lead are a failed throw (the record keeps the ``attempt``), cards added
  or changed revise the play;
* every read teaches every still zone; after each play the table is read a few more
  times, and cards that have not moved but now read differently by consensus of the
  reads were misread: the record is corrected (never a card a person corrected);
* after the last play the trick is complete; the next trick starts once the sweep has
  cleared the table (or the next lead has lain still ``stale_sweep_s`` beside cards
  left behind).

Every settled play goes to :meth:`LiveGame.play` at once (saved atomically, audited,
published on ``game.bus``); revisions go through :meth:`LiveGame.replace_record`
(a ``StateChanged`` event whose reason says why). Cards read with low confidence are
marked unconfirmed.

>>> from session.live import LiveGame
>>> record = {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": ["a", "b", "c", "d"],
...           "deals": [{"level": "2", "trump": "S", "dealer": 0, "tricks": []}]}
>>> pipeline = TablePipeline(LiveGame(record))
>>> pipeline.settle_s
0.7
"""

from __future__ import annotations

import copy
import dataclasses
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from scorer.seats import seat_of
from session.events import StateChanged
from session.live import LiveGame, OutOfTurnError, ResumeMismatchError, play_matches
from vision.calibration import CalibrationError, SeatZones, TableCalibration, calibrate, table_aspect
from vision.motion import MotionMonitor
from vision.read_check import deal_facts, weigh_read
from vision.sources import Frame, FrameSource, SourceError, open_source
from vision.tracking import ZoneContent, ZoneTracker

__all__ = [
    "Frame",
    "FrameSource",
    "PipelineStats",
    "SourceError",
    "TablePipeline",
    "open_source",
]


class PictureKeeper(Protocol):
    """Keeps the picture of a settled play (its seat's zone, BGR) and says where: the reference
    the record holds (``{"file", "frame", "time_s"}``), or None when it is not kept (over budget)."""

    def keep(self, seat: int, frame: Frame, image: np.ndarray) -> dict[str, Any] | None: ...


class CardReaderLike(Protocol):
    """What the pipeline needs of a card reader: instances with ``card``, ``box``, ``confidence``."""

    def read(self, frame_bgr: np.ndarray) -> list[Any]: ...


@dataclass
class PipelineStats:
    """Counters of one run (frames seen, frames skipped as unusable, card reads, plays)."""

    frames: int = 0
    invalid_frames: int = 0
    reads: int = 0
    plays: int = 0
    already_recorded: int = 0  # plays watched again while a resumed replay caught up with its record
    revisions: int = 0
    reads_weighed: int = 0  # card reads the game's facts changed (vision.read_check)
    read_seconds: float = 0.0
    frame_seconds: float = 0.0


@dataclass
class _Zone:
    seat: int
    tracker: ZoneTracker
    last_busy: float = -1e9
    dirty: bool = True
    first_read_at: float | None = None
    content: ZoneContent | None = None
    content_at: float = -1e9
    content_frame: int = -1
    version: int = 0
    used_version: int = 0
    short_since: float | None = None
    short_version: int = -1
    moved_since_commit: bool = True


def _signature(content: ZoneContent) -> tuple[str, ...]:
    return tuple(sorted(content.cards))


@dataclass
class _Trick:
    """The pipeline's view of the current trick (mirrors the record's last trick)."""

    leader: int | None = None
    plays: list[list[str]] = field(default_factory=list)
    complete_at: float | None = None


def _box_centre(box: Sequence[float]) -> tuple[float, float]:
    x1, y1, x2, y2 = (float(v) for v in box[:4])
    return ((x1 + x2) / 2.0, (y1 + y2) / 2.0)


ZONE_READ_ABOVE = 1000
"""Frames wider than this (pixels) are read seat zone by seat zone at full resolution."""


def read_zones(reader: CardReaderLike, image: np.ndarray, calibration: TableCalibration, seat_zones: SeatZones,
               boxes: dict[int, tuple[int, int, int, int]] | None = None) -> list[Any]:
    """The card instances of a big frame read seat zone by seat zone, each zone's rectangle
    (``boxes``, default :meth:`SeatZones.zone_boxes`) at full resolution, their boxes (and
    their indices' boxes) moved back into the frame. A card seen in two rectangles counts
    in the one whose seat holds its centre."""
    boxes = seat_zones.zone_boxes(calibration) if boxes is None else boxes
    instances = []
    for seat, (x1, y1, x2, y2) in boxes.items():
        for instance in reader.read(np.ascontiguousarray(image[y1:y2, x1:x2])):
            moved = _shifted(instance, x1, y1)
            (u, v), = calibration.to_table([_box_centre(moved.box)])
            if seat_zones.seat_at(float(u), float(v)) == seat:
                instances.append(moved)
    return instances


def _shifted(instance: Any, dx: float, dy: float) -> Any:
    """A copy of ``instance`` (and of its index readings, where it has them) with its boxes moved by (dx, dy)."""
    def moved(item: Any, **fields: Any) -> Any:
        box = item.box
        fields["box"] = (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)
        if dataclasses.is_dataclass(item):
            return dataclasses.replace(item, **fields)
        clone = copy.copy(item)  # a reader's own instance type (test doubles, other readers)
        for name, value in fields.items():
            setattr(clone, name, value)
        return clone

    if hasattr(instance, "indices"):
        return moved(instance, indices=tuple(moved(index) for index in instance.indices))
    return moved(instance)


class TablePipeline:
    """Turns frames of the table into plays in ``game`` (see the module docstring).

    ``reader``: anything with ``read(frame_bgr) -> [instance(card, box, confidence, ...)]``;
    a reader with ``read_frame(frame)`` is given the whole :class:`Frame` instead (the
    oracle reader of rendered videos). Without one, :meth:`vision.detector.CardReader.load`
    is used. ``calibration``: a :class:`TableCalibration`, four corners, or None to find the
    table in the first frame. ``replay_from_start``: the source starts at the beginning of
    the deal although ``game`` already holds some of its plays (a crashed replay resumed):
    those plays are watched again without being recorded twice. ``filmed_from``: the trick
    the source starts at; the tricks before it are the record of the deal so far, which the
    source never shows (a video of a deal's last tricks, like the bundled demo).
    """

    def __init__(
        self,
        game: LiveGame,
        *,
        reader: CardReaderLike | None = None,
        calibration: TableCalibration | Sequence[Sequence[float]] | None = None,
        settle_s: float = 0.7,
        confirm_s: float = 0.1,
        short_play_wait_s: float = 1.2,
        min_confidence: float = 0.6,
        replay_from_start: bool = False,
        filmed_from: int = 0,
        motion_width: int = 160,
        verify_s: float = 1.5,
        verify_after_commit_s: float = 0.7,
        verify_interval_s: float = 0.2,
        wrong_leader_wait_s: float = 1.0,
        stale_sweep_s: float = 3.0,
        zone_read_above: int = ZONE_READ_ABOVE,
        pictures: PictureKeeper | None = None,
    ) -> None:
        self.game = game
        self.pictures = pictures
        self.wrong_leader_wait_s = wrong_leader_wait_s
        self.stale_sweep_s = stale_sweep_s
        self._now = 0.0
        self.verify_s = verify_s
        self.verify_after_commit_s = verify_after_commit_s
        self.verify_interval_s = verify_interval_s
        self._verify_until = -1e9
        self._last_read_at = -1e9
        self.settle_s = settle_s
        self.confirm_s = confirm_s
        self.short_play_wait_s = short_play_wait_s
        self.min_confidence = min_confidence
        self.motion_width = motion_width
        self.zone_read_above = zone_read_above
        self._zone_boxes: dict[int, tuple[int, int, int, int]] = {}
        self._reader = reader
        self._given_calibration = calibration
        self.calibration: TableCalibration | None = calibration if isinstance(calibration, TableCalibration) else None
        self.calibration_warning: str | None = None
        self.players = game.players
        self.seat_zones = SeatZones(self.players)
        self.stats = PipelineStats()
        self.monitor: MotionMonitor | None = None
        self.zones = [
            _Zone(seat, ZoneTracker(self._fan_direction(seat), min_confidence=min_confidence))
            for seat in range(self.players)
        ]
        self._target_game: LiveGame | None = None
        if replay_from_start and self._plays_in_deal(game) > self._plays_in_deal(game, filmed_from):
            self._target_game = game
            self.game = LiveGame(self._without_current_tricks(game.snapshot(), filmed_from), bus=None)
        self._trick = _Trick()
        self._swept = True
        self._sync_from_record(now=0.0)
        self._resync = False
        # The page may change the record under us (a new deal, an imported or edited record).
        game.bus.subscribe(self._on_event)

    # --- public -------------------------------------------------------------------

    @property
    def reader(self) -> CardReaderLike:
        if self._reader is None:
            from vision.detector import TABLE, CardReader  # the trained model; imported only when needed

            self._reader = CardReader.load(**TABLE)
        return self._reader

    def run(
        self,
        source: FrameSource,
        *,
        realtime: bool = False,
        stop: threading.Event | None = None,
        progress: Callable[[int, int | None], None] | None = None,
    ) -> None:
        """Process ``source`` to its end (or until ``stop`` is set), feeding settled plays to the game.

        ``realtime`` paces a file source at its frame rate (what a camera would give);
        otherwise frames are processed as fast as they decode. ``progress(index, count)``
        is called after every frame.
        """
        start = time.monotonic()
        for frame in source:
            if stop is not None and stop.is_set():
                break
            if realtime and not source.live:
                delay = start + frame.time_s - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
            self.process(frame)
            if progress is not None:
                progress(frame.index, source.frame_count)

    def process(self, frame: Frame) -> None:
        """Take one frame: motion, reads when zones settle, plays when contents settle."""
        begun = time.perf_counter()
        self.stats.frames += 1
        if self.monitor is None:
            self._calibrate(frame.image)
        assert self.monitor is not None
        activity = self.monitor.update(frame.image)
        if activity is None:
            self.stats.invalid_frames += 1
            self.stats.frame_seconds += time.perf_counter() - begun
            return
        now = frame.time_s
        for zone in self.zones:
            if activity.moving[zone.seat] or activity.occluded[zone.seat]:
                zone.last_busy = now
                zone.dirty = True
                zone.moved_since_commit = True
                zone.first_read_at = None
                zone.tracker.reset()
        quiet = [z for z in self.zones if now - z.last_busy >= self.settle_s]
        due = [z for z in quiet if z.dirty and (z.first_read_at is None or now - z.first_read_at >= self.confirm_s - 1e-6)]
        verify = now < self._verify_until and now - self._last_read_at >= self.verify_interval_s
        if due or verify:
            by_seat = self._read(frame)
            self._last_read_at = now
            # One read sees the whole table: every quiet zone learns from it, not only the due ones.
            for zone in quiet:
                settled = zone.tracker.observe(by_seat.get(zone.seat, []))
                if zone.dirty:
                    if settled is not None:
                        zone.dirty = False
                        zone.first_read_at = None
                        self._set_content(zone, settled, frame)
                    else:
                        zone.first_read_at = now
                elif zone.content is not None:
                    # Later reads outvote a settled content that was misread (a card missed twice).
                    consensus = zone.tracker.consensus()
                    if consensus is not None and _signature(consensus) != _signature(zone.content):
                        self._set_content(zone, consensus, frame)
        self._advance(frame)
        self.stats.frame_seconds += time.perf_counter() - begun

    def _set_content(self, zone: _Zone, content: ZoneContent, frame: Frame) -> None:
        changed = zone.content is None or _signature(zone.content) != _signature(content)
        zone.content = content
        zone.content_at = frame.time_s
        zone.content_frame = frame.index
        if changed:
            zone.version += 1

    def _request_verification(self, now: float, seconds: float | None = None) -> None:
        """Read the table again every ``verify_interval_s`` for a while (a new play, or the rules doubt a read)."""
        self._verify_until = max(self._verify_until, now + (self.verify_s if seconds is None else seconds))

    _OWN_REASONS = frozenset({"failed-throw", "play-revised", "play-withdrawn", "misread-corrected"})

    def _on_event(self, event: Any) -> None:
        if isinstance(event, StateChanged) and event.reason not in self._OWN_REASONS:
            self._resync = True

    # --- reading ------------------------------------------------------------------

    def _calibrate(self, image: np.ndarray) -> None:
        size = (image.shape[1], image.shape[0])
        given = self._given_calibration
        if isinstance(given, TableCalibration):
            calibration = given
            if calibration.image_size != size:
                factor = size[0] / calibration.image_size[0]
                calibration = calibration.scaled(factor)
        elif given is not None:
            calibration = TableCalibration.from_corners(given, size)
        else:
            try:
                calibration = calibrate(image)
            except CalibrationError as exc:
                # A camera framed on the table edges, or a patterned cloth: the whole picture is the table.
                calibration = TableCalibration.full_frame(size)
                self.calibration_warning = f"{exc} (first frame); using the whole picture as the table"
        self.calibration = calibration
        self.seat_zones = SeatZones(self.players, aspect=table_aspect(calibration))
        self.monitor = MotionMonitor(calibration, self.seat_zones, width=self.motion_width)
        self._zone_boxes = self.seat_zones.zone_boxes(calibration) if size[0] > self.zone_read_above else {}

    def _read(self, frame: Frame) -> dict[int, list[tuple[str, float, float, float]]]:
        begun = time.perf_counter()
        reader = self.reader
        read_frame = getattr(reader, "read_frame", None)
        instances = read_frame(frame) if callable(read_frame) else self._read_image(reader, frame.image)
        self.stats.reads += 1
        self.stats.read_seconds += time.perf_counter() - begun
        assert self.calibration is not None
        by_seat: dict[int, list[tuple[str, float, float, float]]] = {}
        if not instances:
            return by_seat
        centres = [_box_centre(instance.box) for instance in instances]
        table_points = self.calibration.to_table(centres)
        facts = deal_facts(self.game.snapshot()) if any(hasattr(i, "candidates") for i in instances) else None
        for instance, (u, v) in zip(instances, table_points, strict=True):
            seat = self.seat_zones.seat_at(float(u), float(v))
            if seat is None:
                continue
            card, confidence = str(instance.card), float(getattr(instance, "confidence", 1.0))
            if facts is not None and hasattr(instance, "candidates"):
                candidates = instance.candidates()
                chosen, probability = weigh_read(candidates, facts, seat)
                if chosen != card:
                    self.stats.reads_weighed += 1
                    confidence *= probability / max(candidates[0][1], 1e-9)
                    card = chosen
            by_seat.setdefault(seat, []).append((card, float(u), float(v), confidence))
        return by_seat

    def _read_image(self, reader: CardReaderLike, image: np.ndarray) -> list[Any]:
        """The card instances of a frame. A frame wider than ``zone_read_above`` (a camera at
        its full resolution) is read zone by zone, each seat's rectangle at full resolution:
        the reader shrinks what it reads to its own input size, and a whole 1080p table
        shrunk that far leaves corner indices too small to read (:func:`read_zones`)."""
        if not self._zone_boxes or image.shape[1] <= self.zone_read_above:
            return reader.read(image)
        assert self.calibration is not None
        return read_zones(reader, image, self.calibration, self.seat_zones, self._zone_boxes)

    def _fan_direction(self, seat: int) -> tuple[float, float]:
        dx, dy = self.seat_zones.seat_direction(seat)
        return (dy, -dx)  # the player's right, on the table

    # --- the rules of the table -----------------------------------------------------

    @staticmethod
    def _plays_in_deal(game: LiveGame, tricks: int | None = None) -> int:
        """The plays of the current deal (of its first ``tricks`` tricks only, if given)."""
        record = game.snapshot()
        if not record["deals"]:
            return 0
        return sum(len(trick["plays"]) for trick in record["deals"][-1].get("tricks", [])[:tricks])

    @staticmethod
    def _without_current_tricks(record: dict[str, Any], keep: int = 0) -> dict[str, Any]:
        """The record without the current deal's tricks but its first ``keep`` (the deal so far)."""
        record = copy.deepcopy(record)
        if record["deals"]:
            record["deals"][-1]["tricks"] = record["deals"][-1].get("tricks", [])[:keep]
        return record

    def _sync_from_record(self, now: float) -> None:
        """Mirror the record's current trick (after a resume, a revision, or a page edit)."""
        record = self.game.snapshot()
        tricks = record["deals"][-1].get("tricks", []) if record["deals"] else []
        if not tricks:
            self._trick = _Trick()
            return
        last = tricks[-1]
        self._trick = _Trick(leader=last["leader"], plays=[list(p) for p in last["plays"]])
        if len(last["plays"]) >= self.players:
            self._trick.complete_at = now
            self._swept = False

    def _seat_of_position(self, position: int) -> int:
        assert self._trick.leader is not None
        return seat_of(self._trick.leader, position, self.players)

    def _committed(self, seat: int) -> list[str] | None:
        if self._trick.leader is None:
            return None
        position = (seat - self._trick.leader) % self.players
        return self._trick.plays[position] if position < len(self._trick.plays) else None

    def _advance(self, frame: Frame) -> None:
        now = self._now = frame.time_s
        if self._resync:
            self._resync = False
            self._swept = True
            self._sync_from_record(now)
        trick = self._trick
        n = self.players
        self._correct_misreads(frame)
        trick = self._trick
        if trick.leader is not None and len(trick.plays) >= n:
            if not self._swept:
                if not self._sweep_done(trick):
                    return
                self._swept = True
            self._trick = trick = _Trick()
        if trick.leader is None:
            self._try_lead(frame)
            return
        # Mid-trick: first let the last play change (a throw taken back, a card added).
        self._try_revise(frame)
        if self._trick.leader is None or len(self._trick.plays) >= n:
            return
        expected = self._seat_of_position(len(self._trick.plays))
        zone = self.zones[expected]
        if zone.content is None or zone.version == zone.used_version or not len(zone.content):
            return
        lead_size = len(self._trick.plays[0])
        content = zone.content
        if len(content) == lead_size:
            self._commit(zone, content, frame)
            return
        # A follow with a different size than the lead: the player may still be laying
        # cards, or a read missed one (here or in the lead): read again for a while, and
        # wait, unless the next seat has already played or the zone stays so.
        self._request_verification(now)
        if zone.short_since is None or zone.short_version != zone.version:
            zone.short_since = now
            zone.short_version = zone.version
        next_zone = self.zones[(expected + 1) % n]
        next_played = (
            len(self._trick.plays) + 1 < n
            and next_zone.content is not None
            and len(next_zone.content) > 0
            and next_zone.version != next_zone.used_version
        )
        if now - zone.short_since >= self.short_play_wait_s or next_played:
            self._commit(zone, self._fit_to_size(content, lead_size), frame)

    def _correct_misreads(self, frame: Frame) -> None:
        """A play whose cards have not moved since it was recorded but now read differently was misread: fix it."""
        trick = self._trick
        if trick.leader is None:
            return
        for position, committed in enumerate(trick.plays):
            seat = self._seat_of_position(position)
            zone = self.zones[seat]
            if (zone.moved_since_commit or zone.dirty or zone.content is None or zone.version == zone.used_version
                    or not len(zone.content)):
                continue
            zone.used_version = zone.version
            if zone.content.counts() == Counter(committed):
                continue
            if position > 0 and len(zone.content) != len(trick.plays[0]) and len(committed) == len(trick.plays[0]):
                continue  # the rules side with what was recorded
            if seat in self._corrected_seats():
                continue  # a person already settled this play on the page: their word stands
            self._replace_play(position, seat, zone.content, reason="misread-corrected", attempt=None)
            return

    def _corrected_seats(self) -> set[int]:
        record = self.game.snapshot()
        tricks = record["deals"][-1].get("tricks", []) if record["deals"] else []
        return {c["seat"] for c in tricks[-1].get("corrections", [])} if tricks else set()

    def _replace_play(self, position: int, seat: int, content: ZoneContent, *, reason: str,
                      attempt: list[str] | None) -> None:
        record = self.game.snapshot()
        last = record["deals"][-1]["tricks"][-1]
        if attempt is not None:
            last.setdefault("attempt", list(attempt))
        last["plays"][position] = list(content.cards)
        unconfirmed = [entry for entry in last.get("unconfirmed", []) if entry[0] != seat]
        unconfirmed += [[seat, index] for index in content.unconfirmed]
        if unconfirmed:
            last["unconfirmed"] = unconfirmed
        else:
            last.pop("unconfirmed", None)
        self.game.replace_record(record, reason=reason)
        self.stats.revisions += 1
        complete_at = self._trick.complete_at
        self._trick.plays[position] = list(content.cards)
        self._trick.complete_at = complete_at

    def _sweep_done(self, trick: _Trick) -> bool:
        """Every zone was read again since the trick ended, and is empty (the next leader's may hold a new lead).

        If cards stay behind but the next leader has laid a new lead that has been still
        for ``stale_sweep_s``, the trick is over all the same: the cards left behind are
        not taken for plays unless they change.
        """
        assert trick.complete_at is not None
        next_leader = self.game.expected_seat()
        if next_leader is not None:
            lead_zone = self.zones[next_leader]
            committed = self._committed(next_leader)
            if (lead_zone.content is not None and len(lead_zone.content) and not lead_zone.dirty
                    and lead_zone.content_at > trick.complete_at
                    and lead_zone.content.counts() != Counter(committed or [])
                    and self._now - lead_zone.content_at >= self.stale_sweep_s):
                return True
        for zone in self.zones:
            if zone.content_at <= trick.complete_at:
                return False
            content = zone.content
            if content is None or not len(content):
                continue
            committed = self._committed(zone.seat)
            if zone.seat == next_leader and content.counts() != Counter(committed or []):
                continue
            return False
        return True

    def _try_lead(self, frame: Frame) -> None:
        expected = self.game.expected_seat()
        candidates = [
            z for z in self.zones
            if z.content is not None and len(z.content) and z.version != z.used_version and not z.dirty
        ]
        if not candidates:
            return
        # Cards lying in another seat's zone since before anything moved there (a mark on the
        # cloth read as a card, cards left from an earlier session) are not a lead.
        candidates = [z for z in candidates if z.seat == expected or z.last_busy > -1e8]
        if not candidates:
            return
        candidates.sort(key=lambda z: (z.seat != expected, z.content_at))
        chosen = candidates[0]
        if chosen.seat != expected:
            # Someone else led (the audit will say wrong-leader), or a misread: give more reads
            # the chance to clear it before it goes in the record.
            self._request_verification(frame.time_s)
            if frame.time_s - chosen.content_at < self.wrong_leader_wait_s:
                return
        self._commit(chosen, chosen.content, frame)  # type: ignore[arg-type]

    def _fit_to_size(self, content: ZoneContent, size: int) -> ZoneContent:
        """A follow of the wrong size, taken as it lies: missing cards are marked for a person to confirm.

        Extra cards stay (the audit reports a wrong card count); missing ones are filled
        with the zone's most likely card and marked unconfirmed, never silently guessed.
        """
        if len(content) >= size or not len(content):
            return content
        cards = list(content.cards)
        confidence = list(content.confidence)
        unconfirmed = list(content.unconfirmed)
        filler = cards[int(np.argmax(confidence))]
        while len(cards) < size:
            unconfirmed.append(len(cards))
            cards.append(filler)
            confidence.append(0.0)
        return ZoneContent(tuple(cards), tuple(confidence), tuple(unconfirmed))

    def _commit(self, zone: _Zone, content: ZoneContent, frame: Frame) -> None:
        zone.used_version = zone.version
        zone.short_since = None
        zone.moved_since_commit = False
        picture = self._keep_picture(zone.seat, frame) if self.pictures is not None else None
        try:
            self.game.play(
                zone.seat,
                list(content.cards),
                confidence=list(content.confidence),
                unconfirmed=list(content.unconfirmed),
                frame=frame.index,
                time_s=frame.time_s,
                picture=picture,
            )
        except OutOfTurnError:
            self._sync_from_record(frame.time_s)  # the page changed the record under us
            return
        self.stats.plays += 1
        if self._target_game is not None:
            self.stats.already_recorded += 1
            self._check_resumed_play()
        # A few more reads of the still table: a card missed by both settling reads is outvoted.
        self._request_verification(frame.time_s, self.verify_s if content.unconfirmed else self.verify_after_commit_s)
        if self._trick.leader is None:
            self._trick.leader = zone.seat
        self._trick.plays.append(list(content.cards))
        if len(self._trick.plays) >= self.players:
            self._trick.complete_at = frame.time_s
            self._swept = False
        self._after_commit()

    def _keep_picture(self, seat: int, frame: Frame) -> dict[str, Any] | None:
        """A small JPEG of ``seat``'s zone in the frame the play settled in, handed to the keeper."""
        assert self.pictures is not None and self.calibration is not None
        x1, y1, x2, y2 = self.seat_zones.zone_boxes(self.calibration).get(seat, (0, 0, *self.calibration.image_size))
        h, w = frame.image.shape[:2]
        crop = frame.image[max(0, y1):min(h, y2), max(0, x1):min(w, x2)]
        if not crop.size:
            return None
        return self.pictures.keep(seat, frame, crop)

    def _check_resumed_play(self) -> None:
        """A resumed replay sees again the plays its record holds: each must be that play (the same
        seat, the same cards but for those a person corrected or had to confirm), else the record is
        of another game and nothing is added to it. A play is compared once the next one is laid
        (until then it may still be revised: a failed throw taken back, a card added)."""
        assert self._target_game is not None
        seen = self.game.snapshot()
        recorded = self._target_game.snapshot()
        deal_index = len(recorded["deals"]) - 1

        def flat(record: dict[str, Any]) -> list[tuple[int, int, dict[str, Any]]]:
            return [(t, position, trick) for t, trick in enumerate(record["deals"][-1].get("tricks", []))
                    for position in range(len(trick["plays"]))]

        shown, held = flat(seen), flat(recorded)
        number = len(shown) - 1  # the play before the latest: final now
        if not 0 < number + 1 <= len(held) or number < 0:
            return
        _, position, trick = held[number]
        _, shown_position, shown_trick = shown[number]
        seat = seat_of(shown_trick["leader"], shown_position, self.players)
        cards = shown_trick["plays"][shown_position]
        if not play_matches(trick, position, seat, cards, self.players):
            where = f"deals[{deal_index}].tricks[{held[number][0]}]"
            want_seat = seat_of(trick["leader"], position, self.players)
            path = getattr(self._target_game, "path", None)
            raise ResumeMismatchError(
                f"{path or 'the session'}: holds another game than this input ({where}: seat {want_seat} is recorded "
                f"playing {' '.join(trick['plays'][position])}, the input shows seat {seat} playing {' '.join(cards)}); "
                "nothing was changed: choose another --out or session")

    def _after_commit(self) -> None:
        """A replay resumed from a partial record: once it has seen the recorded plays, record for real."""
        if self._target_game is None:
            return
        if self._plays_in_deal(self.game) >= self._plays_in_deal(self._target_game):
            self.game = self._target_game
            self._target_game = None
            self._sync_from_record(now=self._trick.complete_at or 0.0)
            if self._trick.complete_at is not None:
                self._swept = False

    def _try_revise(self, frame: Frame) -> None:
        """The last play may still change before the next seat plays (see the module docstring)."""
        trick = self._trick
        if trick.leader is None or not trick.plays or len(trick.plays) >= self.players:
            return
        position = len(trick.plays) - 1
        seat = self._seat_of_position(position)
        zone = self.zones[seat]
        if zone.content is None or zone.version == zone.used_version or zone.dirty or not zone.moved_since_commit:
            return  # (unmoved cards read differently are a misread: _correct_misreads)
        committed = Counter(trick.plays[position])
        now_lying = zone.content.counts()
        if now_lying == committed:
            zone.used_version = zone.version
            return
        if position > 0 and len(zone.content) != len(trick.plays[0]):
            return  # a follow being rearranged; wait for it to settle at the lead's size
        record = self.game.snapshot()
        deal = record["deals"][-1]
        last = deal["tricks"][-1]
        reason = "play-revised"
        if not len(zone.content):
            last["plays"].pop()
            if not last["plays"]:
                deal["tricks"].pop()
            reason = "play-withdrawn"
        else:
            if position == 0 and not (now_lying - committed) and (committed - now_lying):
                last.setdefault("attempt", list(trick.plays[0]))
                reason = "failed-throw"
            last["plays"][position] = list(zone.content.cards)
            unconfirmed = [entry for entry in last.get("unconfirmed", []) if entry[0] != seat]
            unconfirmed += [[seat, index] for index in zone.content.unconfirmed]
            if unconfirmed:
                last["unconfirmed"] = unconfirmed
            else:
                last.pop("unconfirmed", None)
        zone.used_version = zone.version
        zone.moved_since_commit = False
        self.game.replace_record(record, reason=reason)
        self.stats.revisions += 1
        self._sync_from_record(frame.time_s)


def run_pipeline(
    game: LiveGame,
    source_spec: str | int,
    *,
    reader: CardReaderLike | None = None,
    corners: Iterable[Sequence[float]] | None = None,
    settle_s: float = 0.7,
    realtime: bool = False,
    stop: threading.Event | None = None,
) -> TablePipeline:
    """Open ``source_spec`` and run a :class:`TablePipeline` on it to the end; returns the pipeline."""
    pipeline = TablePipeline(game, reader=reader, calibration=list(corners) if corners else None, settle_s=settle_s)
    with open_source(source_spec) as source:
        pipeline.run(source, realtime=realtime, stop=stop)
    return pipeline

