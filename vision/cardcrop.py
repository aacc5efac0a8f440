"""The square crop around a detected corner index that the card classifier reads.

Shared by the data generator (training crops) and the runtime reader (inference
crops), so both see exactly the same geometry. Numpy + OpenCV only.

>>> import numpy as np
>>> image = np.zeros((480, 640, 3), np.uint8)
>>> crop_index(image, (100.0, 100.0, 120.0, 130.0)).shape
(40, 40, 3)
"""

from __future__ import annotations

import math

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


RESTACK_BAND = 0.28
"""Half the height of the band a horizontal index is cut from, as a share of its patch
(the patch's side is the detection box's longer side)."""


def crop_restacked(image: np.ndarray, box: tuple[float, float, float, float], up: tuple[float, float],
                   size: int = CROP_PX, rank_first: bool = True) -> np.ndarray:
    """The classifier crop of an index that prints its suit beside its rank, rearranged as the
    indices the classifier knows: the rank above its suit.

    The classifier takes such an index for an ordinary one turned by a quarter: its ``up``
    (a unit vector, y down) points along the line of print, towards the rank. The patch around
    ``box`` is turned so that line runs left to right, cut where the ink is thinnest between
    rank and suit, and the suit's part set under the rank's. An index turned by a half comes out
    turned by a half, which the classifier reads as it reads any turned index. Where a deck prints
    its right-hand corners mirrored (the suit inside, the rank at the card's edge), the classifier's
    up points the other way along the line and the glyphs come out upside down: ``rank_first``
    False sets the left part under the right one, which reads such a corner as an index turned
    by a half.

    >>> image = np.full((120, 160, 3), 255, np.uint8)
    >>> crop_restacked(image, (60.0, 50.0, 100.0, 74.0), (-1.0, 0.0)).shape
    (40, 40, 3)
    """
    x1, y1, x2, y2 = box
    centre = ((x1 + x2) / 2, (y1 + y2) / 2)
    scale = 4.0
    side = max(int(round(max(x2 - x1, y2 - y1, 2.0) * scale)), 8)
    turn = math.degrees(math.atan2(up[1], up[0])) + 180  # the rank's direction onto -x
    matrix = cv2.getRotationMatrix2D(centre, turn, scale)
    matrix[0, 2] += side / 2 - centre[0]
    matrix[1, 2] += side / 2 - centre[1]
    patch = cv2.warpAffine(image, matrix, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    band = patch[int(side * (0.5 - RESTACK_BAND)):int(side * (0.5 + RESTACK_BAND))]
    gray = cv2.cvtColor(band, cv2.COLOR_BGR2GRAY)
    ink = (gray.max() - gray.astype(np.float32)).mean(axis=0)
    low, high = int(side * 0.35), int(side * 0.65)
    split = low + int(np.argmin(ink[low:high]))
    rank, suit = band[:, :split], band[:, split:]
    height, width = band.shape[0], max(rank.shape[1], suit.shape[1])
    paper = np.median(band.reshape(-1, 3)[gray.reshape(-1) >= np.percentile(gray, 60)], axis=0).astype(np.uint8)
    stacked = np.empty((2 * height, width, 3), np.uint8)
    stacked[:] = paper
    if rank_first:  # each part keeps its edge at the cut
        stacked[:height, width - rank.shape[1]:] = rank
        stacked[height:, :suit.shape[1]] = suit
    else:
        stacked[:height, :suit.shape[1]] = suit
        stacked[height:, width - rank.shape[1]:] = rank
    framed = cv2.copyMakeBorder(stacked, height, height, height, height, cv2.BORDER_CONSTANT, value=paper.tolist())
    return crop_square(framed, (framed.shape[1] / 2, framed.shape[0] / 2), 2 * height, size)
