"""The evening's results exported from the director's console (issue 43, item 2): each round's result at
each table as CSV, the fixed figures with their reasons; the standings' CSV beside it."""

from __future__ import annotations

import csv
import io

from .conftest import ClubServer
from .test_director import console
from .test_rounds import evening, setup_of


def test_the_results_as_csv_with_the_fixes(club: ClubServer) -> None:
    client, records, tables = evening(club)
    _, headers = console(club)
    tables.push("A", setup_of(records["A"]))
    client.post("/club/director/api/rounds", headers=headers, json={"seating": "hand", "deals": 1, "tables": [
        {"table": "A", "ns": "P1", "ew": "P2"}, {"table": "B", "ns": "P3", "ew": "P4"}]})
    tables.push("A", records["A"] | {"deals": records["A"]["deals"][:1] + [records["A"]["deals"][1] | {"tricks": []}]})
    client.post("/club/director/api/rounds/end", headers=headers)
    client.post("/club/director/api/results/fix", headers=headers,
                json={"round": 1, "table": "B", "ns": {"points": 80}, "reason": "B 桌的电脑坏了，按纸上记录"})
    answer = client.get("/club/results.csv")
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    assert answer.headers["Content-Disposition"] == "attachment; filename=results.csv"
    rows = list(csv.DictReader(io.StringIO(answer.get_data(as_text=True))))
    counted = client.get("/club/api/results").get_json()["results"]
    assert [(r["round"], r["table"], r["ns"], r["ew"], r["fixed"]) for r in rows] == [
        ("1", "A", "P1", "P2", "0"), ("1", "B", "P3", "P4", "1")]
    assert rows[1]["ns_points"] == "80" and rows[1]["reasons"] == "B 桌的电脑坏了，按纸上记录"
    assert int(rows[0]["ns_levels_gained"]) == counted[0]["figures"]["ns"]["levels_gained"]
    assert int(rows[0]["ew_deals_won"]) == counted[0]["figures"]["ew"]["deals_won"]
    page = client.get(f"/club/director?token={headers['X-Tuolaji-Token']}").get_data(as_text=True)
    assert 'href="/club/results.csv"' in page and 'href="/club/standings.csv"' in page
