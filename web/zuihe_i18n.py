"""The 嘴和 page's Chinese (web/zuihe.py): its catalogue, beside the rules core's English
(:data:`scorer.zuihe.messages.MESSAGES_EN`)."""

from __future__ import annotations

#: The Chinese of every message key in :data:`scorer.zuihe.messages.MESSAGES_EN`, same parameters
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
