"""Rule options and the named profiles of docs/RULES.md §13.

A profile is a named set of options; a record's ``rules`` is a profile name or an
object ``{"profile": NAME, option: value, ...}`` overriding some of them.

>>> opts = resolve_rules({"profile": "guangzhou-3deck", "kitty_multiplier": "power"})
>>> opts.decks, opts.kitty_multiplier, opts.throw_penalty, opts.threshold_for(4)
(3, 'power', 'points', 120)
>>> resolve_rules("standard-2deck").kitty_size_for(4)
8
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import Enum, StrEnum
from typing import Any

from .cards import RANKS
from .errors import InputError


class RulesError(InputError):
    """An unknown profile or a bad option value."""


Shape = tuple[int, int]  # (width, length): (1, 1) single, (2, 1) pair, (2, 2) pair-tractor, (3, 2) 泰坦尼克
Requirement = tuple[Shape, ...]

# The 泰坦尼克 ladder of seed 004 and the seed 001 (guangzhou) ladder for [3,3].
TITANIC_LADDER: tuple[Requirement, ...] = (
    ((3, 2),),
    ((3, 1), (3, 1)),
    ((2, 2), (1, 1), (1, 1)),
    ((3, 1), (2, 1), (1, 1)),
    ((3, 1), (1, 1), (1, 1), (1, 1)),
    ((2, 1), (2, 1), (1, 1), (1, 1)),
    ((2, 1),) + ((1, 1),) * 4,
    ((1, 1),) * 6,
)
GUANGZHOU_TITANIC_LADDER: tuple[Requirement, ...] = (
    ((3, 2),),
    ((2, 2), (1, 1), (1, 1)),
    ((3, 1), (2, 1), (1, 1)),
    ((2, 1), (2, 1), (1, 1), (1, 1)),
    ((2, 1),) + ((1, 1),) * 4,
    ((1, 1),) * 6,
)

BID_ORDERS = ("two-deck", "titanic", "count", "chaodipi")


class ForcedUnit(StrEnum):
    """Which beaten unit a failed throw must play (RULES §4 ``forced_unit``).

    >>> ForcedUnit("lowest-beaten") == "lowest-beaten"
    True
    """

    LOWEST_BEATEN = "lowest-beaten"  # the beaten unit whose highest card ranks lowest (all three seeds)
    LARGEST_BEATEN = "largest-beaten"  # the most cards, then the lowest
    SMALLEST_BEATEN = "smallest-beaten"  # the fewest cards, then the lowest


class Penalty(StrEnum):
    """How a penalty is scored (RULES §4 ``throw_penalty``; the same scale for the other
    penalties of seed 001 Ⅰ.九: 垫错, 毙牌出错, 留底差错, 多牌少牌).

    ``points``: ``penalty_points`` (10) per wrong card; ``level-points``: one level's worth
    of points (the step s), once; ``level``: the offender's side loses one level.
    """

    NONE = "none"
    POINTS = "points"
    LEVEL_POINTS = "level-points"
    LEVEL = "level"


class FirstDealer(StrEnum):
    """Who deals the first deal of a game (RULES §9)."""

    FIRST_BIDDER = "first-bidder"  # 反主不反庄 (seed 004)
    WINNING_BIDDER = "winning-bidder"  # 反主反庄 (seed 001)


JACK = RANKS.index("J")
"""The rank index of J: the level at which ``jack_hook`` (勾J) applies."""

PENALTY_OPTIONS = ("throw_penalty", "discard_penalty", "trump_penalty", "kitty_penalty", "card_count_penalty")
"""The penalty options (each a :class:`Penalty`): failed throw, 垫错 (a wrong discard or a
format revoke), 毙牌出错 (trumping while holding the led suit), 留底差错 (a kitty of the
wrong size) and 多牌少牌 (a play with the wrong number of cards)."""


@dataclass(frozen=True)
class Options:
    """Every rule option of docs/RULES.md. ``None`` for a size means "derived" (see methods).

    >>> Options().throw_compare
    'largest-unit'
    """

    decks: int = 2
    players: tuple[int, ...] = (4,)
    twos_trump: bool = False
    protect_longer_tuples: bool = False
    throw_compare: str = "largest-unit"  # or "all"
    forced_unit: str = ForcedUnit.LOWEST_BEATEN.value  # or "largest-beaten", "smallest-beaten"
    throw_penalty: str = Penalty.NONE.value  # "points", "level-points" or "level"
    throw_penalty_points: int = 10  # per wrong card: the beaten units of a throw (seed 001), a wrong discard …
    discard_penalty: str = Penalty.NONE.value  # 垫错 (seed 001 Ⅰ.九.4; 有的规定: 10 points per wrong card)
    trump_penalty: str = Penalty.NONE.value  # 毙牌出错 (seed 001 Ⅰ.九.5)
    kitty_penalty: str = Penalty.NONE.value  # 留底差错 (seed 001 Ⅰ.九.1)
    card_count_penalty: str = Penalty.NONE.value  # 多牌少牌 (seed 001 Ⅰ.九.2)
    kitty_multiplier: str = "unit"  # "power", "per-card:K" or "fixed:K"
    kitty_needs_trump: bool = False
    dealer_stays: bool = False
    must_defend: tuple[str, ...] = ()  # 必打级: levels a side cannot pass except as the dealer's side
    max_levels: int | None = None  # 最多升几级 (seed 001 「有的规定最多升几级」)
    jack_hook: str | None = None  # 勾J: at level J, defenders winning the last trick with Js send the dealer's side here
    concede: str = "take-over"  # 认输 with no points agreed: "take-over" (the other side takes the stage), "one-level"
    first_dealer: str = FirstDealer.WINNING_BIDDER.value  # or "first-bidder"
    threshold: int | None = None  # None: 40·decks (friends: RULES §10)
    step: int | None = None  # None: 20·decks (friends: RULES §10)
    kitty_size: int | None = None  # None: smallest k ≥ 6 leaving an even deal
    bid_order: str = "two-deck"
    reinforce: bool = False  # seed 001 保放: an overcalled bidder extending his suit keeps the bid on a tie
    self_overcall: bool = True  # a bidder may overcall his own bid (seed 004 自保 / 自反)
    rebid_after_kitty: bool = False  # 炒地皮
    friends: bool = False  # 找朋友
    blind_bids: bool = False  # 暗叫 (seed 004, 4 decks): the standing bid's suit is shown only when bidding ends
    no_bid_no_trump: bool = False  # seed 004 (2 decks, 泰坦尼克 和两副牌类似): nobody bids → the deal is played in no-trump
    triple_pair_tractor: bool = False  # seed 001 有的约定: 三带二 (a triple next to a pair) is a tractor
    titanic_beats_three_pair: bool = False  # seed 001: a trump 泰坦尼克 may trump a three-pair tractor
    ladders: dict[Shape, tuple[Requirement, ...]] = field(default_factory=dict, compare=False, hash=False)

    def threshold_for(self, players: int) -> int:
        """Defenders' threshold T for this many players.

        >>> PROFILES["friends-3deck"].threshold_for(6), PROFILES["friends-3deck"].threshold_for(5)
        (100, 120)
        """
        if self.threshold is not None:
            return self.threshold
        if self.friends and self.decks in (3, 4):
            base = 40 * self.decks
            if players == 6:
                return 100 if self.decks == 3 else 120
            return base
        return 40 * self.decks

    def step_for(self, players: int) -> int:
        """Points per level s.

        >>> PROFILES["titanic-3deck"].step_for(4), PROFILES["friends-3deck"].step_for(5)
        (60, 40)
        """
        if self.step is not None:
            return self.step
        if self.friends and self.decks in (3, 4):
            return 40 if self.decks == 3 else 60
        return 20 * self.decks

    def kitty_size_for(self, players: int) -> int:
        """Kitty size for a full deal with this many players.

        >>> [PROFILES[p].kitty_size_for(4) for p in ("single-deck", "standard-2deck", "titanic-3deck", "four-deck")]
        [6, 8, 6, 0]
        >>> [PROFILES["friends-3deck"].kitty_size_for(n) for n in (5, 6, 7)]
        [7, 6, 8]
        """
        if self.kitty_size is not None:
            return self.kitty_size
        total = 54 * self.decks
        k = 6
        while (total - k) % players:
            k += 1
        return k

    def hand_size_for(self, players: int) -> int:
        """Cards per hand in a full deal.

        >>> PROFILES["titanic-3deck"].hand_size_for(4)
        39
        """
        return (54 * self.decks - self.kitty_size_for(players)) // players

    def friends_count(self, players: int) -> int:
        """Number of friends the dealer calls (找朋友: 5 → 1, 6 → 2, 7 → 2).

        >>> [PROFILES["friends-3deck"].friends_count(n) for n in (5, 6, 7)]
        [1, 2, 2]
        """
        if not self.friends:
            return 0
        return 1 if players <= 5 else 2

    def as_dict(self) -> dict[str, Any]:
        """The options as a JSON-friendly dict (for ``tuolaji rules``)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "ladders":
                value = {shape_name((s,)): [requirement_name(r) for r in lad] for s, lad in value.items()}
            elif isinstance(value, tuple):
                value = list(value)
            elif isinstance(value, Enum):
                value = value.value
            out[f.name] = value
        return out


def shape_name(shapes: tuple[Shape, ...]) -> str:
    """Bracket notation of shapes: ``[2,2][1][1]``.

    >>> shape_name(((2, 2), (1, 1), (1, 1)))
    '[2,2][1][1]'
    """
    return "".join("[" + ",".join([str(w)] * length) + "]" for w, length in shapes)


MAX_REQUIREMENT_CARDS = 216
"""The most cards of one requirement: every card of four decks."""


def parse_requirement(text: str) -> Requirement:
    """Parse bracket notation back into shapes (inverse of :func:`requirement_name`).

    >>> parse_requirement("[2,2][1][1]"), parse_requirement("[2][1]×2")
    (((2, 2), (1, 1), (1, 1)), ((2, 1), (1, 1), (1, 1)))
    """
    import re

    shapes: list[Shape] = []
    shown = text if len(text) <= 40 else text[:40] + "…"
    if len(text) > 1000:
        raise RulesError("rules.requirement_length", text=shown, length=len(text))
    rest = text.replace(" ", "")
    # widths and counts of at most 3 digits: a count is checked against 216 cards before any list is made
    pattern = re.compile(r"\[(\d{1,3}(?:,\d{1,3})*)\](?:[×x*](\d{1,3}))?")
    pos = 0
    cards = 0
    while pos < len(rest):
        m = pattern.match(rest, pos)
        if not m:
            raise RulesError("rules.requirement", text=shown)
        widths = [int(w) for w in m.group(1).split(",")]
        if len(set(widths)) != 1 or widths[0] < 1 or (widths[0] == 1 and len(widths) > 1):
            raise RulesError("rules.requirement", text=shown)
        count = int(m.group(2) or 1)
        cards += widths[0] * len(widths) * count
        if cards > MAX_REQUIREMENT_CARDS or widths[0] > 4:
            raise RulesError("rules.requirement_cards", text=shown)
        shapes.extend([(widths[0], len(widths))] * count)
        pos = m.end()
    if not shapes:
        raise RulesError("rules.requirement", text=text)
    return tuple(sorted(shapes, key=lambda s: (s[0] * s[1], s[0]), reverse=True))


def parse_ladders(value: Any, where: str) -> dict[Shape, tuple[Requirement, ...]]:
    """A ``ladders`` override: ``{"[3,3]": ["[3,3]", "[2,2][1][1]", …, "[1]×6"]}``.

    Each ladder starts with the shape itself and ends in singles, and every rung has
    the shape's number of cards.

    >>> parse_ladders({"[2]": ["[2]", "[1][1]"]}, "rules.ladders")
    {(2, 1): (((2, 1),), ((1, 1), (1, 1)))}
    """
    if not isinstance(value, dict):
        raise RulesError("rules.ladders", where=where)
    out: dict[Shape, tuple[Requirement, ...]] = {}
    for key, rungs in value.items():
        head = parse_requirement(key)
        if isinstance(rungs, list) and len(rungs) > 256:
            raise RulesError("rules.ladder_length", where=where, shape=key, rungs=len(rungs), most=256)
        if len(head) != 1 or not isinstance(rungs, list) or not rungs:
            raise RulesError("rules.ladder_shape", where=where, shape=key)
        shape = head[0]
        ladder = tuple(parse_requirement(r) if isinstance(r, str) else () for r in rungs)
        size = shape[0] * shape[1]
        if any(sum(w * n for w, n in req) != size for req in ladder):
            raise RulesError("rules.ladder_size", where=where, shape=key, size=size)
        if ladder[0] != head or set(ladder[-1]) != {(1, 1)}:
            raise RulesError("rules.ladder_ends", where=where, shape=key)
        out[shape] = ladder
    return out


def requirement_name(req: tuple[Shape, ...]) -> str:
    """Like :func:`shape_name`, collapsing trailing singles (``[2][1]×4``).

    >>> requirement_name(((2, 1), (1, 1), (1, 1), (1, 1), (1, 1)))
    '[2][1]×4'
    >>> requirement_name(((2, 2), (1, 1), (1, 1)))
    '[2,2][1][1]'
    """
    singles = sum(1 for s in req if s == (1, 1))
    head = shape_name(tuple(s for s in req if s != (1, 1)))
    if singles >= 3:
        return head + f"[1]×{singles}"
    return head + "[1]" * singles


PROFILES: dict[str, Options] = {
    "standard-2deck": Options(decks=2, bid_order="two-deck", first_dealer=FirstDealer.FIRST_BIDDER.value,
                              no_bid_no_trump=True),
    "titanic-3deck": Options(decks=3, bid_order="titanic", first_dealer=FirstDealer.FIRST_BIDDER.value,
                             no_bid_no_trump=True, ladders={(3, 2): TITANIC_LADDER}),
    "guangzhou-3deck": Options(
        decks=3,
        threshold=120,
        step=40,
        kitty_needs_trump=True,
        throw_penalty=Penalty.POINTS.value,
        titanic_beats_three_pair=True,
        bid_order="count",
        ladders={(3, 2): GUANGZHOU_TITANIC_LADDER},
    ),
    "competition-3deck": Options(decks=3, bid_order="count"),
    "single-deck": Options(decks=1, bid_order="two-deck", first_dealer=FirstDealer.FIRST_BIDDER.value,
                           no_bid_no_trump=True),
    "four-deck": Options(decks=4, kitty_size=0, bid_order="titanic", blind_bids=True, no_bid_no_trump=True),
    "friends-3deck": Options(decks=3, players=(4, 5, 6, 7), friends=True, bid_order="count"),
    "chaodipi-2deck": Options(
        decks=2, bid_order="chaodipi", rebid_after_kitty=True, self_overcall=False
    ),
}
"""The eight profiles of docs/RULES.md §13 by name."""

PROFILE_NOTES: dict[str, str] = {
    "standard-2deck": "seed 004: 2 decks, 4 players, T 80 / s 40, kitty 8",
    "titanic-3deck": "seed 004 泰坦尼克: 3 decks, T 120 / s 60, kitty 6, 泰坦尼克 ladder, 3-deck bid order",
    "guangzhou-3deck": "seed 001: 3 decks, T 120 / s 40 (0 → +4), seed 001 ladders, 须用主牌扣底, 10 points per stuck card, "
                       "泰坦尼克 trumps a three-pair tractor",
    "competition-3deck": "seed 000: 3 decks (162 cards), kitty 6, units of 表一",
    "single-deck": "seed 004: 1 deck, T 40 / s 20",
    "four-deck": "seed 004: 4 decks, all 216 cards dealt (no kitty), T 160 / s 80, 暗叫 (blind bids)",
    "friends-3deck": "seed 001 找朋友: 3 decks, 4-7 players, friends called by nth copy, the winning side bids its own levels",
    "chaodipi-2deck": "seed 001 炒地皮: 2 decks, suit-ranked overcalls, re-bidding after the kitty",
}

HOUSE_RULES: dict[str, str] = {
    "twos_trump": "2 常主 (seeds 001, 004): every 2 is a trump, below the level cards (the trump suit's 2 first)",
    "must_defend": "必打级: levels (e.g. 5, 10, K) a side cannot jump over: it stops on one and passes it only "
                   "as the dealer's side",
    "max_levels": "最多升几级 (seed 001 「有的规定最多升几级」): at most this many levels gained in one deal",
    "jack_hook": "勾J: at level J, when the defenders win the last trick with Js only, the dealer's side goes back "
                 "to this level (usually 2)",
    "reinforce": "保放 (seed 001): an overcalled bidder who shows more of his own suit keeps the bid on a tie",
    "kitty_multiplier": "the kitty's multiplier: unit (×2 per card of the largest unit), power, per-card:K, fixed:K",
    "throw_penalty": "a failed throw's penalty: none, points (10 a card), level-points (one level's worth), level",
    "discard_penalty": "垫错's penalty (the same scale)",
    "trump_penalty": "毙牌出错's penalty (the same scale)",
    "kitty_penalty": "留底差错's penalty (the same scale)",
    "card_count_penalty": "多牌少牌's penalty (the same scale)",
    "first_dealer": "who deals the first deal: first-bidder or winning-bidder",
    "dealer_stays": "连庄: the dealer deals again while his side holds",
    "concede": "认输 with no points agreed: take-over (a conceding dealer's side steps down, the defenders take the "
               "stage without a level; conceding defenders give the dealer's side one level) or one-level (the other "
               "side goes up one level either way)",
}
"""The house rules a game may set on its profile (the page's 房规), with what each means."""


def house_rule_words(options: Options) -> list[str]:
    """What the house rules of docs/RULES.md §13 that ``options`` turn on mean, in English.

    >>> for line in house_rule_words(resolve_rules({"profile": "standard-2deck", "twos_trump": True, "max_levels": 2,
    ...                                             "must_defend": ["5", "10", "K"], "jack_hook": "2"})):
    ...     print(line)
    2 常主: every 2 is a trump
    必打级: 5, 10, K cannot be jumped over
    最多升 2 级: at most 2 levels a deal
    勾J: at level J, the defenders winning the last trick with Js send the dealer's side back to 2
    """
    words = []
    if options.twos_trump:
        words.append("2 常主: every 2 is a trump")
    if options.must_defend:
        words.append(f"必打级: {', '.join(options.must_defend)} cannot be jumped over")
    if options.max_levels is not None:
        n = options.max_levels
        words.append(f"最多升 {n} 级: at most {n} level{'s' if n > 1 else ''} a deal")
    if options.jack_hook is not None:
        words.append("勾J: at level J, the defenders winning the last trick with Js send the dealer's side back to "
                     + options.jack_hook)
    if options.reinforce:
        words.append("保放: an overcalled bidder who shows more of his suit keeps the bid on a tie")
    return words


CONCEDE_COSTS = ("take-over", "one-level")
"""What 认输 costs when the table agrees no points (``concede``, :func:`scorer.scoring.concession_points`)."""

_OPTION_NAMES = {f.name for f in fields(Options)}


def _check_option(name: str, value: Any, where: str) -> Any:
    def bad(expected: str) -> RulesError:
        return RulesError("rules.option_value", where=where, option=name, expected=expected, value=value)

    if name in ("twos_trump", "protect_longer_tuples", "kitty_needs_trump", "dealer_stays", "reinforce",
                "self_overcall", "rebid_after_kitty", "friends", "blind_bids", "triple_pair_tractor",
                "titanic_beats_three_pair", "no_bid_no_trump"):
        if not isinstance(value, bool):
            raise bad("true or false")
        return value
    if name == "throw_compare":
        if value not in ("largest-unit", "all"):
            raise bad('"largest-unit" or "all"')
        return value
    if name == "forced_unit":
        try:
            return ForcedUnit(value).value
        except ValueError:
            raise bad('"lowest-beaten", "largest-beaten" or "smallest-beaten"') from None
    if name in PENALTY_OPTIONS:
        try:
            return Penalty(value).value
        except ValueError:
            raise bad('"none", "points", "level-points" or "level"') from None
    if name == "kitty_multiplier":
        if value in ("unit", "power"):
            return value
        for prefix in ("fixed:", "per-card:"):
            if isinstance(value, str) and value.startswith(prefix):
                try:
                    k = int(value[len(prefix):])
                except ValueError:
                    raise bad('"unit", "power", "per-card:K" or "fixed:K"') from None
                if k >= 0:
                    return value
        raise bad('"unit", "power", "per-card:K" or "fixed:K"')
    if name == "concede":
        if value not in CONCEDE_COSTS:
            raise bad(" or ".join(f'"{c}"' for c in CONCEDE_COSTS))
        return value
    if name == "first_dealer":
        try:
            return FirstDealer(value).value
        except ValueError:
            raise bad('"first-bidder" or "winning-bidder"') from None
    if name == "bid_order":
        if value not in BID_ORDERS:
            raise bad(" or ".join(f'"{b}"' for b in BID_ORDERS))
        return value
    if name == "must_defend":
        if value is False or value is None:
            return ()
        if not isinstance(value, list) or not all(isinstance(r, str) and r.upper() in RANKS for r in value):
            raise bad("a list of ranks")
        return tuple(r.upper() for r in value)
    if name == "jack_hook":
        if value is False or value is None:
            return None
        if not isinstance(value, str) or value.upper() not in RANKS[:JACK]:
            raise bad("a level below J (the level the dealer's side goes back to), or null")
        return value.upper()
    if name in ("max_levels", "threshold", "step", "kitty_size"):
        if value is None:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or value < (1 if name != "kitty_size" else 0):
            raise bad("a positive integer" if name != "kitty_size" else "a count")
        return value
    if name == "throw_penalty_points":
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise bad("a count")
        return value
    if name == "decks":
        if value not in (1, 2, 3, 4) or isinstance(value, bool):
            raise bad("1, 2, 3 or 4")
        return value
    if name == "players":
        if isinstance(value, int) and not isinstance(value, bool):
            value = [value]
        if not isinstance(value, list) or not value or not all(
            isinstance(p, int) and not isinstance(p, bool) and 2 <= p <= 12 for p in value
        ):
            raise bad("a player count or a list of them")
        return tuple(value)
    raise RulesError("rules.option_unknown", where=where, option=name)


def resolve_rules(rules: Any, where: str = "rules") -> Options:
    """Options for a record's ``rules`` value (a profile name or an override object).

    >>> resolve_rules("single-deck").decks
    1
    >>> resolve_rules({"profile": "standard-2deck", "twos_trump": True}).twos_trump
    True
    >>> resolve_rules("bridge")
    Traceback (most recent call last):
    ...
    tuolaji.scorer.profiles.RulesError: rules: unknown profile "bridge"
    """
    if isinstance(rules, str):
        if rules not in PROFILES:
            raise RulesError("rules.profile_unknown", where=where, profile=rules)
        return PROFILES[rules]
    if not isinstance(rules, dict):
        raise RulesError("rules.rules_value", where=where)
    name = rules.get("profile")
    if not isinstance(name, str) or name not in PROFILES:
        raise RulesError("rules.profile_unknown", where=f"{where}.profile", profile=name)
    changes: dict[str, Any] = {}
    for key, value in rules.items():
        if key == "profile":
            continue
        if key not in _OPTION_NAMES:
            raise RulesError("rules.option_unknown", where=where, option=key)
        if key == "ladders":
            changes[key] = {**PROFILES[name].ladders, **parse_ladders(value, f"{where}.ladders")}
            continue
        changes[key] = _check_option(key, value, where)
    return replace(PROFILES[name], **changes)


def profile_name(rules: Any) -> str:
    """The profile name of a ``rules`` value.

    >>> profile_name({"profile": "four-deck", "twos_trump": True})
    'four-deck'
    """
    return rules if isinstance(rules, str) else str(rules.get("profile"))
