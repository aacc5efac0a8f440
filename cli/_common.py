"""Argument helpers shared by several commands (not a command itself: its name starts with ``_``).

Like every module of :mod:`tuolaji.cli` it imports only the standard library at module level,
so building the parser loads nothing heavy.

>>> finite_float(low=0, above=True)("0.7")
0.7
>>> finite_float(low=0, above=True)("nan")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: expected a number above 0, got 'nan'
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from pathlib import Path


def finite_float(*, low: float | None = None, above: bool = False, high: float | None = None
                 ) -> Callable[[str], float]:
    """An argparse ``type``: a finite number (no nan, no inf), at least (or ``above``) ``low``."""
    def parse(text: str) -> float:
        bound = "" if low is None else f" {'above' if above else 'at least'} {low:g}"
        bound += "" if high is None else f" and at most {high:g}"
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number{bound}, got {text!r}") from None
        if (not math.isfinite(value) or (low is not None and (value <= low if above else value < low))
                or (high is not None and value > high)):
            raise argparse.ArgumentTypeError(f"expected a number{bound}, got {text!r}")
        return value

    return parse


STREAM_SCHEMES = ("http", "https", "rtsp", "rtsps")
"""The schemes of a stream's address (:data:`vision.sources.STREAM_SCHEMES`; here so that building
the parser loads no OpenCV)."""


def camera_spec(text: str) -> int | str:
    """An argparse ``type`` for ``--camera``: a webcam's number, or a phone camera app's address.

    >>> camera_spec("0"), camera_spec("http://192.168.1.5:8080/video")
    (0, 'http://192.168.1.5:8080/video')
    >>> camera_spec("phone")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a webcam number (0, 1, ...) or a stream address (http://PHONE:8080/video, rtsp://...), got 'phone'
    """
    text = text.strip()
    if text.isdigit():
        return int(text)
    scheme, _, rest = text.partition("://")
    if rest and scheme.lower() in STREAM_SCHEMES:
        return text
    raise argparse.ArgumentTypeError("expected a webcam number (0, 1, ...) or a stream address "
                                     f"(http://PHONE:8080/video, rtsp://...), got {text!r}")


def add_deck_arguments(parser, data_option: str = "--data") -> None:
    """``--deck NAME`` and the data folder it is enrolled in (``data_option``, default ``--data``)."""
    parser.add_argument("--deck", metavar="NAME", help="read with the deck enrolled under this name (see `tuolaji enrol`)")
    parser.add_argument(data_option, type=Path, metavar="DIR", dest="deck_data",
                        help="data folder of the enrolled decks (default $TUOLAJI_DATA or ./data)")


INDEX_LAYOUT_CHOICES = ("vertical", "horizontal")
"""``--index-layout``'s choices (:data:`vision.decks.INDEX_LAYOUTS`; here so that building the
parser loads no numpy)."""


def add_index_layout_argument(parser: argparse.ArgumentParser) -> None:
    """``--index-layout vertical|horizontal``: how the deck on the table prints its corner indices."""
    parser.add_argument("--index-layout", choices=INDEX_LAYOUT_CHOICES, default=None,
                        help="horizontal: the deck prints each suit beside its rank (10♥ on one line), read by "
                             "the reader trained on such indices; default: as the deck's enrolment found it, else vertical")


def index_layout_override(args: argparse.Namespace) -> dict[str, str]:
    """The reader setting ``--index-layout`` asks for (none when it was not given)."""
    layout = getattr(args, "index_layout", None)
    return {"index_layout": layout} if layout else {}


def add_reading_arguments(parser: argparse.ArgumentParser) -> None:
    """``--careful`` or ``--fast`` (not both): the reader presets of :func:`vision.detector.reader_preset`."""
    speed = parser.add_mutually_exclusive_group()
    speed.add_argument("--careful", action="store_true",
                       help="read every corner index four ways (turned by quarter turns) and average, "
                       "as the table pipeline does: more accurate, about 4x the classifier's time")
    speed.add_argument("--fast", action="store_true",
                       help="read frames at 0.7 scale and every index once: about a quarter less time, "
                       "fewer of the smallest cards")
