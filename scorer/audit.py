"""The audit (docs/RECORD.md "Audit output", RULES §11): every violation, proven or not,
points, kitty, penalties and the deal's outcome.

Hands: the record's ``hands`` when given (exact, everything proven at once); otherwise
a seat's hand at trick t is every card it plays from trick t on (plus the cards of its
own ``attempt`` at t) — a lower bound during the deal, exact once it is complete.
Evidence names the later play that proves a card was held.

>>> from tuolaji.scorer.record import random_record
>>> out = audit_record(random_record("standard-2deck", seed=2))
>>> out["deals"][0]["violations"], out["deals"][0]["outcome"]["side"] in ("dealer", "defenders")
([], True)
"""

from __future__ import annotations

import dataclasses
import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Literal, Protocol

from .bidding import BiddingState, bid_findings
from .cards import CARD_NAMES, CARD_POINTS, RANKS
from .follow import check_follow, hand_counts, suit_holding
from .formats import Lead, Unit, beating_unit, counts_of, embeddings, read_format, satisfies
from .order import SUIT_LABELS, TRUMP, TrumpOrder
from .profiles import PENALTY_OPTIONS, Options
from .record import (
    Concession,
    ParsedDeal,
    ParsedRecord,
    ParsedTrick,
    RecordError,
    missing_winner,
    parse_record,
    parsed_dealer_side,
)
from .record_types import Record
from .scoring import (
    advance_level,
    concession_points,
    dealer_side,
    is_unit_size,
    jack_hook_level,
    kitty_multiplier,
    level_outcome,
    next_dealer,
)
from .seats import seat_of
from .state import forced_key, forced_unit, trick_resolution
from .violation_text import OFFENCE_EN, detail, penalty_detail
from .violations import (
    AttemptCardNotHeld,
    AttemptSingle,
    AttemptStands,
    AttemptUnproven,
    Beaten,
    BidNotHeld,
    CardNotInHand,
    CardTooMany,
    CountFollow,
    DealerNotWinner,
    DealerRotation,
    DealerWrongLevel,
    DealFindings,
    EmptyLead,
    Evidence,
    Fact,
    FriendCallCopy,
    FriendCallTrump,
    KittyPointsMismatch,
    KittySize,
    LeaderNotDealer,
    LeaderNotWinner,
    MixedAttempt,
    MixedLead,
    Offence,
    Penalty,
    PenaltyFact,
    PointsNotFive,
    PointsTooMany,
    Revoke,
    RulingFact,
    ThrowStood,
    UnitImpossible,
    UnitMissing,
    Violation,
    WrongForcedUnit,
    WrongFormat,
)


class _Previous(Protocol):
    """What a deal's audit reads of the previous deal's: the side that went up and the next dealer."""

    winners: set[int] | None
    next_dealer: int | None


class _Carried:
    """What a finished deal's audit leaves for the next deal and for auditing the record again."""

    __slots__ = ("winners", "next_dealer", "levels_before", "levels_after", "output", "findings")

    def __init__(self, audit: _DealAudit) -> None:
        self.winners = audit.winners
        self.next_dealer = audit.next_dealer
        self.levels_before = audit.levels_before
        self.levels_after = audit.levels_after
        self.output = audit.output
        self.findings = audit.deal_findings()


PLAY_AGAINST_LEAD = frozenset({"must-follow-suit", "must-follow-format", "wrong-card-count"})
"""Violations of a follow judged against its lead alone: no other follow of the trick matters."""


def _evidence_in(fact: Fact, seat: int) -> Iterator[tuple[int, Evidence]]:
    """(seat, evidence) of each place a fact names where a seat's cards show up: its own
    ``evidence`` (about ``seat``, the seat at fault) and each beaten unit's (about the seat that
    could beat it)."""
    for field in dataclasses.fields(fact):
        value = getattr(fact, field.name)
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, Evidence):
                yield seat, item
            elif isinstance(item, Beaten):
                yield item.seat, item.evidence


class _DealAudit:
    """One pass over a deal: evidence tables, then trick by trick (:meth:`run`)."""

    def __init__(self, parsed: ParsedRecord, index: int, levels_before: list[int],
                 previous: _Previous | None = None):
        self.parsed = parsed
        self.previous = previous
        self.winners: set[int] | None = None  # the side that went up (complete deals)
        self.next_dealer: int | None = None
        self.opts: Options = parsed.options
        self.n = parsed.players
        self.d: ParsedDeal = parsed.deals[index]
        self.index = index
        self.levels_before = levels_before
        self.order = TrumpOrder.of(self.d.level, self.d.trump, self.opts.twos_trump)
        self.violations: list[dict[str, Any]] = []
        self.findings: list[Violation] = []  # the violations as data, parallel to ``violations``
        self.penalties: list[dict[str, Any]] = []
        self.penalty_findings: list[Penalty] = []
        self._pending_penalties: list[tuple[int | None, int, int, PenaltyFact | RulingFact]] = []
        self._penalty_basis: list[set[tuple[int, int]]] = []  # per pending penalty: the plays it rests on
        self.level_penalty_seats: list[int] = []
        self.levels_after: list[int] | None = None
        self.output: dict[str, Any] = {}
        # filled by run()
        self.played_at: list[dict[int, list[int]]] = []
        self.complete = False
        self.exact = False
        self.buried: list[int] = []
        self.unplaced: list[int] = []
        self.seen_copies: list[int] = []
        self.points = [0] * self.n
        self.prev_winner: int | None = None
        self.last_winner_play: tuple[Lead, list[int]] | None = None
        self.last_points_trick: ParsedTrick | None = None  # the last trick, when recorded by points
        self.dealer_side: set[int] = set()
        self.missing_plays: list[dict[str, int]] = []  # plays not seen (``missing``): {"trick", "seat"}
        self.unseen: set[int] = set()  # with ``hands``: seats a play of which was not seen (their hand unknown since)

    # ---------------------------------------------------------------- helpers
    def seat_of(self, t: int, j: int) -> int:
        return seat_of(self.d.tricks[t].leader, j, self.n)

    def later_tricks(self, seat: int, card: int, trick: int, copies: int, include_current: bool) -> list[int]:
        """The first ``copies`` tricks from ``trick`` on (or after it) in which ``seat`` played ``card``."""
        found = [t for t in self.played_at[seat].get(card, ()) if t > trick or (include_current and t == trick)]
        return found[:copies]

    def evidence(self, seat: int, cards: list[int], trick: int, include_current: bool = False) -> Evidence:
        """Where each of ``cards`` (held by ``seat`` at ``trick``) shows up: a later play
        (or this trick's, with ``include_current``), the trick's attempt, or the hand."""
        need: dict[int, int] = {}
        for c in cards:
            need[c] = need.get(c, 0) + 1
        where: set[int] = set()
        attempt_seen: int | None = None
        unplayed = False
        for c, k in need.items():
            ts = self.later_tricks(seat, c, trick, k, include_current)
            where.update(ts)
            if len(ts) < k:
                # an attempt shows what its leader held then (before the trick: held since;
                # after it: held all along)
                shown = [t0 for t0 in [*range(trick, -1, -1), *range(trick + 1, len(self.d.tricks))]
                         if self.d.tricks[t0].attempt and self.seat_of(t0, 0) == seat
                         and c in self.d.tricks[t0].attempt]
                if shown:
                    attempt_seen = shown[0]
                else:
                    unplayed = True
        hand = (unplayed and self.d.hands is not None) or (not where and attempt_seen is None)
        return Evidence(trick, tuple(sorted(where)), attempt_seen, hand)

    def add(self, trick: int | None, seat: int, rule: str, proven: bool, fact: Fact,
            play: dict[str, Any] | None = None) -> None:
        found = Violation(rule, trick, seat, proven, fact)
        v = {"trick": trick, "seat": seat, "rule": rule, "proven": proven, "detail": detail(fact)}
        self.findings.append(found)
        self.violations.append(v)
        if play is not None:
            play["violations"].append(v)
            play["legal"] = False

    # ---------------------------------------------------------------- main
    def run(self) -> dict[str, Any]:
        """The deal's audit (docs/RECORD.md): the evidence tables and the deal-level checks, then
        each trick (its leader, the cards' availability, the lead, the follows, the winner),
        then the result."""
        played_total = self._tables()
        known = self._known_hands()
        self._deal_checks(played_total)
        self._copies()
        out_tricks: list[dict[str, Any]] = []
        for t, tr in enumerate(self.d.tricks):
            out_tricks.append(self._trick(t, known))
            if not tr.plays:
                continue
            if self.d.hands is not None:
                self._consume(known, t)
            elif t + 1 < len(self.d.tricks):
                known = self.bounds[t + 1]
        return self._result(out_tricks)

    def _tables(self) -> list[int]:
        """Which tricks each seat played each card in (the evidence), and whether the deal is
        complete (then the plays are the whole hands) or its hands known exactly; returns the
        number of cards each seat played."""
        d, n = self.d, self.n
        tricks = d.tricks
        self.played_at = [{} for _ in range(n)]
        played_total = [0] * n
        for t, tr in enumerate(tricks):
            for j, p in enumerate(tr.plays):
                s = (tr.leader + j) % n  # seat_of
                played_total[s] += len(p)
                at = self.played_at[s]
                for c in p:
                    if c in at:
                        at[c].append(t)
                    else:
                        at[c] = [t]
        self.missing_plays = [{"trick": t, "seat": s} for t, tr in enumerate(tricks) for s in tr.missing]
        if d.conceded is not None:  # 认输: over by a concession; the plays are not the whole hands
            self.complete = True
            self.exact = d.hands is not None
            return played_total
        if d.points_only:  # 只记分: the cards do not make the hands, the record says when it is over
            self.complete = d.complete_flag if d.complete_flag is not None else d.defender_points is not None
            self.exact = False
            return played_total
        last_full = bool(tricks) and len(tricks[-1].plays) == n
        full = self.opts.hand_size_for(n)
        self.complete = bool(
            d.complete_flag
            or (d.hands is not None and tricks and last_full
                and all(played_total[s] == len(d.hands[s]) for s in range(n)))
            or (tricks and last_full and all(played_total[s] == full for s in range(n)))
        )
        # a play not seen: the plays are not the whole hands, even once the deal is over
        self.exact = (self.complete and not self.missing_plays) or d.hands is not None
        return played_total

    def _known_hands(self) -> list[list[int]]:
        """What each seat holds at the first trick: the recorded hands, else the least its plays show."""
        if self.d.hands is not None:
            return [hand_counts(h) for h in self.d.hands]
        self._bound_hands()
        return self.bounds[0] if self.d.tricks else [[0] * 54 for _ in range(self.n)]

    def _copies(self) -> None:
        """The copies of each card the kitty buries, and those the record places nowhere."""
        decks = self.opts.decks
        # the buried cards cannot be played: they count against the decks' copies
        self.buried = [0] * 54
        for c in self.d.kitty or ():
            self.buried[c] = min(self.buried[c] + 1, decks)
        # copies of each card the record does not place anywhere (no play, not in the kitty)
        placed = list(self.buried)
        for seat_plays in self.played_at:
            for c, ts in seat_plays.items():
                placed[c] += len(ts)
        self.unplaced = [max(0, decks - x) for x in placed]
        self.seen_copies = list(self.buried)

    def _trick(self, t: int, known: list[list[int]]) -> dict[str, Any]:
        """One trick's audit output, its plays judged in order."""
        tr = self.d.tricks[t]
        if tr.winner is not None and tr.points is not None:
            return self._points_trick(t, tr.winner, tr.points)
        plays_out = [{"seat": seat_of(tr.leader, j, self.n), "cards": [CARD_NAMES[c] for c in p], "legal": True,
                      "violations": []} for j, p in enumerate(tr.plays)]
        points = 0
        for p in tr.plays:
            for c in p:
                points += CARD_POINTS[c]
        trick_out: dict[str, Any] = {"leader": tr.leader, "winner": None, "points": points, "plays": plays_out}
        if tr.missing:  # plays not seen: judged for what is known (docs/RECORD.md ``missing``)
            trick_out["missing"] = sorted(tr.missing)
        self._check_leader(t, plays_out)
        self._check_availability(t, known, plays_out)
        if not tr.plays:
            return trick_out
        if tr.leader in tr.missing:  # the lead not seen: no follow can be judged
            self._settle_missing(t, None, trick_out)
            return trick_out
        lead = Lead.of(self.order, tr.plays[0], self.opts)
        self._check_lead(t, lead, known, plays_out[0])
        if tr.plays[0]:
            self._check_follows(t, lead, known, plays_out)
        self._settle_winner(t, lead, trick_out)
        return trick_out

    def _check_leader(self, t: int, plays_out: list[dict[str, Any]]) -> None:
        """The dealer leads the first trick, the last trick's winner every other."""
        leader = self.d.tricks[t].leader
        expected = self.d.dealer if t == 0 else self.prev_winner
        if expected is not None and leader != expected and self.d.tricks[t].plays:
            fact: Fact = LeaderNotDealer(leader) if t == 0 else LeaderNotWinner(leader, expected, t - 1)
            self.add(t, leader, "wrong-leader", True, fact, plays_out[0])

    def _check_availability(self, t: int, known: list[list[int]], plays_out: list[dict[str, Any]]) -> None:
        """Copies in the decks, and (with hands) the hand itself."""
        d, decks = self.d, self.opts.decks
        tr = d.tricks[t]
        for j, p in enumerate(tr.plays):
            s = seat_of(tr.leader, j, self.n)
            if len(p) == 1:
                counted = {p[0]: 1}
            else:
                counted = {}
                for c in p:
                    counted[c] = counted.get(c, 0) + 1
            for c, k in counted.items():
                self.seen_copies[c] += k
                if self.seen_copies[c] > decks:
                    self.add(t, s, "card-not-available", True,
                             CardTooMany(c, self.seen_copies[c] - self.buried[c], self.buried[c], decks), plays_out[j])
                elif d.hands is not None and known[s][c] < k:
                    self.add(t, s, "card-not-available", True, CardNotInHand(s, c), plays_out[j])

    def _check_lead(self, t: int, lead: Lead, known: list[list[int]], play_out: dict[str, Any]) -> None:
        """A lead of no cards, of mixed suits, or a throw (or its attempt)."""
        tr = self.d.tricks[t]
        leader, lead_cards = tr.leader, tr.plays[0]
        if not lead_cards:
            # nothing to follow: the leader keeps the trick, followers are not judged
            self.add(t, leader, "wrong-card-count", True, EmptyLead(leader), play_out)
            self._penalize(t, leader, self.opts.card_count_penalty, 1, "card-count")
        elif lead.mixed:
            suits = sorted({self.order.suit[c] for c in lead_cards}, key=lambda suit: SUIT_LABELS[suit])
            self.add(t, leader, "lead-mixed-suits", True, MixedLead(leader, tuple(lead_cards), tuple(suits)), play_out)
        else:
            self._check_throw(t, tr, lead, known, play_out)

    def _check_follows(self, t: int, lead: Lead, known: list[list[int]], plays_out: list[dict[str, Any]]) -> None:
        """Each follow: the number of cards, then the suit and the format the hand allows."""
        tr = self.d.tricks[t]
        for j in range(1, len(tr.plays)):
            s = seat_of(tr.leader, j, self.n)
            p = tr.plays[j]
            if s in tr.missing:  # not seen: nothing to judge
                continue
            if len(p) != lead.size:
                self.add(t, s, "wrong-card-count", True, CountFollow(s, len(p), lead.size), plays_out[j])
                self._penalize(t, s, self.opts.card_count_penalty, abs(len(p) - lead.size), "card-count")
                continue
            if not lead.mixed and s not in self.unseen:
                self._check_follow(t, s, lead, known[s], p, plays_out[j])

    def _check_follow(self, t: int, s: int, lead: Lead, hand: list[int], p: list[int],
                      play_out: dict[str, Any]) -> None:
        opts, order = self.opts, self.order
        if (hand[p[0]] < 1) if len(p) == 1 else any(hand[c] < p.count(c) for c in p):
            # a card wrongly played (flagged above) still came from the hand
            hand = [max(x, 0) for x in hand]
            for c in p:
                hand[c] = max(hand[c], p.count(c))
        fault = check_follow(order, lead, hand, p, opts)
        if fault is None:
            return
        if fault.rule == "must-follow-suit":
            shown = fault.missing[:4]
            self.add(t, s, "must-follow-suit", True,
                     Revoke(lead.suit, s, tuple(p), tuple(shown), self.evidence(s, shown, t)), play_out)
            in_suit = sum(1 for c in p if order.suit[c] == lead.suit)
            wrong = min(lead.size, in_suit + len(fault.missing)) - in_suit
            if lead.suit != TRUMP and any(order.suit[c] == TRUMP for c in p):
                self._penalize(t, s, opts.trump_penalty, wrong, "trumping")
            else:
                self._penalize(t, s, opts.discard_penalty, wrong, "discard")
            return
        assert fault.requirement is not None
        unit_cards = [c for u in fault.units for c in u.cards()]
        proven = self.exact or not opts.protect_longer_tuples or self._fault_settled(lead, hand, p)
        lead_cards = self.d.tricks[t].plays[0]
        self.add(t, s, "must-follow-format", proven,
                 WrongFormat(tuple(lead_cards), s, tuple(p), tuple(tuple(u.cards()) for u in fault.units),
                             fault.requirement, self.evidence(s, unit_cards, t, include_current=True)), play_out)
        if proven:
            self._penalize(t, s, opts.discard_penalty, len(unit_cards), "discard")

    def _settle_winner(self, t: int, lead: Lead, trick_out: dict[str, Any]) -> None:
        """A full trick's winner takes its points (and leads the next)."""
        tr = self.d.tricks[t]
        if len(tr.plays) != self.n:
            return
        if tr.missing:
            self._settle_missing(t, lead, trick_out)
            return
        w = self._winner(lead, tr.plays)
        winner = seat_of(tr.leader, w, self.n)
        trick_out["winner"] = winner
        self.points[winner] += trick_out["points"]
        self.prev_winner = winner
        self.last_winner_play = (lead, tr.plays[w])
        self.last_points_trick = None

    def _settle_missing(self, t: int, lead: Lead | None, trick_out: dict[str, Any]) -> None:
        """A full trick with a play not seen: won by the next trick's leader, else provisionally by
        the best known play (``"provisional": true``), else (its lead not seen, no trick after it)
        by nobody known; the winner takes the known cards' points. No wrong leader is charged on the
        next trick: its leader is this one's winner."""
        tr = self.d.tricks[t]
        if self.d.hands is not None:
            self.unseen.update(tr.missing)
        if len(tr.plays) != self.n:
            return
        winner, provisional = missing_winner(self.order, self.opts, self.n, self.d, t)
        if provisional:
            trick_out["provisional"] = True
        trick_out["winner"] = winner
        self.prev_winner = winner
        self.last_points_trick = None
        self.last_winner_play = None
        if winner is None:
            return
        self.points[winner] += trick_out["points"]
        play = tr.plays[(winner - tr.leader) % self.n]
        if lead is not None and play:
            self.last_winner_play = (lead, play)

    def _points_trick(self, t: int, winner: int, points: int) -> dict[str, Any]:
        """A trick recorded by its winner and points alone (只记分): its leader if the record
        names one, and the points a trick can hold; the winner takes them and leads next."""
        tr = self.d.tricks[t]
        leader = tr.leader if tr.leader >= 0 else None
        expected = self.d.dealer if t == 0 else self.prev_winner
        if leader is not None and expected is not None and leader != expected:
            self.add(t, leader, "wrong-leader", True,
                     LeaderNotDealer(leader) if t == 0 else LeaderNotWinner(leader, expected, t - 1))
        self._check_points(t, winner, "trick", points)
        self.points[winner] += points
        self.prev_winner = winner
        self.last_winner_play = None
        self.last_points_trick = tr
        return {"leader": leader, "winner": winner, "points": points, "plays": [], "points_only": True}

    def _check_points(self, t: int | None, seat: int, what: Literal["trick", "defenders", "kitty"],
                      points: int) -> None:
        """Points a record states (not counted from cards): fives, and what the decks hold."""
        if points % 5:
            self.add(t, seat, "bad-points", True, PointsNotFive(what, points))
        if what == "trick" and points > 100 * self.opts.decks:
            self.add(t, seat, "bad-points", True, PointsTooMany("trick", points, self.opts.decks))

    def _last_unit(self) -> tuple[int, int | None, bool] | None:
        """The last trick's winner, the cards of its winning play's largest unit (None when a
        points-only record does not say) and whether that play was trumps; None before any."""
        d = self.d
        if d.last_trick is not None:
            return d.last_trick.winner, d.last_trick.unit, d.last_trick.trump
        if self.prev_winner is None:
            return None
        if self.last_points_trick is not None:
            return self.prev_winner, self.last_points_trick.unit, self.last_points_trick.trump
        if self.last_winner_play is None:
            return None
        lead, play = self.last_winner_play
        return self.prev_winner, lead.largest if not lead.mixed else 1, all(self.order.suit[c] == TRUMP for c in play)

    def _kitty_points(self) -> int:
        """The kitty's points: its cards', else the record's ``kitty_points`` (0 when neither);
        both, and they differ: ``bad-points`` (the cards count)."""
        d = self.d
        if d.kitty is not None:
            points = sum(CARD_POINTS[c] for c in d.kitty)
            if d.kitty_points is not None and d.kitty_points != points:
                self.add(None, d.dealer, "bad-points", True, KittyPointsMismatch(d.kitty_points, points))
            return points
        if d.kitty_points is not None:
            self._check_points(None, d.dealer, "kitty", d.kitty_points)
            return d.kitty_points
        return 0

    def _deal_points_checks(self, kitty_points: int) -> None:
        """只记分: the deal's stated points — the defenders' (fives), and with the tricks' and
        the kitty's no more than the decks hold; the last trick's unit one the decks can make."""
        d, decks = self.d, self.opts.decks
        if d.defender_points is not None:
            self._check_points(None, d.dealer, "defenders", d.defender_points)
        total = kitty_points + (d.defender_points or 0)
        for t in d.tricks:
            if t.points is not None:
                total += t.points
            else:
                total += sum(CARD_POINTS[c] for p in t.plays for c in p)
        if total > 100 * decks:
            self.add(None, d.dealer, "bad-points", True, PointsTooMany("deal", total, decks))
        last = self._last_unit()
        if last is not None and last[1] is not None and not is_unit_size(last[1], decks):
            self.add(len(d.tricks) - 1 if d.tricks else None, last[0], "bad-points", True, UnitImpossible(last[1], decks))

    def _result(self, out_tricks: list[dict[str, Any]]) -> dict[str, Any]:
        """The deal's figures: the sides, the penalties signed, and (complete deals) the outcome."""
        self._hold_unconfirmed()
        d, n, opts = self.d, self.n, self.opts
        for k, ruling in enumerate(d.rulings):  # penalties the table applied by hand, counted like the rest
            if ruling["levels"]:
                self.level_penalty_seats.extend([ruling["seat"]] * ruling["levels"])
            self._pending_penalties.append((ruling["trick"], ruling["seat"], ruling["points"],
                                            RulingFact(k, ruling.get("rule"), ruling["points"], ruling["levels"])))
        dealer_seats = dealer_side(opts.friends, n, d.dealer, d.friends,
                                   [(seat_of(t.leader, j, n), p) for t in d.tricks for j, p in enumerate(t.plays)],
                                   d.friend_seats)
        self.dealer_side = dealer_seats
        defenders = [s for s in range(n) if s not in dealer_seats]
        # 只记分 by the deal: the defenders' points as the table counted them
        defender_points = d.defender_points if d.defender_points is not None else sum(self.points[s] for s in defenders)
        kitty_points = self._kitty_points()
        if d.points_only or d.kitty_points is not None:
            self._deal_points_checks(kitty_points)
        penalty_points = 0
        for trick, seat, points, fact in self._pending_penalties:
            signed = (1 if seat in dealer_seats else -1) * points
            entry = {"trick": trick, "seat": seat, "detail": penalty_detail(fact), "points": signed}
            if isinstance(fact, RulingFact):
                entry["ruling"] = fact.index
            self.penalties.append(entry)
            self.penalty_findings.append(Penalty(trick, seat, signed, fact))
            penalty_points += signed
        result: dict[str, Any] = {
            "tricks": out_tricks,
            "violations": self.violations,
            "penalties": self.penalties,
            "defender_points": defender_points,
            "kitty_points": None,
            "kitty_multiplier": None,
            "kitty_won_by": None,
            "penalty_points": penalty_points,
            "total_defender_points": None,
            "outcome": None,
            "next_dealer": None,
            "levels_after": None,
            "game_winner": None,
        }
        if self.missing_plays:  # plays not seen: the deal's figures hold for what is known
            result["missing_plays"] = self.missing_plays
            result["provisional"] = True
        last = self._last_unit()
        if d.conceded is not None:
            self._conceded_outcome(result, d.conceded, penalty_points, defenders)
        elif self.complete and last is not None:
            self._outcome(result, last, kitty_points, defender_points, penalty_points, defenders)
        return result

    def _deal_checks(self, played_total: list[int]) -> None:
        """Deal-level checks (``"trick": null``): the dealer and level against the previous
        deal, the bids, the kitty size and the friend calls."""
        d, n, opts = self.d, self.n, self.opts
        i = self.index

        def flag(seat: int, rule: str, fact: Fact) -> None:
            self.add(None, seat, rule, True, fact)

        prev = self.previous
        prev_done = prev is not None and prev.winners is not None
        if prev is not None and prev.winners is not None:
            winners = prev.winners
            if opts.friends:  # the winners' bids make the dealer (RULES §10), no rotation
                if d.dealer not in winners:
                    flag(d.dealer, "wrong-dealer", DealerNotWinner(d.dealer, i, i - 1, tuple(sorted(winners))))
            elif prev.next_dealer is not None and d.dealer != prev.next_dealer:
                flag(d.dealer, "wrong-dealer", DealerRotation(d.dealer, i, prev.next_dealer, i - 1))
        if (prev_done or (i == 0 and prev is None)) and d.level != self.levels_before[d.dealer]:
            # the level is the dealer's (seed 000 4.2.1.2 级别牌只反映庄家的级别): the first deal's
            # his start level, a later one his level after the deal before
            flag(d.dealer, "wrong-dealer", DealerWrongLevel(i, d.level, d.dealer, self.levels_before[d.dealer]))
        if d.bids is not None:
            later_friends = opts.friends and prev_done
            assert prev is None or not later_friends or prev.winners is not None
            found = bid_findings(opts, d.bids, d.level, d.trump, d.dealer,
                                 i == 0 and self.parsed.starts_the_game, players=n,
                                 levels=self.levels_before if later_friends else None,
                                 eligible=prev.winners if later_friends and prev is not None else None)
            for seat, fact in found:
                flag(seat, "bad-bid", fact)
            self._check_bid_cards(played_total)
        kitty_size = opts.kitty_size_for(n)
        if d.kitty is not None and len(d.kitty) != kitty_size:
            flag(d.dealer, "bad-kitty", KittySize(len(d.kitty), kitty_size))
            self._penalize(None, d.dealer, opts.kitty_penalty, abs(len(d.kitty) - kitty_size), "kitty")
        for k, (card, nth) in enumerate(d.friends):
            if self.order.suit[card] == TRUMP:
                flag(d.dealer, "bad-friend-call", FriendCallTrump(k, card))
            elif nth > opts.decks:
                flag(d.dealer, "bad-friend-call", FriendCallCopy(k, card, nth, opts.decks))

    def _check_bid_cards(self, played_total: list[int]) -> None:
        """A bid shows cards from the bidder's hand: with ``hands`` the recorded hand, once a
        deal without them is complete what the bidder played (the dealer, and a 炒地皮
        re-bidder who took up the kitty, may also have buried them)."""
        d = self.d
        assert d.bids is not None
        for k, bid in enumerate(d.bids):
            seat, cards = bid["seat"], bid["cards"]
            source: Literal["hand", "plays"]
            if d.hands is not None:
                have, source = hand_counts(d.hands[seat]), "hand"
            elif self.exact:
                have = [0] * 54
                for c, ts in self.played_at[seat].items():
                    have[c] = len(ts)
                source = "plays"
            else:
                continue
            kitty = d.kitty is not None and (seat == d.dealer
                                             or any(b["seat"] == seat and b["after_kitty"] for b in d.bids))
            for c in d.kitty or () if kitty else ():
                have[c] += 1
            for c in sorted(set(cards)):
                if cards.count(c) > have[c]:
                    self.add(None, seat, "bad-bid", True,
                             BidNotHeld(k, tuple(cards), c, cards.count(c), seat, have[c], source, kitty))
                    break

    def _fault_settled(self, lead: Lead, hand: list[int], play: list[int]) -> bool:
        """``protect_longer_tuples`` during a deal: a format fault found in a hand known only
        in part is settled when a rung stronger than the play's fits in tuples of cards whose
        every copy the record already places (no unseen copy can widen such a tuple)."""
        order = self.order
        holding = suit_holding(order, hand, lead.suit)
        in_suit = counts_of([c for c in play if order.suit[c] == lead.suit])
        played_rung = next((i for i, req in enumerate(lead.ladder) if satisfies(req, in_suit, order.value)),
                           len(lead.ladder) - 1)
        for req in lead.ladder[:played_rung]:
            for n, units in enumerate(embeddings(req, holding, order.value, protect=True)):
                if all(self.unplaced[k] == 0 for u in units for k in u.kinds):
                    return True
                if n >= 500:
                    break
        return False

    def _bound_hands(self) -> None:
        """Without ``hands``: the least each seat must hold at the start of each trick.

        A seat's hand at trick t is what it plays from t on, and it holds every card it
        shows in an attempt: at that trick, at every earlier one (cards only leave a hand)
        and later until the card is played. ``bounds[t]`` combines both; ``unshown[t]`` is
        the leader's plays from t on alone (his whole hand once the deal is complete, to
        check his attempt at t against). Once the deal is complete the plays are the whole
        hands, and a card only ever attempted was never held (``card-not-available``)."""
        shown = not self.exact  # the plays are not the whole hands: attempts show held cards
        tricks, n = self.d.tricks, self.n
        after = [[0] * 54 for _ in range(n)]
        self.bounds: list[list[list[int]]] = [[] for _ in tricks]
        self.unshown: list[list[int]] = [[] for _ in tricks]
        for t in range(len(tricks) - 1, -1, -1):
            tr = tricks[t]
            cur = [list(h) for h in after]
            for j, p in enumerate(tr.plays):
                k = cur[seat_of(tr.leader, j, n)]
                for c in p:
                    k[c] += 1
            self.bounds[t] = cur
            after = cur
            if shown and tr.attempt and tr.plays:
                k = cur[tr.leader]
                for c in set(tr.attempt):
                    k[c] = max(k[c], tr.attempt.count(c))
        # plays only, for the leaders' attempt checks (from scratch: attempts are not plays)
        plays_after = [[0] * 54 for _ in range(n)]
        for t in range(len(tricks) - 1, -1, -1):
            tr = tricks[t]
            for j, p in enumerate(tr.plays):
                k = plays_after[seat_of(tr.leader, j, n)]
                for c in p:
                    k[c] += 1
            self.unshown[t] = list(plays_after[tr.leader])
        # forwards: an attempted card taken back stays until it is played
        kept: list[dict[int, int]] = [{} for _ in range(n)]
        for t, tr in enumerate(tricks):
            cur = self.bounds[t]
            for s in range(n):
                for c, x in kept[s].items():
                    cur[s][c] = max(cur[s][c], x)
            if shown and tr.attempt and tr.plays:
                held = kept[tr.leader]
                for c in set(tr.attempt):
                    held[c] = max(held.get(c, 0), tr.attempt.count(c))
            for j, p in enumerate(tr.plays):
                held = kept[seat_of(tr.leader, j, n)]
                for c in p:
                    if held.get(c):
                        held[c] -= 1

    def _consume(self, known: list[list[int]], t: int) -> None:
        """Known hands after trick t: its plays leave; an attempt's cards taken back stay."""
        tr = self.d.tricks[t]
        for j, p in enumerate(tr.plays):
            k = known[seat_of(tr.leader, j, self.n)]
            for c in p:
                k[c] -= 1
        if tr.attempt and tr.plays:
            k = known[tr.leader]
            back = list(tr.attempt)
            for c in tr.plays[0]:
                if c in back:
                    back.remove(c)
            for c in set(back):
                k[c] = max(k[c], back.count(c))

    def _winner(self, lead: Lead, plays: list[list[int]]) -> int:
        return trick_resolution(self.order, lead, plays, self.opts.throw_compare, self.opts)

    # ---------------------------------------------------------------- throws
    def _beaten(self, t: int, leader: int, units: list[Unit], known: list[list[int]]
                ) -> list[tuple[Unit, int, Unit]]:
        order = self.order
        suit = order.suit[units[0].kinds[0]]
        out = []
        others = []
        for k in range(1, self.n):
            s = seat_of(leader, k, self.n)
            others.append((s, suit_holding(order, known[s], suit)))
        for u in units:
            for s, holding in others:
                if s in self.unseen:  # his hand unknown since a play of his was not seen
                    continue
                b = beating_unit(u, holding, order.value)
                if b is not None:
                    out.append((u, s, b))
                    break
        return out

    def _forced(self, beaten: list[tuple[Unit, int, Unit]]) -> Unit:
        return forced_unit([u for u, _, _ in beaten], self.opts.forced_unit)

    def _may_become_forced(self, unit: Unit, beaten: list[tuple[Unit, int, Unit]]) -> bool:
        """Whether ``unit`` could still be the forced unit once more units are shown beaten."""
        key = forced_key(self.opts.forced_unit)
        return all(key(u) >= key(unit) for u, _, _ in beaten)

    def _penalize(self, t: int | None, seat: int, mode: str, wrong: int, offence: Offence,
                  cards: tuple[int, ...] = (), basis: set[tuple[int, int]] | None = None) -> None:
        """Apply one penalty of seed 001 Ⅰ.九 under its option ``mode`` (:class:`Penalty`):
        ``points`` per wrong card, ``level-points`` one level's worth, ``level`` one level."""
        if mode == "none" or wrong <= 0:
            return
        opts = self.opts
        fact: PenaltyFact
        if mode == "points":
            per = opts.throw_penalty_points
            pts = wrong * per
            fact = PenaltyFact(offence, "points", wrong, per=per, cards=cards)
        elif mode == "level-points":
            pts = opts.step_for(self.n)
            fact = PenaltyFact(offence, "level-points", wrong, points=pts, cards=cards)
        else:
            pts = 0
            fact = PenaltyFact(offence, "level", wrong, cards=cards)
            self.level_penalty_seats.append(seat)
        self._pending_penalties.append((t, seat, pts, fact))
        if basis is None:  # the violation just found at this play
            last = self.findings[-1] if self.findings else None
            basis = self._fact_plays(last) if last is not None and (last.trick, last.seat) == (t, seat) else set()
        self._penalty_basis.append(basis)

    def _penalize_throw(self, t: int, seat: int, beaten: list[tuple[Unit, int, Unit]], cards: list[int]) -> None:
        stuck = sum(u.size for u, _, _ in beaten)
        basis = {(t, s) for s in range(self.n)}
        for b in self._beaten_facts(beaten, t):
            basis |= {(e, b.seat) for e in b.evidence.played}
        self._penalize(t, seat, self.opts.throw_penalty, stuck, "throw", tuple(cards), basis)

    # ---------------------------------------------------------------- cards still to confirm
    def _fact_plays(self, found: Violation) -> set[tuple[int, int]]:
        """The plays (trick, seat) a violation rests on: a follow's against its lead, the lead and
        that follow; a mixed lead, the lead; anything else, its whole trick (the units that beat a
        throw, the winner); the trick before a wrong leader's (who won it); and the later plays its
        evidence names (where the seat's cards show up)."""
        t = found.trick
        if t is None:
            return set()
        if found.rule in PLAY_AGAINST_LEAD:  # the lead and the play judged against it
            plays = {(t, self.d.tricks[t].leader), (t, found.seat)}
        elif found.rule == "lead-mixed-suits":
            plays = {(t, found.seat)}
        else:
            plays = {(t, s) for s in range(self.n)}
        if found.rule == "wrong-leader" and t > 0:
            plays |= {(t - 1, s) for s in range(self.n)}
        for seat, evidence in _evidence_in(found.fact, found.seat):
            plays |= {(e, seat) for e in evidence.played}
        return plays

    def _unconfirmed_in(self, plays: set[tuple[int, int]]) -> list[tuple[int, int, int]]:
        """(trick, seat, index) of the cards still to confirm in ``plays`` (trick, seat)."""
        return sorted((t, seat, index) for t, tr in enumerate(self.d.tricks)
                      for seat, index in tr.unconfirmed if (t, seat) in plays)

    def _unconfirmed_copies(self, card: int, upto: int) -> list[tuple[int, int, int]]:
        """(trick, seat, index) of the plays of ``card`` still to confirm, up to trick ``upto``."""
        return sorted((t, seat, index) for t, tr in enumerate(self.d.tricks[:upto + 1])
                      for seat, index in tr.unconfirmed if tr.plays[(seat - tr.leader) % self.n][index] == card)

    def _hold_unconfirmed(self) -> None:
        """A violation that rests on a card a person has yet to confirm (a camera's unsure read,
        ``unconfirmed``) is not proven until it is: marked ``to_check`` (the cards), and the
        penalties resting on such cards wait too."""
        if not any(tr.unconfirmed for tr in self.d.tricks):
            return
        for k, found in enumerate(self.findings):
            if not found.proven:
                continue
            if isinstance(found.fact, CardTooMany) and found.trick is not None:
                doubts = self._unconfirmed_copies(found.fact.card, found.trick)
            else:
                doubts = self._unconfirmed_in(self._fact_plays(found))
            if doubts:
                self.findings[k] = dataclasses.replace(found, proven=False, to_check=tuple(doubts))
                self.violations[k]["proven"] = False
                self.violations[k]["to_check"] = [list(d) for d in doubts]
        held = [self._unconfirmed_in(basis) != [] for basis in self._penalty_basis]
        for entry, wait in zip(self._pending_penalties, held, strict=True):
            if wait and isinstance(entry[3], PenaltyFact) and entry[3].mode == "level":
                self.level_penalty_seats.remove(entry[1])
        self._pending_penalties = [entry for entry, wait in zip(self._pending_penalties, held, strict=True) if not wait]
        self._penalty_basis = [basis for basis, wait in zip(self._penalty_basis, held, strict=True) if not wait]

    def _stuck_when_stopped(self, t: int, tr: ParsedTrick, units: list[Unit], beaten: list[tuple[Unit, int, Unit]]
                            ) -> list[tuple[Unit, int, Unit]]:
        """The units of a stopped throw (``attempt``) counted for its penalty: seed 001 Ⅰ.九 settles it
        when the throw is stopped (「每甩错1张（即被卡住的牌）扣10分，同时出最小的牌」), so later plays that
        show more of a hand do not grow it. With the hands recorded, every unit they beat (known then);
        else the units the trick's own plays beat, and always the stuck unit the thrower played."""
        if self.d.hands is not None:
            return beaten
        n = self.n
        shown = [[0] * 54 for _ in range(n)]
        for j, p in enumerate(tr.plays):
            for c in p:
                shown[seat_of(tr.leader, j, n)][c] += 1
        stuck = self._beaten(t, tr.leader, units, shown)
        played = sorted(tr.plays[0]) if tr.plays else []
        if not any(sorted(u.cards()) == played for u, _, _ in stuck):
            floor = [b for b in beaten if sorted(b[0].cards()) == played] or [
                b for b in beaten if b[0] is self._forced(beaten)]
            counted = {id(u) for u, _, _ in stuck}
            stuck = stuck + [b for b in floor[:1] if id(b[0]) not in counted]  # a unit counts once
        return stuck

    def _beaten_facts(self, beaten: list[tuple[Unit, int, Unit]], t: int) -> tuple[Beaten, ...]:
        return tuple(Beaten(tuple(u.cards()), s, tuple(b.cards()), self.evidence(s, b.cards(), t, include_current=True))
                     for u, s, b in beaten)

    def _check_throw(self, t: int, tr: ParsedTrick, lead: Lead, known: list[list[int]],
                     play_out: dict[str, Any]) -> None:
        """A throw that stood though a unit of it could be beaten, or the trick's ``attempt``
        (a throw taken back): the cards it shows, its suits, and the forced unit led instead."""
        if tr.attempt is not None:
            self._check_attempt(t, tr, tr.attempt, known, play_out)
            return
        if not lead.is_throw:
            return
        beaten = self._beaten(t, tr.leader, lead.units, known)
        if beaten:
            self._penalize_throw(t, tr.leader, beaten, lead.cards)
            forced = self._forced(beaten)
            self.add(t, tr.leader, "failed-throw", True,
                     ThrowStood(tuple(lead.cards), self._beaten_facts(beaten, t), tuple(forced.cards())), play_out)

    def _check_attempt(self, t: int, tr: ParsedTrick, attempt: list[int], known: list[list[int]],
                       play_out: dict[str, Any]) -> None:
        order = self.order
        leader = tr.leader
        suits = {order.suit[c] for c in attempt}
        if not attempt:
            return
        if self.exact:
            have = known[leader] if self.d.hands is not None else self.unshown[t]
            for c in sorted(set(attempt)):
                if attempt.count(c) > max(have[c], tr.plays[0].count(c) if tr.plays else 0):
                    self.add(t, leader, "card-not-available", True,
                             AttemptCardNotHeld(leader, c, self.d.hands is not None), play_out)
        cards = tuple(attempt)
        if len(suits) != 1:
            self.add(t, leader, "lead-mixed-suits", True, MixedAttempt(leader, cards), play_out)
            return
        units = read_format(order, attempt, self.opts)
        if len(units) < 2:
            self.add(t, leader, "wrong-forced-unit", True, AttemptSingle(cards), play_out)
            return
        beaten = self._beaten(t, leader, units, known)
        if not beaten:
            self.add(t, leader, "wrong-forced-unit", self.exact,
                     AttemptStands(cards) if self.exact else AttemptUnproven(cards), play_out)
            return
        forced = self._forced(beaten)
        facts = self._beaten_facts(beaten, t)
        self._penalize_throw(t, leader, self._stuck_when_stopped(t, tr, units, beaten), attempt)
        played = sorted(tr.plays[0])
        key = (forced.size, forced.top)
        # equal units (e.g. off-suit level cards) are all "the lowest": any of them will do
        allowed = [sorted(u.cards()) for u, _, _ in beaten if (u.size, u.top) == key]
        if played not in allowed:
            same = [u for u in units if sorted(u.cards()) == played]
            # later evidence only adds beaten units: the played unit can still turn out
            # to be the forced one unless a beaten unit already outranks it for good
            proven = self.exact or not same or not self._may_become_forced(same[0], beaten)
            self.add(t, leader, "wrong-forced-unit", proven,
                     WrongForcedUnit(cards, facts, tuple(forced.cards()), self.opts.forced_unit, leader,
                                     tuple(tr.plays[0])), play_out)

    # ---------------------------------------------------------------- outcome
    def _outcome(self, result: dict[str, Any], last: tuple[int, int | None, bool], kitty_points: int,
                 defender_points: int, penalty_points: int, defenders: list[int]) -> None:
        opts, d = self.opts, self.d
        last_winner, unit, by_trump = last
        mult = kitty_multiplier(opts, unit or 1, by_trump)
        won_by = "dealer" if last_winner in self.dealer_side else "defenders"
        if unit is None and won_by == "defenders" and kitty_points:  # a points-only last trick naming no unit
            self.add(len(d.tricks) - 1 if d.tricks else None, last_winner, "bad-points", True, UnitMissing(mult))
        total = defender_points + (kitty_points * mult if won_by == "defenders" else 0) + penalty_points
        hook = None
        if d.last_trick is None and self.last_points_trick is None and self.last_winner_play is not None:
            hook = jack_hook_level(opts, d.level, self.last_winner_play[1], won_by == "defenders")
        result.update({"kitty_points": kitty_points, "kitty_multiplier": mult, "kitty_won_by": won_by})
        self._levels_outcome(result, total, defenders, hook)

    def _conceded_outcome(self, result: dict[str, Any], conceded: Concession, penalty_points: int,
                          defenders: list[int]) -> None:
        """认输: the deal settled by the points agreed, else the house's fixed cost
        (:func:`concession_points`), with the penalties; no last trick, so no kitty counted nor won."""
        points = conceded.points if conceded.points is not None else concession_points(self.opts, self.n, conceded.by)
        result["conceded"] = {"by": conceded.by, "points": points, "agreed": conceded.points is not None}
        self._levels_outcome(result, points + penalty_points, defenders, None)

    def _levels_outcome(self, result: dict[str, Any], total: int, defenders: list[int], hook: int | None) -> None:
        """The deal's outcome from the defenders' ``total``: the side that goes up and its levels, the
        levels after (勾J's ``hook`` and the level penalties), the next dealer, the game's winner."""
        opts, n, d = self.opts, self.n, self.d
        side, levels = level_outcome(opts, n, total)
        winners = sorted(self.dealer_side) if side == "dealer" else defenders
        after = list(self.levels_before)
        game_winner = None
        for s in winners:
            new, passed = advance_level(self.levels_before[s], levels, side == "dealer", opts.must_defend)
            after[s] = new
            if passed:
                game_winner = side
        if hook is not None:  # 勾J: the dealer's side goes back (RULES §8), whatever the points gave it
            for s in self.dealer_side:
                after[s] = hook
            if game_winner == "dealer":
                game_winner = None
        for seat in self.level_penalty_seats:
            side_seats = self.dealer_side if seat in self.dealer_side else set(defenders)
            for s in side_seats:
                after[s] = max(0, after[s] - 1)
        # 找朋友: the winners' bids make the next dealer (RULES §10), so none is named here
        nxt = None if opts.friends else next_dealer(d.dealer, n, self.dealer_side, side, opts.dealer_stays)
        self.winners = set(winners)
        self.next_dealer = nxt
        result.update({
            "total_defender_points": total,
            "outcome": {"side": side, "levels": levels},
            "next_dealer": nxt,
            "levels_after": [RANKS[x] for x in after],
            "game_winner": game_winner,
        })
        if hook is not None:
            result["jack_hook"] = RANKS[hook]
        self.levels_after = after

    def deal_findings(self) -> DealFindings:
        """The violations and penalties of :meth:`run` as data."""
        return DealFindings(tuple(self.findings), tuple(self.penalty_findings))


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector paused while a record is audited: the audit makes many small
    objects and no cycles, and each full collection would walk the whole record and the audit
    so far again (40% of a 1,000-deal audit). Restored by whoever paused it first."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _audits(record: Record) -> list[_DealAudit]:
    """Every deal's audit, run in order: levels carry from deal to deal (``start_levels``,
    then each complete deal's ``levels_after``)."""
    with _collector_paused():
        return _audits_unpaused(record)


def _audits_unpaused(record: Record) -> list[_DealAudit]:
    parsed = parse_record(record)
    levels = list(parsed.start_levels)
    audits: list[_DealAudit] = []
    previous: _DealAudit | None = None
    for i in range(len(parsed.deals)):
        audit = _DealAudit(parsed, i, levels, previous)
        audit.output = audit.run()
        if audit.levels_after is not None:
            levels = audit.levels_after
        audits.append(audit)
        previous = audit
    return audits


_HEADER_KEYS = ("format", "rules", "players", "start_levels", "mid_game")


class AuditRun:
    """An audit of a record (``output``: :func:`audit_record`'s, ``findings``: :func:`audit_findings`'s),
    kept so that the record, changed,
    is audited again by :func:`audit_again` from its first changed deal only (a deal's audit
    depends on the record's rules and players and on the deals before it, nothing after)."""

    __slots__ = ("header", "deals", "parsed", "whole", "carried", "output", "findings")

    def __init__(self, header: tuple[Any, ...], deals: list[Any], whole: ParsedRecord,
                 carried: list[_Carried]) -> None:
        self.header = header
        self.deals = deals
        self.whole = whole
        self.parsed = whole.deals
        self.carried = carried
        self.output: dict[str, Any] = {"deals": [c.output for c in carried]}
        self.findings: list[DealFindings] = [c.findings for c in carried]  # :func:`audit_findings`'s

    def dealer_sides(self) -> list[list[int]]:
        """:func:`scorer.record.dealer_sides` of the record audited (from this reading of it)."""
        return [parsed_dealer_side(self.whole, deal) for deal in self.whole.deals]


def audit_again(record: Record, earlier: AuditRun | None = None) -> AuditRun:
    """The audit of ``record`` as an :class:`AuditRun`; with ``earlier`` (the run of an earlier
    version of the record) the deals before the first one that changed keep their audit.
    The output equals :func:`audit_record`'s. The deals of ``record`` must not be changed in
    place afterwards (a changed record is a new one that may share its unchanged deals).

    >>> from tuolaji.scorer.record import random_record
    >>> rec = random_record("standard-2deck", seed=2)
    >>> run = audit_again(rec)
    >>> again = audit_again(rec | {"deals": rec["deals"] + [{"level": "2", "trump": "S", "dealer": 0}]}, run)
    >>> again.output["deals"][0] is run.output["deals"][0], len(again.output["deals"])
    (True, 2)
    """
    with _collector_paused():
        return _audit_again(record, earlier)


def _audit_again(record: Record, earlier: AuditRun | None = None) -> AuditRun:
    header = tuple(record.get(key) for key in _HEADER_KEYS) if isinstance(record, dict) else ()
    deals = record.get("deals") if isinstance(record, dict) else None
    first = 0
    if earlier is not None and header == earlier.header and isinstance(deals, list):
        limit = min(len(deals), len(earlier.deals))
        while first < limit and (deals[first] is earlier.deals[first] or deals[first] == earlier.deals[first]):
            first += 1
    if first == 0 or earlier is None:
        parsed = parse_record(record)
        kept: list[ParsedDeal] = []
        carried: list[_Carried] = []
    else:
        try:
            parsed = parse_record({**record, "deals": deals[first:]})
        except RecordError:
            parsed = parse_record(record)  # raises, naming the deal where it is
        kept = earlier.parsed[:first]
        carried = earlier.carried[:first]
    whole = ParsedRecord(parsed.options, parsed.players, parsed.start_levels, kept + parsed.deals, parsed.mid_game)
    levels = list(whole.start_levels)
    previous: _Previous | None = None
    if carried:
        last = carried[-1]
        levels = last.levels_after if last.levels_after is not None else last.levels_before
        previous = last
    for i in range(len(carried), len(whole.deals)):
        audit = _DealAudit(whole, i, levels, previous)
        audit.output = audit.run()
        if audit.levels_after is not None:
            levels = audit.levels_after
        carry = _Carried(audit)
        carried.append(carry)
        previous = carry
    return AuditRun(header, list(deals) if isinstance(deals, list) else [], whole, carried)


def audit_record(record: Record) -> dict[str, Any]:
    """Audit every deal of a record: exactly docs/RECORD.md's audit output.

    Raises :class:`scorer.record.RecordError` for a malformed record. Levels carry
    from deal to deal (``start_levels``, then each complete deal's ``levels_after``).
    """
    return {"deals": [audit.output for audit in _audits(record)]}


def audit_findings(record: Record) -> list[DealFindings]:
    """Each deal's violations and penalties as data (:mod:`scorer.violations`), in the order
    of :func:`audit_record`'s lists; their ``detail`` is :func:`scorer.violation_text.detail`
    of each fact.

    >>> from tuolaji.scorer.record import random_record
    >>> rec = random_record("standard-2deck", seed=2)
    >>> rec["deals"][0]["tricks"][1]["leader"] = (rec["deals"][0]["tricks"][1]["leader"] + 1) % 4
    >>> found = audit_findings(rec)[0].violations[0]
    >>> found.rule, type(found.fact).__name__, detail(found.fact) == audit_record(rec)["deals"][0]["violations"][0]["detail"]
    ('wrong-leader', 'LeaderNotWinner', True)
    """
    return [audit.deal_findings() for audit in _audits(record)]


def proven_violation_plays(record: Record) -> list[tuple[Violation, frozenset[tuple[int, int]]]]:
    """Each proven violation of the record's last deal with the plays (trick, seat) it rests on: the
    play and the lead it is judged against, or its whole trick, and the later plays its evidence names
    (where the seat's cards show up). A camera that read one of those plays unsurely puts it to a
    person before the violation stands (``DoubtPlay``).

    >>> from tuolaji.scorer.record import random_record
    >>> rec = random_record("standard-2deck", seed=2)
    >>> rec["deals"][0]["tricks"][1]["leader"] = (rec["deals"][0]["tricks"][1]["leader"] + 1) % 4
    >>> found, plays = proven_violation_plays(rec)[0]
    >>> found.rule, found.trick, sorted(plays) == [(trick, seat) for trick in (0, 1) for seat in range(4)]
    ('wrong-leader', 1, True)
    """
    audits = _audits(record)
    if not audits:
        return []
    last = audits[-1]
    return [(found, frozenset(last._fact_plays(found))) for found in last.findings
            if found.proven and found.trick is not None]


def audit_with_findings(record: Record) -> tuple[dict[str, Any], list[DealFindings]]:
    """:func:`audit_record` and :func:`audit_findings` of one run."""
    audits = _audits(record)
    return {"deals": [audit.output for audit in audits]}, [audit.deal_findings() for audit in audits]


def _deal_audited_again(run: AuditRun, index: int, record: Record) -> dict[str, Any]:
    """Deal ``index`` of the record ``run`` audited, audited again under ``record``'s rules (its
    penalty options scaled): from the levels and the previous deal ``run`` found, no other deal
    audited."""
    with _collector_paused():
        try:
            parsed = parse_record({**record, "deals": [record["deals"][index]]})
        except RecordError:
            parse_record(record)  # raises, naming the deal where it is
            raise
        whole = ParsedRecord(parsed.options, parsed.players, parsed.start_levels,
                             run.whole.deals[:index] + parsed.deals, parsed.mid_game)
        previous = run.carried[index - 1] if index else None
        return _DealAudit(whole, index, run.carried[index].levels_before, previous).run()


RULE_PENALTIES: dict[str, tuple[str, ...]] = {
    "must-follow-suit": (OFFENCE_EN["discard"], OFFENCE_EN["trumping"]),
    "must-follow-format": (OFFENCE_EN["discard"],),
    "wrong-card-count": (OFFENCE_EN["card-count"],),
    "bad-kitty": (OFFENCE_EN["kitty"],),
    "failed-throw": (OFFENCE_EN["throw"],),
    "wrong-forced-unit": (OFFENCE_EN["throw"],),
}
"""The violations seed 001 Ⅰ.九 penalises, and the penalty each gets (the start of its detail)."""


def ruling_offers(record: Record, deal: int = -1, *, audit: dict[str, Any] | None = None,
                  run: AuditRun | None = None) -> list[dict[str, Any] | None]:
    """For each violation of a deal (parallel to the audit's ``violations``), the penalty the
    profile's scale gives it, as a ruling the table may apply (``{"seat", "trick", "rule",
    "points"}`` or ``... "levels": 1``); None where the rules or a ruling already penalise it,
    where it is not proven, or where the seeds name no penalty for it. The scale is the profile's
    ``throw_penalty`` (``points`` when it has none: seed 001's 10 points per wrong card).
    ``run``: the record's :class:`AuditRun` (a live game's, :func:`audit_again`), when the caller has
    it: nothing is audited again but the one deal under the scaled rules, from the levels and the
    previous deal the run found (a profile without a penalty for a violation counts no wrong cards
    for it, so the scale's penalty is that deal's audit under the scale). ``audit``: the record's
    :func:`audit_record` alone (the scaled rules then audit the deals up to ``deal``); with
    neither, the deals up to ``deal`` are audited once, and the scaled deal alone again.

    >>> from tuolaji.scorer.record import random_record
    >>> ruling_offers(random_record("standard-2deck", seed=0, hand_size=6))
    []
    """
    deals = record.get("deals") if isinstance(record, dict) else None
    n = len(deals) if isinstance(deals, list) else 0
    if not -n <= deal < n:
        parse_record(record)  # a malformed record: the place named
        raise RecordError("record.no_deal", deal=deal)
    index = deal % n
    try:  # the deal's own rulings and the rules: the other deals need not be parsed again
        parsed = parse_record({**record, "deals": [record["deals"][index]]})
    except RecordError:
        parse_record(record)  # raises, naming the deal where it is
        raise
    part: Record = {**record, "deals": record["deals"][:index + 1]}
    if run is None and audit is None:
        with _collector_paused():
            run = _audit_again(part)
    base = (run.output if run is not None else audit)["deals"][index]  # type: ignore[index]
    if not any(v["proven"] and v["rule"] in RULE_PENALTIES for v in base["violations"]):
        return [None] * len(base["violations"])
    opts = parsed.options
    scale = opts.throw_penalty if opts.throw_penalty != "none" else "points"
    rules: dict[str, Any] = dict(record["rules"]) if isinstance(record["rules"], dict) else {"profile": record["rules"]}
    for name in PENALTY_OPTIONS:
        if getattr(opts, name) == "none":
            rules[name] = scale
    if run is not None and index < len(run.carried):
        scaled = _deal_audited_again(run, index, {**record, "rules": rules})
    else:
        scaled = audit_record({**part, "rules": rules})["deals"][index]
    offers: list[dict[str, Any] | None] = []
    for v in base["violations"]:
        kinds = RULE_PENALTIES.get(v["rule"], ())
        where = (v["trick"], v["seat"])
        ruled = [r for r in parsed.deals[0].rulings if (r["trick"], r["seat"], r.get("rule")) == (*where, v["rule"])]
        already = ruled or ([p for p in base["penalties"] if (p["trick"], p["seat"]) == where and "ruling" not in p
                             and p["detail"].startswith(kinds)] if kinds else [])
        found = [p for p in scaled["penalties"] if (p["trick"], p["seat"]) == where and "ruling" not in p
                 and p["detail"].startswith(kinds)] if kinds and v["proven"] and not already else []
        if not found:
            offers.append(None)
            continue
        offer: dict[str, Any] = {"seat": v["seat"], "trick": v["trick"], "rule": v["rule"]}
        points = abs(found[0]["points"])
        if points:
            offer["points"] = points
        else:
            offer["levels"] = 1
        offers.append(offer)
    return offers


def bidding_state(record: Record, deal: int = -1, *, earlier: AuditRun | None = None) -> BiddingState:
    """The live :class:`BiddingState` of a record's deal, with its recorded bids pushed: the
    game so far decides who may bid and at which level (找朋友: the side that won the last
    deal, each at his own level), whether first-deal rules apply, and the rotation's dealer.

    ``earlier``: an :class:`AuditRun` of this record or of an earlier version of it (a live
    game's current run while a deal's bids change): the deals before ``deal`` that it audited,
    unchanged, are not audited again (:func:`audit_again`); only ``deal`` itself is read.

    >>> rec = {"rules": "standard-2deck", "deals": [{"level": "2", "trump": "H", "dealer": 0,
    ...        "bids": [{"seat": 1, "cards": ["2H"]}]}]}
    >>> from tuolaji.scorer.cards import parse_cards
    >>> b = bidding_state(rec)
    >>> b.standing_seat, b.trump, b.dealer, b.is_overcall(2, parse_cards(["2S", "2S"]))
    (1, 'H', 1, True)
    """
    if earlier is None:
        parse_record(record)  # every deal checked, as without a run
    deals = record.get("deals") if isinstance(record, dict) else None
    n = len(deals) if isinstance(deals, list) else 0
    if not -n <= deal < n:
        parse_record(record)  # a malformed record: the place named
        raise RecordError("record.no_deal", deal=deal)
    index = deal % n
    try:  # the deal itself; the deals before it are the run's
        parsed = parse_record({**record, "deals": [record["deals"][index]]})
    except RecordError:
        parse_record(record)  # raises, naming the deal where it is
        raise
    with _collector_paused():
        before = _audit_again({**record, "deals": record["deals"][:index]}, earlier)
    previous = before.carried[-1] if before.carried else None
    levels = list(parsed.start_levels) if previous is None else list(
        previous.levels_after if previous.levels_after is not None else previous.levels_before)
    d = parsed.deals[0]
    opts = parsed.options
    known = previous is not None and previous.winners is not None
    later_friends = opts.friends and known
    dealer = d.dealer
    if known and not opts.friends and previous is not None and previous.next_dealer is not None:
        dealer = previous.next_dealer
    state = BiddingState(opts, levels[dealer] if known else d.level, parsed.players,
                         levels=levels if later_friends else None,
                         eligible=previous.winners if later_friends and previous is not None else None,
                         dealer=dealer, first_deal=index == 0 and parsed.starts_the_game)
    for bid in d.bids or ():
        state.push(bid["seat"], bid["cards"], bid["after_kitty"])
        if bid["after_kitty"]:
            state.bury_kitty()
    return state


def next_dealers(record: Record, deal: int = -1, *, earlier: AuditRun | None = None) -> list[int]:
    """Who may deal the deal after ``deal``: with fixed partnerships the audit's ``next_dealer``
    alone; in 找朋友 every player of the side that won it, in seat order from the dealer's next
    seat — their bids decide which of them deals (RULES §10), so the first is only where a new
    deal starts until a bid stands. Empty while the deal is not complete. ``earlier``: an
    :class:`AuditRun` of the record (or an earlier version): its unchanged deals are not audited again.

    >>> from tuolaji.scorer.record import random_record
    >>> rec = random_record("standard-2deck", seed=2)
    >>> next_dealers(rec) == [audit_record(rec)["deals"][0]["next_dealer"]]
    True
    """
    deals = record.get("deals") if isinstance(record, dict) else None
    count = len(deals) if isinstance(deals, list) else 0
    if not -count <= deal < count:
        parse_record(record)  # a malformed record: the place named
        raise RecordError("record.no_deal", deal=deal)
    index = deal % count
    with _collector_paused():
        run = _audit_again({**record, "deals": record["deals"][:index + 1]}, earlier)
    last = run.carried[-1]
    if last.winners is None:
        return []
    if last.next_dealer is not None:
        return [last.next_dealer]
    n, dealer = run.whole.players, run.whole.deals[-1].dealer
    return [seat for seat in (seat_of(dealer, k, n) for k in range(1, n + 1)) if seat in last.winners]


__all__ = ["audit_findings", "audit_record", "audit_with_findings", "bidding_state", "next_dealers"]
