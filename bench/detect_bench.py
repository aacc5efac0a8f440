"""Time the card reader per 640×480 frame: JPEG decode -> detections -> card instances.

Frames: the fixed test scenes in tests/data/detector/images/ (640×480 JPEGs), cycled. Prints
the stage times and p50/p95, and as its last line exactly::

    detect_ms_p50=X fps=Y

Usage: ``.venv/bin/python bench/detect_bench.py [--frames 200] [--models DIR] [--careful | --fast]``

``--paired DIR`` times the readers of ``--models`` and of DIR frame by frame in turn (each frame
and each zone read by one, then the other), so that a busy machine slows both alike; it prints
both readers' p50s, the shipped one's last.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tuolaji.cli.detect import add_reading_arguments  # noqa: E402
from tuolaji.vision.detector import CardReader, reader_preset  # noqa: E402
from tuolaji.vision.face import card_quads  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=200)
    parser.add_argument("--models", type=Path, default=None)
    add_reading_arguments(parser)
    parser.add_argument("--images", type=Path, default=REPO / "tests" / "data" / "detector" / "images")
    parser.add_argument("--paired", type=Path, metavar="DIR", help="also time the reader of DIR, in turn with the first")
    args = parser.parse_args()
    files = sorted(args.images.glob("*.jpg"))
    if not files:
        print(f"no *.jpg in {args.images}", file=sys.stderr)
        return 2
    encoded = [np.fromfile(str(f), np.uint8) for f in files]
    if args.paired is not None:
        return paired(args, encoded)
    reader = CardReader.load(args.models, **reader_preset(args.careful, args.fast))
    for data in encoded[:3]:  # warm up ONNX Runtime
        reader.read(cv2.imdecode(data, cv2.IMREAD_COLOR))
    total, stages = [], {"decode": [], "detect": [], "classify": [], "group": [], "faces": []}
    cards = 0
    for k in range(args.frames):
        data = encoded[k % len(encoded)]
        t0 = time.perf_counter()
        frame = cv2.imdecode(data, cv2.IMREAD_COLOR)
        t1 = time.perf_counter()
        boxes, scores = reader.detect(frame)
        t2 = time.perf_counter()
        probs, up, side = reader.classify(frame, boxes)
        t3 = time.perf_counter()
        readings = reader.readings_from(boxes, scores, probs, up, side)
        quads = card_quads(frame)  # card outlines: the indices on one are one card
        found = reader.cards_from(readings, quads)
        t4 = time.perf_counter()
        found = reader.with_faces(frame, found, quads)  # whole faces (nothing when the models have no face reader)
        t5 = time.perf_counter()
        cards += len(found)
        for name, dt in zip(stages, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4), strict=True):
            stages[name].append(dt * 1000)
        total.append((t5 - t0) * 1000)
    h, w = cv2.imdecode(encoded[0], cv2.IMREAD_COLOR).shape[:2]
    print(f"{args.frames} frames of {w}x{h} from {len(files)} images, {cards / args.frames:.1f} cards per frame")
    for name, values in stages.items():
        print(f"  {name:9s} p50 {np.percentile(values, 50):6.2f} ms   p95 {np.percentile(values, 95):6.2f} ms")
    p50, p95 = float(np.percentile(total, 50)), float(np.percentile(total, 95))
    print(f"  total     p50 {p50:6.2f} ms   p95 {p95:6.2f} ms")
    zone_p50, zone_size = zone_read_ms(reader, encoded, max(20, args.frames // 4))
    print(f"zone_read_ms_p50={zone_p50:.1f} (one settled seat zone, {zone_size[0]}x{zone_size[1]} px, of a 1920x1080 frame, "
          f"4 players: the table pipeline's read of a camera at full resolution)")
    print(f"detect_ms_p50={p50:.1f} fps={1000 / p50:.1f}")
    return 0


def paired(args: argparse.Namespace, encoded: list[np.ndarray]) -> int:
    """Time two readers in turn, frame by frame (see the module docstring)."""
    from tuolaji.vision.calibration import SeatZones, TableCalibration

    preset = reader_preset(args.careful, args.fast)
    readers = {str(args.paired): CardReader.load(args.paired, **preset), str(args.models or "models"): CardReader.load(args.models, **preset)}
    frames = [cv2.imdecode(data, cv2.IMREAD_COLOR) for data in encoded]
    x1, y1, x2, y2 = SeatZones(4).zone_boxes(TableCalibration.full_frame((1920, 1080)))[0]
    zones = [np.ascontiguousarray(cv2.resize(f, (1920, 1080))[y1:y2, x1:x2]) for f in frames[:8]]
    for reader in readers.values():
        for frame in frames[:3]:
            reader.read(frame)
    frame_ms: dict[str, list[float]] = {name: [] for name in readers}
    zone_ms: dict[str, list[float]] = {name: [] for name in readers}
    for k in range(args.frames):
        for name, reader in readers.items():
            t0 = time.perf_counter()
            reader.read(frames[k % len(frames)])
            t1 = time.perf_counter()
            reader.read(zones[k % len(zones)])
            frame_ms[name].append((t1 - t0) * 1000)
            zone_ms[name].append((time.perf_counter() - t1) * 1000)
    for name in readers:
        print(f"{name}: frame_ms_p50={np.percentile(frame_ms[name], 50):.1f} zone_read_ms_p50={np.percentile(zone_ms[name], 50):.1f}")
    return 0


def zone_read_ms(reader: CardReader, encoded: list[np.ndarray], frames: int) -> tuple[float, tuple[int, int]]:
    """p50 time (ms) to read seat 0's zone of 1920×1080 frames (the test scenes scaled up), and the zone's size."""
    from tuolaji.vision.calibration import SeatZones, TableCalibration

    x1, y1, x2, y2 = SeatZones(4).zone_boxes(TableCalibration.full_frame((1920, 1080)))[0]
    big = [cv2.resize(cv2.imdecode(data, cv2.IMREAD_COLOR), (1920, 1080), interpolation=cv2.INTER_LINEAR) for data in encoded[:8]]
    times = []
    for k in range(frames):
        frame = big[k % len(big)]
        t0 = time.perf_counter()
        reader.read(np.ascontiguousarray(frame[y1:y2, x1:x2]))
        times.append((time.perf_counter() - t0) * 1000)
    return float(np.percentile(times, 50)), (x2 - x1, y2 - y1)


if __name__ == "__main__":
    sys.exit(main())
