"""Card notation, Chinese names, and clear errors for bad hands."""

from __future__ import annotations

import pytest

from tuolaji.scorer.errors import InputError
from tuolaji.scorer.zuihe import (
    ALL_CARDS,
    Card,
    CardError,
    HandError,
    ZuiheOptions,
    parse_cards,
    parse_hand,
    score,
)

THIRTY = ["2B", "3B", "4B"] * 2 + ["5T", "6T", "7T"] * 2 + ["4W", "5W", "6W"] * 2 + ["ZH", "FA", "9T"] * 4


@pytest.mark.parametrize("text, code", [
    ("七饼", "7B"), ("7饼", "7B"), ("七筒", "7B"), ("7b", "7B"), (" 7B ", "7B"),
    ("一条", "1T"), ("幺条", "1T"), ("九索", "9T"), ("三万", "3W"), ("三萬", "3W"),
    ("中", "ZH"), ("红中", "ZH"), ("红花", "ZH"), ("发", "FA"), ("发财", "FA"),
    ("白", "BA"), ("白花", "BA"), ("白板", "BA"), ("zh", "ZH"),
])
def test_chinese_names_and_codes(text: str, code: str) -> None:
    assert Card.parse(text).code == code


def test_every_card_round_trips_through_code_and_chinese_name() -> None:
    assert len(ALL_CARDS) == 30
    for card in ALL_CARDS:
        assert Card.parse(card.code) == card
        assert Card.parse(card.name_zh) == card
    assert [c.name_zh for c in parse_cards(["7B", "ZH", "FA", "BA", "9W"])] == ["七饼", "红中", "发财", "白花", "九万"]


def test_yao_cards() -> None:
    assert sorted(c.code for c in ALL_CARDS if c.is_yao) == ["1B", "1T", "1W", "9T", "BA", "FA", "ZH"]


@pytest.mark.parametrize("obj, message", [
    ({"hand": THIRTY[:3] + ["0B"] + THIRTY[4:]}, 'hand[3]: unknown card "0B"'),
    ({"hand": THIRTY[:5] + [7] + THIRTY[6:]}, 'hand[5]: unknown card "7"'),
    ({"hand": THIRTY[:29]}, "hand: 29 cards in all (hand 29 + melds 0 + yun 0); a 嘴和 winner holds 30 or 31"),
    ({"hand": THIRTY + ["BA", "BA"]}, "hand: 32 cards in all"),
    ({"hand": THIRTY[:27] + ["ZH", "ZH"]}, "hand[28]: a 5th ZH (红中); there are only 4 of each"),
    ({"hand": THIRTY[:24], "melds": [{"type": "cha", "cards": ["ZH", "ZH", "ZH"]}]},
     "melds[0].cards[2]: a 5th ZH (红中)"),
    ({"hand": THIRTY[:27], "melds": [{"type": "peng", "cards": ["7B"] * 3}]},
     "melds[0].type: unknown meld type 'peng' (cha, guang or chi)"),
    ({"hand": THIRTY[:27], "melds": [{"type": "cha", "cards": ["7B", "7B", "8B"]}]},
     "melds[0]: a cha (叉) is 3 alike, got 7B 7B 8B"),
    ({"hand": THIRTY[:26], "melds": [{"type": "guang", "cards": ["7B"] * 3}]},
     "melds[0]: a guang (光) is 4 alike, got 7B 7B 7B"),
    ({"hand": THIRTY[:27], "melds": [{"type": "chi", "cards": ["7B", "8B", "1T"]}]},
     "melds[0]: a chi (吃) must be a 副, 报 or 七套, got 7B 8B 1T"),
    ({"hand": THIRTY[:27], "melds": [{"type": "chi", "cards": ["9T", "8T", "7T"]}]},
     "melds[0]: a chi (吃) must be a 副, 报 or 七套, got 9T 8T 7T"),
    ({"hand": THIRTY[:27], "melds": [{"type": "chi", "cards": ["7B", "x", "9B"]}]}, 'melds[0].cards[1]: unknown card "x"'),
    ({"hand": THIRTY[:24], "yun": ["ZH", "FA", "BA", "1B", "1T", "9T"]},
     "yun: a 云幺 is 中 发 白 1B 1T 1W (小) or those and 9T (大), got ZH FA BA 1B 1T 9T"),
    ({"hand": THIRTY, "flags": {"tianhe": True, "dihe": True}},
     "flags: tianhe (天和, the dealer's) and dihe (地和, another player's) contradict"),
    ({"hand": THIRTY, "flags": {"jian": "big"}}, "flags.jian: expected null, huang, mian, cha or tong, got 'big'"),
    ({"hand": THIRTY, "flags": {"mo": "yes"}}, "flags.mo: expected true or false, got 'yes'"),
    ({"hand": THIRTY, "flags": {"peng": True}}, "flags.peng: unknown flag (tianhe, dihe, mo, za, jian)"),
    ({"cards": THIRTY}, "cards: unknown key (hand, melds, yun, flags, options)"),
    ({"melds": []}, "hand: missing (the concealed cards)"),
    ({"hand": "7B 8B"}, "hand: expected a list of cards, got str"),
    ([1, 2], 'HAND.json: expected an object with a "hand" list'),
    ({"hand": THIRTY, "options": {"patterns": "all"}}, 'options.patterns: must be "best" or "sum", got \'all\''),
    ({"hand": THIRTY, "options": {"speed": 1}}, "options.speed: unknown option"),
])
def test_bad_hands_get_one_clear_line(obj: object, message: str) -> None:
    with pytest.raises(InputError) as info:
        score(obj)
    assert str(info.value).startswith(message)
    assert "\n" not in str(info.value)


def test_error_types() -> None:
    with pytest.raises(CardError):
        Card.parse("11B")
    with pytest.raises(HandError):
        parse_hand({"hand": THIRTY[:10]})
    assert len(parse_hand({"hand": THIRTY[:10]}, ZuiheOptions(sizes=())).concealed) == 10
    with pytest.raises(HandError, match="hand: 32 cards in all; a 嘴和 hand holds at most 31"):
        parse_hand({"hand": THIRTY + ["BA", "BA"]}, ZuiheOptions(sizes=()))


def test_sizes_option_and_both_30_and_31_accepted() -> None:
    assert score({"hand": THIRTY}).he >= 0
    assert score({"hand": THIRTY + ["BA"]}).he >= 0
    with pytest.raises(HandError, match="a 嘴和 winner holds 30"):
        score({"hand": THIRTY + ["BA"]}, ZuiheOptions(sizes=(30,)))
    assert ZuiheOptions.parse(["sizes=30,31", "patterns=sum", "split_ha=no"]) == ZuiheOptions(patterns="sum")
    with pytest.raises(HandError, match="--option: expected key=value"):
        ZuiheOptions.parse(["patterns"], "--option")


def test_yun_may_be_a_list_of_lists() -> None:
    small = ["ZH", "FA", "BA", "1B", "1T", "1W"]
    hand = parse_hand({"hand": THIRTY[:18], "yun": [small, small]})
    assert [len(y) for y in hand.yun] == [6, 6]
