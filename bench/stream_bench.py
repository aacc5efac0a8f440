"""A phone as the camera: how late the reader gets each picture of an MJPEG stream, through a drop.

Usage::

    python bench/stream_bench.py                       # 1920x1080 at 30 fps, a reader of 100 ms a picture, 20 s
    python bench/stream_bench.py --reader-ms 0         # a reader as fast as the stream
    python bench/stream_bench.py --size 1280x720 --fps 15 --drop 5 --drop-mode stall

A local MJPEG server (``tests/vision/mjpeg_server.py``, as Android IP Webcam serves it) sends the
bundled demo video's frames, scaled to ``--size``, at ``--fps``; after a third of the run the stream
drops for ``--drop`` seconds (``close``: the connections cut; ``stall``: silent, as a phone whose
Wi-Fi went). :class:`vision.sources.StreamSource` reads it and a reader takes ``--reader-ms`` per
picture (the table pipeline's work; a sleep). Each picture's *read lag* is from the server sending
it to the reader getting it, decoded: what a stale queue would make grow without bound, and the
newest-picture-only grabber keeps under a frame or two.

Last line, exactly: ``stream_lag_ms_p50=X p99=Y`` (target: p99 under 1000).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.vision.mjpeg_server import MjpegServer, digest, index_of_pictures  # noqa: E402
from tuolaji.vision.demo import DEMO_VIDEO  # noqa: E402
from tuolaji.vision.sources import StreamSource, parse_size  # noqa: E402


def pictures_of_demo(size: tuple[int, int], count: int, quality: int = 85) -> list[bytes]:
    """The demo's first ``count`` frames (looped) scaled to ``size``, as JPEG bytes."""
    capture = cv2.VideoCapture(str(DEMO_VIDEO))
    frames: list[np.ndarray] = []
    while len(frames) < count:
        ok, image = capture.read()
        if not ok:
            capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
            continue
        frames.append(cv2.resize(image, size, interpolation=cv2.INTER_LINEAR))
    capture.release()
    return [cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1].tobytes() for image in frames]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", default="1920x1080", help="picture size WxH (default 1920x1080)")
    parser.add_argument("--fps", type=float, default=30.0, help="pictures a second the phone sends (default 30)")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to read (default 20)")
    parser.add_argument("--reader-ms", type=float, default=100.0, help="the reader's time per picture (default 100)")
    parser.add_argument("--drop", type=float, default=5.0, help="seconds the stream drops, a third of the way in (0: none)")
    parser.add_argument("--drop-mode", choices=("close", "stall"), default="close")
    args = parser.parse_args(argv)

    size = parse_size(args.size)
    # distinct pictures for the whole run: a picture read is known by its pixels
    count = int(args.fps * (args.seconds + 1))
    begun = time.perf_counter()
    pictures = pictures_of_demo(size, min(count, 1200))
    index = index_of_pictures(pictures)
    print(f"{len(pictures)} pictures of {size[0]}x{size[1]} ({sum(map(len, pictures)) / len(pictures) / 1024:.0f} KB "
          f"each) ready in {time.perf_counter() - begun:.1f} s", flush=True)
    server = MjpegServer(pictures, fps=args.fps).start()
    lags: list[float] = []
    gap_s = 0.0
    dropped_at: float | None = None
    try:
        with StreamSource(server.url, read_timeout_s=1.0) as source:
            start = time.monotonic()
            last = start
            for frame in source:
                now = time.monotonic()
                shown, sent = server.shown(index[digest(frame.image)])
                if shown < len(pictures) - 1:
                    lags.append((now - sent) * 1000.0)
                gap_s = max(gap_s, now - last)
                last = now
                if dropped_at is None and args.drop > 0 and now - start > args.seconds / 3:
                    server.drop(args.drop, args.drop_mode)
                    dropped_at = now
                if now - start > args.seconds:
                    break
                if args.reader_ms > 0:
                    time.sleep(args.reader_ms / 1000.0)
            status = source.status()
    finally:
        server.stop()
    back_s = gap_s - args.drop if dropped_at is not None else 0.0
    print(f"read {len(lags)} pictures in {args.seconds:.0f} s with a reader of {args.reader_ms:.0f} ms: "
          f"{status.received} received, {status.dropped} stale dropped, {status.reconnects} reconnect(s)"
          + (f"; the stream {args.drop_mode} for {args.drop:.0f} s, pictures again {back_s:.2f} s after it came back"
             if dropped_at is not None else ""))
    print(f"stream_lag_ms_p50={percentile(lags, 0.5):.0f} p99={percentile(lags, 0.99):.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
