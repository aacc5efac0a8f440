"""The demo trusts the shipped card reader only once it is recorded to replay the demo exactly
(tests/vision/test_replay_end_to_end.py holds the record to a real replay), and the recorded F1 is the
one the reader really measures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from vision.demo import READY_F1, shipped_reader_f1, shipped_reader_is_ready

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "models"


def fake_models(folder: Path, metrics: dict | None) -> Path:
    for name in ("detector.onnx", "classifier.onnx"):
        (folder / name).write_bytes(b"onnx")
    meta = {"detector_classes": ["index"]}
    if metrics is not None:
        meta["metrics"] = metrics
    (folder / "cards.json").write_text(json.dumps(meta), encoding="utf-8")
    return folder


def test_ready_only_when_recorded_to_replay_the_demo(tmp_path: Path) -> None:
    assert not shipped_reader_is_ready(tmp_path)  # no model at all
    assert shipped_reader_f1(fake_models(tmp_path, None)) is None
    assert not shipped_reader_is_ready(fake_models(tmp_path, {"fixed_test_f1": READY_F1}))
    assert not shipped_reader_is_ready(fake_models(tmp_path, {"demo_replay_exact": False}))
    assert not shipped_reader_is_ready(fake_models(tmp_path, {"demo_replay_exact": "yes"}))
    assert shipped_reader_is_ready(fake_models(tmp_path, {"fixed_test_f1": 0.5, "demo_replay_exact": True}))
    assert shipped_reader_f1(fake_models(tmp_path, {"fixed_test_f1": 0.812})) == 0.812
    assert shipped_reader_f1(fake_models(tmp_path, {"fixed_test_f1": "high"})) is None


@pytest.mark.skipif(not (MODELS / "detector.onnx").exists(), reason="no shipped card model")
def test_the_recorded_f1_is_what_the_shipped_reader_measures(shipped_test_set_evaluation: dict) -> None:
    assert shipped_reader_f1() == pytest.approx(shipped_test_set_evaluation["f1"], abs=0.005)


def test_serve_demo_says_where_its_cards_come_from(tmp_path: Path) -> None:
    """Until the model replays the demo exactly, the demo reads its rendered answer file, and says so."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tuolaji_cli", "serve", "--demo", "--fast", "--port", "0",
         "--data", str(tmp_path)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        assert line.startswith("tuolaji serve: open http://127.0.0.1:")
    finally:
        process.terminate()
        _, stderr = process.communicate(timeout=30)
    if shipped_reader_is_ready():
        assert "demo-3deck.frames.json" not in stderr
    else:
        assert "the demo reads its cards from demo-3deck.frames.json" in stderr


def _env() -> dict[str, str]:
    import os

    return {**os.environ, "PYTHONPATH": str(ROOT)}


@pytest.mark.skipif(not (MODELS / "detector.onnx").exists(), reason="no shipped models")
def test_the_demo_check_records_into_the_models_it_was_given(tmp_path: Path) -> None:
    """`tuolaji demo --record-check --models DIR` replays the demo with DIR's reader and
    records the result there only; `--help` renders nothing."""
    from tests.cli.test_detect_and_eval import copy_of_the_models

    models = copy_of_the_models(tmp_path)
    meta = json.loads((models / "cards.json").read_text(encoding="utf-8"))
    meta.pop("metrics", None)
    (models / "cards.json").write_text(json.dumps(meta), encoding="utf-8")
    shipped_before = (MODELS / "cards.json").read_bytes()
    done = subprocess.run([sys.executable, "-m", "tuolaji_cli", "demo", "--record-check", "--models", str(models)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600, env=_env())
    assert done.returncode == 0, done.stderr
    recorded = json.loads((models / "cards.json").read_text(encoding="utf-8"))["metrics"]
    exact, total = (int(v) for v in recorded["demo_tricks_exact"].split("/"))
    assert total >= 4 and recorded["demo_replay_exact"] == (exact == total)
    assert f"{exact}/{total} tricks exact" in done.stdout
    assert (MODELS / "cards.json").read_bytes() == shipped_before
    helped = subprocess.run([sys.executable, "-m", "tuolaji_cli", "demo", "--help"], cwd=tmp_path, capture_output=True, text=True,
                            timeout=60, env=_env())
    assert helped.returncode == 0 and "--record-check" in helped.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["models"]
