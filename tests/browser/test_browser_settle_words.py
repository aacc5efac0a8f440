"""Issue 43, item 6 (只记分 without a wrong number): the levels panel shows the levels as they stand
until the deal is settled (its kitty entered); the settlement names only what it applied (the dealer's
side that keeps the kitty multiplies nothing, so no multiplier is named); 认输 is one tap from either side."""

from __future__ import annotations

import json

import pytest

from .conftest import get_json
from .test_browser_table_flows import set_up_by_hand

pytestmark = pytest.mark.browser


def test_no_level_goes_up_before_the_kitty_and_a_kept_kitty_names_no_multiplier(page, server):
    names = ["老张", "小李", "阿王", "大刘"]
    page.goto(server.url)
    set_up_by_hand(page, names, profile="standard-2deck", decks="2")
    dealer = server.state()["state"]["record"]["deals"][0]["dealer"]
    page.locator("#points > summary").click()
    before = page.locator("#team-levels").inner_text()
    # the whole deal's last trick, won by the dealer with a pair: the dealer's side goes up (大光)
    page.locator("#points-last").click()
    page.locator('.points-unit[data-value="2"]').click()
    page.locator(f'.points-seat[data-value="{dealer}"]').click()
    with page.expect_response(lambda response: response.url.endswith("/api/points/trick")):
        page.locator('.points-add[data-points="0"]').click()
    page.locator("#kitty-wait").wait_for(state="visible")
    audit = server.state()["state"]["audit"]["deals"][0]
    assert audit["outcome"]["side"] == "dealer" and audit["outcome"]["levels"] > 0  # the rules know already ...
    assert page.locator("#team-levels").inner_text() == before  # ... the page waits for the kitty
    seat_levels = page.locator(".table-area .seat-level").all_inner_texts()
    assert seat_levels == ["2"] * 4
    page.locator("#kitty-points-form input[name=points]").fill("20")
    with page.expect_response(lambda response: response.url.endswith("/api/kitty")):
        page.locator("#kitty-points-form button[type=submit]").click()
    page.locator("#summary .kitty-line").wait_for()
    assert page.locator("#summary .kitty-line").inner_text() == "庄家保底：底分 20 不计入"
    after = audit["levels_after"][dealer]
    page.wait_for_function(f"document.querySelector('#team-levels').innerText.includes('{after}')")
    assert page.locator("#team-levels").inner_text() != before


def test_conceding_is_one_tap_from_either_side_and_the_record_of_the_players_changes_but_for_the_result(page, server):
    """认输 (issue 43, item 6): the defenders concede with one tap, no points agreed: the house rule settles the
    deal (the dealer's side up one level), no last trick is asked for nor drawn on the felt or the TV, no
    kitty is waited for, 战绩 credits nobody a 抠底, and the next deal is ready."""
    names = ["老张", "小李", "阿王", "大刘"]
    page.goto(server.url)
    set_up_by_hand(page, names, profile="standard-2deck", decks="2")
    dealer = server.state()["state"]["record"]["deals"][0]["dealer"]
    page.locator("#points > summary").click()
    page.locator(f'.points-seat[data-value="{(dealer + 1) % 4}"]').click()
    with page.expect_response(lambda response: response.url.endswith("/api/points/trick")):
        page.locator('.points-add[data-points="20"]').click()
    page.wait_for_function("document.querySelector('#trick-centre').dataset.trick === '0'")
    stats_before = get_json(server.url + "api/stats")["players"]
    rule = page.locator("#concede-rule").inner_text()
    assert "庄家认输：闲家算 80 分，庄家下台，闲家上台（不升级）" in rule and "闲家认输：闲家算 40 分，庄家升 1 级" in rule
    with page.expect_response(lambda response: response.url.endswith("/api/points/concede")) as answer:
        page.locator('#concede .concede-side[data-by="defenders"]').click()  # the one tap
    assert answer.value.ok, answer.value.text()
    page.locator("#summary .conceded-line").wait_for()
    assert page.locator("#summary .conceded-line").inner_text() == "闲家认输（按房规 40 分，不看最后一墩和底牌）"
    assert page.locator("#kitty-wait").is_hidden() and page.locator("#concede").is_hidden()
    assert page.locator("#summary .outcome").inner_text() == "庄家升 1 级"
    assert page.locator("#summary .kitty-line").count() == 0
    # the felt shows the one trick recorded, no made-up last one
    assert page.locator("#trick-centre").get_attribute("data-trick") == "0"
    assert server.state()["state"]["record"]["deals"][0]["tricks"] == [{"winner": (dealer + 1) % 4, "points": 20}]
    tv = get_json(server.url + "api/tv")
    assert "认输" in json.dumps(tv, ensure_ascii=False) and "第 2 墩" not in json.dumps(tv, ensure_ascii=False)
    # 战绩: a deal more for each, the dealer's side its level; no 抠底 for anybody
    stats_after = {row["name"]: row for row in get_json(server.url + "api/stats")["players"]}
    before = {row["name"]: row for row in stats_before}
    dealer_side = {names[dealer], names[(dealer + 2) % 4]}
    for name in names:
        row, was = stats_after[name], before.get(name, {"deals": 0, "kitty": 0, "levels_won": 0, "took_over": 0})
        assert row["kitty"] == was["kitty"] == 0
        assert row["deals"] == was["deals"] + 1 and row["took_over"] == was["took_over"]
        assert row["levels_won"] == was["levels_won"] + (1 if name in dealer_side else 0)
    # the next deal is ready
    with page.expect_response(lambda response: response.url.endswith("/api/next-deal")):
        page.locator("#next-deal-form button[type=submit]").click()
    second = server.state()["state"]["record"]["deals"]
    assert len(second) == 2 and second[1]["dealer"] == (dealer + 2) % 4
