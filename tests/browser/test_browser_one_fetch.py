"""A change made from the page is drawn from its answer (issue 44, item 2): the POST's answer is the
table's state after the change, so the page fetches nothing more, not even when the change's own
events arrive; a change made elsewhere is still fetched once its events arrive."""

from __future__ import annotations

import pytest

from .test_browser_table_flows import set_up_by_hand
from .test_browser_table_undo import manual_play, wait_record

pytestmark = pytest.mark.browser


def test_a_play_from_a_phone_costs_one_request_and_a_play_from_elsewhere_one_fetch(page, server):
    page.goto(server.url)
    set_up_by_hand(page, ["甲", "乙", "丙", "丁"])
    dealer = server.state()["state"]["record"]["deals"][0]["dealer"]
    page.locator("#manual > summary").click()
    manual_play(page, dealer, "AH")
    page.wait_for_function("window.Tuolaji.state && window.Tuolaji.state.version")
    page.evaluate("window.heard = 0; window.Tuolaji.source.addEventListener('message', () => { window.heard += 1; })")
    asked: list[tuple[str, str]] = []
    page.on("request", lambda request: asked.append((request.method, request.url.split("/api/", 1)[1]))
            if "/api/" in request.url and not request.url.endswith("/api/events") else None)
    manual_play(page, (dealer + 1) % 4, "3H")
    page.wait_for_function("document.querySelectorAll('#felt .card').length === 2")
    page.wait_for_function("window.heard >= 1")  # the play's own events have arrived ...
    page.wait_for_timeout(400)  # ... and a fetch they would start (60 ms later) would have begun
    assert [a for a in asked if a[1] in ("play", "state")] == [("POST", "play")], asked
    # a play from another device: its events bring the state, fetched once
    server.post("api/play", {"seat": (dealer + 2) % 4, "cards": ["5H"]})
    page.wait_for_function("document.querySelectorAll('#felt .card').length === 3")
    page.wait_for_timeout(400)
    assert [a for a in asked if a[1] in ("play", "state")] == [("POST", "play"), ("GET", "state")], asked
    wait_record(page, server, lambda r: len(r["deals"][0]["tricks"][0]["plays"]) == 3, "three plays")
