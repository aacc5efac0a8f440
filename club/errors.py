"""The club's errors: the database away (:class:`ClubDatabaseDown`, one line, 503) and a request it
refuses (:class:`ClubRefused`, a key and its facts); the names it takes, checked.

>>> checked_name("  ", "table")
Traceback (most recent call last):
...
tuolaji.club.errors.ClubRefused: a table name is 1 to 64 characters
"""

from __future__ import annotations

from typing import Any

from tuolaji.scorer.errors import InputError
from tuolaji.scorer.names import MAX_NAME, BadNameError, check_name


class ClubDatabaseDown(Exception):
    """PostgreSQL cannot be reached (stopped, restarting, the network): one line, status 503."""


class ClubRefused(InputError):
    """A request the club refuses: a ``club.*`` key of :data:`club.messages.CLUB_MESSAGES_EN` and its
    facts (``str(error)`` its English line; a page words it by :func:`web.explain.describe_error`);
    ``status`` is its HTTP status, ``extra`` what its JSON answer adds (``expected``)."""

    def __init__(self, key: str, status: int = 400, /, *, extra: dict[str, Any] | None = None,
                 **params: Any) -> None:
        super().__init__(key, **params)
        self.status = status
        self.extra = dict(extra or {})


def checked_name(name: Any, what: str) -> str:
    """A table's, player's or pair's name (``what``) as the club keeps it (:func:`scorer.names.check_name`),
    or :class:`ClubRefused`."""
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME:
        raise ClubRefused("club.name_length", what=what, most=MAX_NAME)
    try:
        return check_name(name, what)
    except BadNameError as exc:
        raise ClubRefused(exc.key, **exc.params) from None


def first_line(exc: BaseException) -> str:
    """The first line of an exception's words (PostgreSQL's may run on), or its class's name."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
