"""Adversarial review of the rules engine: small hand-built positions and records whose
right answers were derived from docs/RULES.md / docs/RECORD.md and the seeds (000, 001, 004), not
from the engine's output."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.conftest import deal_record
from tuolaji.scorer import PROFILES, RecordError, audit_record, resolve_rules, validate_record
from tuolaji.scorer.cards import parse_cards
from tuolaji.scorer.follow import check_follow, hand_counts
from tuolaji.scorer.formats import Lead, beats, read_format, strength
from tuolaji.scorer.order import TRUMP, TrumpOrder
from tuolaji.scorer.scoring import advance_level, dealer_side, kitty_multiplier, level_outcome, next_dealer
from tuolaji.scorer.state import DealState, forced_unit

STD = PROFILES["standard-2deck"]


def cards(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text.split())]


def shapes(level: str, trump: str, text: str, twos: bool = False) -> list[tuple[int, int]]:
    return sorted((u.shape for u in read_format(TrumpOrder.of(level, trump, twos), cards(text))), reverse=True)

record = deal_record  # the one builder of hand-made records (tests/conftest.py)


def deal_out(rec: dict) -> dict:
    return audit_record(rec)["deals"][0]


def found(rec: dict) -> list[tuple[Any, int, str, bool]]:
    return [(v["trick"], v["seat"], v["rule"], v["proven"]) for v in deal_out(rec)["violations"]]


# ======================================================================= §2 trump order
def test_full_trump_ladder_with_twos_trump_and_a_trump_suit() -> None:
    # level 4, ♥ trump, 2s constant: BJ > SJ > ♥4 > other 4s > ♥2 > other 2s > ♥A … ♥3
    o = TrumpOrder.of("4", "H", twos_trump=True)
    high_to_low = ["BJ", "SJ", "4H", "4C", "2H", "2D", "AH", "KH", "5H", "3H"]
    vals = [o.value[c] for c in cards(" ".join(high_to_low))]
    assert vals == sorted(vals, reverse=True) and len(set(vals)) == len(vals)
    # adjacency for tractors: every step of the ladder above ♥A is one value
    assert vals[:7] == list(range(vals[0], vals[0] - 7, -1))
    # plain ♠: both the 4 and the 2 are removed, so ♠3 is the lowest and next to ♠5
    assert o.suit[cards("2S")[0]] == TRUMP and o.suit[cards("3S")[0]] == 0
    assert o.value[cards("5S")[0]] - o.value[cards("3S")[0]] == 1
    assert o.value[cards("3S")[0]] == 0


def test_no_trump_with_twos_trump() -> None:
    # RULES §8: jokers > level cards (equal) > 2s (equal); every suit is plain
    o = TrumpOrder.of("9", "NT", twos_trump=True)
    v = o.value
    assert v[cards("BJ")[0]] > v[cards("SJ")[0]] > v[cards("9H")[0]] == v[cards("9S")[0]] > v[cards("2C")[0]]
    assert v[cards("2C")[0]] == v[cards("2D")[0]]
    assert all(o.suit[c] == TRUMP for c in cards("2S 9D SJ"))
    assert o.suit[cards("AS")[0]] == 0 and o.suit[cards("AH")[0]] == 1


# ======================================================================= §3 units
@pytest.mark.parametrize(
    ("level", "trump", "text", "expected"),
    [
        # the trump adjacency chain trump A → off-suit level → trump level → SJ → BJ in one tractor
        ("4", "H", "AH AH 4C 4C 4H 4H SJ SJ BJ BJ", [(2, 5)]),
        ("4", "H", "BJ BJ SJ SJ", [(2, 2)]),
        # two different off-suit level pairs are equal, not adjacent; with ♥44 one of them joins
        ("4", "H", "4S 4S 4C 4C 4H 4H", [(2, 2), (2, 1)]),
        # no-trump: SJSJ + a level pair is a tractor, BJBJ + level pair is not
        ("4", "NT", "SJ SJ 4C 4C", [(2, 2)]),
        ("4", "NT", "BJ BJ 4C 4C", [(2, 1), (2, 1)]),
        ("4", "NT", "BJ BJ SJ SJ 4D 4D", [(2, 3)]),
        # seed 004 泰坦尼克 at level 5: 333444, 444666, 副5主5, 大王小王, AAA 副5, 主5 小王
        ("5", "S", "3H 3H 3H 4H 4H 4H", [(3, 2)]),
        ("5", "S", "4H 4H 4H 6H 6H 6H", [(3, 2)]),
        ("5", "H", "5S 5S 5S 5H 5H 5H", [(3, 2)]),
        ("5", "H", "BJ BJ BJ SJ SJ SJ", [(3, 2)]),
        ("5", "H", "AH AH AH 5C 5C 5C", [(3, 2)]),
        ("5", "H", "5H 5H 5H SJ SJ SJ", [(3, 2)]),
        # ... but not 555555 of two suits in no-trump (equal level cards)
        ("5", "NT", "5S 5S 5S 5H 5H 5H", [(3, 1), (3, 1)]),
        # seed 000 表一: at ♥4, ♥33 55 is a tractor, so is ♥33 55 66 (three pairs)
        ("4", "H", "3H 3H 5H 5H 6H 6H", [(2, 3)]),
        # plain suit across the removed level rank
        ("4", "S", "3H 3H 5H 5H", [(2, 2)]),
        # seed 004 examples that are not tractors at level 10: 5533, JJ 10 10 (JJ99 is one)
        ("10", "S", "5H 5H 3H 3H", [(2, 1), (2, 1)]),
        ("10", "S", "JH JH 9H 9H", [(2, 2)]),
        # twos constant: ♥A → off-suit 2 → ♥2 → off-suit level → ♥ level: a 5-pair tractor
        ("4", "H", "AH AH 2S 2S 2H 2H 4D 4D 4H 4H", [(2, 5)]),
        # 4 decks: a quad and a quad tractor
        ("2", "S", "9H 9H 9H 9H", [(4, 1)]),
        ("2", "S", "9H 9H 9H 9H 10H 10H 10H 10H", [(4, 2)]),
    ],
)
def test_units(level: str, trump: str, text: str, expected: list[tuple[int, int]]) -> None:
    twos = "2S 2S 2H" in text
    assert shapes(level, trump, text, twos) == expected


def test_reading_keeps_a_triple_of_an_off_suit_level_card_whole() -> None:
    # 3 decks, level 4 ♥: ♥AA + (♣44 or ♠44) + ♥44 is the 6-card tractor; taking it through ♣44
    # leaves ♠444 a triple (tractor + triple), rather than tractor + pair ♠44 + single ♠4
    units = read_format(TrumpOrder.of("4", "H"), cards("AH AH 4S 4S 4S 4C 4C 4H 4H"))
    assert [u.shape for u in units] == [(2, 3), (3, 1)]
    assert sorted(units[1].cards()) == cards("4S 4S 4S")
    # the same with a quad (4 decks): the triple ♣444 goes into the triple-tractor, the quad stays
    units = read_format(TrumpOrder.of("4", "H"), cards("AH AH AH 4S 4S 4S 4S 4C 4C 4C 4H 4H 4H"))
    assert [u.shape for u in units] == [(3, 3), (4, 1)]


def test_twos_trump_tractor_in_no_trump_and_plain_suit_without_the_2() -> None:
    # with 2s constant the plain suits lose the 2: ♥3 is the lowest ♥, so ♥3 ♥4 (level 9) still adjacent
    assert shapes("9", "S", "3H 3H 4H 4H", twos=True) == [(2, 2)]
    # ... and ♥A ♥3 are not adjacent (no wrap-around through the missing 2)
    assert shapes("9", "S", "AH AH 3H 3H", twos=True) == [(2, 1), (2, 1)]


def test_preferred_reading_largest_unit_first() -> None:
    # 22233 (level 5): tuples stay whole, a triple and a pair (RULES §3, seed 000 4.7 三二牌)
    units = read_format(TrumpOrder.of("5", "S"), cards("2H 2H 2H 3H 3H"))
    assert [(u.shape, u.cards()) for u in units] == [((3, 1), cards("2H 2H 2H")), ((2, 1), cards("3H 3H"))]
    # AA KK QQ 99 (level 2): the 3-pair tractor, then the loose pair 99
    assert shapes("2", "S", "AH AH KH KH QH QH 9H 9H") == [(2, 3), (2, 1)]
    # 777 888 99 (level 2): 777888 and 778899 are both 6-card tractors; the wider one is read
    # (decision 2), leaving the pair 99 rather than two singles
    assert shapes("2", "S", "7H 7H 7H 8H 8H 8H 9H 9H") == [(3, 2), (2, 1)]


# ======================================================================= §4 throws
def deal_with(level: str, trump: str, hands: list[str], rules: Any = "standard-2deck") -> DealState:
    return DealState(resolve_rules(rules), level, trump, 0, [cards(h) if h else [] for h in hands])


def throw_result(level: str, trump: str, throw: str, others: list[str], rules: Any = "standard-2deck",
                 mode: str | None = None) -> list[int] | None:
    """None if the throw stands, else the forced unit's cards."""
    opts = resolve_rules(rules)
    state = DealState(opts, level, trump, 0, [cards(throw)] + [cards(h) if h else [] for h in others])
    units = read_format(state.order, cards(throw))
    beaten = state.beaten_units(0, units)
    if not beaten:
        assert state.is_legal(cards(throw))
        return None
    assert not state.is_legal(cards(throw))
    return sorted(forced_unit([u for u, _, _ in beaten], mode or opts.forced_unit).cards())


@pytest.mark.parametrize(
    ("others", "mode", "forced"),
    [
        # seed 004 (level 10): 98844 against an opponent's J → play 9; against QQ or 55 → play 44
        (["JH", "", ""], None, "9H"),
        (["QH QH", "", ""], None, "4H 4H"),
        (["", "5H 5H", ""], None, "4H 4H"),
        # both a single and a pair beaten: largest-beaten takes the pair, smallest-beaten the single
        (["JH", "5H 5H", ""], "largest-beaten", "4H 4H"),
        (["JH", "5H 5H", ""], "smallest-beaten", "9H"),
        # QQ beats both pairs: the lowest of them under either mode
        (["QH QH", "", ""], "smallest-beaten", "9H"),
        # nothing beats it: ♥7 is lower than the 9, 66 lower than 88 but higher than 44 (beats 44)
        (["7H", "3H 3H", "2H"], None, None),
    ],
)
def test_seed_004_98844(others: list[str], mode: str | None, forced: str | None) -> None:
    result = throw_result("10", "S", "9H 8H 8H 4H 4H", others, mode=mode)
    assert result == (None if forced is None else sorted(cards(forced)))


def test_throw_units_carved_from_wider_tuples_and_tractors() -> None:
    # ♥QQ + ♥A (3 decks): another hand's ♥KKK holds a pair KK that beats QQ
    assert throw_result("2", "S", "AH QH QH", ["KH KH KH", "", ""], "titanic-3deck") == cards("QH QH")
    # ... a pair out of a tractor ♥JJ 10 10 also beats ♥99
    assert throw_result("2", "S", "AH 9H 9H", ["JH JH 10H 10H", "", ""]) == cards("9H 9H")
    # a tractor is only beaten by a higher tractor: two loose higher pairs do not beat it
    assert throw_result("2", "S", "AH 3H 3H 4H 4H", ["6H 6H 9H 9H", "", ""]) is None
    assert throw_result("2", "S", "AH 3H 3H 4H 4H", ["6H 6H 7H 7H", "", ""]) == cards("3H 3H 4H 4H")
    # a tractor carved from a wider triple-tractor beats it (3 decks)
    assert throw_result("2", "S", "AH 3H 3H 4H 4H", ["8H 8H 8H 9H 9H 9H", "", ""], "titanic-3deck") == cards(
        "3H 3H 4H 4H")


def test_throw_is_only_beaten_in_its_own_suit() -> None:
    # a trump cannot stop a plain-suit throw from standing
    assert throw_result("2", "S", "AH KH", ["BJ BJ AS", "3S", ""]) is None
    # trump throw at level 4 ♥: an off-suit level pair beats ♥AA, a ♥ level single beats ♥K
    # (4C 4C beats both ♥AA and, carved, ♥K: the lowest beaten unit is ♥K)
    assert throw_result("4", "H", "AH AH KH", ["4C 4C", "", ""]) == cards("KH")
    assert throw_result("4", "H", "AH AH KH", ["4C 4C", "", ""], mode="largest-beaten") == cards("AH AH")
    assert throw_result("4", "H", "AH AH KH", ["", "4H", ""]) == cards("KH")
    # equal cards do not beat: an off-suit level single against another off-suit level single
    assert throw_result("4", "H", "4S AH AH", ["4C", "", ""]) is None


def test_throw_of_equal_level_pairs_is_two_units() -> None:
    # ♠44 ♣44 at level 4 ♥ are two pairs; ♥44 elsewhere beats both — the lowest (equal) is forced
    result = throw_result("4", "H", "4S 4S 4C 4C", ["4H 4H", "", ""])
    assert result in (cards("4S 4S"), cards("4C 4C"))


# ======================================================================= §5 following
def follow(rules: Any, level: str, trump: str, lead: str, hand: str, play: str) -> str | None:
    opts = rules if not isinstance(rules, (str, dict)) else resolve_rules(rules)
    o = TrumpOrder.of(level, trump, opts.twos_trump)
    fault = check_follow(o, Lead.of(o, cards(lead), opts), hand_counts(cards(hand)), cards(play), opts)
    return None if fault is None else fault.rule


def test_pair_lead_ladder() -> None:
    assert follow(STD, "2", "S", "AH AH", "3H 3H 5H", "3H 5H") == "must-follow-format"
    assert follow(STD, "2", "S", "AH AH", "3H 3H 5H", "3H 3H") is None
    assert follow(STD, "2", "S", "AH AH", "3H 4H 5H", "3H 5H") is None
    # a level-card pair of a trump lead: off-suit level pair must be played
    assert follow(STD, "4", "H", "AH AH", "4C 4C 3H", "4C 3H") == "must-follow-format"


def test_triple_lead_ladder() -> None:
    gz = "guangzhou-3deck"
    assert follow(gz, "2", "S", "KH KH KH", "3H 3H 3H 6H", "3H 3H 6H") == "must-follow-format"
    assert follow(gz, "2", "S", "KH KH KH", "3H 3H 6H 7H", "3H 6H 7H") == "must-follow-format"
    assert follow(gz, "2", "S", "KH KH KH", "3H 3H 6H 7H", "3H 3H 6H") is None
    assert follow(gz, "2", "S", "KH KH KH", "3H 5H 6H 7H", "3H 5H 7H") is None


def test_tractor_lead_ladder() -> None:
    lead = "KH KH QH QH"
    assert follow(STD, "2", "S", lead, "3H 3H 4H 4H 6H 6H", "3H 3H 6H 6H") == "must-follow-format"
    assert follow(STD, "2", "S", lead, "3H 3H 4H 4H 6H 6H", "4H 4H 3H 3H") is None
    # no tractor: two pairs; a triple gives a pair (carved) — triple + pair → both pairs
    assert follow(STD, "2", "S", lead, "3H 3H 3H 6H 6H", "3H 3H 3H 6H") == "must-follow-format"
    assert follow(STD, "2", "S", lead, "3H 3H 3H 6H 6H", "3H 3H 6H 6H") is None
    # a tractor across the removed level rank (level 5): ♥44 66 must be played as the tractor
    assert follow(STD, "5", "S", lead, "4H 4H 6H 6H 9H 9H", "6H 6H 9H 9H") == "must-follow-format"
    # a tractor through trump level cards on a trump tractor lead (level 4 ♥): ♣44 ♥AA
    assert follow(STD, "4", "H", "KH KH QH QH", "AH AH 4C 4C 9H 9H", "AH AH 9H 9H") == "must-follow-format"
    # off-suit level pairs of two suits are not a tractor: two pairs are enough
    assert follow(STD, "4", "H", "KH KH QH QH", "4S 4S 4C 4C 9H 9H", "4S 4S 4C 4C") is None


@pytest.mark.parametrize(
    ("profile", "hand", "play", "ok"),
    [
        # two separate triples: seed 004 泰坦尼克 needs [3][3]
        ("titanic-3deck", "6H 6H 6H 9H 9H 9H 3H", "6H 6H 6H 9H 9H 3H", False),
        ("titanic-3deck", "6H 6H 6H 9H 9H 9H 3H", "6H 6H 6H 9H 9H 9H", True),
        # seed 001 (guangzhou) has no [3][3] rung: [3][2][1] is the first such a hand meets
        ("guangzhou-3deck", "6H 6H 6H 9H 9H 9H 3H", "6H 6H 6H 9H 9H 3H", True),
        # seed 001: a pair-tractor + 2 singles ranks first; 666 888 holds no tractor at level 2
        ("guangzhou-3deck", "6H 6H 6H 7H 7H 8H 8H 8H", "6H 6H 6H 8H 8H 8H", False),
        ("guangzhou-3deck", "6H 6H 6H 7H 7H 8H 8H 8H", "6H 6H 7H 7H 8H 8H", True),
        # ... while 泰坦尼克 takes the two triples first
        ("titanic-3deck", "6H 6H 6H 7H 7H 8H 8H 8H", "6H 6H 6H 8H 8H 8H", True),
        ("titanic-3deck", "6H 6H 6H 7H 7H 8H 8H 8H", "6H 6H 7H 7H 8H 8H", False),
        # [3][2][1] before [2][2][1][1] in both
        ("titanic-3deck", "6H 6H 6H 9H 9H JH JH", "6H 6H 9H 9H JH JH", False),
        ("titanic-3deck", "6H 6H 6H 9H 9H JH JH", "6H 6H 6H 9H 9H JH", True),
        ("guangzhou-3deck", "6H 6H 6H 9H 9H JH JH", "6H 6H 9H 9H JH JH", False),
        # a triple and no other pair: 泰坦尼克 [3][1]×3; guangzhou has no such rung → [2][1]×4
        ("titanic-3deck", "6H 6H 6H 3H 9H 10H JH QH", "6H 6H 9H 10H JH QH", False),
        ("titanic-3deck", "6H 6H 6H 3H 9H 10H JH QH", "6H 6H 6H 9H 10H JH", True),
        ("guangzhou-3deck", "6H 6H 6H 3H 9H 10H JH QH", "6H 6H 9H 10H JH QH", True),
        ("guangzhou-3deck", "6H 6H 6H 3H 9H 10H JH QH", "6H 3H 9H 10H JH QH", False),
    ],
)
def test_titanic_ladders_per_profile(profile: str, hand: str, play: str, ok: bool) -> None:
    assert (follow(profile, "2", "S", "KH KH KH QH QH QH", hand, play) is None) is ok


def test_combined_ladder_for_a_throw() -> None:
    # lead ♥AA KK 7 (tractor + single): [2,2][1] › [2][2][1] › [2][1]×3 › [1]×5
    lead = "AH AH KH KH 7H"
    hand = "3H 3H 6H 6H 9H 10H"
    assert follow(STD, "2", "S", lead, hand, "3H 3H 6H 9H 10H") == "must-follow-format"
    assert follow(STD, "2", "S", lead, hand, "3H 3H 6H 6H 10H") is None
    # throw of two pairs (AA 99): one pair is owed even when only one pair is held
    assert follow(STD, "2", "S", "AH AH 9H 9H", "3H 3H 5H 6H 7H", "3H 5H 6H 7H") == "must-follow-format"
    assert follow(STD, "2", "S", "AH AH 9H 9H", "3H 3H 5H 6H 7H", "3H 3H 5H 7H") is None
    # throw of a pair + singles: the pair is owed
    assert follow(STD, "2", "S", "AH AH KH QH", "3H 3H 5H 6H 7H", "3H 5H 6H 7H") == "must-follow-format"


def test_combined_ladder_ties_step_the_lower_unit_first() -> None:
    from tuolaji.scorer.formats import ladder_names, throw_ladder

    o = TrumpOrder.of("2", "S")
    # 4 decks: quad ♥3333 and tractor ♥KKAA: 5 and 4 rungs. After the quad's first step both
    # have 3 rungs left and 4 cards: the lower unit — the quad — steps first (RULES §5)
    low_quad = throw_ladder(read_format(o, cards("3H 3H 3H 3H KH KH AH AH")), STD)
    assert ladder_names(low_quad) == ["[4][2,2]", "[2,2][3][1]", "[2,2][2][2]", "[2][2][2][2]", "[2][2][2][1][1]",
                                      "[2][2][1]×4", "[2][1]×6", "[1]×8"]
    # with the quad on top the tractor is the lower unit
    high_quad = throw_ladder(read_format(o, cards("AH AH AH AH 3H 3H 4H 4H")), STD)
    assert ladder_names(high_quad)[2] == "[3][2][2][1]"
    # a follower holding the tractor ♥99 10 10 and the pairs 55 77 QQ owes [2,2][2][2] on the
    # low-quad throw: four loose pairs are not enough
    four = resolve_rules("four-deck")
    lead = "3H 3H 3H 3H KH KH AH AH"
    hand = "9H 9H 10H 10H 5H 5H 7H 7H QH QH"
    assert follow(four, "2", "S", lead, hand, "9H 9H 10H 10H 5H 5H QH QH") is None
    assert follow(four, "2", "S", lead, hand, "9H 9H 5H 5H 7H 7H QH QH") == "must-follow-format"


def test_protect_longer_tuples() -> None:
    prot = {"profile": "standard-2deck", "protect_longer_tuples": True}
    # a pair need not be broken out of a triple ...
    assert follow(prot, "2", "S", "AH AH", "3H 3H 3H 5H", "3H 5H") is None
    assert follow(STD, "2", "S", "AH AH", "3H 3H 3H 5H", "3H 5H") == "must-follow-format"
    # ... but a real pair must still be played
    assert follow(prot, "2", "S", "AH AH", "3H 3H 3H 5H 5H", "3H 5H") == "must-follow-format"
    # a tractor lead: 33 44 with ♥333 is not a protected tractor; the loose pairs 44 + 66 are owed
    assert follow(prot, "2", "S", "KH KH QH QH", "3H 3H 3H 4H 4H 6H 6H", "4H 4H 6H 6H") is None
    assert follow(STD, "2", "S", "KH KH QH QH", "3H 3H 3H 4H 4H 6H 6H", "4H 4H 6H 6H") == "must-follow-format"


def test_suit_obligation_with_trumps() -> None:
    # level cards of plain suits are trumps: holding ♥4 (level 4) is not holding ♥
    assert follow(STD, "4", "S", "AH", "4H 9D", "9D") is None
    # ... and a trump lead must be followed by them
    assert follow(STD, "4", "S", "AS", "4H 9D", "9D") == "must-follow-suit"
    # 2s with twos_trump are trumps too
    twos = {"profile": "standard-2deck", "twos_trump": True}
    assert follow(twos, "9", "S", "AS", "2H 8D", "8D") == "must-follow-suit"
    assert follow(twos, "9", "S", "AH", "2H 8D", "8D") is None
    # no-trump: jokers and level cards only
    assert follow(STD, "9", "NT", "SJ", "9D AS", "AS") == "must-follow-suit"
    assert follow(STD, "9", "NT", "SJ", "8D AS", "AS") is None


# ======================================================================= §6 beating
def winner(level: str, trump: str, lead: str, plays: list[str], compare: str = "largest-unit",
           twos: bool = False) -> int:
    o = TrumpOrder.of(level, trump, twos)
    ld = Lead.of(o, cards(lead), STD)
    best, best_s = 0, strength(o, ld, cards(lead), compare, is_lead=True)
    assert best_s is not None
    for i, p in enumerate(plays, start=1):
        s = strength(o, ld, cards(p), compare)
        if s is not None and beats(s, best_s, compare):
            best, best_s = i, s
    return best


def test_seed_004_trumping_and_over_trumping() -> None:
    assert winner("10", "S", "AC KC 5C 5C 4C 4C", ["9S 9S 8S 8S 7S 2S"]) == 1
    assert winner("10", "S", "AC AC 5C 5C 4C 4C", ["9S 9S 8S 8S 7S 2S"]) == 0
    assert winner("10", "S", "5C 4C 4C", ["9S 7S 7S", "8S 8S 4S"]) == 2
    assert winner("10", "S", "5C 6C 7C", ["9S 7S 7S", "8S 8S 4S"]) == 1
    # under throw_compare "all" 884 must beat every unit: 88 > 77 but 4 < 9
    assert winner("10", "S", "5C 4C 4C", ["9S 7S 7S", "8S 8S 4S"], compare="all") == 1


def test_beating_details() -> None:
    # trump-suit level card beats off-suit level cards, which are equal among themselves
    assert winner("4", "H", "4S", ["4C", "4H", "4D"]) == 2
    # a trump pair that is two different off-suit level cards is not a pair
    assert winner("4", "H", "AC AC", ["4S 4D", "3H 3H"]) == 2
    # same-suit higher pair beats; a pair of another plain suit is a discard
    assert winner("2", "S", "9H 9H", ["AD AD", "10H 10H"]) == 2
    # a trump tractor on a plain tractor lead; a higher trump pair pair (not adjacent) cannot over-trump
    assert winner("2", "S", "9H 9H 8H 8H", ["3S 3S 4S 4S", "AS AS QS QS"]) == 1
    assert winner("2", "S", "9H 9H 8H 8H", ["3S 3S 4S 4S", "AS AS KS KS"]) == 2
    # a trump tractor through the level rank (level 4, ♠ trump: ♠33 55)
    assert winner("4", "S", "9H 9H 8H 8H", ["3S 3S 5S 5S"]) == 1
    # the BJ single beats SJ; SJ beats trump level; twos_trump: off-suit 2 below ♠ level, above ♠A
    assert winner("4", "S", "AS", ["2H", "4D", "SJ", "BJ"], twos=True) == 4
    assert winner("4", "S", "AS", ["2H", "2S", "2D"], twos=True) == 2


def test_throw_compare_all_needs_every_unit() -> None:
    # ♣ AA K Q lead trumped by 33 A K, then 44 5 6: largest-unit → 44 wins; all → 44>33 but 6<K
    assert winner("10", "S", "AC AC KC QC", ["3S 3S AS KS", "4S 4S 6S 5S"]) == 2
    assert winner("10", "S", "AC AC KC QC", ["3S 3S AS KS", "4S 4S 6S 5S"], compare="all") == 1
    assert winner("10", "S", "AC AC KC QC", ["3S 3S 6S 5S", "4S 4S AS KS"], compare="all") == 2


def test_throw_compare_all_tries_every_arrangement() -> None:
    # 44 77 can be read as pair 44 + singles 7 7, which beats 33 + 6 5 unit by unit (the
    # reading pair 77 + singles 4 4 does not)
    assert winner("10", "S", "AC AC KC QC", ["3S 3S 6S 5S", "4S 4S 7S 7S"], compare="all") == 2
    # a winner that can be read two ways must be beaten in either reading: 55 88 answers
    # 44+7 7 with 55+8 8 and 77+4 4 with 88+5 5; 55 66 cannot answer 44+7 7
    assert winner("10", "S", "AC AC KC QC", ["4S 4S 7S 7S", "5S 5S 8S 8S"], compare="all") == 2
    assert winner("10", "S", "AC AC KC QC", ["4S 4S 7S 7S", "5S 5S 6S 6S"], compare="all") == 1


# ======================================================================= §7-8 scoring
def test_kitty_multiplier_modes() -> None:
    def mult(mode: str, largest: int, trump: bool = True, needs: bool = False) -> int:
        opts = resolve_rules({"profile": "standard-2deck", "kitty_multiplier": mode, "kitty_needs_trump": needs})
        return kitty_multiplier(opts, largest, trump)

    assert [mult("unit", m) for m in (1, 2, 3, 4, 6)] == [2, 4, 6, 8, 12]
    assert [mult("power", m) for m in (1, 2, 3, 4)] == [2, 4, 8, 16]
    assert [mult("fixed:3", m) for m in (1, 4)] == [3, 3]
    assert mult("unit", 4, trump=False, needs=True) == 1 and mult("power", 2, trump=True, needs=True) == 4
    assert mult("unit", 2, trump=False, needs=False) == 4


@pytest.mark.parametrize(
    ("profile", "players", "T", "s", "zero"),
    [("standard-2deck", 4, 80, 40, 3), ("titanic-3deck", 4, 120, 60, 3), ("guangzhou-3deck", 4, 120, 40, 4),
     ("single-deck", 4, 40, 20, 3), ("four-deck", 4, 160, 80, 3), ("competition-3deck", 4, 120, 60, 3),
     ("friends-3deck", 5, 120, 40, 4), ("friends-3deck", 6, 100, 40, 4)],
)
def test_level_thresholds(profile: str, players: int, T: int, s: int, zero: int) -> None:
    opts = PROFILES[profile]
    assert level_outcome(opts, players, 0) == ("dealer", zero)
    assert level_outcome(opts, players, 1) == ("dealer", zero - 1)
    assert level_outcome(opts, players, 5) == ("dealer", zero - 1)
    assert level_outcome(opts, players, T - 1) == ("dealer", 1)
    assert level_outcome(opts, players, T + s - 1) == ("defenders", 0)
    assert level_outcome(opts, players, T - 5) == ("dealer", 1)
    assert level_outcome(opts, players, T - s) == ("dealer", 1)
    assert level_outcome(opts, players, T - s - 5) == ("dealer", 2)
    assert level_outcome(opts, players, T) == ("defenders", 0)
    assert level_outcome(opts, players, T + s - 5) == ("defenders", 0)
    assert level_outcome(opts, players, T + s) == ("defenders", 1)
    assert level_outcome(opts, players, T + 2 * s) == ("defenders", 2)


def test_seed_001_guangzhou_table() -> None:
    gz = PROFILES["guangzhou-3deck"]
    # 不足120分升1级，不足80分升2级，不足40分升3级，0分升4级; 160 +1, 200 +2, 240 +3
    table = {0: 4, 5: 3, 35: 3, 40: 2, 75: 2, 80: 1, 115: 1}
    for p, lv in table.items():
        assert level_outcome(gz, 4, p) == ("dealer", lv), p
    for p, lv in {120: 0, 155: 0, 160: 1, 195: 1, 200: 2, 240: 3}.items():
        assert level_outcome(gz, 4, p) == ("defenders", lv), p


def test_max_levels_and_negative_totals() -> None:
    capped = resolve_rules({"profile": "standard-2deck", "max_levels": 1})
    assert level_outcome(capped, 4, 0) == ("dealer", 1) and level_outcome(capped, 4, 400) == ("defenders", 1)
    assert level_outcome(STD, 4, -20) == ("dealer", 3)


def test_next_dealer_rotation() -> None:
    assert next_dealer(1, 4, {1, 3}, "dealer") == 3
    assert next_dealer(1, 4, {1, 3}, "defenders") == 2
    assert next_dealer(3, 4, {1, 3}, "defenders") == 0
    assert next_dealer(3, 4, {1, 3}, "dealer", dealer_stays=True) == 3
    # dealer_stays does not keep the deal for a side that lost it
    assert next_dealer(3, 4, {1, 3}, "defenders", dealer_stays=True) == 0
    # 找朋友, 6 players: dealer 4 with friends 1 and 2; keeps → seat 1 (next after 4 on his side)
    assert next_dealer(4, 6, {4, 1, 2}, "dealer") == 1
    assert next_dealer(4, 6, {4, 1, 2}, "defenders") == 5


def test_must_defend_and_passing_a() -> None:
    md = ("5", "10", "K", "A")
    # from 2, +4 would reach 6: stops on 5
    assert advance_level(0, 4, True, md) == (3, False)
    # on 5 as the dealer's side: passes (+2 → 7)
    assert advance_level(3, 2, True, md) == (5, False)
    # landing exactly on a must-defend level is fine
    assert advance_level(1, 2, False, md) == (3, False)
    # from Q +3 as dealer: stops on K
    assert advance_level(10, 3, True, md) == (11, False)
    # on A as defenders: cannot pass; as dealer: passes A and wins
    assert advance_level(12, 2, False, md) == (12, False)
    assert advance_level(12, 1, True, md) == (12, True)
    # without must_defend: from K +2 passes A
    assert advance_level(11, 2, False) == (12, True)
    assert advance_level(11, 1, False) == (12, False)


def test_friends_sides_by_nth_copy() -> None:
    AS = cards("AS")[0]
    KH = cards("KH")[0]
    plays = [(0, cards("AS")), (2, cards("AS AS"))]
    # the 2nd ♠A is in seat 2's double play
    assert dealer_side(True, 6, 0, [(AS, 2)], plays) == {0, 2}
    # the 3rd ♠A too (both copies of seat 2 count in play order)
    assert dealer_side(True, 6, 0, [(AS, 3)], plays) == {0, 2}
    # the 1st is the dealer's own: used up, no friend from it
    assert dealer_side(True, 6, 0, [(AS, 1), (KH, 1)], plays) == {0}
    # a copy not reached yet: nobody
    assert dealer_side(True, 6, 0, [(AS, 2)], plays[:1]) == {0}


# ======================================================================= audit: whole records
def test_audit_output_key_sets_and_types() -> None:
    hands = [["AH", "AH", "KC"], ["3H", "5D", "5C"], ["4H", "6D", "7C"], ["9H", "8D", "KD"]]
    rec = record("standard-2deck", [
        (0, ["AH", "5D", "4H", "9H"]),  # seat 1 revokes (holds ♥3)
        (0, ["AH", "3H", "6D", "8D"]),  # seat 2 and 3 void of ♥ now
        (0, ["KC", "5C", "7C", "KD"]),
    ], hands=hands, kitty=["3C", "3C", "3D", "3D", "4C", "4C", "4D", "4D"])
    out = audit_record(rec)
    assert set(out) == {"deals"}
    d = out["deals"][0]
    assert set(d) == {"tricks", "violations", "penalties", "defender_points", "kitty_points", "kitty_multiplier",
                      "kitty_won_by", "penalty_points", "total_defender_points", "outcome", "next_dealer",
                      "levels_after", "game_winner"}
    for t in d["tricks"]:
        assert set(t) == {"leader", "winner", "points", "plays"}
        for p in t["plays"]:
            assert set(p) == {"seat", "cards", "legal", "violations"}
            assert isinstance(p["legal"], bool) and p["legal"] is (not p["violations"])
            assert all(isinstance(c, str) for c in p["cards"])
    for v in d["violations"]:
        assert set(v) == {"trick", "seat", "rule", "proven", "detail"}
        assert isinstance(v["trick"], int) and isinstance(v["seat"], int) and isinstance(v["proven"], bool)
        assert isinstance(v["rule"], str) and isinstance(v["detail"], str)
    for t in d["tricks"]:
        assert isinstance(t["leader"], int) and isinstance(t["winner"], int) and isinstance(t["points"], int)
    assert d["kitty_won_by"] in ("dealer", "defenders") and isinstance(d["kitty_multiplier"], int)
    assert d["game_winner"] is None and all(isinstance(x, str) for x in d["levels_after"])
    import json

    assert json.loads(json.dumps(out)) == out
    assert [(v["trick"], v["seat"], v["rule"]) for v in d["violations"]] == [(0, 1, "must-follow-suit")]
    assert "trick 1" in d["violations"][0]["detail"]
    assert d["tricks"][0]["plays"][1]["violations"] == d["violations"]
    assert isinstance(d["defender_points"], int) and isinstance(d["total_defender_points"], int)
    assert set(d["outcome"]) == {"side", "levels"}
    assert isinstance(d["next_dealer"], int) and len(d["levels_after"]) == 4
    # seat 0 (dealer) wins all three tricks: the defenders have nothing, 大光
    assert [t["winner"] for t in d["tricks"]] == [0, 0, 0]
    assert d["defender_points"] == 0 and d["kitty_won_by"] == "dealer"
    assert d["outcome"] == {"side": "dealer", "levels": 3}
    assert d["levels_after"] == ["5", "2", "5", "2"] and d["next_dealer"] == 2


def complete_deal(rules: Any, defender_trick: tuple[int, list[str]], kitty: list[str], **kw: Any) -> dict:
    """A one-trick complete deal (4 players, dealer 0, level 2, ♠ trump)."""
    rec = record(rules, [defender_trick], complete=True, kitty=kitty, **kw)
    return deal_out(rec)


def test_kitty_multiplier_in_a_complete_deal() -> None:
    kitty8 = ["KD", "10D", "5D", "3C", "4C", "6C", "7C", "8C"]  # 25 points
    # seat 1 (defender) wins the last trick with a pair of trumps on a ♥ pair lead: ×4
    d = complete_deal("standard-2deck", (0, ["3H 3H", "AS AS", "4H 5H", "6H 7H"]), kitty8)
    assert (d["kitty_points"], d["kitty_multiplier"], d["kitty_won_by"]) == (25, 4, "defenders")
    assert d["defender_points"] == 5 and d["total_defender_points"] == 105
    assert d["outcome"] == {"side": "defenders", "levels": 0} and d["next_dealer"] == 1
    # power: a pair earns 2² = 4 as well; a 4-card tractor 2⁴ = 16
    d = complete_deal({"profile": "standard-2deck", "kitty_multiplier": "power"},
                      (0, ["3H 3H 4H 4H", "AS AS KS KS", "5H 6H 7H 8H", "9H 10H JH QH"]), kitty8)
    assert d["kitty_multiplier"] == 16 and d["total_defender_points"] == 5 + 10 + 20 + 25 * 16
    # the dealer's side wins the last trick: the multiplier is still reported, nothing added
    d = complete_deal("standard-2deck", (0, ["AS AS KS KS", "3H 3H 4H 4H", "5H 6H 7H 8H", "9H 10H JH QH"]), kitty8)
    assert (d["kitty_multiplier"], d["kitty_won_by"], d["total_defender_points"]) == (8, "dealer", 0)


def test_kitty_needs_trump_guangzhou() -> None:
    kitty6 = ["KD", "KD", "10D", "5C", "3C", "4C"]  # 35 points
    # a defender wins the last trick in the plain suit: ×1
    d = complete_deal("guangzhou-3deck", (0, ["3H", "AH", "4H", "5H"]), kitty6)
    assert (d["kitty_multiplier"], d["kitty_won_by"]) == (1, "defenders")
    assert d["total_defender_points"] == 5 + 35
    # with a trump: ×2 for a single
    d = complete_deal("guangzhou-3deck", (0, ["3H", "3S", "4H", "5H"]), kitty6)
    assert d["kitty_multiplier"] == 2 and d["total_defender_points"] == 5 + 70


def test_thrown_last_trick_counts_its_largest_unit() -> None:
    kitty8 = ["KD", "10D", "5D", "3C", "4C", "6C", "7C", "8C"]
    # a defender leads a standing throw AA K as the last trick: pair → ×4 (seed 001: 单牌不计张数)
    d = deal_out(record("standard-2deck", [(1, ["AH AH KH", "3H 4H 5H", "6H 7H 8H", "9H 10H JH"])],
                        dealer=1, complete=True, kitty=kitty8))
    # dealer 1 leads; he is the dealer's side: dealer wins, multiplier 4
    assert d["tricks"][0]["winner"] == 1 and d["kitty_multiplier"] == 4 and d["kitty_won_by"] == "dealer"
    # all singles: ×2
    d = deal_out(record("standard-2deck", [(1, ["AH KH", "3H 4H", "6H 7H", "9H 10H"])], dealer=1, complete=True,
                        kitty=kitty8))
    assert d["kitty_multiplier"] == 2


def one_trick_deal(points: int) -> dict:
    """A complete one-trick deal (standard-2deck, dealer 0, level 2, ♠ trump, no kitty) in which
    the defender seat 1 trumps seat 0's lead of ♣ singles and seats 2 and 3 discard: the trick
    holds exactly ``points``."""
    pools = {1: ["KS", "KS", "10S", "10S", "5S", "5S"], 2: ["KH", "KH", "10H", "10H", "5H", "5H"],
             3: ["KD", "KD", "10D", "10D", "5D", "5D"]}
    value = {"K": 10, "1": 10, "5": 5}
    chosen: dict[int, list[str]] = {1: [], 2: [], 3: []}
    left = points
    for seat in (1, 2, 3):
        for c in pools[seat]:
            if value[c[0]] <= left:
                chosen[seat].append(c)
                left -= value[c[0]]
    assert left == 0
    k = max(1, *(len(v) for v in chosen.values()))
    pads = {1: ["3S", "4S", "6S", "7S", "8S", "9S"], 2: ["3H", "4H", "6H", "7H", "8H", "9H"],
            3: ["3D", "4D", "6D", "7D", "8D", "9D"]}
    plays = [" ".join(["3C", "4C", "6C", "7C", "8C", "9C"][:k])]
    for seat in (1, 2, 3):
        plays.append(" ".join(chosen[seat] + pads[seat][: k - len(chosen[seat])]))
    return deal_out(record("standard-2deck", [(0, plays)], complete=True))


@pytest.mark.parametrize(
    ("points", "side", "levels", "after", "nxt"),
    [
        (0, "dealer", 3, ["5", "2", "5", "2"], 2),
        (5, "dealer", 2, ["4", "2", "4", "2"], 2),
        (35, "dealer", 2, ["4", "2", "4", "2"], 2),
        (40, "dealer", 1, ["3", "2", "3", "2"], 2),
        (75, "dealer", 1, ["3", "2", "3", "2"], 2),
        (80, "defenders", 0, ["2", "2", "2", "2"], 1),
        (115, "defenders", 0, ["2", "2", "2", "2"], 1),
        (120, "defenders", 1, ["2", "3", "2", "3"], 1),
        (150, "defenders", 1, ["2", "3", "2", "3"], 1),
    ],
)
def test_level_outcome_boundaries_in_records(points: int, side: str, levels: int, after: list[str],
                                             nxt: int) -> None:
    d = one_trick_deal(points)
    assert d["violations"] == []
    assert d["tricks"][0]["winner"] == 1 and d["defender_points"] == points
    assert d["kitty_points"] == 0 and d["total_defender_points"] == points
    assert d["outcome"] == {"side": side, "levels": levels}
    assert d["levels_after"] == after and d["next_dealer"] == nxt and d["game_winner"] is None


def test_throw_penalty_sign_and_amount() -> None:
    # guangzhou: seat 0 (dealer side) attempts ♥9 88 44 (level 10); seat 1 holds ♥QQ → plays 44;
    # QQ also beats the single 9 (a Q carved from the pair): stuck 9, 88 and 44 → 5 cards × 10
    # points, added to the defenders
    hands = [["9H", "8H", "8H", "4H", "4H"], ["QH", "QH", "3D", "3D", "3D"], ["5D", "6D", "7D", "8D", "9D"],
             ["5C", "6C", "7C", "8C", "9C"]]
    tricks = [(0, ["4H 4H", "QH QH", "5D 6D", "5C 6C"], "9H 8H 8H 4H 4H")]
    d = deal_out(record("guangzhou-3deck", tricks, level="10", hands=hands) | {"start_levels": ["10"] * 4})
    assert d["violations"] == []
    assert [(p["trick"], p["seat"], p["points"]) for p in d["penalties"]] == [(0, 0, 50)]
    assert d["penalty_points"] == 50
    assert set(d["penalties"][0]) == {"trick", "seat", "points", "detail"}
    # the same throw by a defender (dealer seat 1): taken from the defenders
    d = deal_out(record("guangzhou-3deck", tricks, level="10", hands=hands, dealer=1))
    assert d["penalty_points"] == -50


@pytest.mark.parametrize(("called", "sign"), [("AS", -1), ("AC", 1)])
def test_throw_penalty_sign_in_friends(called: str, sign: int) -> None:
    # 5 players, dealer 0, ♦ trump. Seat 1 wins trick 0 with ♣A, then attempts ♥K ♥9: seat 2's
    # ♥A beats both singles → plays ♥9, 2 stuck cards. Seat 4 plays the 1st ♠A in trick 1.
    rules = {"profile": "friends-3deck", "players": [5], "throw_penalty": "points"}
    tricks = [(0, ["3C", "AC", "4C", "6C", "7C"]), (1, ["9H", "AH", "3H", "AS", "5D"], "KH 9H")]
    d = deal_out(record(rules, tricks, players=5, trump="D", friends=[{"card": called, "nth": 1}]))
    assert d["violations"] == []
    # calling ♠A: seat 4 is the friend, seat 1 a defender (−); calling ♣A: seat 1 is the friend (+)
    assert [(p["seat"], p["points"]) for p in d["penalties"]] == [(1, sign * 20)]
    assert d["penalty_points"] == sign * 20


# ======================================================================= audit: proven / evidence
def test_protect_longer_tuples_revoke_unproven_then_proven() -> None:
    rules = {"profile": "titanic-3deck", "protect_longer_tuples": True}
    # seat 1 answers a pair lead with two singles; in trick 1 he shows ♥77 — with protect that
    # pair might be part of a triple until the deal is complete
    t0 = (0, ["AH AH", "3H 5H", "4H 6H", "8H 9H"])
    t1 = (0, ["3D 3D", "7H 7H", "4D 6D", "8D 9D"])
    assert found(record(rules, [t0, t1])) == [(0, 1, "must-follow-format", False)]
    assert found(record(rules, [t0, t1], complete=True)) == [(0, 1, "must-follow-format", True)]
    # a third ♥7 played later shows the triple: no obligation to break it
    t2 = (0, ["10D", "7H", "JD", "QD"])
    assert found(record(rules, [t0, t1, t2], complete=True)) == []
    # the third ♥7 played by another seat settles it during the deal: seat 1's pair is all he has
    t2_other = (0, ["10D", "3C", "7H", "QD"])
    assert found(record(rules, [t0, t1, t2_other])) == [(0, 1, "must-follow-format", True)]
    # without protect the revoke is proven as soon as the pair shows up, not before
    assert found(record("titanic-3deck", [t0, t1])) == [(0, 1, "must-follow-format", True)]
    assert found(record("titanic-3deck", [t0])) == []
    # with 2 decks a pair seen is every copy there is: no triple can hide behind it
    two = {"profile": "standard-2deck", "protect_longer_tuples": True}
    assert found(record(two, [t0, t1])) == [(0, 1, "must-follow-format", True)]
    assert found(record(two, [t0])) == []


def test_evidence_appears_only_with_the_later_trick() -> None:
    t0 = (0, ["AH", "3D", "4H", "6H"])
    t1 = (0, ["KH", "9D", "7H", "8H"])
    t2 = (0, ["5C", "5H", "8C", "9C"])
    assert found(record("standard-2deck", [t0, t1])) == []
    out = deal_out(record("standard-2deck", [t0, t1, t2]))
    # seat 1 revoked twice (held ♥5 in tricks 0 and 1): both proven by trick 2
    assert [(v["trick"], v["seat"], v["rule"], v["proven"]) for v in out["violations"]] == [
        (0, 1, "must-follow-suit", True), (1, 1, "must-follow-suit", True)]
    assert all("played in trick 2" in v["detail"] for v in out["violations"])
    assert out["tricks"][0]["plays"][1]["legal"] is False and out["tricks"][2]["plays"][1]["legal"] is True


def test_failed_throw_that_stood_penalty_and_evidence() -> None:
    # seat 0 (dealer) throws ♥A Q and the table lets it stand; seat 2 discarded ♦ although he held
    # ♥K, which he shows in trick 1: a failed throw (and a revoke), both proven by trick 1
    rules = {"profile": "standard-2deck", "throw_penalty": "points"}
    tricks = [(0, ["AH QH", "3H 4H", "5D 6D", "7H 8H"]), (0, ["3D", "4D", "KH", "5C"])]
    assert found(record(rules, tricks[:1])) == []
    d = deal_out(record(rules, tricks))
    assert [(v["trick"], v["seat"], v["rule"], v["proven"]) for v in d["violations"]] == [
        (0, 0, "failed-throw", True), (0, 2, "must-follow-suit", True)]
    ft = d["violations"][0]
    assert "trick 1" in ft["detail"] and "♥K" in ft["detail"] and "♥Q" in ft["detail"]
    assert d["tricks"][0]["winner"] == 0
    assert [(p["trick"], p["seat"], p["points"]) for p in d["penalties"]] == [(0, 0, 10)]


def test_incomplete_deals_have_null_outcome_fields() -> None:
    d = deal_out(record("standard-2deck", [(0, ["AH", "KH", "5H"])],
                          kitty=["3C", "3C", "4C", "4C", "6C", "6C", "7C", "7C"]))
    for key in ("outcome", "next_dealer", "levels_after", "game_winner", "kitty_points", "kitty_multiplier",
                "kitty_won_by", "total_defender_points"):
        assert d[key] is None, key
    assert d["tricks"][0]["winner"] is None
    assert [p["seat"] for p in d["tricks"][0]["plays"]] == [0, 1, 2]


def test_deal_complete_by_full_hand_count() -> None:
    # single-deck, 4 players: 12 cards each; 12 full tricks of singles make the deal complete
    suits = "SHCD"
    tricks = []
    for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]:
        tricks.append((0, [r + s for s in suits]))
    d = deal_out(record("single-deck", tricks, level="A", trump="S"))
    assert d["outcome"] is not None
    d = deal_out(record("single-deck", tricks[:-1], level="A", trump="S"))
    assert d["outcome"] is None


# ======================================================================= bids
@pytest.mark.parametrize(
    ("profile", "bids", "trump", "dealer", "bad"),
    [
        # 3 decks (seed 004): 1 < 2 < two jokers (NT) < 3 level cards < 3 jokers (NT)
        ("titanic-3deck", [(0, "9H"), (1, "9S 9S"), (2, "SJ SJ"), (3, "9C 9C 9C"), (0, "BJ BJ SJ")], "NT", 0, []),
        ("titanic-3deck", [(0, "9H 9H"), (1, "9S 9S")], "H", 0, [1]),
        ("titanic-3deck", [(0, "SJ BJ"), (1, "9S 9S")], "NT", 0, [1]),
        ("titanic-3deck", [(0, "9S 9S 9S"), (1, "SJ SJ")], "S", 0, [1]),
        ("titanic-3deck", [(0, "9S 9S 9S"), (1, "SJ SJ SJ")], "S", 0, [1]),  # trump must be NT
        # 2 decks: a pair overcalls a single; a pair cannot overcall a pair; jokers pair → NT
        ("standard-2deck", [(0, "9H"), (1, "9S 9S"), (2, "9C 9C")], "S", 0, [2]),
        ("standard-2deck", [(0, "9H"), (1, "SJ SJ"), (2, "BJ BJ")], "NT", 0, []),
        ("standard-2deck", [(0, "9H"), (1, "9H 9S")], "H", 0, [1]),  # two different cards are no pair
        # 炒地皮: ♠ > ♥ > ♣ > ♦ for equal sizes
        ("chaodipi-2deck", [(0, "9D 9D"), (1, "9C 9C"), (2, "9H 9H"), (3, "9S 9S")], "S", 3, []),
        ("chaodipi-2deck", [(0, "9S"), (1, "9H")], "S", 0, [1]),
        ("chaodipi-2deck", [(0, "9S 9S"), (1, "SJ SJ"), (2, "SJ BJ BJ")], "H", 2, []),
        ("chaodipi-2deck", [(0, "9S 9S"), (1, "BJ BJ"), (2, "SJ SJ")], "NT", 1, [2]),
        # seed 004's profiles: the first bidder is the first dealer (先亮者為莊家); seed 001: the winner
        ("standard-2deck", [(0, "9H"), (1, "9S 9S")], "S", 0, []),
        ("standard-2deck", [(0, "9H"), (1, "9S 9S")], "S", 1, [1]),
        ({"profile": "standard-2deck", "first_dealer": "winning-bidder"}, [(0, "9H"), (1, "9S 9S")], "S", 0, [0]),
        ("guangzhou-3deck", [(0, "9H"), (1, "9S 9S")], "S", 1, []),
    ],
)
def test_bid_orders(profile: Any, bids: list[tuple[int, str]], trump: str, dealer: int, bad: list[int]) -> None:
    rec = record(profile, [], level="9", trump=trump, dealer=dealer,
                 bids=[{"seat": s, "cards": c.split()} for s, c in bids])
    assert sorted(v[1] for v in found(rec) if v[2] == "bad-bid") == sorted(bad)


# ======================================================================= malformed records
@pytest.mark.parametrize(
    ("mutate", "where"),
    [
        (lambda r: r["deals"][0]["tricks"][1]["plays"][3].__setitem__(0, "11C"), "deals[0].tricks[1].plays[3]"),
        (lambda r: r["deals"][0]["tricks"][0].__setitem__("attempt", ["AH", "ZZ"]), "deals[0].tricks[0].attempt"),
        (lambda r: r["deals"][0].__setitem__("hands", [["AH"], ["3H"]]), "deals[0].hands"),
        (lambda r: r["deals"][0].__setitem__("kitty", "AH"), "deals[0].kitty"),
        (lambda r: r["deals"][0].__setitem__("level", "1"), "deals[0].level"),
        (lambda r: r["deals"][0].__setitem__("bids", [{"seat": 7, "cards": ["2H"]}]), "deals[0].bids[0].seat"),
        (lambda r: r["deals"][0].__setitem__("friends", [{"card": "AS", "nth": 0}]), "deals[0].friends[0].nth"),
        (lambda r: r["deals"][0]["tricks"][0]["plays"].pop(), "deals[0].tricks[0].plays"),
        (lambda r: r.__setitem__("rules", {"profile": "standard-2deck", "forced_unit": "x"}), "rules.forced_unit"),
        (lambda r: r.__setitem__("start_levels", ["2", "2", "2", "Z"]), "start_levels[3]"),
        (lambda r: r["deals"][0].__setitem__("complete", "yes"), "deals[0].complete"),
    ],
)
def test_malformed_records_name_the_place(mutate: Any, where: str) -> None:
    rec = record("standard-2deck", [(0, ["AH", "3D", "4H", "6H"]), (0, ["7D", "5H", "8D", "9D"])])
    validate_record(rec)
    bad = copy.deepcopy(rec)
    mutate(bad)
    with pytest.raises(RecordError) as err:
        audit_record(bad)
    assert str(err.value).startswith(where), str(err.value)
    assert "\n" not in str(err.value)


def test_wrong_forced_unit_proven_once_no_later_evidence_can_excuse_it() -> None:
    # seat 0 attempts ♥A Q and plays the ♥A back; during the deal nobody has shown a ♥K yet
    t0 = (0, ["AH", "3H", "4H", "5H"], "AH QH")
    assert found(record("standard-2deck", [t0])) == [(0, 0, "wrong-forced-unit", False)]
    # seat 2 shows ♥K in trick 1: the ♥Q was the forced unit, and no later play can make the
    # ♥A (higher, same size) the forced unit instead: proven
    t1 = (0, ["3D", "4D", "KH", "5D"])
    out = deal_out(record("standard-2deck", [t0, t1]))
    assert [(v["trick"], v["seat"], v["rule"], v["proven"]) for v in out["violations"]] == [
        (0, 0, "wrong-forced-unit", True)]
    assert "trick 1" in out["violations"][0]["detail"]
    # attempt ♥K QQ, ♥A shown later beats the K; the thrower played QQ: a pair beaten later
    # (♥KK or ♥AA in one hand) would make QQ the forced unit (largest-beaten), so not yet proven
    t0 = (0, ["QH QH", "3H 4H", "5H 6H", "7H 8H"], "KH QH QH")
    t1 = (0, ["KH", "4D", "AH", "5D"])
    assert found(record("standard-2deck", [t0, t1])) == [(0, 0, "wrong-forced-unit", False)]
    assert found(record("standard-2deck", [t0, t1], complete=True)) == [(0, 0, "wrong-forced-unit", True)]
    # ... under smallest-beaten the single K outranks the pair for good: proven at once
    rules = {"profile": "standard-2deck", "forced_unit": "smallest-beaten"}
    assert found(record(rules, [t0, t1])) == [(0, 0, "wrong-forced-unit", True)]


def test_a_card_buried_in_the_kitty_cannot_also_be_played() -> None:
    # both ♥A of two decks are in the kitty: the ♥A seat 0 leads is not available
    kitty = ["AH", "AH", "3C", "3C", "4C", "4C", "6C", "6C"]
    out = deal_out(record("standard-2deck", [(0, ["AH", "3H", "4H", "5H"])], kitty=kitty))
    assert [(v["trick"], v["seat"], v["rule"]) for v in out["violations"]] == [(0, 0, "card-not-available")]
    assert "kitty" in out["violations"][0]["detail"]
    # one ♥A buried leaves one to play, not two
    kitty[1] = "7C"
    assert found(record("standard-2deck", [(0, ["AH", "3H", "4H", "5H"])], kitty=kitty)) == []
    assert found(record("standard-2deck", [(0, ["AH", "3H", "4H", "5H"]), (0, ["AH", "6H", "7H", "8H"])],
                        kitty=kitty)) == [(1, 0, "card-not-available", True)]


def test_levels_across_deals_must_defend_dealer_stays_and_game_winner() -> None:
    # deal 0: dealer 0 at level 3 scores 大光 (+3) but must defend 5: stops on 5; next dealer 2
    rules = {"profile": "standard-2deck", "must_defend": ["5"]}
    shutout = (0, ["AH", "3H", "4H", "6H"])
    rec = record(rules, [shutout], level="3", complete=True)
    rec["start_levels"] = ["3", "2", "3", "2"]
    deal1 = copy.deepcopy(rec["deals"][0])
    deal1.update({"level": "5", "dealer": 2})
    deal1["tricks"] = [{"leader": 2, "plays": [["AH"], ["3H"], ["4H"], ["6H"]]}]
    rec["deals"].append(deal1)
    out = audit_record(rec)["deals"]
    assert out[0]["outcome"] == {"side": "dealer", "levels": 3}
    assert out[0]["levels_after"] == ["5", "2", "5", "2"] and out[0]["next_dealer"] == 2
    # deal 1: seats 0/2 defend 5 as the dealer's side and pass it: 5 + 3 = 8
    assert out[1]["levels_after"] == ["8", "2", "8", "2"] and out[1]["next_dealer"] == 0
    # dealer_stays + max_levels: from K a capped +2 passes A — the dealer's side wins the game
    rules2 = {"profile": "standard-2deck", "dealer_stays": True, "max_levels": 2}
    rec = record(rules2, [shutout], level="K", complete=True)
    rec["start_levels"] = ["K", "2", "K", "2"]
    d = deal_out(rec)
    assert d["outcome"] == {"side": "dealer", "levels": 2} and d["next_dealer"] == 0
    assert d["levels_after"] == ["A", "2", "A", "2"] and d["game_winner"] == "dealer"
    # from Q the same +2 lands on A: no winner yet
    rec["start_levels"] = ["Q", "2", "Q", "2"]
    rec["deals"][0]["level"] = "Q"
    d = deal_out(rec)
    assert d["levels_after"] == ["A", "2", "A", "2"] and d["game_winner"] is None


def test_friends_points_before_and_after_the_reveal() -> None:
    from tuolaji.scorer import dealer_side_seats, seat_points

    # 5 players, dealer 0 calls the 1st ♠A. Seat 1 wins 20 in trick 0; in trick 1 seat 3
    # discards the ♠A (revealed) and seat 4 wins trick 1's 5 points with ♣4 (♣ trump)
    tricks = [(0, ["3H", "KH", "5H", "6H", "7H"]), (1, ["5D", "6D", "AS", "7D", "4D"])]
    rec = record("friends-3deck", tricks[:1], players=5, trump="C", friends=[{"card": "AS", "nth": 1}])
    assert seat_points(rec) == [0, 15, 0, 0, 0] and dealer_side_seats(rec) == [0]
    rec = record("friends-3deck", tricks, players=5, trump="C", friends=[{"card": "AS", "nth": 1}])
    assert seat_points(rec) == [0, 15, 0, 0, 5] and dealer_side_seats(rec) == [0, 3]
    d = deal_out(rec)
    assert d["defender_points"] == 20 and d["outcome"] is None
    # the dealer himself plays the called copy: used up, he stays alone even if seat 3 plays another
    tricks2 = [(0, ["AS", "KH", "5H", "AS", "7H"])]
    rec = record("friends-3deck", tricks2, players=5, trump="C", friends=[{"card": "AS", "nth": 1}])
    assert dealer_side_seats(rec) == [0]
    rec = record("friends-3deck", tricks2, players=5, trump="C", friends=[{"card": "AS", "nth": 2}])
    assert dealer_side_seats(rec) == [0, 3]


def test_throw_penalty_level_lowers_the_throwers_side() -> None:
    # seat 1 (a defender of dealer 0) wins trick 0, then tries ♥A Q; seat 2's ♥K beats the Q
    rules = {"profile": "standard-2deck", "throw_penalty": "level"}
    tricks = [(0, ["3C", "AC", "4C", "6C"]), (1, ["QH", "KH", "3H", "4H"], "AH QH"), (2, ["8D", "9D", "JD", "AH"])]
    rec = record(rules, tricks, complete=True)
    rec["start_levels"] = ["2", "7", "2", "7"]
    d = deal_out(rec)
    assert d["violations"] == []
    assert [(p["trick"], p["seat"], p["points"]) for p in d["penalties"]] == [(1, 1, 0)]
    assert d["penalty_points"] == 0
    # no points for the defenders: the dealer goes up 3 (大光), the throwers drop from 7 to 6
    assert d["outcome"] == {"side": "dealer", "levels": 3}
    assert d["levels_after"] == ["5", "6", "5", "6"]
    # a thrower on the dealer's side gives back one of its levels: dealer 1 leads and wins
    # trick 0; the defenders' ♥K (10 points) gives the dealer +2, 7 → 9, less one: 8
    rec["deals"][0]["dealer"] = 1
    rec["deals"][0]["level"] = "7"  # the dealer's level
    rec["deals"][0]["tricks"][0]["leader"] = 1
    rec["deals"][0]["tricks"][0]["plays"] = [["AC"], ["4C"], ["6C"], ["3C"]]
    d = deal_out(rec)
    assert d["violations"] == [] and d["defender_points"] == 10
    assert d["outcome"] == {"side": "dealer", "levels": 2}
    assert d["levels_after"] == ["2", "8", "2", "8"]


def test_a_later_attempt_is_evidence_for_earlier_tricks() -> None:
    # seat 0's throw ♥AA Q stands in trick 0; seat 2 only shows his ♥K by laying it down in
    # an attempt at trick 2 (♥K 9: the 9 is beaten by seat 3's ♥10, so he plays it and keeps
    # the K). He held the K all along, so the throw of trick 0 was beatable — proven by trick 2.
    t0 = (0, ["AH AH QH", "3H 4H 6H", "5H 6H 7H", "7H 8H 8H"])
    t1 = (0, ["3C", "4C", "AC", "5C"])
    t2 = (2, ["9H", "10H", "JH", "3D"], "KH 9H")
    assert found(record("standard-2deck", [t0, t1])) == []
    out = deal_out(record("standard-2deck", [t0, t1, t2]))
    assert [(v["trick"], v["seat"], v["rule"], v["proven"]) for v in out["violations"]] == [
        (0, 0, "failed-throw", True)]
    assert "seat 2" in out["violations"][0]["detail"]
    assert "shown in the attempt of trick 2" in out["violations"][0]["detail"]
    # a card only ever attempted, in a complete deal, was never held
    out = deal_out(record("standard-2deck", [t0, t1, t2], complete=True))
    assert [(v["trick"], v["seat"], v["rule"]) for v in out["violations"]] == [(2, 2, "card-not-available")]


def test_follow_hint_needs_the_hands() -> None:
    """Without ``hands`` the seat's hand now is unknown: no hint rather than a wrong one."""
    from tuolaji import scorer

    with_hands = {"rules": "standard-2deck", "deals": [{"level": "2", "trump": "S", "dealer": 0,
                  "hands": [["AH", "AH"], ["3H", "3H", "5H", "9D"], ["4D", "5D"], ["6D", "7D"]],
                  "tricks": [{"leader": 0, "plays": [["AH", "AH"]]}]}]}
    assert scorer.follow_hint(with_hands, 1) == "follow ♥ with 2 cards: a pair"
    without = {"rules": "standard-2deck", "deals": [{"level": "2", "trump": "S", "dealer": 0,
               "tricks": [{"leader": 0, "plays": [["AH", "AH"]]}]}]}
    assert scorer.follow_hint(without, 1) is None
