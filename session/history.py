"""Undo and redo of the changes a person makes, kept in the record's ``history`` (the live game's
:meth:`~session.live.LiveGame.undo` and :meth:`~session.live.LiveGame.redo`).

Every change a person makes on the page (a play, a bid or its withdrawal, the kitty, the
deal's settings, a penalty ruling, a card correction, the next deal) appends one entry to
the record's top-level ``history`` list (a key the scorer ignores, kept on round trips):
what the change was and the part of the deal it changed, before and after. Undo and redo
append an entry too (``{"change": "undo", "of": i}``), so the history keeps every
correction in the order it was made, and the change undone stays in it.

The entries are diffs of one deal: the deal's keys that changed (``null``: absent), and
each trick that changed (``tricks_changed``: ``{"i": index, "keys": {key: change}}`` with
each key's value before and after, or only the items a list gained, such as a correction
appended to the trick's ``corrections``; a trick added or removed whole as ``{"i", "before",
"after"}``, ``null`` on the side it is absent; ``tricks_count``: the deal's tricks before
and after). An entry holds what changed and nothing else, so a record grows with what happened,
not with the number of edits (entries of earlier versions, ``tricks_from`` with the
deal's later tricks, are still undone and redone). Entries are never changed once written:
copies of a record share them. Undo puts the "before" back, redo the "after", each only
while the record still holds what the entry left there: a play the camera added after a
bid, for example, is never silently dropped by undoing the bid (the undo is refused with
the reason).

>>> record = {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": list("abcd"),
...           "deals": [{"level": "2", "trump": "NT", "dealer": 0, "tricks": []}]}
>>> played = copy.deepcopy(record)
>>> played["deals"][0]["tricks"] = [{"leader": 0, "plays": [["AS"]]}]
>>> played = logged(record, played, "play")
>>> [entry["change"] for entry in played["history"]], can_undo(played), can_redo(played)
(['play'], 'play', None)
>>> undone = undo(played)
>>> undone["deals"][0]["tricks"], can_redo(undone)
([], 'play')
>>> redo(undone)["deals"][0]["tricks"]
[{'leader': 0, 'plays': [['AS']]}]
"""

from __future__ import annotations

import copy
import time
from typing import Any

from .changes import RefusedError

CHANGES = ("enter-play", "play", "points", "bid", "withdraw", "kitty", "setting", "ruling", "correction", "confirm",
           "next-deal", "settle")
"""The kinds of change of a record's history (their names: ``scorer.messages.CHANGE_NAMES_EN`` and
``CHANGE_NAMES_ZH``)."""


def _deal_diff(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    keys = sorted((set(before) | set(after)) - {"tricks"})
    changed = [key for key in keys if before.get(key) != after.get(key)]
    tricks_before, tricks_after = before.get("tricks") or [], after.get("tricks") or []
    diff: dict[str, Any] = {"before": {key: copy.deepcopy(before.get(key)) for key in changed},
                            "after": {key: copy.deepcopy(after.get(key)) for key in changed}}
    tricks: list[Any] = []
    for index in range(max(len(tricks_before), len(tricks_after))):
        old = tricks_before[index] if index < len(tricks_before) else None
        new = tricks_after[index] if index < len(tricks_after) else None
        if old is new or old == new:
            continue
        if isinstance(old, dict) and isinstance(new, dict):
            tricks.append({"i": index, "keys": {key: _value_change(old.get(key), new.get(key))
                                                for key in sorted(set(old) | set(new)) if old.get(key) != new.get(key)}})
        else:
            tricks.append({"i": index, "before": copy.deepcopy(old), "after": copy.deepcopy(new)})
    if tricks:
        diff |= {"tricks_changed": tricks, "tricks_count": [len(tricks_before), len(tricks_after)]}
    return diff


def _value_change(old: Any, new: Any) -> list[Any]:
    """How one key of a trick changed: ``["tail", n, old[n:], new[n:]]`` for lists that share their
    first n items (a correction appended to ``corrections``: only what was added is kept), else
    ``["set", old, new]`` (``null``: absent)."""
    if isinstance(old, list) and isinstance(new, list):
        shared = 0
        while shared < min(len(old), len(new)) and old[shared] == new[shared]:
            shared += 1
        if shared:
            return ["tail", shared, copy.deepcopy(old[shared:]), copy.deepcopy(new[shared:])]
    return ["set", copy.deepcopy(old), copy.deepcopy(new)]


def _value_applied(value: Any, change: list[Any], now: int, then: int) -> Any:
    """One key of a trick with its change taken back or put back (``now``/``then``: which side of
    the change is there and which is wanted); ``_MISMATCH`` when the trick is not as the change left it."""
    if change[0] == "tail":
        shared = change[1]
        if not isinstance(value, list) or len(value) < shared or value[shared:] != change[now + 1]:
            return _MISMATCH
        return value[:shared] + copy.deepcopy(change[then + 1])
    if value != change[now]:
        return _MISMATCH
    return copy.deepcopy(change[then])


_MISMATCH = object()


def diff(before: dict[str, Any], after: dict[str, Any], change: str) -> dict[str, Any] | None:
    """The history entry of a change from record ``before`` to ``after`` (None: nothing changed)."""
    deals_before, deals_after = before.get("deals", []), after.get("deals", [])
    entry: dict[str, Any] = {"change": change, "at": round(time.time(), 3)}
    if len(deals_after) == len(deals_before) + 1 and deals_after[:-1] == deals_before:
        return entry | {"deal": len(deals_before), "added": copy.deepcopy(deals_after[-1])}
    if len(deals_after) != len(deals_before):
        raise ValueError("history: a change adds or removes one deal at the end, or changes one deal")
    changed = [index for index, (old, new) in enumerate(zip(deals_before, deals_after, strict=True)) if old != new]
    if not changed:
        return None
    if len(changed) > 1:
        raise ValueError("history: a change changes one deal")
    index = changed[0]
    return entry | {"deal": index} | _deal_diff(deals_before[index], deals_after[index])


def entry(change: str, deal: int, before: dict[str, Any] | None, after: dict[str, Any] | None) -> dict[str, Any] | None:
    """The history entry of a change of one deal, from ``before`` to ``after`` (``before`` None: the
    deal added); None when the deal is unchanged."""
    if after is None:
        raise ValueError("history: a person's change never removes a deal")
    head: dict[str, Any] = {"change": change, "at": round(time.time(), 3), "deal": deal}
    if before is None:
        return head | {"added": copy.deepcopy(after)}
    if before is after or before == after:
        return None
    return head | _deal_diff(before, after)


def logged(before: dict[str, Any], after: dict[str, Any], change: str) -> dict[str, Any]:
    """``after`` with the change from ``before`` appended to its history (unchanged if nothing changed)."""
    entry = diff(_without_history(before), _without_history(after), change)
    if entry is None:
        return after
    result = dict(after)  # the entries before are shared, never copied: they are never changed
    result["history"] = [*(before.get("history") or []), entry]
    return result


def _without_history(record: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in record.items() if key != "history"}


def stacks(record: dict[str, Any]) -> tuple[list[int], list[int]]:
    """The history's changes still in effect (undo takes the last) and those undone that redo may
    put back (redo takes the last); a new change clears the redo stack."""
    done: list[int] = []
    undone: list[int] = []
    for index, entry in enumerate(record.get("history") or []):
        kind = entry.get("change") if isinstance(entry, dict) else None
        if kind == "undo":
            if done:
                undone.append(done.pop())
        elif kind == "redo":
            if undone:
                done.append(undone.pop())
        elif kind in CHANGES:
            done.append(index)
            undone.clear()
    return done, undone


def can_undo(record: dict[str, Any]) -> str | None:
    """The kind of change undo would take back, None when there is none."""
    done, _ = stacks(record)
    return record["history"][done[-1]]["change"] if done else None


def can_redo(record: dict[str, Any]) -> str | None:
    """The kind of change redo would put back, None when there is none."""
    _, undone = stacks(record)
    return record["history"][undone[-1]]["change"] if undone else None


def _refused(entry: dict[str, Any], undoing: bool) -> RefusedError:
    return RefusedError("history.undo_changed" if undoing else "history.redo_changed", change=str(entry["change"]))


def _apply(record: dict[str, Any], entry: dict[str, Any], undoing: bool) -> dict[str, Any]:
    """The record with ``entry`` taken back (``undoing``) or put back, if it still holds what it left.
    Only the deal changed is copied; the history is the caller's."""
    record = dict(record)
    deals = record["deals"] = list(record["deals"])
    index = entry["deal"]
    if "added" in entry:
        if undoing:
            if len(deals) != index + 1 or deals[index] != entry["added"]:
                raise _refused(entry, undoing)
            deals.pop()
        else:
            if len(deals) != index:
                raise _refused(entry, undoing)
            deals.append(copy.deepcopy(entry["added"]))
        return record
    if index >= len(deals):
        raise _refused(entry, undoing)
    deal = deals[index] = copy.deepcopy(deals[index])
    now, then = ("after", "before") if undoing else ("before", "after")
    if any(deal.get(key) != value for key, value in entry[now].items()):
        raise _refused(entry, undoing)
    if "tricks_changed" in entry:
        deal["tricks"] = _apply_tricks(deal.get("tricks") or [], entry, undoing)
    if "tricks_from" in entry:  # an entry of an earlier version: the deal's tricks from one on
        first = entry["tricks_from"]
        if (deal.get("tricks") or [])[first:] != entry["tricks_" + now]:
            raise _refused(entry, undoing)
        deal["tricks"] = (deal.get("tricks") or [])[:first] + copy.deepcopy(entry["tricks_" + then])
    for key, value in entry[then].items():
        if value is None:
            deal.pop(key, None)
        else:
            deal[key] = copy.deepcopy(value)
    return record


def _apply_tricks(tricks: list[Any], entry: dict[str, Any], undoing: bool) -> list[Any]:
    """The deal's tricks with the entry's trick changes taken back (``undoing``) or put back;
    refused unless every changed trick is as the entry left it."""
    now, then = (2, 1) if undoing else (1, 2)
    count_now, count_then = (entry["tricks_count"][1], entry["tricks_count"][0]) if undoing else entry["tricks_count"]
    if len(tricks) != count_now:
        raise _refused(entry, undoing)
    side_now, side_then = ("after", "before") if undoing else ("before", "after")
    result = list(tricks[:count_then]) + [None] * max(0, count_then - len(tricks))
    for change in entry["tricks_changed"]:
        index = change["i"]
        current = tricks[index] if index < len(tricks) else None
        if "keys" in change:
            if not isinstance(current, dict):
                raise _refused(entry, undoing)
            trick = dict(current)
            for key, key_change in change["keys"].items():
                value = _value_applied(current.get(key), key_change, now, then)
                if value is _MISMATCH:
                    raise _refused(entry, undoing)
                if value is None:
                    trick.pop(key, None)
                else:
                    trick[key] = value
        else:
            if current != change[side_now]:
                raise _refused(entry, undoing)
            trick = copy.deepcopy(change[side_then])
        if index < count_then:
            result[index] = trick
    if any(trick is None for trick in result):
        raise _refused(entry, undoing)
    return result


def _checked_apply(record: dict[str, Any], entry: Any, undoing: bool) -> dict[str, Any]:
    try:
        return _apply(record, entry, undoing)
    except RefusedError:
        raise
    except (KeyError, TypeError, IndexError, AttributeError, ValueError) as exc:  # a history written by something else
        raise RefusedError("history.bad_entry", problem=repr(exc)) from None


def undo(record: dict[str, Any]) -> dict[str, Any]:
    """The record with the last change still in effect taken back; the history says so."""
    done, _ = stacks(record)
    if not done:
        raise RefusedError("history.nothing_to_undo")
    result = _checked_apply(record, record["history"][done[-1]], True)
    result["history"] = [*record["history"], {"change": "undo", "of": done[-1], "at": round(time.time(), 3)}]
    return result


def redo(record: dict[str, Any]) -> dict[str, Any]:
    """The record with the last undone change put back; the history says so."""
    _, undone = stacks(record)
    if not undone:
        raise RefusedError("history.nothing_to_redo")
    result = _checked_apply(record, record["history"][undone[-1]], False)
    result["history"] = [*record["history"], {"change": "redo", "of": undone[-1], "at": round(time.time(), 3)}]
    return result
