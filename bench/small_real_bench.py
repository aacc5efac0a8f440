"""Real cards at a table's sizes: photos of single real cards (a folder as ``tuolaji eval-detector --real``
takes) shrunk to a webcam's size on a plain cloth, read as a photo is read, scored per card.

Each photo is drawn once at each of ``--heights`` (the card's height in pixels of a 640×480 frame; a
webcam over a table sees cards 90-140 px tall), turned at random, on a cloth of a random dull colour.
The black suits' confusion is what this measures best: real printing at the sizes where ♠ and ♣ are
told apart by a few pixels. Prints one report per height, then as its last line exactly::

    f1=F spades_as_clubs=A/N clubs_as_spades=B/M

Usage: ``.venv/bin/python bench/small_real_bench.py [--real data/sets/real-val/photos] [--split NAME]
[--heights 100 130] [--models DIR] [--limit N]`` (the default folder is the held-out tenth of
``cards-crops``' train split, as ``tuolaji real-crops --val-out`` writes it: a tuning set; a measure
uses ``../shared/realcards/cards-crops --split test``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tuolaji.datasets.deck_photos import paste_card  # noqa: E402
from tuolaji.datasets.realeval import RealTally, format_real_report, load_real_folder, real_samples  # noqa: E402
from tuolaji.vision.detector import CardReader  # noqa: E402


def at_table(image: np.ndarray, height: int, rng: np.random.Generator) -> np.ndarray:
    """``image`` (one card's photo) ``height`` px tall, turned at random, on a 640×480 cloth."""
    scale = height / image.shape[0]
    small = cv2.resize(image, (max(1, round(image.shape[1] * scale)), height), interpolation=cv2.INTER_AREA)
    face = np.dstack([small, np.full(small.shape[:2], 255, np.uint8)])
    canvas = np.empty((480, 640, 3), np.uint8)
    canvas[:] = rng.integers(30, 140, 3)
    noise = rng.normal(0, 4, canvas.shape)
    canvas[:] = np.clip(canvas + noise, 0, 255).astype(np.uint8)
    paste_card(canvas, face, (320 + rng.uniform(-80, 80), 240 + rng.uniform(-60, 60)), float(rng.uniform(-180, 180)))
    return canvas


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--real", type=Path, default=REPO / "data" / "sets" / "real-val" / "photos")
    parser.add_argument("--split", default=None, help="only the photos whose label has this split")
    parser.add_argument("--heights", type=int, nargs="+", default=[100, 130])
    parser.add_argument("--models", type=Path, default=None)
    parser.add_argument("--limit", type=int, default=0, help="the first N photos only")
    args = parser.parse_args()
    reader = CardReader.load(args.models, threads=1)
    photos = load_real_folder(args.real, args.split)
    if args.limit:
        photos = photos[:args.limit]
    overall = RealTally()
    for height in args.heights:
        tally = RealTally()
        for number, (photo, image) in enumerate(real_samples(photos)):
            frame = at_table(image, height, np.random.default_rng([number, height]))
            read = [c.card for c in reader.read(frame)]
            tally.add(read, list(photo.cards))
            overall.add(read, list(photo.cards))
        print(f"-- cards {height} px tall")
        print(format_real_report(tally.metrics()))
    m = overall.metrics()
    black = m["black_suits"]
    s_as_c, s_total = black["S"]["C"], sum(black["S"].values())
    c_as_s, c_total = black["C"]["S"], sum(black["C"].values())
    print(f"f1={m['f1']:.4f} spades_as_clubs={s_as_c}/{s_total} clubs_as_spades={c_as_s}/{c_total}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
