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

HOUSE_OPTIONS: dict[str, tuple[str, ...]] = {
    "kitty_multiplier": ("unit", "power", "per-card:3", "fixed:2", "fixed:4"),
    "throw_penalty": ("none", "points", "level-points", "level"),
    "discard_penalty": ("none", "points", "level-points", "level"),
    "trump_penalty": ("none", "points", "level-points", "level"),
    "kitty_penalty": ("none", "points", "level-points", "level"),
    "card_count_penalty": ("none", "points", "level-points", "level"),
    "first_dealer": ("first-bidder", "winning-bidder"),
    "dealer_stays": ("false", "true"),
}
"""The house rules the set-up form offers, with the values it offers for each."""

PENALTY_NAMES = {"throw_penalty": ("甩牌失败", "failed throw"), "discard_penalty": ("垫错", "wrong discard"),
                 "trump_penalty": ("毙牌出错", "wrong trumping"), "kitty_penalty": ("留底差错", "wrong kitty"),
                 "card_count_penalty": ("多牌少牌", "wrong card count")}


class HouseRuleError(InputError):
    """A house rule the set-up form does not offer, or a value it does not offer for it."""


def house_rules(options: Any) -> dict[str, Any]:
    """The house-rule overrides of a set-up body (``{"kitty_multiplier": "power", …}``), checked.

    >>> house_rules({"dealer_stays": "true", "throw_penalty": "none"})
    {'dealer_stays': True, 'throw_penalty': 'none'}
    """
    if options is None:
        return {}
    if not isinstance(options, dict) or len(options) > len(HOUSE_OPTIONS):
        raise HouseRuleError("house.object")
    out: dict[str, Any] = {}
    for name, value in options.items():
        if name not in HOUSE_OPTIONS:
            raise HouseRuleError("house.unknown", option=str(name)[:40])
        if isinstance(value, bool):
            value = "true" if value else "false"
        if value not in HOUSE_OPTIONS[name]:
            raise HouseRuleError("house.value", option=name, choices=tuple(HOUSE_OPTIONS[name]))
        out[name] = value == "true" if name == "dealer_stays" else value
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
    if options.must_defend:
        facts.append({"zh": "必打：" + "、".join(options.must_defend), "en": "must be played: " + ", ".join(options.must_defend)})
    return {"facts": facts, "zh": "；".join(f["zh"] for f in facts), "en": "; ".join(f["en"] for f in facts)}


def profiles_words(profiles: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The page's profiles (deck and player counts) with what each means for each player count."""
    return {name: {**info, "about": {str(n): rules_words(name, n) for n in info["players"]}}
            for name, info in profiles.items()}
