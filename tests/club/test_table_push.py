"""A table's machine pushing to the club over HTTP, for real: the table's own server (its SQLite
sessions, its live game), the outbox on disk, the club on PostgreSQL. Cut off, the table plays on;
back, it catches up, and the club's record is the table's."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path

from flask.testing import FlaskClient

from tuolaji.club.attach import attach_club
from tuolaji.club.outbox import ClubPusher, Outbox
from tuolaji.web import create_app, get_table

from .conftest import ClubServer, OwnServer, organiser, played_records


def add_table(club: ClubServer, name: str) -> str:
    client: FlaskClient = club.app.test_client()
    answer = client.post("/club/api/tables", json={"name": name}, headers=organiser(club))
    assert answer.status_code == 201, answer.get_json()
    return str(answer.get_json()["token"])


def table_machine(tmp_path: Path, club: ClubServer, name: str, token: str) -> tuple[object, ClubPusher]:
    app = create_app({"DATA_DIR": str(tmp_path / name), "TESTING": True, "RESUME_LATEST": False})
    table = get_table(app)
    pusher = attach_club(table, tmp_path / name, club.url, name, token, retry_s=0.05, max_retry_s=0.2,
                         timeout_s=3.0)
    return table, pusher


def play(table: object, record: dict) -> None:
    """Make the table's game go on to ``record`` (one more play)."""
    deal = record["deals"][0]
    trick = deal["tricks"][-1]
    seat = (trick["leader"] + len(trick["plays"]) - 1) % 4
    with table.writing() as game:  # type: ignore[attr-defined]
        game.play(seat, trick["plays"][-1])


def play_on(table: object, records: list[dict], start: int, stop: int) -> None:
    """Make the table's game go from ``records[start]`` to ``records[stop]``, one play at a time."""
    for record in records[start + 1:stop + 1]:
        play(table, record)


def stored_record(table: object) -> dict:
    return table.store.get(table.session_id).record  # type: ignore[attr-defined]


def wait_for(condition, timeout: float = 20.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError("timed out")


def test_cut_off_table_keeps_playing_and_catches_up(tmp_path: Path, club: ClubServer) -> None:
    token = add_table(club, "一号桌")
    table, pusher = table_machine(tmp_path, club, "一号桌", token)
    records = played_records(seed=11, plays=24)
    try:
        table.start(records[0], name="周五", source="page")  # type: ignore[attr-defined]
        play_on(table, records, 0, 8)
        assert pusher.flush(20.0)
        store = club.app.extensions["tuolaji.club"]
        assert store.record("一号桌") == stored_record(table)

        club.stop()  # the club goes away: the table plays on
        play_on(table, records, 8, 16)
        wait_for(lambda: pusher.state == "offline")
        assert pusher.outbox.last_n - pusher.outbox.acked >= 8
        assert store.record("一号桌") != stored_record(table)

        club.start()  # back on the same address: the table catches up by itself
        play_on(table, records, 16, 24)
        assert pusher.flush(20.0)
        assert store.record("一号桌") == stored_record(table)
        numbers = store.change_numbers("一号桌")
        assert numbers == list(range(1, pusher.outbox.last_n + 1))  # nothing lost, nothing doubled
    finally:
        pusher.stop()


def test_restarted_table_queues_what_it_saved_but_never_sent(tmp_path: Path, club: ClubServer) -> None:
    token = add_table(club, "T")
    table, pusher = table_machine(tmp_path, club, "T", token)
    records = played_records(seed=12, plays=4)
    table.start(records[0], name="s", source="page")  # type: ignore[attr-defined]
    assert pusher.flush(20.0)
    pusher.stop()
    # saved at the table, but the machine stopped before the outbox had it
    table.store._store.save(table.session_id, records[3])  # type: ignore[attr-defined]
    app = create_app({"DATA_DIR": str(tmp_path / "T"), "TESTING": True, "RESUME_LATEST": False})
    again = attach_club(get_table(app), tmp_path / "T", club.url, "T", token, retry_s=0.05)
    try:
        assert again.flush(20.0)
        assert club.app.extensions["tuolaji.club"].record("T") == records[3]
    finally:
        again.stop()


def test_wrong_token_is_one_line_and_nothing_is_lost(tmp_path: Path, club: ClubServer, caplog) -> None:  # type: ignore[no-untyped-def]
    token = add_table(club, "T")
    outbox = Outbox(tmp_path / "outbox.sqlite")
    record = played_records(plays=0)[0]
    outbox.enqueue(1, "s", record)
    pusher = ClubPusher(outbox, club.url, "T", "not-the-token")
    assert not pusher.send(outbox.pending())
    assert pusher.state == "refused" and pusher.last_error == "table 'T': wrong token"
    assert [c["n"] for c in outbox.pending()] == [1]  # kept for when the token is right
    # pushing to another table's address (with this one's token: the token is checked first): refused, one line
    body = json.dumps({"table": "U", "changes": []}).encode()
    request = urllib.request.Request(f"{club.url}/club/api/tables/T/changes", data=body, method="POST",
                                     headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    try:
        urllib.request.urlopen(request, timeout=5)
        raise AssertionError("accepted")
    except urllib.error.HTTPError as exc:
        assert exc.code == 400
        assert json.loads(exc.read())["error"] == "changes for table 'U' pushed to table 'T'"


def test_postgres_restart_mid_round(tmp_path: Path, club: ClubServer, postgres: OwnServer) -> None:
    token = add_table(club, "T")
    table, pusher = table_machine(tmp_path, club, "T", token)
    records = played_records(seed=13, plays=16)
    client = club.app.test_client()
    try:
        table.start(records[0], name="s", source="page")  # type: ignore[attr-defined]
        play_on(table, records, 0, 6)
        assert pusher.flush(20.0)
        postgres.stop()
        try:
            answer = client.get("/club/api/overview")
            assert answer.status_code == 503
            assert answer.get_json()["error"].startswith("club database unavailable")
            assert client.get("/club/api/health").get_json() == {"database": "down"}
            play_on(table, records, 6, 12)  # the table plays on
            wait_for(lambda: pusher.state == "offline")
        finally:
            postgres.start()
        play_on(table, records, 12, 16)
        assert pusher.flush(30.0)
        store = club.app.extensions["tuolaji.club"]
        assert store.record("T") == stored_record(table)
        assert store.change_numbers("T") == list(range(1, pusher.outbox.last_n + 1))
        assert client.get("/club/api/health").get_json() == {"database": "up"}
    finally:
        pusher.stop()


def enter_play(club: ClubServer, token: str, record: dict) -> int:
    """A phone enters at the club the play that makes ``record``; returns the command's id once the
    table has applied it."""
    client = club.app.test_client()
    trick = record["deals"][0]["tricks"][-1]
    seat = (trick["leader"] + len(trick["plays"]) - 1) % 4
    answer = client.post("/club/api/tables/T/plays", headers={"Authorization": f"Bearer {token}"},
                         json={"seat": seat, "cards": trick["plays"][-1]})
    assert answer.status_code == 202, answer.get_json()
    command = int(answer.get_json()["command"])
    wait_for(lambda: client.get(f"/club/api/tables/T/commands/{command}").get_json()["result"] is not None)
    assert client.get(f"/club/api/tables/T/commands/{command}").get_json()["result"] == "applied"
    return command


def test_club_restored_from_an_older_backup_gets_what_it_lost(tmp_path: Path, club: ClubServer,
                                                               postgres: OwnServer, caplog) -> None:  # type: ignore[no-untyped-def]
    """The club's database restored from a backup taken earlier in the evening (pg_dump, then
    pg_restore --clean): it holds fewer changes than it had acknowledged. The table sends each
    session's current record again after the club's last change, and the club's copy is whole."""
    import subprocess

    token = add_table(club, "T")
    table, pusher = table_machine(tmp_path, club, "T", token)
    records = played_records(seed=14, plays=14)
    dsn = club.app.extensions["tuolaji.club"].dsn
    backup = tmp_path / "club.dump"
    store = club.app.extensions["tuolaji.club"]
    try:
        table.start(records[0], name="s", source="page")  # type: ignore[attr-defined]
        play_on(table, records, 0, 4)
        assert pusher.flush(20.0)
        subprocess.run([str(postgres.bin / "pg_dump"), "-Fc", "-f", str(backup), dsn], check=True)
        held = store.last_n("T")
        # a second session and more plays, acknowledged by the club, then lost with its database
        second = table.store._store.create(records[0], name="另一局", source="page")  # type: ignore[attr-defined]
        table.store._queued(second, records[0])  # type: ignore[attr-defined]
        play_on(table, records, 4, 9)
        entered = enter_play(club, token, records[10])  # a phone's play at the club: command 1, applied
        assert entered == 1 and stored_record(table)["deals"][0]["tricks"] == records[10]["deals"][0]["tricks"]
        assert pusher.flush(20.0)
        acknowledged = pusher.outbox.acked
        assert acknowledged > held
        store.close()
        subprocess.run([str(postgres.bin / "pg_restore"), "--clean", "--if-exists", "-d", dsn, str(backup)],
                       check=True)
        assert store.last_n("T") == held and store.record("T") != stored_record(table)

        # the table plays on: its next change is refused as out of order; it sends what the club lacks
        play_on(table, records, 10, 12)
        assert pusher.flush(20.0)
        assert store.record("T") == stored_record(table)
        assert store.record("T", second) == records[0]
        # the restored club numbers its commands from its backup's again: the next is command 1 anew
        assert enter_play(club, token, records[13]) == 1
        assert stored_record(table)["deals"][0]["tricks"] == records[13]["deals"][0]["tricks"]
        assert pusher.flush(20.0)
        assert store.change_numbers("T") == list(range(1, pusher.outbox.last_n + 1))  # no gap, nothing doubled
        assert any("restored from a backup?" in r.getMessage() for r in caplog.records)

        # restored again, the table idle: it asks the club what it holds and fills the gap by itself
        store.close()
        subprocess.run([str(postgres.bin / "pg_restore"), "--clean", "--if-exists", "-d", dsn, str(backup)],
                       check=True)
        pusher.check_club()
        assert pusher.flush(20.0)
        assert store.record("T") == stored_record(table)
        assert store.change_numbers("T") == list(range(1, pusher.outbox.last_n + 1))
    finally:
        pusher.stop()
