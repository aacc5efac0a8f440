"""Backup and restore from the director's console (issue 43, item 2): the club's database downloaded as a
pg_dump archive and put back later, replacing what changed since; a file that is no club's backup, or a
restore not confirmed, refused in one line of both languages with nothing changed."""

from __future__ import annotations

import base64
from typing import Any

from .conftest import ClubServer
from .test_director import console, seat_eight


def test_a_backup_downloaded_and_restored(club: ClubServer) -> None:
    client, headers = console(club)
    seat_eight(client, headers)
    client.post("/club/director/api/rounds", headers=headers, json={"seating": "howell", "deals": 1})
    client.post("/club/director/api/rounds/end", headers=headers)
    token = headers["X-Tuolaji-Token"]
    assert client.get("/club/director/backup").status_code == 403
    answer = client.get(f"/club/director/backup?token={token}")
    assert answer.status_code == 200 and answer.mimetype == "application/octet-stream"
    assert answer.headers["Content-Disposition"].startswith("attachment; filename=club-")
    archive = answer.data
    assert archive.startswith(b"PGDMP")
    # the evening goes on after the backup: a table, a pair, a round more
    client.post("/club/director/api/tables", headers=headers, json={"name": "5号桌"})
    client.post("/club/director/api/pairs", headers=headers, json={"text": "对9 甲9 乙9"})
    client.post("/club/director/api/rounds", headers=headers, json={"seating": "howell", "deals": 1})
    state = client.get("/club/director/api/state", headers=headers).get_json()
    assert state["round"]["round"] == 2 and len(state["pairs"]) == 9

    news = club.app.extensions["tuolaji.club.listener"].subscribe()
    restored = client.post("/club/director/api/restore", headers=headers,
                           json={"backup": base64.b64encode(archive).decode(), "confirm": True})
    assert restored.status_code == 200, restored.get_json()
    assert restored.get_json() == {"restored": True, "tables": 4, "pairs": 8, "rounds": 1}
    back = client.get("/club/director/api/state", headers=headers).get_json()
    assert back["round"] is None and back["latest"]["round"] == 1 and len(back["pairs"]) == 8
    assert [t["table"] for t in back["tables"]] == [f"{n}号桌" for n in range(1, 5)]
    seen = []
    while not any(event.get("restored") for event in seen):
        seen.append(news.get(timeout=5))
    # the club goes on from the backup: the Howell's next round is its second
    again = client.post("/club/director/api/rounds", headers=headers, json={"seating": "howell", "deals": 1})
    assert again.status_code == 201 and again.get_json()["round"] == 2
    assert client.post("/club/director/api/tables", headers=headers, json={"name": "5号桌"}).status_code == 201


def test_a_restore_the_club_refuses_changes_nothing(club: ClubServer) -> None:
    client, headers = console(club)
    seat_eight(client, headers)
    unconfirmed = client.post("/club/director/api/restore", headers=headers, json={"backup": "UEdETVA="})
    assert unconfirmed.status_code == 400 and unconfirmed.get_json()["message"]["zh"] == (
        "恢复会用备份替换俱乐部现在的全部数据：请先勾选确认")
    for body in (base64.b64encode(b"not a backup").decode(), "%%%", base64.b64encode(b"PGDMP broken").decode()):
        refused = client.post("/club/director/api/restore", headers=headers, json={"backup": body, "confirm": True})
        assert refused.status_code == 400 and refused.get_json()["message"]["en"] == (
            "not a backup of a club (the file the console's backup link gives)")
    assert client.post("/club/director/api/restore", json={"backup": "", "confirm": True}).status_code == 403
    assert len(client.get("/club/director/api/state", headers=headers).get_json()["pairs"]) == 8


def test_the_clubs_own_database_is_backed_up_and_restored_with_its_own_tools(tmp_path_factory: Any) -> None:
    """The club's own PostgreSQL (pgserver, ``tuolaji club --data``): the tools its package brings."""
    from tuolaji.club.backup import tool_folders
    from tuolaji.club.own_database import OwnDatabase
    from tuolaji.club.store import ClubStore

    assert any("pgserver" in str(folder) for folder in tool_folders())
    with OwnDatabase(tmp_path_factory.mktemp("own") / "club") as own:
        store = ClubStore(own.dsn)
        store.add_table("一号桌")
        archive = store.backup()
        store.add_table("二号桌")
        store.restore(archive)
        assert store.table_names() == ["一号桌"]
        store.close()
