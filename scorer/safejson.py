"""The one JSON reader for everything that comes from outside (files, uploads, request bodies).

:func:`loads` refuses, with one :class:`JSONInputError` line naming the input and the
place, what :func:`json.loads` would accept but the rest of the program cannot take:
text over a size limit, bytes that are not UTF-8, nesting deeper than a limit (the
standard decoder recurses, and so does everything after it), integers of more digits
than any record needs (Python refuses over 4,300 digits with a bare ``ValueError``),
``NaN``/``Infinity`` and floats that overflow, and lone surrogates in strings or keys
(they cannot be written back as UTF-8: not to SQLite, a page or a terminal).

>>> loads(b'{"players": ["\\\\u4e1c"]}', "record")
{'players': ['东']}
>>> loads("[" * 100 + "]" * 100, "body")
Traceback (most recent call last):
...
tuolaji.scorer.safejson.JSONInputError: body: JSON nested deeper than 32 levels
>>> loads('{"x": "\\\\ud800"}', "hand.json")
Traceback (most recent call last):
...
tuolaji.scorer.safejson.JSONInputError: hand.json: x: a lone surrogate (\\ud800) is not text
"""

from __future__ import annotations

import json
import math
import re
from itertools import accumulate
from typing import Any

from .errors import InputError

MAX_BYTES = 4 * 1024 * 1024
"""The largest JSON text read (a whole 4-deck game of many deals is well under 1 MiB)."""
MAX_RECORD_BYTES = 32 * 1024 * 1024
"""The largest whole record read from a backup (an export, a zip's ``record.json``, ``tuolaji audit``):
what a table keeps (web/store.py: a record row up to 16 MiB and its history apart) comes back; an
export over it drops its oldest history entries and says so."""
MAX_DEPTH = 32
"""The deepest nesting read (a record nests 6 levels)."""
MAX_INT_DIGITS = 30
"""The most digits of an integer (seats, counts and ids need far fewer)."""
MAX_HAND_BYTES = 64 * 1024
"""The largest 嘴和 hand read (a hand written out with every key is under 2 KB): the scorer's
reading of a hand, in Python, must not get megabytes (the web page's route takes it without a token)."""

_STRINGS = re.compile(r'"[^"]*"?')
"""A string once its escapes are gone; an unterminated one runs to the end (every step is linear:
a pattern that backtracks over escapes is quadratic on ``"`` followed by ``\\"`` repeated)."""
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
"""Where a string may get a surrogate (``\\ud800``; a pair is fine): without one none can."""
_NUMBER_CHARS = frozenset("0123456789+-.eE")
_LONG_NUMBER = re.compile(rf"[0-9+\-.eE]{{{MAX_INT_DIGITS + 1},}}")
"""A number that may be too long (outside strings, only numbers are made of these characters)."""
_BIG_EXPONENT = re.compile(r"[eE][+-]?\d{3}")
"""What a number needs to overflow a float (its mantissa is short: see :func:`_check_numbers`)."""
MAX_NUMBER_CHARS = 100


class JSONInputError(InputError):
    """JSON text that is too big, too deep, not UTF-8, not JSON, or holds what no record can."""


class _NumberError(ValueError):
    """A number the JSON may not hold, found while decoding (its place is added by :func:`loads`)."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key, self.params = key, params


def nesting_depth(text: str) -> int:
    """How deeply arrays and objects nest in JSON ``text`` (brackets inside strings do not count).

    >>> nesting_depth('{"a": [[1], "]]]"]}'), nesting_depth(r'["\\", "\"[", "[' + '\\"' * 5)
    (3, 1)
    """
    return _depth(_outside_strings(text))


def _outside_strings(text: str) -> str:
    """``text`` without its strings (and keys): what is left are numbers, brackets and words."""
    return _STRINGS.sub("", text.replace("\\\\", "").replace('\\"', ""))


def _depth(bare: str) -> int:
    return max(accumulate(map(_DEPTH_STEP.__getitem__, _NOT_BRACKETS.sub("", bare))), default=0)


def _check_numbers(bare: str) -> None:
    """Integers of more than :data:`MAX_INT_DIGITS` digits and numbers of more than
    :data:`MAX_NUMBER_CHARS` characters, found in the text without its strings before it is
    decoded (a check per number, in Python, would cost more than the decoding)."""
    for found in _LONG_NUMBER.finditer(bare):
        number = found.group()
        if not any(c in number for c in ".eE"):
            digits = len(number.lstrip("+-"))
            if digits > MAX_INT_DIGITS:
                raise _NumberError("json.int_digits", digits=digits, most=MAX_INT_DIGITS)
        elif len(number) > MAX_NUMBER_CHARS:
            raise _NumberError("json.number_chars", chars=len(number))


def _bad_constant(name: str) -> Any:
    raise _NumberError("json.constant", name=name)


def loads(data: bytes | bytearray | str, where: str, *, max_bytes: int = MAX_BYTES,
          max_depth: int = MAX_DEPTH) -> Any:
    """Decode JSON ``data`` read from ``where`` (a file name, ``request body``…), within the limits."""
    if len(data) > max_bytes:
        raise JSONInputError("json.bytes", where=where, size=len(data), most=max_bytes)
    if isinstance(data, bytes | bytearray):
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JSONInputError("json.utf8", where=where, byte=exc.start) from None
    else:
        text = data
        if _SURROGATE.search(text):
            raise JSONInputError("json.surrogate_text", where=where)
    text = text.removeprefix("\ufeff")
    bare = _outside_strings(text)
    if _depth(bare) > max_depth:
        raise JSONInputError("json.depth", where=where, most=max_depth)

    try:
        _check_numbers(bare)
        value = json.loads(text, parse_constant=_bad_constant)
    except json.JSONDecodeError as exc:
        message = exc.msg.removesuffix(" at")  # "Unterminated string starting at" and its place: one "at"
        raise JSONInputError("json.invalid", where=where, problem=message, line=exc.lineno, column=exc.colno) from None
    except _NumberError as exc:
        raise JSONInputError(exc.key, where=where, **exc.params) from None
    except (ValueError, RecursionError) as exc:
        raise JSONInputError("json.recursion", where=where, problem=str(exc)) from None
    # what can only come from a big exponent or a \\udXXX escape is looked for in the value (in C,
    # by writing it back) only where one is in the text, and walked (in Python) only when found
    big, escaped = _BIG_EXPONENT.search(bare) is not None, _SURROGATE_ESCAPE.search(text) is not None
    if big or escaped:
        try:
            json.dumps(value, ensure_ascii=False, allow_nan=False).encode("utf-8")
        except ValueError:  # UnicodeEncodeError is one
            if big:
                _check_range(bare, where)
            _check_text(value, where, "")
    return value


def _check_range(bare: str, where: str) -> None:
    """The first number that overflows a float (each is at most :data:`MAX_NUMBER_CHARS` long)."""
    for found in _BIG_EXPONENT.finditer(bare):
        start, end = found.start(), found.end()
        while start > 0 and bare[start - 1] in _NUMBER_CHARS:
            start -= 1
        while end < len(bare) and bare[end].isdigit():
            end += 1
        if not math.isfinite(float(bare[start:end])):
            raise JSONInputError("json.range", where=where, number=bare[start:end])


def _check_text(value: Any, where: str, path: str) -> None:
    """Lone surrogates (from ``\\udXXX`` escapes) anywhere in strings or keys."""
    found = _surrogate_at(value)
    if found is not None:
        place = path + "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in found[0])
        text = found[1]
        surrogate = _SURROGATE.search(text)
        assert surrogate is not None
        raise JSONInputError("json.surrogate", where=where, path=place.lstrip(".") or "value",
                             code=ord(surrogate.group()))


def _surrogate_at(value: Any) -> tuple[list[int | str], str] | None:
    """The path to the first string (or key: ``<key>``) holding a lone surrogate, and that string."""
    if isinstance(value, str):
        return ([], value) if _SURROGATE.search(value) else None
    if isinstance(value, list):
        items: Any = enumerate(value)
    elif isinstance(value, dict):
        items = value.items()
    else:
        return None
    search = _SURROGATE.search
    for key, item in items:
        if isinstance(key, str) and search(key):
            return ["<key>"], key
        if isinstance(item, str):
            if search(item):
                return [key], item
        elif isinstance(item, list | dict):
            found = _surrogate_at(item)
            if found is not None:
                return [key, *found[0]], found[1]
    return None


def check_text(value: str, where: str) -> str:
    """``value`` if it is writable text (no lone surrogate), else :class:`JSONInputError`.

    >>> check_text("东", "name")
    '东'
    """
    _check_text(value, where, "")
    return value
