"""What the page shows next to the record (web/view.py): the scorer's figures, not copies of them.

The page asks the scorer for the profiles, the threshold, the sides and the dealer's side, so a
record whose rules override a profile (a 6-player ``standard-2deck``: fixed partnerships of
alternate seats, threshold 80) shows what the audit judges by.
"""

from __future__ import annotations

from typing import Any

import pytest

from tuolaji import scorer
from tuolaji.web import view


def six_player_record() -> dict[str, Any]:
    record = scorer.random_record("standard-2deck", 1, players=6, dealer=0)
    assert record["rules"] == {"profile": "standard-2deck", "players": [6]}
    scorer.validate_record(record)
    return record


def test_a_six_player_standard_record_shows_the_scorers_threshold_and_sides(client):
    record = six_player_record()
    session_id = client.post("/api/sessions/import", json=record).get_json()["id"]
    shown = client.post(f"/api/sessions/{session_id}/resume").get_json()["view"]
    options = scorer.resolve_rules(record["rules"])
    assert (options.threshold_for(6), scorer.dealer_side_seats(record, 0)) == (80, [0, 2, 4])
    assert shown["threshold"] == 80
    assert shown["deals"][0]["dealer_side"] == [0, 2, 4]
    assert shown["friends"] is False
    assert [side["seats"] for side in shown["sides"]] == [[0, 2, 4], [1, 3, 5]]


@pytest.mark.parametrize(("rules", "players"), [
    ("standard-2deck", 4), ({"profile": "standard-2deck", "players": [6]}, 6), ("friends-3deck", 4),
    ("friends-3deck", 5), ("friends-3deck", 6), ({"profile": "four-deck", "threshold": 100}, 4),
])
def test_the_view_shows_what_the_scorer_says(rules, players):
    name = rules if isinstance(rules, str) else rules["profile"]
    record = scorer.random_record(name, 3, players=players, rules=None if isinstance(rules, str) else rules)
    options = scorer.resolve_rules(record["rules"])
    shown = view.table_view(record, scorer.audit_record(record))
    assert shown["threshold"] == options.threshold_for(players)
    assert shown["decks"] == options.decks and shown["friends"] == options.friends
    assert [side["seats"] for side in shown["sides"]] == scorer.partnerships(options.friends, players)
    assert sorted(shown["deals"][0]["dealer_side"]) == scorer.dealer_side_seats(record, 0)
    assert shown["deals"][0]["dealer_side"][0] == record["deals"][0]["dealer"]


def test_the_profiles_offered_are_the_scorers():
    assert view.PROFILES == {name: {"decks": options.decks, "players": list(options.players)}
                             for name, options in scorer.PROFILES.items()}


def test_the_violations_read_from_the_scorers_data():
    record = scorer.random_record("standard-2deck", 2, dealer=0)
    deal = record["deals"][0]
    deal["tricks"][1]["leader"] = (deal["tricks"][1]["leader"] + 1) % 4
    audit = scorer.audit_record(record)
    texts = view.table_view(record, audit)["deals"][0]["violations"]
    assert texts and all(text["parsed"] for text in texts)
    assert texts[0]["zh"].startswith(record["players"][deal["tricks"][1]["leader"]] + " 首出；第 1 墩是 ")
    # an audit that is not this record's (or has no data) keeps the scorer's English, made readable
    other = {"deals": [{**audit["deals"][0], "violations": [{**audit["deals"][0]["violations"][0], "detail": "new"}]}]}
    assert view.audit_texts(record, other["deals"][0], scorer.audit_findings(record)[0])["violations"] == [
        {"zh": "new", "en": "new", "parsed": False}]
