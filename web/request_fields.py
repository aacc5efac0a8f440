"""Reading a request to the table's app: its JSON body (:func:`json_body`, :func:`object_body`) and
its fields by kind (a name, a whole number, cards), each refused in words (:class:`BadRequestError`
or a refused change) when it is not what the route takes. What the routes of ``web/api.py`` and the
page modules read their requests with; the answers to what they refuse are ``web/errors.py``'s.
"""

from __future__ import annotations

import re
from typing import Any

from flask import request

from tuolaji import scorer
from tuolaji.scorer import safejson
from tuolaji.scorer.cards import split_card_text
from tuolaji.scorer.errors import InputError
from tuolaji.scorer.names import check_name
from tuolaji.session.changes import RefusedError


class BadRequestError(InputError):
    """A request body that is missing a field or has one of the wrong kind."""


def json_body(*, optional: bool = False, max_bytes: int = safejson.MAX_BYTES) -> Any:
    """The request's JSON body, read by :func:`scorer.safejson.loads` (size, depth, numbers, text);
    ``optional``: an empty body is ``{}``."""
    raw = request.get_data(cache=True)
    if optional and not raw.strip():
        return {}
    if not request.is_json:
        raise BadRequestError("page.json_content_type")
    return safejson.loads(raw, "request body", max_bytes=max_bytes)


def object_body(*, optional: bool = False) -> dict[str, Any]:
    """The request's JSON body (:func:`json_body`), which must be an object: the fields of a change."""
    data = json_body(optional=optional)
    if not isinstance(data, dict):
        raise BadRequestError("page.json_object")
    return data


def name_field(data: dict[str, Any], name: str = "name") -> str:
    """A name by the names' rule (:func:`scorer.names.check_name`), or "" when there is none."""
    value = data.get(name)
    if value is None:
        return ""
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        raise BadRequestError("name.type", where=name)
    return check_name(str(value), name, empty=True)


def int_field(data: dict[str, Any], name: str, *, low: int = 0, high: int | None = None) -> int:
    """A whole number from ``low`` to ``high``, given as a number or as digits."""
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise BadRequestError("page.whole_number", where=name)
    if isinstance(value, str) and len(value) > 20:
        raise BadRequestError("page.whole_number_length", where=name, length=len(value))
    if isinstance(value, str) and not re.fullmatch(r"-?[0-9]+", value):  # int() takes "1_0", " 10 ", "١٠"
        raise BadRequestError("page.whole_number_value", where=name, value=value)
    number = int(value)
    if number < low or (high is not None and number > high):
        raise BadRequestError("page.out_of_range", where=name, number=number)
    return number


def cards_field(data: dict[str, Any], name: str) -> list[str]:
    """Cards in the record's notation, given as a list or typed as text (:func:`scorer.cards.split_card_text`)."""
    value = data.get(name)
    if isinstance(value, str):
        value = split_card_text(value[:2000])  # 黑桃A 红桃10 大王, AS AS, ♠A♠A: one parser, the scorer's
    if not isinstance(value, list) or not all(isinstance(card, str) for card in value):
        raise BadRequestError("record.cards_list", where=name)
    cards = []
    for position, card in enumerate(value):
        try:
            cards.append(scorer.format_card(scorer.parse_card(card)))
        except (InputError, ValueError):
            raise RefusedError("page.typed_card", field=name, index=position, card=card[:20]) from None
    return cards
