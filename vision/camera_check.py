"""Is this camera set up to read cards? (``tuolaji check-camera``, and the page's camera check.)

From one frame of the table with a few cards face up on it: the picture's size, whether
the table was found, how tall the cards' corner indices are in the picture, how bright
the table is, and what to change. The reader reads an index of 22 px or more almost
always right, 16-22 px mostly, and under 14 px seldom (measured on the project's
validation crops, see models/README.md).

>>> advice_for(index_px=9.0, brightness=120.0, glare=0.0, table_found=True, size=(640, 480))[0]
'too-small'
>>> advice_for(index_px=26.0, brightness=120.0, glare=0.0, table_found=True, size=(1920, 1080))
('good', [])

Where no corner index is read at all, the check looks for the cards themselves: bright, card-shaped
patches of paper on the cloth (:func:`card_shapes`). Cards lying there unread are another verdict than
an empty table: their indices are too small or too faint at this resolution.

>>> advice_for(index_px=None, brightness=200.0, glare=0.0, table_found=True, size=(640, 480), shapes=4)[0]
'unreadable'
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

if TYPE_CHECKING:
    from tuolaji.vision.zone_reading import CardReaderLike

GOOD_INDEX_PX = 20.0
"""From this index height (pixels of the camera's picture) reads are reliable."""
SMALLEST_INDEX_PX = 14.0
"""Under this, most reads fail."""
DARK = 110.0
"""Grey level (0-255) of the cards' paper under which the picture is too dark (the cloth
may be as dark as it likes: the paper around the indices is what is measured)."""
GLARE = 0.04
"""Share of the table's pixels that are blown out (white) from which glare is reported."""
PAPER_ABOVE_CLOTH = 50.0
"""Grey levels by which a card's paper stands above the cloth (the table region's median) ..."""
PAPER_GREY = 140.0
"""... and the least grey level of paper, whatever the cloth ..."""
PAPER_SATURATION = 70
"""... and the most saturation (0-255) of white paper under coloured light."""
CARD_SHAPE_AREA = 0.005
"""A patch of paper is a card (or cards lying on each other) from this share of the table region (a
card is about 0.015 of a table that fills a 640×480 picture) ..."""
CARD_SHAPE_FILL = 0.7
"""... that fills at least this share of its smallest enclosing rectangle (a hand holding a card, a
court picture's white parts fill less) ..."""
CARD_SHAPE_ASPECT = 2.2
"""... and is at most this much longer than wide (a card is 1.4, a pair fanned near square)."""
SURE_CARD = 0.6
"""A card read at least this surely counts when the two index layouts' readers are compared ..."""
BESIDE_FACTOR = (2, 2)
"""... and the deck is taken to print its suits beside its ranks when the reader of such decks reads
at least ``a × n + b`` sure cards where the ordinary reader reads ``n`` (and 3 at least): on 10
held-out drawn scenes of such decks it says so for 8; on 10 ordinary ones and 20 real photos, for none
(models/README.md, session 23)."""


@dataclass(frozen=True)
class CameraCheck:
    """What one frame says about a camera set-up."""

    size: tuple[int, int]
    table_found: bool
    cards: int
    index_px: float | None  # median height of the corner indices read (longer box side), None without any
    brightness: float  # of the cards' paper (the table's brightest without cards)
    glare: float
    verdict: str  # good, marginal, too-small, unreadable (cards seen, no corner read), no-cards
    advice: list[str] = field(default_factory=list)
    suits_beside: bool = False  # the cards read far better as a deck printing its suits beside its ranks
    shapes: int = 0  # card-shaped patches of paper seen on the table (looked for only where no corner was read)

    def to_json(self) -> dict[str, Any]:
        return {"size": list(self.size), "table_found": self.table_found, "cards": self.cards,
                "index_px": None if self.index_px is None else round(self.index_px, 1),
                "brightness": round(self.brightness, 1), "glare": round(self.glare, 4),
                "verdict": self.verdict, "advice": list(self.advice), "suits_beside": self.suits_beside,
                "shapes": self.shapes}

    def report(self) -> str:
        index = "no corner index found" if self.index_px is None else f"corner indices {self.index_px:.0f} px tall"
        if self.index_px is None and self.shapes:
            index += f" on {self.shapes} card-shaped patch(es) of paper"
        lines = [f"picture {self.size[0]}x{self.size[1]}, table {'found' if self.table_found else 'not found'}, "
                 f"{self.cards} card(s) read, {index}, brightness {self.brightness:.0f}/255: {self.verdict}"]
        lines += [f"- {line}" for line in self.advice]
        return "\n".join(lines)


ADVICE_TEXT: dict[str, str] = {
    "no-cards": "no card corner was found: lay a few cards face up in the seat zones and check again",
    "unreadable": "cards lie on the table ({shapes} seen) but none of their corners could be read: at "
                  "{width}x{height} their indices are too small or too faint; open the camera at a higher "
                  "resolution (--camera-size 1920x1080 or more) or bring it closer",
    "resolution": "indices are {index_px:.0f} px tall, {good_px:.0f} px are needed: open the camera at "
                  "a higher resolution (--camera-size 1920x1080 or more)",
    "closer": "or bring the camera {closer:.1f}x closer (lower it until the table just fills the picture)",
    "dark": "the table is dark: more light over it (a lamp above, not beside, the table)",
    "glare": "there is glare: move the lamp or tilt the camera so no light reflects off the cards",
    "no-table": "the table's edges were not found: the whole picture is used; frame the table with some "
                "floor or room around it, or give its corners",
    "suits-beside": "the cards seem to print each suit beside its rank (10♥ on one line): read them with "
                    "--index-layout horizontal, or enrol the deck",
}
"""The advice in English, by code; ``{name}`` fields come from :func:`advice_codes` (the page words them in Chinese)."""


def advice_codes(*, index_px: float | None, brightness: float, glare: float, table_found: bool,
                 size: tuple[int, int], suits_beside: bool = False,
                 shapes: int = 0) -> tuple[str, list[tuple[str, dict[str, float]]]]:
    """The verdict and what to change, as codes of :data:`ADVICE_TEXT` with their figures (``shapes``:
    card-shaped patches of paper seen on the table, :func:`card_shapes`).

    >>> advice_codes(index_px=10.0, brightness=90.0, glare=0.0, table_found=True, size=(640, 480))[1][1]
    ('closer', {'closer': 2.0})
    >>> advice_codes(index_px=None, brightness=200.0, glare=0.0, table_found=True, size=(640, 480), shapes=3)
    ('unreadable', [('unreadable', {'shapes': 3, 'width': 640, 'height': 480})])
    """
    advice: list[tuple[str, dict[str, float]]] = []
    if index_px is None and shapes > 0:
        verdict = "unreadable"
        advice.append(("unreadable", {"shapes": shapes, "width": size[0], "height": size[1]}))
    elif index_px is None:
        verdict = "no-cards"
        advice.append(("no-cards", {}))
    elif index_px < SMALLEST_INDEX_PX:
        verdict = "too-small"
    elif index_px < GOOD_INDEX_PX:
        verdict = "marginal"
    else:
        verdict = "good"
    if verdict in ("too-small", "marginal"):
        want = GOOD_INDEX_PX / max(index_px or 1.0, 1.0)
        if size[0] < 1920:
            advice.append(("resolution", {"index_px": float(index_px or 0.0), "good_px": GOOD_INDEX_PX}))
        advice.append(("closer", {"closer": round(want, 1)}))
    if brightness < DARK:
        advice.append(("dark", {}))
    if glare > GLARE:
        advice.append(("glare", {}))
    if not table_found:
        advice.append(("no-table", {}))
    if suits_beside:
        advice.append(("suits-beside", {}))
    if verdict == "good" and advice:
        verdict = "marginal"
    return verdict, advice


def advice_for(*, index_px: float | None, brightness: float, glare: float, table_found: bool,
               size: tuple[int, int], suits_beside: bool = False, shapes: int = 0) -> tuple[str, list[str]]:
    """The verdict and what to change."""
    verdict, codes = advice_codes(index_px=index_px, brightness=brightness, glare=glare, table_found=table_found,
                                  size=size, suits_beside=suits_beside, shapes=shapes)
    return verdict, [ADVICE_TEXT[code].format(**values) for code, values in codes]


def check_frame(image: np.ndarray, reader: CardReaderLike, players: int = 4,
                beside_reader: CardReaderLike | None = None) -> CameraCheck:
    """Check one BGR frame with ``reader`` (a :class:`vision.detector.CardReader`); with ``beside_reader``
    (the reader of decks printing their suits beside their ranks, ``models/horizontal/``) also whether the
    cards read far better so (:data:`BESIDE_FACTOR`), to say so; the cards, their indices' size and the light
    are then those that reader reads, so the check does not also say no card was found."""
    from tuolaji.vision.calibration import CalibrationError, SeatZones, TableCalibration, calibrate
    from tuolaji.vision.zone_reading import ZONE_READ_ABOVE, read_zones

    h, w = image.shape[:2]
    try:
        calibration = calibrate(image)
        table_found = True
    except CalibrationError:
        calibration = TableCalibration.full_frame((w, h))
        table_found = False
    def read(with_reader: CardReaderLike) -> list[Any]:
        if w > ZONE_READ_ABOVE:  # as the table pipeline reads a camera's full-resolution frames: zone by zone
            return list(read_zones(with_reader, image, calibration, SeatZones(players)))
        return list(with_reader.read(image))

    cards = read(reader)
    suits_beside = False
    if beside_reader is not None:
        beside_cards = read(beside_reader)
        plain = sum(card.confidence >= SURE_CARD for card in cards)
        beside = sum(card.confidence >= SURE_CARD for card in beside_cards)
        suits_beside = beside >= max(3, BESIDE_FACTOR[0] * plain + BESIDE_FACTOR[1])
        if suits_beside:  # the sizes and the light are judged on the cards as the advised reader reads them
            cards = beside_cards
    heights = [max(i.box[2] - i.box[0], i.box[3] - i.box[1]) for c in cards for i in c.indices]
    index_px = float(np.median(heights)) if heights else None
    mask = calibration.mask(image.shape)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    table = grey[mask > 0] if mask.any() else grey.ravel()
    papers = []
    for card in cards:
        for index in card.indices:
            x1, y1, x2, y2 = (int(round(v)) for v in index.box)
            patch = grey[max(0, y1):max(0, y2), max(0, x1):max(0, x2)]
            if patch.size:
                papers.append(float(np.percentile(patch, 75)))  # an index box is mostly paper
    brightness = float(np.median(papers)) if papers else float(np.percentile(table, 99))
    glare = float((table >= 250).mean())
    shapes = card_shapes(image, mask) if index_px is None else 0
    verdict, advice = advice_for(index_px=index_px, brightness=brightness, glare=glare, table_found=table_found, size=(w, h),
                                 suits_beside=suits_beside, shapes=shapes)
    return CameraCheck((w, h), table_found, len(cards), index_px, brightness, glare, verdict, advice, suits_beside,
                       shapes)


def card_shapes(image: np.ndarray, table: np.ndarray | None = None) -> int:
    """How many card-shaped patches of paper lie in ``image`` (BGR), within the table region ``table``
    (a mask, 255 inside; the whole picture without it): connected regions brighter than the cloth by
    :data:`PAPER_ABOVE_CLOTH`, nearly colourless, of a card's size and shape (a card, or cards lying on
    each other, count once). Nothing is read: this says that cards lie there, not which.

    >>> cloth = np.full((240, 320, 3), (40, 110, 40), np.uint8)
    >>> card_shapes(cloth)
    0
    >>> _ = cv2.rectangle(cloth, (100, 60), (150, 130), (235, 235, 235), -1)
    >>> card_shapes(cloth)
    1
    """
    region = np.full(image.shape[:2], 255, np.uint8) if table is None else table
    inside = region > 0
    if not inside.any():
        return 0
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    saturation = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)[..., 1]
    cloth = float(np.median(grey[inside]))
    paper = (grey > max(PAPER_GREY, cloth + PAPER_ABOVE_CLOTH)) & (saturation < PAPER_SATURATION) & inside
    paper_mask = cv2.morphologyEx(paper.astype(np.uint8) * 255, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(paper_mask)
    least = CARD_SHAPE_AREA * float(inside.sum())
    shapes = 0
    for k in range(1, count):
        area = float(stats[k, cv2.CC_STAT_AREA])
        if area < least:
            continue
        points = np.column_stack(np.nonzero(labels == k))[:, ::-1].astype(np.float32)
        _, (width, height), _ = cv2.minAreaRect(points)
        if area >= CARD_SHAPE_FILL * width * height and max(width, height) <= CARD_SHAPE_ASPECT * max(min(width, height), 1.0):
            shapes += 1
    return shapes


class UnreadCardsWatch:
    """Whether cards lie on a running table that the reader cannot read: :attr:`warning` is
    ``"unreadable"`` while, of the recent reads (one every ``every_s`` at most, the last ``window``)
    that saw cards on the table, at least ``least`` did and ``share`` of them read no corner index of
    any card; it clears once most of them read corners again. A read that reads corners saw cards; one
    that reads none looks for the cards themselves (:func:`card_shapes`). A table whose indices are too
    small or too faint for its camera then says so while the game goes on, instead of recording
    nothing, or a few stray reads, in silence.

    >>> cloth = np.full((240, 320, 3), (40, 110, 40), np.uint8)
    >>> _ = cv2.rectangle(cloth, (100, 60), (150, 130), (235, 235, 235), -1)
    >>> watch = UnreadCardsWatch()
    >>> for second in range(0, 12, 2):
    ...     watch.note(float(second), cloth, None, corners_read=0)
    >>> watch.warning
    'unreadable'
    >>> for second in range(12, 24, 2):
    ...     watch.note(float(second), cloth, None, corners_read=3)
    >>> watch.warning is None
    True
    """

    LOOK_WIDTH = 640
    """Frames are looked at no wider than this (a card is still hundreds of pixels)."""

    def __init__(self, every_s: float = 2.0, window: int = 8, least: int = 4, share: float = 0.8) -> None:
        self.every_s, self.least, self.share = every_s, least, share
        self.checks: deque[bool] = deque(maxlen=window)  # of the recent reads that saw cards: whether corners were read
        self.warning: str | None = None
        self._last: float | None = None

    def note(self, now: float, image: np.ndarray, table: np.ndarray | None, corners_read: int) -> None:
        """One read of the table at ``now`` (seconds): the frame (BGR), the table region's mask (255 inside, or
        None: the whole frame) and how many corner indices the reader read in it."""
        if self._last is not None and now - self._last < self.every_s:
            return
        self._last = now
        if corners_read:
            self.checks.append(True)
        else:
            scale = min(1.0, self.LOOK_WIDTH / image.shape[1])
            if scale < 1.0:
                image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
                table = None if table is None else cv2.resize(table, (image.shape[1], image.shape[0]),
                                                              interpolation=cv2.INTER_NEAREST)
            if card_shapes(image, table) == 0:
                return  # an empty table: nothing to read
            self.checks.append(False)
        unread = sum(not read for read in self.checks)
        if len(self.checks) >= self.least and unread >= self.share * len(self.checks):
            self.warning = "unreadable"
        elif unread * 2 < len(self.checks):
            self.warning = None
