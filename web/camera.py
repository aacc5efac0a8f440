"""Setting the camera up on the page (blueprint ``camera``): ``/camera`` and ``/api/camera/…``.

The page shows a live preview of a source chosen on it (a webcam and its resolution, or
a video file standing in for one), with the table's outline and the seat zones that
the pipeline finds drawn over it; the corners can be dragged to fix the table, and
the calibration is saved with the table (``DATA/table-camera.json``), so the next game
starts from it (:func:`saved_calibration`). Every warning shows there: no table found
(the whole picture is used), too dark, the picture frozen, and, once the camera check
has run (:func:`vision.camera_check.check_frame`), cards too small to read.

Sources offered: the frames the table pipeline reads (when a camera, a phone or a video feeds
the game: the outline is then the one the running pipeline found), webcams 0-3, the phone
whose address was typed last (a camera app's stream, ``http://PHONE:8080/video``; typed on the
page, kept with the table), the video ``tuolaji serve --video`` reads, the bundled demo video,
and videos or folders of frames in ``DATA/videos/``.
"""

from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import cv2
import numpy as np
from flask import Blueprint, Flask, Response, current_app, jsonify, request
from werkzeug.local import LocalProxy

from tuolaji.scorer.errors import InputError
from tuolaji.vision.calibration import CalibrationError, TableCalibration
from tuolaji.vision.camera_check import advice_codes, check_frame
from tuolaji.vision.preview import CameraPreview, FrameTap, LatestFrame, look_at
from tuolaji.vision.sources import (
    IMAGE_SUFFIXES,
    SourceError,
    cameras_found,
    completed_address,
    is_stream_url,
    open_source,
    parse_size,
    stream_name,
)

from .api import get_table
from .request_fields import BadRequestError, object_body

camera_bp = Blueprint("camera", __name__)

SETTINGS_FILE = "table-camera.json"
CAMERA_SIZES = ("640x480", "1280x720", "1920x1080", "2560x1440", "3840x2160")
CAMERAS = 4
VIDEO_SUFFIXES = (".mp4", ".avi", ".mov", ".mkv", ".webm")
URL_LENGTH = 500
"""The longest phone address the page takes."""
IDLE_S = 60.0
"""A preview nobody has looked at for this long lets its camera go (reopened when the page looks again)."""
PREVIEW_WIDTH = 960
"""Frames wider than this are sent to the page scaled down (the page draws in the frame's own pixels)."""


class NoPreviewError(InputError):
    """The page asked for a frame or a check, but no source is open (choose one first)."""

    http_status = 409  # web.errors.status_of


class NoSuchSourceError(InputError):
    """A source the page does not offer."""

    http_status = 404


@dataclass(frozen=True)
class Choice:
    id: str
    kind: str  # pipeline, camera, stream (a phone's address), video, folder
    label: str
    spec: str | int

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "label": self.label}


def data_dir() -> Path:
    return Path(current_app.config["DATA_DIR"])


def choices(app: Flask) -> list[Choice]:
    """The sources the page offers."""
    from tuolaji.vision import demo

    found = []
    tap = pipeline_tap(app)
    if tap is not None:
        found.append(Choice("pipeline", "pipeline", tap.name, tap.name))
    found += [Choice(f"camera:{n}", "camera", f"camera {n}", n) for n in found_cameras(app)]
    url = load_settings(Path(app.config["DATA_DIR"])).get("url")
    if isinstance(url, str) and is_stream_url(url):
        found.append(stream_choice(url))
    feed_video = app.config.get("FEED_VIDEO")
    if feed_video:
        found.append(Choice("feed", "video", Path(feed_video).name, str(feed_video)))
    found.append(Choice("demo", "video", Path(demo.DEMO_VIDEO).name, str(demo.DEMO_VIDEO)))
    videos = Path(app.config["DATA_DIR"]) / "videos"
    if videos.is_dir():
        for path in sorted(videos.iterdir()):
            if path.is_dir() and any(p.suffix.lower() in IMAGE_SUFFIXES for p in path.iterdir()):
                found.append(Choice(f"video:{path.name}", "folder", path.name, str(path)))
            elif path.suffix.lower() in VIDEO_SUFFIXES:
                found.append(Choice(f"video:{path.name}", "video", path.name, str(path)))
    return found


CAMERA_LIST_S = 10.0
"""How long the list of the machine's cameras is kept before it is looked at again (a camera
plugged in shows up on the page after this long)."""


def found_cameras(app: Flask) -> list[int]:
    """The cameras this machine has (:func:`vision.sources.cameras_found`, looked at again every
    :data:`CAMERA_LIST_S`), with the one the page has open (it stays listed while in use)."""
    cache: dict[str, Any] = app.extensions.setdefault("tuolaji.cameras", {})
    now = time.monotonic()
    if cache.get("at") is None or now - float(cache["at"]) > CAMERA_LIST_S:
        cache["numbers"], cache["at"] = cameras_found(CAMERAS), now
    numbers = set(cache["numbers"])
    desk = app.extensions.get("tuolaji.camera")
    choice = desk.choice if isinstance(desk, CameraDesk) else None
    if choice is not None and choice.kind == "camera" and isinstance(choice.spec, int):
        numbers.add(choice.spec)
    return sorted(numbers)


def stream_choice(url: str) -> Choice:
    """A phone's stream typed on the page (its password never shown)."""
    return Choice("url", "stream", stream_name(url), url)


def typed_stream(app: Flask, typed: object) -> Choice:
    """The phone address typed on the page: a stream's address; the saved one when the page sends
    back the address it was shown (its password hidden)."""
    if not isinstance(typed, str) or not typed.strip() or len(typed) > URL_LENGTH:
        raise BadRequestError("camera.url")
    typed = completed_address(typed.strip())  # 192.168.1.5:8080, as the phone app shows it
    saved = load_settings(Path(app.config["DATA_DIR"])).get("url")
    if isinstance(saved, str) and typed == stream_name(saved):
        typed = saved
    if not is_stream_url(typed):
        raise SourceError("source.stream_url", url=stream_name(typed)[:200])
    return stream_choice(typed)


def pipeline_tap(app: Flask) -> FrameTap | None:
    """The frames the table pipeline reads, when a camera or a video feeds the game."""
    feed = app.extensions["tuolaji.table"].feed
    source = getattr(feed, "frame_source", None)
    return source if isinstance(source, FrameTap) else None


class PipelineView(LatestFrame):
    """The set-up page's look at the frames the pipeline reads (closing it leaves the pipeline reading)."""

    def __init__(self, tap: FrameTap) -> None:
        super().__init__(name=tap.name)
        self.tap = tap
        self.live = tap.live

    def latest(self) -> Any:
        return self.tap.latest()

    @property
    def frozen(self) -> bool:
        return self.tap.frozen

    def status(self) -> dict[str, Any]:
        return self.tap.status() | {"pipeline": True}


def find_choice(app: Flask, choice_id: object) -> Choice:
    if not isinstance(choice_id, str):
        raise BadRequestError("camera.source_type")
    for choice in choices(app):
        if choice.id == choice_id:
            return choice
    raise NoSuchSourceError("camera.no_source", source=choice_id[:60])


# --- the table's camera settings ---------------------------------------------------------------


def load_settings(folder: Path) -> dict[str, Any]:
    """What is kept with the table: the source, its resolution and the calibration ({} when nothing yet)."""
    path = Path(folder) / SETTINGS_FILE
    try:
        if path.stat().st_mode & 0o077:  # kept by an earlier version, readable by all
            path.chmod(0o600)
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save_settings(folder: Path, settings: dict[str, Any]) -> None:
    """Keep the settings, readable by their owner alone (a phone camera's address may hold its password)."""
    path = Path(folder) / SETTINGS_FILE
    temporary = path.with_suffix(".tmp")
    temporary.unlink(missing_ok=True)
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(json.dumps(settings, ensure_ascii=False, indent=1) + "\n")
    temporary.replace(path)


def saved_calibration(folder: Path) -> TableCalibration | None:
    """The calibration saved on the page, for the next game's pipeline (None: find the table)."""
    data = load_settings(folder).get("calibration")
    if not isinstance(data, dict):
        return None
    try:
        return TableCalibration.from_json(data)
    except CalibrationError:
        return None


# --- the preview ----------------------------------------------------------------------------------


class CameraDesk:
    """The page's preview and the last camera check (one per application)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.preview: LatestFrame | None = None
        self.choice: Choice | None = None
        self.size: str = "1920x1080"
        self.check: dict[str, Any] | None = None
        self.reader: Any = None
        self.beside_reader: Any = None  # the reader of decks printing their suits beside their ranks (the check's)
        self.touched = time.monotonic()

    def touch(self) -> None:
        """The page looked: keep the preview going (reopened if it was let go while nobody looked)."""
        self.touched = time.monotonic()
        preview = self.preview
        if isinstance(preview, CameraPreview) and preview.idle and self.choice is not None:
            self.open(self.choice, self.size, keep_check=True)

    def wanted(self) -> bool:
        return time.monotonic() - self.touched < IDLE_S

    def open(self, choice: Choice, size: str, tap: FrameTap | None = None, *, keep_check: bool = False) -> None:
        camera_size = parse_size(size)
        spec = choice.spec

        def opener() -> Any:
            return open_source(spec, camera_size=camera_size)

        with self.lock:
            if self.preview is not None:
                self.preview.close()
                self.preview = None
            self.touched = time.monotonic()
            self.preview = PipelineView(tap) if tap is not None else CameraPreview(opener, name=choice.label,
                                                                                  wanted=self.wanted)
            if not keep_check:
                self.check = None
            self.choice = choice
            self.size = size

    def close(self) -> None:
        with self.lock:
            if self.preview is not None:
                self.preview.close()
            self.preview = None
            self.choice = None


def get_desk(app: Flask) -> CameraDesk:
    desk = app.extensions.get("tuolaji.camera")
    if desk is None:
        desk = app.extensions.setdefault("tuolaji.camera", CameraDesk())
    return cast(CameraDesk, desk)  # Flask's extensions hold untyped values


def _players() -> int:
    table = get_table()
    return len(table.game.snapshot()["players"]) if table.has_game else 4


def _calibration_for(settings: dict[str, Any]) -> tuple[list[list[float]] | None, tuple[int, int] | None]:
    calibration = settings.get("calibration")
    if isinstance(calibration, dict):
        try:
            saved = TableCalibration.from_json(calibration)
        except CalibrationError:
            return None, None
        return [list(c) for c in saved.corners], saved.image_size
    return None, None


def latest_image(desk: CameraDesk) -> tuple[Any, np.ndarray]:
    """The newest frame of the desk's open source and its picture; refused when there is none."""
    preview = desk.preview
    if preview is None:
        raise NoPreviewError("camera.not_open")
    frame = preview.latest()
    if frame is None:
        raise NoPreviewError("camera.no_picture_error" if preview.error else "camera.no_picture", source=preview.name,
                             problem=preview.error)
    return frame, frame.image


def camera_state(app: Flask) -> dict[str, Any]:
    """Everything the set-up page draws."""
    desk = get_desk(app)
    desk.touch()
    settings = load_settings(Path(app.config["DATA_DIR"]))
    preview = desk.preview
    offered = choices(app)
    state: dict[str, Any] = {
        "choices": [c.to_json() for c in offered],
        "cameras": sum(1 for c in offered if c.kind == "camera"),
        "sizes": list(CAMERA_SIZES),
        "source": desk.choice.id if desk.choice is not None else settings.get("source"),
        "url": stream_name(settings["url"]) if isinstance(settings.get("url"), str) else None,
        "size": desk.size if desk.choice is not None else settings.get("size", "1920x1080"),
        "preview": preview.status() if preview is not None else None,
        "saved": {"calibration": settings.get("calibration")},
        "view": None,
        "check": desk.check,
        "warnings": [],
    }
    if preview is not None and (frame := preview.latest()) is not None:
        corners, corners_size = _calibration_for(settings)
        pipeline = getattr(app.extensions["tuolaji.table"].feed, "pipeline", None) \
            if isinstance(preview, PipelineView) else None
        view = look_at(frame.image, players=_players(), corners=corners, corners_size=corners_size,
                       frozen=preview.frozen, found=getattr(pipeline, "calibration", None),
                       found_warning=getattr(pipeline, "calibration_warning", None))
        state["view"] = view.to_json()
        warnings = list(view.warnings)
        if desk.check is not None:
            if desk.check["verdict"] in ("too-small", "marginal", "unreadable"):
                warnings.append("too-small")
            # the check measured the cards' paper: it decides whether the picture is dark
            dark = any(code == "dark" for code, _ in desk.check["advice_codes"])
            if dark and "too-dark" not in warnings:
                warnings.append("too-dark")
            elif not dark and "too-dark" in warnings:
                warnings.remove("too-dark")
        state["warnings"] = warnings
    elif preview is not None and preview.error:
        state["warnings"] = ["no-picture"]
    stream = state["preview"]["stream"] if preview is not None else None
    if stream is not None and not stream["connected"]:
        state["warnings"].insert(0, "stream-down")
    return state


class AtFrame:
    """A ground-truth reader (:class:`vision.oracle.OracleReader`) read at one frame, giving each
    card's corner indices with their boxes, as the trained reader gives them."""

    def __init__(self, oracle: Any, index: int) -> None:
        self.oracle = oracle
        self.index = index

    def read(self, image: np.ndarray) -> list[Any]:
        return [SimpleNamespace(card=c.card, box=c.box, confidence=c.confidence,
                                indices=[SimpleNamespace(box=box) for box in c.indices])
                for c in self.oracle.read_index(self.index)]


def _beside_reader(desk: CameraDesk, reader: Any) -> Any:
    """The reader of decks printing their suits beside their ranks, to compare with the trained ``reader``
    (loaded once; None where the models have none, or where ``reader`` is it already)."""
    if desk.beside_reader is None:
        from tuolaji.vision.detector import TABLE, load_layout_reader

        desk.beside_reader = load_layout_reader(None, "horizontal", overrides=TABLE)
    beside = desk.beside_reader
    return None if beside is None or beside.folder == getattr(reader, "folder", None) else beside


def _reader_for(desk: CameraDesk, choice: Choice, frame: Any) -> tuple[Any, str]:
    """The reader the check reads with: the pipeline's own reader for its frames; a rendered
    video's ground truth where it has one (``NAME.frames.json`` beside it: a video standing in
    for a camera); else the trained reader."""
    if choice.kind == "pipeline":
        reader = current_app.extensions["tuolaji.table"].feed.pipeline.reader
        if hasattr(reader, "read_index"):
            return AtFrame(reader, frame.index), "truth"
        return reader, "model"
    if choice.kind == "video":
        truth = Path(str(choice.spec)).with_name(Path(str(choice.spec)).stem + ".frames.json")
        if truth.exists():
            from tuolaji.vision.oracle import OracleReader

            return AtFrame(OracleReader.from_file(truth), frame.index), "truth"
    if desk.reader is None:
        from tuolaji.vision.decks import chosen_deck
        from tuolaji.vision.detector import TABLE, CardReader

        deck = current_app.config.get("CARD_DECK")
        layout = current_app.config.get("CARD_INDEX_LAYOUT")
        desk.reader = CardReader.load(deck=chosen_deck(deck, data_dir()) if deck else None, **TABLE,
                                      **({"index_layout": layout} if layout else {}))
    return desk.reader, "model"


# --- routes ------------------------------------------------------------------------------------------


def camera_token_only() -> Response | None:
    """The camera's picture (and what it shows of the players' hands) is for the table's token
    holders only: every page of a server bound to this machine, a phone that scanned the code."""
    from .security import TOKEN_HEADER, page_token, refusal, token_matches

    app = _app()
    if page_token(app) is None and not token_matches(app, request.headers.get(TOKEN_HEADER)):
        return refusal("token", 403)
    return None


camera_bp.before_request(camera_token_only)


def _app() -> Flask:
    # current_app is typed as the application it stands for: the proxy's own object (kept past the request)
    return cast("LocalProxy[Flask]", current_app)._get_current_object()


@camera_bp.get("/camera")
def page() -> Response:
    from .pages import render_page

    return render_page("camera.html", page="camera")


@camera_bp.get("/api/camera")
def state() -> Response:
    return jsonify(camera_state(current_app._get_current_object()))  # type: ignore[attr-defined]


@camera_bp.post("/api/camera/open")
def open_camera() -> Response:
    """Open a source for the preview: ``{"source": id, "size": "1920x1080"}``, or a phone's stream
    ``{"url": "http://PHONE:8080/video"}`` (kept with the table)."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    data = object_body()
    choice = typed_stream(app, data["url"]) if data.get("url") is not None else find_choice(app, data.get("source"))
    size = data.get("size", "1920x1080")
    if not isinstance(size, str) or size not in CAMERA_SIZES:
        raise BadRequestError("page.one_of", where="size", choices=tuple(CAMERA_SIZES))
    try:
        get_desk(app).open(choice, size, pipeline_tap(app) if choice.kind == "pipeline" else None)
    except FileNotFoundError as exc:
        raise SourceError("camera.no_file", source=choice.label) from exc
    settings = load_settings(data_dir())
    settings.update({"source": choice.id, "size": size})
    if choice.kind == "stream":
        settings["url"] = choice.spec
    save_settings(data_dir(), settings)
    return jsonify(camera_state(app))


@camera_bp.post("/api/camera/close")
def close_camera() -> Response:
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    get_desk(app).close()
    return jsonify(camera_state(app))


@camera_bp.get("/api/camera/frame.jpg")
def frame_jpeg() -> Response:
    desk = get_desk(_app())
    desk.touch()
    _, image = latest_image(desk)
    h, w = image.shape[:2]
    if w > PREVIEW_WIDTH:
        image = cv2.resize(image, (PREVIEW_WIDTH, round(h * PREVIEW_WIDTH / w)), interpolation=cv2.INTER_AREA)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
    if not ok:
        raise NoPreviewError("camera.encode")
    return Response(data.tobytes(), mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


def _corners_field(data: dict[str, Any]) -> list[tuple[float, float]]:
    corners = data.get("corners")
    if (not isinstance(corners, list) or len(corners) != 4
            or not all(isinstance(c, list) and len(c) == 2 and all(isinstance(v, int | float) and not isinstance(v, bool)
                                                                     for v in c) for c in corners)):
        raise BadRequestError("camera.corners")
    return [(float(x), float(y)) for x, y in corners]


@camera_bp.post("/api/camera/corners")
def set_corners() -> Response:
    """Fix the table: four corners in the picture's pixels; saved with the table."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    corners = _corners_field(object_body())
    _, image = latest_image(get_desk(app))
    size = (int(image.shape[1]), int(image.shape[0]))
    if not all(-0.05 * size[0] <= x <= 1.05 * size[0] and -0.05 * size[1] <= y <= 1.05 * size[1] for x, y in corners):
        raise BadRequestError("camera.corner_outside")
    calibration = TableCalibration.from_corners(corners, size)
    settings = load_settings(data_dir())
    settings["calibration"] = calibration.to_json()
    save_settings(data_dir(), settings)
    return jsonify(camera_state(app))


@camera_bp.post("/api/camera/corners/reset")
def reset_corners() -> Response:
    """Forget the corners given: the pipeline finds the table again."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    settings = load_settings(data_dir())
    settings.pop("calibration", None)
    save_settings(data_dir(), settings)
    return jsonify(camera_state(app))


@camera_bp.post("/api/camera/check")
def run_check() -> Response:
    """The camera check (``tuolaji check-camera``) on the preview's newest frame."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    desk = get_desk(app)
    frame, image = latest_image(desk)
    assert desk.choice is not None
    reader, kind = _reader_for(desk, desk.choice, frame)
    check = check_frame(image, reader, _players(), beside_reader=_beside_reader(desk, reader) if kind == "model" else None)
    _, codes = advice_codes(index_px=check.index_px, brightness=check.brightness, glare=check.glare,
                            table_found=check.table_found, size=check.size, suits_beside=check.suits_beside,
                            shapes=check.shapes)
    desk.check = check.to_json() | {"reader": kind, "frame": frame.index,
                                    "advice_codes": [[code, values] for code, values in codes]}
    return jsonify(camera_state(app))


