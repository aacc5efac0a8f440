"""A phone's camera app, as far as the stream goes: a local MJPEG server a test starts.

:class:`MjpegServer` serves a list of JPEG pictures on a clock, as a phone films a table: at
``fps`` pictures a second from the moment it starts, the last one held once they have all been
shown (the table still there). Like Android IP Webcam it answers

- ``/video``: ``multipart/x-mixed-replace`` (MJPEG), each part with its Content-Length;
- ``/video-nolength``: the same without Content-Length (pictures end at the next boundary);
- ``/shot.jpg``: the picture of now, one per request;
- ``/clip``: an AVI file (``clip``), a stream that is not MJPEG, which OpenCV's FFmpeg reads;
- ``/``: an HTML page (not a stream); anything else: 404.

:meth:`MjpegServer.drop` makes the stream drop for a while as a phone's Wi-Fi does: the table
goes on (the clock runs) but nothing is sent (``stall``: the connection stays open and silent,
new ones get no answer until it is back) or every connection is cut (``close``). ``sent_at``
keeps when each picture was first sent, to measure how late the reader gets it.
"""

from __future__ import annotations

import hashlib
import http.server
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

BOUNDARY = "tuolajiframe"


def encode_video(path: Path, *, first: int = 0, last: int | None = None, quality: int = 90) -> list[bytes]:
    """Frames ``first`` .. ``last`` (inclusive) of a video as JPEG files' bytes."""
    capture = cv2.VideoCapture(str(path))
    pictures: list[bytes] = []
    index = 0
    try:
        while last is None or index <= last:
            ok, image = capture.read()
            if not ok:
                break
            if index >= first:
                ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
                assert ok
                pictures.append(data.tobytes())
            index += 1
    finally:
        capture.release()
    return pictures


def digest(image: np.ndarray) -> bytes:
    """A decoded picture's fingerprint: the same JPEG decodes to the same pixels, so a picture read
    from the stream is known by the one the server sent."""
    return hashlib.blake2b(np.ascontiguousarray(image).tobytes(), digest_size=16).digest()


def index_of_pictures(pictures: Sequence[bytes], offset: int = 0) -> dict[bytes, list[int]]:
    """Each picture's fingerprint to its indices (plus ``offset``: its frames in the video; a still
    table films the same picture several frames running)."""
    index: dict[bytes, list[int]] = {}
    for i, data in enumerate(pictures):
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        index.setdefault(digest(image), []).append(i + offset)
    return index


class MjpegServer:
    """The pictures served on a clock from :meth:`start` (see the module docstring)."""

    def __init__(self, pictures: Sequence[bytes], *, fps: float = 10.0, offset: int = 0,
                 clip: Path | None = None) -> None:
        self.pictures = list(pictures)
        self.clip = clip  # an AVI file served whole at /clip (a stream that is not MJPEG)
        self.fps = fps
        self.offset = offset
        self.started = 0.0
        self.sent_at: dict[int, float] = {}  # picture (plus offset) -> when it was first sent
        self.connections = 0
        self._drop: tuple[float, float, str] | None = None
        self._stop = threading.Event()
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
                return

            def do_GET(self) -> None:  # noqa: N802 - the base class's name
                server.connections += 1
                if server.dropped_now() is not None:
                    if not server._wait_drop(self):
                        return
                if self.path.startswith("/video"):
                    server._stream(self, with_length=self.path == "/video")
                elif self.path == "/shot.jpg":
                    data = server.pictures[server.now_index()]
                    server.sent_at.setdefault(server.now_index() + server.offset, time.monotonic())
                    self.send_response(200)
                    self.send_header("Content-Type", "image/jpeg")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    try:
                        self.wfile.write(data)
                    except OSError:
                        return
                elif self.path == "/clip" and server.clip is not None:
                    body = server.clip.read_bytes()
                    self.send_response(200)
                    self.send_header("Content-Type", "video/x-msvideo")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    try:
                        self.wfile.write(body)
                    except OSError:
                        return
                elif self.path == "/":
                    body = b"<html><body>IP Webcam</body></html>"
                    self.send_response(200)
                    self.send_header("Content-Type", "text/html")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                else:
                    self.send_error(404)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self._thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/video"

    def start(self) -> MjpegServer:
        self.started = time.monotonic()
        self._thread.start()
        return self

    def now_index(self) -> int:
        """The picture of now on the clock (the last one once all have been shown)."""
        return min(int((time.monotonic() - self.started) * self.fps), len(self.pictures) - 1)

    def drop(self, seconds: float, mode: str = "stall") -> None:
        """From now, send nothing for ``seconds`` (``stall``) or cut every connection (``close``)."""
        now = time.monotonic()
        self._drop = (now, now + seconds, mode)

    def dropped_now(self) -> str | None:
        drop = self._drop
        if drop is None or not drop[0] <= time.monotonic() < drop[1]:
            return None
        return drop[2]

    def _wait_drop(self, handler: http.server.BaseHTTPRequestHandler) -> bool:
        """A request while the stream is down: cut (``close``), or no answer until it is back (``stall``)."""
        drop = self._drop
        assert drop is not None
        if drop[2] == "close":
            handler.close_connection = True
            return False
        while time.monotonic() < drop[1] and not self._stop.is_set():
            time.sleep(0.02)
        return not self._stop.is_set()

    def _stream(self, handler: http.server.BaseHTTPRequestHandler, *, with_length: bool) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", f"multipart/x-mixed-replace; boundary={BOUNDARY}")
        handler.send_header("Cache-Control", "no-cache")
        handler.end_headers()
        last = -1
        try:
            while not self._stop.is_set():
                mode = self.dropped_now()
                if mode == "close":
                    return
                if mode == "stall":
                    time.sleep(0.02)
                    continue
                tick = int((time.monotonic() - self.started) * self.fps)
                if tick == last:
                    time.sleep(min(0.01, 0.5 / self.fps))
                    continue
                index = min(tick, len(self.pictures) - 1)
                data = self.pictures[index]
                head = f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\n"
                if with_length:
                    head += f"Content-Length: {len(data)}\r\n"
                self.sent_at.setdefault(index + self.offset, time.monotonic())  # before: the reader may be quick
                handler.wfile.write(head.encode("ascii") + b"\r\n" + data + b"\r\n")
                handler.wfile.flush()
                last = tick
        except OSError:
            return

    def shown(self, frames: Sequence[int]) -> tuple[int, float]:
        """Of the frames a picture read may be (:func:`index_of_pictures`), the one sent last, and when."""
        sent = [(self.sent_at[f], f) for f in frames if f in self.sent_at]
        at, frame = max(sent)
        return frame, at

    def stop(self) -> None:
        self._stop.set()
        self.httpd.shutdown()
        self.httpd.server_close()
