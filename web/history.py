"""Undo and redo on the page: what its buttons say (:func:`history_view`).

The history itself (its entries, undo and redo) is the live game's: :mod:`session.history`, whose
names are re-exported here. Every change a person makes on the page is a command of the live game
(:class:`session.live.LiveGame`) made with ``history=True``: it appends one entry to the record's
``history``; :meth:`~session.live.LiveGame.undo` and :meth:`~session.live.LiveGame.redo` take the
last one back or put it back.

>>> history_view({"history": [{"change": "bid", "deal": 0, "before": {}, "after": {}}]})["undo"]["words"]
{'zh': '亮主', 'en': 'bid'}
"""

from __future__ import annotations

from typing import Any

from tuolaji.scorer.messages import CHANGE_NAMES_EN, CHANGE_NAMES_ZH
from tuolaji.session.history import (
    CHANGES,
    can_redo,
    can_undo,
    diff,
    logged,
    redo,
    stacks,
    undo,
)

__all__ = ["CHANGES", "can_redo", "can_undo", "change_words", "diff", "history_view", "logged", "redo", "stacks",
           "undo"]


def change_words(change: str) -> dict[str, str]:
    """The name of a kind of change in both languages (for the page's undo button), both the rules
    core's (:data:`scorer.messages.CHANGE_NAMES_EN` and :data:`scorer.messages.CHANGE_NAMES_ZH`)."""
    return {"zh": CHANGE_NAMES_ZH.get(change, change), "en": CHANGE_NAMES_EN.get(change, change)}


def history_view(record: dict[str, Any]) -> dict[str, Any]:
    """What the page's undo and redo buttons say: the kind of change each would take or put back."""
    undo_kind, redo_kind = can_undo(record), can_redo(record)
    return {"undo": None if undo_kind is None else {"change": undo_kind, "words": change_words(undo_kind)},
            "redo": None if redo_kind is None else {"change": redo_kind, "words": change_words(redo_kind)},
            "entries": len(record.get("history") or [])}
