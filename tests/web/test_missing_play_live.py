"""A play the camera did not see, in the live game (issue 29 item 7): ``LiveGame.miss_play`` records
it missing and completes the trick; ``enter_play`` fills it in (undo takes it back); the pending
list names it; the journal says ``miss-play`` and ``enter-play``."""

from __future__ import annotations

import pytest

from tuolaji import scorer
from tuolaji.scorer.errors import InputError
from tuolaji.session.events import StateChanged
from tuolaji.session.live import LiveGame, NoSuchCardError, OutOfTurnError

RECORD = {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": ["东", "南", "西", "北"],
          "deals": [{"level": "2", "trump": "S", "dealer": 0, "tricks": []}]}


def game_with_missing(path=None) -> LiveGame:
    game = LiveGame(RECORD, path=path)
    game.play(0, ["AH"])
    game.play(1, ["3H"])
    game.miss_play(2)  # 西's ♥K not seen: it won the trick
    game.play(3, ["4H"])
    game.play(2, ["9C"])  # 西 leads the next trick
    return game


def test_miss_play_completes_the_trick_and_the_next_is_led(tmp_path):
    game = game_with_missing(tmp_path / "g.json")
    deal = game.snapshot()["deals"][0]
    assert deal["tricks"][0] == {"leader": 0, "plays": [["AH"], ["3H"], [], ["4H"]], "missing": [2]}
    assert deal["tricks"][1] == {"leader": 2, "plays": [["9C"]]}
    audit = game.audit()["deals"][0]
    assert audit["violations"] == []
    assert audit["tricks"][0]["winner"] == 2 and audit["tricks"][0]["missing"] == [2]
    assert audit["missing_plays"] == [{"trick": 0, "seat": 2}] and audit["provisional"] is True
    assert game.pending() == [{"deal": 0, "trick": 0, "seat": 2, "index": None, "card": None,
                               "missing": True, "size": 1}]
    assert [c.kind for c in game.journal()][2] == "miss-play"
    assert game.journal()[2].params["seat"] == 2
    # kept on disk: a resumed game has it
    assert LiveGame.resume(tmp_path / "g.json").snapshot()["deals"][0]["tricks"][0]["missing"] == [2]


def test_miss_play_in_turn_only_and_may_lead():
    game = LiveGame(RECORD)
    game.play(0, ["AH"])
    with pytest.raises(OutOfTurnError):
        game.miss_play(3)
    game = LiveGame(RECORD)
    game.miss_play(0)  # the lead itself not seen
    assert game.expected_seat() == 1
    assert game.snapshot()["deals"][0]["tricks"][0] == {"leader": 0, "plays": [[]], "missing": [0]}
    assert game.pending()[0]["size"] is None


def test_enter_play_fills_it_in_and_undo_takes_it_back():
    game = game_with_missing()
    events = []
    game.bus.subscribe(events.append)
    game.enter_play(0, 0, 2, ["红桃K"])
    deal = game.snapshot()["deals"][0]
    assert deal["tricks"][0] == {"leader": 0, "plays": [["AH"], ["3H"], ["KH"], ["4H"]]}
    assert game.pending() == []
    audit = game.audit()["deals"][0]
    assert "missing_plays" not in audit and "provisional" not in audit
    with_it = {**RECORD, "deals": [{**RECORD["deals"][0], "tricks": deal["tricks"]}]}
    assert audit == scorer.audit_record(with_it)["deals"][0]
    assert game.journal()[-1].kind == "enter-play"
    assert game.journal()[-1].params == {"trick": 0, "seat": 2, "cards": ["KH"]}
    assert any(isinstance(e, StateChanged) and e.reason == "play-entered" for e in events)
    assert game.snapshot()["history"][-1]["change"] == "enter-play"
    game.undo()
    assert game.snapshot()["deals"][0]["tricks"][0]["missing"] == [2]
    assert game.pending()[0]["missing"] is True
    game.redo()
    assert "missing" not in game.snapshot()["deals"][0]["tricks"][0]


def test_enter_play_refusals():
    game = game_with_missing()
    with pytest.raises(NoSuchCardError) as caught:
        game.enter_play(0, 0, 1, ["KH"])  # 南's play was seen
    assert caught.value.key == "session.not_missing"
    with pytest.raises(NoSuchCardError):
        game.enter_play(0, 5, 2, ["KH"])
    with pytest.raises(NoSuchCardError):
        game.enter_play(-1, 0, 2, ["KH"])
    with pytest.raises(InputError) as caught:
        game.enter_play(0, 0, 2, [])
    assert caught.value.key == "session.enter_empty"
    with pytest.raises(scorer.CardError):
        game.enter_play(0, 0, 2, ["1H"])
    assert game.snapshot()["deals"][0]["tricks"][0]["missing"] == [2]


def test_two_missing_plays_are_entered_one_by_one():
    game = LiveGame(RECORD)
    game.play(0, ["AH"])
    game.miss_play(1)
    game.miss_play(2)
    game.play(3, ["4H"])
    assert [p["seat"] for p in game.pending()] == [1, 2]
    game.enter_play(0, 0, 2, ["5H"])
    assert game.snapshot()["deals"][0]["tricks"][0]["missing"] == [1]
    game.enter_play(0, 0, 1, ["6H"], history=False)
    assert "missing" not in game.snapshot()["deals"][0]["tricks"][0]


# --- the page's API ----------------------------------------------------------------------------------


def _post(client, path: str, body: dict, status: int = 200) -> dict:
    response = client.post(path, json=body)
    assert response.status_code == status, response.get_json()
    return response.get_json()


def test_the_api_lists_a_missing_play_and_enters_it(app):
    from tuolaji.web import get_table

    client = app.test_client()
    _post(client, "/api/setup", {"players": ["东", "南", "西", "北"], "profile": "standard-2deck", "trump": "S",
                                 "dealer": 0}, status=201)
    game = get_table(app).game
    game.play(0, ["AH"])
    game.play(1, ["3H"])
    game.miss_play(2)
    game.play(3, ["4H"])
    state = client.get("/api/state").get_json()["state"]
    assert state["pending"] == [{"deal": 0, "trick": 0, "seat": 2, "index": None, "card": None, "missing": True, "size": 1}]
    assert state["audit"]["deals"][0]["missing_plays"] == [{"trick": 0, "seat": 2}]
    refused = _post(client, "/api/enter-play", {"deal": 0, "trick": 0, "seat": 1, "cards": "KH"}, status=404)
    assert refused["message"]["zh"] == "第 1 墩：南 的出牌不缺，不用补记"
    refused = _post(client, "/api/enter-play", {"deal": 0, "trick": 0, "seat": 2, "cards": "1H"}, status=400)
    assert "不是牌" in refused["message"]["zh"]
    refused = _post(client, "/api/enter-play", {"deal": 0, "trick": 0, "seat": 2, "cards": ""}, status=400)
    assert refused["message"]["zh"] == "第 1 墩：请输入 西 出的牌"
    answer = _post(client, "/api/enter-play", {"deal": 0, "trick": 0, "seat": 2, "cards": "红桃K"})
    assert answer["state"]["pending"] == []
    assert answer["state"]["record"]["deals"][0]["tricks"][0]["plays"] == [["AH"], ["3H"], ["KH"], ["4H"]]
    assert answer["view"]["history"]["undo"]["change"] == "enter-play"
    _post(client, "/api/undo", {})
    assert game.snapshot()["deals"][0]["tricks"][0]["missing"] == [2]


def test_the_camera_revising_a_missing_play_clears_it():
    game = LiveGame(RECORD)
    game.play(0, ["AH"])
    game.miss_play(1)
    assert game.revise_play(1, 1, ["KH"], [], committed=[]) == "play-revised"
    assert game.snapshot()["deals"][0]["tricks"][0] == {"leader": 0, "plays": [["AH"], ["KH"]]}
    game.miss_play(2)
    game.replace_play(2, 2, ["5H"], [])
    assert "missing" not in game.snapshot()["deals"][0]["tricks"][0]
    game.miss_play(3)
    assert game.revise_play(3, 3, [], [], committed=[]) == "play-withdrawn"
    assert game.snapshot()["deals"][0]["tricks"][0] == {"leader": 0, "plays": [["AH"], ["KH"], ["5H"]]}
