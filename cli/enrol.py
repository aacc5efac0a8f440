"""``tuolaji enrol NAME [MANIFEST.json] [--layout PHOTO ...] [--data DIR]``: learn a table's own
deck from a few photos, or from one photo of the deck laid out face up in a known order
(``--layout``: one row per suit, ♠ ♥ ♣ ♦ from 2 to A, then 小王 大王; nothing to type).

MANIFEST is a JSON list of ``{"image": "path relative to the manifest", "cards": ["AS", ...]}``
(the cards fully visible in each photo). The deck is saved under ``DIR/decks/NAME``
(DIR: ``--data``, else ``$TUOLAJI_DATA``, else ``./data``); ``--deck NAME`` on ``detect``,
``eval-detector``, ``replay`` and ``serve`` then reads with it. Prints one line: photos,
cards matched, time. A bad manifest, a missing photo or a listed card that cannot be
found: one line naming it, exit status 2.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", metavar="NAME", help="the deck's name (letters, digits, '_', '.', '-')")
    parser.add_argument("manifest", type=Path, metavar="MANIFEST.json", nargs="?",
                        help="the photos and the cards each shows (or none, with --layout)")
    parser.add_argument("--layout", type=Path, nargs="+", default=[], metavar="PHOTO",
                        help="a photo of the whole deck laid out face up, apart, one row per suit "
                             "(♠ ♥ ♣ ♦, each from 2 to A), then 小王 大王: no card to type")
    parser.add_argument("--data", type=Path, metavar="DIR", help="data folder (default $TUOLAJI_DATA or ./data)")
    parser.add_argument("--models", type=Path, default=None, help="models folder (default: the shipped models/)")


def run(args: argparse.Namespace) -> int:
    from tuolaji.vision.decks import data_folder
    from tuolaji.vision.enrol import enrol

    result = enrol(args.name, args.manifest, data_folder(args.data), args.models, layouts=args.layout)
    print(f"enrolled deck {result.name}: {result.photos} photos, {result.cards_matched} of {result.cards_listed} cards matched, "
          f"{result.lessons} corner indices learnt, {result.seconds:.1f} s -> {result.folder}")
    return 0
