"""The journal's entry: one :class:`Change` of a record, what every reader of a change consumes.

:meth:`session.live.LiveGame.apply` makes a change from a command's outcome and moves its record
on with :meth:`Change.applied_to`; the same change is then saved (the table's store, the file),
kept in the record's history when a person made it (its ``logged`` entry: the deal before and
after, so undo is the change's inverse), announced to the page (:mod:`session.announce`) and
queued for the club, which moves its own copy of the record on with the same
:meth:`Change.applied_to` (:meth:`Change.to_json` and :meth:`Change.from_json` carry it; one
deal's worth of data, however long the game). A change touches one deal (changed, added, or the
last one removed) and the history, or, an import, the whole record.

>>> record = {"players": list("abcd"), "deals": [{"level": "2", "tricks": []}]}
>>> after = {"level": "2", "tricks": [{"leader": 0, "plays": [["AS"]]}]}
>>> change = Change(1, "play", {"seat": 0, "cards": ["AS"]}, 0, before=record["deals"][0], after=after)
>>> sent = Change.from_json(1, change.to_json())
>>> sent.fits(record), sent.applied_to(record)["deals"] == [after]
(True, True)
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tuolaji.scorer.errors import InputError

if TYPE_CHECKING:
    from .commands import Command

Record = dict[str, Any]


def deal_digest(deal: dict[str, Any]) -> str:
    """A deal's fingerprint (its JSON, keys sorted): whether a copy holds the deal a change started from."""
    text = json.dumps(deal, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def record_text(record: Record) -> str:
    """A record's compact JSON, its keys sorted (copies that hold the same record, however their keys
    came to be ordered, have one text), as the table's outbox and the club store it."""
    return json.dumps(record, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def text_digest(text: str) -> str:
    """The fingerprint of a record's :func:`record_text`: whether a copy moved on by a change holds
    the record the change made (the club checks it against the table's)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class BadChangeError(InputError):
    """A change sent from elsewhere (the club's push) that is not one: a ``change.*`` key and its facts."""


@dataclass(frozen=True)
class Change:
    """One entry of the live game's journal: a change of the record, as the command that made it.

    ``number``: 1, 2, … in the order the changes were made since the game was opened (the game's
    ``version`` after it); ``kind``: the command's name (:mod:`session.commands`: ``play``,
    ``correct``, ``bid``, ``undo``, ``import``, …); ``params``: its arguments as JSON values;
    ``deal``: the deal it changed (None: the whole record, an import). Its effect: ``before`` and
    ``after``, that deal before and after (``before`` None: added at the end; ``after`` None: the
    last deal removed, an undone next deal), ``logged`` the entry it adds to the record's history,
    ``record`` an import's whole record. ``base``: the fingerprint of the deal it started from:
    ``before``, or for a deal added the deal before it (None: the first deal); ``command``: the
    command that made it (None: received from elsewhere).
    """

    number: int
    kind: str
    params: dict[str, Any] = field(default_factory=dict)
    deal: int | None = None
    before: dict[str, Any] | None = field(default=None, repr=False)
    after: dict[str, Any] | None = field(default=None, repr=False)
    logged: dict[str, Any] | None = field(default=None, repr=False)
    record: Record | None = field(default=None, repr=False)
    base: str | None = field(default=None, repr=False)
    command: Command | None = field(default=None, compare=False, repr=False)
    made: str | None = field(default=None, compare=False, repr=False)
    """The :func:`text_digest` of the record after the change, when it came with one (from elsewhere)."""

    def base_digest(self) -> str | None:
        """The fingerprint of the deal the change started from: the deal changed, or for a deal added
        the one before it (None: the first deal added, or an import)."""
        if self.base is not None or self.before is not None:
            return self.base if self.base is not None else deal_digest(self.before or {})
        return None

    def fits(self, record: Record) -> bool:
        """Whether ``record`` holds what this change started from (a copy that may take it): the
        deal it changes (or, adding one, the deal before it) as it was."""
        if self.deal is None:
            return True
        deals = record.get("deals") or []
        base = self.base_digest()
        start: dict[str, Any] | None
        if self.after is None:  # the last deal removed
            if self.deal != len(deals) - 1:
                return False
            start = deals[-1]
        elif self.deal == len(deals):  # a deal added: after the one before it
            start = deals[-1] if deals else None
        elif 0 <= self.deal < len(deals):
            start = deals[self.deal]
        else:
            return False
        return (start is None and base is None) or (start is not None and deal_digest(start) == base)

    def applied_to(self, record: Record) -> Record:
        """``record`` moved on by this change (``record`` itself unchanged; every deal but the one
        changed shared). The live game and the club's copy both move on through here."""
        if self.record is not None:
            return self.record
        if self.deal is None:
            raise ValueError("a change of no deal carries the whole record")
        result = dict(record)
        deals = result["deals"] = list(record["deals"])
        if self.after is None:
            deals.pop()
        elif self.deal == len(deals):
            deals.append(self.after)
        else:
            deals[self.deal] = self.after
        if self.logged is not None:
            result["history"] = [*(record.get("history") or []), self.logged]
        return result

    def to_json(self, made: str | None = None) -> dict[str, Any]:
        """The change as JSON, for another copy of the record (the club): its kind, params and effect,
        the deal it changed, not the record (an import excepted); ``made``: the :func:`text_digest` of
        the record after it, which the copy moved on must hold."""
        data: dict[str, Any] = {"kind": self.kind, "params": self.params, "deal": self.deal}
        if made is not None:
            data["made"] = made
        if self.record is not None:
            return data | {"record": self.record}
        return data | {"base": self.base_digest(), "after": self.after, "logged": self.logged}

    @classmethod
    def from_json(cls, number: int, data: Any) -> Change:
        """A change from :meth:`to_json`'s form; :class:`BadChangeError` when it is not one."""
        if not isinstance(data, dict) or not isinstance(data.get("kind"), str) or not isinstance(
                data.get("params", {}), dict):
            raise BadChangeError("change.form", n=number)
        deal, made = data.get("deal"), data.get("made")
        if not isinstance(made, str | None):
            raise BadChangeError("change.form", n=number)
        if "record" in data:
            if not isinstance(data["record"], dict) or deal is not None:
                raise BadChangeError("change.form", n=number)
            return cls(number, data["kind"], dict(data.get("params") or {}), None, record=data["record"], made=made)
        after, logged, base = data.get("after"), data.get("logged"), data.get("base")
        if (not isinstance(deal, int) or isinstance(deal, bool) or deal < 0 or not isinstance(after, dict | None)
                or not isinstance(logged, dict | None) or not isinstance(base, str | None)
                or (after is None and base is None)):
            raise BadChangeError("change.form", n=number)
        return cls(number, data["kind"], dict(data.get("params") or {}), deal, after=after, logged=logged, base=base,
                   made=made)
