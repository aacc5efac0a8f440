"""The HTML pages (blueprint ``pages``): the live table, the sessions list, the replay viewer,
and the card images (blueprint ``cards``, ``/cards/<name>.svg``)."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from werkzeug.wrappers.response import Response as BaseResponse

from tuolaji import scorer
from tuolaji.scorer.cards import CARD_NAMES
from tuolaji.scorer.errors import InputError
from tuolaji.session.changes import rules_record

from . import results, rules_words, view
from .api import get_table, read_uploaded_record
from .cards import card_sprite, card_svg
from .explain import error_arguments, shown_words
from .i18n import STRINGS, normalise_language
from .store import Session

pages_bp = Blueprint("pages", __name__)
cards_bp = Blueprint("cards", __name__, url_prefix="/cards")


def page_language() -> str:
    return normalise_language(request.args.get("lang") or request.cookies.get("lang"))


@functools.cache
def _sprite() -> str:
    return card_sprite()


@functools.cache
def _profiles() -> dict[str, dict[str, Any]]:
    """The set-up form's profiles: decks, player counts, and per player count what the rules mean
    (``about``) and the set-up's rules (``setup``: the sides, whose players share a level, and the
    friends the dealer calls), so the page's script derives none of them."""
    profiles = rules_words.profiles_words(view.PROFILES)
    for name, info in profiles.items():
        options = scorer.PROFILES[name]
        info["setup"] = {str(n): {"sides": scorer.partnerships(options.friends, n), "friends": options.friends_count(n)}
                         for n in info["players"]}
    return profiles


@functools.cache
def _vocabulary() -> dict[str, Any]:
    """The card vocabulary the page's scripts use (the scorer's one declaration of it): the names,
    ranks, suits and symbols, each card's display words by language (``labels``) and the cards a
    找朋友 call may name (``callable``: no joker)."""
    from tuolaji.scorer.cards import CARD_NAMES, RANKS, SUIT_SYMBOLS, SUITS

    from .cards import card_labels

    return {"ranks": list(RANKS), "suits": list(SUITS), "symbols": dict(SUIT_SYMBOLS), "cards": list(CARD_NAMES),
            "labels": card_labels(), "callable": [name for name in CARD_NAMES if name not in ("SJ", "BJ")]}


def render_page(template: str, **context: object) -> Response:
    lang = page_language()
    response = Response(render_template(template, lang=lang, i18n_json=json.dumps(STRINGS, ensure_ascii=False),
                                        profiles=_profiles(), house_options=rules_words.HOUSE_OPTIONS,
                                        levels=view.LEVELS, vocabulary=_vocabulary(), sprite=_sprite(), **context))
    if request.args.get("lang"):
        response.set_cookie("lang", lang, max_age=3600 * 24 * 365, samesite="Lax")
    return response


@pages_bp.get("/")
def live() -> Response:
    return render_page("live.html", page="live")


@pages_bp.get("/sessions")
def sessions() -> Response:
    table = get_table()
    table.purge_bin()
    stored = table.store.list()
    return render_page("sessions.html", page="sessions",
                       sessions=[s.summary() for s in stored], current=table.session_id,
                       binned=[s.summary() for s in table.store.binned()],
                       games={s.id: _stored_game_summary(table.store.path, s) for s in stored},
                       error=shown_words(request.args))


_summaries: dict[tuple[str, int, float], dict[str, Any] | None] = {}
"""The game summaries shown, by database, session and time of its last save (a long game's audit
is not run again at every view of the list)."""


def _stored_game_summary(database: Path, session: Session) -> dict[str, Any] | None:
    key = (str(database), session.id, session.updated)
    if key not in _summaries:
        if len(_summaries) > 512:
            _summaries.clear()
        _summaries[key] = _game_summary(session.record)
    return _summaries[key]


def _game_summary(record: dict[str, Any]) -> dict[str, Any] | None:
    """A stored game's levels now, its winner and each deal's result (None for a record the scorer refuses)."""
    try:
        return results.game_summary(record, scorer.audit_record(rules_record(record)))
    except InputError:
        return None


@pages_bp.post("/sessions/<int:session_id>/resume")
def resume(session_id: int) -> BaseResponse:
    get_table().open(session_id)
    return redirect(url_for("pages.live"))


@pages_bp.post("/sessions/<int:session_id>/delete")
def delete(session_id: int) -> BaseResponse:
    get_table().delete(session_id)
    return redirect(url_for("pages.sessions"))


@pages_bp.post("/sessions/<int:session_id>/restore")
def restore(session_id: int) -> BaseResponse:
    """Take a session out of the bin (the sessions page's bin)."""
    get_table().restore(session_id)
    return redirect(url_for("pages.sessions"))


@pages_bp.post("/sessions/import")
def import_session() -> BaseResponse:
    try:
        record, name = read_uploaded_record()
    except InputError as exc:
        return redirect(url_for("pages.sessions", **error_arguments(exc)))
    session_id = get_table().store.create(record, name=name, source="import")
    if request.form.get("replay"):
        return redirect(url_for("pages.replay", session_id=session_id))
    return redirect(url_for("pages.sessions"))


@pages_bp.get("/replay/<int:session_id>")
def replay(session_id: int) -> Response:
    session = get_table().store.get(session_id)
    return render_page("replay.html", page="replay", session=session.summary())


@cards_bp.get("/<name>.svg")
def card(name: str) -> Response:
    if name != "back" and name not in CARD_NAMES:
        abort(404)
    return Response(card_svg(name), mimetype="image/svg+xml", headers={"Cache-Control": "max-age=86400"})
