"""Issue #16, the flows a table needs (6, 8, 10, 11): undo and redo, the consequences of a
violation, a result row per deal, manual entry by clicking cards. Each test drives the page in
Chromium as a scorer would and checks what the page and the stored record then hold."""

from __future__ import annotations

import json

import pytest

from tuolaji import scorer

from .conftest import get_json
from .records import played_deal_record, revoke_record, with_next_deal
from .test_browser_table_flows import set_up_by_hand

pytestmark = pytest.mark.browser


def wait_record(page, server, check, what: str, tries: int = 60) -> dict:
    """The stored record once ``check(record)`` holds (the page's change has been saved)."""
    for _ in range(tries):
        record = server.state()["state"]["record"]
        if check(record):
            return record
        page.wait_for_timeout(100)
    raise AssertionError(f"the record never showed {what}: {json.dumps(record, ensure_ascii=False)[:600]}")


def wait_text(page, selector: str, text: str) -> None:
    """Wait until the element's text holds ``text`` (the page redraws after the server answered)."""
    page.wait_for_function("([s, t]) => document.querySelector(s) && document.querySelector(s).textContent.includes(t)",
                           arg=[selector, text])


def manual_play(page, seat: int, cards: str, attempt: str = "") -> None:
    manual = page.locator("#manual-form")
    manual.locator("select[name=seat]").select_option(str(seat))
    manual.locator("input[name=attempt]").fill(attempt)
    manual.locator("input[name=cards]").fill(cards)
    with page.expect_response(lambda response: response.url.endswith("/api/play")) as answer:
        manual.locator("button[type=submit]").click()
    assert answer.value.ok, answer.value.text()
    # recorded: the form clears, and a play typed next is for the table as it now is
    page.wait_for_function("document.querySelector('#manual-form input[name=cards]').value === ''")


def click_and_wait(page, selector: str, path: str) -> None:
    with page.expect_response(lambda response: response.url.endswith(path)) as answer:
        page.locator(selector).click()
    assert answer.value.ok, answer.value.text()
    page.wait_for_function("!document.querySelector('#error') || document.querySelector('#error').hidden")


# --- 6. undo and redo --------------------------------------------------------------------------------


def test_a_play_for_the_wrong_seat_is_undone_and_bids_settings_kitty_too(page, server):
    page.goto(server.url)
    set_up_by_hand(page, ["甲", "乙", "丙", "丁"])
    assert page.locator("#undo").is_disabled() and page.locator("#redo").is_disabled()
    start = server.state()["state"]["record"]["deals"][0]
    # a change of the deal's settings, taken back and put back
    page.locator("#deal-settings > summary").click()
    page.locator("#deal-form select[name=trump]").select_option("D")
    click_and_wait(page, "#apply-deal", "/api/deal")
    wait_text(page, "#undo", "本局设置")
    click_and_wait(page, "#undo", "/api/undo")
    assert wait_record(page, server, lambda r: r["deals"][0]["trump"] == start["trump"], "the setting undone")[
        "deals"][0] == start
    click_and_wait(page, "#redo", "/api/redo")
    wait_record(page, server, lambda r: r["deals"][0]["trump"] == "D", "the setting redone")
    click_and_wait(page, "#undo", "/api/undo")
    page.locator("#deal-settings > summary").click()
    # a bid, taken back and put back
    page.locator("#bids > summary").click()
    page.locator('.seat-pick[data-seat="1"]').click()
    click_and_wait(page, '.bid-card[data-cards="2H"]', "/api/bid")
    wait_text(page, "#undo", "亮主")
    click_and_wait(page, "#undo", "/api/undo")
    deal = wait_record(page, server, lambda r: not r["deals"][0].get("bids"), "the bid undone")["deals"][0]
    assert deal == start
    wait_text(page, "#redo", "亮主")
    click_and_wait(page, "#redo", "/api/redo")
    deal = wait_record(page, server, lambda r: r["deals"][0].get("bids"), "the bid redone")["deals"][0]
    assert deal["bids"] == [{"seat": 1, "cards": ["2H"]}] and deal["trump"] == "H" and deal["dealer"] == 1
    # the lead entered for the wrong seat: the trick would be blocked for good; undo, enter it for the right one
    page.locator("#manual > summary").click()
    manual_play(page, 0, "AS")
    wait_text(page, "#undo", "出牌")
    click_and_wait(page, "#undo", "/api/undo")
    wait_record(page, server, lambda r: r["deals"][0]["tricks"] == [], "the play undone")
    page.wait_for_function("document.querySelectorAll('#felt .seat .card').length === 0")
    manual_play(page, 1, "AS")
    record = wait_record(page, server, lambda r: r["deals"][0]["tricks"], "the play")
    assert record["deals"][0]["tricks"] == [{"leader": 1, "plays": [["AS"]]}]
    page.locator('#felt .seat[data-seat="1"] .card').wait_for()
    page.wait_for_function("document.querySelector('#redo').disabled")  # a new change: nothing left to redo
    # the history keeps every change, the undone ones too, and the audit still reads the record
    record = get_json(server.url + f"api/sessions/{server.state()['session']['id']}/export")
    assert "history" not in server.state()["state"]["record"]  # the page gets only what its buttons say
    changes = [entry["change"] for entry in record["history"]]
    assert changes == ["setting", "undo", "redo", "undo", "bid", "undo", "redo", "play", "undo", "play"]
    assert record["history"][8]["of"] == 7
    scorer.audit_record(record)
    # the kitty: recorded, undone, redone
    page.locator("#kitty-form input[name=cards]").fill("3C 4C 6C 7C 8C 9C JC QC")
    click_and_wait(page, "#kitty-form button[type=submit]", "/api/kitty")
    click_and_wait(page, "#undo", "/api/undo")
    wait_record(page, server, lambda r: "kitty" not in r["deals"][0], "the kitty undone")
    click_and_wait(page, "#redo", "/api/redo")
    record = wait_record(page, server, lambda r: r["deals"][0].get("kitty"), "the kitty redone")
    assert record["deals"][0]["kitty"] == ["3C", "4C", "6C", "7C", "8C", "9C", "JC", "QC"]


# --- 8. the consequences of violations ----------------------------------------------------------


def test_a_proven_revoke_gets_the_rules_penalty_or_the_organisers_own(page, server):
    record, (trick, seat) = revoke_record()
    session = server.open_record(record)
    page.goto(server.url)
    item = page.locator('#summary .ruling-item[data-rule="must-follow-suit"]')
    item.wait_for()
    before = scorer.audit_record(record)["deals"][0]
    assert page.locator("#total-points").inner_text() == str(before["total_defender_points"])
    offer = scorer.ruling_offers(record)[0]
    assert f"{offer['points']}" in item.locator(".ruling-offer").inner_text()
    with page.expect_response(lambda response: response.url.endswith("/api/ruling")):
        item.locator(".ruling-offer").click()
    item.locator(".ruled").wait_for()
    saved = get_json(server.url + f"api/sessions/{session}/export")
    assert saved["deals"][0]["rulings"][0] | {"by": "table"} == offer | {"by": "table"}
    after = scorer.audit_record(saved)["deals"][0]
    dealer_side = seat in scorer.dealer_side_seats(saved, 0)
    assert after["total_defender_points"] == before["total_defender_points"] + (1 if dealer_side else -1) * offer["points"]
    page.wait_for_function(f"document.querySelector('#total-points').textContent === '{after['total_defender_points']}'")
    assert str(after["penalty_points"]) in page.locator("#summary .penalty-line").inner_text()
    # taken back, then the organiser's own: one level
    with page.expect_response(lambda response: response.url.endswith("/api/ruling/remove")):
        item.locator(".ruling-remove").click()
    item.locator(".ruling-level").wait_for()
    with page.expect_response(lambda response: response.url.endswith("/api/ruling")):
        item.locator(".ruling-level").click()
    item.locator(".ruled").wait_for()
    saved = get_json(server.url + f"api/sessions/{session}/export")
    assert [(r["seat"], r["trick"], r.get("levels")) for r in saved["deals"][0]["rulings"]] == [(seat, trick, 1)]
    audit = scorer.audit_record(saved)["deals"][0]
    assert audit["levels_after"] != before["levels_after"]  # the offender's side lost a level
    words = page.locator("#summary .level-change").inner_text()
    for side_level in set(audit["levels_after"]):
        assert side_level in words
    # and the result row says so
    assert "罚降 1 级" in page.locator('#history .deal-result[data-deal="0"]').inner_text()


def test_the_organiser_sets_points_of_his_own(page, server):
    record, (trick, seat) = revoke_record()
    session = server.open_record(record)
    page.goto(server.url)
    item = page.locator('#summary .ruling-item[data-rule="must-follow-suit"]')
    item.locator(".ruling-points").fill("25")
    with page.expect_response(lambda response: response.url.endswith("/api/ruling")):
        item.locator(".ruling-own").click()
    item.locator(".ruled").wait_for()
    assert "25" in item.locator(".ruled").inner_text()
    saved = get_json(server.url + f"api/sessions/{session}/export")
    assert saved["deals"][0]["rulings"][0]["points"] == 25
    audit = scorer.audit_record(saved)["deals"][0]
    assert abs(audit["penalty_points"]) == 25
    page.wait_for_function(f"document.querySelector('#total-points').textContent === '{audit['total_defender_points']}'")


# --- 10. deal results stay visible ------------------------------------------------------------------


def test_each_deal_keeps_a_result_row_in_the_history_and_the_sessions_list(page, server):
    record = with_next_deal(played_deal_record())
    session = server.open_record(record, name="周五")
    audit = scorer.audit_record(record)["deals"][0]
    page.goto(server.url)
    row = page.locator('#history .deal-result[data-deal="0"]')
    row.wait_for()
    words = row.inner_text()
    assert f"闲家 {audit['defender_points']} 分" in words and f"合计 {audit['total_defender_points']}" in words
    if audit["kitty_won_by"] == "defenders":
        assert f"×{audit['kitty_multiplier']}" in words
    assert row.locator(".card").count() == len(record["deals"][0]["kitty"])
    before, after = record["start_levels"], audit["levels_after"]
    assert f"{before[0]}→{after[0]}" in words and f"{before[1]}→{after[1]}" in words
    assert row.get_attribute("data-total") == str(audit["total_defender_points"])
    # the deal row stays when the history of deal 1 is folded
    page.locator('#history details[data-deal="0"] > summary').click()
    assert row.is_visible()
    # 牌局记录: the current levels, the winner (none yet) and each deal's result
    page.goto(server.url + "sessions")
    entry = page.locator(f'.session-results[data-session="{session}"]')
    assert f"合计 {audit['total_defender_points']}" in entry.inner_text()
    levels = entry.locator(".levels-now").inner_text()
    assert after[0] in levels and after[1] in levels
    assert "未分胜负" in entry.locator(".winner").inner_text()
    page.locator("#lang-toggle").click()
    assert f"total {audit['total_defender_points']}" in entry.inner_text()
    assert "not decided" in entry.locator(".winner").inner_text()
    page.locator("#lang-toggle").click()


# --- 11. manual entry by clicking cards, and typed Chinese names -----------------------------------


def test_plays_are_entered_by_clicking_cards_or_typing_chinese_names(page, server):
    page.goto(server.url)
    set_up_by_hand(page, ["甲", "乙", "丙", "丁"])
    page.locator("#manual > summary").click()
    manual = page.locator("#manual-form")
    manual.locator("select[name=seat]").select_option("0")
    grid = page.locator("#manual-grid")
    grid.locator('.pick-add[data-card="AS"]').click()
    grid.locator('.pick-add[data-card="AS"]').click()
    assert manual.locator("input[name=cards]").input_value() == "AS AS"
    assert page.locator("#manual-chosen .card").count() == 2
    grid.locator('.pick-add[data-card="KS"]').click()
    page.locator("#manual-back").click()  # a card clicked by mistake is taken off again
    assert manual.locator("input[name=cards]").input_value() == "AS AS"
    with page.expect_response(lambda response: response.url.endswith("/api/play")):
        manual.locator("button[type=submit]").click()
    page.locator('#felt .seat[data-seat="0"] .card').nth(1).wait_for()
    # typed Chinese names, with or without spaces
    for seat, typed in ((1, "黑桃K 黑桃3"), (2, "方块Q梅花2"), (3, "大王、小王")):
        manual_play(page, seat, typed)
    record = wait_record(page, server, lambda r: len(r["deals"][0]["tricks"][0]["plays"]) == 4, "four plays")
    assert record["deals"][0]["tricks"][0]["plays"] == [["AS", "AS"], ["KS", "3S"], ["QD", "2C"], ["BJ", "SJ"]]
    # a name that is no card: the reason next to the field, nothing recorded
    manual.locator("select[name=seat]").select_option("0")
    manual.locator("input[name=cards]").fill("红桃1")
    manual.locator("button[type=submit]").click()
    error = page.locator("#manual-error")
    error.wait_for(state="visible")
    assert "红桃1" in error.inner_text() and "黑桃A" in error.inner_text()
    assert manual.locator("input[name=cards]").get_attribute("aria-invalid") == "true"
    assert page.locator("#error").is_hidden()
    assert len(server.state()["state"]["record"]["deals"][0]["tricks"]) == 1
    page.locator("#lang-toggle").click()
    assert "is not a card" in error.inner_text()
    page.locator("#lang-toggle").click()
    manual.locator("input[name=cards]").fill("")
    # the correction picker reads typed Chinese names too, and says what it cannot read
    page.locator('#felt .seat[data-seat="1"] button.card').last.click()  # ♠3 (the cards overlap)
    page.locator("#picker").wait_for(state="visible")
    page.locator("#picker-input").fill("zz")
    page.locator("#picker-input").press("Enter")
    page.locator("#picker-error").wait_for(state="visible")
    assert page.locator("#picker").is_visible()
    page.locator("#picker-input").fill("红桃10")
    page.locator("#picker-input").press("Enter")
    page.locator("#picker").wait_for(state="hidden")
    record = wait_record(page, server, lambda r: r["deals"][0]["tricks"][0]["plays"][1][1] == "10H", "the correction")
    assert record["deals"][0]["tricks"][0]["corrections"] == [
        {"seat": 1, "index": 1, "old": "3S", "new": "10H", "source": "page"}]
