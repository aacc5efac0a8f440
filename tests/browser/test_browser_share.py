"""Share a result: a deal's settlement and the game's level chart, downloaded from the page as one
PNG laid out for a phone."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from tuolaji.web.share import FELT, RED, WIDTH

pytestmark = pytest.mark.browser


def download(page, selector: str) -> Image.Image:
    with page.expect_download() as info:
        page.click(selector)
    path = info.value.path()
    with open(path, "rb") as handle:
        return Image.open(io.BytesIO(handle.read())).convert("RGB")


def test_share_the_settlement_and_the_level_chart(page, served):
    page.goto(served.url)
    page.locator("#summary").wait_for(state="visible", timeout=30_000)
    share = page.locator("#share-deal")
    share.wait_for(state="visible")
    assert share.inner_text() == "分享这一局的结算（图片）"
    settlement = download(page, "#share-deal")
    width, height = settlement.size
    assert width == WIDTH and height >= width * 4 // 3  # portrait, a phone's full width
    assert settlement.getpixel((5, 5)) == FELT  # the title band
    pixels = settlement.load()
    assert any(pixels[x, y] == RED for x in range(60, 500, 3) for y in range(450, 700, 3))  # the big red points
    chart = download(page, "#share-levels")
    assert chart.size[0] == WIDTH and chart.size[1] >= WIDTH
    assert chart.tobytes() != settlement.tobytes()
    # in English: another picture of the same result
    page.click("#lang-toggle")
    assert page.locator("#share-deal").inner_text() == "Share this deal's settlement (picture)"
    english = download(page, "#share-deal")
    assert english.size[0] == WIDTH and english.tobytes() != settlement.tobytes()
    page.click("#lang-toggle")
