"""Players told where to sit (#43 item 3), on a real PostgreSQL: a round's seating reaches the room, a
table's machine (as it asks for its commands), the table's own page and its page at the club, and goes
when the round ends."""

from __future__ import annotations

from pathlib import Path

from tuolaji.club.attach import attach_club
from tuolaji.web import create_app, get_table

from .conftest import ClubServer, organiser
from .test_rounds import PAIRS
from .test_table_push import add_table, wait_for

SEATING = {"round": 1, "ns": {"pair": "P1", "players": ["赵", "钱"]}, "ew": {"pair": "P2", "players": ["孙", "李"]},
           "seats": ["赵", "孙", "钱", "李"]}


def test_a_rounds_seating_reaches_the_room_the_table_and_its_pages(tmp_path: Path, club: ClubServer) -> None:
    client = club.app.test_client()
    headers = organiser(club)
    for name, players in PAIRS.items():
        client.post("/club/api/pairs", headers=headers, json={"name": name, "players": players})
    token = add_table(club, "A")
    add_table(club, "B")
    app = create_app({"DATA_DIR": str(tmp_path / "A"), "TESTING": True, "RESUME_LATEST": False})
    pusher = attach_club(get_table(app), tmp_path / "A", club.url, "A", token, retry_s=0.05, max_retry_s=0.2)
    served = app.test_client()  # the table's own serve
    try:
        assert client.get("/club/api/tables/A/commands", headers={"Authorization": f"Bearer {token}"}
                          ).get_json() == {"commands": [], "seating": None}
        client.post("/club/api/rounds", headers=headers, json={"seating": "hand", "deals": 1, "tables": [
            {"table": "A", "ns": "P1", "ew": "P2"}]})
        answer = client.get("/club/api/tables/A/commands", headers={"Authorization": f"Bearer {token}"}).get_json()
        assert answer == {"commands": [], "seating": SEATING}
        room = {entry["table"]: entry["seating"] for entry in client.get("/club/api/overview").get_json()["tables"]}
        assert room == {"A": SEATING, "B": None}  # B seated in no round
        assert client.get("/club/table/A/api/state").get_json()["club"]["seating"] == SEATING
        assert "seating" not in client.get("/club/table/B/api/state").get_json()["club"]  # seated in no round
        # the table's machine hears it as it asks for its commands (every second): its page's club line has it
        wait_for(lambda: pusher.seating == SEATING)
        assert pusher.status()["seating"] == SEATING
        assert served.get("/api/state").get_json()["club"]["seating"] == SEATING

        client.post("/club/api/rounds/end", headers=headers)
        wait_for(lambda: pusher.seating is None)
        assert "seating" not in client.get("/club/table/A/api/state").get_json()["club"]
        assert [entry["seating"] for entry in client.get("/club/api/overview").get_json()["tables"]] == [None, None]
    finally:
        pusher.stop()
