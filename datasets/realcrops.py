"""Classifier crops from real photos of single cards (the command is ``tuolaji real-crops``).

A photo of one card, the card filling the picture upright (as in the ``cards-crops``
folders: ``images/`` and ``labels/<stem>.json`` = ``{"cards": ["7S"], "split": "train"}``),
holds its corner indices near the picture's corners. The shipped detector finds index
boxes; the sure box nearest each corner is that corner's index, and it reads the
photo's card, facing up (top corners) or down (bottom corners), a left-hand corner
(top-left, bottom-right) or a right-hand one. Sure boxes away from the corners (pips,
court faces, ornaments) are written as "not an index" crops: they teach the classifier
not to see a card, or a joker, in a lone pip or a face.

Each index is cut at several scales (the whole photo shrunk first, so a 40 px index also
gives the 10-20 px indices a table camera sees), with the gap between a clean photo and
a table camera put in: white balance, defocus or motion blur, and phone JPEG.

The crops go to ``OUT/crops/*.npz`` in the layout of ``tuolaji generate --crops`` (``x``
uint8 N×40×40×3 BGR, ``y`` class ids, ``angle`` clockwise degrees, ``side`` 0 left-hand,
1 right-hand, -1 unknown), so ``tuolaji train classifier --train OUT`` reads them.

>>> corner_of((10, 10, 30, 40), 224, 224)
'top-left'
>>> corner_of((100, 100, 120, 130), 224, 224) is None
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from tuolaji.datasets.realeval import ANY_JOKER, load_real_folder
from tuolaji.vision.cardcrop import crop_index
from tuolaji.vision.detector import CARD_NAMES, REJECT, CardReader, read_image_file

CORNER_REACH = 0.3
"""A box is a corner's index when its centre lies within this fraction of the picture's
width and height from that corner."""

SURE_BOX = 0.45
"""The detector score from which a box is used at all (an index, or a crop of what is not one)."""

SCALES = (1.0, 0.72, 0.52, 0.4, 0.3)
"""The photo is shrunk by each of these before its crops are cut."""

SMALLEST_INDEX = 11.0
"""No crop is cut of an index shorter than this (pixels, after shrinking): below it the
card cannot be read, and a crop labelled with it would teach guessing."""

# facing (clockwise degrees of the card's top) and side of each corner of an upright card
CORNERS: dict[str, tuple[float, int]] = {
    "top-left": (0.0, 0),
    "top-right": (0.0, 1),
    "bottom-right": (180.0, 0),
    "bottom-left": (180.0, 1),
}


def corner_of(box: tuple[float, float, float, float], width: int, height: int) -> str | None:
    """The corner of the picture whose index ``box`` may be, or None (far from every corner)."""
    cx, cy = (box[0] + box[2]) / 2 / width, (box[1] + box[3]) / 2 / height
    horizontal = "left" if cx < CORNER_REACH else "right" if cx > 1 - CORNER_REACH else None
    vertical = "top" if cy < CORNER_REACH else "bottom" if cy > 1 - CORNER_REACH else None
    return f"{vertical}-{horizontal}" if horizontal and vertical else None


@dataclass(frozen=True)
class LabelledBox:
    box: tuple[float, float, float, float]
    label: int  # class id (REJECT: not an index)
    angle: float
    side: int


def label_boxes(boxes: np.ndarray, scores: np.ndarray, card: str, width: int, height: int) -> list[LabelledBox]:
    """The sure boxes of one single-card photo, labelled: the best box of each corner reads
    ``card``; sure boxes far from every corner are rejects; the rest (a second box in a
    corner) are left out, being neither surely the index nor surely not one."""
    label = CARD_NAMES.index(card)
    best: dict[str, int] = {}
    out: list[LabelledBox] = []
    for i, (box, score) in enumerate(zip(boxes, scores, strict=True)):
        if score < SURE_BOX:
            continue
        corner = corner_of(tuple(box), width, height)
        if corner is None:
            out.append(LabelledBox(tuple(float(v) for v in box), REJECT, float("nan"), -1))
        elif corner not in best or score > scores[best[corner]]:
            best[corner] = i
    for corner, i in best.items():
        angle, side = CORNERS[corner]
        out.append(LabelledBox(tuple(float(v) for v in boxes[i]), label, angle, side))
    return out


def camera_look(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``image`` as a table camera might give it: white balance, sometimes defocus or motion
    blur, then JPEG at a phone's or webcam's quality."""
    out = image.astype(np.float32) * rng.uniform(0.8, 1.15, 3).astype(np.float32) + np.float32(rng.uniform(-20, 15))
    blur = rng.random()
    if blur < 0.25:
        out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.5, 1.4)))
    elif blur < 0.4:
        length = int(rng.integers(3, 7))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1.0 / length
        rotation = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), float(rng.uniform(0, 180)), 1.0)
        kernel = cv2.warpAffine(kernel, rotation, (length, length))
        out = cv2.filter2D(out, -1, kernel / max(float(kernel.sum()), 1e-6))
    out = np.clip(out, 0, 255).astype(np.uint8)
    quality = int(rng.integers(35, 92))
    ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else out


def photo_crops(image: np.ndarray, boxes: list[LabelledBox], rng: np.random.Generator,
                scales: Iterable[float] = SCALES) -> tuple[np.ndarray, ...]:
    """The crops of one photo's labelled boxes at each scale: (x, y, angle, side)."""
    xs, ys, angles, sides = [], [], [], []
    h, w = image.shape[:2]
    for scale in scales:
        small = image if scale == 1.0 else cv2.resize(image, (max(8, round(w * scale)), max(8, round(h * scale))),
                                                       interpolation=cv2.INTER_AREA)
        small = camera_look(small, rng)
        fx, fy = small.shape[1] / w, small.shape[0] / h
        for b in boxes:
            if b.label != REJECT and max(b.box[2] - b.box[0], b.box[3] - b.box[1]) * scale < SMALLEST_INDEX:
                continue
            jitter = rng.normal(0, 0.04, 4) * max(b.box[2] - b.box[0], b.box[3] - b.box[1])
            box = ((b.box[0] + jitter[0]) * fx, (b.box[1] + jitter[1]) * fy, (b.box[2] + jitter[2]) * fx, (b.box[3] + jitter[3]) * fy)
            xs.append(crop_index(small, box))
            ys.append(b.label)
            angles.append(b.angle)
            sides.append(b.side)
    if not xs:
        return np.zeros((0, 40, 40, 3), np.uint8), np.zeros(0, np.int64), np.zeros(0, np.float32), np.zeros(0, np.int8)
    return np.stack(xs), np.array(ys, np.int64), np.array(angles, np.float32), np.array(sides, np.int8)


def write_real_crops(folder: Path, out: Path, split: str | None, seed: int, models: Path | None = None,
                     progress: bool = True, val_out: Path | None = None, val_every: int = 10) -> dict:
    """Write the crops of every single-card photo of ``folder`` (of ``split``) to ``out/crops``;
    returns the counts (also written to ``out/real-crops.json``). With ``val_out``, every
    ``val_every``-th photo goes there instead: a validation set from the training photos
    (whose photos are linked into ``val_out/photos``, to be scored as a real-photo folder)."""
    photos = load_real_folder(folder, split)
    reader = CardReader.load(models)
    (out / "crops").mkdir(parents=True, exist_ok=True)
    if val_out is not None:
        (val_out / "crops").mkdir(parents=True, exist_ok=True)
    counts = {"photos": 0, "skipped_not_single": 0, "photos_without_index": 0, "index_crops": 0, "reject_crops": 0}
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(photos), desc="real-crops", unit="photo")
    for number, photo in enumerate(photos):
        if bar is not None:
            bar.update()
        if len(photo.cards) != 1:
            counts["skipped_not_single"] += 1
            continue
        card = photo.cards[0]
        image = read_image_file(photo.image)
        boxes, scores = reader.detect(image)
        h, w = image.shape[:2]
        names = ("SJ", "BJ") if card == ANY_JOKER else (card,)
        rng = np.random.default_rng([seed, number])
        # a joker of unknown kind: 小王 is the black one (its index has no red ink)
        name = names[0] if len(names) == 1 else _joker_kind(image, boxes, scores)
        labelled = label_boxes(boxes, scores, name, w, h)
        if not any(b.label != REJECT for b in labelled):
            counts["photos_without_index"] += 1
        x, y, angle, side = photo_crops(image, labelled, rng)
        counts["photos"] += 1
        counts["index_crops"] += int((y != REJECT).sum())
        counts["reject_crops"] += int((y == REJECT).sum())
        target = val_out if val_out is not None and number % val_every == 0 else out
        if target is val_out:
            _link_photo(photo, val_out / "photos")
        if len(y):
            np.savez_compressed(target / "crops" / f"{photo.image.stem}.npz", x=x, y=y, angle=angle, side=side)
    if bar is not None:
        bar.close()
    counts.update(source=str(folder), split=split, seed=seed)
    (out / "real-crops.json").write_text(json.dumps(counts, indent=1) + "\n", encoding="utf-8")
    return counts


def _link_photo(photo, folder: Path) -> None:
    """A validation photo, linked (not copied) into ``folder/images`` and ``folder/labels``, so that
    ``tuolaji eval-detector --real folder`` scores the photos whose crops were held out."""
    for kind, source in (("images", photo.image), ("labels", photo.image.parent.parent / "labels" / f"{photo.image.stem}.json")):
        target = folder / kind / source.name
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists():
            target.symlink_to(source.resolve())


def _joker_kind(image: np.ndarray, boxes: np.ndarray, scores: np.ndarray) -> str:
    """``BJ`` (大王, the coloured joker) when the sure corner boxes hold red ink, else ``SJ``."""
    h, w = image.shape[:2]
    red = []
    for box, score in zip(boxes, scores, strict=True):
        if score < SURE_BOX or corner_of(tuple(box), w, h) is None:
            continue
        x1, y1, x2, y2 = (int(round(v)) for v in box)
        patch = image[max(0, y1):y2, max(0, x1):x2].astype(np.int32)
        if patch.size:
            ink = patch.sum(axis=2) < 500
            reddish = (patch[..., 2] - np.maximum(patch[..., 0], patch[..., 1])) > 60
            red.append(float((reddish & ink).sum()) / max(1.0, float(ink.sum())))
    return "BJ" if red and max(red) > 0.3 else "SJ"
