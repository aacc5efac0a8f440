"""The live table page while the camera shows cards the reader cannot read: the page says so.

A deal filmed with a drawn deck whose corner indices are too small and too pale for a 640×480 camera
(the replay bench's horizontal deal 364): cards lie in the seat zones, and no corner is read. The page's
connection line and a banner over the felt tell the players what to change, in the page's words, with a
way to the camera check, while the video plays; once the video ends the banner goes.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest

from tuolaji import scorer
from tuolaji.datasets.video import RenderOptions, render_video, save_render

from .conftest import start_serve, stop_serve

pytestmark = pytest.mark.browser


def test_the_live_page_says_when_cards_lie_on_the_table_but_no_corner_can_be_read(page, tmp_path: Path) -> None:
    seed = 364
    record = scorer.random_record("titanic-3deck", seed, players=4, tricks=2)
    video = tmp_path / "faint.mp4"
    save_render(render_video(record, video, RenderOptions(seed=seed, style_split="holdout", gesture_rate=0.3,
                                                          linger=((1, seed % 4),), index_layout="horizontal")), video)
    process, url = start_serve("--video", str(video), "--speed", "2", "--data", str(tmp_path / "data"))
    try:
        page.goto(url)
        page.wait_for_function("document.querySelector('#connection').textContent.includes('读不出牌角')",
                               timeout=30_000)
        line = page.locator("#connection").inner_text()
        assert "桌上有牌，但读不出牌角" in line and "1920×1080" in line, line
        banner = page.locator("#feed-warning")
        assert banner.is_visible() and banner.get_attribute("data-warning") == "unreadable"
        assert "读不出牌角" in banner.inner_text() and "检查摄像头" in banner.inner_text()
        assert banner.locator("a").get_attribute("href") == "/camera"
        felt_top = page.locator("#felt").bounding_box()["y"]
        assert banner.bounding_box()["y"] < felt_top  # over the felt, where the players look
        page.screenshot(path=str(tmp_path / "unreadable.png"))
        with urllib.request.urlopen(url + "api/state", timeout=10) as response:
            feed = json.loads(response.read())["feed"]
        assert feed["kind"] == "pipeline" and feed["warning"] == "unreadable"
        page.wait_for_function("document.querySelector('#connection').textContent.includes('输入结束')", timeout=120_000)
        assert banner.is_hidden()
    finally:
        stop_serve(process)
