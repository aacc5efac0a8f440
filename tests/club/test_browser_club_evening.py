"""Issue 43's "Done when" evening, in Chromium, as a director runs it: the club started with one command
(``tuolaji club --data DIR``, its own PostgreSQL), the console opened at the address it prints, four
tables added and eight pairs pasted as a list, three rounds of a Howell movement on the four tables,
each table's page at the club showing its seating, seat cards printed, every round ended from the
console, one result fixed with its reason, and the standings what the tables' records give.

The tables' machines push their records as numbered changes (the path ``tuolaji serve --club`` takes,
``/club/api/tables/<name>/changes``): a scripted deal a round rather than every card played."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from tuolaji.club.results import pair_results, standings

from .conftest import evening_record
from .test_command import ROOT, free_port

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TABLES = [f"{n}号桌" for n in range(1, 5)]
PAIRS_TEXT = "\n".join(f"对{n} 甲{n} 乙{n}" for n in range(1, 9))
ROUNDS = 3


def printed_line(log: Path, start: str, process: subprocess.Popen[str], timeout: float = 60.0) -> str:
    """The first line the club printed that starts with ``start`` (it prints to ``log``)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in log.read_text(encoding="utf-8").splitlines():
            if line.startswith(start):
                return line
        assert process.poll() is None, log.read_text(encoding="utf-8")
        time.sleep(0.1)
    raise AssertionError(f"the club never said {start!r}: {log.read_text(encoding='utf-8')}")


def push(url: str, table: str, token: str, n: int, record: dict[str, Any]) -> None:
    """The table's machine sends its record as its ``n``-th change."""
    body = json.dumps({"changes": [{"n": n, "session": 1, "name": "周五", "record": record}]}).encode()
    request = urllib.request.Request(f"{url}/club/api/tables/{quote(table)}/changes", data=body, method="POST",
                                     headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert json.loads(answer.read())["applied_through"] == n


def read_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return json.loads(answer.read())


def test_a_club_evening_run_from_the_console(page: Any, other_device: Any,
                                             tmp_path_factory: pytest.TempPathFactory) -> None:
    # each table's evening: three deals (one a round), then the next deal set up; the record as it stands
    # at the end of round r holds r deals finished
    full = {name: evening_record((41 + 3 * t, 42 + 3 * t, 43 + 3 * t)) for t, name in enumerate(TABLES)}
    after_round = {name: {r: record | {"deals": record["deals"][:r] + [record["deals"][r] | {"tricks": []}]}
                          for r in range(1, ROUNDS + 1)} for name, record in full.items()}

    folder = tmp_path_factory.mktemp("evening") / "club"
    log = folder.parent / "club.log"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with open(log, "w", encoding="utf-8") as out:  # the one command
        process = subprocess.Popen([sys.executable, "-m", "tuolaji", "club", "--data", str(folder), "--port", str(port)],
                                   cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, text=True,
                                   env={k: v for k, v in os.environ.items() if k != "TUOLAJI_CLUB_DB"}
                                   | {"PYTHONUNBUFFERED": "1"})
    try:
        console = printed_line(log, "tuolaji club: the director's console: ", process).split(": ", 2)[2].strip()
        assert console.startswith(f"{url}/club/director?token=")
        page.goto(console)
        page.locator("#round-line", has_text="还没有开始任何一轮").wait_for()

        for name in TABLES:
            page.fill("#table-name", name)
            page.click("#add-table")
            page.locator(f"#table-list li[data-table='{name}']").wait_for()
        tokens = {name: page.locator(f"#table-list li[data-table='{name}'] .token").inner_text() for name in TABLES}
        # each table's page at the club, open on a device at the table for the evening
        table_pages = {name: other_device if n == 0 else other_device.context.new_page() for n, name in enumerate(TABLES)}
        for name, table_page in table_pages.items():
            table_page.goto(f"{url}/club/table/{quote(name)}")
        page.fill("#pairs-text", PAIRS_TEXT)
        page.click("#add-pairs")
        page.locator("#pairs-added", has_text="登记了 8 对").wait_for()

        rows: list[dict[str, Any]] = []  # one a pair and round: the figures the tables' records give
        seatings: dict[int, dict[str, tuple[str, str]]] = {}
        for r in range(1, ROUNDS + 1):
            page.select_option("#seating", "howell")
            page.select_option("#ends-by", "time")
            page.fill("#minutes", "40")
            page.click("#start-round")
            page.locator("#round-line", has_text=f"第 {r} 轮").wait_for()
            seated = {name: (page.locator(f"#room-rows tr[data-table='{name}'] .ns .pair").inner_text(),
                             page.locator(f"#room-rows tr[data-table='{name}'] .ew .pair").inner_text())
                      for name in TABLES}
            seatings[r] = seated
            assert sorted(p for pair in seated.values() for p in pair) == sorted(f"对{n}" for n in range(1, 9))
            if r > 1:
                assert seated != seatings[r - 1]  # the movement moved the pairs
            for name, (ns, ew) in seated.items():  # each table's page shows its seating as the round starts
                table_pages[name].locator("#seat-line").get_by_text(
                    f"第 {r} 轮 · 南北 甲{ns[1:]} 乙{ns[1:]} 对 东西 甲{ew[1:]} 乙{ew[1:]}").wait_for()
            if r == 1:  # seat cards for the first round, printed
                with page.context.expect_page() as opened:
                    page.click("#cards-link")
                cards = opened.value
                cards.locator(".seat-card").first.wait_for()
                assert cards.locator(".seat-card").count() == len(TABLES)
                for name, (ns, ew) in seated.items():
                    card = cards.locator(f".seat-card[data-table='{name}']")
                    assert card.locator(".ns").inner_text() == f"{ns} 甲{ns[1:]} 乙{ns[1:]}"
                    assert card.locator(".ew").inner_text() == f"{ew} 甲{ew[1:]} 乙{ew[1:]}"
                cards.emulate_media(media="print")
                assert cards.locator("header.topbar").is_hidden() and cards.locator(".seat-card").first.is_visible()
                cards.close()
            for name in TABLES:  # each table plays the round's deal
                push(url, name, tokens[name], r, after_round[name][r])
            for name in TABLES:  # the console follows: each table has played the round's first deal
                page.locator(f"#room-rows tr[data-table='{name}'] .status", has_text="进行中 · 第 2 副").wait_for()
            page.click("#end-round")
            page.locator("#round-line", has_text=f"第 {r} 轮已结束").wait_for()
            for name, (ns, ew) in seated.items():
                figures = pair_results(after_round[name][r], r - 1, r)
                rows += [{"pair": ns, **figures["ns"]}, {"pair": ew, **figures["ew"]}]

        # one result fixed, with its reason: round 2 at 3号桌, its 南北 pair's levels
        ns = seatings[2]["3号桌"][0]
        row = next(row for row in rows[8:16] if row["pair"] == ns)
        fixed = row["levels_gained"] + 2
        page.select_option("#fix-row", '[2,"3号桌"]')
        assert page.input_value("#fix-ns-levels_gained") == str(row["levels_gained"])
        page.fill("#fix-ns-levels_gained", str(fixed))
        page.fill("#fix-reason", "南北少记了两级")
        page.click("#fix-result")
        page.locator("#fix-done", has_text="已更正第 2 轮 3号桌 的成绩").wait_for()
        row["levels_gained"] = fixed

        expected = standings(rows)
        assert read_json(f"{url}/club/api/standings")["standings"] == expected
        assert all(line["rounds"] == ROUNDS for line in expected)
        page.goto(f"{url}/club/standings")
        page.locator("td.pair").first.wait_for()
        assert page.locator("td.pair").all_inner_texts() == [line["pair"] for line in expected]
    finally:
        process.terminate()
        assert process.wait(30) == 0
