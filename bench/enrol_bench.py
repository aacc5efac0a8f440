"""Enrolment on a real-photo folder: enrol on some photos of one deck, score the others.

The folder is laid out like a real-photo set (``images/``, ``labels/<stem>.json``, see
``tuolaji eval-detector --real``) and holds one deck. The first ``--photos`` photos (by
name; ``--every`` picks every Nth instead) make the manifest; the deck is enrolled into a
temporary data folder with ``tuolaji enrol``; the other photos are then read without and
with the deck. Prints the enrolment line, both scores, and as its last line exactly::

    enrol_s=X f1_shipped=Y f1_deck=Z

Usage: ``.venv/bin/python bench/enrol_bench.py DIR [--photos 12] [--models DIR]``
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

from vision.decks import load_deck  # noqa: E402
from vision.detector import CardReader  # noqa: E402
from vision.enrol import enrol  # noqa: E402
from vision.eval_cli import evaluate_real  # noqa: E402
from vision.realeval import format_real_report, load_real_folder  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--photos", type=int, default=12, help="photos to enrol on (default 12)")
    parser.add_argument("--models", type=Path, default=None)
    args = parser.parse_args()
    photos = load_real_folder(args.folder)
    if len(photos) <= args.photos:
        print(f"{args.folder}: {len(photos)} photos, need more than {args.photos}", file=sys.stderr)
        return 2
    step = len(photos) / args.photos
    chosen = {int(i * step) for i in range(args.photos)}
    enrolled = [p for i, p in enumerate(photos) if i in chosen]
    others = [p for i, p in enumerate(photos) if i not in chosen]
    with tempfile.TemporaryDirectory() as tmp:
        manifest = Path(tmp) / "manifest.json"
        manifest.write_text(json.dumps([{"image": os.path.relpath(p.image, tmp), "cards": list(p.cards)} for p in enrolled]))
        t0 = time.perf_counter()
        result = enrol("bench", manifest, Path(tmp) / "data", args.models)
        seconds = time.perf_counter() - t0
        print(f"enrolled on {result.photos} photos: {result.cards_matched} of {result.cards_listed} cards matched, "
              f"{result.lessons} corner indices, {seconds:.1f} s")
        deck = load_deck(Path(tmp) / "data", "bench")
    shipped = evaluate_real(CardReader.load(args.models), others, progress=False)
    with_deck = evaluate_real(CardReader.load(args.models, deck=deck), others, progress=False)
    print(f"shipped models on the other {len(others)} photos:\n{format_real_report(shipped)}")
    print(f"with the enrolled deck:\n{format_real_report(with_deck)}")
    print(f"enrol_s={seconds:.1f} f1_shipped={shipped['f1']:.4f} f1_deck={with_deck['f1']:.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
