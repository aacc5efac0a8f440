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
published on ``game.bus``); revisions are the game's commands :meth:`LiveGame.revise_play` and
:meth:`LiveGame.replace_play` (a ``StateChanged`` event whose reason says why). Cards read with low confidence are
marked unconfirmed.

The steps live beside it: :mod:`vision.zone_reading` (the table found, each read placed in
its seat's zone), :mod:`vision.settling` (when a zone is busy, due a read, settled) and
:mod:`vision.plays` (the lead, the sweep, the record edits of revisions, the check of a
resumed replay); :class:`TablePipeline` holds the state and the order they run in.

>>> from tuolaji.session.live import LiveGame
>>> record = {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": ["a", "b", "c", "d"],
...           "deals": [{"level": "2", "trump": "S", "dealer": 0, "tricks": []}]}
>>> pipeline = TablePipeline(LiveGame(record))
>>> pipeline.settle_s
0.7
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

import numpy as np

from tuolaji.scorer.audit import proven_violation_plays
from tuolaji.scorer.errors import InputError
from tuolaji.scorer.record_types import Record
from tuolaji.scorer.seats import seat_of
from tuolaji.session.commands import play_of
from tuolaji.session.events import StateChanged, ViolationFound
from tuolaji.session.live import LiveGame, OutOfTurnError, ResumeMismatchError
from tuolaji.vision.calibration import SeatZones, TableCalibration, table_aspect
from tuolaji.vision.camera_check import SURE_CARD, UnreadCardsWatch
from tuolaji.vision.motion import MotionMonitor
from tuolaji.vision.plays import (
    TrickView,
    corrected_seats,
    fit_to_size,
    lead_zone,
    plays_in_deal,
    resume_mismatch,
    sweep_done,
    trick_of,
    without_current_tricks,
    without_extra_copies,
    without_unsure,
)
from tuolaji.vision.read_check import (
    as_a_pair,
    beyond_the_decks,
    deal_facts,
    doubted_by_follows,
    doubted_by_next_leader,
    one_suit_lead,
)
from tuolaji.vision.settling import ZoneState, learn_from_read, note_activity, zones_to_read
from tuolaji.vision.sharpness import zone_sharpness
from tuolaji.vision.sources import Frame, FrameSource, SourceError, open_source
from tuolaji.vision.tracking import MIN_CONFIDENCE, ZoneContent, ZoneTracker
from tuolaji.vision.zone_reading import (
    ZONE_READ_ABOVE,
    CardReaderLike,
    SeatReads,
    find_calibration,
    read_zones,
    reads_by_seat,
)

__all__ = [
    "Frame",
    "FrameSource",
    "PipelineStats",
    "SourceError",
    "TablePipeline",
    "ZONE_READ_ABOVE",
    "open_source",
    "read_zones",
]


class PictureKeeper(Protocol):
    """Keeps the picture of a settled play (its seat's zone, BGR) and says where: the reference
    the record holds (``{"file", "frame", "time_s"}``), or None when it is not kept (over budget)."""

    def keep(self, seat: int, frame: Frame, image: np.ndarray) -> dict[str, Any] | None: ...


@dataclass
class PipelineStats:
    """Counters of one run (frames seen, frames skipped as unusable, card reads, plays)."""

    frames: int = 0
    invalid_frames: int = 0
    reads: int = 0
    plays: int = 0
    already_recorded: int = 0  # plays watched again while a resumed replay caught up with its record
    revisions: int = 0
    missing_plays: int = 0  # plays swept before they were read, recorded as missing for a person
    reads_weighed: int = 0  # card reads the game's facts changed (vision.read_check)
    doubted_plays: int = 0  # earlier plays marked for a person because the next lead contradicts them
    tricks_cut_to_follows: int = 0  # tricks whose plays read longer were cut back to their short follows' size
    read_seconds: float = 0.0
    frame_seconds: float = 0.0


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
        min_confidence: float = MIN_CONFIDENCE,
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
        self._zone_boxes: dict[int, tuple[int, int, int, int]] = {}  # read zone by zone: a wide frame's seat boxes
        self._seat_boxes: dict[int, tuple[int, int, int, int]] = {}  # each seat's zone's rectangle in the frame
        self._reader = reader
        self._given_calibration = calibration
        self.calibration: TableCalibration | None = calibration if isinstance(calibration, TableCalibration) else None
        self.calibration_warning: str | None = None
        self.unread_cards = UnreadCardsWatch()
        # each play as the camera recorded it, by (deal, trick, seat): its cards and what their reads allowed
        self._recorded_reads: dict[tuple[int, int, int], tuple[tuple[str, ...], tuple[Any, ...]]] = {}
        self._proof_to_weigh = False  # the audit newly proved a violation: are the reads it rests on sure?
        self._table_mask: np.ndarray | None = None
        self.players = game.players
        self.seat_zones = SeatZones(self.players)
        self.stats = PipelineStats()
        self.monitor: MotionMonitor | None = None
        self.zones = [
            ZoneState(seat, ZoneTracker(self._fan_direction(seat), min_confidence=min_confidence))
            for seat in range(self.players)
        ]
        self._target_game: LiveGame | None = None
        if replay_from_start and plays_in_deal(game.snapshot()) > plays_in_deal(game.snapshot(), filmed_from):
            self._target_game = game
            self.game = LiveGame(without_current_tricks(game.snapshot(), filmed_from), bus=None)
        self._trick = TrickView()
        self._swept = True
        self._seen_follows: dict[int, tuple[ZoneContent, Frame]] = {}
        self._seen_in: TrickView | None = None
        self._sync_from_record(now=0.0)
        self._resync = False
        # The page may change the record under us (a new deal, an imported or edited record).
        game.bus.subscribe(self._on_event)

    # --- public -------------------------------------------------------------------

    @property
    def reader(self) -> CardReaderLike:
        if self._reader is None:
            from tuolaji.vision.detector import (  # the trained model; imported only when needed
                TABLE,
                CardReader,
            )

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
        last: Frame | None = None
        for frame in source:
            if stop is not None and stop.is_set():
                return
            if realtime and not source.live:
                delay = start + frame.time_s - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
            self.process(frame)
            last = frame
            if progress is not None:
                progress(frame.index, source.frame_count)
        if last is not None and not source.live:
            self.finish(last)

    def finish(self, frame: Frame) -> None:
        """A video ended (``frame`` its last): a play lying read in the next seat's zone, but not
        yet settled (the reads still disagreed, the table still moving), is recorded as last read,
        every card not settled marked for a person to confirm; then the next seat's, and so on. A
        play on the table is a play in the record, even in a video's last second."""
        while True:
            if self._trick.leader is not None and len(self._trick.plays) >= self.players:
                return
            seat = self._seat_of_position(len(self._trick.plays)) if self._trick.leader is not None \
                else self.game.expected_seat()
            if seat is None:
                return
            zone = self.zones[seat]
            if zone.content is not None and len(zone.content) and zone.version != zone.used_version and not zone.dirty:
                content = zone.content
            else:
                content = zone.tracker.last_read
                content = dataclasses.replace(content, unconfirmed=tuple(range(len(content))))
            if not len(content):
                return
            if self._trick.leader is not None:
                content = fit_to_size(content, len(self._trick.plays[0]))
            plays = len(self._trick.plays)
            self._commit(zone, content, frame)
            if len(self._trick.plays) == plays:  # the record took no more plays (the deal is over)
                return

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
        note_activity(self.zones, activity, now)
        quiet, due = zones_to_read(self.zones, now, self.settle_s, self.confirm_s)
        verify = now < self._verify_until and now - self._last_read_at >= self.verify_interval_s
        if due or verify:
            by_seat = self._read(frame)
            self._last_read_at = now
            learn_from_read(quiet, by_seat, frame, self._sharpness(frame, quiet))
        self._advance(frame)
        if self._proof_to_weigh:
            self._proof_to_weigh = False
            self._doubt_proofs_on_unsure_reads()
        self.stats.frame_seconds += time.perf_counter() - begun

    def _request_verification(self, now: float, seconds: float | None = None) -> None:
        """Read the table again every ``verify_interval_s`` for a while (a new play, or the rules doubt a read)."""
        self._verify_until = max(self._verify_until, now + (self.verify_s if seconds is None else seconds))

    _OWN_REASONS = frozenset({"failed-throw", "play-doubted", "play-revised", "play-withdrawn", "misread-corrected", "play-missing"})

    def _on_event(self, event: Any) -> None:
        if isinstance(event, StateChanged) and event.reason not in self._OWN_REASONS:
            self._resync = True
        if isinstance(event, ViolationFound) and event.proven:
            self._proof_to_weigh = True

    # --- reading ------------------------------------------------------------------

    def _calibrate(self, image: np.ndarray) -> None:
        size = (image.shape[1], image.shape[0])
        calibration, warning = find_calibration(self._given_calibration, image)
        if warning is not None:
            self.calibration_warning = warning
        self.calibration = calibration
        self.seat_zones = SeatZones(self.players, aspect=table_aspect(calibration))
        self.monitor = MotionMonitor(calibration, self.seat_zones, width=self.motion_width)
        self._seat_boxes = self.seat_zones.zone_boxes(calibration)
        self._zone_boxes = self._seat_boxes if size[0] > self.zone_read_above else {}
        self._table_mask = calibration.mask(image.shape)

    @property
    def reader_warning(self) -> str | None:
        """``"unreadable"`` while cards lie on the table and the reader reads none of their corners
        (:class:`vision.camera_check.UnreadCardsWatch`), else None."""
        return self.unread_cards.warning

    def _read(self, frame: Frame) -> SeatReads:
        begun = time.perf_counter()
        reader = self.reader
        read_frame = getattr(reader, "read_frame", None)
        instances = read_frame(frame) if callable(read_frame) else self._read_image(reader, frame.image)
        self.stats.reads += 1
        self.stats.read_seconds += time.perf_counter() - begun
        self.unread_cards.note(frame.time_s, frame.image, self._table_mask, sure_corners(instances))
        assert self.calibration is not None
        facts = deal_facts(self.game.record()) if instances and any(hasattr(i, "candidates") for i in instances) else None
        by_seat, weighed = reads_by_seat(instances, self.calibration, self.seat_zones, facts)
        self.stats.reads_weighed += weighed
        return by_seat

    def _sharpness(self, frame: Frame, zones: list[ZoneState]) -> dict[int, float]:
        """How sharp each of ``zones`` is in ``frame`` (its read weighs by it against the zone's others)."""
        return {zone.seat: zone_sharpness(frame.image, self._seat_boxes[zone.seat])
                for zone in zones if zone.seat in self._seat_boxes}

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

    def _sync_from_record(self, now: float) -> None:
        """Mirror the record's current trick (after a resume, a revision, or a page edit)."""
        self._trick, complete = trick_of(self.game.record(), self.players)
        if complete:
            self._trick.complete_at = now
            self._swept = False

    def _seat_of_position(self, position: int) -> int:
        assert self._trick.leader is not None
        return seat_of(self._trick.leader, position, self.players)

    def _advance(self, frame: Frame) -> None:
        """The rules of the table after each frame: misreads corrected, a swept trick closed, then
        a lead, or (mid-trick) the last play revised and the next seat's follow taken."""
        now = self._now = frame.time_s
        if self._resync:
            self._resync = False
            self._swept = True
            self._sync_from_record(now)
        n = self.players
        self._correct_misreads(frame)
        trick = self._trick
        if trick.leader is not None and len(trick.plays) >= n:
            if not self._swept:
                if not sweep_done(self.zones, trick, self.game.expected_seat(), n, self._now, self.stale_sweep_s):
                    return
                self._swept = True
            self._trick = trick = TrickView()
        if trick.leader is None:
            self._try_lead(frame)
            return
        self._note_follows_seen(frame)
        if self._swept_unfinished():
            self._record_swept_trick()
            return
        # Mid-trick: first let the last play change (a throw taken back, a card added).
        self._try_revise(frame)
        if self._trick.leader is None or len(self._trick.plays) >= n:
            return
        self._try_follow(frame)

    def _committed_zones(self) -> list[ZoneState]:
        return [self.zones[self._seat_of_position(position)] for position in range(len(self._trick.plays))]

    @staticmethod
    def _read_empty(zone: ZoneState) -> bool:
        return not zone.dirty and zone.content is not None and not len(zone.content)

    @staticmethod
    def _read_empty_since_commit(zone: ZoneState) -> bool:
        return zone.moved_since_commit and TablePipeline._read_empty(zone)

    def _note_follows_seen(self, frame: Frame) -> None:
        """Keep, for each seat yet to play in the trick, the last cards its zone was read settled
        with since they were laid (and the frame): a follow read while the seat before it had not
        been read to play, which a sweep may take before it is recorded. Called first in each
        :meth:`_advance` of a trick under way, so what the rules after it see is this trick's."""
        if self._seen_in is not self._trick:
            self._seen_in = self._trick
            self._seen_follows = {}
        played = {self._seat_of_position(position) for position in range(len(self._trick.plays))}
        for zone in self.zones:
            content = zone.content
            if zone.seat in played or zone.dirty or content is None or not len(content) \
                    or zone.version == zone.used_version:
                continue
            self._seen_follows[zone.seat] = (content, frame)

    def _swept_unfinished(self) -> bool:
        """Whether the trick under way was swept before every seat's play was read: with two plays
        recorded at least, the zone of every play recorded in it moved and was read empty since;
        with only the lead, its cards are gone and the cards of a later seat were read and were
        swept with them (a lead taken back leaves the other zones as they were)."""
        plays = len(self._trick.plays)
        if plays == 1:
            return self._lead_gone() and self._lead_swept_with_follows()
        return 2 <= plays < self.players and all(self._read_empty_since_commit(z) for z in self._committed_zones())

    def _lead_gone(self) -> bool:
        """Whether the lead's zone moved since the lead and is read settled without any of its
        cards (empty, or already holding the next lead)."""
        zone = self.zones[self._seat_of_position(0)]
        return zone.moved_since_commit and not zone.dirty and zone.content is not None \
            and not Counter(zone.content.cards) & Counter(self._trick.plays[0])

    def _lead_swept_with_follows(self) -> bool:
        """Some seat after the leader was read with cards since the lead, and every such zone is read empty now."""
        seen = self._seen_follows
        return bool(seen) and all(self._read_empty(self.zones[seat]) for seat in seen)

    def _record_swept_trick(self) -> None:
        """The trick the sweep took before every play was read: each seat still to play recorded with
        the cards its zone was read with before the sweep (fitted to the lead's size, its marks kept),
        or where it was not read, as missing, for a person to enter (:meth:`LiveGame.miss_play`); the
        next trick starts from the next lead, so no card laid after the sweep is taken for a play of
        the swept trick."""
        trick, seen = self._trick, self._seen_follows
        for position in range(len(trick.plays), self.players):
            seat = self._seat_of_position(position)
            if seat in seen:
                content, frame = seen[seat]
                played = len(self._trick.plays)
                self._commit(self.zones[seat], fit_to_size(self._as_played(content, position), len(trick.plays[0])), frame)
                if self._trick is not trick or len(self._trick.plays) == played:
                    return  # the record took no more plays (the page changed it, or the deal is over)
                continue
            self.game.miss_play(seat)
            self.stats.missing_plays += 1
        self._trick = TrickView()
        self._swept = True

    def _sweep_under_way(self) -> bool:
        """Whether a zone of a play of this trick is moving, or was read empty since its play:
        the trick is being swept, and a card laid now belongs to the next trick."""
        return any(z.dirty or self._read_empty_since_commit(z) for z in self._committed_zones())

    def _try_follow(self, frame: Frame) -> None:
        """The next seat's settled cards are its follow when they match the lead's size; a follow
        of another size may still be being laid, or a read missed a card (here or in the lead):
        read again for a while, and wait, unless the next seat has already played or the zone
        stays so (then it is taken, the missing cards marked unconfirmed)."""
        now, n = frame.time_s, self.players
        expected = self._seat_of_position(len(self._trick.plays))
        zone = self.zones[expected]
        if zone.content is None or zone.version == zone.used_version or not len(zone.content):
            return
        if self._sweep_under_way():
            return
        lead_size = len(self._trick.plays[0])
        content = zone.content
        if len(content) == lead_size:
            self._commit(zone, self._as_played(content, len(self._trick.plays)), frame)
            return
        self._request_verification(now)
        if zone.short_since is None or zone.short_version != zone.version:
            zone.short_since = now
            zone.short_version = zone.version
        next_zone = self.zones[seat_of(expected, 1, n)]
        next_played = (
            len(self._trick.plays) + 1 < n
            and next_zone.content is not None
            and len(next_zone.content) > 0
            and next_zone.version != next_zone.used_version
        )
        if now - zone.short_since >= self.short_play_wait_s or next_played:
            if len(content) > lead_size:
                outvoted = self._outvoted(content)
                if outvoted is not None:
                    content = outvoted
                elif self._lead_hid_a_copy(content, expected):
                    self._grow_lead(len(content))
                else:
                    content = without_unsure(content, len(content) - lead_size)
            elif self._trick_read_extra(content):
                self._shrink_trick(len(content))
                lead_size = len(content)
            elif (cut := self._cut_to_short_follows(content)) is not None:
                self._record_cut(cut)
                self.stats.tricks_cut_to_follows += 1
                lead_size = len(content)
            self._commit(zone, fit_to_size(content, lead_size), frame)

    def _outvoted(self, content: ZoneContent) -> ZoneContent | None:
        """A follow longer than the lead, when the lead and at least two follows are recorded all of
        one size and the follow is of that size without its unsure cards and its extra copies of a
        card (:func:`without_extra_copies`: a card of its fan counted twice): that follow, so cut,
        rather than a lead and follows that all hid a copy. None otherwise (extra cards of other
        names, 大王 A♥ after three singles, are more likely pairs each read as one card)."""
        plays = self._trick.plays
        size = len(plays[0])
        if len(plays) < 3 or any(len(play) != size for play in plays):
            return None
        cut = without_unsure(content, len(content) - size)
        cut = without_extra_copies(cut, len(cut) - size)
        return cut if len(cut) == size else None

    def _lead_hid_a_copy(self, content: ZoneContent, seat: int) -> bool:
        """A follow longer than the lead shows the lead's true size when it holds more sure
        cards than the lead, or when another follower's zone also holds more than the lead; else its
        extra cards are unsure reads where there is no card (a pip cluster read as an index)."""
        lead_size = len(self._trick.plays[0])
        if len(content) - len(content.unconfirmed) > lead_size:
            return True
        leader = self._seat_of_position(0)
        return any(z.seat not in (seat, leader) and z.content is not None and len(z.content) > lead_size
                   for z in self.zones)

    def _trick_read_extra(self, follow: ZoneContent) -> bool:
        """A follow stays shorter than the lead, and the lead and every follow recorded before it
        hold no more sure cards than it has: their extra cards, all unsure, were read where there
        is no card (a pip half under a card's edge taken for an index, in the lead and again in
        the first follow's zone)."""
        return all(len(play) - len(play.unconfirmed) <= len(follow)
                   for play in (self._as_recorded(position) for position in range(len(self._trick.plays))))

    def _cut_to_short_follows(self, follow: ZoneContent) -> dict[int, ZoneContent] | None:
        """The trick's recorded plays cut to the size of ``follow``, a follow that stays shorter than
        the lead, where the trick's reads say its plays are of that size: another recorded follow holds
        no more sure cards than it has, the plays holding no more sure cards than it (this follow too)
        outnumber those holding more, and each of those is longer only by copies beyond a pair (10♦ 10♦
        10♦ read where 10♦ 10♦ lies fanned: the lower card's pip or a four-corner design's third corner
        taken for another index, surely). The plays holding more lose those copies (the copies left marked
        for a person), the others their unsure or filled-in cards. None where the reads do not say so:
        one short follow, or as many sure plays longer as shorter (a triple of three decks whose followers
        hid a card under its twin is as likely), or a longer play holding other cards or a lone pair more
        (two pairs led: K♦ K♦ Q♦ Q♦)."""
        plays = self._trick.plays
        size = len(follow)
        if len(plays) < 2:
            return None
        recorded = [self._as_recorded(position) for position in range(len(plays))]
        sure = [len(play) - len(play.unconfirmed) for play in recorded]
        other_short = sum(1 for position in range(1, len(plays)) if sure[position] <= size)
        longer = sum(1 for count in sure if count > size)
        if other_short < 1 or 1 + sum(1 for count in sure if count <= size) <= longer:
            return None
        cut: dict[int, ZoneContent] = {}
        for position, play in enumerate(recorded):
            if len(play) <= size:
                continue
            if sure[position] <= size:
                cut[position] = without_unsure(play, len(play) - size)
                continue
            copies = without_extra_copies(play, len(play) - size)
            kept = Counter(copies.cards)
            if len(copies) != size or any(kept[card] < min(2, count) for card, count in Counter(play.cards).items()):
                return None
            cut[position] = copies
        return cut if 0 in cut else None

    def _record_cut(self, cut: dict[int, ZoneContent]) -> None:
        """The trick's plays cut shorter (by position: :meth:`_shrink_trick`, :meth:`_cut_to_short_follows`)
        recorded so, the follows first, so that the lead shrinks last and refits nothing."""
        for position in sorted(cut, reverse=True):
            self._replace_play(position, self._seat_of_position(position), cut[position], reason="play-revised", attempt=None)

    def _shrink_trick(self, size: int) -> None:
        """The lead and the follows recorded so far without their unsure cards beyond ``size`` (the
        least sure first)."""
        recorded = [self._as_recorded(position) for position in range(len(self._trick.plays))]
        self._record_cut({position: without_unsure(play, len(play) - size)
                          for position, play in enumerate(recorded) if len(play) > size})

    def _grow_lead(self, size: int) -> None:
        """A follow that stays longer than the lead: a copy of the lead most likely lay hidden
        under another (two or three identical cards fanned tight), so the lead is filled to
        ``size`` with its likeliest hidden copies (:func:`fit_to_size`: a twin for each card
        read once, then its most frequent card) and the filled cards are marked for a person, with
        those of the lead already marked."""
        filled = fit_to_size(self._as_recorded(0), size)
        self._replace_play(0, self._seat_of_position(0), filled, reason="play-revised", attempt=None)

    def _remember_reads(self, seat: int, content: ZoneContent) -> None:
        """Keep what the reads of ``seat``'s play, just recorded in the current trick, allowed of each card."""
        if not content.candidates:
            return
        deals = self.game.record().get("deals") or []
        if deals and deals[-1].get("tricks"):
            self._recorded_reads[(len(deals) - 1, len(deals[-1]["tricks"]) - 1, seat)] = (
                tuple(content.cards), tuple(content.candidates))

    def _doubt_proofs_on_unsure_reads(self) -> None:
        """A violation just proven that rests on cards the camera read less surely than
        :data:`PROOF_SURE_SHARE` (a Q♣ read Q♠ at 0.9, Q♣ 0.1, in a later trick, that "shows" a Q♠ pair
        the seat did not follow with): those cards go to a person (``DoubtPlay``, reason
        ``proof-doubted``), and the violation is to check until they are confirmed. A misread turned
        into an accusation is the worst thing the page can show; an unsure read may still be right, so
        the card is marked, not changed. Plays a person corrected, or the record changed since the
        camera read them, are left as they are."""
        record = self.game.record()
        deal = len(record["deals"]) - 1
        tricks = record["deals"][deal].get("tricks") or []
        for _found, plays in proven_violation_plays(cast(Record, record)):
            for trick, seat in sorted(plays):
                read = self._recorded_reads.get((deal, trick, seat))
                if read is None or trick >= len(tricks):
                    continue
                cards, candidates = read
                recorded = tricks[trick]
                play = play_of(recorded, seat, self.players)
                if play is None or tuple(play) != cards \
                        or any(c.get("seat") == seat for c in recorded.get("corrections", [])):
                    continue
                marked = {index for who, index in recorded.get("unconfirmed", []) if who == seat}
                doubtful = [k for k, shares in enumerate(candidates)
                            if shares and k not in marked and dict(shares).get(cards[k], 0.0) < PROOF_SURE_SHARE]
                if doubtful:
                    self.game.doubt_play(trick, seat, doubtful, reason="proof-doubted")
                    self.stats.doubted_plays += 1

    def _as_recorded(self, position: int) -> ZoneContent:
        """The play at ``position`` of the trick as the record holds it, its marked cards kept marked."""
        play = self._trick.plays[position]
        seat = self._seat_of_position(position)
        last = self.game.record()["deals"][-1]["tricks"][-1]
        marked = tuple(index for who, index in last.get("unconfirmed", []) if who == seat)
        return ZoneContent(tuple(play), tuple(1.0 for _ in play), marked)

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
            content = self._as_played(zone.content, position)
            if content.counts() == Counter(committed):
                continue
            if position > 0 and len(content) != len(trick.plays[0]) and len(committed) == len(trick.plays[0]):
                continue  # the rules side with what was recorded
            if position == 0 and len(content) != len(committed) and len(trick.plays) > 1 \
                    and all(len(play) == len(committed) for play in trick.plays[1:]):
                continue  # a lead fitted to its follows' size (_grow_lead, _shrink_trick): they side with it
            if seat in corrected_seats(self.game.record()):
                continue  # a person already settled this play on the page: their word stands
            self._replace_play(position, seat, content, reason="misread-corrected", attempt=None)
            return

    def _replace_play(self, position: int, seat: int, content: ZoneContent, *, reason: str,
                      attempt: list[str] | None) -> None:
        content = self._doubt_copies_beyond_the_decks(seat, content)
        try:
            self.game.replace_play(position, seat, list(content.cards), list(content.unconfirmed), attempt=attempt,
                                   reason=reason)
        except InputError:  # a revision the record cannot hold (a filled copy no deck has left): kept as it was
            return
        self._remember_reads(seat, content)
        self.stats.revisions += 1
        complete_at = self._trick.complete_at
        self._trick.plays[position] = list(content.cards)
        self._trick.complete_at = complete_at
        if position == 0:
            self._refit_follows()

    def _refit_follows(self) -> None:
        """The lead grew (a hidden copy found): a follow recorded at its old size is short of cards,
        so it is filled to the lead's size with the gap marked for a person (:func:`fit_to_size`),
        never left to read as a follow of the wrong size."""
        size = len(self._trick.plays[0])
        for position in range(1, len(self._trick.plays)):
            play = self._trick.plays[position]
            if play and len(play) < size:
                self._replace_play(position, self._seat_of_position(position),
                                   fit_to_size(self._as_recorded(position), size), reason="play-revised", attempt=None)

    def _try_lead(self, frame: Frame) -> None:
        expected = self.game.expected_seat()
        chosen = lead_zone(self.zones, expected)
        if chosen is None:
            return
        if chosen.seat != expected:
            # Someone else led (the audit will say wrong-leader), or a misread: give more reads
            # the chance to clear it before it goes in the record.
            self._request_verification(frame.time_s)
            if frame.time_s - chosen.content_at < self.wrong_leader_wait_s:
                return
        assert chosen.content is not None
        self._commit(chosen, self._as_lead(chosen.content), frame)
        if expected is not None and chosen.seat != expected:
            self._doubt_the_trick_before(expected, chosen.seat)

    def _doubt_the_trick_before(self, read_winner: int, leader: int) -> None:
        """A lead from another seat than the one the reads made the last trick's winner: that
        trick's sure cards of both seats marked for a person (:func:`doubted_by_next_leader`), so a
        wrong-leader resting on them is to check until confirmed."""
        deals = self.game.record().get("deals") or []
        tricks = (deals[-1].get("tricks") or []) if deals else []
        if len(tricks) < 2 or tricks[-1].get("leader") != leader:
            return  # the lead was not recorded as a new trick's
        number = len(tricks) - 2
        for seat, indices in doubted_by_next_leader(tricks[number], read_winner, leader, self.players).items():
            self.game.doubt_play(number, seat, indices)
            self.stats.doubted_plays += 1

    def _as_played(self, content: ZoneContent, position: int) -> ZoneContent:
        """``content`` as the trick's play at ``position``: a lead (:meth:`_as_lead`), or a follow, read
        as a pair where the lead is one and its unsure card allows (:func:`as_a_pair`)."""
        if position == 0:
            return self._as_lead(content)
        lead = self._trick.plays[0] if self._trick.plays else []
        return as_a_pair(content) if len(lead) == 2 and lead[0] == lead[1] else content

    def _as_lead(self, content: ZoneContent) -> ZoneContent:
        """``content`` as a lead: a pair where two cards of one rank read in two suits, one unsurely,
        allow it (:func:`as_a_pair`), and of one suit where its unsure cards allow (:func:`one_suit_lead`)."""
        if len(content) < 2 or not content.candidates:
            return content
        content = as_a_pair(content, lead=True)
        facts = deal_facts(self.game.record())
        return content if facts is None or facts.suit_of is None else one_suit_lead(content, facts.suit_of)

    def _doubt_copies_beyond_the_decks(self, seat: int, content: ZoneContent) -> ZoneContent:
        """``content`` with every sure copy of a card it holds more sure copies of than the decks have
        left marked for a person (:func:`beyond_the_decks`): a card counted twice is a misread, and the
        card-not-available it would prove is to check until a person confirms the cards."""
        facts = deal_facts(self.game.record()) if len(content) > 1 else None
        over = beyond_the_decks(content.cards, facts, seat, content.unconfirmed) if facts is not None else ()
        if not over:
            return content
        return dataclasses.replace(content, unconfirmed=tuple(sorted({*content.unconfirmed, *over})))

    def _commit(self, zone: ZoneState, content: ZoneContent, frame: Frame) -> None:
        content = self._doubt_copies_beyond_the_decks(zone.seat, content)
        zone.used_version = zone.version
        zone.short_since = None
        zone.moved_since_commit = False
        picture = self._keep_picture(zone.seat, frame) if self.pictures is not None else None
        evidence = content.evidence_json()
        if picture is not None and evidence is not None:
            picture = picture | {"reads": evidence}  # what the fusion of the zone's reads considered
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
        except InputError:  # cards no deal can hold (a fifth copy in two decks): a misread, never a crash
            try:
                self.game.miss_play(zone.seat, frame=frame.index, time_s=frame.time_s)
            except InputError:  # the record takes no play at all (the deal is over)
                return
            self.stats.missing_plays += 1
            content = ZoneContent((), ())
        self.stats.plays += 1
        self._remember_reads(zone.seat, content)
        if self._target_game is not None:
            self.stats.already_recorded += 1
            self._check_resumed_play()
        # A few more reads of the still table: a card missed by both settling reads is outvoted.
        self._request_verification(frame.time_s, self.verify_s if content.unconfirmed else self.verify_after_commit_s)
        if self._trick.leader is None:
            self._trick.leader = zone.seat
            self._trick.lead_read = content
        self._trick.plays.append(list(content.cards))
        if len(self._trick.plays) >= self.players:
            self._trick.complete_at = frame.time_s
            self._swept = False
            self._doubt_a_lead_nobody_followed()
        self._after_commit()

    def _doubt_a_lead_nobody_followed(self) -> None:
        """The trick is whole: a lead every follow answered in one other suit has its sure cards
        that may be of that suit marked for a person (:func:`doubted_by_follows`)."""
        lead = self._trick.lead_read
        if lead is None or list(lead.cards) != self._trick.plays[0]:
            return  # revised since it was read: its reads are not the lead's
        facts = deal_facts(self.game.record())
        if facts is None or facts.suit_of is None:
            return
        recorded = self._as_recorded(0)
        doubted = doubted_by_follows(dataclasses.replace(lead, unconfirmed=recorded.unconfirmed),
                                     self._trick.plays[1:], facts.suit_of)
        if doubted:
            marked = dataclasses.replace(recorded, unconfirmed=tuple(sorted({*recorded.unconfirmed, *doubted})))
            self._replace_play(0, self._seat_of_position(0), marked, reason="play-revised", attempt=None)

    def _keep_picture(self, seat: int, frame: Frame) -> dict[str, Any] | None:
        """A small JPEG of ``seat``'s zone in the frame the play settled in, handed to the keeper."""
        assert self.pictures is not None and self.calibration is not None
        x1, y1, x2, y2 = self._seat_boxes.get(seat, (0, 0, *self.calibration.image_size))
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
        message = resume_mismatch(self.game.snapshot(), self._target_game.snapshot(), self.players,
                                  getattr(self._target_game, "path", None))
        if message is not None:
            raise ResumeMismatchError(message.key, **message.params)

    def _after_commit(self) -> None:
        """A replay resumed from a partial record: once it has seen the recorded plays, record for real."""
        if self._target_game is None:
            return
        if plays_in_deal(self.game.snapshot()) >= plays_in_deal(self._target_game.snapshot()):
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
        content = self._as_played(zone.content, position)
        if content.counts() == Counter(trick.plays[position]):
            zone.used_version = zone.version
            return
        if position > 0 and len(content) != len(trick.plays[0]):
            return  # a follow being rearranged; wait for it to settle at the lead's size
        if position == 0 and self._seen_follows and not Counter(content.cards) & Counter(trick.plays[0]):
            return  # later seats' cards were read: the table is being swept, not the lead taken back
        if position == 0 and copies_lost(trick.plays[0], content.cards) and not self._as_recorded(0).unconfirmed:
            zone.used_version = zone.version  # a sure pair or triple is one unit, never a failed throw: a copy hid
            return
        zone.used_version = zone.version
        zone.moved_since_commit = False
        content = self._doubt_copies_beyond_the_decks(seat, content)
        try:
            self.game.revise_play(position, seat, list(content.cards), list(content.unconfirmed),
                                  committed=list(trick.plays[position]))
        except InputError:  # a revision no deal can hold (a fifth copy in two decks): a misread, kept as it was
            return
        self._remember_reads(seat, content)
        self.stats.revisions += 1
        self._sync_from_record(frame.time_s)


PROOF_SURE_SHARE = 0.98
"""A card read surely enough to be recorded without a mark still goes to a person when a proven violation rests
on it and its reads gave it less than this share (something else at least 0.02): see
:meth:`TablePipeline._doubt_proofs_on_unsure_reads` (models/README, session 30)."""


def sure_corners(instances: Sequence[Any]) -> int:
    """The corner indices of the cards of one read that it read surely (:data:`vision.camera_check.SURE_CARD`):
    a few stray reads of faint indices, unsure, are not a table the reader can read."""
    return sum(len(getattr(instance, "indices", ()) or ()) for instance in instances if instance.confidence >= SURE_CARD)


def copies_lost(lead: Sequence[str], now_read: Sequence[str]) -> bool:
    """True when a lead of copies of one card (a pair, a triple: one unit) now reads as fewer of
    them, and nothing else: no rule lets a player take back part of one unit (only a failed
    throw of several units is taken back in part), so where the lead was read surely a copy lies
    hidden or unread, and the lead stands as recorded.

    >>> copies_lost(["AH", "AH"], ["AH"]), copies_lost(["AH", "AH", "KH"], ["AH", "AH"]), copies_lost(["AH", "AH"], [])
    (True, False, False)
    """
    return len(set(lead)) == 1 and len(lead) >= 2 and 0 < len(now_read) < len(lead) and set(now_read) == set(lead)


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

