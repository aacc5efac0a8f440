"""The same reads on every CPU (vision.model_check): the shipped classifiers cannot overflow an
integer kernel, read their check crops as the reference path does, read the fixed test set
alike with and without ONNX Runtime's graph optimisations, and a reader whose kernels
disagree falls back to the reference path and says so."""

from __future__ import annotations

import json
import logging
import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "models"
TEST_SET = ROOT / "tests" / "data" / "detector"
CLASSIFIERS = ("classifier.onnx", "classifier_small.onnx")
needs_models = pytest.mark.skipif(not (MODELS / "classifier.onnx").exists(), reason="no shipped models")


def widest_integer_weight(path: Path) -> int:
    """The largest |w| of the 8-bit weights a model's DequantizeLinear nodes read (0 for a float
    model). Over 64, the AVX2 kernel's 16-bit sums of two u8·s8 products can overflow."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    initializers = {i.name: i for i in model.graph.initializer}
    widest = 0
    for node in model.graph.node:
        if node.op_type == "DequantizeLinear" and node.input[0] in initializers:
            values = numpy_helper.to_array(initializers[node.input[0]])
            if values.dtype == np.int8:
                widest = max(widest, int(np.abs(values.astype(np.int16)).max()))
    return widest


@needs_models
@pytest.mark.parametrize("name", CLASSIFIERS)
def test_no_shipped_classifier_can_overflow_an_integer_kernel(name: str) -> None:
    assert widest_integer_weight(MODELS / name) <= 64


@needs_models
def test_the_shipped_classifiers_read_their_check_crops_as_the_reference_does() -> None:
    from tuolaji.vision.detector import CardReader

    checks = {c.model: c for c in CardReader.load().kernel_checks}
    assert set(checks) == set(CLASSIFIERS)
    for check in checks.values():
        assert check.checked and check.crops >= 90 and check.agrees and not check.reference_kernels, check.note


@needs_models
def test_the_fixed_test_set_reads_the_same_with_every_graph_optimisation_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a CPU whose optimised kernels misread would show: the reads of the optimised
    sessions and of the reference path differ. They must not, card for card."""
    import onnxruntime as ort

    from tuolaji.vision.detector import CardReader

    optimised = CardReader.load()
    plain_options = ort.SessionOptions

    class ReferenceOptions(plain_options):  # type: ignore[misc, valid-type]
        def __init__(self) -> None:
            super().__init__()
            self.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL

    monkeypatch.setattr(ort, "SessionOptions", ReferenceOptions)
    reference = CardReader.load()
    monkeypatch.setattr(ort, "SessionOptions", plain_options)
    images = sorted((TEST_SET / "images").glob("*.jpg"))
    assert len(images) == 24
    for path in images:
        image = cv2.imread(str(path))
        got = sorted((c.card, round(c.confidence, 2)) for c in optimised.read(image))
        want = sorted((c.card, round(c.confidence, 2)) for c in reference.read(image))
        assert [card for card, _ in got] == [card for card, _ in want], path.name
        assert all(abs(a - b) <= 0.011 for (_, a), (_, b) in zip(got, want, strict=True)), path.name


def _models_with_a_wrong_check(folder: Path) -> Path:
    """A copy of the shipped models whose check says the classifier reads every crop as another
    card: what a CPU whose kernels misread looks like to the check."""
    shutil.copytree(MODELS, folder, ignore=shutil.ignore_patterns("checkpoints", "README.md"))
    with np.load(folder / "reader_check.npz") as data:
        entries = {key: data[key] for key in data.files}
    entries["classifier__probs"] = np.roll(entries["classifier__probs"], 1, axis=1)
    np.savez_compressed(folder / "reader_check.npz", **entries)
    return folder


@needs_models
def test_a_reader_whose_kernels_disagree_reads_through_the_reference_path(tmp_path: Path,
                                                                          caplog: pytest.LogCaptureFixture) -> None:
    import onnxruntime as ort

    from tuolaji.vision.detector import CardReader

    folder = _models_with_a_wrong_check(tmp_path / "models")
    with caplog.at_level(logging.WARNING):
        reader = CardReader.load(folder)
    check = next(c for c in reader.kernel_checks if c.model == "classifier.onnx")
    assert check.reference_kernels and check.disagreeing == check.crops
    assert "reference kernels" in caplog.text and "classifier.onnx" in caplog.text
    options = reader._classifier.get_session_options()
    assert options.graph_optimization_level == ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    # the fallback still reads cards
    assert reader.read(cv2.imread(str(sorted((TEST_SET / "images").glob("*.jpg"))[0])))


@needs_models
def test_a_check_of_another_model_file_is_not_used(tmp_path: Path) -> None:
    from tuolaji.vision.detector import CardReader
    from tuolaji.vision.model_check import CHECK_FILE

    folder = tmp_path / "models"
    shutil.copytree(MODELS, folder, ignore=shutil.ignore_patterns("checkpoints", "README.md"))
    shutil.copyfile(folder / "classifier.onnx", folder / "classifier_small.onnx")  # a new model file
    checks = {c.model: c for c in CardReader.load(folder).kernel_checks}
    assert checks["classifier.onnx"].checked and not checks["classifier_small.onnx"].checked
    assert "not checked" in checks["classifier_small.onnx"].note
    (folder / CHECK_FILE).unlink()
    assert not any(c.checked for c in CardReader.load(folder).kernel_checks)


@needs_models
def test_check_reader_says_what_this_cpu_reads(tmp_path: Path) -> None:
    def check_reader(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "tuolaji", "check-reader", *args], cwd=ROOT,
                              capture_output=True, text=True, timeout=120)

    shipped = check_reader()
    assert shipped.returncode == 0, shipped.stderr
    lines = shipped.stdout.splitlines()
    assert lines[0].startswith("CPU: ") and "read as the reference reads them" in lines[1]
    assert lines[-1] == "the reader reads as the reference with this CPU's optimised kernels"
    wrong = check_reader("--models", str(_models_with_a_wrong_check(tmp_path / "models")), "--json")
    assert wrong.returncode == 0
    report = json.loads(wrong.stdout)
    assert [m["reference_kernels"] for m in report["models"]] == [True, False]
    (tmp_path / "models" / "reader_check.npz").unlink()
    assert check_reader("--models", str(tmp_path / "models")).returncode == 1
