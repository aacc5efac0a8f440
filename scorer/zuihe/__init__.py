"""嘴和 (zuihe) hand scorer — see docs/ZUIHE.md for the rules it implements.

>>> result = score({"hand": ["ZH", "FA", "9T"], "melds": []}, ZuiheOptions(sizes=()))
>>> result.he, [g.kind for g in result.groups]
(1, ['jia'])
"""

from .cards import ALL_CARDS, Card, CardError, format_cards, parse_cards, parse_kind
from .hand import Flags, Hand, HandError, Meld, ZuiheOptions, parse_hand
from .score import Group, ZuiheResult, ZuiItem, explain, pattern_rows, score, score_hand

__all__ = [
    "ALL_CARDS", "Card", "CardError", "Flags", "Group", "Hand", "HandError", "Meld", "ZuiItem",
    "ZuiheOptions", "ZuiheResult", "explain", "format_cards", "parse_cards", "parse_hand", "parse_kind",
    "pattern_rows", "score", "score_hand",
]
