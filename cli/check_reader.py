"""``tuolaji check-reader``: does this CPU read cards as the models' reference does?

ONNX Runtime chooses its kernels by the CPU. The reader checks each classifier's
optimised kernels against reads made through the reference path (``models/reader_check.npz``,
:mod:`vision.model_check`) every time it loads, and reads through the reference path where
they disagree; this command shows that check, with the CPU features that chose the kernels.

Exit status 0 when the reader reads as the reference (with the optimised kernels, or through
the reference path); 1 when a classifier has no check for its file (a model exported without
``reader_check.npz``).

Example::

    tuolaji check-reader
    tuolaji check-reader --models models --json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tuolaji.models import MODELS_DIR


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--models", type=Path, default=MODELS_DIR, help="models folder (default: the shipped models/)")
    parser.add_argument("--json", action="store_true", help="print the check as JSON")


def run(args: argparse.Namespace) -> int:
    from tuolaji.vision.detector import CardReader
    from tuolaji.vision.model_check import cpu_features

    reader = CardReader.load(args.models)
    checks = reader.kernel_checks
    if args.json:
        print(json.dumps({"cpu": cpu_features(), "models": [
            {"model": c.model, "checked": c.checked, "crops": c.crops, "disagreeing": c.disagreeing,
             "max_difference": c.max_difference, "reference_kernels": c.reference_kernels} for c in checks]}))
    else:
        print(f"CPU: {cpu_features()}")
        for check in checks:
            print(check.note)
        if all(c.checked for c in checks):
            optimised = all(not c.reference_kernels for c in checks)
            print("the reader reads as the reference" + (" with this CPU's optimised kernels" if optimised
                                                         else "; the models above are read through the reference path"))
    return 0 if all(c.checked for c in checks) else 1
