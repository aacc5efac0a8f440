"""The README's main command: ``tuolaji serve`` on the bundled demo video, watched in Chromium.

The video goes through the real camera pipeline (motion, settling, tracking, turn order) at
four times real-time speed; the cards are read from the demo's ground-truth frames file so the
test does not depend on a trained model. With ``TUOLAJI_UPDATE_SCREENSHOT=1`` it also
refreshes docs/screenshot.png, the README's picture of the page.
"""

from __future__ import annotations

import json
import os
import shutil
import urllib.request
from pathlib import Path

import pytest

from .conftest import start_serve, stop_serve

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "vision" / "demo"
SCREENSHOT = ROOT / "docs" / "screenshot.png"


@pytest.fixture(scope="module")
def demo_server(tmp_path_factory, browser_context):
    if not (DEMO / "demo-3deck.mp4").exists():
        pytest.fail("the bundled demo video vision/demo/demo-3deck.mp4 is missing")
    data = tmp_path_factory.mktemp("demo") / "data"
    process, url = start_serve("--demo", "--speed", "4", "--oracle", str(DEMO / "demo-3deck.frames.json"),
                               "--data", str(data))
    try:
        yield url
    finally:
        stop_serve(process)


def test_demo_is_scored_live_on_the_page(page, demo_server, tmp_path):
    page.goto(demo_server)
    # Note every trick number and score the page shows while the video plays.
    page.evaluate("""() => {
        window.seen = {tricks: new Set(), points: new Set()};
        const note = () => {
            const centre = document.querySelector('#trick-centre');
            if (centre) window.seen.tricks.add(centre.dataset.trick);
            window.seen.points.add(document.querySelector('#defender-points').textContent);
        };
        note();
        new MutationObserver(note).observe(document.querySelector('main'), {subtree: true, childList: true,
                                                                           characterData: true, attributes: true});
    }""")
    truth = json.loads((DEMO / "demo-3deck.truth.json").read_text(encoding="utf-8"))
    tricks = len(truth["deals"][0]["tricks"])
    page.wait_for_function(f"() => document.querySelectorAll('.history-table tbody tr').length === {tricks} && "
                           f"document.querySelectorAll('#felt .seat .card').length === "
                           f"{sum(len(p) for p in truth['deals'][0]['tricks'][-1]['plays'])}", timeout=60_000)
    seen = page.evaluate("() => ({tricks: [...window.seen.tricks], points: [...window.seen.points]})")
    assert len({t for t in seen["tricks"] if t not in ("-1", None)}) >= 2, seen  # the trick moved on while watched
    assert len(seen["points"]) >= 2, seen  # and the defenders' points changed
    with urllib.request.urlopen(demo_server + "api/state", timeout=10) as response:
        state = json.loads(response.read())
    assert state["state"]["record"]["deals"][0]["tricks"] == truth["deals"][0]["tricks"]
    assert page.locator("#defender-points").inner_text() == str(state["view"]["deals"][0]["defender_points"])
    assert "甩牌失败" in page.locator(".history-table").inner_text()  # the failed throw's attempt is shown
    page.set_viewport_size({"width": 1280, "height": 900})
    page.wait_for_timeout(600)  # let the score animation finish
    shot = tmp_path / "screenshot.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 50_000
    if os.environ.get("TUOLAJI_UPDATE_SCREENSHOT"):  # TUOLAJI_UPDATE_SCREENSHOT=1 pytest ... refreshes the README's
        SCREENSHOT.parent.mkdir(exist_ok=True)
        shutil.copyfile(shot, SCREENSHOT)
