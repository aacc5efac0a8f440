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
scorer.safejson.JSONInputError: body: JSON nested deeper than 32 levels
>>> loads('{"x": "\\\\ud800"}', "hand.json")
Traceback (most recent call last):
...
scorer.safejson.JSONInputError: hand.json: x: a lone surrogate (\\ud800) is not text
"""

from __future__ import annotations

import json
import math
import re
from itertools import accumulate
from typing import Any

from scorer.errors import InputError

MAX_BYTES = 4 * 1024 * 1024
"""The largest JSON text read (a whole 4-deck game of many deals is well under 1 MiB)."""
MAX_DEPTH = 32
"""The deepest nesting read (a record nests 6 levels)."""
MAX_INT_DIGITS = 30
"""The most digits of an integer (seats, counts and ids need far fewer)."""

_STRINGS = re.compile(r'"[^"]*"?')
"""A string once its escapes are gone; an unterminated one runs to the end (every step is linear:
a pattern that backtracks over escapes is quadratic on ``"`` followed by ``\\"`` repeated)."""
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_SURROGATE = re.compile("[\ud800-\udfff]")


class JSONInputError(InputError):
    """JSON text that is too big, too deep, not UTF-8, not JSON, or holds what no record can."""


def nesting_depth(text: str) -> int:
    """How deeply arrays and objects nest in JSON ``text`` (brackets inside strings do not count).

    >>> nesting_depth('{"a": [[1], "]]]"]}'), nesting_depth(r'["\\", "\"[", "[' + '\\"' * 5)
    (3, 1)
    """
    unescaped = text.replace("\\\\", "").replace('\\"', "")
    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub("", unescaped))
    return max(accumulate(map(_DEPTH_STEP.__getitem__, brackets)), default=0)


def _bad_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def loads(data: bytes | bytearray | str, where: str, *, max_bytes: int = MAX_BYTES,
          max_depth: int = MAX_DEPTH) -> Any:
    """Decode JSON ``data`` read from ``where`` (a file name, ``request body``…), within the limits."""
    if len(data) > max_bytes:
        raise JSONInputError(f"{where}: {len(data):,} bytes, over the limit of {max_bytes:,}")
    if isinstance(data, bytes | bytearray):
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JSONInputError(f"{where}: not UTF-8 text (byte {exc.start})") from None
    else:
        text = data
        if _SURROGATE.search(text):
            raise JSONInputError(f"{where}: not UTF-8 text (a lone surrogate)")
    text = text.removeprefix("\ufeff")
    depth = nesting_depth(text)
    if depth > max_depth:
        raise JSONInputError(f"{where}: JSON nested deeper than {max_depth} levels")

    def parse_int(digits: str) -> int:
        if len(digits.lstrip("-")) > MAX_INT_DIGITS:
            raise ValueError(f"an integer of {len(digits.lstrip('-'))} digits (at most {MAX_INT_DIGITS})")
        return int(digits)

    def parse_float(digits: str) -> float:
        if len(digits) > 100:
            raise ValueError(f"a number of {len(digits)} characters")
        number = float(digits)
        if not math.isfinite(number):
            raise ValueError(f"{digits} is out of range")
        return number

    try:
        value = json.loads(text, parse_int=parse_int, parse_float=parse_float, parse_constant=_bad_constant)
    except json.JSONDecodeError as exc:
        message = exc.msg.removesuffix(" at")  # "Unterminated string starting at" and its place: one "at"
        raise JSONInputError(f"{where}: not valid JSON: {message} at line {exc.lineno} column {exc.colno}") from None
    except (ValueError, RecursionError) as exc:
        raise JSONInputError(f"{where}: {exc}") from None
    _check_text(value, where, "")
    return value


def _check_text(value: Any, where: str, path: str) -> None:
    """Lone surrogates (from ``\\udXXX`` escapes) anywhere in strings or keys."""
    if isinstance(value, str):
        found = _SURROGATE.search(value)
        if found:
            place = path.lstrip(".") or "value"
            raise JSONInputError(f"{where}: {place}: a lone surrogate (\\u{ord(found.group()):04x}) is not text")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if not isinstance(item, int | float | bool) and item is not None:
                _check_text(item, where, f"{path}[{index}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(key, where, f"{path}.<key>")
            if not isinstance(item, int | float | bool) and item is not None:
                _check_text(item, where, f"{path}.{key}")


def check_text(value: str, where: str) -> str:
    """``value`` if it is writable text (no lone surrogate), else :class:`JSONInputError`.

    >>> check_text("东", "name")
    '东'
    """
    _check_text(value, where, "")
    return value
