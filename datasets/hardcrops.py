"""Hard "not an index" crops: what the shipped reader wrongly reads as a card (the command
is ``tuolaji hard-crops``).

A false card, a false joker above all, comes from a box the detector puts on something that
is not a corner index (a court figure, a pip, a pattern in the cloth, a carpet or a
newspaper) and that the classifier then reads as a card. This module runs the shipped
reader over training pictures whose truth is known, keeps every such box, and cuts it as a
crop labelled "not an index" (``REJECT``): a fine-tuned classifier learns to turn them down.

- **Generated scenes** (``tuolaji generate`` sets, with ``meta/``): a box is stray when it
  overlaps no index of the scene (hidden ones included) and lies inside none.
- **Real photos of single cards** (a folder like ``cards-crops``, its ``train`` split): a box
  is stray when it lies away from the picture's corners (where the card's own indices are)
  and reads as a card other than the photo's. Photos of jokers are skipped (their art is a
  jester that may fill the picture), as is every ``val_every``-th photo: the same photos
  ``tuolaji real-crops --val-out`` holds out, so its validation set stays unseen.

A stray box is kept when the classifier reads it as some card at least ``min_card``
surely, or as a joker at least 0.1 surely. Crops go to ``OUT/crops/*.npz`` in the layout of
``tuolaji generate --crops``, so ``tuolaji train classifier --train OUT`` reads them.

>>> is_stray((0, 0, 10, 10), [(20, 20, 30, 30)])
True
>>> is_stray((0, 0, 10, 10), [(5, 5, 30, 30)])
False
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from tuolaji.datasets.realcrops import SCALES, LabelledBox, corner_of, photo_crops
from tuolaji.datasets.realeval import ANY_JOKER, load_real_folder
from tuolaji.scorer.cards import CARD_NAMES
from tuolaji.vision.classes import JOKER_NAMES, REJECT
from tuolaji.vision.detector import CardReader, read_image_file
from tuolaji.vision.readings import Box

STRAY_DETECT = 0.2
"""The detector threshold of the search: lower than the reader's own (0.25), so that the boxes
it nearly reports are taught too."""

MIN_CARD = 0.3
"""A stray box is kept when the classifier reads it as a card at least this surely (the reader's
class threshold is 0.3)."""

SCENE_COPIES = 5
"""Crops cut of each stray box of a scene (as many as a photo's scales): the hard crops are few
among a training pool of about 250,000, and each copy is drawn into an epoch on its own."""

_JOKER_IDS = frozenset(CARD_NAMES.index(name) for name in JOKER_NAMES)


def is_stray(box: Sequence[float], index_boxes: Iterable[Sequence[float]]) -> bool:
    """True when ``box`` (x1, y1, x2, y2) overlaps none of ``index_boxes`` at all."""
    x1, y1, x2, y2 = box
    return all(x2 <= a1 or a2 <= x1 or y2 <= b1 or b2 <= y1 for a1, b1, a2, b2 in index_boxes)


def would_be_card(probs: np.ndarray, min_card: float = MIN_CARD) -> bool:
    """True when a read (55 probabilities) is some card, a joker however unsure, at least
    ``min_card`` surely.

    >>> p = np.zeros(55); p[REJECT] = 0.8; p[CARD_NAMES.index("SJ")] = 0.2
    >>> would_be_card(p), would_be_card(p, 0.5)
    (True, True)
    >>> p = np.zeros(55); p[REJECT] = 0.8; p[0] = 0.2
    >>> would_be_card(p)
    False
    """
    cards = probs[:REJECT]
    k = int(cards.argmax())
    return bool(cards[k] >= min_card or (k in _JOKER_IDS and cards[k] >= 0.1))


def _box(b: np.ndarray) -> Box:
    return (float(b[0]), float(b[1]), float(b[2]), float(b[3]))


def _stray_reader(models: Path | None) -> CardReader:
    reader = CardReader.load(models)
    reader.settings = replace(reader.settings, detect_threshold=STRAY_DETECT)
    return reader


Stray = tuple[Box, int]
"""A stray box and the card (class id) the classifier read in it."""


def _read_as_cards(reader: CardReader, image: np.ndarray, boxes: list[np.ndarray], keep: Callable[[np.ndarray], bool]) -> list[Stray]:
    """Those of ``boxes`` whose read (55 probabilities) ``keep`` accepts, with the card read."""
    if not boxes:
        return []
    probs, _, _ = reader.classify(image, np.array(boxes, np.float32))
    return [(_box(b), int(p[:REJECT].argmax())) for b, p in zip(boxes, probs, strict=True) if keep(p)]


def scene_strays(reader: CardReader, image: np.ndarray, meta: dict[str, Any], min_card: float = MIN_CARD) -> list[Stray]:
    """The stray boxes of one generated scene that the classifier reads as a card."""
    indices = [tuple(i["box"]) for i in meta["indices"]]
    boxes, _ = reader.detect(image)
    return _read_as_cards(reader, image, [b for b in boxes if is_stray(tuple(b), indices)],
                          lambda p: would_be_card(p, min_card))


def photo_strays(reader: CardReader, image: np.ndarray, card: str, min_card: float = MIN_CARD) -> list[Stray]:
    """The boxes of a single-card photo of ``card`` that lie away from its corners and read as
    another card."""
    h, w = image.shape[:2]
    boxes, _ = reader.detect(image)
    label = CARD_NAMES.index(card)
    return _read_as_cards(reader, image, [b for b in boxes if corner_of(tuple(b), w, h) is None],
                          lambda p: would_be_card(p, min_card) and int(p[:REJECT].argmax()) != label)


def _reject_crops(image: np.ndarray, boxes: list[Box], rng: np.random.Generator, scales: Sequence[float]) -> np.ndarray:
    if not boxes:
        return np.zeros((0, 40, 40, 3), np.uint8)
    crops: np.ndarray = photo_crops(image, [LabelledBox(b, REJECT, float("nan"), -1) for b in boxes], rng, scales)[0]
    return crops


def write_hard_crops(out: Path, scene_sets: Sequence[Path] = (), real: Path | None = None, split: str | None = "train",
                     seed: int = 0, models: Path | None = None, val_every: int = 10, scene_copies: int = SCENE_COPIES,
                     progress: bool = True) -> dict[str, Any]:
    """Search the scene sets and the real photos for stray boxes and write their crops to
    ``out/crops``; returns the counts (also in ``out/hard-crops.json``). A photo's stray is cut
    at the scales of :func:`datasets.realcrops.photo_crops`; a scene's ``scene_copies`` times,
    each with its own small shift and a camera's look."""
    reader = _stray_reader(models)
    (out / "crops").mkdir(parents=True, exist_ok=True)
    counts: dict[str, Any] = {"scenes": 0, "scene_strays": 0, "photos": 0, "photo_strays": 0, "joker_strays": 0, "crops": 0}
    scenes: list[tuple[Path, Path]] = []
    for folder in scene_sets:
        metas = sorted((folder / "meta").glob("*.json"))
        if not metas:
            raise OSError(2, "No meta/*.json (not a `tuolaji generate` set)", str(folder))
        scenes += [(folder, m) for m in metas]
    photos = list(enumerate(load_real_folder(real, split))) if real is not None else []
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(scenes) + len(photos), desc="hard-crops", unit="picture")

    def write(name: str, strays: list[Stray], x: np.ndarray) -> None:
        counts["joker_strays"] += sum(card in _JOKER_IDS for _, card in strays)
        if not len(x):
            return
        counts["crops"] += len(x)
        np.savez_compressed(out / "crops" / f"{name}.npz", x=x, y=np.full(len(x), REJECT, np.int64),
                            angle=np.full(len(x), np.nan, np.float32), side=np.full(len(x), -1, np.int8))

    for n, (folder, meta_path) in enumerate(scenes):
        if bar is not None:
            bar.update()
        meta = json.loads(meta_path.read_text())
        image = read_image_file(folder / meta["image"])
        strays = scene_strays(reader, image, meta)
        counts["scenes"] += 1
        counts["scene_strays"] += len(strays)
        write(f"{folder.name}-{meta_path.stem}", strays,
              _reject_crops(image, [b for b, _ in strays], np.random.default_rng([seed, n]), (1.0,) * scene_copies))
    for number, photo in photos:
        if bar is not None:
            bar.update()
        if number % val_every == 0 or len(photo.cards) != 1 or photo.cards[0] == ANY_JOKER:
            continue
        image = read_image_file(photo.image)
        strays = photo_strays(reader, image, photo.cards[0])
        counts["photos"] += 1
        counts["photo_strays"] += len(strays)
        rng = np.random.default_rng([seed, len(scenes) + number])
        write(f"photo-{photo.image.stem}", strays, _reject_crops(image, [b for b, _ in strays], rng, SCALES))
    if bar is not None:
        bar.close()
    counts.update(scene_sets=[str(s) for s in scene_sets], real=str(real) if real else None, split=split, seed=seed,
                  scene_copies=scene_copies)
    (out / "hard-crops.json").write_text(json.dumps(counts, indent=1) + "\n", encoding="utf-8")
    return counts
