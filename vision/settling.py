"""When a seat zone has settled: the table pipeline's view of each zone (:class:`ZoneState`), made
busy by motion and arms (:func:`note_activity`), read once quiet for ``settle_s`` and again
``confirm_s`` later (:func:`zones_to_read`), its content settled when the reads agree
(:func:`learn_from_read`, through :class:`vision.tracking.ZoneTracker`).

>>> from tuolaji.vision.tracking import ZoneTracker
>>> zone = ZoneState(0, ZoneTracker((1.0, 0.0)))
>>> zones_to_read([zone], now=1.0, settle_s=0.7, confirm_s=0.1)[1] == [zone]
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tuolaji.vision.motion import Activity
from tuolaji.vision.sources import Frame
from tuolaji.vision.tracking import ZoneContent, ZoneTracker


@dataclass
class ZoneState:
    """One seat zone as the pipeline follows it."""

    seat: int
    tracker: ZoneTracker
    last_busy: float = -1e9  # when something last moved in it (or an arm reached over it)
    dirty: bool = True  # moved since its content last settled
    first_read_at: float | None = None  # the first read since it went quiet (the second must agree)
    content: ZoneContent | None = None  # what lies settled in it
    content_at: float = -1e9
    content_frame: int = -1
    version: int = 0  # bumped at every change of its content
    used_version: int = 0  # the version the play assembly last took
    short_since: float | None = None  # a follow of the wrong size lies here since then ...
    short_version: int = -1  # ... as this version
    moved_since_commit: bool = True


def signature(content: ZoneContent) -> tuple[str, ...]:
    """The cards of a content, in a fixed order (two contents that differ only in their fan order are one)."""
    return tuple(sorted(content.cards))


def note_activity(zones: list[ZoneState], activity: Activity, now: float) -> None:
    """Zones where something moves or an arm reaches over are busy: what they held must settle again."""
    for zone in zones:
        if activity.moving[zone.seat] or activity.occluded[zone.seat]:
            zone.last_busy = now
            zone.dirty = True
            zone.moved_since_commit = True
            zone.first_read_at = None
            zone.tracker.reset()


def zones_to_read(zones: list[ZoneState], now: float, settle_s: float,
                  confirm_s: float) -> tuple[list[ZoneState], list[ZoneState]]:
    """The quiet zones (still for ``settle_s``), and those of them due a read: moved since they
    last settled, and not read in the last ``confirm_s``."""
    quiet = [z for z in zones if now - z.last_busy >= settle_s]
    due = [z for z in quiet if z.dirty and (z.first_read_at is None or now - z.first_read_at >= confirm_s - 1e-6)]
    return quiet, due


def learn_from_read(quiet: list[ZoneState], by_seat: dict[int, list[Any]], frame: Frame,
                    sharpness: dict[int, float] | None = None) -> None:
    """One read sees the whole table: every quiet zone learns from it, not only the due ones. A
    moved zone settles when its tracker says so; a settled one follows the reads' consensus (a
    card missed by both settling reads is outvoted). ``sharpness``: each zone's in this frame
    (:func:`vision.sharpness.zone_sharpness`), which weighs this read against the zone's others."""
    for zone in quiet:
        settled = zone.tracker.observe(by_seat.get(zone.seat, []), (sharpness or {}).get(zone.seat, 0.0))
        if zone.dirty:
            if settled is not None:
                zone.dirty = False
                zone.first_read_at = None
                set_content(zone, settled, frame)
            else:
                zone.first_read_at = frame.time_s
        elif zone.content is not None:
            consensus = zone.tracker.consensus()
            if consensus is not None and signature(consensus) != signature(zone.content):
                set_content(zone, consensus, frame)


def set_content(zone: ZoneState, content: ZoneContent, frame: Frame) -> None:
    """``zone`` now holds ``content`` (seen in ``frame``); a new version when its cards changed."""
    changed = zone.content is None or signature(zone.content) != signature(content)
    zone.content = content
    zone.content_at = frame.time_s
    zone.content_frame = frame.index
    if changed:
        zone.version += 1
