"""``tuolaji demo [OUT] [--record-check [--models DIR]]``: render the bundled demo, or check a reader on it.

Without ``--record-check`` it renders the demo of :mod:`vision.demo` (video, set-up, truth,
frames) into OUT, by default over the bundled files (deterministic for a given OpenCV
build). With it, it replays the demo with the reader of ``--models`` (table settings) and
records in that folder's ``cards.json`` whether every trick came back exactly
(``metrics.demo_replay_exact``): ``tuolaji serve --demo`` reads with the model only then.
"""

from __future__ import annotations

import argparse
import copy
from pathlib import Path

from models import MODELS_DIR


def record_demo_check(models_dir: Path = MODELS_DIR) -> tuple[int, int]:
    """Replay the demo with the shipped reader (table settings) and record in ``cards.json``
    whether every trick came back exactly (``metrics.demo_replay_exact``)."""
    from vision.demo import demo_replays_exactly
    from vision.detector import TABLE, CardReader, update_cards_json

    exact, total = demo_replays_exactly(CardReader.load(models_dir, **TABLE))
    update_cards_json(models_dir, metrics={"demo_replay_exact": exact == total, "demo_tricks_exact": f"{exact}/{total}"})
    return exact, total


def build_demo(out_dir: Path) -> dict[str, Path]:
    """Render the demo into ``out_dir`` (video, set-up, truth, frames)."""
    from datasets.video import RenderOptions, render_video, save_render
    from vision.demo import DEMO_RECORD, DEMO_SEED, DEMO_VIDEO

    out_dir = Path(out_dir)
    video = out_dir / DEMO_VIDEO.name
    truth = render_video(copy.deepcopy(DEMO_RECORD), video, RenderOptions(seed=DEMO_SEED, linger=((1, 2),)))
    paths = save_render(truth, video)
    paths["video"] = video
    return paths


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
    from vision.demo import DEMO_DIR

    for kind, path in build_demo(args.out or DEMO_DIR).items():
        print(f"{kind}: {path}")
    return 0
