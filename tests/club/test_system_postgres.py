"""The club on a system PostgreSQL (``tuolaji club --db URL``: a server someone runs already, here
Debian's ``initdb`` and ``pg_ctl``), the one module of the club's tests that is not on the club's own
server: a table registered by the command, its machine pushing a round's plays through a restart
of that server, and the club's record the table's, nothing lost or doubled."""

from __future__ import annotations

from pathlib import Path

import pytest

from tuolaji import cli

from .conftest import ClubServer, PostgresServer, played_records
from .test_table_push import play_on, stored_record, table_machine, wait_for


def test_a_club_on_a_system_postgresql(tmp_path: Path, system_postgres: PostgresServer,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    dsn = system_postgres.create_database("club_system")
    assert cli.main(["club", "--db", dsn, "--add-table", "T"]) == 0
    token = capsys.readouterr().out.strip()
    club = ClubServer(dsn).start()
    table, pusher = table_machine(tmp_path, club, "T", token)
    records = played_records(seed=17, plays=12)
    try:
        table.start(records[0], name="s", source="page")  # type: ignore[attr-defined]
        play_on(table, records, 0, 6)
        assert pusher.flush(20.0)
        system_postgres.stop()
        try:
            play_on(table, records, 6, 9)  # the table plays on
            wait_for(lambda: pusher.state == "offline")
        finally:
            system_postgres.start()
        play_on(table, records, 9, 12)
        assert pusher.flush(30.0)
        store = club.app.extensions["tuolaji.club"]
        assert store.record("T") == stored_record(table)
        assert store.change_numbers("T") == list(range(1, pusher.outbox.last_n + 1))
    finally:
        pusher.stop()
        club.close()
