"""Issue 45's low findings at the table: numbers are plain ASCII digits; the phone camera's address
(its password) is kept readable by the owner alone and never echoed."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tuolaji.web.camera import SETTINGS_FILE, load_settings, save_settings

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("dealer", ["1_0", "١", " 1 ", "+1", "1.0", "0x1"])
def test_numbers_are_plain_ascii_digits(client, dealer: str) -> None:  # type: ignore[no-untyped-def]
    answer = client.post("/api/setup", json={"players": ["东", "南", "西", "北"], "profile": "standard-2deck",
                                              "dealer": dealer})
    assert answer.status_code == 400, answer.get_json()
    assert client.post("/api/setup", json={"players": ["东", "南", "西", "北"], "profile": "standard-2deck",
                                           "dealer": "1"}).status_code in (200, 201)


def test_the_camera_settings_are_the_owner_s_alone(tmp_path: Path) -> None:
    save_settings(tmp_path, {"source": "http://me:secret@192.168.1.5:8080/video"})
    assert stat.S_IMODE((tmp_path / SETTINGS_FILE).stat().st_mode) == 0o600
    (tmp_path / SETTINGS_FILE).chmod(0o644)  # as an earlier version kept it
    assert load_settings(tmp_path)["source"].endswith("/video")
    assert stat.S_IMODE((tmp_path / SETTINGS_FILE).stat().st_mode) == 0o600


@pytest.mark.parametrize("url", ["http://me:secret@[::1/video", "http://me:secret@host:port/v"])
def test_check_camera_never_echoes_a_password(url: str) -> None:
    result = subprocess.run([sys.executable, "-m", "tuolaji", "check-camera", "--camera", url], cwd=ROOT,
                            capture_output=True, text=True, timeout=60, env=os.environ | {"PYTHONUNBUFFERED": "1"})
    assert result.returncode == 2 and "secret" not in result.stderr + result.stdout, result.stderr
    assert result.stderr.count("\n") == 1 and "me:***@" in result.stderr
