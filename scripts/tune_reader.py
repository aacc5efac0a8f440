"""Choose the reader's thresholds by the mean card F1 of a real-photo tuning folder and synthetic tuning sets.

Each image is detected and classified once (detection threshold 0.25), and its faces read once
where the models have a face reader; every combination of ``detector_weight``,
``card_threshold``, ``class_threshold``, ``joker_threshold`` and ``face_threshold`` (0: no face
reads) then only re-filters, re-groups and re-merges. Prints the ten best; writes nothing (copy the chosen values into
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

from tuolaji.datasets.realeval import RealTally, load_real_folder, real_samples  # noqa: E402
from tuolaji.training.evaluate import Tally, samples_from_folder, score_image  # noqa: E402
from tuolaji.vision.detector import CardReader  # noqa: E402
from tuolaji.vision.face import card_quads  # noqa: E402

GRID = {
    "detector_weight": (0.25,),
    "card_threshold": (0.35, 0.4, 0.45),
    "class_threshold": (0.25, 0.3),
    "joker_threshold": (0.6, 0.65, 0.7),
    "face_threshold": (0.0, 0.7, 0.8, 0.9),
    "small_index_px": (18.0,),
    "small_card_threshold": (0.35,),
}
"""The values tried. The index thresholds were chosen on a wider grid with the corner reader
alone (detector weight 0.5/0.25/0.1, card 0.35/0.4/0.45, class 0.3/0.4, joker 0.5/0.7/0.85);
with the face reader the grid holds them near that choice and searches the face threshold. The
small cards' threshold was chosen with the others fixed (indices under 14/18/22/26/30 px, from
0.25-0.5: models/README.md, session 11)."""


def main() -> int:
    models, real_folder, *synthetic_sets = (Path(a) for a in sys.argv[1:])
    reader = CardReader.load(models, face_threshold=0.5)
    reader.settings = dataclasses.replace(reader.settings, detect_threshold=0.25)
    grid = GRID if reader.has_faces else {**GRID, "face_threshold": (0.0,)}

    def outputs_of(image) -> tuple:
        boxes, scores = reader.detect(image)
        quads = card_quads(image)  # found once: the faces read in them, the corners joined on them
        faces = reader.face_reads(image, quads=quads) if reader.has_faces else ([], None)
        return (boxes, scores, *reader.classify(image, boxes)), (*faces, quads)

    def cards_of(outputs: tuple, faces: tuple) -> list:
        *faces, quads = faces
        cards = reader.cards_from(reader.readings_from(*outputs), quads)
        return reader.merge_faces(cards, *faces) if reader.settings.face_threshold > 0 else cards

    real = [(list(photo.cards), *outputs_of(image)) for photo, image in real_samples(load_real_folder(real_folder))]
    syn = [[(truth, *outputs_of(image)) for image, truth in samples_from_folder(folder)] for folder in synthetic_sets]
    rows = []
    for values in itertools.product(*grid.values()):
        choice = dict(zip(grid, values, strict=True))
        reader.settings = dataclasses.replace(reader.settings, **choice)
        real_tally = RealTally()
        for cards, outputs, faces in real:
            real_tally.add([c.card for c in cards_of(outputs, faces)], cards)
        f1s = []
        for samples in syn:
            tally = Tally()
            for truth, outputs, faces in samples:
                score_image(cards_of(outputs, faces), truth, tally)
            f1s.append(tally.metrics()["f1"])
        r = real_tally.metrics()
        rows.append(((r["f1"] + sum(f1s)) / (1 + len(f1s)), choice, r["f1"], r["false_jokers_per_100_photos"], f1s))
    for mean, choice, real_f1, jokers, f1s in sorted(rows, key=lambda row: -row[0])[:10]:
        print(f"mean F1 {mean:.4f}  {choice}  real {real_f1:.4f} (false jokers {jokers}/100)  synthetic "
              + " ".join(f"{f:.4f}" for f in f1s))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
