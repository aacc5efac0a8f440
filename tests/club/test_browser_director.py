"""The director's console in Chromium, as a director runs an evening: opened with the organiser's
token, four tables added (each with its token, its phones' address and a QR code), eight pairs
pasted as a list, a round seated by hand on the four tables, its seating and the tables' status
shown live, the page in English and back, the round ended from the console and the next one seated
Swiss; a round-end the club refuses (ended elsewhere meanwhile) is said in one line."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import ClubServer, evening_record, organiser
from .test_rounds import setup_of

pytestmark = pytest.mark.browser

EIGHT_PAIRS = "\n".join(f"对{n} 甲{n} 乙{n}" for n in range(1, 9))


def test_a_director_runs_an_evening_from_the_console(page: Any, club: ClubServer) -> None:
    store = club.app.extensions["tuolaji.club"]
    token = organiser(club)["Authorization"].removeprefix("Bearer ")
    page.goto(f"{club.url}/club/director?token={token}")
    page.locator("#round-line", has_text="还没有开始任何一轮").wait_for()

    for n in range(1, 5):
        page.fill("#table-name", f"{n}号桌")
        page.click("#add-table")
        page.locator(f"#table-list li[data-table='{n}号桌']").wait_for()
    listed = page.locator("#table-list li[data-table='3号桌']")
    table_token = dict(store.table_tokens())["3号桌"]
    assert listed.locator(".token").inner_text() == table_token
    assert listed.locator(".address").inner_text() == f"{club.url}/club/table/3%E5%8F%B7%E6%A1%8C?token={table_token}"
    assert listed.locator(".qr svg").count() == 1
    assert page.locator("#room-rows tr").count() == 4

    page.fill("#pairs-text", EIGHT_PAIRS)
    page.click("#add-pairs")
    page.locator("#pairs-added", has_text="登记了 8 对").wait_for()
    assert page.locator("#pairs li").count() == 8 and page.input_value("#pairs-text") == ""
    # a line the club cannot read: said under the list, which stays as pasted
    page.fill("#pairs-text", "对9 甲9")
    page.click("#add-pairs")
    page.locator("#pairs-error", has_text="第 1 行").wait_for()
    assert page.input_value("#pairs-text") == "对9 甲9"

    # round 1, by hand: the four tables' rows come filled with the pairs in order
    assert page.input_value("#hand-rows tr[data-table='4号桌'] .ew") == "对8"
    page.fill("#deals", "2")
    page.click("#start-round")
    page.locator("#round-line", has_text="第 1 轮 · 每桌打 2 副").wait_for()
    first = page.locator("#room-rows tr[data-table='1号桌']")
    assert "对1" in first.locator(".ns").inner_text() and "甲1 乙1" in first.locator(".ns").inner_text()
    assert "对2" in first.locator(".ew").inner_text()
    assert page.locator("#room-rows tr[data-table='4号桌'] .ew").inner_text().startswith("对8")
    assert first.locator(".status").inner_text() == "桌子的电脑还没连上"

    # table 1's machine sends its set-up: the page follows, table 1 is playing its first deal
    client = club.app.test_client()
    record = evening_record((3, 4), players=("甲1", "甲2", "乙1", "乙2"))
    pushed = client.post("/club/api/tables/1号桌/changes", headers={
        "Authorization": f"Bearer {dict(store.table_tokens())['1号桌']}"}, json={"changes": [
            {"n": 1, "session": 1, "name": "周五", "record": setup_of(record)}]})
    assert pushed.status_code == 200
    first.locator(".status", has_text="进行中 · 第 1 副（共 2 副）").wait_for()

    page.click("#lang-toggle")
    page.locator("#round-line", has_text="Round 1 · 2 deals a table").wait_for()
    assert first.locator(".status").inner_text() == "playing · deal 1 of 2"
    assert page.locator("#end-round").inner_text() == "End the round"
    page.click("#lang-toggle")
    page.locator("#round-line", has_text="第 1 轮").wait_for()

    page.click("#end-round")
    page.locator("#round-line", has_text="第 1 轮已结束").wait_for()
    assert page.locator("#end-round").is_hidden() and page.locator("#round-error").is_hidden()

    # round 2, Swiss by standing: its seating replaces the first
    page.select_option("#seating", "swiss")
    assert page.locator("#hand-seating").is_hidden() and page.locator("#rule-field").is_visible()
    page.fill("#deals", "1")
    page.click("#start-round")
    page.locator("#round-line", has_text="第 2 轮 · 每桌打 1 副").wait_for()
    seated = {page.locator(f"#room-rows tr[data-table='{n}号桌'] .ns .pair").inner_text() for n in range(1, 5)} | {
        page.locator(f"#room-rows tr[data-table='{n}号桌'] .ew .pair").inner_text() for n in range(1, 5)}
    assert seated == {f"对{n}" for n in range(1, 9)}
    assert [row["round"] for row in store.rounds()] == [1, 2]

    # the round ended elsewhere while this page heard nothing (its stream cut, the round's last news read):
    # the end refused, in one line, and the page reads the round again
    page.evaluate("window.Tuolaji.source.close()")
    page.wait_for_timeout(600)  # past the 300 ms the page gathers the room's news in
    with store.connect(autocommit=True) as connection:
        connection.execute("UPDATE club_rounds SET ended = now() WHERE ended IS NULL")
    page.click("#end-round")
    page.locator("#round-error", has_text="现在没有进行中的一轮").wait_for()
    page.locator("#round-line", has_text="第 2 轮已结束").wait_for()
    assert page.locator("#round-error").inner_text().count("\n") == 0
