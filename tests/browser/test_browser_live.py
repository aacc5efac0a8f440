"""The live table page in headless Chromium while ``tuolaji serve`` replays a short deal.

The tests run in file order against one server: the first watches the deal being played
(trick, scores, the revoke's alert), the later ones correct a card, switch language,
reload, use a phone-sized screen, the replay viewer and the sessions page.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest

from tuolaji import scorer

from .conftest import write_headers

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]


def api_state(url: str) -> dict:
    with urllib.request.urlopen(url + "api/state", timeout=10) as response:
        return json.loads(response.read())


def text_of(page, selector: str) -> str:
    return page.locator(selector).first.inner_text().strip()


def history_card(page, deal: int, trick: int, seat: int):
    return page.locator(f'#trick-{deal}-{trick} td[data-seat="{seat}"] button.card').first


def test_trick_and_scores_update_live_and_the_revoke_is_alerted(page, served):
    page.goto(served.url)
    page.wait_for_selector("#felt .seat .card")
    first_trick = int(page.locator("#trick-centre").get_attribute("data-trick"))
    # The page only reloads its state on server-sent events: a later trick and points prove they flow.
    page.wait_for_function(f"Number(document.querySelector('#trick-centre').dataset.trick) > {first_trick}")
    page.wait_for_function("!['0', '–'].includes(document.querySelector('#defender-points').textContent)")
    assert int(text_of(page, "#defender-points")) > 0
    trick, seat = served.revoke
    name = served.record["players"][seat]
    # the record knows the hands: the seat to play is told what it must play (the same seat the felt marks)
    page.wait_for_function("document.querySelector('#expected').classList.contains('has-hint') && "
                           "document.querySelector('#expected').textContent.includes('：')")
    hint = page.evaluate("() => [document.querySelector('#expected').textContent, "
                         "document.querySelector('#expected').dataset.seat, "
                         "(document.querySelector('#felt .seat.is-next') || {dataset: {}}).dataset.seat]")
    assert hint[1] == hint[2] and hint[0].startswith(served.record["players"][int(hint[1])] + " 该出："), hint
    alert = page.locator('#alerts li[data-rule="must-follow-suit"]')
    alert.wait_for()
    assert "未跟花色" in alert.inner_text()
    assert f"第 {trick + 1} 墩：{name} 未跟 " in alert.inner_text() and "但手里有" in alert.inner_text()
    assert page.locator(f'#trick-0-{trick} td[data-seat="{seat}"]').get_attribute("class").endswith("illegal")
    page.locator("#summary").wait_for(state="visible", timeout=30_000)
    page.locator("#summary .summary-kitty .card").first.wait_for()  # the kitty is turned up after the last trick
    # once the deal is played, the evidence is the later trick that shows the card
    page.wait_for_function("document.querySelector('#alerts li[data-rule=\"must-follow-suit\"] .alert-detail')"
                           ".textContent.endsWith('墩打出）')")
    final = api_state(served.url)["state"]["audit"]["deals"][0]
    assert text_of(page, "#total-points") == str(final["total_defender_points"])
    assert page.locator("#summary .summary-kitty .card").count() == len(served.record["deals"][0]["kitty"])
    assert page.locator(".alert.proven").count() == 1
    seats_with_cards = page.locator("#felt .seat .card").count()
    assert seats_with_cards == sum(len(play) for play in served.record["deals"][0]["tricks"][-1]["plays"])


def test_an_unsettled_card_is_confirmed_with_one_click(page, served):
    page.goto(served.url)
    page.locator("#summary").wait_for(state="visible")
    leader = served.record["deals"][0]["tricks"][served.unsure]["leader"]
    assert page.locator(f'#trick-0-{served.unsure} td[data-seat="{leader}"] .card.unconfirmed').count() == 1
    item = page.locator("#pending .pending-item")
    assert item.count() == 1 and f"第 {served.unsure + 1} 墩" in item.inner_text()
    item.locator(".confirm-btn").click()
    page.locator("#pending li.none").wait_for()
    assert page.locator(".card.unconfirmed").count() == 0
    trick = api_state(served.url)["state"]["record"]["deals"][0]["tricks"][served.unsure]
    assert "unconfirmed" not in trick and trick["corrections"][0]["source"] == "page-confirm"


def test_a_correction_changes_the_record_and_the_score(page, served):
    fix = served.fix
    page.goto(served.url)
    page.locator("#summary").wait_for(state="visible")
    total_before = int(text_of(page, "#total-points"))
    history_card(page, fix["deal"], fix["trick"], fix["seat"]).click()
    dialog = page.locator("#picker")
    dialog.wait_for(state="visible")
    assert fix["old"][:-1] in text_of(page, "#picker-title")
    page.locator(f'#picker .pick[data-card="{fix["new"]}"]').click()
    page.wait_for_function(f"document.querySelector('#total-points').textContent === '{total_before - fix['points']}'")
    card = history_card(page, fix["deal"], fix["trick"], fix["seat"])
    assert card.get_attribute("data-card") == fix["new"] and "corrected" in card.get_attribute("class")
    trick = api_state(served.url)["state"]["record"]["deals"][0]["tricks"][fix["trick"]]
    assert trick["corrections"][-1] == {"seat": fix["seat"], "index": 0, "old": fix["old"], "new": fix["new"],
                                        "source": "page"}


def test_keyboard_only_correction_puts_the_card_back(page, served):
    fix = served.fix
    page.goto(served.url)
    page.locator("#summary").wait_for(state="visible")
    total = int(text_of(page, "#total-points"))
    history_card(page, fix["deal"], fix["trick"], fix["seat"]).focus()
    page.keyboard.press("Enter")
    page.locator("#picker").wait_for(state="visible")
    page.keyboard.press("Escape")
    page.locator("#picker").wait_for(state="hidden")
    history_card(page, fix["deal"], fix["trick"], fix["seat"]).focus()
    page.keyboard.press("Enter")
    page.locator("#picker-input").focus()
    page.keyboard.type(fix["old"].lower())
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.querySelector('#total-points').textContent === '{total + fix['points']}'")
    corrections = api_state(served.url)["state"]["record"]["deals"][0]["tricks"][fix["trick"]]["corrections"]
    assert [c["new"] for c in corrections] == [fix["new"], fix["old"]]


def test_language_toggle_switches_every_word_and_is_remembered(page, served):
    page.goto(served.url)
    page.locator("#summary").wait_for(state="visible")
    page.wait_for_function("document.querySelector('#defender-points').dataset.shows === 'total'")  # the kitty recorded
    # the deal is settled: the score box shows the total, and says so (issue 30, item 7 a)
    assert text_of(page, "#score-heading") == "闲家总分（含底牌、罚分）" and page.locator("html").get_attribute("lang") == "zh-CN"
    page.locator("#lang-toggle").click()
    assert text_of(page, "#score-heading") == "Defenders' total (kitty and penalties included)"
    assert page.locator("html").get_attribute("lang") == "en"
    alert = text_of(page, '#alerts li[data-rule="must-follow-suit"]')
    trick, seat = served.revoke
    assert "did not follow suit" in alert and f"Trick {trick + 1}: {served.record['players'][seat]} did not follow " in alert
    assert "played in trick" in alert and "墩" not in alert
    assert text_of(page, "#deal-heading") == "Deal 1"
    page.reload()
    page.locator("#summary").wait_for(state="visible")
    page.wait_for_function("document.querySelector('#defender-points').dataset.shows === 'total'")  # the kitty recorded
    assert text_of(page, "#score-heading") == "Defenders' total (kitty and penalties included)" and text_of(page, "#deal-heading") == "Deal 1"
    page.locator("body").press("l")  # the keyboard shortcut
    assert text_of(page, "#score-heading") == "闲家总分（含底牌、罚分）" and text_of(page, "#deal-heading") == "第 1 局"


def test_reload_resumes_the_session(page, served):
    page.goto(served.url)
    page.locator("#summary").wait_for(state="visible")
    before = {
        "session": text_of(page, "#session-name"),
        "rows": page.locator(".history-table tbody tr").count(),
        "total": text_of(page, "#total-points"),
        "alerts": page.locator("#alerts li.alert").count(),
    }
    page.reload()
    page.locator("#summary").wait_for(state="visible")
    after = {
        "session": text_of(page, "#session-name"),
        "rows": page.locator(".history-table tbody tr").count(),
        "total": text_of(page, "#total-points"),
        "alerts": page.locator("#alerts li.alert").count(),
    }
    assert after == before and before["rows"] == len(served.record["deals"][0]["tricks"])


def test_levels_chart_and_hand_summary(page, served):
    page.goto(served.url)
    page.locator("#summary").wait_for(state="visible")
    deal_audit = api_state(served.url)["state"]["audit"]["deals"][0]
    assert page.locator("#levels-chart svg polyline").count() == 2
    assert page.locator("#levels-chart svg circle").count() == 4
    next_dealer = served.record["players"][deal_audit["next_dealer"]]
    assert next_dealer in text_of(page, "#summary .next-dealer")
    assert page.locator("#next-deal-form").is_visible()


def test_readable_on_a_phone(page, served):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(served.url)
    page.locator("#summary").wait_for(state="visible")
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0
    felt = page.locator("#felt").bounding_box()
    centre = page.locator("#trick-centre").bounding_box()
    for seat in range(4):
        box = page.locator(f'#felt .seat[data-seat="{seat}"]').bounding_box()
        assert felt["x"] - 1 <= box["x"] and box["x"] + box["width"] <= felt["x"] + felt["width"] + 1
        apart = (box["x"] + box["width"] <= centre["x"] or centre["x"] + centre["width"] <= box["x"]
                 or box["y"] + box["height"] <= centre["y"] or centre["y"] + centre["height"] <= box["y"])
        assert apart, f"seat {seat} covers the trick's box"
    assert page.locator("#lang-toggle").is_visible()


def test_replay_viewer_timeline(page, served):
    session_id = api_state(served.url)["session"]["id"]
    page.goto(f"{served.url}replay/{session_id}")
    page.wait_for_selector("#felt .seat")
    total = sum(len(t["plays"]) for t in served.record["deals"][0]["tricks"])
    assert page.locator("#timeline").get_attribute("max") == str(total)
    page.locator("body").press("Home")
    page.wait_for_function("document.querySelector('#timeline').value === '0'")
    assert page.locator("#felt .card").count() == 0
    for _ in range(5):
        page.locator("body").press("ArrowRight")
    page.wait_for_function("document.querySelector('#timeline').value === '5'")
    page.wait_for_function("document.querySelector('#trick-centre').dataset.trick === '1'")
    assert page.locator("#felt .card").count() == 1
    assert page.locator("#summary").is_hidden()
    page.locator("#timeline").fill(str(total))
    page.locator("#summary").wait_for(state="visible")
    assert page.locator('#alerts li[data-rule="must-follow-suit"]').count() == 1


def test_sessions_page_lists_and_exports(page, served):
    page.goto(served.url + "sessions")
    row = page.locator("table.sessions tbody tr").first
    assert "deal.json" in row.inner_text()
    with page.expect_download() as download_info:
        row.locator("a[download][href$='/export']").click()  # the record (beside it: the .zip with pictures)
    exported = json.loads(Path(download_info.value.path()).read_text(encoding="utf-8"))
    assert exported["deals"][0]["tricks"][served.fix["trick"]]["corrections"]


def test_next_deal_starts_with_the_next_dealer_at_his_new_level(page, served):
    page.goto(served.url)
    page.locator("#summary").wait_for(state="visible")
    deal_audit = api_state(served.url)["state"]["audit"]["deals"][0]
    dealer = deal_audit["next_dealer"]
    page.locator("#next-deal-form select[name=trump]").select_option("D")
    page.locator("#next-deal-form button[type=submit]").click()
    page.wait_for_function("document.querySelector('#deal-heading').textContent === '第 2 局'")
    facts = page.locator("#deal-facts").inner_text()
    assert served.record["players"][dealer] in facts and "♦" in facts
    assert deal_audit["levels_after"][dealer] in facts
    assert page.locator("#summary").is_hidden() and page.locator(".deal-history").count() == 2
    assert "等待首家出牌" in page.locator("#trick-centre").inner_text()


def test_a_won_game_is_announced_in_the_page_language(page, served):
    record = scorer.random_record("standard-2deck", 1, hand_size=4, level="A")
    record["start_levels"] = ["A"] * 4
    request = urllib.request.Request(served.url + "api/sessions/import", method="POST",
                                     data=json.dumps({"name": "决胜局", "record": record}).encode(),
                                     headers=write_headers(served.data))
    with urllib.request.urlopen(request, timeout=10) as response:
        session_id = json.loads(response.read())["id"]
    page.goto(f"{served.url}replay/{session_id}")
    page.locator("#summary .game-winner").wait_for()
    dealer = record["deals"][0]["dealer"]
    winners = f'{record["players"][dealer]}、{record["players"][(dealer + 2) % 4]}'
    assert text_of(page, "#summary .game-winner") == f"牌局结束：{winners} 打过 A，赢了！"
    page.locator("#lang-toggle").click()
    assert text_of(page, "#summary .game-winner") == f"Game over: {winners} passed A and won!"
    page.locator("#lang-toggle").click()


def test_a_violation_resting_on_an_unsure_card_is_to_check_until_the_card_is_confirmed(page, server):
    """A revoke proven only by a card the camera was unsure of is shown as 待核实 (never 已证实),
    naming the card to confirm; one click on 确认 proves it."""
    record = {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": ["老张", "老李", "阿梅", "小王"],
              "deals": [{"level": "2", "trump": "S", "dealer": 0, "tricks": [
                  {"leader": 0, "plays": [["AH"], ["3D"], ["4H"], ["6H"]]},
                  {"leader": 0, "plays": [["7D"], ["5H"], ["8D"], ["9D"]], "unconfirmed": [[1, 0]]}]}]}
    server.open_record(record)
    page.goto(server.url)
    alert = page.locator('.alerts .alert[data-rule="must-follow-suit"]')
    alert.wait_for()
    assert "to-check" in alert.get_attribute("class") and "proven" not in alert.get_attribute("class")
    assert "待核实" in alert.inner_text() and "第 2 墩 老李 的 ♥5" in alert.inner_text()
    assert page.locator(".alert.proven").count() == 0
    state = server.state()["state"]["audit"]["deals"][0]
    assert state["violations"][0]["proven"] is False and state["violations"][0]["to_check"] == [[1, 1, 0]]
    page.locator("#pending .pending-item .confirm-btn").click()
    page.locator('.alerts .alert.proven[data-rule="must-follow-suit"]').wait_for()
    assert "已证实" in page.locator('.alerts .alert[data-rule="must-follow-suit"]').inner_text()
    assert page.locator(".alert.to-check").count() == 0
