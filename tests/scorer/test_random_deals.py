"""Property tests: random complete deals of every profile (1–4 decks, 4–7 players) played
with the legal-play generator audit clean; an injected revoke or bad throw is always
found and proven; push/pop is exact; records round-trip.

Together they play about 1,500 deals per run (500 complete); ``bench/rules_bench.py`` plays more."""

from __future__ import annotations

import copy
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tuolaji.scorer import (
    PROFILES,
    audit_record,
    dumps_record,
    loads_record,
    normalize_record,
    random_record,
    resolve_rules,
)
from tuolaji.scorer.cards import CARD_POINTS, format_cards, parse_cards
from tuolaji.scorer.follow import suit_holding
from tuolaji.scorer.formats import read_format
from tuolaji.scorer.order import TRUMP
from tuolaji.scorer.record import parse_record
from tuolaji.scorer.state import DealState

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MANY = settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# (rules, players): every profile, plus 找朋友 with every deck count and 4–7 players
CONFIGS: list[tuple[Any, int | None]] = [(name, None) for name in PROFILES] + [
    ({"profile": "friends-3deck", "decks": d, "players": [n]}, n) for d in (1, 2, 3, 4) for n in (5, 6, 7)
] + [({"profile": "standard-2deck", "players": [6]}, 6), ({"profile": "four-deck", "twos_trump": True}, None),
     ({"profile": "titanic-3deck", "protect_longer_tuples": True, "throw_compare": "all"}, None),
     ({"profile": "single-deck", "forced_unit": "smallest-beaten", "kitty_multiplier": "power"}, None),
     ({"profile": "titanic-3deck", "triple_pair_tractor": True, "forced_unit": "largest-beaten",
       "kitty_multiplier": "per-card:3", "throw_penalty": "level-points"}, None),
     ({"profile": "guangzhou-3deck", "discard_penalty": "points", "trump_penalty": "level-points",
       "kitty_penalty": "level", "card_count_penalty": "points"}, None),
     ({"profile": "four-deck", "titanic_beats_three_pair": True, "triple_pair_tractor": True}, None),
     ({"profile": "friends-3deck", "players": [4]}, 4), ({"profile": "friends-3deck", "decks": 4, "players": [4]}, 4)]


def make(config: int, seed: int, **kw: Any) -> dict:
    rules, players = CONFIGS[config]
    name = rules if isinstance(rules, str) else rules["profile"]
    if kw.get("hand_size") is not None:
        opts = resolve_rules(rules)
        kw["hand_size"] = min(kw["hand_size"], opts.hand_size_for(players or opts.players[0]))
    return random_record(name, seed, players=players, rules=None if isinstance(rules, str) else rules, **kw)


@MANY
@given(config=st.integers(0, len(CONFIGS) - 1), seed=st.integers(0, 2**31))
def test_random_complete_deals_audit_clean(config: int, seed: int) -> None:
    rec = make(config, seed, attempt_chance=0.1)  # some leaders try throws that fail
    deal = rec["deals"][0]
    opts = parse_record(rec).options
    out = audit_record(rec)["deals"][0]
    assert out["violations"] == [], out["violations"][:3]
    assert deal["complete"] is True and out["outcome"] is not None
    assert all(t["winner"] is not None for t in out["tricks"])
    # every point is in a trick or in the kitty
    kitty_points = sum(CARD_POINTS[c] for c in parse_cards(deal["kitty"]))
    assert sum(t["points"] for t in out["tricks"]) + kitty_points == 100 * opts.decks
    assert out["kitty_points"] == kitty_points
    assert out["penalty_points"] == sum(p["points"] for p in out["penalties"])
    kitty_gain = kitty_points * out["kitty_multiplier"] if out["kitty_won_by"] == "defenders" else 0
    assert out["total_defender_points"] == out["defender_points"] + kitty_gain + out["penalty_points"]
    attempts = sum("attempt" in t for t in deal["tricks"])
    assert len(out["penalties"]) == (attempts if opts.throw_penalty != "none" else 0)


@settings(max_examples=300, deadline=None)
@given(config=st.integers(0, len(CONFIGS) - 1), seed=st.integers(0, 2**31))
def test_short_deals_audit_clean(config: int, seed: int) -> None:
    rec = make(config, seed, hand_size=random.Random(seed).randint(1, 8))
    assert audit_record(rec)["deals"][0]["violations"] == []


def _replay(rec: dict) -> DealState:
    parsed = parse_record(rec)
    d = parsed.deals[0]
    assert d.hands is not None
    return DealState(parsed.options, d.level, d.trump, d.dealer, d.hands, parsed.players)


def _continue(state: DealState, rng: random.Random, tricks: list[dict]) -> None:
    """Play the deal out with the generator, appending to ``tricks``."""
    while not state.is_over():
        cur = state.current
        if cur is None:
            tricks.append({"leader": state.turn, "plays": []})
        play = state.random_play(rng)
        state.push(play)
        tricks[-1]["plays"].append(format_cards(play))


def _inject(rec: dict, seed: int, kind: str) -> tuple[dict, int, int] | None:
    """Replay ``rec`` up to a random trick, then inject a revoke or a failed throw there,
    play the rest legally. Returns (record, trick, seat) or None if no chance arose."""
    rng = random.Random(seed)
    state = _replay(rec)
    tricks_src = rec["deals"][0]["tricks"]
    n = len(rec["players"])
    start = rng.randrange(len(tricks_src))
    new_tricks: list[dict] = []
    for t in tricks_src[:start]:
        for p in t["plays"]:
            state.push([int(c) for c in parse_cards(p)])
        new_tricks.append(copy.deepcopy(t))
    order = state.order
    leader = state.turn
    hand = state.hands[leader]
    if kind == "throw":
        # two singles of one suit, the lower one beatable by another hand
        for suit in range(5):
            holding = suit_holding(order, hand, suit)
            kinds = sorted(holding, key=lambda c: order.value[c])
            for i, low in enumerate(kinds):
                for high in kinds[i + 1:]:
                    if order.value[high] == order.value[low]:
                        continue
                    throw = [low, high]
                    units = read_format(order, throw)
                    if len(units) == 2 and state.beaten_units(leader, units):
                        state.push(throw)
                        new_tricks.append({"leader": leader, "plays": [format_cards(throw)]})
                        _continue(state, rng, new_tricks)
                        out = copy.deepcopy(rec)
                        out["deals"][0]["tricks"] = new_tricks
                        return out, start, leader
        return None
    # revoke: a follower with cards of the led suit plays one card of another suit instead
    lead = state.random_play(rng)
    state.push(lead)
    new_tricks.append({"leader": leader, "plays": [format_cards(lead)]})
    victim = None
    for j in range(1, n):
        seat = state.turn
        legal = state.random_play(rng)
        cur_lead = state.current.lead  # type: ignore[union-attr]
        suit = cur_lead.suit
        others = [c for c, k in enumerate(state.hands[seat]) for _ in range(max(k, 0))
                  if order.suit[c] != suit and c not in legal]
        in_suit = [c for c in legal if order.suit[c] == suit]
        if victim is None and in_suit and others:
            legal = list(legal)
            legal.remove(in_suit[0])
            legal.append(rng.choice(others))
            victim = seat
        state.push(legal)
        new_tricks[-1]["plays"].append(format_cards(legal))
        del j
    if victim is None:
        return None
    _continue(state, rng, new_tricks)
    out = copy.deepcopy(rec)
    out["deals"][0]["tricks"] = new_tricks
    return out, start, victim


@settings(max_examples=300, deadline=None)
@given(config=st.integers(0, len(CONFIGS) - 1), seed=st.integers(0, 2**31), kind=st.sampled_from(["revoke", "throw"]),
       keep_hands=st.booleans())
def test_injected_violation_is_found_and_proven(config: int, seed: int, kind: str, keep_hands: bool) -> None:
    rec = make(config, seed, hand_size=random.Random(seed).randint(3, 12))
    injected = _inject(rec, seed, kind)
    if injected is None:
        return
    bad, trick, seat = injected
    if not keep_hands:
        del bad["deals"][0]["hands"]  # judged against hands reconstructed from later plays
    found = [(v["trick"], v["seat"], v["rule"], v["proven"]) for v in audit_record(bad)["deals"][0]["violations"]]
    rule = "must-follow-suit" if kind == "revoke" else "failed-throw"
    assert (trick, seat, rule, True) in found
    assert len(found) == 1  # nothing else is wrong


@FAST
@given(config=st.integers(0, len(CONFIGS) - 1), seed=st.integers(0, 2**31))
def test_push_pop_restores_the_state(config: int, seed: int) -> None:
    rec = make(config, seed, hand_size=6)
    state = _replay(rec)
    hands0 = copy.deepcopy(state.hands)
    plays = [[int(c) for c in parse_cards(p)] for t in rec["deals"][0]["tricks"] for p in t["plays"]]
    snapshots = []
    for p in plays:
        snapshots.append((copy.deepcopy(state.hands), list(state.points), state.turn))
        state.push(p)
    assert state.is_over()
    for p in reversed(plays):
        assert state.pop() == p
        hands, points, turn = snapshots.pop()
        assert (state.hands, state.points, state.turn) == (hands, points, turn)
    assert state.hands == hands0 and state.tricks == []


@FAST
@given(config=st.integers(0, len(CONFIGS) - 1), seed=st.integers(0, 2**31))
def test_record_round_trip_keeps_unknown_keys(config: int, seed: int) -> None:
    rec = make(config, seed, hand_size=4)
    rec["x-camera"] = {"id": 3}
    rec["deals"][0]["tricks"][0]["unconfirmed"] = [[1, 0]]
    rec["deals"][0]["tricks"][0]["corrections"] = [{"seat": 1, "index": 0, "old": "AS", "new": "KS", "source": "user"}]
    text = dumps_record(rec, indent=2)
    again = loads_record(text)
    assert again == rec and dumps_record(again, indent=2) == text
    assert normalize_record(rec) == rec  # already canonical
    assert audit_record(rec) == audit_record(again)


@FAST
@given(config=st.integers(0, len(CONFIGS) - 1), seed=st.integers(0, 2**31))
def test_generator_plays_are_legal_and_in_the_list(config: int, seed: int) -> None:
    rec = make(config, seed, hand_size=5)
    state = _replay(rec)
    for t in rec["deals"][0]["tricks"]:
        for p in t["plays"]:
            cards = [int(c) for c in parse_cards(p)]
            assert state.is_legal(cards)
            # a follow is one of the listed legal follows, a lead (a throw too) one of the leads
            key = sorted(cards)
            assert key in [sorted(x) for x in state.legal_plays(limit=20000)]
            state.push(cards)
    assert all(TRUMP == 4 for _ in [0])


@FAST
@given(config=st.integers(0, len(CONFIGS) - 1), seed=st.integers(0, 2**31))
def test_legal_leads_are_every_legal_lead(config: int, seed: int) -> None:
    """The lead generator lists exactly the one-suit sub-multisets that ``is_legal`` accepts
    (every single unit and every standing throw), each once."""
    from itertools import product

    rec = make(config, seed, hand_size=7)
    state = _replay(rec)
    tricks = rec["deals"][0]["tricks"]
    stop = random.Random(seed).randrange(len(tricks))
    for t in tricks[:stop]:
        for p in t["plays"]:
            state.push([int(c) for c in parse_cards(p)])
    listed = [tuple(sorted(p)) for p in state.legal_plays()]
    assert len(listed) == len(set(listed))
    brute = set()
    hand = state.hands[state.turn]
    for suit in range(5):
        holding = suit_holding(state.order, hand, suit)
        kinds = sorted(holding)
        for counts in product(*(range(holding[c] + 1) for c in kinds)):
            play = [c for c, n in zip(kinds, counts, strict=True) for _ in range(n)]
            if play and state.is_legal(play):
                brute.add(tuple(sorted(play)))
    assert set(listed) == brute
