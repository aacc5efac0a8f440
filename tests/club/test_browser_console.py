"""The director's console in Chromium, the parts of an evening beyond pairs, tables and a round's start
and end (issue 43, item 2): rounds seated by a pair movement (and one that does not fit, said in one
line), a result fixed with its reason, a pair moved, a round by deals ending itself, the seat cards
and the projector's slide, the round's clock."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import ClubServer, organiser

pytestmark = pytest.mark.browser


def open_console(page: Any, club: ClubServer, pairs: int, tables: int) -> str:
    """The console opened with ``pairs`` pairs and ``tables`` tables registered; returns the organiser's token."""
    client = club.app.test_client()
    headers = organiser(club)
    text = "\n".join(f"对{n} 甲{n} 乙{n}" for n in range(1, pairs + 1))
    assert client.post("/club/director/api/pairs", headers=headers, json={"text": text}).status_code == 201
    for n in range(1, tables + 1):
        assert client.post("/club/api/tables", headers=headers, json={"name": f"{n}号桌"}).status_code == 201
    token = headers["Authorization"].removeprefix("Bearer ")
    page.goto(f"{club.url}/club/director?token={token}")
    page.locator("#round-line", has_text="还没有开始任何一轮").wait_for()
    return token


def test_rounds_seated_by_a_movement_and_one_that_does_not_fit(page: Any, club: ClubServer) -> None:
    open_console(page, club, 8, 3)
    page.select_option("#seating", "howell")
    assert page.locator("#movement-help").is_visible() and page.locator("#hand-seating").is_hidden()
    page.click("#start-round")
    page.locator("#start-error", has_text="8 对搭档按这种移位要 4 张桌，俱乐部只有 3 张").wait_for()
    assert page.locator("#start-error").inner_text().count("\n") == 0
    page.click("#lang-toggle")
    page.locator("#start-error", has_text="8 pairs need 4 tables in this movement, the club has 3").wait_for()
    page.click("#lang-toggle")

    page.fill("#table-name", "4号桌")
    page.click("#add-table")
    page.locator("#table-list li[data-table='4号桌']").wait_for()
    page.click("#start-round")
    page.locator("#round-line", has_text="第 1 轮").wait_for()
    assert page.locator("#start-error").is_hidden()
    assert page.locator("#room-rows tr[data-table='4号桌'] .ns .pair").inner_text() == "对8"  # the stationary pair
    page.click("#end-round")
    page.locator("#round-line", has_text="第 1 轮已结束").wait_for()

    page.select_option("#seating", "mitchell")
    page.click("#start-round")
    page.locator("#round-line", has_text="第 2 轮").wait_for()
    assert [page.locator(f"#room-rows tr[data-table='{n}号桌'] .ns .pair").inner_text() for n in range(1, 5)] == [
        "对1", "对2", "对3", "对4"]
    assert page.locator("#room-rows tr[data-table='1号桌'] .ew .pair").inner_text() == "对5"


def test_a_result_fixed_with_its_reason(page: Any, club: ClubServer) -> None:
    from .test_rounds import evening, setup_of

    client, records, tables = evening(club)
    headers = organiser(club)
    tables.push("A", setup_of(records["A"]))
    client.post("/club/api/rounds", headers=headers, json={"seating": "hand", "deals": 1, "tables": [
        {"table": "A", "ns": "P1", "ew": "P2"}]})
    tables.push("A", records["A"] | {"deals": records["A"]["deals"][:1] + [records["A"]["deals"][1] | {"tricks": []}]})
    client.post("/club/api/rounds/end", headers=headers)
    before = {row["pair"]: row for row in client.get("/club/api/standings").get_json()["standings"]}
    page.goto(f"{club.url}/club/director?token={headers['Authorization'].removeprefix('Bearer ')}")
    row = page.locator("#result-rows tr[data-round='1'][data-table='A']")
    row.wait_for()
    assert row.locator(".fixed-mark").count() == 0
    assert page.input_value("#fix-row") == '[1,"A"]'
    assert page.input_value("#fix-ns-points") == str(before["P1"]["points"])

    page.fill("#fix-ns-levels_gained", "4")
    page.click("#fix-result")  # no reason: refused under the form, nothing fixed
    page.locator("#fix-error", has_text="更正成绩要写明理由").wait_for()
    assert client.get("/club/api/results").get_json()["results"][0]["fixes"] == []

    page.fill("#fix-reason", "南北少记了一级")
    page.click("#fix-result")
    page.locator("#fix-done", has_text="已更正第 1 轮 A 的成绩").wait_for()
    row.locator(".fixed-mark", has_text="已更正").wait_for()
    assert "升级 4" in row.locator(".ns .figures").inner_text()
    fix = row.locator(".fixes li")
    assert "理由：南北少记了一级" in fix.inner_text()
    assert f"原来: 南北 升级 {before['P1']['levels_gained']}" in fix.inner_text()
    assert page.locator("#fix-error").is_hidden() and page.input_value("#fix-reason") == ""
    assert {row["pair"]: row for row in client.get("/club/api/standings").get_json()["standings"]}["P1"][
        "levels_gained"] == 4
    page.click("#lang-toggle")
    row.locator(".fixed-mark", has_text="fixed").wait_for()
    assert "because: 南北少记了一级" in fix.inner_text() and "levels 4" in row.locator(".ns .figures").inner_text()


def test_a_pair_moved_and_the_tables_page_follows(page: Any, other_device: Any, club: ClubServer) -> None:
    open_console(page, club, 8, 4)
    page.click("#start-round")  # by hand, the pairs in order: 对1–对2 at table 1 … 对7–对8 at table 4
    page.locator("#round-line", has_text="第 1 轮").wait_for()
    other_device.goto(f"{club.url}/club/table/3%E5%8F%B7%E6%A1%8C")  # table 3's page at the club
    line = other_device.locator("#seat-line")
    line.get_by_text("第 1 轮 · 南北 甲5 乙5 对 东西 甲6 乙6").wait_for()

    assert page.locator("#move-form").is_visible()
    page.select_option("#move-pair", "对1")
    page.select_option("#move-table", "3号桌")
    page.select_option("#move-side", "ew")
    page.click("#move-pair-button")
    page.locator("#move-done", has_text="对1 已换到 3号桌 的东西，对6 换到它原来的座位").wait_for()
    page.locator("#room-rows tr[data-table='1号桌'] .ns .pair", has_text="对6").wait_for()
    assert page.locator("#room-rows tr[data-table='3号桌'] .ew .pair").inner_text() == "对1"
    line.get_by_text("第 1 轮 · 南北 甲5 乙5 对 东西 甲1 乙1").wait_for()  # the table's page follows, live

    page.select_option("#move-table", "3号桌")
    page.select_option("#move-side", "ew")
    page.click("#move-pair-button")  # it sits there already: said under the form
    page.locator("#move-error", has_text="已经坐在“3号桌”的这一方").wait_for()
    page.click("#end-round")
    page.locator("#round-line", has_text="第 1 轮已结束").wait_for()
    assert page.locator("#move-form").is_hidden()


def test_a_round_by_deals_ends_itself_and_the_console_says_so(page: Any, club: ClubServer) -> None:
    from .test_rounds import evening, setup_of

    client, records, tables = evening(club)
    headers = organiser(club)
    for name in ("A", "B"):
        tables.push(name, setup_of(records[name]))
    page.goto(f"{club.url}/club/director?token={headers['Authorization'].removeprefix('Bearer ')}")
    page.locator("#hand-rows tr[data-table='B'] .ew option[value='P4']").wait_for(state="attached")
    page.fill("#deals", "1")
    page.click("#start-round")  # by hand: P1–P2 at A, P3–P4 at B
    page.locator("#round-line", has_text="第 1 轮 · 每桌打 1 副").wait_for()
    one_deal = {name: record | {"deals": record["deals"][:1] + [record["deals"][1] | {"tricks": []}]}
                for name, record in records.items()}
    tables.push("A", one_deal["A"])
    page.locator("#room-rows tr[data-table='A'] .status", has_text="本轮打完").wait_for()
    assert page.locator("#end-round").is_visible()
    tables.push("B", one_deal["B"])  # the last table finishes: the round ends itself, the console says so, live
    page.locator("#round-line", has_text="第 1 轮已结束：各桌都打完了").wait_for()
    assert page.locator("#end-round").is_hidden()
    page.click("#lang-toggle")
    page.locator("#round-line", has_text="Round 1 is over: every table has finished").wait_for()


def test_seat_cards_to_print_and_the_projectors_slide(page: Any, other_device: Any, club: ClubServer) -> None:
    open_console(page, club, 8, 4)
    page.click("#start-round")
    page.locator("#round-line", has_text="第 1 轮").wait_for()
    with page.context.expect_page() as opened:
        page.click("#cards-link")  # the console's link opens the cards in a tab of their own
    cards = opened.value
    card = cards.locator(".seat-card[data-table='2号桌']")
    card.wait_for()
    assert cards.locator(".seat-card").count() == 4
    assert card.locator("h2").inner_text() == "2号桌" and card.locator(".round").inner_text() == "第 1 轮"
    assert card.locator(".ns").inner_text() == "对3 甲3 乙3" and card.locator(".ew").inner_text() == "对4 甲4 乙4"
    assert "南北" in card.inner_text() and "东西" in card.inner_text()
    cards.emulate_media(media="print")  # printed: the cards alone, without the page's bar
    assert cards.locator("header.topbar").is_hidden() and card.is_visible()
    cards.emulate_media(media="screen")
    cards.click("#lang-toggle")
    card.locator(".round", has_text="Round 1").wait_for()
    assert "North–South" in card.inner_text()
    cards.click("#lang-toggle")
    cards.close()

    assert page.get_attribute("#slide-link", "href") == "/club/slide"
    other_device.goto(f"{club.url}/club/slide")  # the projector's machine
    other_device.locator("#slide-title", has_text="第 1 轮 · 座位").wait_for()
    table = other_device.locator(".slide-table[data-table='4号桌']")
    assert table.locator(".ns").inner_text().endswith("甲7 乙7") and table.locator(".ew").inner_text().endswith("甲8 乙8")
    assert float(table.locator("h2").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 40  # big type
    # the director moves a pair: the slide follows; the round ends: the slide says no round is seated
    page.select_option("#move-pair", "对1")
    page.select_option("#move-table", "4号桌")
    page.select_option("#move-side", "ns")
    page.click("#move-pair-button")
    table.locator(".ns", has_text="甲1 乙1").wait_for()
    page.click("#end-round")
    other_device.locator("#seating-none").wait_for()
    assert other_device.locator(".slide-table").count() == 0


def test_the_round_clock_on_the_console_and_the_slide(page: Any, other_device: Any, club: ClubServer) -> None:
    from .test_rounds import backdate_round

    open_console(page, club, 4, 2)
    page.select_option("#seating", "drawn")
    page.select_option("#ends-by", "time")
    page.fill("#minutes", "30")
    page.click("#start-round")
    page.locator("#round-clock", has_text="还剩 30 分钟").wait_for()
    other_device.goto(f"{club.url}/club/slide")
    other_device.locator("#slide-clock", has_text="还剩 30 分钟").wait_for()
    backdate_round(club.app.extensions["tuolaji.club"].dsn, 29 * 60 + 10)  # 50 seconds left
    page.reload()
    clock = page.locator("#round-clock")
    clock.filter(has_text="秒").wait_for()
    first = int(clock.get_attribute("data-left") or 0)
    assert 40 <= first <= 50
    page.wait_for_function("first => Number(document.getElementById('round-clock').dataset.left) < first", arg=first)
    page.click("#lang-toggle")
    clock.filter(has_text="s left").wait_for()
    other_device.reload()
    other_device.locator("#slide-clock", has_text="秒").wait_for()
    page.click("#end-round")  # no round under way: no clock
    clock.wait_for(state="hidden")
    other_device.locator("#slide-clock").wait_for(state="hidden")


def test_the_results_exported_from_the_console(page: Any, club: ClubServer) -> None:
    open_console(page, club, 4, 2)
    page.click("#start-round")
    page.locator("#round-line", has_text="第 1 轮").wait_for()
    page.click("#end-round")
    page.locator("#result-rows tr[data-table='2号桌']").wait_for()
    with page.expect_download() as download:
        page.click("#results-csv")
    assert download.value.suggested_filename == "results.csv"
    lines = Path(download.value.path()).read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("round,table,ns,ew,") and lines[2].startswith("1,2号桌,对3,对4,")
    page.click("#lang-toggle")
    page.locator("#results-csv", has_text="Export every round's results (CSV)").wait_for()


def test_a_backup_downloaded_and_restored_from_the_console(page: Any, club: ClubServer) -> None:
    open_console(page, club, 4, 2)
    page.locator("#table-list li[data-table='2号桌']").wait_for()
    with page.expect_download() as download:
        page.click("#backup-link")
    assert download.value.suggested_filename.endswith(".backup")
    saved = download.value.path()
    assert Path(saved).read_bytes().startswith(b"PGDMP")
    page.fill("#table-name", "3号桌")
    page.click("#add-table")
    page.locator("#table-list li[data-table='3号桌']").wait_for()

    page.set_input_files("#restore-file", saved)
    page.click("#restore")  # not confirmed: refused under the form, nothing changed
    page.locator("#restore-error", has_text="请先勾选确认").wait_for()
    assert page.locator("#table-list li[data-table='3号桌']").count() == 1
    page.check("#restore-confirm")
    page.click("#restore")
    page.locator("#restore-done", has_text="已恢复：2 张桌、4 对搭档、0 轮").wait_for()
    page.locator("#table-list li[data-table='3号桌']").wait_for(state="detached")
    assert page.locator("#restore-error").is_hidden() and not page.is_checked("#restore-confirm")
    assert club.app.extensions["tuolaji.club"].table_names() == ["1号桌", "2号桌"]
