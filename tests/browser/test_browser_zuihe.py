"""The 嘴和 page in headless Chromium: click a hand together and read the explanation."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from werkzeug.serving import make_server

from tuolaji.web.zuihe import zuihe_bp


@pytest.fixture()
def zuihe_url() -> Iterator[str]:
    app = Flask(__name__)
    app.config["TESTING"] = True
    app.register_blueprint(zuihe_bp)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/zuihe/"
    finally:
        server.shutdown()
        thread.join(5)


@pytest.mark.browser
def test_click_cards_and_read_the_explanation_in_a_browser(page: Any, zuihe_url: str) -> None:
    from playwright.sync_api import expect

    page.context.clear_cookies()  # the shared browser may carry the main page's language choice
    page.goto(zuihe_url)
    assert page.locator("#palette .zh-card").count() == 30
    # the example hand, then one more click on 白花 in the palette moves it into the hand
    page.click("#sample")
    page.wait_for_selector("#items")
    assert page.locator(".zh-title").inner_text() == "和了 — 哈牌，10和，5嘴"
    assert "幺四坎" in page.locator("#items").inner_text()
    assert page.locator("#items tfoot").inner_text().split()[-2:] == ["5", "嘴"]
    page.click("#palette .zh-card[data-code=BA]")
    assert page.locator("#count").inner_text() == "31 张"
    page.click("#score")
    # 白花 白花 left over
    expect(page.locator("#groups tbody tr").last.locator("svg")).to_have_count(2)
    expect(page.locator(".zh-title")).to_have_text("和了 — 哈牌，10和，5嘴")
    # English
    page.click("#zuihe-lang")
    assert page.locator(".zh-title").inner_text().startswith("Wins")
    assert "抹 (won on a 叉 or 光)" in page.locator("#items").inner_text()
    # take a 九饼 back: the other two are loose, no win
    page.click("#hand .zh-card[data-code='9B'] >> nth=0")
    assert page.locator("#count").inner_text() == "30 cards"
    page.click("#score")
    expect(page.locator(".zh-title")).to_contain_text("Does not win")
    assert page.locator("#error").is_hidden()
    # a bad hand shows the one-line error
    page.click("#clear")
    page.check("input[name=tianhe]")
    page.check("input[name=dihe]")
    page.click("#score")
    expect(page.locator("#error")).to_contain_text("tianhe")


@pytest.mark.browser
def test_a_bad_hand_shows_its_error_in_the_page_language_and_the_toggle_switches_it(page: Any,
                                                                                  zuihe_url: str) -> None:
    from playwright.sync_api import expect

    page.context.clear_cookies()
    page.goto(zuihe_url)
    error = page.locator("#error")
    # a 吃 of 红中 九条 一饼 is no 副, 报 or 七套
    page.check("input[name=target][value=chi]")
    for code in ("ZH", "9T", "1B"):
        page.click(f"#palette .zh-card[data-code='{code}']")
    page.click("#chi-done")
    page.click("#score")
    expect(error).to_be_visible()
    expect(error).to_have_text("亮出的第1组：吃的牌要成副、报或七套，这里是：红中、九条、一饼")
    # English: the scorer's own line, as `tuolaji zuihe` prints it
    page.click("#zuihe-lang")
    expect(error).to_have_text("melds[0]: a chi (吃) must be a 副, 报 or 七套, got ZH 9T 1B")
    # back to Chinese, and a second kind of error: 天和 and 地和 together
    page.click("#zuihe-lang")
    expect(error).to_contain_text("亮出的第1组")
    page.click("#clear")
    expect(error).to_be_hidden()
    page.check("input[name=tianhe]")
    page.check("input[name=dihe]")
    page.click("#score")
    expect(error).to_have_text("天和是庄家起手就和，地和是闲家和庄家打的头一张，两个不能同时选")
    page.click("#zuihe-lang")
    expect(error).to_have_text("flags: tianhe (天和, the dealer's) and dihe (地和, another player's) contradict")
    # a good hand clears the error
    page.uncheck("input[name=tianhe]")
    page.uncheck("input[name=dihe]")
    page.click("#sample")
    page.wait_for_selector("#items")
    expect(error).to_be_hidden()
