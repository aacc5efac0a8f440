"""The commands on data they could damage (issue #17): a second server on one data folder, a port in
use, a table open to the network, a record resumed by another game's input, Ctrl-C in the camera
pipeline, nonsense options, outputs that exist, file modes, corrupt models."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tuolaji import cli, scorer
from tuolaji.cli.serve import build_server
from tuolaji.session.live import write_json_atomic
from tuolaji.vision.demo import DEMO_FRAMES, DEMO_SETUP, DEMO_TRUTH, DEMO_VIDEO

ROOT = Path(__file__).resolve().parents[2]


def one_line_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_a_second_server_on_one_data_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = cli.build_parser().parse_args(["serve", "--resume", "--port", "0", "--data", str(tmp_path)])
    server, _ = build_server(args)
    try:
        err = one_line_exit_2(["serve", "--resume", "--port", "0", "--data", str(tmp_path)], capsys)
        assert "another tuolaji serve is using this data folder" in err and f"process {os.getpid()}" in err
    finally:
        server.server_close()
        server.tuolaji_data_lock.close()
    second, _ = build_server(args)  # the first one stopped: the folder is free again
    second.server_close()
    second.tuolaji_data_lock.close()


def test_a_port_in_use_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        err = one_line_exit_2(["serve", "--resume", "--port", str(port), "--data", str(tmp_path)], capsys)
    assert f"127.0.0.1:{port}" in err and "in use" in err


@pytest.mark.parametrize("option", [["--speed", "nan"], ["--speed", "inf"], ["--pace", "nan"], ["--pace", "-1"]])
def test_serve_refuses_nonsense_numbers(tmp_path: Path, option: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main(["serve", "--data", str(tmp_path), *option])
    assert stopped.value.code == 2 and "expected a number" in capsys.readouterr().err


@pytest.mark.parametrize("option", [["--fps", "nan"], ["--settle", "inf"], ["--fps", "0"], ["--settle", "-0.5"]])
def test_replay_refuses_nonsense_numbers(tmp_path: Path, option: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main(["replay", str(DEMO_VIDEO), "--setup", str(DEMO_SETUP), "--out", str(tmp_path / "o.json"),
                          *option])
    assert stopped.value.code == 2 and "expected a number" in capsys.readouterr().err
    assert not (tmp_path / "o.json").exists()


@pytest.mark.parametrize("corners", ["inf,0 1,0 1,1 0,1", "nan,0 1,0 1,1 0,1", "1e400,0 1,0 1,1 0,1"])
def test_replay_refuses_corners_that_are_not_numbers(tmp_path: Path, corners: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    err = one_line_exit_2(["replay", str(DEMO_VIDEO), "--setup", str(DEMO_SETUP), "--out", str(tmp_path / "o.json"),
                           "--oracle", str(DEMO_FRAMES), "--corners", corners], capsys)
    assert "--corners" in err and not (tmp_path / "o.json").exists()


# --- a table open to the network -----------------------------------------------------------------


def test_on_the_network_a_client_without_the_table_token_can_only_read(tmp_path: Path) -> None:
    """``serve --host 127.0.0.2`` (an address other machines would use, reached here through loopback)."""
    record = scorer.random_record("standard-2deck", 3, hand_size=3)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    process = subprocess.Popen([sys.executable, "-m", "tuolaji", "serve", "--host", "127.0.0.2",
                                "--port", "0", "--record", str(path), "--pace", "0", "--data", str(tmp_path / "d")],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=os.environ | {"PYTHONUNBUFFERED": "1"})
    try:
        first, second = process.stdout.readline(), process.stdout.readline()
        assert first.startswith("tuolaji serve: open http://127.0.0.2:"), first + process.stderr.read()
        token = first.split("?token=", 1)[1].split()[0]
        assert f"?token={token}" in second and "can only watch" in second
        base = first.split("open ", 1)[1].split("?", 1)[0]

        def call(path: str, body: Any = None, headers: dict[str, str] | None = None) -> tuple[int, Any]:
            data = None if body is None else json.dumps(body).encode()
            request = urllib.request.Request(base + path, data=data, headers={"Content-Type": "application/json"}
                                             | (headers or {}), method="GET" if body is None else "POST")
            try:
                with urllib.request.urlopen(request, timeout=10) as response:
                    return response.status, response.read().decode()
            except urllib.error.HTTPError as error:
                return error.code, error.read().decode()

        status, page = call("")
        assert status == 200 and "readonly" in page and token not in page
        deadline = time.monotonic() + 30
        while json.loads(call("api/state")[1])["feed"]["finished"] is not True:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        state = json.loads(call("api/state")[1])
        assert state["state"]["record"]["deals"][0]["tricks"] == record["deals"][0]["tricks"]
        for path, body in (("api/sessions/1/delete", {}), ("api/setup", {"players": list("abcd")}),
                           ("api/correct", {"deal": 0, "trick": 0, "seat": 0, "index": 0, "card": "AS"})):
            status, answer = call(path, body)
            assert status == 403 and "token" in answer
        assert json.loads(call("api/state")[1])["state"]["record"] == state["state"]["record"]
        status, _ = call("api/setup", {"players": list("abcd"), "new": True}, {"X-Tuolaji-Token": token})
        assert status == 201
    finally:
        process.send_signal(signal.SIGINT)
        try:
            # read both pipes while waiting: a server blocked on a full stderr pipe would never stop
            _out, err = process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            _out, err = process.communicate()
            raise AssertionError(f"serve did not stop within 60 s of Ctrl-C; stderr: {err[-2000:]}") from None


# --- resuming only the same game -------------------------------------------------------------------


def other_game() -> dict[str, Any]:
    """Another deal than the demo's, with the same players and rules (a record ``--out`` must not merge into)."""
    truth = json.loads(DEMO_TRUTH.read_text(encoding="utf-8"))
    other = json.loads(json.dumps(truth))
    deal = other["deals"][0]
    seeded = len(json.loads(DEMO_SETUP.read_text(encoding="utf-8"))["deals"][0]["tricks"])
    deal["tricks"] = deal["tricks"][:seeded + 1]  # the deal so far and one filmed trick
    for trick in deal["tricks"]:
        trick["plays"] = trick["plays"][1:] + trick["plays"][:1]  # every seat holds another seat's cards
    deal.pop("complete", None)
    deal.pop("kitty", None)
    return other


def test_replay_out_refuses_another_games_record_and_leaves_it_as_it_was(tmp_path: Path) -> None:
    out = tmp_path / "other.json"
    out.write_text(json.dumps(other_game(), ensure_ascii=False), encoding="utf-8")
    before = out.read_bytes()
    result = subprocess.run([sys.executable, "-m", "tuolaji", "replay", str(DEMO_VIDEO), "--setup",
                             str(DEMO_SETUP), "--out", str(out), "--oracle", str(DEMO_FRAMES), "--quiet"],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 2, result.stderr
    assert "holds another game" in result.stderr and result.stderr.count("\n") == 1
    assert out.read_bytes() == before


def test_replay_out_refuses_a_record_set_up_otherwise(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = other_game()
    other["deals"][0]["trump"] = "S" if other["deals"][0]["trump"] != "S" else "D"
    out = tmp_path / "other.json"
    out.write_text(json.dumps(other, ensure_ascii=False), encoding="utf-8")
    before = out.read_bytes()
    err = one_line_exit_2(["replay", str(DEMO_VIDEO), "--setup", str(DEMO_SETUP), "--out", str(out),
                           "--oracle", str(DEMO_FRAMES), "--quiet"], capsys)
    assert "holds another game" in err and out.read_bytes() == before


def test_serve_record_into_a_session_of_another_game_is_refused(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from tuolaji.web import create_app, get_table

    app = create_app({"DATA_DIR": str(tmp_path / "d")})
    get_table(app).store.create(other_game(), name="other", source="import")
    path = tmp_path / "demo.json"
    path.write_text(DEMO_TRUTH.read_text(encoding="utf-8"), encoding="utf-8")
    err = one_line_exit_2(["serve", "--record", str(path), "--session", "1", "--port", "0",
                           "--data", str(tmp_path / "d")], capsys)
    assert "session 1: holds another game" in err
    assert get_table(app).store.get(1).record == other_game()


@pytest.mark.slow
def test_ctrl_c_in_the_camera_pipeline_stops_cleanly_with_exit_130_and_keeps_the_record(tmp_path: Path) -> None:
    out = tmp_path / "demo.json"
    process = subprocess.Popen([sys.executable, "-m", "tuolaji", "replay", str(DEMO_VIDEO), "--setup",
                                str(DEMO_SETUP), "--out", str(out), "--oracle", str(DEMO_FRAMES), "--quiet"],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    seeded = plays = sum(len(t["plays"]) for t in json.loads(DEMO_SETUP.read_text(encoding="utf-8"))["deals"][0]["tricks"])
    while plays <= seeded and process.poll() is None and time.monotonic() < deadline:  # a play of the video recorded
        time.sleep(0.01)
        try:
            record = json.loads(out.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        plays = sum(len(t["plays"]) for t in record["deals"][0].get("tricks", []))
    assert process.poll() is None, "the replay ended before it could be interrupted"
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err and "Abort" not in err
    kept = json.loads(out.read_text(encoding="utf-8"))
    scorer.validate_record(kept)
    assert sum(len(t["plays"]) for t in kept["deals"][0]["tricks"]) >= plays
    resumed = subprocess.run([sys.executable, "-m", "tuolaji", "replay", str(DEMO_VIDEO), "--setup",
                              str(DEMO_SETUP), "--out", str(out), "--oracle", str(DEMO_FRAMES), "--quiet"],
                             cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    truth = json.loads(DEMO_TRUTH.read_text(encoding="utf-8"))
    assert json.loads(out.read_text(encoding="utf-8"))["deals"][0]["tricks"] == truth["deals"][0]["tricks"]


# --- files ---------------------------------------------------------------------------------------------


def test_write_json_atomic_keeps_the_files_mode(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    path.write_text("{}", encoding="utf-8")
    path.chmod(0o644)
    write_json_atomic(path, {"a": 1})
    assert path.stat().st_mode & 0o777 == 0o644 and json.loads(path.read_text(encoding="utf-8")) == {"a": 1}
    path.chmod(0o640)
    write_json_atomic(path, {"a": 2})
    assert path.stat().st_mode & 0o777 == 0o640
    fresh = tmp_path / "new.json"
    old_umask = os.umask(0o022)
    try:
        write_json_atomic(fresh, [])
    finally:
        os.umask(old_umask)
    assert fresh.stat().st_mode & 0o777 == 0o644


def test_render_video_never_overwrites_without_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "deal.mp4"
    (tmp_path / "deal.truth.json").write_text("precious", encoding="utf-8")
    err = one_line_exit_2(["render-video", str(out), "--profile", "single-deck", "--hand-size", "1"], capsys)
    assert "deal.truth.json: exists already" in err and "--force" in err
    assert (tmp_path / "deal.truth.json").read_text(encoding="utf-8") == "precious" and not out.exists()


def test_a_truncated_onnx_model_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    models = tmp_path / "models"
    models.mkdir()
    for name in ("detector.onnx", "classifier.onnx", "cards.json"):
        data = (ROOT / "models" / name).read_bytes()
        (models / name).write_bytes(data[: len(data) // 3] if name.endswith(".onnx") else data)
    image = tmp_path / "table.png"
    from tests.fuzz_harness import png

    image.write_bytes(png(64, 48))
    err = one_line_exit_2(["detect", str(image), "--models", str(models)], capsys)
    assert "detector.onnx: not a usable ONNX model" in err


def test_detect_refuses_an_image_that_claims_60000_by_60000(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.fuzz_harness import png

    image = tmp_path / "bomb.png"
    image.write_bytes(png(60000, 60000, body=False))
    err = one_line_exit_2(["detect", str(image)], capsys)
    assert "bomb.png" in err and "megapixels" in err


@pytest.mark.parametrize("content", [b"\x89PNG\r\n\x1a\n" + b"\x00" * 40, b"not an image at all", b""])
def test_a_broken_image_is_exactly_one_line(tmp_path: Path, content: bytes) -> None:
    image = tmp_path / "broken.png"
    image.write_bytes(content)
    result = subprocess.run([sys.executable, "-m", "tuolaji", "detect", str(image)], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "broken.png" in result.stderr, result.stderr
