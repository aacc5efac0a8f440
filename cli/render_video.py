"""``tuolaji render-video OUT.mp4``: film a deal being played, with its ground truth.

The deal is a record (``--record``) or a random legal deal from the scorer
(``--profile``, ``--seed``, ``--hand-size``, ``--tricks``). Besides OUT.mp4 it writes
OUT.truth.json (the record as filmed, what a replay should recover), OUT.setup.json
(what ``tuolaji replay --setup`` takes) and OUT.frames.json (per-frame ground truth:
what ``tuolaji replay --oracle`` reads instead of the card model).

Example::

    tuolaji render-video /tmp/deal.mp4 --profile titanic-3deck --seed 4 --hand-size 5
    tuolaji replay /tmp/deal.mp4 --setup /tmp/deal.setup.json --out /tmp/got.json --oracle /tmp/deal.frames.json
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from tuolaji import scorer
from tuolaji.cli._common import finite_float
from tuolaji.scorer.errors import InputError
from tuolaji.session.live import read_json_file


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("out", type=Path, help="video to write (.mp4)")
    parser.add_argument("--record", type=Path, help="record to film (default: a random deal)")
    parser.add_argument("--profile", default="standard-2deck", help="rules profile of the random deal")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random deal and of the filming")
    parser.add_argument("--players", type=int, help="players of the random deal (profile default)")
    parser.add_argument("--hand-size", type=int, default=5, help="cards per hand of the random deal (default 5)")
    parser.add_argument("--tricks", type=int, help="film only the first N tricks")
    parser.add_argument("--fps", type=finite_float(low=0, above=True, high=120), default=15.0)
    parser.add_argument("--style-split", choices=("train", "holdout"), default="train",
                        help="card art family (holdout: designs the card reader never trained on)")
    parser.add_argument("--linger", action="append", default=[], metavar="TRICK:SEAT",
                        help="that hand rests over its cards after laying them (repeatable)")
    parser.add_argument("--gestures", type=finite_float(low=0, high=1), default=0.0, metavar="RATE",
                        help="chance after each play that a hand passes over the table without playing")
    parser.add_argument("--dropout", action="append", default=[], metavar="TIME:FRAMES[:black]",
                        help="lose FRAMES frames at TIME seconds (or make them black) (repeatable)")
    parser.add_argument("--force", action="store_true",
                        help="replace OUT.mp4 and its .truth/.setup/.frames.json if they exist (refused otherwise)")


def output_paths(out: Path) -> list[Path]:
    """The four files ``render-video OUT.mp4`` writes."""
    stem = out.with_suffix("")
    return [out] + [stem.with_name(stem.name + suffix) for suffix in (".truth.json", ".setup.json", ".frames.json")]


def _pairs(values: list[str], option: str) -> tuple[tuple[int, int], ...]:
    out = []
    for value in values:
        try:
            trick, seat = (int(v) for v in value.split(":"))
        except ValueError as exc:
            raise InputError(f"{option}: expected TRICK:SEAT, got {value!r}") from exc
        out.append((trick, seat))
    return tuple(out)


def _dropouts(values: list[str]) -> tuple[tuple[float, int, str], ...]:
    out = []
    for value in values:
        parts = value.split(":")
        try:
            when, frames = float(parts[0]), int(parts[1])
            if not math.isfinite(when) or when < 0 or not 0 <= frames <= 100_000:
                raise ValueError(value)
            kind = parts[2] if len(parts) > 2 else "skip"
        except (ValueError, IndexError) as exc:
            raise InputError(f"--dropout: expected TIME:FRAMES[:black], got {value!r}") from exc
        if kind not in ("skip", "black"):
            raise InputError(f"--dropout: kind must be 'skip' or 'black', got {kind!r}")
        out.append((when, frames, kind))
    return tuple(out)


def run(args: argparse.Namespace) -> int:
    from tuolaji.datasets.video import RenderOptions, render_video, save_render

    existing = [path for path in output_paths(args.out) if path.exists()]
    if existing and not args.force:
        raise InputError(f"{existing[0]}: exists already; pass --force to replace "
                         + ", ".join(str(path) for path in existing))
    if args.record is not None:
        record = read_json_file(args.record)
        scorer.validate_record(record)
    else:
        record = scorer.random_record(args.profile, args.seed, players=args.players, hand_size=args.hand_size)
    options = RenderOptions(
        seed=args.seed,
        fps=args.fps,
        style_split=args.style_split,
        linger=_pairs(args.linger, "--linger"),
        dropouts=_dropouts(args.dropout),
        gesture_rate=args.gestures,
        max_tricks=args.tricks,
    )
    truth = render_video(record, args.out, options)
    paths = save_render(truth, args.out)
    tricks = truth.record["deals"][0]["tricks"]
    print(f"{args.out}: {truth.frame_count} frames at {truth.fps:g} fps, {len(tricks)} tricks")
    for kind, path in paths.items():
        print(f"{kind}: {path}")
    return 0
