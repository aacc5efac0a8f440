"""Cheap per-frame activity: which seat zones move, and which have an arm over them.

Reading cards costs tens of milliseconds; looking for change costs well under one. So
every frame is shrunk to ``width`` pixels across and compared with the previous frame
(*motion*) and with a slowly adapting picture of the empty scene (*foreground*). A
foreground blob that reaches off the table (an arm comes from a player's side) and
into a zone marks that zone *occluded*: a hand resting still over cards is not a
settled play. The card reader runs only on zones that are neither.

>>> import numpy as np
>>> from tuolaji.vision.calibration import SeatZones, TableCalibration
>>> calibration = TableCalibration.from_corners([(40, 30), (600, 30), (600, 450), (40, 450)], (640, 480))
>>> monitor = MotionMonitor(calibration, SeatZones(4))
>>> empty = np.full((480, 640, 3), (40, 110, 40), np.uint8)
>>> monitor.update(empty).moving
(False, False, False, False)
>>> arm = empty.copy(); arm[300:480, 300:340] = (60, 40, 160)  # a sleeve from the bottom edge
>>> activity = monitor.update(arm)
>>> activity.moving[0], activity.occluded[0], activity.occluded[2]
(True, True, False)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tuolaji.vision.calibration import SeatZones, TableCalibration


@dataclass(frozen=True)
class Activity:
    """What changed in one frame, per seat zone."""

    moving: tuple[bool, ...]
    occluded: tuple[bool, ...]
    motion_pixels: tuple[int, ...]


def _channel_max(image: np.ndarray) -> np.ndarray:
    """Per pixel, the largest of the three channels (much faster than ``max(axis=2)``)."""
    b, g, r = cv2.split(image)
    return cv2.max(cv2.max(b, g), r)


class MotionMonitor:
    """Motion and arm detection on a downscaled copy of each frame (see the module docstring)."""

    def __init__(
        self,
        calibration: TableCalibration,
        zones: SeatZones,
        *,
        width: int = 160,
        motion_threshold: float = 14.0,
        foreground_threshold: float = 28.0,
        min_motion_pixels: int = 3,
        min_arm_pixels: int = 6,
        adapt_rate: float = 0.05,
        absorb_after_frames: int = 60,
    ) -> None:
        w, h = calibration.image_size
        self.factor = width / float(w)
        self.size = (width, max(1, round(h * self.factor)))
        small = calibration.scaled(self.factor)
        self.labels = zones.label_map(small)
        self.players = zones.players
        # Off the table, with a small margin so cards at the very edge never count as an arm.
        ring = self.labels == -1
        table = (~ring).astype(np.uint8)
        grown = cv2.dilate(table, np.ones((5, 5), np.uint8)) > 0
        self.ring = ring & ~grown
        self.ring[:2, :] |= ring[:2, :]
        self.ring[-2:, :] |= ring[-2:, :]
        self.ring[:, :2] |= ring[:, :2]
        self.ring[:, -2:] |= ring[:, -2:]
        if not self.ring.any():  # the table fills the picture: arms enter across the picture's border
            self.ring = np.zeros_like(ring)
            self.ring[:2, :] = self.ring[-2:, :] = True
            self.ring[:, :2] = self.ring[:, -2:] = True
        self.seat_masks = [self.labels == seat for seat in range(self.players)]
        self.flat_labels = np.where(self.labels >= 0, self.labels, self.players).ravel()
        self.motion_threshold = motion_threshold
        self.foreground_threshold = foreground_threshold
        self.min_motion_pixels = min_motion_pixels
        self.min_arm_pixels = min_arm_pixels
        self.adapt_rate = adapt_rate
        self.absorb_after_frames = absorb_after_frames
        self._previous: np.ndarray | None = None
        self._background: np.ndarray | None = None
        self._still_frames: np.ndarray | None = None
        self.foreground: np.ndarray | None = None

    def shrink(self, image: np.ndarray) -> np.ndarray:
        return cv2.resize(image, self.size, interpolation=cv2.INTER_AREA).astype(np.float32)

    def update(self, image: np.ndarray) -> Activity | None:
        """Feed one frame; None when the frame is unusable (black, blown out, wrong size)."""
        if image is None or image.ndim != 3:
            return None
        small = self.shrink(image)
        if self._background is not None:
            # Global change of light: the median ratio to the empty scene (robust to cards and arms).
            ratio = small[::3, ::3, 1] / np.maximum(8.0, self._background[::3, ::3, 1])
            gain = float(np.median(ratio))
            if not 0.4 <= gain <= 2.5:
                return None  # a camera glitch (black or blown-out frame): keep the last good frame
        elif float(small.mean()) < 8.0:
            return None
        else:
            gain = 1.0
        if self._previous is None:
            self._previous = small
            self._background = small.copy()
            self._still_frames = np.zeros(small.shape[:2], np.int32)
            nothing = tuple(False for _ in range(self.players))
            return Activity(nothing, nothing, tuple(0 for _ in range(self.players)))
        assert self._background is not None and self._still_frames is not None
        moving_pixels = _channel_max(cv2.absdiff(small, self._previous)) > self.motion_threshold
        self._previous = small
        counts = np.bincount(self.flat_labels[moving_pixels.ravel()], minlength=self.players + 1)[: self.players]
        moving = tuple(bool(c >= self.min_motion_pixels) for c in counts)

        # Foreground against the empty scene, compensating a global change of light.
        difference = _channel_max(cv2.absdiff(small, self._background * np.float32(gain)))
        foreground = difference > self.foreground_threshold
        self._still_frames = np.where(moving_pixels, 0, self._still_frames + 1)
        adapt = ~foreground | (self._still_frames > self.absorb_after_frames)
        cv2.accumulateWeighted(small, self._background, self.adapt_rate, mask=adapt.astype(np.uint8))
        self.foreground = foreground

        occluded = [False] * self.players
        mask = cv2.dilate(foreground.astype(np.uint8), np.ones((3, 3), np.uint8))
        if int(mask[self.ring].sum()) >= self.min_arm_pixels:
            count, components = cv2.connectedComponents(mask, connectivity=8)
            arm_labels = np.unique(components[self.ring & (mask > 0)])
            arm_labels = arm_labels[arm_labels > 0]
            if arm_labels.size:
                sizes = np.bincount(components[self.ring].ravel(), minlength=count)
                arms = [label for label in arm_labels if sizes[label] >= self.min_arm_pixels]
                if arms:
                    arm = np.isin(components, arms)
                    for seat in range(self.players):
                        occluded[seat] = bool((arm & self.seat_masks[seat]).any())
        return Activity(moving, tuple(occluded), tuple(int(c) for c in counts))
