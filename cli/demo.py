"""``tuolaji demo [OUT] [--record-check [--models DIR]]``: render the bundled demo, or check a reader on it.

Without ``--record-check`` it builds the demo game with the rules core and renders its last
tricks (:mod:`datasets.demo`: the seeds are there) into OUT: video, the deal so far
(set-up), truth, frames and the whole game, by default over the bundled files of
:mod:`vision.demo` (deterministic for a given OpenCV build). With it, it replays the demo with the reader of ``--models`` (table settings) and
records in that folder's ``cards.json`` whether every trick came back exactly
(``metrics.demo_replay_exact``): ``tuolaji serve --demo`` reads with the model only then.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tuolaji.models import MODELS_DIR


def record_demo_check(models_dir: Path = MODELS_DIR) -> tuple[int, int]:
    """Replay the demo with the shipped reader (table settings) and record in ``cards.json``
    whether every trick came back exactly (``metrics.demo_replay_exact``)."""
    from tuolaji.vision.demo import demo_replays_exactly
    from tuolaji.vision.detector import TABLE, CardReader, update_cards_json

    exact, total = demo_replays_exactly(CardReader.load(models_dir, **TABLE))
    update_cards_json(models_dir, metrics={"demo_replay_exact": exact == total, "demo_tricks_exact": f"{exact}/{total}"})
    return exact, total


def build_demo(out_dir: Path) -> dict[str, Path]:
    """Build the demo game with the rules core and film its last tricks into ``out_dir`` (video, the
    deal so far, truth, frames, the whole game); seeded (:mod:`datasets.demo`)."""
    from tuolaji.datasets.demo import build_demo as build

    return build(out_dir)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("out", nargs="?", type=Path, default=None,
                        help="where to render the demo (default: the bundled demo's folder, vision/demo/)")
    parser.add_argument("--record-check", action="store_true",
                        help="replay the demo with the reader of --models and record the result in its cards.json")
    parser.add_argument("--models", type=Path, default=MODELS_DIR, help="models folder (default: the shipped models/)")


def run(args: argparse.Namespace) -> int:
    if args.record_check:
        exact, total = record_demo_check(args.models)
        print(f"demo replayed by the reader of {args.models}: {exact}/{total} tricks exact; recorded in its cards.json")
        return 0
    from tuolaji.vision.demo import DEMO_DIR

    for kind, path in build_demo(args.out or DEMO_DIR).items():
        print(f"{kind}: {path}")
    return 0
