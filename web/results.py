"""Each deal's result, as the audit gives it, in the words players use (both languages).

One row per deal for the page's history and for 牌局记录 (the sessions list): the
defenders' points, the kitty and its multiplier (抠底 ×N), the penalties, the total, the
outcome (下台, 大光, 小光, 闲家上台（不升级）) and each side's level before and after. Every
figure is the audit's; nothing here scores.

>>> from tuolaji import scorer
>>> record = scorer.random_record("standard-2deck", 0, hand_size=6)
>>> row = deal_results(record, scorer.audit_record(record))[0]
>>> row["complete"], row["total"] == scorer.audit_record(record)["deals"][0]["total_defender_points"]
(True, True)
>>> game_summary(record, scorer.audit_record(record))["winner"] is None
True
"""

from __future__ import annotations

from typing import Any

from tuolaji import scorer
from tuolaji.session.changes import settle_ready

from . import view
from .i18n import both, translate


def outcome_words(outcome: dict[str, Any] | None, total: int | None, threshold: int) -> dict[str, str]:
    """The outcome of a deal as players say it.

    >>> outcome_words({"side": "defenders", "levels": 0}, 80, 80)["zh"]
    '庄家下台，闲家上台（不升级）'
    >>> outcome_words({"side": "dealer", "levels": 3}, 0, 80)["zh"]
    '大光：庄家升 3 级'
    """
    if outcome is None:
        return both("result.in_progress")
    n = int(outcome["levels"])
    if outcome["side"] == "defenders":
        return both("result.take_over") if n == 0 else both("result.take_over_up", n=n)
    words = both("result.dealer_up", n=n)
    if total is not None and total <= 0:
        return both("result.big_zero", words=words)
    if total is not None and total < threshold / 2:
        return both("result.small_zero", words=words, half=threshold // 2)
    return words


def _signed(points: int) -> str:
    return f"+{points}" if points > 0 else str(points)


def deal_results(record: dict[str, Any], audit: dict[str, Any]) -> list[dict[str, Any]]:
    """One result per deal of the record: the audit's figures and a line of words in each language."""
    history = view.level_history(record, audit)
    threshold = view.threshold(record)
    players = record.get("players") or []
    sides = view.sides(record)
    rows = []
    complete_index = 0
    for index, deal in enumerate(record.get("deals", [])):
        deal_audit = audit["deals"][index] if index < len(audit.get("deals", [])) else {}
        before = history[min(complete_index, len(history) - 1)]
        complete = deal_audit.get("outcome") is not None
        settled = complete and settle_ready(record, index)  # its kitty in, or conceded (认输: no kitty)
        after = deal_audit.get("levels_after") if complete else None
        if complete:
            complete_index += 1
        level_penalties = sum(1 for p in deal_audit.get("penalties") or [] if not p.get("points")
                              and "level" in str(p.get("detail", "")))
        row: dict[str, Any] = {
            "deal": index,
            "dealer": deal.get("dealer"),
            "level": deal.get("level"),
            "trump": deal.get("trump"),
            "complete": complete,
            "settled": settled,
            "agreed": bool(deal.get("agreed")),  # 认输 / 直接结算: settled before its end, by agreement
            "conceded": deal_audit.get("conceded"),  # 认输: the side that conceded and the points it counted
            "defender_points": deal_audit.get("defender_points"),
            "kitty": list(deal.get("kitty") or []),
            "kitty_unknown": bool(deal.get("kitty_unknown")),
            "kitty_points": deal_audit.get("kitty_points"),
            "kitty_multiplier": deal_audit.get("kitty_multiplier"),
            "kitty_won_by": deal_audit.get("kitty_won_by"),
            "penalty_points": deal_audit.get("penalty_points") or 0,
            "level_penalties": level_penalties,
            "total": deal_audit.get("total_defender_points"),
            "outcome": deal_audit.get("outcome"),
            "violations": len(deal_audit.get("violations") or []),
            "levels_before": before,
            "levels_after": after,
            "game_winner": deal_audit.get("game_winner"),
            "sides": [{"name": side["name"], "before": before[side["seats"][0]],
                       "after": after[side["seats"][0]] if after else None} for side in sides],
        }
        row["words"] = _row_words(row, players, threshold)
        row["outcome_words"] = outcome_words(row["outcome"], row["total"], threshold)
        rows.append(row)
    return rows


def _row_words(row: dict[str, Any], players: list[str], threshold: int) -> dict[str, str]:
    dealer = players[row["dealer"]] if isinstance(row["dealer"], int) and row["dealer"] < len(players) else "?"
    parts = [both("result.deal", n=row["deal"] + 1), both("result.dealer", name=dealer), both("result.level", level=row["level"])]
    if not row["complete"]:
        return _joined(parts + [both("result.in_progress")])
    parts.append(both("result.defenders", points=row["defender_points"]))
    if row.get("agreed"):
        parts.append(both("result.agreed"))
    conceded = row.get("conceded")
    if conceded:  # 认输: no last trick, so no kitty counted nor won
        parts.append(both("result.conceded", side=both(f"result.side.{conceded['by']}"),
                          how=both("result.how.agreed" if conceded["agreed"] else "result.how.house"), points=conceded["points"]))
    elif row["kitty_unknown"] and not row["kitty"]:
        parts.append(both("result.kitty_unknown"))
    elif row["kitty_won_by"] == "defenders":
        parts.append(both("result.kitty_won", points=row["kitty_points"], m=row["kitty_multiplier"]))
    else:
        parts.append(both("result.kitty_kept", points=row["kitty_points"]))
    if row["penalty_points"]:
        parts.append(both("result.penalties", p=_signed(row["penalty_points"])))
    if row["level_penalties"]:
        parts.append(both("result.level_penalties", n=row["level_penalties"]))
    if row["violations"]:
        parts.append(both("result.violation" if row["violations"] == 1 else "result.violations", n=row["violations"]))
    parts.append(both("result.total", t=row["total"]))
    parts.append(outcome_words(row["outcome"], row["total"], threshold))
    changes = [f"{s['name']} {s['before']}→{s['after']}" for s in row["sides"]]
    parts.append({lang: translate("result.sides", lang).join(changes) for lang in ("zh", "en")})
    return _joined(parts)


def _joined(parts: list[dict[str, str]]) -> dict[str, str]:
    """A result line's parts, each in both languages, joined in each."""
    return {lang: translate("result.parts", lang).join(part[lang] for part in parts) for lang in ("zh", "en")}


def game_summary(record: dict[str, Any], audit: dict[str, Any]) -> dict[str, Any]:
    """The game so far: each side's level now, the winner (names) once a side passed A, a result per deal."""
    history = view.level_history(record, audit)
    players = record.get("players") or []
    now = history[-1]
    levels = [{"name": side["name"], "level": now[side["seats"][0]]} for side in view.sides(record)]
    winner = None
    for index, deal_audit in enumerate(audit.get("deals", [])):
        if deal_audit.get("game_winner"):
            deal = record["deals"][index]
            dealer_seats = view.dealer_side(record, deal)
            seats = [seat for seat in range(len(players))
                     if (seat in dealer_seats) == (deal_audit["game_winner"] == "dealer")]
            winner = [players[seat] for seat in seats]
    return {"levels": levels, "winner": winner, "results": deal_results(record, audit)}


def trumped_tricks(record: dict[str, Any], audit: dict[str, Any], deal_index: int) -> list[bool]:
    """For each trick of a deal: whether it was won by trumping (毙), a trump play beating an off-suit lead.

    >>> record = {"rules": "standard-2deck", "players": list("abcd"), "deals": [{"level": "2", "trump": "S",
    ...           "dealer": 0, "tricks": [{"leader": 0, "plays": [["AH"], ["3S"], ["4H"], ["5H"]]}]}]}
    >>> trumped_tricks(record, scorer.audit_record(record), 0)
    [True]
    """
    deal = record["deals"][deal_index]
    options = scorer.resolve_rules(record.get("rules", "standard-2deck"))
    order = scorer.TrumpOrder.of(str(deal["level"]), deal["trump"], options.twos_trump)
    players = len(record.get("players") or [])
    deal_audit = audit["deals"][deal_index] if deal_index < len(audit.get("deals", [])) else {"tricks": []}
    out = []
    for trick, trick_audit in zip(deal.get("tricks", []), deal_audit.get("tricks", []), strict=False):
        winner = trick_audit.get("winner")
        if winner is None or not trick.get("plays") or not trick["plays"][0]:  # 只记分: no cards
            out.append(False)
            continue
        won_with = trick["plays"][(winner - trick["leader"]) % players]
        led_trump = all(order.is_trump(scorer.parse_card(card)) for card in trick["plays"][0])
        out.append(bool(won_with) and not led_trump and all(order.is_trump(scorer.parse_card(c)) for c in won_with))
    return out
