"""What the page shows, derived from a record and its audit: sides, levels, the levels chart.

>>> record = {"players": ["东", "南", "西", "北"], "start_levels": ["2", "3", "2", "3"],
...           "deals": [{"level": "2", "trump": "S", "dealer": 0, "tricks": [], "kitty_points": 10}]}
>>> audit = {"deals": [{"levels_after": ["4", "3", "4", "3"]}]}
>>> level_history(record, audit)
[['2', '3', '2', '3'], ['4', '3', '4', '3']]
>>> del record["deals"][0]["kitty_points"]  # the kitty not entered yet: no level has changed
>>> level_history(record, audit)
[['2', '3', '2', '3']]
>>> [side["seats"] for side in sides(record)]
[[0, 2], [1, 3]]
"""

from __future__ import annotations

import copy
import functools
import json
from html import escape
from typing import Any

from tuolaji import scorer
from tuolaji.scorer import violation_text
from tuolaji.scorer.cards import RANKS
from tuolaji.scorer.hands import hands_as_played
from tuolaji.scorer.scoring import (
    concession_points,
    defenders_trick_points,
    level_outcome,
    points_still_out,
    points_to_take_over,
)
from tuolaji.scorer.seats import seat_of
from tuolaji.scorer.violations import DealFindings
from tuolaji.session.changes import rules_record, settle_ready

from .cards import card_label
from .explain import describe_hint, describe_penalty, describe_violation
from .i18n import translate

LEVELS: tuple[str, ...] = RANKS
"""The levels a side plays at are the ranks 2 … A."""

PROFILES: dict[str, dict[str, Any]] = {name: {"decks": options.decks, "players": list(options.players)}
                                        for name, options in scorer.PROFILES.items()}
"""The scorer's rule profiles (docs/RULES.md §13) by name: deck count and the player counts they are for."""

SERIES_COLOURS = ("#d84315", "#1565c0", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f", "#5d4037")


def profile_name(record: dict[str, Any]) -> str:
    """The record's profile name, whether ``rules`` is a name or an options object."""
    rules = record.get("rules")
    if isinstance(rules, dict):
        return str(rules.get("profile", "standard-2deck"))
    return str(rules or "standard-2deck")


def options(record: dict[str, Any]) -> scorer.Options:
    """The scorer's options for the record's ``rules`` (a profile when the record names none)."""
    return scorer.resolve_rules(record.get("rules") or "standard-2deck")


def concession_costs(record: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """认输 with no points agreed, by the side that concedes: the defenders' points it counts as (the
    house's ``concede``, :func:`scorer.scoring.concession_points`) and the outcome they give.

    >>> concession_costs({"rules": "standard-2deck", "players": list("abcd")})["dealer"]
    {'points': 80, 'outcome': {'side': 'defenders', 'levels': 0}}
    """
    opts, players = options(record), len(record.get("players") or [])
    costs = {}
    for by in ("dealer", "defenders"):
        points = concession_points(opts, players, by)
        side, levels = level_outcome(opts, players, points)
        costs[by] = {"points": points, "outcome": {"side": side, "levels": levels}}
    return costs


def decks(record: dict[str, Any]) -> int:
    return options(record).decks


def threshold(record: dict[str, Any]) -> int:
    """The defenders' points that take over the deal (the scorer's, docs/RULES.md §8 and §10).

    >>> threshold({"rules": "standard-2deck", "players": list("abcd")})
    80
    >>> threshold({"rules": "friends-3deck", "players": list("abcdef")})
    100
    >>> threshold({"rules": {"profile": "standard-2deck", "players": [6]}, "players": list("abcdef")})
    80
    """
    return options(record).threshold_for(len(record.get("players", [])))


def is_friends_game(record: dict[str, Any]) -> bool:
    """找朋友: each player with his own level, the dealer's side revealed by the called cards."""
    return options(record).friends


def sides(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The scorer's sides (:func:`scorer.partnerships`): fixed partnerships of alternate seats,
    one side per player in 找朋友; each named by its players."""
    players = record.get("players", [])
    return [{"seats": seats, "name": "·".join(str(players[seat]) for seat in seats)}
            for seats in scorer.partnerships(is_friends_game(record), len(players))]


def start_levels(record: dict[str, Any]) -> list[str]:
    players = len(record.get("players", []))
    if record.get("start_levels"):
        return [str(level) for level in record["start_levels"]]
    return ["2"] * players


def settled_levels_after(record: dict[str, Any], audit: dict[str, Any], deal_index: int) -> list[str] | None:
    """The levels after a deal once it is settled, else None: the current (last) deal's wait for its
    kitty (:func:`session.changes.settle_ready`), as its settlement does, so no side is shown going up
    before the points that decide it are in (issue 43). An earlier deal is settled: the next began."""
    deals = audit.get("deals", [])
    after = deals[deal_index].get("levels_after") if deal_index < len(deals) else None
    if not after:
        return None
    if deal_index == len(record.get("deals", [])) - 1 and not settle_ready(record, deal_index):
        return None
    return [str(level) for level in after]


def level_history(record: dict[str, Any], audit: dict[str, Any]) -> list[list[str]]:
    """Each seat's level at the start, then after every settled deal."""
    history = [start_levels(record)]
    for deal_index in range(len(audit.get("deals", []))):
        after = settled_levels_after(record, audit, deal_index)
        if after:
            history.append(after)
    return history


def level_value(level: str) -> int:
    """2 -> 0 … A -> 12; beyond A (the game is won) -> 13."""
    return LEVELS.index(level) if level in LEVELS else len(LEVELS)


def revealed_friends(record: dict[str, Any], deal: dict[str, Any]) -> list[dict[str, Any]]:
    """找朋友: for each called card, the seat that played the called copy (None while nobody has,
    or when the dealer played it himself and so used the copy up).

    >>> deal = {"dealer": 0, "friends": [{"card": "AS", "nth": 2}],
    ...         "tricks": [{"leader": 0, "plays": [["AS"], ["3S"], ["AS"], ["4S"], ["5S"]]}]}
    >>> revealed_friends({"players": list("abcde")}, deal)
    [{'card': 'AS', 'nth': 2, 'seat': 2, 'played': True}]
    """
    players = len(record.get("players", []))
    result = []
    for call in deal.get("friends", []):
        seen, seat_found, played = 0, None, False
        for trick in deal.get("tricks", []):
            for position, cards in enumerate(trick.get("plays", [])):  # 只记分: a trick without cards
                seat = seat_of(trick["leader"], position, players)
                for card in cards:
                    if card == call["card"] and not played:
                        seen += 1
                        if seen == call["nth"]:
                            played = True
                            seat_found = None if seat == deal.get("dealer") else seat
        result.append({"card": call["card"], "nth": call["nth"], "seat": seat_found, "played": played})
    return result


def dealer_side(record: dict[str, Any], deal_index: int) -> list[int]:
    """The seats known to play with the dealer (the scorer's): his partners, or the friends
    revealed so far; the dealer first."""
    return _dealer_first(record["deals"][deal_index], scorer.dealer_side_seats(rules_record(record), deal_index))


def _dealer_first(deal: dict[str, Any], seats: list[int]) -> list[int]:
    dealer = int(deal.get("dealer", 0))
    return [dealer, *sorted(set(seats) - {dealer})]


def defender_points_so_far(record: dict[str, Any], deal_index: int, deal_audit: dict[str, Any],
                           dealer_seats: list[int] | None = None) -> int | None:
    """The audit's defender points; while the scorer has none (deal in progress), the points of
    tricks won by seats off the dealer's side (fixed partnerships only)."""
    if deal_audit.get("defender_points") is not None:
        return int(deal_audit["defender_points"])
    if is_friends_game(record):
        return None
    if dealer_seats is None:
        dealer_seats = dealer_side(record, deal_index)
    return defenders_trick_points(deal_audit.get("tricks", []), dealer_seats)


def levels_chart_svg(record: dict[str, Any], history: list[list[str]], *, width: int = 460, height: int = 220) -> str:
    """An inline SVG line chart of each side's level after every deal of the session.

    >>> svg = levels_chart_svg({"players": ["a", "b", "c", "d"]}, [["2"] * 4, ["3", "2", "3", "2"]])
    >>> svg.startswith("<svg") and svg.count("<polyline") == 2
    True
    """
    left, top, bottom = 34, 14, 28
    label_width = max((sum(14 if ord(ch) > 0x2E80 else 8 for ch in side["name"]) for side in sides(record)),
                      default=32) + 34
    right = min(label_width, width // 3)  # the sides' names and levels go right of their last point
    plot_w, plot_h = width - left - right, height - top - bottom
    steps = max(len(history) - 1, 1)
    rows = len(LEVELS)

    def x_of(index: int) -> float:
        return left + plot_w * index / steps

    def y_of(level: str) -> float:
        return top + plot_h * (1 - level_value(level) / rows)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" class="levels-chart" '
             f'role="img" aria-labelledby="levels-chart-title"><title id="levels-chart-title">levels</title>']
    for level in LEVELS[::2] + ("A",):
        y = y_of(level)
        parts.append(f'<line x1="{left}" x2="{width - right}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>'
                     f'<text x="{left - 8}" y="{y + 4:.1f}" text-anchor="end" class="axis">{level}</text>')
    for index in range(len(history)):
        parts.append(f'<text x="{x_of(index):.1f}" y="{height - 8}" text-anchor="middle" class="axis">{index}</text>')
    label_rows: list[float] = []
    for number, side in enumerate(sides(record)):
        seat = side["seats"][0]
        colour = SERIES_COLOURS[number % len(SERIES_COLOURS)]
        points = [(x_of(index), y_of(levels[seat])) for index, levels in enumerate(history) if seat < len(levels)]
        if not points:
            continue
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="3" '
                     f'data-side="{number}"/>')
        for (x, y), levels in zip(points, history, strict=False):
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4.5" fill="{colour}">'
                         f'<title>{escape(side["name"])}: {levels[seat]}</title></circle>')
        last_x, last_y = points[-1]
        label_y = last_y + 5
        while any(abs(label_y - taken) < 16 for taken in label_rows):
            label_y -= 16  # sides on the same level: stack their labels
        label_rows.append(label_y)
        parts.append(f'<text x="{last_x + 9:.1f}" y="{label_y:.1f}" text-anchor="start" fill="{colour}" '
                     f'class="series-label">{escape(side["name"])} {history[-1][seat]}</text>')
    parts.append("</svg>")
    return "".join(parts)


HINT_CHOICES = 6
"""The most legal plays the hint lists; with more the rule alone is shown."""


def _cards_text(cards: list[str], lang: str) -> str:
    """The cards as the page writes them (web/cards.py's labels; the English keeps SJ and BJ)."""
    return " ".join(card if lang != "zh" and card in ("SJ", "BJ") else card_label(card) for card in cards)


def play_hint(record: dict[str, Any], audit: dict[str, Any]) -> dict[str, Any] | None:
    """What the seat to play must play, when the record knows the hands ("you must play …").

    ``{"seat", "leading", "rule": {"zh", "en"} | None, "plays": [[card, …], …] | None, "line": {"zh", "en"}}``:
    the follow rule in words (:func:`scorer.follow_hint`) and, when there are at most
    :data:`HINT_CHOICES` legal plays (:func:`scorer.legal_plays`), the plays themselves.
    None without hands, once the deal is over, or if the scorer cannot tell.

    >>> rec = {"rules": "standard-2deck", "players": ["东", "南", "西", "北"],
    ...        "deals": [{"level": "2", "trump": "S", "dealer": 0,
    ...                   "hands": [["AH", "AH"], ["3H", "3H", "5H", "9D"], ["4D", "5D"], ["6D", "7D"]],
    ...                   "tricks": [{"leader": 0, "plays": [["AH", "AH"]]}]}]}
    >>> hint = play_hint(rec, scorer.audit_record(rec))
    >>> hint["line"]["zh"], hint["plays"]
    ('南 该出：跟 2 张♥，须出对子 · 只能出 ♥3 ♥3', [['3H', '3H']])
    """
    deals = record.get("deals") or []
    if not deals or not deals[-1].get("hands"):
        return None
    deal_audits = audit.get("deals") or []
    if len(deal_audits) == len(deals) and deal_audits[-1].get("outcome") is not None:
        return None
    # only the current deal matters; every page asks again after every event, so remember the answer
    current = {key: value for key, value in record.items() if key != "deals"} | {"deals": [deals[-1]]}
    return copy.deepcopy(_play_hint(json.dumps(current, ensure_ascii=False, sort_keys=True)))


@functools.lru_cache(maxsize=64)
def _play_hint(record_json: str) -> dict[str, Any] | None:
    record = json.loads(record_json)
    players = record.get("players") or []
    try:
        tricks = record["deals"][-1].get("tricks") or []
        if tricks and 0 < len(tricks[-1]["plays"]) < len(players):
            seat = seat_of(tricks[-1]["leader"], len(tricks[-1]["plays"]), len(players))
        else:
            leader = scorer.next_leader(record)
            if leader is None:  # the last trick's lead was not seen: who leads is unknown
                return None
            seat = leader
        plays = scorer.legal_plays(record, seat, limit=HINT_CHOICES + 1)
        if not plays:
            return None
        leading = not tricks or len(tricks[-1]["plays"]) in (0, len(players))
        rule_hint = None if leading else scorer.follow_hint_message(record, seat)
    except Exception:  # noqa: BLE001 - a hint the scorer cannot give must never break the page
        return None
    rule = describe_hint(rule_hint, players) if rule_hint else None
    choices = plays if len(plays) <= HINT_CHOICES else None
    name = str(players[seat]) if seat < len(players) else f"#{seat}"
    line = {}
    for lang in ("zh", "en"):
        text = translate("turn.lead" if leading else "turn.play", lang, name=name)
        if rule:
            text += translate("turn.rule", lang, rule=rule[lang])
        if choices:
            text += translate("turn.only" if len(choices) == 1 else "turn.may", lang,
                              cards=" / ".join(_cards_text(p, lang) for p in choices))
        line[lang] = text
    return {"seat": seat, "leading": leading, "rule": {k: rule[k] for k in ("zh", "en")} if rule else None,
            "plays": choices, "line": line}


def audit_texts(record: dict[str, Any], deal_audit: dict[str, Any],
                findings: DealFindings | None = None, *, same_run: bool = False) -> dict[str, list[dict[str, Any]]]:
    """Each violation's and penalty's words in Chinese and English (lists parallel to the audit's),
    from the scorer's data of them (``findings``, :func:`scorer.audit_findings`). ``same_run``: the
    findings are of the run that made ``deal_audit`` (the live game's one audit): read as they are.
    Else a finding without its data, or whose data is not this audit's, keeps the scorer's English
    made readable."""
    players = record.get("players") or []
    violations = deal_audit.get("violations") or []
    penalties = deal_audit.get("penalties") or []
    facts_v = list(findings.violations) if findings is not None else []
    facts_p = list(findings.penalties) if findings is not None else []
    if same_run and findings is not None:
        return {"violations": [describe_violation(fact, players) for fact in facts_v],
                "penalties": [describe_penalty(fact, players) for fact in facts_p]}
    if len(facts_v) != len(violations) or any(
            v.get("rule") != f.rule or v.get("detail") != violation_text.detail(f.fact)
            for v, f in zip(violations, facts_v, strict=False)):
        facts_v = []
    if len(facts_p) != len(penalties) or any(
            p.get("detail") != violation_text.penalty_detail(f.fact) for p, f in zip(penalties, facts_p, strict=False)):
        facts_p = []
    return {"violations": [describe_violation(facts_v[i] if facts_v else v, players) for i, v in enumerate(violations)],
            "penalties": [describe_penalty(facts_p[i] if facts_p else p, players) for i, p in enumerate(penalties)]}


def findings(record: dict[str, Any], audit: dict[str, Any]) -> list[DealFindings]:
    """The scorer's data of the audit's violations and penalties (asked only when there are some;
    the page asks again after every event, so the last answers are remembered)."""
    deals = audit.get("deals") or []
    if not any(deal.get("violations") or deal.get("penalties") for deal in deals):
        return []
    try:
        return _findings(json.dumps(record, ensure_ascii=False, sort_keys=True))
    except Exception:  # noqa: BLE001 - words the scorer cannot give must never break the page
        return []


@functools.lru_cache(maxsize=64)
def _findings(record_json: str) -> list[DealFindings]:
    return scorer.audit_findings(json.loads(record_json))


def kitty_total(deal_audit: dict[str, Any]) -> int | None:
    """The kitty's points the defenders win (kitty points × the multiplier) once the deal is over;
    0 when the dealer's side keeps the kitty; None while the deal goes on.

    >>> kitty_total({"kitty_points": 15, "kitty_multiplier": 4, "kitty_won_by": "defenders"})
    60
    """
    if deal_audit.get("kitty_points") is None:
        return None
    if deal_audit.get("kitty_won_by") != "defenders":
        return 0
    return int(deal_audit["kitty_points"]) * int(deal_audit.get("kitty_multiplier") or 0)


def side_levels(record: dict[str, Any], before: list[str], after: list[str]) -> list[dict[str, Any]]:
    """Each side's level before a deal and after it (the same while it goes on), named by its players."""
    return [{"seats": side["seats"], "name": side["name"], "before": before[side["seats"][0]],
             "after": after[side["seats"][0]]} for side in sides(record)]


def review_hands(record: dict[str, Any], deal_index: int, deal_audit: dict[str, Any]) -> dict[str, Any] | None:
    """复盘 once a deal played with cards is settled: each seat's hand as it played it and the kitty
    its dealer buried (:func:`scorer.hands.hands_as_played`); None before, or when the plays do not
    hold the hands (points only, a play not seen).

    >>> record = {"rules": "standard-2deck", "players": list("abcd"), "deals": [{"level": "2", "trump": "S",
    ...     "dealer": 0, "kitty": ["3C"], "tricks": [{"leader": 0, "plays": [["AH"], ["3S"], ["4H"], ["5H"]]}]}]}
    >>> review_hands(record, 0, {"outcome": {"side": "defenders"}})
    {'hands': [['AH'], ['3S'], ['4H'], ['5H']], 'kitty': ['3C'], 'dealer': 0}
    >>> review_hands(record, 0, {}) is None
    True
    """
    deal = record["deals"][deal_index]
    if deal_audit.get("outcome") is None or not settle_ready(record, deal_index):
        return None
    rebuilt = hands_as_played(deal, len(record.get("players") or []), options(record).twos_trump)
    if rebuilt is None:
        return None
    return {"hands": [list(hand) for hand in rebuilt.hands], "kitty": list(rebuilt.kitty), "dealer": rebuilt.dealer}


def table_view(record: dict[str, Any], audit: dict[str, Any],
               found: list[DealFindings] | None = None,
               dealer_sides: list[list[int]] | None = None) -> dict[str, Any]:
    """The derived figures the page draws next to the record and audit (``found``, ``dealer_sides``:
    the findings and :func:`scorer.dealer_sides` of the run that made ``audit``, when the caller
    has them: the live game's one audit run, whose findings are read as they are). Every number the
    page shows is here or in the audit: per deal ``levels_before``, ``levels_after``, ``side_levels``,
    ``kitty_total``, ``to_take_over`` (还差 N 分上台: None where the defenders are not known yet) and
    ``points_out`` (剩余分: the card points no trick has taken), and for the last deal ``hands``
    (复盘, :func:`review_hands`)."""
    history = level_history(record, audit)
    deals = []
    same_run = found is not None
    dealer_sides = scorer.dealer_sides(rules_record(record)) if dealer_sides is None else dealer_sides
    found = findings(record, audit) if found is None else found
    take_over, deck_count = threshold(record), decks(record)
    for deal_index, deal in enumerate(record.get("deals", [])):
        deal_audit = audit["deals"][deal_index] if deal_index < len(audit.get("deals", [])) else {}
        dealer_seats = _dealer_first(deal, dealer_sides[deal_index])
        before = history[min(deal_index, len(history) - 1)]
        after = settled_levels_after(record, audit, deal_index) or before
        points = defender_points_so_far(record, deal_index, deal_audit, dealer_seats)
        deals.append({
            "levels_before": before,
            "levels_after": after,
            "side_levels": side_levels(record, before, after),
            "kitty_total": kitty_total(deal_audit),
            "dealer_side": dealer_seats,
            "friends": revealed_friends(record, deal),
            "defender_points": points,
            "to_take_over": None if points is None else points_to_take_over(take_over, points),
            "points_out": points_still_out(deal_audit.get("tricks", []), deck_count),
            # 复盘 of the deal the page settles (the last): earlier deals' hands would only grow every state
            "hands": review_hands(record, deal_index, deal_audit) if deal_index == len(record["deals"]) - 1 else None,
            **audit_texts(record, deal_audit, found[deal_index] if deal_index < len(found) else None,
                          same_run=same_run),
        })
    return {
        "profile": profile_name(record),
        "decks": decks(record),
        "threshold": threshold(record),
        "concession": concession_costs(record),
        "friends": is_friends_game(record),
        "friends_count": options(record).friends_count(len(record.get("players") or [])),
        "sides": sides(record),
        "levels": history[-1],
        "level_history": history,
        "levels_chart": levels_chart_svg(record, history),
        "deals": deals,
        "hint": play_hint(record, audit),
    }
