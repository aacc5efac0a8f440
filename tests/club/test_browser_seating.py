"""Players told where to sit (#43 item 3) in Chromium: a round started on the director's console shows
on the table's own page ("第 1 轮 · 南北 赵 钱 对 东西 孙 李"), whose one button starts a game with those
players in their seats; on its page at the club and in the room until the round ends."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tuolaji.club.attach import attach_club
from tuolaji.web import create_app, get_table

from .conftest import ClubServer, organiser
from .test_rounds import PAIRS
from .test_table_push import add_table, stored_record, wait_for

pytestmark = pytest.mark.browser


def test_the_table_is_told_where_its_players_sit(page: Any, club: ClubServer, tmp_path: Path) -> None:
    client = club.app.test_client()
    headers = organiser(club)
    for name, players in PAIRS.items():
        client.post("/club/api/pairs", headers=headers, json={"name": name, "players": players})
    token = add_table(club, "A")
    app = create_app({"DATA_DIR": str(tmp_path / "A"), "TESTING": True, "RESUME_LATEST": False})
    table = get_table(app)
    pusher = attach_club(table, tmp_path / "A", club.url, "A", token, retry_s=0.05, max_retry_s=0.2)
    served = ClubServer.__new__(ClubServer)  # the table's own machine, its page served as `tuolaji serve` serves it
    served.app, served.port, served.server, served.thread = app, 0, None, None
    served.start()
    try:
        page.goto(f"{club.url}/club/director?token={headers['Authorization'].removeprefix('Bearer ')}")
        page.locator("#hand-rows tr[data-table='A'] .ew option[value='P2']").wait_for(state="attached")
        page.click("#start-round")
        page.locator("#round-line", has_text="第 1 轮").wait_for()

        page.goto(f"{served.url}/?token={app.config['WRITE_TOKEN']}")
        line = page.locator("#seat-line")
        line.get_by_text("第 1 轮 · 南北 赵 钱 对 东西 孙 李").wait_for()
        page.click("#club-seat")
        line.get_by_text("已按本轮座位就座").wait_for()
        assert page.locator("#club-seat").is_hidden()
        wait_for(lambda: table.has_game and stored_record(table)["players"] == ["赵", "孙", "钱", "李"])

        page.goto(f"{club.url}/club/table/A")  # the table's page at the club: the same line, no button
        page.locator("#seat-line").get_by_text("第 1 轮 · 南北 赵 钱 对 东西 孙 李").wait_for()
        assert page.locator("#club-seat").is_hidden()
        page.goto(f"{club.url}/club")  # the room, until the round ends
        seating = page.locator(".table[data-table='A'] .seating")
        seating.locator(".ns", has_text="赵 钱").wait_for()
        client.post("/club/api/rounds/end", headers=headers)
        seating.wait_for(state="detached")
        page.goto(f"{served.url}/")
        page.locator("#felt, #setup").first.wait_for(state="attached")
        wait_for(lambda: pusher.seating is None)
        page.reload()
        page.locator("#seat-line").wait_for(state="hidden")
    finally:
        pusher.stop()
        served.stop()
