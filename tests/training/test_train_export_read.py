"""A tiny end-to-end run of the project's own training commands: generate, train, export, read."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tuolaji import cli

pytest.importorskip("torch")
pytest.importorskip("ultralytics")


def test_train_export_and_read_a_tiny_model(tmp_path: Path) -> None:
    data = tmp_path / "set"
    assert cli.main(["generate", "--out", str(data), "--count", "4", "--seed", "3", "--size", "320x320",
                             "--crops", "--quiet"]) == 0
    assert cli.main(["train", "detector", "--train", str(data), "--val", str(data), "--out",
                             str(tmp_path / "det"), "--epochs", "1", "--batch", "4"]) == 0
    last = tmp_path / "det" / "weights" / "last.pt"
    assert last.exists()
    assert cli.main(["train", "classifier", "--train", str(data), "--val", str(data), "--out",
                             str(tmp_path / "cls"), "--epochs", "1", "--batch", "32"]) == 0
    assert (tmp_path / "cls" / "last.pt").exists() and (tmp_path / "cls" / "history.json").exists()
    # resuming a finished classifier run is a no-op that keeps the checkpoint
    assert cli.main(["train", "classifier", "--train", str(data), "--val", str(data), "--out",
                             str(tmp_path / "cls"), "--epochs", "1", "--resume"]) == 0
    models = tmp_path / "models"
    models.mkdir()
    # what was measured of the models an export replaces does not describe the new ones
    (models / "cards.json").write_text(json.dumps({"reader": {"card_threshold": 0.6}, "metrics": {"demo_replay_exact": True},
                                                    "reader_tuned_on": "old"}))
    assert cli.main(["export", "--detector", str(last), "--classifier", str(tmp_path / "cls" / "last.pt"),
                             "--int8-classifier", "--out", str(models)]) == 0
    assert {p.name for p in models.iterdir()} >= {"detector.onnx", "classifier.onnx", "cards.json", "reader_check.npz"}
    written = json.loads((models / "cards.json").read_text())
    assert written["classifier_weights"] == "int8 (7-bit weights)" and written["reader"]["card_threshold"] == 0.6
    assert "metrics" not in written and "reader_tuned_on" not in written
    floats = tmp_path / "float-models"
    assert cli.main(["export", "--classifier", str(tmp_path / "cls" / "last.pt"), "--out", str(floats)]) == 0
    assert json.loads((floats / "cards.json").read_text())["classifier_weights"] == "float32"
    from tests.vision.test_model_check import widest_integer_weight

    assert widest_integer_weight(models / "classifier.onnx") <= 64  # no CPU's integer kernel can overflow

    import onnx
    import onnxruntime as ort

    ops = {node.op_type for node in onnx.load(str(models / "classifier.onnx")).graph.node}
    assert "QuantizeLinear" in ops and "QuantizeLinear" not in {n.op_type for n in onnx.load(str(floats / "classifier.onnx")).graph.node}
    with np.load(sorted((data / "crops").glob("*.npz"))[0]) as crops:
        blob = np.ascontiguousarray(crops["x"].transpose(0, 3, 1, 2), dtype=np.float32) / 255
    int8_probs = ort.InferenceSession(str(models / "classifier.onnx")).run(None, {"crops": blob})[0]
    float_probs = ort.InferenceSession(str(floats / "classifier.onnx")).run(None, {"crops": blob})[0]
    assert np.allclose(int8_probs.sum(1), 1, atol=1e-3)
    assert np.abs(int8_probs - float_probs).max() < 0.1
    session = ort.InferenceSession(str(models / "classifier.onnx"))
    assert [o.name for o in session.get_outputs()] == ["probs", "up", "side", "features"]
    # the class head written beside it turns the features into the same probabilities (what enrolment adapts)
    probs, _up, _side, features = session.run(None, {"crops": blob})
    with np.load(models / "classifier_head.npz") as head:
        logits = features @ head["weight"].T + head["bias"]
    exp = np.exp(logits - logits.max(axis=1, keepdims=True))
    assert np.abs(exp / exp.sum(axis=1, keepdims=True) - probs).max() < 1e-4

    # two checkpoints make one ensemble network; a network twice over reads as itself
    pair = tmp_path / "pair-models"
    checkpoint = str(tmp_path / "cls" / "last.pt")
    assert cli.main(["export", "--classifier", checkpoint, "--classifier", checkpoint,
                             "--out", str(pair)]) == 0
    pair_out = ort.InferenceSession(str(pair / "classifier.onnx")).run(None, {"crops": blob})
    float_out = ort.InferenceSession(str(floats / "classifier.onnx")).run(None, {"crops": blob})
    assert len(pair_out) == 3 and len(float_out) == 4  # an ensemble has no one class head for enrolment to adapt
    for got, want in zip(pair_out, float_out[:3], strict=True):
        assert np.allclose(got, want, atol=1e-5)
    assert ((float_out[2] >= 0) & (float_out[2] <= 1)).all()

    from tuolaji.vision.detector import CardReader

    reader = CardReader.load(models)
    cards = reader.read(cv2.imread(str(data / "images" / "000000.jpg")))
    assert isinstance(cards, list)  # an untrained model may read nothing; it must run

    # a small-index specialist: trained on small indices and larger ones shrunk to their pixels,
    # exported beside the classifier, and loaded by the reader for the small indices
    assert cli.main(["train", "classifier", "--init", checkpoint, "--train", str(data), "--val", str(data),
                             "--out", str(tmp_path / "small"), "--epochs", "1", "--batch", "32",
                             "--set", "small_only=18", "--set", "small_weight=2"]) == 0
    import torch

    state = torch.load(tmp_path / "small" / "last.pt", map_location="cpu", weights_only=False)
    assert state["small_only"] == 18 and state["lowres_share"] == 1.0
    assert cli.main(["export", "--small-classifier", str(tmp_path / "small" / "last.pt"), "--out", str(models)]) == 0
    small = ort.InferenceSession(str(models / "classifier_small.onnx"))
    assert [o.name for o in small.get_outputs()] == ["probs", "up", "side"]  # no features: enrolment adapts the classifier
    assert CardReader.load(models, small_reader_px=18.0).has_small_reader

    # spades and clubs drawn more often (their confusion is the commonest on real decks); the
    # validation says how often each is read as the other
    assert cli.main(["train", "classifier", "--init", checkpoint, "--train", str(data), "--val", str(data),
                             "--out", str(tmp_path / "black"), "--epochs", "1", "--batch", "32",
                             "--set", "black_weight=3", "--set", "shape_jitter=0.5"]) == 0
    state = torch.load(tmp_path / "black" / "last.pt", map_location="cpu", weights_only=False)
    assert state["black_weight"] == 3.0 and state["shape_jitter"] == 0.5
    assert {"spade_as_club", "club_as_spade"} <= set(state["history"][-1])


def test_shape_jitter_draws_an_index_as_another_typeface_would() -> None:
    """A vertical bar (a "1" of a 10) comes back narrower or wider, slanted, thinner or bolder, about
    where it was; without jitter the augmentation draws nothing of the kind."""
    from tuolaji.training.classifier_train import augment, shape_jittered

    crop = np.full((40, 40, 3), 240, np.uint8)
    crop[10:30, 18:22] = 20
    ink = crop[..., 0] < 128
    widths, slants = [], []
    for seed in range(40):
        bar = shape_jittered(crop, np.random.default_rng(seed))[..., 0] < 128
        rows = [np.flatnonzero(row) for row in bar[12:28]]
        widths.append(int(bar[20].sum()))
        slants.append(float(rows[-1].mean() - rows[0].mean()))
        assert abs(np.argwhere(bar).mean(axis=0) - np.argwhere(ink).mean(axis=0)).max() < 1.5  # its centre kept
    assert min(widths) < 4 < max(widths)  # thinner and bolder strokes, narrower and wider
    assert min(slants) < -1.5 and max(slants) > 1.5  # slanted either way
    plain, _angle = augment(np.stack([crop] * 8), np.zeros(8), np.random.default_rng(0))
    jittered, _angle = augment(np.stack([crop] * 8), np.zeros(8), np.random.default_rng(0), shape_jitter=1.0)
    assert not np.array_equal(plain, jittered)
