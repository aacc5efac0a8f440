"""``tuolaji face-set --out OUT [--real DIR]``: training pictures for the whole-face reader.

The drawing is :mod:`datasets.faces`: real single-card photos (only the ``train`` split of
DIR; every tenth photo goes to the validation file), the train designs of the real deck art
and the project's own card art, and pictures that are not one card face.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", required=True, type=Path, help="output folder (faces-train.npz, faces-val.npz)")
    parser.add_argument("--real", type=Path, metavar="DIR",
                        help="single-card photos laid out like realcards/cards-crops (only its train split is used)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the drawing (default 1)")
    parser.add_argument("--styles", type=int, default=30, help="project card styles drawn (default 30)")
    parser.add_argument("--art-copies", type=int, default=3, help="pictures per art face (default 3)")
    parser.add_argument("--real-copies", type=int, default=6, help="pictures per real photo (default 6)")
    parser.add_argument("--rejects", type=int, default=6000, help="pictures that are not a card face (default 6000)")


def run(args: argparse.Namespace) -> int:
    from tuolaji.datasets.faces import write_face_set

    counts = write_face_set(args.out, args.real, args.seed, art_copies=args.art_copies, styles=args.styles,
                            real_copies=args.real_copies, rejects=args.rejects)
    print(f"face-set: {counts['train']} training pictures, {counts['val']} validation pictures -> {args.out}")
    return 0
