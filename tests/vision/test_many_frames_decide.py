"""Many frames decide a settled zone, each weighed by its sharpness (issue "One card, one read", item 3):
a card seen in the sharp frame stays though blurred frames miss it, a name read sharp outweighs
blurred misreads (flagged when they disagree), and what the fusion considered is kept with the
zone's picture."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from tests.vision.test_pipeline_parts import SETUP, ScriptedReader, Seen
from tuolaji.session.live import LiveGame
from tuolaji.vision.pipeline import TablePipeline
from tuolaji.vision.sharpness import MIN_READ_WEIGHT, read_weights, sharpness
from tuolaji.vision.sources import Frame
from tuolaji.vision.tracking import ZoneTracker

SIGMA = 0.8  # a soft focus: under what the motion monitor takes for motion
SHARP, BLURRED = 400.0, 20.0  # the frames' sharpness: a blurred read weighs MIN_READ_WEIGHT


def test_a_blurred_frame_weighs_less_than_a_sharp_one() -> None:
    edges = np.zeros((120, 160, 3), np.uint8)
    edges[:, ::6] = 255
    assert sharpness(cv2.GaussianBlur(edges, (0, 0), 2.5)) < 0.2 * sharpness(edges)
    assert sharpness(cv2.resize(edges, (320, 240), interpolation=cv2.INTER_NEAREST)) > 0  # any resolution
    assert read_weights([SHARP, BLURRED, SHARP / 2]) == (1.0, MIN_READ_WEIGHT, 0.5)


def test_a_card_seen_in_the_sharp_frame_stays_though_blurred_frames_miss_it() -> None:
    pair = [("7C", 0.40, 0.8, 0.95), ("7C", 0.45, 0.8, 0.95)]
    tracker = ZoneTracker((1.0, 0.0))
    assert tracker.observe(pair, SHARP) is None
    assert tracker.observe(pair[:1], BLURRED) is None
    content = tracker.observe(pair[:1], BLURRED)  # agrees with the read before: settles
    assert content is not None and content.cards == ("7C", "7C")
    # the same reads, unmeasured, each alike: the two that missed it outvote the one that saw it
    alike = ZoneTracker((1.0, 0.0))
    for read in (pair, pair[:1], pair[:1]):
        settled = alike.observe(read)
    assert settled is not None and settled.cards == ("7C",)


def test_a_name_read_sharp_outweighs_blurred_misreads_and_is_flagged() -> None:
    tracker = ZoneTracker((1.0, 0.0))
    tracker.observe([("AS", 0.5, 0.8, 0.9)], SHARP)
    tracker.observe([("AC", 0.5, 0.8, 0.9)], BLURRED)
    content = tracker.observe([("AC", 0.5, 0.8, 0.9)], BLURRED)
    assert content is not None and content.cards == ("AS",) and content.unconfirmed == (0,)
    assert content.evidence_json() == {"weights": [1.0, MIN_READ_WEIGHT, MIN_READ_WEIGHT],
                                       "cards": [{"seen": 3, "of": 3, "votes": [["AS", 0.714], ["AC", 0.286]]}]}


class BlurringReader(ScriptedReader):
    """The scripted table, read as a camera whose autofocus hunts in some frames: there the
    frame is blurred and the reader misnames the card."""

    def __init__(self, script: dict[int, dict[int, list[tuple[str, float]]]], hunting: dict[int, str]) -> None:
        super().__init__(script)
        self.hunting = hunting  # frame -> what the reader names in it

    def read_frame(self, frame: Frame) -> list[Seen]:
        seen = self.at(frame.index)
        if frame.index in self.hunting:
            return [Seen(self.hunting[frame.index], s.box, s.confidence) for s in seen]
        return seen

    def frames(self, count: int, fps: float = 10.0, start: int = 0):  # type: ignore[no-untyped-def]
        for frame in super().frames(count, fps, start):
            if frame.index in self.hunting:
                frame = Frame(frame.index, frame.time_s, cv2.GaussianBlur(frame.image, (0, 0), SIGMA))
            yield frame


@dataclass
class KeptPictures:
    """Keeps a picture's reference only (the pipeline's picture keeper)."""

    def keep(self, seat: int, frame: Frame, image: np.ndarray) -> dict[str, Any] | None:
        return {"file": f"d0-f{frame.index}-s{seat}.jpg", "frame": frame.index, "time_s": frame.time_s}


def test_the_pipeline_records_what_the_sharp_frames_show_and_keeps_why_with_the_picture(tmp_path) -> None:
    script: dict[int, dict[int, list[tuple[str, float]]]] = {0: {}, 10: {0: [("AS", 0.95)]}}
    reader = BlurringReader(script, hunting={16: "AC", 17: "AC"})
    game = LiveGame(SETUP, path=tmp_path / "record.json")
    pipeline = TablePipeline(game, reader=reader, settle_s=0.5, pictures=KeptPictures(),
                             calibration=[(40, 30), (600, 30), (600, 450), (40, 450)])
    for frame in reader.frames(30):
        pipeline.process(frame)
    deal = game.snapshot()["deals"][0]
    assert deal["tricks"][0]["plays"] == [["AS"]]
    assert deal["tricks"][0]["unconfirmed"] == [[0, 0]]  # the blurred frames disagreed: a person confirms
    picture = deal["pictures"][0]
    reads = picture["reads"]
    assert reads["cards"][0]["votes"][0][0] == "AS" and reads["cards"][0]["votes"][1][0] == "AC"
    assert reads["weights"][0] == 1.0 and min(reads["weights"]) < 0.5  # the blurred frames counted less


def test_a_play_still_unsettled_when_the_video_ends_is_recorded_for_a_person_to_confirm(tmp_path) -> None:
    """The reads of the last play still disagree (a soft-focus frame) when the video ends: the
    play is recorded as last read, its cards marked for a person, not lost."""
    script: dict[int, dict[int, list[tuple[str, float]]]] = {
        0: {}, 10: {0: [("AS", 0.95)]}, 30: {0: [("AS", 0.95)], 1: [("3S", 0.95)]}}
    reader = BlurringReader(script, hunting={36: "3C"})
    game = LiveGame(SETUP, path=tmp_path / "record.json")
    pipeline = TablePipeline(game, reader=reader, settle_s=0.5, calibration=[(40, 30), (600, 30), (600, 450), (40, 450)])

    class Video:
        live = False
        frame_count = 37

        def __iter__(self):  # type: ignore[no-untyped-def]
            return iter(reader.frames(37))

    pipeline.run(Video())  # type: ignore[arg-type]
    trick = game.snapshot()["deals"][0]["tricks"][0]
    assert [len(play) for play in trick["plays"]] == [1, 1]
    assert trick["plays"][1][0] in ("3S", "3C") and trick["unconfirmed"] == [[1, 0]]
