"""The table's TV (/tv, web/tv.py): what it draws and the calls it reads aloud, from the live state.

A two-trick deal with hands, played through the page's API: 老李 trumps the first trick while
holding a heart (未跟花色, proven at once, 毙了 once the trick is over), wins the last trick too
and, the kitty turned up, 抠底 ×2 puts the defenders over the threshold (闲家上台).
"""

from __future__ import annotations

from typing import Any

from tuolaji.web.tv import announcements

PLAYERS = ["老张", "老李", "老王", "老赵"]
PLAYS: list[tuple[int, list[str]]] = [(1, ["3S"]), (2, ["4H"]), (3, ["5H"]), (1, ["AH"]), (2, ["3H"]), (3, ["4H"]), (0, ["7H"])]
"""The plays after 老张's lead of ♥A: seat, cards."""
KITTY = "KC KC 10C 10C 5C 5C KS 3C".split()
CALLS_ZH = ["老李 未跟花色", "毙了", "抠底 ×2", "闲家上台，升 1 级"]
"""The calls as they come, one play after another."""


def tv_record() -> dict[str, Any]:
    """The deal with only its lead played."""
    return {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": list(PLAYERS),
            "deals": [{"level": "2", "trump": "S", "dealer": 0,
                       "hands": [["AH", "7H"], ["3S", "AH"], ["4H", "3H"], ["5H", "4H"]],
                       "tricks": [{"leader": 0, "plays": [["AH"]]}]}]}


def start(client: Any) -> None:
    session = client.post("/api/sessions/import", json=tv_record()).get_json()["id"]
    assert client.post(f"/api/sessions/{session}/resume").status_code == 200


def calls(client: Any) -> list[dict[str, str]]:
    return client.get("/api/tv").get_json()["tv"]["announcements"]


def test_the_tv_draws_the_score_the_turn_and_the_trick_on_the_felt(client):
    start(client)
    tv = client.get("/api/tv").get_json()["tv"]
    assert tv["turn"] == {"seat": 1, "name": "老李"}
    assert [(p["name"], p["cards"]) for p in tv["felt"]["plays"]] == [("老张", ["AH"])]
    assert tv["last"] is None and tv["score"]["points"] == 0 and not tv["score"]["settled"]
    assert (tv["dealer"]["name"], tv["level"], tv["trump"]) == ("老张", "2", "S")
    for seat, cards in PLAYS[:4]:
        assert client.post("/api/play", json={"seat": seat, "cards": cards}).status_code == 201
    tv = client.get("/api/tv").get_json()["tv"]
    assert tv["turn"]["name"] == "老王"
    assert tv["felt"]["trick"] == 1 and [p["name"] for p in tv["felt"]["plays"]] == ["老李"]
    last = tv["last"]
    assert (last["winner_name"], last["points"], last["trumped"]) == ("老李", 5, True)
    assert [p["winner"] for p in last["plays"]] == [False, True, False, False]
    assert tv["score"]["points"] == 5
    assert any("老李" in alert["zh"] and "♥" in alert["zh"] for alert in tv["alerts"])


def test_the_calls_come_as_the_game_goes_and_the_big_score_is_the_settled_total(client):
    start(client)
    assert calls(client) == []
    said: list[str] = []
    for seat, cards in PLAYS:
        client.post("/api/play", json={"seat": seat, "cards": cards})
        said += [call["zh"] for call in calls(client) if call["zh"] not in said]
    # the deal's last play: its kitty not known yet, so neither the kitty nor the outcome is said
    assert said == CALLS_ZH[:2]
    assert client.post("/api/kitty", json={"cards": KITTY}).status_code == 200
    tv = client.get("/api/tv").get_json()["tv"]
    assert [call["zh"] for call in tv["announcements"]] == ["毙了", "老李 未跟花色", "抠底 ×2", "闲家上台，升 1 级"]
    assert [call["en"] for call in tv["announcements"]] == ["Trumped!", "老李: did not follow suit", "Kitty won ×2",
                                                            "The defenders take over and go up 1"]
    assert tv["score"] == {"points": 125, "settled": True, "threshold": 80, "penalty_points": 0, "kitty_total": 120}
    assert tv["turn"] is None and "闲家上台" in tv["outcome"]["zh"]
    ids = [call["id"] for call in tv["announcements"]]
    assert len(set(ids)) == len(ids)


def test_a_call_keeps_its_id_as_the_game_goes_on_and_a_changed_outcome_is_a_new_call(client):
    start(client)
    for seat, cards in PLAYS:
        client.post("/api/play", json={"seat": seat, "cards": cards})
    client.post("/api/kitty", json={"cards": KITTY})
    before = {call["id"]: call["zh"] for call in calls(client)}
    client.post("/api/kitty", json={"cards": ["3C"] * 8})  # the kitty corrected: no points in it
    after = {call["id"]: call["zh"] for call in calls(client)}
    assert {key: before[key] for key in before if "kitty" not in key and "outcome" not in key}.items() <= after.items()
    outcome = [zh for key, zh in after.items() if ".outcome." in key]
    assert outcome == ["庄家升 2 级"] and after["d0.kitty.2"] == "抠底 ×2"  # the kitty still won, its points none


def test_the_calls_are_the_audits_facts():
    record = tv_record()
    deal = record["deals"][0]
    deal["tricks"] = [{"leader": 0, "plays": [["AH"], ["3S"], ["4H"], ["5H"]]}]
    audit = {"deals": [{"tricks": [{"winner": 1}], "violations": [
        {"trick": 0, "seat": 1, "rule": "must-follow-suit", "proven": True},
        {"trick": 0, "seat": 2, "rule": "failed-throw", "proven": False}], "outcome": None}]}
    said = announcements(record, audit, [[True]])
    assert [(call["id"], call["zh"]) for call in said] == [("d0.t0.trumped", "毙了"),
                                                           ("d0.v0.1.must-follow-suit", "老李 未跟花色")]
    audit["deals"][0] |= {"outcome": {"side": "dealer", "levels": 3}, "kitty_won_by": "dealer", "game_winner": "dealer"}
    deal["kitty_unknown"] = True
    assert [call["zh"] for call in announcements(record, audit, [[False]])][1:] == ["庄家升 3 级", "本盘结束"]


def test_the_tv_without_a_game(client):
    assert client.get("/api/tv").get_json()["tv"] is None
    page = client.get("/tv?lang=en")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "Table TV" in text and "tv.js" in text and 'name="tuolaji-token"' not in text
    assert "牌桌电视" in client.get("/tv?lang=zh").get_data(as_text=True)


def test_tricks_recorded_by_points_alone(client):
    """只记分: a trick is its winner and points, without cards; the TV shows who won it and the score."""
    setup = {"players": PLAYERS, "profile": "standard-2deck", "trump": "H", "dealer": 0}
    assert client.post("/api/setup", json=setup).status_code in (200, 201)
    assert client.post("/api/points/trick", json={"winner": 1, "points": 20}).status_code == 201
    tv = client.get("/api/tv").get_json()["tv"]
    assert (tv["felt"]["plays"], tv["felt"]["winner_name"], tv["felt"]["points"]) == ([], "老李", 20)
    assert tv["score"]["points"] == 20
    response = client.post("/api/points/deal", json={"defender_points": 90, "last_winner": 1, "unit": 2, "kitty_points": 10})
    assert response.status_code == 200, response.get_json()
    tv = client.get("/api/tv").get_json()["tv"]
    assert tv["score"]["settled"] and tv["turn"] is None
    assert [call["zh"] for call in tv["announcements"]][-2:] == ["抠底 ×4", "闲家上台，升 1 级"]  # a pair: ×4; 90 + 40


def test_tricks_kept_by_points_are_said_and_so_is_the_trick_that_gives_the_defenders_enough(client):
    """Issue 43, item 7: 只记分 tricks are read aloud as their winner and points, and the TV says so
    once when the defenders' points reach the threshold (80 with two decks)."""
    setup = {"players": PLAYERS, "profile": "standard-2deck", "trump": "H", "dealer": 0}
    assert client.post("/api/setup", json=setup).status_code in (200, 201)
    for winner, points in ((1, 20), (0, 10), (3, 40), (1, 25), (3, 5)):
        assert client.post("/api/points/trick", json={"winner": winner, "points": points}).status_code == 201
    said = calls(client)
    assert [call["zh"] for call in said] == ["老李 20 分", "老张 10 分", "老赵 40 分", "老李 25 分", "闲家够分了", "老赵 5 分"]
    assert said[4]["en"] == "The defenders have enough to take over" and said[0]["en"] == "老李: 20 points"
    assert len({call["id"] for call in said}) == len(said)


def test_in_a_friends_game_the_defenders_are_not_named_while_friends_may_be_hidden():
    """找朋友: until the deal is over the dealer's side is not known, so the TV names no defenders and
    counts no one's points toward 闲家够分 (a hidden friend would be counted as a defender)."""
    from tuolaji.web.tv import known_side

    playing = {"dealer_side": [0], "defender_points": None}
    over = {"dealer_side": [0, 3], "defender_points": 120}
    assert known_side({"friends": True}, playing) is None and known_side({"friends": True}, over) == [0, 3]
    assert known_side({"friends": False}, {"dealer_side": [0, 2], "defender_points": 40}) == [0, 2]
