"""The players' records (/stats) in Chromium: the leaderboard and the 战绩 table over the data folder's
sessions, names matched across them, a player renamed (merged with another) and a refused name, in
both languages."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tuolaji import scorer
from tuolaji.web.store import DATABASE_NAME, SessionStore

from .conftest import get_json, guide_screenshot, start_serve, stop_serve

TABLES = [["老李", "老王", "小张", "阿梅"], ["laoli", "老王", "Mei", "小张"], ["Lao Li", "阿梅", "老王", "Xiao Zhang"]]


def store_the_tables(data: Path) -> None:
    """One game of each of :data:`TABLES` in the data folder, named 牌局 1, 2, 3."""
    store = SessionStore(data / DATABASE_NAME)
    for seed, players in enumerate(TABLES):
        record = scorer.random_record("standard-2deck", seed, hand_size=6)
        record["players"] = players
        store.create(record, name=f"牌局 {seed + 1}", source="import")


@pytest.fixture()
def stats_server(tmp_path, browser_context) -> Iterator[str]:
    data = tmp_path / "data"
    store_the_tables(data)
    process, url = start_serve("--resume", "--data", str(data))
    try:
        yield url
    finally:
        stop_serve(process)


def names(page: Any) -> list[str]:
    return page.locator("#stats-rows .player-name").all_inner_texts()


def test_the_records_the_leaderboard_and_a_rename(page: Any, stats_server: str, tmp_path) -> None:
    url = stats_server
    page.goto(url + "/stats")
    page.wait_for_selector("#stats-rows tr")
    expected = get_json(url + "/api/stats")["players"]
    assert names(page) == [player["name"] for player in expected]
    assert len(expected) == 7  # laoli and Lao Li are one player: case and spaces do not count
    li = page.locator("#stats-rows tr", has=page.locator(".player-name", has_text="Lao Li"))
    assert li.locator("[data-stat=games]").inner_text() == "2"
    assert page.locator("#ranking .rank-row").count() == 7
    assert page.locator("#stats-count").inner_text() == "共 3 个牌局"
    assert page.locator("thead th[data-i18n='stats.took_over']").inner_text() == "上台"

    # 老李 and Lao Li are one man: renaming Lao Li to 老李 merges the two records
    li.locator(".rename-btn").click()
    assert page.locator("#rename-title").inner_text() == "把 Lao Li 改名为"
    page.locator("#rename-to").fill("   ")
    page.locator("#rename-save").click()
    page.wait_for_selector("#rename-error:not([hidden])")
    assert page.locator("#rename-error").inner_text() == "请填写名称"
    page.locator("#lang-toggle").click()
    assert page.locator("#rename-error").inner_text() == "the name is empty"
    assert page.locator("#rename-title").inner_text() == "Rename Lao Li to"
    page.locator("#rename-to").fill("老李")
    page.locator("#rename-save").click()
    page.wait_for_function("document.querySelectorAll('#stats-rows tr').length === 6")
    merged = page.locator("#stats-rows tr", has=page.locator(".player-name", has_text="老李"))
    assert merged.locator("[data-stat=games]").inner_text() == "3"
    assert merged.locator(".also").inner_text() in ("also Lao Li, laoli", "also laoli, Lao Li")
    assert page.locator("thead th[data-i18n='stats.took_over']").inner_text() == "Took over"
    assert page.locator("#ranking-title").inner_text() == "Leaderboard"

    page.locator("#lang-toggle").click()
    assert "也叫" in merged.locator(".also").inner_text()
    assert page.locator("#stats-title").inner_text() == "战绩"
    guide_screenshot(page, tmp_path, "guide-stats.png", ".stats-page")
    page.reload()  # the rename is kept
    page.wait_for_function("document.querySelectorAll('#stats-rows tr').length === 6")


def test_an_evening_chosen_and_each_players_win_rate_and_partners(page: Any, tmp_path, browser_context) -> None:
    """Issue 43, item 7: 战绩 of one evening, the share of deals won and the partners, as the server counts them."""
    import sqlite3
    import time

    data = tmp_path / "data"
    store_the_tables(data)
    friday = time.mktime((2026, 12, 4, 21, 0, 0, 0, 0, -1))
    with sqlite3.connect(data / DATABASE_NAME) as connection:  # the first game was played last Friday
        connection.execute("UPDATE sessions SET updated = ? WHERE name = '牌局 1'", (friday,))
    process, url = start_serve("--resume", "--data", str(data))
    try:
        page.goto(url + "/stats")
        page.wait_for_selector("#stats-rows tr")
        evenings = page.locator("#stats-evening option").all_inner_texts()
        assert evenings[0] == "全部牌局" and "2026-12-04" in evenings and len(evenings) == 3
        with page.expect_response(lambda response: "evening=2026-12-04" in response.url):
            page.locator("#stats-evening").select_option("2026-12-04")
        page.wait_for_function("document.querySelectorAll('#stats-rows tr').length === 4")
        assert sorted(names(page)) == sorted(TABLES[0])
        friday_stats = get_json(url + "/api/stats?evening=2026-12-04")
        li = next(p for p in friday_stats["players"] if p["name"] == "老李")
        row = page.locator("#stats-rows tr", has=page.locator(".player-name", has_text="老李"))
        assert row.locator("td[data-stat='deal_rate']").inner_text() == f"{li['deal_rate']}%"
        partner = li["partners"][0]
        assert partner["name"] == "小张"  # across the table
        assert row.locator("td[data-stat='partners']").inner_text() == f"小张 {partner['deals']} 局胜 {partner['won']}"
        assert page.locator("thead th[data-i18n='stats.deal_rate']").inner_text() == "胜率（局）"
    finally:
        stop_serve(process)
