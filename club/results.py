"""What the club shows of a table's record, and the standings of an evening: pure functions.

:func:`table_summary` is one table's line on the room's page (the deal, the levels, the
defenders' points, whose turn it is, the proven violations); :func:`pair_results` reads a
seating's deals from its record for the two pairs (north-south: seats 0 and 2, east-west:
seats 1 and 3); :func:`standings` ranks the pairs by the rule the organiser picked.

>>> record = {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": ["东", "南", "西", "北"],
...           "start_levels": ["2", "2", "2", "2"],
...           "deals": [{"level": "2", "trump": "S", "dealer": 0, "tricks": []}]}
>>> summary = table_summary(record)
>>> summary["deal"], summary["levels"], summary["expected_seat"]
(1, ['2', '2', '2', '2'], 0)
>>> rows = [{"pair": "甲", "levels_gained": 3, "level_diff": 2, "deals_won": 2, "points": 120},
...         {"pair": "乙", "levels_gained": 3, "level_diff": 4, "deals_won": 1, "points": 80}]
>>> [row["pair"] for row in standings(rows, "levels")]
['乙', '甲']
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

from tuolaji import scorer
from tuolaji.scorer.cards import rank_index
from tuolaji.scorer.errors import InputError
from tuolaji.session.changes import rules_record
from tuolaji.session.live import LiveGame, expected_seat_of
from tuolaji.web.explain import describe_violation

RULES: dict[str, tuple[str, ...]] = {
    "levels": ("levels_gained", "level_diff", "deals_won", "points"),
    "level_diff": ("level_diff", "levels_gained", "deals_won", "points"),
    "deals": ("deals_won", "levels_gained", "level_diff", "points"),
    "points": ("points", "levels_gained", "level_diff", "deals_won"),
}
"""The organiser's ranking rules: the keys compared, first to last (higher is better)."""

COLUMNS = ("rank", "pair", "rounds", "levels_gained", "level_diff", "deals_won", "points")


def _level(name: Any) -> int:
    try:
        return rank_index(str(name))
    except InputError:
        return 0


def table_summary(record: dict[str, Any]) -> dict[str, Any]:
    """One table's state for the room's page: its current deal (1-based), level, trump and dealer,
    every seat's level, the defenders' points so far (and once the deal is settled, ``settled``, its
    total with the kitty and the penalties, ``total_points``), the tricks played, whose turn it is, the
    proven violations (with their evidence and their index among the deal's violations, which a
    ruling names) and the penalties ruled (each deal's ``rulings``)."""
    return summary_and_run(record)[0]


def summary_and_run(record: dict[str, Any], earlier: scorer.AuditRun | None = None) -> tuple[dict[str, Any],
                                                                                            scorer.AuditRun]:
    """:func:`table_summary` and the audit run it was read from; ``earlier``: the run of an earlier
    version of the record, whose deals before the first changed one keep their audit
    (:func:`scorer.audit_again`: a change of the last deal audits that deal alone)."""
    run = scorer.audit_again(rules_record(record), earlier)
    audit = run.output
    deals = record.get("deals", [])
    levels = list(record.get("start_levels") or ["2"] * len(record.get("players", [])))
    for deal_audit in audit["deals"]:
        if deal_audit.get("levels_after"):
            levels = list(deal_audit["levels_after"])
    players = list(record.get("players", []))
    alerts = [{"deal": index + 1, "violation": number, "trick": v["trick"], "seat": v["seat"], "rule": v["rule"],
               "detail": v["detail"], "words": _words(run, index, number, players)}
              for index, deal_audit in enumerate(audit["deals"])
              for number, v in enumerate(deal_audit["violations"]) if v["proven"]]
    rulings = [{"deal": index + 1, **{k: ruling.get(k) for k in ("trick", "seat", "rule", "points", "levels", "by")}}
               for index, deal in enumerate(deals) for ruling in deal.get("rulings") or [] if isinstance(ruling, dict)]
    current = deals[-1] if deals else {}
    current_audit = audit["deals"][-1] if audit["deals"] else {}
    return {
        "players": list(record.get("players", [])),
        "deal": len(deals),
        "level": current.get("level"),
        "trump": current.get("trump"),
        "dealer": current.get("dealer"),
        "levels": levels,
        "defender_points": current_audit.get("defender_points", 0),
        "settled": current_audit.get("outcome") is not None,  # the deal ended: its total counts, no one's turn
        "total_points": current_audit.get("total_defender_points"),  # with the kitty and the penalties, once settled
        "tricks": len(current.get("tricks", [])),
        "expected_seat": expected_seat_of(record),
        "deals_done": sum(1 for deal_audit in audit["deals"] if deal_audit.get("outcome") is not None),
        "alerts": alerts,
        "rulings": rulings,
    }, run


def _words(run: scorer.AuditRun, deal: int, number: int, players: list[str]) -> dict[str, str]:
    """A violation's words in both languages (:func:`web.explain.describe_violation`, from its data)."""
    try:
        violation: Any = run.findings[deal].violations[number]
    except IndexError:
        return {"zh": "", "en": ""}
    described = describe_violation(violation, players)
    return {"zh": str(described["zh"]), "en": str(described["en"])}


def pair_results(record: dict[str, Any], first_deal: int = 0, last_deal: int | None = None) -> dict[str, dict[str, int]]:
    """The two pairs' results (``ns``: seats 0 and 2, ``ew``: seats 1 and 3) over the finished deals
    ``first_deal`` to ``last_deal`` (exclusive; None: all) of a four-player record: levels gained,
    the level difference (级差) at the end, deals won and the points taken while defending."""
    game = LiveGame(record)
    audit = game.audit()
    deals = record.get("deals", [])
    start = list(record.get("start_levels") or ["2"] * len(record.get("players", [])))
    levels_before = start
    for deal_audit in audit["deals"][:first_deal]:
        if deal_audit.get("levels_after"):
            levels_before = list(deal_audit["levels_after"])
    levels_end = levels_before
    won = {"ns": 0, "ew": 0}
    points = {"ns": 0, "ew": 0}
    stop = len(deals) if last_deal is None else min(last_deal, len(deals))
    for index in range(first_deal, stop):
        deal_audit = audit["deals"][index]
        outcome = deal_audit.get("outcome")
        if outcome is None:
            continue
        dealer_side = "ns" if int(deals[index].get("dealer", 0)) % 2 == 0 else "ew"
        defender_side = "ew" if dealer_side == "ns" else "ns"
        winner = defender_side if outcome.get("side") == "defenders" else dealer_side
        won[winner] += 1
        points[defender_side] += int(deal_audit.get("total_defender_points") or 0)
        if deal_audit.get("levels_after"):
            levels_end = list(deal_audit["levels_after"])
    result = {}
    for side, seat, other in (("ns", 0, 1), ("ew", 1, 0)):
        result[side] = {
            "levels_gained": _level(levels_end[seat]) - _level(levels_before[seat]),
            "level_diff": _level(levels_end[seat]) - _level(levels_end[other]),
            "deals_won": won[side],
            "points": points[side],
        }
    return result


def standings(results: Iterable[dict[str, Any]], rule: str = "levels") -> list[dict[str, Any]]:
    """Every pair's totals over its results (one row a pair and round: ``pair`` and the four
    figures), ranked by ``rule`` (a key of :data:`RULES`); pairs equal on every key share a rank."""
    if rule not in RULES:
        raise InputError("club.standings_rule", rule=rule, choices=list(RULES))
    totals: dict[str, dict[str, Any]] = {}
    for row in results:
        total = totals.setdefault(str(row["pair"]), {"pair": str(row["pair"]), "rounds": 0, "levels_gained": 0,
                                                     "level_diff": 0, "deals_won": 0, "points": 0})
        total["rounds"] += 1
        for key in RULES["levels"]:
            total[key] += int(row.get(key, 0))
    keys = RULES[rule]
    ranked = sorted(totals.values(), key=lambda t: (tuple(-t[k] for k in keys), t["pair"]))
    previous: tuple[int, ...] | None = None
    for position, total in enumerate(ranked, start=1):
        figures = tuple(total[k] for k in keys)
        total["rank"] = ranked[position - 2]["rank"] if figures == previous else position
        previous = figures
    return [{column: total[column] for column in COLUMNS} for total in ranked]


def standings_csv(rows: list[dict[str, Any]]) -> str:
    """The standings as CSV (a header line, then one line a pair).

    A text cell a spreadsheet would take for a formula (``=``, ``+``, ``-``, ``@``, a tab or a return
    first) is written with a ``'`` before it; numbers stay numbers.

    >>> standings_csv([{"rank": 1, "pair": "甲", "rounds": 2, "levels_gained": 3, "level_diff": -1,
    ...                 "deals_won": 2, "points": 100}]).splitlines()
    ['rank,pair,rounds,levels_gained,level_diff,deals_won,points', '1,甲,2,3,-1,2,100']
    >>> standings_csv([{"rank": 1, "pair": "=1+2", "rounds": 0, "levels_gained": 0, "level_diff": 0,
    ...                 "deals_won": 0, "points": 0}]).splitlines()[1]
    "1,'=1+2,0,0,0,0,0"
    """
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(COLUMNS), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({column: _cell(row[column]) for column in COLUMNS})
    return out.getvalue()


RESULT_COLUMNS = ("round", "table", "ns", "ew", *(f"ns_{k}" for k in RULES["levels"]),
                  *(f"ew_{k}" for k in RULES["levels"]), "fixed", "reasons")
"""The columns of the results' CSV: a round and table, its two pairs, their figures that count, and
whether the director fixed them (``fixed``: how many times; ``reasons``: each fix's, apart by `` | ``)."""


def results_csv(rows: Iterable[dict[str, Any]]) -> str:
    """Each round's result at each table (:meth:`club.store.ClubStore.table_results`) as CSV.

    >>> figures = {"levels_gained": 2, "level_diff": 1, "deals_won": 1, "points": 40}
    >>> row = {"round": 1, "table": "A", "ns": "甲", "ew": "=乙", "figures": {"ns": figures, "ew": figures},
    ...        "fixes": [{"reason": "少记一级"}]}
    >>> results_csv([row]).splitlines()[1]
    "1,A,甲,'=乙,2,1,1,40,2,1,1,40,1,少记一级"
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(RESULT_COLUMNS)
    for row in rows:
        writer.writerow([_cell(value) for value in (
            row["round"], row["table"], row["ns"], row["ew"], *(row["figures"]["ns"][k] for k in RULES["levels"]),
            *(row["figures"]["ew"][k] for k in RULES["levels"]), len(row["fixes"]),
            " | ".join(fix["reason"] for fix in row["fixes"]))])
    return out.getvalue()


def _cell(value: Any) -> Any:
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value
