"""The memoised search agrees with a plain brute-force enumerator on random small hands.

The enumerator below is written from docs/ZUIHE.md independently of ``scorer.zuihe.search``:
it lists every group the concealed cards could form, enumerates every multiset of
them that fits the hand, keeps those that leave only 幺 cards over, and scores each
arrangement with the scorer's 嘴 rules. The best (wins, 嘴, 和) must match.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

import pytest

from tuolaji.scorer.zuihe import Card, ZuiheOptions, parse_hand, score_hand
from tuolaji.scorer.zuihe.score import _Context

YAO = {"ZH", "FA", "BA", "1B", "1T", "1W", "9T"}
QITAO = {"qun": ("7B", "3T", "3W"), "bang": ("8B", "2T", "2W"), "hu": ("9B", "1T", "1W"),
         "jia": ("ZH", "FA", "9T"), "wula": ("ZH", "9W", "9T"), "jiang": ("BA", "9W", "8T"),
         "wenquan": ("1B", "2B", "3B")}
WHITE_RANKS = {"B": range(2, 10), "T": range(2, 9), "W": range(2, 10)}
FIELDS = ("he", "che", "shao", "yun", "dayun", "bai_ha", "yao_ha", "bai_lou", "yao_lou")


@dataclass
class Choice:
    cards: Counter[str]
    gains: dict[str, int]
    parts: list[tuple[str, tuple[int, ...], int, str]]
    melds: frozenset[str] = frozenset()
    ext: str = ""
    earns: bool = field(default=False)


def kinds(codes: list[str] | tuple[str, ...]) -> tuple[int, ...]:
    return tuple(Card.parse(c).kind for c in codes)


def alike_he(code: str, n: int) -> int:
    return {3: 2, 4: 5}[n] + (code in YAO)


def candidates(hand_cards: Counter[str], cha_kinds: set[str], chi_fu: list[tuple[int, str, int, int]],
               options: ZuiheOptions) -> list[Choice]:
    locked = {c for c, n in hand_cards.items() if n >= 3 and not options.split_ha}
    out: list[Choice] = []

    def plain(codes: list[str], gains: dict[str, int], kind: str, he: int = 0, label: str = "") -> None:
        if any(c in locked for c in codes):
            return
        out.append(Choice(Counter(codes), gains, [(kind, kinds(codes), he, label)], earns=he > 0))

    for suit, ranks in WHITE_RANKS.items():
        for a in ranks:
            for b in ranks:
                if b >= a + 2:
                    plain([f"{r}{suit}" for r in range(a, b + 1)], {}, "fu")
    for r in range(2, 9):
        plain([f"{r}B", f"{r}T", f"{r}W"], {}, "bao")
    for name, codes in QITAO.items():
        plain(list(codes), {"he": 1}, name, 1)
    plain(["ZH", "FA", "BA", "1B", "1T", "1W"], {"yun": 1}, "xiaoyun")
    plain(["ZH", "FA", "BA", "1B", "1T", "1W", "9T"], {"yun": 1, "dayun": 1}, "dayun")

    def alike_options(code: str) -> list[int]:
        if options.split_ha:
            return [n for n in (3, 4) if hand_cards[code] >= n]
        return [hand_cards[code]] if code in locked else []

    for code in hand_cards:
        for n in alike_options(code):
            colour = "yao" if code in YAO else "bai"
            out.append(Choice(Counter({code: n}), {"he": alike_he(code, n), f"{colour}_{'ha' if n == 3 else 'lou'}": 1},
                              [("ha" if n == 3 else "lou", kinds([code] * n), alike_he(code, n), "")], earns=True))

    numerals = "一二三四五六七八九"
    ches = [(f"{numerals[r - 1]}车", (f"{r}B", f"{r}T", f"{r}W"), 0) for r in range(2, 9)]
    if options.qitao_che:
        names = {"qun": "群", "bang": "梆", "hu": "虎", "jia": "架", "wula": "乌拉", "jiang": "姜"}
        ches += [(f"{names[n]}车", QITAO[n], 2) for n in names]
    for label, codes, full_he in ches:
        # each kind of the 车: a pair in hand, or a 捎 — a 哈/楼 in hand or a 叉/光 laid down
        ways_per_code = []
        for code in codes:
            ways = [] if code in locked else [("pair", 2)]
            ways += [("alike", n) for n in alike_options(code)]
            if code in cha_kinds:
                ways.append(("meld", 0))
            ways_per_code.append(ways)

        def expand(i: int, acc: list[tuple[str, int]], codes: tuple[str, ...] = codes, full_he: int = full_he,
                   label: str = label, ways_per_code: list = ways_per_code) -> None:
            if i == 3:
                shao = sum(w != "pair" for w, _ in acc)
                cards: Counter[str] = Counter()
                gains = {"che": 1, "shao": shao, "he": 0}
                parts = []
                remnant = []
                melds = set()
                for code, (way, n) in zip(codes, acc, strict=True):
                    if way == "pair":
                        cards[code] += 2
                        remnant += [code, code]
                    elif way == "meld":
                        melds.add(code)
                    else:
                        cards[code] += n
                        colour = "yao" if code in YAO else "bai"
                        key = f"{colour}_{'ha' if n == 3 else 'lou'}"
                        gains[key] = gains.get(key, 0) + 1
                        gains["he"] += alike_he(code, n)
                        parts.append(("ha" if n == 3 else "lou", kinds([code] * n), alike_he(code, n), ""))
                che_he = full_he if shao == 0 else 0
                gains["he"] += che_he
                suffix = {0: "", 1: "一捎", 2: "两捎", 3: "全翻"}[shao]
                parts.append(("che", tuple(sorted(kinds(remnant))), che_he, label + suffix))
                out.append(Choice(cards, gains, parts, frozenset(melds)))
                return
            for way in ways_per_code[i]:
                expand(i + 1, acc + [way])

        expand(0, [])

    for index, suit, lo, hi in chi_fu:
        ranks = WHITE_RANKS[suit]
        for side, run in (("L", range(lo - 1, ranks.start - 1, -1)), ("R", range(hi + 1, ranks.stop))):
            taken: list[str] = []
            for r in run:
                taken.append(f"{r}{suit}")
                if not any(c in locked for c in taken):
                    out.append(Choice(Counter(taken), {}, [("ext", kinds(sorted(taken)), 0, str(index))],
                                      ext=f"{index}{side}"))
    return [c for c in out if all(hand_cards[k] >= n for k, n in c.cards.items())]


def brute_force(hand_obj: dict, options: ZuiheOptions) -> tuple[bool, object, int]:
    hand = parse_hand(hand_obj, options)
    cards = Counter(c.code for c in hand.concealed)
    locked = {c for c, n in cards.items() if n >= 3 and not options.split_ha}
    cha_kinds = {m.cards[0].code for m in hand.melds if m.kind in ("cha", "guang")}
    chi_fu = [(i, m.cards[0].suit, m.cards[0].rank, m.cards[-1].rank)
              for i, m in enumerate(hand.melds) if m.kind == "chi" and m.shape == "fu"]
    cands = candidates(cards, cha_kinds, chi_fu, options)
    context = _Context(hand, options)
    best = None
    best_loose_he = -1

    def leftover_ok(remaining: Counter[str], clean: bool) -> bool:
        if any(remaining[c] for c in locked):
            return False
        if not clean:
            return True
        return all(n == 0 or (c in YAO and options.yao_loose) for c, n in remaining.items())

    def rec(i: int, remaining: Counter[str], melds: frozenset[str], exts: frozenset[str],
            chosen: list[Choice], earning_only: bool) -> None:
        nonlocal best, best_loose_he
        if i == len(cands):
            if earning_only:
                if leftover_ok(remaining, clean=False):
                    he = context.fixed_he + sum(c.gains.get("he", 0) for c in chosen)
                    best_loose_he = max(best_loose_he, he)
                return
            if not leftover_ok(remaining, clean=True):
                return
            summary = tuple(sum(c.gains.get(f, 0) for c in chosen) for f in FIELDS)
            parts = [p for c in chosen for p in c.parts]
            verdict = context.evaluate(summary, parts)
            if best is None or verdict.key > best.key:
                best = verdict
            return
        if not earning_only:
            # prune: a 白 card no later candidate can take is loose for good
            for code, n in remaining.items():
                if n and code not in YAO and not any(code in c.cards for c in cands[i:]):
                    return
        rec(i + 1, remaining, melds, exts, chosen, earning_only)
        choice = cands[i]
        if earning_only and not choice.earns:
            return
        if choice.melds & melds or (choice.ext and choice.ext in exts):
            return
        if all(remaining[k] >= n for k, n in choice.cards.items()):
            rec(i, remaining - choice.cards, melds | choice.melds, exts | ({choice.ext} if choice.ext else set()),
                chosen + [choice], earning_only)

    rec(0, cards, frozenset(), frozenset(), [], False)
    rec(0, cards, frozenset(), frozenset(), [], True)
    if best is not None and best.wins:
        return True, best.zui, best.he
    return False, 0, best_loose_he


SHAPES = [
    ["2B", "3B", "4B"], ["3B", "4B", "5B", "6B"], ["5W", "6W", "7W"], ["4T", "5T", "6T"], ["4B", "4T", "4W"],
    ["2B", "2T", "2W"], ["7B", "3T", "3W"], ["8B", "2T", "2W"], ["9B", "1T", "1W"], ["ZH", "FA", "9T"],
    ["ZH", "9W", "9T"], ["BA", "9W", "8T"], ["1B", "2B", "3B"], ["ZH", "FA", "BA", "1B", "1T", "1W"],
    ["ZH", "FA", "BA", "1B", "1T", "1W", "9T"], ["ZH"] * 3, ["7B"] * 3, ["2T"] * 4, ["FA"] * 3,
    ["2B", "2B", "2T", "2T", "2W", "2W"], ["7B", "7B", "3T", "3T", "3W", "3W"], ["3T", "3T", "3W", "3W"],
    ["5B", "6B"], ["8B", "9B"], ["6W"], ["2W"], ["5B"],  # only 清门 when they continue a 吃 副
]
CHI_SHAPES = [["2B", "3B", "4B"], ["5B", "6B", "7B"], ["3W", "4W", "5W"], ["4B", "4T", "4W"], ["7B", "3T", "3W"]]
MELD_KINDS = ["ZH", "FA", "BA", "1T", "9T", "7B", "2B", "3B", "7W", "8W", "2T", "5B"]


def random_hand(rng: random.Random) -> dict:
    """A hand built mostly from groups, so that many are 清门, plus stray cards and melds."""
    used: Counter[str] = Counter()
    melds = []
    for _ in range(rng.randint(0, 3)):
        shape = rng.random()
        if shape < 0.55:
            code = rng.choice(MELD_KINDS)
            if used[code] + 3 <= 4:
                melds.append({"type": "cha", "cards": [code] * 3})
                used[code] += 3
        elif shape < 0.75:
            code = rng.choice(MELD_KINDS)
            if used[code] == 0:
                melds.append({"type": "guang", "cards": [code] * 4})
                used[code] += 4
        else:
            cards = rng.choice(CHI_SHAPES)
            if all(used[c] < 4 for c in cards):
                melds.append({"type": "chi", "cards": cards})
                used.update(cards)
    hand: list[str] = []
    for _ in range(rng.randint(2, 5)):
        shape = rng.choice(SHAPES)
        if all(used[c] + n <= 4 for c, n in Counter(shape).items()) and len(hand) + len(shape) <= 17:
            hand += shape
            used.update(shape)
    for _ in range(rng.choice([0, 0, 1, 2])):
        code = rng.choice(sorted({c for shape in SHAPES for c in shape}))
        if used[code] < 4:
            hand.append(code)
            used[code] += 1
    rng.shuffle(hand)
    flags = {"mo": rng.random() < 0.3, "za": rng.random() < 0.3,
             "jian": rng.choice([None, "huang", "mian", "cha", "tong"])}
    return {"hand": hand, "melds": melds, "flags": flags}


OPTION_SETS = [
    ZuiheOptions(sizes=()),
    ZuiheOptions(sizes=(), split_ha=True),
    ZuiheOptions(sizes=(), patterns="sum", yao_loose=False),
    ZuiheOptions(sizes=(), qitao_che=False, extra_lou_as_ha=False),
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=["default", "split_ha", "sum-no-yao-loose", "no-qitao-che"])
def test_search_agrees_with_brute_force(options: ZuiheOptions) -> None:
    rng = random.Random(20261129)
    wins = 0
    for _ in range(200):
        hand_obj = random_hand(rng)
        result = score_hand(parse_hand(hand_obj, options), options)
        expected = brute_force(hand_obj, options)
        assert (result.wins, result.zui, result.he) == expected, (hand_obj, result.explain())
        wins += result.wins
    assert wins >= 3  # the sample does exercise the winning branch


def test_brute_force_sees_what_the_tables_see() -> None:
    # a hand from the tables: 二车一捎 by a 哈 in hand, 双幺四坎
    hand = {"hand": ["2B"] * 3 + ["2T", "2T", "2W", "2W"] + ["ZH"] * 3 + ["BA"] * 3 + ["7B"] * 3}
    options = ZuiheOptions(sizes=())
    assert brute_force(hand, options) == (True, 7, 10)
    assert score_hand(parse_hand(hand, options), options).zui == 7
