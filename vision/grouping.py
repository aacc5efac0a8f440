"""From corner indices to physical cards: NMS of the detector's boxes, then the indices of one
card grouped (:func:`group_indices`) by the geometry of its corners, with the tuned constants
that decide which pairs may join (how they were chosen: ``models/README.md``).

Pairs of one card: the same card (the same name, or names both readings' probabilities allow;
the card is then read from all of them), opposite directions a card's height or diagonal apart
(2- and 4-corner decks), or the same direction a card's width apart, a left-hand corner and a
right-hand one (the top corners of 4-corner decks). Fanned identical cards show only left-hand
corners, a fan offset apart with the same direction, so two identical cards side by side stay two.
"""

from __future__ import annotations

import functools
import math
import operator

import numpy as np

from tuolaji.scorer.cards import CARD_NAMES, JOKERS
from tuolaji.vision.readings import Box, CardInstance, IndexReading, union_box


def nms(boxes: np.ndarray, scores: np.ndarray, iou: float) -> np.ndarray:
    """Indices of the boxes kept by greedy non-maximum suppression, best first.

    >>> b = np.array([[0, 0, 10, 10], [1, 1, 10, 10], [20, 20, 30, 30]], float)
    >>> nms(b, np.array([0.9, 0.8, 0.7]), 0.5).tolist()
    [0, 2]
    """
    x1, y1, x2, y2 = boxes.T
    areas = (x2 - x1).clip(0) * (y2 - y1).clip(0)
    order = scores.argsort()[::-1]
    keep = []
    while order.size:
        i = order[0]
        keep.append(i)
        rest = order[1:]
        w = (np.minimum(x2[i], x2[rest]) - np.maximum(x1[i], x1[rest])).clip(0)
        h = (np.minimum(y2[i], y2[rest]) - np.maximum(y1[i], y1[rest])).clip(0)
        inter = w * h
        overlap = inter / np.maximum(areas[i] + areas[rest] - inter, 1e-9)
        order = rest[overlap <= iou]
    return np.array(keep, dtype=np.int64)


# ------------------------------------------------------------ grouping

def index_size(reading: IndexReading) -> float:
    """Side of the (unrotated) index patch, undoing the growth of a rotated axis-aligned box.

    >>> round(index_size(IndexReading("7H", (0, 0, 10, 16), 0.9, 0.0)), 2)
    12.65
    """
    x1, y1, x2, y2 = reading.box
    a = math.radians(reading.angle_deg)
    grow = abs(math.cos(a)) + abs(math.sin(a))
    return max(1.0, math.sqrt(max(x2 - x1, 1.0) * max(y2 - y1, 1.0)) / grow)


def up_vector(reading: IndexReading) -> np.ndarray:
    """The unit vector (image x, y) towards the top of ``reading``'s card.

    >>> up_vector(IndexReading("7H", (0, 0, 10, 16), 0.9, 90.0)).round(6).tolist()
    [1.0, -0.0]
    """
    a = math.radians(reading.angle_deg)
    return np.array([math.sin(a), -math.cos(a)])


def _offset(a: IndexReading, b: IndexReading) -> tuple[float, float]:
    """Where b lies in a's card frame (x to the card's right, y to its bottom), in index sizes."""
    ua = up_vector(a)
    size = (index_size(a) + index_size(b)) / 2
    d = np.subtract(b.centre, a.centre)
    right = np.array([-ua[1], ua[0]])
    return float(d @ right) / size, float(d @ -ua) / size


def _opposite_offset(a: IndexReading, b: IndexReading) -> tuple[float, float]:
    """(down, across): where b lies from a, in index sizes, in the frame of a pair of opposite
    corners (down along a's up-vector minus b's)."""
    axis = up_vector(a) - up_vector(b)
    axis /= max(float(np.linalg.norm(axis)), 1e-9)
    size = (index_size(a) + index_size(b)) / 2
    d = np.subtract(b.centre, a.centre)
    return float(d @ -axis) / size, float(d @ np.array([-axis[1], axis[0]])) / size


OPPOSITE_DOT = -0.65
"""Up-vectors of two corners of one card point opposite ways: their dot product is at most this
(within 50° of opposite, room for the classifier's direction errors)."""
VERTICAL_RATIO = 0.3
"""Across / down offset below which two opposite corners are one above the other (4-corner decks).
This and ``DIAGONAL_RATIO`` are wider than the decks' exact geometry, for the errors of the
read directions (chosen on the tuning set: models/README.md)."""
DIAGONAL_RATIO = (0.4, 1.7)
"""Across / down offsets of diagonal corners, widened for the errors of the directions."""
WIDE_DIAGONAL_FROM = VERTICAL_RATIO
"""... from this for a deck printing its suits beside its ranks (``wide``): its wider indices sit
further in from the card's sides, so its diagonal is steeper (0.38 measured on a held-out tuning
design's 4-corner card), and nothing lies between one above the other and diagonal."""


def pair_kind(a: IndexReading, b: IndexReading, wide: bool = False) -> str | None:
    """"vertical" or "diagonal" when two indices can be opposite corners of one card,
    "level" when they can be its two top (or two bottom) corners, else None.

    Corner indices of one card face opposite ways (the bottom ones are printed upside
    down), and each sees the other *below* itself in the card's frame: straight below
    (top-left/bottom-left of a 4-corner deck) or down a diagonal (top-left/bottom-right).
    Fanned identical cards face the same way, so they never pair. The card's frame is
    the mean of the two readings' directions, which halves their independent errors.

    >>> a = IndexReading("7H", (0, 0, 10, 16), 0.9, 0.0)
    >>> pair_kind(a, IndexReading("7H", (40, 70, 50, 86), 0.9, 180.0))
    'diagonal'
    >>> pair_kind(a, IndexReading("7H", (15, 0, 25, 16), 0.9, 0.0)) is None
    True

    Two same-facing corners level with each other are the top corners of a 4-corner card
    only if the classifier read the left one as a left-hand corner and the right one as a
    right-hand corner (fanned identical cards show left-hand corners only):

    >>> left = IndexReading("7H", (0, 0, 10, 16), 0.9, 0.0, side=0.05)
    >>> pair_kind(left, IndexReading("7H", (40, 0, 50, 16), 0.9, 0.0, side=0.95))
    'level'
    >>> pair_kind(left, IndexReading("7H", (40, 0, 50, 16), 0.9, 0.0, side=0.1)) is None
    True
    """
    if not may_be_same_card(a, b):
        return None
    ua, ub = up_vector(a), up_vector(b)
    if float(ua @ ub) >= LEVEL_DOT:
        return "level" if _level_pair(a, b) else None
    if float(ua @ ub) > OPPOSITE_DOT:
        return None
    down, across = _opposite_offset(a, b)
    if not 1.2 <= down <= 14.0:
        return None
    ratio = abs(across) / down
    if ratio < VERTICAL_RATIO:
        return "vertical"
    if (WIDE_DIAGONAL_FROM if wide else DIAGONAL_RATIO[0]) <= ratio <= DIAGONAL_RATIO[1]:
        return "diagonal"
    return None


DIAGONAL_EXPECTED = 0.79
"""Across / down offset of the diagonal corners of a card: the median on the tuning set (a poker
card's index centres give about 0.76, a bridge card's 0.68)."""
VERTICAL_SPREAD = 0.12
"""The across / down offset of a vertical pair (median 0.05 on the tuning set) counts against
it in units of this ..."""
DIAGONAL_SPREAD = 0.12
"""... and a diagonal pair's distance from ``DIAGONAL_EXPECTED`` in units of this (chosen by card
F1 on the tuning set: models/README.md)."""


def pair_cost(a: IndexReading, b: IndexReading, kind: str) -> float:
    """The order in which index pairs join (cheapest first): their distance in index sizes,
    plus, for opposite corners, how far their offset is from a card's.

    Two identical cards fanned side by side offer crossed pairs (the bottom corner of one
    with the top corner of the other): for 2-corner decks the crossed diagonal is even the
    shorter one, but its slope is off a card's by the fan's spread.

    >>> tl, br = IndexReading("7H", (0, 0, 10, 16), 0.9, 0.0), IndexReading("7H", (40, 70, 50, 86), 0.9, 180.0)
    >>> fanned_tl = IndexReading("7H", (18, 0, 28, 16), 0.9, 0.0)
    >>> pair_cost(tl, br, "diagonal") < pair_cost(fanned_tl, br, "diagonal")
    True
    >>> math.dist(tl.centre, br.centre) > math.dist(fanned_tl.centre, br.centre)
    True
    """
    cost = math.dist(a.centre, b.centre) / ((index_size(a) + index_size(b)) / 2)
    if kind in ("vertical", "diagonal"):
        down, across = _opposite_offset(a, b)
        ratio = abs(across) / max(down, 1e-9)
        cost += ratio / VERTICAL_SPREAD if kind == "vertical" else abs(ratio - DIAGONAL_EXPECTED) / DIAGONAL_SPREAD
    return cost


SAME_CARD_JOINT = 0.02
"""Two readings of different names may still be one card's corners when, for some card,
the product of their probabilities is at least this ..."""
SAME_CARD_EACH = 0.1
"""... and each gives that card at least this probability (chosen by card F1 on the tuning set)."""


def may_be_same_card(a: IndexReading, b: IndexReading) -> bool:
    """True when a and b read the same card, or (both with probabilities) could both be
    reads of one card: a blurred corner read 9♠ at 0.6 and 9♣ at 0.35 may be the other
    corner of a sharp 9♣.

    >>> p = np.zeros(54); p[CARD_NAMES.index("9S")], p[CARD_NAMES.index("9C")] = 0.6, 0.4
    >>> q = np.zeros(54); q[CARD_NAMES.index("9C")] = 1.0
    >>> a, b = IndexReading("9S", (0, 0, 10, 16), 0.6, 0.0, probs=p), IndexReading("9C", (40, 70, 50, 86), 0.9, 180.0, probs=q)
    >>> may_be_same_card(a, b), may_be_same_card(a, IndexReading("9C", (40, 70, 50, 86), 0.9, 180.0))
    (True, False)
    """
    if a.card == b.card:
        return True
    if a.probs is None or b.probs is None:
        return False
    joint = a.probs * b.probs
    k = int(joint.argmax())
    return bool(joint[k] >= SAME_CARD_JOINT and a.probs[k] >= SAME_CARD_EACH and b.probs[k] >= SAME_CARD_EACH)


def fused_card(group: tuple[IndexReading, ...]) -> str:
    """The card a group of readings of one physical card shows: the most probable one
    given all their probabilities (independent reads: the product), else the surest name.

    >>> p = np.full(54, 0.1 / 53); p[CARD_NAMES.index("9S")] = 0.9
    >>> q = np.full(54, 0.05 / 52); q[CARD_NAMES.index("9S")], q[CARD_NAMES.index("9C")] = 0.3, 0.65
    >>> fused_card((IndexReading("9C", (0, 0, 10, 16), 0.65, 0.0, probs=q), IndexReading("9S", (40, 70, 50, 86), 0.9, 180.0, probs=p)))
    '9S'
    """
    if len({r.card for r in group}) == 1 or any(r.probs is None for r in group):
        return max(group, key=lambda r: r.confidence).card
    log_p: np.ndarray = functools.reduce(operator.add, [np.log(r.probs + 1e-6) for r in group if r.probs is not None])
    return CARD_NAMES[int(log_p.argmax())]


LEVEL_DOT = 0.8
"""Up-vectors of two same-facing corners: their dot product is at least this (within 37°)."""
SIDE_SURE = 0.75
"""A reading is taken for a right-hand corner at this side probability or more, for a
left-hand one at 1 minus this or less; in between (or unread: NaN) it pairs only with
opposite corners."""
LEVEL_ACROSS = (1.2, 6.0)
"""Index sizes from the left-hand to the right-hand top corner of a 4-corner card."""
LEVEL_SLOPE = 0.3
"""Most drop (down / across, in the pair's mean frame) between two level corners."""


def _level_pair(a: IndexReading, b: IndexReading) -> bool:
    """True when a and b (same-facing) are a left-hand and a right-hand corner, level, the
    right-hand one a card's width to the right of the other."""
    if a.side <= 1 - SIDE_SURE and b.side >= SIDE_SURE:
        left, right = a, b
    elif b.side <= 1 - SIDE_SURE and a.side >= SIDE_SURE:
        left, right = b, a
    else:
        return False
    up = up_vector(left) + up_vector(right)
    up /= max(float(np.linalg.norm(up)), 1e-9)
    size = (index_size(left) + index_size(right)) / 2
    d = np.subtract(right.centre, left.centre)
    across = float(d @ np.array([-up[1], up[0]])) / size
    down = float(d @ -up) / size
    return LEVEL_ACROSS[0] <= across <= LEVEL_ACROSS[1] and abs(down) <= LEVEL_SLOPE * across


FAN_OVERLAP = 0.25
"""Fanned cards' indices all show (``docs/TABLE.md``): two boxes sharing this much of the smaller
one are one index boxed twice, not two fanned cards."""
FAN_WIDTH = 0.5
"""Two level, same-facing indices closer than this fraction of their card outline's width are
on two fanned cards (one card's two top corners are most of its width apart)."""
FAN_ALIKE = 1.5
"""Identical fanned cards' indices are boxed alike: width and height within this factor."""


def _alike(a: Box, b: Box) -> bool:
    sides = [(max(a[k + 2] - a[k], 1e-6), max(b[k + 2] - b[k], 1e-6)) for k in (0, 1)]
    return all(max(p, q) <= FAN_ALIKE * min(p, q) for p, q in sides)


def fanned_side_by_side(a: IndexReading, b: IndexReading, outline: np.ndarray) -> bool:
    """True when a and b are the same corner of two fanned cards that lie inside one ``outline``
    (an N×2 polygon, frame pixels): facing the same way, level rather than one below the other,
    their boxes alike and apart, and closer than ``FAN_WIDTH`` of the outline's width across them.

    The face reader may find one outline around two identical fanned cards (a pair) and read
    it surely as that card; their corners must not be joined into one card.

    >>> outline = np.array([[0, 0], [60, 0], [60, 90], [0, 90]], float)
    >>> a = IndexReading("7H", (2, 2, 10, 18), 0.9, 0.0)
    >>> fanned_side_by_side(a, IndexReading("7H", (14, 2, 22, 18), 0.9, 0.0), outline)
    True
    >>> fanned_side_by_side(a, IndexReading("7H", (48, 2, 56, 18), 0.9, 0.0), outline)  # the top corners of one card
    False
    >>> fanned_side_by_side(a, IndexReading("7H", (5, 4, 13, 20), 0.9, 0.0), outline)  # one index boxed twice
    False
    >>> fanned_side_by_side(a, IndexReading("7H", (14, 8, 40, 16), 0.9, 0.0), outline)  # a glyph column read sideways
    False
    """
    up = up_vector(a)
    if float(up @ up_vector(b)) < LEVEL_DOT or _overlap_of_smaller(a.box, b.box) >= FAN_OVERLAP or not _alike(a.box, b.box):
        return False
    right = np.array([-up[1], up[0]])
    d = np.subtract(b.centre, a.centre)
    across, down = abs(float(d @ right)), abs(float(d @ up))
    spread = np.asarray(outline, float).reshape(-1, 2) @ right
    return down <= across < FAN_WIDTH * float(spread.max() - spread.min())


def _one_card(a: IndexReading, b: IndexReading, wide: bool = False) -> bool:
    """False when a and b cannot be two corners of one card: read as cards neither could be
    (:func:`may_be_same_card`), facing across each other, or facing opposite ways where no
    opposite corners could lie.

    Read corner sides only ever join corners (:func:`_level_pair`), never part them: one
    misread side must not split a whole card in two.
    """
    return may_be_same_card(a, b) and (float(up_vector(a) @ up_vector(b)) >= LEVEL_DOT or pair_kind(a, b, wide) is not None)


TOP_CORNERS_ACROSS = 0.55
"""The two top (or bottom) corner indices of one card lie at least this many of its card heights
apart (the height, too, from index centre to index centre) ..."""
WIDE_TOP_CORNERS_ACROSS = 0.4
"""... and this many for a deck printing its suits beside its ranks (``wide``): its wider indices sit
further in from the card's sides (measured 0.49 on a held-out tuning design's 4-corner card)."""


def _fanned_apart(a: IndexReading, b: IndexReading, card_height: float, wide: bool = False) -> bool:
    """True when a and b face the same way but cannot be two top (or bottom) corners of one
    card ``card_height`` index sizes tall: closer than a card's width, or one below the other."""
    if float(up_vector(a) @ up_vector(b)) < 0.8:
        return False
    dx, dy = _offset(a, b)
    return abs(dx) < (WIDE_TOP_CORNERS_ACROSS if wide else TOP_CORNERS_ACROSS) * card_height or abs(dy) > 0.4 * card_height


def _index_between(a: IndexReading, b: IndexReading, readings: list[IndexReading]) -> bool:
    """True when a and b face the same way and another index facing that way lies between them.

    Two same-facing corners of one card (top-left and top-right of a 4-corner deck) have
    the card's edge between them; an index of another card there would lie on top of
    that edge, and the card laid over it (``docs/TABLE.md``: fans overlap to the right) hides
    the far corner. So of three fanned identical cards, the outer two never pair. Only a
    reading at least half as sure as the less sure of a and b counts (a pip misread as an
    index must not split a card).
    """
    if float(up_vector(a) @ up_vector(b)) < 0.8:
        return False
    start, end = np.array(a.centre), np.array(b.centre)
    span = end - start
    length2 = float(span @ span)
    if length2 <= 0:
        return False
    size = (index_size(a) + index_size(b)) / 2
    least = 0.5 * min(a.confidence, b.confidence)
    for r in readings:
        if r is a or r is b or r.confidence < least or float(up_vector(r) @ up_vector(a)) < 0.8:
            continue
        d = np.array(r.centre) - start
        t = float(d @ span) / length2
        if 0.15 < t < 0.85 and abs(float(d[0] * span[1] - d[1] * span[0])) / math.sqrt(length2) < size:
            return True
    return False


DUPLICATE_OVERLAP = 0.55
"""Two same-named, same-facing readings whose boxes share this much of the smaller one are one index."""


def _overlap_of_smaller(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return w * h / max(smaller, 1e-9)


CROSSWISE_INSIDE = 0.8
"""A reading's box holding this much of a smaller same-named reading's box facing a quarter turn
away is a glyph column read sideways (:func:`drop_duplicate_reads`)."""


def _spans_index_crosswise(reading: IndexReading, readings: list[IndexReading]) -> bool:
    area = _area(reading.box)
    return any(other is not reading and other.card == reading.card and _area(other.box) < area
               and abs(float(up_vector(other) @ up_vector(reading))) < 0.5
               and _overlap_of_smaller(other.box, reading.box) >= CROSSWISE_INSIDE for other in readings)


def _area(box: tuple[float, float, float, float]) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


OTHER_FACING_OVERLAP = 0.25
"""Two same-named readings facing different ways whose boxes share this much of the smaller one
are one column of glyphs read twice (no two cards' indices lie across each other on a table)."""


def _same_index(kept: IndexReading, reading: IndexReading, spacing: float) -> bool:
    overlap = _overlap_of_smaller(kept.box, reading.box)
    if float(up_vector(kept) @ up_vector(reading)) <= 0.7:
        return overlap >= OTHER_FACING_OVERLAP
    return overlap >= DUPLICATE_OVERLAP or math.dist(kept.centre, reading.centre) < spacing * (index_size(kept) + index_size(reading)) / 2


def drop_duplicate_reads(readings: list[IndexReading], spacing: float = 0.0) -> list[IndexReading]:
    """The readings without second detections of one index (most confident kept).

    The detector sometimes boxes one index twice (the rank alone and rank + suit) with
    too little overlap for NMS; both read the same card the same way up. Fanned
    identical cards leave each index visible (``docs/TABLE.md``), so theirs overlap less.
    ``spacing`` > 0 also takes same-named, same-facing readings whose centres are closer
    than that many index sizes for one index: on a table laid by ``docs/TABLE.md`` no two
    visible indices are closer than an index's width. A reading whose box holds a smaller
    same-named one facing a quarter turn away is dropped too: a long column of glyphs (a
    joker's JOKER running down the card's edge) boxed along its length and read sideways,
    over the real index inside it; and so is a same-named reading facing another way whose box
    shares a quarter of its box with a more confident one (a long column read from both ends).

    >>> a = IndexReading("7H", (0, 0, 10, 16), 0.9, 0.0)
    >>> len(drop_duplicate_reads([a, IndexReading("7H", (1, 3, 10, 20), 0.8, 5.0)]))
    1
    >>> len(drop_duplicate_reads([a, IndexReading("7H", (8, 0, 18, 16), 0.8, 0.0)]))
    2
    >>> len(drop_duplicate_reads([a, IndexReading("7H", (6, 0, 16, 16), 0.3, 0.0)], spacing=0.75))
    1
    >>> strip = IndexReading("BJ", (0, 0, 12, 60), 0.95, 90.0)
    >>> [r.box for r in drop_duplicate_reads([strip, IndexReading("BJ", (1, 2, 11, 30), 0.8, 0.0)])]
    [(1, 2, 11, 30)]
    >>> len(drop_duplicate_reads([a, IndexReading("7H", (0, 10, 10, 26), 0.8, 180.0)]))
    1
    >>> len(drop_duplicate_reads([a, IndexReading("7H", (0, 40, 10, 56), 0.8, 180.0)]))
    2

    With ``spacing`` > 0 (a table laid by ``docs/TABLE.md``), two same-facing boxes of one index
    that read different cards (half of the smaller one shared: :data:`OTHER_NAME_OVERLAP`) are
    one reading of the card both reads make likeliest:

    >>> p = np.zeros(54); p[CARD_NAMES.index("QS")], p[CARD_NAMES.index("QC")] = 0.52, 0.48
    >>> q = np.zeros(54); q[CARD_NAMES.index("QS")], q[CARD_NAMES.index("QC")] = 0.3, 0.7
    >>> [(r.card, r.box) for r in drop_duplicate_reads([IndexReading("QS", (182, 183, 202, 197), 0.52, 90.0, probs=p),
    ...                                                  IndexReading("QC", (183, 189, 203, 204), 0.47, 90.0, probs=q)], spacing=0.75)]
    [('QC', (182, 183, 202, 197))]
    """
    readings = [r for r in readings if not _spans_index_crosswise(r, readings)]
    kept: list[IndexReading] = []
    for reading in sorted(readings, key=lambda r: -r.confidence):
        if any(k.card == reading.card and _same_index(k, reading, spacing) for k in kept):
            continue
        twin = next((i for i, k in enumerate(kept) if _one_index_read_twice(k, reading)), None) if spacing > 0 else None
        if twin is None:
            kept.append(reading)
        else:
            kept[twin] = _read_together(kept[twin], reading)
    return kept


OTHER_NAME_OVERLAP = 0.5
"""Two same-facing readings of different cards whose boxes share this much of the smaller one
are one index boxed twice (:func:`drop_duplicate_reads`): fanned cards leave every index in
view, so no two visible indices lie half over each other."""


def _one_index_read_twice(kept: IndexReading, reading: IndexReading) -> bool:
    return (kept.card != reading.card and kept.probs is not None and reading.probs is not None
            and float(up_vector(kept) @ up_vector(reading)) > 0.7 and _overlap_of_smaller(kept.box, reading.box) >= OTHER_NAME_OVERLAP)


def _read_together(kept: IndexReading, other: IndexReading) -> IndexReading:
    """One index from two boxes of it that read different cards: the surer box, read as the
    likeliest card given both reads (their probabilities averaged)."""
    assert kept.probs is not None and other.probs is not None
    together = (kept.probs + other.probs) / 2
    k = int(together.argmax())
    confidence = kept.confidence * float(together[k]) / max(float(kept.probs[CARD_NAMES.index(kept.card)]), 1e-9)
    return IndexReading(CARD_NAMES[k], kept.box, min(confidence, kept.confidence), kept.angle_deg, kept.side, together)


PIP_BOX_GROWTH = 1.6
"""A reading at least this many times the size of a surer reading whose box it holds is a box
drawn around that index and the pips beside it (:func:`drop_pip_boxes`)."""

OUTSIZED_INDEX = 2.0
"""An unsure reading this many times the median size of the sure ones is not an index (:func:`drop_pip_boxes`)."""

SURE_INDEX = 0.6
"""From this confidence a reading counts as sure when :func:`drop_pip_boxes` measures the indices' size."""


def drop_pip_boxes(readings: list[IndexReading]) -> list[IndexReading]:
    """The readings without boxes drawn around pips (a row of large pips beside an index, read
    as another card).

    On a table laid by ``docs/TABLE.md`` every visible index is about the size of the others
    of its deck, and no index lies inside another. So a reading whose box holds most of a
    smaller, surer reading's box and is :data:`PIP_BOX_GROWTH` times its size is dropped, and so
    is an unsure reading (under :data:`SURE_INDEX`) :data:`OUTSIZED_INDEX` times the median size
    of the sure readings (jokers' tall columns left out of both).

    >>> index = IndexReading("5C", (45, 96, 55, 113), 0.85, 180.0)
    >>> pips = IndexReading("4C", (7, 92, 54, 114), 0.43, 180.0)
    >>> [r.card for r in drop_pip_boxes([index, pips])]
    ['5C']
    >>> others = [IndexReading(c, (x, 0, x + 10, 17), 0.9, 0.0) for c, x in (("AC", 0), ("9H", 50), ("KS", 100))]
    >>> [r.card for r in drop_pip_boxes(others + [IndexReading("4C", (200, 0, 225, 49), 0.52, 0.0)])]
    ['AC', '9H', 'KS']
    >>> [r.card for r in drop_pip_boxes(others + [IndexReading("4C", (200, 0, 225, 49), 0.9, 0.0)])]
    ['AC', '9H', 'KS', '4C']
    """
    sure_sizes = sorted(index_size(r) for r in readings if r.confidence >= SURE_INDEX and r.card not in JOKERS)
    typical = sure_sizes[len(sure_sizes) // 2] if len(sure_sizes) >= 2 else None
    kept = []
    for reading in readings:
        size = index_size(reading)
        if typical is not None and reading.card not in JOKERS and reading.confidence < SURE_INDEX \
                and size >= OUTSIZED_INDEX * typical:
            continue
        if any(other is not reading and other.confidence > reading.confidence
               and size >= PIP_BOX_GROWTH * index_size(other) and _overlap_of_smaller(other.box, reading.box) >= 0.8
               and _area(other.box) < _area(reading.box)
               for other in readings):
            continue
        kept.append(reading)
    return kept


def group_indices(readings: list[IndexReading], spacing: float = 0.0, wide: bool = False) -> list[CardInstance]:
    """Group index readings into physical cards, nearest plausible pairs first (``wide``: the deck
    prints its suits beside its ranks, :data:`WIDE_TOP_CORNERS_ACROSS`).

    A card's name is the most probable one given all its readings (:func:`fused_card`),
    its confidence that at least one of them read it right.

    Each index takes at most one "vertical" and one "diagonal" partner, so of two
    identical fanned cards the top one's bottom index pairs with its own (nearer) top
    index, and the covered card stays a card of its own.

    >>> tl = IndexReading("7H", (0, 0, 10, 16), 0.9, 0.0)
    >>> br = IndexReading("7H", (40, 70, 50, 86), 0.8, 180.0)
    >>> fan = IndexReading("7H", (-15, 0, -5, 16), 0.9, 0.0)
    >>> sorted(len(c.indices) for c in group_indices([tl, br, fan]))
    [1, 2]
    """
    readings = drop_duplicate_reads(drop_pip_boxes(readings), spacing)
    n = len(readings)
    parent = list(range(n))
    size = [1] * n

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    candidates = []
    for i in range(n):
        for j in range(i + 1, n):
            kind = pair_kind(readings[i], readings[j], wide)
            if kind is not None:
                candidates.append((pair_cost(readings[i], readings[j], kind), kind, i, j))
    candidates.sort()
    members: dict[int, list[int]] = {i: [i] for i in range(n)}
    heights: dict[int, float] = {}  # a group's card height (index sizes), known once opposite corners joined it
    taken: set[tuple[int, str]] = set()
    for _dist, kind, i, j in candidates:
        if (i, kind) in taken or (j, kind) in taken:
            continue
        ri, rj = find(i), find(j)
        if ri != rj:
            if size[ri] + size[rj] > 4:
                continue
            if kind == "level":
                height = heights.get(ri, heights.get(rj))
            else:
                height = (_offset(readings[i], readings[j])[1] + _offset(readings[j], readings[i])[1]) / 2
            if any(not _one_card(readings[p], readings[q], wide)
                   or (height is not None and _fanned_apart(readings[p], readings[q], height, wide))
                   or _index_between(readings[p], readings[q], readings)
                   for p in members[ri] for q in members[rj]):
                continue
            parent[rj] = ri
            size[ri] += size[rj]
            members[ri] += members.pop(rj)
            if height is not None:
                heights[ri] = height
        taken.add((i, kind))
        taken.add((j, kind))
    groups: dict[int, list[IndexReading]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(readings[i])
    cards = [card_of(members) for members in groups.values()]
    cards.sort(key=lambda c: -c.confidence)
    return cards


def card_of(indices: list[IndexReading] | tuple[IndexReading, ...]) -> CardInstance:
    """One physical card from the readings of its corner indices: named by all of them
    (:func:`fused_card`), as sure as the chance that at least one of them read it right.

    >>> card = card_of([IndexReading("7H", (0, 0, 10, 16), 0.8, 0.0), IndexReading("7H", (40, 70, 50, 86), 0.5, 180.0)])
    >>> card.card, round(card.confidence, 2), card.box
    ('7H', 0.9, (0, 0, 50, 86))
    """
    group = tuple(sorted(indices, key=lambda r: -r.confidence))
    name = fused_card(group)
    miss = 1.0
    for r in group:
        miss *= 1.0 - r.confidence_as(name)
    return CardInstance(name, union_box([r.box for r in group]), 1.0 - miss, group)
