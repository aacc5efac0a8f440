"""``tuolaji average``: blend two checkpoints of one lineage into one network (weight averaging).

A fine-tuning and the weights it started from lie close together; the network between them
often keeps what each was best at (:mod:`training.average`). The blend is a checkpoint of the
same kind: ``tuolaji export`` makes it the reader's ONNX file, ``tuolaji train --init``
continues from it.

Example::

    tuolaji average models/checkpoints/detector_shipped.pt models/checkpoints/detector_hz3_last.pt \\
        --weight 0.5 --out data/runs/detector-soup.pt
    tuolaji export --detector data/runs/detector-soup.pt --out models
"""

from __future__ import annotations

import argparse
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("first", type=Path, help="a checkpoint (.pt) of `tuolaji train detector` or `tuolaji train classifier`")
    parser.add_argument("second", type=Path, help="a checkpoint of the same kind and network, of the same lineage")
    parser.add_argument("--weight", type=float, default=0.5,
                        help="how far from FIRST to SECOND (0: FIRST, 1: SECOND; default 0.5)")
    parser.add_argument("--out", type=Path, required=True, help="the blended checkpoint (.pt) to write")


def run(args: argparse.Namespace) -> int:
    from tuolaji.training.average import average_checkpoints

    print(f"wrote {average_checkpoints(args.first, args.second, args.weight, args.out)}")
    return 0
