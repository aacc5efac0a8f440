"""只记分 entries read from a page's fields into the game's commands: a trick by its winner and points
(:class:`~session.commands.PlayPoints`, with the deal and trick its sender saw), a deal by its points
(:class:`~session.commands.SettlePoints`, 按一局记), 认输 (:class:`~session.commands.Concede`) and the
kitty's points (:class:`~session.commands.SetKittyPoints`). The table's routes (``web/api.py``) and the
commands a phone at the club queues for the table's machine (``club/attach.py``) read them here, so
both refuse the same entry in the same words (:class:`~web.request_fields.BadRequestError`, or the
command's own refusal when the game applies it)."""

from __future__ import annotations

from typing import Any

from tuolaji import scorer
from tuolaji.session.commands import Concede, PlayPoints, SetKittyPoints, SettlePoints

from .request_fields import BadRequestError, int_field

TRICK_FIELDS = ("winner", "points", "last", "unit", "trump", "deal", "trick")
DEAL_FIELDS = ("defender_points", "last_winner", "unit", "trump", "kitty_points", "agreed")
CONCEDE_FIELDS = ("by", "points")
KITTY_FIELDS = ("deal", "points")
"""The fields each entry reads (what the club keeps of a phone's entry for the table's machine; a deal's
old ``agreed`` too, so that the table's machine refuses it at the club in the words it refuses it here)."""


def _deals(record: dict[str, Any]) -> list[Any]:
    deals: list[Any] = record["deals"]
    if not deals:
        raise BadRequestError("session.no_deal", what="points")
    return deals


def _unit(data: dict[str, Any], name: str = "unit") -> int:
    return int_field(data, name, low=1, high=64)


def trick_command(data: dict[str, Any], record: dict[str, Any]) -> PlayPoints:
    """A trick recorded by its winner and points alone; ``last``: the deal's last trick, won with a
    unit of ``unit`` cards (``trump: false``: not a trump), which ends the deal; ``deal`` and ``trick``:
    the trick its sender meant (a second phone's entry of a recorded trick is refused, named)."""
    _deals(record)
    winner = int_field(data, "winner", high=len(record["players"]) - 1)
    points = int_field(data, "points", high=scorer.record.MAX_POINTS)
    last = data.get("last") is True
    unit = _unit(data) if last or data.get("unit") is not None else None
    seen = (int_field(data, "deal"), int_field(data, "trick")) if "trick" in data else None
    return PlayPoints(winner, points, unit, data.get("trump") is not False, last, None, True, seen)


def concede_command(data: dict[str, Any], record: dict[str, Any]) -> Concede:
    """认输: the current deal conceded by ``by`` (``"dealer"`` or ``"defenders"``), settled by the
    defenders' ``points`` agreed (optional) or the house's fixed cost."""
    _deals(record)
    points = int_field(data, "points", high=scorer.record.MAX_POINTS) if data.get("points") is not None else None
    return Concede(str(data.get("by")), points, True)


def deal_command(data: dict[str, Any], record: dict[str, Any]) -> SettlePoints:
    """The current deal ended by the defenders' points, the last trick's winner and unit and the
    kitty's points (optional). The old ``agreed`` (settled now with the points agreed) is refused,
    naming what to send instead: 认输 is :func:`concede_command` (``/api/points/concede``). Records
    that say ``agreed`` read as before."""
    if "agreed" in data:
        raise BadRequestError("points.agreed_gone")
    _deals(record)
    points = int_field(data, "defender_points", high=scorer.record.MAX_POINTS)
    winner = int_field(data, "last_winner", high=len(record["players"]) - 1)
    kitty = int_field(data, "kitty_points", high=scorer.record.MAX_POINTS) if data.get("kitty_points") is not None else None
    return SettlePoints(points, winner, _unit(data), data.get("trump") is not False, False, kitty, True)


def kitty_command(data: dict[str, Any], record: dict[str, Any]) -> SetKittyPoints:
    """A deal's kitty by its points alone (``deal``, else the current one)."""
    if not record["deals"]:
        raise BadRequestError("session.no_deal", what="kitty")
    deal = int_field(data, "deal", high=len(record["deals"]) - 1) if "deal" in data else len(record["deals"]) - 1
    return SetKittyPoints(deal, int_field(data, "points", high=scorer.record.MAX_POINTS), True)


ENTRIES = {"play-points": (TRICK_FIELDS, trick_command), "settle-points": (DEAL_FIELDS, deal_command),
           "concede": (CONCEDE_FIELDS, concede_command), "set-kitty-points": (KITTY_FIELDS, kitty_command)}
"""Each entry by its command's kind: the fields it reads and the function that makes the command."""
