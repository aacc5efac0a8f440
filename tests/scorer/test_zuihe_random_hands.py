"""Random 30/31-card hands never crash, and every result is self-consistent."""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tuolaji.scorer.errors import InputError
from tuolaji.scorer.zuihe import ALL_CARDS, score

DECK = [card.code for card in ALL_CARDS for _ in range(4)]
CHI = [["2B", "3B", "4B"], ["5T", "6T", "7T"], ["6W", "7W", "8W", "9W"], ["4B", "4T", "4W"],
       ["7B", "3T", "3W"], ["ZH", "FA", "9T"], ["1B", "2B", "3B"]]


@st.composite
def hands(draw: st.DrawFn) -> dict:
    """A legal HAND.json: melds and 云幺 taken from one shuffled deck, the rest concealed."""
    deck = draw(st.permutations(DECK))
    size = draw(st.sampled_from([30, 31]))
    left = Counter(deck)
    melds = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["cha", "guang", "chi"]))
        if kind == "chi":
            cards = draw(st.sampled_from(CHI))
        else:
            code = draw(st.sampled_from(sorted(left)))
            cards = [code] * (3 if kind == "cha" else 4)
        if all(left[c] >= n for c, n in Counter(cards).items()) and sum(len(m["cards"]) for m in melds) + len(cards) <= 20:
            melds.append({"type": kind, "cards": cards})
            left.subtract(cards)
    yun = []
    if draw(st.booleans()):
        cards = ["ZH", "FA", "BA", "1B", "1T", "1W"] + (["9T"] if draw(st.booleans()) else [])
        if all(left[c] >= 1 for c in cards):
            yun = [cards]
            left.subtract(cards)
    concealed: list[str] = []
    for code in deck:
        if len(concealed) + sum(len(m["cards"]) for m in melds) + sum(len(y) for y in yun) >= size:
            break
        if left[code] > 0:
            concealed.append(code)
            left[code] -= 1
    flags = draw(st.fixed_dictionaries({
        "mo": st.booleans(), "za": st.booleans(), "tianhe": st.booleans(),
        "jian": st.sampled_from([None, "huang", "mian", "cha", "tong"]),
    }))
    return {"hand": concealed, "melds": melds, "yun": yun, "flags": flags}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands())
def test_random_hands_score_consistently(hand: dict) -> None:
    result = score(hand)
    every_card = Counter(hand["hand"]) + Counter(c for m in hand["melds"] for c in m["cards"])
    every_card += Counter(c for y in hand["yun"] for c in y)
    grouped = Counter(c.code for g in result.groups for c in g.cards)
    assert grouped == every_card  # every card shows up once in the explanation
    assert sum(g.he for g in result.groups) == result.he
    if result.wins:
        assert result.zui > 0 and result.zui == sum(i.zui for i in result.items)
    else:
        assert result.zui == 0 and result.items == () and result.reason_zh
    out = result.to_json()
    assert set(out) == {"wins", "he", "zui", "groups", "items"}
    json.dumps(out, ensure_ascii=False)
    assert result.explain("zh") and result.explain("en")


@settings(max_examples=150, deadline=None)
@given(st.permutations(DECK), st.sampled_from([30, 31]))
def test_random_concealed_hands(deck: list[str], size: int) -> None:
    result = score({"hand": deck[:size]})
    assert result.he >= 0 and (result.wins or result.zui == 0)


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 40) | st.sampled_from(["7B", "ZH", "七饼", "0B", "cha", "chi", ""]),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(
        st.sampled_from(["hand", "melds", "yun", "flags", "type", "cards", "jian", "za", "options", "x"]), inner,
        max_size=5),
    max_leaves=30,
)


@settings(max_examples=200, deadline=None)
@given(JSONISH)
def test_junk_input_is_an_input_error_or_a_result(obj: object) -> None:
    try:
        score(obj)
    except InputError as exc:
        assert str(exc) and "\n" not in str(exc)
