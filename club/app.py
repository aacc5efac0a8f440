"""The club's application factory (:func:`create_club_app`) and gunicorn's entry (:func:`app_from_env`)."""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

import psycopg
from flask import Flask, jsonify, request

from tuolaji.scorer.errors import InputError
from tuolaji.web.security import own_host_names

from .errors import ClubDatabaseDown, ClubRefused, first_line
from .notify import Listener
from .store import ClubStore

log = logging.getLogger("tuolaji.club")

MAX_BODY = 24 * 1024 * 1024
"""The largest request body the club reads: a push of one session as large as a table keeps
(16 MiB, :data:`web.store.MAX_RECORD_BYTES`), with room; a larger one is refused unread (413)."""


def create_club_app(dsn: str, config: dict[str, Any] | None = None, *, listen: bool = True) -> Flask:
    """The club's application on the database at ``dsn`` (migrated if need be). ``listen``: relay the
    database's notifications to this process's pages (a background thread)."""
    from tuolaji import web
    from tuolaji.web.i18n import normalise_language, translate
    from tuolaji.web.pages import cards_bp

    from .director import club_director_bp
    from .pages import club_bp
    from .table_page import club_table_bp, serve_links_bp

    web_folder = Path(web.__file__).resolve().parent
    # a table's page at the club is serve's page: its templates, its static files, its card pictures
    app = Flask(__name__, static_folder=str(web_folder / "static"), template_folder=str(web_folder / "templates"))
    app.config.update({"SSE_KEEPALIVE_S": 15.0, "SCREEN_SECONDS": 10, "JSON_SORT_KEYS": False,
                       "CLUB_COMMAND_WAIT_S": 8.0, "MAX_CONTENT_LENGTH": MAX_BODY})
    if config:
        app.config.update(config)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    store = ClubStore(dsn)
    listener = Listener(dsn)
    clock = RoundClock(store, app.config.get("ROUND_CHECK_S", 1.0))
    if listen:
        listener.start()
        clock.start()
    app.extensions["tuolaji.club"] = store
    app.extensions["tuolaji.club.listener"] = listener
    app.extensions["tuolaji.club.clock"] = clock
    app.register_blueprint(club_bp)
    app.register_blueprint(club_director_bp)
    app.register_blueprint(club_table_bp)
    app.register_blueprint(serve_links_bp)
    app.register_blueprint(cards_bp)
    _harden(app, own_host_names(app.config.get("ALLOWED_HOSTS", ())))

    @app.context_processor
    def _i18n() -> dict[str, Any]:
        lang = normalise_language(request.args.get("lang") or request.cookies.get("lang"))
        return {"t": lambda key, **values: translate(key, lang, **values), "zuihe": False}

    return app


def _harden(app: Flask, names: frozenset[str]) -> None:
    """serve's hardening at the club: only its own names (``Host``: addresses, this machine's names and
    ``ALLOWED_HOSTS``), no framing, no type sniffing; and every refusal one line of JSON, never a page."""
    from werkzeug.exceptions import HTTPException
    from werkzeug.wrappers.response import Response as BaseResponse

    from tuolaji.web.security import host_allowed, protect_response

    @app.before_request
    def _host() -> Any:
        if not host_allowed(request.host, names):
            shown = request.host[:80].encode("ascii", "backslashreplace").decode("ascii")
            return _refusal(ClubRefused("club.host", host=shown), 400)
        return None

    @app.after_request
    def _protect(response: BaseResponse) -> BaseResponse:
        return protect_response(response)

    @app.errorhandler(HTTPException)
    def _http(error: HTTPException) -> Any:
        code = error.code or 400
        if code == 413:
            return _refusal(ClubRefused("club.body_size", most=int(app.config["MAX_CONTENT_LENGTH"]) // 1024 // 1024),
                            413)
        return jsonify({"error": f"{code} {error.name}".lower()}), code

    @app.errorhandler(InputError)
    def _input(error: InputError) -> Any:
        return _refusal(error, int(getattr(error, "status", 400)))

    @app.errorhandler(ClubDatabaseDown)
    def _down(error: ClubDatabaseDown) -> Any:
        return _refusal(ClubRefused("club.database_down", reason=str(error)), 503)

    @app.errorhandler(psycopg.DataError)
    def _data(error: psycopg.DataError) -> Any:  # a value PostgreSQL cannot take (out of range, NUL): the request's
        return _refusal(ClubRefused("club.bad_value", reason=first_line(error)), 400)

    @app.errorhandler(Exception)
    def _crash(error: Exception) -> Any:
        log.exception("%s %s", request.method, request.path)
        return jsonify({"error": f"internal error ({type(error).__name__}); the club's log says more"}), 500


def _refusal(error: InputError, status: int) -> Any:
    """One line of JSON; to a page of the club that shows it (the director's console) its words in both
    languages too (``message``), as serve's page words it."""
    answer = {"error": str(error), **getattr(error, "extra", {})}
    if request.blueprint in PAGE_BLUEPRINTS:
        from tuolaji.web.explain import describe_error

        words = describe_error(error)
        answer["message"] = {"zh": words["zh"], "en": words["en"]}
    return jsonify(answer), status


PAGE_BLUEPRINTS = frozenset({"club_director"})
"""The blueprints whose refusals a page of the club shows in its language."""


class RoundClock:
    """Ends a round by time at its end time (:meth:`ClubStore.end_due_rounds`, every ``every_s``
    seconds, in a background thread of each server process; None: never, the room's reads do it)."""

    def __init__(self, store: ClubStore, every_s: float | None) -> None:
        self.store = store
        self.every_s = every_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tuolaji-club-rounds", daemon=True)

    def start(self) -> None:
        if self.every_s is not None:
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(5.0)

    def _run(self) -> None:
        assert self.every_s is not None
        while not self._stop.wait(float(self.every_s)):
            try:
                for number in self.store.end_due_rounds():
                    log.info("round %d: its time is up, it has ended", number)
            except ClubDatabaseDown:
                pass  # the database away: the listener says so; checked again when it is back
            except Exception:  # never let the clock stop: the next tick tries again
                log.exception("the club's round clock")
        self.store.close()


WORKER_GATE: Any = None
"""This gunicorn worker's stream gate (:func:`app_from_env`), which its worker (:mod:`club.worker`) reads."""


def app_from_env() -> Flask:
    """The application of ``$TUOLAJI_CLUB_DB`` (what ``tuolaji club --workers`` has gunicorn load), its
    event streams gated at ``$TUOLAJI_CLUB_MAX_STREAMS`` in this worker (waitress's own gate, one a worker)."""
    import os

    from tuolaji.web.server import MAX_STREAMS, StreamGate

    global WORKER_GATE

    hosts = tuple(name for name in os.environ.get("TUOLAJI_CLUB_ALLOW_HOSTS", "").split(",") if name)
    app = create_club_app(os.environ["TUOLAJI_CLUB_DB"], {"ALLOWED_HOSTS": hosts})
    WORKER_GATE = StreamGate(app.wsgi_app, int(os.environ.get("TUOLAJI_CLUB_MAX_STREAMS", MAX_STREAMS)))
    app.wsgi_app = WORKER_GATE  # type: ignore[method-assign]
    return app
