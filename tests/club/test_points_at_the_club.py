"""只记分 from a phone at the club (issue 43, item 5): a trick by its points, a second phone's entry of
the same trick and 认输, entered on the table's page at the club, are queued to the table's machine as
plays are, applied there by the same commands as on the table's own page, and come back to the club's
copy as the table's changes; a refusal reaches the club's phone in the table's words, both languages."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from tuolaji.club.attach import attach_club
from tuolaji.club.outbox import ClubPusher
from tuolaji.web import create_app, get_table

from .conftest import ClubServer
from .test_table_push import add_table, stored_record, table_machine, wait_for

PLAYERS = ["东", "南", "西", "北"]


@contextlib.contextmanager
def club_table(tmp_path: Path, club: ClubServer, record: dict[str, Any]
               ) -> Iterator[tuple[Any, ClubPusher, FlaskClient, dict[str, str]]]:
    """Table T added to the club, its machine started on ``record`` and pushed once: the table, its
    pusher, the club's client and a phone's headers there (the table's token); the pusher stopped after."""
    token = add_table(club, "T")
    table, pusher = table_machine(tmp_path, club, "T", token)
    try:
        table.start(record, name="s", source="page")  # type: ignore[attr-defined]
        assert pusher.flush(20.0)
        yield table, pusher, club.app.test_client(), {"X-Tuolaji-Token": token}
    finally:
        pusher.stop()


def points_record() -> dict[str, Any]:
    return {"rules": "standard-2deck", "players": PLAYERS,
            "deals": [{"level": "2", "trump": "S", "dealer": 0, "tricks": []}]}


def test_points_tricks_and_a_concession_from_the_club_are_the_tables(tmp_path: Path, club: ClubServer) -> None:
    store = club.app.extensions["tuolaji.club"]
    with club_table(tmp_path, club, points_record()) as (table, pusher, client, headers):
        # without the token: read-only, as a play
        refused = client.post("/club/table/T/api/points/trick", json={"winner": 1, "points": 20, "deal": 0, "trick": 0})
        assert refused.status_code == 403 and refused.get_json()["message"]["zh"].startswith("只读")

        # a trick by its points: the table's record, and the club's copy, hold it
        answer = client.post("/club/table/T/api/points/trick", headers=headers,
                             json={"winner": 1, "points": 20, "deal": 0, "trick": 0})
        assert answer.status_code == 200, answer.get_json()
        assert answer.get_json()["state"]["record"]["deals"][0]["tricks"] == [{"winner": 1, "points": 20}]
        assert stored_record(table)["deals"][0]["tricks"] == [{"winner": 1, "points": 20}]
        assert store.record("T")["deals"][0]["tricks"] == [{"winner": 1, "points": 20}]
        assert stored_record(table)["history"][-1]["change"] == "points"  # a person's, undone on the table's page

        # a second phone's entry of the same trick: refused by the table, named in its words, nothing recorded
        second = client.post("/club/table/T/api/points/trick", headers=headers,
                             json={"winner": 3, "points": 20, "deal": 0, "trick": 0})
        assert second.status_code == 409, second.get_json()
        assert second.get_json()["message"] == {"zh": "第 1 墩刚有人记了：南 20 分，这次没有记",
                                                "en": "trick 1 was just recorded: 南 20 points; this one was not"}
        # an impossible entry: refused as the table's own page refuses it
        fives = client.post("/club/table/T/api/points/trick", headers=headers,
                            json={"winner": 1, "points": 12, "deal": 0, "trick": 1})
        assert fives.status_code == 400  # a bad entry, as the table's own page answers it (issue 43, item 3)
        assert fives.get_json()["message"]["zh"] == "12 分：一墩的分都是 5 的倍数（5、10、K），这次没有记"
        too_many = client.post("/club/table/T/api/points/trick", headers=headers,
                               json={"winner": 1, "points": 400, "deal": 0, "trick": 1})
        assert too_many.get_json()["message"]["en"] == "400 points in one trick: 2 decks hold 200 in all; not recorded"
        wrong = client.post("/club/table/T/api/points/trick", headers=headers, json={"winner": 7, "points": 5})
        assert wrong.status_code == 400 and "winner" in wrong.get_json()["message"]["en"]
        assert stored_record(table)["deals"][0]["tricks"] == [{"winner": 1, "points": 20}]

        # 认输 in one tap: the dealer's side concedes, the house's rule settles it, at the table and at the club
        conceded = client.post("/club/table/T/api/points/concede", headers=headers, json={"by": "dealer"})
        assert conceded.status_code == 200, conceded.get_json()
        deal = stored_record(table)["deals"][0]
        assert deal["conceded"] == {"by": "dealer"} and "kitty_points" not in deal
        audit = conceded.get_json()["state"]["audit"]["deals"][0]
        assert audit["conceded"] == {"by": "dealer", "points": 80, "agreed": False}
        wait_for(lambda: pusher.outbox.acked == pusher.outbox.last_n)
        assert store.record("T") == stored_record(table)
        # a side that is none: the table's refusal, in both languages
        nobody = client.post("/club/table/T/api/points/concede", headers=headers, json={"by": "someone"})
        assert nobody.status_code == 400 and nobody.get_json()["message"]["zh"] != nobody.get_json()["message"]["en"]


def test_a_deal_by_its_points_and_the_kittys_points_from_the_club(tmp_path: Path, club: ClubServer) -> None:
    store = club.app.extensions["tuolaji.club"]
    with club_table(tmp_path, club, points_record()) as (table, pusher, client, headers):
        answer = client.post("/club/table/T/api/points/deal", headers=headers,
                             json={"defender_points": 85, "last_winner": 1, "unit": 1})
        assert answer.status_code == 200, answer.get_json()
        kitty = client.post("/club/table/T/api/kitty", headers=headers, json={"points": 10})
        assert kitty.status_code == 200, kitty.get_json()
        deal = stored_record(table)["deals"][0]
        assert deal["defender_points"] == 85 and deal["last_trick"] == {"winner": 1, "unit": 1} and deal["kitty_points"] == 10
        assert kitty.get_json()["state"]["audit"]["deals"][0]["total_defender_points"] == 105
        # the kitty's cards are the table's own page's
        cards = client.post("/club/table/T/api/kitty", headers=headers, json={"cards": ["AS"]})
        assert cards.status_code == 409 and "table's own page" in cards.get_json()["error"]
        wait_for(lambda: pusher.outbox.acked == pusher.outbox.last_n)
        assert store.record("T") == stored_record(table)


def test_a_play_from_the_club_carries_the_trick_its_phone_saw(tmp_path: Path, club: ClubServer) -> None:
    """Two phones at the club typed the lead of trick 1: the first is played, the second refused as the
    table's own page refuses it (the play recorded already, named), not given to the next seat."""
    from .conftest import played_records

    records = played_records(seed=17, plays=1)
    with club_table(tmp_path, club, records[0]) as (table, _pusher, client, headers):
        first = records[1]["deals"][0]["tricks"][0]
        body = {"seat": first["leader"], "cards": first["plays"][0], "deal": 0, "trick": 0}
        assert client.post("/club/table/T/api/play", headers=headers, json=body).status_code == 200
        again = client.post("/club/table/T/api/play", headers=headers, json=body)
        assert again.status_code == 409, again.get_json()
        words = again.get_json()["message"]
        assert "这手已经有人记了" in words["zh"] and "already recorded" in words["en"]
        assert stored_record(table)["deals"] == records[1]["deals"]
        bad = client.post("/club/table/T/api/play", headers=headers, json=body | {"trick": "one"})
        assert bad.status_code == 400 and "trick" in bad.get_json()["error"]


def test_a_refusal_at_the_club_has_the_tables_status_and_words(tmp_path: Path, club: ClubServer) -> None:
    """The same entry refused on the table's own page and on its page at the club: the same status (a bad
    entry 400, an entry out of turn 409) and the same words (issue 43, item 3); what is not there, 404."""
    token = add_table(club, "T")
    app = create_app({"DATA_DIR": str(tmp_path / "T"), "TESTING": True, "RESUME_LATEST": False})
    table = get_table(app)
    pusher = attach_club(table, tmp_path / "T", club.url, "T", token, retry_s=0.05, max_retry_s=0.2, timeout_s=3.0,
                         command_poll_s=0.1)  # the table's machine asks for the phones' entries often: a quick test
    at_table = app.test_client()
    at_club = club.app.test_client()
    headers = {"X-Tuolaji-Token": token}
    try:
        table.start(points_record(), name="s", source="page")
        assert at_table.post("/api/points/trick", json={"winner": 1, "points": 20, "deal": 0, "trick": 0}).status_code == 201
        assert pusher.flush(20.0)
        refusals = [
            ("points/trick", {"winner": 7, "points": 5}, 400),  # no such player
            ("points/trick", {"winner": 1, "points": 12, "deal": 0, "trick": 1}, 400),  # not a multiple of 5
            ("points/trick", {"winner": 1, "points": 400, "deal": 0, "trick": 1}, 400),  # more than the decks hold
            ("points/trick", {"winner": 3, "points": 20, "deal": 0, "trick": 0}, 409),  # recorded meanwhile
            ("points/deal", {"defender_points": 70, "last_winner": 0, "unit": 2, "agreed": True}, 400),  # the old 认输
            ("points/concede", {"by": "someone"}, 400),  # no such side
            ("kitty", {"deal": 5, "points": 10}, 400),  # no such deal
        ]
        for path, body, status in refusals:
            own = at_table.post(f"/api/{path}", json=body)
            there = at_club.post(f"/club/table/T/api/{path}", headers=headers, json=body)
            assert (own.status_code, there.status_code) == (status, status), (path, body, own.get_json(), there.get_json())
            assert there.get_json()["message"] == own.get_json()["message"], (path, body)
        assert stored_record(table)["deals"][0]["tricks"] == [{"winner": 1, "points": 20}]
        # what is not there: 404, as the table answers a session it does not have
        assert at_table.post("/api/sessions/999/resume").status_code == 404
        assert at_club.get("/club/api/tables/T/commands/999999").status_code == 404
        assert at_club.get("/club/table/nowhere/api/state").status_code == 404
    finally:
        pusher.stop()
