"""Measuring the card reader: card-level precision, recall, F1 and exact-image rate.

The reader runs on a held-out synthetic set: a different seed *and* the holdout
split of fonts, surfaces and card designs (see :mod:`datasets.cardart`). A predicted
card is correct when its corner indices lie on a ground-truth card of the same name
that no other prediction has claimed; a second prediction for one physical card is a
false positive, a card with a visible index that nobody reads is a false negative. An
image is exact when it has no false positive and no false negative. Recall is sliced by
rotation, overlap, blur and card size. The command is ``tuolaji eval-detector``
(:mod:`tuolaji.eval_detector`).
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from tuolaji.vision.detector import CardInstance, CardReader, read_image_file


@dataclass
class Truth:
    """Ground truth of one image, as needed for matching."""

    index_boxes: np.ndarray  # K×4 boxes of indices at least partly visible
    index_cards: list[int]  # card_id of each
    cards: dict[int, dict]  # card_id -> {"card", "readable", "slices": {...}, "box": visible card bbox or None}
    blur: float = 0.0


@dataclass
class Tally:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    images: int = 0
    exact: int = 0
    slices: dict = field(default_factory=lambda: defaultdict(lambda: [0, 0]))  # slice -> [found, total]
    seconds: list = field(default_factory=list)

    def metrics(self) -> dict:
        p = self.tp / max(1, self.tp + self.fp)
        r = self.tp / max(1, self.tp + self.fn)
        f1 = 2 * p * r / max(1e-9, p + r)
        return {
            "images": self.images,
            "cards": self.tp + self.fn,
            "precision": round(p, 4),
            "recall": round(r, 4),
            "f1": round(f1, 4),
            "exact_image_rate": round(self.exact / max(1, self.images), 4),
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "recall_by_slice": {k: {"recall": round(v[0] / max(1, v[1]), 4), "cards": v[1]}
                                for k, v in sorted(self.slices.items())},
            "read_ms_p50": round(float(np.median(self.seconds)) * 1000, 1) if self.seconds else None,
        }


def card_slices(angle_deg: float, covered: float, blur: float, height_px: float) -> dict[str, str]:
    """The slice names of one ground-truth card.

    >>> card_slices(93.0, 0.5, 0.0, 120.0)
    {'rotation': 'axis', 'overlap': 'partly covered', 'blur': 'sharp', 'size': 'medium'}
    """
    off_axis = min(angle_deg % 90, 90 - angle_deg % 90)
    return {
        "rotation": "axis" if off_axis <= 15 else "oblique",
        "overlap": "free" if covered < 0.15 else "partly covered" if covered < 0.6 else "fanned/mostly covered",
        "blur": "sharp" if blur < 0.3 else "soft" if blur < 1.2 else "blurred",
        "size": "small" if height_px < 80 else "medium" if height_px < 140 else "large",
    }


def truth_from_meta(meta: dict) -> Truth:
    blur = float(meta["info"].get("blur", 0.0))
    boxes, ids = [], []
    for idx in meta["indices"]:
        if idx["visible"] >= 0.3:
            boxes.append(idx["box"])
            ids.append(idx["card_id"])
    cards = {}
    for c in meta["cards"]:
        cards[c["card_id"]] = {
            "card": c["card"],
            "readable": bool(c["readable"]),
            "slices": card_slices(c["angle_deg"], c["covered"], blur, c["height_px"]),
            "box": c.get("box"),
        }
    return Truth(np.array(boxes, float).reshape(-1, 4), ids, cards, blur)


def _card_under(box: tuple[float, ...], truth: Truth) -> list[int]:
    """The truth card whose visible outline a face read's box overlaps most (IoU >= 0.5), if any."""
    ids = [card_id for card_id, gt in truth.cards.items() if gt.get("box") is not None]
    if not ids:
        return []
    overlaps = _iou(box, np.array([truth.cards[i]["box"] for i in ids], float).reshape(-1, 4))
    best = int(overlaps.argmax())
    return [ids[best]] if overlaps[best] >= 0.5 else []


def _iou(box: tuple[float, ...], boxes: np.ndarray) -> np.ndarray:
    x1 = np.maximum(box[0], boxes[:, 0])
    y1 = np.maximum(box[1], boxes[:, 1])
    x2 = np.minimum(box[2], boxes[:, 2])
    y2 = np.minimum(box[3], boxes[:, 3])
    inter = (x2 - x1).clip(0) * (y2 - y1).clip(0)
    a = (box[2] - box[0]) * (box[3] - box[1])
    b = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    return inter / np.maximum(a + b - inter, 1e-9)


def score_image(predicted: list[CardInstance], truth: Truth, tally: Tally) -> tuple[int, int, int]:
    """Match one image's predictions to its truth; add to ``tally``; return (tp, fp, fn)."""
    claimed: set[int] = set()
    tp = fp = 0
    for card in sorted(predicted, key=lambda c: -c.confidence):
        votes: Counter[int] = Counter()
        for index in card.indices:
            if len(truth.index_boxes):
                overlaps = _iou(index.box, truth.index_boxes)
                best = int(overlaps.argmax())
                if overlaps[best] >= 0.3:
                    votes[truth.index_cards[best]] += 1
        if not card.indices:  # a card read from its whole face: the card whose outline it fills
            votes.update(_card_under(card.box, truth))
        card_id = votes.most_common(1)[0][0] if votes else None
        gt = truth.cards.get(card_id) if card_id is not None else None
        if gt is not None and gt["card"] == card.card and card_id not in claimed:
            claimed.add(card_id)
            if gt["readable"]:
                tp += 1
            continue  # a correct read of a barely visible card is neither right nor wrong
        fp += 1
    fn = 0
    for card_id, gt in truth.cards.items():
        if not gt["readable"]:
            continue
        found = card_id in claimed
        fn += not found
        for axis, name in gt["slices"].items():
            tally.slices[f"{axis}: {name}"][0] += found
            tally.slices[f"{axis}: {name}"][1] += 1
    tally.tp += tp
    tally.fp += fp
    tally.fn += fn
    tally.images += 1
    tally.exact += fp == 0 and fn == 0
    return tp, fp, fn


def evaluate(reader: CardReader, samples, progress: bool = True) -> dict:
    """Evaluate ``reader`` on an iterable of (BGR image, Truth)."""
    tally = Tally()
    read_and_score(reader, samples, lambda cards, truth: score_image(cards, truth, tally), tally.seconds, progress, "image")
    return tally.metrics()


def read_and_score(reader: CardReader, samples, score, seconds: list[float], progress: bool, unit: str,
                   total: int | None = None) -> None:
    """Read each (BGR image, truth) of ``samples``, timing the read into ``seconds``, and pass the
    cards with the truth to ``score``; with ``progress``, a bar on stderr."""
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(desc="eval-detector", unit=unit, file=sys.stderr, total=total)
    for image, truth in samples:
        t0 = time.perf_counter()
        cards = reader.read(image)
        seconds.append(time.perf_counter() - t0)
        score(cards, truth)
        if bar is not None:
            bar.update()
    if bar is not None:
        bar.close()


def samples_from_folder(folder: Path):
    metas = sorted((folder / "meta").glob("*.json"))
    if not metas:
        raise OSError(2, "No meta/*.json (not a `tuolaji generate` set)", str(folder))
    for path in metas:
        meta = json.loads(path.read_text())
        yield read_image_file(folder / meta["image"]), truth_from_meta(meta)


def samples_generated(count: int, seed: int, split: str):
    from dataclasses import asdict

    from tuolaji.datasets.scenes import generate_scene

    for i in range(count):
        scene = generate_scene(seed, i, 640, 480, split)
        meta = {"info": scene.info, "cards": [asdict(c) for c in scene.cards],
                "indices": [asdict(x) for x in scene.indices]}
        yield scene.image, truth_from_meta(meta)


def format_report(m: dict) -> str:
    lines = [
        f"images {m['images']}  cards {m['cards']}  precision {m['precision']:.3f}  recall {m['recall']:.3f}  "
        f"F1 {m['f1']:.3f}  exact-image {m['exact_image_rate']:.3f}  (tp {m['tp']}, fp {m['fp']}, fn {m['fn']})",
        f"read time p50 {m['read_ms_p50']} ms per frame",
        "recall by slice:",
    ]
    for name, v in m["recall_by_slice"].items():
        lines.append(f"  {name:32s} {v['recall']:.3f}  ({v['cards']} cards)")
    return "\n".join(lines)


FIXED_TEST_SET = Path(__file__).resolve().parent.parent / "tests" / "data" / "detector"

TUNING_GRID = {
    "detector_weight": (1.0, 0.5, 0.25, 0.1),
    "detect_threshold": (0.03, 0.05, 0.1, 0.15, 0.25),
    "class_threshold": (0.3, 0.4, 0.6),
    "card_threshold": (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7),
}


def tune_thresholds(reader: CardReader, samples, grid: dict | None = None) -> tuple[dict, dict]:
    """The reader settings of ``grid`` with the best card F1 (then precision) on ``samples``, and their metrics.

    Each image is detected and classified once at the lowest detection threshold; every
    combination then only re-filters, re-groups and re-scores.
    """
    import dataclasses
    import itertools

    grid = grid or TUNING_GRID
    reader.settings = dataclasses.replace(reader.settings, detect_threshold=min(grid["detect_threshold"]))
    cache = []
    for image, truth in samples:
        boxes, scores = reader.detect(image)
        probs, up, side = reader.classify(image, boxes)
        cache.append((boxes, scores, probs, up, side, truth))
    best: tuple[tuple[float, float], dict, dict] | None = None
    names = list(grid)
    for values in itertools.product(*(grid[n] for n in names)):
        choice = dict(zip(names, values, strict=True))
        reader.settings = dataclasses.replace(reader.settings, **choice)
        tally = Tally()
        for boxes, scores, probs, up, side, truth in cache:
            keep = scores >= choice["detect_threshold"]
            readings = reader.readings_from(boxes[keep], scores[keep], probs[keep], up[keep], side[keep])
            score_image(reader.cards_from(readings), truth, tally)
        metrics = tally.metrics()
        key = (metrics["f1"], metrics["precision"])
        if best is None or key > best[0]:
            best = (key, choice, metrics)
    assert best is not None
    reader.settings = dataclasses.replace(reader.settings, **best[1])
    return best[1], best[2]


def evaluate_real(reader: CardReader, photos, progress: bool = True) -> dict:
    """Evaluate ``reader`` on real photos (see :mod:`datasets.realeval`)."""
    from tuolaji.datasets.realeval import RealTally, real_samples

    tally = RealTally()
    samples = ((image, photo.cards) for photo, image in real_samples(photos))
    read_and_score(reader, samples, lambda cards, listed: tally.add([c.card for c in cards], list(listed)),
                   tally.seconds, progress, "photo", len(photos))
    return tally.metrics()
