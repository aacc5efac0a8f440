"""``tuolaji serve`` as a user runs it: a real process on a free port, fed by a record; its errors."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.browser.records import revoke_record
from tuolaji import cli
from tuolaji.cli.serve import build_server

ROOT = Path(__file__).resolve().parents[2]


def start_server(*args: str) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen([sys.executable, "-m", "tuolaji", "serve", "--port", "0", *args],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=os.environ | {"PYTHONUNBUFFERED": "1"})
    line = process.stdout.readline()
    assert line.startswith("tuolaji serve: open http://127.0.0.1:"), line + process.stderr.read()
    return process, line.split("open ", 1)[1].split()[0]


def get_json(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read())


def wait_for(predicate, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("timed out")


def stop(process: subprocess.Popen) -> int:
    process.send_signal(signal.SIGINT)
    try:
        return process.wait(15)
    finally:
        process.kill() if process.poll() is None else None
        process.stdout.close()
        process.stderr.close()


def test_serve_a_record_then_resume_it_after_a_restart(tmp_path):
    record, (trick, seat) = revoke_record()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    data = tmp_path / "data"
    process, url = start_server("--record", str(path), "--pace", "0.02", "--data", str(data))
    try:
        assert url.endswith("/")
        with urllib.request.urlopen(url, timeout=10) as response:
            assert "拖拉机" in response.read().decode("utf-8")
        with urllib.request.urlopen(url + "api/events", timeout=10) as stream:
            assert stream.readline().decode() == "retry: 1500\n"
        assert wait_for(lambda: get_json(url + "api/state")["feed"]["finished"])
        final = get_json(url + "api/state")
        assert final["state"]["audit"]["deals"][0]["outcome"]
        violations = final["state"]["audit"]["deals"][0]["violations"]
        assert [(v["trick"], v["seat"], v["rule"]) for v in violations] == [(trick, seat, "must-follow-suit")]
    finally:
        assert stop(process) == 0
    assert (data / "tuolaji.sqlite").is_file()

    process, url = start_server("--resume", "--data", str(data))
    try:
        resumed = get_json(url + "api/state")
        assert resumed["session"]["id"] == final["session"]["id"]
        assert resumed["state"]["record"] == final["state"]["record"]
        assert resumed["feed"] is None
    finally:
        stop(process)


def test_serve_binds_to_localhost_unless_told(tmp_path):
    args = cli.build_parser().parse_args(["serve", "--resume", "--port", "0", "--data", str(tmp_path)])
    server, table = build_server(args)
    try:
        assert server.server_address[0] == "127.0.0.1" and table.feed is None
    finally:
        server.server_close()


def test_serve_help_lists_the_sources(capsys):
    with pytest.raises(SystemExit):
        cli.main(["serve", "--help"])
    out = capsys.readouterr().out
    for option in ("--camera", "--video", "--demo", "--record", "--host", "--port", "--data"):
        assert option in out


@pytest.mark.parametrize(("args", "message"), [
    (["--record", "missing.json"], "missing.json"),
    (["--video", "missing.mp4"], "missing.mp4"),
    (["--record", "{data}/bad.json"], "not valid JSON"),
    (["--resume", "--session", "42"], "session 42"),
    (["--camera", "7"], "camera"),
])
def test_serve_errors_are_one_line_and_exit_2(tmp_path, capsys, args, message):
    (tmp_path / "bad.json").write_text("{oops", encoding="utf-8")
    argv = ["serve", "--port", "0", "--data", str(tmp_path)] + [a.format(data=tmp_path) for a in args]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@pytest.mark.slow
def test_serve_a_video_takes_its_set_up_from_the_sidecar_file(tmp_path):
    demo = ROOT / "vision" / "demo"
    args = cli.build_parser().parse_args([
        "serve", "--video", str(demo / "demo-3deck.mp4"), "--oracle", str(demo / "demo-3deck.frames.json"),
        "--fast", "--port", "0", "--data", str(tmp_path)])
    server, table = build_server(args)
    try:
        table.feed.join(120)
        assert table.feed.finished and table.feed.error is None
        truth = json.loads((demo / "demo-3deck.truth.json").read_text(encoding="utf-8"))
        record = table.game.snapshot()
        assert record["rules"] == "titanic-3deck" and record["players"] == truth["players"]
        assert record["deals"][0]["tricks"] == truth["deals"][0]["tricks"]
        assert table.session.source == "video" and table.session.name == "demo-3deck.mp4"
    finally:
        server.server_close()


# --- the server (waitress, web.server) --------------------------------------------------------------


def test_serve_verbose_logs_each_request_without_the_token(tmp_path):
    data = tmp_path / "data"
    process, url = start_server("--resume", "--data", str(data), "--verbose")
    token = (data / "table-token").read_text(encoding="ascii").strip()
    try:
        with urllib.request.urlopen(f"{url}sessions?token={token}", timeout=10) as response:
            assert response.status == 200
        get_json(url + "api/state")
    finally:
        process.send_signal(signal.SIGINT)
        _out, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    # the token is kept in a cookie and the address redirected without it
    assert "127.0.0.1 GET /sessions?token=… 302" in err and "127.0.0.1 GET /api/state 200" in err, err
    assert token not in err


@pytest.mark.slow
def test_serve_stops_at_sigterm_with_viewers_streaming_and_frees_its_data_folder(tmp_path):
    data = tmp_path / "data"
    process, url = start_server("--resume", "--data", str(data))
    streams = []
    try:
        for _ in range(3):
            stream = urllib.request.urlopen(url + "api/events", timeout=10)
            streams.append(stream)
            assert stream.readline().decode() == "retry: 1500\n"
        process.send_signal(signal.SIGTERM)
        _out, err = process.communicate(timeout=30)  # the streams are not waited for
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
        for stream in streams:
            stream.close()
    assert process.returncode == 0 and "stopping" in err and "Traceback" not in err, err
    again, url = start_server("--resume", "--data", str(data))  # the lock went with it
    try:
        assert "profiles" in get_json(url + "api/state")
    finally:
        assert stop(again) == 0


@pytest.mark.parametrize("option", [["--idle-timeout", "0"], ["--idle-timeout", "1.5"], ["--idle-timeout", "soon"],
                                    ["--max-connections", "8"], ["--max-connections", "-1"]])
def test_serve_refuses_nonsense_server_limits(tmp_path, option, capsys):
    with pytest.raises(SystemExit) as stopped:
        cli.main(["serve", "--data", str(tmp_path), *option])
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and "expected a whole number from" in err and "Traceback" not in err


def test_serve_raises_its_open_file_limit_and_sizes_its_connections_from_it(tmp_path):
    resource = pytest.importorskip("resource")
    from tuolaji.web.server import MAX_CONNECTIONS, RESERVED_FILES

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        if hard != resource.RLIM_INFINITY and hard > 1024:
            resource.setrlimit(resource.RLIMIT_NOFILE, (1024, hard))
        args = cli.build_parser().parse_args(["serve", "--resume", "--port", "0", "--data", str(tmp_path)])
        server, _ = build_server(args)
        try:
            now = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
            assert now == hard or hard == resource.RLIM_INFINITY
            expected = MAX_CONNECTIONS if now == resource.RLIM_INFINITY else min(MAX_CONNECTIONS, now - RESERVED_FILES)
            assert server.adjustments.connection_limit == expected
            assert server.adjustments.channel_timeout == 60 and server.adjustments.asyncore_use_poll
        finally:
            server.server_close()
            server.tuolaji_data_lock.close()
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
