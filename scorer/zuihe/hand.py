"""A 嘴和 hand as entered by the table: concealed cards, laid-down melds, 云幺 and flags.

``parse_hand`` reads the HAND.json object and validates it; every error names what
and where, e.g. ``hand[3]: unknown card "0B"`` or ``melds[1]: a cha is 3 alike, got 5B 5B 6B``.

>>> hand = parse_hand({"hand": ["7B"] * 3, "melds": [{"type": "cha", "cards": ["ZH"] * 3}]},
...                   ZuiheOptions(sizes=()))
>>> len(hand.concealed), hand.melds[0].kind, hand.flags.jian
(3, 'cha', None)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, fields, replace
from typing import Any

from .cards import BA, COPIES, FA, YAO_KINDS, ZH, Card, kind_of, parse_cards
from .messages import ZuiheInputError

XIAOYUN_KINDS = (ZH, FA, BA, kind_of(1, "B"), kind_of(1, "T"), kind_of(1, "W"))
DAYUN_KINDS = XIAOYUN_KINDS + (kind_of(9, "T"),)

#: 七套: name -> (Chinese name, the three kinds).
QITAO: dict[str, tuple[str, tuple[int, int, int]]] = {
    "qun": ("群", (kind_of(7, "B"), kind_of(3, "T"), kind_of(3, "W"))),
    "bang": ("梆", (kind_of(8, "B"), kind_of(2, "T"), kind_of(2, "W"))),
    "hu": ("虎", (kind_of(9, "B"), kind_of(1, "T"), kind_of(1, "W"))),
    "jia": ("架", (ZH, FA, kind_of(9, "T"))),
    "wula": ("乌拉", (ZH, kind_of(9, "W"), kind_of(9, "T"))),
    "jiang": ("姜", (BA, kind_of(9, "W"), kind_of(8, "T"))),
    "wenquan": ("文全", (kind_of(1, "B"), kind_of(2, "B"), kind_of(3, "B"))),
}

#: 白牌 ranks that can form 副 in each suit (9T is a 幺牌, 1s are 幺牌).
FU_RANKS = {"B": range(2, 10), "T": range(2, 9), "W": range(2, 10)}
#: ranks whose three suits are all 白牌, i.e. the ranks of 报.
BAO_RANKS = range(2, 9)

JIAN_RATES = {"huang": (0, "黄见"), "mian": (1, "面见"), "cha": (2, "叉见"), "tong": (3, "统见")}
MELD_TYPES = ("cha", "guang", "chi")
MAX_CARDS = 31


class HandError(ZuiheInputError):
    """A HAND.json that is not a possible 嘴和 hand: ``key`` and ``params`` say why (see :mod:`.messages`)."""


@dataclass(frozen=True)
class ZuiheOptions:
    """Choices for the points where the seed is unclear; defaults follow docs/ZUIHE.md.

    - ``patterns``: ``"best"`` counts the single best row of the 门墩/幺哈/楼 table,
      ``"sum"`` adds the best row of each family.
    - ``split_ha``: allow splitting a 哈 or 楼 in hand (seed: 哈子、楼子不准拆开用 → False).
    - ``yao_loose``: a left-over 幺 card is not a loose card (幺不算闲牌 → True).
    - ``sizes``: accepted totals of the winner's cards; ``()`` accepts any size up to 31.
    - ``big_lou``: 三个楼子以上的大牌 — with ≥ 3 楼 the row is worth the 和 of the 楼 and 哈.
    - ``extra_lou_as_ha``: a 楼 beyond the one a row names counts as a 哈 of its colour.
    - ``qitao_che``: a doubled 七套 (never 文全) is also a 车.
    - ``jian_on_flat``: 见 is added to flat-rate hands (白心力, 100-嘴 hands, 蹦).
    - ``wuyan``: recognise 五眼蹦 (25) as five 叉 with no pair left in hand. The seed
      never defines 五眼, so this reading is off by default.

    >>> ZuiheOptions.parse(["patterns=sum", "split_ha=yes", "sizes=any"]).sizes
    ()
    """

    patterns: str = "best"
    split_ha: bool = False
    yao_loose: bool = True
    sizes: tuple[int, ...] = (30, 31)
    big_lou: bool = True
    extra_lou_as_ha: bool = True
    qitao_che: bool = True
    jian_on_flat: bool = True
    wuyan: bool = False

    def __post_init__(self) -> None:
        if self.patterns not in ("best", "sum"):
            raise HandError("patterns", value=self.patterns)

    @classmethod
    def parse(cls, pairs: list[str] | dict[str, Any], where: str = "options") -> ZuiheOptions:
        """Options from ``key=value`` strings (CLI) or a JSON object."""
        items: list[tuple[str, Any]] = []
        if isinstance(pairs, dict):
            items = list(pairs.items())
        else:
            for pair in pairs:
                if "=" not in pair:
                    raise HandError("option_pair", where=where, pair=pair)
                key, value = pair.split("=", 1)
                items.append((key.strip(), value.strip()))
        names = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in items:
            if key not in names:
                raise HandError("option_unknown", where=where, key=key, known=tuple(names))
            default = getattr(cls(), key)
            if isinstance(default, bool):
                values[key] = _parse_bool(value, f"{where}.{key}")
            elif key == "sizes":
                values[key] = _parse_sizes(value, f"{where}.{key}")
            else:
                values[key] = str(value)
        return replace(cls(), **values)


def _parse_bool(value: Any, where: str) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise HandError("bool", where=where, value=value)


def _parse_sizes(value: Any, where: str) -> tuple[int, ...]:
    if isinstance(value, (list, tuple)):
        parts = list(value)
    elif str(value).strip().lower() in ("any", ""):
        return ()
    else:
        parts = str(value).split(",")
    try:
        sizes = tuple(sorted(int(p) for p in parts))
    except (TypeError, ValueError, OverflowError):
        raise HandError("sizes", where=where, value=value) from None
    if not all(0 < size <= 1000 for size in sizes) or len(sizes) > 100:
        raise HandError("sizes", where=where, value=value)
    return sizes


@dataclass(frozen=True)
class Flags:
    """How the hand was won: 天和, 地和, 抹 (won on a 叉 or 光), 砸 declared, and the 见."""

    tianhe: bool = False
    dihe: bool = False
    mo: bool = False
    za: bool = False
    jian: str | None = None


@dataclass(frozen=True)
class Meld:
    """A laid-down meld: ``cha`` (叉, 3 alike), ``guang`` (光, 4 alike) or ``chi`` (吃).

    ``shape`` is what a 吃 forms: ``"fu"`` (副), ``"bao"`` (报) or a 七套 name (``"qun"``…).
    """

    kind: str
    cards: tuple[Card, ...]
    shape: str

    @property
    def he(self) -> int:
        """The 和 the meld earns: 叉 白1/幺2, 光 白4/幺5, 吃 七套 1, other 吃 0."""
        yao = self.cards[0].is_yao
        if self.kind == "cha":
            return 2 if yao else 1
        if self.kind == "guang":
            return 5 if yao else 4
        return 1 if self.shape in QITAO else 0


@dataclass(frozen=True)
class Hand:
    """The winner's cards: concealed, melds, laid-down 云幺 (each a tuple of cards), flags."""

    concealed: tuple[Card, ...]
    melds: tuple[Meld, ...] = ()
    yun: tuple[tuple[Card, ...], ...] = ()
    flags: Flags = field(default_factory=Flags)

    def all_cards(self) -> list[Card]:
        cards = list(self.concealed)
        for meld in self.melds:
            cards.extend(meld.cards)
        for yun in self.yun:
            cards.extend(yun)
        return cards

    def concealed_counts(self) -> list[int]:
        counts = [0] * 30
        for card in self.concealed:
            counts[card.kind] += 1
        return counts


def chi_shape(kinds: list[int]) -> str | None:
    """What a 吃 meld's kinds form: ``fu``, ``bao``, a 七套 name, or None.

    >>> chi_shape([3, 1, 2]), chi_shape([1, 10, 19]), chi_shape([6, 11, 20]), chi_shape([0, 1, 2])
    ('fu', 'bao', 'qun', 'wenquan')
    """
    ordered = sorted(kinds)
    for name, (_, qitao_kinds) in QITAO.items():
        if ordered == sorted(qitao_kinds):
            return name
    if len(ordered) == 3 and len({k % 9 for k in ordered}) == 1 and len({k // 9 for k in ordered}) == 3:
        rank = ordered[0] % 9 + 1
        if rank in BAO_RANKS:
            return "bao"
    if len(ordered) >= 3 and all(k < 27 for k in ordered) and len({k // 9 for k in ordered}) == 1:
        suit = "BTW"[ordered[0] // 9]
        ranks = [k % 9 + 1 for k in ordered]
        if all(r in FU_RANKS[suit] for r in ranks) and ranks == list(range(ranks[0], ranks[0] + len(ranks))):
            return "fu"
    return None


def _card_list(obj: Any, where: str) -> list[Card]:
    if not isinstance(obj, list):
        raise HandError("cards_list", where=where, type=type(obj).__name__)
    return parse_cards(obj, where)


def _parse_meld(obj: Any, where: str) -> Meld:
    if not isinstance(obj, dict):
        raise HandError("meld_object", where=where)
    unknown = set(obj) - {"type", "cards"}
    if unknown:
        raise HandError("meld_key", where=where, key=sorted(unknown)[0])
    kind = obj.get("type")
    if kind not in MELD_TYPES:
        raise HandError("meld_type", where=where, value=kind)
    if "cards" not in obj:
        raise HandError("meld_cards_missing", where=where)
    cards = _card_list(obj["cards"], f"{where}.cards")
    shown = tuple(c.code for c in cards)
    kinds = [c.kind for c in cards]
    if kind == "cha":
        if len(cards) != 3 or len(set(kinds)) != 1:
            raise HandError("cha_shape", where=where, cards=shown)
        return Meld("cha", tuple(cards), "cha")
    if kind == "guang":
        if len(cards) != 4 or len(set(kinds)) != 1:
            raise HandError("guang_shape", where=where, cards=shown)
        return Meld("guang", tuple(cards), "guang")
    shape = chi_shape(kinds)
    if shape is None:
        raise HandError("chi_shape", where=where, cards=shown)
    return Meld("chi", tuple(sorted(cards)), shape)


def _parse_yun(obj: Any, where: str) -> tuple[tuple[Card, ...], ...]:
    if not isinstance(obj, list):
        raise HandError("yun_list", where=where)
    if not obj:
        return ()
    groups = obj if all(isinstance(x, list) for x in obj) else [obj]
    result = []
    for index, group in enumerate(groups):
        here = f"{where}[{index}]" if groups is obj else where
        cards = _card_list(group, here)
        if sorted(c.kind for c in cards) not in (sorted(XIAOYUN_KINDS), sorted(DAYUN_KINDS)):
            raise HandError("yun_shape", where=here, cards=tuple(c.code for c in cards))
        result.append(tuple(sorted(cards)))
    return tuple(result)


def _parse_flags(obj: Any, where: str = "flags") -> Flags:
    if obj is None:
        return Flags()
    if not isinstance(obj, dict):
        raise HandError("flags_object", where=where)
    values: dict[str, Any] = {}
    for key, value in obj.items():
        if key in ("tianhe", "dihe", "mo", "za"):
            if not isinstance(value, bool):
                raise HandError("flag_bool", where=where, key=key, value=value)
            values[key] = value
        elif key == "jian":
            if value is not None and (not isinstance(value, str) or value not in JIAN_RATES):
                raise HandError("flag_jian", where=where, value=value)
            values[key] = value
        else:
            raise HandError("flag_unknown", where=where, key=key)
    flags = Flags(**values)
    if flags.tianhe and flags.dihe:
        raise HandError("tianhe_dihe", where=where)
    return flags


def parse_hand(obj: Any, options: ZuiheOptions | None = None) -> Hand:
    """Validate a HAND.json object and build a :class:`Hand`.

    Checks every card name, the meld shapes, the 云幺, the flags, at most 4 copies of a
    kind, and the total size (30 or 31 by default).
    """
    options = options or ZuiheOptions()
    if not isinstance(obj, dict):
        raise HandError("hand_object")
    unknown = set(obj) - {"hand", "melds", "yun", "flags", "options"}
    if unknown:
        raise HandError("top_key", key=sorted(unknown)[0])
    if "hand" not in obj:
        raise HandError("hand_missing")
    concealed = _card_list(obj["hand"], "hand")
    melds_obj = obj.get("melds", [])
    if not isinstance(melds_obj, list):
        raise HandError("melds_list")
    melds = tuple(_parse_meld(m, f"melds[{i}]") for i, m in enumerate(melds_obj))
    yun = _parse_yun(obj.get("yun", []), "yun")
    flags = _parse_flags(obj.get("flags"))
    hand = Hand(tuple(sorted(concealed)), melds, yun, flags)

    places: dict[int, list[str]] = {}
    for i, card in enumerate(concealed):
        places.setdefault(card.kind, []).append(f"hand[{i}]")
    for m, meld in enumerate(melds):
        for i, card in enumerate(meld.cards):
            places.setdefault(card.kind, []).append(f"melds[{m}].cards[{i}]")
    for y, group in enumerate(yun):
        for i, card in enumerate(group):
            places.setdefault(card.kind, []).append(f"yun[{y}][{i}]")
    for kind, where in sorted(places.items()):
        if len(where) > COPIES:
            card = Card(kind)
            raise HandError("fifth_copy", where=where[COPIES], card=card.code, name=card.name_zh)
    total = len(hand.all_cards())
    if total > MAX_CARDS:
        raise HandError("too_many", total=total, most=MAX_CARDS)
    if options.sizes and total not in options.sizes:
        raise HandError("size", total=total, hand=len(concealed), melds=sum(len(m.cards) for m in melds),
                        yun=sum(len(y) for y in yun), sizes=options.sizes)
    return hand


def kind_counts(cards: list[Card]) -> Counter[int]:
    return Counter(card.kind for card in cards)


def is_yao(kind: int) -> bool:
    return kind in YAO_KINDS
