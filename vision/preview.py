"""The camera set-up's live preview: the newest frame of a source, and what the pipeline sees in it.

:class:`CameraPreview` reads a :class:`~vision.sources.FrameSource` in a background
thread and keeps its newest frame (a video file stands in for a camera: it is played
at its own rate and starts again at its end). :func:`look_at` says what the table
pipeline would make of a frame: the table's corners (found, or given and kept with the
table), the seat zones' outlines, how bright the table is, and every warning (no table
found, too dark, the picture frozen).

>>> import numpy as np
>>> ys, xs = np.mgrid[0:240, 0:320]
>>> image = np.dstack([((ys // 20 + xs // 20) % 2 * 80).astype(np.uint8)] * 3)  # a dark chequer: no table
>>> view = look_at(image, players=4)
>>> view.table_found, [w for w in view.warnings]
(False, ['no-table', 'too-dark'])
>>> sorted(view.zones), len(view.corners)
([0, 1, 2, 3], 4)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from tuolaji.vision.calibration import CalibrationError, SeatZones, TableCalibration, calibrate, table_aspect
from tuolaji.vision.camera_check import DARK
from tuolaji.vision.sources import Frame, FrameSource, StreamSource, StreamStatus

FROZEN_S = 2.5
"""A picture that has not changed for this long (no new frame, or frames exactly alike) is frozen."""


@dataclass(frozen=True)
class TableView:
    """What the pipeline would see in one frame."""

    size: tuple[int, int]
    corners: list[tuple[float, float]]
    table_found: bool
    given: bool  # the corners were given (dragged on the page) rather than found
    zones: dict[int, list[list[tuple[float, float]]]]  # per seat, its outline(s) in image pixels
    brightness: float
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"size": list(self.size), "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
                "table_found": self.table_found, "given": self.given,
                "zones": {str(seat): [[[round(x, 1), round(y, 1)] for x, y in line] for line in lines]
                          for seat, lines in self.zones.items()},
                "brightness": round(self.brightness, 1), "warnings": list(self.warnings)}


def zone_outlines(calibration: TableCalibration, zones: SeatZones, grid: int = 96) -> dict[int, list[list[tuple[float, float]]]]:
    """Each seat zone's outline in image pixels: the zone is drawn on a grid in table
    coordinates, its contour taken there and mapped into the picture."""
    step = 1.0 / grid
    labels = np.full((grid, grid), -1, np.int16)
    for row in range(grid):
        for col in range(grid):
            seat = zones.seat_at((col + 0.5) * step, (row + 0.5) * step)
            labels[row, col] = -1 if seat is None else seat
    outlines: dict[int, list[list[tuple[float, float]]]] = {}
    for seat in range(zones.players):
        mask = (labels == seat).astype(np.uint8)
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        lines = []
        for contour in contours:
            points = contour.reshape(-1, 2).astype(np.float64)
            table_points = np.clip((points + 0.5) * step, 0.0, 1.0)
            image_points = calibration.to_image(table_points)
            lines.append([(float(x), float(y)) for x, y in image_points])
        outlines[seat] = lines
    return outlines


def picture_brightness(image: np.ndarray) -> float:
    """The picture's brightest paper: the 99.5th percentile of its grey levels. Under
    :data:`~vision.camera_check.DARK` nothing in it is as bright as a card's paper under enough
    light (too dark, or no card face up yet); the camera check measures the paper itself."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return float(np.percentile(grey, 99.5))


def look_at(image: np.ndarray, *, players: int = 4, corners: Sequence[Sequence[float]] | None = None,
            corners_size: tuple[int, int] | None = None, frozen: bool = False,
            found: TableCalibration | None = None, found_warning: str | None = None) -> TableView:
    """The table in ``image``: the given ``corners`` (in a picture of ``corners_size``, scaled to
    this one), else the calibration the running pipeline ``found`` (``found_warning``: it found
    no table), else the corners found here; the whole picture is the table when none is found."""
    h, w = image.shape[:2]
    size = (w, h)
    warnings = []
    given = corners is not None
    table_found = True
    if corners is None and found is not None:
        factor = size[0] / found.image_size[0]
        corners, corners_size = [(x * factor, y * factor) for x, y in found.corners], None
        if found_warning:
            table_found = False
            warnings.append("no-table")
    if corners is not None:
        factor = size[0] / corners_size[0] if corners_size else 1.0
        calibration = TableCalibration.from_corners([(x * factor, y * factor) for x, y in corners], size)
    else:
        try:
            calibration = calibrate(image)
        except CalibrationError:
            calibration = TableCalibration.full_frame(size)
            table_found = False
            warnings.append("no-table")
    seat_zones = SeatZones(players, aspect=table_aspect(calibration))
    brightness = picture_brightness(image)
    if brightness < DARK:
        warnings.append("too-dark")
    if frozen:
        warnings.append("frozen")
    return TableView(size, [(x, y) for x, y in calibration.corners], table_found, given,
                     zone_outlines(calibration, seat_zones), brightness, warnings)


class LatestFrame:
    """The newest frame of a stream, when it last changed, and whether it is frozen."""

    def __init__(self, *, name: str = "source", clock: Callable[[], float] = time.monotonic) -> None:
        self.name = name
        self.clock = clock
        self._lock = threading.Lock()
        self._frame: Frame | None = None
        self._changed = 0.0  # when the picture last changed
        self._thumb: np.ndarray | None = None
        self.error: str | None = None
        self.frames = 0
        self.live = False

    def _take(self, frame: Frame) -> None:
        small = cv2.resize(frame.image, (32, 24), interpolation=cv2.INTER_AREA).astype(np.int16)
        now = self.clock()
        with self._lock:
            if self._thumb is None or float(np.abs(small - self._thumb).mean()) > 0.0:
                self._changed = now
            self._thumb = small
            self._frame = frame
            self.frames += 1

    def latest(self) -> Frame | None:
        with self._lock:
            return self._frame

    @property
    def frozen(self) -> bool:
        """No new frame, or no change in the picture, for :data:`FROZEN_S` seconds."""
        with self._lock:
            if self._frame is None:
                return False
            return self.clock() - self._changed > FROZEN_S

    def status(self) -> dict[str, Any]:
        frame = self.latest()
        stream = self.stream()
        return {"name": self.name, "live": self.live, "frames": self.frames, "error": self.error,
                "frozen": self.frozen,
                "size": None if frame is None else [int(frame.image.shape[1]), int(frame.image.shape[0])],
                "frame": None if frame is None else {"index": frame.index, "time_s": round(frame.time_s, 3)},
                "stream": None if stream is None else stream.to_json()}

    def stream(self) -> StreamStatus | None:
        """A phone's stream: connected or reconnecting, its pictures' lag (None: not a stream)."""
        return None

    def close(self, timeout: float = 5.0) -> None:
        """Stop looking (the stream itself is not this object's to close)."""


class CameraPreview(LatestFrame):
    """The newest frame of a source, read in a background thread.

    ``opener`` opens the source (again, when a video ends: it plays in a loop);
    ``clock`` is the time frames are stamped with on arrival; ``wanted`` says whether anyone
    still looks (when not, the camera is let go and :attr:`idle` set).
    """

    def __init__(self, opener: Callable[[], FrameSource], *, name: str = "source",
                 clock: Callable[[], float] = time.monotonic, wanted: Callable[[], bool] | None = None) -> None:
        super().__init__(name=name, clock=clock)
        self.opener = opener
        self.wanted = wanted  # False: nobody looks any more, the source is let go (see ``idle``)
        self.idle = False
        self._stop = threading.Event()
        source = opener()  # a missing camera, an unreachable phone or an unreadable video fails here, in the request
        self.live = source.live
        self._source = source
        self._thread = threading.Thread(target=self._run, args=(source,), name="tuolaji-preview", daemon=True)
        self._thread.start()

    def _run(self, source: FrameSource) -> None:
        try:
            while not self._stop.is_set():
                with source:
                    started = time.monotonic()
                    for frame in source:
                        if self._stop.is_set():
                            return
                        if self.wanted is not None and not self.wanted():
                            self.idle = True
                            return
                        if not source.live:  # a video stands in for a camera: at its own rate
                            delay = started + frame.time_s - time.monotonic()
                            if delay > 0 and self._stop.wait(delay):
                                return
                        self._take(frame)
                if source.live or self._stop.is_set():
                    return
                source = self._source = self.opener()
        except Exception as exc:  # noqa: BLE001 - the page shows why the preview stopped
            self.error = f"{type(exc).__name__}: {exc}"

    def stream(self) -> StreamStatus | None:
        return self._source.status() if isinstance(self._source, StreamSource) else None

    def close(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._source.interrupt()  # a stream waiting for its phone stops waiting
        if self._thread is not threading.current_thread():
            self._thread.join(timeout)


class FrameTap(FrameSource, LatestFrame):
    """A source whose frames are also kept for the set-up page: the table pipeline reads the
    camera through it, and the page previews the very frames the pipeline reads (a camera
    cannot be opened twice).

    >>> import numpy as np
    >>> from tuolaji.vision.sources import Frame
    >>> class Two(FrameSource):
    ...     def __iter__(self):
    ...         yield from (Frame(i, i / 30, np.full((24, 32, 3), i, np.uint8)) for i in range(2))
    >>> tap = FrameTap(Two())
    >>> [frame.index for frame in tap], tap.latest().index, tap.frames
    ([0, 1], 1, 2)
    """

    def __init__(self, source: FrameSource, *, clock: Callable[[], float] = time.monotonic) -> None:
        LatestFrame.__init__(self, name=source.name, clock=clock)
        self.source = source
        self.fps = source.fps
        self.frame_count = source.frame_count
        self.live = source.live
        self.ended = False

    def __iter__(self) -> Iterator[Frame]:
        for frame in self.source:
            self._take(frame)
            yield frame
        self.ended = True

    @property
    def frozen(self) -> bool:
        return not self.ended and LatestFrame.frozen.fget(self)  # type: ignore[attr-defined]

    def stream(self) -> StreamStatus | None:
        return self.source.status() if isinstance(self.source, StreamSource) else None

    def interrupt(self) -> None:
        self.source.interrupt()

    def close(self, timeout: float = 5.0) -> None:
        self.source.close()
