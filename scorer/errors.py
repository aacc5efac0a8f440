"""Typed exceptions shared by every part of tuolaji.

Anything caused by bad input (a malformed record, an unknown card, a missing camera,
a corrupt video) raises a subclass of :class:`InputError` whose message names what
and where, e.g. ``deals[0].tricks[4].plays[2]: unknown card "1H"``. The CLI turns it
into one line on stderr and exit status 2.

An :class:`InputError` is data: ``key`` (one of :data:`scorer.messages.MESSAGES_EN`, which each
layer's catalogue joins, or the table of its class) and ``params``; ``str(error)`` is the English line rendered from them, and
the page renders the same key and parameters in its own languages.

>>> error = InputError("record.level", where="deals[0].level", value="1")
>>> str(error), error.key, error.params
('deals[0].level: unknown level "1"', 'record.level', {'where': 'deals[0].level', 'value': '1'})
>>> InputError("no camera at /dev/video9").key  # a command's own line: free text
'text'
>>> InputError("camera.no_such_key")  # a key no catalogue has is a mistake, not free text
Traceback (most recent call last):
...
KeyError: "InputError: no message 'camera.no_such_key' (is its layer's catalogue registered?)"
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar

from .messages import FREE_TEXT, MESSAGES_EN, Message, render

_KEY = re.compile(r"[a-z][a-z0-9_]*(\.[a-z0-9_-]+)+")
"""What a message key looks like (``record.at``, ``club.no_table``): free text never does (it has spaces)."""


class TuolajiError(Exception):
    """Base class of every error tuolaji raises on purpose."""


class InputError(TuolajiError, ValueError):
    """Bad input from a user or a file: one clear line naming what and where.

    ``InputError(key, **params)`` with ``key`` in :attr:`messages` (the rules core's table, which
    each layer's catalogue joins: :func:`scorer.messages.register_messages`); a command's own error
    that no page shows may still be one line of English (its key is :data:`~scorer.messages.FREE_TEXT`).
    A key no catalogue holds is a mistake (:class:`KeyError`), with parameters or without.
    """

    messages: ClassVar[Mapping[str, str]] = MESSAGES_EN
    """The English templates of this class's keys."""

    key: str
    params: dict[str, Any]

    def __init__(self, key: str, /, **params: Any) -> None:
        if key == FREE_TEXT:
            template = MESSAGES_EN[FREE_TEXT]
        elif key in self.messages:
            template = self.messages[key]
        elif params or _KEY.fullmatch(key):
            raise KeyError(f"{type(self).__name__}: no message {key!r} (is its layer's catalogue registered?)")
        else:
            key, params, template = FREE_TEXT, {"text": key}, MESSAGES_EN[FREE_TEXT]
        self.key = key
        self.params = params
        super().__init__(render(template, params))

    @property
    def message(self) -> Message:
        """The key and parameters as a :class:`~scorer.messages.Message` of the main table."""
        return Message(self.key, self.params)

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuild, (type(self), self.key, self.params, dict(self.__dict__))


def _rebuild(cls: type[InputError], key: str, params: dict[str, Any], state: dict[str, Any]) -> InputError:
    error = cls.__new__(cls)
    InputError.__init__(error, key, **params)
    error.__dict__.update(state)
    return error
