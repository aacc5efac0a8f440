"""Exhaustive arrangement search over the concealed cards.

The concealed hand is a count vector over 30 kinds, packed 4 bits a kind into one int
(a guard bit per field makes "subtract a group, did any count go negative?" one
subtraction and one mask test). The search always places the lowest kind still held:
into a group whose lowest kind it is, or (幺 only, 幺不算闲牌) as a left-over. Results
are memoised per state as a Pareto set of *summaries* — the arrangement features that
嘴 and 和 depend on — each with one witness arrangement, so the caller can pick the
best by 嘴 then 和 without enumerating the (exponentially many) equivalent groupings.

A summary is ``(he, che, shao, yun, dayun, bai_ha, yao_ha, bai_lou, yao_lou)``; every
field but the last four can only raise 嘴 and 和, so a summary that is ≤ another in
the first five and equal in the last four is dropped.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Any

from .cards import N_KINDS, NUMERALS_ZH, YAO_KINDS, kind_of
from .hand import BAO_RANKS, DAYUN_KINDS, FU_RANKS, QITAO, XIAOYUN_KINDS, Hand, ZuiheOptions

BITS = 4
ONE = tuple(1 << (BITS * k) for k in range(N_KINDS))
GUARD = sum(8 << (BITS * k) for k in range(N_KINDS))

HE, CHE, SHAO, YUN, DAYUN, BAI_HA, YAO_HA, BAI_LOU, YAO_LOU = range(9)
ZERO: tuple[int, ...] = (0,) * 9
SHAO_NAMES = {1: "一捎", 2: "两捎", 3: "全翻"}

#: An output group before it becomes a :class:`~scorer.zuihe.score.Group`:
#: (kind, card kinds, 和, label).  ``ext`` parts carry the chi meld index as label.
Part = tuple[str, tuple[int, ...], int, str]


@dataclass(frozen=True)
class Template:
    """One way to take cards out of the concealed hand."""

    delta: int
    min_kind: int
    meld_bits: int
    ext_bits: int
    gain: tuple[int, ...]
    parts: tuple[Part, ...]


def pack(counts: list[int]) -> int:
    """The packed count vector, 4 bits a kind.

    >>> hex(pack([2, 0, 1] + [0] * 27))
    '0x102'
    """
    state = 0
    for kind, n in enumerate(counts):
        state |= n << (BITS * kind)
    return state


def _delta(kinds: tuple[int, ...]) -> int:
    return sum(ONE[k] for k in kinds)


def _gain(**fields: int) -> tuple[int, ...]:
    gain = [0] * 9
    names = ("he", "che", "shao", "yun", "dayun", "bai_ha", "yao_ha", "bai_lou", "yao_lou")
    for name, value in fields.items():
        gain[names.index(name)] = value
    return tuple(gain)


def ha_he(kind: int, n: int, melded: bool = False) -> int:
    """和 of n alike: 哈 白2/幺3, 楼 白5/幺6 (melded 叉 白1/幺2, 光 白4/幺5).

    >>> ha_he(6, 3), ha_he(27, 3), ha_he(6, 4), ha_he(27, 4), ha_he(6, 3, melded=True), ha_he(27, 4, melded=True)
    (2, 3, 5, 6, 1, 5)
    """
    yao = kind in YAO_KINDS
    if n == 3:
        return (2 if yao else 1) if melded else (3 if yao else 2)
    return (5 if yao else 4) if melded else (6 if yao else 5)


def _ha_gain(kind: int, n: int) -> dict[str, int]:
    yao = kind in YAO_KINDS
    key = ("yao_" if yao else "bai_") + ("ha" if n == 3 else "lou")
    return {key: 1}


def che_types(options: ZuiheOptions) -> list[tuple[str, tuple[int, int, int], int]]:
    """Every 车: (name, its three kinds, 和 of the full 车) — 报车 二..八, 七套车 but 文全."""
    types = [
        (f"{NUMERALS_ZH[r - 1]}车", (kind_of(r, "B"), kind_of(r, "T"), kind_of(r, "W")), 0) for r in BAO_RANKS
    ]
    if options.qitao_che:
        types += [(f"{zh}车", kinds, 2) for name, (zh, kinds) in QITAO.items() if name != "wenquan"]
    return types


@dataclass
class Prepared:
    """Everything the search needs for one hand."""

    state: int
    counts: list[int]
    locked: frozenset[int]
    loose_ok: tuple[bool, ...]
    by_min: list[list[Template]]
    meld_bits: int
    ext_bits: int
    all_meld_che: list[Template]


def prepare(hand: Hand, options: ZuiheOptions) -> Prepared:
    """Build the templates for this hand (which kinds are locked 哈/楼, which melds can be 捎)."""
    counts = hand.concealed_counts()
    locked = frozenset(k for k in range(N_KINDS) if not options.split_ha and counts[k] >= 3)
    loose_ok = tuple(options.yao_loose and k in YAO_KINDS and k not in locked for k in range(N_KINDS))
    templates: list[Template] = []

    def add(kinds: tuple[int, ...], gain: tuple[int, ...], parts: tuple[Part, ...],
            meld_bits: int = 0, ext_bits: int = 0) -> None:
        if not kinds:
            return
        # Skip what this hand cannot hold, so the search never tries it.
        if any(kinds.count(k) > counts[k] for k in set(kinds)):
            return
        templates.append(Template(_delta(kinds), min(kinds), meld_bits, ext_bits, gain, parts))

    def free(kinds: tuple[int, ...]) -> bool:
        return not any(k in locked for k in kinds)

    # 副: 白牌 runs of one suit, length ≥ 3.
    for suit, ranks in FU_RANKS.items():
        lo, hi = ranks.start, ranks.stop - 1
        for start in range(lo, hi + 1):
            for end in range(start + 2, hi + 1):
                kinds = tuple(kind_of(r, suit) for r in range(start, end + 1))
                if free(kinds):
                    add(kinds, ZERO, (("fu", kinds, 0, ""),))
    # 报
    for r in BAO_RANKS:
        kinds = (kind_of(r, "B"), kind_of(r, "T"), kind_of(r, "W"))
        if free(kinds):
            add(kinds, ZERO, (("bao", kinds, 0, ""),))
    # 七套
    for name, (_, kinds) in QITAO.items():
        if free(kinds):
            add(kinds, _gain(he=1), ((name, kinds, 1, ""),))
    # 云幺
    if free(XIAOYUN_KINDS):
        add(XIAOYUN_KINDS, _gain(yun=1), (("xiaoyun", XIAOYUN_KINDS, 0, ""),))
    if free(DAYUN_KINDS):
        add(DAYUN_KINDS, _gain(yun=1, dayun=1), (("dayun", DAYUN_KINDS, 0, ""),))
    # 哈 / 楼
    for k in range(N_KINDS):
        for n, name in ((3, "ha"), (4, "lou")):
            if (k in locked and counts[k] == n) or (options.split_ha and counts[k] >= n):
                add((k,) * n, _gain(he=ha_he(k, n), **_ha_gain(k, n)), ((name, (k,) * n, ha_he(k, n), ""),))

    # 车, with 捎 from a concealed 哈/楼 or a laid-down 叉/光 of one of its kinds.
    meld_kinds = {m.cards[0].kind for m in hand.melds if m.kind in ("cha", "guang")}
    meld_bits = sum(1 << k for k in meld_kinds)
    all_meld_che: list[Template] = []
    for label, che_kinds, full_he in che_types(options):
        choices = []
        for k in che_kinds:
            ways = []
            if k not in locked:
                ways.append("pair")
            for n, way in ((3, "ha"), (4, "lou")):
                if (k in locked and counts[k] == n) or (options.split_ha and counts[k] >= n):
                    ways.append(way)
            if k in meld_kinds:
                ways.append("meld")
            choices.append(ways)
        for way_choice in product(*choices):
            shao = sum(w != "pair" for w in way_choice)
            shao_kinds: list[int] = []
            remnant: list[int] = []
            parts: list[Part] = []
            gain = dict.fromkeys(("he", "bai_ha", "yao_ha", "bai_lou", "yao_lou"), 0)
            bits = 0
            for k, way in zip(che_kinds, way_choice, strict=True):
                if way == "pair":
                    remnant += [k, k]
                elif way == "meld":
                    bits |= 1 << k
                else:
                    n = 3 if way == "ha" else 4
                    shao_kinds += [k] * n
                    parts.append((way, (k,) * n, ha_he(k, n), ""))
                    gain["he"] += ha_he(k, n)
                    for key, value in _ha_gain(k, n).items():
                        gain[key] += value
            che_he = full_he if shao == 0 else 0
            gain["he"] += che_he
            name = label + SHAO_NAMES.get(shao, "")
            parts.append(("che", tuple(sorted(remnant)), che_he, name))
            template_gain = _gain(che=1, shao=shao, **gain)
            all_kinds = tuple(sorted(shao_kinds + remnant))
            if all_kinds:
                add(all_kinds, template_gain, tuple(parts), meld_bits=bits)
            else:
                all_meld_che.append(Template(0, -1, bits, 0, template_gain, tuple(parts)))

    # 吃 副 melds: hand cards that continue the run also count as grouped.
    ext_bits = 0
    for index, meld in enumerate(hand.melds):
        if meld.kind != "chi" or meld.shape != "fu":
            continue
        meld_suit = meld.cards[0].suit
        assert meld_suit is not None
        ranks = FU_RANKS[meld_suit]
        first, last = meld.cards[0].rank, meld.cards[-1].rank
        assert first is not None and last is not None
        for side, run in ((0, range(first - 1, ranks.start - 1, -1)), (1, range(last + 1, ranks.stop))):
            bit = 1 << (2 * index + side)
            ext_bits |= bit
            taken: list[int] = []
            for r in run:
                taken.append(kind_of(r, meld_suit))
                kinds = tuple(sorted(taken))
                if free(kinds):
                    add(kinds, ZERO, (("ext", kinds, 0, str(index)),), ext_bits=bit)

    by_min: list[list[Template]] = [[] for _ in range(N_KINDS)]
    for template in templates:
        by_min[template.min_kind].append(template)
    return Prepared(pack(counts), counts, locked, loose_ok, by_min, meld_bits, ext_bits, all_meld_che)


Witness = tuple[Any, ...]  # (Part | Template, Witness) linked list, () at the end


def _prune(candidates: dict[tuple[int, ...], Witness]) -> dict[tuple[int, ...], Witness]:
    if len(candidates) <= 1:
        return candidates
    kept: list[tuple[tuple[int, ...], Witness]] = []
    for summary, witness in sorted(candidates.items(), reverse=True):
        tail = summary[5:]
        if any(
            other[5:] == tail and all(other[i] >= summary[i] for i in range(5)) for other, _ in kept
        ):
            continue
        kept.append((summary, witness))
    return dict(kept)


def _add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def search_clean(prep: Prepared) -> dict[tuple[int, ...], Witness]:
    """Every 清门 arrangement (no loose 白 card), as a Pareto set of summaries → witness."""
    memo: dict[tuple[int, int, int], dict[tuple[int, ...], Witness]] = {}
    by_min = prep.by_min
    loose_ok = prep.loose_ok

    def search(state: int, meld_bits: int, ext_bits: int) -> dict[tuple[int, ...], Witness]:
        key = (state, meld_bits, ext_bits)
        found = memo.get(key)
        if found is not None:
            return found
        if state == 0:
            memo[key] = {ZERO: ()}
            return memo[key]
        kind = ((state & -state).bit_length() - 1) >> 2
        candidates: dict[tuple[int, ...], Witness] = {}
        if loose_ok[kind]:
            for summary, witness in search(state - ONE[kind], meld_bits, ext_bits).items():
                candidates.setdefault(summary, (("yao", (kind,), 0, ""), witness))
        for template in by_min[kind]:
            if template.meld_bits & ~meld_bits or template.ext_bits & ~ext_bits:
                continue
            after = (state | GUARD) - template.delta
            if after & GUARD != GUARD:
                continue
            sub = search(after - GUARD, meld_bits & ~template.meld_bits, ext_bits & ~template.ext_bits)
            for summary, witness in sub.items():
                total = _add(summary, template.gain)
                if total not in candidates:
                    candidates[total] = (template, witness)
        result = _prune(candidates)
        memo[key] = result
        return result

    results: dict[tuple[int, ...], Witness] = {}
    # 车 whose three kinds were all 叉/光 (全翻) hold no concealed card: choose them first.
    for chosen in _disjoint_subsets(prep.all_meld_che):
        used = 0
        gain = ZERO
        witness: Witness = ()
        for template in chosen:
            used |= template.meld_bits
            gain = _add(gain, template.gain)
        for summary, sub_witness in search(prep.state, prep.meld_bits & ~used, prep.ext_bits).items():
            witness = sub_witness
            for template in chosen:
                witness = (template, witness)
            total = _add(summary, gain)
            results.setdefault(total, witness)
    return _prune(results)


def _disjoint_subsets(templates: list[Template]) -> list[list[Template]]:
    subsets: list[list[Template]] = [[]]
    for template in templates:
        subsets += [s + [template] for s in subsets if not any(t.meld_bits & template.meld_bits for t in s)]
    return subsets


def search_loose(prep: Prepared, options: ZuiheOptions) -> tuple[int, Witness]:
    """The highest 和 of any arrangement when loose cards are allowed, with a witness
    that leaves as few loose 白 cards as it can.

    Locked 哈/楼 stay whole; 车 with 捎 and 吃副 extensions are not tried here (they
    earn no 和).
    """
    memo: dict[int, tuple[int, int, Witness]] = {}
    usable = [[t for t in templates if not t.meld_bits and not t.ext_bits] for templates in prep.by_min]
    locked = prep.locked

    def search(state: int) -> tuple[int, int, Witness]:
        """(和, -loose 白 count, witness) of the best arrangement of ``state``."""
        found = memo.get(state)
        if found is not None:
            return found
        if state == 0:
            return 0, 0, ()
        kind = ((state & -state).bit_length() - 1) >> 2
        best: tuple[int, int, Witness] = (-1, 0, ())
        if kind not in locked:
            he, neg_loose, witness = search(state - ONE[kind])
            yao = kind in YAO_KINDS and options.yao_loose
            best = (he, neg_loose - (not yao), (("yao" if yao else "loose", (kind,), 0, ""), witness))
        for template in usable[kind]:
            after = (state | GUARD) - template.delta
            if after & GUARD != GUARD:
                continue
            he, neg_loose, witness = search(after - GUARD)
            if (he + template.gain[HE], neg_loose) > best[:2]:
                best = (he + template.gain[HE], neg_loose, (template, witness))
        memo[state] = best
        return best

    he, _, witness = search(prep.state)
    return he, witness


def unroll(witness: Witness) -> list[Part]:
    """The parts of a witness arrangement, in order."""
    parts: list[Part] = []
    while witness:
        head, witness = witness
        if isinstance(head, Template):
            parts.extend(head.parts)
        else:
            parts.append(head)
    return parts
