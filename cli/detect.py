"""``tuolaji detect IMAGE... --json [--annotate DIR]``: read the cards in still images.

Prints a JSON list with one object per image, in order::

    [{"image": "a.jpg", "cards": [{"card": "10H", "box": [x1, y1, x2, y2], "confidence": 0.97}]}]

one entry per physical card (two identical cards are two entries), card names as in
docs/RECORD.md, boxes in pixels of the original image around the card's visible corner
indices. ``--annotate DIR`` also writes each image with its cards drawn. An unreadable
image stops the command with one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tuolaji.cli._common import (
    add_deck_arguments,
    add_index_layout_argument,
    add_reading_arguments,
    index_layout_override,
)

if TYPE_CHECKING:
    import numpy as np

    from tuolaji.vision.detector import CardInstance


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("images", nargs="+", type=Path, metavar="IMAGE", help="image files (JPEG, PNG, ...)")
    parser.add_argument("--json", action="store_true", help="print the JSON list (the default output)")
    parser.add_argument("--annotate", type=Path, metavar="DIR", help="write annotated copies of the images here")
    parser.add_argument("--models", type=Path, default=None, help="models folder (default: the shipped models/)")
    add_reading_arguments(parser)
    add_deck_arguments(parser)
    add_index_layout_argument(parser)


def card_json(card: CardInstance) -> dict:
    """The JSON object of one physical card.

    >>> from tuolaji.vision.detector import CardInstance
    >>> card_json(CardInstance("10H", (1.04, 2.0, 30.26, 40.0), 0.971, ()))
    {'card': '10H', 'box': [1.0, 2.0, 30.3, 40.0], 'confidence': 0.971}
    """
    return {"card": card.card, "box": [round(float(v), 1) for v in card.box], "confidence": round(float(card.confidence), 3)}


def annotate(image: np.ndarray, cards: list[CardInstance]) -> np.ndarray:
    """A copy of ``image`` with every card's box, name and confidence drawn."""
    import cv2

    out = image.copy()
    for card in cards:
        colour = (40, 40, 230) if card.card[-1] in "HD" or card.card == "BJ" else (230, 120, 20)
        for index in card.indices:
            x1, y1, x2, y2 = (round(v) for v in index.box)
            cv2.rectangle(out, (x1, y1), (x2, y2), colour, 1, cv2.LINE_AA)
        x1, y1, x2, y2 = (round(v) for v in card.box)
        cv2.rectangle(out, (x1, y1), (x2, y2), colour, 2, cv2.LINE_AA)
        label = f"{card.card} {card.confidence:.2f}"
        (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, 0.45, 1)
        cv2.rectangle(out, (x1, max(0, y1 - th - 4)), (x1 + tw + 2, y1), colour, -1)
        cv2.putText(out, label, (x1 + 1, y1 - 3), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (255, 255, 255), 1, cv2.LINE_AA)
    return out


def run(args: argparse.Namespace) -> int:
    import cv2

    from tuolaji.vision.decks import chosen_deck
    from tuolaji.vision.detector import CardReader, read_image_file, reader_preset

    images = [(path, read_image_file(path)) for path in args.images]  # fail before any output
    reader = CardReader.load(args.models, deck=chosen_deck(args.deck, args.deck_data),
                             **reader_preset(args.careful, args.fast), **index_layout_override(args))
    results = []
    if args.annotate:
        args.annotate.mkdir(parents=True, exist_ok=True)
    for path, image in images:
        cards = reader.read(image)
        results.append({"image": str(path), "cards": [card_json(c) for c in cards]})
        if args.annotate:
            target = args.annotate / (path.stem + ".annotated.png")
            if not cv2.imwrite(str(target), annotate(image, cards)):
                raise OSError(5, "cannot write annotated image", str(target))
    json.dump(results, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0
