"""``tuolaji hard-crops --out OUT [SET ...] [--real DIR]``: "not an index" crops of what the
shipped reader wrongly reads as a card, in generated scenes and in real single-card photos.

The search is :mod:`datasets.hardcrops`; the crops are written in the layout of ``tuolaji
generate --crops``, for ``tuolaji train classifier --train OUT``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tuolaji.scorer.errors import InputError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("sets", type=Path, nargs="*", metavar="SET", help="sets written by `tuolaji generate` (their meta/*.json)")
    parser.add_argument("--out", type=Path, required=True, help="where to write crops/*.npz")
    parser.add_argument("--real", type=Path, default=None, metavar="DIR",
                        help="single-card photos: DIR/images/*, DIR/labels/<stem>.json (every tenth photo is left out, "
                             "as `real-crops --val-out` holds it out)")
    parser.add_argument("--split", default="train", help="with --real: only the photos of this split (default train)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the camera look (default 0)")
    parser.add_argument("--models", type=Path, default=None, help="models folder of the reader searched (default: the shipped one)")


def run(args: argparse.Namespace) -> int:
    from tuolaji.datasets.hardcrops import write_hard_crops

    if not args.sets and args.real is None:
        raise InputError("hard-crops: give at least one generated SET or --real DIR to search")
    if args.real is not None and args.split in ("valid", "test"):
        raise InputError(f"--split {args.split}: crops are for training; the valid and test photos are for measuring")
    counts = write_hard_crops(args.out, args.sets, args.real, args.split, args.seed, args.models)
    print(f"{counts['scenes']} scenes, {counts['photos']} photos: {counts['scene_strays'] + counts['photo_strays']} boxes "
          f"wrongly read as a card ({counts['joker_strays']} as a joker), {counts['crops']} crops -> {args.out / 'crops'}")
    return 0
