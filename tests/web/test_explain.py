"""The scorer's texts in the page's languages (web/explain.py).

The main test audits hundreds of random deals with injected faults of every rule code
(swapped cards, wrong leaders, short plays, foreign cards, mixed leads, failed throws,
bad forced units, bad bids, a short kitty, throw penalties) and checks that every detail
and penalty the audit writes is read by one of the known templates and comes out fully
in Chinese, and that every template was met. The follow hint and the lead's obligation (facts, not
English read back) get the same over random half-played deals.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest

from tuolaji import scorer
from tuolaji.scorer.violation_text import SENTENCES, detail, penalty_detail
from tuolaji.scorer.violations import (
    Beaten,
    BidNotABid,
    EmptyLead,
    Evidence,
    Fact,
    Penalty,
    PenaltyFact,
    Revoke,
    ThrowStood,
    Violation,
    WrongFormat,
)
from tuolaji.web.explain import (
    FACT_SENTENCES,
    OBLIGATION_KEYS,
    describe_error,
    describe_hint,
    describe_obligation,
    describe_penalty,
    describe_violation,
    explain_fact,
)

RULE_CODES = {"wrong-leader", "wrong-card-count", "card-not-available", "lead-mixed-suits", "must-follow-suit",
              "must-follow-format", "failed-throw", "wrong-forced-unit", "bad-bid", "bad-kitty", "wrong-dealer",
              "bad-friend-call", "bad-points"}
HINT_KEYS = {"hint.none_left", "hint.play_all", "hint.play_all_and_more", "hint.follow_requirement"}

# (rules, players): profiles whose options reach every template (penalties, bid orders, forced units, 找朋友)
CONFIGS: list[tuple[Any, int | None]] = [
    ("standard-2deck", None), ("titanic-3deck", None), ("guangzhou-3deck", None), ("friends-3deck", 5),
    ("single-deck", None), ("chaodipi-2deck", None), ("four-deck", None),
    ({"profile": "standard-2deck", "throw_penalty": "level"}, None),
    ({"profile": "competition-3deck", "first_dealer": "first-bidder"}, None),
    ({"profile": "single-deck", "forced_unit": "smallest-beaten", "throw_penalty": "points"}, None),
    ({"profile": "titanic-3deck", "protect_longer_tuples": True}, None),
    ({"profile": "standard-2deck", "self_overcall": False}, None),
    # the penalties of seed 001 Ⅰ.九, each scale once
    ({"profile": "guangzhou-3deck", "discard_penalty": "points", "trump_penalty": "level-points",
      "kitty_penalty": "level", "card_count_penalty": "points", "throw_penalty": "level-points"}, None),
    ({"profile": "friends-3deck", "discard_penalty": "level", "trump_penalty": "points",
      "kitty_penalty": "level-points", "card_count_penalty": "level-points"}, 4),
    ("friends-3deck", 6),
]


def random_deal(rng: random.Random) -> dict[str, Any]:
    rules, players = CONFIGS[rng.randrange(len(CONFIGS))]
    name = rules if isinstance(rules, str) else rules["profile"]
    return scorer.random_record(name, rng.randrange(2**31), players=players,
                                rules=None if isinstance(rules, str) else rules,
                                hand_size=rng.randint(4, 12), attempt_chance=0.4)


def seat_of(deal: dict[str, Any], players: int, t: int, position: int) -> int:
    return (deal["tricks"][t]["leader"] + position) % players


def position_of(deal: dict[str, Any], players: int, t: int, seat: int) -> int:
    return (seat - deal["tricks"][t]["leader"]) % players


# --- injections: each edits the record in place ----------------------------------------


def swap_cards(rec: dict[str, Any], rng: random.Random) -> None:
    """One seat plays a card of a later trick early and the other way round (revokes, bad formats)."""
    deal, n = rec["deals"][0], len(rec["players"])
    t, u = sorted(rng.sample(range(len(deal["tricks"])), 2))
    seat = rng.randrange(n)
    a = deal["tricks"][t]["plays"][position_of(deal, n, t, seat)]
    b = deal["tricks"][u]["plays"][position_of(deal, n, u, seat)]
    if a and b:
        i, j = rng.randrange(len(a)), rng.randrange(len(b))
        a[i], b[j] = b[j], a[i]


def split_pair(rec: dict[str, Any], rng: random.Random) -> None:
    """A follower who played a pair to a pair lead plays one of them a trick later instead (bad format)."""
    deal, n = rec["deals"][0], len(rec["players"])
    tricks = deal["tricks"]
    for t, trick in enumerate(tricks):
        lead = trick["plays"][0]
        for play in trick["plays"][1:]:
            if len(lead) == len(play) == 2 and lead[0] == lead[1] and play[0] == play[1]:
                seat = seat_of(deal, n, t, trick["plays"].index(play))
                for later in tricks[t + 1:]:
                    other = later["plays"][position_of(deal, n, tricks.index(later), seat)]
                    singles = [i for i, card in enumerate(other) if card[-1] == play[0][-1] and card != play[0]]
                    if singles:
                        i = rng.choice(singles)
                        play[1], other[i] = other[i], play[1]
                        return


def swap_plays(rec: dict[str, Any], rng: random.Random) -> None:
    deal, n = rec["deals"][0], len(rec["players"])
    t, u = sorted(rng.sample(range(len(deal["tricks"])), 2))
    seat = rng.randrange(n)
    pt, pu = position_of(deal, n, t, seat), position_of(deal, n, u, seat)
    deal["tricks"][t]["plays"][pt], deal["tricks"][u]["plays"][pu] = (deal["tricks"][u]["plays"][pu],
                                                                      deal["tricks"][t]["plays"][pt])


def wrong_leader(rec: dict[str, Any], rng: random.Random) -> None:
    deal, n = rec["deals"][0], len(rec["players"])
    trick = deal["tricks"][rng.choice([0, rng.randrange(len(deal["tricks"]))])]
    trick["leader"] = (trick["leader"] + rng.randrange(1, n)) % n


def drop_card(rec: dict[str, Any], rng: random.Random) -> None:
    deal = rec["deals"][0]
    trick = deal["tricks"][rng.randrange(len(deal["tricks"]))]
    play = trick["plays"][rng.randrange(len(trick["plays"]))]
    if rng.random() < 0.25:
        play.clear()
    elif play:
        play.pop(rng.randrange(len(play)))


def foreign_card(rec: dict[str, Any], rng: random.Random) -> None:
    deal = rec["deals"][0]
    for _ in range(rng.choice([1, 1, 3, 5])):  # several: copies beyond what the decks hold
        trick = deal["tricks"][rng.randrange(len(deal["tricks"]))]
        play = trick["plays"][rng.randrange(len(trick["plays"]))]
        if play:
            play[rng.randrange(len(play))] = rng.choice(["BJ", "SJ", "AS", *scorer.CARD_NAMES])


def mixed_or_throw_lead(rec: dict[str, Any], rng: random.Random) -> None:
    """A leader adds a card of a later trick to his lead: a throw (often failing) or a mixed lead."""
    deal, n = rec["deals"][0], len(rec["players"])
    t, u = sorted(rng.sample(range(len(deal["tricks"])), 2))
    leader = deal["tricks"][t]["leader"]
    later = deal["tricks"][u]["plays"][position_of(deal, n, u, leader)]
    lead = deal["tricks"][t]["plays"][0]
    same_suit = [c for c in later if c[-1] == lead[0][-1]] if lead else []
    pool = same_suit if same_suit and rng.random() < 0.7 else later
    if pool:
        card = rng.choice(pool)
        later.remove(card)
        lead.append(card)


def bad_attempt(rec: dict[str, Any], rng: random.Random) -> None:
    """Edit a failed throw: another unit played, a one-unit 'throw', a mixed or foreign card, one that stands."""
    deal = rec["deals"][0]
    tricks = [t for t in deal["tricks"] if t.get("attempt")] or deal["tricks"]
    trick = rng.choice(tricks)
    lead = trick["plays"][0]
    attempt = trick.setdefault("attempt", list(lead))
    kind = rng.randrange(5)
    if kind == 0 and len(attempt) > len(lead):
        rest = list(attempt)
        for card in lead:
            if card in rest:
                rest.remove(card)
        trick["plays"][0] = rest[:len(lead)]
    elif kind == 1:
        trick["attempt"] = list(lead)
    elif kind == 2:
        trick["attempt"] = [*attempt, rng.choice(scorer.CARD_NAMES)]
    elif kind == 3:
        # four big jokers: as many as any decks hold (a fifth copy in one play is refused as input)
        trick["attempt"] = [*(c for c in attempt if c != "BJ"), "BJ", "BJ", "BJ", "BJ"]
    else:
        trick["attempt"] = [*lead, "BJ"] if lead and lead[0] not in ("SJ", "BJ") else [*attempt, "SJ"]


def short_kitty(rec: dict[str, Any], rng: random.Random) -> None:
    kitty = rec["deals"][0].get("kitty") or []
    rec["deals"][0]["kitty"] = kitty[: max(0, len(kitty) - rng.randint(1, 3))] or ["3S"] * 9


def bids(rec: dict[str, Any], rng: random.Random) -> None:
    deal, n = rec["deals"][0], len(rec["players"])
    level = deal["level"]
    made = []
    for _ in range(rng.randint(0, 4)):
        copies = rng.randint(1, 4)
        card = rng.choice([level + "S", level + "H", level + "C", level + "D", "SJ", "BJ", "3S" if level != "3" else "4S"])
        cards = [card] * copies if rng.random() < 0.8 else [card, "BJ" if card != "BJ" else "SJ"]
        made.append({"seat": rng.randrange(n), "cards": cards} | ({"after_kitty": True} if rng.random() < 0.15 else {}))
        if rng.random() < 0.3:  # the same seat again, with more copies (自保, or 炒地皮's "no self overcall")
            made.append({"seat": made[-1]["seat"], "cards": [card] * min(copies + 1, 4)})
    if rng.random() < 0.3:  # a seat raising its own bid
        seat = rng.randrange(n)
        made = [{"seat": seat, "cards": [level + "S"]}, {"seat": seat, "cards": [level + "S"] * 2}]
    deal["bids"] = made
    if rng.random() < 0.3:
        deal["dealer"] = rng.randrange(n)


def friend_calls(rec: dict[str, Any], rng: random.Random) -> None:
    """找朋友: a called card that may be a trump, or a copy beyond the decks."""
    deal = rec["deals"][0]
    if "friends" in deal:
        deal["friends"] = [{"card": rng.choice([deal["level"] + "C", "BJ", "AS", "AD", "KH"]), "nth": rng.randint(1, 5)}]


def second_deal(rec: dict[str, Any], rng: random.Random) -> None:
    """A second deal after the first: the dealer and level the rules make, or not; 找朋友 bids of the winners' levels."""
    first = rec["deals"][0]
    if not first.get("complete"):
        return
    out = scorer.audit_record(rec)["deals"][0]
    n = len(rec["players"])
    side = set(scorer.dealer_side_seats(rec, 0))
    winners = sorted(side if out["outcome"]["side"] == "dealer" else set(range(n)) - side)
    levels = out["levels_after"]
    nxt = out["next_dealer"] if out["next_dealer"] is not None else scorer.next_dealers(rec)[0]  # 找朋友: a winner
    dealer = nxt if rng.random() < 0.5 else rng.randrange(n)
    level = levels[dealer] if rng.random() < 0.6 else rng.choice(["2", "3", "J", "A"])
    bids_made = []
    if "friends" in first:
        for _ in range(rng.randint(1, 3)):
            seat = rng.choice(winners) if rng.random() < 0.7 else rng.randrange(n)
            shown = levels[rng.choice(winners)] if rng.random() < 0.7 else rng.choice(["2", "3", "Q", "A"])
            bids_made.append({"seat": seat, "cards": [shown + rng.choice("SHCD")] * rng.randint(1, 2)})
    rec["deals"].append({"level": level, "trump": "NT", "dealer": dealer, "bids": bids_made, "tricks": []})


INJECTIONS: list[Callable[[dict[str, Any], random.Random], None]] = [
    swap_cards, swap_cards, split_pair, split_pair, swap_plays, wrong_leader, drop_card, foreign_card, mixed_or_throw_lead,
    mixed_or_throw_lead, bad_attempt, bad_attempt, short_kitty, bids, friend_calls, second_deal, second_deal,
]


def injected_records(count: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        rec = random_deal(rng)
        if len(rec["deals"][0]["tricks"]) < 2:
            continue
        for inject in sorted(rng.sample(INJECTIONS, rng.randint(1, 2)), key=lambda f: f is second_deal):
            inject(rec, rng)
        deal = rec["deals"][0]
        if rng.random() < 0.4:
            del deal["hands"]  # judged from later plays only
        if rng.random() < 0.25:
            deal["tricks"] = deal["tricks"][: rng.randint(1, len(deal["tricks"]))]
            deal.pop("complete", None)
        out.append(rec)
    return out


def assert_fully_chinese(text: str, where: str) -> None:
    # player names are P1…P7; cards are ♠A, 小王…; no English word may be left
    assert not re.search(r"[a-z]", text), f"{where}: {text}"
    assert "seat" not in text.lower(), f"{where}: {text}"


# --- the golden page texts of every finding ------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "data" / "explain" / "violation_texts.json"
"""The page's words for every violation and penalty over :func:`golden_corpus`, written by the
regex reader of the English ``detail`` before the audit recorded findings as data
(``scripts/violation_texts_golden.py``)."""


def golden_corpus() -> list[tuple[str, dict[str, Any]]]:
    """(name, record): the fuzz corpus of injected faults, then the stored records (golden audits,
    examples, the input-fuzz corpus)."""
    records = [(f"injected-{k}", rec) for k, rec in enumerate(injected_records(800, seed=6))]
    for folder in (ROOT / "tests" / "data" / "scorer" / "records", ROOT / "examples", ROOT / "tests" / "data" / "fuzz"):
        for path in sorted(folder.glob("*.json")):
            value = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(value, dict) and "deals" in value:
                records.append((str(path.relative_to(ROOT)), value))
    return records


def penalty_sentence(fact: PenaltyFact) -> str:
    """The regex reader's name for a penalty's words."""
    if fact.offence == "throw":
        return {"points": "penalty_points", "level": "penalty_level", "level-points": "penalty_throw_level_points"}[fact.mode]
    return {"points": "penalty_wrong_cards", "level-points": "penalty_level_points", "level": "penalty_offender_level"}[
        fact.mode]


def golden_rows(record: dict[str, Any]) -> list[tuple[dict[str, Any], Violation | Penalty]]:
    """Each finding of the record's audit as a row of the golden file (its words today), with its data."""
    players = list(record.get("players") or [])
    audit, findings = scorer.audit_with_findings(record)
    rows: list[tuple[dict[str, Any], Violation | Penalty]] = []
    for d, (deal, found) in enumerate(zip(audit["deals"], findings, strict=True)):
        assert len(deal["violations"]) == len(found.violations) and len(deal["penalties"]) == len(found.penalties)
        for v, finding in zip(deal["violations"], found.violations, strict=True):
            assert (v["rule"], v["trick"], v["seat"], v["proven"]) == (finding.rule, finding.trick, finding.seat,
                                                                       finding.proven)
            assert v["detail"] == detail(finding.fact)
            rows.append(({"kind": "violation", "deal": d, "rule": v["rule"], "trick": v["trick"], "seat": v["seat"],
                          "proven": v["proven"], "detail": v["detail"], "players": players,
                          "text": describe_violation(finding, players), "template": finding.fact.sentence}, finding))
        for p, penalty in zip(deal["penalties"], found.penalties, strict=True):
            assert (p["trick"], p["seat"], p["points"]) == (penalty.trick, penalty.seat, penalty.points)
            assert p["detail"] == penalty_detail(penalty.fact)
            rows.append(({"kind": "penalty", "deal": d, "trick": p["trick"], "seat": p["seat"], "points": p["points"],
                          "detail": p["detail"], "players": players, "text": describe_penalty(penalty, players),
                          "template": penalty_sentence(penalty.fact)}, penalty))
    return rows


def golden_key(row: dict[str, Any]) -> str:
    """What makes a row distinct (its words depend on nothing else)."""
    return json.dumps({k: v for k, v in row.items() if k not in ("text", "deal", "template", "source")},
                      ensure_ascii=False, sort_keys=True)


def test_the_words_of_every_finding_are_unchanged():
    """Every violation and penalty of the corpus reads on the page, in Chinese and English, exactly
    as the regex reader of the English detail wrote it (the golden file), for every rule code and
    every kind of finding; and the words are the page's own (no English left in the Chinese, who
    did it always named)."""
    golden = {golden_key(row): row for row in json.loads(GOLDEN.read_text(encoding="utf-8"))}
    met: set[str] = set()
    for _name, record in golden_corpus():
        for row, finding in golden_rows(record):
            key = golden_key(row)
            assert key in golden, f"a finding the golden texts do not hold: {key}"
            want = golden[key]
            assert row["text"] == want["text"], key
            assert row["template"] == want["template"], key
            met.add(key)
            assert_fully_chinese(row["text"]["zh"], row["detail"])
            if isinstance(finding, Violation):
                assert not re.search(r"\bseat \d", row["text"]["en"]), row["text"]["en"]
                assert record["players"][finding.seat] in row["text"]["zh"]  # who did it is always said
    assert met == set(golden), f"{len(set(golden) - met)} golden texts were not met"
    rows = list(golden.values())
    assert {row["rule"] for row in rows if row["kind"] == "violation"} == RULE_CODES
    assert {row["template"] for row in rows if row["kind"] == "violation"} == set(FACT_SENTENCES)
    assert {row["template"] for row in rows if row["kind"] == "penalty"} == PENALTY_SENTENCES
    assert FACT_SENTENCES == SENTENCES  # the page words every kind the scorer writes


PENALTY_SENTENCES = {"penalty_points", "penalty_level", "penalty_throw_level_points", "penalty_wrong_cards",
                     "penalty_level_points", "penalty_offender_level"}


def test_obligations_of_random_leads_are_translated():
    met: set[str] = set()
    rng = random.Random(3)
    for _ in range(300):
        rec = random_deal(rng)
        deal = rec["deals"][0]
        t = rng.randrange(len(deal["tricks"]))
        trick = deal["tricks"][t]
        if rng.random() < 0.1 and len(deal["tricks"]) > 1:  # a mixed lead
            trick["plays"][0] = trick["plays"][0] + deal["tricks"][(t + 1) % len(deal["tricks"])]["plays"][0][:1]
        deal["tricks"] = deal["tricks"][:t] + [{"leader": trick["leader"], "plays": trick["plays"][:1]}]
        deal.pop("complete", None)
        text = scorer.lead_obligation(rec)
        obligation = scorer.lead_obligation_fact(rec)
        assert text is not None and obligation is not None and str(obligation) == text
        words = describe_obligation(obligation, rec["players"])
        met.add(obligation.key)
        assert words["parsed"] and words["en"] == text
        assert_fully_chinese(words["zh"].replace("泰坦尼克", ""), text)
    assert met == OBLIGATION_KEYS


def test_follow_hints_of_random_half_played_deals_are_translated():
    rng = random.Random(3)
    met: set[str] = set()
    for _ in range(120):
        rec = random_deal(rng)
        deal = rec["deals"][0]
        n = len(rec["players"])
        t = rng.randrange(len(deal["tricks"]))
        keep = rng.randint(1, n - 1)
        deal["tricks"] = deal["tricks"][:t] + [{"leader": deal["tricks"][t]["leader"],
                                                "plays": deal["tricks"][t]["plays"][:keep]}]
        deal.pop("complete", None)
        seat = (deal["tricks"][t]["leader"] + keep) % n
        hint = scorer.follow_hint(rec, seat)
        message = scorer.follow_hint_message(rec, seat)
        if hint is None:  # a mixed lead: nothing to follow
            assert message is None
            continue
        assert message is not None and str(message) == hint
        met.add(message.key)
        text = describe_hint(message, rec["players"])
        assert text["parsed"]
        assert_fully_chinese(text["zh"], hint)
    assert met == HINT_KEYS


def cards(text: str) -> tuple[int, ...]:
    return tuple(scorer.parse_cards(text.split()))


def test_the_revoke_reads_as_a_sentence_in_each_language():
    players = ["东", "南", "西", "北"]
    fact = Revoke(suit=0, seat=1, played=cards("7D"), held=cards("9S 9S SJ"), evidence=Evidence(trick=4, played=(10, 12)))
    assert detail(fact) == "seat 1 did not follow ♠: played ♦7 while holding ♠9 ♠9 SJ (played in tricks 10, 12)"
    assert explain_fact(fact, players) == {"zh": "南 未跟 ♠：出了 ♦7，但手里有 ♠9 ♠9 小王（第 11、13 墩打出）",
                                           "en": "南 did not follow ♠: played ♦7 while holding ♠9 ♠9 SJ (played in tricks 11, 13)"}


def test_a_failed_throw_names_who_beat_which_unit():
    players = ["东", "南", "西", "北"]
    fact = ThrowStood(cards("AH AH 3H"), (Beaten(cards("3H"), 2, cards("9H"), Evidence(trick=4, played=(4,))),),
                      cards("3H"))
    assert detail(fact) == ("throw ♥A ♥A ♥3 stood but ♥3 beaten by seat 2's ♥9 (played in trick 4 (this trick)); "
                            "the leader should have played ♥3")
    text = explain_fact(fact, players)
    assert text["zh"] == "甩 ♥A ♥A ♥3 被当作成功，但♥3 被 西 的 ♥9 管住（本墩打出）；首家只该出 ♥3"
    assert text["en"] == ("throw ♥A ♥A ♥3 stood but ♥3 beaten by 西's ♥9 (played in trick 5 (this trick)); "
                          "the leader should have played ♥3")


def test_a_format_fault_names_the_requirement_in_words():
    fact = WrongFormat(cards("AH AH KH KH"), 3, cards("3H 5H 7H 8H"), (cards("6H 6H"),), ((2, 1), (1, 1), (1, 1)),
                       Evidence(trick=5, played=(7,), hand=True))
    assert detail(fact) == ("♥A ♥A ♥K ♥K led; seat 3 played ♥3 ♥5 ♥7 ♥8 but held ♥6♥6 for a pair + 2 singles "
                            "(played in trick 7; in the recorded hand)")
    text = explain_fact(fact, ["a", "b", "c", "d"])
    assert text["zh"] == "首家出 ♥A ♥A ♥K ♥K，d 出了 ♥3 ♥5 ♥7 ♥8，但手里有 ♥6♥6，应跟对子 + 2 张单牌（第 8 墩打出；记录的手牌里有）"
    assert text["en"].endswith("for a pair + 2 singles (played in trick 8; in the recorded hand)")


@dataclass(frozen=True)
class BrandNewFact(Fact):
    """A kind of finding the scorer might gain later."""

    sentence: ClassVar[str] = "brand_new"
    seat: int


@pytest.mark.parametrize("violation", [
    Violation("brand-new-rule", 2, 1, True, BrandNewFact(1)),  # a kind the page has no words for
    Violation("bad-bid", None, 0, True, BidNotABid(0, cards("2S"), "martian")),  # an option value it does not know
    {"rule": "must-follow-suit", "detail": "led ♠; seat 1 played ♦7 while holding ♠9 (played in trick 10)"},  # no data
    {"rule": "must-follow-suit", "detail": 17},
    {"rule": None},
])
def test_a_finding_without_words_falls_back_to_the_scorers_english(violation, monkeypatch):
    from tuolaji.scorer.messages import FINDINGS_EN
    monkeypatch.setitem(FINDINGS_EN, "fact.brand_new", "{seat:seat} did it in trick 2")
    described = describe_violation(violation, ["东", "南"])
    assert described["parsed"] is False and described["zh"] == described["en"]
    if isinstance(violation, Violation):
        assert described["en"] == detail(violation.fact)  # nothing is read back out of the English
    else:
        assert described["en"] == str(violation.get("detail", ""))


def test_seat_numbers_beyond_the_players_never_crash():
    text = describe_violation(Violation("wrong-card-count", 0, 8, True, EmptyLead(8)), ["东", "南", "西", "北"])
    assert text["parsed"] and text["zh"] == "#8 首出却没有出牌"


def test_the_injected_records_are_varied():
    records = injected_records(40, seed=1)
    assert len({copy.deepcopy(r["rules"]).__repr__() for r in records}) > 3


@pytest.mark.parametrize(("record", "zh"), [
    ({"rules": "standard-2deck", "deals": [{"level": "2", "trump": "S", "dealer": 0,
                                            "tricks": [{"leader": 0, "plays": [["1H"]]}]}]},
     '记录有误：第 1 副第 1 墩第 1 手不认识的牌 "1H"'),
    ({"rules": "nope", "deals": []}, '记录有误：规则没有 "nope" 这套规则'),
    ({"deals": [{"trump": "S"}]}, "记录有误：规则缺少"),
])
def test_record_errors_name_the_place_in_chinese(record, zh):
    with pytest.raises(scorer.RecordError) as caught:
        scorer.validate_record(record)
    described = describe_error(caught.value)
    assert described["parsed"] and described["zh"] == zh
    assert described["en"] == str(caught.value)
