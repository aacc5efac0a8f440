"""``tuolaji real-crops DIR --out OUT``: classifier training crops from real photos of single cards.

The cutting is :mod:`datasets.realcrops`: each photo's corner indices found by the shipped
detector, cut at several scales with a table camera's look put in, written in the layout
of ``tuolaji generate --crops``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tuolaji.scorer.errors import InputError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("folder", type=Path, metavar="DIR", help="single-card photos: DIR/images/*, DIR/labels/<stem>.json")
    parser.add_argument("--out", type=Path, required=True, help="where to write crops/*.npz")
    parser.add_argument("--split", default=None, help="only the photos whose label has this split (e.g. train)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the camera look (default 0)")
    parser.add_argument("--models", type=Path, default=None, help="models folder whose detector finds the indices")
    parser.add_argument("--val-out", type=Path, default=None,
                        help="write every tenth photo's crops here instead: a validation set cut from the training photos")


def run(args: argparse.Namespace) -> int:
    from tuolaji.datasets.realcrops import write_real_crops

    if args.split in ("valid", "test"):
        raise InputError(f"--split {args.split}: crops are for training; the valid and test photos are for measuring")
    counts = write_real_crops(args.folder, args.out, args.split, args.seed, args.models, val_out=args.val_out)
    print(f"{counts['photos']} photos: {counts['index_crops']} index crops, {counts['reject_crops']} not-an-index crops "
          f"({counts['photos_without_index']} photos without a sure corner index) -> {args.out / 'crops'}")
    return 0
