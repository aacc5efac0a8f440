"""``--camera URL``: a phone's stream wherever a command takes a camera; an unreachable phone is one
line on stderr and exit status 2, before any model is loaded."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tuolaji", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120)


@pytest.fixture
def closed_port() -> int:
    """A port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize("command", ["serve", "check-camera", "replay"])
def test_an_unreachable_phone_is_one_line_and_exit_2(tmp_path, closed_port, command):
    url = f"http://127.0.0.1:{closed_port}/video"
    args = {"serve": ["serve", "--camera", url, "--port", "0", "--data", str(tmp_path)],
            "check-camera": ["check-camera", "--camera", url],
            "replay": ["replay", url, "--setup", str(tmp_path / "setup.json"), "--out", str(tmp_path / "out.json")]}
    result = cli(*args[command])
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert f"{url}: cannot connect (connection refused)" in result.stderr


def test_camera_takes_a_number_or_a_stream_address(tmp_path):
    result = cli("serve", "--camera", "phone", "--port", "0", "--data", str(tmp_path))
    assert result.returncode == 2
    assert "expected a webcam number (0, 1, ...) or a stream address" in result.stderr
    assert "N|URL" in cli("serve", "--help").stdout
