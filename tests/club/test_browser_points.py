"""只记分 on a table's page at the club in Chromium (issue 43, item 5): a phone with the table's token
records a trick by its winner and points, played by the table's machine; a trick another phone
recorded meanwhile is refused under the form, named in the table's words."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import ClubServer
from .test_points_at_the_club import points_record
from .test_table_push import add_table, stored_record, table_machine, wait_for

pytestmark = pytest.mark.browser


def test_a_points_trick_entered_on_the_clubs_page(page: Any, club: ClubServer, tmp_path: Path) -> None:
    token = add_table(club, "八号桌")
    table, pusher = table_machine(tmp_path, club, "八号桌", token)
    try:
        table.start(points_record(), name="周六", source="page")  # type: ignore[attr-defined]
        assert pusher.flush(20.0)
        refused: list[str] = []
        page.on("response", lambda response: refused.append(f"{response.status} {response.url}")
                if response.status >= 400 else None)
        page.goto(f"{club.url}/club/table/八号桌?token={token}")
        page.wait_for_url(f"{club.url}/club/table/*")
        page.locator("#points > summary").click()
        page.locator('.points-seat[data-value="1"]').click()
        with page.expect_response(lambda response: response.url.endswith("/api/points/trick")) as answer:
            page.locator('.points-add[data-points="20"]').click()
        assert answer.value.ok, answer.value.text()
        wait_for(lambda: stored_record(table)["deals"][0]["tricks"] == [{"winner": 1, "points": 20}])
        page.wait_for_function("window.Tuolaji.state && window.Tuolaji.state.state.record.deals[0].tricks.length === 1")

        # this phone begins the next trick; another phone records it first (at the club too)
        page.locator('.points-seat[data-value="2"]').click()
        other = club.app.test_client().post("/club/table/八号桌/api/points/trick", headers={"X-Tuolaji-Token": token},
                                            json={"winner": 3, "points": 10, "deal": 0, "trick": 1})
        assert other.status_code == 200, other.get_json()
        with page.expect_response(lambda response: response.url.endswith("/api/points/trick")) as answer:
            page.locator('.points-add[data-points="20"]').click()
        assert answer.value.status == 409
        page.locator("#points-error", has_text="第 2 墩刚有人记了：北 10 分，这次没有记").wait_for()
        assert stored_record(table)["deals"][0]["tricks"] == [{"winner": 1, "points": 20}, {"winner": 3, "points": 10}]
        assert [r for r in refused if "/api/points/trick" not in r] == []
    finally:
        pusher.stop()
