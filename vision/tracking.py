"""Card instances tracked across reads of one seat zone, and when a zone's content is settled.

Each read of a zone gives card instances (name, position on the table, confidence).
:class:`ZoneTracker` matches them to the tracks of earlier reads by position, so each
physical card keeps one track even when the reader hesitates between two names; a
track's name is the confidence-weighted vote of its reads. Three identical cards of a
3-deck game are three tracks: instances are counted, never merged by name.

A zone's content is *settled* when a read agrees card for card with one of the two reads
before it; if the reader
keeps hesitating, after ``max_reads`` reads with an unchanged card count the votes
decide and the hesitant cards are marked for a person to confirm.

>>> tracker = ZoneTracker(fan_direction=(1.0, 0.0))
>>> tracker.observe([("AS", 0.50, 0.8, 0.97), ("AS", 0.55, 0.8, 0.95)]) is None
True
>>> content = tracker.observe([("AS", 0.55, 0.8, 0.96), ("AS", 0.50, 0.8, 0.99)])
>>> content.cards, content.unconfirmed
(('AS', 'AS'), ())
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

Candidates = tuple[tuple[str, float], ...]
"""A read's likeliest cards with their weights (the reader's probabilities, weighed by the game)."""
Observation = tuple[Any, ...]
"""``(card, u, v, confidence)``, or ``(card, u, v, confidence, candidates)`` from a reader that
gives probabilities: each read's candidates are summed into its track."""


@dataclass
class Track:
    """One physical card in a zone, followed across reads."""

    track_id: int
    u: float
    v: float
    votes: Counter[str] = field(default_factory=Counter)
    reads: int = 0
    missed: int = 0
    last_card: str = ""
    last_confidence: float = 0.0
    seen: int = 0  # reads that saw it since the zone last moved
    summed: Counter[str] = field(default_factory=Counter)  # the candidates of its reads, summed

    def candidates(self, count: int = 5) -> Candidates:
        """What this card may be, fused over its reads: the summed candidates' shares, most likely
        first (empty when no read gave candidates)."""
        total = sum(self.summed.values())
        if total <= 0:
            return ()
        return tuple((card, weight / total) for card, weight in self.summed.most_common(count))

    @property
    def card(self) -> str:
        return self.votes.most_common(1)[0][0] if self.votes else self.last_card

    @property
    def agreement(self) -> float:
        total = sum(self.votes.values())
        return self.votes[self.card] / total if total else 0.0


@dataclass(frozen=True)
class ZoneContent:
    """What lies settled in a zone, in fan order (left to right as its player sees it)."""

    cards: tuple[str, ...]
    confidence: tuple[float, ...]
    unconfirmed: tuple[int, ...] = ()
    candidates: tuple[Candidates, ...] = field(default=(), compare=False, repr=False)
    """Per card, what its reads together say it may be (:meth:`Track.candidates`; empty without probabilities)."""

    def counts(self) -> Counter[str]:
        return Counter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)


class ZoneTracker:
    """Tracks of one zone; ``observe`` returns the settled content when two reads agree."""

    def __init__(
        self,
        fan_direction: tuple[float, float] = (1.0, 0.0),
        *,
        match_distance: float = 0.035,
        min_confidence: float = 0.6,
        max_reads: int = 6,
    ) -> None:
        self.fan_direction = fan_direction
        self.match_distance = match_distance
        self.min_confidence = min_confidence
        self.max_reads = max_reads
        self.tracks: list[Track] = []
        self._next_id = 0
        self._recent_signatures: list[tuple[str, ...]] = []
        self._reads_since_change = 0
        self._count_history: list[int] = []
        self.last_read = ZoneContent((), ())
        self.reads_since_reset = 0
        """The latest read alone, in fan order."""

    def reset(self) -> None:
        """Forget everything read so far: something moved in the zone, its cards may have changed."""
        self._recent_signatures = []
        self._reads_since_change = 0
        self._count_history = []
        self.reads_since_reset = 0
        self.tracks = []

    def consensus(self, min_reads: int = 4) -> ZoneContent | None:
        """After ``min_reads`` reads of a still zone: the cards seen in at least half of them, named by vote.

        Outvotes a card that two reads in a row happened to miss (or misname).
        """
        if self.reads_since_reset < min_reads:
            return None
        present = [t for t in self.tracks if t.seen * 2 >= self.reads_since_reset]
        hesitant = {t.track_id for t in present if t.agreement < 0.75}
        return self._content(present, hesitant=hesitant)

    def observe(self, observations: list[Observation]) -> ZoneContent | None:
        """Add one read of the zone; the settled content, or None while reads disagree."""
        matched = self._match(observations)
        signature = tuple(sorted(observation[0] for observation in observations))
        agreed = signature in self._recent_signatures  # this read agrees with one of the last two
        self._recent_signatures = [*self._recent_signatures[-1:], signature]
        self._count_history.append(len(observations))
        self.reads_since_reset += 1
        for track in self.tracks:
            if track.track_id not in matched:
                track.missed += 1
            else:
                track.seen += 1
        self.tracks = [t for t in self.tracks if t.track_id in matched or t.missed < 3]
        current = [t for t in self.tracks if t.track_id in matched]
        self.last_read = self._content(current, hesitant=set())
        if agreed:
            return self._content(current, hesitant={t.track_id for t in current if t.agreement < 0.75})
        stable_count = len(self._count_history) >= self.max_reads and len(set(self._count_history[-3:])) == 1
        if stable_count:
            hesitant = {t.track_id for t in current if t.agreement < 0.75}
            return self._content(current, hesitant=hesitant)
        return None

    def _match(self, observations: list[Observation]) -> set[int]:
        matched: set[int] = set()
        pairs = []
        for index, (card, u, v, *_) in enumerate(observations):
            for track in self.tracks:
                distance = ((track.u - u) ** 2 + (track.v - v) ** 2) ** 0.5
                if distance <= self.match_distance:
                    pairs.append((distance - (0.01 if track.last_card == card else 0.0), index, track))
        pairs.sort(key=lambda item: item[0])
        used: set[int] = set()
        for _, index, track in pairs:
            if index in used or track.track_id in matched:
                continue
            used.add(index)
            matched.add(track.track_id)
            self._apply(track, observations[index])
        for index, observation in enumerate(observations):
            if index not in used:
                track = Track(self._next_id, observation[1], observation[2])
                self._next_id += 1
                self._apply(track, observation)
                self.tracks.append(track)
                matched.add(track.track_id)
        return matched

    @staticmethod
    def _apply(track: Track, observation: Observation) -> None:
        card, u, v, confidence = observation[:4]
        if len(observation) > 4:
            for candidate, weight in observation[4]:
                track.summed[candidate] += weight
        track.u, track.v = u, v
        track.votes[card] += max(0.05, confidence)
        track.reads += 1
        track.missed = 0
        track.last_card = card
        track.last_confidence = confidence

    def _content(self, tracks: list[Track], hesitant: set[int]) -> ZoneContent:
        fx, fy = self.fan_direction
        ordered = sorted(tracks, key=lambda t: t.u * fx + t.v * fy)
        cards = tuple(t.card for t in ordered)
        confidence = tuple(round(t.last_confidence, 3) for t in ordered)
        unconfirmed = tuple(
            i for i, t in enumerate(ordered) if t.track_id in hesitant or t.last_confidence < self.min_confidence
        )
        return ZoneContent(cards, confidence, unconfirmed, tuple(t.candidates() for t in ordered))
