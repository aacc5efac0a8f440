"""The square crop around a detected corner index that the card classifier reads.

Shared by the data generator (training crops) and the runtime reader (inference
crops), so both see exactly the same geometry. Numpy + OpenCV only.

>>> import numpy as np
>>> image = np.zeros((480, 640, 3), np.uint8)
>>> crop_index(image, (100.0, 100.0, 120.0, 130.0)).shape
(40, 40, 3)
"""

from __future__ import annotations

import cv2
import numpy as np

CROP_PX = 40
"""Side of the classifier's input crop in pixels."""

CROP_SCALE = 1.3
"""Crop side as a multiple of the detection box's longer side (some context helps)."""


def crop_square(image: np.ndarray, centre: tuple[float, float], side: float, size: int = CROP_PX) -> np.ndarray:
    """A ``size``×``size`` resampling of the square of ``side`` pixels centred on ``centre``.

    Pixels outside the image are filled by replicating the border.
    """
    side = max(float(side), 2.0)
    scale = size / side
    cx, cy = centre
    matrix = np.array([[scale, 0.0, size / 2 - cx * scale], [0.0, scale, size / 2 - cy * scale]], np.float32)
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    return cv2.warpAffine(image, matrix, (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE)


def crop_index(image: np.ndarray, box: tuple[float, float, float, float], size: int = CROP_PX) -> np.ndarray:
    """The classifier crop for an axis-aligned index box (x1, y1, x2, y2) in pixels."""
    x1, y1, x2, y2 = box
    side = max(x2 - x1, y2 - y1) * CROP_SCALE
    return crop_square(image, ((x1 + x2) / 2, (y1 + y2) / 2), side, size)


def classifier_blob(crops: np.ndarray) -> np.ndarray:
    """The classifier's input for BGR uint8 crops (N×40×40×3): N×3×40×40 float32, 0..1.

    >>> classifier_blob(np.full((2, 40, 40, 3), 255, np.uint8)).shape
    (2, 3, 40, 40)
    """
    return np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32) * (1 / 255.0)
