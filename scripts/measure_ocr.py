"""Measure a ready-made OCR model from the registries as a card reader (the issue asked to,
before deciding): rapidocr-onnxruntime 1.4.4, whose wheel carries PP-OCRv4's text detector and
recogniser (Chinese and Latin) as ONNX files. It is not a dependency of tuolaji: run it in a
venv of its own (it pulls in the GUI build of OpenCV, which the project keeps out)::

    python3 -m venv /tmp/ocrvenv && /tmp/ocrvenv/bin/pip install rapidocr-onnxruntime==1.4.4
    /tmp/ocrvenv/bin/python scripts/measure_ocr.py crops data/sets/real-val
    /tmp/ocrvenv/bin/python scripts/measure_ocr.py photos ../shared/realcards/table-photos

``crops DIR``: the index crops of a ``tuolaji real-crops`` set (``DIR/crops/*.npz``), each turned
upright and cut to its rank (the crop's upper part), read by the recogniser alone; the ranks it
reads right, beside ``models/classifier.onnx`` on the same crops (its rank only).
``photos DIR``: whole photos (``DIR/images``, ``DIR/labels``) through detection and recognition;
for how many listed cards one of the texts read is the card's rank. Results: models/README.md,
section "A ready-made OCR model".
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort
from rapidocr_onnxruntime import RapidOCR

REPO = Path(__file__).resolve().parent.parent
CLASSES = json.loads((REPO / "models" / "cards.json").read_text())["classifier_classes"]
JOKERS = ("SJ", "BJ", "JK")


def rank_of(card: str) -> str:
    """The rank a card shows in its corner ("JOKER" for either joker)."""
    return "JOKER" if card in JOKERS else card[:-1]


def ranks_in(text: str) -> list[str]:
    """The ranks a short OCR text reads (I/O misread for 1/0 in "10" allowed)."""
    t = text.upper().replace(" ", "")
    if "JOK" in t or "OKER" in t:
        return ["JOKER"]
    if len(t) > 3:
        return []
    t = t.replace("IO", "10").replace("1O", "10").replace("I0", "10").replace("LO", "10")
    return re.findall(r"10|[AJQK2-9]", t)


def measure_crops(folder: Path) -> None:
    xs, ys, angles = [], [], []
    for file in sorted((folder / "crops").glob("*.npz")):
        with np.load(file) as data:
            card = data["y"] != CLASSES.index("reject")
            xs.append(data["x"][card])
            ys.append(data["y"][card])
            angles.append(data["angle"][card])
    x, y, angle = np.concatenate(xs), np.concatenate(ys), np.concatenate(angles)
    truth = [rank_of(CLASSES[k]) for k in y]
    ocr = RapidOCR()
    read: list[str | None] = []
    start = time.perf_counter()
    for crop, a in zip(x, angle, strict=True):
        upright = cv2.warpAffine(crop, cv2.getRotationMatrix2D((19.5, 19.5), float(a), 1.0), (40, 40),
                                 borderMode=cv2.BORDER_REPLICATE)
        rank_part = cv2.resize(upright[2:24, 4:36], (96, 66), interpolation=cv2.INTER_CUBIC)
        result, _ = ocr(rank_part, use_det=False, use_cls=False, use_rec=True)
        ranks = ranks_in(result[0][0]) if result else []
        read.append(ranks[0] if ranks else None)
    ocr_ms = (time.perf_counter() - start) * 1000 / len(x)
    session = ort.InferenceSession(str(REPO / "models" / "classifier.onnx"), providers=["CPUExecutionProvider"])
    blob = np.ascontiguousarray(x.transpose(0, 3, 1, 2), dtype=np.float32) / 255
    probs = session.run(None, {session.get_inputs()[0].name: blob})[0]
    classifier = [rank_of(CLASSES[k]) for k in probs.argmax(axis=1)]
    n = len(x)
    wrong = [i for i in range(n) if classifier[i] != truth[i]]
    jokers = [i for i in range(n) if truth[i] == "JOKER"]
    print(f"{folder}: {n} index crops; rank read right: OCR {sum(r == t for r, t in zip(read, truth, strict=True)) / n:.3f} "
          f"(no rank read: {sum(r is None for r in read) / n:.3f}), classifier.onnx "
          f"{sum(c == t for c, t in zip(classifier, truth, strict=True)) / n:.3f}; OCR {ocr_ms:.1f} ms a crop")
    print(f"  of the {len(wrong)} the classifier reads wrong, OCR reads {sum(read[i] == truth[i] for i in wrong)} right; "
          f"OCR reads another rank on {sum(read[i] not in (None, truth[i]) and classifier[i] == truth[i] for i in range(n))} "
          f"the classifier reads right; jokers ({len(jokers)}): OCR {sum(read[i] == 'JOKER' for i in jokers)}, "
          f"classifier {sum(classifier[i] == 'JOKER' for i in jokers)}")


def measure_photos(folder: Path) -> None:
    ocr = RapidOCR()
    found = listed = stray = 0
    labels = sorted((folder / "labels").glob("*.json"))
    start = time.perf_counter()
    for label in labels:
        cards = json.loads(label.read_text())["cards"]
        image = cv2.imread(str(next((folder / "images").glob(label.stem + ".*"))))
        result, _ = ocr(image)
        seen = Counter(rank for _box, text, _score in (result or []) for rank in ranks_in(text))
        wanted = Counter(rank_of(card) for card in cards)
        found += sum((seen & wanted).values())
        listed += sum(wanted.values())
        stray += sum((seen - wanted).values())
    seconds = (time.perf_counter() - start) / len(labels)
    print(f"{folder}: {len(labels)} photos, {listed} cards: a rank of theirs read for {found / listed:.3f} of them "
          f"(text only: no suit), {stray} ranks read that no listed card has; {seconds:.2f} s a photo")


if __name__ == "__main__":
    what, where = sys.argv[1], Path(sys.argv[2])
    measure_crops(where) if what == "crops" else measure_photos(where)
