"""`tuolaji detect` and `tuolaji eval-detector` as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tuolaji import cli
from tuolaji.datasets.cardart import CARD_NAMES

REPO = Path(__file__).resolve().parents[2]
TEST_SET = REPO / "tests" / "data" / "detector"
IMAGES = sorted((TEST_SET / "images").glob("*.jpg"))
needs_models = pytest.mark.skipif(not (REPO / "models" / "detector.onnx").exists(), reason="no shipped models")


@needs_models
def test_detect_prints_one_object_per_image_in_order(tmp_path: Path) -> None:
    images = [str(p) for p in IMAGES[:3]]
    result = subprocess.run([sys.executable, "-m", "tuolaji", "detect", *images, "--json", "--annotate",
                             str(tmp_path / "annotated")], cwd=REPO, capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert [o["image"] for o in out] == images
    assert any(o["cards"] for o in out)
    for entry in out:
        assert set(entry) == {"image", "cards"}
        for card in entry["cards"]:
            assert set(card) == {"card", "box", "confidence"}
            assert card["card"] in CARD_NAMES
            x1, y1, x2, y2 = card["box"]
            assert 0 <= x1 < x2 <= 640 and 0 <= y1 < y2 <= 480
            assert 0 < card["confidence"] <= 1
    written = sorted(p.name for p in (tmp_path / "annotated").iterdir())
    assert written == sorted(Path(p).stem + ".annotated.png" for p in images)


@needs_models
@pytest.mark.slow
def test_detect_finds_the_cards_of_scenes(capsys) -> None:
    images = IMAGES
    assert cli.main(["detect", *map(str, images), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    common = expected_total = found_total = 0
    for image, entry in zip(images, out, strict=True):
        meta = json.loads((TEST_SET / "meta" / image.with_suffix(".json").name).read_text())
        expected = [c["card"] for c in meta["cards"] if c["readable"]]
        found = [c["card"] for c in entry["cards"]]
        common += sum(min(found.count(n), expected.count(n)) for n in set(expected))
        expected_total += len(expected)
        found_total += len(found)
    # floors under the shipped models' measured figures (models/README.md)
    assert common >= 0.5 * expected_total, (common, expected_total)
    assert common >= 0.5 * found_total, (common, found_total)


def test_unreadable_image_is_one_line_and_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "broken.jpg"
    bad.write_bytes(b"this is not a JPEG")
    result = subprocess.run([sys.executable, "-m", "tuolaji", "detect", str(IMAGES[0]), str(bad), "--json"],
                            cwd=REPO, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "broken.jpg" in lines[0] and "cannot decode" in lines[0]


def test_missing_image_is_one_line_and_exit_2(tmp_path: Path, capsys) -> None:
    assert cli.main(["detect", str(tmp_path / "nope.png"), "--json"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "nope.png" in err[0]


def copy_of_the_models(folder: Path) -> Path:
    """The shipped models copied to ``folder/models``, for commands that write into cards.json."""
    import shutil

    models = folder / "models"
    models.mkdir()
    for name in ("detector.onnx", "classifier.onnx", "cards.json"):
        shutil.copy(REPO / "models" / name, models / name)
    return models


@needs_models
@pytest.mark.slow
def test_eval_detector_reports_card_level_metrics(capsys) -> None:
    assert cli.main(["eval-detector", "--data", str(TEST_SET), "--json"]) == 0
    metrics = json.loads(capsys.readouterr().out)
    for key in ("precision", "recall", "f1", "exact_image_rate"):
        assert 0.0 <= metrics[key] <= 1.0
    slices = metrics["recall_by_slice"]
    for axis in ("rotation", "overlap", "blur", "size"):
        assert any(name.startswith(axis + ":") for name in slices)
    assert metrics["images"] == len(IMAGES)


@needs_models
@pytest.mark.slow
def test_eval_detector_tune_writes_the_best_thresholds_into_cards_json(tmp_path: Path, capsys) -> None:
    import shutil

    from tuolaji.training.evaluate import TUNING_GRID, evaluate, samples_from_folder
    from tuolaji.vision.detector import CardReader

    models = copy_of_the_models(tmp_path)
    tune = tmp_path / "tune"
    for sub in ("images", "meta"):
        (tune / sub).mkdir(parents=True)
    for meta in sorted((TEST_SET / "meta").glob("*.json"))[:6]:
        shutil.copy(meta, tune / "meta" / meta.name)
        image = json.loads(meta.read_text())["image"]
        shutil.copy(TEST_SET / image, tune / image)

    assert cli.main(["eval-detector", "--data", str(tune), "--models", str(models), "--tune"]) == 0
    assert "written to" in capsys.readouterr().out
    written = json.loads((models / "cards.json").read_text())
    for key, choices in TUNING_GRID.items():
        assert written["reader"][key] in choices
    assert str(tune) in written["reader_tuned_on"]
    tuned_f1 = float(written["reader_tuned_on"].rsplit(" ", 1)[1])
    # the written thresholds reproduce the reported F1, and no worse than the shipped ones on this set
    assert evaluate(CardReader.load(models), samples_from_folder(tune), progress=False)["f1"] == pytest.approx(tuned_f1)
    shipped = evaluate(CardReader.load(REPO / "models"), samples_from_folder(tune), progress=False)["f1"]
    assert tuned_f1 >= shipped - 1e-9


@needs_models
@pytest.mark.slow
def test_careful_reading_scores_at_least_as_well_as_the_fast_one(capsys) -> None:
    scores = {}
    for flags in ([], ["--careful"]):
        assert cli.main(["eval-detector", "--data", str(TEST_SET), "--json", *flags]) == 0
        scores[bool(flags)] = json.loads(capsys.readouterr().out)["f1"]
    assert scores[True] >= scores[False] - 0.01, scores


@needs_models
@pytest.mark.parametrize("preset", ["--careful", "--fast"])
def test_detect_with_a_reading_preset_keeps_the_output_contract(preset: str, capsys) -> None:
    assert cli.main(["detect", str(IMAGES[0]), preset]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [o["image"] for o in out] == [str(IMAGES[0])]
    assert out[0]["cards"] and all(c["card"] in CARD_NAMES for c in out[0]["cards"])


@needs_models
def test_fast_reads_at_the_training_scale_and_still_scores(capsys) -> None:
    from tuolaji.vision.detector import FAST, CardReader, reader_preset

    settings = CardReader.load(**reader_preset(fast=True)).settings
    assert (settings.input_width, settings.input_height, settings.reread_below) == (448, 336, 0.0) == tuple(FAST.values())
    assert cli.main(["eval-detector", "--data", str(TEST_SET), "--json", "--fast"]) == 0
    assert json.loads(capsys.readouterr().out)["f1"] >= 0.8


def test_careful_and_fast_exclude_each_other(capsys) -> None:
    from tuolaji.vision.detector import reader_preset

    with pytest.raises(SystemExit) as stop:
        cli.main(["detect", str(IMAGES[0]), "--fast", "--careful"])
    assert stop.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err
    with pytest.raises(ValueError, match="exclude each other"):
        reader_preset(careful=True, fast=True)


def test_unknown_reader_setting_is_refused() -> None:
    from tuolaji.vision.detector import CardReader

    with pytest.raises(TypeError, match="classify_turn"):
        CardReader.load(classify_turn=4)


@needs_models
def test_eval_detector_record_writes_the_fixed_test_f1(tmp_path: Path, capsys) -> None:
    models = copy_of_the_models(tmp_path)
    assert cli.main(["eval-detector", "--data", str(TEST_SET), "--models", str(models), "--record",
                             "--json"]) == 0
    measured = json.loads(capsys.readouterr().out)["f1"]
    assert json.loads((models / "cards.json").read_text())["metrics"]["fixed_test_f1"] == measured
    assert cli.main(["eval-detector", "--data", str(tmp_path), "--models", str(models), "--record"]) == 2
    assert "--record" in capsys.readouterr().err
    for preset in ("--careful", "--fast"):
        assert cli.main(["eval-detector", "--data", str(TEST_SET), "--models", str(models), "--record", preset]) == 2
        assert "default read" in capsys.readouterr().err
