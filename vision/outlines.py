"""Cards before names: the corner indices that lie on one card outline are one physical card,
whatever names they were read as.

The grouping of :mod:`vision.grouping` joins two corners only where their names (or their
probabilities) allow one card and their geometry is a card's. A card whose two corners read
differently (2♠ and 2♣, an A♣ whose other corner reads 4♣) then becomes two cards, and a deck
printing an index in all four corners becomes a pair when its top corners are not recognised
as one card's. Where a card lies alone, its outline (a bright quadrilateral of a card's
proportions, :func:`vision.face.card_quads`) settles the count: every index at a different
corner of it belongs to that one card, and the card is named once, from all of them together
(:func:`vision.grouping.fused_card`). Corners that disagree make one card marked unsure
(:data:`DISAGREEING_CONFIDENCE`), named by the likelier reading given all of them, for a person
to confirm.

An outline is taken for one card only when nothing says otherwise: each index inside it lies
in a different corner (a fan or a stack puts two indices in one corner, or one in the middle),
facing as that corner's index does (the two of one short edge alike, of opposite edges opposite
ways), every index is of a size a card of that outline prints, and no card read from its corners
lies partly inside it and partly outside. Only cards the reader reports on their own are joined:
an unsure read (a joker's lettering, a pip) neither joins a card nor counts as one.
"""

from __future__ import annotations

import dataclasses
import math

import cv2
import numpy as np

from tuolaji.scorer.cards import CARD_NAMES
from tuolaji.vision.grouping import SIDE_SURE, WIDE_TOP_CORNERS_ACROSS, card_of, index_size, up_vector
from tuolaji.vision.readings import CardInstance, IndexReading

CORNER_BAND = 0.38
"""An index lies in a corner of an outline when its centre is within this fraction of the
outline's width of a long edge and of its height of a short edge (a card's index centres lie
about 0.1-0.2 in; a jumbo index's up to 0.3)."""

INDEX_TO_WIDTH = (0.07, 0.5)
"""An index's size (:func:`vision.grouping.index_size`) over its outline's short side: from a
bridge deck's small indices to a jumbo deck's."""

WIDE_INDEX_TO_WIDTH = 0.65
"""... and the largest for a deck printing its suits beside its ranks (``wide``): "10♦" on one line
covers half as much again as "10" over "♦" (measured: 0.50 of a card outline's short side as found,
0.46 of the card's own, on a held-out tuning design)."""

INSIDE_MARGIN = 0.3
"""An index counts as inside an outline when its centre lies inside it or within this many
index sizes outside (the outline found runs a little inside the card's edge) ..."""

CROSSING_MARGIN = 0.75
"""... and a card with an index inside and another one within this many index sizes of the
outline but not inside is a card crossing it: the outline is not one card's."""

SURE_NAME = 0.9
"""Corners read as different cards are one card read surely when, given all of them, its name
is at least this probable (a blurred 9♠/9♣ corner beside a sharp 9♣) ..."""

DISAGREEING_CONFIDENCE = 0.5
"""... and otherwise the card is reported at most this sure: under the table pipeline's
``min_confidence`` (:data:`vision.tracking.MIN_CONFIDENCE`, 0.55), so a person confirms it."""


def _unit_square(quad: np.ndarray) -> np.ndarray:
    square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    return cv2.getPerspectiveTransform(np.asarray(quad, np.float32).reshape(4, 2), square)


def _outline_point(matrix: np.ndarray, point: tuple[float, float]) -> tuple[float, float]:
    u, v = cv2.perspectiveTransform(np.array([[point]], np.float32), matrix)[0, 0]
    return float(u), float(v)


def corner_of(u: float, v: float) -> int | None:
    """Which corner of an outline (0-3 clockwise from (0, 0)) holds the point (u, v) of the
    outline's unit square, or None when it lies along an edge or in the middle.

    >>> corner_of(0.1, 0.12), corner_of(0.92, 0.88), corner_of(0.5, 0.1), corner_of(0.1, 0.5)
    (0, 2, None, None)
    """
    column = 0 if u <= CORNER_BAND else 1 if u >= 1 - CORNER_BAND else None
    row = 0 if v <= CORNER_BAND else 1 if v >= 1 - CORNER_BAND else None
    if column is None or row is None:
        return None
    return (0, 1, 3, 2)[row * 2 + column]


def depth_inside(quad: np.ndarray, reading: IndexReading) -> float:
    """How far the reading's centre lies inside ``quad``, in its index sizes (negative: outside)."""
    contour = np.asarray(quad, np.float32).reshape(-1, 1, 2)
    return float(cv2.pointPolygonTest(contour, reading.centre, True)) / index_size(reading)


def _sides(quad: np.ndarray) -> tuple[float, float]:
    """The outline's short and long side, each the mean of its two opposite edges."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    edges = [float(np.linalg.norm(q[(k + 1) % 4] - q[k])) for k in range(4)]
    pairs = ((edges[0] + edges[2]) / 2, (edges[1] + edges[3]) / 2)
    return min(pairs), max(pairs)


def _short_side(quad: np.ndarray) -> float:
    return _sides(quad)[0]


def _too_close_for_one_edge(a: IndexReading, corner_a: int, b: IndexReading, corner_b: int, long: float) -> bool:
    """True when a and b lie at the two ends of one short edge of an outline ``long`` long, nearer
    each other than one wide-index card's two top corners are (:data:`WIDE_TOP_CORNERS_ACROSS` of
    its height), and both read surely as the same hand's corner (two left-hand corners: a card's two
    top corners are a left-hand and a right-hand one): two fanned identical cards' indices, on an
    outline that is no card's (a stretch of the fan between its edges). Either alone parts nothing:
    a jumbo index's card has its top corners closer, and one misread side must not split a card."""
    same_edge = (corner_a in (0, 1)) == (corner_b in (0, 1))
    same_hand = (a.side <= 1 - SIDE_SURE and b.side <= 1 - SIDE_SURE) or (a.side >= SIDE_SURE and b.side >= SIDE_SURE)
    return (corner_a != corner_b and same_edge and same_hand
            and math.dist(a.centre, b.centre) < WIDE_TOP_CORNERS_ACROSS * long)


def cards_on_outline(cards: list[CardInstance], quad: np.ndarray, wide: bool = False) -> list[int] | None:
    """The positions in ``cards`` of the cards read from corners that lie on the one card
    outlined by ``quad``, or None when the outline cannot be one card holding them (an index
    off its corners, two in one corner, an index of another card's size, a card crossing it).
    ``wide``: the deck prints its suits beside its ranks (:data:`WIDE_INDEX_TO_WIDTH`).

    >>> quad = np.array([[0, 0], [100, 0], [100, 140], [0, 140]], np.float32)
    >>> top = CardInstance("2S", (4, 4, 18, 30), 0.9, (IndexReading("2S", (4, 4, 18, 30), 0.9, 0.0),))
    >>> bottom = CardInstance("2C", (82, 110, 96, 136), 0.8, (IndexReading("2C", (82, 110, 96, 136), 0.8, 180.0),))
    >>> cards_on_outline([top, bottom], quad)
    [0, 1]
    >>> fanned = CardInstance("2S", (24, 4, 38, 30), 0.9, (IndexReading("2S", (24, 4, 38, 30), 0.9, 0.0),))
    >>> cards_on_outline([top, bottom, fanned], quad) is None
    True
    """
    matrix = _unit_square(quad)
    short, long = _sides(quad)
    x1, y1 = np.asarray(quad, np.float32).reshape(4, 2).min(axis=0) - short
    x2, y2 = np.asarray(quad, np.float32).reshape(4, 2).max(axis=0) + short
    on: list[int] = []
    corners: set[int] = set()
    placed: list[tuple[IndexReading, int]] = []
    for position, card in enumerate(cards):
        if not card.indices or card.box[2] < x1 or card.box[0] > x2 or card.box[3] < y1 or card.box[1] > y2:
            continue  # nowhere near the outline (a card's width around it)
        depths = [depth_inside(quad, r) for r in card.indices]
        inside = [d >= -INSIDE_MARGIN for d in depths]
        near = [d >= -CROSSING_MARGIN for d in depths]
        if not any(inside):
            if any(near):
                return None
            continue
        if not all(inside):
            return None
        for reading in card.indices:
            corner = _index_corner(matrix, short, reading, wide)
            if corner is None or corner in corners:
                return None
            if any(not _faces_as_corners(reading, corner, other, other_corner) for other, other_corner in placed):
                return None
            if wide and any(_too_close_for_one_edge(reading, corner, other, other_corner, long) for other, other_corner in placed):
                return None
            corners.add(corner)
            placed.append((reading, corner))
        on.append(position)
    return on


def _index_corner(matrix: np.ndarray, short: float, reading: IndexReading, wide: bool = False) -> int | None:
    """The corner of the outline (``matrix`` to its unit square, ``short`` its short side) that
    holds ``reading`` as that card's index, or None: off the corners, or of a size the card does not print."""
    largest = WIDE_INDEX_TO_WIDTH if wide else INDEX_TO_WIDTH[1]
    if not INDEX_TO_WIDTH[0] <= index_size(reading) / max(short, 1e-9) <= largest:
        return None
    return corner_of(*_outline_point(matrix, reading.centre))


FACING_DOT = 0.3
"""Two corner indices of one card at the two ends of one short edge face the same way (their
up-vectors' dot product at least this), at opposite short edges opposite ways (at most minus
this): the bottom corners are printed upside down, in every layout."""


def _faces_as_corners(a: IndexReading, corner_a: int, b: IndexReading, corner_b: int) -> bool:
    same_edge = (corner_a in (0, 1)) == (corner_b in (0, 1))
    dot = float(up_vector(a) @ up_vector(b))
    return dot >= FACING_DOT if same_edge else dot <= -FACING_DOT


def one_card(parts: list[CardInstance]) -> CardInstance:
    """The card whose corners ``parts`` were read from: named by all their indices together
    (:func:`vision.grouping.card_of`), as sure as its grouping makes it where every index
    read that name, else only where that name is :data:`SURE_NAME` probable given them all,
    and otherwise marked unsure (:data:`DISAGREEING_CONFIDENCE`).

    >>> p = np.full(54, 0.05 / 53); p[CARD_NAMES.index("2S")] = 0.95
    >>> q = np.full(54, 0.1 / 53); q[CARD_NAMES.index("2C")] = 0.9
    >>> a = CardInstance("2S", (0, 0, 10, 16), 0.95, (IndexReading("2S", (0, 0, 10, 16), 0.95, 0.0, probs=p),))
    >>> b = CardInstance("2C", (60, 80, 70, 96), 0.9, (IndexReading("2C", (60, 80, 70, 96), 0.9, 180.0, probs=q),))
    >>> card = one_card([a, b])
    >>> card.card, card.confidence <= DISAGREEING_CONFIDENCE, len(card.indices)
    ('2S', True, 2)
    """
    card = card_of([r for c in parts for r in c.indices])
    if all(r.card == card.card for r in card.indices) or dict(card.candidates(len(CARD_NAMES))).get(card.card, 0.0) >= SURE_NAME:
        return card
    return dataclasses.replace(card, confidence=min(card.confidence, DISAGREEING_CONFIDENCE))


PRINT_SIZE_RATIO = 1.6
"""A read lying well inside an outline, off its corners or of a size no index of that outline's
card has, whose index is this many times larger or smaller than the index read in a corner of
it, is of the card's print (a column of pips read with its index, a pip, the court's art): the
indices of one deck are all one size where they lie at one distance from the camera."""


def print_reads(cards: list[CardInstance], quad: np.ndarray, wide: bool = False) -> list[int]:
    """The positions in ``cards`` of reads of the print of the card outlined by ``quad``
    (:data:`PRINT_SIZE_RATIO`): inside it, off its corners or of a size its indices are not, and
    of another size than a card read from its corners; none where, without them, the outline is
    not one card's (:func:`cards_on_outline`: a fan, a table).

    >>> quad = np.array([[0, 0], [100, 0], [100, 140], [0, 140]], np.float32)
    >>> corner = CardInstance("5C", (4, 4, 18, 30), 0.9, (IndexReading("5C", (4, 4, 18, 30), 0.9, 0.0),))
    >>> pips = CardInstance("4C", (30, 10, 70, 70), 0.8, (IndexReading("4C", (30, 10, 70, 70), 0.8, 0.0),))
    >>> fanned = CardInstance("2S", (44, 4, 58, 30), 0.9, (IndexReading("2S", (44, 4, 58, 30), 0.9, 0.0),))
    >>> print_reads([corner, pips], quad)
    [1]
    >>> print_reads([corner, pips, fanned], quad)  # a fan: its cards' indices, one size, are left to the corners
    []
    """
    matrix = _unit_square(quad)
    short = _short_side(quad)
    depths = {i: [depth_inside(quad, r) for r in c.indices] for i, c in enumerate(cards) if c.indices}
    inside = [i for i, found in depths.items() if all(d >= -INSIDE_MARGIN for d in found)]
    in_corners = {i: [_index_corner(matrix, short, r, wide) is not None for r in cards[i].indices] for i in inside}
    corner_sizes = [index_size(r) for i in inside for r, in_corner in zip(cards[i].indices, in_corners[i], strict=True)
                    if in_corner]
    if not corner_sizes:
        return []
    size = float(np.median(corner_sizes))

    def of_another_size(reading: IndexReading) -> bool:
        ratio = index_size(reading) / size
        return ratio >= PRINT_SIZE_RATIO or ratio <= 1 / PRINT_SIZE_RATIO

    printed = [i for i in inside if all(d >= 0 for d in depths[i]) and all(of_another_size(r) for r in cards[i].indices)
               and not all(in_corners[i])]
    others = [c for i, c in enumerate(cards) if i not in printed]
    return printed if printed and cards_on_outline(others, quad, wide) else []  # only on an outline of one card


def join_on_outlines(cards: list[CardInstance], quads: list[np.ndarray], wide: bool = False) -> list[CardInstance]:
    """``cards`` (read from corner indices) with those lying on one card outline made one card
    (:func:`cards_on_outline`, :func:`one_card`), and reads of a card's print inside it dropped
    (:func:`print_reads`); smaller outlines first, each card joined once. ``wide``: the deck prints
    its suits beside its ranks.

    >>> quad = np.array([[0, 0], [100, 0], [100, 140], [0, 140]], np.float32)
    >>> corners = [((4, 4, 18, 30), 0.0), ((82, 110, 96, 136), 180.0), ((82, 4, 96, 30), 0.0), ((4, 110, 18, 136), 180.0)]
    >>> four = [CardInstance("5D", box, 0.9, (IndexReading("5D", box, 0.9, angle),)) for box, angle in corners]
    >>> [(c.card, len(c.indices)) for c in join_on_outlines(four, [quad])]
    [('5D', 4)]
    """
    cards = list(cards)
    for quad in sorted(quads, key=lambda q: float(cv2.contourArea(np.asarray(q, np.float32).reshape(-1, 1, 2)))):
        printed = print_reads(cards, quad, wide)
        cards = [c for i, c in enumerate(cards) if i not in printed]
        on = cards_on_outline(cards, quad, wide)
        if on is None or len(on) < 2:
            continue
        joined = one_card([cards[i] for i in on])
        cards = [c for i, c in enumerate(cards) if i not in on] + [joined]
    return sorted(cards, key=lambda c: -c.confidence)
