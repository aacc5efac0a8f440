"""A result fixed from the director's console with its reason (issue 43, item 2): the standings count the
fixed figures, the record's figures and every fix (the figures before it, its reason, its time) stay
readable; a fix without a reason, of a table the round did not seat, or with figures that are not whole
numbers, is refused in one line of both languages."""

from __future__ import annotations

from tuolaji.club.results import pair_results, standings

from .conftest import ClubServer
from .test_director import console
from .test_rounds import evening, setup_of


def test_a_fixed_result_counts_and_its_reason_and_the_figures_before_stay(club: ClubServer) -> None:
    client, records, tables = evening(club)
    _, headers = console(club)
    for name in ("A", "B"):
        tables.push(name, setup_of(records[name]))
    client.post("/club/director/api/rounds", headers=headers, json={"seating": "hand", "deals": 1, "tables": [
        {"table": "A", "ns": "P1", "ew": "P2"}, {"table": "B", "ns": "P3", "ew": "P4"}]})
    one_deal = {name: record | {"deals": record["deals"][:1] + [record["deals"][1] | {"tricks": []}]}
                for name, record in records.items()}
    for name in ("A", "B"):
        tables.push(name, one_deal[name])
    client.post("/club/director/api/rounds/end", headers=headers)
    from_records = {t: pair_results(one_deal[t], 0, 1) for t in ("A", "B")}
    rows = client.get("/club/director/api/results", headers=headers).get_json()["results"]
    assert [(r["round"], r["table"], r["ns"], r["ew"]) for r in rows] == [(1, "A", "P1", "P2"), (1, "B", "P3", "P4")]
    assert rows[0]["record"] == rows[0]["figures"] == from_records["A"] and rows[0]["fixes"] == []

    # no reason: refused, nothing changes
    bare = client.post("/club/director/api/results/fix", headers=headers,
                       json={"round": 1, "table": "A", "ns": {"levels_gained": 3}, "reason": "  "})
    assert bare.status_code == 400 and bare.get_json()["message"] == {
        "zh": "更正成绩要写明理由（1 到 500 个字），理由留在记录里",
        "en": "a fixed result needs its reason (1 to 500 characters), kept in the record"}
    assert client.get("/club/director/api/results", headers=headers).get_json()["results"][0]["fixes"] == []

    fixed = client.post("/club/director/api/results/fix", headers=headers, json={
        "round": 1, "table": "A", "ns": {"levels_gained": 3, "points": 0}, "ew": {"levels_gained": 0},
        "reason": "记错了一局：南北打过了 A"})
    assert fixed.status_code == 201
    row = fixed.get_json()
    expected = {"ns": from_records["A"]["ns"] | {"levels_gained": 3, "points": 0},
                "ew": from_records["A"]["ew"] | {"levels_gained": 0}}
    assert row["figures"] == expected and row["record"] == from_records["A"]
    assert [(f["before"], f["after"], f["reason"]) for f in row["fixes"]] == [
        (from_records["A"], expected, "记错了一局：南北打过了 A")]
    assert row["fixes"][0]["at"]
    # the standings count the fixed figures (the JSON API, the CSV and anyone's view of the results alike)
    counted = [{"pair": "P1", **expected["ns"]}, {"pair": "P2", **expected["ew"]},
               {"pair": "P3", **from_records["B"]["ns"]}, {"pair": "P4", **from_records["B"]["ew"]}]
    for rule in ("levels", "points"):
        assert client.get(f"/club/api/standings?rule={rule}").get_json()["standings"] == standings(counted, rule)
    assert client.get("/club/api/results").get_json()["results"][0]["fixes"][0]["reason"] == "记错了一局：南北打过了 A"

    # fixed again: both fixes kept, the latest counts, its "before" the first fix's figures
    again = client.post("/club/director/api/results/fix", headers=headers, json={
        "round": 1, "table": "A", "ew": {"deals_won": 0}, "reason": "east-west's deal was a misdeal"}).get_json()
    assert [f["reason"] for f in again["fixes"]] == ["记错了一局：南北打过了 A", "east-west's deal was a misdeal"]
    assert again["fixes"][1]["before"] == expected and again["figures"]["ew"]["deals_won"] == 0
    assert again["figures"]["ns"] == expected["ns"]


def test_a_fix_the_club_cannot_take_is_one_line(club: ClubServer) -> None:
    client, records, tables = evening(club)
    _, headers = console(club)
    client.post("/club/director/api/rounds", headers=headers, json={"seating": "hand", "deals": 1, "tables": [
        {"table": "A", "ns": "P1", "ew": "P2"}]})
    nowhere = client.post("/club/director/api/results/fix", headers=headers,
                          json={"round": 1, "table": "B", "ns": {"points": 5}, "reason": "x"})
    assert nowhere.status_code == 404 and nowhere.get_json()["message"]["zh"] == "第 1 轮没有安排“B”这张桌"
    assert client.post("/club/director/api/results/fix", headers=headers, json={
        "round": True, "table": "A", "ns": {"points": 5}, "reason": "x"}).status_code == 404  # a round is a number
    not_whole = client.post("/club/director/api/results/fix", headers=headers,
                            json={"round": 1, "table": "A", "ns": {"points": 2.5}, "reason": "x"})
    assert not_whole.status_code == 400 and not_whole.get_json()["message"]["en"] == (
        "pair 'P1': points must be a whole number, got '2.5'")
    unknown = client.post("/club/director/api/results/fix", headers=headers,
                          json={"round": 1, "table": "A", "ew": {"bonus": 1}, "reason": "x"})
    assert unknown.status_code == 400 and "P2" in unknown.get_json()["message"]["zh"]
    assert client.post("/club/director/api/results/fix", json={"round": 1, "table": "A", "reason": "x"}
                       ).status_code == 403
    assert client.get("/club/director/api/results").status_code == 403
