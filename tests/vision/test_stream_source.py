"""A phone as the camera: the MJPEG stream read live, dropped and reconnected with no play lost.

The stream is a local MJPEG server the test starts (:mod:`tests.vision.mjpeg_server`) serving
the bundled demo video's frames on its own clock, as a phone films the table. The reader is the
oracle of the demo's ground truth: each picture read from the stream is known by its pixels (the
same JPEG decodes the same), so the test is fast and exact. The read lag (from the server sending
a picture to the pipeline getting it) is printed; ``bench/stream_bench.py`` measures it alone.
"""

from __future__ import annotations

import copy
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tuolaji.session.live import LiveGame
from tuolaji.vision.demo import DEMO_FRAMES, DEMO_SETUP, DEMO_TRUTH, DEMO_VIDEO
from tuolaji.vision.oracle import OracleReader
from tuolaji.vision.pipeline import TablePipeline
from tuolaji.vision.sources import Frame, FrameSource, SourceError, StreamSource, open_source

from .mjpeg_server import MjpegServer, digest, encode_video, index_of_pictures

FIRST, LAST = 250, 500
"""The demo's frames served: the table empty after trick 22's sweep, then tricks 23 and 24 (10 fps)."""
TRICKS = (23, 24)


@pytest.fixture(scope="module")
def demo_pictures() -> tuple[list[bytes], dict[bytes, list[int]]]:
    pictures = encode_video(DEMO_VIDEO, first=FIRST, last=LAST)
    return pictures, index_of_pictures(pictures, FIRST)


@pytest.fixture
def server(demo_pictures: tuple[list[bytes], dict[bytes, list[int]]]) -> Iterator[MjpegServer]:
    mjpeg = MjpegServer(demo_pictures[0], fps=10.0, offset=FIRST).start()
    yield mjpeg
    mjpeg.stop()


class ReadLag(FrameSource):
    """The stream as the pipeline reads it, each frame known by its pixels: its frame in the video,
    and how late it came (from the server sending it to the pipeline getting it)."""

    live = True

    def __init__(self, source: StreamSource, server: MjpegServer, index: dict[bytes, list[int]]) -> None:
        self.source = source
        self.server = server
        self.index = index
        self.name = source.name
        self.video_frame: dict[int, int] = {}
        self.lags_ms: list[float] = []

    def __iter__(self) -> Iterator[Frame]:
        for frame in self.source:
            shown, sent = self.server.shown(self.index[digest(frame.image)])
            self.video_frame[frame.index] = shown
            if shown < FIRST + len(self.server.pictures) - 1:  # the last picture is sent again and again
                self.lags_ms.append((time.monotonic() - sent) * 1000.0)
            yield frame


class ByPicture:
    """The oracle reader, reading the video frame a stream's picture is."""

    def __init__(self, frames: ReadLag) -> None:
        self.frames = frames
        self.oracle = OracleReader.from_file(DEMO_FRAMES)

    def read_frame(self, frame: Frame) -> list[Any]:
        return self.oracle.read_index(self.frames.video_frame[frame.index])


def demo_setup_before(trick: int) -> dict[str, Any]:
    """The demo's deal so far, up to ``trick`` (the frames served start after the trick before it)."""
    setup = json.loads(DEMO_SETUP.read_text(encoding="utf-8"))
    truth = json.loads(DEMO_TRUTH.read_text(encoding="utf-8"))
    setup["deals"][-1]["tricks"] = copy.deepcopy(truth["deals"][-1]["tricks"][:trick])
    return setup


def tricks_of(record: dict[str, Any], tricks: tuple[int, ...]) -> list[dict[str, Any]]:
    return [{k: v for k, v in record["deals"][-1]["tricks"][t].items() if k in ("leader", "plays", "attempt")}
            for t in tricks if t < len(record["deals"][-1]["tricks"])]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


@pytest.mark.slow  # 25 s of the table in real time, each
@pytest.mark.parametrize("mode", ["stall", "close"])
def test_a_stream_that_drops_for_5_s_mid_deal_loses_no_play(server, demo_pictures, mode, capsys):
    """The phone's Wi-Fi goes for 5 s while trick 23 is played (two of its plays are laid meanwhile):
    the source reconnects and the record gets every play of tricks 23 and 24, as the truth has them."""
    truth = json.loads(DEMO_TRUTH.read_text(encoding="utf-8"))
    want = tricks_of(truth, TRICKS)
    game = LiveGame(demo_setup_before(TRICKS[0]))
    source = StreamSource(server.url, read_timeout_s=1.0)
    frames = ReadLag(source, server, demo_pictures[1])
    pipeline = TablePipeline(game, reader=ByPicture(frames), filmed_from=TRICKS[0])
    stop = threading.Event()
    worker = threading.Thread(target=pipeline.run, args=(frames,), kwargs={"stop": stop}, daemon=True)
    worker.start()
    dropped_at = None
    try:
        deadline = time.monotonic() + 60.0
        while time.monotonic() < deadline and tricks_of(game.snapshot(), TRICKS) != want:
            if dropped_at is None and server.now_index() + FIRST >= 290:  # trick 23: its leader's play laid
                server.drop(5.0, mode)
                dropped_at = server.now_index() + FIRST
            time.sleep(0.1)
    finally:
        stop.set()
        source.interrupt()
        worker.join(10.0)
        source.close()
    assert not worker.is_alive()
    assert dropped_at is not None
    status = source.status()
    assert status.reconnects >= 1, status
    seen = sorted(set(frames.video_frame.values()))
    skipped = [f for f in range(dropped_at, dropped_at + 60) if f not in seen]
    assert len(skipped) >= 40, "the pipeline saw nothing of the table for the 5 s the stream was down"
    assert tricks_of(game.snapshot(), TRICKS) == want
    p50, p99 = percentile(frames.lags_ms, 0.5), percentile(frames.lags_ms, 0.99)
    with capsys.disabled():
        print(f"\nstream ({mode} for 5 s at frame {dropped_at}): {status.reconnects} reconnect(s), "
              f"{status.received} pictures, {status.dropped} stale dropped; read lag p50={p50:.0f} ms p99={p99:.0f} ms")
    assert p99 < 1000.0


def test_a_slow_reader_gets_the_newest_picture_and_stale_ones_are_dropped(demo_pictures):
    """A reader five times slower than the stream: each picture it gets is the newest (under one
    frame of the stream old), the ones in between are dropped, none is queued."""
    mjpeg = MjpegServer(demo_pictures[0], fps=25.0, offset=FIRST).start()
    try:
        with StreamSource(mjpeg.url) as source:
            lags = []
            for frame in source:
                _, sent = mjpeg.shown(demo_pictures[1][digest(frame.image)])
                lags.append(time.monotonic() - sent)
                time.sleep(0.2)
                if len(lags) == 10:
                    break
            status = source.status()
    finally:
        mjpeg.stop()
    assert max(lags) < 0.5, lags  # a queue would make it grow by 0.16 s a picture: 1.6 s at the 10th
    assert status.dropped >= 20 and status.received >= 40, status


@pytest.mark.parametrize("path", ["/video-nolength", "/shot.jpg"])
def test_mjpeg_without_lengths_and_a_snapshot_address_read_in_order(server, demo_pictures, path):
    url = f"http://127.0.0.1:{server.port}{path}"
    with open_source(url) as source:
        assert source.live and source.name == url
        shown = []
        for frame in source:
            shown.append(server.shown(demo_pictures[1][digest(frame.image)])[0])
            if len(shown) == 6:
                break
    assert shown == sorted(shown) and shown[-1] > shown[0]


def test_a_video_stream_that_is_not_mjpeg_is_read_by_ffmpeg(tmp_path):
    """A stream of another kind (here an AVI over HTTP; RTSP goes the same way) is OpenCV's FFmpeg's to read."""
    import cv2
    import numpy as np

    clip = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(clip), cv2.VideoWriter_fourcc(*"MJPG"), 10, (320, 240))
    for shade in range(0, 240, 8):
        writer.write(np.full((240, 320, 3), shade, np.uint8))
    writer.release()
    mjpeg = MjpegServer([cv2.imencode(".jpg", np.zeros((8, 8, 3), np.uint8))[1].tobytes()], clip=clip).start()
    try:
        with open_source(f"http://127.0.0.1:{mjpeg.port}/clip") as source:
            shades = []
            for frame in source:
                assert frame.image.shape == (240, 320, 3)
                shades.append(int(frame.image.mean()))
                if len(shades) == 5:
                    break
    finally:
        mjpeg.stop()
    assert len(set(shades)) >= 2  # its pictures, as they come (the clip over, it is opened again)


def test_closing_while_the_stream_is_down_ends_the_reading_at_once(server):
    source = StreamSource(server.url, read_timeout_s=0.5)
    got: list[int] = []
    worker = threading.Thread(target=lambda: got.extend(f.index for f in source), daemon=True)
    worker.start()
    time.sleep(0.3)
    server.drop(30.0, "close")
    time.sleep(1.0)
    assert not source.status().connected
    begun = time.monotonic()
    source.close()
    worker.join(5.0)
    assert not worker.is_alive() and time.monotonic() - begun < 3.0
    assert got


def test_a_password_is_not_shown(server):
    url = f"http://me:secret@127.0.0.1:{server.port}/video"
    with open_source(url) as source:
        assert "secret" not in source.name and source.name.startswith("http://me:***@127.0.0.1:")


def test_an_address_that_is_no_stream_is_one_clear_line(server):
    base = f"http://127.0.0.1:{server.port}"
    cases = {
        f"{base}/": ("source.stream_not_video", "not a video stream (it sends text/html)"),
        f"{base}/nope": ("source.stream_http", "HTTP 404"),
        "http://127.0.0.1:1/video": ("source.stream_unreachable", "cannot connect (connection refused)"),
        "ftp://phone/video": ("source.stream_url", "not a stream address"),
        "http:///video": ("source.stream_url", "not a stream address"),
        "http://phone:99999/video": ("source.stream_url", "not a stream address"),
        "http://[phone/video": ("source.stream_url", "not a stream address"),
    }
    for url, (key, words) in cases.items():
        with pytest.raises(SourceError) as caught:
            open_source(url)
        assert caught.value.key == key and words in str(caught.value), (url, str(caught.value))
        assert "\n" not in str(caught.value)


def test_a_silent_address_fails_within_its_timeout():
    import socket

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)  # accepts, never answers
    try:
        begun = time.monotonic()
        with pytest.raises(SourceError) as caught:
            StreamSource(f"http://127.0.0.1:{listener.getsockname()[1]}/video", open_timeout_s=1.0, read_timeout_s=1.0)
        assert "timed out" in str(caught.value) and time.monotonic() - begun < 5.0
    finally:
        listener.close()

