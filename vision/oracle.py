"""A card reader that knows the answer: the ground truth of a rendered table video.

:class:`OracleReader` has the card reader's interface (``read(image) -> list of card
instances``) but answers from :class:`VideoTruth` (what :func:`datasets.video.render_video` knows of its video): every card with a
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

>>> truth = VideoTruth(record={}, setup={}, fps=15.0, frame_size=(640, 480), table_corners=[],
...                    cards=[{"card": "AS", "box": [10, 10, 70, 100], "indices": [[12, 12, 20, 30]]}],
...                    frames=[[], [[0, 1]]])
>>> reader = OracleReader(truth)
>>> [i.card for i in reader.read_index(1)]
['AS']
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict, Unpack

import numpy as np

from tuolaji.scorer.cards import RANKS

if TYPE_CHECKING:
    from tuolaji.vision.sources import Frame


@dataclass
class PlayTruth:
    """One play as filmed: when it was laid, when it was still and free of hands."""

    trick: int
    seat: int
    cards: list[str]
    kind: str  # "play", "attempt" (a throw later taken back) or "take-back"
    laid_frame: int
    clear_frame: int  # first frame from laid_frame on where no arm covers any card of that seat


@dataclass
class VideoTruth:
    """Everything known about a rendered video (the oracle reader's source)."""

    record: dict[str, Any]
    setup: dict[str, Any]
    fps: float
    frame_size: tuple[int, int]
    table_corners: list[list[float]]
    cards: list[dict[str, Any]] = field(default_factory=list)  # placements: card, box, quad, indices (image boxes), seat, trick
    frames: list[list[list[int]]] = field(default_factory=list)
    """Per written frame: ``[placement id, bits]`` of every readable card; bit k: its k-th corner index shows."""
    plays: list[PlayTruth] = field(default_factory=list)
    black_frames: list[int] = field(default_factory=list)
    gesture_frames: list[int] = field(default_factory=list)  # where a hand passes over without playing

    @property
    def frame_count(self) -> int:
        return len(self.frames)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "tuolaji-video-truth/1",
            "fps": self.fps,
            "frame_size": list(self.frame_size),
            "table_corners": self.table_corners,
            "cards": self.cards,
            "frames": self.frames,
            "plays": [p.__dict__ for p in self.plays],
            "black_frames": self.black_frames,
            "gesture_frames": self.gesture_frames,
            "record": self.record,
            "setup": self.setup,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> VideoTruth:
        return cls(
            record=data["record"],
            setup=data["setup"],
            fps=float(data["fps"]),
            frame_size=tuple(data["frame_size"]),
            table_corners=data["table_corners"],
            cards=data["cards"],
            frames=data["frames"],
            plays=[PlayTruth(**p) for p in data["plays"]],
            black_frames=data.get("black_frames", []),
            gesture_frames=data.get("gesture_frames", []),
        )

    def save(self, path: Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), separators=(",", ":")), encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> VideoTruth:
        return cls.from_json(json.loads(Path(path).read_text(encoding="utf-8")))


@dataclass(frozen=True)
class CardInstance:
    """One physical card seen in a frame: its name, the box (x1, y1, x2, y2) around its visible corner
    indices (as :class:`vision.detector.CardInstance`), a confidence, the index boxes."""

    card: str
    box: tuple[float, float, float, float]
    confidence: float = 1.0
    indices: tuple[tuple[float, float, float, float], ...] = field(default=())


class OracleSettings(TypedDict, total=False):
    """:class:`OracleReader`'s settings, its keyword arguments."""

    cost_ms: float
    confidence: float
    miss_rate: float
    confusion_rate: float
    seed: int


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
    def from_file(cls, path: Path, **kwargs: Unpack[OracleSettings]) -> OracleReader:
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


def _neighbour(card: str, rng: np.random.Generator) -> str:
    """A card a real reader might mistake ``card`` for: the next rank up or down, same suit."""
    if card in ("SJ", "BJ"):
        return "BJ" if card == "SJ" else "SJ"
    rank, suit = card[:-1], card[-1]
    position = RANKS.index(rank) + (1 if rng.random() < 0.5 else -1)
    return RANKS[position % len(RANKS)] + suit
