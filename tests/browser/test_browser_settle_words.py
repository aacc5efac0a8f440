"""Issue 43, item 6 (只记分 without a wrong number): the levels panel shows the levels as they stand
until the deal is settled (its kitty entered), and the settlement names only what it applied: the
dealer's side that keeps the kitty multiplies nothing, so no multiplier is named."""

from __future__ import annotations

import pytest

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
