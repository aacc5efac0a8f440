"""``scripts/screenshots.py`` still drives the page: its first steps (set-up and bids) run on a
fresh server and write their PNGs (the whole tour: ``python scripts/screenshots.py``)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]


def load_script():
    spec = importlib.util.spec_from_file_location("screenshots", ROOT / "scripts" / "screenshots.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_screenshot_script_takes_its_first_shots(page, tmp_path):
    shots = load_script()
    with shots.serve(tmp_path / "data") as url:
        written = shots.take(page, url, tmp_path / "out", ["setup", "bids"])
    assert [path.name for path in written] == ["guide-setup.png", "guide-bids.png"]
    for path in written:
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 10_000
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["guide-bids.png", "guide-setup.png"]
