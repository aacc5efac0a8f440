"""The card tracker's counts against a count made from the record's hands, over random complete deals."""

from __future__ import annotations

from collections import Counter

import pytest

from tuolaji import scorer
from tuolaji.scorer.cards import CARD_NAMES, CARD_POINTS, parse_card
from tuolaji.scorer.order import TrumpOrder
from tuolaji.scorer.profiles import PROFILES, resolve_rules
from tuolaji.scorer.tracker import SUIT_KEYS, track


def _steps(deal: dict) -> list[tuple[int, int, int]]:
    """(trick, position, plays so far) after every play."""
    steps, count = [], 0
    for t, trick in enumerate(deal["tricks"]):
        for position in range(len(trick["plays"])):
            count += 1
            steps.append((t, position, count))
    return steps


@pytest.mark.parametrize("profile", sorted(PROFILES))
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_tracker_matches_the_hands(profile: str, seed: int) -> None:
    record = scorer.random_record(profile, seed)
    deal = record["deals"][0]
    assert deal["complete"]
    options = resolve_rules(record["rules"])
    order = TrumpOrder.of(deal["level"], deal["trump"], options.twos_trump)
    n = len(record["players"])
    hands = [Counter(parse_card(c) for c in hand) for hand in deal["hands"]]
    kitty = Counter(parse_card(c) for c in deal.get("kitty", []))
    steps = _steps(deal)
    checked = [0, len(steps) // 3, len(steps) // 2, len(steps) - 1, len(steps)] + [i for i in range(0, len(steps), 7)]
    for plays in sorted(set(checked)):
        remaining = [Counter(h) for h in hands]
        for t, position, _count in steps[:plays]:
            trick = deal["tricks"][t]
            seat = (trick["leader"] + position) % n
            remaining[seat].subtract(parse_card(c) for c in trick["plays"][position])
        out = sum(remaining, Counter()) + kitty
        tracked = track(record, plays=plays)
        assert tracked["plays"] == plays
        assert tracked["left"] == {CARD_NAMES[c]: out[c] for c in range(54)}
        assert tracked["trumps"]["left"] == sum(v for c, v in out.items() if order.is_trump(c))
        assert tracked["points"]["left"] == sum(CARD_POINTS[c] * v for c, v in out.items())
        assert tracked["points"]["total"] == 100 * options.decks
        for key in tracked["key_cards"]:
            assert key["left"] == out[parse_card(key["card"])]
        # every void the tracker shows is true of the hand (random deals are played legally) ...
        for void in tracked["voids"]:
            suit = SUIT_KEYS.index(void["suit"])
            assert void["contradicted"] is None
            assert not any(v > 0 and order.suit[c] == suit for c, v in remaining[void["seat"]].items()), void
        # ... and every follow that left the lead's suit shows one
        shown = {(v["seat"], v["suit"]) for v in tracked["voids"]}
        for t, position, _ in steps[:plays]:
            trick = deal["tricks"][t]
            lead = order.suit[parse_card(trick["plays"][0][0])]
            if position and any(order.suit[parse_card(c)] != lead for c in trick["plays"][position]):
                assert ((trick["leader"] + position) % n, SUIT_KEYS[lead]) in shown


def test_a_revoke_contradicts_the_void() -> None:
    record = {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": ["a", "b", "c", "d"],
              "deals": [{"level": "2", "trump": "S", "dealer": 0, "tricks": [
                  {"leader": 0, "plays": [["AH"], ["3H"], ["4C"], ["5H"]]},
                  {"leader": 0, "plays": [["AC"], ["3C"], ["6H"], ["5C"]]}]}]}
    voids = track(record)["voids"]
    assert voids == [{"seat": 2, "suit": "H", "trick": 0, "contradicted": 1},
                     {"seat": 2, "suit": "C", "trick": 1, "contradicted": None}]
    assert track(record, plays=4)["voids"] == [{"seat": 2, "suit": "H", "trick": 0, "contradicted": None}]
