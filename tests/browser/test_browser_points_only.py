"""Issue 30, items 1 and 2 (只记分, 认输): a whole 3-deck deal kept by points alone in under 40 clicks,
and a deal that mixes cards and points and is conceded in one tap with the points agreed (issue 43);
each settlement on the page equals ``tuolaji audit --json`` run on the saved record."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import ROOT, export_and_audit, guide_screenshot
from .test_browser_table_flows import set_up_by_hand
from .test_browser_table_undo import manual_play, wait_record

pytestmark = pytest.mark.browser


class Clicks:
    """The page's clicks, counted: a scorer's taps at the table (typing a number is not a click)."""

    def __init__(self, page: Any) -> None:
        self.page, self.count = page, 0

    def __call__(self, selector: str, answer: str | None = None) -> None:
        self.count += 1
        if answer is None:
            self.page.locator(selector).click()
            return
        with self.page.expect_response(lambda response: response.url.endswith(answer)) as response:
            self.page.locator(selector).click()
        assert response.value.ok, response.value.text()


def audited(server: Any, tmp_path: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The saved record (the session's export) and ``tuolaji audit --json`` of it."""
    return export_and_audit(server, tmp_path)


def assert_settlement_is_the_audits(page: Any, audit: dict[str, Any], names: list[str]) -> None:
    """The page's settlement of the deal (total, kitty, outcome, levels, next dealer, results line)."""
    page.wait_for_function(f"document.querySelector('#total-points') && "
                           f"document.querySelector('#total-points').textContent === '{audit['total_defender_points']}'")
    kitty = page.locator("#summary .kitty-line").inner_text()
    assert str(audit["kitty_points"]) in kitty
    if audit["kitty_won_by"] == "defenders":
        assert str(audit["kitty_multiplier"]) in kitty
    change = page.locator("#summary .level-change").inner_text()
    for seat in range(len(names)):
        assert f"→ {audit['levels_after'][seat]}" in change
    assert names[audit["next_dealer"]] in page.locator("#summary .next-dealer").inner_text()
    row = page.locator('#history .deal-result[data-deal="0"]')
    assert row.get_attribute("data-total") == str(audit["total_defender_points"])


def test_a_whole_3deck_deal_by_points_in_under_40_clicks(page, server, tmp_path):
    names = ["老张", "小李", "阿王", "大刘"]
    page.goto(server.url)
    clicks = Clicks(page)
    set_up_by_hand(page, names, profile="guangzhou-3deck", decks="3")
    clicks.count += 1  # the set-up's 开始
    dealer = server.state()["state"]["record"]["deals"][0]["dealer"]
    partner, left, right = (dealer + 2) % 4, (dealer + 1) % 4, (dealer + 3) % 4
    clicks("#points > summary")
    tricks = [(dealer, 0), (left, 20), (left, 10), (dealer, 25), (right, 30), (partner, 0), (right, 15), (dealer, 40),
              (left, 5), (partner, 10), (right, 20), (dealer, 5)]
    for number, (winner, points) in enumerate(tricks):
        clicks(f'.points-seat[data-value="{winner}"]')
        clicks(f'.points-add[data-points="{points}"]', "/api/points/trick")
        page.wait_for_function(f"document.querySelector('#trick-centre').dataset.trick === '{number}'")
    # the last trick: won by a pair of trumps, the kitty's points then
    clicks("#points-last")
    clicks('.points-unit[data-value="2"]')
    clicks(f'.points-seat[data-value="{left}"]')
    page.locator('.points-seat.picked').wait_for()
    guide_screenshot(page, tmp_path, "guide-points.png", ".table-area")
    clicks('.points-add[data-points="10"]', "/api/points/trick")
    page.locator("#kitty-wait").wait_for(state="visible")
    page.locator("#kitty-points-form input[name=points]").fill("25")
    clicks("#kitty-points-form button[type=submit]", "/api/kitty")
    assert clicks.count < 40, clicks.count
    print(f"the 3-deck deal by points: {clicks.count} clicks")

    saved, out = audited(server, tmp_path)
    deal = saved["deals"][0]
    assert deal["tricks"][:len(tricks)] == [{"winner": w, "points": p} for w, p in tricks]
    assert deal["tricks"][-1] == {"winner": left, "points": 10, "unit": 2} and deal["complete"] is True
    assert deal["kitty_points"] == 25
    audit = out["deals"][0]
    assert audit["defender_points"] == 110 and audit["kitty_won_by"] == "defenders" and audit["violations"] == []
    assert_settlement_is_the_audits(page, audit, names)
    # the history shows the tricks by their points; the next deal starts as the audit says
    assert page.locator("#history td.points-only").count() == len(tricks) + 1
    with page.expect_response(lambda response: response.url.endswith("/api/next-deal")):
        page.locator("#next-deal-form button[type=submit]").click()
    second = wait_record(page, server, lambda r: len(r["deals"]) == 2, "the next deal")["deals"][1]
    assert (second["dealer"], second["level"]) == (audit["next_dealer"], audit["levels_after"][audit["next_dealer"]])


def test_cards_and_points_in_one_deal_then_conceded_in_one_tap(page, server, tmp_path):
    names = ["甲", "乙", "丙", "丁"]
    page.goto(server.url)
    set_up_by_hand(page, names)
    dealer = server.state()["state"]["record"]["deals"][0]["dealer"]
    clicks = Clicks(page)
    # the first trick by its cards
    clicks("#manual > summary")
    for position, card in enumerate(["AH", "3H", "5H", "10H"]):
        manual_play(page, (dealer + position) % 4, card)
    wait_record(page, server, lambda r: len(r["deals"][0]["tricks"][0]["plays"]) == 4, "the first trick")
    # the camera's battery is out: two tricks by points
    clicks("#points > summary")
    left = (dealer + 1) % 4
    for winner, points in [(left, 25), ((dealer + 2) % 4, 10)]:
        clicks(f'.points-seat[data-value="{winner}"]')
        clicks(f'.points-add[data-points="{points}"]', "/api/points/trick")
    # back to cards: the winner of the last trick leads
    stored = wait_record(page, server, lambda r: len(r["deals"][0]["tricks"]) == 3, "the tricks by points")
    assert server.state()["state"]["expected_seat"] == (dealer + 2) % 4
    for position, card in enumerate(["KS", "KS", "QS", "JS"]):
        manual_play(page, (dealer + 2 + position) % 4, card)
    stored = wait_record(page, server, lambda r: len(r["deals"][0]["tricks"]) == 4
                         and len(r["deals"][0]["tricks"][3]["plays"]) == 4, "the fourth trick")
    assert stored["deals"][0]["tricks"][1:3] == [{"winner": left, "points": 25}, {"winner": (dealer + 2) % 4, "points": 10}]
    # 认输: the dealer's side concedes at 90 points agreed, one tap (the points typed are no tap)
    page.locator("#concede-points").fill("90")
    clicks('#concede .concede-side[data-by="dealer"]', "/api/points/concede")
    saved, out = audited(server, tmp_path)
    deal = saved["deals"][0]
    assert deal["conceded"] == {"by": "dealer", "points": 90} and deal["tricks"] == stored["deals"][0]["tricks"]
    audit = out["deals"][0]
    assert audit["total_defender_points"] == 90 and audit["kitty_won_by"] is None
    page.wait_for_function("document.querySelector('#total-points') && document.querySelector('#total-points').textContent === '90'")
    assert page.locator("#summary .conceded-line").inner_text() == "庄家认输（商定 90 分）"
    assert "认输" in page.locator("#history").inner_text()
    # undo takes the concession back, redo puts it back
    with page.expect_response(lambda response: response.url.endswith("/api/undo")):
        page.locator("#undo").click()
    wait_record(page, server, lambda r: "conceded" not in r["deals"][0] and len(r["deals"][0]["tricks"]) == 4, "undone")
    page.locator("#summary").wait_for(state="hidden")
    with page.expect_response(lambda response: response.url.endswith("/api/redo")):
        page.locator("#redo").click()
    page.wait_for_function("document.querySelector('#total-points') && document.querySelector('#total-points').textContent === '90'")
    assert clicks.count < 40, clicks.count
    print(f"cards and points in one deal, conceded: {clicks.count} clicks besides the 8 plays typed")


def test_the_replay_the_spectator_view_and_the_tv_draw_a_game_kept_by_points(page, server):
    record = json.loads((ROOT / "examples" / "points-only-2deck.json").read_text(encoding="utf-8"))
    session = server.open_record(record)
    for path in ("", "watch", "tv"):
        page.goto(server.url + path)
        page.wait_for_load_state("networkidle")
    page.goto(server.url)
    page.locator('#history .deal-result[data-deal="1"]').wait_for(state="attached")
    assert page.locator("#history td.points-only").count() > 0
    page.goto(server.url + f"replay/{session}#3")
    page.wait_for_function("document.querySelector('#trick-centre') && document.querySelector('#trick-centre').dataset.trick === '2'")
    assert "只记分" in page.locator("#trick-centre").inner_text()
    page.goto("about:blank")
    page.goto(server.url + f"replay/{session}#66")  # the end: the last deal's settlement
    page.locator("#summary").wait_for(state="visible")


def test_a_last_trick_not_won_with_trumps_counts_the_kitty_once_under_guangzhou(page, server, tmp_path):
    """三副牌·广州: the kitty counts ×1 when the last trick is not won with trumps (issue 43, item 6). The
    points form asks, for the rules that say so, and the settlement is the audit's."""
    names = ["老张", "小李", "阿王", "大刘"]
    page.goto(server.url)
    set_up_by_hand(page, names, profile="guangzhou-3deck", decks="3")
    dealer = server.state()["state"]["record"]["deals"][0]["dealer"]
    left = (dealer + 1) % 4
    page.locator("#points > summary").click()
    page.locator("#points-last").click()
    trump = page.locator("#points-trump")
    assert trump.is_visible() and trump.is_checked() and "主牌" in page.locator("#points-trump-box").inner_text()
    trump.uncheck()  # won by a plain-suit pair
    page.locator('.points-unit[data-value="2"]').click()
    page.locator(f'.points-seat[data-value="{left}"]').click()
    with page.expect_response(lambda response: response.url.endswith("/api/points/trick")):
        page.locator('.points-add[data-points="10"]').click()
    page.locator("#kitty-wait").wait_for(state="visible")
    page.locator("#kitty-points-form input[name=points]").fill("25")
    with page.expect_response(lambda response: response.url.endswith("/api/kitty")):
        page.locator("#kitty-points-form button[type=submit]").click()
    saved, out = audited(server, tmp_path)
    assert saved["deals"][0]["tricks"][-1] == {"winner": left, "points": 10, "unit": 2, "trump": False}
    audit = out["deals"][0]
    assert audit["kitty_won_by"] == "defenders" and audit["kitty_multiplier"] == 1
    assert_settlement_is_the_audits(page, audit, names)
    assert "×1" in page.locator("#summary .kitty-line").inner_text()


def test_the_rules_that_count_the_kitty_whatever_wins_it_do_not_ask(page, server):
    page.goto(server.url)
    set_up_by_hand(page, ["老张", "小李", "阿王", "大刘"], profile="titanic-3deck", decks="3")
    page.locator("#points > summary").click()
    page.locator("#points-last").click()
    assert page.locator("#points-trump-box").is_hidden() and page.locator("#points-deal-trump-box").is_hidden()


def test_two_phones_on_one_trick_the_second_is_refused_saying_what_was_recorded(page, other_device, server):
    """Both phones begin trick 1; the first records 小李 20 points, the second (its entry begun before
    the first's arrived) is refused with what was recorded, and the trick is recorded once (issue 43, item 6)."""
    names = ["老张", "小李", "阿王", "大刘"]
    page.goto(server.url)
    set_up_by_hand(page, names, profile="standard-2deck", decks="2")
    other_device.goto(server.url)
    for phone in (page, other_device):
        phone.wait_for_function("document.querySelector('#points-seats .points-seat') !== null")
        if not phone.locator("#points").evaluate("el => el.open"):
            phone.locator("#points > summary").click()
    other_device.locator('.points-seat[data-value="1"]').click()  # the second phone begins the trick ...
    page.locator('.points-seat[data-value="1"]').click()  # ... and the first records it
    with page.expect_response(lambda response: response.url.endswith("/api/points/trick")):
        page.locator('.points-add[data-points="20"]').click()
    with other_device.expect_response(lambda response: response.url.endswith("/api/points/trick")) as answer:
        other_device.locator('.points-add[data-points="20"]').click()
    assert answer.value.status == 409
    error = other_device.locator("#points-error")
    error.wait_for(state="visible")
    assert error.inner_text() == "第 1 墩刚有人记了：小李 20 分，这次没有记"
    assert server.state()["state"]["record"]["deals"][0]["tricks"] == [{"winner": 1, "points": 20}]


def test_a_phone_entering_points_sees_the_score_and_undo_names_the_points_entry(page, server):
    """Issue 43, item 8: on a phone the score panel is below the fold, so the entry box shows the
    defenders' points and what they still need as each trick goes in; undo says 撤销：只记分."""
    names = ["老张", "小李", "阿王", "大刘"]
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(server.url)
    set_up_by_hand(page, names, profile="standard-2deck", decks="2")
    dealer = server.state()["state"]["record"]["deals"][0]["dealer"]
    left = (dealer + 1) % 4
    page.locator("#points > summary").click()
    assert page.locator("#points-score").inner_text() == "闲家 0 分 · 还差 80 分上台"
    page.locator(f'.points-seat[data-value="{left}"]').click()
    with page.expect_response(lambda response: response.url.endswith("/api/points/trick")):
        page.locator('.points-add[data-points="25"]').click()
    page.wait_for_function("document.getElementById('points-score').textContent === '闲家 25 分 · 还差 55 分上台'")
    assert page.locator("#points-score").is_visible()
    assert page.locator("#undo").text_content().strip() == "撤销：只记分"
    page.locator("#undo").click()
    page.wait_for_function("document.getElementById('points-score').textContent === '闲家 0 分 · 还差 80 分上台'")
    assert page.locator("#redo").text_content().strip() == "重做：只记分"
