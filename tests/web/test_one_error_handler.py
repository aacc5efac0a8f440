"""One answer to every refused request of the table's app (issue 44): the application registers one
InputError handler (web/errors.py) and no blueprint registers its own; each error's status is its
kind's, the page modules' own errors saying theirs."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from tuolaji.scorer.errors import InputError
from tuolaji.session.live import NoSuchCardError, OutOfTurnError
from tuolaji.web.camera import NoPreviewError, NoSuchSourceError
from tuolaji.web.decks_page import EnrolmentStateError
from tuolaji.web.errors import input_error_response, status_of
from tuolaji.web.store import NoSuchSessionError
from tuolaji.web.table import NoGameError


def test_the_table_app_has_one_input_error_handler(app: Flask) -> None:
    registered = [(blueprint, kind.__name__) for blueprint, by_code in app.error_handler_spec.items()
                  for by_class in by_code.values() for kind in by_class if issubclass(kind, InputError)]
    assert registered == [(None, "InputError")]
    assert app.error_handler_spec[None][None][InputError] is input_error_response
    assert {"api", "camera", "decks", "pictures", "stats", "tracker"} <= set(app.blueprints)


def test_each_error_answers_with_its_kinds_status() -> None:
    assert [status_of(error) for error in (
        NoSuchSessionError("store.no_session", session=3),
        NoSuchCardError("session.no_card", deal=0, trick=1, seat=2, index=3),
        NoSuchSourceError("camera.no_source", source="x"),
        NoGameError("table.no_game"), OutOfTurnError("session.out_of_turn", deal=0, trick=2, seat=1, turn=3),
        NoPreviewError("camera.not_open"), EnrolmentStateError("decks.learning"),
        InputError("page.json_object"))] == [404, 404, 404, 409, 409, 409, 409, 400]


def test_a_missing_session_is_json_for_the_api_and_a_page_for_a_page(client: FlaskClient) -> None:
    api = client.get("/api/replay/999")
    assert api.status_code == 404 and api.get_json()["message"]["en"]
    page = client.get("/replay/999")
    assert page.status_code == 404 and page.mimetype == "text/html" and "/sessions" in page.get_data(as_text=True)
