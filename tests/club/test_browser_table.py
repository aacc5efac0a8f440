"""A table's own page at the club in Chromium: opened from the room, it is serve's live page (the
felt, the score, the levels) following the table as it plays; read-only without the table's token
(no entry form), and with it a play typed on the page is played by the table's machine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tuolaji.club.results import table_summary

from .conftest import ClubServer, played_records
from .test_table_push import add_table, play, play_on, stored_record, table_machine, wait_for

pytestmark = pytest.mark.browser


def test_table_page_follows_the_table_and_takes_plays(page: Any, club: ClubServer, tmp_path: Path) -> None:
    token = add_table(club, "七号桌")
    table, pusher = table_machine(tmp_path, club, "七号桌", token)
    records = played_records(seed=31)
    # the first play that gives the defenders points: the page's score moves with it
    scoring = next(i for i, record in enumerate(records) if table_summary(record)["defender_points"] > 0)
    try:
        table.start(records[0], name="周六", source="page")  # type: ignore[attr-defined]
        play_on(table, records, 0, scoring - 1)
        assert pusher.flush(20.0)

        refused: list[str] = []  # every request the page makes is answered at the club (no 404 of a missing /api)
        page.on("response", lambda response: refused.append(f"{response.status} {response.url}")
                if response.status >= 400 else None)
        page.goto(f"{club.url}/club")
        page.locator(".table[data-table='七号桌']").click()
        page.wait_for_url(f"{club.url}/club/table/*")
        page.locator("#felt .card").first.wait_for()
        assert page.locator("#defender-points").inner_text() == "0"
        assert page.locator("body.readonly").count() == 1
        assert not page.locator("#manual-form").is_visible()  # without the token: no entry form
        assert not page.locator("#setup-form").is_visible() and not page.locator("#undo").is_visible()
        renders = int(page.evaluate("window.Tuolaji.renders()"))

        play(table, records[scoring])  # the table plays: the page follows, live
        expected = str(table_summary(records[scoring])["defender_points"])
        page.locator("#defender-points", has_text=expected).wait_for()
        assert int(page.evaluate("window.Tuolaji.renders()")) > renders
        shown = page.evaluate("window.Tuolaji.state.state.record.deals[0].tricks")
        assert shown == records[scoring]["deals"][0]["tricks"]
        # the shared level chart: a link of serve's page, answered at the table's address at the club
        href = page.locator("#share-levels").get_attribute("href")
        assert href is not None and href.startswith("/club/table/"), href
        assert page.request.get(f"{club.url}{href}").body()[:8] == b"\x89PNG\r\n\x1a\n"

        # with the table's token (the page opened once with it): the entry form, and a play typed there
        page.goto(f"{club.url}/club/table/七号桌?token={token}")
        page.wait_for_url(f"{club.url}/club/table/*")
        assert page.locator("body.readonly").count() == 0
        page.locator("#manual summary").click()
        form = page.locator("#manual-form")
        form.wait_for()
        following = records[scoring + 1]
        trick = following["deals"][0]["tricks"][-1]
        seat = (trick["leader"] + len(trick["plays"]) - 1) % 4
        form.locator("select[name=seat]").select_option(str(seat))
        form.locator("input[name=cards]").fill(" ".join(trick["plays"][-1]))
        form.get_by_role("button", name="出牌").click()
        wait_for(lambda: stored_record(table)["deals"][0]["tricks"] == following["deals"][0]["tricks"])
        plays = sum(len(t["plays"]) for t in following["deals"][0]["tricks"])
        page.wait_for_function("window.Tuolaji.state && window.Tuolaji.state.state.record.deals[0].tricks"
                               f".reduce((n, t) => n + t.plays.length, 0) === {plays}")
        assert page.locator("#manual-error").is_hidden()
        assert refused == []
    finally:
        pusher.stop()
