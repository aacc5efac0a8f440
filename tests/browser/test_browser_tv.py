"""The table's TV (/tv) in Chromium: the big score, whose turn, the felt and the last trick one tap
away, and the calls read aloud (the browser's speech synthesis, stubbed to record what it is asked
to say) in the page's language, only once 朗读 is on and only what happens after the page opened."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.test_tv import KITTY, PLAYS, tv_record
from tuolaji.web.store import DATABASE_NAME, SessionStore

from .conftest import guide_screenshot, post_json, start_serve, stop_serve

SPEECH_STUB = """
window.__spoken = [];
Object.defineProperty(window, "speechSynthesis", {configurable: true, value: {
  speak(utterance) { window.__spoken.push({text: utterance.text, lang: utterance.lang}); },
  cancel() {}, getVoices() { return []; }}});
if (!window.SpeechSynthesisUtterance) window.SpeechSynthesisUtterance = function (text) { this.text = text; };
"""


@pytest.fixture()
def tv_server(tmp_path, browser_context) -> Iterator[tuple[str, Any]]:
    data = tmp_path / "data"
    SessionStore(data / DATABASE_NAME).create(tv_record(), name="电视", source="page")
    process, url = start_serve("--resume", "--data", str(data))
    try:
        yield url, data
    finally:
        stop_serve(process)


def spoken(page: Any) -> list[dict[str, str]]:
    return page.evaluate("window.__spoken")


def wait_spoken(page: Any, n: int) -> list[dict[str, str]]:
    page.wait_for_function(f"window.__spoken.length >= {n}")
    return spoken(page)


def play(url: str, data: Any, seat: int, cards: list[str]) -> None:
    post_json(url + "/api/play", data, {"seat": seat, "cards": cards})


def test_the_tv_shows_the_table_and_reads_the_calls_aloud(page: Any, tv_server, tmp_path) -> None:
    url, data = tv_server
    page.add_init_script(SPEECH_STUB)
    page.goto(url + "/tv")
    page.wait_for_function("document.getElementById('tv-turn').textContent === '老李'")
    assert page.locator("#tv-points").inner_text() == "0"
    assert page.locator("#tv-felt .tv-play").count() == 1 and page.locator("#tv-last-toggle").is_disabled()
    assert page.locator("#tv-speech").get_attribute("aria-pressed") == "false"

    # 朗读 off: the call is shown, not said
    seat, cards = PLAYS[0]
    play(url, data, seat, cards)
    page.wait_for_function("document.getElementById('tv-call').textContent === '老李 未跟花色'")
    assert spoken(page) == []
    assert "老李" in page.locator("#tv-alerts").inner_text()

    page.locator("#tv-speech").click()
    assert page.locator("#tv-speech").inner_text() == "朗读：开"
    for seat, cards in PLAYS[1:3]:
        play(url, data, seat, cards)
    assert wait_spoken(page, 1) == [{"text": "毙了", "lang": "zh-CN"}]
    page.wait_for_function("document.getElementById('tv-turn').textContent === '老李'")  # he won it: he leads
    assert page.locator("#tv-points").inner_text() == "5"

    seat, cards = PLAYS[3]
    play(url, data, seat, cards)
    page.wait_for_function("document.querySelectorAll('#tv-felt .tv-play').length === 1")
    page.locator("#tv-last-toggle").click()  # the last trick, one tap away
    assert page.locator("#tv-last").is_visible()
    assert page.locator("#tv-last .tv-play.winner .tv-name").inner_text() == "老李"
    assert page.locator("#tv-last-toggle").inner_text() == "收起上一墩"
    for seat, cards in PLAYS[4:]:
        play(url, data, seat, cards)
    page.wait_for_function("document.getElementById('tv-turn').textContent === '本局结束'")

    # in English: the page's words and the calls
    page.locator("#lang-toggle").click()
    assert page.locator("#tv-speech").inner_text() == "Read aloud: on"
    assert page.locator("#tv-last-toggle").inner_text() == "Hide the last trick"
    post_json(url + "/api/kitty", data, {"cards": KITTY})
    said = wait_spoken(page, 3)
    assert said[1:] == [{"text": "Kitty won ×2", "lang": "en-GB"},
                        {"text": "The defenders take over and go up 1", "lang": "en-GB"}]
    page.wait_for_function("document.getElementById('tv-points').textContent === '125'")
    assert page.locator("#tv-score-label").inner_text() == "Total (settled)"
    assert page.locator("#tv-levels").inner_text().startswith("Levels: ")
    assert page.locator("#tv-threshold").inner_text() == "80 to take over"
    assert page.locator("#tv-deal").inner_text().startswith("Deal 1 · Level 2 · Trump")
    assert "take over" in page.locator("#tv-outcome").inner_text()
    page.locator("#tv-again").click()
    assert spoken(page)[-1]["text"] == "The defenders take over and go up 1"

    page.locator("#lang-toggle").click()
    assert page.locator("#tv-score-label").inner_text() == "合计（已结算）"
    assert page.locator("#tv-call").inner_text() == "闲家上台，升 1 级"
    assert page.locator("#tv-levels").inner_text().startswith("级数：")
    assert "闲家上台" in page.locator("#tv-outcome").inner_text()
    guide_screenshot(page, tmp_path, "guide-tv.png")

    page.locator("#tv-speech").click()  # off again, and kept so at the next visit
    page.reload()
    page.wait_for_function("document.getElementById('tv-points').textContent === '125'")
    assert page.locator("#tv-speech").get_attribute("aria-pressed") == "false"
    assert spoken(page) == []  # the game's past is not read out when the page opens


def test_the_tv_and_the_table_say_what_the_defenders_still_need_who_defends_and_who_deals_next(
        page: Any, tv_server) -> None:
    """还差 N 分上台 and 剩余分 on the TV and the table while the deal is played (issue 43, item 7),
    the defenders by name, and once the deal is settled the next dealer instead."""
    url, data = tv_server
    page.goto(url + "/tv")
    page.wait_for_function("document.getElementById('tv-turn').textContent === '老李'")
    # a screen on the wall: no site menu, no keyboard hints, no read-only note; the language stays
    assert page.locator("nav[aria-label=main] a").count() == 0 and page.locator("footer").count() == 0
    assert page.locator("#readonly-note").count() == 0 and page.locator("#lang-toggle").is_visible()
    assert page.locator("#tv-to-take-over").inner_text() == "还差 80 分上台"
    assert page.locator("#tv-points-out").inner_text() == "剩余 200 分"
    assert page.locator("#tv-defenders").inner_text() == "闲家：老李 老赵"
    assert page.locator("#tv-next-dealer").inner_text() == ""
    for seat, cards in PLAYS[:3]:  # 老李 trumps the ♥ trick: 5 points to the defenders
        play(url, data, seat, cards)
    page.wait_for_function("document.getElementById('tv-points').textContent === '5'")
    assert page.locator("#tv-to-take-over").inner_text() == "还差 75 分上台"
    assert page.locator("#tv-points-out").inner_text() == "剩余 195 分"

    table = page.context.new_page()
    table.goto(url + "/")
    table.wait_for_function("document.getElementById('to-take-over').textContent === '还差 75 分上台'")
    assert table.locator("#points-out").inner_text() == "剩余 195 分"
    table.locator("#lang-toggle").click()
    assert table.locator("#to-take-over").inner_text() == "75 more to take over"
    assert table.locator("#points-out").inner_text() == "195 points still out"

    for seat, cards in PLAYS[3:]:
        play(url, data, seat, cards)
    page.wait_for_function("document.getElementById('tv-turn').textContent === '本局结束'")
    assert page.locator("#tv-to-take-over").inner_text() == "" and page.locator("#tv-points-out").inner_text() == ""
    post_json(url + "/api/kitty", data, {"cards": KITTY})  # 抠底 ×2: the defenders take over
    page.wait_for_function("document.getElementById('tv-next-dealer').textContent !== ''")
    assert page.locator("#tv-next-dealer").inner_text() == "下一副 老李 坐庄"
    table.wait_for_function("document.getElementById('defender-points').dataset.shows === 'total'")
    assert table.locator("#to-take-over").inner_text() == "" and table.locator("#points-out").inner_text() == ""
    table.close()
