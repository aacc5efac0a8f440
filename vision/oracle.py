"""A card reader that knows the answer: the ground truth of a rendered table video.

:class:`OracleReader` has the card reader's interface (``read(image) -> list of card
instances``) but answers from :class:`datasets.video.VideoTruth`: every card with a
corner index visible in that frame (not under a hand, nor under a card laid later), with
the box around its visible indices, as the trained reader gives. It lets
the table pipeline be built and tested before a trained card model exists, and it
separates pipeline errors from reader errors when measuring.

The pipeline tells a frame-aware reader which frame it is about to read through
``read_frame(frame)``; a plain ``read(image)`` reads the frame after the last one read.

Optional ``cost_ms`` burns that much CPU per read, to stand in for a real model's cost
in benchmarks; ``miss_rate`` and ``confusion_rate`` make it drop cards or misread them
(as a neighbouring rank, with low confidence) at random, to test how the pipeline copes
with an imperfect reader.

>>> from datasets.video import VideoTruth
>>> truth = VideoTruth(record={}, setup={}, fps=15.0, frame_size=(640, 480), table_corners=[],
...                    cards=[{"card": "AS", "box": [10, 10, 70, 100], "indices": [[12, 12, 20, 30]]}],
...                    frames=[[], [[0, 1]]])
>>> reader = OracleReader(truth)
>>> [i.card for i in reader.read_index(1)]
['AS']
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from datasets.video import VideoTruth
from vision.sources import Frame


@dataclass(frozen=True)
class CardInstance:
    """One physical card seen in a frame: its name, the box (x1, y1, x2, y2) around its visible corner
    indices (as :class:`vision.detector.CardInstance`), a confidence, the index boxes."""

    card: str
    box: tuple[float, float, float, float]
    confidence: float = 1.0
    indices: tuple[tuple[float, float, float, float], ...] = field(default=())


class OracleReader:
    """Reads a rendered video's frames from its ground truth (see the module docstring)."""

    def __init__(self, truth: VideoTruth, *, cost_ms: float = 0.0, confidence: float = 0.99,
                 miss_rate: float = 0.0, confusion_rate: float = 0.0, seed: int = 0) -> None:
        self.truth = truth
        self.cost_ms = cost_ms
        self.confidence = confidence
        self.miss_rate = miss_rate
        self.confusion_rate = confusion_rate
        self.reads = 0
        self._next_index = 0
        self._rng = np.random.default_rng(seed)

    @classmethod
    def from_file(cls, path: Path, **kwargs: float) -> OracleReader:
        return cls(VideoTruth.load(Path(path)), **kwargs)

    def read_frame(self, frame: Frame) -> list[CardInstance]:
        """The cards visible in ``frame`` (by its index in the video)."""
        return self.read_index(frame.index)

    def read(self, image: np.ndarray) -> list[CardInstance]:
        """Same interface as the card reader; reads the frame after the last one read."""
        return self.read_index(self._next_index)

    def read_index(self, index: int) -> list[CardInstance]:
        self.reads += 1
        self._next_index = index + 1
        if self.cost_ms > 0:
            deadline = time.perf_counter() + self.cost_ms / 1000.0
            while time.perf_counter() < deadline:
                pass
        if not 0 <= index < len(self.truth.frames):
            return []
        out = []
        for pid, bits in self.truth.frames[index]:
            card = self.truth.cards[pid]
            name, confidence = card["card"], self.confidence
            indices = [tuple(b) for k, b in enumerate(card.get("indices", ())) if bits >> k & 1]
            # Like the card reader: the box spans the corner indices it can see, not the whole card.
            box = (min(b[0] for b in indices), min(b[1] for b in indices),
                   max(b[2] for b in indices), max(b[3] for b in indices)) if indices else tuple(card["box"])
            if self.miss_rate and self._rng.random() < self.miss_rate:
                continue
            if self.confusion_rate and self._rng.random() < self.confusion_rate:
                name, confidence = _neighbour(name, self._rng), float(self._rng.uniform(0.3, 0.75))
            elif self.miss_rate or self.confusion_rate:
                confidence = float(self._rng.uniform(0.75, 0.99))
            out.append(CardInstance(card=name, box=box, confidence=confidence, indices=tuple(indices)))
        return out


_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def _neighbour(card: str, rng: np.random.Generator) -> str:
    """A card a real reader might mistake ``card`` for: the next rank up or down, same suit."""
    if card in ("SJ", "BJ"):
        return "BJ" if card == "SJ" else "SJ"
    rank, suit = card[:-1], card[-1]
    position = _RANKS.index(rank) + (1 if rng.random() < 0.5 else -1)
    return _RANKS[position % len(_RANKS)] + suit
