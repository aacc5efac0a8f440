"""Where a card's top points, refined: the classifier's up-vector snapped to the card's edges
and glyph strokes (the crop's gradients)."""

from __future__ import annotations

import numpy as np

REFINE_COHERENCE = 0.15
"""Least share of the crop's gradient energy that must agree on one square orientation."""
REFINE_MAX_TURN_DEG = 25.0
"""The classifier's up-vector is moved to the crop's square orientation only if that is this close."""


def refine_up(crop_bgr: np.ndarray, up: np.ndarray) -> np.ndarray:
    """The classifier's unit up-vector, snapped to the card's edges and glyph strokes.

    A corner index shows the card's edges and upright glyph strokes, so the crop's
    gradients point along the card's axes: their four-fold orientation (angle × 4,
    weighted by gradient energy) gives the card's rotation modulo 90° to a few degrees,
    closer than the classifier's own estimate. The snapped direction is used
    only when the gradients agree (``REFINE_COHERENCE``) and it lies within
    ``REFINE_MAX_TURN_DEG`` of the classifier's.

    >>> crop = np.full((40, 40, 3), 255, np.uint8)
    >>> crop[10:30, 18:22] = 0                      # an upright stroke
    >>> refine_up(crop, np.array([0.26, -0.97], np.float32)).round(3).tolist()   # 15° off
    [0.0, -1.0]
    """
    refined: np.ndarray = refine_ups(crop_bgr[None], np.asarray(up, np.float32)[None])[0]
    return refined


def refine_ups(crops_bgr: np.ndarray, ups: np.ndarray) -> np.ndarray:
    """:func:`refine_up` for a batch of crops (K×S×S×3) and up-vectors (K×2) at once."""
    ups = np.asarray(ups, np.float32)
    if len(crops_bgr) == 0:
        return ups.reshape(0, 2)
    # luma rounded as cv2.cvtColor rounds it (fixed point, 14 bits)
    weights = np.array([1868, 9617, 4899], np.int32)
    gray = ((crops_bgr.astype(np.int32) @ weights + 8192) >> 14).astype(np.float32)
    padded = np.pad(gray, ((0, 0), (1, 1), (1, 1)), mode="reflect")  # the 3×3 Sobel's own border rule
    dx = padded[:, :, 2:] - padded[:, :, :-2]
    gx = dx[:, :-2] + 2 * dx[:, 1:-1] + dx[:, 2:]
    dy = padded[:, 2:] - padded[:, :-2]
    gy = dy[:, :, :-2] + 2 * dy[:, :, 1:-1] + dy[:, :, 2:]
    energy = gx * gx + gy * gy
    total = energy.sum(axis=(1, 2))
    # energy × e^(4iθ) = (gx + i·gy)^4 / energy, without the arctangents
    cos2, sin2 = gx * gx - gy * gy, 2 * gx * gy
    inverse = np.divide(1.0, energy, out=np.zeros_like(energy), where=energy > 0)
    z_re = ((cos2 * cos2 - sin2 * sin2) * inverse).sum(axis=(1, 2))
    z_im = (2 * cos2 * sin2 * inverse).sum(axis=(1, 2))
    z = z_re + 1j * z_im
    square = np.degrees(np.angle(z) / 4)  # each card's rotation modulo 90°
    angle = np.degrees(np.arctan2(ups[:, 0], -ups[:, 1]))
    turn = (square - angle + 45) % 90 - 45
    snap = (total > 0) & (np.abs(z) >= REFINE_COHERENCE * total) & (np.abs(turn) <= REFINE_MAX_TURN_DEG)
    snapped = np.radians(angle + turn)
    out = ups.copy()
    out[snap] = np.stack([np.sin(snapped), -np.cos(snapped)], axis=1)[snap].astype(np.float32)
    return out
