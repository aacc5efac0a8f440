"""Table calibration: where the table is in the picture, and which seat owns which part of it.

The camera looks down on the table, perhaps a little obliquely. A
:class:`TableCalibration` holds the table's four corners in the image (top-left,
top-right, bottom-right, bottom-left) and the perspective map between the image and
*table coordinates* ``(u, v)`` in ``[0, 1]²`` (``u`` to the right, ``v`` down).
:func:`find_table_corners` finds the corners itself (the table is the large evenly
coloured quadrilateral around the middle of the picture), or the user gives them.

:class:`SeatZones` splits the table into one zone per seat, per ``docs/TABLE.md``: seat 0 at
the bottom edge, then counter-clockwise (seat 1 right, 2 top, 3 left for four
players; five to seven players evenly around the edge). The middle belongs to no seat
(the kitty may lie there).

>>> calibration = TableCalibration.from_corners([(40, 30), (600, 30), (600, 450), (40, 450)], (640, 480))
>>> [round(float(x), 3) for x in calibration.to_table([(320, 240)])[0]]
[0.5, 0.5]
>>> zones = SeatZones(4)
>>> [zones.seat_at(0.5, 0.9), zones.seat_at(0.9, 0.5), zones.seat_at(0.5, 0.1), zones.seat_at(0.1, 0.5)]
[0, 1, 2, 3]
>>> zones.seat_at(0.5, 0.5) is None
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from tuolaji.scorer.errors import InputError


class CalibrationError(InputError):
    """The table's corners could not be found, or the given corners do not make a table."""


def order_corners(points: Iterable[Sequence[float]]) -> np.ndarray:
    """Four points as top-left, top-right, bottom-right, bottom-left (image coordinates).

    >>> order_corners([(10, 90), (90, 90), (90, 10), (10, 10)]).tolist()
    [[10.0, 10.0], [90.0, 10.0], [90.0, 90.0], [10.0, 90.0]]
    """
    pts = np.asarray(list(points), dtype=np.float64).reshape(-1, 2)
    if pts.shape != (4, 2):
        raise CalibrationError("calibration.points", points=len(pts))
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]  # clockwise on screen starting from the left-ish corner
    start = int(np.argmin(pts.sum(axis=1)))  # top-left: smallest x + y
    return np.roll(pts, -start, axis=0)


@dataclass(frozen=True)
class TableCalibration:
    """The table's corners in an image of ``image_size`` (w, h) and the maps to and from table coordinates."""

    corners: tuple[tuple[float, float], ...]
    image_size: tuple[int, int]
    image_to_table: np.ndarray = field(repr=False, compare=False)
    table_to_image: np.ndarray = field(repr=False, compare=False)

    @classmethod
    def from_corners(cls, corners: Iterable[Sequence[float]], image_size: tuple[int, int]) -> TableCalibration:
        """Calibrate from four corners in any order (they are sorted into TL, TR, BR, BL)."""
        ordered = order_corners(corners)
        area = cv2.contourArea(ordered.astype(np.float32))
        if area < 0.02 * image_size[0] * image_size[1]:
            raise CalibrationError("calibration.too_small_corners", corners=ordered.tolist())
        unit = np.array([(0, 0), (1, 0), (1, 1), (0, 1)], dtype=np.float64)
        forward = cv2.getPerspectiveTransform(ordered.astype(np.float32), unit.astype(np.float32))
        backward = np.linalg.inv(forward)
        return cls(
            corners=tuple((float(x), float(y)) for x, y in ordered),
            image_size=(int(image_size[0]), int(image_size[1])),
            image_to_table=forward,
            table_to_image=backward,
        )

    @classmethod
    def full_frame(cls, image_size: tuple[int, int]) -> TableCalibration:
        """The whole picture is the table (a camera framed on the table's edges)."""
        w, h = image_size
        return cls.from_corners([(0, 0), (w, 0), (w, h), (0, h)], image_size)

    def to_table(self, points: Iterable[Sequence[float]]) -> np.ndarray:
        """Image points -> table coordinates (u, v)."""
        pts = np.asarray(list(points), dtype=np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.image_to_table).reshape(-1, 2)

    def to_image(self, points: Iterable[Sequence[float]]) -> np.ndarray:
        """Table coordinates (u, v) -> image points."""
        pts = np.asarray(list(points), dtype=np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.table_to_image).reshape(-1, 2)

    def mask(self, shape: tuple[int, ...]) -> np.ndarray:
        """The table region in a picture of ``shape`` (height, width, ...): 255 inside its corners, 0 outside.

        >>> int(TableCalibration.full_frame((4, 3)).mask((3, 4)).min())
        255
        """
        region = np.zeros(shape[:2], np.uint8)
        cv2.fillConvexPoly(region, np.round(np.asarray(self.corners)).astype(np.int32), 255)
        return region

    def scaled(self, factor: float) -> TableCalibration:
        """The same table in a picture resized by ``factor`` (for the downscaled motion images)."""
        w, h = self.image_size
        return TableCalibration.from_corners(
            [(x * factor, y * factor) for x, y in self.corners], (round(w * factor), round(h * factor))
        )

    def to_json(self) -> dict[str, object]:
        return {"corners": [list(c) for c in self.corners], "image_size": list(self.image_size)}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> TableCalibration:
        try:
            return cls.from_corners(data["corners"], tuple(data["image_size"]))  # type: ignore[arg-type]
        except (KeyError, TypeError, ValueError) as exc:
            raise CalibrationError("calibration.json", problem=str(exc)) from exc


def find_table_corners(image: np.ndarray) -> np.ndarray:
    """Find the table: the large evenly coloured quadrilateral that holds the middle of the picture.

    Returns the four corners (TL, TR, BR, BL) in image pixels, or raises
    :class:`CalibrationError`. Cards lying on the table are holes in the table's colour;
    the convex hull closes them.
    """
    if image is None or image.ndim != 3 or image.shape[0] < 16 or image.shape[1] < 16:
        raise CalibrationError("calibration.colour")
    h, w = image.shape[:2]
    scale = 320.0 / max(w, h)
    small = cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (5, 5), 0)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    sh, sw = lab.shape[:2]
    # The table colour: the most common colour of the middle half of the picture
    # (cards are bright and small; the felt is most of it).
    middle = lab[sh // 4: 3 * sh // 4, sw // 4: 3 * sw // 4].reshape(-1, 3)
    quantised = (middle // 12).astype(np.int32)
    keys = quantised[:, 0] * 10000 + quantised[:, 1] * 100 + quantised[:, 2]
    values, counts = np.unique(keys, return_counts=True)
    mode = values[np.argmax(counts)]
    table_colour = np.median(middle[keys == mode], axis=0)
    distance = np.linalg.norm(lab - table_colour, axis=2)
    spread = np.percentile(np.linalg.norm(middle[keys == mode] - table_colour, axis=1), 90)
    if spread > 30.0:
        raise CalibrationError("calibration.no_table")
    mask = (distance < max(22.0, 3.0 * spread)).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    if count <= 1:
        raise CalibrationError("calibration.no_table")
    # The biggest component that reaches into the middle of the picture.
    best, best_area = 0, 0
    for label in range(1, count):
        x, y, cw, ch, area = stats[label]
        if x < sw * 0.6 and x + cw > sw * 0.4 and y < sh * 0.6 and y + ch > sh * 0.4 and area > best_area:
            best, best_area = label, area
    if best == 0 or best_area < 0.08 * sw * sh:
        raise CalibrationError("calibration.region_small")
    component = (labels == best).astype(np.uint8)
    contours, _ = cv2.findContours(component, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    quad = _hull_to_quadrilateral(hull)
    return order_corners(quad / scale)


def _hull_to_quadrilateral(hull: np.ndarray) -> np.ndarray:
    perimeter = cv2.arcLength(hull, True)
    for epsilon in np.linspace(0.01, 0.1, 19):
        approx = cv2.approxPolyDP(hull, epsilon * perimeter, True)
        if len(approx) == 4:
            return approx.reshape(4, 2).astype(np.float64)
        if len(approx) < 4:
            break
    # Fall back: the four hull points farthest along the diagonals.
    pts = hull.reshape(-1, 2).astype(np.float64)
    s, d = pts.sum(axis=1), pts[:, 0] - pts[:, 1]
    return np.array([pts[np.argmin(s)], pts[np.argmax(d)], pts[np.argmax(s)], pts[np.argmin(d)]])


def calibrate(image: np.ndarray, corners: Iterable[Sequence[float]] | None = None) -> TableCalibration:
    """Calibrate from given corners, or find the table in ``image``."""
    size = (image.shape[1], image.shape[0])
    if corners is not None:
        return TableCalibration.from_corners(corners, size)
    return TableCalibration.from_corners(find_table_corners(image), size)


class SeatZones:
    """One zone per seat around the table edge; the middle (``centre_radius``) belongs to none.

    Seat ``k`` sits at angle 90° − k·360°/n in table coordinates (y down): seat 0 at the
    bottom, counter-clockwise as seen on screen. Each seat's cards lie about
    ``anchor_radius`` of the way from the centre to its edge; a point belongs to the seat
    whose anchor is nearest, measured in the table's true proportions (``aspect`` = width /
    height), so a wide fan of cards stays in its own zone.
    """

    def __init__(self, players: int, *, aspect: float = 4.0 / 3.0, centre_radius: float = 0.22,
                 anchor_radius: float = 0.6, margin: float = 0.04) -> None:
        if not 2 <= players <= 8:
            raise InputError("calibration.players", players=players)
        self.players = players
        self.aspect = aspect
        self.centre_radius = centre_radius
        self.margin = margin
        self.angles = [math.radians(90.0 - k * 360.0 / players) for k in range(players)]
        self.anchors = np.array(
            [(anchor_radius * math.cos(a) * aspect, anchor_radius * math.sin(a)) for a in self.angles]
        )

    def seat_direction(self, seat: int) -> tuple[float, float]:
        """Unit vector from the table centre towards ``seat`` (normalised square coordinates)."""
        angle = self.angles[seat]
        return (math.cos(angle), math.sin(angle))

    def seat_at(self, u: float, v: float) -> int | None:
        """The seat whose zone holds table point (u, v); None for the middle or off the table."""
        x, y = 2.0 * u - 1.0, 2.0 * v - 1.0
        if abs(x) > 1.0 + self.margin or abs(y) > 1.0 + self.margin:
            return None
        if math.hypot(x, y) < self.centre_radius:
            return None
        distances = np.hypot(self.anchors[:, 0] - x * self.aspect, self.anchors[:, 1] - y)
        return int(np.argmin(distances))

    def label_map(self, calibration: TableCalibration) -> np.ndarray:
        """Per pixel of ``calibration.image_size``: the seat (0..n−1), −1 off the table, −2 the middle."""
        w, h = calibration.image_size
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
        pts = np.stack([xs.ravel() + 0.5, ys.ravel() + 0.5], axis=1)
        uv = calibration.to_table(pts)
        x = 2.0 * uv[:, 0] - 1.0
        y = 2.0 * uv[:, 1] - 1.0
        labels = np.full(x.shape, -1, dtype=np.int16)
        on_table = (np.abs(x) <= 1.0) & (np.abs(y) <= 1.0)
        distances = np.stack(
            [np.hypot(ax - x * self.aspect, ay - y) for ax, ay in self.anchors], axis=1
        )
        seats = np.argmin(distances, axis=1).astype(np.int16)
        labels[on_table] = seats[on_table]
        labels[on_table & (np.hypot(x, y) < self.centre_radius)] = -2
        return labels.reshape(h, w)


    def zone_boxes(self, calibration: TableCalibration, margin: float = 0.04) -> dict[int, tuple[int, int, int, int]]:
        """Per seat, the rectangle of the picture (x1, y1, x2, y2 pixels) that holds its zone,
        widened by ``margin`` of the picture's width each way (a card may lie across a
        zone's edge). Found on a small copy of the label map, so it is cheap at any size.

        >>> zones = SeatZones(4)
        >>> boxes = zones.zone_boxes(TableCalibration.full_frame((1920, 1080)))
        >>> sorted(boxes), all(0 <= x1 < x2 <= 1920 and 0 <= y1 < y2 <= 1080 for x1, y1, x2, y2 in boxes.values())
        ([0, 1, 2, 3], True)
        >>> boxes[0][3] == 1080 and boxes[0][1] > 300   # seat 0 sits at the bottom edge
        True
        """
        w, h = calibration.image_size
        factor = min(1.0, 160.0 / w)
        small = calibration.scaled(factor) if factor < 1.0 else calibration
        labels = self.label_map(small)
        pad = margin * w
        boxes = {}
        for seat in range(self.players):
            ys, xs = np.nonzero(labels == seat)
            if not len(xs):
                continue
            x1 = max(0, int((xs.min() / factor) - pad))
            y1 = max(0, int((ys.min() / factor) - pad))
            x2 = min(w, int(((xs.max() + 1) / factor) + pad))
            y2 = min(h, int(((ys.max() + 1) / factor) + pad))
            boxes[seat] = (x1, y1, x2, y2)
        return boxes


def table_aspect(calibration: TableCalibration) -> float:
    """Width / height of the table as the picture shows it (mean of opposite edges).

    >>> round(table_aspect(TableCalibration.from_corners([(0, 0), (400, 0), (400, 300), (0, 300)], (640, 480))), 3)
    1.333
    """
    tl, tr, br, bl = (np.array(c) for c in calibration.corners)
    width = (np.linalg.norm(tr - tl) + np.linalg.norm(br - bl)) / 2
    height = (np.linalg.norm(bl - tl) + np.linalg.norm(br - tr)) / 2
    return float(width / height) if height > 0 else 1.0
