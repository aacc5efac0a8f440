"""Pictures of plays: evidence kept beside each session (blueprint ``pictures``).

Each settled play that came through the camera pipeline keeps a small JPEG of its
seat's zone, as the reader saw it, and the frame's time (:class:`SessionPictures`, the
pipeline's :class:`~vision.pipeline.PictureKeeper`). The files lie in
``DATA/pictures/<session>/``; the record references them from each deal's
``pictures`` list (``{"trick", "seat", "file", "frame", "time_s"}``, a key docs/RECORD.md
readers ignore). Pictures are kept within a budget per deal (:data:`DEAL_BUDGET`): a picture
that does not fit is made smaller, and dropped when even that does not fit.

Routes: ``GET /pictures/<session>/<file>`` (the JPEG), ``GET /api/evidence`` (each
violation of the current game with the pictures that prove it: the play at fault and
the later play that shows the card was held), ``GET /api/sessions/<id>/export.zip`` and
``POST /api/sessions/import.zip`` (a session with its pictures; ``POST /sessions/import.zip``: the
sessions page's form), and
``GET /api/replay/<id>/frame/<step>`` (a session recorded from a video file: that
video's frame at the step's play).
"""

from __future__ import annotations

import io
import json
import re
import shutil
import struct
import threading
import zipfile
import zlib
from pathlib import Path
from typing import Any, cast

import cv2
import numpy as np
from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    jsonify,
    redirect,
    request,
    send_file,
    url_for,
)
from werkzeug.local import LocalProxy
from werkzeug.wrappers.response import Response as BaseResponse

from tuolaji import scorer
from tuolaji.scorer import safejson
from tuolaji.scorer.errors import InputError
from tuolaji.scorer.names import check_name
from tuolaji.scorer.tracker import track
from tuolaji.session.changes import rules_record
from tuolaji.vision.sources import Frame

from .api import MAX_IMPORT_BYTES, backup_text, get_table
from .explain import error_arguments
from .replay import timeline
from .request_fields import BadRequestError
from .table import Table

pictures_bp = Blueprint("pictures", __name__)

DEAL_BUDGET = 2 * 1024 * 1024
"""Bytes of pictures kept per deal."""
PICTURE_SIDE = 320
"""The longer side of a kept picture, in pixels."""
FILE_NAME = re.compile(r"d\d{1,4}-f\d{1,9}-s\d\.jpg")
"""A picture's file name, matched whole (:func:`is_picture_name`)."""
SOURCE_FILE = "source.json"
MAX_ZIP_BYTES = 64 * 1024 * 1024
"""The largest zip imported, and the most bytes of pictures it may unpack."""
MAX_ZIP_ENTRIES = 20_000
"""The most files in an imported zip (a long session with every play's picture holds a few thousand)."""
MAX_ZIP_DIRECTORY = 4 * 1024 * 1024
"""The largest central directory read (what the zip reader parses before anything else)."""
MAX_META_BYTES = 64 * 1024
"""The largest session.json (a name and a source)."""
JPEG_START = b"\xff\xd8"
"""A JPEG's start of image."""


def is_picture_name(name: str) -> bool:
    """Whether ``name`` names a kept picture (whole: not one ending in a newline).

    >>> is_picture_name("d0-f12-s3.jpg"), is_picture_name("d0-f12-s3.jpg\\n"), is_picture_name("../x.jpg")
    (True, False, False)
    """
    return FILE_NAME.fullmatch(name) is not None


def pictures_dir(data: Path, session_id: int) -> Path:
    return Path(data) / "pictures" / str(int(session_id))


def forget_pictures(data: Path, session_id: int) -> None:
    """A deleted session's pictures go with it."""
    shutil.rmtree(pictures_dir(data, session_id), ignore_errors=True)


def encode(image: np.ndarray, side: int, quality: int) -> bytes:
    h, w = image.shape[:2]
    scale = min(1.0, side / max(h, w))
    if scale < 1.0:
        image = cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise InputError("picture.encode")
    return data.tobytes()


class SessionPictures:
    """Keeps the pictures of one session's plays (the pipeline's picture keeper): the session
    its feed writes into, the current one when it was made, whichever the page shows later."""

    def __init__(self, table: Table, data: Path, *, session_id: int | None = None, budget: int = DEAL_BUDGET,
                 video: str | None = None) -> None:
        self.table = table
        self.data = Path(data)
        self.session_id = session_id if session_id is not None else table.session_id
        self.budget = budget
        self.video = video
        self.dropped = 0
        self._lock = threading.Lock()

    def keep(self, seat: int, frame: Frame, image: np.ndarray) -> dict[str, Any] | None:
        if self.session_id is None:
            return None
        deal = max(0, len(self.table.game_of(self.session_id).snapshot()["deals"]) - 1)
        folder = pictures_dir(self.data, self.session_id)
        with self._lock:
            folder.mkdir(parents=True, exist_ok=True)
            if self.video and not (folder / SOURCE_FILE).exists():
                (folder / SOURCE_FILE).write_text(json.dumps({"video": self.video}), encoding="utf-8")
            used = sum(p.stat().st_size for p in folder.glob(f"d{deal}-*.jpg"))
            for side, quality in ((PICTURE_SIDE, 70), (PICTURE_SIDE // 2, 50)):
                data = encode(image, side, quality)
                if used + len(data) <= self.budget:
                    break
            else:
                self.dropped += 1
                return None
            name = f"d{deal}-f{frame.index}-s{seat}.jpg"
            (folder / name).write_bytes(data)
        return {"file": name, "frame": frame.index, "time_s": round(frame.time_s, 3)}


def pictures_of(record: dict[str, Any], session_id: int) -> dict[tuple[int, int, int], dict[str, Any]]:
    """(deal, trick, seat) → the picture reference, with its address (a play revised later: its last picture)."""
    found = {}
    for d, deal in enumerate(record.get("deals", [])):
        pictures = deal.get("pictures")
        for picture in pictures if isinstance(pictures, list) else []:
            if (isinstance(picture, dict) and isinstance(picture.get("file"), str) and is_picture_name(picture["file"])
                    and isinstance(picture.get("trick"), int) and isinstance(picture.get("seat"), int)):
                found[(d, picture["trick"], picture["seat"])] = picture | {"url": f"/pictures/{session_id}/{picture['file']}"}
    return found


def evidence(record: dict[str, Any], audit: dict[str, Any], session_id: int) -> list[dict[str, Any]]:
    """Each violation with the pictures that prove it: the play at fault, and for a revoke the
    later play in which the seat shows a card of the suit it did not follow (the card tracker's
    contradicted void)."""
    pictures = pictures_of(record, session_id)
    found = []
    for d, deal_audit in enumerate(audit.get("deals", [])):
        voids = None
        for v in deal_audit.get("violations", []):
            if v.get("trick") is None:
                continue
            shown = [{"role": "fault", "deal": d, "trick": v["trick"], "seat": v["seat"]}]
            if v["rule"] == "must-follow-suit":
                if voids is None:
                    voids = track(rules_record(record), d)["voids"]
                for void in voids:
                    if void["seat"] == v["seat"] and void["trick"] == v["trick"] and void["contradicted"] is not None:
                        shown.append({"role": "proof", "deal": d, "trick": void["contradicted"], "seat": v["seat"]})
            for item in shown:
                picture = pictures.get((item["deal"], item["trick"], item["seat"]))
                item["picture"] = picture
            found.append({"deal": d, "trick": v["trick"], "seat": v["seat"], "rule": v["rule"], "plays": shown})
    return found


def _app() -> Flask:
    # current_app is typed as the application it stands for: the proxy's own object (kept past the request)
    return cast("LocalProxy[Flask]", current_app)._get_current_object()




@pictures_bp.get("/pictures/<int:session_id>/<name>")
def picture(session_id: int, name: str) -> Response:
    if not is_picture_name(name):
        abort(404)
    path = pictures_dir(Path(_app().config["DATA_DIR"]), session_id) / name
    try:
        with path.open("rb") as handle:
            is_jpeg = handle.read(len(JPEG_START)) == JPEG_START
    except OSError:
        abort(404)
    if not is_jpeg:  # kept before imports checked their pictures: never served as a picture
        abort(404)
    return send_file(path, mimetype="image/jpeg", max_age=3600)


@pictures_bp.get("/api/evidence")
def current_evidence() -> Response:
    table = get_table()
    if not table.has_game or table.session_id is None:
        return jsonify({"session": None, "violations": [], "pictures": []})
    state = table.game.state()
    record = state["record"]
    return jsonify({"session": table.session_id,
                    "violations": evidence(record, state["audit"], table.session_id),
                    "pictures": [{"deal": d} | p for (d, _t, _s), p in pictures_of(record, table.session_id).items()]})


@pictures_bp.get("/api/replay/<int:session_id>/pictures")
def replay_pictures(session_id: int) -> Response:
    session = get_table().store.get(session_id)
    record = session.record
    video = (pictures_dir(Path(_app().config["DATA_DIR"]), session_id) / SOURCE_FILE).is_file()
    return jsonify({"session": session_id, "video": video,
                    "violations": evidence(record, scorer.audit_record(rules_record(record)), session_id),
                    "pictures": [{"deal": d} | p for (d, _t, _s), p in pictures_of(record, session_id).items()]})


@pictures_bp.get("/api/replay/<int:session_id>/frame/<int:step>")
def replay_frame(session_id: int, step: int) -> Response:
    """The recorded video's frame at the play of ``step`` (1: the first play), as JPEG."""
    session = get_table().store.get(session_id)
    steps = timeline(session.record)
    if not 1 <= step <= len(steps):
        abort(404)
    at = steps[step - 1]
    picture = pictures_of(session.record, session_id).get((at["deal"], at["trick"], at["seat"]))
    source = pictures_dir(Path(_app().config["DATA_DIR"]), session_id) / SOURCE_FILE
    if picture is None or not source.is_file():
        abort(404)
    video = json.loads(source.read_text(encoding="utf-8")).get("video")
    if not isinstance(video, str) or not Path(video).is_file():
        abort(404)
    capture = cv2.VideoCapture(video)
    try:
        capture.set(cv2.CAP_PROP_POS_FRAMES, int(picture["frame"]))
        ok, image = capture.read()
    finally:
        capture.release()
    if not ok or image is None:
        abort(404)
    return Response(encode(image, 960, 80), mimetype="image/jpeg", headers={"Cache-Control": "max-age=3600"})


@pictures_bp.get("/api/sessions/<int:session_id>/export.zip")
def export_zip(session_id: int) -> Response:
    """The session's record and its pictures, as one zip file."""
    session = get_table().store.get(session_id)
    folder = pictures_dir(Path(_app().config["DATA_DIR"]), session_id)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("record.json", backup_text(session.record)[0])
        archive.writestr("session.json", json.dumps({"name": session.name, "source": session.source}, ensure_ascii=False))
        if folder.is_dir():
            for path in sorted(folder.glob("*.jpg")):
                if is_picture_name(path.name):
                    archive.write(path, f"pictures/{path.name}")
    return Response(buffer.getvalue(), mimetype="application/zip",
                    headers={"Content-Disposition": f'attachment; filename="tuolaji-session-{session_id}.zip"'})


class ZipImportError(BadRequestError):
    """A zip that cannot be imported: a ``zip.*`` key of :data:`web.messages.WEB_MESSAGES_EN` and its
    facts, worded by the page like every error."""


def _directory_bounds(raw: bytes) -> tuple[int, int]:
    """The entries and the central directory's size the zip's end record claims, read before the
    zip reader parses the directory (whose work grows with both); a zip64 archive is refused."""
    end = len(raw) - 22
    if end < 0 or raw[end:end + 4] != b"PK\x05\x06" or raw[-2:] != b"\x00\x00":
        end = raw.rfind(b"PK\x05\x06", max(0, len(raw) - 22 - 0xFFFF))
    if end < 0 or len(raw) - end < 22:
        raise ZipImportError("zip.no_record")
    _sig, _disk, _start, _here, entries, size, _offset, _comment = struct.unpack("<4s4H2LH", raw[end:end + 22])
    if entries == 0xFFFF or size == 0xFFFFFFFF or raw[max(0, end - 20):end].startswith(b"PK\x06\x07"):
        raise ZipImportError("zip.zip64")
    return entries, size


def _check_entry(entry: zipfile.ZipInfo, limit: int) -> None:
    """What the directory says of ``entry``, checked before a byte of it is read."""
    name = entry.filename[:80]
    if entry.flag_bits & 0x1:
        raise ZipImportError("zip.encrypted", name=name)
    if entry.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        raise ZipImportError("zip.method", name=name, method=entry.compress_type)
    if entry.file_size > limit:
        raise ZipImportError("zip.entry_size", name=name, size=entry.file_size, limit=limit)


def _read_entry(archive: zipfile.ZipFile, entry: zipfile.ZipInfo, limit: int) -> bytes:
    """``entry``'s bytes, never more than ``limit`` inflated (even if the directory lies about its size)."""
    _check_entry(entry, limit)
    name = entry.filename[:80]
    try:
        with archive.open(entry) as handle:  # a megabyte at a time: a read never inflates more than that at once
            chunks: list[bytes] = []
            size = 0
            while size <= limit and (chunk := handle.read(min(1 << 20, limit + 1 - size))):
                chunks.append(chunk)
                size += len(chunk)
            data = b"".join(chunks)
    except zipfile.BadZipFile as exc:
        if "CRC" in str(exc):
            raise ZipImportError("zip.checksum", name=name) from None
        raise ZipImportError("zip.damaged", name=name, problem=str(exc)) from None
    except zlib.error:
        raise ZipImportError("zip.data_damaged", name=name) from None
    except EOFError:
        raise ZipImportError("zip.truncated", name=name) from None
    except (NotImplementedError, RuntimeError, ValueError, OSError) as exc:
        raise ZipImportError("zip.entry_unreadable", name=name, problem=str(exc)[:80]) from None
    if len(data) > limit:
        raise ZipImportError("zip.entry_over", name=name, limit=limit)
    return data


def _open_archive(raw: bytes) -> zipfile.ZipFile:
    """The zip in ``raw``, its directory bounded before it is parsed."""
    if len(raw) > MAX_ZIP_BYTES:
        raise ZipImportError("zip.too_large", mb=MAX_ZIP_BYTES // 1024 // 1024)
    entries, size = _directory_bounds(raw)
    if entries > MAX_ZIP_ENTRIES:
        raise ZipImportError("zip.entries", entries=entries, most=MAX_ZIP_ENTRIES)
    if size > MAX_ZIP_DIRECTORY:
        raise ZipImportError("zip.directory", size=size, most=MAX_ZIP_DIRECTORY)
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError, OSError) as exc:
        raise ZipImportError("zip.unreadable", problem=str(exc)[:80]) from None
    if len(archive.filelist) > MAX_ZIP_ENTRIES:
        raise ZipImportError("zip.too_many_files", most=MAX_ZIP_ENTRIES)
    return archive


def import_archive(raw: bytes) -> dict[str, Any]:
    """A session exported with its pictures, stored as a new session with its pictures beside it.

    Each entry is checked in the zip's directory before it is read (encryption, compression
    method, size) and read no further than its limit; every fault of the zip is one
    :class:`ZipImportError` line."""
    archive = _open_archive(raw)
    entries = {entry.filename: entry for entry in archive.infolist()}
    if "record.json" not in entries:
        raise ZipImportError("zip.no_record")
    record = safejson.loads(_read_entry(archive, entries["record.json"], safejson.MAX_RECORD_BYTES), "record.json",
                            max_bytes=safejson.MAX_RECORD_BYTES)
    meta: Any = {}
    if "session.json" in entries:
        meta = safejson.loads(_read_entry(archive, entries["session.json"], MAX_META_BYTES), "session.json")
    if not isinstance(record, dict):
        raise BadRequestError("picture.not_a_record")
    scorer.validate_record(rules_record(record))
    name = check_name(str(meta.get("name") or "import"), "session.json: name") if isinstance(meta, dict) else "import"
    listed = [(entry, entry.filename.removeprefix("pictures/")) for entry in entries.values()
              if entry.filename.startswith("pictures/") and is_picture_name(entry.filename.removeprefix("pictures/"))]
    for entry, _short in listed:
        _check_entry(entry, DEAL_BUDGET)
    total = sum(entry.file_size for entry, _short in listed)
    if total > MAX_ZIP_BYTES:
        raise ZipImportError("zip.pictures_size", total=total, limit=MAX_ZIP_BYTES)
    pictures = []
    for entry, short in listed:
        data = _read_entry(archive, entry, DEAL_BUDGET)
        if not data.startswith(JPEG_START):
            raise ZipImportError("zip.not_jpeg", short=short)
        pictures.append((short, data))
    session_id = get_table().store.create(record, name=name, source="import")
    folder = pictures_dir(Path(_app().config["DATA_DIR"]), session_id)
    if pictures:
        folder.mkdir(parents=True, exist_ok=True)
        for short, data in pictures:
            (folder / short).write_bytes(data)
    return {"id": session_id, "name": name, "pictures": len(pictures)}


def _uploaded() -> bytes:
    request.max_content_length = MAX_IMPORT_BYTES  # a backup of whatever a table keeps comes back
    upload = request.files.get("file")
    return upload.read(MAX_ZIP_BYTES + 1) if upload is not None else request.get_data()


@pictures_bp.post("/api/sessions/import.zip")
def import_zip() -> tuple[Response, int]:
    """A session exported with its pictures: a new session, its pictures beside it."""
    return jsonify(import_archive(_uploaded())), 201


@pictures_bp.post("/sessions/import.zip")
def import_zip_form() -> BaseResponse:
    """The sessions page's form: the imported session opens in the replay viewer."""
    try:
        imported = import_archive(_uploaded())
    except InputError as exc:
        return redirect(url_for("pages.sessions", **error_arguments(exc)))
    return redirect(url_for("pages.replay", session_id=imported["id"]))
