"""Issue 30, item 6: two of the house rules people use — 勾J (``jack_hook``) and 最多升几级 (``max_levels``) —
set in the set-up form's 房规, said in the rules' words, saved in the record's ``rules``; a deal played
under them (imported with the game's record) is settled as they say: the defenders win the last trick
with a pair of Js at level J and go up at most 2 levels, the dealer's side goes back to 2."""

from __future__ import annotations

import copy

import pytest

from tuolaji import scorer

from .test_browser_table_undo import wait_text

pytestmark = pytest.mark.browser

NAMES = ["老张", "小李", "阿王", "大刘"]


def test_house_rules_set_in_the_form_decide_the_settlement(page, server):
    page.goto(server.url)
    form = page.locator("#setup-form")
    form.wait_for(state="visible")
    for seat, name in enumerate(NAMES):
        page.locator("#player-fields input[name=player]").nth(seat).fill(name)
    form.locator('select[name=level][data-seat="0"]').select_option("J")  # the dealer's side plays J
    form.locator("select[name=dealer]").select_option("0")
    page.locator("#house-rules > summary").click()
    hook = page.locator('#house-rules select[data-option="jack_hook"]')
    assert hook.locator("option").all_inner_texts() == ["按规则", "闲家用 J 抠底，庄家方回到 2"]
    hook.select_option("hook-2")
    page.locator('#house-rules select[data-option="max_levels"]').select_option("max-2")
    wait_text(page, "#profile-about", "勾J：打 J 时闲家用 J 抠底，庄家方回到 2")
    wait_text(page, "#profile-about", "一局最多升 2 级")
    with page.expect_response(lambda response: response.url.endswith("/api/setup")) as answer:
        form.locator("button[type=submit]").click()
    assert answer.value.ok
    page.wait_for_function("document.querySelector('#felt').textContent.includes('大刘')")
    record = server.state()["state"]["record"]
    assert record["rules"] == {"profile": "standard-2deck", "jack_hook": "2", "max_levels": 2}
    assert record["start_levels"] == ["J", "2", "J", "2"] and record["deals"][0]["level"] == "J"

    # the deal: 老张 leads ♠33, 小李 (a defender) wins it with ♥J♥J and the kitty's 80 points ×4
    played = copy.deepcopy(record)
    played["deals"][0].update({"trump": "H", "complete": True,
                               "tricks": [{"leader": 0, "plays": [["3S", "3S"], ["JH", "JH"], ["4S", "5S"],
                                                                  ["6S", "7S"]]}],
                               "kitty": ["KS", "KS", "KH", "KH", "10S", "10S", "10H", "10H"]})
    audit = scorer.audit_record(played)["deals"][0]
    assert audit["total_defender_points"] == 325 and audit["outcome"] == {"side": "defenders", "levels": 2}
    assert audit["levels_after"] == ["2", "4", "2", "4"] and audit["jack_hook"] == "2"
    plain = scorer.audit_record({**played, "rules": "standard-2deck"})["deals"][0]
    assert plain["levels_after"] == ["J", "8", "J", "8"]  # without the house rules: +6, and the dealer's side stays on J
    server.open_record(played, name="勾J")
    page.goto(server.url)
    page.wait_for_function("document.querySelector('#total-points') && "
                           "document.querySelector('#total-points').textContent === '325'")
    change = page.locator("#summary .level-change li").all_inner_texts()
    assert change == ["老张·阿王: J → 2", "小李·大刘: 2 → 4"], change
    assert "闲家上台升 2 级" in page.locator("#summary .outcome").inner_text()
    page.locator("#rules-about > summary").click()
    facts = page.locator("#rules-about").inner_text()
    assert "勾J：打 J 时闲家用 J 抠底，庄家方回到 2" in facts and "一局最多升 2 级" in facts
    page.locator("#lang-toggle").click()
    wait_text(page, "#rules-about", "at most 2 levels a deal")
    page.locator("#lang-toggle").click()


def test_play_again_keeps_the_house_rules(page, server):
    rules = {"profile": "standard-2deck", "twos_trump": True, "max_levels": 3, "must_defend": ["A"]}
    for seed in range(300):
        record = scorer.random_record("standard-2deck", seed, hand_size=6, level="A", rules=rules)
        audit = scorer.audit_record(record)["deals"][0]
        if audit["game_winner"] == "dealer" and not audit["violations"]:
            break
    else:
        pytest.fail("no deal won the game")
    server.open_record(record, name="决赛")
    page.goto(server.url)
    page.locator("#summary .game-winner").wait_for()
    page.locator("#play-again").click()
    page.wait_for_function("document.querySelector('#session-name').textContent.includes('再来一局')")
    again = server.state()["state"]["record"]
    assert again["rules"] == rules and again["start_levels"] == ["2"] * 4
