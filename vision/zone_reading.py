"""The table pipeline's reads: where the table is in the picture, and which seat's zone each card
read lies in (the card reader's instances turned into ``(card, u, v, confidence)`` per seat, the
game's facts weighing each read, :mod:`vision.read_check`). Frames from a camera at its full
resolution are read seat zone by seat zone (:func:`read_zones`)."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from tuolaji.vision.calibration import CalibrationError, SeatZones, TableCalibration, calibrate
from tuolaji.vision.read_check import weigh_read

ZONE_READ_ABOVE = 1000
"""Frames wider than this (pixels) are read seat zone by seat zone at full resolution."""

SeatReads = dict[int, list[tuple[Any, ...]]]
"""Seat -> the cards read in its zone: (card, u, v, confidence[, candidates]), (u, v) on the table
(:data:`vision.tracking.Observation`)."""


class CardReaderLike(Protocol):
    """What the pipeline needs of a card reader: instances with ``card``, ``box``, ``confidence``."""

    def read(self, frame_bgr: np.ndarray) -> list[Any]: ...


def box_centre(box: Sequence[float]) -> tuple[float, float]:
    """The centre of an (x1, y1, x2, y2) box.

    >>> box_centre((0, 0, 10, 4))
    (5.0, 2.0)
    """
    x1, y1, x2, y2 = (float(v) for v in box[:4])
    return ((x1 + x2) / 2.0, (y1 + y2) / 2.0)


def find_calibration(given: TableCalibration | Sequence[Sequence[float]] | None,
                     image: np.ndarray) -> tuple[TableCalibration, str | None]:
    """The table in a frame of ``image``'s size: ``given`` (a calibration, scaled to the frame, or
    four corners), else found in ``image``, else the whole picture (with a warning saying so)."""
    size = (image.shape[1], image.shape[0])
    if isinstance(given, TableCalibration):
        calibration = given
        if calibration.image_size != size:
            calibration = calibration.scaled(size[0] / calibration.image_size[0])
        return calibration, None
    if given is not None:
        return TableCalibration.from_corners(given, size), None
    try:
        return calibrate(image), None
    except CalibrationError as exc:
        # A camera framed on the table edges, or a patterned cloth: the whole picture is the table.
        return TableCalibration.full_frame(size), f"{exc} (first frame); using the whole picture as the table"


def reads_by_seat(instances: list[Any], calibration: TableCalibration, seat_zones: SeatZones,
                  facts: Any | None) -> tuple[SeatReads, int]:
    """The instances read in a frame, by the seat whose zone holds each one's centre (those outside
    every zone dropped), and how many reads the game's ``facts`` changed (:func:`weigh_read`; an
    instance with ``candidates()`` only)."""
    by_seat: SeatReads = {}
    weighed = 0
    if not instances:
        return by_seat, weighed
    table_points = calibration.to_table([box_centre(instance.box) for instance in instances])
    for instance, (u, v) in zip(instances, table_points, strict=True):
        seat = seat_zones.seat_at(float(u), float(v))
        if seat is None:
            continue
        card, confidence = str(instance.card), float(getattr(instance, "confidence", 1.0))
        if not hasattr(instance, "candidates"):
            by_seat.setdefault(seat, []).append((card, float(u), float(v), confidence))
            continue
        candidates = instance.candidates()
        if facts is not None:
            chosen, probability = weigh_read(candidates, facts, seat)
            if chosen != card or probability < candidates[0][1]:
                weighed += 1
                confidence *= probability / max(candidates[0][1], 1e-9)
                card = chosen
        possible = tuple((name, p * (facts.weight(name, seat) if facts is not None else 1.0)) for name, p in candidates)
        by_seat.setdefault(seat, []).append((card, float(u), float(v), confidence, possible))
    return by_seat, weighed


def read_zones(reader: CardReaderLike, image: np.ndarray, calibration: TableCalibration, seat_zones: SeatZones,
               boxes: dict[int, tuple[int, int, int, int]] | None = None) -> list[Any]:
    """The card instances of a big frame read seat zone by seat zone, each zone's rectangle
    (``boxes``, default :meth:`SeatZones.zone_boxes`) at full resolution, their boxes (and
    their indices' boxes) moved back into the frame. A card seen in two rectangles counts
    in the one whose seat holds its centre."""
    boxes = seat_zones.zone_boxes(calibration) if boxes is None else boxes
    instances = []
    for seat, (x1, y1, x2, y2) in boxes.items():
        for instance in reader.read(np.ascontiguousarray(image[y1:y2, x1:x2])):
            moved = _shifted(instance, x1, y1)
            (u, v), = calibration.to_table([box_centre(moved.box)])
            if seat_zones.seat_at(float(u), float(v)) == seat:
                instances.append(moved)
    return instances


def _shifted(instance: Any, dx: float, dy: float) -> Any:
    """A copy of ``instance`` (and of its index readings, where it has them) with its boxes moved by (dx, dy)."""
    def moved(item: Any, **fields: Any) -> Any:
        box = item.box
        fields["box"] = (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)
        if dataclasses.is_dataclass(item) and not isinstance(item, type):
            return dataclasses.replace(item, **fields)
        clone = copy.copy(item)  # a reader's own instance type (test doubles, other readers)
        for name, value in fields.items():
            setattr(clone, name, value)
        return clone

    if hasattr(instance, "indices"):
        return moved(instance, indices=tuple(moved(index) for index in instance.indices))
    return moved(instance)
