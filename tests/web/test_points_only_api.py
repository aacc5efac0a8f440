"""只记分 on the page's API (issue 30, items 1 and 2): tricks by their winner and points, a deal by
the defenders' points, the kitty by its points, 认输 / 直接结算, cards and points in one deal; undo,
the results line, the replay and the share picture read them; the settlement is the audit's."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from flask.testing import FlaskClient

from tuolaji import scorer
from tuolaji.web import get_table

PLAYERS = ["东", "南", "西", "北"]


def _start(client: FlaskClient, profile: str = "standard-2deck", dealer: int = 0) -> dict[str, Any]:
    response = client.post("/api/setup", json={"players": PLAYERS, "profile": profile, "trump": "S", "dealer": dealer})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def _state(client: FlaskClient) -> dict[str, Any]:
    return client.get("/api/state").get_json()


def _record(client: FlaskClient) -> dict[str, Any]:
    return _state(client)["state"]["record"]


def test_a_deal_kept_trick_by_trick_by_points_settles_as_the_audit_says(client: FlaskClient) -> None:
    _start(client)
    for winner, points in [(0, 10), (1, 20), (3, 5), (1, 0)]:
        assert client.post("/api/points/trick", json={"winner": winner, "points": points}).status_code == 201
    response = client.post("/api/points/trick", json={"winner": 3, "points": 10, "last": True, "unit": 2})
    assert response.status_code == 201
    state = response.get_json()
    deal = state["state"]["record"]["deals"][0]
    assert deal["tricks"][-1] == {"winner": 3, "points": 10, "unit": 2} and deal["complete"] is True
    assert state["view"]["settle_ready"] == [False]
    state = client.post("/api/kitty", json={"points": 15}).get_json()
    assert state["view"]["settle_ready"] == [True]
    deal_audit = state["state"]["audit"]["deals"][0]
    # defenders 1 and 3: 20 + 5 + 10 in the tricks, the kitty's 15 × 4 (a pair, the last trick theirs)
    assert (deal_audit["defender_points"], deal_audit["kitty_multiplier"], deal_audit["total_defender_points"]) == (35, 4, 95)
    assert deal_audit == scorer.audit_record(_record(client))["deals"][0]
    assert state["view"]["results"][0]["settled"] is True
    assert state["view"]["history"]["undo"]["change"] == "kitty"
    # undo takes back the kitty, then the last trick
    client.post("/api/undo")
    state = client.post("/api/undo").get_json()
    assert len(state["state"]["record"]["deals"][0]["tricks"]) == 4 and "complete" not in state["state"]["record"]["deals"][0]
    assert state["state"]["expected_seat"] == 1  # the winner of the last trick leads


def test_a_deal_by_the_defenders_total_and_the_next_deal(client: FlaskClient) -> None:
    _start(client)
    state = client.post("/api/points/deal", json={"defender_points": 85, "last_winner": 1, "unit": 1,
                                                   "kitty_points": 10}).get_json()
    deal = state["state"]["record"]["deals"][0]
    assert deal["defender_points"] == 85 and deal["last_trick"] == {"winner": 1, "unit": 1} and deal["kitty_points"] == 10
    assert "agreed" not in deal and "tricks" not in deal
    deal_audit = state["state"]["audit"]["deals"][0]
    assert deal_audit["total_defender_points"] == 105 and deal_audit["outcome"] == {"side": "defenders", "levels": 0}
    assert state["view"]["history"]["undo"]["change"] == "settle"
    state = client.post("/api/next-deal", json={"trump": "H"}).get_json()
    assert state["state"]["record"]["deals"][1]["dealer"] == 1
    # the next deal is played with cards again
    assert client.post("/api/play", json={"seat": 1, "cards": ["AS"]}).status_code == 201


def test_conceding_mid_deal_keeps_the_cards_and_marks_the_agreement(client: FlaskClient) -> None:
    _start(client)
    for seat, card in zip(range(4), ["AH", "KH", "5H", "10H"], strict=True):
        client.post("/api/play", json={"seat": seat, "cards": [card]})
    # a trick by points, then the table settles now
    client.post("/api/points/trick", json={"winner": 1, "points": 20})
    too_few = client.post("/api/points/deal", json={"defender_points": 10, "last_winner": 0, "unit": 2})
    assert too_few.status_code == 400 and "20" in too_few.get_json()["message"]["zh"]
    # the old 认输 by 按一局记 (``agreed``) is refused, naming the field and what to send instead (issue 43, item 6)
    old_form = client.post("/api/points/deal", json={"defender_points": 70, "last_winner": 0, "unit": 2, "agreed": True,
                                                      "kitty_points": 5})
    assert old_form.status_code == 400
    words = old_form.get_json()["message"]
    assert words["zh"].startswith("agreed：") and "/api/points/concede" in words["zh"]
    assert words["en"].startswith("agreed: ") and "/api/points/concede" in words["en"]
    assert "complete" not in _record(client)["deals"][0]  # nothing recorded
    # a record an older version settled so (认输 / 直接结算, the defenders credited 70 in all) reads as before
    with get_table(client.application).writing() as game:
        game.settle_points(70, 0, 2, agreed=True, kitty_points=5, history=True)
    state = _state(client)
    deal = state["state"]["record"]["deals"][0]
    assert deal["agreed"] is True and deal["complete"] is True
    assert deal["tricks"][0]["plays"] == [["AH"], ["KH"], ["5H"], ["10H"]]
    assert deal["tricks"][2:] == [{"winner": 1, "points": 50, "agreed": True},
                                  {"winner": 0, "points": 0, "unit": 2, "agreed": True}]
    deal_audit = state["state"]["audit"]["deals"][0]
    assert deal_audit["defender_points"] == 70 and deal_audit["kitty_won_by"] == "dealer"
    assert deal_audit["total_defender_points"] == 70
    row = state["view"]["results"][0]
    assert row["agreed"] is True and "认输 / 直接结算" in row["words"]["zh"]
    picture = client.get(f"/api/share/{state['session']['id']}/deal/0.png")
    assert picture.status_code == 200 and picture.mimetype == "image/png"
    # no more tricks once it is over; undo opens it again
    refused = client.post("/api/points/trick", json={"winner": 1, "points": 5})
    assert refused.status_code == 400 and refused.get_json()["message"]["zh"].startswith("第 1 局已经打完")
    client.post("/api/undo")
    assert "agreed" not in _record(client)["deals"][0]


def test_points_refused_in_a_trick_half_played_and_cards_after_points(client: FlaskClient) -> None:
    _start(client)
    client.post("/api/play", json={"seat": 0, "cards": ["AH"]})
    refused = client.post("/api/points/trick", json={"winner": 1, "points": 5})
    assert refused.status_code == 400 and "第 1 墩还没出完" in refused.get_json()["message"]["zh"]
    for seat, card in zip(range(1, 4), ["KH", "5H", "10H"], strict=True):
        client.post("/api/play", json={"seat": seat, "cards": [card]})
    client.post("/api/points/trick", json={"winner": 2, "points": 15})
    state = _state(client)
    assert state["state"]["expected_seat"] == 2
    assert client.post("/api/play", json={"seat": 2, "cards": ["AD"]}).status_code == 201
    tricks = _record(client)["deals"][0]["tricks"]
    assert tricks[-1] == {"leader": 2, "plays": [["AD"]]} and tricks[1] == {"winner": 2, "points": 15}
    assert client.post("/api/points/trick", json={"winner": 7, "points": 5}).status_code == 400
    assert client.post("/api/points/trick", json={"winner": 1, "points": -5}).status_code == 400


def test_points_that_cannot_be_are_refused_at_entry_not_turned_into_a_violation(client: FlaskClient) -> None:
    """A scorer's slip (12 points, 400 in a trick of 2 decks) is refused with the reason, and nothing is
    recorded (issue 43, item 6); a record written elsewhere with such points is still flagged by the audit."""
    _start(client)
    response = client.post("/api/points/trick", json={"winner": 1, "points": 12})
    assert response.status_code == 400
    assert response.get_json()["message"]["zh"] == "12 分：一墩的分都是 5 的倍数（5、10、K），这次没有记"
    response = client.post("/api/points/trick", json={"winner": 1, "points": 400})
    assert response.status_code == 400
    assert response.get_json()["message"]["en"] == "400 points in one trick: 2 decks hold 200 in all; not recorded"
    state = _state(client)["state"]
    assert state["record"]["deals"][0]["tricks"] == [] and state["audit"]["deals"][0]["violations"] == []
    record = _record(client)
    record["deals"][0]["tricks"] = [{"winner": 1, "points": 12}]
    assert [v["rule"] for v in scorer.audit_record(record)["deals"][0]["violations"]] == ["bad-points"]


def test_replay_share_and_the_cli_read_a_points_game(client: FlaskClient, tmp_path: Any) -> None:
    _start(client)
    client.post("/api/points/trick", json={"winner": 1, "points": 30})
    client.post("/api/points/trick", json={"winner": 2, "points": 10, "last": True, "unit": 1})
    client.post("/api/kitty", json={"points": 10})
    session_id = _state(client)["session"]["id"]
    steps = client.get(f"/api/replay/{session_id}").get_json()["steps"]
    assert [(s["seat"], s["points"]) for s in steps] == [(1, 30), (2, 10)]
    at = client.get(f"/api/replay/{session_id}/at/1").get_json()
    assert at["state"]["record"]["deals"][0]["tricks"] == [{"winner": 1, "points": 30}]
    assert at["state"]["audit"]["deals"][0]["outcome"] is None
    end = client.get(f"/api/replay/{session_id}/at/2").get_json()
    assert end["state"]["audit"]["deals"][0]["outcome"] is not None
    assert client.get(f"/api/share/{session_id}/deal/0.png").status_code == 200
    assert client.get(f"/api/share/{session_id}/levels.png").status_code == 200
    exported = client.get(f"/api/sessions/{session_id}/export")
    path = tmp_path / "game.json"
    path.write_bytes(exported.data)
    out = subprocess.run([sys.executable, "-m", "tuolaji", "audit", str(path), "--json"], capture_output=True, text=True,
                         check=True)
    assert json.loads(out.stdout)["deals"][0] == _state(client)["state"]["audit"]["deals"][0]


def test_the_record_feed_plays_a_game_kept_by_points() -> None:
    """``tuolaji serve --record`` of a points-only game: its tricks by points in their turn, a deal by
    its defenders' points, the kitty by its points; the game audits as the record does."""
    from pathlib import Path

    from tuolaji.session.live import LiveGame
    from tuolaji.web.table import RecordFeed, record_setup

    record = json.loads((Path(__file__).resolve().parents[2] / "examples" / "points-only-2deck.json").read_text("utf-8"))
    game = LiveGame(record_setup(record))
    feed = RecordFeed(game, record, pace_s=0)
    feed.run()
    assert feed.played == feed.total_plays
    assert game.audit()["deals"] == scorer.audit_record(record)["deals"]
    kinds = {change.kind for change in game.journal()}
    assert {"play-points", "settle-points", "set-kitty-points"} <= kinds
    points = next(change for change in game.journal() if change.kind == "play-points")
    assert set(points.params) == {"winner", "points", "unit", "trump", "last", "leader"}


def test_the_camera_pipeline_takes_the_next_lead_after_a_trick_by_points() -> None:
    """A camera fixed mid-deal: after a trick kept by points the pipeline sees no trick in progress
    (the next settled play leads), and counts only the plays of cards."""
    from tuolaji.vision.plays import plays_in_deal, trick_of

    record = {"players": list("abcd"), "deals": [{"tricks": [
        {"leader": 0, "plays": [["AS"], ["3S"], ["4S"], ["5S"]]}, {"winner": 1, "points": 10}]}]}
    trick, complete = trick_of(record, 4)
    assert (trick.leader, trick.plays, complete) == (None, [], False)
    assert plays_in_deal(record) == 4


def test_two_phones_entering_one_trick_record_it_once_and_the_second_is_told_what(client: FlaskClient) -> None:
    """Both phones saw trick 1 about to be recorded; the first records 南 20 points, the second's entry
    of the same trick is refused, saying what was recorded (issue 43, item 6)."""
    _start(client)
    assert client.post("/api/points/trick", json={"winner": 1, "points": 20, "deal": 0, "trick": 0}).status_code == 201
    response = client.post("/api/points/trick", json={"winner": 1, "points": 20, "deal": 0, "trick": 0})
    assert response.status_code == 409
    message = response.get_json()["message"]
    assert message["zh"] == "第 1 墩刚有人记了：南 20 分，这次没有记"
    assert message["en"] == "trick 1 was just recorded: 南 20 points; this one was not"
    assert _record(client)["deals"][0]["tricks"] == [{"winner": 1, "points": 20}]
    # the next trick, as that phone now sees it, goes in; an entry for a trick not yet reached is refused too
    assert client.post("/api/points/trick", json={"winner": 0, "points": 5, "deal": 0, "trick": 1}).status_code == 201
    assert client.post("/api/points/trick", json={"winner": 0, "points": 5, "deal": 0, "trick": 5}).status_code == 409
    assert len(_record(client)["deals"][0]["tricks"]) == 2
