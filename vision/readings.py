"""What the card reader reads: a corner index (:class:`IndexReading`) and a physical card
(:class:`CardInstance`, its indices grouped by :mod:`vision.grouping`)."""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from tuolaji.scorer.cards import CARD_NAMES

Box = tuple[float, float, float, float]


def as_box(values: Iterable[float]) -> Box:
    """Four coordinates (x1, y1, x2, y2: a network's output row, an OpenCV rectangle) as a box of floats.

    >>> as_box(np.array([1, 2, 3, 4], np.float32))
    (1.0, 2.0, 3.0, 4.0)
    """
    x1, y1, x2, y2 = (float(v) for v in values)
    return (x1, y1, x2, y2)


def union_box(boxes: list[Box]) -> Box:
    """The smallest box holding all of ``boxes`` (x1, y1, x2, y2).

    >>> union_box([(0, 5, 10, 20), (4, 0, 12, 8)])
    (0, 0, 12, 20)
    """
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


@dataclass(frozen=True)
class IndexReading:
    """One corner index: where it is, what it reads and where its card's top points."""

    card: str
    box: Box  # x1, y1, x2, y2 in frame pixels
    confidence: float  # classifier probability × detector score ** detector_weight
    angle_deg: float  # clockwise from "up" in the image: the direction of the card's top
    side: float = math.nan  # probability that this is a right-hand corner of its card as its glyphs stand (NaN: not read)
    # the classifier's probabilities of the 54 cards (summing to 1, reject left out); None: only the name is known
    probs: np.ndarray | None = field(default=None, compare=False, repr=False)

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2)

    def confidence_as(self, card: str) -> float:
        """The confidence this reading would have if it had read ``card`` (0 when its
        probabilities are unknown and it read another card)."""
        if card == self.card:
            return self.confidence
        if self.probs is None:
            return 0.0
        k = CARD_NAMES.index(card)
        return self.confidence * float(self.probs[k]) / max(float(self.probs[CARD_NAMES.index(self.card)]), 1e-9)


@dataclass(frozen=True)
class CardInstance:
    """One physical card: its name, a box around its visible corner indices, a confidence.

    >>> i = IndexReading("AS", (10, 10, 20, 30), 0.9, 0.0)
    >>> CardInstance("AS", (10, 10, 20, 30), 0.9, (i,)).card
    'AS'
    """

    card: str
    box: Box
    confidence: float
    indices: tuple[IndexReading, ...] = field(default=())
    # the 54 cards' probabilities given more than its corners (its face read too); None: from its corners
    probs: np.ndarray | None = field(default=None, compare=False, repr=False)

    def candidates(self, count: int = 5) -> list[tuple[str, float]]:
        """The likeliest cards this one may be, with their probabilities given all its corners
        (independent reads: the normalised product) or given ``probs`` where the card has them
        (its face read too), most probable first; only its name (probability 1) when neither
        carries probabilities.

        >>> p = np.full(54, 0.2 / 53); p[CARD_NAMES.index("9C")] = 0.8
        >>> [(c, round(v, 2)) for c, v in CardInstance("9C", (0, 0, 9, 9), 0.8, (IndexReading("9C", (0, 0, 9, 9), 0.8, 0.0, probs=p),)).candidates(2)]
        [('9C', 0.8), ('2S', 0.0)]
        """
        if self.probs is not None:
            p = np.asarray(self.probs, np.float64) / max(float(np.sum(self.probs)), 1e-12)
        elif not self.indices or any(r.probs is None for r in self.indices):
            return [(self.card, 1.0)]
        else:
            # the indices' log-probabilities added in turn (there is at least one)
            log_p: np.ndarray = functools.reduce(operator.add, [np.log(np.asarray(r.probs, np.float64) + 1e-9)
                                                               for r in self.indices])
            p = np.exp(log_p - log_p.max())
            p /= p.sum()
        order = np.argsort(-p, kind="stable")[:count]
        return [(CARD_NAMES[int(k)], float(p[k])) for k in order]
