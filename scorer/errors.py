"""Typed exceptions shared by every part of tuolaji.

Anything caused by bad input (a malformed record, an unknown card, a missing camera,
a corrupt video) raises a subclass of :class:`InputError` whose message names what
and where, e.g. ``deals[0].tricks[4].plays[2]: unknown card "1H"``. The CLI turns it
into one line on stderr and exit status 2.
"""


class TuolajiError(Exception):
    """Base class of every error tuolaji raises on purpose."""


class InputError(TuolajiError, ValueError):
    """Bad input from a user or a file: one clear line naming what and where."""
