"""Why a 嘴和 hand is refused, as data: a message key and its parameters.

Every :class:`ZuiheInputError` (``HandError``, ``CardError``) carries ``key`` and
``params``; ``str(error)`` is the English line rendered here from :data:`MESSAGES_EN`.
The Chinese of each key is here too (:data:`MESSAGES_ZH`, the same parameters, with the Chinese of
HAND.json's places and flags), rendered by the page from the key and parameters, so no one has to
read the English back.

Templates are :meth:`str.format` strings rendered by :func:`scorer.messages.render`: a list
parameter takes a ``{name:SEP|EMPTY}`` spec, joined by ``SEP`` and shown as ``EMPTY`` when it is empty.

>>> error = ZuiheInputError("cha_shape", where="melds[0]", cards=("5B", "5B", "6B"))
>>> str(error), error.key, error.params["cards"]
('melds[0]: a cha (叉) is 3 alike, got 5B 5B 6B', 'cha_shape', ('5B', '5B', '6B'))
>>> render(MESSAGES_EN["size"], {"total": 29, "hand": 29, "melds": 0, "yun": 0, "sizes": (30, 31)})
'hand: 29 cards in all (hand 29 + melds 0 + yun 0); a 嘴和 winner holds 30 or 31'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from ..errors import InputError
from ..messages import render

#: The English line of every message key; the parameters each one names are the data.
MESSAGES_EN: dict[str, str] = {
    # options
    "patterns": 'options.patterns: must be "best" or "sum", got {value!r}',
    "option_pair": '{where}: expected key=value, got "{pair}"',
    "option_unknown": "{where}.{key}: unknown option (known: {known:, })",
    "options_object": "options: expected an object",
    "bool": "{where}: expected true or false, got {value!r}",
    "sizes": '{where}: expected "any" or sizes like 30,31, got {value!r}',
    # the HAND.json object
    "hand_object": 'HAND.json: expected an object with a "hand" list',
    "top_key": "{key}: unknown key (hand, melds, yun, flags, options)",
    "hand_missing": "hand: missing (the concealed cards)",
    "melds_list": "melds: expected a list",
    "cards_list": "{where}: expected a list of cards, got {type}",
    # melds
    "meld_object": '{where}: expected an object like {{"type": "cha", "cards": [...]}}',
    "meld_key": "{where}: unknown key {key!r}",
    "meld_type": "{where}.type: unknown meld type {value!r} (cha, guang or chi)",
    "meld_cards_missing": "{where}.cards: missing",
    "cha_shape": "{where}: a cha (叉) is 3 alike, got {cards: |nothing}",
    "guang_shape": "{where}: a guang (光) is 4 alike, got {cards: |nothing}",
    "chi_shape": "{where}: a chi (吃) must be a 副, 报 or 七套, got {cards: |nothing}",
    # 云幺
    "yun_list": "{where}: expected a list of cards or a list of lists",
    "yun_shape": "{where}: a 云幺 is 中 发 白 1B 1T 1W (小) or those and 9T (大), got {cards: |nothing}",
    # flags
    "flags_object": "{where}: expected an object",
    "flag_bool": "{where}.{key}: expected true or false, got {value!r}",
    "flag_jian": "{where}.jian: expected null, huang, mian, cha or tong, got {value!r}",
    "flag_unknown": "{where}.{key}: unknown flag (tianhe, dihe, mo, za, jian)",
    "tianhe_dihe": "{where}: tianhe (天和, the dealer's) and dihe (地和, another player's) contradict",
    # the whole hand
    "fifth_copy": "{where}: a 5th {card} ({name}); there are only 4 of each",
    "too_many": "hand: {total} cards in all; a 嘴和 hand holds at most {most} (the dealer's)",
    "size": "hand: {total} cards in all (hand {hand} + melds {melds} + yun {yun}); a 嘴和 winner holds {sizes: or }",
    # cards
    "card_kind": "card kind {kind} is out of range 0..29",
    "card_unknown": 'unknown card "{text}"',
    "card_at": '{where}[{index}]: unknown card "{text}"',
}


#: The Chinese of every message key in :data:`MESSAGES_EN`, same parameters
#: (``where`` already a Chinese place, ``cards``/``name`` Chinese card names, ``key`` a flag's name).
MESSAGES_ZH: dict[str, str] = {
    # options
    "patterns": "选项 patterns 只能是 best 或 sum，不能是 {value!r}",
    "option_pair": "{where}：要写成 key=value，“{pair}”不对",
    "option_unknown": "没有 {key} 这个选项（可用的有：{known:、}）",
    "options_object": "options（选项）应是一个对象",
    "bool": "{where}：只能是 true 或 false，不能是 {value!r}",
    "sizes": "{where}：应写 any 或张数（如 30,31），不能是 {value!r}",
    # the HAND.json object
    "hand_object": "这不是一手牌：应是一个带 hand（手牌）列表的对象",
    "top_key": "不认识的项「{key}」（只能有 hand、melds、yun、flags、options）",
    "hand_missing": "没写手牌（hand：手里没亮的牌）",
    "melds_list": "melds（亮出的牌组）应是一个列表",
    "cards_list": "{where}：应是一串牌，不能是 {type}",
    # melds
    "meld_object": '{where}：应写成 {{"type": "cha", "cards": [...]}} 这样的一组牌',
    "meld_key": "{where}：有不认识的项 {key!r}",
    "meld_type": "{where}：没有 {value!r} 这种牌组，只有叉（cha）、光（guang）、吃（chi）",
    "meld_cards_missing": "{where}：没写是哪几张牌（cards）",
    "cha_shape": "{where}：叉是三张一样的牌，这里是：{cards:、|（没有牌）}",
    "guang_shape": "{where}：光是四张一样的牌，这里是：{cards:、|（没有牌）}",
    "chi_shape": "{where}：吃的牌要成副、报或七套，这里是：{cards:、|（没有牌）}",
    # 云幺
    "yun_list": "{where}：应是一串牌，或几串牌",
    "yun_shape": "{where}：小云幺是红中、发财、白花、一饼、一条、一万，大云幺再加九条；这里是：{cards:、|（没有牌）}",
    # flags
    "flags_object": "和牌方式（flags）应是一个对象",
    "flag_bool": "和牌方式里的「{key}」只能是 true 或 false，不能是 {value!r}",
    "flag_jian": "见只能是黄见、面见、叉见、统见或不选，不能是 {value!r}",
    "flag_unknown": "和牌方式里没有「{key}」（只有天和、地和、抹、砸、见）",
    "tianhe_dihe": "天和是庄家起手就和，地和是闲家和庄家打的头一张，两个不能同时选",
    # the whole hand
    "fifth_copy": "{where}：这是第五张{name}，每种牌只有四张",
    "too_many": "一共 {total} 张牌，太多了：嘴和一手牌最多 {most} 张（庄家）",
    "size": "一共 {total} 张牌（手里 {hand} 张、亮出 {melds} 张、云幺 {yun} 张），和了的牌应是 {sizes: 或 } 张",
    # cards
    "card_kind": "没有第 {kind} 种牌（只有 0 到 29）",
    "card_unknown": "不认识的牌“{text}”",
    "card_at": "{where}：不认识的牌“{text}”",
}

PLACES_ZH: dict[str, str] = {"hand": "手牌", "melds": "亮出的", "yun": "云幺", "flags": "和牌方式", "options": "选项", "cards": ""}
FLAGS_ZH: dict[str, str] = {"tianhe": "天和", "dihe": "地和", "mo": "抹", "za": "砸", "jian": "见"}
"""The places of HAND.json (PLACES_ZH) and its flags (FLAGS_ZH) in Chinese."""


class ZuiheInputError(InputError):
    """A 嘴和 input error: ``key`` (one of :data:`MESSAGES_EN`) and ``params``; its text is the English."""

    messages: ClassVar[Mapping[str, str]] = MESSAGES_EN


__all__ = ["FLAGS_ZH", "MESSAGES_EN", "MESSAGES_ZH", "PLACES_ZH", "ZuiheInputError", "render"]
