"""The table app's one answer to a refused request: every :class:`~scorer.errors.InputError` a route
raises (the rules', the session's, the reader's and the page's own) is answered here, registered
once on the application (:func:`web.create_app`), never per blueprint.

The answer is JSON with the error's English line and its words in both languages
(:func:`web.explain.describe_error`), and a status by its kind: 404 for what is not there, 409
for what is asked out of turn, else 400. A change that could not be saved says why (507 or
503, :data:`NOT_SAVED_STATUS`); a change the game refuses is worded with the finding that
refuses it (:func:`web.dealing.refused_response`); a session that is not there, asked for by a
page rather than the API, is a small HTML page.
"""

from __future__ import annotations

import logging

from flask import Response, current_app, jsonify, request

from tuolaji.scorer.errors import InputError
from tuolaji.session.changes import RefusedError
from tuolaji.session.live import NoSuchCardError, NotSavedError, OutOfTurnError

from .explain import describe_error
from .i18n import both
from .replay import NoSuchStepError
from .store import NoSuchSessionError
from .table import NoGameError, Table

NOT_SAVED_STATUS = {"disk-full": 507, "too-large": 507, "locked": 503, "failed": 503}
"""The answer to a change that was not saved: 507 (no room), 503 (try again)."""

STATUS_BY_KIND: tuple[tuple[type[InputError], int], ...] = (
    (NoSuchSessionError, 404), (NoSuchStepError, 404), (NoSuchCardError, 404),
    (NoGameError, 409), (OutOfTurnError, 409))
"""The status of the errors of the session and the page's core; a page module's own error says its
status itself (``http_status``: the camera's unknown source 404, an enrolment step out of turn 409)."""


def status_of(error: InputError) -> int:
    """The HTTP status that answers ``error``."""
    own = getattr(error, "http_status", None)
    if isinstance(own, int):
        return own
    return next((status for kind, status in STATUS_BY_KIND if isinstance(error, kind)), 400)


def not_saved_response(error: NotSavedError) -> tuple[Response, int]:
    """A change that could not be saved was not made: the page shows why (「未保存：磁盘已满」)."""
    logging.getLogger("tuolaji.save").error("%s %s: %s", request.method, request.path, error)
    return jsonify({"error": str(error), "code": "not-saved", "kind": error.kind,
                    "message": both(f"not_saved.{error.kind}")}), \
        NOT_SAVED_STATUS[error.kind]


def input_error_response(error: InputError) -> tuple[Response | str, int]:
    """The answer to ``error``, raised by any route of the table's app."""
    from .dealing import refused_response

    if isinstance(error, NotSavedError):
        return not_saved_response(error)
    if isinstance(error, RefusedError):
        return refused_response(error)
    status = status_of(error)
    if isinstance(error, NoSuchSessionError) and not request.path.startswith("/api/"):
        return f"<!doctype html><title>404</title><p>{error}</p><p><a href='/sessions'>sessions</a>", status
    table: Table = current_app.extensions["tuolaji.table"]
    players = table.game.snapshot()["players"] if table.has_game else []
    message = describe_error(error, players)
    return jsonify({"error": str(error), "message": {"zh": message["zh"], "en": message["en"]}}), status
