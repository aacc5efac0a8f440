"""Fanned pairs and lone cards counted: drawn photos of one card, or of two identical cards fanned a
third of a card to the side (as ``docs/TABLE.md`` asks), read as the table reads them.

Each of ``--designs`` procedural designs (:class:`datasets.cardart.CardStyle`, from ``--split``: "train"
to tune on, "holdout" to measure) is drawn four times, turned a quarter more each time (and a little
either way), 100-140 px tall on a plain cloth; lone cards alternate 2 and 4 corner indices. Prints the
cases read wrong, then as its last line exactly::

    pairs_as_two=A/N singles_as_one=B/N

Usage: ``.venv/bin/python bench/fan_bench.py [--layout horizontal] [--split holdout] [--designs 15] [--models DIR]``
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tuolaji.datasets.cardart import CardStyle, render_card  # noqa: E402
from tuolaji.datasets.deck_photos import paste_card  # noqa: E402
from tuolaji.vision.detector import TABLE, CardReader  # noqa: E402

CARDS = ("9H", "QS", "5C", "10D", "AH", "KC", "3S", "JD")


def photo(name: str, style: CardStyle, copies: int, turn: float, rng: np.random.Generator) -> np.ndarray:
    """A 640×480 photo of ``copies`` identical cards, each a third of a card to the side of the one under it."""
    canvas = np.empty((480, 640, 3), np.uint8)
    canvas[:] = rng.integers(30, 140, 3)
    face = render_card(name, style, int(rng.uniform(100, 140)))
    angle = np.radians(turn + rng.uniform(-10, 10))
    step = face.shape[1] / 3
    for k in range(copies):
        paste_card(canvas, face, (320 + k * step * np.cos(angle), 240 - k * step * np.sin(angle)), float(np.degrees(angle)))
    return canvas


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layout", choices=("vertical", "horizontal"), default="horizontal")
    parser.add_argument("--split", choices=("train", "holdout"), default="holdout")
    parser.add_argument("--designs", type=int, default=15)
    parser.add_argument("--models", type=Path, default=None)
    args = parser.parse_args()
    reader = CardReader.load(args.models, **TABLE, index_layout=args.layout)
    right = {1: 0, 2: 0}
    cases = 0
    for seed in range(args.designs):
        style = CardStyle.random(np.random.default_rng(seed), args.split).with_index_layout(args.layout)
        for copies in (2, 1):
            drawn = style if copies == 2 else style.with_corners(4 if seed % 2 else 2)
            rng = np.random.default_rng([seed, copies])
            for quarter in range(4):
                name = CARDS[(seed * 4 + quarter) % len(CARDS)]
                got = sorted(card.card for card in reader.read(photo(name, drawn, copies, 90.0 * quarter, rng)))
                right[copies] += got == [name] * copies
                if got != [name] * copies:
                    print(f"  design {seed} turned {90 * quarter}: {copies} × {name} read as {got or 'nothing'}")
        cases += 4
    print(f"pairs_as_two={right[2]}/{cases} singles_as_one={right[1]}/{cases}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
