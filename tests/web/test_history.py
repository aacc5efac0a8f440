"""Undo and redo (web/history.py) through the API: every kind of change, the history kept in the
record, and refusals when the record changed since (a feed's play after a bid)."""

from __future__ import annotations

import copy

import pytest

from tests.browser.records import played_deal_record
from tuolaji import scorer
from tuolaji.web import get_table
from tuolaji.web.dealing import RefusedError
from tuolaji.web.explain import describe_error
from tuolaji.web.history import can_redo, can_undo, logged, redo, undo

SETUP = {"players": ["东", "南", "西", "北"], "profile": "standard-2deck", "trump": "NT", "dealer": 0}


def post(client, path: str, body: dict | None = None, status: int = 200) -> dict:
    response = client.post(path, json=body or {})
    assert response.status_code == status, response.get_json()
    return response.get_json()


def record_of(app) -> dict:
    return get_table(app).game.snapshot()


def test_each_change_is_undone_and_redone_and_kept_in_the_history(app):
    client = app.test_client()
    post(client, "/api/setup", SETUP, status=201)
    post(client, "/api/bid", {"seat": 1, "cards": ["2H"]})
    post(client, "/api/play", {"seat": 1, "cards": ["AS"]}, status=201)
    post(client, "/api/correct", {"deal": 0, "trick": 0, "seat": 1, "index": 0, "card": "红桃K"})
    assert record_of(app)["deals"][0]["tricks"][0]["plays"] == [["KH"]]
    answer = post(client, "/api/undo")
    assert answer["view"]["history"]["undo"]["change"] == "play"
    assert answer["view"]["history"]["redo"]["change"] == "correction"
    assert record_of(app)["deals"][0]["tricks"][0]["plays"] == [["AS"]]
    post(client, "/api/undo")
    post(client, "/api/undo")
    record = record_of(app)
    assert record["deals"][0] | {} == {"level": "2", "trump": "NT", "dealer": 0, "tricks": []}
    post(client, "/api/undo", status=400)  # nothing left
    for _ in range(3):
        post(client, "/api/redo")
    record = record_of(app)
    assert record["deals"][0]["tricks"][0]["plays"] == [["KH"]] and record["deals"][0]["trump"] == "H"
    assert [entry["change"] for entry in record["history"]] == [
        "bid", "play", "correction", "undo", "undo", "undo", "redo", "redo", "redo"]
    scorer.validate_record(record)
    assert scorer.audit_record(record)["deals"][0]["violations"] == []


def test_the_next_deal_is_undone_while_nothing_was_played_in_it(app):
    client = app.test_client()
    table = get_table(app)
    table.start(played_deal_record(), name="x", source="import")
    post(client, "/api/next-deal", {"trump": "S"}, status=201)
    assert len(record_of(app)["deals"]) == 2
    post(client, "/api/undo")
    assert len(record_of(app)["deals"]) == 1
    post(client, "/api/redo")
    assert record_of(app)["deals"][1]["trump"] == "S"


def test_an_undo_is_refused_when_the_record_changed_since():
    record = {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": list("abcd"),
              "deals": [{"level": "2", "trump": "NT", "dealer": 0, "tricks": []}]}
    bid = copy.deepcopy(record)
    bid["deals"][0]["bids"] = [{"seat": 0, "cards": ["2S"]}]
    bid["deals"][0]["trump"] = "S"
    bid = logged(record, bid, "bid")
    camera = copy.deepcopy(bid)
    camera["deals"][0]["trump"] = "H"  # changed by something that kept no history
    with pytest.raises(RefusedError) as refused:
        undo(camera)
    assert refused.value.key == "history.undo_changed" and refused.value.params == {"change": "bid"}
    assert describe_error(refused.value)["zh"] == "这一步（亮主）之后记录又有了别的改动，不能撤销"
    assert can_undo(bid) == "bid" and can_redo(undo(bid)) == "bid"
    assert redo(undo(bid))["deals"][0] == bid["deals"][0]
    broken = bid | {"history": [{"change": "bid", "deal": 5}]}
    with pytest.raises(RefusedError):
        undo(broken)
