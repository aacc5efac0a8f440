"""A two-round club evening in Chromium: the room's page follows both tables live (pushed changes
arrive over LISTEN/NOTIFY and the event stream), says when the database is away and recovers, a
click opens a table's read-only page, the projector screen cycles, and the standings page shows
the final ranking with its CSV and PNG."""

from __future__ import annotations

import urllib.request
from pathlib import Path
from typing import Any

import pytest

from .conftest import ClubServer, OwnServer
from .test_rounds import evening, setup_of

pytestmark = pytest.mark.browser


def test_two_round_evening_in_the_browser(page: Any, club: ClubServer, postgres: OwnServer) -> None:
    club.app.config["SCREEN_SECONDS"] = 1
    client, records, tables = evening(club)
    headers = client.application.extensions["tuolaji.club"].organiser_token()
    organiser = {"Authorization": f"Bearer {headers}"}
    for name in ("A", "B"):
        tables.push(name, setup_of(records[name]))
    page.goto(f"{club.url}/club")
    card = page.locator(".table[data-table='A']")
    card.get_by_text("第 1 局").wait_for()
    assert page.locator(".table").count() == 2

    client.post("/club/api/rounds", headers=organiser, json={
        "seating": "hand", "ends_by": "deals", "deals": 1,
        "tables": [{"table": "A", "ns": "P1", "ew": "P2"}, {"table": "B", "ns": "P3", "ew": "P4"}]})
    # the first tricks of table A arrive live: the page follows without a reload
    first = records["A"]["deals"][0]
    partial = setup_of(records["A"]) | {"deals": [first | {"tricks": first["tricks"][:3]}]}
    tables.push("A", partial)
    card.locator(".muted", has_text="#2").wait_for()
    assert "3 墩" in card.inner_text()

    # the database goes away mid-round: the page says so; back, it reads the room again
    postgres.stop()
    try:
        page.locator("#banner", has_text="数据库暂时不可用").wait_for()
    finally:
        postgres.start()
    page.locator("#banner").wait_for(state="hidden", timeout=30_000)

    one_deal = {name: record | {"deals": record["deals"][:1] + [record["deals"][1] | {"tricks": []}]}
                for name, record in records.items()}
    for name in ("A", "B"):
        tables.push(name, one_deal[name])
    card.get_by_text("第 2 局").wait_for()
    client.post("/club/api/rounds/end", headers=organiser)
    client.post("/club/api/rounds", headers=organiser, json={"seating": "swiss", "ends_by": "deals", "deals": 1})
    for name in ("A", "B"):
        tables.push(name, records[name])
    page.locator(".table[data-table='B']").get_by_text("第 3 局").wait_for()
    client.post("/club/api/rounds/end", headers=organiser)

    # a click opens the table's page (serve's live page), read-only
    card.click()
    page.wait_for_url(f"{club.url}/club/table/A")
    page.locator("#readonly-note").wait_for()
    page.locator("#team-levels li").first.wait_for()  # the next deal set up: its levels, no card on the felt yet
    assert not page.locator("#manual-form").is_visible() and not page.locator("#setup-form").is_visible()

    # the projector's screen shows one table, then the other
    page.goto(f"{club.url}/club/screen")
    shown = {page.locator(".table").get_attribute("data-table")}
    for _ in range(60):
        page.wait_for_timeout(250)
        shown.add(page.locator(".table").get_attribute("data-table"))
        if len(shown) == 2:
            break
    assert shown == {"A", "B"}

    # the standings, as the API ranks them, with the CSV and the notice board's PNG
    page.goto(f"{club.url}/club/standings?rule=level_diff")
    expected = client.get("/club/api/standings?rule=level_diff").get_json()["standings"]
    page.locator("td.pair").first.wait_for()
    assert page.locator("td.pair").all_inner_texts() == [row["pair"] for row in expected]
    href = page.get_by_role("link", name="PNG").get_attribute("href")
    with urllib.request.urlopen(f"{club.url}{href}", timeout=10) as answer:
        assert answer.read(8) == b"\x89PNG\r\n\x1a\n"


def test_referee_rules_from_the_console(page: Any, club: ClubServer, tmp_path: Path) -> None:
    from tuolaji.club.attach import attach_club
    from tuolaji.datasets.demo import demo_game
    from tuolaji.web import create_app, get_table

    from .test_table_push import add_table, stored_record

    token = add_table(club, "五号桌")
    # the table's own machine, its page served as `tuolaji serve` serves it
    app = create_app({"DATA_DIR": str(tmp_path / "table"), "TESTING": True, "RESUME_LATEST": False})
    table = get_table(app)
    pusher = attach_club(table, tmp_path / "table", club.url, "五号桌", token, retry_s=0.05, max_retry_s=0.2)
    served = ClubServer.__new__(ClubServer)
    served.app, served.port, served.server, served.thread = app, 0, None, None
    served.start()
    organiser_token = club.app.extensions["tuolaji.club"].organiser_token()
    try:
        table.start(demo_game(), name="demo", source="page")  # type: ignore[attr-defined]
        assert pusher.flush(20.0)
        page.goto(f"{club.url}/club/referee")  # without the organiser's token: the violations, no ruling
        page.locator("#violations .violation .rule-name", has_text="未跟花色").wait_for()  # in the page's language
        assert page.locator("#violations .violation .player").first.inner_text() in demo_game()["players"]
        assert page.locator("button.rule").count() == 0 and page.locator("a.typo").count() == 0
        page.click("#lang-toggle")
        page.locator("#violations .violation .rule-name", has_text="did not follow suit").wait_for()
        page.click("#lang-toggle")
        page.goto(f"{club.url}/club/referee?token={organiser_token}")
        page.locator("input.ruling-points").fill("20")
        page.locator("button.rule").click()  # a player's breach: the penalty
        assert page.locator("a.typo").get_attribute("href") == "/club/table/%E4%BA%94%E5%8F%B7%E6%A1%8C"
        page.locator("#rulings .ruling", has_text="罚 20 分").wait_for()
        deal = stored_record(table)["deals"][0]
        assert [(r["rule"], r["points"]) for r in deal["rulings"]] == [("must-follow-suit", 20)]
        # the deal's penalties, the ruling's among them (in the fold of the earlier deals' alerts)
        ruled = "#alerts li.alert.penalty[data-points='20'], #alerts li.alert.penalty[data-points='-20']"
        page.goto(f"{served.url}/")  # shown at the table itself: its own serve page
        page.locator(ruled).wait_for(state="attached")
        page.goto(f"{club.url}/club/table/五号桌")  # and on the table's page at the club
        page.locator(ruled).wait_for(state="attached")
        page.goto(f"{club.url}/club")
        page.locator(".table[data-table='五号桌'] .ruling", has_text="1 裁决").wait_for()
    finally:
        pusher.stop()
        served.stop()
