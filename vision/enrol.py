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

import json
import math
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tuolaji.scorer.errors import InputError
from tuolaji.vision.cardcrop import crop_index
from tuolaji.vision.decks import (
    CLASSIFIER_HEAD_FILE,
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
    read_image_file,
)


@dataclass(frozen=True)
class ManifestPhoto:
    image: Path
    cards: tuple[str, ...]


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
    entry for anything else than a non-empty list of ``{"image": str, "cards": [names]}``."""
    if not isinstance(data, list) or not data:
        raise InputError("enrol.manifest_list", path=str(path))
    photos = []
    for number, entry in enumerate(data, 1):
        where = f"{path}: entry {number}"
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
        readings.append(IndexReading(CARD_NAMES[k], tuple(float(v) for v in box), float(score), angle, float(right), cards))
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


def enrol(name: str, manifest: Path, data: Path, models: Path | None = None, threads: int = 2) -> EnrolResult:
    """Enrol the deck ``name`` from ``manifest``'s photos into ``data/decks/name``."""
    from tuolaji.vision.detector import MODELS_DIR

    t0 = time.perf_counter()
    check_deck_name(name)
    photos = load_manifest(manifest)
    images = [(photo, read_image_file(photo.image)) for photo in photos]
    models_dir = Path(models) if models is not None else MODELS_DIR
    head_path = models_dir / CLASSIFIER_HEAD_FILE
    if not head_path.is_file():
        raise InputError("enrol.no_head", path=str(head_path))
    reader = CardReader.load(models_dir, threads=threads, classify_turns=4)
    crops, labels = [], []
    listed = matched = 0
    for photo, image in images:
        boxes, scores = reader.detect(image)
        probs, up, side = reader.classify(image, boxes)
        readings = every_index(boxes, scores, probs, up, side)
        found = group_indices(readings)
        pairs = match_listed(found, photo.cards)
        listed += len(photo.cards)
        if len(pairs) < len(photo.cards):
            missing = sorted(set(photo.cards) - {n for _c, n in pairs}) or list(photo.cards[len(pairs):])
            raise InputError("enrol.not_found", path=str(manifest), image=photo.image.name,
                             missing=len(photo.cards) - len(pairs), cards=tuple(missing), seen=len(found))
        matched += len(pairs)
        taken = set()
        for card, label in pairs:
            for index in card.indices:
                taken.add(index.box)
                crop = crop_index(image, index.box)
                for k in range(4):
                    crops.append(np.rot90(crop, k))
                    labels.append(CARD_NAMES.index(label))
        # what the shipped classifier takes for no index (a pip, a face, the cloth) stays no index for the deck
        for box, p in zip(boxes, probs, strict=True):
            if tuple(float(v) for v in box) not in taken and p[REJECT] >= 0.5:
                crops.append(crop_index(image, tuple(box)))
                labels.append(REJECT)
    features = reader.crop_features(np.ascontiguousarray(np.stack(crops)))
    with np.load(head_path) as head:
        weight, bias = adapt_head(head["weight"], head["bias"], features, np.array(labels, np.int64))
    seconds = time.perf_counter() - t0
    lessons = sum(label != REJECT for label in labels) // 4
    info = {"name": name, "manifest": str(manifest), "photos": len(photos), "cards_listed": listed, "cards_matched": matched,
            "lessons": lessons, "not_index_lessons": sum(label == REJECT for label in labels), "models": str(models_dir), "seconds": round(seconds, 1),
            "created": time.strftime("%Y-%m-%dT%H:%M:%S")}
    folder = save_deck(data, DeckHead(name, weight, bias, classifier_fingerprint(models_dir / "classifier.onnx")), info)
    return EnrolResult(name, folder, len(photos), listed, matched, lessons, time.perf_counter() - t0)
