"""docs/ZUIHE.md's tables, row by row, each on a hand-built 30/31-card hand.

Hands are built from a *core* (the cards the row is about, plus 哈 or 叉 for 和) and
filled to 30 cards with 白 runs (副, 0 和, no 嘴) that never make a pair into a 车.
Every test asserts the whole list of 嘴 items, so a stray 车 or row would show.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from tuolaji.scorer.zuihe import ZuiheResult, score

# 副 blocks for filling: 饼 runs (2B..6B) and one 条 run; a pair they make never meets
# another suit's pair of the same rank, so no 报车 appears.
FILL_BLOCKS = [
    "2B 3B 4B 5B 6B", "2B 3B 4B 5B 6B", "2B 3B 4B 5B", "3B 4B 5B 6B", "2B 3B 4B", "3B 4B 5B", "4B 5B 6B",
    "4T 5T 6T 7T", "4T 5T 6T 7T", "4T 5T 6T", "5T 6T 7T",
    "4W 5W 6W 7W 8W", "4W 5W 6W", "6W 7W 8W", "5W 6W 7W 8W",
]
# 万 at most once, so no rank has a pair in all three suits (no 报车 from filling).
FILL_CAP = {f"{r}W": 1 for r in range(4, 9)}


def fill(cards: list[str], melds: list[dict], yun: list, total: int) -> list[str]:
    """``cards`` plus 副 blocks up to ``total`` cards in all, never more than 2 of a filled kind."""
    counts = Counter(cards)
    for meld in melds:
        counts.update(meld["cards"])
    for group in yun:
        counts.update(group)
    need = total - sum(counts.values())

    def search(need: int, start: int, counts: Counter[str]) -> list[str] | None:
        if need == 0:
            return []
        for i in range(start, len(FILL_BLOCKS)):
            block = FILL_BLOCKS[i].split()
            if len(block) > need or need - len(block) in (1, 2):
                continue
            if any(counts[c] + 1 > FILL_CAP.get(c, 2) for c in block):
                continue
            rest = search(need - len(block), i + 1, counts + Counter(block))
            if rest is not None:
                return block + rest
        return None

    added = search(need, 0, counts)
    assert added is not None, f"cannot fill {need} cards around {cards}"
    return cards + added


def H(card: str) -> list[str]:
    return [card] * 3


def L(card: str) -> list[str]:
    return [card] * 4


def cha(card: str) -> dict:
    return {"type": "cha", "cards": [card] * 3}


def guang(card: str) -> dict:
    return {"type": "guang", "cards": [card] * 4}


def play(core: list[str], melds: list[dict] | None = None, yun: list | None = None,
         total: int | None = 30, options: dict | None = None, **flags: object) -> ZuiheResult:
    """Score ``core`` filled to ``total`` cards (``None``: as it is, any size accepted)."""
    melds = melds or []
    yun = yun or []
    hand = fill(core, melds, yun, total) if total else core
    obj = {"hand": hand, "melds": melds, "yun": yun, "flags": flags}
    options = dict(options or {})
    if total is None:
        options["sizes"] = "any"
    if options:
        obj["options"] = options
    return score(obj)


def items(result: ZuiheResult) -> list[tuple[str, float]]:
    return [(item.name_zh, float(item.zui)) for item in result.items]


def check(result: ZuiheResult, he: int, expected: list[tuple[str, float]]) -> None:
    assert result.wins, result.explain()
    assert result.he == he, result.explain()
    assert items(result) == expected, result.explain()
    assert result.zui == sum(Fraction(z).limit_denominator(4) for _, z in expected)
    assert sum(g.he for g in result.groups) == result.he


# ------------------------------------------------------------------ groups and their 和

@pytest.mark.parametrize("cards, kind", [
    (["7B", "3T", "3W"], "qun"), (["8B", "2T", "2W"], "bang"), (["9B", "1T", "1W"], "hu"),
    (["ZH", "FA", "9T"], "jia"), (["ZH", "9W", "9T"], "wula"), (["BA", "9W", "8T"], "jiang"),
    (["1B", "2B", "3B"], "wenquan"),
])
def test_qitao_is_one_he(cards: list[str], kind: str) -> None:
    result = play(cards, total=None)
    assert result.he == 1
    assert [(g.kind, [c.code for c in g.cards], g.he) for g in result.groups if g.he] == [(kind, cards, 1)]


@pytest.mark.parametrize("core, melds, he, kind", [
    (H("8B"), [], 2, "ha"), (H("ZH"), [], 3, "ha"),
    (L("8B"), [], 5, "lou"), (L("ZH"), [], 6, "lou"),
    ([], [cha("8W")], 1, "cha"), ([], [cha("1T")], 2, "cha"),
    ([], [guang("8W")], 4, "guang"), ([], [guang("1T")], 5, "guang"),
])
def test_alike_groups(core: list[str], melds: list[dict], he: int, kind: str) -> None:
    result = play(core, melds, total=None)
    assert result.he == he
    assert [(g.kind, g.he) for g in result.groups if g.he] == [(kind, he)]


def test_fu_bao_and_yun_earn_no_he() -> None:
    result = play(["5B", "5T", "5W", "6B", "7B", "8B", "ZH", "FA", "BA", "1B", "1T", "1W"], total=None)
    kinds = {g.kind for g in result.groups}
    assert {"bao", "fu", "xiaoyun"} <= kinds and "loose" not in kinds
    assert result.he == 0 and not result.wins  # no 哈, no 叉: a 乱牌 that cannot win


def test_chi_meld_shapes_and_he() -> None:
    melds = [{"type": "chi", "cards": ["7B", "3T", "3W"]}, {"type": "chi", "cards": ["4T", "3T", "5T"]},
             {"type": "chi", "cards": ["4B", "4T", "4W"]}]
    result = play([], melds, total=None)
    assert [(g.kind, g.he) for g in result.groups[:3]] == [("chi_qun", 1), ("chi_fu", 0), ("chi_bao", 0)]


def test_hand_cards_continue_a_chi_fu() -> None:
    # 吃 5B6B7B; 8B 9B in hand continue it (手中如果还有牌能和这套顺副连接上也算成副).
    result = play(H("ZH") + H("BA") + H("9W") + ["8B", "9B", "4T", "5T", "6T", "7T"],
                  [{"type": "chi", "cards": ["5B", "6B", "7B"]}, cha("1T")], total=None)
    assert result.groups[0].kind == "chi_fu"
    assert [c.code for c in result.groups[0].cards] == ["5B", "6B", "7B", "8B", "9B"]
    assert "loose" not in {g.kind for g in result.groups}


# ------------------------------------------------------------------ base, 抹, 天和, 地和

YAO_SI_KAN = H("ZH") + H("7B") + H("8B") + H("9B")  # 9 和; with 叉 8W: 10 和, 幺四坎


def test_base_rate_and_half_steps() -> None:
    check(play(YAO_SI_KAN, [cha("8W")]), 10, [("和数10和", 1), ("幺四坎", 2)])
    check(play(YAO_SI_KAN + H("2T"), [cha("8W")]), 12, [("和数12和", 2), ("幺五坎", 3)])
    check(play(YAO_SI_KAN + H("2T"), [cha("9T"), cha("8W")]), 14, [("和数14和", 3), ("幺五坎", 3)])
    check(play(YAO_SI_KAN + H("2T"), [cha("1T")]), 13, [("和数13和", 2.5), ("幺五坎", 3)])


@pytest.mark.parametrize("flag, name, zui", [("mo", "抹", 1), ("tianhe", "天和", 3), ("dihe", "地和", 4)])
def test_mo_tianhe_dihe(flag: str, name: str, zui: int) -> None:
    check(play(YAO_SI_KAN, [cha("8W")], **{flag: True}), 10, [("和数10和", 1), (name, zui), ("幺四坎", 2)])


# ------------------------------------------------------------------ the pattern table

ROWS = [
    # 门墩 (白哈); "+1 per further 哈" counts any 哈
    ("四门墩", H("7B") + H("8B") + H("9B") + H("2T"), [cha("8W"), cha("1T")], 11, 1),
    ("五门墩", H("7B") + H("8B") + H("9B") + H("2T") + H("3T") + ["FA"], [], 10, 2),
    ("六门墩", H("7B") + H("8B") + H("9B") + H("2T") + H("3T") + H("9W") + ["FA"], [], 12, 3),
    # 幺哈 family
    ("幺哈", H("ZH") + H("7B") + H("8B"), [cha("8W"), cha("1T")], 10, 1),
    ("幺四坎", H("ZH") + H("7B") + H("8B") + H("9B"), [cha("8W")], 10, 2),
    ("幺五坎", H("ZH") + H("7B") + H("8B") + H("9B") + H("2T"), [], 11, 3),
    ("幺六坎", H("ZH") + H("7B") + H("8B") + H("9B") + H("2T") + H("3T"), [], 13, 4),
    ("双幺哈", H("ZH") + H("BA") + H("7B"), [cha("8W"), cha("1T")], 11, 3),
    ("双幺四坎", H("ZH") + H("BA") + H("7B") + H("8B"), [], 10, 4),
    ("双幺五坎", H("ZH") + H("BA") + H("7B") + H("8B") + H("9B"), [], 12, 5),
    ("双幺六坎", H("ZH") + H("BA") + H("7B") + H("8B") + H("9B") + H("2T"), [], 14, 6),
    ("三幺金蛋", H("ZH") + H("BA") + H("1B"), [cha("8W")], 10, 5),
    ("三幺金蛋挂一坎", H("ZH") + H("BA") + H("1B") + H("7B"), [], 11, 6),
    ("三幺金蛋挂二坎", H("ZH") + H("BA") + H("1B") + H("7B") + H("8B"), [], 13, 7),
    # 楼 family
    ("白楼", L("8B"), [cha("8W"), cha("1T"), cha("9T")], 10, 2),
    ("一楼二坎", L("8B") + H("7B") + H("9B") + ["FA"], [cha("8W")], 10, 3),
    ("一楼三坎", L("8B") + H("7B") + H("9B") + H("2T") + ["FA"], [], 11, 4),
    ("一楼四坎", L("8B") + H("7B") + H("9B") + H("2T") + H("3T") + ["FA"], [], 13, 5),
    ("一楼幺二坎", L("8B") + H("ZH") + H("7B"), [], 10, 4),
    ("一楼幺二坎", L("ZH") + H("7B") + H("9B"), [], 10, 4),  # the 幺 is the 楼
    ("一楼双幺坎", L("8B") + H("ZH") + H("BA"), [], 11, 6),
    ("一楼双幺三坎", L("8B") + H("ZH") + H("BA") + H("7B"), [], 13, 7),
    ("一楼双幺四坎", L("8B") + H("ZH") + H("BA") + H("7B") + H("9B"), [], 15, 8),
    # a 光 counts as a 楼
    ("一楼二坎", H("7B") + H("9B"), [guang("8B"), cha("8W"), cha("1T")], 11, 3),
    # two 白楼: the second counts as a 哈 of its colour (extra_lou_as_ha)
    ("一楼二坎", L("8B") + L("7B") + H("9B") + ["FA"], [], 12, 3),
]


@pytest.mark.parametrize("name, core, melds, he, zui", ROWS, ids=[f"{r[0]}-{i}" for i, r in enumerate(ROWS)])
def test_pattern_rows(name: str, core: list[str], melds: list[dict], he: int, zui: int) -> None:
    base = 1 + (he - 10) / 2
    check(play(core, melds), he, [(f"和数{he}和", base), (name, zui)])


def test_three_lou_big_hand_counts_the_he_of_lou_and_ha() -> None:
    # 三个楼子以上的大牌: 嘴 = the 和 of the 楼 and 哈 (15 + 2), beats 一楼三坎
    check(play(L("7B") + L("8B") + L("9B") + H("2T") + ["FA"]), 17, [("和数17和", 4.5), ("三楼大牌（楼哈17和）", 17)])
    result = play(L("7B") + L("8B") + L("9B") + H("2T") + ["FA"], options={"big_lou": False})
    assert items(result) == [("和数17和", 4.5), ("一楼三坎", 4)]


def test_patterns_sum_option_adds_each_family() -> None:
    core = H("ZH") + H("7B") + H("8B") + H("9B") + H("2T")
    check(play(core), 11, [("和数11和", 1.5), ("幺五坎", 3)])
    result = play(core, options={"patterns": "sum"})
    assert items(result) == [("和数11和", 1.5), ("四门墩+1幺哈", 2), ("幺五坎", 3)]


def test_extra_lou_as_ha_option() -> None:
    result = play(L("8B") + L("7B") + H("9B") + ["FA"], options={"extra_lou_as_ha": False})
    assert items(result) == [("和数12和", 2), ("白楼", 2)]


# ------------------------------------------------------------------ 车 and 云幺 bonuses

CHE_HA = H("9B") + H("9W") + H("ZH")  # 7 和, a 幺哈 and two 白哈, no 车 of their own


def test_two_che_bonus() -> None:
    core = ["2B", "2B", "2T", "2T", "2W", "2W", "3B", "3B", "3T", "3T", "3W", "3W"] + CHE_HA
    check(play(core, [cha("1T"), cha("8W")]), 10,
          [("和数10和", 1), ("幺哈", 1), ("二车", 1), ("三车", 1), ("双车", 1)])


def test_three_che_bonus() -> None:
    core = [f"{r}{s}" for r in (2, 3, 4) for s in "BTW"] * 2 + H("ZH") + H("BA")
    check(play(core, [cha("1T"), cha("9T")]), 10,
          [("和数10和", 1), ("双幺哈", 3), ("二车", 1), ("三车", 1), ("四车", 1), ("三车", 2)])


def test_che_shao_by_cha_and_by_ha() -> None:
    # 一车一捎: the 2B pair was 叉ed (or is a 哈 in hand): +1 嘴
    core = ["2T", "2T", "2W", "2W"] + H("ZH") + H("BA") + H("7B") + H("9B")
    check(play(core, [cha("2B")]), 11, [("和数11和", 1.5), ("双幺四坎", 4), ("二车一捎", 2)])
    core = H("2B") + ["2T", "2T", "2W", "2W"] + H("ZH") + H("BA") + H("7B")
    result = play(core)
    check(result, 10, [("和数10和", 1), ("双幺四坎", 4), ("二车一捎", 2)])
    assert ("che", ["2T", "2T", "2W", "2W"]) in [(g.kind, [c.code for c in g.cards]) for g in result.groups]


def test_che_all_flipped() -> None:
    check(play(H("ZH") + H("BA"), [cha("2B"), cha("2T"), cha("2W"), cha("8W")]), 10,
          [("和数10和", 1), ("双幺哈", 3), ("二车全翻", 4)])


def test_doubled_qitao_is_two_qitao_and_a_che_but_never_wenquan() -> None:
    core = ["7B", "7B", "3T", "3T", "3W", "3W"] + H("ZH") + H("BA") + H("9B")
    result = play(core)
    check(result, 10, [("和数10和", 1), ("双幺哈", 3), ("群车", 1)])
    assert [(g.label, g.he) for g in result.groups if g.kind == "che"] == [("群车", 2)]
    assert items(play(core, options={"qitao_che": False})) == [("和数10和", 1), ("双幺哈", 3)]
    result = play(["1B", "1B", "2B", "2B", "3B", "3B"] + H("ZH") + H("BA") + H("9B"))
    check(result, 10, [("和数10和", 1), ("双幺哈", 3)])
    assert [g.kind for g in result.groups].count("wenquan") == 2


YUN_XIAO = ["ZH", "FA", "BA", "1B", "1T", "1W"]
YUN_DA = YUN_XIAO + ["9T"]
FOUR_BAI_HA = H("7B") + H("8B") + H("2T") + H("3T")


def test_yun_in_hand_and_two_small_yun() -> None:
    check(play(YUN_XIAO * 2 + FOUR_BAI_HA, [cha("8W"), cha("9W")]), 10,
          [("和数10和", 1), ("四门墩", 1), ("小云幺", 1), ("小云幺", 1), ("双小云", 1)])


def test_big_and_small_yun() -> None:
    check(play(YUN_XIAO + FOUR_BAI_HA, [cha("8W"), cha("9W")], yun=[YUN_DA], total=31), 10,
          [("和数10和", 1), ("四门墩", 1), ("大云幺", 2), ("小云幺", 1), ("大小云", 1)])


def test_two_big_yun_laid_down() -> None:
    check(play(FOUR_BAI_HA + H("9B") + ["ZH"], yun=[YUN_DA, YUN_DA]), 10,
          [("和数10和", 1), ("五门墩", 2), ("大云幺", 2), ("大云幺", 2), ("双大云", 1)])


# ------------------------------------------------------------------ 乱牌, 砸

QITAO7 = ["7B", "3T", "3W", "8B", "2T", "2W", "9B", "1T", "1W", "ZH", "FA", "9T", "ZH", "9W", "9T",
          "BA", "9W", "8T", "1B", "2B", "3B"]


def test_luanpai_needs_a_cha_on_a_yao() -> None:
    result = play(QITAO7, [cha("5B"), cha("6B"), cha("4W")])
    assert not result.wins and result.he == 10 and result.reason_zh == "乱牌没有叉幺"
    assert result.to_json()["zui"] == 0 and result.items == ()


def test_heishihe_za_wins_a_luanpai_without_yao_cha() -> None:
    check(play(QITAO7, [cha("5B"), cha("6B"), cha("4W")], za=True), 10,
          [("和数10和", 1), ("砸（不让赢）", 15), ("黑十和", 4)])


HONG13 = ["7B", "3T", "3W", "8B", "2T", "2W", "9B", "1T", "1W", "BA", "9W", "8T", "1B", "2B", "3B"]
HONG13_MELDS = [cha("FA"), cha("1T"), cha("5B"), cha("6B"), cha("9T")]


def test_hongshisan() -> None:
    check(play(HONG13, HONG13_MELDS), 13, [("和数13和", 2.5)])
    check(play(HONG13, HONG13_MELDS, za=True), 13, [("和数13和", 2.5), ("砸（不让赢）", 15), ("红十三", 3)])


ZA18 = H("ZH") + H("BA") + H("1B") + H("7B") + H("8B") + H("9B") + H("2T")


def test_za_on_a_hapai_needs_18_he() -> None:
    check(play(ZA18, [cha("8W")], za=True), 18, [("和数18和", 5), ("三幺金蛋挂四坎", 9), ("砸（不让赢）", 15)])
    check(play(ZA18, [cha("8W")]), 18, [("和数18和", 5), ("三幺金蛋挂四坎", 9)])
    result = play(ZA18, za=True)  # 17 和: 砸 not met, a plain win
    check(result, 17, [("和数17和", 4.5), ("三幺金蛋挂四坎", 9)])
    assert "未够砸" in result.reason_zh


# ------------------------------------------------------------------ special hands

def test_baixinli_win_is_50() -> None:
    check(play(H("7B") + H("8B") + H("2T") + H("3T") + H("9W")), 10, [("白心力", 50)])


def test_baixinli_za() -> None:
    # 哈牌白心力 够10和 / 乱牌白心力 够7和 报不让赢: 50, and its 见 at the 砸 rate
    check(play(H("7B") + H("8B") + H("2T") + H("3T") + H("9W"), za=True, jian="huang"), 10,
          [("白心力不让赢", 50), ("黄见（砸×4）", 2)])
    luan = ["7B", "3T", "3W", "8B", "2T", "2W", "4B", "4T", "4W", "5B", "5T", "5W"]
    white_cha = [cha(k) for k in ("6B", "6T", "6W", "7T", "7W")]
    hand = {"hand": luan, "melds": white_cha, "options": {"sizes": "any"}}
    assert not score(hand).wins  # a 乱牌 白心力 cannot 叉 a 幺, so it only wins by 砸
    check(score(hand | {"flags": {"za": True}}), 7, [("白心力不让赢", 50)])


def test_thirty_singles_fifteen_pairs_ten_ha() -> None:
    singles = [f"{r}{s}" for s in "BTW" for r in range(1, 10)] + ["ZH", "FA", "BA"]
    check(score({"hand": singles}), score({"hand": singles}).he, [("三十个单张", 100)])
    pairs = [f"{r}B" for r in range(2, 10)] * 2 + [f"{r}T" for r in range(2, 9)] * 2
    check(score({"hand": pairs}), 0, [("十五对", 100)])
    ha = [c for k in ["ZH", "FA", "BA", "1B", "2B", "3B", "4B", "5B", "6B", "7B"] for c in H(k)]
    check(score({"hand": ha}), 24, [("十个哈", 100)])


BENG_CHA = [cha(k) for k in ("ZH", "2B", "3B", "4B", "5B", "6B", "7B", "8B")]


def test_beng() -> None:
    check(score({"hand": ["2T", "3T", "4T", "5T", "6T", "7T"], "melds": BENG_CHA}), 9, [("八蹦子", 25)])
    check(score({"hand": H("9W") + ["2T", "3T", "4T"], "melds": BENG_CHA}), 11, [("母八蹦", 24)])
    white = [cha(k) for k in ("2B", "3B", "4B", "5B", "6B", "7B")]
    hand = ["2T", "3T", "4T", "5T", "6T", "7T", "2W", "3W", "4W", "5W", "6W", "7W"]
    check(score({"hand": hand, "melds": white}), 6, [("白心力乱牌六叉（蹦）", 50)])
    five = [cha(k) for k in ("ZH", "2B", "3B", "4B", "5B")]
    hand = ["6B", "7B", "8B", "2T", "3T", "4T", "5T", "6T", "7T", "2W", "3W", "4W", "5W", "6W", "7W"]
    assert not score({"hand": hand, "melds": five}).wins  # 五眼 is undefined in the seed: off by default
    check(score({"hand": hand, "melds": five, "options": {"wuyan": True}}), 7, [("五眼蹦", 25)])


# ------------------------------------------------------------------ 见

@pytest.mark.parametrize("jian, zui", [("huang", 0.5), ("mian", 1), ("cha", 1.5), ("tong", 2)])
def test_jian_rates(jian: str, zui: float) -> None:
    name = {"huang": "黄见", "mian": "面见", "cha": "叉见", "tong": "统见"}[jian]
    check(play(YAO_SI_KAN, [cha("8W")], jian=jian), 10, [("和数10和", 1), ("幺四坎", 2), (name, zui)])
    check(play(HONG13, HONG13_MELDS, jian=jian), 13, [("和数13和", 2.5), (name + "（乱牌×2）", 2 * zui)])
    check(play(ZA18, [cha("8W")], za=True, jian=jian), 18,
          [("和数18和", 5), ("三幺金蛋挂四坎", 9), ("砸（不让赢）", 15), (name + "（砸×4）", 4 * zui)])


def test_jian_on_flat_hands_option() -> None:
    core = H("7B") + H("8B") + H("2T") + H("3T") + H("9W")
    check(play(core, jian="mian"), 10, [("白心力", 50), ("面见", 1)])
    check(play(core, jian="mian", options={"jian_on_flat": False}), 10, [("白心力", 50)])


# ------------------------------------------------------------------ other options

def test_yao_loose_option() -> None:
    core = H("ZH") + H("7B") + H("8B") + H("9B") + ["BA"]
    check(play(core, [cha("8W")]), 10, [("和数10和", 1), ("幺四坎", 2)])
    assert not play(core, [cha("8W")], options={"yao_loose": False}).wins


def test_split_ha_option() -> None:
    melds = [cha(k) for k in ("ZH", "FA", "BA", "1T", "1W")]
    hand = {"hand": H("5B") + ["3B", "4B", "4B", "6B", "6B", "7B"], "melds": melds, "options": {"sizes": "any"}}
    kept = score(hand)  # 哈子、楼子不准拆开用: the 5B 哈 leaves 3B 4B 4B 6B 6B 7B loose
    assert not kept.wins and "loose" in {g.kind for g in kept.groups}
    split = score(hand | {"options": {"sizes": "any", "split_ha": True}})
    check(split, 10, [("和数10和", 1)])
    assert [g.kind for g in split.groups][5:] == ["fu", "fu", "fu"]
