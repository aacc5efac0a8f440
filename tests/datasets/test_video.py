"""The table-video renderer: what it films, the ground truth it keeps, and its command."""

from __future__ import annotations

import json

import cv2
import pytest

from tuolaji import cli, scorer
from tuolaji.datasets.video import RenderOptions, VideoTruth, filmed_record, render_video, setup_of
from tuolaji.vision.oracle import OracleReader


@pytest.fixture(scope="module")
def short_deal(tmp_path_factory):
    record = scorer.random_record("titanic-3deck", 4, hand_size=2)
    video = tmp_path_factory.mktemp("render") / "deal.mp4"
    options = RenderOptions(seed=4, fps=10.0, dropouts=((3.0, 5, "skip"), (6.0, 2, "black")))
    truth = render_video(record, video, options)
    return record, video, truth, options


def test_video_has_one_frame_per_truth_frame_and_black_frames_are_black(short_deal):
    _, video, truth, _ = short_deal
    capture = cv2.VideoCapture(str(video))
    frames = []
    while True:
        ok, image = capture.read()
        if not ok:
            break
        frames.append(image)
    assert len(frames) == truth.frame_count
    assert frames[0].shape == (480, 640, 3)
    assert len(truth.black_frames) == 2
    for index in truth.black_frames:
        assert frames[index].mean() < 20
    assert frames[truth.black_frames[0] - 1].mean() > 40


def test_frames_lost_in_a_dropout_are_missing_from_the_video(short_deal, tmp_path):
    record, _, truth, options = short_deal
    steady = render_video(record, tmp_path / "steady.mp4", RenderOptions(seed=options.seed, fps=options.fps))
    assert steady.frame_count - truth.frame_count == 5
    assert not steady.black_frames


def test_truth_record_is_the_deal_as_a_camera_knows_it(short_deal):
    record, _, truth, _ = short_deal
    assert truth.record == filmed_record(record)
    assert "hands" not in truth.record["deals"][0] and "kitty" not in truth.record["deals"][0]
    assert truth.setup == setup_of(record) and truth.setup["deals"][0]["tricks"] == []
    assert truth.record["deals"][0]["tricks"] == [
        {k: v for k, v in t.items() if k in ("leader", "plays", "attempt")} for t in record["deals"][0]["tricks"]]


def test_every_card_of_a_play_is_readable_once_the_hand_has_gone(short_deal):
    _, _, truth, _ = short_deal
    reader = OracleReader(truth)
    for play in truth.plays:
        frame = play.clear_frame + 1
        while frame in truth.black_frames:
            frame += 1
        seen = [i.card for i in reader.read_index(frame)]
        for card in play.cards:
            assert card in seen
    # and the sweep takes them all away: nothing lies on the table at the end
    assert reader.read_index(truth.frame_count - 1) == []


def test_cards_lie_in_their_seats_zone_and_at_the_card_readers_scale(short_deal):
    _, _, truth, _ = short_deal
    from tuolaji.vision.calibration import SeatZones, TableCalibration

    calibration = TableCalibration.from_corners(truth.table_corners, truth.frame_size)
    zones = SeatZones(len(truth.setup["players"]))
    for card in truth.cards:
        x1, y1, x2, y2 = card["box"]
        (u, v), = calibration.to_table([((x1 + x2) / 2, (y1 + y2) / 2)])
        assert zones.seat_at(float(u), float(v)) == card["seat"]
        assert 60 <= max(x2 - x1, y2 - y1) <= 190  # datasets/scenes.py trains on 60-190 px cards


def test_render_video_command_writes_video_setup_truth_and_frames(tmp_path, capsys):
    out = tmp_path / "cli.mp4"
    assert cli.main(["render-video", str(out), "--profile", "standard-2deck", "--seed", "2",
                             "--hand-size", "1", "--fps", "8", "--style-split", "holdout", "--linger", "0:1"]) == 0
    printed = capsys.readouterr().out
    for suffix in (".truth.json", ".setup.json", ".frames.json"):
        path = tmp_path / f"cli{suffix}"
        assert path.exists() and str(path) in printed
    truth = VideoTruth.load(tmp_path / "cli.frames.json")
    assert truth.record == json.loads((tmp_path / "cli.truth.json").read_text(encoding="utf-8"))
    assert out.stat().st_size > 10_000


@pytest.mark.parametrize("args, message", [
    (["--record", "{missing}"], "missing.json"),
    (["--record", "{bad}"], "not valid JSON"),
    (["--linger", "x"], "--linger: expected TRICK:SEAT"),
    (["--dropout", "3:2:grey"], "--dropout: kind must be"),
])
def test_render_video_bad_input_is_one_line_and_exit_2(tmp_path, capsys, args, message):
    bad = tmp_path / "bad.json"
    bad.write_text("{oops")
    args = [a.format(missing=tmp_path / "missing.json", bad=bad) for a in args]
    assert cli.main(["render-video", str(tmp_path / "x.mp4"), *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
