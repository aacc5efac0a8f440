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
    ``record`` an import's whole record. ``base``: the fingerprint of ``before`` (a change received
    without it); ``command``: the command that made it (None: received from elsewhere).
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

    def base_digest(self) -> str | None:
        """The fingerprint of the deal the change started from (None: it adds a deal, or an import)."""
        if self.base is not None:
            return self.base
        return deal_digest(self.before) if self.before is not None else None

    def fits(self, record: Record) -> bool:
        """Whether ``record`` holds what this change started from (a copy that may take it)."""
        if self.deal is None:
            return True
        deals = record.get("deals") or []
        base = self.base_digest()
        if base is None:
            return len(deals) == self.deal
        if self.after is None and self.deal != len(deals) - 1:
            return False
        return 0 <= self.deal < len(deals) and deal_digest(deals[self.deal]) == base

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

    def to_json(self) -> dict[str, Any]:
        """The change as JSON, for another copy of the record (the club): its kind, params and effect,
        the deal it changed, not the record (an import excepted)."""
        data: dict[str, Any] = {"kind": self.kind, "params": self.params, "deal": self.deal}
        if self.record is not None:
            return data | {"record": self.record}
        return data | {"base": self.base_digest(), "after": self.after, "logged": self.logged}

    @classmethod
    def from_json(cls, number: int, data: Any) -> Change:
        """A change from :meth:`to_json`'s form; :class:`BadChangeError` when it is not one."""
        if not isinstance(data, dict) or not isinstance(data.get("kind"), str) or not isinstance(
                data.get("params", {}), dict):
            raise BadChangeError("change.form", n=number)
        deal = data.get("deal")
        if "record" in data:
            if not isinstance(data["record"], dict) or deal is not None:
                raise BadChangeError("change.form", n=number)
            return cls(number, data["kind"], dict(data.get("params") or {}), None, record=data["record"])
        after, logged, base = data.get("after"), data.get("logged"), data.get("base")
        if (not isinstance(deal, int) or isinstance(deal, bool) or deal < 0 or not isinstance(after, dict | None)
                or not isinstance(logged, dict | None) or not isinstance(base, str | None)
                or (after is None and base is None)):
            raise BadChangeError("change.form", n=number)
        return cls(number, data["kind"], dict(data.get("params") or {}), deal, after=after, logged=logged, base=base)
