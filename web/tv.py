"""The table's TV (``/tv``): one big screen for everyone at the table, and what it reads aloud.

``GET /tv`` is the page (read-only: it is given no table token); ``GET /api/tv`` is what it
draws, made by :func:`tv_view` from the live page's state (:func:`web.state.state_payload`: the
record, its audit and the view) and nothing else: the big score (the defenders' total once
the deal is settled, their points so far before, with 还差 N 分上台 and 剩余分 while it is
played), the defenders by name, the next dealer once the deal is settled, whose turn it is, the trick on the felt,
the trick before it, the deal's alerts and the calls the page may read aloud
(``announcements``: 「毙了」, 「抠底 ×4」, 「闲家上台」, 「老李 未跟花色」…). Each call has an id
that stays the same as the game goes on, so the page says each one once. Every fact is the
audit's or the view's: a trick won by trumping is :func:`web.results.trumped_tricks`, the
kitty's multiplier and the outcome the audit's, a violation the audit's proven one.

>>> record = {"rules": "standard-2deck", "players": ["老张", "老李", "老王", "老赵"], "deals": [
...     {"level": "2", "trump": "S", "dealer": 0, "tricks": [{"leader": 0, "plays": [["AH"], ["3S"]]}]}]}
>>> from tuolaji import scorer
>>> from . import results, view
>>> audit = scorer.audit_record(record)
>>> payload = {"session": {"id": 1}, "state": {"record": record, "audit": audit, "expected_seat": 2},
...            "view": view.table_view(record, audit) | {"results": results.deal_results(record, audit),
...                                                        "trumped": [results.trumped_tricks(record, audit, 0)]}}
>>> tv = tv_view(payload)
>>> tv["turn"]["name"], [play["name"] for play in tv["felt"]["plays"]], tv["announcements"]
('老王', ['老张', '老李'], [])
>>> tv["to_take_over"], tv["points_out"], tv["defenders"], tv["next_dealer"]
(80, 200, ['老李', '老赵'], None)
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify

from tuolaji.scorer.record_types import is_points_trick
from tuolaji.scorer.scoring import defenders_trick_points
from tuolaji.session.changes import settle_ready

from .api import get_table
from .i18n import STRINGS, both
from .state import state_payload

tv_bp = Blueprint("tv", __name__)


def _name(players: list[Any], seat: Any) -> str:
    return str(players[seat]) if isinstance(seat, int) and 0 <= seat < len(players) else f"#{seat}"


def _rule_words(rule: str) -> dict[str, str]:
    words = STRINGS.get(f"rule.{rule}")
    return {"zh": words["zh"], "en": words["en"]} if words else {"zh": rule, "en": rule}


def known_side(shown: dict[str, Any], deal_view: dict[str, Any]) -> list[int] | None:
    """A deal's dealer side once who defends is known: always with fixed partners; in 找朋友 when the
    view counts the defenders' points (the deal over), not while friends may still be hidden."""
    side = deal_view.get("dealer_side")
    if not side or (shown.get("friends") and deal_view.get("defender_points") is None):
        return None
    return list(side)


def _trick(players: list[Any], trick: dict[str, Any] | None, trick_audit: dict[str, Any] | None,
           index: int, trumped: bool) -> dict[str, Any] | None:
    """A trick as the TV shows it: each play in order (seat, name, cards) and its winner once over."""
    if trick is None:
        return None
    n = len(players)
    raw = trick.get("plays") or []
    leader = trick.get("leader")
    winner = (trick_audit or {}).get("winner") if len(raw) == n else None
    if not raw and isinstance(trick.get("winner"), int):  # 只记分: a trick recorded by its winner and points
        winner = trick["winner"]
    plays = []
    for position, cards in enumerate(raw):
        seat = (int(leader) + position) % n if isinstance(leader, int) and n else position
        plays.append({"seat": seat, "name": _name(players, seat), "cards": list(cards), "winner": seat == winner})
    points = (trick_audit or {}).get("points")
    return {"trick": index, "plays": plays, "winner": winner, "winner_name": None if winner is None else _name(players, winner),
            "points": trick.get("points") if points is None else points, "trumped": bool(trumped and winner is not None)}


def announcements(record: dict[str, Any], audit: dict[str, Any], trumped: list[list[bool]],
                  dealer_sides: list[list[int] | None] | None = None, threshold: int | None = None) -> list[dict[str, str]]:
    """What the TV may read aloud, every deal's in order: ``{"id", "zh", "en"}``.

    毙了 for a trick won by trumping, a trick kept by points alone (只记分) as its winner and its
    points, 闲家够分 the trick the defenders' points reach ``threshold`` (given the deals' dealer
    sides, ``dealer_sides``, None for a deal whose sides are not known yet), a proven violation as the player's name and the rule; once
    the deal is settled (its kitty known), 抠底 ×N when the defenders won the kitty, the outcome
    (闲家上台, 庄家升 N 级) and the game's end. A call's id names what it says of its deal (a
    correction that changes the outcome makes a new call).

    >>> from tuolaji import scorer
    >>> from .results import trumped_tricks
    >>> rec = {"rules": "standard-2deck", "players": list("abcd"), "deals": [{"level": "2", "trump": "S",
    ...        "dealer": 0, "tricks": [{"leader": 0, "plays": [["AH"], ["3S"], ["4H"], ["5H"]]}]}]}
    >>> aud = scorer.audit_record(rec)
    >>> announcements(rec, aud, [trumped_tricks(rec, aud, 0)])
    [{'id': 'd0.t0.trumped', 'zh': '毙了', 'en': 'Trumped!'}]
    """
    players = list(record.get("players") or [])
    deals = list(record.get("deals") or [])
    said: list[dict[str, str]] = []
    for d, deal_audit in enumerate(audit.get("deals") or []):
        tricks = deal_audit.get("tricks") or []
        flags = trumped[d] if d < len(trumped) else []
        found: dict[int, list[dict[str, Any]]] = {}
        for violation in deal_audit.get("violations") or []:
            if violation.get("proven", True) and isinstance(violation.get("trick"), int):
                found.setdefault(int(violation["trick"]), []).append(violation)
        # a violation is said when it is proven, which may be tricks after it was made: in the order found
        recorded = (deals[d].get("tricks") or []) if d < len(deals) else []
        side = dealer_sides[d] if dealer_sides is not None and d < len(dealer_sides) else None
        # the trick whose points give the defenders enough (the scorer's count of their points)
        enough = None if side is None or threshold is None else next(
            (t for t in range(len(tricks)) if defenders_trick_points(tricks[:t + 1], side) >= threshold), None)
        for t in range(len(tricks)):
            if t < len(flags) and flags[t]:
                said.append({"id": f"d{d}.t{t}.trumped", **both("tv.say.trumped")})
            winner = tricks[t].get("winner")
            if t < len(recorded) and is_points_trick(recorded[t]) and winner is not None:  # 只记分
                said.append({"id": f"d{d}.p{t}", **both("tv.say.points", name=_name(players, winner),
                                                        points=int(tricks[t].get("points") or 0))})
            if t == enough:
                said.append({"id": f"d{d}.enough", **both("tv.say.enough")})
        for t in sorted(found):
            for v in found[t]:
                rule = _rule_words(str(v.get("rule")))
                name = _name(players, v.get("seat"))
                said.append({"id": f"d{d}.v{t}.{v.get('seat')}.{v.get('rule')}",
                             **both("tv.say.violation", name=name, rule=rule)})
        outcome = deal_audit.get("outcome")
        # the kitty and the outcome once the deal is settled (its kitty known): said again if a correction changes them
        if outcome is None or d >= len(deals) or not settle_ready(record, d):
            continue
        conceded = deal_audit.get("conceded")
        if conceded:  # 认输: no last trick, no kitty; the side that conceded is said
            said.append({"id": f"d{d}.conceded", **both(f"tv.say.conceded.{conceded['by']}")})
        if deal_audit.get("kitty_won_by") == "defenders" and deal_audit.get("kitty_multiplier"):
            m = int(deal_audit["kitty_multiplier"])
            said.append({"id": f"d{d}.kitty.{m}", **both("tv.say.kitty", m=m)})
        if outcome is not None:
            n = int(outcome.get("levels") or 0)
            if outcome.get("side") == "defenders":
                words = both("tv.say.take_over") if n == 0 else both("tv.say.take_over_up", n=n)
            else:
                words = both("tv.say.dealer_up", n=n)
            said.append({"id": f"d{d}.outcome.{outcome.get('side')}.{n}", **words})
        if deal_audit.get("game_winner"):
            said.append({"id": f"d{d}.game", **both("tv.say.game_over")})
    return said


def tv_view(payload: dict[str, Any]) -> dict[str, Any] | None:
    """What the TV draws and says, from the live page's state payload (None without a game or a deal)."""
    state = payload.get("state")
    if not state or not state["record"].get("deals"):
        return None
    record, audit, shown = state["record"], state["audit"], payload["view"]
    players = list(record.get("players") or [])
    d = len(record["deals"]) - 1
    deal = record["deals"][d]
    deal_audit = audit["deals"][d] if d < len(audit.get("deals") or []) else {}
    trumped = shown.get("trumped") or []
    flags = trumped[d] if d < len(trumped) else []
    row = (shown.get("results") or [])[d] if d < len(shown.get("results") or []) else {}
    settled = bool(row.get("settled")) and row.get("total") is not None
    deal_view = shown["deals"][d] if d < len(shown.get("deals") or []) else {}
    tricks = deal.get("tricks") or []
    trick_audits = deal_audit.get("tricks") or []

    def trick_at(t: int) -> dict[str, Any] | None:
        if not 0 <= t < len(tricks):
            return None
        return _trick(players, tricks[t], trick_audits[t] if t < len(trick_audits) else None, t,
                      bool(t < len(flags) and flags[t]))

    over = deal_audit.get("outcome") is not None
    expected = state.get("expected_seat")
    dealer_sides = [known_side(shown, view_deal) for view_deal in shown.get("deals") or []]
    dealer_side = dealer_sides[d] if d < len(dealer_sides) else None
    return {
        "deal": d,
        "level": deal.get("level"),
        "trump": deal.get("trump"),
        "dealer": {"seat": deal.get("dealer"), "name": _name(players, deal.get("dealer"))},
        "score": {"points": row.get("total") if settled else deal_view.get("defender_points"), "settled": settled,
                  "threshold": shown.get("threshold"), "penalty_points": deal_audit.get("penalty_points") or 0,
                  "kitty_total": deal_view.get("kitty_total")},
        "to_take_over": None if over else deal_view.get("to_take_over"),
        "points_out": None if over else deal_view.get("points_out"),
        "defenders": [] if not dealer_side else [_name(players, seat) for seat in range(len(players))
                                                 if seat not in dealer_side],
        "next_dealer": (_name(players, deal_audit.get("next_dealer"))
                        if settled and deal_audit.get("next_dealer") is not None and not deal_audit.get("game_winner")
                        else None),
        "turn": None if over or expected is None else {"seat": expected, "name": _name(players, expected)},
        "felt": trick_at(len(tricks) - 1),
        "last": trick_at(len(tricks) - 2),
        "outcome": row.get("outcome_words") if over else None,
        "alerts": [{"zh": v["zh"], "en": v["en"]} for v in (deal_view.get("violations") or [])]
        + [{"zh": p["zh"], "en": p["en"]} for p in (deal_view.get("penalties") or [])],
        "levels": [{"name": side["name"], "level": side["after"]} for side in deal_view.get("side_levels") or []],
        "announcements": announcements(record, audit, trumped, dealer_sides, shown.get("threshold")),
    }


@tv_bp.get("/tv")
def tv_page() -> Response:
    from .pages import render_page

    return render_page("tv.html", page="tv", write_token=None)


@tv_bp.get("/api/tv")
def tv_state() -> Response:
    payload = state_payload(get_table())
    return jsonify({"session": payload.get("session"), "feed": payload.get("feed"), "tv": tv_view(payload)})
