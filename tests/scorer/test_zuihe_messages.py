"""嘴和 input errors carry a message key and its parameters; their text is the English line as before."""

from __future__ import annotations

import ast
import pickle
from pathlib import Path

import pytest

from tuolaji.scorer.errors import InputError
from tuolaji.scorer.zuihe import CardError, HandError, ZuiheOptions, score
from tuolaji.scorer.zuihe.messages import MESSAGES_EN, ZuiheInputError

ZUIHE = Path(__file__).resolve().parents[2] / "scorer" / "zuihe"


def raise_site_keys() -> list[tuple[str, int, str | None]]:
    """(file, line, key) of every ``HandError(...)`` / ``CardError(...)`` call in scorer/zuihe."""
    sites = []
    for path in sorted(ZUIHE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in ("HandError", "CardError"):
                first = node.args[0] if node.args else None
                key = first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None
                sites.append((path.name, node.lineno, key))
    return sites


def test_every_raise_site_names_a_known_key() -> None:
    sites = raise_site_keys()
    assert len(sites) >= 30
    assert [site for site in sites if site[2] not in MESSAGES_EN] == []
    # and every key is raised somewhere
    assert {key for _, _, key in sites} == set(MESSAGES_EN)


@pytest.mark.parametrize("hand, error, key, line", [
    ({"hand": ["0B"]}, CardError, "card_at", 'hand[0]: unknown card "0B"'),
    ({"hand": [], "melds": [{"type": "cha", "cards": ["5B", "5B", "6B"]}]}, HandError, "cha_shape",
     "melds[0]: a cha (叉) is 3 alike, got 5B 5B 6B"),
    ({"hand": [], "melds": [{"type": "chi", "cards": []}]}, HandError, "chi_shape",
     "melds[0]: a chi (吃) must be a 副, 报 or 七套, got nothing"),
    ({"hand": [], "yun": [["ZH"], []]}, HandError, "yun_shape",
     "yun[0]: a 云幺 is 中 发 白 1B 1T 1W (小) or those and 9T (大), got ZH"),
    ({"hand": ["7B"], "flags": {"tianhe": True, "dihe": True}}, HandError, "tianhe_dihe",
     "flags: tianhe (天和, the dealer's) and dihe (地和, another player's) contradict"),
    ({"hand": ["7B"] * 5}, HandError, "fifth_copy", "hand[4]: a 5th 7B (七饼); there are only 4 of each"),
    ({"hand": ["2B"]}, HandError, "size",
     "hand: 1 cards in all (hand 1 + melds 0 + yun 0); a 嘴和 winner holds 30 or 31"),
    ({"hand": ["2B", "3B", "4B", "5B", "6B", "7B", "8B", "9B"] * 4}, HandError, "too_many",
     "hand: 32 cards in all; a 嘴和 hand holds at most 31 (the dealer's)"),
    ({"x": 1, "hand": []}, HandError, "top_key", "x: unknown key (hand, melds, yun, flags, options)"),
    ({"hand": [], "melds": [{"type": "cha", "cards": [], "z": 1}]}, HandError, "meld_key",
     "melds[0]: unknown key 'z'"),
    ({"hand": [], "flags": {"jian": "x"}}, HandError, "flag_jian",
     "flags.jian: expected null, huang, mian, cha or tong, got 'x'"),
    ({"hand": ["2B"], "options": {"q": 1}}, HandError, "option_unknown",
     "options.q: unknown option (known: patterns, split_ha, yao_loose, sizes, big_lou, extra_lou_as_ha, "
     "qitao_che, jian_on_flat, wuyan)"),
    ({"hand": ["2B"], "options": {"sizes": "a,b"}}, HandError, "sizes",
     "options.sizes: expected \"any\" or sizes like 30,31, got 'a,b'"),
])
def test_the_english_line_is_unchanged_and_the_facts_are_data(hand: object, error: type[InputError], key: str,
                                                               line: str) -> None:
    with pytest.raises(error) as info:
        score(hand)
    exc = info.value
    assert isinstance(exc, ZuiheInputError) and isinstance(exc, InputError)
    assert str(exc) == line and exc.args == (line,)
    assert exc.key == key


def test_parameters_are_the_facts() -> None:
    with pytest.raises(HandError) as info:
        score({"hand": ["2B"] * 3, "melds": [{"type": "guang", "cards": ["9W", "9W"]}], "yun": []})
    assert info.value.params == {"where": "melds[0]", "cards": ("9W", "9W")}
    with pytest.raises(HandError) as info:
        ZuiheOptions.parse(["a"])
    assert (info.value.key, info.value.params, str(info.value)) == (
        "option_pair", {"where": "options", "pair": "a"}, 'options: expected key=value, got "a"')


def test_an_error_survives_pickling() -> None:
    with pytest.raises(HandError) as info:
        score({"hand": ["2B"]})
    again = pickle.loads(pickle.dumps(info.value))
    assert type(again) is HandError and again.key == "size" and str(again) == str(info.value)
