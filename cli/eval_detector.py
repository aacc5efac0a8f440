"""``tuolaji eval-detector``: card-level precision, recall, F1 and exact-image rate of the card reader.

Runs the shipped reader on a held-out synthetic set (the measuring is :mod:`training.evaluate`):
a different seed *and* the holdout split of fonts, surfaces and card designs (see
:mod:`datasets.cardart`). A predicted
card is correct when its corner indices lie on a ground-truth card of the same name
that no other prediction has claimed; a second prediction for one physical card is a
false positive, a card with a visible index that nobody reads is a false negative. An
image is exact when it has no false positive and no false negative. Recall is sliced by
rotation, overlap, blur and card size.

Example::

    tuolaji eval-detector --count 300 --seed 9001           # generated in memory
    tuolaji eval-detector --data data/sets/holdout --json   # a set from `tuolaji generate --split holdout`
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

from tuolaji.cli._common import (
    add_deck_arguments,
    add_index_layout_argument,
    add_reading_arguments,
    index_layout_override,
)
from tuolaji.scorer.errors import InputError

if TYPE_CHECKING:
    from tuolaji.vision.detector import CardReader


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", type=Path, help="a set written by `tuolaji generate` (uses its meta/*.json)")
    parser.add_argument("--real", type=Path, metavar="DIR",
                        help="real photos: DIR/images/* and DIR/labels/<stem>.json ({\"cards\": [...]}); "
                             "each physical card counts once, JK matches either joker")
    parser.add_argument("--real-split", metavar="NAME", help="with --real: only the photos whose label has this \"split\"")
    parser.add_argument("--count", type=int, default=300, help="scenes to generate when no --data (default 300)")
    parser.add_argument("--seed", type=int, default=9001, help="seed of the generated set (default 9001)")
    parser.add_argument("--split", choices=("holdout", "train"), default="holdout", help="styles of the generated set")
    parser.add_argument("--models", type=Path, default=None, help="models folder (default: the shipped models/)")
    parser.add_argument("--json", action="store_true", help="print the metrics as JSON")
    add_reading_arguments(parser)
    add_deck_arguments(parser, "--deck-data")
    add_index_layout_argument(parser)
    parser.add_argument("--record", action="store_true",
                        help="with --data tests/data/detector: record the F1 in the models' cards.json "
                             "(metrics.fixed_test_f1, which the tests hold to a live measurement)")
    parser.add_argument("--tune", action="store_true",
                        help="choose the reader's thresholds by card F1 on this set and write them into the models' "
                             "cards.json (use a tuning set, never the test or holdout set)")


def run_real(args: argparse.Namespace, reader: CardReader) -> int:
    from tuolaji.datasets.realeval import format_real_report, load_real_folder
    from tuolaji.training.evaluate import evaluate_real

    if args.data or args.tune or args.record:
        raise InputError("--real: measured on its own (not with --data, --tune or --record)")
    photos = load_real_folder(args.real, args.real_split)
    metrics = evaluate_real(reader, photos)
    metrics["set"] = str(args.real) + (f" (split {args.real_split})" if args.real_split else "")
    print(json.dumps(metrics, indent=1) if args.json else format_real_report(metrics))
    return 0


def run(args: argparse.Namespace) -> int:
    from tuolaji.training.evaluate import (
        FIXED_TEST_SET,
        evaluate,
        format_report,
        samples_from_folder,
        samples_generated,
        tune_thresholds,
    )
    from tuolaji.vision.decks import chosen_deck
    from tuolaji.vision.detector import CardReader, reader_preset, update_cards_json

    if args.real_split and not args.real:
        raise InputError("--real-split needs --real DIR")
    deck = chosen_deck(args.deck, args.deck_data)
    if deck is not None and (args.tune or args.record):
        raise InputError("--deck: --tune and --record measure the shipped models, not an enrolled deck")
    reader = CardReader.load(args.models, deck=deck, **reader_preset(args.careful, args.fast), **index_layout_override(args))
    if args.real:
        return run_real(args, reader)
    samples = samples_from_folder(args.data) if args.data else samples_generated(args.count, args.seed, args.split)
    where = str(args.data) if args.data else f"generated: count={args.count} seed={args.seed} split={args.split}"
    if args.tune:
        choice, metrics = tune_thresholds(reader, samples)
        path = update_cards_json(args.models, reader=choice, reader_tuned_on=f"{where}: card F1 {metrics['f1']}")
        print(f"thresholds {choice} (card F1 {metrics['f1']:.3f} on the tuning set) written to {path}")
        return 0
    if args.record and (args.data is None or args.data.resolve() != FIXED_TEST_SET or args.careful or args.fast):
        raise InputError(f"--record: only the default read of the fixed test set is recorded (--data {FIXED_TEST_SET}, neither --careful nor --fast)")
    metrics = evaluate(reader, samples)
    if args.record:
        update_cards_json(args.models, metrics={"fixed_test_f1": metrics["f1"], "fixed_test_set": "tests/data/detector",
                                                "measured_by": "tuolaji eval-detector --data tests/data/detector --record"})
    metrics["set"] = where
    print(json.dumps(metrics, indent=1) if args.json else format_report(metrics))
    return 0
