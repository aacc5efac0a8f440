"""``tuolaji replay VIDEO --setup SETUP.json --out RECORD.json``: a table video to a game record, headless.

SETUP.json is a record with the rules, the players and one deal's level, trump and
dealer, and no tricks, or the tricks of the deal so far when the video films only the rest
(like the bundled demo: the record then continues them). The video is processed as fast as it decodes (the card reader
runs only when a zone settles), the record is written after every settled play, and
the audit's summary is printed at the end. If RECORD.json already exists (a run that
was interrupted), the replay resumes it: the plays already recorded are watched again
without being recorded twice, and the rest are added.

Cards the pipeline could not settle are marked ``unconfirmed`` in the record, for a
person to confirm on the page; they are counted in the summary.
"""

from __future__ import annotations

import argparse
import json
import math
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

from tuolaji import scorer
from tuolaji.cli._common import (
    add_deck_arguments,
    add_index_layout_argument,
    finite_float,
    index_layout_override,
)
from tuolaji.scorer.errors import InputError
from tuolaji.session.live import LiveGame, check_resumable, read_json_file, write_json_atomic


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("video", help="video file (or folder of frames, a webcam index, or a phone camera app's "
                        "stream address, http://PHONE:8080/video or rtsp://..., read until Ctrl-C)")
    parser.add_argument("--setup", required=True, type=Path,
                        help="record with rules, players and the deal's set-up (and the deal so far, if the video "
                        "films only its last tricks)")
    parser.add_argument("--out", required=True, type=Path, help="record to write (resumed if it exists)")
    parser.add_argument("--corners", help="table corners in the image 'x,y x,y x,y x,y' (default: find them)")
    parser.add_argument("--settle", type=finite_float(low=0, above=True, high=60), default=0.7,
                        help="seconds a play must stay still (default 0.7)")
    parser.add_argument("--fps", type=finite_float(low=0, above=True, high=1000),
                        help="frame rate of a folder of frames (or a video whose header lies)")
    parser.add_argument("--oracle", type=Path,
                        help="read cards from a rendered video's .frames.json instead of the card model (testing)")
    parser.add_argument("--camera-size", default="1920x1080", metavar="WxH",
                        help="with a webcam index: the resolution to ask for (default 1920x1080)")
    add_deck_arguments(parser)
    add_index_layout_argument(parser)
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--json", action="store_true", help="print the audit as JSON instead of the summary")


def load_setup(path: Path) -> dict[str, Any]:
    """Read SETUP.json: a valid record whose last deal has no tricks yet, or only whole tricks
    (the deal so far, before the video starts)."""
    setup = read_json_file(path)
    if not isinstance(setup, dict) or "deals" not in setup:
        raise InputError(f"{path}: not a game record (expected an object with format, rules, players, deals)")
    try:
        scorer.validate_record(setup)
    except InputError as exc:
        raise InputError(f"{path}: {exc}") from exc
    if not setup["deals"]:
        raise InputError(f"{path}: deals: the set-up needs one deal (level, trump, dealer)")
    tricks = setup["deals"][-1].get("tricks") or []
    if tricks and len(tricks[-1].get("plays", [])) < scorer.parse_record(setup).players:
        raise InputError(f"{path}: deals[{len(setup['deals']) - 1}].tricks[{len(tricks) - 1}]: the deal so far ends "
                         "in the middle of a trick (a set-up holds whole tricks only)")
    return setup


def parse_corners(text: str) -> list[tuple[float, float]]:
    """``"x,y x,y x,y x,y"`` -> four points.

    >>> parse_corners("10,20 630,20 630,460 10,460")
    [(10.0, 20.0), (630.0, 20.0), (630.0, 460.0), (10.0, 460.0)]
    """
    try:
        points = [tuple(float(v) for v in pair.split(",")) for pair in text.replace(";", " ").split()]
    except ValueError as exc:
        raise InputError(f"--corners: expected 'x,y x,y x,y x,y', got {text!r}") from exc
    if len(points) != 4 or any(len(p) != 2 for p in points):
        raise InputError(f"--corners: expected four points 'x,y x,y x,y x,y', got {text!r}")
    if not all(math.isfinite(v) and abs(v) <= 100_000 for p in points for v in p):
        raise InputError(f"--corners: every coordinate must be a finite number of pixels, got {text!r}")
    return [(p[0], p[1]) for p in points]


def _open_game(setup: dict[str, Any], out: Path) -> tuple[LiveGame, bool]:
    if out.exists():
        game = LiveGame.resume(out)
        # the same game only: players, rules and the deal's set-up here; the plays as the video shows them
        # again (the pipeline refuses, before adding anything, a record whose plays the video does not show)
        check_resumable(game.snapshot(), setup, str(out), setup=True)
        return game, True
    write_json_atomic(out, setup)
    return LiveGame(setup, path=out), False


def _reader(args: argparse.Namespace) -> Any:
    if args.oracle is not None:
        from tuolaji.vision.oracle import OracleReader

        if not args.oracle.exists():
            raise FileNotFoundError(2, "no such file", str(args.oracle))
        try:
            return OracleReader.from_file(args.oracle)
        except (KeyError, ValueError, TypeError) as exc:
            raise InputError(f"{args.oracle}: not a rendered video's frames file ({exc})") from exc
    try:
        from tuolaji.vision.decks import chosen_deck
        from tuolaji.vision.detector import TABLE, CardReader
    except ModuleNotFoundError as exc:
        raise InputError(f"no card reader available ({exc.name}); pass --oracle FRAMES.json to test") from exc
    try:
        return CardReader.load(deck=chosen_deck(args.deck, args.deck_data), **TABLE, **index_layout_override(args))
    except OSError as exc:
        raise InputError(f"no trained card model ({exc.filename or exc}); train one (tuolaji train), "
                         "or pass --oracle FRAMES.json to test the pipeline alone") from exc


class _stop_on_interrupt:  # noqa: N801 - used as a context manager, like contextlib's
    """While inside: SIGINT (Ctrl-C) and SIGTERM set ``stop`` instead of raising in the middle of a frame
    (an exception inside OpenCV or ONNX Runtime could abort the process); a second Ctrl-C still raises."""

    def __init__(self, stop: threading.Event, source: Any = None) -> None:
        self.stop = stop
        self.source = source  # a stream waiting for its phone is told to stop waiting
        self.saved: dict[int, Any] = {}

    def _handle(self, signum: int, frame: object) -> None:
        if self.stop.is_set():
            raise KeyboardInterrupt
        self.stop.set()
        if self.source is not None:
            self.source.interrupt()

    def __enter__(self) -> _stop_on_interrupt:
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                self.saved[sig] = signal.signal(sig, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, handler in self.saved.items():
            signal.signal(sig, handler)


def stats_plays(game: LiveGame) -> int:
    record = game.snapshot()
    return sum(len(t["plays"]) for deal in record["deals"] for t in deal.get("tricks", []))


def summary_lines(game: LiveGame) -> list[str]:
    """The audit in a few lines: tricks, points, violations, cards waiting for a person."""
    record = game.snapshot()
    audit = game.audit()
    lines = []
    pending = game.pending()
    for index, (deal, deal_audit) in enumerate(zip(record["deals"], audit["deals"], strict=True)):
        tricks = deal.get("tricks", [])
        plays = sum(len(t["plays"]) for t in tricks)
        attempts = sum(1 for t in tricks if t.get("attempt"))
        points = deal_audit.get("defender_points")
        line = f"deal {index}: {len(tricks)} tricks, {plays} plays"
        if attempts:
            line += f", {attempts} failed throw{'s' if attempts > 1 else ''}"
        line += f", defender points {points}"
        outcome = deal_audit.get("outcome")
        if outcome:
            line += f", outcome {outcome['side']} +{outcome['levels']}"
        lines.append(line)
        violations = deal_audit.get("violations", [])
        if not violations:
            lines.append("  violations: none")
        for v in violations:
            proof = "proven" if v["proven"] else "suspected"
            lines.append(f"  violation: trick {v['trick']} seat {v['seat']} {v['rule']} ({proof}): {v['detail']}")
    lines.append(f"cards to confirm: {len(pending)}" + (
        " — " + ", ".join(f"trick {p['trick']} seat {p['seat']} card {p['index']} ({p['card']})" for p in pending[:8])
        if pending else ""))
    return lines


class _PlainProgress:
    """A one-line progress display on stderr, for when tqdm is not installed."""

    def __init__(self, total: int | None) -> None:
        self.total, self.done, self.shown = total, 0, -1

    def update(self, count: int) -> None:
        self.done += count
        percent = int(100 * self.done / self.total) if self.total else self.done // 100
        if percent != self.shown:
            self.shown = percent
            text = f"{percent:3d}% ({self.done}/{self.total} frames)" if self.total else f"{self.done} frames"
            print(f"\rreplay {text}", end="", file=sys.stderr, flush=True)

    def close(self) -> None:
        print("\r" + " " * 40 + "\r", end="", file=sys.stderr, flush=True)


def _progress_bar(total: int | None) -> Any:
    try:
        from tqdm import tqdm
    except ModuleNotFoundError:
        return _PlainProgress(total)
    return tqdm(total=total, unit="frame", file=sys.stderr, leave=False, desc="replay", dynamic_ncols=True)


def run(args: argparse.Namespace) -> int:
    from tuolaji.vision.pipeline import TablePipeline, open_source
    from tuolaji.vision.sources import parse_size

    source = open_source(args.video, fps=args.fps, camera_size=parse_size(args.camera_size))
    try:
        setup = load_setup(args.setup)
        reader = _reader(args)
        corners = parse_corners(args.corners) if args.corners else None
        game, resumed = _open_game(setup, args.out)
        pipeline = TablePipeline(game, reader=reader, calibration=corners, settle_s=args.settle,
                                 replay_from_start=resumed, filmed_from=len(setup["deals"][-1].get("tricks") or []))
        progress_bar = None if args.quiet else _progress_bar(source.frame_count)

        def progress(index: int, count: int | None) -> None:
            if progress_bar is not None:
                progress_bar.update(1)

        begun = time.perf_counter()
        stop = threading.Event()
        try:
            with _stop_on_interrupt(stop, source):
                pipeline.run(source, progress=progress, stop=stop)
        finally:
            if progress_bar is not None:
                progress_bar.close()
        elapsed = time.perf_counter() - begun
    finally:
        source.close()
    if stop.is_set():
        # Ctrl-C: the frame in hand was finished, the record holds every settled play (written after each)
        print(f"tuolaji replay: interrupted; the record {args.out} holds the {stats_plays(game)} plays settled so far "
              "(run the same command again to resume)", file=sys.stderr)
        return 130
    stats = pipeline.stats
    if pipeline.calibration_warning:
        print(f"tuolaji replay: warning: {pipeline.calibration_warning}", file=sys.stderr)
    if args.json:
        print(json.dumps(game.audit(), ensure_ascii=False, indent=1))
        return 0
    fps = stats.frames / elapsed if elapsed > 0 else 0.0
    print(f"{'resumed' if resumed else 'replayed'} {args.video}: {stats.frames} frames in {elapsed:.1f} s "
          f"({fps:.0f} fps), {stats.reads} card reads, {stats.plays} plays settled"
          + (f" ({stats.already_recorded} already in the record)" if stats.already_recorded else "")
          + (f", {stats.revisions} revised" if stats.revisions else "")
          + (f", {stats.invalid_frames} unusable frames skipped" if stats.invalid_frames else ""))
    for line in summary_lines(game):
        print(line)
    print(f"record: {args.out}")
    return 0
