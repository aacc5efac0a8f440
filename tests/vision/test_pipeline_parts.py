"""The table pipeline's parts: sources, calibration, seat zones, motion, tracking, settle rules."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pytest

from tuolaji import scorer
from tuolaji.session.live import LiveGame
from tuolaji.vision.calibration import (
    CalibrationError,
    SeatZones,
    TableCalibration,
    find_table_corners,
    order_corners,
)
from tuolaji.vision.motion import MotionMonitor
from tuolaji.vision.pipeline import TablePipeline
from tuolaji.vision.sources import Frame, SourceError, open_source
from tuolaji.vision.tracking import ZoneContent, ZoneTracker

SETUP = {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": ["东", "南", "西", "北"],
         "deals": [{"level": "2", "trump": "H", "dealer": 0, "tricks": []}]}


# --- sources --------------------------------------------------------------------------------


def test_missing_video_raises_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        open_source(str(tmp_path / "missing.mp4"))


def test_corrupt_video_raises_one_clear_source_error(tmp_path):
    bad = tmp_path / "bad.mp4"
    bad.write_bytes(b"this is not a video" * 100)
    with pytest.raises(SourceError, match=r"bad\.mp4: not a readable video"):
        open_source(str(bad))


def test_video_cut_short_names_the_frame_it_cannot_decode(tmp_path):
    video = tmp_path / "cut.mp4"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"mp4v"), 10, (64, 48))
    rng = np.random.default_rng(0)
    for _ in range(40):
        writer.write(rng.integers(0, 255, (48, 64, 3), dtype=np.uint8))
    writer.release()
    data = video.read_bytes()
    # Keep the header (moov is written last by mp4v: move it first is not possible here), so
    # damage the media data in the middle instead: the decoder loses frames.
    mdat = data.find(b"mdat")
    damaged = data[: mdat + 200] + bytes(len(data) - mdat - 200 - 4000) + data[-4000:]
    video.write_bytes(damaged)
    try:
        source = open_source(str(video))
    except SourceError as exc:
        assert "cut.mp4" in str(exc)
        return
    frames = 0
    try:
        for _ in source:
            frames += 1
    except SourceError as exc:
        assert "cut.mp4" in str(exc) and "frame" in str(exc)
    else:
        assert frames >= 39  # FFmpeg concealed the damage: every promised frame came out


def test_missing_camera_is_a_source_error():
    with pytest.raises(SourceError, match="camera 97"):
        open_source(97)


def test_empty_folder_is_a_source_error(tmp_path):
    with pytest.raises(SourceError, match="holds no images"):
        open_source(str(tmp_path))


def test_folder_of_frames_in_name_order(tmp_path):
    for index in (2, 0, 1):
        cv2.imwrite(str(tmp_path / f"frame{index}.png"), np.full((8, 8, 3), index * 50, np.uint8))
    with open_source(str(tmp_path), fps=4) as source:
        frames = list(source)
    assert [f.index for f in frames] == [0, 1, 2]
    assert [int(f.image[0, 0, 0]) for f in frames] == [0, 50, 100]
    assert frames[2].time_s == pytest.approx(0.5)


# --- calibration and zones ------------------------------------------------------------------


def test_corners_are_ordered_whatever_order_they_come_in():
    corners = [(600, 450), (40, 30), (40, 450), (600, 30)]
    assert order_corners(corners).tolist() == [[40, 30], [600, 30], [600, 450], [40, 450]]


def test_degenerate_corners_are_rejected():
    with pytest.raises(CalibrationError):
        TableCalibration.from_corners([(0, 0), (5, 0), (5, 5), (0, 5)], (640, 480))


def test_table_is_found_in_a_tilted_picture():
    image = np.full((480, 640, 3), (50, 70, 100), np.uint8)
    corners = np.array([(70, 50), (590, 35), (610, 440), (45, 455)], np.int32)
    cv2.fillConvexPoly(image, corners, (40, 120, 45))
    cv2.rectangle(image, (280, 300), (340, 390), (250, 250, 250), -1)  # a card on the table
    found = find_table_corners(image)
    assert np.abs(found - corners).max() < 6


def test_no_table_is_a_calibration_error():
    blocks = np.random.default_rng(1).integers(0, 255, (12, 16, 3), dtype=np.uint8)  # a patchwork, no table
    patchwork = cv2.resize(blocks, (640, 480), interpolation=cv2.INTER_NEAREST)
    with pytest.raises(CalibrationError):
        find_table_corners(patchwork)


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_each_seat_owns_the_table_edge_in_front_of_it(players):
    zones = SeatZones(players)
    calibration = TableCalibration.from_corners([(0, 0), (640, 0), (640, 480), (0, 480)], (640, 480))
    labels = zones.label_map(calibration.scaled(0.25))
    for seat in range(players):
        dx, dy = zones.seat_direction(seat)
        u, v = (1 + 0.6 * dx) / 2, (1 + 0.6 * dy) / 2
        assert zones.seat_at(u, v) == seat
        assert labels[int(v * 120), int(u * 160)] == seat
    assert zones.seat_at(0.5, 0.5) is None
    assert set(np.unique(labels)) == {-2, *range(players)}
    # seat 0 at the bottom, then counter-clockwise as seen on screen: seat 1 to the right of seat 0
    assert zones.seat_direction(0) == pytest.approx((0.0, 1.0))
    assert zones.seat_direction(1)[0] > 0


# --- motion ---------------------------------------------------------------------------------


def _table_frame() -> np.ndarray:
    image = np.full((480, 640, 3), (50, 70, 100), np.uint8)
    cv2.rectangle(image, (40, 30), (600, 450), (40, 120, 45), -1)
    return image


def test_still_cards_are_quiet_and_an_arm_resting_still_still_occludes():
    calibration = TableCalibration.from_corners([(40, 30), (600, 30), (600, 450), (40, 450)], (640, 480))
    monitor = MotionMonitor(calibration, SeatZones(4))
    table = _table_frame()
    monitor.update(table)
    with_cards = table.copy()
    cv2.rectangle(with_cards, (280, 330), (360, 420), (245, 245, 245), -1)
    first = monitor.update(with_cards)
    assert first is not None and first.moving[0] and not first.occluded[0]
    second = monitor.update(with_cards)
    assert second is not None and not any(second.moving) and not any(second.occluded)
    with_arm = with_cards.copy()
    cv2.line(with_arm, (330, 479), (320, 360), (60, 40, 160), 40)
    monitor.update(with_arm)
    resting = monitor.update(with_arm)
    assert resting is not None and not resting.moving[0] and resting.occluded[0]
    assert not resting.occluded[2]


def test_a_black_frame_is_skipped_not_taken_as_motion():
    calibration = TableCalibration.from_corners([(40, 30), (600, 30), (600, 450), (40, 450)], (640, 480))
    monitor = MotionMonitor(calibration, SeatZones(4))
    table = _table_frame()
    monitor.update(table)
    assert monitor.update(np.zeros_like(table)) is None
    after = monitor.update(table)
    assert after is not None and not any(after.moving)


# --- tracking -------------------------------------------------------------------------------


def test_three_identical_cards_are_three_instances():
    tracker = ZoneTracker((1.0, 0.0))
    reading = [("AH", 0.40, 0.8, 0.9), ("AH", 0.45, 0.8, 0.9), ("AH", 0.50, 0.8, 0.9)]
    tracker.observe(reading)
    content = tracker.observe(reading)
    assert content is not None and content.cards == ("AH", "AH", "AH")


def test_a_hesitant_reader_gets_the_vote_and_the_card_is_marked_unconfirmed():
    tracker = ZoneTracker((1.0, 0.0), max_reads=5)
    results = []
    for read in range(6):
        second = "8S" if read % 2 else "6S"
        results.append(tracker.observe([("5S", 0.40, 0.8, 0.95), (second, 0.45, 0.8, 0.7 if second == "8S" else 0.9)]))
    settled = [r for r in results if r is not None]
    assert settled, "the votes settle a zone whose card count is stable"
    assert settled[0].cards == ("5S", "6S") and settled[0].unconfirmed == (1,)


def test_cards_come_out_in_fan_order_from_the_players_side():
    tracker = ZoneTracker((0.0, -1.0))  # seat 1 (right edge): the player's right is up the picture
    reading = [("3D", 0.8, 0.3, 0.9), ("4D", 0.8, 0.7, 0.9)]
    tracker.observe(reading)
    assert tracker.observe(reading).cards == ("4D", "3D")


# --- the settle rules, with a scripted reader -------------------------------------------------


@dataclass(frozen=True)
class Seen:
    card: str
    box: tuple[float, float, float, float]
    confidence: float = 0.95


class ScriptedReader:
    """Says what lies where, per frame index: {seat: [(card, confidence), ...]}."""

    def __init__(self, script: dict[int, dict[int, list[tuple[str, float]]]]) -> None:
        self.script = script

    def read_frame(self, frame: Frame) -> list[Seen]:
        return self.at(frame.index)

    def at(self, index: int) -> list[Seen]:
        """What the reader sees: every card placed but those scripted at confidence 0 (lying there unseen)."""
        return [seen for seen in self.placed(index) if seen.confidence > 0]

    def placed(self, index: int) -> list[Seen]:
        content = {}
        for start in sorted(self.script):
            if start <= index:
                content = self.script[start]
        zones = SeatZones(4)
        out = []
        for seat, cards in content.items():
            dx, dy = zones.seat_direction(seat)
            for k, (card, confidence) in enumerate(cards):
                u = (1 + 0.6 * dx) / 2 + 0.05 * k * dy
                v = (1 + 0.6 * dy) / 2 - 0.05 * k * dx
                x, y = 40 + u * 560, 30 + v * 420
                out.append(Seen(card, (x - 10, y - 10, x + 10, y + 10), confidence))
        return out

    def frames(self, count: int, fps: float = 10.0, start: int = 0):
        """The pictures to go with the script: a white patch where each card lies."""
        for index in range(start, count):
            image = _table_frame()
            for seen in self.placed(index):
                x1, y1, x2, y2 = (int(v) for v in seen.box)
                cv2.rectangle(image, (x1, y1), (x2, y2), (245, 245, 245), -1)
            yield Frame(index, index / fps, image)


def _played_by(reader: ScriptedReader, frames: int, setup: dict = SETUP) -> tuple[LiveGame, TablePipeline]:
    """The game the table pipeline records from ``frames`` frames of ``reader``'s table (plays settle
    after 0.5 s), and the pipeline."""
    game = LiveGame(setup)
    pipeline = TablePipeline(game, reader=reader, settle_s=0.5, calibration=[(40, 30), (600, 30), (600, 450), (40, 450)])
    for frame in reader.frames(frames):
        pipeline.process(frame)
    return game, pipeline


def _played(script: dict[int, dict[int, list[tuple[str, float]]]], frames: int) -> tuple[LiveGame, TablePipeline]:
    """The game the table pipeline records from ``frames`` frames of a scripted table, and the pipeline."""
    return _played_by(ScriptedReader(script), frames)


def first_trick(script: dict[int, dict[int, list[tuple[str, float]]]], frames: int,
                rules: str = "standard-2deck") -> tuple[dict, LiveGame]:
    """The first trick the table pipeline records from ``frames`` frames of a scripted table (plays
    settle after 0.5 s; a follow of another size than the lead waits 1 s), and its game."""
    game = LiveGame({**SETUP, "rules": rules})
    reader = ScriptedReader(script)
    pipeline = TablePipeline(game, reader=reader, settle_s=0.5, short_play_wait_s=1.0,
                             calibration=[(40, 30), (600, 30), (600, 450), (40, 450)])
    for frame in reader.frames(frames):
        pipeline.process(frame)
    return game.snapshot()["deals"][0]["tricks"][0], game


def test_plays_settle_in_turn_and_low_confidence_cards_are_marked_for_a_person(tmp_path):
    script = {
        0: {},
        10: {0: [("AS", 0.95), ("AS", 0.95)]},
        30: {0: [("AS", 0.95), ("AS", 0.95)], 1: [("3S", 0.95)]},  # seat 1 still laying: only one card
        45: {0: [("AS", 0.95), ("AS", 0.95)], 1: [("3S", 0.95), ("4S", 0.3)]},
    }
    game = LiveGame(SETUP, path=tmp_path / "record.json")
    reader = ScriptedReader(script)
    pipeline = TablePipeline(game, reader=reader, settle_s=0.5, calibration=[(40, 30), (600, 30), (600, 450), (40, 450)])
    for frame in reader.frames(70):
        pipeline.process(frame)
    trick = game.snapshot()["deals"][0]["tricks"][0]
    assert trick["plays"] == [["AS", "AS"], ["3S", "4S"]]
    assert trick["unconfirmed"] == [[1, 1]]
    assert game.pending()[0]["card"] == "4S"
    assert (tmp_path / "record.json").exists()


def test_a_follow_short_of_the_lead_is_taken_after_waiting_with_the_gap_marked(tmp_path):
    script = {0: {}, 10: {0: [("AS", 0.95), ("AS", 0.95)]}, 30: {0: [("AS", 0.95), ("AS", 0.95)], 1: [("3S", 0.95)]}}
    game = LiveGame(SETUP)
    reader = ScriptedReader(script)
    pipeline = TablePipeline(game, reader=reader, settle_s=0.5, short_play_wait_s=2.0,
                             calibration=[(40, 30), (600, 30), (600, 450), (40, 450)])
    for frame in reader.frames(45):
        pipeline.process(frame)
    assert len(game.snapshot()["deals"][0]["tricks"][0]["plays"]) == 1  # still waiting for seat 1's second card
    for frame in reader.frames(80, start=45):
        pipeline.process(frame)
    trick = game.snapshot()["deals"][0]["tricks"][0]
    assert len(trick["plays"][1]) == 2 and [1, 1] in trick["unconfirmed"]


def test_a_lead_whose_follows_stay_longer_is_filled_with_its_hidden_copy_for_a_person(tmp_path):
    """Two J♠ fanned so tight that one corner shows: the lead reads one J♠, every follow two
    cards. The lead becomes J♠ J♠ with the second marked for a person, and no later read of
    the one visible corner undoes it; the follows are recorded whole."""
    script = {0: {}, 10: {0: [("JS", 0.95)]},
              30: {0: [("JS", 0.95)], 1: [("8S", 0.95), ("5S", 0.95)]},
              60: {0: [("JS", 0.95)], 1: [("8S", 0.95), ("5S", 0.95)], 2: [("10S", 0.95), ("6S", 0.95)]}}
    trick, game = first_trick(script, frames=100)
    assert trick["plays"] == [["JS", "JS"], ["8S", "5S"], ["10S", "6S"]]
    assert trick["unconfirmed"] == [[0, 1]]
    assert [p["card"] for p in game.pending()] == ["JS"]


def test_a_tractor_read_short_gets_back_the_twins_of_its_cards_read_once(tmp_path):
    """Tuning deal 326 (a horizontal design): K♣ K♣ Q♣ Q♣ J♣ J♣ led, each pair fanned so tight that the
    Q♣ and J♣ show one corner each: the lead reads K♣ K♣ Q♣ J♣ and every follow six cards. The lead's
    hidden copies are the twins of the cards read once, beside them, marked for a person (before, two
    more K♣, the lead's most frequent card, were put at its end)."""
    lead = [("KC", 0.95), ("KC", 0.95), ("QC", 0.95), ("JC", 0.95)]
    follow = [("AC", 0.95), ("AC", 0.95), ("9C", 0.95), ("7C", 0.95), ("7C", 0.95), ("3C", 0.95)]
    script = {0: {}, 10: {0: lead}, 30: {0: lead, 1: follow}}
    trick, game = first_trick(script, frames=80, rules="titanic-3deck")
    assert trick["plays"][0] == ["KC", "KC", "QC", "QC", "JC", "JC"]
    assert trick["unconfirmed"] == [[0, 3], [0, 5]]
    assert [p["card"] for p in game.pending()] == ["QC", "JC"]


def test_a_follow_read_short_gets_back_the_twin_of_a_card_read_once(tmp_path):
    """Tuning deal 308: J♠ J♠ J♥ J♥ led, and seat 1's 小王 小王 2♠ 2♠ fanned so tight that one 小王
    shows no corner: its follow reads 小王 2♠ 2♠. Filled to the lead's size, the hidden card is the
    小王's twin, beside it and marked for a person (before, a copy of its surest card at its end)."""
    lead = [("JS", 0.95), ("JS", 0.95), ("JH", 0.95), ("JH", 0.95)]
    follow = [("SJ", 0.95), ("2S", 0.96), ("2S", 0.95)]
    script = {0: {}, 10: {0: lead}, 30: {0: lead, 1: follow}}
    trick, game = first_trick(script, frames=70, rules="titanic-3deck")
    assert trick["plays"][1] == ["SJ", "SJ", "2S", "2S"]
    assert trick["unconfirmed"] == [[1, 1]]


def test_a_follow_recorded_before_the_lead_grew_is_filled_and_marked_not_left_short(tmp_path):
    """Three 小王 fanned tight read as two; seat 1's two cards match that and are recorded; seat
    2's three cards show the lead was three. The lead grows, and seat 1's follow, now short of
    a card, is filled with the gap marked: no follow of the wrong size is written as sure."""
    script = {0: {}, 10: {0: [("SJ", 0.95), ("SJ", 0.95)]},
              30: {0: [("SJ", 0.95), ("SJ", 0.95)], 1: [("QD", 0.95), ("QD", 0.95)]},
              50: {0: [("SJ", 0.95), ("SJ", 0.95)], 1: [("QD", 0.95), ("QD", 0.95)],
                   2: [("BJ", 0.95), ("QS", 0.95), ("QS", 0.95)]}}
    trick, game = first_trick(script, frames=90)
    assert [len(play) for play in trick["plays"]] == [3, 3, 3]
    assert [0, 2] in trick["unconfirmed"] and [1, 2] in trick["unconfirmed"]


def test_the_last_follow_read_longer_than_a_trick_agreeing_on_its_size_is_outvoted(tmp_path):
    """Three decks, three plays of two cards (3♣ 3♣ led, 9♣ 6♣, 6♣ 6♣); the last seat's pair of 8♣, a deck with an
    index in every corner, reads surely as three 8♣. The trick agreed on pairs: the extra copy is
    taken out and the 8♣ left go to a person, and the lead and follows are not grown to three."""
    script = {0: {}, 10: {0: [("3C", 0.95), ("3C", 0.95)]},
              30: {0: [("3C", 0.95), ("3C", 0.95)], 1: [("9C", 0.95), ("6C", 0.95)]},
              50: {0: [("3C", 0.95), ("3C", 0.95)], 1: [("9C", 0.95), ("6C", 0.95)], 2: [("6C", 0.95), ("6C", 0.95)]},
              70: {0: [("3C", 0.95), ("3C", 0.95)], 1: [("9C", 0.95), ("6C", 0.95)], 2: [("6C", 0.95), ("6C", 0.95)],
                   3: [("8C", 0.9), ("8C", 0.95), ("8C", 0.85)]}}
    trick, game = first_trick(script, frames=110, rules="titanic-3deck")
    assert trick["plays"] == [["3C", "3C"], ["9C", "6C"], ["6C", "6C"], ["8C", "8C"]]
    assert trick["unconfirmed"] == [[3, 0], [3, 1]]


def test_the_last_follow_longer_by_cards_of_other_names_still_shows_the_pairs_read_as_singles(tmp_path):
    """Pairs of K♥, Q♥ and A♥ fanned tight read as singles; the last seat's 大王 A♥ reads as two cards,
    no copy among them: the lead was a pair, so it grows with its hidden copy for a person (no proven
    wrong card count against the last seat)."""
    script = {0: {}, 10: {0: [("KH", 0.95)]}, 30: {0: [("KH", 0.95)], 1: [("QH", 0.95)]},
              50: {0: [("KH", 0.95)], 1: [("QH", 0.95)], 2: [("AH", 0.95)]},
              70: {0: [("KH", 0.95)], 1: [("QH", 0.95)], 2: [("AH", 0.95)], 3: [("BJ", 0.95), ("AH", 0.95)]}}
    trick, game = first_trick(script, frames=110, rules="titanic-3deck")
    assert [len(play) for play in trick["plays"]] == [2, 2, 2, 2] and [0, 1] in trick["unconfirmed"]
    assert not [v for v in game.audit()["deals"][0]["violations"] if v["proven"]]


def test_a_follow_longer_than_the_lead_by_an_unsure_card_alone_does_not_grow_the_lead(tmp_path):
    """One A♣ led; seat 1's 5♣ also reads a 4♣ at 0.45 (a row of large pips boxed as an index).
    The lead keeps its one card and the follow is recorded without the unsure extra read:
    a single unsure read in one zone is no evidence of a hidden copy."""
    script = {0: {}, 10: {0: [("AC", 0.95)]},
              30: {0: [("AC", 0.95)], 1: [("5C", 0.95), ("4C", 0.45)]},
              60: {0: [("AC", 0.95)], 1: [("5C", 0.95), ("4C", 0.45)], 2: [("SJ", 0.95)]}}
    trick, game = first_trick(script, frames=100)
    assert trick["plays"] == [["AC"], ["5C"], ["SJ"]]
    assert trick.get("unconfirmed", []) == []


def test_a_lead_with_an_unsure_extra_card_is_cut_to_its_first_follow(tmp_path):
    """Three 10♣ led (three decks), a fourth read at 0.45 beside them (pips boxed as an index); seat 1
    lays three cards. The lead's unsure extra card goes, and the follows are not filled to four."""
    lead = [("10C", 0.95), ("10C", 0.95), ("10C", 0.95), ("10C", 0.45)]
    script = {0: {}, 10: {0: lead},
              30: {0: lead, 1: [("KC", 0.95), ("8C", 0.95), ("8C", 0.95)]},
              60: {0: lead, 1: [("KC", 0.95), ("8C", 0.95), ("8C", 0.95)], 2: [("QC", 0.95), ("JC", 0.95), ("4C", 0.95)]}}
    trick, game = first_trick(script, frames=100, rules="titanic-3deck")
    assert trick["plays"] == [["10C", "10C", "10C"], ["KC", "8C", "8C"], ["QC", "JC", "4C"]]
    assert trick.get("unconfirmed", []) == []


def test_a_pair_read_as_three_in_the_lead_and_the_first_follow_is_cut_back_by_the_next_follow(tmp_path):
    """A pair of 8♣ led, a pip of the lower card half under the upper one's edge read as a third
    8♣ (0.45); the first follower's pair too shows a pip read so (9♣, 0.4). The second follower
    lays a plain pair: every play's extra card was unsure, so the trick is of pairs, not triples
    with gaps filled."""
    lead = [("8C", 0.95), ("8C", 0.95), ("8C", 0.45)]
    first = [("9C", 0.95), ("9C", 0.95), ("9C", 0.4)]
    script = {0: {}, 10: {0: lead}, 30: {0: lead, 1: first},
              50: {0: lead, 1: first, 2: [("7C", 0.95), ("7C", 0.95)]},
              80: {0: lead, 1: first, 2: [("7C", 0.95), ("7C", 0.95)], 3: [("10C", 0.95), ("10C", 0.95)]}}
    trick, game = first_trick(script, frames=110)
    assert trick["plays"] == [["8C", "8C"], ["9C", "9C"], ["7C", "7C"], ["10C", "10C"]]
    assert trick.get("unconfirmed", []) == []


def test_a_pair_read_surely_as_three_in_the_lead_is_cut_back_when_two_follows_stay_pairs(tmp_path):
    """10♦ 10♦ led, fanned so that the lower card's pip reads, surely, as a third 10♦ (three decks: a
    triple is possible). The first follower lays K♦ J♦ and the second Q♦ 3♦: two followers, not one,
    stay at two cards. The lead read an extra copy; the trick is of two cards, the first follow without
    the card filled in for it, and the lead's 10♦ left marked for a person (fresh horizontal deal 382)."""
    lead = [("10D", 0.95), ("10D", 0.95), ("10D", 0.95)]
    first = [("KD", 0.95), ("JD", 0.95)]
    script = {0: {}, 10: {0: lead}, 30: {0: lead, 1: first},
              60: {0: lead, 1: first, 2: [("QD", 0.95), ("3D", 0.95)]},
              90: {0: lead, 1: first, 2: [("QD", 0.95), ("3D", 0.95)], 3: [("8D", 0.95), ("8D", 0.95)]}}
    trick, game = first_trick(script, frames=130, rules="titanic-3deck")
    assert trick["plays"] == [["10D", "10D"], ["KD", "JD"], ["QD", "3D"], ["8D", "8D"]]
    assert trick["unconfirmed"] == [[0, 0], [0, 1]]


def test_a_sure_triple_lead_with_one_follow_short_is_kept_and_the_follow_filled(tmp_path):
    """10♦ ×3 led surely and the first follower shows two cards (one hid under its twin): one short
    follow is no evidence against three sure corners; the lead stands, the follow is filled for a person,
    and the next follower's three cards agree with it."""
    lead = [("10D", 0.95), ("10D", 0.95), ("10D", 0.95)]
    first = [("KD", 0.95), ("KD", 0.95)]
    script = {0: {}, 10: {0: lead}, 30: {0: lead, 1: first},
              60: {0: lead, 1: first, 2: [("QD", 0.95), ("3D", 0.95), ("2D", 0.95)]}}
    trick, game = first_trick(script, frames=110, rules="titanic-3deck")
    assert trick["plays"] == [["10D", "10D", "10D"], ["KD", "KD", "KD"], ["QD", "3D", "2D"]]
    assert trick["unconfirmed"] == [[1, 2]]


def test_a_trick_of_pairs_read_as_triples_in_two_plays_is_cut_back_by_the_two_short_follows(tmp_path):
    """A four-corner design: 3♥ 3♥ led, read with an unsure third 3♥; the first follower's 10♥ 10♥ is read
    surely as three (the lower card's third corner); the next two followers lay pairs that read as pairs.
    Three plays of the four say two cards (fresh 4-corner deal 366): the trick is of pairs, the copies
    left of the surely read follow marked for a person."""
    lead = [("3H", 0.95), ("3H", 0.95), ("3H", 0.45)]
    first = [("10H", 0.95), ("10H", 0.95), ("10H", 0.95)]
    second = [("5H", 0.95), ("5H", 0.95)]
    script = {0: {}, 10: {0: lead}, 30: {0: lead, 1: first}, 50: {0: lead, 1: first, 2: second},
              80: {0: lead, 1: first, 2: second, 3: [("AH", 0.95), ("AH", 0.95)]}}
    trick, game = first_trick(script, frames=120, rules="titanic-3deck")
    assert trick["plays"] == [["3H", "3H"], ["10H", "10H"], ["5H", "5H"], ["AH", "AH"]]
    assert sorted(trick["unconfirmed"]) == [[1, 0], [1, 1]]


def test_a_sure_triple_lead_and_follow_with_two_follows_short_stay_triples(tmp_path):
    """A♥ ×3 led and K♥ ×3 followed, all read surely; the last two followers each show two cards. Two sure
    triples against two short follows: as likely two hidden cards as two read twice, so the trick stays
    of three cards, the gaps filled for a person."""
    lead = [("AH", 0.95), ("AH", 0.95), ("AH", 0.95)]
    first = [("KH", 0.95), ("KH", 0.95), ("KH", 0.95)]
    second = [("5H", 0.95), ("5H", 0.95)]
    script = {0: {}, 10: {0: lead}, 30: {0: lead, 1: first}, 50: {0: lead, 1: first, 2: second},
              80: {0: lead, 1: first, 2: second, 3: [("9H", 0.95), ("9H", 0.95)]}}
    trick, game = first_trick(script, frames=120, rules="titanic-3deck")
    assert [len(play) for play in trick["plays"]] == [3, 3, 3, 3]
    assert trick["plays"][:2] == [["AH", "AH", "AH"], ["KH", "KH", "KH"]]


def test_a_lead_of_two_pairs_is_not_cut_to_two_short_follows(tmp_path):
    """K♦ K♦ Q♦ Q♦ led, two followers each showing three cards: the lead holds no copy beyond a pair,
    so it stands and the follows are filled, each gap marked for a person."""
    lead = [("KD", 0.95), ("KD", 0.95), ("QD", 0.95), ("QD", 0.95)]
    first = [("9D", 0.95), ("9D", 0.95), ("3D", 0.95)]
    second = [("8D", 0.95), ("8D", 0.95), ("4D", 0.95)]
    script = {0: {}, 10: {0: lead}, 30: {0: lead, 1: first}, 60: {0: lead, 1: first, 2: second}}
    trick, game = first_trick(script, frames=110, rules="titanic-3deck")
    assert [len(play) for play in trick["plays"]] == [4, 4, 4]
    assert trick["plays"][0] == ["KD", "KD", "QD", "QD"]


@dataclass(frozen=True)
class Unsure:
    """A scripted read that also gives its candidates, as the trained reader does."""

    card: str
    box: tuple[float, float, float, float]
    confidence: float
    others: tuple[tuple[str, float], ...]

    def candidates(self) -> tuple[tuple[str, float], ...]:
        return ((self.card, self.confidence), *self.others)


def _first_trick_read(setup: dict, reader: ScriptedReader, frames: int) -> dict:
    """The first trick the table pipeline records from ``frames`` frames of ``reader``'s table (plays settle after 0.5 s)."""
    game, _ = _played_by(reader, frames, setup)
    return game.snapshot()["deals"][0]["tricks"][0]


class MisreadingReader(ScriptedReader):
    """The scripted table, but a 9♣ is read surely as 9♠ (9♣ second in its candidates)."""

    def read_frame(self, frame: Frame) -> list[Unsure]:  # type: ignore[override]
        return [Unsure("9S" if seen.card == "9C" else seen.card, seen.box, seen.confidence,
                       (("9C", 0.08),) if seen.card == "9C" else ()) for seen in self.at(frame.index)]


def test_a_lead_every_follow_answered_in_another_suit_is_marked_for_a_person(tmp_path):
    """A pair of 9♣ led, read surely as 9♠; all three follows are clubs. Players follow suit when
    they can: the lead is marked for a person, so a revoke resting on it (a follower later shown
    to hold spades) is to check, never proven (the audit's rule for unconfirmed cards)."""
    setup = {**SETUP, "deals": [{"level": "2", "trump": "H", "dealer": 0, "tricks": []}]}
    script = {0: {}, 10: {0: [("9C", 0.95), ("9C", 0.95)]},
              30: {0: [("9C", 0.95), ("9C", 0.95)], 1: [("10C", 0.95), ("4C", 0.95)]},
              50: {0: [("9C", 0.95), ("9C", 0.95)], 1: [("10C", 0.95), ("4C", 0.95)], 2: [("10C", 0.95), ("6C", 0.95)]},
              70: {0: [("9C", 0.95), ("9C", 0.95)], 1: [("10C", 0.95), ("4C", 0.95)], 2: [("10C", 0.95), ("6C", 0.95)],
                   3: [("7C", 0.95), ("7C", 0.95)]}}
    trick = _first_trick_read(setup, MisreadingReader(script), 100)
    assert trick["plays"] == [["9S", "9S"], ["10C", "4C"], ["10C", "6C"], ["7C", "7C"]]
    assert sorted(trick["unconfirmed"]) == [[0, 0], [0, 1]]


class RedSuitsReader(ScriptedReader):
    """The scripted table, but a card scripted at 0.52 is read as the other suit of its colour and rank
    (its own card second in its candidates, at 0.36), as a held-out font's ♥ or ♣ is now and then."""

    def read_frame(self, frame: Frame) -> list[Unsure]:  # type: ignore[override]
        other = {"H": "D", "D": "H", "S": "C", "C": "S"}
        return [Unsure(seen.card[:-1] + other[seen.card[-1]], seen.box, 0.52, ((seen.card, 0.36),))
                if seen.confidence == 0.52
                else Unsure(seen.card, seen.box, seen.confidence, ()) for seen in self.at(frame.index)]


def test_a_pair_read_as_one_rank_in_two_suits_one_unsurely_is_recorded_as_the_pair_for_a_person(tmp_path):
    """K♥ K♥ led at level K (every K a trump: K♥ and K♦ are of one suit, so no suit rule tells them
    apart), one K♥ read unsurely as K♦ (its reads give K♥ 0.36): two cards are led as a pair, so the
    lead is K♥ K♥, the changed card marked for a person; a follow to it read so is the pair too. A
    follow of two cards of one rank read surely in two suits stays as read."""
    setup = {**SETUP, "deals": [{"level": "K", "trump": "S", "dealer": 0, "tricks": []}]}
    script = {0: {}, 10: {0: [("KH", 0.95), ("KH", 0.52)]},
              30: {0: [("KH", 0.95), ("KH", 0.52)], 1: [("KS", 0.95), ("KD", 0.95)]},
              50: {0: [("KH", 0.95), ("KH", 0.52)], 1: [("KS", 0.95), ("KD", 0.95)], 2: [("KC", 0.95), ("KC", 0.52)]}}
    trick = _first_trick_read(setup, RedSuitsReader(script), 80)
    assert trick["plays"][:3] == [["KH", "KH"], ["KS", "KD"], ["KC", "KC"]]
    assert [0, 1] in trick["unconfirmed"] and [2, 1] in trick["unconfirmed"]


class BlackSuitsDoubtReader(RedSuitsReader):
    """As :class:`RedSuitsReader`, and a card scripted at 0.7 is read so with the other suit of its
    colour and rank beside it at 0.25: sure enough, not clear."""

    def read_frame(self, frame: Frame) -> list[Unsure]:  # type: ignore[override]
        other = {"H": "D", "D": "H", "S": "C", "C": "S"}
        return [Unsure(read.card, read.box, 0.7, ((read.card[:-1] + other[read.card[-1]], 0.25),))
                if read.confidence == 0.7 else read for read in super().read_frame(frame)]


def test_a_pair_follow_read_in_two_suits_is_the_pair_where_one_card_is_sure_though_not_clear():
    """K♥ K♥ led at level K; seat 1 follows K♣ K♣, the upper K♣ read at 0.7 (sure, not clear), the
    lower one read unsurely as K♠ (K♣ 0.36 among its reads): the follow is the pair K♣ K♣, the changed
    card marked for a person (it stayed K♣ K♠ while only a card read at 0.9 counted)."""
    setup = {**SETUP, "deals": [{"level": "K", "trump": "S", "dealer": 0, "tricks": []}]}
    lead = [("KH", 0.95), ("KH", 0.95)]
    script = {0: {}, 10: {0: lead}, 30: {0: lead, 1: [("KC", 0.7), ("KC", 0.52)]}}
    trick = _first_trick_read(setup, BlackSuitsDoubtReader(script), 60)
    assert trick["plays"] == [["KH", "KH"], ["KC", "KC"]]
    assert trick["unconfirmed"] == [[1, 1]]


class LowerCardReader(ScriptedReader):
    """The scripted table, but a card scripted at 0.5 is read unsurely, its own card first (0.5) and
    the card scripted beside it in ``second`` next (0.4), as the lower card of a pair fanned tight."""

    def __init__(self, script: dict[int, dict[int, list[tuple[str, float]]]], second: dict[str, str]) -> None:
        super().__init__(script)
        self.second = second

    def read_frame(self, frame: Frame) -> list[Unsure]:  # type: ignore[override]
        return [Unsure(seen.card, seen.box, 0.5, ((self.second[seen.card], 0.4),)) if seen.confidence == 0.5
                else Unsure(seen.card, seen.box, seen.confidence, ()) for seen in self.at(frame.index)]


def test_a_two_card_lead_read_with_its_unsure_card_in_rank_doubt_is_the_pair_for_a_person():
    """10♦ 10♦ led, the lower 10♦ read unsurely as Q♦ (10♦ among its candidates): two cards are led as
    a pair (a throw of just those two singles is rare), so the lead is 10♦ 10♦, the changed card marked
    for a person. A follow read so, 8♦ and an unsure J♦ with 8♦ among its candidates, stays as read: a
    follow of two singles is common."""
    lead = [("10D", 0.95), ("QD", 0.5)]
    follow = [("8D", 0.95), ("JD", 0.5)]
    script = {0: {}, 10: {0: lead}, 30: {0: lead, 1: follow}}
    trick = _first_trick_read(SETUP, LowerCardReader(script, {"QD": "10D", "JD": "8D"}), 60)
    assert trick["plays"] == [["10D", "10D"], ["8D", "JD"]]
    assert [0, 1] in trick["unconfirmed"] and [1, 1] in trick["unconfirmed"]


def test_a_read_no_deck_can_hold_is_recorded_for_a_person_and_the_table_goes_on(tmp_path):
    """Four A♠ led (four decks' worth); seat 1's zone reads five sure K♠ (a misread: no game holds
    five). The lead is not grown with a fifth A♠, the impossible follow is recorded as not seen
    (没看到) for a person to enter, and the next seat's play is recorded: the pipeline never stops
    on a misread (it stopped with the record's refusal before)."""
    lead = [("AS", 0.95)] * 4
    misread = [("KS", 0.95)] * 5
    script = {0: {}, 10: {0: lead}, 30: {0: lead, 1: misread},
              60: {0: lead, 1: misread, 2: [("QS", 0.95), ("QS", 0.95), ("JS", 0.95), ("JS", 0.95)]}}
    trick, _ = first_trick(script, frames=100)
    assert trick["plays"] == [["AS"] * 4, [], ["QS", "QS", "JS", "JS"]] and trick["missing"] == [1]


def test_calibration_from_a_rendered_frame_matches_the_renderer(tmp_path):
    from tuolaji import scorer
    from tuolaji.datasets.video import RenderOptions, render_video

    truth = render_video(scorer.random_record("standard-2deck", 2, hand_size=1), tmp_path / "v.mp4",
                         RenderOptions(seed=9, fps=8.0, max_tricks=1))
    with open_source(str(tmp_path / "v.mp4")) as source:
        first = next(iter(source)).image
    found = find_table_corners(first)
    assert np.abs(found - np.array(truth.table_corners)).max() < 8
    assert math.isclose(truth.fps, 8.0)


def test_replay_without_a_card_model_says_so(tmp_path, monkeypatch):
    from tuolaji.cli import replay
    from tuolaji.vision import detector

    def no_models(*args, **kwargs):
        raise OSError(2, "No such file or directory", str(Path("models") / "detector.onnx"))

    monkeypatch.setattr(detector.CardReader, "load", staticmethod(no_models))
    from argparse import Namespace

    with pytest.raises(Exception, match="card model"):
        replay._reader(Namespace(oracle=None, deck=None, deck_data=None))


def test_a_camera_session_resumed_mid_trick_does_not_record_the_cards_already_lying_twice(tmp_path):
    path = tmp_path / "record.json"
    record = {**SETUP, "deals": [{**SETUP["deals"][0], "tricks": [{"leader": 0, "plays": [["AS"], ["3S"]]}]}]}
    path.write_text(__import__("json").dumps(record))
    game = LiveGame.resume(path)
    lying = {0: [("AS", 0.95)], 1: [("3S", 0.95)]}
    script = {0: lying, 20: {**lying, 2: [("KS", 0.95)]}, 40: {**lying, 2: [("KS", 0.95)], 3: [("9S", 0.95)]}}
    reader = ScriptedReader(script)
    pipeline = TablePipeline(game, reader=reader, settle_s=0.5, calibration=[(40, 30), (600, 30), (600, 450), (40, 450)])
    for frame in reader.frames(60):
        pipeline.process(frame)
    tricks = LiveGame.resume(path).snapshot()["deals"][0]["tricks"]
    assert tricks == [{"leader": 0, "plays": [["AS"], ["3S"], ["KS"], ["9S"]]}]


def _trick_then(after: dict[int, dict[int, list[tuple[str, float]]]]) -> dict[int, dict[int, list[tuple[str, float]]]]:
    played = {0: [("AS", 0.95)]}
    script: dict[int, dict[int, list[tuple[str, float]]]] = {0: {}, 10: dict(played)}
    for frame, seat, card in ((20, 1, "3S"), (30, 2, "4S"), (40, 3, "5S")):
        played = {**played, seat: [(card, 0.95)]}
        script[frame] = dict(played)
    script.update(after)
    return script


def test_a_card_left_behind_by_the_sweep_does_not_stop_the_game_for_long():
    reader = ScriptedReader(_trick_then({60: {3: [("5S", 0.95)]}, 70: {3: [("5S", 0.95)], 0: [("KD", 0.95)]}}))
    game = LiveGame(SETUP)
    pipeline = TablePipeline(game, reader=reader, settle_s=0.5, stale_sweep_s=2.0,
                             calibration=[(40, 30), (600, 30), (600, 450), (40, 450)])
    for frame in reader.frames(90):
        pipeline.process(frame)
    assert len(game.snapshot()["deals"][0]["tricks"]) == 1  # still waiting: seat 3's card may yet be swept
    for frame in reader.frames(120, start=90):
        pipeline.process(frame)
    tricks = game.snapshot()["deals"][0]["tricks"]
    assert tricks[1] == {"leader": 0, "plays": [["KD"]]}


def test_a_play_swept_before_it_was_read_is_recorded_missing_and_the_next_lead_starts_the_next_trick():
    """Seat 3's card lies there but is never read (a joker design the reader does not know); the
    trick is swept and seat 3, its winner, leads K♦. The trick is recorded with seat 3's play
    missing, for a person to enter, and K♦ leads the next trick: nothing crosses the sweep."""
    played = {0: [("AS", 0.95)], 1: [("3S", 0.95)], 2: [("4S", 0.95)], 3: [("BJ", 0.0)]}
    script = {0: {}, 10: {0: played[0]}, 20: {s: played[s] for s in (0, 1)}, 30: {s: played[s] for s in (0, 1, 2)},
              40: played, 60: {}, 70: {3: [("KD", 0.95)]}}
    game, pipeline = _played(script, frames=100)
    tricks = game.snapshot()["deals"][0]["tricks"]
    assert tricks[0]["plays"] == [["AS"], ["3S"], ["4S"], []] and tricks[0]["missing"] == [3]
    assert tricks[1]["leader"] == 3 and tricks[1]["plays"] == [["KD"]]
    assert pipeline.stats.missing_plays == 1
    assert any(entry.get("missing") for entry in game.pending())
    from tuolaji import scorer
    audit = scorer.audit_record(game.snapshot())["deals"][0]
    assert not [v for v in audit["violations"] if v["rule"] == "wrong-leader"]  # seat 3 won it: it leads next
    assert audit["missing_plays"] == [{"trick": 0, "seat": 3}]


def test_a_trick_swept_with_only_its_lead_recorded_keeps_the_lead_and_the_follows_that_were_read():
    """Seat 1's K♠ is never read (a court card of a design the reader misses); seats 2 and 3 play
    and are read, but the trick cannot go on without seat 1's play, and the table is swept. The
    lead was not taken back: the trick is recorded with its lead, seat 1's play missing for a
    person to enter, and the plays of seats 2 and 3 as they were read. K♦ leads the next trick."""
    played = {0: [("AS", 0.95)], 1: [("KS", 0.0)], 2: [("4S", 0.95)], 3: [("5S", 0.95)]}
    script = {0: {}, 10: {0: played[0]}, 20: {s: played[s] for s in (0, 1)}, 30: {s: played[s] for s in (0, 1, 2)},
              40: played, 60: {}, 70: {0: [("KD", 0.95)]}}
    for sweep in ({60: {}}, {60: {s: played[s] for s in (1, 2, 3)}, 66: {}}):  # at once, or the lead first
        game, pipeline = _played({**script, **sweep}, frames=100)
        tricks = game.snapshot()["deals"][0]["tricks"]
        assert tricks[0]["plays"] == [["AS"], [], ["4S"], ["5S"]] and tricks[0]["missing"] == [1]
        assert tricks[1]["leader"] == 0 and tricks[1]["plays"] == [["KD"]]
        assert pipeline.stats.missing_plays == 1


def test_a_lead_taken_back_before_anyone_followed_is_withdrawn():
    script = {0: {}, 10: {0: [("AS", 0.95)]}, 30: {}, 50: {0: [("KD", 0.95)]}}
    game, _ = _played(script, frames=80)
    assert game.snapshot()["deals"][0]["tricks"] == [{"leader": 0, "plays": [["KD"]]}]


def test_a_lead_from_the_wrong_seat_is_recorded_after_a_pause_and_the_audit_names_it():
    reader = ScriptedReader(_trick_then({60: {}, 70: {2: [("KD", 0.95)]}}))
    game = LiveGame(SETUP)
    pipeline = TablePipeline(game, reader=reader, settle_s=0.5, wrong_leader_wait_s=1.0,
                             calibration=[(40, 30), (600, 30), (600, 450), (40, 450)])
    for frame in reader.frames(100):
        pipeline.process(frame)
    tricks = game.snapshot()["deals"][0]["tricks"]
    assert tricks[1] == {"leader": 2, "plays": [["KD"]]}
    assert any(v["rule"] == "wrong-leader" for v in game.audit()["deals"][0]["violations"])


def test_a_table_that_cannot_be_found_falls_back_to_the_whole_picture_with_a_warning():
    blocks = np.random.default_rng(2).integers(0, 255, (12, 16, 3), dtype=np.uint8)
    patchwork = cv2.resize(blocks, (640, 480), interpolation=cv2.INTER_NEAREST)
    pipeline = TablePipeline(LiveGame(SETUP), reader=ScriptedReader({0: {}}))
    pipeline.process(Frame(0, 0.0, patchwork))
    assert pipeline.calibration is not None and pipeline.calibration.corners[2] == (640.0, 480.0)
    assert "whole picture" in (pipeline.calibration_warning or "")


def test_a_card_a_person_corrected_is_not_overruled_by_later_reads():
    script = {0: {}, 10: {0: [("AS", 0.95), ("4S", 0.4)]}}
    reader = ScriptedReader(script)
    game = LiveGame(SETUP)
    pipeline = TablePipeline(game, reader=reader, settle_s=0.5, calibration=[(40, 30), (600, 30), (600, 450), (40, 450)])
    for frame in reader.frames(25):
        pipeline.process(frame)
    assert game.snapshot()["deals"][0]["tricks"][0]["plays"][0] == ["AS", "4S"]
    assert game.pending() and game.pending()[0]["card"] == "4S"
    game.correct(0, 0, 0, 1, "5S")  # the person on the page: it is the 5 of spades
    later = {0: [("AS", 0.95), ("3S", 0.9)]}  # later reads disagree with everyone...
    reader.script[26] = later
    reader.script[30] = {**later, 1: [("6S", 0.95), ("7S", 0.95)]}  # ...and seat 1's play brings many reads
    for frame in reader.frames(70, start=25):
        pipeline.process(frame)
    trick = game.snapshot()["deals"][0]["tricks"][0]
    assert trick["plays"] == [["AS", "5S"], ["6S", "7S"]]


def test_something_lying_in_another_seats_zone_from_the_start_is_not_a_lead():
    reader = ScriptedReader({0: {2: [("7C", 0.9)]}, 30: {2: [("7C", 0.9)], 0: [("AS", 0.95)]}})
    game = LiveGame(SETUP)
    pipeline = TablePipeline(game, reader=reader, settle_s=0.5, calibration=[(40, 30), (600, 30), (600, 450), (40, 450)])
    for frame in reader.frames(60):
        pipeline.process(frame)
    assert game.snapshot()["deals"][0]["tricks"] == [{"leader": 0, "plays": [["AS"]]}]


def test_a_new_deal_started_on_the_page_is_followed_from_its_first_lead():
    from tuolaji.session.events import StateChanged

    script = {0: {}, 10: {0: [("AS", 0.95)]}, 20: {0: [("AS", 0.95)], 1: [("3S", 0.95)]}, 40: {}, 60: {1: [("KD", 0.95)]}}
    reader = ScriptedReader(script)
    game = LiveGame(SETUP)
    seen: list[str] = []
    game.bus.subscribe(lambda e: seen.append(e.reason) if isinstance(e, StateChanged) else None)
    pipeline = TablePipeline(game, reader=reader, settle_s=0.5, calibration=[(40, 30), (600, 30), (600, 450), (40, 450)])
    for frame in reader.frames(35):
        pipeline.process(frame)
    # mid-trick, the page abandons the deal and starts the next one: seat 1 deals and leads
    game.new_deal({"level": "3", "trump": "S", "dealer": 1, "tricks": []})
    for frame in reader.frames(90, start=35):
        pipeline.process(frame)
    record = game.snapshot()
    assert record["deals"][0]["tricks"] == [{"leader": 0, "plays": [["AS"], ["3S"]]}] and seen == ["new-deal"]
    assert record["deals"][1]["tricks"] == [{"leader": 1, "plays": [["KD"]]}]


def _misread_trick_then(after: dict[int, dict[int, list[tuple[str, float]]]]) -> dict[int, dict[int, list[tuple[str, float]]]]:
    """A script: seat 0 leads 9♠; seat 2's K♠ is read, surely, as 8♠, so by the reads seat 0 won the
    trick; then ``after`` (from frame 60)."""
    played = {0: [("9S", 0.97)], 1: [("3S", 0.97)], 2: [("8S", 0.97)], 3: [("5S", 0.97)]}
    script: dict[int, dict[int, list[tuple[str, float]]]] = {0: {}}
    for frame, seats in ((10, 1), (20, 2), (30, 3), (40, 4)):
        script[frame] = {s: played[s] for s in range(seats)}
    return {**script, **after}


def _wrong_leaders(game: LiveGame) -> list[dict]:
    return [v for v in game.audit()["deals"][0]["violations"] if v["rule"] == "wrong-leader"]


def _played_with_the_misread() -> tuple[LiveGame, TablePipeline]:
    """The game and pipeline after :func:`_misread_trick_then` the table is swept and seat 2, the real
    winner, leads K♦ (a lead out of turn is taken after the pipeline's 1 s)."""
    return _played(_misread_trick_then({60: {}, 70: {2: [("KD", 0.97)]}}), frames=100)


def test_a_lead_the_reads_of_the_trick_before_contradict_marks_that_trick_and_accuses_nobody_yet():
    game, pipeline = _played_with_the_misread()
    tricks = game.snapshot()["deals"][0]["tricks"]
    assert tricks[1] == {"leader": 2, "plays": [["KD"]]}
    # the read winner's card and the next leader's card go to a person; the lead out of turn is to check
    assert tricks[0]["unconfirmed"] == [[0, 0], [2, 0]]
    assert [(entry["seat"], entry["card"]) for entry in game.pending()] == [(0, "9S"), (2, "8S")]
    [violation] = _wrong_leaders(game)
    assert violation["proven"] is False and violation["to_check"] == [[0, 0, 0], [0, 2, 0]]
    assert pipeline.stats.doubted_plays == 2
    # the person sees seat 2's card is K♠: fixed, and nobody led out of turn
    game.correct(0, 0, 2, 0, "KS")
    game.confirm(0, 0, 0, 0)
    assert _wrong_leaders(game) == [] and game.pending() == []


def test_a_lead_out_of_turn_is_proven_once_the_cards_it_rests_on_are_confirmed():
    game, _ = _played_with_the_misread()
    game.confirm(0, 0, 0, 0)
    assert _wrong_leaders(game)[0]["proven"] is False  # one card still to confirm
    game.confirm(0, 0, 2, 0)  # the 8♠ was an 8♠: seat 2 led out of turn
    assert _wrong_leaders(game)[0]["proven"] is True


def test_a_lead_revised_into_cards_no_deck_can_hold_keeps_its_first_read_and_the_table_goes_on(tmp_path):
    """Seat 0's lead is recorded as four K♠ and then, its cards moved before seat 1 plays, read as five
    (no game holds five copies): the revision is a misread, the lead stays as first recorded, and the
    next plays are recorded (a held-out horizontal video stopped here with the record's refusal)."""
    four, five = [("KS", 0.95)] * 4, [("KS", 0.95)] * 5
    follow = [("QS", 0.95), ("QS", 0.95), ("JS", 0.95), ("JS", 0.95)]
    script = {0: {}, 10: {0: four}, 30: {0: five}, 60: {0: five, 1: follow}}
    trick, _ = first_trick(script, frames=100)
    assert trick["plays"][:2] == [["KS"] * 4, ["QS", "QS", "JS", "JS"]]


def test_a_lead_revised_into_more_copies_than_the_decks_hold_goes_to_a_person_and_accuses_nobody():
    """Seat 0's lead is recorded as K♠ K♠ Q♠ and then, its cards moved before seat 1 plays, read as
    K♠ K♠ K♠ Q♠ (two decks hold two K♠; a held-out horizontal tuning deal's tractor grew a fourth J♠ in
    three decks this way): the revision is recorded, but every K♠ of it goes to a person, so the
    card-not-available it would prove is to check."""
    first = [("KS", 0.95), ("KS", 0.95), ("QS", 0.95)]
    revised = [("KS", 0.95)] * 3 + [("QS", 0.95)]
    follow = [("3S", 0.95), ("4S", 0.95), ("5S", 0.95), ("6S", 0.95)]
    trick, game = first_trick({0: {}, 10: {0: first}, 30: {0: revised}, 60: {0: revised, 1: follow}}, frames=100)
    assert trick["plays"] == [["KS", "KS", "KS", "QS"], ["3S", "4S", "5S", "6S"]]
    assert trick["unconfirmed"] == [[0, 0], [0, 1], [0, 2]]
    [violation] = [v for v in game.audit()["deals"][0]["violations"] if v["rule"] == "card-not-available"]
    assert violation["proven"] is False


def test_a_play_holding_more_copies_than_the_decks_have_left_goes_to_a_person_and_accuses_nobody():
    """Two decks hold two K♠; seat 0's zone reads three, surely (a fanned card counted twice on a
    4-corner deck). Every K♠ of the play goes to a person, so the card-not-available it would prove
    is to check; once a person fixes the misread card, nothing is left to accuse."""
    lead = [("KS", 0.95)] * 3
    follow = [("3S", 0.95), ("4S", 0.95), ("5S", 0.95)]
    trick, game = first_trick({0: {}, 10: {0: lead}, 30: {0: lead, 1: follow}}, frames=70)
    assert trick["plays"] == [["KS", "KS", "KS"], ["3S", "4S", "5S"]]
    assert trick["unconfirmed"] == [[0, 0], [0, 1], [0, 2]]
    [violation] = [v for v in game.audit()["deals"][0]["violations"] if v["rule"] == "card-not-available"]
    assert violation["proven"] is False
    game.correct(0, 0, 0, 2, "QS")
    game.confirm(0, 0, 0, 0)
    game.confirm(0, 0, 0, 1)
    assert [v for v in game.audit()["deals"][0]["violations"] if v["rule"] == "card-not-available"] == []


def test_a_sure_pair_lead_that_then_reads_as_one_card_stays_a_pair_not_a_failed_throw():
    """Seat 0 leads A♥ A♥, read surely; its cards move before seat 1 plays (a hand passing) and the
    zone then reads one A♥: the second copy lies hidden under the first (a deck printing "A♥" on one
    line, fanned tight). A pair is one unit and no rule takes back half of it, so the lead stays a
    pair (before, it was recorded as a failed throw of A♥ A♥ and every follow was cut to one card)."""
    pair = [("AH", 0.95), ("AH", 0.95)]
    follow = [("9H", 0.95), ("9H", 0.95)]
    trick, _game = first_trick({0: {}, 10: {0: pair}, 30: {0: [("AH", 0.95)]}, 60: {0: [("AH", 0.95)], 1: follow}},
                               frames=100)
    assert trick["plays"] == [["AH", "AH"], ["9H", "9H"]]
    assert "attempt" not in trick


def test_a_pair_lead_with_an_unsure_copy_that_then_reads_as_one_card_is_revised():
    """The same, but the lead's second A♥ was unsure (marked for a person): one sure A♥ now is the
    likelier truth, so the lead is revised to it, as before."""
    pair = [("AH", 0.95), ("AH", 0.3)]
    trick, _game = first_trick({0: {}, 10: {0: pair}, 30: {0: [("AH", 0.95)]}, 60: {0: [("AH", 0.95)], 1: [("9H", 0.95)]}},
                               frames=100)
    assert trick["plays"] == [["AH"], ["9H"]]


def test_the_real_winner_leading_while_the_table_is_swept_ends_the_trick_the_reads_gave_another():
    """Seat 2's K♠ is read, surely, as 8♠, so by the reads seat 0 won the trick; seat 2, the real
    winner, lays its lead K♦ Q♦ where its K♠ lay as the trick is swept, so its zone is never read
    empty. Its new cards, laid by a hand and none of them its play, end the trick all the same: the
    lead is recorded (the trick before goes to a person), and so is the follow. Before, the trick
    waited for seat 2's zone to be empty, and nothing more was recorded."""
    lead = [("KD", 0.97), ("QD", 0.97)]
    game, _pipeline = _played(_misread_trick_then({60: {2: lead}, 110: {2: lead, 3: [("2D", 0.97), ("3D", 0.97)]}}), frames=170)
    tricks = game.snapshot()["deals"][0]["tricks"]
    assert tricks[1] == {"leader": 2, "plays": [["KD", "QD"], ["2D", "3D"]]}
    assert tricks[0]["unconfirmed"] == [[0, 0], [2, 0]]
    assert [v["proven"] for v in _wrong_leaders(game)] == [False]


def test_a_play_partly_gathered_or_reread_is_no_new_lead():
    from tuolaji.vision.plays import TrickView, new_lead
    from tuolaji.vision.settling import ZoneState

    trick = TrickView(leader=0, plays=[["9S"], ["3S"], ["8S", "8S"], ["5S"]], complete_at=4.0)
    zone = ZoneState(seat=2, tracker=ZoneTracker(fan_direction=(1.0, 0.0)), dirty=False,
                     content=ZoneContent(("8S",), (0.9,)), content_at=6.0, last_busy=5.0)
    assert not new_lead(zone, trick, next_leader=0, players=4)  # half of its pair gathered
    reread = ZoneState(seat=2, tracker=ZoneTracker(fan_direction=(1.0, 0.0)), dirty=False,
                       content=ZoneContent(("8S", "8C"), (0.9, 0.9)), content_at=6.0, last_busy=3.0)
    assert not new_lead(reread, trick, next_leader=0, players=4)  # read again as it lay: no hand laid it
    laid = ZoneState(seat=2, tracker=ZoneTracker(fan_direction=(1.0, 0.0)), dirty=False,
                     content=ZoneContent(("KD",), (0.9,)), content_at=6.0, last_busy=5.5)
    assert new_lead(laid, trick, next_leader=0, players=4)


class ProofReader(ScriptedReader):
    """The scripted table, read with candidates: a card scripted at 0.91 is read so, 9♠ at 0.09 (a 9♠ read
    as 9♣ in a deck whose clubs and spades look alike); every other card surely."""

    def read_frame(self, frame: Frame) -> list[Unsure]:  # type: ignore[override]
        return [Unsure(seen.card, seen.box, seen.confidence, (("9S", 0.09),) if seen.confidence == 0.91 else ())
                for seen in self.at(frame.index)]


def _played_with_a_later_read(later: float) -> LiveGame:
    """A pair of 5♣ led, seat 1 follows 9♣ 3♣; the trick swept, seat 3 (its winner) leads K♦ and seat 1's
    card is read 9♣ at ``later`` (0.91: 9♠ 0.09 besides). A second 9♣ in seat 1's hand would have been a
    pair it had to follow with."""
    first = {0: [("5C", 0.97), ("5C", 0.97)], 1: [("9C", 0.97), ("3C", 0.97)], 2: [("7C", 0.97), ("7C", 0.97)],
             3: [("8C", 0.97), ("8C", 0.97)]}
    script: dict[int, dict[int, list[tuple[str, float]]]] = {0: {}}
    for k in range(4):
        script[10 + 20 * k] = {s: first[s] for s in (0, 1, 2, 3)[:k + 1]}
    script[100] = {}
    second = {3: [("KD", 0.97)], 0: [("4D", 0.97)], 1: [("9C", later)], 2: [("6D", 0.97)]}
    for k in range(4):
        script[110 + 20 * k] = {s: second[s] for s in (3, 0, 1, 2)[:k + 1]}
    game, _ = _played_by(ProofReader(script), 220)
    return game


def _format_violations(game: LiveGame) -> list[dict]:
    return [v for v in scorer.audit_record(game.snapshot())["deals"][0]["violations"] if v["rule"] == "must-follow-format"]


def test_an_accusation_proven_by_a_later_card_read_unsurely_waits_for_that_card():
    """Seat 1 is "shown" to have held a 9♣ pair when a club pair was led, by a 9♣ read in the next trick at
    0.91 (9♠ 0.09): the violation rests on that read, so the card goes to a person and the violation is to
    check, not proven; confirmed, it is proven."""
    game = _played_with_a_later_read(0.91)
    tricks = game.snapshot()["deals"][0]["tricks"]
    assert [len(trick["plays"]) for trick in tricks] == [4, 4] and tricks[1]["plays"][2] == ["9C"]
    [violation] = _format_violations(game)
    assert violation["seat"] == 1 and violation["proven"] is False and violation["to_check"] == [[1, 1, 0]]
    game.confirm(0, 1, 1, 0)
    assert _format_violations(game)[0]["proven"] is True


def test_an_accusation_proven_by_later_cards_read_surely_stands():
    game = _played_with_a_later_read(0.97)
    [violation] = _format_violations(game)
    assert violation["proven"] is True and not game.snapshot()["deals"][0]["tricks"][1].get("unconfirmed")
