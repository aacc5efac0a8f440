"""Enrolment on a real-photo folder: enrol on some photos of one deck, score the others.

The folder is laid out like a real-photo set (``images/``, ``labels/<stem>.json``, see
``tuolaji eval-detector --real``) and holds one deck. The first ``--photos`` photos (by
name; ``--every`` picks every Nth instead) make the manifest; the deck is enrolled into a
temporary data folder with ``tuolaji enrol``; the other photos are then read without and
with the deck. Prints the enrolment line, both scores, and as its last line exactly::

    enrol_s=X f1_shipped=Y f1_deck=Z

``--design NAME`` draws the folder first (under a temporary folder): ``--count`` photos of
an imported real deck design (:mod:`datasets.realart`), 3-6 cards each at a table camera's
scale, turned any way, with a camera's look. That is where enrolment's settings are chosen;
the real-photo folders only measure.

``--layout`` (with ``--design``): enrol from one photo of the whole deck laid out in order
(``tuolaji enrol --layout``) instead, and score every drawn photo.

``--horizontal SEED`` draws the folder with a held-out procedural design printing its suits beside
its ranks (:class:`datasets.deck_photos.ProceduralDeck`): enrolment finds the deck's layout.

Usage: ``.venv/bin/python bench/enrol_bench.py (DIR | --design NAME [--count 40] [--layout] | --horizontal SEED) [--photos 12] [--models DIR]``
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tuolaji.datasets.realeval import format_real_report, load_real_folder  # noqa: E402
from tuolaji.training.evaluate import evaluate_real  # noqa: E402
from tuolaji.vision.decks import load_deck  # noqa: E402
from tuolaji.vision.detector import CardReader  # noqa: E402
from tuolaji.vision.enrol import enrol  # noqa: E402


def draw_layout(design: str, path: Path, seed: int = 0) -> Path:
    """One 1920×1080 photo of the whole deck of ``design`` laid out for ``tuolaji enrol --layout``,
    with a camera's look."""
    import cv2
    import numpy as np

    from tuolaji.datasets.cardart import CardStyle, render_card
    from tuolaji.datasets.layout import layout_photo
    from tuolaji.datasets.realart import load_deck
    from tuolaji.datasets.realcrops import camera_look

    deck = load_deck(design)
    rng = np.random.default_rng(seed)
    style = CardStyle.random(rng)  # the faces a design lacks (its jokers) drawn as the videos draw them

    def face(name: str, height: int) -> np.ndarray:
        return deck.render(name, height) if deck.has(name) else render_card(name, style, height)

    cv2.imwrite(str(path), camera_look(layout_photo(face, rng), rng))
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, nargs="?")
    parser.add_argument("--design", help="draw the photos with this imported design instead of reading DIR")
    parser.add_argument("--count", type=int, default=40, help="with --design: photos to draw (default 40)")
    parser.add_argument("--photos", type=int, default=12, help="photos to enrol on (default 12)")
    parser.add_argument("--layout", action="store_true",
                        help="with --design: enrol from one photo of the whole deck laid out (tuolaji enrol --layout) "
                             "instead of --photos photos, and score every drawn photo")
    parser.add_argument("--horizontal", type=int, metavar="SEED", default=None,
                        help="draw the photos with the held-out procedural design SEED printing its suits beside its "
                             "ranks instead of reading DIR")
    parser.add_argument("--models", type=Path, default=None)
    args = parser.parse_args()
    if args.layout and not args.design:
        parser.error("--layout draws the layout photo: it needs --design NAME")
    if [args.folder is not None, args.design is not None, args.horizontal is not None].count(True) != 1:
        parser.error("give a real-photo folder, --design NAME or --horizontal SEED")
    drawn = tempfile.TemporaryDirectory() if args.folder is None else None
    if drawn is not None:
        from tuolaji.datasets.deck_photos import ProceduralDeck, draw_deck_photos
        from tuolaji.datasets.realart import load_deck as load_design

        deck = load_design(args.design) if args.design else ProceduralDeck.drawn(args.horizontal, index_layout="horizontal")
        folder = draw_deck_photos(deck, args.count, Path(drawn.name) / "photos")
    else:
        folder = args.folder
    photos = load_real_folder(folder)
    if len(photos) <= args.photos:
        print(f"{args.folder}: {len(photos)} photos, need more than {args.photos}", file=sys.stderr)
        return 2
    step = len(photos) / args.photos
    chosen = set() if args.layout else {int(i * step) for i in range(args.photos)}
    enrolled = [p for i, p in enumerate(photos) if i in chosen]
    others = [p for i, p in enumerate(photos) if i not in chosen]
    with tempfile.TemporaryDirectory() as tmp:
        manifest: Path | None = Path(tmp) / "manifest.json"
        layouts = []
        if args.layout:
            layouts, manifest = [draw_layout(args.design, Path(tmp) / "layout.jpg")], None
        else:
            assert manifest is not None
            manifest.write_text(json.dumps([{"image": os.path.relpath(p.image, tmp), "cards": list(p.cards)} for p in enrolled]))
        t0 = time.perf_counter()
        result = enrol("bench", manifest, Path(tmp) / "data", args.models, layouts=layouts)
        seconds = time.perf_counter() - t0
        enrolled_deck = load_deck(Path(tmp) / "data", "bench")
        print(f"enrolled on {result.photos} photos: {result.cards_matched} of {result.cards_listed} cards matched, "
              f"{result.lessons} corner indices, {seconds:.1f} s; its indices read as {enrolled_deck.index_layout}")
    shipped = evaluate_real(CardReader.load(args.models), others, progress=False)
    with_deck = evaluate_real(CardReader.load(args.models, deck=enrolled_deck), others, progress=False)
    print(f"shipped models on the other {len(others)} photos:\n{format_real_report(shipped)}")
    print(f"with the enrolled deck:\n{format_real_report(with_deck)}")
    print(f"enrol_s={seconds:.1f} f1_shipped={shipped['f1']:.4f} f1_deck={with_deck['f1']:.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
