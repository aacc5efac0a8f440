"""Frame sources: a webcam, a phone's stream, a video file or a folder of still frames, all read the same way.

:func:`open_source` takes what a user types (``0`` for the first webcam, a phone camera app's
address such as ``http://192.168.1.5:8080/video`` or ``rtsp://…``, a path to a video, a path to a
folder of images) and returns a :class:`FrameSource` that yields :class:`Frame` objects in
order. Whatever cannot be opened raises one :class:`SourceError` naming the source and the
reason; a missing file raises :class:`FileNotFoundError`.

A stream (:class:`StreamSource`) is read by a thread of its own that keeps only the newest
picture (a reader slower than the phone never falls behind it) and, when the stream drops,
connects again until it is back: the frames pause, the source stays open.

>>> import numpy as np, tempfile, cv2, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> for i in range(3):
...     _ = cv2.imwrite(str(folder / f"{i:03d}.png"), np.full((4, 6, 3), i, np.uint8))
>>> with open_source(str(folder), fps=10) as source:
...     [(frame.index, frame.time_s, frame.image.shape) for frame in source]
[(0, 0.0, (4, 6, 3)), (1, 0.1, (4, 6, 3)), (2, 0.2, (4, 6, 3))]
"""

from __future__ import annotations

import base64
import collections
import http.client
import os
import re
import socket
import ssl
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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

    def interrupt(self) -> None:
        """Make an iteration waiting for a picture end now; safe from any thread. Only a stream
        waits long (while it reconnects); the other sources give their next frame at once."""

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


VIDEO4LINUX = Path("/sys/class/video4linux")
"""Where Linux lists its video devices (each ``videoN`` with its ``index``: 0 for a device's
picture node, 1 and up for its metadata nodes)."""


def cameras_found(probe_up_to: int = 4, video4linux: Path | None = None) -> list[int]:
    """The camera numbers this machine has (what ``open_source(n)`` opens). On Linux the devices
    the kernel lists, each camera once (its picture node, not its metadata node), without opening
    any (a camera in use stays listed); elsewhere the numbers up to ``probe_up_to`` that open.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     for name, index in (("video0", "0"), ("video1", "1"), ("video2", "0")):
    ...         (Path(folder) / name).mkdir(); _ = (Path(folder) / name / "index").write_text(index)
    ...     cameras_found(video4linux=Path(folder))
    [0, 2]
    """
    folder = VIDEO4LINUX if video4linux is None else video4linux
    found: list[int] = []
    if folder.is_dir():
        for device in folder.glob("video*"):
            digits = device.name[len("video"):]
            index = device / "index"
            try:
                picture = not index.exists() or index.read_text().strip() == "0"
            except OSError:
                continue
            if digits.isdigit() and picture:
                found.append(int(digits))
        return sorted(found)
    for number in range(probe_up_to):
        capture = cv2.VideoCapture(number)
        try:
            if capture.isOpened():
                found.append(number)
        finally:
            capture.release()
    return found


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


# --- a phone's stream ------------------------------------------------------------------------------

STREAM_SCHEMES = ("http", "https", "rtsp", "rtsps")
"""The addresses :class:`StreamSource` opens: HTTP MJPEG (Android IP Webcam, DroidCam), a JPEG
snapshot polled over HTTP, RTSP and any other stream OpenCV's FFmpeg can open."""

RECONNECT_S = (0.1, 0.25, 0.5)
"""The waits between reconnection attempts when a stream drops; the last repeats until it is back."""

_MAX_PART = 32 * 1024 * 1024
_MAX_LINE = 8192
_OPEN_LOCK = threading.Lock()


def is_stream_url(spec: object) -> bool:
    """Whether ``spec`` is a stream's address (``http://``, ``https://``, ``rtsp://``, ``rtsps://``).

    >>> is_stream_url("http://192.168.1.5:8080/video"), is_stream_url("RTSP://phone/h264.sdp"), is_stream_url("0")
    (True, True, False)
    """
    if not isinstance(spec, str):
        return False
    scheme, _, rest = spec.strip().partition("://")
    return bool(rest) and scheme.lower() in STREAM_SCHEMES


PHONE_APP_PATH = "/video"
"""Where the phone camera apps (IP Webcam, DroidCam) serve their MJPEG stream."""

_HOST_AND_PORT = re.compile(r"^[A-Za-z0-9.-]+:\d{1,5}(/\S*)?$")


def completed_address(typed: str) -> str:
    """A phone's address as people type it, made a stream's address: ``192.168.1.5:8080`` (as
    the phone app shows it) becomes ``http://192.168.1.5:8080/video``; an address with a scheme
    is left as it is.

    >>> completed_address("192.168.1.5:8080"), completed_address("phone.local:4747/mjpegfeed")
    ('http://192.168.1.5:8080/video', 'http://phone.local:4747/mjpegfeed')
    >>> completed_address("rtsp://192.168.1.5:8554/live"), completed_address("0")
    ('rtsp://192.168.1.5:8554/live', '0')
    """
    text = typed.strip()
    match = _HOST_AND_PORT.match(text)
    if "://" in text or match is None:
        return typed
    return f"http://{text}" if match.group(1) else f"http://{text}{PHONE_APP_PATH}"


def stream_name(url: str) -> str:
    """The address as shown to people: its password (``http://user:pass@…``) hidden.

    >>> stream_name("http://me:secret@192.168.1.5:8080/video")
    'http://me:***@192.168.1.5:8080/video'
    >>> stream_name("http://me:secret@[::1/video")
    'http://me:***@[::1/video'
    """
    url = url.strip()
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:  # malformed (a bracket unclosed): whatever stands between a user and an "@" is hidden
        return re.sub(r"(://[^/@:]*:)[^@]*@", r"\1***@", url)
    if parts.password is None:
        return url
    user, _, host = parts.netloc.rpartition("@")
    return urllib.parse.urlunsplit((parts.scheme, f"{user.partition(':')[0]}:***@{host}", parts.path, parts.query,
                                    parts.fragment))


OPEN_TIMEOUT_S = 10.0
"""A stream's first connection and first whole picture, in all (what opening it may take at most)."""

PICTURE_TIMEOUT_S = 5.0
"""Each later picture of a stream, whole: a stream slower than that (one that trickles) is cut and
connected again."""


class StreamDropped(Exception):
    """The stream stopped mid-way (closed, timed out, garbled): the source connects again."""


def _problem(exc: BaseException) -> str:
    """An OS or HTTP error in a few words (``connection refused``, ``timed out``)."""
    if isinstance(exc, TimeoutError | socket.timeout):
        return "timed out"
    if isinstance(exc, socket.gaierror):
        return "unknown host"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    return str(exc) or type(exc).__name__


class _Connection:
    """One connection to a stream: :meth:`next_picture` gives the next JPEG (bytes) or picture
    (BGR pixels), or raises :class:`StreamDropped` (or an OSError) when the stream stops."""

    def next_picture(self) -> bytes | np.ndarray:
        raise NotImplementedError

    def close(self) -> None:
        """Let the connection go."""


class _HttpConnection(_Connection):
    """MJPEG over HTTP (``multipart/x-mixed-replace``), or a JPEG snapshot asked for again for each picture."""

    def __init__(self, url: str, name: str, timeout_s: float, every_s: float = 0.0,
                 opened: list[_Connection] | None = None) -> None:
        self.connection: http.client.HTTPConnection | None = None
        self.sock: socket.socket | None = None
        if opened is not None:
            opened.append(self)  # the caller's deadline may close it while it is still being made
        self.url = url
        self.name = name
        self.timeout_s = timeout_s
        self.every_s = every_s  # a snapshot address is asked at most this often
        self.asked = 0.0
        parts = urllib.parse.urlsplit(url)
        self.path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        self.headers = {"User-Agent": "tuolaji", "Accept": "multipart/x-mixed-replace, image/jpeg, */*",
                        "Connection": "close"}
        if parts.username is not None:
            credentials = f"{urllib.parse.unquote(parts.username)}:{urllib.parse.unquote(parts.password or '')}"
            self.headers["Authorization"] = "Basic " + base64.b64encode(credentials.encode()).decode("ascii")
        self.https = parts.scheme.lower() == "https"
        self.host = parts.hostname or ""
        self.port = parts.port
        self.boundary = b""
        self.snapshot = False
        self.at_part = False
        self.used = False
        self.response = self._request()

    def _request(self) -> http.client.HTTPResponse:
        """GET the address; a refusal, an HTTP error or a page that is no stream raises SourceError."""
        connection: http.client.HTTPConnection
        if self.https:
            connection = http.client.HTTPSConnection(self.host, self.port, timeout=self.timeout_s,
                                                     context=ssl.create_default_context())
        else:
            connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout_s)
        self.connection = connection
        try:
            connection.request("GET", self.path, headers=self.headers)
            # kept: the connection lets its socket go once a response that closes it (HTTP/1.0) has begun
            self.sock = connection.sock
            response = connection.getresponse()
        except (OSError, http.client.HTTPException) as exc:
            connection.close()
            raise SourceError("source.stream_unreachable", url=self.name, problem=_problem(exc)) from None
        if response.status != 200:
            connection.close()
            raise SourceError("source.stream_http", url=self.name, status=response.status,
                              reason=(response.reason or "")[:80])
        content_type = (response.getheader("Content-Type") or "").strip()
        kind, _, params = content_type.partition(";")
        kind = kind.strip().lower()
        if kind.startswith("multipart/"):
            for param in params.split(";"):
                key, _, value = param.strip().partition("=")
                if key.strip().lower() == "boundary":
                    self.boundary = value.strip().strip('"').encode("latin-1")
            self.snapshot = False
        elif kind in ("image/jpeg", "image/jpg"):
            self.snapshot = True
        else:
            connection.close()
            raise SourceError("source.stream_not_video", url=self.name, content_type=kind or "nothing")
        return response

    def next_picture(self) -> bytes:
        try:
            if self.snapshot:
                return self._next_snapshot()
            return self._next_part()
        except (http.client.HTTPException, ValueError) as exc:
            raise StreamDropped(str(exc) or type(exc).__name__) from None

    def _next_snapshot(self) -> bytes:
        if self.used:  # a snapshot address gives one picture an answer: ask again
            wait = self.asked + self.every_s - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            self.asked = time.monotonic()
            assert self.connection is not None  # made by the first request
            self.connection.close()
            self.response = self._request()
            if not self.snapshot:
                raise StreamDropped("the snapshot address now sends a stream")
        self.used = True
        data = self.response.read(_MAX_PART + 1)
        if not data or len(data) > _MAX_PART:
            raise StreamDropped("an empty or oversized picture")
        return data

    def _is_boundary(self, line: bytes) -> bool:
        text = line.strip()
        if not text.startswith(b"--"):
            return False
        # the declared boundary, with or without its leading dashes (servers differ), or the closing one
        bare = text.rstrip(b"-").lstrip(b"-")
        return not self.boundary or bare == self.boundary.lstrip(b"-")

    def _readline(self) -> bytes:
        line = self.response.readline(_MAX_LINE)
        if not line:
            raise StreamDropped("the stream ended")
        return line

    def _next_part(self) -> bytes:
        if self.at_part:  # the last picture ended at this part's boundary line
            self.at_part = False
        else:
            line = self._readline()
            while not self._is_boundary(line):  # the blank line after a part, or a preamble
                line = self._readline()
        length = None
        while True:  # the part's headers
            line = self._readline()
            if not line.strip():
                break
            key, _, value = line.decode("latin-1").partition(":")
            if key.strip().lower() == "content-length":
                length = int(value.strip())
                if not 0 < length <= _MAX_PART:
                    raise StreamDropped(f"a part of {length} bytes")
        if length is not None:
            data = self.response.read(length)
            if len(data) < length:
                raise StreamDropped("the stream ended mid-picture")
            return data
        # no length: the picture runs to the next boundary line, which starts the next part
        chunks: list[bytes] = []
        size = 0
        while True:
            line = self.response.readline(65536)
            if not line:
                raise StreamDropped("the stream ended")
            if line.endswith(b"\n") and line.startswith(b"--") and self._is_boundary(line):
                self.at_part = True
                break
            chunks.append(line)
            size += len(line)
            if size > _MAX_PART:
                raise StreamDropped("a picture too large")
        data = b"".join(chunks)
        return data[:-2] if data.endswith(b"\r\n") else data

    def close(self) -> None:
        """Safe from another thread: a read under way there ends at once with an error."""
        if self.connection is None:
            return
        sock = self.connection.sock or self.sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self.connection.close()


class _CaptureConnection(_Connection):
    """RTSP, or another stream OpenCV's FFmpeg opens (an H.264 or MPEG-TS stream over HTTP)."""

    def __init__(self, url: str, name: str, timeout_s: float) -> None:
        timeout_ms = int(timeout_s * 1000)
        with _OPEN_LOCK:  # FFmpeg's options are read from the environment when a capture opens
            saved = os.environ.get("OPENCV_FFMPEG_CAPTURE_OPTIONS")
            if url.lower().startswith("rtsp"):
                # TCP: a picture lost on Wi-Fi is not half a picture; no buffering: the newest picture
                os.environ["OPENCV_FFMPEG_CAPTURE_OPTIONS"] = "rtsp_transport;tcp|fflags;nobuffer|flags;low_delay"
            os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")
            try:
                self.capture = cv2.VideoCapture(url, cv2.CAP_FFMPEG, [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, timeout_ms,
                                                                     cv2.CAP_PROP_READ_TIMEOUT_MSEC, timeout_ms])
            finally:
                if saved is None:
                    os.environ.pop("OPENCV_FFMPEG_CAPTURE_OPTIONS", None)
                else:
                    os.environ["OPENCV_FFMPEG_CAPTURE_OPTIONS"] = saved
        if not self.capture.isOpened():
            self.capture.release()
            raise SourceError("source.stream_open", url=name)
        self.capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)

    def next_picture(self) -> np.ndarray:
        ok, image = self.capture.read()
        if not ok or image is None:
            raise StreamDropped("no picture")
        return image

    def close(self) -> None:
        self.capture.release()


def _connect(url: str, name: str, timeout_s: float, every_s: float,
             opened: list[_Connection] | None = None) -> _Connection:
    if urllib.parse.urlsplit(url).scheme.lower() in ("http", "https"):
        try:
            return _HttpConnection(url, name, timeout_s, every_s, opened)
        except SourceError as exc:
            if exc.key != "source.stream_not_video" or exc.params.get("content_type", "").startswith("text/"):
                raise
        # a video stream that is not MJPEG (video/mp4, video/mp2t, ...): FFmpeg decodes it
    return _CaptureConnection(url, name, timeout_s)


@dataclass(frozen=True)
class StreamStatus:
    """How a stream is doing, for the page: connected or reconnecting, and how fresh its pictures are."""

    url: str
    connected: bool
    reconnects: int
    received: int  # pictures that came
    dropped: int  # pictures replaced by a newer one before anybody read them (stale)
    lag_ms: float | None  # the median wait of the last pictures read, from arrival to hand-over
    problem: str | None  # why it is reconnecting

    def to_json(self) -> dict[str, Any]:
        return {"url": self.url, "connected": self.connected, "reconnects": self.reconnects,
                "received": self.received, "dropped": self.dropped,
                "lag_ms": None if self.lag_ms is None else round(self.lag_ms, 1), "problem": self.problem}


class StreamSource(FrameSource):
    """A phone camera app's stream (or any camera on the network) by its address.

    The first connection and the first picture are made in the caller's thread, so an
    unreachable address fails at once with one :class:`SourceError`. Then a thread of its own
    reads the stream and keeps only its newest picture: a JPEG is decoded only when it is
    handed over, and one not yet read when a newer one comes is dropped (stale), so a slow
    reader gets the picture of now, never a queue of old ones. When the stream drops (the
    phone's Wi-Fi, the app in the background) the thread connects again, waiting
    :data:`RECONNECT_S` between attempts, until it is back or the source is closed; meanwhile
    iteration waits (the source stays open). Frames carry the time of their arrival since
    the source opened (``clock``).
    """

    live = True

    def __init__(self, url: str, *, fps: float | None = None, open_timeout_s: float = OPEN_TIMEOUT_S,
                 read_timeout_s: float = 3.0, picture_timeout_s: float = PICTURE_TIMEOUT_S,
                 clock: Callable[[], float] = time.monotonic,
                 reconnect_s: tuple[float, ...] = RECONNECT_S) -> None:
        url = url.strip()
        try:
            parts = urllib.parse.urlsplit(url)
            valid = is_stream_url(url) and bool(parts.hostname) and (parts.port is None or parts.port > 0)
        except ValueError:  # a port that is no number, a bracket unclosed
            valid = False
        if not valid:
            raise SourceError("source.stream_url", url=stream_name(url)[:200])
        self.url = url
        self.name = stream_name(url)
        self.fps = float(fps or 30.0)
        self.read_timeout_s = read_timeout_s
        self.picture_timeout_s = picture_timeout_s
        self.reconnect_s = reconnect_s
        self.clock = clock
        self._closed = threading.Event()
        self._cond = threading.Condition()
        self._sequence = 0
        self._newest: tuple[float, bytes | np.ndarray] | None = None
        self._waits: collections.deque[float] = collections.deque(maxlen=120)
        self.connected = False
        self.reconnects = 0
        self.received = 0
        self.dropped = 0
        self.problem: str | None = None
        self._start = clock()
        self._reading_since: float | None = None  # when the reading thread began waiting for its picture
        self._connection: _Connection | None = None
        self._opening: list[_Connection] = []  # a connection being made again (the watchdog may cut it)
        connection = self._open_first(open_timeout_s)
        self.connected = True
        self._connection = connection
        self._thread = threading.Thread(target=self._grab, name="tuolaji-stream", daemon=True)
        self._thread.start()
        self._watchdog = threading.Thread(target=self._watch, name="tuolaji-stream-watch", daemon=True)
        self._watchdog.start()

    def _open_first(self, timeout_s: float) -> _Connection:
        """The first connection and its first whole picture within ``timeout_s`` in all (a stream that
        trickles, its headers or its picture a byte at a time, is cut at the deadline)."""
        opened: list[_Connection] = []
        late = threading.Event()

        def give_up() -> None:
            late.set()
            for connection in opened:
                connection.close()

        timer = threading.Timer(timeout_s, give_up)
        timer.daemon = True
        timer.start()
        connection: _Connection | None = None
        try:
            connection = _connect(self.url, self.name, min(timeout_s, max(self.read_timeout_s, 1.0)),
                                  1.0 / self.fps, opened)
            self._store(self._first_picture(connection, timeout_s))
            return connection
        except SourceError:
            if connection is not None:
                connection.close()
            if late.is_set():
                raise SourceError("source.stream_no_picture", url=self.name,
                                  problem=f"timed out: no whole picture in {timeout_s:g} s") from None
            raise
        except BaseException:
            if connection is not None:
                connection.close()
            raise
        finally:
            timer.cancel()

    def _watch(self) -> None:
        """Cuts a connection whose next picture is not whole within :attr:`picture_timeout_s` (a
        stream that trickles): the reading thread then connects again."""
        while not self._closed.wait(min(0.25, self.picture_timeout_s / 4)):
            since = self._reading_since
            if since is not None and time.monotonic() - since > self.picture_timeout_s:
                self._reading_since = None
                for connection in (self._connection, *self._opening):
                    if isinstance(connection, _HttpConnection):  # OpenCV's capture has FFmpeg's own timeouts
                        self.problem = f"timed out: no whole picture in {self.picture_timeout_s:g} s"
                        connection.close()

    def _first_picture(self, connection: _Connection, timeout_s: float) -> bytes | np.ndarray:
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                picture = connection.next_picture()
            except (StreamDropped, OSError) as exc:
                raise SourceError("source.stream_no_picture", url=self.name, problem=_problem(exc)) from None
            if isinstance(picture, np.ndarray) or _decode(picture) is not None:
                return picture
            if time.monotonic() > deadline:
                raise SourceError("source.stream_no_picture", url=self.name, problem="pictures not JPEG")

    def _store(self, picture: bytes | np.ndarray) -> None:
        with self._cond:
            if self._newest is not None:
                self.dropped += 1
            self._newest = (self.clock(), picture)
            self._sequence += 1
            self.received += 1
            self._cond.notify_all()

    def _grab(self) -> None:
        """The reading thread: the newest picture kept, the stream reconnected when it drops."""
        connection = self._connection
        while connection is not None and not self._closed.is_set():
            try:
                self._reading_since = time.monotonic()
                picture = connection.next_picture()
            except (StreamDropped, OSError, SourceError) as exc:
                cut = self._reading_since is None  # the watchdog cut it: its problem says why
                self._reading_since = None
                connection.close()
                self.connected = False
                if not cut:
                    self.problem = _problem(exc)
                connection = self._reconnect()
                continue
            self._reading_since = None
            self._store(picture)
        if connection is not None:
            connection.close()

    def _reconnect(self) -> _Connection | None:
        attempt = 0
        while not self._closed.wait(self.reconnect_s[min(attempt, len(self.reconnect_s) - 1)]):
            attempt += 1
            self._opening = []
            self._reading_since = time.monotonic()  # its headers and first picture are due as any picture
            try:
                connection = _connect(self.url, self.name, self.read_timeout_s, 1.0 / self.fps, self._opening)
            except (SourceError, OSError) as exc:
                self.problem = exc.params.get("problem", str(exc)) if isinstance(exc, SourceError) else _problem(exc)
                continue
            self._connection = connection
            self.connected = True
            self.problem = None
            self.reconnects += 1
            return connection
        return None

    def __iter__(self) -> Iterator[Frame]:
        seen = 0
        index = 0
        while True:
            with self._cond:
                while self._sequence == seen or self._newest is None:
                    if self._closed.is_set():
                        return
                    self._cond.wait(0.25)
                if self._closed.is_set():
                    return
                seen = self._sequence
                arrived, picture = self._newest
                self._newest = None
            image = picture if isinstance(picture, np.ndarray) else _decode(picture)
            if image is None:  # a garbled picture: wait for the next
                continue
            self._waits.append(self.clock() - arrived)
            yield Frame(index, arrived - self._start, image)
            index += 1

    def status(self) -> StreamStatus:
        waits = sorted(self._waits)
        return StreamStatus(self.name, self.connected, self.reconnects, self.received, self.dropped,
                            waits[len(waits) // 2] * 1000.0 if waits else None, self.problem)

    def interrupt(self) -> None:
        self._closed.set()
        with self._cond:
            self._cond.notify_all()

    def close(self) -> None:
        self.interrupt()
        connection = self._connection
        if isinstance(connection, _HttpConnection):
            connection.close()  # a read under way in the thread ends with an error (OpenCV's capture is
            # the thread's alone to release: its read ends within the read timeout)
        if self._thread is not threading.current_thread():
            self._thread.join(self.read_timeout_s + 1.0)


def _decode(data: bytes) -> np.ndarray | None:
    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) if data else None


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
    """Open a webcam (an int, or a string of digits), a stream (``http://``, ``https://``,
    ``rtsp://``: a phone's camera app; ``192.168.1.5:8080`` as the app shows it:
    :func:`completed_address`), a video file or a folder of frames.

    ``fps`` overrides the rate (for folders, and videos whose header lies); a webcam is
    asked for ``camera_size`` (width, height); a stream's size is the phone app's.
    Raises :class:`SourceError` (an InputError) or FileNotFoundError with one clear line.
    """
    if isinstance(spec, int) or (isinstance(spec, str) and spec.strip().isdigit()):
        return CameraSource(int(spec), width=camera_size[0], height=camera_size[1], fps=fps)
    if isinstance(spec, str) and not Path(spec).exists():
        spec = completed_address(spec)  # 192.168.1.5:8080, as the phone app shows it
    if isinstance(spec, str) and "://" in spec:
        if not is_stream_url(spec):
            raise SourceError("source.stream_url", url=stream_name(spec)[:200])
        return StreamSource(spec, fps=fps)
    path = Path(spec)
    if not path.exists():
        raise FileNotFoundError(2, "no such file or folder", str(path))
    if path.is_dir():
        return FolderSource(path, fps=fps)
    return VideoFileSource(path, fps=fps)
