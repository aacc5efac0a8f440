"""Undo and redo of the page's changes, kept in the record's ``history``.

Every change a person makes on the page (a play, a bid or its withdrawal, the kitty, the
deal's settings, a penalty ruling, a card correction, the next deal) appends one entry to
the record's top-level ``history`` list (a key the scorer ignores, kept on round trips):
what the change was and the part of the deal it changed, before and after. Undo and redo
append an entry too (``{"change": "undo", "of": i}``), so the history keeps every
correction in the order it was made, and the change undone stays in it.

The entries are diffs of one deal: the deal's keys that changed (``null``: absent), and
the tricks from the first one that changed. Undo puts the "before" back, redo the
"after", each only while the record still holds what the entry left there: a play the
camera added after a bid, for example, is never silently dropped by undoing the bid (the
undo is refused with the reason).

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

from .dealing import RefusedError

CHANGES = ("play", "bid", "withdraw", "kitty", "setting", "ruling", "correction", "confirm", "next-deal")
_NAMES = {"play": ("出牌", "play"), "bid": ("亮主", "bid"), "withdraw": ("撤回亮主", "withdrawn bid"),
          "kitty": ("底牌", "kitty"), "setting": ("本局设置", "deal setting"), "ruling": ("罚分", "penalty"),
          "correction": ("更正", "correction"), "confirm": ("确认", "confirmation"), "next-deal": ("开始下一局", "next deal")}


def change_words(change: str) -> dict[str, str]:
    """The name of a kind of change in both languages (for the page's undo button)."""
    zh, en = _NAMES.get(change, (change, change))
    return {"zh": zh, "en": en}


def _deal_diff(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    keys = sorted((set(before) | set(after)) - {"tricks"})
    changed = [key for key in keys if before.get(key) != after.get(key)]
    tricks_before, tricks_after = before.get("tricks") or [], after.get("tricks") or []
    first = 0
    while first < min(len(tricks_before), len(tricks_after)) and tricks_before[first] == tricks_after[first]:
        first += 1
    diff: dict[str, Any] = {"before": {key: copy.deepcopy(before.get(key)) for key in changed},
                            "after": {key: copy.deepcopy(after.get(key)) for key in changed}}
    if first < max(len(tricks_before), len(tricks_after)):
        diff |= {"tricks_from": first, "tricks_before": copy.deepcopy(tricks_before[first:]),
                 "tricks_after": copy.deepcopy(tricks_after[first:])}
    return diff


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


def logged(before: dict[str, Any], after: dict[str, Any], change: str) -> dict[str, Any]:
    """``after`` with the change from ``before`` appended to its history (unchanged if nothing changed)."""
    entry = diff(_without_history(before), _without_history(after), change)
    if entry is None:
        return after
    result = copy.deepcopy(after)
    result["history"] = copy.deepcopy(before.get("history") or []) + [entry]
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
    what = change_words(entry["change"])
    verb = ("撤销", "undone") if undoing else ("重做", "redone")
    return RefusedError(f"history: the {what['en']} cannot be {verb[1]}: the record changed since",
                        f"这一步（{what['zh']}）之后记录又有了别的改动，不能{verb[0]}",
                        f"the {what['en']} cannot be {verb[1]}: the record changed after it")


def _apply(record: dict[str, Any], entry: dict[str, Any], undoing: bool) -> dict[str, Any]:
    """The record with ``entry`` taken back (``undoing``) or put back, if it still holds what it left."""
    record = copy.deepcopy(record)
    deals = record["deals"]
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
    deal = deals[index]
    now, then = ("after", "before") if undoing else ("before", "after")
    if any(deal.get(key) != value for key, value in entry[now].items()):
        raise _refused(entry, undoing)
    if "tricks_from" in entry:
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


def _checked_apply(record: dict[str, Any], entry: Any, undoing: bool) -> dict[str, Any]:
    try:
        return _apply(record, entry, undoing)
    except (KeyError, TypeError, IndexError, AttributeError) as exc:  # a history written by something else
        raise RefusedError(f"history: an entry that cannot be applied ({exc!r})", "这条历史记录无法还原",
                           "this history entry cannot be applied") from None


def undo(record: dict[str, Any]) -> dict[str, Any]:
    """The record with the last change still in effect taken back; the history says so."""
    done, _ = stacks(record)
    if not done:
        raise RefusedError("history: nothing to undo", "没有可撤销的改动", "there is nothing to undo")
    result = _checked_apply(record, record["history"][done[-1]], True)
    result["history"] = copy.deepcopy(record["history"]) + [{"change": "undo", "of": done[-1],
                                                             "at": round(time.time(), 3)}]
    return result


def redo(record: dict[str, Any]) -> dict[str, Any]:
    """The record with the last undone change put back; the history says so."""
    _, undone = stacks(record)
    if not undone:
        raise RefusedError("history: nothing to redo", "没有可重做的改动", "there is nothing to redo")
    result = _checked_apply(record, record["history"][undone[-1]], False)
    result["history"] = copy.deepcopy(record["history"]) + [{"change": "redo", "of": undone[-1],
                                                             "at": round(time.time(), 3)}]
    return result


def history_view(record: dict[str, Any]) -> dict[str, Any]:
    """What the page's undo and redo buttons say: the kind of change each would take or put back."""
    undo_kind, redo_kind = can_undo(record), can_redo(record)
    return {"undo": None if undo_kind is None else {"change": undo_kind, "words": change_words(undo_kind)},
            "redo": None if redo_kind is None else {"change": redo_kind, "words": change_words(redo_kind)},
            "entries": len(record.get("history") or [])}
