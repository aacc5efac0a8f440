"""How sharp a seat zone is in a frame, and how much a read of it weighs against the zone's other reads.

A camera's autofocus hunts and a hand leaves motion blur: in such a frame the corner indices
blur, a ♠ becomes a ♣ and a half-covered twin goes unseen. The zone's reads are fused over the
frames it lies still in (:class:`vision.tracking.ZoneTracker`), each weighed by its frame's
sharpness against the zone's sharpest, so the sharp frames decide the count and the names.

The sharpness is the variance of the Laplacian of the zone's grey picture at a fixed width
(:data:`SHARPNESS_WIDTH`), so that a zone read at any resolution is compared with itself.

>>> import numpy as np
>>> edges = np.zeros((60, 80, 3), np.uint8); edges[:, ::4] = 255
>>> sharpness(edges) > sharpness(cv2.GaussianBlur(edges, (0, 0), 3))
True
>>> read_weights([40.0, 20.0, 4.0])
(1.0, 0.5, 0.2)
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

SHARPNESS_WIDTH = 240
"""The zone's picture is measured at this width (pixels), whatever the camera's resolution."""

MIN_READ_WEIGHT = 0.2
"""The least a read weighs: a blurred frame still counts a little (its card may be there)."""


def sharpness(image_bgr: np.ndarray) -> float:
    """The variance of the Laplacian of ``image_bgr``'s grey picture at :data:`SHARPNESS_WIDTH`
    (0 for an empty picture)."""
    if image_bgr.size == 0:
        return 0.0
    grey = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY) if image_bgr.ndim == 3 else image_bgr
    height, width = grey.shape[:2]
    if width != SHARPNESS_WIDTH:
        size = (SHARPNESS_WIDTH, max(1, round(height * SHARPNESS_WIDTH / width)))
        grey = cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
    return float(cv2.Laplacian(grey, cv2.CV_32F).var())


def zone_sharpness(image_bgr: np.ndarray, box: Sequence[int]) -> float:
    """:func:`sharpness` of the ``(x1, y1, x2, y2)`` rectangle of ``image_bgr`` (clipped to the picture)."""
    height, width = image_bgr.shape[:2]
    x1, y1, x2, y2 = (int(v) for v in box[:4])
    return sharpness(image_bgr[max(0, y1):min(height, y2), max(0, x1):min(width, x2)])


def read_weights(sharpness_of_reads: Sequence[float]) -> tuple[float, ...]:
    """Each read's weight: its sharpness over the sharpest read's, at least :data:`MIN_READ_WEIGHT`
    (all 1 where nothing was measured)."""
    sharpest = max(sharpness_of_reads, default=0.0)
    if sharpest <= 0:
        return tuple(1.0 for _ in sharpness_of_reads)
    return tuple(round(max(MIN_READ_WEIGHT, value / sharpest), 4) for value in sharpness_of_reads)
