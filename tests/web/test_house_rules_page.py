"""Issue 30, item 6: the house rules people use on the page's 房规 — 2 常主, 必打级, 最多升几级, 勾J, 保放 —
offered by the set-up form (each value worded in both languages), saved in the record's ``rules`` and
said in the rules' words (web/rules_words.py)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tuolaji import scorer
from tuolaji.web import i18n
from tuolaji.web.rules_words import HOUSE_CHOICES, HOUSE_OPTIONS, HouseRuleError, house_rules, rules_words

NEW = ("twos_trump", "must_defend", "max_levels", "jack_hook", "reinforce")


def test_the_set_up_form_offers_each_house_rule_with_its_words(client: Any) -> None:
    html = client.get("/").get_data(as_text=True)
    for name in NEW:
        select = re.search(r'<select name="house" data-option="' + name + r'">(.*?)</select>', html, re.S)
        assert select, name
        values = re.findall(r'<option value="([^"]*)"', select.group(1))
        assert values == ["", *HOUSE_OPTIONS[name]]
    for name, values in HOUSE_OPTIONS.items():
        assert i18n.STRINGS["house." + name]["zh"] and i18n.STRINGS["house." + name]["en"]
        for value in values:
            assert i18n.STRINGS["house.value." + value]["zh"] and i18n.STRINGS["house.value." + value]["en"], value
    # a value's word is that option's own (no two options share a form value with different meanings)
    tokens = [value for values in HOUSE_OPTIONS.values() for value in values]
    penalties = ("none", "points", "level-points", "level")
    assert len([t for t in tokens if t not in penalties]) == len({t for t in tokens if t not in penalties})


def test_every_value_the_form_offers_is_one_the_rules_core_takes() -> None:
    for name, choices in HOUSE_CHOICES.items():
        for value in choices:
            options = scorer.resolve_rules({"profile": "standard-2deck", **house_rules({name: value})})
            assert getattr(options, name) == (tuple(choices[value]) if isinstance(choices[value], list)
                                              else choices[value]), (name, value)


def test_house_rules_refuse_what_the_form_does_not_offer() -> None:
    for name, value in (("max_levels", "max-9"), ("max_levels", True), ("jack_hook", "hook-5"),
                        ("must_defend", ["J"]), ("twos_trump", "yes"), ("reinforce", 1)):
        with pytest.raises(HouseRuleError) as caught:
            house_rules({name: value})
        assert caught.value.key == "house.value" and caught.value.params["option"] == name
    # the option's own value is taken as the form's value stands for it
    assert house_rules({"max_levels": 3, "must_defend": ["A"], "reinforce": True}) == {
        "max_levels": 3, "must_defend": ["A"], "reinforce": True}


def test_a_game_set_up_with_house_rules_saves_them_in_the_record(client: Any) -> None:
    body = {"players": ["东", "南", "西", "北"], "profile": "standard-2deck", "trump": "NT", "dealer": 0,
            "options": {"twos_trump": "twos-trump", "must_defend": "must-5-10-K", "max_levels": "max-2",
                        "jack_hook": "hook-2", "reinforce": "reinforce"}}
    response = client.post("/api/setup", json=body)
    assert response.status_code == 201, response.get_json()
    record = client.get("/api/state").get_json()["state"]["record"]
    assert record["rules"] == {"profile": "standard-2deck", "twos_trump": True, "must_defend": ["5", "10", "K"],
                               "max_levels": 2, "jack_hook": "2", "reinforce": True}
    options = scorer.resolve_rules(record["rules"])
    assert options.twos_trump and options.must_defend == ("5", "10", "K") and options.max_levels == 2
    assert options.jack_hook == "2" and options.reinforce


def test_the_rules_words_say_each_house_rule_in_both_languages(client: Any) -> None:
    house = {"twos_trump": "twos-trump", "must_defend": "must-5-10-K", "max_levels": "max-1", "jack_hook": "hook-2",
             "reinforce": "reinforce"}
    answer = client.get("/api/rules?profile=standard-2deck&players=4&options=" + json.dumps(house)).get_json()
    zh, en = answer["zh"], answer["en"]
    for words in ("2 常主", "必打：5、10、K", "一局最多升 1 级", "勾J：打 J 时闲家用 J 抠底，庄家方回到 2", "保放"):
        assert words in zh, words
    for words in ("2s are always trumps", "must be played: 5, 10, K", "at most 1 level a deal",
                  "send the dealer's side back to 2", "keeps the bid on a tie"):
        assert words in en, words
    plain = rules_words("standard-2deck", 4)["zh"]
    assert "常主" not in plain and "勾J" not in plain and "最多升" not in plain and "保放" not in plain
