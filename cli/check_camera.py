"""``tuolaji check-camera [--camera N|URL [--camera-size WxH] | FILE]``: is the camera set up to read cards?

Takes one frame (from the camera, or from a photo or the first frame of a video of the
table) with a few cards face up on it, and says how tall the cards' corner indices are
in the picture, how bright the table is, and what to change (resolution, height,
light). Exit status 0 when the set-up is good, 1 when something should change, 2 for
bad input (no such camera, an unreadable file).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tuolaji.cli._common import camera_spec


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("file", nargs="?", type=Path, metavar="FILE", help="a photo, or a video of the table (its first frame)")
    source.add_argument("--camera", type=camera_spec, metavar="N|URL",
                        help="check webcam N, or a phone camera app's stream (http://PHONE:8080/video, rtsp://...)")
    parser.add_argument("--camera-size", default="1920x1080", metavar="WxH", help="resolution to ask the camera for (default 1920x1080)")
    parser.add_argument("--players", type=int, default=4, help="players at the table (the seat zones; default 4)")
    parser.add_argument("--models", type=Path, default=None, help="models folder (default: the shipped models/)")
    parser.add_argument("--json", action="store_true", help="print the check as JSON")


def first_frame(args: argparse.Namespace):
    from tuolaji.vision.detector import read_image_file
    from tuolaji.vision.sources import IMAGE_SUFFIXES, SourceError, open_source, parse_size

    if args.camera is not None:
        source = open_source(args.camera, camera_size=parse_size(args.camera_size))
    elif args.file.suffix.lower() in IMAGE_SUFFIXES:
        return read_image_file(args.file)
    else:
        source = open_source(args.file)
    with source:
        for frame in source:
            return frame.image
    raise SourceError(f"{args.file}: no frame to check")


def run(args: argparse.Namespace) -> int:
    from tuolaji.scorer.errors import InputError
    from tuolaji.vision.camera_check import check_frame
    from tuolaji.vision.detector import CardReader, load_layout_reader

    if not 2 <= args.players <= 8:
        raise InputError(f"--players {args.players}: a table seats 2 to 8")
    image = first_frame(args)
    check = check_frame(image, CardReader.load(args.models), args.players,
                        beside_reader=load_layout_reader(args.models, "horizontal"))
    print(json.dumps(check.to_json(), ensure_ascii=False, indent=1) if args.json else check.report())
    return 0 if check.verdict == "good" else 1
