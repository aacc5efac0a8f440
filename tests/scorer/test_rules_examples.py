"""Every worked example of docs/RULES.md and of the seeds it cites (000, 001, 004)."""

from __future__ import annotations

from typing import Any

import pytest

from tuolaji.scorer import PROFILES, parse_card, resolve_rules
from tuolaji.scorer.cards import CARD_NAMES, format_card, parse_cards
from tuolaji.scorer.follow import check_follow, hand_counts
from tuolaji.scorer.formats import Lead, beats, ladder_names, read_format, strength, throw_ladder, unit_ladder
from tuolaji.scorer.order import TRUMP, TrumpOrder
from tuolaji.scorer.scoring import advance_level, kitty_multiplier, level_outcome, next_dealer
from tuolaji.scorer.state import DealState

STD = PROFILES["standard-2deck"]


def cards(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text.split())]


def shapes(level: str, trump: str, text: str, twos: bool = False) -> list[tuple[int, int]]:
    return [u.shape for u in read_format(TrumpOrder.of(level, trump, twos), cards(text))]


# ------------------------------------------------------------------ §1 cards
def test_card_notation_input_forms_and_canonical_output() -> None:
    assert [format_card(parse_card(t)) for t in ("♥10", "10H", "th", "TH", "10♥", "♠a", "sj", "BJ")] == [
        "10H", "10H", "10H", "10H", "10H", "AS", "SJ", "BJ"]
    assert len(CARD_NAMES) == 54 and CARD_NAMES[8] == "10S" and CARD_NAMES[13] == "2H"
    assert sum(parse_card(n).points for n in CARD_NAMES) == 100


# ------------------------------------------------------------------ §2 trump order
def test_trump_order_level_4_hearts() -> None:
    o = TrumpOrder.of("4", "H")
    v = o.value
    order_high_to_low = ["BJ", "SJ", "4H", "4S", "AH", "KH", "3H", "2H"]
    vals = [v[parse_card(c)] for c in order_high_to_low]
    assert vals == sorted(vals, reverse=True) and len(set(vals)) == len(vals)
    assert v[parse_card("4S")] == v[parse_card("4C")] == v[parse_card("4D")]
    assert all(o.suit[parse_card(c)] == TRUMP for c in ("4S", "4D", "SJ", "BJ", "2H", "AH"))
    assert o.suit[parse_card("AS")] == 0 and o.suit[parse_card("5D")] == 3
    # plain suits skip the level rank
    assert v[parse_card("5S")] - v[parse_card("3S")] == 1


def test_no_trump_and_twos_trump_orders() -> None:
    nt = TrumpOrder.of("4", "NT")
    assert {nt.suit[parse_card(c)] for c in ("4S", "4H", "SJ", "BJ")} == {TRUMP}
    assert nt.suit[parse_card("AH")] == 1
    assert nt.value[parse_card("4H")] == nt.value[parse_card("4S")]
    # twos_trump: ... trump A < off-suit 2s < trump 2 < off-suit level < trump level < SJ < BJ
    o = TrumpOrder.of("10", "S", twos_trump=True)
    ladder = ["AS", "2H", "2S", "10H", "10S", "SJ", "BJ"]
    vals = [o.value[parse_card(c)] for c in ladder]
    assert vals == list(range(vals[0], vals[0] + len(ladder)))
    assert o.value[parse_card("2H")] == o.value[parse_card("2D")]
    assert o.suit[parse_card("2C")] == TRUMP
    # plain order without the 2s: 3 is the lowest
    assert o.value[parse_card("3H")] == 0
    # no-trump with twos: jokers > level cards (equal) > 2s (equal)
    nt2 = TrumpOrder.of("10", "NT", twos_trump=True)
    assert nt2.value[parse_card("SJ")] - 1 == nt2.value[parse_card("10C")] == nt2.value[parse_card("2D")] + 1


# ------------------------------------------------------------------ §3 units
@pytest.mark.parametrize(
    ("level", "trump", "text", "expected"),
    [
        ("4", "H", "3H 3H 5H 5H", [(2, 2)]),  # seed 000: adjacency skips the level rank
        ("4", "S", "3H 3H 5H 5H", [(2, 2)]),  # also in a plain suit
        ("4", "H", "4H 4H 4C 4C", [(2, 2)]),  # trump level next to off-suit level
        ("4", "H", "4H 4H SJ SJ", [(2, 2)]),
        ("4", "H", "4C 4C AH AH", [(2, 2)]),
        ("4", "H", "4C 4C 4S 4S", [(2, 1), (2, 1)]),  # equal, not adjacent
        ("4", "H", "BJ BJ SJ SJ", [(2, 2)]),
        ("4", "NT", "SJ SJ 4C 4C", [(2, 2)]),
        ("4", "NT", "BJ BJ 4C 4C", [(2, 1), (2, 1)]),
        ("5", "S", "3S 3S 3S 4S 4S 4S", [(3, 2)]),  # seed 004 泰坦尼克 examples at level 5
        ("5", "S", "4S 4S 4S 6S 6S 6S", [(3, 2)]),
        ("5", "S", "5H 5H 5H 5S 5S 5S", [(3, 2)]),
        ("5", "S", "SJ SJ SJ BJ BJ BJ", [(3, 2)]),
        ("5", "S", "AS AS AS 5H 5H 5H", [(3, 2)]),
        ("5", "S", "5S 5S 5S SJ SJ SJ", [(3, 2)]),
        ("5", "S", "5S 5S 5S 6S 6S 6S", [(3, 1), (3, 1)]),
        ("5", "NT", "5S 5S 5S 5H 5H 5H", [(3, 1), (3, 1)]),
        ("10", "S", "KH KH QH QH", [(2, 2)]),  # seed 004 tractors at level 10
        ("10", "S", "JH JH 9H 9H", [(2, 2)]),
        ("10", "S", "5H 5H 4H 4H 3H 3H", [(2, 3)]),
        ("10", "S", "5H 5H 4H", [(2, 1), (1, 1)]),  # seed 004 non-tractors
        ("10", "S", "5H 3H 3H 5H", [(2, 1), (2, 1)]),
        ("10", "H", "10S 10S 10C 10C", [(2, 1), (2, 1)]),
        ("10", "H", "AS AS 2S 2S", [(2, 1), (2, 1)]),
        ("10", "S", "SJ SJ 10S 10S", [(2, 2)]),  # seed 004: small jokers + trump 10
        ("10", "S", "10S 10S 10H 10H AS AS", [(2, 3)]),
        ("10", "S", "2H 2H AS AS", [(2, 2)]),  # twos_trump below
        ("2", "S", "3S 3S 4S 4S 4S", [(3, 1), (2, 1)]),  # 22233-like: 三带二 is a triple and a pair
    ],
)
def test_units_and_tractors(level: str, trump: str, text: str, expected: list[tuple[int, int]]) -> None:
    twos = text == "2H 2H AS AS"
    assert shapes(level, trump, text, twos) == expected


def test_preferred_reading_22233() -> None:
    # tuples stay whole (RULES §3): 22233 is a triple and a pair, never tractor 2233 + 2
    units = read_format(TrumpOrder.of("5", "S"), cards("2H 2H 2H 3H 3H"))
    assert [u.shape for u in units] == [(3, 1), (2, 1)]
    # seed 001's 有的约定 (option triple_pair_tractor) keeps the joined reading
    joined = read_format(TrumpOrder.of("5", "S"), cards("2H 2H 2H 3H 3H"),
                         resolve_rules({"profile": "titanic-3deck", "triple_pair_tractor": True}))
    assert [u.shape for u in joined] == [(2, 2), (1, 1)] and [format_card(k) for k in joined[1].kinds] == ["2H"]


def test_mixed_widths_never_form_one_unit() -> None:
    # seed 000 4.7: ♥10 10 10 ♥JJ (三二牌) is not a tractor: a triple and a pair
    assert shapes("4", "S", "10H 10H 10H JH JH") == [(3, 1), (2, 1)]
    assert shapes("4", "S", "KH KH KH QH QH JH JH") == [(2, 2), (3, 1)]  # a triple and a pair-tractor
    assert shapes("4", "S", "KH KH KH QH QH QH") == [(3, 2)]  # 泰坦尼克
    assert shapes("4", "S", "KH KH KH KH QH QH QH") == [(4, 1), (3, 1)]  # four decks likewise


# ------------------------------------------------------------------ §5 ladders (pinned)
PINNED_LADDERS = {
    (2, 1): ["[2]", "[1][1]"],
    (3, 1): ["[3]", "[2][1]", "[1]×3"],
    (4, 1): ["[4]", "[3][1]", "[2][2]", "[2][1][1]", "[1]×4"],
    (2, 2): ["[2,2]", "[2][2]", "[2][1][1]", "[1]×4"],
    (2, 3): ["[2,2,2]", "[2,2][2]", "[2][2][2]", "[2][2][1][1]", "[2][1]×4", "[1]×6"],
    (2, 4): ["[2,2,2,2]", "[2,2,2][2]", "[2,2][2,2]", "[2,2][2][2]", "[2][2][2][2]", "[2][2][2][1][1]",
             "[2][2][1]×4", "[2][1]×6", "[1]×8"],
    (3, 2): ["[3,3]", "[3][3]", "[2,2][1][1]", "[3][2][1]", "[3][1]×3", "[2][2][1][1]", "[2][1]×4", "[1]×6"],
    (3, 3): ["[3,3,3]", "[3,3][3]", "[3][3][3]", "[2,2,2][1]×3", "[3][3][2][1]", "[3][3][1]×3",
             "[3][2][2][1][1]", "[3][2][1]×4", "[3][1]×6", "[2][2][2][1]×3", "[2][2][1]×5", "[2][1]×7", "[1]×9"],
    (4, 2): ["[4,4]", "[4][4]", "[3,3][1][1]", "[4][3][1]", "[4][2][2]", "[4][2][1][1]", "[4][1]×4",
             "[3][3][1][1]", "[3][2][2][1]", "[3][2][1]×3", "[3][1]×5", "[2][2][2][2]", "[2][2][2][1][1]",
             "[2][2][1]×4", "[2][1]×6", "[1]×8"],
}


@pytest.mark.parametrize("shape", sorted(PINNED_LADDERS))
def test_default_ladders_are_pinned(shape: tuple[int, int]) -> None:
    assert ladder_names(unit_ladder(shape, STD)) == PINNED_LADDERS[shape]


def test_rules_md_ladder_table() -> None:
    assert ladder_names(unit_ladder((2, 1))) == ["[2]", "[1][1]"]
    assert ladder_names(unit_ladder((3, 1))) == ["[3]", "[2][1]", "[1]×3"]
    assert ladder_names(unit_ladder((2, 2))) == ["[2,2]", "[2][2]", "[2][1][1]", "[1]×4"]
    titanic = ["[3,3]", "[3][3]", "[2,2][1][1]", "[3][2][1]", "[3][1]×3", "[2][2][1][1]", "[2][1]×4", "[1]×6"]
    assert ladder_names(unit_ladder((3, 2), PROFILES["titanic-3deck"])) == titanic
    assert ladder_names(unit_ladder((3, 2), PROFILES["competition-3deck"])) == titanic
    assert ladder_names(unit_ladder((3, 2), PROFILES["guangzhou-3deck"])) == [
        "[3,3]", "[2,2][1][1]", "[3][2][1]", "[2][2][1][1]", "[2][1]×4", "[1]×6"]
    # guangzhou overrides only [3,3]
    assert ladder_names(unit_ladder((2, 2), PROFILES["guangzhou-3deck"])) == PINNED_LADDERS[(2, 2)]
    assert ladder_names(unit_ladder((2, 3)))[:4] == ["[2,2,2]", "[2,2][2]", "[2][2][2]", "[2][2][1][1]"]


def test_combined_throw_ladder() -> None:
    o = TrumpOrder.of("2", "S")
    # tractor + pair + single: the tractor (most rungs) steps first, then the pair
    units = read_format(o, cards("AH AH KH KH 9H 9H 7H"))
    assert [u.shape for u in units] == [(2, 2), (2, 1), (1, 1)]
    assert ladder_names(throw_ladder(units, STD)) == [
        "[2,2][2][1]", "[2][2][2][1]", "[2][2][1]×3", "[2][1]×5", "[1]×7"]
    # two pairs: equal rungs and cards → the lower pair steps down first
    units = read_format(o, cards("AH AH 9H 9H"))
    assert ladder_names(throw_ladder(units, STD)) == ["[2][2]", "[2][1][1]", "[1]×4"]


# ------------------------------------------------------------------ §5 following
def follow(profile: Any, level: str, trump: str, lead: str, hand: str, play: str) -> str | None:
    opts = resolve_rules(profile)
    o = TrumpOrder.of(level, trump, opts.twos_trump)
    fault = check_follow(o, Lead.of(o, cards(lead), opts), hand_counts(cards(hand)), cards(play), opts)
    return None if fault is None else fault.rule


def test_suit_obligation() -> None:
    # fewer than k cards of the suit: all of them plus anything
    assert follow("standard-2deck", "2", "S", "AH AH", "5H 9D 3C", "5H 9D") is None
    assert follow("standard-2deck", "2", "S", "AH AH", "5H 9D 3C", "9D 3C") == "must-follow-suit"
    # trumps may be played on a plain lead when void
    assert follow("standard-2deck", "2", "S", "AH", "5S 9D", "5S") is None
    # trump lead: level cards and jokers are trumps
    assert follow("standard-2deck", "2", "S", "AS", "2H 9D", "9D") == "must-follow-suit"


def test_format_obligation_pairs_seed_001_and_004() -> None:
    # a pair lead with a pair in hand must be answered with a pair (seed 004)
    assert follow("standard-2deck", "2", "S", "AH AH", "3H 3H 5H", "3H 5H") == "must-follow-format"
    # a pair carved out of a triple (seed 001: 无对子有三张也须拆散来垫)
    assert follow("guangzhou-3deck", "2", "S", "AH AH", "3H 3H 3H 5H", "3H 5H") == "must-follow-format"
    assert follow("guangzhou-3deck", "2", "S", "AH AH", "3H 3H 3H 5H", "3H 3H") is None
    # ...unless protect_longer_tuples
    protect = {"profile": "guangzhou-3deck", "protect_longer_tuples": True}
    opts = resolve_rules(protect)
    o = TrumpOrder.of("2", "S")
    lead = Lead.of(o, cards("AH AH"), opts)
    assert check_follow(o, lead, hand_counts(cards("3H 3H 3H 5H")), cards("3H 5H"), opts) is None


def test_format_obligation_tractor_and_triple() -> None:
    # tractor lead: tractor if held; else two pairs; else a pair and singles (seed 004)
    assert follow("standard-2deck", "2", "S", "KH KH QH QH", "3H 3H 4H 4H 9H", "3H 3H 4H 9H") == "must-follow-format"
    assert follow("standard-2deck", "2", "S", "KH KH QH QH", "3H 3H 6H 6H 9H", "3H 3H 6H 9H") == "must-follow-format"
    assert follow("standard-2deck", "2", "S", "KH KH QH QH", "3H 3H 6H 6H 9H", "3H 3H 6H 6H") is None
    assert follow("standard-2deck", "2", "S", "KH KH QH QH", "3H 3H 6H 7H 9H", "3H 6H 7H 9H") == "must-follow-format"
    # triple lead (seed 001: 无三张垫对子加一)
    assert follow("guangzhou-3deck", "2", "S", "KH KH KH", "3H 3H 6H 7H", "3H 6H 7H") == "must-follow-format"
    assert follow("guangzhou-3deck", "2", "S", "KH KH KH", "3H 3H 6H 7H", "3H 3H 7H") is None


def test_titanic_follow_ladders_differ_by_profile() -> None:
    lead = "KH KH KH QH QH QH"
    # two separate triples: 泰坦尼克 (seed 004) needs [3][3]; guangzhou (seed 001) goes to [2,2][1][1] first
    hand = "3H 3H 3H 7H 7H 7H 9H"
    assert follow("titanic-3deck", "2", "S", lead, hand, "3H 3H 7H 7H 7H 9H") == "must-follow-format"
    assert follow("titanic-3deck", "2", "S", lead, hand, "3H 3H 3H 7H 7H 7H") is None
    # guangzhou: no [2,2]; [3][2][1] is the first it can meet — 3H×3 7H×2 9H satisfies it
    assert follow("guangzhou-3deck", "2", "S", lead, hand, "3H 3H 3H 7H 7H 9H") is None
    # a pair-tractor plus singles ranks above [3][2][1] in both
    hand2 = "3H 3H 3H 4H 4H 9H 9H"
    assert follow("titanic-3deck", "2", "S", lead, hand2, "3H 3H 3H 9H 9H 4H") == "must-follow-format"
    assert follow("titanic-3deck", "2", "S", lead, hand2, "3H 3H 4H 4H 9H 9H") is None


# ------------------------------------------------------------------ §6 beating
def trick_order(level: str, trump: str, lead: str, plays: list[str], compare: str = "largest-unit") -> int:
    o = TrumpOrder.of(level, trump)
    ld = Lead.of(o, cards(lead), STD)
    best, best_s = 0, strength(o, ld, cards(lead), compare, is_lead=True)
    for i, p in enumerate(plays, start=1):
        s = strength(o, ld, cards(p), compare)
        if s is not None and best_s is not None and beats(s, best_s, compare):
            best, best_s = i, s
    return best


def test_trumping_needs_the_lead_format_seed_004() -> None:
    # level 10, ♠ trump: 9988 72 trumps ♣AK5544 but not ♣AA5544
    assert trick_order("10", "S", "AC KC 5C 5C 4C 4C", ["9S 9S 8S 8S 7S 2S"]) == 1
    assert trick_order("10", "S", "AC AC 5C 5C 4C 4C", ["9S 9S 8S 8S 7S 2S"]) == 0


def test_over_trumping_seed_004() -> None:
    # 977 trumps ♣544, then 884 over-trumps (88 > 77); on ♣567 884 does not (9 > 8)
    assert trick_order("10", "S", "5C 4C 4C", ["9S 7S 7S", "8S 8S 4S"]) == 2
    assert trick_order("10", "S", "5C 6C 7C", ["9S 7S 7S", "8S 8S 4S"]) == 1


def test_equal_cards_first_played_wins_and_discards_cannot_win() -> None:
    # off-suit level cards are equal: the first one stands
    assert trick_order("4", "H", "4S", ["4C", "4D", "3S"]) == 0
    # a higher card of another plain suit is a discard
    assert trick_order("4", "H", "9S", ["AC", "10S", "2D"]) == 2
    # a trump beats any plain card; a higher trump over-trumps
    assert trick_order("4", "H", "AS", ["2H", "3H", "KS"]) == 2


def test_throw_compare_largest_unit_vs_all() -> None:
    # lead ♣ AA K; trump 33 + A: largest unit 33 beats AA (trumped), fine in both modes
    assert trick_order("10", "S", "AC AC KC", ["3S 3S AS"]) == 1
    # over-trump: 44 5 over 33 A: largest-unit looks only at the pair; all needs every unit higher
    assert trick_order("10", "S", "AC AC KC", ["3S 3S AS", "4S 4S 5S"]) == 2
    assert trick_order("10", "S", "AC AC KC", ["3S 3S AS", "4S 4S 5S"], compare="all") == 1


# ------------------------------------------------------------------ §7 kitty, §8 levels
def test_kitty_multipliers_seed_001() -> None:
    assert [kitty_multiplier(STD, m, True) for m in (1, 2, 3, 4)] == [2, 4, 6, 8]
    gz = PROFILES["guangzhou-3deck"]
    assert kitty_multiplier(gz, 2, trump_win=False) == 1 and kitty_multiplier(gz, 2, trump_win=True) == 4
    assert kitty_multiplier(resolve_rules({"profile": "guangzhou-3deck", "kitty_multiplier": "fixed:3"}), 2, True) == 3
    assert kitty_multiplier(resolve_rules({"profile": "single-deck", "kitty_multiplier": "power"}), 2, True) == 4


@pytest.mark.parametrize(
    ("profile", "table"),
    [
        # seed 004, 2 decks: 0 → dealer +3; <40 → +2; <80 → +1; 80 take over; 120 +1; 160 +2
        ("standard-2deck", [(0, "dealer", 3), (35, "dealer", 2), (40, "dealer", 1), (75, "dealer", 1),
                            (80, "defenders", 0), (115, "defenders", 0), (120, "defenders", 1),
                            (160, "defenders", 2), (200, "defenders", 3)]),
        # seed 004 泰坦尼克: 大光 +3, 小光 (<60) +2, 120 上台, 180 +1, 240 +2
        ("titanic-3deck", [(0, "dealer", 3), (55, "dealer", 2), (60, "dealer", 1), (115, "dealer", 1),
                           (120, "defenders", 0), (180, "defenders", 1), (240, "defenders", 2)]),
        # seed 001: 120 / 40: <120 +1, <80 +2, <40 +3, 0 +4; 160 +1, 200 +2, 240 +3
        ("guangzhou-3deck", [(0, "dealer", 4), (35, "dealer", 3), (75, "dealer", 2), (115, "dealer", 1),
                             (120, "defenders", 0), (160, "defenders", 1), (200, "defenders", 2),
                             (240, "defenders", 3)]),
        ("single-deck", [(0, "dealer", 3), (15, "dealer", 2), (20, "dealer", 1), (40, "defenders", 0),
                         (60, "defenders", 1)]),
        ("four-deck", [(0, "dealer", 3), (75, "dealer", 2), (80, "dealer", 1), (160, "defenders", 0),
                       (240, "defenders", 1)]),
    ],
)
def test_level_outcomes(profile: str, table: list[tuple[int, str, int]]) -> None:
    opts = PROFILES[profile]
    for points, side, levels in table:
        assert level_outcome(opts, 4, points) == (side, levels), points


def test_friends_thresholds_and_max_levels() -> None:
    fr = PROFILES["friends-3deck"]
    assert (fr.threshold_for(5), fr.threshold_for(6), fr.threshold_for(7), fr.step_for(6)) == (120, 100, 120, 40)
    fr4 = resolve_rules({"profile": "friends-3deck", "decks": 4})
    assert (fr4.threshold_for(5), fr4.threshold_for(6), fr4.step_for(5)) == (160, 120, 60)
    capped = resolve_rules({"profile": "standard-2deck", "max_levels": 2})
    assert level_outcome(capped, 4, 0) == ("dealer", 2) and level_outcome(capped, 4, 240) == ("defenders", 2)


def test_next_dealer_seed_004_and_dealer_stays() -> None:
    side = {0, 2}
    assert next_dealer(0, 4, side, "dealer") == 2  # the dealer's partner
    assert next_dealer(0, 4, side, "defenders") == 1  # the dealer's next seat
    assert next_dealer(0, 4, side, "dealer", dealer_stays=True) == 0
    assert next_dealer(3, 6, {3, 5}, "dealer") == 5 and next_dealer(3, 6, {3}, "dealer") == 3


def test_must_defend_and_game_winner() -> None:
    five = ("5", "10", "K", "A")
    assert advance_level(1, 3, False, five) == (3, False)  # 3 → would pass 5: stops on it
    assert advance_level(3, 2, True, five) == (5, False)  # the dealer's side wins its 5 and passes
    assert advance_level(3, 1, False, five) == (3, False)  # defenders on 5 cannot pass it
    assert advance_level(10, 3, False, ("A",)) == (12, False)  # stops on A
    assert advance_level(12, 1, True, five) == (12, True)  # wins A as dealer: game
    assert advance_level(11, 2, True, ()) == (12, True)


# ------------------------------------------------------------------ §4 throws (seed 004 98844)
@pytest.mark.parametrize(("other", "forced"), [("JH", "9H"), ("QH QH", "4H 4H"), ("5H 5H", "4H 4H")])
def test_failed_throw_forced_unit_seed_004(other: str, forced: str) -> None:
    o = TrumpOrder.of("10", "S")
    deal = DealState(STD, "10", "S", 0, [cards("9H 8H 8H 4H 4H"), cards(other), [], []])
    units = read_format(o, cards("9H 8H 8H 4H 4H"))
    beaten = deal.beaten_units(0, units)
    assert beaten
    largest = min((u for u, _, _ in beaten), key=lambda u: (-u.size, u.top))
    assert sorted(largest.cards()) == sorted(cards(forced))
    assert not deal.is_legal(cards("9H 8H 8H 4H 4H"))


def test_standing_throw_is_legal_lead() -> None:
    deal = DealState(STD, "10", "S", 0, [cards("AH AH KH 5D"), cards("QH QH"), cards("3H"), cards("5D")])
    assert deal.is_legal(cards("AH AH KH"))
    assert not deal.is_legal(cards("AH 5D"))  # one effective suit only
    assert not deal.is_legal(cards("AH AH AH"))  # not in the hand


def test_ladders_are_overridable_in_a_record() -> None:
    # without [2][2] in the tractor ladder, two loose pairs need not both be played
    custom = {"profile": "standard-2deck", "ladders": {"[2,2]": ["[2,2]", "[2][1][1]", "[1]×4"]}}
    hand = "3H 3H 6H 6H 9H"
    assert follow("standard-2deck", "2", "S", "KH KH QH QH", hand, "3H 3H 6H 9H") == "must-follow-format"
    assert follow(custom, "2", "S", "KH KH QH QH", hand, "3H 3H 6H 9H") is None
    with pytest.raises(Exception, match="ends in singles"):
        resolve_rules({"profile": "standard-2deck", "ladders": {"[2]": ["[2]"]}})


def test_successor_through_removed_ranks_and_level_cards() -> None:
    o = TrumpOrder.of("4", "H")
    names = lambda cs: [format_card(c) for c in cs]  # noqa: E731
    assert names(o.successor(parse_card("3S"))) == ["5S"]
    assert names(o.successor(parse_card("AH"))) == ["4S", "4C", "4D"]
    assert names(o.successor(parse_card("4D"))) == ["4H"]
    assert names(o.successor(parse_card("4H"))) == ["SJ"]
    assert names(o.successor(parse_card("SJ"))) == ["BJ"]
    assert o.successor(parse_card("AS")) == ()


def test_seed_000_discard_example() -> None:
    # 头牌是♥6 6 6，跟牌者只有一张♥8: he plays ♥8 and any two other cards, even trumps
    assert follow("competition-3deck", "2", "S", "6H 6H 6H", "8H 3C 5S 9D", "8H 3C 5S") is None
    assert follow("competition-3deck", "2", "S", "6H 6H 6H", "8H 3C 5S 9D", "3C 5S 9D") == "must-follow-suit"


def test_twos_trump_tractors() -> None:
    # trump A → off-suit 2s → trump-suit 2 → off-suit level cards → trump level → SJ → BJ
    assert shapes("10", "S", "2H 2H AS AS", twos=True) == [(2, 2)]
    assert shapes("10", "S", "2S 2S 2D 2D", twos=True) == [(2, 2)]
    assert shapes("10", "S", "2S 2S 10D 10D", twos=True) == [(2, 2)]
    assert shapes("10", "S", "2H 2H 2D 2D", twos=True) == [(2, 1), (2, 1)]  # equal, not adjacent
    assert shapes("10", "S", "AS AS 2S 2S", twos=False) == [(2, 1), (2, 1)]


@pytest.mark.parametrize(
    ("name", "decks", "players", "threshold", "step", "kitty"),
    [
        ("standard-2deck", 2, (4,), 80, 40, 8),
        ("titanic-3deck", 3, (4,), 120, 60, 6),
        ("guangzhou-3deck", 3, (4,), 120, 40, 6),
        ("competition-3deck", 3, (4,), 120, 60, 6),
        ("single-deck", 1, (4,), 40, 20, 6),
        ("four-deck", 4, (4,), 160, 80, 0),
        ("friends-3deck", 3, (4, 5, 6, 7), 120, 40, 6),
        ("chaodipi-2deck", 2, (4,), 80, 40, 8),
    ],
)
def test_profiles_table_of_rules_md_13(name: str, decks: int, players: tuple[int, ...], threshold: int, step: int,
                                       kitty: int) -> None:
    opts = PROFILES[name]
    n = players[0]
    assert (opts.decks, opts.players, opts.threshold_for(n), opts.step_for(n), opts.kitty_size_for(n)) == (
        decks, players, threshold, step, kitty)
    assert opts.hand_size_for(n) * n + kitty == 54 * decks
    # the defaults of §13 unless the profile says otherwise
    assert opts.twos_trump is False and opts.protect_longer_tuples is False and opts.dealer_stays is False
    assert opts.throw_compare == "largest-unit" and opts.forced_unit == "lowest-beaten"
    seed_004 = name in ("standard-2deck", "titanic-3deck", "single-deck")
    assert opts.first_dealer == ("first-bidder" if seed_004 else "winning-bidder")
    assert opts.kitty_multiplier == "unit" and opts.must_defend == ()
    assert opts.triple_pair_tractor is False
    assert opts.titanic_beats_three_pair is (name == "guangzhou-3deck")
    assert opts.throw_penalty == ("points" if name == "guangzhou-3deck" else "none")
    assert opts.kitty_needs_trump is (name == "guangzhou-3deck")
    assert opts.friends is (name == "friends-3deck") and opts.rebid_after_kitty is (name == "chaodipi-2deck")


def test_documented_ladder_table_matches_the_engine() -> None:
    from pathlib import Path

    from tuolaji.scorer.profiles import parse_requirement

    doc = (Path(__file__).resolve().parents[2] / "docs" / "RULES-DECISIONS.md").read_text(encoding="utf-8")
    rows = [line for line in doc.splitlines() if line.startswith("| `[")]
    assert len(rows) == 10
    for row in rows:
        head, ladder = row.split("|")[1:3]
        shape = parse_requirement(head.split("`")[1])[0]
        opts = PROFILES["guangzhou-3deck"] if "guangzhou" in head else STD
        assert [x for x in ladder.split("`")[1::2]] == ladder_names(unit_ladder(shape, opts)), head
