"""Issue 33, item 2, on the page: a play the database refuses (another program holds it locked)
is shown as not saved, and the table shows what is stored."""

from __future__ import annotations

import sqlite3

import pytest

from tuolaji.web.store import DATABASE_NAME

from .test_browser_table_flows import set_up_by_hand

pytestmark = pytest.mark.browser


def submit_play(page, seat: int, cards: str):
    manual = page.locator("#manual-form")
    manual.locator("select[name=seat]").select_option(str(seat))
    manual.locator("input[name=cards]").fill(cards)
    with page.expect_response(lambda response: response.url.endswith("/api/play"), timeout=30_000) as answer:
        manual.locator("button[type=submit]").click()
    return answer.value


def test_a_play_under_a_locked_database_shows_not_saved_and_is_not_on_the_table(page, server):
    page.goto(server.url)
    set_up_by_hand(page, ["甲", "乙", "丙", "丁"])
    page.locator("#manual > summary").click()
    assert submit_play(page, 0, "AS").ok
    holder = sqlite3.connect(server.data / DATABASE_NAME, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # the sqlite3 shell, or a backup tool
    try:
        refused = submit_play(page, 1, "3S")
    finally:
        holder.rollback()
        holder.close()
    assert refused.status == 503
    error = page.locator("#manual-error")  # next to the field that sent the play
    error.wait_for(state="visible")
    assert "未保存" in error.inner_text()
    assert [t["plays"] for t in server.state()["state"]["record"]["deals"][0]["tricks"]] == [[["AS"]]]
    assert submit_play(page, 1, "3S").ok  # the lock gone, the next play is saved
    assert [t["plays"] for t in server.state()["state"]["record"]["deals"][0]["tricks"]] == [[["AS"], ["3S"]]]
