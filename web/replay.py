"""The replay viewer's timeline: a record seen one play at a time.

Step ``n`` of a record is the game after its first ``n`` plays (in deal, trick and
playing order). A deal's kitty and its completion appear with its last play, so the
hand summary shows at the end of each deal, as it did at the table.

>>> record = {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": ["a", "b", "c", "d"],
...           "deals": [{"level": "2", "trump": "S", "dealer": 0, "kitty": ["5C"],
...                      "tricks": [{"leader": 0, "plays": [["AH"], ["3H"], ["4H"], ["5H"]]}]}]}
>>> [(step["trick"], step["seat"], step["cards"]) for step in timeline(record)][:2]
[(0, 0, ['AH']), (0, 1, ['3H'])]
>>> record_at(record, 1)["deals"][0]["tricks"]
[{'leader': 0, 'plays': [['AH']]}]
>>> "kitty" in record_at(record, 3)["deals"][0], "kitty" in record_at(record, 4)["deals"][0]
(False, True)
"""

from __future__ import annotations

import copy
from typing import Any

from tuolaji.scorer.errors import InputError
from tuolaji.scorer.record_types import is_points_trick
from tuolaji.scorer.seats import seat_of


class NoSuchStepError(InputError):
    """A timeline step outside 0 … the number of plays."""


def timeline(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Every play of the record in order: deal, trick, seat and cards. Recorded by points (只记分),
    a trick is one step (its winner, no cards, its ``points``), and so is a deal kept by its
    defenders' points (trick 0, the last trick's winner)."""
    players = len(record["players"])
    steps = []
    for deal_index, deal in enumerate(record.get("deals", [])):
        if not deal.get("tricks") and deal.get("defender_points") is not None:
            steps.append({"deal": deal_index, "trick": 0, "position": 0, "seat": deal["last_trick"]["winner"],
                          "cards": [], "points": deal["defender_points"]})
        for trick_index, trick in enumerate(deal.get("tricks", [])):
            if is_points_trick(trick):
                steps.append({"deal": deal_index, "trick": trick_index, "position": 0, "seat": trick["winner"],
                              "cards": [], "points": trick["points"]})
                continue
            for position, cards in enumerate(trick["plays"]):
                steps.append({"deal": deal_index, "trick": trick_index, "position": position,
                              "seat": seat_of(trick["leader"], position, players), "cards": list(cards)})
    return steps


def record_at(record: dict[str, Any], step: int) -> dict[str, Any]:
    """The record after its first ``step`` plays (the set-up of the deal in progress included)."""
    steps = timeline(record)
    if not 0 <= step <= len(steps):
        raise NoSuchStepError("replay.no_step", step=step, last=len(steps))
    result = {key: copy.deepcopy(value) for key, value in record.items() if key != "deals"}
    deals = record.get("deals", [])
    if step == 0:
        result["deals"] = [_without_end(deals[0], 0)] if deals else []
        return result
    last = steps[step - 1]
    kept = []
    for deal_index in range(last["deal"] + 1):
        deal = deals[deal_index]
        if deal_index < last["deal"]:
            kept.append(copy.deepcopy(deal))
            continue
        tricks = deal.get("tricks", [])
        if not tricks:  # a deal kept by its defenders' points: its one step shows it whole
            kept.append(copy.deepcopy(deal))
            continue
        played = [copy.deepcopy(trick) for trick in tricks[: last["trick"] + 1]]
        if not is_points_trick(played[-1]):
            played[-1]["plays"] = played[-1]["plays"][: last["position"] + 1]
        deal_over = last["trick"] == len(tricks) - 1 and (
            is_points_trick(tricks[-1]) or last["position"] == len(tricks[-1]["plays"]) - 1)
        partial = copy.deepcopy(deal) if deal_over else _without_end(deal, len(played))
        partial["tricks"] = played
        kept.append(partial)
    result["deals"] = kept
    return result


def _without_end(deal: dict[str, Any], tricks: int) -> dict[str, Any]:
    partial = {key: copy.deepcopy(value) for key, value in deal.items() if key not in ("kitty", "kitty_points", "complete", "tricks")}
    partial["tricks"] = copy.deepcopy(deal.get("tricks", [])[:tricks])
    return partial
