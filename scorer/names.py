"""The one rule for names (a session, a player, a table, a pair, a deck): printable text only.

A name is trimmed and holds at most :data:`MAX_NAME` characters (a record's players' limit), and no
character that prints nothing or changes how the text around it prints: no control character
(``Cc``: NUL, ESC, a newline, …), no bidirectional override, embedding or isolate, no line or
paragraph separator, no lone surrogate. :func:`check_name` refuses one with a single line (every
entry point: the page, the commands, an import, the club); :func:`clean_name` drops them from a
name written before the rule (what is sent on must be storable); :func:`printable` escapes them in
text bound for a terminal.

>>> check_name("  周五夜 ", "name")
'周五夜'
>>> check_name("周五\\x00夜", "name")
Traceback (most recent call last):
...
tuolaji.scorer.names.BadNameError: name: a name may not hold U+0000 (control characters and text-direction marks print nothing)
>>> clean_name("\\u202e周五\\x1b[31m夜\\n")
'周五[31m夜'
>>> printable("\\x1b]0;pwned\\x07\\x1b[31mRED")
'\\\\x1b]0;pwned\\\\x07\\\\x1b[31mRED'
"""

from __future__ import annotations

import unicodedata
from typing import Any

from .errors import InputError

MAX_NAME = 64
"""The longest name, in characters (a record's players' :data:`scorer.record.MAX_NAME_LENGTH`)."""

BIDI_MARKS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""The text-direction marks, embeddings, overrides and isolates (what turns ``abc`` into ``cba``)."""

_REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})


class BadNameError(InputError):
    """A name that is empty, too long, or holds a character that prints nothing."""


def unprintable(char: str) -> bool:
    """Whether ``char`` is one a name may not hold."""
    return char in BIDI_MARKS or unicodedata.category(char) in _REFUSED_CATEGORIES


def check_name(value: Any, where: str, *, most: int = MAX_NAME, empty: bool = False) -> str:
    """``value`` trimmed, when it is a name by the rule (``empty``: an empty one too); else
    :class:`BadNameError` naming ``where`` and the first character refused."""
    if not isinstance(value, str):
        raise BadNameError("name.type", where=where)
    text = value.strip()
    bad = next((char for char in text if unprintable(char)), None)
    if bad is not None:
        raise BadNameError("name.unprintable", where=where, char=f"U+{ord(bad):04X}")
    if len(text) > most:
        raise BadNameError("record.name_length", where=where, length=len(text), most=most)
    if not text and not empty:
        raise BadNameError("name.empty")
    return text


def clean_name(value: str, most: int = MAX_NAME) -> str:
    """``value`` without the characters a name may not hold, trimmed, cut to ``most`` characters."""
    return "".join(char for char in value if not unprintable(char)).strip()[:most]


def printable(text: str, *, json: bool = False) -> str:
    """``text`` with every character a name may not hold but a newline or a tab written as an escape
    (``\\x1b``, ``\\u202e``): what a terminal is sent of text from a record or a data folder.
    ``json``: JSON text, each as a JSON escape (``\\u001b``: the same text read back)."""
    out = []
    for char in text:
        if char in "\n\t" or not unprintable(char):
            out.append(char)
        elif ord(char) < 0x100 and not json:
            out.append(f"\\x{ord(char):02x}")
        else:
            out.append(f"\\u{ord(char):04x}")
    return "".join(out)
