"""复盘 (issue 43, item 7): once a deal played with cards is settled, each seat's hand rebuilt from its
plays and the kitty its dealer buried, in the page's view and as a picture to share; none for a
deal kept by points or not yet settled."""

from __future__ import annotations

import io
from collections import Counter
from typing import Any

from PIL import Image

from tuolaji import scorer


def _session(client: Any, record: dict[str, Any]) -> int:
    session = client.post("/api/sessions/import", json=record).get_json()["id"]
    assert client.post(f"/api/sessions/{session}/resume").status_code == 200
    return int(session)


def test_a_settled_deal_shows_every_hand_as_dealt_and_shares_it_as_a_picture(client: Any) -> None:
    record = scorer.random_record("titanic-3deck", 5)  # a whole 3-deck deal with its hands and kitty
    deal = record["deals"][0]
    session = _session(client, record)
    review = client.get("/api/state").get_json()["view"]["deals"][0]["hands"]
    assert [Counter(hand) for hand in review["hands"]] == [Counter(hand) for hand in deal["hands"]]
    assert Counter(review["kitty"]) == Counter(deal["kitty"]) and review["dealer"] == deal["dealer"]
    order = scorer.TrumpOrder.of(deal["level"], deal["trump"])
    for hand in review["hands"]:  # held as a player holds them: the trumps first
        trumps = [order.is_trump(scorer.parse_card(card)) for card in hand]
        assert trumps == sorted(trumps, reverse=True)
    steps = client.get(f"/api/replay/{session}").get_json()["steps"]
    at_end = client.get(f"/api/replay/{session}/at/{len(steps)}").get_json()["view"]["deals"][0]["hands"]
    assert at_end == review  # the replay's end shows it too
    midway = client.get(f"/api/replay/{session}/at/{len(steps) // 2}").get_json()["view"]["deals"][0]["hands"]
    assert midway is None
    for lang in ("zh", "en"):
        picture = client.get(f"/api/share/{session}/deal/0/hands.png?lang={lang}")
        assert picture.status_code == 200 and picture.mimetype == "image/png"
        assert Image.open(io.BytesIO(picture.data)).size[0] == 1080


def test_no_review_before_the_settlement_or_for_a_deal_kept_by_points(client: Any) -> None:
    record = scorer.random_record("titanic-3deck", 5)
    unsettled = record | {"deals": [{k: v for k, v in record["deals"][0].items() if k != "kitty"}
                                    | {"tricks": record["deals"][0]["tricks"][:5], "complete": False}]}
    session = _session(client, unsettled)
    assert client.get("/api/state").get_json()["view"]["deals"][0]["hands"] is None
    assert client.get(f"/api/share/{session}/deal/0/hands.png").status_code == 404
    points = {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": list("abcd"),
              "deals": [{"level": "2", "trump": "S", "dealer": 0, "kitty_points": 10, "complete": True,
                         "tricks": [{"winner": 1, "points": 100}]}]}
    session = _session(client, points)
    assert client.get("/api/state").get_json()["view"]["deals"][0]["hands"] is None
    assert client.get(f"/api/share/{session}/deal/0/hands.png").status_code == 404
