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


def outcome_words(outcome: dict[str, Any] | None, total: int | None, threshold: int) -> dict[str, str]:
    """The outcome of a deal as players say it.

    >>> outcome_words({"side": "defenders", "levels": 0}, 80, 80)["zh"]
    '庄家下台，闲家上台（不升级）'
    >>> outcome_words({"side": "dealer", "levels": 3}, 0, 80)["zh"]
    '大光：庄家升 3 级'
    """
    if outcome is None:
        return {"zh": "进行中", "en": "in progress"}
    n = int(outcome["levels"])
    if outcome["side"] == "defenders":
        if n == 0:
            return {"zh": "庄家下台，闲家上台（不升级）", "en": "the dealer's side steps down; the defenders take over (no level up)"}
        return {"zh": f"庄家下台，闲家上台升 {n} 级",
                "en": f"the dealer's side steps down; the defenders take over and go up {n}"}
    words = {"zh": f"庄家升 {n} 级", "en": f"the dealer's side goes up {n}"}
    if total is not None and total <= 0:
        words = {"zh": "大光：" + words["zh"], "en": "大光 (no points): " + words["en"]}
    elif total is not None and total < threshold / 2:
        words = {"zh": "小光：" + words["zh"], "en": f"小光 (under {threshold // 2}): " + words["en"]}
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
    zh = [f"第 {row['deal'] + 1} 局", f"庄家 {dealer}", f"打 {row['level']}"]
    en = [f"Deal {row['deal'] + 1}", f"dealer {dealer}", f"level {row['level']}"]
    if not row["complete"]:
        return {"zh": " · ".join(zh + ["进行中"]), "en": " · ".join(en + ["in progress"])}
    zh.append(f"闲家 {row['defender_points']} 分")
    en.append(f"defenders {row['defender_points']}")
    if row.get("agreed"):
        zh.append("认输 / 直接结算")
        en.append("conceded / settled now")
    conceded = row.get("conceded")
    if conceded:  # 认输: no last trick, so no kitty counted nor won
        side_zh, side_en = ("庄家", "the dealer's side") if conceded["by"] == "dealer" else ("闲家", "the defenders")
        agreed_zh, agreed_en = ("商定", "agreed") if conceded["agreed"] else ("按房规", "house rule")
        zh.append(f"{side_zh}认输（{agreed_zh} {conceded['points']} 分）")
        en.append(f"{side_en} conceded ({agreed_en}: {conceded['points']})")
    elif row["kitty_unknown"] and not row["kitty"]:
        zh.append("底牌未知")
        en.append("kitty unknown")
    elif row["kitty_won_by"] == "defenders":
        zh.append(f"抠底 {row['kitty_points']} 分 ×{row['kitty_multiplier']}")
        en.append(f"kitty {row['kitty_points']} ×{row['kitty_multiplier']}")
    else:
        zh.append(f"庄家保底（底分 {row['kitty_points']}）")
        en.append(f"kitty kept ({row['kitty_points']})")
    if row["penalty_points"]:
        zh.append(f"罚分 {_signed(row['penalty_points'])}")
        en.append(f"penalties {_signed(row['penalty_points'])}")
    if row["level_penalties"]:
        zh.append(f"罚降 {row['level_penalties']} 级")
        en.append(f"{row['level_penalties']} level(s) taken as penalty")
    if row["violations"]:
        zh.append(f"违规 {row['violations']} 处")
        en.append(f"{row['violations']} violation{'s' if row['violations'] > 1 else ''}")
    zh.append(f"合计 {row['total']}")
    en.append(f"total {row['total']}")
    outcome = outcome_words(row["outcome"], row["total"], threshold)
    zh.append(outcome["zh"])
    en.append(outcome["en"])
    change_zh = "，".join(f"{s['name']} {s['before']}→{s['after']}" for s in row["sides"])
    change_en = ", ".join(f"{s['name']} {s['before']}→{s['after']}" for s in row["sides"])
    zh.append(change_zh)
    en.append(change_en)
    return {"zh": " · ".join(zh), "en": " · ".join(en)}


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
