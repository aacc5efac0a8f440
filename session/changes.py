"""The changes a person makes to a deal (bids, its settings, the kitty, penalty rulings, the next
deal), as the live game's commands make them (:class:`session.live.LiveGame`: ``bid``,
``withdraw_bid``, ``edit_deal``, ``set_kitty``, ``set_kitty_points``, ``play_points``,
``settle_points``, ``rule``, ``remove_ruling``, ``next_deal``).

Each function changes one deal of a record in place: the live game hands it a record whose deal
is a copy of its own (the other deals are shared, never changed), then validates that deal, saves
and audits the change once. Every rule comes from the rules core: the live bidding state
(:func:`scorer.bidding_state`) says which bids stand and decides trump, dealer and the deal's
level; the audit says each seat's level before the deal. A change the game contradicts is refused
(:class:`RefusedError`, a ``change.*`` key and its facts), never applied silently.

>>> record = {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": list("abcd"),
...           "start_levels": ["2", "5", "2", "5"], "deals": [{"level": "2", "trump": "NT", "dealer": 0, "tricks": []}]}
>>> apply_bid(record, 0, 1, ["2H"], levels_before(record, {"deals": []}, 0))
>>> deal = record["deals"][0]
>>> deal["trump"], deal["dealer"], deal["level"]
('H', 0, '2')
>>> settle_ready(record, 0), settle_ready({"deals": [{"kitty_unknown": True}]}, 0)
(False, True)
"""

from __future__ import annotations

import copy
from typing import Any, cast

from tuolaji import scorer
from tuolaji.scorer.cards import RANKS, parse_cards
from tuolaji.scorer.errors import InputError
from tuolaji.scorer.record_types import is_points_trick
from tuolaji.scorer.violation_text import detail
from tuolaji.scorer.violations import Violation


class RefusedError(InputError):
    """A change the game contradicts: a key of :data:`session.messages.SESSION_MESSAGES_EN` and its facts
    (``str(error)`` the English line; the page words the same key, :func:`web.explain.describe_error`).

    ``violation``: the rules core's finding that refuses it (a bid that does not stand), when
    there is one: the page words it (the key's words then start the sentence) for ``players``."""

    def __init__(self, key: str, /, *, violation: Violation | None = None, players: list[str] | None = None,
                 **params: Any) -> None:
        super().__init__(key, **params)
        self.violation = violation
        self.players = list(players or [])


def rules_record(record: dict[str, Any]) -> scorer.Record:
    """The record the live game edits (a JSON document: unknown keys kept, changed in place by the
    rules here) as the rules core's typed record: the same object, of the shape every change keeps
    (each change validates its deal, :func:`scorer.validate_record`)."""
    return cast(scorer.Record, record)


def _start_levels(record: dict[str, Any]) -> list[str]:
    if record.get("start_levels"):
        return [str(level) for level in record["start_levels"]]
    return ["2"] * len(record.get("players", []))


def levels_before(record: dict[str, Any], audit: dict[str, Any], deal_index: int) -> list[str]:
    """Each seat's level when deal ``deal_index`` starts: the start levels, then the levels after
    each complete deal before it, from ``audit`` (the record's audit: a deal's audit depends on the
    deals before it alone, so any audit holding those deals will do)."""
    levels = _start_levels(record)
    for deal_audit in (audit.get("deals") or [])[:deal_index]:
        if deal_audit.get("levels_after"):
            levels = [str(level) for level in deal_audit["levels_after"]]
    return levels


# --- bids ---------------------------------------------------------------------------------------


def _follow_bids(record: dict[str, Any], deal_index: int, levels: list[str],
                 earlier: scorer.AuditRun | None = None) -> None:
    """Trump, dealer and level of the deal as its standing bid decides (unchanged without one)."""
    state = scorer.bidding_state(rules_record(record), deal_index, earlier=earlier)
    deal = record["deals"][deal_index]
    if state.standing is None:
        return
    if state.trump in ("S", "H", "C", "D", "NT"):
        deal["trump"] = state.trump
    if state.dealer is not None:
        deal["dealer"] = state.dealer
        deal["level"] = RANKS[state.deal_level] if state.levels is not None else levels[state.dealer]


def apply_bid(record: dict[str, Any], deal_index: int, seat: int, cards: list[str], levels: list[str], *,
              earlier: scorer.AuditRun | None = None) -> None:
    """One more bid in the deal, if it stands; trump, dealer and level follow the standing bid
    (``levels``: each seat's level before the deal, :func:`levels_before`; ``earlier``: the game's
    audit run, whose deals before this one are not audited again, :func:`scorer.bidding_state`)."""
    deal = record["deals"][deal_index]
    if deal.get("tricks"):
        raise RefusedError("change.bid_started")
    state = scorer.bidding_state(rules_record(record), deal_index, earlier=earlier)
    refusal = state.refusal(seat, parse_cards(cards))
    if refusal is not None:
        raise RefusedError("change.bid_not_standing", detail=detail(refusal),
                           violation=Violation("bad-bid", None, seat, True, refusal), players=record["players"])
    deal.setdefault("bids", []).append({"seat": seat, "cards": list(cards)})
    _follow_bids(record, deal_index, levels, earlier)


def withdraw_bid(record: dict[str, Any], deal_index: int, levels: list[str], *,
                 earlier: scorer.AuditRun | None = None) -> None:
    """The deal without its last bid (taken back); trump and dealer follow the bid that then stands."""
    deal = record["deals"][deal_index]
    if deal.get("tricks"):
        raise RefusedError("change.withdraw_started")
    if not deal.get("bids"):
        raise RefusedError("change.no_bid")
    deal["bids"].pop()
    if not deal["bids"]:
        del deal["bids"]
    _follow_bids(record, deal_index, levels, earlier)


# --- the deal's settings -----------------------------------------------------------------------


def edit_deal(record: dict[str, Any], deal_index: int, changes: dict[str, Any], levels: list[str], *,
              earlier: scorer.AuditRun | None = None) -> None:
    """The deal with ``changes`` (trump, dealer, level, friends) applied, before its first trick.

    The level is the dealer's own level (it is set with him); a level that is not his, or a
    trump or dealer the standing bid contradicts, is refused."""
    deal = record["deals"][deal_index]
    if deal.get("tricks"):
        raise RefusedError("change.deal_started")
    names = record["players"]
    state = scorer.bidding_state(rules_record(record), deal_index, earlier=earlier)
    if state.standing is not None:
        if "trump" in changes and changes["trump"] != deal["trump"]:
            raise RefusedError("change.bid_decides_trump")
        if "dealer" in changes and changes["dealer"] != deal["dealer"]:
            raise RefusedError("change.bid_decides_dealer")
    if "trump" in changes:
        deal["trump"] = changes["trump"]
    if "dealer" in changes:
        deal["dealer"] = changes["dealer"]
    own = levels[deal["dealer"]]
    if "level" in changes and changes["level"] != own:
        raise RefusedError("change.not_dealers_level", level=changes["level"], own=own, seat=deal["dealer"],
                           players=names)
    deal["level"] = own
    if "friends" in changes:
        if changes["friends"]:
            deal["friends"] = copy.deepcopy(changes["friends"])
        else:
            deal.pop("friends", None)


# --- the kitty, the settlement and the next deal ----------------------------------------------------


def settle_ready(record: dict[str, Any], deal_index: int) -> bool:
    """Whether the deal's settlement may be drawn: its kitty recorded (its cards, or only its points:
    ``kitty_points``, docs/RECORD.md 只记分), or marked unknown; or the deal conceded (认输)."""
    deal = record["deals"][deal_index]
    # 认输: a conceded deal has no last trick, so no kitty is asked for
    return (bool(deal.get("kitty")) or deal.get("kitty_points") is not None or bool(deal.get("kitty_unknown"))
            or deal.get("conceded") is not None)


def set_kitty(record: dict[str, Any], deal_index: int, cards: list[str] | None) -> None:
    """The deal's kitty (None: marked unknown, 底牌未知); its cards replace its points."""
    deal = record["deals"][deal_index]
    if cards is None:
        deal.pop("kitty", None)
        deal["kitty_unknown"] = True
    else:
        deal["kitty"] = list(cards)
        deal.pop("kitty_unknown", None)
    deal.pop("kitty_points", None)


def set_kitty_points(record: dict[str, Any], deal_index: int, points: int) -> None:
    """The deal's kitty by its points alone (只记分: ``kitty_points``, its cards not recorded)."""
    deal = record["deals"][deal_index]
    deal["kitty_points"] = points
    deal.pop("kitty", None)
    deal.pop("kitty_unknown", None)


# --- 只记分: tricks and deals recorded by their points (docs/RECORD.md) -----------------------------


def _points_room(record: dict[str, Any], deal_index: int) -> list[Any]:
    """The deal's tricks, when points-only tricks may follow them: the deal neither kept by its
    defenders' points nor over, and no trick of cards half played."""
    deal = record["deals"][deal_index]
    if deal.get("defender_points") is not None:
        raise InputError("points.deal_by_total", deal=deal_index)
    if deal.get("complete"):
        raise InputError("points.deal_done", deal=deal_index)
    if deal.get("conceded") is not None:
        raise InputError("points.deal_conceded", deal=deal_index)
    tricks: list[dict[str, Any]] = deal.setdefault("tricks", [])
    players = len(record["players"])
    if tricks and not is_points_trick(tricks[-1]) and len(tricks[-1].get("plays", [])) < players:
        raise InputError("points.trick_open", deal=deal_index, trick=len(tricks) - 1)
    return tricks


def add_points_trick(record: dict[str, Any], deal_index: int, winner: int, points: int, *,
                     unit: int | None = None, trump: bool = True, last: bool = False, leader: int | None = None) -> None:
    """One more trick recorded by its winner and points (:func:`scorer.points_trick`; ``leader`` if
    known); ``last``: the deal's last trick, won with a unit of ``unit`` cards (the kitty's
    multiplier), which ends the deal (``complete``). Points no trick can hold (not fives, more
    than the decks hold) are refused here, at entry, with the reason: a scorer's slip is not a
    player's violation (the audit's ``bad-points`` stays for records written elsewhere)."""
    decks = scorer.resolve_rules(record.get("rules") or "standard-2deck").decks
    if points % 5:
        raise InputError("session.points_not_five", points=points)
    if points > 100 * decks:
        raise InputError("session.points_too_many", points=points, decks=decks, most=100 * decks)
    tricks = _points_room(record, deal_index)
    tricks.append(scorer.points_trick(winner, points, leader=leader, unit=unit, trump=trump or unit is None))
    if last:
        record["deals"][deal_index]["complete"] = True


def settle_by_points(record: dict[str, Any], deal_index: int, defender_points: int, last_winner: int, unit: int, *,
                     counted: int, defenders: list[int], trump: bool = True, agreed: bool = False) -> None:
    """The deal ended by the defenders' points in its tricks (not the kitty's, nor penalties).

    A deal with no trick yet keeps them as such (:func:`scorer.points_deal`). A deal with tricks
    (``counted``: the defenders' points in them) ends with points-only tricks holding the rest:
    one won by ``last_winner`` with ``unit``, and before it, when he is of the dealer's side, one won
    by the first of ``defenders`` with the rest. ``agreed``: 认输 / 直接结算, the table settled the
    deal before its end with the points agreed: the deal (and such tricks) say ``"agreed": true``."""
    deal = record["deals"][deal_index]
    tricks = _points_room(record, deal_index)
    if not tricks:
        deal.pop("tricks", None)
        deal.pop("complete", None)
        deal.update(scorer.points_deal(defender_points, last_winner, unit, trump=trump))
    else:
        rest = defender_points - counted
        if rest < 0:
            raise InputError("points.below_counted", deal=deal_index, points=defender_points, counted=counted)
        added: list[scorer.PointsTrick] = []
        if last_winner not in defenders and rest > 0:
            added.append(scorer.points_trick(defenders[0], rest))
            rest = 0
        added.append(scorer.points_trick(last_winner, rest, unit=unit, trump=trump))
        for trick in added:
            if agreed:
                trick["agreed"] = True
            tricks.append(trick)
        deal["complete"] = True
    if agreed:
        deal["agreed"] = True


def concede(record: dict[str, Any], deal_index: int, by: str, points: int | None, *, over: bool) -> None:
    """认输: the deal ends by ``by``'s concession (``"dealer"`` or ``"defenders"``), settled by the
    defenders' ``points`` agreed, or the house's fixed cost when None (:func:`scorer.concession_points`):
    no last trick is made up and no kitty is asked for (docs/RECORD.md ``conceded``). The tricks
    recorded stay; ``over``: the deal has ended already (the audit's outcome), which refuses it, as a
    trick half played does. Agreed points come in fives, as any points do."""
    deal = record["deals"][deal_index]
    if over or deal.get("defender_points") is not None:
        raise InputError("session.concede_over", deal=deal_index)
    tricks = deal.get("tricks", [])
    players = len(record["players"])
    if tricks and not is_points_trick(tricks[-1]) and len(tricks[-1].get("plays", [])) < players:
        raise InputError("points.trick_open", deal=deal_index, trick=len(tricks) - 1)
    if points is not None and points % 5:
        raise InputError("session.concede_not_five", points=points)
    deal["conceded"] = {"by": by} if points is None else {"by": by, "points": points}


def next_deal_setup(record: dict[str, Any], audit: dict[str, Any], trump: str, *,
                    run: scorer.AuditRun | None = None) -> dict[str, Any]:
    """The next deal: the audit's next dealer at his new level; in 找朋友 the last dealer's call
    carries over (the new dealer edits it like any setting before the first trick). ``run``: the
    record's audit run (``audit`` is its output), so that 找朋友's winners are not audited again."""
    last = audit["deals"][-1] if audit["deals"] else None
    if last is None or last.get("outcome") is None:
        raise RefusedError("change.deal_not_complete")
    if last.get("game_winner"):
        raise RefusedError("change.game_over")
    if not settle_ready(record, len(record["deals"]) - 1):
        raise RefusedError("change.kitty_first")
    # 找朋友 names no next dealer (the winners' bids make him, RULES §10): the deal starts with the
    # first winner after the last dealer until a bid stands
    dealer = int(last["next_dealer"]) if last["next_dealer"] is not None else scorer.next_dealers(rules_record(record), earlier=run)[0]
    deal: dict[str, Any] = {"level": last["levels_after"][dealer], "trump": trump, "dealer": dealer, "tricks": []}
    previous = record["deals"][-1]
    if previous.get("friends"):
        deal["friends"] = copy.deepcopy(previous["friends"])
    return deal


# --- penalties the table rules (a violation's consequence) ----------------------------------------


def add_ruling(record: dict[str, Any], deal_index: int, audit: dict[str, Any], violation: int, *,
               points: int | None = None, levels: int | None = None, run: scorer.AuditRun | None = None) -> None:
    """A penalty for one of the deal's violations (of ``audit``, the record's) in its ``rulings``:
    the profile's (:func:`scorer.ruling_offers`, from ``run``, the audit's run, when given) when
    neither ``points`` nor ``levels`` is given, else the organiser's own. The audit then counts it
    in the deal's points and levels."""
    violations = audit["deals"][deal_index]["violations"]
    if not 0 <= violation < len(violations):
        raise RefusedError("change.no_violation", deal=deal_index, index=violation)
    found = violations[violation]
    if points is None and levels is None:
        offer = scorer.ruling_offers(rules_record(record), deal_index, audit=audit, run=run)[violation]
        if offer is None:
            raise RefusedError("change.no_penalty")
        ruling = offer
    else:
        ruling = {"seat": found["seat"], "trick": found["trick"], "rule": found["rule"]}
        if levels:
            ruling["levels"] = levels
        elif points:
            ruling["points"] = points
        else:
            raise RefusedError("change.zero_penalty")
    ruling["by"] = "table"
    record["deals"][deal_index].setdefault("rulings", []).append(ruling)


def remove_ruling(record: dict[str, Any], deal_index: int, ruling: int) -> None:
    """The deal without one of its rulings (the penalty taken back)."""
    rulings = record["deals"][deal_index].get("rulings") or []
    if not 0 <= ruling < len(rulings):
        raise RefusedError("change.no_ruling", deal=deal_index, ruling=ruling)
    rulings.pop(ruling)
    if not rulings:
        record["deals"][deal_index].pop("rulings", None)


# --- the camera's revisions of the last trick ------------------------------------------------------


def set_seen(trick: dict[str, Any], seat: int) -> None:
    """``seat``'s play in a recorded ``trick`` is no longer missing (docs/RECORD.md ``missing``): the
    camera read it after all, or saw it taken back."""
    kept = [s for s in trick.get("missing", []) if s != seat]
    if kept:
        trick["missing"] = kept
    else:
        trick.pop("missing", None)


def set_unconfirmed(trick: dict[str, Any], seat: int, unconfirmed: list[int]) -> None:
    """``seat``'s unconfirmed cards in a recorded ``trick`` become ``unconfirmed`` (indices into its play)."""
    kept = [entry for entry in trick.get("unconfirmed", []) if entry[0] != seat]
    kept += [[seat, int(index)] for index in unconfirmed]
    if kept:
        trick["unconfirmed"] = kept
    else:
        trick.pop("unconfirmed", None)
