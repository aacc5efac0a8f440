"""The card tracker (记牌器): off by default at the players' table, on in the spectator view
(``/watch``, read-only) and in replay; its figures are the rules core's."""

from __future__ import annotations

import json
import time
import urllib.request

import pytest

from tuolaji.scorer.tracker import track
from tuolaji.web.replay import record_at

from .conftest import guide_screenshot

pytestmark = pytest.mark.browser


def api_state(url: str) -> dict:
    with urllib.request.urlopen(url + "api/state", timeout=10) as response:
        return json.loads(response.read())


def figures(page) -> tuple[str, str]:
    return page.locator("#tracker-trumps b").inner_text(), page.locator("#tracker-points b").inner_text()


def test_tracker_off_by_default_then_switched_on(page, served):
    page.goto(served.url)
    page.wait_for_selector("#felt .seat .card")
    switch = page.locator("#tracker-switch")
    assert not switch.is_checked()
    assert page.locator("#tracker-body").is_hidden()
    assert "纪律" in page.locator("#tracker-off").inner_text()
    switch.check()
    page.locator("#tracker-trumps").wait_for()
    # wait for the whole deal, then the figures are those of the record
    page.locator("#summary").wait_for(state="visible", timeout=30_000)
    expected = track(served.record)
    page.wait_for_function(f"document.querySelector('#tracker-points b').textContent === '{expected['points']['left']}'")
    assert figures(page) == (str(expected["trumps"]["left"]), str(expected["points"]["left"]))
    bj = page.locator("#tracker-keys li[data-card='BJ']")
    assert bj.get_attribute("data-left") == str(expected["left"]["BJ"])
    assert ("大王 ×" + str(expected["left"]["BJ"])) == bj.inner_text()
    # the revoke: a void the seat showed, then contradicted by a later play
    trick, seat = served.revoke
    shown = page.locator(f"#tracker-voids li.contradicted[data-seat='{seat}']")
    assert shown.count() >= 1
    assert served.record["players"][seat] in shown.first.inner_text() and "又出了" in shown.first.inner_text()
    # the switch is remembered
    page.reload()
    page.locator("#tracker-trumps").wait_for()
    assert page.locator("#tracker-switch").is_checked()
    page.locator("#tracker-switch").uncheck()
    assert page.locator("#tracker-body").is_hidden()
    # the referee's screen: the tracker on, whatever the players' switch says
    page.goto(served.url + "referee")
    page.locator("#tracker-trumps").wait_for()
    assert page.locator("#tracker-switch").count() == 0
    assert figures(page) == (str(expected["trumps"]["left"]), str(expected["points"]["left"]))


def test_spectator_view_has_the_tracker_and_no_controls(page, served, tmp_path):
    page.goto(served.url + "watch")
    page.locator("#tracker-trumps").wait_for()  # on without a switch
    assert page.locator("#tracker-switch").count() == 0
    assert "观战页面只能看" in page.locator("#watch-note").inner_text()
    assert page.locator("#readonly-note").is_visible()
    assert page.locator(".controls").is_hidden() and page.locator("#setup-form").is_hidden()
    assert page.locator("#felt-controls").is_hidden() and page.locator("#undo").is_hidden()
    assert page.locator('meta[name="tuolaji-token"]').count() == 0
    expected = track(served.record)
    page.wait_for_function(f"document.querySelector('#tracker-points b').textContent === '{expected['points']['left']}'")
    page.set_viewport_size({"width": 1280, "height": 900})
    guide_screenshot(page, tmp_path, "guide-tracker.png", ".side-panel")
    page.set_viewport_size({"width": 1440, "height": 1000})
    # the page's own write, tried from the spectator view, is refused
    status = page.evaluate("""async () => (await fetch('/api/play', {method: 'POST', headers: {'Content-Type': 'application/json'},
                                body: JSON.stringify({seat: 0, cards: ['AS']})})).status""")
    assert status == 403


def plays(record: dict) -> int:
    return sum(len(trick["plays"]) for deal in record["deals"] for trick in deal.get("tricks", []))


def test_replay_shows_the_tracker_at_each_step(page, served):
    deadline = time.monotonic() + 30
    while plays(api_state(served.url)["state"]["record"]) < plays(served.record) and time.monotonic() < deadline:
        time.sleep(0.3)  # the deal is replayed into the session; the replay needs all of it
    session = api_state(served.url)["session"]["id"]
    page.goto(served.url + f"replay/{session}#5")
    page.locator("#tracker-trumps").wait_for()
    expected = track(record_at(served.record, 5))
    page.wait_for_function(f"document.querySelector('#tracker-points b').textContent === '{expected['points']['left']}'"
                           f" && document.querySelector('#tracker-trumps b').textContent === '{expected['trumps']['left']}'")
    later = next(step for step in range(6, 25)
                 if track(record_at(served.record, step))["suits"] != expected["suits"])
    for _ in range(later - 5):
        page.click("#replay-next")
    want = track(record_at(served.record, later))
    cells = " + ',' + ".join(f"document.querySelector('#tracker-suits td[data-suit={s}]').textContent"
                             for s in ("S", "H", "C", "D", "trump"))
    shown = ",".join(str(want["suits"][s]["left"]) for s in ("S", "H", "C", "D", "trump"))
    page.wait_for_function(f"{cells} === '{shown}'")
    assert figures(page) == (str(want["trumps"]["left"]), str(want["points"]["left"]))
    assert f"{later}/" in page.locator("#step-label").inner_text().replace(" ", "")
