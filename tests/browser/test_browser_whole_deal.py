"""Issue #16's whole-deal test: a whole 2-deck deal and the start of the next, entered by hand in
the page as a scorer at the table would (bids, a bid taken back by undo, a lead entered for the
wrong seat and undone, a failed throw, a revoke and its penalty, the kitty); the settlement's
numbers are those of ``tuolaji audit`` run on the saved record."""

from __future__ import annotations

import pytest

from .conftest import export_and_audit
from .records import whole_deal_record
from .test_browser_table_flows import set_up_by_hand
from .test_browser_table_undo import click_and_wait, manual_play, wait_record, wait_text

pytestmark = pytest.mark.browser

CHINESE_SUITS = {"S": "黑桃", "H": "红桃", "C": "梅花", "D": "方块"}


def chinese(card: str) -> str:
    """A card as a Chinese player names it: 黑桃A, 红桃10, 大王."""
    if card in ("SJ", "BJ"):
        return {"SJ": "小王", "BJ": "大王"}[card]
    return CHINESE_SUITS[card[-1]] + card[:-1]


def test_a_whole_deal_and_the_next_entered_by_hand_settle_as_the_audit_says(page, server, tmp_path):
    record, throw, (revoke_trick, revoke_seat) = whole_deal_record()
    deal = record["deals"][0]
    names = ["老张", "小李", "阿王", "大刘"]
    dealer, trump = deal["dealer"], deal["trump"]
    page.goto(server.url)
    set_up_by_hand(page, names)
    session = server.state()["session"]["id"]

    # bids: the dealer shows a level card; another seat's overcall is entered, then undone
    page.locator("#bids > summary").click()
    page.locator(f'.seat-pick[data-seat="{dealer}"]').click()
    click_and_wait(page, f'.bid-card[data-cards="2{trump}"]', "/api/bid")
    other = (dealer + 1) % 4
    other_suit = next(s for s in "SHCD" if s != trump)
    page.locator(f'.seat-pick[data-seat="{other}"]').click()
    click_and_wait(page, f'.bid-card[data-cards="2{other_suit} 2{other_suit}"]', "/api/bid")
    wait_text(page, "#deal-facts", {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}[other_suit])
    click_and_wait(page, "#undo", "/api/undo")
    stored = wait_record(page, server, lambda r: len(r["deals"][0].get("bids", [])) == 1, "the overcall undone")
    assert stored["deals"][0]["bids"] == deal["bids"]
    assert (stored["deals"][0]["trump"], stored["deals"][0]["dealer"], stored["deals"][0]["level"]) == (trump, dealer, "2")

    # every trick, seat by seat: one by clicking cards, one in Chinese names, the rest typed
    page.locator("#manual > summary").click()
    manual = page.locator("#manual-form")
    for t, trick in enumerate(deal["tricks"]):
        if t == 0:  # the lead entered for the wrong seat first: undone, then entered right
            manual_play(page, (trick["leader"] + 1) % 4, " ".join(trick["plays"][0]))
            click_and_wait(page, "#undo", "/api/undo")
            wait_record(page, server, lambda r: not r["deals"][0]["tricks"], "the wrong lead undone")
        for position, cards in enumerate(trick["plays"]):
            seat = (trick["leader"] + position) % 4
            attempt = " ".join(trick["attempt"]) if position == 0 and trick.get("attempt") else ""
            if t == 0:
                manual.locator("select[name=seat]").select_option(str(seat))
                for card in cards:
                    page.locator(f'#manual-grid .pick-add[data-card="{card}"]').click()
                with page.expect_response(lambda response: response.url.endswith("/api/play")) as answer:
                    manual.locator("button[type=submit]").click()
                assert answer.value.ok
                page.wait_for_function("document.querySelector('#manual-form input[name=cards]').value === ''")
            elif t == 1:
                manual_play(page, seat, " ".join(chinese(card) for card in cards))
            else:
                manual_play(page, seat, " ".join(cards), attempt)
    stored = wait_record(page, server, lambda r: len(r["deals"][0]["tricks"]) == len(deal["tricks"])
                         and len(r["deals"][0]["tricks"][-1]["plays"]) == 4, "every play")
    for t, trick in enumerate(deal["tricks"]):
        assert stored["deals"][0]["tricks"][t] == trick, t
    assert stored["deals"][0]["tricks"][throw]["attempt"] == deal["tricks"][throw]["attempt"]

    # the deal is played: the settlement waits for the kitty
    page.locator("#kitty-wait").wait_for(state="visible")
    page.locator("#kitty-wait-form input[name=cards]").fill(" ".join(deal["kitty"]))
    click_and_wait(page, "#kitty-wait-form button[type=submit]", "/api/kitty")
    page.locator("#total-points").wait_for()

    # the revoke is listed with the rules' penalty, applied with one click
    item = page.locator('#summary .ruling-item[data-rule="must-follow-suit"]')
    item.wait_for()
    assert names[revoke_seat] in item.inner_text() and f"第 {revoke_trick + 1} 墩" in item.inner_text()
    with page.expect_response(lambda response: response.url.endswith("/api/ruling")):
        item.locator(".ruling-offer").click()
    item.locator(".ruled").wait_for()

    # the saved record, audited by the command line, gives the settlement's numbers
    saved, audited = export_and_audit(server, tmp_path, session)
    audit = audited["deals"][0]
    assert [v["rule"] for v in audit["violations"]] == ["must-follow-suit"]
    assert [p.get("ruling") for p in audit["penalties"]] == [0] and audit["penalty_points"] != 0
    page.wait_for_function(f"document.querySelector('#total-points').textContent === '{audit['total_defender_points']}'")
    summary = page.locator("#summary-body").inner_text()
    assert f"{audit['kitty_points']}" in page.locator("#summary .kitty-line").inner_text()
    # the multiplier is named where it applied: the defenders won the kitty (kept, it multiplies nothing; issue 43)
    assert (f"×{audit['kitty_multiplier']}" in page.locator("#summary .kitty-line").inner_text()) == (
        audit["kitty_won_by"] == "defenders")
    assert str(audit["penalty_points"]) in page.locator("#summary .penalty-line").inner_text()
    assert names[audit["next_dealer"]] in page.locator("#summary .next-dealer").inner_text()
    change = page.locator("#summary .level-change").inner_text()
    assert f"→ {audit['levels_after'][0]}" in change and f"→ {audit['levels_after'][1]}" in change
    assert str(audit["outcome"]["levels"]) in summary or audit["outcome"]["levels"] == 0
    row = page.locator('#history .deal-result[data-deal="0"]')
    assert row.get_attribute("data-total") == str(audit["total_defender_points"])
    assert f"×{audit['kitty_multiplier']}" in row.inner_text()
    # the history keeps the undone changes
    changes = [entry["change"] for entry in saved["history"]]
    assert changes[:4] == ["bid", "bid", "undo", "play"] and changes[4] == "undo" and changes[-1] == "ruling"
    assert changes.count("play") == sum(len(trick["plays"]) for trick in deal["tricks"]) + 1

    # the next deal: its dealer and level as the audit says, and its first lead
    page.locator("#next-deal-form button[type=submit]").click()
    page.wait_for_function("document.querySelector('#deal-heading').textContent.includes('2')")
    state = server.state()["state"]
    second = state["record"]["deals"][1]
    assert second["dealer"] == audit["next_dealer"] and second["level"] == audit["levels_after"][audit["next_dealer"]]
    leader = state["expected_seat"]
    assert leader == audit["next_dealer"]
    manual_play(page, leader, "黑桃A")
    stored = wait_record(page, server, lambda r: r["deals"][1]["tricks"], "the next deal's lead")
    assert stored["deals"][1]["tricks"] == [{"leader": leader, "plays": [["AS"]]}]
    assert page.locator('#history .deal-result[data-deal="0"]').get_attribute("data-total") == str(
        audit["total_defender_points"])  # the first deal's result stays
