"""Frame sources: a webcam, a video file or a folder of still frames, all read the same way.

:func:`open_source` takes what a user types (``0`` for the first webcam, a path to a
video, a path to a folder of images) and returns a :class:`FrameSource` that yields
:class:`Frame` objects in order. Whatever cannot be opened raises one
:class:`SourceError` naming the source and the reason; a missing file raises
:class:`FileNotFoundError`.

>>> import numpy as np, tempfile, cv2, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> for i in range(3):
...     _ = cv2.imwrite(str(folder / f"{i:03d}.png"), np.full((4, 6, 3), i, np.uint8))
>>> with open_source(str(folder), fps=10) as source:
...     [(frame.index, frame.time_s, frame.image.shape) for frame in source]
[(0, 0.0, (4, 6, 3)), (1, 0.1, (4, 6, 3)), (2, 0.2, (4, 6, 3))]
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from tuolaji.scorer.errors import InputError

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff")


class SourceError(InputError):
    """A camera that is missing or busy, a video that cannot be decoded, an empty folder."""


@dataclass(frozen=True)
class Frame:
    """One picture from a source: its position in the stream, its time in seconds, BGR pixels."""

    index: int
    time_s: float
    image: np.ndarray


class FrameSource:
    """Base class: iterate to get frames; ``fps`` is the nominal rate; ``frame_count`` may be None (live)."""

    name: str = "source"
    fps: float = 30.0
    frame_count: int | None = None
    live: bool = False

    def __iter__(self) -> Iterator[Frame]:
        raise NotImplementedError

    def close(self) -> None:
        """Release the device or file."""

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class VideoFileSource(FrameSource):
    """A video file decoded by OpenCV (FFmpeg). A frame that cannot be decoded mid-file raises SourceError."""

    def __init__(self, path: Path, *, fps: float | None = None) -> None:
        self.path = Path(path)
        self.name = str(self.path)
        if not self.path.exists():
            raise FileNotFoundError(2, "no such file", str(self.path))
        if self.path.is_dir():
            raise SourceError("source.folder", path=str(self.path))
        # FFmpeg would print its own complaints on stderr; the SourceError says it in one line.
        os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")
        self._capture = cv2.VideoCapture(str(self.path))
        if not self._capture.isOpened():
            self._capture.release()
            raise SourceError("source.video_open", path=str(self.path))
        ok, first = self._capture.read()
        if not ok or first is None:
            self._capture.release()
            raise SourceError("source.video_first", path=str(self.path))
        self._first: np.ndarray | None = first
        reported_fps = self._capture.get(cv2.CAP_PROP_FPS)
        self.fps = float(fps or (reported_fps if reported_fps and 1.0 <= reported_fps <= 240.0 else 30.0))
        count = int(self._capture.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        self.frame_count = count if count > 0 else None

    def __iter__(self) -> Iterator[Frame]:
        index = 0
        if self._first is not None:
            first, self._first = self._first, None
            yield Frame(0, 0.0, first)
            index = 1
        while True:
            ok, image = self._capture.read()
            if not ok or image is None:
                if self.frame_count is not None and index < self.frame_count - 1:
                    # The container promises more frames than the decoder gives: a cut or
                    # corrupt file. One or two missing at the very end is normal for mp4v.
                    raise SourceError("source.frame", path=str(self.path), frame=index, frames=self.frame_count)
                return
            yield Frame(index, index / self.fps, image)
            index += 1

    def close(self) -> None:
        self._capture.release()


CAMERA_SIZE = (1920, 1080)
"""The picture size a camera is asked for: a card's corner index over a whole table is
about 8 px tall at 640×480, too small to read, and about 25 px at 1920×1080."""


def parse_size(text: str) -> tuple[int, int]:
    """``WxH`` (as ``--camera-size`` takes it) as (width, height).

    >>> parse_size("1920x1080")
    (1920, 1080)
    >>> parse_size("big")
    Traceback (most recent call last):
    ...
    tuolaji.vision.sources.SourceError: --camera-size: expected WxH like 1920x1080, got 'big'
    """
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise SourceError("source.size", value=text) from None
    if not (160 <= width <= 8192 and 120 <= height <= 8192):
        raise SourceError("source.size_range", width=width, height=height)
    return width, height


class CameraSource(FrameSource):
    """A live webcam by index. Frames carry wall-clock time since the source opened."""

    live = True

    def __init__(self, index: int, *, width: int = CAMERA_SIZE[0], height: int = CAMERA_SIZE[1], fps: float | None = None) -> None:
        self.name = f"camera {index}"
        self._capture = cv2.VideoCapture(index)
        if not self._capture.isOpened():
            self._capture.release()
            raise SourceError("source.no_camera", camera=index)
        self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        ok, first = self._capture.read()
        if not ok or first is None:
            self._capture.release()
            raise SourceError("source.no_picture", camera=index)
        self._first: np.ndarray | None = first
        self.size = (int(first.shape[1]), int(first.shape[0]))  # what the camera gives, which may differ from what was asked
        reported = self._capture.get(cv2.CAP_PROP_FPS)
        self.fps = float(fps or (reported if reported and reported > 1 else 30.0))

    def __iter__(self) -> Iterator[Frame]:
        start = time.monotonic()
        index = 0
        if self._first is not None:
            first, self._first = self._first, None
            yield Frame(0, 0.0, first)
            index = 1
        failures = 0
        while True:
            ok, image = self._capture.read()
            if not ok or image is None:
                failures += 1
                if failures > 30:
                    raise SourceError("source.stopped", source=self.name)
                time.sleep(0.01)
                continue
            failures = 0
            yield Frame(index, time.monotonic() - start, image)
            index += 1

    def close(self) -> None:
        self._capture.release()


class FolderSource(FrameSource):
    """Still images in a folder, taken in name order, at a nominal ``fps``."""

    def __init__(self, folder: Path, *, fps: float | None = None) -> None:
        self.path = Path(folder)
        self.name = str(self.path)
        self.fps = float(fps or 30.0)
        self._files = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self._files:
            raise SourceError("source.no_images", path=str(self.path), suffixes=tuple(IMAGE_SUFFIXES))
        self.frame_count = len(self._files)

    def __iter__(self) -> Iterator[Frame]:
        from tuolaji.vision.inputs import read_image_bytes

        for index, path in enumerate(self._files):
            image = cv2.imdecode(read_image_bytes(path), cv2.IMREAD_COLOR)
            if image is None:
                raise SourceError("source.image", path=str(path), frame=index)
            yield Frame(index, index / self.fps, image)


def open_source(spec: str | int | Path, *, fps: float | None = None,
                camera_size: tuple[int, int] = CAMERA_SIZE) -> FrameSource:
    """Open a webcam (an int, or a string of digits), a video file or a folder of frames.

    ``fps`` overrides the rate (for folders, and videos whose header lies); a webcam is
    asked for ``camera_size`` (width, height).
    Raises :class:`SourceError` (an InputError) or FileNotFoundError with one clear line.
    """
    if isinstance(spec, int) or (isinstance(spec, str) and spec.strip().isdigit()):
        return CameraSource(int(spec), width=camera_size[0], height=camera_size[1], fps=fps)
    path = Path(spec)
    if not path.exists():
        raise FileNotFoundError(2, "no such file or folder", str(path))
    if path.is_dir():
        return FolderSource(path, fps=fps)
    return VideoFileSource(path, fps=fps)
