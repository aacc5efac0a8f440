"""A tiny end-to-end run of the project's own training commands: generate, train, export, read."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

import tuolaji_cli

pytest.importorskip("torch")
pytest.importorskip("ultralytics")


def test_train_export_and_read_a_tiny_model(tmp_path: Path) -> None:
    data = tmp_path / "set"
    assert tuolaji_cli.main(["generate", "--out", str(data), "--count", "4", "--seed", "3", "--size", "320x320",
                             "--crops", "--quiet"]) == 0
    assert tuolaji_cli.main(["train", "detector", "--train", str(data), "--val", str(data), "--out",
                             str(tmp_path / "det"), "--epochs", "1", "--batch", "4"]) == 0
    last = tmp_path / "det" / "weights" / "last.pt"
    assert last.exists()
    assert tuolaji_cli.main(["train", "classifier", "--train", str(data), "--val", str(data), "--out",
                             str(tmp_path / "cls"), "--epochs", "1", "--batch", "32"]) == 0
    assert (tmp_path / "cls" / "last.pt").exists() and (tmp_path / "cls" / "history.json").exists()
    # resuming a finished classifier run is a no-op that keeps the checkpoint
    assert tuolaji_cli.main(["train", "classifier", "--train", str(data), "--val", str(data), "--out",
                             str(tmp_path / "cls"), "--epochs", "1", "--resume"]) == 0
    models = tmp_path / "models"
    assert tuolaji_cli.main(["export", "--detector", str(last), "--classifier", str(tmp_path / "cls" / "last.pt"),
                             "--out", str(models)]) == 0
    assert {p.name for p in models.iterdir()} >= {"detector.onnx", "classifier.onnx", "cards.json"}

    from vision.detector import CardReader

    reader = CardReader.load(models)
    cards = reader.read(cv2.imread(str(data / "images" / "000000.jpg")))
    assert isinstance(cards, list)  # an untrained model may read nothing; it must run
