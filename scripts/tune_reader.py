"""Choose the reader's thresholds by the mean card F1 of a real-photo tuning folder and synthetic tuning sets.

Each image is detected and classified once (detection threshold 0.25); every combination of
``detector_weight``, ``card_threshold``, ``class_threshold`` and ``joker_threshold`` then only
re-filters and re-groups. Prints the ten best; writes nothing (copy the chosen values into
``models/cards.json``, ``reader``). Never run it on a set that measures the reader.

Usage: ``.venv/bin/python scripts/tune_reader.py MODELS REAL_PHOTO_FOLDER SYNTHETIC_SET...``, e.g.
``scripts/tune_reader.py models data/sets/real-val/photos data/sets/tune400 data/sets/tune-ra``.
"""

from __future__ import annotations

import dataclasses
import itertools
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from datasets.realeval import RealTally, load_real_folder, real_samples  # noqa: E402
from training.evaluate import Tally, samples_from_folder, score_image  # noqa: E402
from vision.detector import CardReader  # noqa: E402

GRID = {
    "detector_weight": (0.5, 0.25, 0.1),
    "card_threshold": (0.35, 0.4, 0.45),
    "class_threshold": (0.3, 0.4),
    "joker_threshold": (0.5, 0.7, 0.85),
}


def main() -> int:
    models, real_folder, *synthetic_sets = (Path(a) for a in sys.argv[1:])
    reader = CardReader.load(models)
    reader.settings = dataclasses.replace(reader.settings, detect_threshold=0.25)
    real = []
    for photo, image in real_samples(load_real_folder(real_folder)):
        boxes, scores = reader.detect(image)
        real.append((list(photo.cards), boxes, scores, *reader.classify(image, boxes)))
    syn: list[list] = []
    for folder in synthetic_sets:
        syn.append([])
        for image, truth in samples_from_folder(folder):
            boxes, scores = reader.detect(image)
            syn[-1].append((truth, boxes, scores, *reader.classify(image, boxes)))
    rows = []
    for values in itertools.product(*GRID.values()):
        choice = dict(zip(GRID, values, strict=True))
        reader.settings = dataclasses.replace(reader.settings, **choice)
        real_tally = RealTally()
        for cards, *outputs in real:
            real_tally.add([c.card for c in reader.cards_from(reader.readings_from(*outputs))], cards)
        f1s = []
        for samples in syn:
            tally = Tally()
            for truth, *outputs in samples:
                score_image(reader.cards_from(reader.readings_from(*outputs)), truth, tally)
            f1s.append(tally.metrics()["f1"])
        r = real_tally.metrics()
        rows.append(((r["f1"] + sum(f1s)) / (1 + len(f1s)), choice, r["f1"], r["false_jokers_per_100_photos"], f1s))
    for mean, choice, real_f1, jokers, f1s in sorted(rows, key=lambda row: -row[0])[:10]:
        print(f"mean F1 {mean:.4f}  {choice}  real {real_f1:.4f} (false jokers {jokers}/100)  synthetic "
              + " ".join(f"{f:.4f}" for f in f1s))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
