"""The table's decks on the camera set-up page (blueprint ``decks``, ``/api/decks/…``): the decks
enrolled under the data folder, and a new deck enrolled from the camera in five guided steps,
or in one: the whole deck laid out in order (``layout``), each card named by where it lies.

Each step asks for one layout under the camera (the 13 cards of one suit face up, then
the two jokers) and takes the preview's newest frame as that step's photo; the page
writes the photos and their manifest (``DATA/enrol/NAME/manifest.json``, the format
``tuolaji enrol`` reads) and :func:`vision.enrol.enrol` learns the deck from them in the
background.
"""

from __future__ import annotations

import json
import shutil
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import cv2
from flask import Blueprint, Flask, Response, current_app, jsonify
from werkzeug.local import LocalProxy

from tuolaji.scorer.cards import CARD_NAMES, RANKS, SUITS
from tuolaji.scorer.errors import InputError
from tuolaji.vision.decks import check_deck_name, list_decks

from .camera import camera_token_only, get_desk, latest_image
from .request_fields import BadRequestError, object_body

decks_bp = Blueprint("decks", __name__, url_prefix="/api/decks")

STEPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    *((suit, tuple(rank + suit for rank in RANKS)) for suit in SUITS),
    ("J", ("BJ", "SJ")),
)
"""The guided steps: what to lay out under the camera (a key for the page's words) and the cards it shows."""

LAYOUT_STEPS: tuple[tuple[str, tuple[str, ...]], ...] = (("layout", tuple(CARD_NAMES)),)
"""The one step of an enrolment from the deck laid out in order (:data:`vision.enrol.LAYOUT_ROWS`):
the cards are named by where they lie."""


class EnrolmentStateError(InputError):
    """A step asked for out of turn (no enrolment started, photos still missing, already learning)."""

    http_status = 409  # web.errors.status_of


@dataclass
class Enrolment:
    name: str
    folder: Path
    photos: list[dict[str, Any]] = field(default_factory=list)
    status: str = "photos"  # photos, learning, done, failed
    result: dict[str, Any] | None = None
    error: str | None = None
    layout: bool = False  # one photo of the whole deck laid out in order (LAYOUT_STEPS), else the five STEPS

    @property
    def steps(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        return LAYOUT_STEPS if self.layout else STEPS

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "status": self.status, "photos": self.photos, "layout": self.layout,
                "steps": [{"key": key, "cards": list(cards)} for key, cards in self.steps],
                "result": self.result, "error": self.error}


def _enrolment(app: Flask) -> Enrolment | None:
    return app.extensions.get("tuolaji.enrolment")


def _payload(app: Flask) -> dict[str, Any]:
    enrolment = _enrolment(app)
    return {"decks": list_decks(Path(app.config["DATA_DIR"])),
            "enrolment": enrolment.to_json() if enrolment is not None else None}


def _app() -> Flask:
    # current_app is typed as the application it stands for: the proxy's own object (kept past the request)
    return cast("LocalProxy[Flask]", current_app)._get_current_object()


decks_bp.before_request(camera_token_only)


@decks_bp.get("")
def decks() -> Response:
    return jsonify(_payload(_app()))


@decks_bp.post("/enrol/start")
def start() -> Response:
    app = _app()
    data = object_body()
    name = data.get("name")
    if not isinstance(name, str):
        raise BadRequestError("decks.name")
    name = check_deck_name(name.strip())
    layout = data.get("layout", False)
    if not isinstance(layout, bool):
        raise BadRequestError("decks.layout")
    current = _enrolment(app)
    if current is not None and current.status == "learning":
        raise EnrolmentStateError("decks.learning")
    folder = Path(app.config["DATA_DIR"]) / "enrol" / name
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    app.extensions["tuolaji.enrolment"] = Enrolment(name, folder, layout=layout)
    return jsonify(_payload(app))


@decks_bp.post("/enrol/photo")
def photo() -> Response:
    """The next step's photo: the preview's newest frame, at the camera's full resolution."""
    app = _app()
    enrolment = _enrolment(app)
    if enrolment is None or enrolment.status != "photos":
        raise EnrolmentStateError("decks.not_started")
    if len(enrolment.photos) >= len(enrolment.steps):
        raise EnrolmentStateError("decks.all_taken")
    frame, image = latest_image(get_desk(app))
    key, cards = enrolment.steps[len(enrolment.photos)]
    name = f"{len(enrolment.photos) + 1:02d}-{key}.jpg"
    if not cv2.imwrite(str(enrolment.folder / name), image, [cv2.IMWRITE_JPEG_QUALITY, 95]):
        raise InputError("decks.unwritable", path=str(enrolment.folder / name))
    enrolment.photos.append({"image": name, "cards": list(cards), "frame": frame.index})
    manifest = [{"image": p["image"], "layout": True} if enrolment.layout else {"image": p["image"], "cards": p["cards"]}
                for p in enrolment.photos]
    (enrolment.folder / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False, indent=1) + "\n",
                                                    encoding="utf-8")
    return jsonify(_payload(app))


@decks_bp.post("/enrol/finish")
def finish() -> tuple[Response, int]:
    """Learn the deck from the photos, in the background (the page polls ``GET /api/decks``)."""
    app = _app()
    enrolment = _enrolment(app)
    if enrolment is None or enrolment.status != "photos" or len(enrolment.photos) < len(enrolment.steps):
        raise EnrolmentStateError("decks.photos_needed", photos=len(STEPS if enrolment is None else enrolment.steps))
    enrolment.status = "learning"
    data = Path(app.config["DATA_DIR"])

    def learn() -> None:
        from tuolaji.vision.enrol import enrol

        try:
            result = enrol(enrolment.name, enrolment.folder / "manifest.json", data, threads=1)
            enrolment.result = {"photos": result.photos, "cards_listed": result.cards_listed,
                                "cards_matched": result.cards_matched, "lessons": result.lessons}
            enrolment.status = "done"
        except (InputError, OSError) as exc:
            enrolment.error = str(exc)
            enrolment.status = "failed"
        except Exception as exc:  # noqa: BLE001 - the page says why, the thread must not vanish
            enrolment.error = f"{type(exc).__name__}: {exc}"
            enrolment.status = "failed"

    threading.Thread(target=learn, name="tuolaji-enrol", daemon=True).start()
    return jsonify(_payload(app)), 202


@decks_bp.post("/enrol/cancel")
def cancel() -> Response:
    app = _app()
    enrolment = _enrolment(app)
    if enrolment is not None and enrolment.status == "learning":
        raise EnrolmentStateError("decks.learning")
    app.extensions.pop("tuolaji.enrolment", None)
    return jsonify(_payload(app))
