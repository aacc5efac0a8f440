"""Issue 30, item 7 (a new user's evening, 4-player 3-deck and 5-player 找朋友): the play route's
refusals — a play after the deal's last trick, a play another device recorded meanwhile — worded in
both languages, and the rules core's failed-throw penalty settled when the throw is stopped."""

from __future__ import annotations

import copy

from tests.browser.records import played_deal_record
from tuolaji import scorer
from tuolaji.web import get_table

SETUP = {"players": ["老张", "老李", "老王", "老赵"], "profile": "standard-2deck", "trump": "NT", "dealer": 0}


def post(client, path: str, body: dict | None = None, status: int = 200) -> dict:
    response = client.post(path, json=body or {})
    assert response.status_code == status, response.get_json()
    return response.get_json()


def whole_3deck_deal() -> dict:
    """A whole 4-player 3-deck deal as a table enters it (every seat plays its 39 cards, no hands)."""
    for seed in range(50):
        record = scorer.random_record("titanic-3deck", seed, players=4)
        record["deals"][0].pop("hands", None)
        record["deals"][0].pop("kitty", None)
        if scorer.audit_record(record)["deals"][0]["outcome"] is not None:
            return record
    raise AssertionError("no seed gives a whole 3-deck deal")


def test_a_play_after_the_last_trick_is_refused_and_points_to_the_kitty(app):
    record = whole_3deck_deal()
    tricks = record["deals"][0]["tricks"]
    get_table(app).start(record, name="三副", source="import")
    client = app.test_client()
    answer = post(client, "/api/play", {"seat": 0, "cards": ["AS"]}, status=409)
    assert answer["message"]["zh"] == "第 1 局已经打完（每人 39 张都出了），这手没有记：请记录底牌，再开始下一局"
    assert "record the kitty" in answer["message"]["en"] and "39" in answer["message"]["en"]
    assert len(get_table(app).game.snapshot()["deals"][0]["tricks"]) == len(tricks)  # no 「第 N+1 墩」
    # the page's check too (a play carrying the trick it saw)
    post(client, "/api/play", {"seat": 0, "cards": ["AS"], "deal": 0, "trick": len(tricks)}, status=409)
    # the kitty is still taken
    post(client, "/api/kitty", {"deal": 0, "unknown": True})


def test_a_complete_deal_with_hands_refuses_a_play_too(app):
    get_table(app).start(played_deal_record(), name="x", source="import")
    answer = post(app.test_client(), "/api/play", {"seat": 1, "cards": ["3S"]}, status=409)
    assert "已经打完" in answer["message"]["zh"]


def test_a_play_another_device_recorded_meanwhile_is_refused_with_who_recorded_what(app):
    client = app.test_client()
    post(client, "/api/setup", SETUP, status=201)
    # both phones saw trick 1 with 老张 to lead; the first records ♥5 for him
    post(client, "/api/play", {"seat": 0, "cards": ["5H"], "deal": 0, "trick": 0}, status=201)
    answer = post(client, "/api/play", {"seat": 0, "cards": ["KH"], "deal": 0, "trick": 0}, status=409)
    assert answer["message"]["zh"] == "老张 这手已经有人记了（♥5），这次没有记：请看现在该谁出牌"
    assert answer["message"]["en"] == "老张's play is already recorded (♥5); this one was not: see whose turn it is now"
    assert get_table(app).game.snapshot()["deals"][0]["tricks"][0]["plays"] == [["5H"]]  # not given to 老李
    # the seat the sender saw, still to play: recorded
    post(client, "/api/play", {"seat": 1, "cards": ["6H"], "deal": 0, "trick": 0}, status=201)
    # a play typed for a trick that is over: refused even for a seat that did not play in it
    for seat, card in ((2, "7H"), (3, "8H")):
        post(client, "/api/play", {"seat": seat, "cards": [card], "deal": 0, "trick": 0}, status=201)
    answer = post(client, "/api/play", {"seat": 3, "cards": ["9H"], "deal": 0, "trick": 0}, status=409)
    assert "已经有人记了（♥8）" in answer["message"]["zh"]
    # a trick the sender could not have seen: the table moved on
    answer = post(client, "/api/play", {"seat": 3, "cards": ["9H"], "deal": 0, "trick": 5}, status=409)
    assert answer["message"]["zh"] == "第 6 墩已经记完，牌桌往下走了：这次没有记，请再看一下"
    # without what the sender saw (the camera, older pages) the play goes in as before
    post(client, "/api/play", {"seat": 3, "cards": ["9H"]}, status=201)


def test_the_seen_fields_are_checked_as_numbers(app):
    client = app.test_client()
    post(client, "/api/setup", SETUP, status=201)
    post(client, "/api/play", {"seat": 0, "cards": ["5H"], "deal": "x", "trick": 0}, status=400)
    post(client, "/api/play", {"seat": 0, "cards": ["5H"], "deal": 0, "trick": -1}, status=400)
    post(client, "/api/play", {"seat": 0, "cards": ["5H"], "deal": 7, "trick": 0}, status=409)
    assert copy.deepcopy(get_table(app).game.snapshot())["deals"][0]["tricks"] == []


def test_an_exported_game_is_imported_under_its_name(app):
    import io
    import json

    client = app.test_client()
    post(client, "/api/setup", SETUP | {"name": "周五牌局"}, status=201)
    post(client, "/api/play", {"seat": 0, "cards": ["5H"]}, status=201)
    session_id = get_table(app).session_id
    exported = client.get(f"/api/sessions/{session_id}/export").get_data()
    assert json.loads(exported)["name"] == "周五牌局"
    # the file renamed on the way (「export.json」): the game's name still comes back
    answer = client.post("/api/sessions/import", data={"file": (io.BytesIO(exported), "export.json")},
                         content_type="multipart/form-data")
    assert answer.status_code == 201 and answer.get_json()["name"] == "周五牌局"
    stored = get_table(app).store.get(answer.get_json()["id"])
    assert stored.name == "周五牌局" and "name" not in stored.record
    # a record without a name: the file's name without .json
    record = json.loads(exported)
    del record["name"]
    answer = client.post("/api/sessions/import", data={"file": (io.BytesIO(json.dumps(record).encode()), "周六.json")},
                         content_type="multipart/form-data")
    assert answer.get_json()["name"] == "周六"
    # a name the request gives wins
    answer = post(client, "/api/sessions/import", {"name": "改名", "record": json.loads(exported)}, status=201)
    assert answer["name"] == "改名"
