"""Units, formats, requirement ladders and comparisons (docs/RULES.md §3, §5, §6).

A *holding* is a ``dict`` card kind → count, all of one effective suit. A **unit** is
a single, a k-tuple or a tractor; its *shape* is ``(width, length)``: ``(1, 1)`` a
single, ``(2, 1)`` a pair, ``(2, 2)`` a pair-tractor, ``(3, 2)`` a 泰坦尼克.

>>> from tuolaji.scorer.order import TrumpOrder
>>> from tuolaji.scorer.cards import parse_cards
>>> order = TrumpOrder.of("4", "H")
>>> [u.shape for u in read_format(order, parse_cards(["2S", "2S", "2S", "3S", "3S"]))]
[(3, 1), (2, 1)]
>>> [u.shape for u in read_format(order, parse_cards(["3H", "3H", "5H", "5H"]))]
[(2, 2)]
>>> ladder_names(unit_ladder((2, 2)))
['[2,2]', '[2][2]', '[2][1][1]', '[1]×4']
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache, lru_cache
from itertools import combinations_with_replacement
from typing import Any, NamedTuple

from .errors import InputError
from .order import TRUMP, TrumpOrder
from .profiles import Options, Requirement, Shape, requirement_name

SINGLE: Shape = (1, 1)

MAX_WIDTH = 12
"""The widest tuple whose ladder is generated. Four decks hold four copies of a card, and the record
reader refuses a play or attempt of more; hands (the audit's business) are read within this bound."""
MAX_LENGTH = 32
"""The longest tractor searched (a suit has fewer consecutive values; trumps about 16)."""


class SearchBoundError(InputError):
    """A unit no decks can hold (wider than four copies, or an endless tractor): its ladder is not searched."""


def check_shape(shape: Shape) -> None:
    """Refuse a shape beyond :data:`MAX_WIDTH` × :data:`MAX_LENGTH` before its ladder is generated
    (the number of rungs grows exponentially with the width: 60 copies of a card would never end).

    >>> check_shape((60, 1))
    Traceback (most recent call last):
    ...
    tuolaji.scorer.formats.SearchBoundError: a unit of 60 copies of one card: no ladder is searched beyond 12
    """
    width, length = shape
    if width > MAX_WIDTH:
        raise SearchBoundError("search.width", width=width, most=MAX_WIDTH)
    if length > MAX_LENGTH:
        raise SearchBoundError("search.length", length=length, most=MAX_LENGTH)


class Unit(NamedTuple):
    """One unit of a format: ``kinds`` are the card kinds of its tuples, low to high."""

    width: int
    length: int
    top: int  # order value of the highest tuple
    kinds: tuple[int, ...]

    @property
    def shape(self) -> Shape:
        return (self.width, self.length)

    @property
    def size(self) -> int:
        return self.width * self.length

    def cards(self) -> list[int]:
        return [k for k in self.kinds for _ in range(self.width)]


def shape_key(shape: Shape) -> tuple[int, int]:
    """Sort key, strongest first when sorted descending: more cards, then wider."""
    return (shape[0] * shape[1], shape[0])


def canonical(shapes: list[Shape] | tuple[Shape, ...]) -> Requirement:
    """Shapes of a requirement in canonical order (largest first)."""
    return tuple(sorted(shapes, key=shape_key, reverse=True))


def counts_of(cards: list[int]) -> dict[int, int]:
    """A holding from a list of cards.

    >>> counts_of([3, 3, 5])
    {3: 2, 5: 1}
    """
    out: dict[int, int] = {}
    for c in cards:
        out[c] = out.get(c, 0) + 1
    return out


# ---------------------------------------------------------------- reading a lead


def read_format(order: TrumpOrder, cards: list[int], options: Options | None = None) -> list[Unit]:
    """The reading of cards of one effective suit (RULES §3), largest unit first.

    Tuples stay whole: every card kind held k times is a k-tuple (a triple is never split
    to lengthen a pair-tractor); tuples of one width then join into tractors, longest
    first (ties: the higher). So ♥KKK QQ is a triple and a pair (三带二, seed 000 4.7), and
    ♥KKK QQ JJ a triple and a pair-tractor. With ``options.triple_pair_tractor`` (seed
    001's 有的约定) a triple may lend a pair to a tractor: ♥KKK QQ reads tractor KKQQ + K.

    >>> from tuolaji.scorer.cards import parse_cards
    >>> o = TrumpOrder.of("2", "S")
    >>> [(u.shape, len(u.kinds)) for u in read_format(o, parse_cards(["9H", "8H", "8H", "4H", "4H"]))]
    [((2, 1), 1), ((2, 1), 1), ((1, 1), 1)]
    >>> [u.shape for u in read_format(o, parse_cards(["KH", "KH", "KH", "QH", "QH"]))]
    [(3, 1), (2, 1)]
    >>> [u.shape for u in read_format(o, parse_cards(["KH", "KH", "KH", "QH", "QH", "JH", "JH"]))]
    [(2, 2), (3, 1)]
    """
    if options is not None and options.triple_pair_tractor:
        return _read_format_joined(order, cards)
    value = order.value
    if cards and cards.count(cards[0]) == len(cards):  # copies of one card: one tuple (or a single)
        return [Unit(len(cards), 1, value[cards[0]], (cards[0],))]
    rem = counts_of(cards)
    units: list[Unit] = []
    by_width: dict[int, dict[int, list[int]]] = {}
    for c, n in rem.items():
        if n >= 2:
            by_width.setdefault(n, {}).setdefault(value[c], []).append(c)
    for w in sorted(by_width, reverse=True):
        by_value = by_width[w]
        for kinds in by_value.values():
            kinds.sort(reverse=True)
        while by_value:
            vals = sorted(by_value)
            best: tuple[int, int, int] | None = None  # (length, top, start index)
            start = 0
            for i, v in enumerate(vals):
                if i > 0 and v != vals[i - 1] + 1:
                    start = i
                key = (i - start + 1, v, start)
                if best is None or key[:2] > best[:2]:
                    best = key
            assert best is not None
            length, _, start = best
            run = vals[start:start + length]
            kinds_taken = []
            for v in run:
                kinds_taken.append(by_value[v].pop())
                if not by_value[v]:
                    del by_value[v]
            units.append(Unit(w, length, value[kinds_taken[-1]], tuple(kinds_taken)))
    for c, n in rem.items():
        if n == 1:
            units.append(Unit(1, 1, value[c], (c,)))
    units.sort(key=lambda u: (u.size, u.width, u.top), reverse=True)
    return units


def _read_format_joined(order: TrumpOrder, cards: list[int]) -> list[Unit]:
    """The reading under ``triple_pair_tractor``: repeatedly the unit with the most cards
    (a tractor on a tie, then the wider, the longer, the higher), carving tuples out of
    wider ones (22233 → 2233 + 2)."""
    value = order.value
    rem = counts_of(cards)
    units: list[Unit] = []
    while True:
        maxc = max(rem.values(), default=0)
        if maxc < 2:
            break
        best: tuple[tuple[int, bool, int, int, int], int, tuple[int, ...]] | None = None
        for w in range(maxc, 1, -1):
            # per value the kind to take w copies from: equal kinds (off-suit level cards) may
            # differ in count; the fewest that suffice keep the wider tuples whole
            by_value: dict[int, int] = {}
            for c, n in rem.items():
                v = value[c]
                if n >= w and (v not in by_value or rem[by_value[v]] > n or (rem[by_value[v]] == n and c > by_value[v])):
                    by_value[v] = c
            vals = sorted(by_value)
            run_start = 0
            for i, v in enumerate(vals):
                if i > 0 and v != vals[i - 1] + 1:
                    run_start = i
                length = i - run_start + 1
                key = (w * length, length >= 2, w, length, v)
                # the longest run ending here is what counts; shorter runs are dominated
                if best is None or key > best[0]:
                    best = (key, w, tuple(by_value[x] for x in vals[run_start : i + 1]))
        assert best is not None
        _, w, kinds = best
        for k in kinds:
            rem[k] -= w
            if rem[k] == 0:
                del rem[k]
        units.append(Unit(w, len(kinds), value[kinds[-1]], kinds))
    for c, n in rem.items():
        for _ in range(n):
            units.append(Unit(1, 1, value[c], (c,)))
    units.sort(key=lambda u: (u.size, u.width, u.top), reverse=True)
    return units


# ---------------------------------------------------------------- ladders


def _partitions(n: int, largest: int | None = None) -> list[tuple[int, ...]]:
    """Partitions of n, descending lexicographically (n at most :data:`MAX_LENGTH`: their number grows
    exponentially)."""
    if n > MAX_LENGTH:
        raise SearchBoundError("search.partitions", n=n, most=MAX_LENGTH)
    if largest is None:
        largest = n
    if n == 0:
        return [()]
    out = []
    for first in range(min(n, largest), 0, -1):
        for rest in _partitions(n - first, first):
            out.append((first, *rest))
    return out


@cache
def default_unit_ladder(shape: Shape) -> tuple[Requirement, ...]:
    """The generated ladder of one unit shape, strongest requirement first.

    1. keep the width, split adjacency: partitions of the length, descending;
    2. (width ≥ 3 tractors) the tractor one width narrower plus singles — this is
       what puts ``[2,2][1][1]`` right after ``[3][3]`` in seed 004's 泰坦尼克 ladder;
    3. reduce widths: every tuple becomes a partition of its width, all combinations,
       descending lexicographically by their widths; ending in singles.

    >>> ladder_names(default_unit_ladder((3, 2)))
    ['[3,3]', '[3][3]', '[2,2][1][1]', '[3][2][1]', '[3][1]×3', '[2][2][1][1]', '[2][1]×4', '[1]×6']
    >>> ladder_names(default_unit_ladder((4, 1)))
    ['[4]', '[3][1]', '[2][2]', '[2][1][1]', '[1]×4']
    """
    check_shape(shape)
    w, length = shape
    if w == 1:
        return (tuple([SINGLE] * length),)
    out: list[Requirement] = []
    for part in _partitions(length):
        out.append(canonical([(w, p) for p in part]))
    if w >= 3 and length >= 2:
        out.append(canonical([(w - 1, length)] + [SINGLE] * length))
    width_sets = set()
    for combo in combinations_with_replacement(_partitions(w), length):
        widths = tuple(sorted((x for part in combo for x in part), reverse=True))
        width_sets.add(widths)
    for widths in sorted(width_sets, reverse=True):
        req = canonical([(x, 1) for x in widths])
        if req not in out:
            out.append(req)
    return tuple(out)


def unit_ladder(shape: Shape, options: Options | None = None) -> tuple[Requirement, ...]:
    """Ladder of one unit under a profile's options (its own override or the default).

    >>> from tuolaji.scorer.profiles import PROFILES
    >>> ladder_names(unit_ladder((3, 2), PROFILES["guangzhou-3deck"]))[:3]
    ['[3,3]', '[2,2][1][1]', '[3][2][1]']
    """
    if options is not None and shape in options.ladders:
        return options.ladders[shape]
    return default_unit_ladder(shape)


@lru_cache(maxsize=4096)
def _throw_ladder_cached(shapes: tuple[Shape, ...], overrides: tuple[tuple[Shape, tuple[Requirement, ...]], ...],
                         lowness: tuple[int, ...] | None = None) -> tuple[Requirement, ...]:
    override_map = dict(overrides)
    ladders = [override_map.get(s) or default_unit_ladder(s) for s in shapes]
    if len(shapes) == 1:
        return ladders[0]
    pos = [0] * len(shapes)
    out = [canonical([r for i, lad in enumerate(ladders) for r in lad[pos[i]]])]
    while True:
        best = -1
        best_key: tuple[Any, ...] | None = None
        for i, lad in enumerate(ladders):
            left = len(lad) - 1 - pos[i]
            if left <= 0:
                continue
            # most rungs left, then more cards, then the lower unit
            key = (left, shapes[i][0] * shapes[i][1], i if lowness is None else lowness[i])
            if best_key is None or key > best_key:
                best, best_key = i, key
        if best < 0:
            break
        pos[best] += 1
        req = canonical([r for i, lad in enumerate(ladders) for r in lad[pos[i]]])
        if req != out[-1]:
            out.append(req)
    return tuple(out)


def throw_ladder(units: list[Unit], options: Options | None = None) -> tuple[Requirement, ...]:
    """Combined ladder of a lead of several units (RULES §5, rbtying/shengji's method).

    On a tie of rungs left and cards, the lower unit (lower top; equal tops: the later
    in reading order) steps down first — a quad 3333 before a tractor KKAA.

    >>> from tuolaji.scorer.cards import parse_cards
    >>> o = TrumpOrder.of("2", "S")
    >>> ladder_names(throw_ladder(read_format(o, parse_cards(["AH", "AH", "KH"]))))
    ['[2][1]', '[1]×3']
    """
    overrides = tuple(sorted(options.ladders.items())) if options is not None and options.ladders else ()
    # how low each unit is (higher: lower top; equal tops: the later in reading order)
    if len(units) == 1:
        lowness: tuple[int, ...] = (0,)
    else:
        by_height = sorted(range(len(units)), key=lambda i: (units[i].top, -i), reverse=True)
        lowness = tuple(by_height.index(i) for i in range(len(units)))
    return _throw_ladder_cached(tuple(u.shape for u in units), overrides, lowness)


def ladder_names(ladder: tuple[Requirement, ...]) -> list[str]:
    """Bracket names of a ladder's requirements."""
    return [requirement_name(r) for r in ladder]


# ---------------------------------------------------------------- embedding shapes in holdings


def _placements(
    shape: Shape, rem: dict[int, int], by_value: dict[int, list[int]], value: tuple[int, ...],
    protect: dict[int, int] | None, min_top: int,
) -> Iterator[tuple[int, tuple[int, ...]]]:
    """Every (top value, kinds) where ``shape`` fits in ``rem`` with top ≥ min_top; ``by_value``'s
    values in ascending order."""
    w, length = shape
    if length == 1:
        for v in by_value:  # in ascending order (as :func:`embeddings` builds it)
            if v < min_top:
                continue
            for c in by_value[v]:
                n = rem[c]
                if n >= w and (protect is None or (n == w and protect[c] == w)):
                    yield v, (c,)
        return
    for v0 in by_value:
        top = v0 + length - 1
        if top < min_top:
            continue
        options_per_value = []
        for v in range(v0, top + 1):
            cands = [
                c for c in by_value.get(v, ())
                if rem[c] >= w and (protect is None or (rem[c] == w and protect[c] == w))
            ]
            if not cands:
                break
            options_per_value.append(cands)
        else:
            yield from ((top, kinds) for kinds in _product(options_per_value))


def _product(lists: list[list[int]]) -> Iterator[tuple[int, ...]]:
    if len(lists) == 1:
        for c in lists[0]:
            yield (c,)
        return
    for c in lists[0]:
        for rest in _product(lists[1:]):
            yield (c, *rest)


def embeddings(
    shapes: tuple[Shape, ...], holding: dict[int, int], value: tuple[int, ...], protect: bool = False,
) -> Iterator[list[Unit]]:
    """Every way to carve the non-single ``shapes`` disjointly out of ``holding``.

    Identical shapes are placed in ascending order, so each set of units comes once.
    ``protect``: a tuple may only come from cards held exactly that many times.
    """
    big = [s for s in shapes if s != SINGLE]
    big.sort(key=shape_key, reverse=True)
    need = 0
    for w, n in shapes:
        need += w * n
    counts = holding.values()
    if sum(counts) < need:
        return
    if not big:
        yield []
        return
    # quick necessary condition: enough w-tuples for every width w the shapes need
    for w in {s[0] for s in big}:
        need_w = 0
        for sw, length in big:
            if sw >= w:
                need_w += length * (sw // w)
        have_w = 0
        for n in counts:
            have_w += n // w
        if have_w < need_w:
            return
    rem = dict(holding)
    by_value: dict[int, list[int]] = {}
    for c in sorted(holding, key=value.__getitem__):  # by value, so the placements need not sort
        by_value.setdefault(value[c], []).append(c)
    for cards in by_value.values():
        cards.sort()
    prot = dict(holding) if protect else None
    chosen: list[Unit] = []

    def rec(i: int, floor: tuple[int, tuple[int, ...]]) -> Iterator[list[Unit]]:
        if i == len(big):
            yield list(chosen)
            return
        w, length = big[i]
        same_as_prev = i > 0 and big[i - 1] == big[i]
        for top, kinds in _placements(big[i], rem, by_value, value, prot, floor[0] if same_as_prev else -1):
            if same_as_prev and (top, kinds) < floor:
                continue
            for k in kinds:
                rem[k] -= w
            chosen.append(Unit(w, length, top, kinds))
            nxt = (top, kinds)
            yield from rec(i + 1, nxt)
            chosen.pop()
            for k in kinds:
                rem[k] += w

    yield from rec(0, (-1, ()))


def satisfies(shapes: tuple[Shape, ...], holding: dict[int, int], value: tuple[int, ...], protect: bool = False) -> bool:
    """Whether ``holding`` holds disjoint units of all ``shapes`` (singles: any cards).

    >>> from tuolaji.scorer.cards import parse_cards
    >>> o = TrumpOrder.of("2", "S")
    >>> satisfies(((2, 2),), counts_of(parse_cards(["5H", "5H", "5H", "6H", "6H"])), o.value)
    True
    >>> satisfies(((2, 2),), counts_of(parse_cards(["5H", "5H", "5H", "6H", "6H"])), o.value, protect=True)
    False
    """
    for _ in embeddings(shapes, holding, value, protect):
        return True
    return False


def first_satisfied(ladder: tuple[Requirement, ...], holding: dict[int, int], value: tuple[int, ...],
                    protect: bool = False, stop: int | None = None) -> int:
    """Index of the first rung ``holding`` satisfies (``len(ladder)`` if none before ``stop``)."""
    end = len(ladder) if stop is None else min(stop, len(ladder))
    for i in range(end):
        if satisfies(ladder[i], holding, value, protect):
            return i
    return len(ladder)


def beating_unit(unit: Unit, holding: dict[int, int], value: tuple[int, ...]) -> Unit | None:
    """A unit of ``unit``'s shape in ``holding`` that beats it (higher top), or None.

    Tuples may be carved from wider tuples or tractors (RULES §4).
    """
    if not holding:
        return None
    by_value: dict[int, list[int]] = {}
    for c in sorted(holding, key=value.__getitem__):  # ascending values, as :func:`_placements` reads them
        by_value.setdefault(value[c], []).append(c)
    best = None
    for top, kinds in _placements(unit.shape, holding, by_value, value, None, unit.top + 1):
        if best is None or top > best.top:
            best = Unit(unit.width, unit.length, top, kinds)
    return best


# ---------------------------------------------------------------- comparing plays


class Lead:
    """What followers answer: the lead's effective suit, size, units and ladder.

    >>> from tuolaji.scorer.cards import parse_cards
    >>> from tuolaji.scorer.profiles import PROFILES
    >>> lead = Lead.of(TrumpOrder.of("2", "S"), parse_cards(["AH", "AH"]), PROFILES["standard-2deck"])
    >>> lead.suit, lead.size, lead.shapes, lead.is_throw
    (1, 2, ((2, 1),), False)
    """

    __slots__ = ("suit", "size", "units", "shapes", "ladder", "is_throw", "mixed", "largest", "cards")

    def __init__(self, suit: int, cards: list[int], units: list[Unit], ladder: tuple[Requirement, ...], mixed: bool):
        self.suit = suit
        self.cards = cards
        self.size = len(cards)
        self.units = units
        if len(units) == 1:  # one unit (most leads): its shape, its size
            unit = units[0]
            self.shapes: Requirement = ((unit.width, unit.length),)
            self.largest = unit.width * unit.length
        else:
            self.shapes = canonical([u.shape for u in units])
            self.largest = max((u.size for u in units), default=0)
        self.ladder = ladder
        self.is_throw = len(units) > 1
        self.mixed = mixed

    @staticmethod
    def of(order: TrumpOrder, cards: list[int], options: Options) -> Lead:
        if len(cards) == 1:  # one card: its suit, one single
            card = cards[0]
            units = [Unit(1, 1, order.value[card], (card,))]
            return Lead(order.suit[card], list(cards), units, throw_ladder(units, options), False)
        suits = {order.suit[c] for c in cards}
        if len(suits) != 1:
            return Lead(order.suit[cards[0]] if cards else -1, list(cards), [], (), True)
        units = read_format(order, cards, options)
        return Lead(suits.pop(), list(cards), units, throw_ladder(units, options), False)


class Strength(NamedTuple):
    """How strong a play is in a trick: ``trumped`` beats a plain lead; then ``key``.

    ``key`` is the play's best arrangement (lexicographically). Under ``throw_compare:
    all`` no single arrangement need be best, so ``keys`` holds every arrangement that
    no other one dominates unit by unit (empty: just ``key``).
    """

    trumped: bool
    key: tuple[int, ...]
    keys: tuple[tuple[int, ...], ...] = ()


def _dominates(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """Every unit of arrangement ``a`` is strictly higher than its counterpart in ``b``."""
    return len(a) == len(b) and all(x > y for x, y in zip(a, b, strict=True))


def _undominated(keys: set[tuple[int, ...]]) -> tuple[tuple[int, ...], ...]:
    """The keys that no other key matches or exceeds in every position (a Pareto front)."""
    front = [k for k in keys if not any(o != k and all(x >= y for x, y in zip(o, k, strict=True)) for o in keys)]
    return tuple(sorted(front, reverse=True))


def _arrangement_key(units: list[Unit], singles: list[int], lead: Lead, compare: str) -> tuple[int, ...]:
    if compare == "all":
        key: list[int] = []
        per_shape: dict[Shape, list[int]] = {}
        for u in units:
            per_shape.setdefault(u.shape, []).append(u.top)
        for shape in sorted(per_shape, key=shape_key, reverse=True):
            key.extend(sorted(per_shape[shape], reverse=True))
        key.extend(sorted(singles, reverse=True))
        return tuple(key)
    if lead.largest == 1:
        return (max(singles),)
    return (max(u.top for u in units if u.size == lead.largest),)


TITANIC_BONUS = 1000
"""Added to a 泰坦尼克's top when it trumps a three-pair tractor (``titanic_beats_three_pair``)."""


def _titanic_top(holding: dict[int, int], value: tuple[int, ...]) -> int | None:
    """The top of the 泰坦尼克 (two adjacent triples) that exactly these six cards form, or None."""
    if sum(holding.values()) != 6:
        return None
    for units in embeddings(((3, 2),), holding, value):
        return units[0].top
    return None


def strength(order: TrumpOrder, lead: Lead, cards: list[int], compare: str, is_lead: bool = False,
             options: Options | None = None) -> Strength | None:
    """Strength of a play against ``lead``, or None when it cannot win (a discard).

    A play can win only if it is all of the led suit or all trumps and can be arranged
    into exactly the lead's format; the best arrangement counts. With
    ``options.titanic_beats_three_pair`` a trump 泰坦尼克 also trumps a plain three-pair
    tractor (and ranks above every trump three-pair tractor).
    """
    if lead.mixed or len(cards) != lead.size:
        return None
    suit = order.suit
    s = suit[cards[0]]
    for c in cards:
        if suit[c] != s:
            return None
    if s != lead.suit and s != TRUMP:
        return None
    trumped = s == TRUMP and lead.suit != TRUMP
    value = order.value
    if not is_lead and (len(cards) == 1 or lead.shapes == ((len(cards), 1),)):
        # a single card, or a lead of one tuple (a pair, a triple…): the play is that tuple of one
        # card, whose value is its only arrangement, or it cannot win (what the search below finds)
        first = cards[0]
        if any(c != first for c in cards):
            return None
        return Strength(trumped, (value[first],))
    if trumped and lead.shapes == ((2, 3),) and options is not None and options.titanic_beats_three_pair:
        titanic = _titanic_top(counts_of(cards), value)
        if titanic is not None:
            # seed 001 「三张拖拉机可打3个对子拖拉机」: above any trump three-pair tractor
            return Strength(True, (TITANIC_BONUS + titanic,))
    if is_lead:
        singles = [u.top for u in lead.units if u.shape == SINGLE]
        return Strength(trumped, _arrangement_key([u for u in lead.units if u.shape != SINGLE], singles, lead, compare))
    holding = counts_of(cards)
    best: tuple[int, ...] | None = None
    every: set[tuple[int, ...]] = set()
    for n, units in enumerate(embeddings(lead.shapes, holding, value)):
        used = counts_of([c for u in units for c in u.cards()])
        singles = [value[c] for c, k in holding.items() for _ in range(k - used.get(c, 0))]
        key = _arrangement_key(units, singles, lead, compare)
        if best is None or key > best:
            best = key
        if compare == "all":
            every.add(key)
        if n >= 2000:
            break
    if best is None:
        return None
    if compare == "all" and len(every) > 1:
        return Strength(trumped, best, _undominated(every))
    return Strength(trumped, best)


def beats(new: Strength, old: Strength, compare: str) -> bool:
    """Whether ``new`` beats the current winner ``old`` (strictly; ties go to the earlier)."""
    if new.trumped != old.trumped:
        return new.trumped
    if compare == "all":
        # whichever arrangement the winner's cards are read in, the new play has one that
        # beats each of its units
        news = new.keys or (new.key,)
        return all(any(_dominates(a, b) for a in news) for b in (old.keys or (old.key,)))
    return new.key > old.key
