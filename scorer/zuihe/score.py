"""Scoring a 嘴和 hand: the win check, every 嘴 item, and the itemised explanation.

>>> hand = parse_hand({"hand": ["2B"] * 3 + ["6T"] * 3 + ["7W"] * 3 + ["FA"] * 3
...                    + ["3B", "4B", "5B", "6B", "7B", "8B", "3T", "4T", "5T"]
...                    + ["2W", "3W", "4W", "5W", "6W"],
...                    "melds": [{"type": "cha", "cards": ["ZH"] * 3}]}, ZuiheOptions(sizes=()))
>>> result = score_hand(hand)
>>> result.wins, result.he, float(result.zui)
(True, 11, 3.5)
>>> [(item.name_zh, float(item.zui)) for item in result.items]
[('和数11和', 1.5), ('幺四坎', 2.0)]
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from .cards import YAO_KINDS, Card
from .hand import JIAN_RATES, QITAO, Hand, HandError, ZuiheOptions, parse_hand
from .search import (
    BAI_HA,
    BAI_LOU,
    HE,
    SHAO_NAMES,
    YAO_HA,
    YAO_LOU,
    Part,
    prepare,
    search_clean,
    search_loose,
    unroll,
)

__all__ = ["Group", "ZuiItem", "ZuiheResult", "score_hand", "score", "parse_hand", "HandError"]

GROUP_NAMES: dict[str, tuple[str, str]] = {
    "ha": ("哈", "哈 (3 alike in hand)"),
    "lou": ("楼", "楼 (4 alike in hand)"),
    "cha": ("叉", "叉 (melded pair + 1)"),
    "guang": ("光", "光 (melded 4 alike)"),
    "fu": ("副", "副 (run)"),
    "bao": ("报", "报 (one rank in 3 suits)"),
    "che": ("车", "车 (a doubled 报/七套)"),
    "xiaoyun": ("小云幺", "small 云幺"),
    "dayun": ("大云幺", "big 云幺"),
    "yao": ("幺（不算闲牌）", "left-over 幺 (not loose)"),
    "loose": ("闲牌", "loose cards"),
} | {name: (zh, f"{zh} (七套 {name})") for name, (zh, _) in QITAO.items()}
for _shape, (_zh, _en) in list(GROUP_NAMES.items()):
    if _shape in ("fu", "bao") or _shape in QITAO:
        GROUP_NAMES["chi_" + _shape] = ("吃" + _zh, "melded " + _en)

_CN = "零一二三四五六七八九十"


def _cn(n: int) -> str:
    """Chinese numeral for small counts: 0..10, then digits."""
    return _CN[n] if 0 <= n <= 10 else str(n)


@dataclass(frozen=True)
class Group:
    """One group of the arrangement with the 和 it earns."""

    kind: str
    cards: tuple[Card, ...]
    he: int
    label: str = ""
    melded: bool = False

    @property
    def name_zh(self) -> str:
        name = self.label or GROUP_NAMES[self.kind][0]
        return name + ("（亮）" if self.melded and not self.kind.startswith(("cha", "guang", "chi")) else "")

    @property
    def name_en(self) -> str:
        name = GROUP_NAMES[self.kind][1]
        if self.label:
            name = f"{self.label} ({name})"
        return name + (" (laid down)" if self.melded and not self.kind.startswith(("cha", "guang", "chi")) else "")

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "cards": [c.code for c in self.cards], "he": self.he}


@dataclass(frozen=True)
class ZuiItem:
    """One line of the 嘴 count."""

    name_zh: str
    name_en: str
    zui: Fraction

    def to_json(self) -> dict[str, object]:
        return {"name": self.name_zh, "zui": _number(self.zui)}


@dataclass(frozen=True)
class ZuiheResult:
    """The scored hand: does it win, its 和, its 嘴, the arrangement and the 嘴 items."""

    wins: bool
    he: int
    zui: Fraction
    groups: tuple[Group, ...]
    items: tuple[ZuiItem, ...]
    hand_type_zh: str
    hand_type_en: str
    reason_zh: str = ""
    reason_en: str = ""

    def to_json(self) -> dict[str, object]:
        """The ``tuolaji zuihe --json`` object."""
        return {
            "wins": self.wins,
            "he": self.he,
            "zui": _number(self.zui),
            "groups": [g.to_json() for g in self.groups],
            "items": [i.to_json() for i in self.items],
        }

    def explain(self, lang: str = "zh") -> str:
        """The itemised explanation, Chinese (``zh``) or English (``en``)."""
        return explain(self, lang)


def _number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


# ---------------------------------------------------------------------------- rows


@dataclass(frozen=True)
class Row:
    family: str
    name_zh: str
    name_en: str
    zui: int


def _family_rows(white: int, yao: int, lou: str | None) -> list[Row]:
    rows: list[Row] = []
    if lou is None:
        if white >= 4:
            extra = f"+{yao}幺哈" if yao else ""
            rows.append(Row("mendun", f"{_cn(white)}门墩{extra}", f"{white} 门墩 ({white} white 哈{', +' + str(yao) + ' 幺哈' if yao else ''})", 1 + white + yao - 4))
        if yao == 1:
            if white <= 2:
                rows.append(Row("yao", "幺哈", "幺哈 (one 幺 哈)", 1))
            elif white == 3:
                rows.append(Row("yao", "幺四坎", "幺四坎 (1 幺 哈 + 3 white 哈)", 2))
            else:
                rows.append(Row("yao", f"幺{_cn(white + 1)}坎", f"幺{white + 1}坎 (1 幺 哈 + {white} white 哈)", 3 + white - 4))
        elif yao == 2:
            if white <= 1:
                rows.append(Row("yao", "双幺哈", "双幺哈 (two 幺 哈)", 3))
            elif white == 2:
                rows.append(Row("yao", "双幺四坎", "双幺四坎 (2 幺 哈 + 2 white 哈)", 4))
            else:
                rows.append(Row("yao", f"双幺{_cn(white + 2)}坎", f"双幺{white + 2}坎 (2 幺 哈 + {white} white 哈)", 5 + white - 3))
        elif yao >= 3:
            if white == 0:
                rows.append(Row("yao", "三幺金蛋", "三幺金蛋 (three 幺 哈)", 5))
            else:
                rows.append(Row("yao", f"三幺金蛋挂{_cn(white)}坎", f"三幺金蛋挂{white}坎 (3 幺 哈 + {white} white 哈)", 6 + white - 1))
        return rows
    rows.append(Row("lou", "白楼" if lou == "bai" else "幺楼", "one 楼" + (" (幺)" if lou == "yao" else ""), 2))
    if white == 2:
        rows.append(Row("lou", "一楼二坎", "一楼二坎 (楼 + 2 white 哈)", 3))
    elif white >= 3:
        rows.append(Row("lou", f"一楼{_cn(white)}坎", f"一楼{white}坎 (楼 + {white} white 哈)", 4 + white - 3))
    if (yao >= 1 and white >= 1) or (lou == "yao" and white >= 2):
        rows.append(Row("lou", "一楼幺二坎", "一楼幺二坎 (楼 + 2 哈, one 幺)", 4))
    if yao >= 2:
        if white == 0:
            rows.append(Row("lou", "一楼双幺坎", "一楼双幺坎 (楼 + 2 幺 哈)", 6))
        else:
            rows.append(Row("lou", f"一楼双幺{_cn(white + 2)}坎", f"一楼双幺{white + 2}坎 (楼 + 2 幺 哈 + {white} white 哈)", 7 + white - 1))
    return rows


def pattern_rows(bai_ha: int, yao_ha: int, bai_lou: int, yao_lou: int, lou_ha_he: int,
                 options: ZuiheOptions) -> list[Row]:
    """The row(s) of the 门墩/幺哈/楼 table that count: the single best (default) or,
    with ``patterns=sum``, the best of each family.

    ``bai_lou``/``yao_lou`` include 光 (a 光 counts as a 楼). ``lou_ha_he`` is the 和
    of the 楼 and 哈 (for 三个楼子以上的大牌).

    >>> [(r.name_zh, r.zui) for r in pattern_rows(2, 1, 1, 0, 0, ZuiheOptions())]
    [('一楼幺二坎', 4)]
    """
    choices: list[str | None] = [None]
    if bai_lou:
        choices.append("bai")
    if yao_lou:
        choices.append("yao")
    best: list[Row] = []
    best_value = 0
    for lou in choices:
        rest_bai = bai_lou - (lou == "bai")
        rest_yao = yao_lou - (lou == "yao")
        white = bai_ha + (rest_bai if options.extra_lou_as_ha else 0)
        yao = yao_ha + (rest_yao if options.extra_lou_as_ha else 0)
        rows = _family_rows(white, yao, lou)
        if options.big_lou and bai_lou + yao_lou >= 3:
            n = bai_lou + yao_lou
            rows.append(Row("big", f"{_cn(n)}楼大牌（楼哈{lou_ha_he}和）",
                            f"{n} 楼 big hand (嘴 = the {lou_ha_he} 和 of 楼 and 哈)", lou_ha_he))
        if options.patterns == "sum":
            per_family: dict[str, Row] = {}
            for row in rows:
                if row.family not in per_family or row.zui > per_family[row.family].zui:
                    per_family[row.family] = row
            chosen = list(per_family.values())
        else:
            chosen = [max(rows, key=lambda r: r.zui)] if rows else []
        value = sum(r.zui for r in chosen)
        if value > best_value:
            best, best_value = chosen, value
    return best


# ---------------------------------------------------------------------------- scoring


@dataclass(frozen=True)
class _Verdict:
    wins: bool
    zui: Fraction
    he: int
    items: tuple[ZuiItem, ...]
    reason_zh: str
    reason_en: str
    luan: bool

    @property
    def key(self) -> tuple[bool, Fraction, int]:
        return (self.wins, self.zui if self.wins else Fraction(0), self.he)


class _Context:
    """What does not depend on the arrangement."""

    def __init__(self, hand: Hand, options: ZuiheOptions) -> None:
        self.hand = hand
        self.options = options
        self.flags = hand.flags
        self.fixed_he = sum(m.he for m in hand.melds)
        guang = [m for m in hand.melds if m.kind == "guang"]
        self.guang_bai = sum(1 for m in guang if not m.cards[0].is_yao)
        self.guang_yao = sum(1 for m in guang if m.cards[0].is_yao)
        self.guang_he = sum(m.he for m in guang)
        chas = [m for m in hand.melds if m.kind == "cha"]
        self.n_cha = len(chas)
        self.yao_cha = any(m.cards[0].is_yao for m in chas)
        all_cards = hand.all_cards()
        self.baixinli = not any(c.is_yao for c in all_cards)
        counts = Counter(c.kind for c in all_cards)
        concealed = hand.concealed_counts()
        self.special: tuple[str, str, int] | None = None
        if len(counts) == 30:
            self.special = ("三十个单张", "30 singles (every kind)", 100)
        elif sum(1 for n in counts.values() if n >= 2) >= 15:
            self.special = ("十五对", "15 pairs", 100)
        elif sum(1 for n in counts.values() if n >= 3) >= 10:
            self.special = ("十个哈", "10 哈", 100)
        self.concealed_pair = any(n >= 2 for n in concealed)

    def beng(self, luan: bool) -> tuple[str, str, int] | None:
        """蹦: 白心力乱牌 6 叉 50, 八蹦子 (乱牌 8 叉) 25, 母八蹦 (哈牌 8 叉) 24, 五眼蹦 25."""
        if luan and self.baixinli and self.n_cha >= 6:
            return ("白心力乱牌六叉（蹦）", "白心力 乱牌 with 6 叉 (蹦)", 50)
        if self.n_cha >= 8:
            return ("八蹦子", "八蹦子 (乱牌 with 8 叉)", 25) if luan else ("母八蹦", "母八蹦 (哈牌 with 8 叉)", 24)
        if self.options.wuyan and self.n_cha == 5 and not self.concealed_pair:
            return ("五眼蹦", "五眼蹦 (five pairs, all 叉ed)", 25)
        return None

    def evaluate(self, summary: tuple[int, ...], parts: list[Part]) -> _Verdict:
        options, flags = self.options, self.flags
        he = self.fixed_he + summary[HE]
        bai_ha, yao_ha = summary[BAI_HA], summary[YAO_HA]
        bai_lou = summary[BAI_LOU] + self.guang_bai
        yao_lou = summary[YAO_LOU] + self.guang_yao
        luan = bai_ha + yao_ha + bai_lou + yao_lou == 0

        reason_zh = reason_en = ""
        if luan and not self.yao_cha:
            normal = False
            reason_zh, reason_en = "乱牌没有叉幺", "乱牌 (no 哈 or 楼) without a 叉 on a 幺 card"
        elif he < 10:
            normal = False
            reason_zh, reason_en = f"只有{he}和，不够10和", f"only {he} 和, 10 needed"
        else:
            normal = True

        za: tuple[str, str, int] | None = None  # (name, name_en, extra 嘴)
        if flags.za:
            if self.baixinli:
                if (not luan and he >= 10) or (luan and he >= 7):
                    za = ("白心力砸", "白心力 砸", 0)
            elif not luan and he >= 18:
                za = ("", "", 0)
            elif luan and not self.yao_cha and he >= 10:
                za = ("黑十和", "黑十和 (乱牌, no 幺 叉, ≥ 10 和)", 4)
            elif luan and self.yao_cha and he >= 13:
                za = ("红十三", "红十三 (乱牌 with a 幺 叉, ≥ 13 和)", 3)
            if za is None and normal:
                reason_zh, reason_en = "已报砸但未够砸的标准，按普通和牌计", "砸 declared but its standard not met: scored as a plain win"
        wins = normal or za is not None

        items: list[ZuiItem] = []
        flat = self.special or self.beng(luan)
        if flat is None and wins and self.baixinli:
            flat = (("白心力不让赢", "白心力 with 不让赢 (砸) declared", 50) if za is not None
                    else ("白心力", "白心力 (no 幺 at all)", 50))
        jian_scale = 4 if (za is not None or (flat and "蹦" in flat[0])) else (2 if luan else 1)
        if flat is not None:
            wins = True
            items.append(ZuiItem(flat[0], flat[1], Fraction(flat[2])))
            if options.jian_on_flat:
                items += self._jian(jian_scale)
        elif wins:
            items.append(ZuiItem(f"和数{he}和", f"{he} 和 (1 at 10, +½ per 和 above)", 1 + Fraction(he - 10, 2)))
            if flags.mo:
                items.append(ZuiItem("抹", "抹 (won on a 叉 or 光)", Fraction(1)))
            if flags.tianhe:
                items.append(ZuiItem("天和", "天和 (dealer wins on the deal)", Fraction(3)))
            if flags.dihe:
                items.append(ZuiItem("地和", "地和 (won on the dealer's first card)", Fraction(4)))
            lou_ha_he = (2 * bai_ha + 3 * yao_ha + 5 * summary[BAI_LOU] + 6 * summary[YAO_LOU] + self.guang_he)
            for row in pattern_rows(bai_ha, yao_ha, bai_lou, yao_lou, lou_ha_he, options):
                items.append(ZuiItem(row.name_zh, row.name_en, Fraction(row.zui)))
            items += self._yun_items(parts)
            items += self._che_items(parts)
            if za is not None:
                items.append(ZuiItem("砸（不让赢）", "砸 (不让赢 declared)", Fraction(15)))
                if za[2]:
                    items.append(ZuiItem(za[0], za[1], Fraction(za[2])))
            items += self._jian(jian_scale)
        total = sum((i.zui for i in items), Fraction(0)) if wins else Fraction(0)
        if wins:
            reason_zh = reason_zh if za is None and flags.za else ""
            reason_en = reason_en if za is None and flags.za else ""
        return _Verdict(wins, total, he, tuple(items), reason_zh, reason_en, luan)

    def _jian(self, scale: int) -> list[ZuiItem]:
        if self.flags.jian is None:
            return []
        index, name = JIAN_RATES[self.flags.jian]
        value = Fraction(index + 1, 2) * scale
        suffix_zh = {1: "", 2: "（乱牌×2）", 4: "（砸×4）"}[scale]
        suffix_en = {1: "", 2: " ×2 (乱牌)", 4: " ×4 (砸)"}[scale]
        return [ZuiItem(name + suffix_zh, f"见: winner holds {index} of the turned card ({name}){suffix_en}", value)]

    def _yun_items(self, parts: list[Part]) -> list[ZuiItem]:
        kinds = [("dayun" if len(y) == 7 else "xiaoyun") for y in self.hand.yun]
        kinds += [p[0] for p in parts if p[0] in ("xiaoyun", "dayun")]
        items = [
            ZuiItem("大云幺", "big 云幺", Fraction(2)) if k == "dayun" else ZuiItem("小云幺", "small 云幺", Fraction(1))
            for k in kinds
        ]
        if len(kinds) >= 2:
            big = kinds.count("dayun")
            if len(kinds) == 2:
                name = {0: "双小云", 1: "大小云", 2: "双大云"}[big]
            else:
                name = f"{_cn(len(kinds))}云"
            items.append(ZuiItem(name, f"{name} bonus ({len(kinds)} 云幺)", Fraction(len(kinds) - 1)))
        return items

    def _che_items(self, parts: list[Part]) -> list[ZuiItem]:
        items = []
        for kind, _, _, label in parts:
            if kind != "che":
                continue
            shao = next((n for n, suffix in SHAO_NAMES.items() if label.endswith(suffix)), 0)
            en = f"车 {label}" + (f" with {shao} 捎" if shao else "")
            items.append(ZuiItem(label, en, Fraction(1 + shao)))
        if len(items) >= 2:
            name = ("双" if len(items) == 2 else _cn(len(items))) + "车"
            items.append(ZuiItem(name, f"{name} bonus ({len(items)} 车)", Fraction(len(items) - 1)))
        return items


def _groups(hand: Hand, parts: list[Part]) -> tuple[Group, ...]:
    groups: list[Group] = []
    meld_groups: list[Group] = []
    extensions: dict[int, list[int]] = {}
    for part in parts:
        if part[0] == "ext":
            extensions.setdefault(int(part[3]), []).extend(part[1])
    for index, meld in enumerate(hand.melds):
        kind = "chi_" + meld.shape if meld.kind == "chi" else meld.kind
        cards = tuple(sorted(meld.cards + tuple(Card(k) for k in extensions.get(index, []))))
        meld_groups.append(Group(kind, cards, meld.he, melded=True))
    for yun in hand.yun:
        meld_groups.append(Group("dayun" if len(yun) == 7 else "xiaoyun", yun, 0, melded=True))
    leftovers: dict[str, list[Card]] = {"yao": [], "loose": []}
    for kind, kinds, he, label in parts:
        if kind == "ext":
            continue
        if kind in leftovers:
            leftovers[kind].extend(Card(k) for k in kinds)
            continue
        if not kinds:
            continue  # a 车 whose cards all sit in 哈/叉/光 groups
        groups.append(Group(kind, tuple(Card(k) for k in kinds), he, label if kind == "che" else ""))
    for kind, left in leftovers.items():
        if left:
            groups.append(Group(kind, tuple(sorted(left)), 0))
    return tuple(meld_groups + groups)


def score_hand(hand: Hand, options: ZuiheOptions | None = None) -> ZuiheResult:
    """Score a parsed hand: search every arrangement, choose the best by 嘴 then 和."""
    options = options or ZuiheOptions()
    context = _Context(hand, options)
    prep = prepare(hand, options)
    best: tuple[_Verdict, list[Part]] | None = None
    best_he: tuple[int, list[Part]] | None = None
    for summary, witness in search_clean(prep).items():
        parts = unroll(witness)
        verdict = context.evaluate(summary, parts)
        if best is None or verdict.key > best[0].key:
            best = (verdict, parts)
        he = context.fixed_he + summary[HE]
        if best_he is None or he > best_he[0]:
            best_he = (he, parts)
    if best is not None and best[0].wins:
        verdict, parts = best
        return _result(hand, verdict.wins, verdict.he, verdict.zui, parts, verdict.items, verdict.luan,
                       verdict.reason_zh, verdict.reason_en)

    loose_he, loose_witness = search_loose(prep, options)
    loose_he += context.fixed_he
    if best_he is not None and best_he[0] >= loose_he:
        he, parts = best_he
    else:
        he, parts = loose_he, unroll(loose_witness)
    if best is not None:
        reason_zh, reason_en = best[0].reason_zh, best[0].reason_en
        luan = best[0].luan
    else:
        reason_zh, reason_en = "有闲牌：白牌不能全部成副", "loose cards: no arrangement groups every 白 card"
        luan = not any(p[0] in ("ha", "lou") for p in parts) and context.guang_bai + context.guang_yao == 0
    # 100-嘴 hands and 蹦 win whatever the grouping.
    special = context.special or context.beng(luan)
    if special is not None:
        items = [ZuiItem(special[0], special[1], Fraction(special[2]))]
        if options.jian_on_flat:
            items += context._jian(4 if "蹦" in special[0] else (2 if luan else 1))
        total = sum((i.zui for i in items), Fraction(0))
        return _result(hand, True, he, total, parts, tuple(items), luan, "", "")
    return _result(hand, False, he, Fraction(0), parts, (), luan, reason_zh, reason_en)


def _result(hand: Hand, wins: bool, he: int, zui: Fraction, parts: list[Part], items: tuple[ZuiItem, ...],
            luan: bool, reason_zh: str, reason_en: str) -> ZuiheResult:
    baixinli = not any(c.kind in YAO_KINDS for c in hand.all_cards())
    type_zh = ("乱牌" if luan else "哈牌") + ("（白心力）" if baixinli else "")
    type_en = ("乱牌 (no 哈 or 楼)" if luan else "哈牌 (has a 哈 or 楼)") + (" (白心力: no 幺)" if baixinli else "")
    return ZuiheResult(wins, he, zui, _groups(hand, parts), items, type_zh, type_en, reason_zh, reason_en)


def score(obj: object, options: ZuiheOptions | None = None) -> ZuiheResult:
    """Parse and score a HAND.json object; its ``"options"`` key, if any, overrides ``options``.

    >>> score({"hand": ["2B"]}, ZuiheOptions(sizes=())).wins
    False
    """
    if isinstance(obj, dict) and "options" in obj:
        base = options or ZuiheOptions()
        extra = obj["options"]
        if not isinstance(extra, dict):
            raise HandError("options_object")
        merged = {f: getattr(base, f) for f in base.__dataclass_fields__} | extra
        options = ZuiheOptions.parse(merged)
    return score_hand(parse_hand(obj, options), options)


# ---------------------------------------------------------------------------- explanation


def _fmt(value: Fraction) -> str:
    number = _number(value)
    return str(number)


def explain(result: ZuiheResult, lang: str = "zh") -> str:
    """A readable, itemised explanation of a result (``zh`` or ``en``)."""
    zh = lang == "zh"
    lines: list[str] = []
    if result.wins:
        lines.append(f"和了 — {result.hand_type_zh}，{result.he}和，{_fmt(result.zui)}嘴" if zh
                     else f"Wins — {result.hand_type_en}, {result.he} 和, {_fmt(result.zui)} 嘴")
    else:
        lines.append(f"不和 — {result.hand_type_zh}，{result.reason_zh}；最多{result.he}和" if zh
                     else f"Does not win — {result.hand_type_en}: {result.reason_en}; best {result.he} 和")
    if result.wins and result.reason_zh:
        lines.append(("注：" + result.reason_zh) if zh else ("Note: " + result.reason_en))
    lines.append("牌组：" if zh else "Groups:")
    for group in result.groups:
        cards = " ".join((c.name_zh if zh else c.code) for c in group.cards)
        name = group.name_zh if zh else group.name_en
        lines.append(f"  {name}  {cards}  {group.he}{'和' if zh else ' 和'}")
    lines.append(f"  合计 {result.he}和" if zh else f"  total {result.he} 和")
    if result.items:
        lines.append("嘴：" if zh else "嘴:")
        for item in result.items:
            lines.append(f"  {item.name_zh if zh else item.name_en}  {_fmt(item.zui)}")
        lines.append(f"  合计 {_fmt(result.zui)}嘴" if zh else f"  total {_fmt(result.zui)} 嘴")
    return "\n".join(lines)

