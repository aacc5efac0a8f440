"""``tuolaji zuihe HAND.json [--json]``: score a 嘴和 hand.

HAND.json::

    {"hand": ["7B", "三条", ...], "melds": [{"type": "cha", "cards": ["ZH", "ZH", "ZH"]}],
     "yun": [], "flags": {"tianhe": false, "dihe": false, "mo": false, "za": false, "jian": null}}

Cards are codes (``1B``..``9B`` 饼, ``1T``..``9T`` 条, ``1W``..``9W`` 万, ``ZH`` ``FA`` ``BA``)
or Chinese names (``七饼``, ``三条``, ``红中``, ``发财``, ``白板``…). ``yun`` is one laid-down
云幺 or a list of them. ``flags.za`` declares 砸 (不让赢).

``--json`` prints ``{"wins", "he", "zui", "groups": [{"kind", "cards", "he"}], "items":
[{"name", "zui"}]}``. Group kinds: ``ha`` ``lou`` (in hand), ``cha`` ``guang`` (laid down),
``fu`` ``bao`` ``che``, the 七套 ``qun`` ``bang`` ``hu`` ``jia`` ``wula`` ``jiang`` ``wenquan``,
``xiaoyun`` ``dayun``, ``chi_fu`` ``chi_bao`` ``chi_<七套>`` (吃 melds, with the hand cards
that continue a 吃副), ``yao`` (left-over 幺, not loose) and ``loose`` (闲牌, only when the
hand does not win). Without ``--json`` the output is the itemised explanation in Chinese
(``--lang en`` for English). ``-o KEY=VALUE`` sets a rule option (see
:class:`scorer.zuihe.ZuiheOptions`). Bad input is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys

from tuolaji.scorer import safejson
from tuolaji.scorer.zuihe import ZuiheOptions, score


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("hand_file", metavar="HAND.json", help="the hand to score ('-' reads stdin)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--lang", choices=("zh", "en"), default="zh", help="language of the explanation")
    parser.add_argument(
        "--option", "-o", action="append", default=[], metavar="KEY=VALUE",
        help="a rule option, e.g. patterns=sum, split_ha=true, sizes=any (see ZuiheOptions)",
    )


def _load(path: str) -> object:
    limit = safejson.MAX_HAND_BYTES
    if path == "-":
        data, name = sys.stdin.buffer.read(limit + 1), "stdin"
    else:
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
        name = path
    return safejson.loads(data, name, max_bytes=limit)


def run(args: argparse.Namespace) -> int:
    options = ZuiheOptions.parse(args.option, "--option")
    result = score(_load(args.hand_file), options)
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        print(result.explain(args.lang))
    return 0
