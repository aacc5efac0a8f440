"""The whole-face reader: a card read from its whole face, not only from its corner index.

Where a card is seen large (a close-up, a card alone), its centre pips and court panel are
far larger than its corner index, and an ornate or jumbo index the corner reader has never
seen still comes with a face it can read. The face reader (``face.onnx``) takes a card
upright, its outline stretched to a ``FACE_PX`` square, and returns the 54 cards' and
"not a face" probabilities. It also looks at a whole picture: a photo that is one card
reads as that card, a table scene reads "not a face".

>>> stretch_to_face(np.zeros((300, 200, 3), np.uint8)).shape
(80, 80, 3)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np

if TYPE_CHECKING:
    from onnxruntime import InferenceSession

FACE_PX = 80
"""Side of the face reader's input square (the card stretched to fill it)."""


def stretch_to_face(image: np.ndarray) -> np.ndarray:
    """``image`` (a card filling it, upright) resized to the face reader's square."""
    h, w = image.shape[:2]
    interp = cv2.INTER_AREA if min(h, w) > FACE_PX else cv2.INTER_LINEAR
    return cv2.resize(image, (FACE_PX, FACE_PX), interpolation=interp)


def portrait(image: np.ndarray) -> np.ndarray:
    """``image`` turned a quarter turn when it is wider than tall (a card lying sideways)."""
    return np.ascontiguousarray(np.rot90(image)) if image.shape[1] > image.shape[0] * 1.15 else image


CARD_ASPECT = (1.2, 1.75)
"""The long side over the short side of a card outline (poker 1.40, bridge 1.56), with room
for perspective."""

MIN_CARD_AREA = 0.007
"""A card outline covers at least this fraction of the picture (a card about 38×54 px in a
640×480 frame: small cards' faces are read too)."""

QUAD_SEARCH_PX = 320
"""Card outlines are looked for in the picture shrunk to this longest side (they are large)."""


def order_quad(points: np.ndarray) -> np.ndarray:
    """The 4 corners of a card outline clockwise from a corner of a short edge, so that the
    warp stands the card upright or upside down (either reads the same).

    >>> order_quad(np.array([[0, 0], [0, 140], [100, 140], [100, 0]], np.float32)).tolist()
    [[0.0, 0.0], [100.0, 0.0], [100.0, 140.0], [0.0, 140.0]]
    """
    pts = np.asarray(points, np.float32).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]  # clockwise in image coordinates (y down)
    pts = np.roll(pts, -int(np.argmin(pts.sum(axis=1))), axis=0)
    edge01 = float(np.linalg.norm(pts[1] - pts[0]))
    edge12 = float(np.linalg.norm(pts[2] - pts[1]))
    if edge01 > edge12:  # the first edge must be a short one
        pts = np.roll(pts, -1, axis=0)
    return pts


def card_quads(image: np.ndarray, max_quads: int = 12) -> list[np.ndarray]:
    """Outlines of whole cards in ``image`` (each 4×2, see :func:`order_quad`), largest first.

    A card is a bright convex quadrilateral with a card's proportions standing out from the
    surface: its edges are looked for in a threshold of the picture's brightness and in its
    gradient edges, and only outlines of card proportions and size are kept.
    """
    scale = min(1.0, QUAD_SEARCH_PX / max(image.shape[:2]))
    small = image if scale == 1.0 else cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    h, w = small.shape[:2]
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    gray = cv2.GaussianBlur(gray, (5, 5), 0)
    masks = [cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[1]]
    edges = cv2.Canny(gray, 40, 120)
    masks.append(cv2.dilate(edges, np.ones((3, 3), np.uint8)))
    found: list[tuple[float, np.ndarray]] = []
    for mask in masks:
        contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        for contour in contours:
            area = cv2.contourArea(contour)
            if area < MIN_CARD_AREA * h * w or area > 0.95 * h * w:
                continue
            hull = cv2.convexHull(contour)
            approx = cv2.approxPolyDP(hull, 0.04 * cv2.arcLength(hull, True), True)
            if len(approx) != 4 or cv2.contourArea(approx) < 0.8 * cv2.contourArea(hull):
                continue
            quad = order_quad(approx)
            short = (np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[3] - quad[2])) / 2
            long = (np.linalg.norm(quad[2] - quad[1]) + np.linalg.norm(quad[0] - quad[3])) / 2
            if short <= 0 or not CARD_ASPECT[0] <= long / short <= CARD_ASPECT[1]:
                continue
            if any(_same_quad(quad, other) for _, other in found):
                continue
            found.append((float(cv2.contourArea(approx)), quad))
    found.sort(key=lambda item: -item[0])
    return [quad / np.float32(scale) for _, quad in found[:max_quads]]


def within_outline(inner: np.ndarray, outer: np.ndarray, slack: float = 0.03) -> bool:
    """Whether the outline ``inner`` lies wholly inside the larger outline ``outer`` (each corner
    within ``slack`` of its longer side): a printed frame, a court panel or a pip field found
    inside a card, never a card of its own (two cards' outlines overlap, and neither holds the other).

    >>> card = np.array([[0, 0], [100, 0], [100, 140], [0, 140]], np.float32)
    >>> panel = np.array([[12, 16], [88, 16], [88, 124], [12, 124]], np.float32)
    >>> fanned = card + np.float32([33, 0])
    >>> within_outline(panel, card), within_outline(card, panel), within_outline(fanned, card)
    (True, False, False)
    """
    outer = np.asarray(outer, np.float32).reshape(-1, 1, 2)
    inner = np.asarray(inner, np.float32).reshape(-1, 2)
    if cv2.contourArea(inner.reshape(-1, 1, 2)) >= cv2.contourArea(outer):
        return False
    longer = max(float(np.linalg.norm(outer[(k + 1) % len(outer), 0] - outer[k, 0])) for k in range(len(outer)))
    reach = -slack * max(longer, 1.0)
    return all(cv2.pointPolygonTest(outer, (float(x), float(y)), True) >= reach for x, y in inner)


def _same_quad(a: np.ndarray, b: np.ndarray) -> bool:
    scale = max(float(np.linalg.norm(a[2] - a[0])), 1.0)
    return float(np.abs(a.mean(axis=0) - b.mean(axis=0)).max()) < 0.1 * scale and \
        abs(cv2.contourArea(a) - cv2.contourArea(b)) < 0.2 * cv2.contourArea(a)


def warp_face(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The card inside ``quad`` (from :func:`card_quads`) stretched to the face reader's square."""
    square = np.array([[0, 0], [FACE_PX, 0], [FACE_PX, FACE_PX], [0, FACE_PX]], np.float32)
    matrix = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), square)
    return cv2.warpPerspective(image, matrix, (FACE_PX, FACE_PX), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


class FaceReader:
    """``face.onnx`` run on card faces: :meth:`probabilities` of the 54 cards and "not a face"."""

    def __init__(self, session: InferenceSession) -> None:
        self._session = session
        self._input = session.get_inputs()[0].name

    def probabilities(self, faces_bgr: np.ndarray) -> np.ndarray:
        """N×55 probabilities of N BGR uint8 faces (N×FACE_PX×FACE_PX×3)."""
        if len(faces_bgr) == 0:
            return np.zeros((0, 55), np.float32)
        blob = np.ascontiguousarray(faces_bgr.transpose(0, 3, 1, 2), dtype=np.float32) * np.float32(1 / 255.0)
        return np.asarray(self._session.run(None, {self._input: blob})[0], np.float32)

    def read_both_ways(self, faces_bgr: np.ndarray, sure: float = 0.9) -> np.ndarray:
        """:meth:`probabilities`, where a face reads less surely than ``sure`` averaged with its
        read turned upside down (a card reads the same either way up)."""
        probs = self.probabilities(faces_bgr)
        again = probs.max(axis=1) < sure
        if again.any():
            probs[again] = (probs[again] + self.probabilities(np.ascontiguousarray(faces_bgr[again][:, ::-1, ::-1]))) / 2
        return probs
