"""``tuolaji table-crops --out OUT --videos N --seed S``: classifier crops from filmed deals.

The drawing is :mod:`datasets.tablecrops`: deals filmed with the training designs only, and the
corner indices that show in every ``--every``-th frame cropped as the classifier reads them.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tuolaji.scorer.errors import InputError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", required=True, type=Path, help="output folder (crops/*.npz, table-crops.json)")
    parser.add_argument("--videos", required=True, type=int, help="deals to film")
    parser.add_argument("--seed", required=True, type=int, help="the first deal's seed (then seed + 1, ...)")
    parser.add_argument("--profile", default="titanic-3deck", help="rule profile of the deals (default titanic-3deck)")
    parser.add_argument("--tricks", type=int, default=6, help="tricks filmed of each deal (default 6)")
    parser.add_argument("--every", type=int, default=15, help="crop every N-th frame (default 15: one a second)")
    parser.add_argument("--layout", choices=("vertical", "horizontal"),
                        help="the procedural designs' index layout (default: as drawn)")
    parser.add_argument("--corners", type=int, choices=(2, 4), help="the procedural designs' corner indices (default: as drawn)")


def run(args: argparse.Namespace) -> int:
    from tuolaji import scorer
    from tuolaji.datasets.tablecrops import write_table_crops

    if args.videos < 1 or args.every < 1 or args.tricks < 1:
        raise InputError("--videos, --every and --tricks must be at least 1")
    if args.profile not in scorer.PROFILES:
        raise InputError(f"unknown rule profile {args.profile!r} (see `tuolaji rules`)")
    summary = write_table_crops(args.out, args.videos, args.seed, profile=args.profile, tricks=args.tricks,
                                every=args.every, index_layout=args.layout, corners=args.corners)
    print(f"table-crops: {summary['index_crops']} index crops and {summary['reject_crops']} reject crops from "
          f"{summary['frames']} frames of {summary['videos']} deals -> {args.out}")
    return 0
