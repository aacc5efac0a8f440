"""``tuolaji table-crops``: classifier crops cut from deals filmed with the training designs."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

from tuolaji import cli
from tuolaji.scorer.cards import CARD_NAMES
from tuolaji.vision.classes import REJECT

MODELS = Path(__file__).resolve().parents[2] / "models"


@pytest.mark.slow
def test_table_crops_are_the_indices_that_show_with_their_card_up_and_side(tmp_path: Path, capsys) -> None:
    out = tmp_path / "crops"
    assert cli.main(["table-crops", "--out", str(out), "--videos", "1", "--seed", "5900", "--tricks", "2",
                     "--every", "10", "--layout", "horizontal"]) == 0
    assert "index crops" in capsys.readouterr().out
    summary = json.loads((out / "table-crops.json").read_text())
    assert summary["videos"] == 1 and summary["split"] == "train" and summary["index_crops"] > 50
    with np.load(out / "crops" / "000000.npz") as data:
        x, y, angle, side = data["x"], data["y"], data["angle"], data["side"]
    assert x.shape == (len(y), 40, 40, 3) and x.dtype == np.uint8
    cards = y != REJECT
    assert cards.sum() == summary["index_crops"] and (~cards).sum() == summary["reject_crops"]
    assert np.isnan(angle[~cards]).all() and (side[~cards] == -1).all()
    assert np.isfinite(angle[cards]).all() and set(side[cards].tolist()) <= {0, 1}
    # the labels, the glyphs' up and the corner sides are the crops' own: the shipped reader of
    # horizontal decks reads most of them so (a crop of another card, or turned, would not)
    session = ort.InferenceSession(str(MODELS / "horizontal" / "classifier.onnx"), providers=["CPUExecutionProvider"])
    outputs = dict(zip([o.name for o in session.get_outputs()],
                       session.run(None, {session.get_inputs()[0].name: x[cards].transpose(0, 3, 1, 2).astype(np.float32) / 255}),
                       strict=True))
    assert (outputs["probs"].argmax(axis=1) == y[cards]).mean() > 0.8
    read_up = np.degrees(np.arctan2(outputs["up"][:, 0], -outputs["up"][:, 1])) % 360
    assert (np.abs((read_up - angle[cards] + 180) % 360 - 180) < 45).mean() > 0.95
    assert ((outputs["side"] > 0.5).astype(int) == side[cards]).mean() > 0.95
    assert {CARD_NAMES[k] for k in y[cards]} <= set(CARD_NAMES[:54])


def test_table_crops_refuses_no_videos(tmp_path: Path, capsys) -> None:
    assert cli.main(["table-crops", "--out", str(tmp_path / "x"), "--videos", "0", "--seed", "1"]) == 2
    assert "--videos, --every and --tricks must be at least 1" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()
