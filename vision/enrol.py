"""Enrolment: adapt the reader to one physical deck from a few labelled photos.

The manifest is a JSON list, one entry per photo::

    [{"image": "suit-spades.jpg", "cards": ["AS", "2S", "3S"]}, ...]

``image`` relative to the manifest, ``cards`` the cards fully visible in it (any layout
and number; a card twice for two decks). Each photo is read with the shipped models;
the cards found are matched to the listed ones (the most probable pairs first, each
card found given to at most one listed card); every corner index of a matched card,
read the four ways the careful reader reads it, becomes a lesson for the deck's head
(:func:`vision.decks.adapt_head`), which is saved under ``DATA/decks/NAME``.

>>> photos = parse_manifest([{"image": "a.jpg", "cards": ["AS", "10H"]}], Path("/m/manifest.json"), check_files=False)
>>> photos[0].image, photos[0].cards
(PosixPath('/m/a.jpg'), ('AS', '10H'))
"""

from __future__ import annotations

import dataclasses
import json
import math
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from tuolaji.scorer.errors import InputError
from tuolaji.vision.cardcrop import crop_index
from tuolaji.vision.decks import (
    CLASSIFIER_HEAD_FILE,
    INDEX_LAYOUTS,
    DeckHead,
    adapt_head,
    check_deck_name,
    classifier_fingerprint,
    save_deck,
)
from tuolaji.vision.detector import (
    CARD_NAMES,
    REJECT,
    CardInstance,
    CardReader,
    IndexReading,
    group_indices,
    load_layout_reader,
    read_image_file,
)
from tuolaji.vision.readings import as_box


@dataclass(frozen=True)
class ManifestPhoto:
    image: Path
    cards: tuple[str, ...]
    layout: bool = False  # the whole deck laid out in :data:`LAYOUT_ROWS` order: its cards named by where they lie


LAYOUT_ROWS = (13, 13, 13, 13, 2)
"""A deck laid out face up for enrolment (``tuolaji enrol NAME --layout PHOTO``): one row per
suit, ♠ ♥ ♣ ♦, each from 2 to A, then 小王 and 大王, rows from the top of the picture and each
row from its left: the cards in :data:`CARD_NAMES` order. The cards are named by where they lie,
so no card is typed and no misread can name one."""

LAYOUT_LEAST_INDEX_PX = 10.0
"""A layout photo whose corner indices are shorter than this (median box height) is refused:
too small to learn from (the camera too far, or too low a resolution)."""

LAYOUT_SURE = 0.95
"""A card read at least this surely as a card of another rank than its place in the layout
says counts against the layout's order ..."""

LAYOUT_MISPLACED = 3
"""... and this many such cards make the photo refused as out of order (fewer are the reader's
own mistakes, the very ones enrolment is for)."""


def layout_places(quads: list[np.ndarray], where: str, rows: tuple[int, ...] = LAYOUT_ROWS) -> list[np.ndarray]:
    """The card outlines of the layout photo ``where`` in layout order: split into rows at the widest
    gaps between their centres' heights, each row from the left; InputError ``enrol.layout_rows``
    when the rows do not hold ``rows`` cards.

    >>> quad = lambda x, y: np.array([[x, y], [x + 10, y], [x + 10, y + 14], [x, y + 14]], np.float32)
    >>> places = layout_places([quad(30, 40), quad(0, 0), quad(15, 41), quad(15, 1)], "a.jpg", rows=(2, 2))
    >>> [tuple(int(v) for v in q[0]) for q in places]
    [(0, 0), (15, 1), (15, 41), (30, 40)]
    """
    centres = np.array([np.asarray(q, np.float32).reshape(4, 2).mean(axis=0) for q in quads])
    order = np.argsort(centres[:, 1], kind="stable")
    gaps = np.diff(centres[order, 1])
    cuts = sorted(int(i) + 1 for i in np.argsort(-gaps, kind="stable")[:len(rows) - 1]) if len(order) > 1 else []
    found = [order[a:b] for a, b in zip([0, *cuts], [*cuts, len(order)], strict=True)]
    if [len(row) for row in found] != list(rows):
        raise InputError("enrol.layout_rows", image=where, found=tuple(len(row) for row in found), expected=tuple(rows))
    places = []
    for row in found:
        places += [quads[int(i)] for i in sorted(row, key=lambda i: float(centres[i, 0]))]
    return places


def layout_pairs(image: np.ndarray, readings: list[IndexReading], where: str) -> list[tuple[CardInstance, str]]:
    """(card, its name) for each card of a deck laid out in :data:`LAYOUT_ROWS` order in ``image``:
    its outline found (:func:`vision.face.card_quads`), named by its place, its corner indices
    those of ``readings`` that lie on it. InputError naming the photo when it cannot be used:
    not 54 cards apart (one missing, two touching), rows of other lengths, indices too small,
    or cards in another order."""
    from tuolaji.vision.face import card_quads
    from tuolaji.vision.outlines import depth_inside

    deck = len(CARD_NAMES)
    quads = card_quads(image, max_quads=3 * deck)
    if quads:
        areas = np.array([cv2.contourArea(np.asarray(q, np.float32).reshape(-1, 1, 2)) for q in quads])
        typical = float(np.median(areas))
        sized = [(a, q) for q, a in zip(quads, areas, strict=True) if 0.6 * typical <= a <= 1.6 * typical]
        outermost: list[np.ndarray] = []  # a court panel or an outline found a little inside is no card of its own
        for _area, quad in sorted(sized, key=lambda item: -item[0]):
            centre = tuple(float(v) for v in np.asarray(quad, np.float32).reshape(4, 2).mean(axis=0))
            if not any(cv2.pointPolygonTest(np.asarray(k, np.float32).reshape(-1, 1, 2), centre, False) >= 0 for k in outermost):
                outermost.append(quad)
        quads = outermost
    if len(quads) != deck:
        raise InputError("enrol.layout_count", image=where, found=len(quads), expected=deck)
    places = layout_places(quads, where)
    heights = [r.box[3] - r.box[1] for r in readings]
    if not heights or float(np.median(heights)) < LAYOUT_LEAST_INDEX_PX:
        raise InputError("enrol.layout_small", image=where, px=round(float(np.median(heights)) if heights else 0.0, 1),
                         least=LAYOUT_LEAST_INDEX_PX)
    on: dict[int, list[IndexReading]] = {}
    for reading in readings:
        inside = [(depth_inside(q, reading), k) for k, q in enumerate(places)]
        depth, k = max(inside)
        if depth >= -0.5:
            on.setdefault(k, []).append(reading)
    misplaced = []
    for k, indices in on.items():
        name = CARD_NAMES[k]
        for reading in indices:
            if reading.probs is not None and float(reading.probs.max()) >= LAYOUT_SURE and _rank(reading.card) != _rank(name):
                misplaced.append((k, reading.card))
                break
    if len(misplaced) >= LAYOUT_MISPLACED:
        k, read_as = misplaced[0]
        row, column = _row_and_column(k)
        raise InputError("enrol.layout_order", image=where, misplaced=len(misplaced), row=row, column=column,
                         read=read_as, expected=CARD_NAMES[k])
    return [(CardInstance(CARD_NAMES[k], as_box(cv2.boundingRect(np.asarray(places[k], np.float32))), 1.0,
                          tuple(indices)), CARD_NAMES[k]) for k, indices in sorted(on.items())]


def _rank(name: str) -> str:
    return name if name in ("SJ", "BJ") else name[:-1]


def _row_and_column(position: int) -> tuple[int, int]:
    """1-based row and column of a layout position."""
    for row, length in enumerate(LAYOUT_ROWS, 1):
        if position < length:
            return row, position + 1
        position -= length
    raise ValueError(position)


@dataclass(frozen=True)
class EnrolResult:
    name: str
    folder: Path
    photos: int
    cards_listed: int
    cards_matched: int
    lessons: int  # index crops (each read four ways) the head learnt from
    seconds: float


def parse_manifest(data: object, path: Path, check_files: bool = True) -> list[ManifestPhoto]:
    """The photos of a manifest's JSON ``data`` (read from ``path``); InputError naming the
    entry for anything else than a non-empty list of ``{"image": str, "cards": [names]}`` or
    ``{"image": str, "layout": true}`` (the whole deck laid out in :data:`LAYOUT_ROWS` order)."""
    if not isinstance(data, list) or not data:
        raise InputError("enrol.manifest_list", path=str(path))
    photos = []
    for number, entry in enumerate(data, 1):
        where = f"{path}: entry {number}"
        if isinstance(entry, dict) and isinstance(entry.get("image"), str) and entry.get("layout") is True:
            image = path.parent / entry["image"]
            if check_files and not image.is_file():
                raise InputError("enrol.photo", where=where, image=entry["image"], path=str(image))
            photos.append(ManifestPhoto(image, tuple(CARD_NAMES), layout=True))
            continue
        if not isinstance(entry, dict) or not isinstance(entry.get("image"), str) or not isinstance(entry.get("cards"), list):
            raise InputError("enrol.entry", where=where)
        if not entry["cards"]:
            raise InputError("enrol.no_cards", where=where, image=entry["image"])
        for card in entry["cards"]:
            if card not in CARD_NAMES:
                raise InputError("enrol.card", where=where, card=card)
        image = path.parent / entry["image"]
        if check_files and not image.is_file():
            raise InputError("enrol.photo", where=where, image=entry["image"], path=str(image))
        photos.append(ManifestPhoto(image, tuple(entry["cards"])))
    return photos


def load_manifest(path: Path) -> list[ManifestPhoto]:
    if not path.is_file():
        raise InputError("enrol.no_manifest", path=str(path))
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
        raise InputError("enrol.manifest_json", path=str(path), problem=str(error)) from None
    return parse_manifest(data, path)


def every_index(boxes: np.ndarray, scores: np.ndarray, probs: np.ndarray, up: np.ndarray,
                side: np.ndarray) -> list[IndexReading]:
    """A reading of every detected box, rejects included (read as their likeliest card):
    the shipped classifier may not know this deck's indices at all."""
    readings = []
    for box, score, p, o, right in zip(boxes, scores, probs, up, side, strict=True):
        cards = p[:REJECT] / max(float(p[:REJECT].sum()), 1e-9)
        k = int(cards.argmax())
        angle = math.degrees(math.atan2(float(o[0]), float(-o[1]))) % 360
        readings.append(IndexReading(CARD_NAMES[k], as_box(box), float(score), angle, float(right), cards))
    return readings


def match_listed(found: list[CardInstance], listed: tuple[str, ...]) -> list[tuple[CardInstance, str]]:
    """Pairs (card found, listed card): the most probable pairs first, each found card and
    each listed copy used once. A found card's probability of a name is the product of its
    corners' probabilities (times its corners' detector scores, so pips rank last).

    >>> p = np.full(54, 1e-4); p[CARD_NAMES.index("AC")] = 0.7; p[CARD_NAMES.index("AS")] = 0.3
    >>> card = CardInstance("AC", (0, 0, 9, 9), 0.9, (IndexReading("AC", (0, 0, 9, 9), 0.9, 0.0, probs=p),))
    >>> [(c.card, name) for c, name in match_listed([card], ("AS", "2S"))]
    [('AC', 'AS')]
    """
    pairs = []
    for i, card in enumerate(found):
        logp = np.zeros(len(CARD_NAMES))
        for index in card.indices:
            probs = index.probs if index.probs is not None else np.eye(len(CARD_NAMES))[CARD_NAMES.index(index.card)]
            logp += np.log(np.asarray(probs, float) + 1e-6) + math.log(max(index.confidence, 1e-6))
        for slot, name in enumerate(listed):
            pairs.append((-float(logp[CARD_NAMES.index(name)]), i, slot))
    pairs.sort()
    used_found: set[int] = set()
    used_slot: set[int] = set()
    matched = []
    for _cost, i, slot in pairs:
        if i in used_found or slot in used_slot:
            continue
        used_found.add(i)
        used_slot.add(slot)
        matched.append((found[i], listed[slot]))
    return matched


_Seen = list[tuple[ManifestPhoto, np.ndarray,
                   dict[str, tuple[np.ndarray, np.ndarray, np.ndarray, list[tuple[CardInstance, str]], list[CardInstance]]]]]
"""Per photo: the photo, its image, and per layout the index boxes its reader found, the classifier's
probabilities and up-vectors of them, the cards found paired with the cards listed, and the cards
found."""


UNLISTED_BESIDE = 1.5
"""A box read as an unlisted card within this many of a listed corner's heights of it lies on that card."""


def _unlisted_rows(pairs: list[tuple[CardInstance, str]], found: list[CardInstance], photo: ManifestPhoto,
                   row_of: dict[tuple[float, float, float, float], int], skip: set[int]) -> list[int]:
    """The boxes read as a card beyond a manifest photo's listed cards, when every listed card was found,
    that lie right beside a listed card's corner index (its big pip, a court's picture): the deck
    learns them as no index. A card of a listed card's rank (a corner read with another suit) teaches
    nothing, nor does anything farther off (a card at the photo's edge that was not listed).

    >>> from tuolaji.vision.grouping import CardInstance, IndexReading
    >>> jack = IndexReading("JC", (213, 309, 242, 348), 0.9, 0.0)
    >>> pip, edge = IndexReading("KC", (186, 307, 217, 349), 0.4, 0.0), IndexReading("5H", (0, 9, 20, 40), 0.5, 0.0)
    >>> cards = [CardInstance(r.card, r.box, r.confidence, (r,)) for r in (jack, pip, edge)]
    >>> _unlisted_rows([(cards[0], "JC")], cards, ManifestPhoto(Path("p.jpg"), ("JC",)),
    ...                {jack.box: 0, pip.box: 1, edge.box: 2}, {0})
    [1]
    """
    if photo.layout or len(pairs) < len(photo.cards):
        return []

    def rank(name: str) -> str:
        return "JOKER" if name in ("SJ", "BJ") else name[:-1]

    listed_corners = [(np.array(index.centre), max(index.box[2] - index.box[0], index.box[3] - index.box[1]))
                      for card, _label in pairs for index in card.indices]
    matched = {id(card) for card, _label in pairs}
    ranks = {rank(name) for name in photo.cards}
    rows = []
    for card in found:
        if id(card) in matched or rank(card.card) in ranks:
            continue
        for index in card.indices:
            row = row_of.get(index.box)
            if row is None or row in skip:
                continue
            if any(float(np.linalg.norm(np.array(index.centre) - at)) <= UNLISTED_BESIDE * size for at, size in listed_corners):
                rows.append(row)
    return sorted(set(rows))


def _learns(reader: CardReader, layout: str) -> bool:
    """Whether ``reader``'s classifier reads indices of ``layout`` as they lie (else it reads them rearranged)."""
    return layout == "vertical" or layout in reader.settings.learnt_layouts.split(",")


def _lessons(reader: CardReader, seen: _Seen, layout: str, manifest: Path | None) -> tuple[list[np.ndarray], list[int], int, int]:
    """The crops a deck of ``layout`` learns from, with their labels (each index crop four ways, a
    crop of no index once), and the cards listed and matched; InputError naming a photo whose cards
    were not all found so."""
    crops: list[np.ndarray] = []
    labels: list[int] = []
    listed = matched = 0
    for photo, image, reads in seen:
        boxes, probs, _up, pairs, found = reads[layout]
        if not photo.layout and len(pairs) < len(photo.cards):
            missing = sorted(set(photo.cards) - {n for _c, n in pairs}) or list(photo.cards[len(pairs):])
            raise InputError("enrol.not_found", path=str(manifest), image=photo.image.name,
                             missing=len(photo.cards) - len(pairs), cards=tuple(missing), seen=len(found))
        listed += len(photo.cards)
        matched += len(pairs)
        row_of = {as_box(box): k for k, box in enumerate(boxes)}
        taught = [(row_of[index.box], CARD_NAMES.index(label)) for card, label in pairs for index in card.indices
                  if index.box in row_of]
        # what the shipped classifier takes for no index (a pip, a face, the cloth) stays no index for the deck
        taught_rows = {row for row, _label in taught}
        not_index = [k for k in range(len(boxes)) if k not in taught_rows and probs[k, REJECT] >= 0.5]
        not_index += _unlisted_rows(pairs, found, photo, row_of, taught_rows | set(not_index))
        rows = [row for row, _label in taught] + not_index
        if not rows:
            continue
        if _learns(reader, layout):
            cut = np.stack([crop_index(image, tuple(boxes[k])) for k in rows])
        else:  # read as the deck will be read: rearranged, from the plain reads' up-vectors (the same boxes)
            cut = reader.rearranged_crops(image, boxes[rows], reads["vertical"][2][rows])
        for crop, (_row, label) in zip(cut, taught, strict=False):
            for k in range(4):
                crops.append(np.rot90(crop, k))
                labels.append(label)
        for crop in cut[len(taught):]:
            crops.append(crop)
            labels.append(REJECT)
    return crops, labels, listed, matched


def _named_before(seen: _Seen, layout: str) -> int:
    """How many of the photos' cards the reader of ``layout`` named as listed before enrolment."""
    return sum(card.card == label for _photo, _image, reads in seen for card, label in reads[layout][3])


def _cards_read_right(models: Path, threads: int, deck: DeckHead, seen: _Seen) -> int:
    """How many of the cards listed for the enrolment's photos a reader with ``deck`` reads there,
    less the cards it reads that are not listed."""
    reader = CardReader.load(models, threads=threads, deck=deck)
    right = 0
    for photo, image, _reads in seen:
        read = Counter(card.card for card in reader.read(image))
        shown = Counter(photo.cards)
        right += sum((read & shown).values()) - sum((read - shown).values())
    return right


def _read_photos(images: list[tuple[ManifestPhoto, np.ndarray]], base: CardReader,
                 readers: dict[str, CardReader]) -> _Seen:
    """Each photo read both ways: as a deck printing the rank above its suit, and the suit beside it."""
    settings = base.settings
    seen: _Seen = []
    for photo, image in images:
        base_boxes, base_scores = base.detect(image)
        reads = {}
        for layout in INDEX_LAYOUTS:
            reader = readers[layout]
            boxes, scores = (base_boxes, base_scores) if reader is base else reader.detect(image)
            if reader is base:
                base.settings = dataclasses.replace(settings, index_layout=layout)
            probs, up, side = reader.classify(image, boxes)
            base.settings = settings
            readings = every_index(boxes, scores, probs, up, side)
            # a layout photo's cards are named by place: a card that gave no index box teaches nothing, and is no refusal
            found = [] if photo.layout else group_indices(readings, wide=layout == "horizontal")
            pairs = layout_pairs(image, readings, photo.image.name) if photo.layout else match_listed(found, photo.cards)
            reads[layout] = (boxes, probs, up, pairs, found)
        seen.append((photo, image, reads))
    return seen


def index_aspect(seen: _Seen, layout: str = "vertical") -> float:
    """The median width over height of the corner indices of the cards matched by ``layout``'s reader,
    in each card's own frame (its top up; indices turned within 30 degrees of an axis only, where
    the upright size follows from the box): about 0.5-0.6 where the rank stands above its suit, 0.7
    and more where the suit lies beside it. NaN when no index was turned near enough to an axis.

    A box 40 wide and 20 high on a card turned a quarter is half as wide as high in the card's frame:

    >>> from tuolaji.vision.grouping import CardInstance, IndexReading
    >>> index = IndexReading("AS", (0, 0, 40, 20), 0.9, 90.0)
    >>> card = CardInstance("AS", index.box, 0.9, (index,))
    >>> round(index_aspect([(ManifestPhoto(Path("p.jpg"), ("AS",)), np.zeros(1),
    ...                      {"vertical": (np.zeros(1), np.zeros(1), np.zeros(1), [(card, "AS")], [card])})]), 3)
    0.5
    """
    aspects = []
    for _photo, _image, reads in seen:
        for card, _label in reads[layout][3]:
            for index in card.indices:
                turn = math.radians(index.angle_deg)
                c, s = abs(math.cos(turn)), abs(math.sin(turn))
                if abs(c * c - s * s) < 0.5:  # near a diagonal the upright size is not known from the box
                    continue
                w, h = index.box[2] - index.box[0], index.box[3] - index.box[1]
                upright_w, upright_h = (w * c - h * s) / (c * c - s * s), (h * c - w * s) / (c * c - s * s)
                if upright_w > 0 and upright_h > 0:
                    aspects.append(upright_w / upright_h)
    return float(np.median(aspects)) if aspects else math.nan


HORIZONTAL_ASPECT = 0.9
"""A deck whose corner indices, as the horizontal decks' reader boxes them, are at least this wide
for their height (:func:`index_aspect`) prints its suits beside its ranks (measured on drawn
decks' enrolment photos: 1.26-1.47 for six horizontal designs, 0.46-0.59 for six ordinary ones
and ``table-photos``)."""


def deck_layout(seen: _Seen, taught: dict[str, tuple[DeckHead, int, int, int, int]], aspect: float, models: Path,
                threads: int) -> str:
    """The layout of the deck on the enrolment's photos: by its print (``aspect``, :func:`index_aspect`
    of the horizontal reader's boxes, against :data:`HORIZONTAL_ASPECT`) where that reader boxed
    indices turned near an axis (``aspect`` not NaN); else the learnt deck that reads
    the photos as the cards listed best, a tie going to the layout whose own reader named more of
    the cards before it learnt anything, then to the rank above its suit. A layout that could not
    be learnt (a listed card not found so) is never chosen."""
    if len(taught) == 1:
        return next(iter(taught))
    if not math.isnan(aspect):
        return "horizontal" if aspect >= HORIZONTAL_ASPECT else "vertical"
    right = {layout: _cards_read_right(models, threads, deck, seen) for layout, (deck, *_rest) in taught.items()}
    return max(INDEX_LAYOUTS, key=lambda name: (right.get(name, -1), _named_before(seen, name), name == "vertical"))


def layout_photos(paths: list[Path]) -> list[ManifestPhoto]:
    """Layout photos (:data:`LAYOUT_ROWS`) as manifest photos: each one whole deck."""
    for path in paths:
        if not path.is_file():
            raise InputError("enrol.photo", where="--layout", image=path.name, path=str(path))
    return [ManifestPhoto(path, tuple(CARD_NAMES), layout=True) for path in paths]


def enrol(name: str, manifest: Path | None, data: Path, models: Path | None = None, threads: int = 2,
          layouts: list[Path] | tuple[Path, ...] = ()) -> EnrolResult:
    """Enrol the deck ``name`` from ``manifest``'s photos and the ``layouts`` photos (each a
    whole deck laid out in :data:`LAYOUT_ROWS` order) into ``data/decks/name``."""
    from tuolaji.vision.detector import MODELS_DIR

    t0 = time.perf_counter()
    check_deck_name(name)
    photos = (load_manifest(manifest) if manifest is not None else []) + layout_photos(list(layouts))
    if not photos:
        raise InputError("enrol.nothing")
    images = [(photo, read_image_file(photo.image)) for photo in photos]
    models_dir = Path(models) if models is not None else MODELS_DIR
    # each layout read by its own reader where the models have one (LAYOUT_READERS), else by the
    # shipped networks, which read a horizontal index rearranged
    base = CardReader.load(models_dir, threads=threads, classify_turns=4)
    readers = {layout: load_layout_reader(models_dir, layout, threads, {"classify_turns": 4}) or base for layout in INDEX_LAYOUTS}
    for folder in sorted({reader.folder or models_dir for reader in readers.values()}):
        if not (folder / CLASSIFIER_HEAD_FILE).is_file():
            raise InputError("enrol.no_head", path=str(folder / CLASSIFIER_HEAD_FILE))
    seen = _read_photos(images, base, readers)
    # the deck is learnt in each layout its photos can be read in, and the one its print shows is kept (deck_layout)
    taught: dict[str, tuple[DeckHead, int, int, int, int]] = {}
    refusal: InputError | None = None
    for layout in INDEX_LAYOUTS:
        reader = readers[layout]
        try:
            crops, labels, listed, matched = _lessons(reader, seen, layout, manifest)
        except InputError as error:
            refusal = refusal or error
            continue
        features = reader.crop_features(np.ascontiguousarray(np.stack(crops)))
        folder = reader.folder or models_dir
        with np.load(folder / CLASSIFIER_HEAD_FILE) as head:
            weight, bias = adapt_head(head["weight"], head["bias"], features, np.array(labels, np.int64))
        lessons = sum(label != REJECT for label in labels) // 4
        fingerprint = classifier_fingerprint(folder / "classifier.onnx")
        taught[layout] = (DeckHead(name, weight, bias, fingerprint, layout), listed, matched, lessons,
                          sum(label == REJECT for label in labels))
    if not taught:
        assert refusal is not None
        raise refusal
    aspect = index_aspect(seen, "horizontal")
    layout = deck_layout(seen, taught, aspect, models_dir, threads)
    deck, listed, matched, lessons, not_index = taught[layout]
    seconds = time.perf_counter() - t0
    info = {"name": name, "manifest": str(manifest) if manifest is not None else None,
            "layouts": [str(path) for path in layouts], "photos": len(photos), "cards_listed": listed, "cards_matched": matched,
            "lessons": lessons, "not_index_lessons": not_index, "models": str(models_dir), "seconds": round(seconds, 1),
            "created": time.strftime("%Y-%m-%dT%H:%M:%S"), "index_layout": layout,
            "index_aspect": None if math.isnan(aspect) else round(aspect, 3)}
    folder = save_deck(data, deck, info)
    return EnrolResult(name, folder, len(photos), listed, matched, lessons, time.perf_counter() - t0)
