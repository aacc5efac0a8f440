"""``tuolaji serve --club URL --table NAME`` as a table's machine runs it: a recorded deal replayed
at the table reaches the club whole, the club's record equal to the one in the table's SQLite."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tuolaji import cli
from tuolaji.web.store import DATABASE_NAME, SessionStore

from .conftest import ClubServer, evening_record
from .test_table_push import add_table

ROOT = Path(__file__).resolve().parents[2]


def test_serve_pushes_a_replayed_deal_to_the_club(tmp_path: Path, club: ClubServer) -> None:
    token = add_table(club, "三号桌")
    record = evening_record((41,))
    record["deals"] = record["deals"][:1]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    data = tmp_path / "table"
    process = subprocess.Popen(
        [sys.executable, "-m", "tuolaji", "serve", "--port", "0", "--record", str(path), "--pace", "0",
         "--data", str(data), "--club", club.url, "--table", "三号桌"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=os.environ | {"PYTHONUNBUFFERED": "1", "TUOLAJI_CLUB_TOKEN": token})
    store = club.app.extensions["tuolaji.club"]
    plays = sum(len(t["plays"]) for t in record["deals"][0]["tricks"])
    sessions = SessionStore(data / DATABASE_NAME)
    try:
        assert process.stdout is not None and process.stdout.readline().startswith("tuolaji serve: open ")
        deadline = time.monotonic() + 60
        while True:  # every play at the club
            overview = store.overview()[0]
            if overview["summary"] and overview["summary"]["deals_done"] == 1:
                break
            assert time.monotonic() < deadline, overview
            assert process.poll() is None
            time.sleep(0.2)
        [session] = sessions.list()
        while store.record("三号桌") != sessions.get(session.id).record:  # the table's last saves on their way
            assert time.monotonic() < deadline
            time.sleep(0.2)
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(30)
    assert process.stderr is not None
    assert f"tuolaji serve: club {club.url}, table 三号桌: reached; it holds the table's changes up to " \
        in process.stderr.read()  # the table's console says when it reaches the club
    assert store.record("三号桌") == sessions.get(session.id).record
    assert store.change_numbers("三号桌") == list(range(1, store.last_n("三号桌") + 1))
    assert store.last_n("三号桌") >= plays + 1  # the set-up, then one change a play at least


def test_serve_club_needs_a_table_and_token(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    code = cli.main(["serve", "--port", "0", "--resume", "--data", str(tmp_path), "--club", "http://127.0.0.1:9"])
    assert code == 2
    assert capsys.readouterr().err.strip() == ("tuolaji serve: --club needs --table NAME and the table's token "
                                               "(--club-token or $TUOLAJI_CLUB_TOKEN)")
