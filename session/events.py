"""Typed events from the table pipeline, and the bus the page subscribes to.

Data flows one way: frames -> detections -> plays -> scorer -> record -> page. Every
change of the live game is published on an :class:`EventBus` as one of the frozen
dataclasses below; :func:`event_to_json` gives the dict sent over server-sent events.

>>> bus = EventBus()
>>> seen = []
>>> unsubscribe = bus.subscribe(seen.append)
>>> bus.publish(TrickComplete(deal=0, trick=3, winner=2, points=15))
>>> event_to_json(seen[0])["type"]
'trick-complete'
>>> unsubscribe()
"""

from __future__ import annotations

import dataclasses
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .journal import Change

__all__ = ["Change", "CorrectionApplied", "DealComplete", "Event", "EventBus", "PlaySettled", "StateChanged",
           "TrickComplete", "ViolationFound", "event_to_json"]


@dataclass(frozen=True)
class PlaySettled:
    """A seat's cards stayed still in its zone: the play is in the record.

    ``unconfirmed`` holds the indices (into ``cards``) that a person must confirm on
    the page: low confidence or partly hidden. They are never guessed silently.
    """

    deal: int
    trick: int
    seat: int
    cards: tuple[str, ...]
    confidence: tuple[float, ...] = ()
    unconfirmed: tuple[int, ...] = ()
    attempt: tuple[str, ...] | None = None
    frame: int | None = None
    time_s: float | None = None


@dataclass(frozen=True)
class TrickComplete:
    """Every seat has played; ``winner`` leads next; ``points`` are the trick's point cards."""

    deal: int
    trick: int
    winner: int
    points: int


@dataclass(frozen=True)
class ViolationFound:
    """The audit found (or newly proved) a violation; same fields as docs/RECORD.md's audit."""

    deal: int
    trick: int
    seat: int
    rule: str
    proven: bool
    detail: str


@dataclass(frozen=True)
class CorrectionApplied:
    """A person changed or confirmed a card the camera read; kept in the record."""

    deal: int
    trick: int
    seat: int
    index: int
    old: str | None
    new: str
    source: str = "page"


@dataclass(frozen=True)
class DealComplete:
    """The deal is over; ``summary`` is the deal's entry of the audit output."""

    deal: int
    summary: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class StateChanged:
    """Something else changed (set-up, bids, a new deal): reload the whole state."""

    reason: str


Event = PlaySettled | TrickComplete | ViolationFound | CorrectionApplied | DealComplete | StateChanged

_TYPE_NAMES: dict[type, str] = {
    PlaySettled: "play-settled",
    TrickComplete: "trick-complete",
    ViolationFound: "violation-found",
    CorrectionApplied: "correction-applied",
    DealComplete: "deal-complete",
    StateChanged: "state-changed",
}


def event_to_json(event: Event) -> dict[str, Any]:
    """The JSON object for one event: its fields plus ``"type"``."""
    data = dataclasses.asdict(event)
    for key, value in data.items():
        if isinstance(value, tuple):
            data[key] = list(value)
    data["type"] = _TYPE_NAMES[type(event)]
    return data


class EventBus:
    """Thread-safe publish/subscribe. Subscribers are called in the publisher's thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: list[Callable[[Event], None]] = []

    def subscribe(self, callback: Callable[[Event], None]) -> Callable[[], None]:
        """Call ``callback`` for every later event; returns a function that unsubscribes."""
        with self._lock:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)

        return unsubscribe

    def subscribe_queue(self, maxsize: int = 1000) -> tuple[queue.Queue[Event], Callable[[], None]]:
        """A queue that receives every later event (for one SSE client)."""
        events: queue.Queue[Event] = queue.Queue(maxsize=maxsize)

        def put(event: Event) -> None:
            try:
                events.put_nowait(event)
            except queue.Full:
                pass  # a stalled client drops events; it reloads the state on reconnect

        return events, self.subscribe(put)

    def publish(self, event: Event) -> None:
        with self._lock:
            subscribers = list(self._subscribers)
        for callback in subscribers:
            callback(event)
