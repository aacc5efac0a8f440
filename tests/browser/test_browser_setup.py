"""Setting the table up on the page, bidding by click and entering a play by hand (no camera)."""

from __future__ import annotations

import json
import urllib.request

import pytest

from .conftest import free_port, start_serve, stop_serve, write_headers

pytestmark = pytest.mark.browser


class Restartable:
    """A ``tuolaji serve --resume`` that a test can stop and start again on the same port and data."""

    def __init__(self, data: str) -> None:
        self.data = data
        self.port = free_port()
        self.process, self.url = start_serve("--resume", "--data", data, port=self.port)

    def restart(self) -> None:
        stop_serve(self.process)
        self.process, self.url = start_serve("--resume", "--data", self.data, port=self.port)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = Restartable(str(tmp_path_factory.mktemp("empty") / "data"))
    try:
        yield running
    finally:
        stop_serve(running.process)


@pytest.fixture(scope="module")
def empty_server(server):
    return server.url


def api_state(url: str) -> dict:
    with urllib.request.urlopen(url + "api/state", timeout=10) as response:
        return json.loads(response.read())


def test_set_up_bid_and_play_by_hand(page, empty_server):
    page.goto(empty_server)
    form = page.locator("#setup-form")
    form.wait_for(state="visible")  # no session yet: the set-up is open
    assert "请先设置牌桌" in page.locator("#felt").inner_text()
    form.locator("input[name=name]").fill("周五晚上")
    form.locator("select[name=decks]").select_option("3")
    form.locator("select[name=profile]").select_option("friends-3deck")
    form.locator("select[name=count]").select_option("5")
    assert page.locator("#friend-fields").is_visible() and page.locator("#player-fields input").count() == 5
    form.locator("select[name=profile]").select_option("titanic-3deck")
    names = ["老张", "小李", "阿王", "大刘"]
    for seat, name in enumerate(names):
        page.locator("#player-fields input[name=player]").nth(seat).fill(name)
    page.locator('#player-fields select[data-seat="1"]').select_option("5")  # partners follow: seat 3 too
    assert page.locator('#player-fields select[data-seat="3"]').input_value() == "5"
    form.locator("select[name=trump]").select_option("NT")
    form.locator("select[name=dealer]").select_option("1")  # mid-game: 小李 deals at his level, 5
    form.locator("button[type=submit]").click()
    page.wait_for_function("document.querySelector('#deal-heading').textContent === '第 1 局'")
    state = api_state(empty_server)
    assert state["session"]["name"] == "周五晚上" and state["state"]["record"]["players"] == names
    assert state["state"]["record"]["rules"] == "titanic-3deck"
    assert state["state"]["record"]["start_levels"] == ["2", "5", "2", "5"]
    assert "三副牌·泰坦尼克" in page.locator("#deal-facts").inner_text()  # the profile by its Chinese name
    assert page.locator("#levels-chart svg").count() == 0 and "每局打完后" in page.locator("#levels-chart").inner_text()

    page.locator("#bids > summary").click()
    page.locator('.seat-pick[data-seat="1"]').click()
    page.locator('.bid-card[data-cards="5S 5S"]').click()
    page.wait_for_function("document.querySelector('#bid-list').textContent.includes('小李')")
    deal = api_state(empty_server)["state"]["record"]["deals"][0]
    assert deal["bids"] == [{"seat": 1, "cards": ["5S", "5S"]}] and deal["trump"] == "S" and deal["dealer"] == 1
    assert "♠" in page.locator("#deal-facts").inner_text() and "小李: ♠5 ♠5" in page.locator("#bid-list").inner_text()

    page.locator("#manual > summary").click()
    manual = page.locator("#manual-form")
    assert manual.locator("select[name=seat]").input_value() == "1"  # the dealer leads
    manual.locator("input[name=cards]").fill("AH AH")
    manual.locator("input[name=cards]").press("Enter")
    page.locator('#felt .seat[data-seat="1"] .card').nth(1).wait_for()
    assert page.locator('#felt .seat[data-seat="2"]').get_attribute("class").count("is-next") == 1
    assert manual.locator("select[name=seat]").input_value() == "2"
    manual.locator("input[name=cards]").fill("zz")
    manual.locator("button[type=submit]").click()
    page.locator("#manual-error").wait_for(state="visible")  # next to the field
    assert page.locator("#manual-error").inner_text() == "第 1 张「zz」不是牌：可写 黑桃A、红桃10、方块Q、梅花2、大王、小王，或 AS、10H、BJ"
    assert page.locator(".bid-card").first.is_disabled()  # no bids once the deal has started


def test_an_open_page_reconnects_to_a_restarted_server_and_reloads(page, server):
    page.goto(server.url)
    page.locator('#felt .seat[data-seat="1"] .card').nth(1).wait_for()  # the play of the test above
    page.wait_for_function("document.querySelector('#connection').textContent.startsWith('实时')")
    server.restart()  # the page stays open; its event stream drops and reconnects
    request = urllib.request.Request(server.url + "api/play", data=json.dumps({"seat": 2, "cards": ["3H"]}).encode(),
                                     headers=write_headers(server.data), method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 201
    page.locator('#felt .seat[data-seat="2"] .card').wait_for(timeout=20_000)
    assert page.locator('#felt .seat[data-seat="2"] .card').get_attribute("data-card") == "3H"
    assert page.locator("#session-name").inner_text() == "周五晚上"
