"""Issue 30, item 7: what a new user found at a 4-player 3-deck and a 5-player 找朋友 table, driven in
Chromium: two phones recording one play, a play after the deal, the server unreachable, a reload with
a half-typed play, the score box after the settlement, the alerts' order, the names kept on import,
the English page without Chinese but the names, and the page on a phone."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tuolaji import scorer

from .records import played_deal_record

pytestmark = pytest.mark.browser

NAMES = ["老张", "老李", "老王", "老赵"]
SETUP = {"players": NAMES, "profile": "standard-2deck", "trump": "NT", "dealer": 0, "name": "周五牌局"}


def in_chinese(page: Any) -> None:
    """The page in Chinese (a test before may have left the browser's choice in English)."""
    if page.evaluate("document.documentElement.dataset.lang") != "zh":
        page.locator("#lang-toggle").click()


def open_manual(page: Any, url: str) -> Any:
    page.goto(url)
    page.wait_for_function("document.querySelector('#felt .seat') !== null")
    in_chinese(page)
    if not page.locator("#manual").evaluate("el => el.open"):
        page.locator("#manual > summary").click()
    return page.locator("#manual-form")


# --- (c) two phones, one play ----------------------------------------------------------------------


def test_two_phones_recording_one_play_the_second_is_refused_with_who_recorded_what(page, other_device, server):
    second_page = other_device  # the second phone: a browser context of its own
    server.post("api/setup", SETUP)
    first, second = open_manual(page, server.url), open_manual(second_page, server.url)
    for form in (first, second):
        assert form.locator("select[name=seat]").input_value() == "0"
    assert second_page.locator("#manual-for").inner_text() == "记给 老张 · 第 1 墩"
    second.locator("input[name=cards]").fill("KH")  # typed for 老张 while the first phone records him
    first.locator("input[name=cards]").fill("5H")
    first.locator("button[type=submit]").click()
    second_page.wait_for_function("document.querySelector('#felt .seat[data-seat=\"0\"] .card') !== null")
    # the second phone's seat box did not move on to 老李 under the typed card
    assert second.locator("select[name=seat]").input_value() == "0"
    assert second_page.locator("#manual-for").inner_text() == "记给 老张 · 第 1 墩"
    second.locator("input[name=cards]").press("Enter")
    error = second_page.locator("#manual-error")
    error.wait_for(state="visible")
    assert error.inner_text() == "老张 这手已经有人记了（♥5），这次没有记：请看现在该谁出牌"
    assert second.locator("input[name=cards]").input_value() == "KH"  # kept, to give to whom it belongs
    assert server.state()["state"]["record"]["deals"][0]["tricks"][0]["plays"] == [["5H"]]
    # cleared, the form follows the table again: 老李 is next
    second.locator("#manual-clear").click()
    second_page.wait_for_function("document.querySelector('#manual-error').hidden")
    page.locator("#lang-toggle").click()  # the first phone's form words it in English too
    first.locator("input[name=cards]").wait_for()
    assert page.locator("#manual-for").inner_text() == "For 老李 · trick 1"
    in_chinese(page)  # the choice is kept in a cookie: later tests start in Chinese


# --- (b) a play after the deal is over -------------------------------------------------------------


def test_a_play_after_the_last_trick_is_refused_and_points_to_the_kitty(page, server):
    for seed in range(50):
        record = scorer.random_record("titanic-3deck", seed, players=4)
        record["players"] = NAMES
        record["deals"][0].pop("hands", None)
        record["deals"][0].pop("kitty", None)
        if scorer.audit_record(record)["deals"][0]["outcome"] is not None:
            break
    tricks = len(record["deals"][0]["tricks"])
    server.open_record(record, "三副牌")
    form = open_manual(page, server.url)
    assert page.locator("#manual-for").inner_text() == "这一局已经打完：请记录底牌，再开始下一局"
    assert "该出牌" not in page.locator("#expected").inner_text()
    form.locator("input[name=cards]").fill("AS")
    form.locator("button[type=submit]").click()
    error = page.locator("#manual-error")
    error.wait_for(state="visible")
    assert error.inner_text() == "第 1 局已经打完（每人 39 张都出了），这手没有记：请记录底牌，再开始下一局"
    assert len(server.state()["state"]["record"]["deals"][0]["tricks"]) == tricks  # no 「第 N+1 墩」
    assert page.locator("#trick-centre").inner_text().startswith(f"第 {tricks} 墩")


# --- (d) the server unreachable; (p) a reload keeps a half-typed play ------------------------------


def test_an_unreachable_server_is_said_by_the_form_and_the_cards_are_kept(page, server):
    server.post("api/setup", SETUP)
    form = open_manual(page, server.url)
    form.locator("input[name=cards]").fill("AS AS")
    page.route("**/api/play", lambda route: route.abort("connectionrefused"))
    form.locator("input[name=cards]").press("Enter")
    error = page.locator("#manual-error")
    error.wait_for(state="visible")
    assert error.inner_text() == "连不上服务器：这次没有记下，输入的内容还在，连上后再按一次"
    assert form.locator("input[name=cards]").input_value() == "AS AS"
    page.locator("#lang-toggle").click()
    assert error.inner_text().startswith("The server cannot be reached")
    page.unroute("**/api/play")
    form.locator("input[name=cards]").press("Enter")
    page.wait_for_function("document.querySelector('#manual-error').hidden")
    assert server.state()["state"]["record"]["deals"][0]["tricks"][0]["plays"] == [["AS", "AS"]]
    in_chinese(page)


def test_a_reload_keeps_a_half_typed_play(page, server):
    server.post("api/setup", SETUP)
    form = open_manual(page, server.url)
    form.locator("select[name=seat]").select_option("2")
    form.locator("input[name=cards]").fill("10H 10")
    page.reload()
    page.wait_for_function("document.querySelector('#manual-form input[name=cards]').value === '10H 10'")
    assert page.locator("#manual").evaluate("el => el.open")
    assert form.locator("select[name=seat]").input_value() == "2"
    form.locator("input[name=cards]").fill("10H")
    form.locator("input[name=cards]").press("Enter")
    page.wait_for_function("document.querySelector('#manual-form input[name=cards]').value === ''")
    page.reload()
    page.wait_for_function("document.querySelector('#felt .seat .card') !== null")
    assert form.locator("input[name=cards]").input_value() == ""  # recorded: nothing kept
    assert json.dumps(server.state()["state"]["record"]["deals"][0]["tricks"][0]["plays"]) == '[["10H"]]'


CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")


# --- (a) the score box after the settlement; (g) the settlement's sum; (h) said once; (e) penalties' side; (i) alerts


def settled_record_with_rulings() -> dict[str, Any]:
    """A settled deal (kitty recorded) with two penalties of the table: one of the dealer's side, one a defender's."""
    record = played_deal_record()
    record["players"] = NAMES
    audit = scorer.audit_record(record)["deals"][0]
    dealer_side = sorted(scorer.dealer_sides(record)[0])
    defender = next(seat for seat in range(4) if seat not in dealer_side)
    record["deals"][0]["rulings"] = [{"seat": dealer_side[0], "trick": 0, "points": 20, "by": "table"},
                                     {"seat": defender, "trick": None, "points": 10, "by": "table"}]
    assert audit["outcome"] is not None
    return record


def test_the_score_box_shows_the_settled_total_and_the_settlement_its_parts(page, server):
    record = settled_record_with_rulings()
    server.open_record(record, "结算")
    page.goto(server.url)
    in_chinese(page)
    page.wait_for_function("document.querySelector('#defender-points').dataset.shows === 'total'")
    state = server.state()
    audit = state["state"]["audit"]["deals"][0]
    view = state["view"]["deals"][0]
    total, cards = audit["total_defender_points"], view["defender_points"]
    # (a) the big number is the total the settlement counts, and says so
    assert page.locator("#defender-points").inner_text() == str(total)
    assert page.locator("#score-heading").inner_text() == "闲家总分（含底牌、罚分）"
    assert page.locator("#threshold").inner_text().startswith(f"牌分 {cards} · 满 ")
    # (g) the settlement shows the card points and the sum that makes the total
    assert page.locator("#card-points").inner_text() == str(cards)
    parts = page.locator("#summary .total-parts").inner_text()
    numbers = [int(n) for n in re.findall(r"\d+", parts)]
    signs = [1] + [1 if s == "+" else -1 for s in re.findall(r"[+−]", parts)]
    assert sum(sign * n for sign, n in zip(signs, numbers, strict=True)) == total and parts.endswith("=")
    # (e) each penalty says whom it penalizes and which side gains or loses
    titles = page.locator("#alerts li.penalty .alert-head").all_inner_texts()
    dealer_name, defender_name = (NAMES[r["seat"]] for r in record["deals"][0]["rulings"])
    assert f"罚 {dealer_name}（庄家方）：闲家加 20 分" in titles and f"罚 {defender_name}（闲家）：闲家扣 10 分" in titles
    page.locator("#lang-toggle").click()
    assert page.locator("#score-heading").inner_text() == "Defenders' total (kitty and penalties included)"
    titles = page.locator("#alerts li.penalty .alert-head").all_inner_texts()
    assert f"{defender_name} penalized (defenders): the defenders lose 10" in titles
    page.locator("#lang-toggle").click()
    # (i) the next deal: its own alerts first, the last deal's folded away
    server.post("api/next-deal", {"trump": "NT"})
    page.wait_for_function("document.querySelector('#deal-heading').textContent === '第 2 局'")
    page.wait_for_function("document.querySelector('#defender-points').dataset.shows === 'cards'")
    assert page.locator("#score-heading").inner_text() == "闲家得分"
    first = page.locator("#alerts > li").first
    assert first.inner_text() == "暂无违规"
    folded = page.locator("#alerts .earlier-alerts summary")
    assert folded.inner_text() == "前几局的提醒（2 条）"
    assert not page.locator("#alerts .earlier-alerts li.penalty").first.is_visible()


def test_the_kitty_wait_is_said_once(page, server):
    record = played_deal_record()
    record["deals"][0].pop("kitty", None)
    server.open_record(record, "等底牌")
    page.goto(server.url)
    in_chinese(page)
    page.locator("#kitty-wait").wait_for(state="visible")
    assert page.locator("#summary").inner_text().count("记录底牌后才结算") == 1


# --- (k) the English page: no Chinese left but the players' names ------------------------------------


def chinese_left(page: Any, names: list[str]) -> list[str]:
    """The visible lines of the page (and its menus' options) holding Chinese once the players' names are taken out."""
    text = page.evaluate("""() => document.body.innerText + '\\n' +
        Array.from(document.querySelectorAll('select option')).map((o) => o.textContent).join('\\n')""")
    # the language button names the other language in its own words; the jokers' faces carry their Chinese names
    toggle = page.locator("#lang-toggle").inner_text()
    for name in sorted([*names, toggle, "小王", "大王"], key=len, reverse=True):
        text = text.replace(name, "")
    return [line for line in text.splitlines() if CJK.search(line)]


def in_english(page: Any) -> None:
    if page.evaluate("document.documentElement.dataset.lang") != "en":
        page.locator("#lang-toggle").click()


def test_the_english_page_has_no_chinese_but_the_names(page, server):
    record = settled_record_with_rulings()
    server.open_record(record, "周五牌局")
    page.goto(server.url)
    page.wait_for_function("document.querySelector('#defender-points').dataset.shows === 'total'")
    in_english(page)
    for box in ("#manual", "#setup", "#deal-settings", "#bids", "#rules-about", "#house-rules"):
        if not page.locator(box).evaluate("el => el.open"):
            page.locator(box + " > summary").click()
    for toggle in page.locator("details.deal-history > summary").all():
        toggle.click()
    left = chinese_left(page, NAMES + ["周五牌局"])
    assert left == [], "\n".join(left)
    page.goto(server.url + "sessions")
    assert chinese_left(page, NAMES + ["周五牌局"]) == []
    session = server.state()["session"]["id"]
    page.goto(server.url + f"replay/{session}")
    page.wait_for_function("document.querySelector('#felt .seat') !== null")
    assert chinese_left(page, NAMES + ["周五牌局"]) == []
    in_chinese(page)


# --- (n) 4-player 找朋友 calls one friend; (o) the set-up closes after 开始新牌局 and keeps the name ---------


def test_four_player_friends_call_one_friend_and_the_set_up_closes_with_its_name(page, server):
    page.goto(server.url)
    in_chinese(page)
    form = page.locator("#setup-form")
    form.wait_for(state="visible")
    form.locator("select[name=decks]").select_option("3")
    form.locator("select[name=profile]").select_option("friends-3deck")
    form.locator("select[name=count]").select_option("4")
    friends = page.locator("#friend-fields")
    friends.wait_for(state="visible")
    assert friends.locator(".friend-row").count() == 1  # docs/RULES: 4 或 5 人叫 1 个
    for seat, name in enumerate(NAMES):
        page.locator("#player-fields input[name=player]").nth(seat).fill(name)
    form.locator("input[name=name]").fill("")  # no name: the server names it
    with page.expect_response(lambda response: response.url.endswith("/api/setup")) as answer:
        form.locator("button[type=submit]").click()
    assert answer.value.ok
    page.wait_for_function(f"document.querySelector('#felt').textContent.includes({json.dumps(NAMES[-1])})")
    page.wait_for_timeout(500)  # the state's events have come back
    assert not page.locator("#setup").evaluate("el => el.open")
    session_name = server.state()["session"]["name"]
    assert session_name and page.locator("#session-name").inner_text() == session_name
    assert form.locator("input[name=name]").input_value() == session_name
    deal = server.state()["state"]["record"]["deals"][0]
    assert len(deal["friends"]) == 1


# --- (l) the 54 cards on a phone, a suit a row; (m) the set-up and the QR code under the table; (q) the replay's menu


def test_on_a_phone_each_suit_starts_its_own_row_and_the_set_up_comes_before_the_history(page, server, tmp_path):
    server.open_record(settled_record_with_rulings(), "手机")
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        form = open_manual(page, server.url)
        grid = form.locator("#manual-grid")
        boxes = {name: grid.locator(f'.pick-add[data-card="{name}"]').bounding_box() for name in
                 ("2S", "9S", "AS", "2H", "2C", "2D", "AD", "SJ", "BJ")}
        for first in ("2S", "2H", "2C", "2D", "SJ"):
            assert abs(boxes[first]["x"] - boxes["2S"]["x"]) < 1, first  # every suit from the first column
        assert boxes["AS"]["y"] < boxes["2H"]["y"] and boxes["AD"]["y"] < boxes["SJ"]["y"]
        assert boxes["9S"]["y"] > boxes["2S"]["y"]  # 7 a row: a suit takes two rows, alone
        page.screenshot(path=str(tmp_path / "phone-grid.png"), full_page=True)
        order = page.evaluate("""() => ['#setup', '.history', '.chart'].map(
            (s) => document.querySelector(s).getBoundingClientRect().top)""")
        assert order[0] < order[1] < order[2]
    finally:
        page.set_viewport_size({"width": 1440, "height": 1000})
    page.reload()
    page.wait_for_function("document.querySelector('#felt .seat') !== null")
    tops = page.evaluate("""() => ['.controls', '.history'].map((s) => document.querySelector(s).getBoundingClientRect().top)""")
    assert tops[0] < tops[1], tops


def test_the_replays_jump_menu_starts_with_words_not_a_bare_zero(page, server):
    session = server.open_record(played_deal_record(), "回放")
    page.goto(server.url + f"replay/{session}")
    in_chinese(page)
    first = page.locator("#replay-jump option").first
    first.wait_for(state="attached")
    assert first.inner_text() == "开始（还没出牌）" and first.get_attribute("value") == "0"
    page.locator("#lang-toggle").click()
    assert first.inner_text() == "The start (no play yet)"
    assert page.locator("#replay-jump option").nth(1).inner_text() == "Deal 1, trick 1"
    page.locator("#lang-toggle").click()
