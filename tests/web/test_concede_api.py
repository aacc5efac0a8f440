"""认输 in one request from either side (issue 43, item 6): the deal settled by the house's fixed cost or
the points agreed, with no made-up last trick, no kitty asked for and no 抠底 credited in 战绩; the
next deal ready; undo takes it back; older records with ``agreed`` tricks read as before."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tuolaji import scorer
from tuolaji.scorer.player_stats import player_stats

PLAYERS = ["东", "南", "西", "北"]


def _start(client: FlaskClient, profile: str = "standard-2deck") -> None:
    response = client.post("/api/setup", json={"players": PLAYERS, "profile": profile, "trump": "S", "dealer": 0})
    assert response.status_code == 201, response.get_json()


def _a_trick_of_cards_and_one_by_points(client: FlaskClient) -> None:
    for seat, card in zip(range(4), ["AH", "KH", "5H", "10H"], strict=True):
        assert client.post("/api/play", json={"seat": seat, "cards": [card]}).status_code == 201
    assert client.post("/api/points/trick", json={"winner": 1, "points": 20}).status_code == 201


def test_the_dealers_side_concedes_in_one_request_and_the_house_rule_settles_it(client: FlaskClient) -> None:
    _start(client)
    _a_trick_of_cards_and_one_by_points(client)
    before = client.get("/api/state").get_json()["state"]["record"]["deals"][0]["tricks"]
    response = client.post("/api/points/concede", json={"by": "dealer"})
    assert response.status_code == 200, response.get_json()
    state = response.get_json()
    deal = state["state"]["record"]["deals"][0]
    assert deal["tricks"] == before  # no made-up last trick
    assert deal["conceded"] == {"by": "dealer"} and "complete" not in deal and "kitty_points" not in deal
    assert state["view"]["settle_ready"] == [True]  # no kitty asked for
    deal_audit = state["state"]["audit"]["deals"][0]
    assert deal_audit["conceded"] == {"by": "dealer", "points": 80, "agreed": False}
    assert deal_audit["kitty_won_by"] is None and deal_audit["kitty_points"] is None
    assert deal_audit["total_defender_points"] == 80 and deal_audit["outcome"] == {"side": "defenders", "levels": 0}
    assert deal_audit["violations"] == [] and deal_audit["next_dealer"] == 1
    assert state["view"]["concession"]["dealer"] == {"points": 80, "outcome": {"side": "defenders", "levels": 0}}
    row = state["view"]["results"][0]
    assert "庄家认输（按房规 80 分）" in row["words"]["zh"] and "抠底" not in row["words"]["zh"]
    assert "保底" not in row["words"]["zh"]
    assert state["view"]["history"]["undo"]["change"] == "settle"
    tv = client.get("/api/tv").get_json()["tv"]
    assert tv["score"] == {**tv["score"], "points": 80, "settled": True}  # the TV shows the settled total
    picture = client.get(f"/api/share/{state['session']['id']}/deal/0.png")
    assert picture.status_code == 200 and picture.mimetype == "image/png"
    # 战绩: the result counts, no 抠底 for anybody
    record = state["state"]["record"]
    rows = {row.name: row for row in player_stats([(record, scorer.audit_record(record))])}
    assert [rows[name].kitty for name in PLAYERS] == [0, 0, 0, 0] and [rows[name].deals for name in PLAYERS] == [1, 1, 1, 1]
    assert [rows[name].took_over for name in PLAYERS] == [0, 1, 0, 1]
    # the next deal is ready: its dealer the audit's
    state = client.post("/api/next-deal", json={"trump": "H"}).get_json()
    assert state["state"]["record"]["deals"][1]["dealer"] == 1


def test_the_defenders_concede_with_points_agreed_and_undo_takes_it_back(client: FlaskClient) -> None:
    _start(client)
    _a_trick_of_cards_and_one_by_points(client)
    state = client.post("/api/points/concede", json={"by": "defenders", "points": 30}).get_json()
    deal_audit = state["state"]["audit"]["deals"][0]
    assert state["state"]["record"]["deals"][0]["conceded"] == {"by": "defenders", "points": 30}
    assert deal_audit["total_defender_points"] == 30 and deal_audit["outcome"] == {"side": "dealer", "levels": 2}
    assert state["view"]["deals"][0]["levels_after"] == ["4", "2", "4", "2"]
    # the deal is over: a second concession (another phone) and a trick are refused
    again = client.post("/api/points/concede", json={"by": "dealer"})
    assert again.status_code == 400 and again.get_json()["message"]["zh"] == "第 1 局已经结束了，不能再认输"
    for path, body in (("points/trick", {"winner": 1, "points": 5}), ("play", {"seat": 1, "cards": ["AS"]})):
        refused = client.post(f"/api/{path}", json=body)
        assert refused.status_code == 400 and refused.get_json()["message"]["zh"] == "第 1 局已经认输结算：要再记，先撤销认输"
    client.post("/api/undo")
    assert "conceded" not in client.get("/api/state").get_json()["state"]["record"]["deals"][0]


@pytest.mark.parametrize(("body", "zh"), [
    ({"by": "nobody"}, "认输的是庄家一方或闲家一方，不是 \"nobody\""),
    ({"by": "dealer", "points": 33}, "商定的 33 分：分都是 5 的倍数（5、10、K），这次没有记"),
])
def test_a_concession_that_cannot_be_is_refused_with_the_reason(client: FlaskClient, body: dict[str, Any],
                                                                   zh: str) -> None:
    _start(client)
    refused = client.post("/api/points/concede", json=body)
    assert refused.status_code == 400 and refused.get_json()["message"]["zh"] == zh
    assert "conceded" not in client.get("/api/state").get_json()["state"]["record"]["deals"][0]


def test_a_trick_half_played_is_finished_or_undone_before_conceding(client: FlaskClient) -> None:
    _start(client)
    client.post("/api/play", json={"seat": 0, "cards": ["AH"]})
    refused = client.post("/api/points/concede", json={"by": "dealer"})
    assert refused.status_code == 400 and refused.get_json()["message"]["zh"].startswith("第 1 墩还没出完")


def test_the_house_rule_one_level_and_a_record_that_says_nothing_of_it() -> None:
    record: dict[str, Any] = {"rules": {"profile": "guangzhou-3deck", "concede": "one-level"}, "players": PLAYERS,
                              "deals": [{"level": "2", "trump": "S", "dealer": 0, "tricks": [], "conceded": {"by": "dealer"}}]}
    deal_audit = scorer.audit_record(record)["deals"][0]
    assert deal_audit["outcome"] == {"side": "defenders", "levels": 1}
    with pytest.raises(scorer.RulesError):
        scorer.resolve_rules({"profile": "standard-2deck", "concede": "all"})
    record["deals"][0]["conceded"] = {"by": "someone"}
    with pytest.raises(scorer.RecordError, match="dealer"):
        scorer.audit_record(record)


def test_the_record_feed_replays_a_conceded_deal() -> None:
    from tuolaji.session.live import LiveGame
    from tuolaji.web.table import RecordFeed, record_setup

    record: dict[str, Any] = {"rules": "standard-2deck", "players": PLAYERS, "deals": [
        {"level": "2", "trump": "S", "dealer": 0,
         "tricks": [{"leader": 0, "plays": [["AH"], ["KH"], ["5H"], ["10H"]]}, {"winner": 1, "points": 20}],
         "conceded": {"by": "defenders", "points": 25}}]}
    game = LiveGame(record_setup(record))
    RecordFeed(game, record, pace_s=0).run()
    assert game.audit()["deals"] == scorer.audit_record(record)["deals"]
    assert game.snapshot()["deals"][0]["conceded"] == {"by": "defenders", "points": 25}
