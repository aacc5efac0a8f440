"""嘴和 cards: 30 kinds × 4 copies, their notation and Chinese names.

Kinds are numbered 0..29: ``1B``..``9B`` (饼) are 0..8, ``1T``..``9T`` (条) 9..17,
``1W``..``9W`` (万) 18..26, then ``ZH`` (红中) 27, ``FA`` (发财) 28, ``BA`` (白花) 29.

>>> Card.parse("七饼")
Card.parse('7B')
>>> Card.parse("7b").name_zh
'七饼'
>>> [str(c) for c in parse_cards(["红花", "发", "白板", "幺条"])]
['ZH', 'FA', 'BA', '1T']
>>> Card.parse("9T").is_yao, Card.parse("9B").is_yao
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .messages import ZuiheInputError

N_KINDS = 30
COPIES = 4
SUIT_CODES = "BTW"
SUIT_ZH = {"B": "饼", "T": "条", "W": "万"}
SUIT_EN = {"B": "circles", "T": "bamboo", "W": "characters"}
NUMERALS_ZH = "一二三四五六七八九"

ZH, FA, BA = 27, 28, 29
HONOR_CODES = {ZH: "ZH", FA: "FA", BA: "BA"}
HONOR_ZH = {ZH: "红中", FA: "发财", BA: "白花"}
HONOR_EN = {ZH: "Red Zhong", FA: "Fa", BA: "White"}


def kind_of(rank: int, suit: str) -> int:
    """Kind index of a suited card.

    >>> kind_of(7, "B"), kind_of(9, "T"), kind_of(1, "W")
    (6, 17, 18)
    """
    return SUIT_CODES.index(suit) * 9 + rank - 1


#: 幺牌: 中 发 白 1B 1T 1W 9T.  Every other kind is a 白牌.
YAO_KINDS = frozenset({ZH, FA, BA, kind_of(1, "B"), kind_of(1, "T"), kind_of(1, "W"), kind_of(9, "T")})

_CODES = tuple(f"{rank}{suit}" for suit in SUIT_CODES for rank in range(1, 10)) + ("ZH", "FA", "BA")
_CODE_TO_KIND = {code: kind for kind, code in enumerate(_CODES)}

_HONOR_ALIASES = {
    "中": ZH, "红中": ZH, "红花": ZH,
    "发": FA, "发财": FA, "發": FA, "發財": FA,
    "白": BA, "白花": BA, "白板": BA,
}
_SUIT_ALIASES = {"饼": "B", "筒": "B", "餅": "B", "条": "T", "索": "T", "條": "T", "万": "W", "萬": "W"}
_RANK_ALIASES = {ch: i + 1 for i, ch in enumerate(NUMERALS_ZH)} | {"幺": 1, "么": 1} | {str(i): i for i in range(1, 10)}


class CardError(ZuiheInputError):
    """A card that is not one of the 30 嘴和 kinds."""


@dataclass(frozen=True, order=True)
class Card:
    """One 嘴和 card kind (copies are not distinguished).

    >>> Card.parse("ZH").name_zh, Card.parse("三万").code
    ('红中', '3W')
    """

    kind: int

    def __post_init__(self) -> None:
        if not 0 <= self.kind < N_KINDS:
            raise CardError("card_kind", kind=self.kind)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse a code (``7B``, case-insensitive) or a Chinese name (``七饼``, ``红中``)."""
        kind = parse_kind(text)
        if kind is None:
            raise CardError("card_unknown", text=text)
        return cls(kind)

    @property
    def code(self) -> str:
        return _CODES[self.kind]

    @property
    def suit(self) -> str | None:
        """``B``/``T``/``W`` or None for 中 发 白."""
        return SUIT_CODES[self.kind // 9] if self.kind < 27 else None

    @property
    def rank(self) -> int | None:
        return self.kind % 9 + 1 if self.kind < 27 else None

    @property
    def is_yao(self) -> bool:
        """幺牌 (中 发 白 1B 1T 1W 9T)."""
        return self.kind in YAO_KINDS

    @property
    def name_zh(self) -> str:
        if self.kind >= 27:
            return HONOR_ZH[self.kind]
        return NUMERALS_ZH[self.kind % 9] + SUIT_ZH[SUIT_CODES[self.kind // 9]]

    @property
    def name_en(self) -> str:
        if self.kind >= 27:
            return HONOR_EN[self.kind]
        return f"{self.kind % 9 + 1} {SUIT_EN[SUIT_CODES[self.kind // 9]]}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"


def parse_kind(text: str) -> int | None:
    """Kind index of a card name, or None when it is not a card.

    >>> parse_kind("9t"), parse_kind("九条"), parse_kind("9索"), parse_kind("0B")
    (17, 17, 17, None)
    """
    if not isinstance(text, str):
        return None
    name = text.strip()
    upper = name.upper()
    if upper in _CODE_TO_KIND:
        return _CODE_TO_KIND[upper]
    if name in _HONOR_ALIASES:
        return _HONOR_ALIASES[name]
    if len(name) == 2 and name[0] in _RANK_ALIASES and name[1] in _SUIT_ALIASES:
        return kind_of(_RANK_ALIASES[name[0]], _SUIT_ALIASES[name[1]])
    return None


def parse_cards(texts: Iterable[object], where: str = "cards") -> list[Card]:
    """Parse a list of card names; errors name the position, e.g. ``hand[3]: unknown card "0B"``."""
    cards = []
    for index, text in enumerate(texts):
        kind = parse_kind(text) if isinstance(text, str) else None
        if kind is None:
            shown = text if isinstance(text, str) else repr(text)
            raise CardError("card_at", where=where, index=index, text=shown)
        cards.append(Card(kind))
    return cards


def format_cards(cards: Iterable[Card], chinese: bool = False) -> str:
    """Cards as text, codes by default.

    >>> format_cards([Card.parse("7B"), Card.parse("ZH")]), format_cards([Card(6), Card(27)], chinese=True)
    ('7B ZH', '七饼 红中')
    """
    return " ".join(card.name_zh if chinese else card.code for card in cards)


ALL_CARDS = tuple(Card(kind) for kind in range(N_KINDS))
