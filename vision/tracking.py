"""Card instances tracked across reads of one seat zone, and when a zone's content is settled.

Each read of a zone gives card instances (name, position on the table, confidence).
:class:`ZoneTracker` matches them to the tracks of earlier reads by position, so each
physical card keeps one track even when the reader hesitates between two names; a
track's name is the confidence-weighted vote of its reads. Three identical cards of a
3-deck game are three tracks: instances are counted, never merged by name.

Many frames decide, weighed by their sharpness (:mod:`vision.sharpness`): every read since the
zone last moved counts, a blurred frame's (autofocus hunting, a hand's motion blur) less than
the sharpest. A card is in the zone when the reads that saw it weigh at least half of all its
reads; its name is the vote of its reads, each weighted by confidence and sharpness; its
confidence is the weighted mean of the reads that named it so. What the fusion considered is
kept with the content (:attr:`ZoneContent.evidence`), so a person can see why.

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
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tuolaji.vision.sharpness import read_weights

Candidates = tuple[tuple[str, float], ...]
"""A read's likeliest cards with their weights (the reader's probabilities, weighed by the game)."""
Observation = tuple[Any, ...]
"""``(card, u, v, confidence)``, or ``(card, u, v, confidence, candidates)`` from a reader that
gives probabilities: each read's candidates are summed into its track."""


@dataclass(frozen=True)
class TrackRead:
    """One read of a tracked card: the read's number since the zone last moved, the name, the
    confidence and (from a reader that gives probabilities) the candidates."""

    read: int
    card: str
    confidence: float
    candidates: Candidates = ()


@dataclass
class Track:
    """One physical card in a zone, followed across reads (each weighed by its frame's sharpness)."""

    track_id: int
    u: float
    v: float
    reads: list[TrackRead] = field(default_factory=list)
    missed: int = 0

    @property
    def last_card(self) -> str:
        return self.reads[-1].card if self.reads else ""

    def votes(self, weights: Sequence[float]) -> Counter[str]:
        """Each name's vote: its reads' confidences (at least 0.05) times their ``weights`` (by read number)."""
        votes: Counter[str] = Counter()
        for read in self.reads:
            votes[read.card] += max(0.05, read.confidence) * weights[read.read]  # type: ignore[assignment]  # float votes: typeshed's Counter counts int
        return votes

    def fused(self, weights: Sequence[float]) -> tuple[str, float, tuple[tuple[str, float], ...]]:
        """The card's name by vote, the weighted mean confidence of the reads that named it so, and
        each name's share of the vote, the largest first."""
        votes = self.votes(weights)
        total = sum(votes.values())
        shares = tuple((name, vote / total) for name, vote in votes.most_common())
        card = shares[0][0]
        naming = [(read.confidence, weights[read.read]) for read in self.reads if read.card == card]
        confidence = sum(c * w for c, w in naming) / sum(w for _, w in naming)
        return card, confidence, shares

    def candidates(self, weights: Sequence[float], count: int = 5) -> Candidates:
        """What this card may be, fused over its reads: the weighted candidates' shares, most likely
        first (empty when no read gave candidates)."""
        summed: Counter[str] = Counter()
        for read in self.reads:
            for candidate, weight in read.candidates:
                summed[candidate] += weight * weights[read.read]  # type: ignore[assignment]  # float votes: typeshed's Counter counts int
        total = sum(summed.values())
        if total <= 0:
            return ()
        return tuple((card, weight / total) for card, weight in summed.most_common(count))

    def seen_weight(self, weights: Sequence[float]) -> float:
        """The weight of the reads that saw it."""
        return sum(weights[read.read] for read in self.reads)


@dataclass(frozen=True)
class CardEvidence:
    """What the fusion of a zone's reads considered for one card: how many reads saw it, out of
    how many, and each name's share of its vote."""

    seen: int
    of: int
    votes: tuple[tuple[str, float], ...]

    def as_json(self) -> dict[str, Any]:
        return {"seen": self.seen, "of": self.of, "votes": [[card, round(share, 3)] for card, share in self.votes]}


@dataclass(frozen=True)
class ZoneContent:
    """What lies settled in a zone, in fan order (left to right as its player sees it)."""

    cards: tuple[str, ...]
    confidence: tuple[float, ...]
    unconfirmed: tuple[int, ...] = ()
    candidates: tuple[Candidates, ...] = field(default=(), compare=False, repr=False)
    """Per card, what its reads together say it may be (:meth:`Track.candidates`; empty without probabilities)."""
    evidence: tuple[CardEvidence, ...] = field(default=(), compare=False, repr=False)
    """Per card, what the fusion of the reads considered (empty for a content not read by a tracker)."""
    read_weights: tuple[float, ...] = field(default=(), compare=False, repr=False)
    """Each read's weight in the fusion, by its frame's sharpness (:func:`vision.sharpness.read_weights`)."""

    def evidence_json(self) -> dict[str, Any] | None:
        """What the fusion considered, as kept with the zone's picture (None without it)."""
        if not self.evidence:
            return None
        return {"weights": list(self.read_weights), "cards": [e.as_json() for e in self.evidence]}

    def counts(self) -> Counter[str]:
        return Counter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)


MIN_CONFIDENCE = 0.55
"""A card whose fused reads are less sure than this goes to a person (待确认). Chosen on the replay
bench's tuning deals (models/README, session 20): 0.6 flagged 8.1 cards per 100, 0.55 flagged 7.4
with the same silent misreads, 0.5 would write the reader's guesses as sure."""


class ZoneTracker:
    """Tracks of one zone; ``observe`` returns the settled content when two reads agree."""

    def __init__(
        self,
        fan_direction: tuple[float, float] = (1.0, 0.0),
        *,
        match_distance: float = 0.035,
        min_confidence: float = MIN_CONFIDENCE,
        max_reads: int = 6,
    ) -> None:
        self.fan_direction = fan_direction
        self.match_distance = match_distance
        self.min_confidence = min_confidence
        self.max_reads = max_reads
        self.tracks: list[Track] = []
        self._next_id = 0
        self._recent_signatures: list[tuple[str, ...]] = []
        self._count_history: list[int] = []
        self._sharpness: list[float] = []  # of each read since the zone last moved
        self.last_read = ZoneContent((), ())
        """The latest read alone, in fan order."""

    @property
    def reads_since_reset(self) -> int:
        return len(self._sharpness)

    def reset(self) -> None:
        """Forget everything read so far: something moved in the zone, its cards may have changed."""
        self._recent_signatures = []
        self._count_history = []
        self._sharpness = []
        self.tracks = []

    def consensus(self, min_reads: int = 4) -> ZoneContent | None:
        """After ``min_reads`` reads of a still zone: the cards the reads that saw them outweigh
        (:meth:`_present`), named by vote.

        Outvotes a card that two reads in a row happened to miss (or misname).
        """
        if self.reads_since_reset < min_reads:
            return None
        return self._content(self._present(), hesitant_below=0.75)

    def observe(self, observations: list[Observation], sharpness: float = 0.0) -> ZoneContent | None:
        """Add one read of the zone, of a frame this sharp there (:func:`vision.sharpness.sharpness`;
        0: not measured, every read alike); the settled content, or None while reads disagree."""
        read = self.reads_since_reset
        self._sharpness.append(max(0.0, sharpness))
        matched = self._match(observations, read)
        signature = tuple(sorted(observation[0] for observation in observations))
        agreed = signature in self._recent_signatures  # this read agrees with one of the last two
        self._recent_signatures = [*self._recent_signatures[-1:], signature]
        self._count_history.append(len(observations))
        for track in self.tracks:
            if track.track_id not in matched:
                track.missed += 1
        self.tracks = [t for t in self.tracks if t.track_id in matched or t.missed < 3]
        current = [t for t in self.tracks if t.track_id in matched]
        self.last_read = self._content(current, hesitant_below=0.0)
        stable_count = len(self._count_history) >= self.max_reads and len(set(self._count_history[-3:])) == 1
        if agreed or stable_count:
            return self._content(self._present(), hesitant_below=0.75)
        return None

    def _weights(self) -> tuple[float, ...]:
        return read_weights(self._sharpness)

    def _present(self) -> list[Track]:
        """The cards in the zone: those whose reads weigh at least half of all reads since it moved."""
        weights = self._weights()
        total = sum(weights)
        return [t for t in self.tracks if t.seen_weight(weights) * 2 >= total - 1e-9]

    def _match(self, observations: list[Observation], read: int) -> set[int]:
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
            self._apply(track, observations[index], read)
        for index, observation in enumerate(observations):
            if index not in used:
                track = Track(self._next_id, observation[1], observation[2])
                self._next_id += 1
                self._apply(track, observation, read)
                self.tracks.append(track)
                matched.add(track.track_id)
        return matched

    @staticmethod
    def _apply(track: Track, observation: Observation, read: int) -> None:
        card, u, v, confidence = observation[:4]
        candidates = tuple(observation[4]) if len(observation) > 4 else ()
        track.u, track.v = u, v
        track.reads.append(TrackRead(read, card, float(confidence), candidates))
        track.missed = 0

    def _content(self, tracks: list[Track], hesitant_below: float) -> ZoneContent:
        """``tracks`` as a content in fan order; a card whose name got under ``hesitant_below`` of its
        vote, or whose confidence is under ``min_confidence``, is unconfirmed."""
        weights = self._weights()
        fx, fy = self.fan_direction
        ordered = sorted(tracks, key=lambda t: t.u * fx + t.v * fy)
        fused = [t.fused(weights) for t in ordered]
        unconfirmed = tuple(i for i, (_, confidence, shares) in enumerate(fused)
                            if shares[0][1] < hesitant_below or confidence < self.min_confidence)
        evidence = tuple(CardEvidence(len(track.reads), self.reads_since_reset, shares[:3])
                         for track, (_, _, shares) in zip(ordered, fused, strict=True))
        return ZoneContent(tuple(card for card, _, _ in fused), tuple(round(c, 3) for _, c, _ in fused), unconfirmed,
                           tuple(t.candidates(weights) for t in ordered), evidence, weights)
