"""The face reader's own commands, end to end and tiny: face-set, train face, export --face, read."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tuolaji import cli
from tuolaji.vision.face import FACE_PX, FaceReader

pytest.importorskip("torch")


def test_face_set_train_export_and_read(tmp_path: Path, capsys) -> None:
    faces = tmp_path / "faces"
    assert cli.main(["face-set", "--out", str(faces), "--seed", "2", "--styles", "1", "--art-copies", "1",
                             "--rejects", "30"]) == 0
    assert "training pictures" in capsys.readouterr().out
    run = tmp_path / "run"
    args = ["train", "face", "--train", str(faces), "--val", str(faces), "--out", str(run), "--epochs", "1",
            "--set", "samples_per_epoch=192", "--set", "width=8"]
    assert cli.main(args) == 0
    history = json.loads((run / "history.json").read_text())
    assert [h["epoch"] for h in history] == [1] and 0.0 <= history[0]["accuracy"] <= 1.0
    # a finished run resumed is a no-op that keeps its checkpoint
    assert cli.main([*args, "--resume"]) == 0
    assert len(json.loads((run / "history.json").read_text())) == 1
    models = tmp_path / "models"
    assert cli.main(["export", "--face", str(run / "last.pt"), "--out", str(models)]) == 0
    import onnxruntime as ort

    reader = FaceReader(ort.InferenceSession(str(models / "face.onnx"), providers=["CPUExecutionProvider"]))
    probs = reader.read_both_ways(np.zeros((3, FACE_PX, FACE_PX, 3), np.uint8))
    assert probs.shape == (3, 55) and np.allclose(probs.sum(axis=1), 1.0, atol=1e-4)


def test_train_face_refuses_a_folder_that_is_no_face_set(tmp_path: Path, capsys) -> None:
    assert cli.main(["train", "face", "--train", str(tmp_path), "--val", str(tmp_path), "--out",
                             str(tmp_path / "run")]) == 2
    assert "not a face set" in capsys.readouterr().err


def test_strong_augment_turns_recolours_and_covers_but_keeps_the_picture() -> None:
    from tuolaji.training.face_train import _augment

    batch = np.full((64, FACE_PX, FACE_PX, 3), 200, np.uint8)
    batch[:, :20, :20] = 0  # a dark top-left corner: a half turn moves it to the bottom right
    plain = _augment(batch, np.random.default_rng(0))
    strong = _augment(batch, np.random.default_rng(0), strong=True)
    assert plain.shape == strong.shape == batch.shape
    centre = FACE_PX // 2
    assert (plain[:, -12:, -12:].mean(axis=(1, 2, 3)) > 100).all()  # light shifts never turn a card
    turned = strong[:, -12:, -12:].mean(axis=(1, 2, 3)) < 60
    assert 10 < turned.sum() < 54  # about half of them, either way up
    # a white balance: the three channels of a grey card no longer agree
    assert np.abs(strong[:, centre, centre, 0] - strong[:, centre, centre, 2]).max() > 5
    assert np.abs(plain[:, centre, centre, 0] - plain[:, centre, centre, 2]).max() < 1e-3


def test_train_face_with_strong_augment_from_the_settings(tmp_path: Path) -> None:
    faces = tmp_path / "faces"
    assert cli.main(["face-set", "--out", str(faces), "--seed", "3", "--styles", "1", "--art-copies", "1",
                             "--rejects", "20"]) == 0
    run = tmp_path / "run"
    assert cli.main(["train", "face", "--train", str(faces), "--val", str(faces), "--out", str(run),
                             "--epochs", "1", "--set", "samples_per_epoch=96", "--set", "width=8",
                             "--set", "strong_augment=true"]) == 0
    import torch

    settings = torch.load(run / "last.pt", map_location="cpu", weights_only=False)["settings"]
    assert settings["strong_augment"] is True and settings["samples_per_epoch"] == 96
