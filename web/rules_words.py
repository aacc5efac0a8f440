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
from tuolaji.scorer.violation_text import OFFENCE_EN, PENALTY_OPTION_OFFENCES

from .i18n import OFFENCES_ZH

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
    if mode == "unit":
        zh, en = "抠底按最后一墩的牌型翻倍：单张 ×2，对子 ×4，三张 ×6", "kitty ×2 per card of the last trick's largest unit"
    elif mode == "power":
        zh, en = "抠底按 2 的次方翻倍：单张 ×2，对子 ×4，三张 ×8", "kitty ×2 to the power of the largest unit's size"
    elif mode.startswith("per-card:"):
        k = mode.split(":", 1)[1]
        zh, en = f"抠底按每张 {k} 倍：单张 ×{k}，对子 ×{2 * int(k)}", f"kitty ×{k} per card of the largest unit"
    else:
        k = mode.split(":", 1)[1]
        zh, en = f"抠底一律 ×{k}", f"kitty always ×{k}"
    if needs_trump:
        zh += "（须用主牌抠底，否则 ×1）"
        en += " (only when won with trumps, else ×1)"
    return {"zh": zh, "en": en}


def _penalties(options: scorer.Options, step: int) -> dict[str, str]:
    per = options.throw_penalty_points
    zh, en = [], []
    for name in PENALTY_OPTIONS:
        mode = getattr(options, name)
        if mode == "none":
            continue
        what_zh, what_en = PENALTY_NAMES[name]
        if mode == "points":
            zh.append(f"{what_zh} 每张 {per} 分")
            en.append(f"{what_en} {per} points a card")
        elif mode == "level-points":
            zh.append(f"{what_zh} 扣一级的分（{step} 分）")
            en.append(f"{what_en} one level's worth ({step} points)")
        else:
            zh.append(f"{what_zh} 降一级")
            en.append(f"{what_en} one level down")
    if not zh:
        return {"zh": "罚分：规则不罚（违规时可在结算里自定处罚）",
                "en": "penalties: none by the rules (the settlement lets you rule one)"}
    return {"zh": "罚分：" + "；".join(zh), "en": "penalties: " + "; ".join(en)}


def rules_words(rules: Any, players: int) -> dict[str, Any]:
    """What ``rules`` (a profile name or an options object) mean for ``players`` players: a list of facts."""
    options = scorer.resolve_rules(rules)
    threshold, step = options.threshold_for(players), options.step_for(players)
    kitty = options.kitty_size_for(players)
    facts = [
        {"zh": f"{options.decks} 副牌，{players} 人", "en": f"{options.decks} deck{'s' if options.decks > 1 else ''}, "
                                                           f"{players} players"},
        {"zh": f"满 {threshold} 分上台，每 {step} 分一级", "en": f"{threshold} to take over, a level per {step} points"},
        {"zh": f"底牌 {kitty} 张" if kitty else "不留底牌", "en": f"a kitty of {kitty}" if kitty else "no kitty"},
        _multiplier(options.kitty_multiplier, options.kitty_needs_trump),
        _penalties(options, step),
        {"zh": "首局：先亮主的人坐庄" if options.first_dealer == "first-bidder" else "首局：亮主成立的人坐庄",
         "en": "first deal: the first bidder deals" if options.first_dealer == "first-bidder"
         else "first deal: the winning bidder deals"},
    ]
    if options.friends:
        facts.append({"zh": "找朋友：庄家叫第几张某牌，出这张牌的人是朋友",
                      "en": "找朋友: the dealer calls the nth copy of a card; whoever plays it is his friend"})
    if options.rebid_after_kitty:
        facts.append({"zh": "炒地皮：扣底后还可以再亮主", "en": "炒地皮: bids go on after the kitty"})
    if options.blind_bids:
        facts.append({"zh": "暗叫：亮主结束才亮出花色", "en": "blind bids: the suit is shown when bidding ends"})
    if options.dealer_stays:
        facts.append({"zh": "庄家方守住就连庄", "en": "the dealer deals again while his side holds"})
    facts.extend(_house_facts(options))
    return {"facts": facts, "zh": "；".join(f["zh"] for f in facts), "en": "; ".join(f["en"] for f in facts)}


def _house_facts(options: scorer.Options) -> list[dict[str, str]]:
    """The words of the house rules of issue 30, item 6 that ``options`` turn on (RULES §13)."""
    facts = []
    if options.twos_trump:
        facts.append({"zh": "2 常主：所有的 2 都是主牌", "en": "2s are always trumps"})
    if options.must_defend:
        facts.append({"zh": "必打：" + "、".join(options.must_defend) + "（不能越过，只有坐庄打过才过）",
                      "en": "must be played: " + ", ".join(options.must_defend) + " (no side jumps over them)"})
    if options.max_levels is not None:
        n = options.max_levels
        facts.append({"zh": f"一局最多升 {n} 级", "en": f"at most {n} level{'s' if n > 1 else ''} a deal"})
    if options.jack_hook is not None:
        facts.append({"zh": f"勾J：打 J 时闲家用 J 抠底，庄家方回到 {options.jack_hook}",
                      "en": f"勾J: at level J, the defenders winning the last trick with Js send the dealer's side "
                            f"back to {options.jack_hook}"})
    if options.reinforce:
        facts.append({"zh": "保放：被反后补放同花色的级牌，张数一样也能保住",
                      "en": "保放: an overcalled bidder who shows more of his suit keeps the bid on a tie"})
    return facts


def profiles_words(profiles: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The page's profiles (deck and player counts) with what each means for each player count."""
    return {name: {**info, "about": {str(n): rules_words(name, n) for n in info["players"]}}
            for name, info in profiles.items()}
