"""What a rules profile means, in words for the page (both languages), and the house rules a game may set.

Every figure comes from the rules core's options (:func:`scorer.resolve_rules`): the
threshold and step for the number of players, the kitty and its multiplier, each penalty,
who deals the first deal. House rules are a few of those options, set for one game: the
record's ``rules`` then is ``{"profile": …, option: value}`` (RECORD.md), which the audit reads.

>>> words = rules_words("standard-2deck", 4)
>>> words["facts"][1]["zh"]
'满 80 分上台，每 40 分一级'
>>> rules_words({"profile": "standard-2deck", "discard_penalty": "points"}, 4)["facts"][4]["zh"]
'罚分：垫错 每张 10 分'
"""

from __future__ import annotations

from typing import Any

from tuolaji import scorer
from tuolaji.scorer.errors import InputError
from tuolaji.scorer.profiles import PENALTY_OPTIONS
from tuolaji.scorer.violation_text import OFFENCE_EN, OFFENCES_ZH, PENALTY_OPTION_OFFENCES

from .i18n import both, translate

_PENALTY_SCALE = {"none": "none", "points": "points", "level-points": "level-points", "level": "level"}

HOUSE_CHOICES: dict[str, dict[str, Any]] = {
    "kitty_multiplier": {m: m for m in ("unit", "power", "per-card:3", "fixed:2", "fixed:4")},
    "throw_penalty": _PENALTY_SCALE,
    "discard_penalty": _PENALTY_SCALE,
    "trump_penalty": _PENALTY_SCALE,
    "kitty_penalty": _PENALTY_SCALE,
    "card_count_penalty": _PENALTY_SCALE,
    "first_dealer": {"first-bidder": "first-bidder", "winning-bidder": "winning-bidder"},
    "dealer_stays": {"false": False, "true": True},
    # issue 30, item 6: the house rules people use (every profile has them off)
    "twos_trump": {"twos-trump": True},
    "must_defend": {"must-5-10-K": ["5", "10", "K"], "must-5-10-K-A": ["5", "10", "K", "A"], "must-A": ["A"]},
    "max_levels": {"max-1": 1, "max-2": 2, "max-3": 3},
    "jack_hook": {"hook-2": "2"},
    "reinforce": {"reinforce": True},
    "concede": {"take-over": "take-over", "one-level": "one-level"},  # 认输 with no points agreed (issue 43)
}
"""The house rules the set-up form offers: for each option, the form's values (each its own word on the
page: ``house.value.<value>`` in web/i18n.py) and the option's value each one sets in the record's ``rules``."""

HOUSE_OPTIONS: dict[str, tuple[str, ...]] = {name: tuple(choices) for name, choices in HOUSE_CHOICES.items()}
"""The house rules the set-up form offers, with the values it offers for each."""

PENALTY_NAMES = {option: (OFFENCES_ZH[offence], OFFENCE_EN[offence]) for option, offence in PENALTY_OPTION_OFFENCES.items()}
"""Each penalty option's offence in Chinese and English (web/i18n.py's and the scorer's tables)."""


class HouseRuleError(InputError):
    """A house rule the set-up form does not offer, or a value it does not offer for it."""


def house_rules(options: Any) -> dict[str, Any]:
    """The house-rule overrides of a set-up body (``{"kitty_multiplier": "power", …}``), checked: a form value,
    or the option's own value it stands for (``"max-2"`` or ``2``).

    >>> house_rules({"dealer_stays": "true", "throw_penalty": "none"})
    {'dealer_stays': True, 'throw_penalty': 'none'}
    >>> house_rules({"must_defend": "must-5-10-K", "max_levels": 2, "twos_trump": True, "jack_hook": "hook-2"})
    {'must_defend': ['5', '10', 'K'], 'max_levels': 2, 'twos_trump': True, 'jack_hook': '2'}
    """
    if options is None:
        return {}
    if not isinstance(options, dict) or len(options) > len(HOUSE_CHOICES):
        raise HouseRuleError("house.object")
    out: dict[str, Any] = {}
    for name, value in options.items():
        if name not in HOUSE_CHOICES:
            raise HouseRuleError("house.unknown", option=str(name)[:40])
        choices = HOUSE_CHOICES[name]
        if isinstance(value, bool) and name == "dealer_stays":
            value = "true" if value else "false"
        if isinstance(value, str) and value in choices:
            chosen = choices[value]
        elif any(type(value) is type(v) and value == v for v in choices.values()):
            chosen = value
        else:
            raise HouseRuleError("house.value", option=name, choices=tuple(choices))
        out[name] = list(chosen) if isinstance(chosen, list) else chosen
    return out


def _multiplier(mode: str, needs_trump: bool) -> dict[str, str]:
    if mode in ("unit", "power"):
        words = both(f"about.kitty.{mode}")
    elif mode.startswith("per-card:"):
        k = mode.split(":", 1)[1]
        words = both("about.kitty.per_card", k=k, k2=2 * int(k))
    else:
        words = both("about.kitty.fixed", k=mode.split(":", 1)[1])
    if needs_trump:
        words = {lang: text + translate("about.kitty.trumps_only", lang) for lang, text in words.items()}
    return words


def _joined(parts: list[dict[str, str]]) -> dict[str, str]:
    return {lang: translate("about.sep", lang).join(part[lang] for part in parts) for lang in ("zh", "en")}


def _penalties(options: scorer.Options, step: int) -> dict[str, str]:
    per = options.throw_penalty_points
    parts = []
    for name in PENALTY_OPTIONS:
        mode = getattr(options, name)
        if mode == "none":
            continue
        what_zh, what_en = PENALTY_NAMES[name]
        parts.append(both(f"about.penalty.{mode}", what={"zh": what_zh, "en": what_en}, per=per, step=step))
    if not parts:
        return both("about.penalties.none")
    return both("about.penalties", list=_joined(parts))


def rules_words(rules: Any, players: int) -> dict[str, Any]:
    """What ``rules`` (a profile name or an options object) mean for ``players`` players: a list of facts."""
    options = scorer.resolve_rules(rules)
    threshold, step = options.threshold_for(players), options.step_for(players)
    kitty = options.kitty_size_for(players)
    facts = [
        both("about.decks" if options.decks > 1 else "about.deck", decks=options.decks, players=players),
        both("about.threshold", threshold=threshold, step=step),
        both("about.kitty", kitty=kitty) if kitty else both("about.no_kitty"),
        _multiplier(options.kitty_multiplier, options.kitty_needs_trump),
        _penalties(options, step),
        both("about.first_dealer.first-bidder" if options.first_dealer == "first-bidder"
             else "about.first_dealer.winning-bidder"),
    ]
    for flag, key in ((options.friends, "about.friends"), (options.rebid_after_kitty, "about.chaodipi"),
                      (options.blind_bids, "about.blind_bids"), (options.dealer_stays, "about.dealer_stays")):
        if flag:
            facts.append(both(key))
    facts.extend(_house_facts(options))
    return {"facts": facts, **_joined(facts)}


def _house_facts(options: scorer.Options) -> list[dict[str, str]]:
    """The words of the house rules of issue 30, item 6 that ``options`` turn on (RULES §13)."""
    facts = []
    if options.twos_trump:
        facts.append(both("about.twos_trump"))
    if options.must_defend:
        ranks = {lang: translate("about.ranks_sep", lang).join(options.must_defend) for lang in ("zh", "en")}
        facts.append(both("about.must_defend", ranks=ranks))
    if options.max_levels is not None:
        n = options.max_levels
        facts.append(both("about.max_levels" if n > 1 else "about.max_level", n=n))
    if options.jack_hook is not None:
        facts.append(both("about.jack_hook", level=options.jack_hook))
    if options.reinforce:
        facts.append(both("about.reinforce"))
    return facts


def profiles_words(profiles: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The page's profiles (deck and player counts) with what each means for each player count."""
    return {name: {**info, "about": {str(n): rules_words(name, n) for n in info["players"]}}
            for name, info in profiles.items()}
