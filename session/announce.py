"""The page's events, made from the journal's changes: what a change says (:func:`change_event`:
the play settled, the card corrected, or the state changed and why), then what the audit finds
after it (:class:`Announcer`: a trick complete, a violation found or newly proved, a deal ended).

>>> from tuolaji.session.commands import Play
>>> change = Change(1, "play", {"seat": 0, "cards": ["AS"]}, 0, before={"tricks": []},
...                 after={"tricks": [{"leader": 0, "plays": [["AS"]]}]}, command=Play(0, ("AS",)))
>>> change_event(change, 4)
PlaySettled(deal=0, trick=0, seat=0, cards=('AS',), confidence=(), unconfirmed=(), attempt=None, frame=None, time_s=None)
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable
from typing import Any

from tuolaji.scorer.record_types import is_points_trick

from .commands import (
    Confirm,
    Correct,
    ImportRecord,
    MissPlay,
    NewDeal,
    NextDeal,
    Play,
    PlayPoints,
    Redo,
    ReplacePlay,
    RevisePlay,
    Undo,
    play_of,
)
from .events import (
    CorrectionApplied,
    DealComplete,
    Event,
    EventBus,
    PlaySettled,
    StateChanged,
    TrickComplete,
    ViolationFound,
)
from .journal import Change

REASONS = {"miss-play": "play-missing", "enter-play": "play-entered", "bid": "bid", "withdraw-bid": "bid",
           "doubt-play": "play-doubted", "edit-deal": "setup", "set-kitty": "kitty", "set-kitty-points": "kitty", "play-points": "play",
           "settle-points": "deal-end", "concede": "deal-end", "mark-complete": "deal-end", "rule": "ruling", "remove-ruling": "ruling",
           "new-deal": "new-deal", "next-deal": "new-deal", "undo": "undo", "redo": "redo"}
"""The page's reason for reloading after a change of each kind (:class:`~session.events.StateChanged`)."""


def change_event(change: Change, players: int) -> Event:
    """The event a change is first announced by: a play (:class:`PlaySettled`), a card corrected or
    confirmed (:class:`CorrectionApplied`), else :class:`StateChanged` with the reason."""
    command = change.command
    if isinstance(command, Play) and change.deal is not None and change.after is not None:
        tricks = change.after["tricks"]
        return PlaySettled(deal=change.deal, trick=len(tricks) - 1, seat=command.seat,
                           cards=tuple(change.params["cards"]),
                           confidence=tuple(float(c) for c in command.confidence),
                           unconfirmed=tuple(int(i) for i in command.unconfirmed),
                           attempt=tuple(tricks[-1]["attempt"]) if command.attempt else None,
                           frame=command.frame, time_s=command.time_s)
    if isinstance(command, Correct | Confirm) and change.before is not None:
        old = play_of(change.before["tricks"][command.trick], command.seat, players) or []
        return CorrectionApplied(deal=command.deal, trick=command.trick, seat=command.seat, index=command.index,
                                 old=old[command.index], new=change.params["card"], source=command.source)
    if isinstance(command, RevisePlay | ReplacePlay | ImportRecord):
        return StateChanged(reason=command.reason)
    return StateChanged(reason=REASONS.get(change.kind, change.kind))


def _violation_key(violation: dict[str, Any]) -> tuple[int, int, str]:
    return (violation["trick"], violation["seat"], violation["rule"])


class Announcer:
    """Publishes each change's events on ``bus``: :func:`change_event`, then what the audit of the
    record after it finds that was not announced before (``audited``: the game's current record and
    its audit output, of one version)."""

    def __init__(self, bus: EventBus, players: int, audit: dict[str, Any],
                 audited: Callable[[], tuple[dict[str, Any], dict[str, Any]]]) -> None:
        self.bus = bus
        self.players = players
        self._audited = audited
        self._lock = threading.RLock()
        self._known_violations = {(deal_index, *_violation_key(v)): v["proven"]
                                  for deal_index, deal in enumerate(audit["deals"]) for v in deal["violations"]}
        self._completed_deals = {deal_index for deal_index, deal in enumerate(audit["deals"])
                                 if deal.get("outcome") is not None}

    def announce(self, change: Change, record: dict[str, Any]) -> Event:
        """Publish ``change``'s events (``record``: the record after it); returns the first."""
        event = change_event(change, self.players)
        self.bus.publish(event)
        command, deal = change.command, change.deal
        if isinstance(command, NewDeal | NextDeal):
            return event
        if isinstance(command, Undo | Redo | ImportRecord) or deal is None:
            for index, played in enumerate(record["deals"]):  # an undone deal's end, a violation again
                if (deal is None or index == deal) and played.get("tricks"):
                    self.consequences(index, len(played["tricks"]) - 1, announce_trick=False)
            return event
        tricks = record["deals"][deal].get("tricks") if deal < len(record["deals"]) else None
        if isinstance(command, Play | MissPlay) and tricks:
            self.consequences(deal, len(tricks) - 1)
        elif isinstance(command, Correct | Confirm):
            self.consequences(deal, command.trick)
        elif tricks:
            self.consequences(deal, len(tricks) - 1, announce_trick=False)
            if isinstance(command, PlayPoints):
                self.consequences(deal, len(tricks) - 1)
        return event

    def consequences(self, deal_index: int, trick_index: int, *, announce_trick: bool = True) -> None:
        """What the audit finds after a change of a trick: the trick complete (``announce_trick``),
        the deal's violations found or newly proved, the deal ended."""
        record, audit = self._audited()
        with self._lock:
            if deal_index >= len(audit["deals"]) or trick_index >= len(record["deals"][deal_index].get("tricks", [])):
                return  # replaced meanwhile: the newer change publishes its own
            deal_audit = audit["deals"][deal_index]
            events: list[Event] = []
            trick_audit = deal_audit["tricks"][trick_index] if trick_index < len(deal_audit["tricks"]) else None
            trick = record["deals"][deal_index]["tricks"][trick_index]
            if announce_trick and trick_audit is not None and (
                    is_points_trick(trick) or len(trick["plays"]) == self.players):
                if trick_audit.get("winner") is not None:
                    events.append(TrickComplete(deal=deal_index, trick=trick_index, winner=trick_audit["winner"],
                                                points=trick_audit.get("points", 0)))
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
