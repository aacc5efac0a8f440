"""``tuolaji zuihe HAND.json [--json]``: score a 嘴和 hand.

HAND.json::

    {"hand": ["7B", "三条", ...], "melds": [{"type": "cha", "cards": ["ZH", "ZH", "ZH"]}],
     "yun": [], "flags": {"tianhe": false, "dihe": false, "mo": false, "za": false, "jian": null}}

Without ``--json`` the output is the itemised explanation in Chinese (``--lang en`` for
English). Bad input is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys

from scorer.errors import InputError
from scorer.zuihe import ZuiheOptions, score


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("hand_file", metavar="HAND.json", help="the hand to score ('-' reads stdin)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--lang", choices=("zh", "en"), default="zh", help="language of the explanation")
    parser.add_argument(
        "--option", "-o", action="append", default=[], metavar="KEY=VALUE",
        help="a rule option, e.g. patterns=sum, split_ha=true, sizes=any (see ZuiheOptions)",
    )


def _load(path: str) -> object:
    if path == "-":
        text, name = sys.stdin.read(), "stdin"
    else:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        name = path
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{name}: not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None


def run(args: argparse.Namespace) -> int:
    options = ZuiheOptions.parse(args.option, "--option")
    result = score(_load(args.hand_file), options)
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        print(result.explain(args.lang))
    return 0
