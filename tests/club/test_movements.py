"""Rounds seated by a pair movement from the director's console (club/movements.py): a Howell and a
round-robin where every pair meets every other once, a Mitchell whose 南北 pairs stay and whose 东西
pairs move one table up, and a movement that does not fit refused in one line of both languages."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tuolaji.club.movements import meetings_of_all

from .conftest import ClubServer
from .test_director import console


def club_of(client: FlaskClient, headers: dict[str, str], pairs: int, tables: int) -> None:
    text = "\n".join(f"对{n} 甲{n} 乙{n}" for n in range(1, pairs + 1))
    assert client.post("/club/director/api/pairs", headers=headers, json={"text": text}).status_code == 201
    for n in range(1, tables + 1):
        assert client.post("/club/director/api/tables", headers=headers, json={"name": f"{n}号桌"}).status_code == 201


def play_round(client: FlaskClient, headers: dict[str, str], seating: str) -> list[dict[str, Any]]:
    """Start a round seated by ``seating`` (the console's request), read its seating, end it."""
    started = client.post("/club/director/api/rounds", headers=headers, json={"seating": seating, "deals": 1})
    assert started.status_code == 201, started.get_json()
    seats: list[dict[str, Any]] = client.get("/club/director/api/state", headers=headers).get_json()["seating"]
    assert client.post("/club/director/api/rounds/end", headers=headers).status_code == 200
    return seats


def number(pair: str) -> int:
    return int(pair.removeprefix("对")) - 1


def test_a_howell_of_eight_pairs_meets_every_pair_once_then_says_it_is_over(club: ClubServer) -> None:
    client, headers = console(club)
    club_of(client, headers, 8, 4)
    met = []
    for _ in range(7):
        seats = play_round(client, headers, "howell")
        assert [s["table"] for s in seats] == ["1号桌", "2号桌", "3号桌", "4号桌"]
        assert seats[3]["ns"]["pair"] == "对8"  # the Howell's stationary pair
        met += [tuple(sorted((number(s["ns"]["pair"]), number(s["ew"]["pair"])))) for s in seats]
    assert sorted(met) == meetings_of_all(8)
    over = client.post("/club/director/api/rounds", headers=headers, json={"seating": "howell", "deals": 1})
    assert over.status_code == 409 and over.get_json()["message"] == {
        "zh": "这种移位 8 对搭档共 7 轮，已经打完：下一轮请换一种排座方式",
        "en": "this movement has 7 rounds for 8 pairs, all played: seat the next round another way"}
    # a round seated otherwise meanwhile does not count as one of the movement's
    assert play_round(client, headers, "drawn")
    assert client.post("/club/director/api/rounds", headers=headers,
                       json={"seating": "howell", "deals": 1}).status_code == 409


def test_a_round_robin_of_five_pairs_sits_one_pair_out_each_round(club: ClubServer) -> None:
    client, headers = console(club)
    club_of(client, headers, 5, 2)
    met, out = [], []
    for _ in range(5):
        seats = play_round(client, headers, "roundrobin")
        seated = {number(s[side]["pair"]) for s in seats for side in ("ns", "ew")}
        assert len(seats) == 2 and len(seated) == 4
        out += list({0, 1, 2, 3, 4} - seated)
        met += [tuple(sorted((number(s["ns"]["pair"]), number(s["ew"]["pair"])))) for s in seats]
    assert sorted(met) == meetings_of_all(5) and sorted(out) == [0, 1, 2, 3, 4]


def test_a_mitchell_keeps_north_south_and_moves_east_west_one_table_up(club: ClubServer) -> None:
    client, headers = console(club)
    club_of(client, headers, 8, 4)
    rounds = [play_round(client, headers, "mitchell") for _ in range(4)]
    for seats in rounds:
        assert [s["ns"]["pair"] for s in seats] == ["对1", "对2", "对3", "对4"]
    for before, after in zip(rounds, rounds[1:], strict=False):
        where = {s["ew"]["pair"]: t for t, s in enumerate(before)}
        assert all(where[s["ew"]["pair"]] == (t - 1) % 4 for t, s in enumerate(after))  # one table up
    assert {(s["ns"]["pair"], s["ew"]["pair"]) for seats in rounds for s in seats} == {
        (f"对{ns}", f"对{ew}") for ns in range(1, 5) for ew in range(5, 9)}
    assert client.post("/club/director/api/rounds", headers=headers,
                       json={"seating": "mitchell", "deals": 1}).status_code == 409


def test_a_movement_that_does_not_fit_is_one_line(club: ClubServer) -> None:
    client, headers = console(club)
    club_of(client, headers, 7, 3)
    odd = client.post("/club/director/api/rounds", headers=headers, json={"seating": "mitchell", "deals": 1})
    assert odd.status_code == 400 and odd.get_json()["message"] == {
        "zh": "米切尔移位要双数对搭档（南北不动，东西移动），现在是 7 对",
        "en": "a Mitchell seats an even number of pairs (North–South stay, East–West move), not 7"}
    client.post("/club/director/api/pairs", headers=headers, json={"text": "对8 甲8 乙8"})
    few = client.post("/club/director/api/rounds", headers=headers, json={"seating": "howell", "deals": 1})
    assert few.status_code == 400 and few.get_json()["message"]["zh"] == "8 对搭档按这种移位要 4 张桌，俱乐部只有 3 张"
    # the JSON API takes the movements too, with its one English line
    api = club.app.test_client().post("/club/api/rounds", headers={"Authorization": "Bearer " + headers["X-Tuolaji-Token"]},
                                      json={"seating": "roundrobin", "deals": 1})
    assert api.status_code == 400 and api.get_json() == {"error": "8 pairs need 4 tables in this movement, the club has 3"}
    assert client.get("/club/director/api/state", headers=headers).get_json()["round"] is None
