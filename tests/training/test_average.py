"""``tuolaji average`` as a user runs it: the shipped detector blended with a fine-tuning of it,
exported and reading the fixed test set; a classifier blended tensor by tensor; bad input refused
in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tuolaji import cli
from tuolaji.models import MODELS_DIR

torch = pytest.importorskip("torch")
pytest.importorskip("ultralytics")

CHECKPOINTS = MODELS_DIR / "checkpoints"


def test_two_detectors_of_one_lineage_blend_into_one_that_exports_and_reads(tmp_path: Path) -> None:
    first, second = CHECKPOINTS / "detector_shipped.pt", CHECKPOINTS / "detector_hz3_last.pt"
    out = tmp_path / "blend.pt"
    assert cli.main(["average", str(first), str(second), "--weight", "0.25", "--out", str(out)]) == 0
    a, b, blend = (torch.load(p, map_location="cpu", weights_only=False) for p in (first, second, out))
    state_a, state_b = a["model"].state_dict(), b["model"].state_dict()
    state = blend["model"].state_dict()
    moved = [k for k in state if state[k].is_floating_point() and not torch.equal(state_a[k], state_b[k])]
    assert moved
    for key in moved:
        expected = 0.75 * state_a[key].float() + 0.25 * state_b[key].float()
        assert torch.allclose(state[key].float(), expected, atol=2e-3, rtol=1e-2), key
    assert blend["averaged"]["weight"] == 0.25 and blend["optimizer"] is None

    models = tmp_path / "models"  # a copy of the shipped models with the blend as its detector
    models.mkdir()
    for path in MODELS_DIR.iterdir():
        if path.is_file():
            (models / path.name).write_bytes(path.read_bytes())
    assert cli.main(["export", "--detector", str(out), "--out", str(models)]) == 0
    assert (models / "detector.onnx").read_bytes() != (MODELS_DIR / "detector.onnx").read_bytes()
    from tuolaji.training.evaluate import evaluate, samples_from_folder
    from tuolaji.vision.detector import CardReader

    root = Path(__file__).resolve().parents[1] / "data" / "detector"
    assert evaluate(CardReader.load(models), samples_from_folder(root), progress=False)["f1"] > 0.9


def test_classifiers_blend_tensor_by_tensor_and_keep_the_second_s_settings(tmp_path: Path) -> None:
    from tuolaji.training.classifier_model import CardIndexNet

    torch.manual_seed(0)
    nets = [CardIndexNet(width=8, extra=0, side=True) for _ in range(2)]
    paths = []
    for k, net in enumerate(nets):
        paths.append(tmp_path / f"c{k}.pt")
        torch.save({"model": net.state_dict(), "architecture": {"width": 8, "extra": 0, "side": True},
                    "optimiser": {"state": {}}, "epoch": k, "history": [k]}, paths[-1])
    out = tmp_path / "blend.pt"
    assert cli.main(["average", str(paths[0]), str(paths[1]), "--out", str(out)]) == 0
    blend = torch.load(out, map_location="cpu", weights_only=False)
    assert blend["epoch"] == 1 and "optimiser" not in blend
    for key, value in blend["model"].items():
        a, b = nets[0].state_dict()[key], nets[1].state_dict()[key]
        assert torch.allclose(value.float(), (a.float() + b.float()) / 2) if value.is_floating_point() else torch.equal(value, b)
    models = tmp_path / "models"
    assert cli.main(["export", "--classifier", str(out), "--out", str(models)]) == 0
    assert (models / "classifier.onnx").exists()


def test_bad_blends_are_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tuolaji.training.classifier_model import CardIndexNet

    small = tmp_path / "small.pt"
    torch.save({"model": CardIndexNet(width=8, extra=0, side=True).state_dict(),
                "architecture": {"width": 8, "extra": 0, "side": True}}, small)
    wide = tmp_path / "wide.pt"
    torch.save({"model": CardIndexNet(width=16, extra=0, side=True).state_dict(),
                "architecture": {"width": 16, "extra": 0, "side": True}}, wide)
    detector = CHECKPOINTS / "detector_shipped.pt"
    text = tmp_path / "text.pt"
    text.write_text("not a checkpoint\n")
    cases = [
        ([str(detector), str(small)], "one is a detector, the other a classifier"),
        ([str(small), str(wide)], "not one network"),
        ([str(small), str(small), "--weight", "1.5"], "--weight: expected a number from 0 to 1, got 1.5"),
        ([str(small), str(tmp_path / "missing.pt")], "missing.pt"),
        ([str(small), str(text)], "text.pt: not a checkpoint torch can read"),
    ]
    for arguments, said in cases:
        capsys.readouterr()
        assert cli.main(["average", *arguments, "--out", str(tmp_path / "out.pt")]) == 2
        err = capsys.readouterr().err.strip()
        assert said in err and "\n" not in err, err
    assert not (tmp_path / "out.pt").exists()
