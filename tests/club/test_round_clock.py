"""The round clock (issue 43, item 2): the seconds left in a round by time, as the director's console and
the projector's slide read them with the round (none in a round by deals)."""

from __future__ import annotations

from .conftest import ClubServer
from .test_director import console, seat_eight
from .test_rounds import backdate_round


def test_the_seconds_left_in_a_round_by_time(club: ClubServer) -> None:
    client, headers = console(club)
    seat_eight(client, headers)
    client.post("/club/director/api/rounds", headers=headers, json={"seating": "drawn", "ends_by": "time", "minutes": 30})
    state = client.get("/club/director/api/state", headers=headers).get_json()
    assert 1790 <= state["seconds_left"] <= 1800
    assert 1790 <= client.get("/club/api/seating").get_json()["seconds_left"] <= 1800
    backdate_round(club.app.extensions["tuolaji.club"].dsn, 29 * 60 + 15)
    assert 40 <= client.get("/club/director/api/state", headers=headers).get_json()["seconds_left"] <= 45
    assert 40 <= client.get("/club/api/seating").get_json()["seconds_left"] <= 45
    client.post("/club/director/api/rounds/end", headers=headers)
    over = client.get("/club/director/api/state", headers=headers).get_json()
    assert over["seconds_left"] is None and client.get("/club/api/seating").get_json()["seconds_left"] is None
    client.post("/club/director/api/rounds", headers=headers, json={"seating": "drawn", "deals": 2})
    assert client.get("/club/director/api/state", headers=headers).get_json()["seconds_left"] is None
