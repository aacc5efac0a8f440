"""The demo trusts the shipped card reader only once it is recorded to replay the demo exactly
(tests/vision/test_replay_end_to_end.py holds the record to a real replay), and the recorded F1 is the
one the reader really measures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tuolaji.vision.demo import READY_F1, shipped_reader_f1, shipped_reader_is_ready

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
        [sys.executable, "-m", "tuolaji", "serve", "--demo", "--fast", "--port", "0",
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
@pytest.mark.slow
def test_the_demo_check_records_into_the_models_it_was_given(tmp_path: Path) -> None:
    """`tuolaji demo --record-check --models DIR` replays the demo with DIR's reader and
    records the result there only; `--help` renders nothing."""
    from tests.cli.test_detect_and_eval import copy_of_the_models

    models = copy_of_the_models(tmp_path)
    meta = json.loads((models / "cards.json").read_text(encoding="utf-8"))
    meta.pop("metrics", None)
    (models / "cards.json").write_text(json.dumps(meta), encoding="utf-8")
    shipped_before = (MODELS / "cards.json").read_bytes()
    done = subprocess.run([sys.executable, "-m", "tuolaji", "demo", "--record-check", "--models", str(models)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600, env=_env())
    assert done.returncode == 0, done.stderr
    recorded = json.loads((models / "cards.json").read_text(encoding="utf-8"))["metrics"]
    exact, total = (int(v) for v in recorded["demo_tricks_exact"].split("/"))
    assert total >= 4 and recorded["demo_replay_exact"] == (exact == total)
    assert f"{exact}/{total} tricks exact" in done.stdout
    assert (MODELS / "cards.json").read_bytes() == shipped_before
    helped = subprocess.run([sys.executable, "-m", "tuolaji", "demo", "--help"], cwd=tmp_path, capture_output=True, text=True,
                            timeout=60, env=_env())
    assert helped.returncode == 0 and "--record-check" in helped.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["models"]


def test_the_demo_ends_on_its_settled_deal_with_the_kitty_turned_up(tmp_path: Path) -> None:
    """`serve --demo` (the oracle, as fast as the video decodes): the session starts from the deal so
    far, the video's tricks come back exactly, then the kitty is turned up (the defenders win it ×4,
    their side goes up two levels) and the demo ends there, on the settlement (no empty next deal,
    issue 43 item 8); the proven revoke is in the audit."""
    from tuolaji import cli, scorer
    from tuolaji.cli.serve import build_server
    from tuolaji.vision.demo import DEMO_FRAMES, DEMO_SETUP, DEMO_TRUTH, demo_record

    args = cli.build_parser().parse_args(["serve", "--demo", "--fast", "--oracle", str(DEMO_FRAMES),
                                                  "--port", "0", "--data", str(tmp_path)])
    server, table = build_server(args)
    try:
        seeded = json.loads(DEMO_SETUP.read_text(encoding="utf-8"))
        assert table.game.snapshot()["deals"][0]["tricks"] == seeded["deals"][0]["tricks"]  # the deal so far
        table.feed.join(180)
        assert table.feed.finished and table.feed.error is None and not table.feed.status()["running"]
        record = table.game.snapshot()
        truth = json.loads(DEMO_TRUTH.read_text(encoding="utf-8"))
        assert record["deals"][0]["tricks"] == truth["deals"][0]["tricks"]
        game = demo_record()
        assert record["deals"][0]["kitty"] == game["deals"][0]["kitty"]
        assert len(record["deals"]) == 1
        audit = scorer.audit_record(record)["deals"][0]
        assert [(v["rule"], v["proven"]) for v in audit["violations"]] == [("must-follow-suit", True)]
        assert (audit["kitty_won_by"], audit["kitty_multiplier"]) == ("defenders", 4)
        assert audit["levels_after"] != record["start_levels"]
        assert [entry["change"] for entry in record.get("history", [])][-1:] == ["kitty"]
    finally:
        table.stop_feed()
        server.server_close()
        server.tuolaji_data_lock.close()


def test_the_bundled_demo_is_the_game_the_rules_core_builds() -> None:
    """vision/demo/ holds what `tuolaji demo` builds (datasets/demo.py, seeded): the whole game, the deal
    so far the session starts from, and the film's truth; the filmed tricks hold a failed throw and a
    revoke that a later filmed trick proves, and the defenders win the last trick, so the kitty."""
    from tuolaji import scorer
    from tuolaji.datasets.demo import FILMED_TRICKS, demo_game, filmed_from
    from tuolaji.vision.demo import DEMO_SETUP, DEMO_TRUTH, demo_record
    from tuolaji.web.dealing import next_deal_setup

    game = demo_game()
    assert game == demo_record()
    first = filmed_from(game)
    tricks = game["deals"][0]["tricks"]
    assert len(tricks) - first == FILMED_TRICKS
    assert json.loads(DEMO_SETUP.read_text(encoding="utf-8"))["deals"][0]["tricks"] == tricks[:first]
    assert json.loads(DEMO_TRUTH.read_text(encoding="utf-8"))["deals"][0]["tricks"] == tricks
    audit = scorer.audit_record(game)["deals"][0]
    (revoke,) = audit["violations"]
    assert revoke["rule"] == "must-follow-suit" and revoke["proven"] and first <= revoke["trick"] < len(tricks) - 1
    assert "played in trick" in revoke["detail"]  # proven by a later play, not by known hands
    assert any(trick.get("attempt") for trick in tricks[first:])
    dealer_side = {game["deals"][0]["dealer"], (game["deals"][0]["dealer"] + 2) % 4}
    assert scorer.trick_winner(game, 0, len(tricks) - 1) not in dealer_side
    assert (audit["kitty_won_by"], audit["kitty_multiplier"]) == ("defenders", 4) and audit["kitty_points"] > 0
    assert audit["levels_after"] != game["start_levels"]
    deal_only = game | {"deals": game["deals"][:1]}
    assert next_deal_setup(deal_only, scorer.audit_record(deal_only), "NT") == game["deals"][1]
