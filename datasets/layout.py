"""A whole deck laid out face up for enrolment, drawn as a table camera sees it
(:data:`vision.enrol.LAYOUT_ROWS`: one row per suit, ♠ ♥ ♣ ♦ from 2 to A, then 小王 大王).

>>> from tuolaji.datasets.cardart import CardStyle
>>> photo = layout_photo(CardStyle.random(np.random.default_rng(0)), np.random.default_rng(0), size=(960, 540))
>>> photo.shape
(540, 960, 3)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import cv2
import numpy as np

from tuolaji.datasets.cardart import CardStyle, render_card
from tuolaji.scorer.cards import CARD_NAMES
from tuolaji.vision.enrol import LAYOUT_ROWS


def layout_photo(style: CardStyle | Callable[[str, int], np.ndarray], rng: np.random.Generator,
                 size: tuple[int, int] = (1920, 1080), order: Sequence[str] | None = None,
                 cloth: tuple[int, int, int] = (40, 110, 40), tilt_deg: float = 2.0) -> np.ndarray:
    """A BGR picture of ``order`` (default: the whole deck in layout order) laid out in rows of
    :data:`LAYOUT_ROWS` on a cloth, each card a little turned and shifted, with a camera's noise.
    ``style`` draws the faces: a procedural design, or any ``(card, height_px) -> BGRA`` drawer
    (an imported real design's ``render``)."""
    width, height = size
    names = list(CARD_NAMES if order is None else order)
    draw = style if callable(style) else (lambda name, h: render_card(name, style, h))
    frame = np.zeros((height, width, 3), np.float32)
    frame[:] = cloth
    frame += rng.normal(0, 6, frame.shape).astype(np.float32)
    rows = [names[sum(LAYOUT_ROWS[:r]):sum(LAYOUT_ROWS[:r + 1])] for r in range(len(LAYOUT_ROWS))]
    pitch_y = height / (len(rows) + 0.3)
    card_h = int(pitch_y * 0.82)
    for r, row in enumerate(rows):
        pitch_x = width / (max(LAYOUT_ROWS) + 0.6)
        for c, name in enumerate(row):
            face = draw(name, card_h)
            h, w = face.shape[:2]
            cx = pitch_x * (c + 0.8) + rng.uniform(-3, 3)
            cy = pitch_y * (r + 0.65) + rng.uniform(-3, 3)
            side = int(np.hypot(w, h)) + 2  # a patch around the card that holds it turned
            x0, y0 = int(cx - side / 2), int(cy - side / 2)
            matrix = cv2.getRotationMatrix2D((w / 2, h / 2), float(rng.uniform(-tilt_deg, tilt_deg)), 1.0)
            matrix[:, 2] += (cx - x0 - w / 2, cy - y0 - h / 2)
            face = face if face.shape[2] == 4 else np.dstack([face, np.full((h, w), 255, face.dtype)])
            warped = cv2.warpAffine(face.astype(np.float32), matrix, (side, side), flags=cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
            ys, xs = slice(max(y0, 0), min(y0 + side, height)), slice(max(x0, 0), min(x0 + side, width))
            patch = warped[ys.start - y0:ys.stop - y0, xs.start - x0:xs.stop - x0]
            alpha = patch[:, :, 3:4] / 255.0
            frame[ys, xs] = frame[ys, xs] * (1 - alpha) + patch[:, :, :3] * alpha
    return np.clip(frame, 0, 255).astype(np.uint8)
