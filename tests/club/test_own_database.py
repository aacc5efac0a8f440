"""``tuolaji club`` with no database given: a PostgreSQL of its own in ``--data``, started and stopped
with the club, the evening kept in the folder for the next start (issue "A club evening", item 1)."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psutil
import pytest

from tuolaji import cli

from .test_command import ROOT, free_port


def own_postgres_running(folder: Path) -> bool:
    """Whether a PostgreSQL server of the club's own, with its files in ``folder``, runs."""
    for process in psutil.process_iter(attrs=["name", "cmdline"]):
        if process.info["name"] == "postgres" and str(folder) in " ".join(process.info["cmdline"] or []):
            return True
    return False


@pytest.fixture()
def club_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("TUOLAJI_CLUB_DB", raising=False)
    return tmp_path_factory.mktemp("own") / "club"


def test_the_club_keeps_its_own_database_in_its_folder(club_folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["club", "--data", str(club_folder), "--add-table", "一号桌"]) == 0
    printed = capsys.readouterr()
    token = printed.out.strip()
    assert len(token) >= 20
    # the whole address the table's phones open, on this machine's network address
    address = re.search(r"open (http://[^ ]+)", printed.err)
    assert address and address.group(1).endswith(f":8760/club/table/%E4%B8%80%E5%8F%B7%E6%A1%8C?token={token}")
    assert not own_postgres_running(club_folder)  # stopped with the command
    # the next start finds the evening as it was left
    assert cli.main(["club", "--data", str(club_folder), "--add-table", "一号桌"]) == 2
    assert capsys.readouterr().err.strip() == "tuolaji club: table '一号桌' exists already"
    assert cli.main(["club", "--data", str(club_folder), "--organiser-token"]) == 0
    assert len(capsys.readouterr().out.strip()) >= 20


def test_one_command_serves_the_room_and_stops_its_database_with_it(club_folder: Path) -> None:
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "tuolaji", "club", "--data", str(club_folder), "--port", str(port)],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               env={k: v for k, v in __import__("os").environ.items() if k != "TUOLAJI_CLUB_DB"}
                               | {"PYTHONUNBUFFERED": "1"})
    try:
        assert process.stdout is not None
        assert process.stdout.readline().strip() == f"tuolaji club: the club's own database is in {club_folder}"
        assert process.stdout.readline().startswith("tuolaji club: organiser token ")
        assert process.stdout.readline().strip() == f"tuolaji club: open http://127.0.0.1:{port}/club  (Ctrl-C stops)"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/club/api/health", timeout=10) as answer:
            assert json.loads(answer.read()) == {"database": "up"}
        assert own_postgres_running(club_folder)
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(30) == 0
    deadline = time.monotonic() + 10
    while own_postgres_running(club_folder):  # pg_ctl stop -w has returned: at most a moment more
        assert time.monotonic() < deadline, "the club's own PostgreSQL outlived the club"
        time.sleep(0.2)


def test_a_folder_too_deep_for_the_socket_is_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TUOLAJI_CLUB_DB", raising=False)
    deep = tmp_path / ("x" * 60) / ("y" * 40)
    assert cli.main(["club", "--data", str(deep), "--organiser-token"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"tuolaji club: --data {deep}: too long a path for the database's socket")
    assert not deep.exists()
