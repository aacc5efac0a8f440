"""The scorer's words in the page's two languages: violations, penalties, the follow hint,
the lead's obligation and errors.

The audit records each violation and penalty as data (:mod:`scorer.violations`: the cards,
units, seats, tricks and evidence); this module writes that data in Chinese and in the page's
English, with player names and tricks and deals counted from 1 (the scorer's own English,
docs/RECORD.md's ``detail``, is :mod:`scorer.violation_text`). A finding it has no words for (a
kind the scorer gains later) falls back to the scorer's English with seats and tricks made
readable: the page never loses a detail and never crashes on one. The scorer's other texts
(:func:`scorer.follow_hint`, :func:`scorer.describe_obligation`, error messages) are still
read back from their English templates.

>>> from tuolaji.scorer.cards import parse_cards
>>> from tuolaji.scorer.violations import Evidence, Revoke, Violation
>>> names = ["东", "南", "西", "北"]
>>> revoke = Revoke(suit=0, seat=1, played=tuple(parse_cards(["7D"])), held=tuple(parse_cards(["9S"])),
...                 evidence=Evidence(trick=4, played=(10,)))
>>> text = describe_violation(Violation("must-follow-suit", 4, 1, True, revoke), names)
>>> text["zh"]
'南 未跟 ♠：出了 ♦7，但手里有 ♠9（第 11 墩打出）'
>>> text["en"]
'南 did not follow ♠: played ♦7 while holding ♠9 (played in trick 11)'
>>> describe_violation({"rule": "x", "detail": "seat 2 did something new in trick 3"}, names)
{'zh': '西 did something new in trick 4', 'en': '西 did something new in trick 4', 'parsed': False}
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from tuolaji.scorer.cards import RANKS, SUIT_SYMBOLS, pretty_card
from tuolaji.scorer.order import SUIT_LABELS
from tuolaji.scorer.profiles import RulesError, parse_requirement
from tuolaji.scorer.violation_text import cards_text, detail, penalty_detail, unit_text
from tuolaji.scorer.violations import (
    AttemptCardNotHeld,
    AttemptSingle,
    AttemptStands,
    AttemptUnproven,
    Beaten,
    BidAfterKitty,
    BidLosingSide,
    BidNotABid,
    BidNotHeld,
    BidNoWinnerLevel,
    BidSelfOvercall,
    BidTooLow,
    BidTooManyCopies,
    CardNotInHand,
    CardTooMany,
    CountFollow,
    DealerNotWinner,
    DealerRotation,
    DealerWrongLevel,
    EmptyLead,
    Evidence,
    Fact,
    FriendCallCopy,
    FriendCallTrump,
    KittySize,
    LeaderNotDealer,
    LeaderNotWinner,
    MixedAttempt,
    MixedLead,
    NoBid,
    Penalty,
    PenaltyFact,
    Revoke,
    RulingFact,
    ThrowStood,
    Violation,
    WrongFirstDealer,
    WrongForcedUnit,
    WrongFormat,
    WrongFriendsDealer,
    WrongTrump,
)
from tuolaji.web.i18n import STRINGS

Text = dict[str, str]

SUIT = r"(?:[♠♥♣♦]|trump)"
REQUIREMENT = r"(?:\[\d+(?:,\d+)*\](?:×\d+)?)+"

BID_ORDERS_ZH = {"two-deck": "两副牌", "titanic": "三副牌（泰坦尼克）", "count": "比张数", "chaodipi": "炒地皮"}
FIRST_DEALER = {"first-bidder": ("先亮主的人", "the first bidder"),
                "winning-bidder": ("亮主最大的人", "the winning bidder")}
FORCED_UNIT = {"lowest-beaten": ("被管住的最小一手", "the lowest beaten unit"),
               "largest-beaten": ("被管住的最大一手", "the largest beaten unit"),
               "smallest-beaten": ("被管住的最小一手", "the smallest beaten unit")}


class UnknownTemplateError(ValueError):
    """A scorer text that matches none of the templates this module knows."""


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


class _Words:
    """Renders the parts of a scorer text (seats, tricks, cards, suits, evidence) in both languages."""

    def __init__(self, players: Sequence[str]) -> None:
        self.players = list(players)

    def seat(self, number: str | int) -> str:
        seat = int(number)
        return str(self.players[seat]) if 0 <= seat < len(self.players) else f"#{seat}"

    @staticmethod
    def cards_zh(text: str) -> str:
        """Cards (space-separated, or a unit run together) with the jokers in Chinese."""
        return text.replace("SJ", "小王").replace("BJ", "大王")

    @staticmethod
    def suit(label: str) -> Text:
        return {"zh": "主牌", "en": "trump"} if label == "trump" else {"zh": label, "en": label}

    @staticmethod
    def trump(letter: str) -> Text:
        if letter == "NT":
            return {"zh": "无主", "en": "no trump"}
        return {"zh": SUIT_SYMBOLS[letter] + " 为主", "en": SUIT_SYMBOLS[letter] + " trump"}

    def evidence(self, evidence: Evidence) -> Text:
        """Where held cards show up (:class:`scorer.violations.Evidence`), tricks counted from 1."""
        zh, en = [], []
        if evidence.played:
            numbers = [t + 1 for t in evidence.played]
            current = [t == evidence.trick for t in evidence.played]
            earlier_or_later = [str(n) for n, this in zip(numbers, current, strict=True) if not this]
            where = (["本墩"] if any(current) else []) + (
                [f"第 {'、'.join(earlier_or_later)} 墩"] if earlier_or_later else [])
            zh.append("、".join(where) + "打出")
            labels = [f"{n} (this trick)" if this else str(n) for n, this in zip(numbers, current, strict=True)]
            en.append(("played in trick " if len(labels) == 1 else "played in tricks ") + ", ".join(labels))
        if evidence.attempt is not None:
            zh.append(f"第 {evidence.attempt + 1} 墩甩牌时亮出")
            en.append(f"shown in the attempt of trick {evidence.attempt + 1}")
        if evidence.hand or not en:
            zh.append("记录的手牌里有")
            en.append("in the recorded hand")
        return {"zh": "；".join(zh), "en": "; ".join(en)}

    def beaten(self, beaten: Sequence[Beaten]) -> Text:
        """The beaten units of a throw, who beats each with what, and the evidence."""
        zh, en = [], []
        for b in beaten:
            why = self.evidence(b.evidence)
            name, unit, by = self.seat(b.seat), unit_text(b.unit), unit_text(b.by)
            zh.append(f"{self.cards_zh(unit)} 被 {name} 的 {self.cards_zh(by)} 管住（{why['zh']}）")
            en.append(f"{unit} beaten by {name}'s {by} ({why['en']})")
        return {"zh": "；".join(zh), "en": "; ".join(en)}


SHAPE_WORDS_ZH = {(1, 1): "单张", (2, 1): "对子", (3, 1): "三张", (4, 1): "四张", (2, 2): "拖拉机", (3, 2): "泰坦尼克"}
SHAPE_WORDS_EN = {(1, 1): "single", (2, 1): "pair", (3, 1): "triple", (4, 1): "quad", (2, 2): "tractor",
                  (3, 2): "泰坦尼克 (two running triples)"}


def requirement_words(text: str) -> Text:
    """A follow requirement in the scorer's bracket notation, in words.

    >>> requirement_words("[2][1]×4")
    {'zh': '对子 + 4 张单牌', 'en': 'a pair + 4 singles'}
    >>> requirement_words("[2,2,2]")
    {'zh': '3 连对拖拉机', 'en': 'a tractor of 3 pairs'}
    """
    try:
        shapes = parse_requirement(text)
    except RulesError as exc:
        raise UnknownTemplateError(text) from exc
    return shapes_words(shapes)


def shapes_words(requirement: Sequence[tuple[int, int]]) -> Text:
    """A follow requirement (its shapes, :data:`scorer.profiles.Requirement`) in words, widest first."""
    shapes = sorted(requirement, key=lambda s: (s[0] * s[1], s[0]), reverse=True)
    counts: dict[tuple[int, int], int] = {}
    for shape in shapes:
        counts[shape] = counts.get(shape, 0) + 1
    zh, en = [], []
    for (width, length), count in counts.items():
        if (width, length) in SHAPE_WORDS_ZH:
            name_zh, name_en = SHAPE_WORDS_ZH[width, length], SHAPE_WORDS_EN[width, length]
        elif length == 1:
            name_zh, name_en = f"{width} 张相同", f"{width} of a kind"
        elif width == 2:
            name_zh, name_en = f"{length} 连对拖拉机", f"tractor of {length} pairs"
        else:
            name_zh, name_en = f"{length} 连{width}张", f"run of {length} × {width} of a kind"
        if (width, length) == (1, 1):
            zh.append("单张" if count == 1 else f"{count} 张单牌")
            en.append("a single" if count == 1 else f"{count} singles")
        elif count == 1:
            zh.append(name_zh)
            en.append(("an " if name_en[0] in "aeiou" else "a ") + name_en)
        else:
            zh.append(f"{count} 个{name_zh}")
            en.append(f"{count} × {name_en}")
    return {"zh": " + ".join(zh), "en": " + ".join(en)}


# --- the audit's findings, from their data (scorer.violations) ------------------------------------

FactRender = Callable[[_Words, Any], Text]
_FACTS: dict[type[Fact], FactRender] = {}
F = TypeVar("F", bound=Fact)


def _fact(kind: type[F]) -> Callable[[Callable[[_Words, F], Text]], Callable[[_Words, F], Text]]:
    """Register the words of one kind of finding."""

    def register(render: Callable[[_Words, F], Text]) -> Callable[[_Words, F], Text]:
        _FACTS[kind] = render
        return render

    return register


def _bid(f: BidAfterKitty | BidNotABid | BidSelfOvercall | BidTooLow | BidLosingSide | BidTooManyCopies
         | BidNoWinnerLevel | BidNotHeld) -> tuple[int, str]:
    return f.bid + 1, cards_text(f.cards)


@_fact(BidAfterKitty)
def bid_after_kitty(w: _Words, f: BidAfterKitty) -> Text:
    i, cards = _bid(f)
    return {"zh": f"第 {i} 次亮主（{w.cards_zh(cards)}）在扣底之后：本规则不能炒地皮",
            "en": f"bid {i} ({cards}) came after the kitty: these rules have no 炒地皮"}


@_fact(BidNotABid)
def bid_not_a_bid(w: _Words, f: BidNotABid) -> Text:
    i, cards = _bid(f)
    if f.bid_order not in BID_ORDERS_ZH:
        raise UnknownTemplateError(f.bid_order)
    return {"zh": f"第 {i} 次亮主（{w.cards_zh(cards)}）按{BID_ORDERS_ZH[f.bid_order]}的亮主规则不算亮主",
            "en": f"bid {i} ({cards}) is not a bid under the {f.bid_order} bid order"}


@_fact(BidSelfOvercall)
def bid_self_overcall(w: _Words, f: BidSelfOvercall) -> Text:
    i, cards = _bid(f)
    name = w.seat(f.seat)
    return {"zh": f"第 {i} 次亮主（{w.cards_zh(cards)}）：{name} 不能自己反自己",
            "en": f"bid {i} ({cards}): {name} overcalls his own bid"}


@_fact(BidTooLow)
def bid_too_low(w: _Words, f: BidTooLow) -> Text:
    i, cards = _bid(f)
    return {"zh": f"第 {i} 次亮主（{w.cards_zh(cards)}）没有大过已亮的主",
            "en": f"bid {i} ({cards}) does not overcall the standing bid"}


@_fact(NoBid)
def bid_none(w: _Words, f: NoBid) -> Text:
    trump = w.trump(f.trump)
    return {"zh": f"没人亮主：这副应打无主，不是 {trump['zh']}",
            "en": f"no bid: the deal is played in no trump, not {trump['en']}"}


@_fact(WrongTrump)
def bid_wrong_trump(w: _Words, f: WrongTrump) -> Text:
    want, trump = w.trump(f.want), w.trump(f.trump)
    return {"zh": f"亮主结果是{want['zh']}，记录里却是{trump['zh']}",
            "en": f"the winning bid makes {want['en']}, the deal says {trump['en']}"}


@_fact(WrongFirstDealer)
def bid_first_dealer(w: _Words, f: WrongFirstDealer) -> Text:
    if f.how not in FIRST_DEALER:
        raise UnknownTemplateError(f.how)
    how_zh, how_en = FIRST_DEALER[f.how]
    want, seat = w.seat(f.want), w.seat(f.seat)
    return {"zh": f"第一副的庄家应是 {want}（{how_zh}），不是 {seat}",
            "en": f"the first dealer should be {want} ({how_en}), not {seat}"}


def _seats(w: _Words, seats: Sequence[int]) -> tuple[str, str]:
    names = [w.seat(x) for x in seats]
    return "、".join(names), ", ".join(names)


@_fact(BidLosingSide)
def bid_losing_side(w: _Words, f: BidLosingSide) -> Text:
    i, cards = _bid(f)
    name = w.seat(f.seat)
    zh, en = _seats(w, f.winners)
    return {"zh": f"第 {i} 次亮主（{w.cards_zh(cards)}）：{name} 不是上一副赢的一方（{zh}），不能亮主",
            "en": f"bid {i} ({cards}): {name} is not on the side that won the last deal ({en})"}


@_fact(BidTooManyCopies)
def bid_too_many_copies(w: _Words, f: BidTooManyCopies) -> Text:
    i, cards = _bid(f)
    card = pretty_card(f.card)
    return {"zh": f"第 {i} 次亮主（{w.cards_zh(cards)}）亮了 {f.copies} 张 {w.cards_zh(card)}，{f.decks} 副牌只有 {f.decks} 张",
            "en": f"bid {i} ({cards}) shows {f.copies} copies of {card}; {_plural(f.decks, 'deck')} hold {f.decks}"}


@_fact(BidNoWinnerLevel)
def bid_no_winner_level(w: _Words, f: BidNoWinnerLevel) -> Text:
    i, cards = _bid(f)
    return {"zh": f"第 {i} 次亮主（{w.cards_zh(cards)}）亮的不是赢的一方任何人打的级牌",
            "en": f"bid {i} ({cards}) shows a level no player of the winning side is at"}


@_fact(BidNotHeld)
def bid_not_held(w: _Words, f: BidNotHeld) -> Text:
    i, cards = _bid(f)
    name, card = w.seat(f.seat), pretty_card(f.card)
    recorded = f.source == "hand"
    source_zh = ("记录的手牌" if recorded else "他打出的牌") + ("和底牌" if f.kitty else "")
    source_en = ("the recorded hand" if recorded else "his plays") + (" and the kitty" if f.kitty else "")
    return {"zh": f"第 {i} 次亮主（{w.cards_zh(cards)}）亮了 {f.copies} 张 {w.cards_zh(card)}，"
                  f"{name} 只有 {f.held} 张（{source_zh}）",
            "en": f"bid {i} ({cards}) shows {f.copies} {card}; {name} holds {f.held} ({source_en})"}


@_fact(WrongFriendsDealer)
def bid_wrong_friends_dealer(w: _Words, f: WrongFriendsDealer) -> Text:
    want, seat = w.seat(f.want), w.seat(f.seat)
    return {"zh": f"放的是 {want} 的级牌，应由 {want} 做庄，不是 {seat}",
            "en": f"the winning bid makes {want} the dealer, not {seat}"}


@_fact(DealerRotation)
def dealer_rotation(w: _Words, f: DealerRotation) -> Text:
    seat, want, i, j = w.seat(f.seat), w.seat(f.want), f.deal + 1, f.after + 1
    return {"zh": f"第 {i} 副由 {seat} 做庄；第 {j} 副之后应由 {want} 做庄",
            "en": f"{seat} deals deal {i}; {want} deals after deal {j}"}


@_fact(DealerNotWinner)
def dealer_not_winner(w: _Words, f: DealerNotWinner) -> Text:
    seat, i, j = w.seat(f.seat), f.deal + 1, f.after + 1
    zh, en = _seats(w, f.winners)
    return {"zh": f"第 {i} 副由 {seat} 做庄；第 {j} 副赢的一方是 {zh}，庄家应出自这一方",
            "en": f"{seat} deals deal {i}; the side that won deal {j} is {en}"}


@_fact(DealerWrongLevel)
def dealer_wrong_level(w: _Words, f: DealerWrongLevel) -> Text:
    seat, i, level, own = w.seat(f.seat), f.deal + 1, RANKS[f.level], RANKS[f.own]
    return {"zh": f"第 {i} 副打 {level}，但庄家 {seat} 打的是 {own}",
            "en": f"deal {i} is played at level {level}; its dealer, {seat}, is at level {own}"}


@_fact(FriendCallTrump)
def friend_call_trump(w: _Words, f: FriendCallTrump) -> Text:
    k, card = f.call + 1, pretty_card(f.card)
    return {"zh": f"第 {k} 张朋友牌 {w.cards_zh(card)} 是主牌：叫朋友只能叫副牌",
            "en": f"friend card {k} ({card}) is a trump: only off-suit cards are called"}


@_fact(FriendCallCopy)
def friend_call_copy(w: _Words, f: FriendCallCopy) -> Text:
    k, card, decks = f.call + 1, pretty_card(f.card), f.decks
    return {"zh": f"第 {k} 张朋友牌叫第 {f.nth} 张 {w.cards_zh(card)}，{decks} 副牌只有 {decks} 张",
            "en": f"friend card {k} (copy {f.nth} of {card}): {_plural(decks, 'deck')} hold {decks}"}


@_fact(KittySize)
def kitty_size(w: _Words, f: KittySize) -> Text:
    return {"zh": f"底牌有 {f.size} 张；本规则扣 {f.buried} 张",
            "en": f"the kitty holds {f.size} cards; these rules bury {f.buried}"}


@_fact(LeaderNotDealer)
def leader_first(w: _Words, f: LeaderNotDealer) -> Text:
    name = w.seat(f.seat)
    return {"zh": f"{name} 首出；第一墩应由庄家首出", "en": f"{name} led; the dealer leads the first trick"}


@_fact(LeaderNotWinner)
def leader_not_winner(w: _Words, f: LeaderNotWinner) -> Text:
    name, winner, t = w.seat(f.seat), w.seat(f.winner), f.won + 1
    return {"zh": f"{name} 首出；第 {t} 墩是 {winner} 大，应由 {winner} 首出",
            "en": f"{name} led; {winner} won trick {t}"}


@_fact(CardTooMany)
def card_too_many(w: _Words, f: CardTooMany) -> Text:
    card, decks, played = pretty_card(f.card), f.decks, f.played
    kitty = {"zh": f"，底牌里还有 {f.kitty} 张", "en": f" and {f.kitty} in the kitty"} if f.kitty else {"zh": "", "en": ""}
    return {"zh": f"{w.cards_zh(card)} 已出了 {played} 张{kitty['zh']}，{decks} 副牌只有 {decks} 张",
            "en": f"{card}: {_plural(played, 'copy').replace('copys', 'copies')} played{kitty['en']}, "
                  f"{_plural(decks, 'deck')} hold {decks}"}


@_fact(CardNotInHand)
def card_not_in_hand(w: _Words, f: CardNotInHand) -> Text:
    name, card = w.seat(f.seat), pretty_card(f.card)
    return {"zh": f"{name} 出了 {w.cards_zh(card)}，但记录的手牌里没有这张",
            "en": f"{name} played {card}, which is not in the recorded hand"}


@_fact(AttemptCardNotHeld)
def card_attempt_not_in_hand(w: _Words, f: AttemptCardNotHeld) -> Text:
    name, card = w.seat(f.seat), pretty_card(f.card)
    return {"zh": f"{name} 甩牌时亮出 {w.cards_zh(card)}，但" + ("记录的手牌里没有这张" if f.recorded
                                                              else "手里没有这张（始终没打出）"),
            "en": f"{name} attempted {card}, which is not in " + ("the recorded hand" if f.recorded
                                                                   else "his hand (never played)")}


@_fact(EmptyLead)
def count_empty_lead(w: _Words, f: EmptyLead) -> Text:
    name = w.seat(f.seat)
    return {"zh": f"{name} 首出却没有出牌", "en": f"{name} led no cards"}


@_fact(CountFollow)
def count_follow(w: _Words, f: CountFollow) -> Text:
    name, n, k = w.seat(f.seat), f.played, f.led
    return {"zh": f"{name} 出了 {n} 张，首家出的是 {k} 张", "en": f"{name} played {_plural(n, 'card')} to a lead of {k}"}


@_fact(MixedLead)
def mixed_lead(w: _Words, f: MixedLead) -> Text:
    name, cards = w.seat(f.seat), cards_text(f.cards)
    suits = [w.suit(SUIT_LABELS[s]) for s in f.suits]
    return {"zh": f"{name} 首出 {w.cards_zh(cards)}，混了{'、'.join(s['zh'] for s in suits)}",
            "en": f"{name} led {cards} mixing {', '.join(s['en'] for s in suits)}"}


@_fact(MixedAttempt)
def mixed_attempt(w: _Words, f: MixedAttempt) -> Text:
    name, cards = w.seat(f.seat), cards_text(f.cards)
    return {"zh": f"{name} 甩 {w.cards_zh(cards)}，混了花色", "en": f"{name} attempted {cards} mixing suits"}


@_fact(Revoke)
def revoke(w: _Words, f: Revoke) -> Text:
    name, suit, why = w.seat(f.seat), w.suit(SUIT_LABELS[f.suit]), w.evidence(f.evidence)
    played, held = cards_text(f.played), cards_text(f.held)
    return {"zh": f"{name} 未跟 {suit['zh']}：出了 {w.cards_zh(played)}，但手里有 {w.cards_zh(held)}（{why['zh']}）",
            "en": f"{name} did not follow {suit['en']}: played {played} while holding {held} ({why['en']})"}


@_fact(WrongFormat)
def wrong_format(w: _Words, f: WrongFormat) -> Text:
    name, why, req = w.seat(f.seat), w.evidence(f.evidence), shapes_words(f.requirement)
    lead, played, units = cards_text(f.lead), cards_text(f.played), " ".join(unit_text(u) for u in f.units)
    return {"zh": f"首家出 {w.cards_zh(lead)}，{name} 出了 {w.cards_zh(played)}，"
                  f"但手里有 {w.cards_zh(units)}，应跟{req['zh']}（{why['zh']}）",
            "en": f"{lead} led; {name} played {played} but held {units} for {req['en']} ({why['en']})"}


@_fact(ThrowStood)
def throw_stood(w: _Words, f: ThrowStood) -> Text:
    beaten, cards, unit = w.beaten(f.beaten), cards_text(f.cards), unit_text(f.forced)
    return {"zh": f"甩 {w.cards_zh(cards)} 被当作成功，但{beaten['zh']}；首家只该出 {w.cards_zh(unit)}",
            "en": f"throw {cards} stood but {beaten['en']}; the leader should have played {unit}"}


@_fact(AttemptSingle)
def attempt_single(w: _Words, f: AttemptSingle) -> Text:
    cards = cards_text(f.cards)
    return {"zh": f"甩牌 {w.cards_zh(cards)} 只是一手牌，不算甩牌",
            "en": f"the attempt {cards} is a single unit, not a throw"}


@_fact(AttemptStands)
def attempt_stands(w: _Words, f: AttemptStands) -> Text:
    cards = cards_text(f.cards)
    return {"zh": f"甩牌 {w.cards_zh(cards)} 本该成功：没人管得住其中任何一手",
            "en": f"the attempted throw {cards} stands: nobody could beat any of its units"}


@_fact(AttemptUnproven)
def attempt_unproven(w: _Words, f: AttemptUnproven) -> Text:
    cards = cards_text(f.cards)
    return {"zh": f"甩牌 {w.cards_zh(cards)} 还不能证明失败",
            "en": f"the attempted throw {cards} is not yet shown to fail"}


@_fact(WrongForcedUnit)
def forced_unit(w: _Words, f: WrongForcedUnit) -> Text:
    if f.how not in FORCED_UNIT:
        raise UnknownTemplateError(f.how)
    how_zh, how_en = FORCED_UNIT[f.how]
    beaten, name = w.beaten(f.beaten), w.seat(f.seat)
    cards, unit, played = cards_text(f.cards), unit_text(f.forced), cards_text(f.played)
    return {"zh": f"甩 {w.cards_zh(cards)} 失败（{beaten['zh']}）：应出 {w.cards_zh(unit)}（{how_zh}），"
                  f"{name} 却出了 {w.cards_zh(played)}",
            "en": f"failed throw {cards} ({beaten['en']}): the forced unit is {unit} ({how_en}), "
                  f"{name} played {played}"}


FACT_SENTENCES: frozenset[str] = frozenset(kind.sentence for kind in _FACTS)
"""The sentence of every kind of violation this module words (tests check each is met)."""


def explain_fact(fact: Fact, players: Sequence[str]) -> Text:
    """A finding in Chinese and the page's English (strict: :class:`UnknownTemplateError` for a
    kind or option value this module has no words for)."""
    render = _FACTS.get(type(fact))
    if render is None:
        raise UnknownTemplateError(type(fact).__name__)
    return render(_Words(players), fact)


OFFENCES: dict[str, tuple[str, str]] = {"discard": ("垫错", "wrong discard"), "trumping": ("毙牌出错", "wrong trumping"),
                                        "kitty": ("留底差错", "wrong kitty"), "card-count": ("多牌少牌", "wrong card count")}


def explain_penalty(fact: PenaltyFact | RulingFact, players: Sequence[str] = ()) -> Text:
    """A penalty in Chinese and the page's English.

    >>> explain_penalty(PenaltyFact("discard", "points", wrong=2, per=10))["zh"]
    '垫错：2 张 × 10 分'
    >>> explain_penalty(RulingFact(0, "must-follow-suit", 20, 0))["zh"]
    '裁定（未跟花色）：罚 20 分'
    """
    if isinstance(fact, RulingFact):
        label = STRINGS.get(f"rule.{fact.rule}") if fact.rule else None
        what_zh = f"裁定（{label['zh']}）" if label else "裁定"
        what_en = f"ruling ({label['en']})" if label else "ruling"
        if fact.levels:
            return {"zh": f"{what_zh}：违规方降 {fact.levels} 级",
                    "en": f"{what_en}: the offender's side loses {_plural(fact.levels, 'level')}"}
        return {"zh": f"{what_zh}：罚 {fact.points} 分", "en": f"{what_en}: {fact.points} points"}
    w = _Words(players)
    if fact.offence == "throw":
        cards = cards_text(fact.cards)
        what_zh, what_en = f"甩 {w.cards_zh(cards)} 失败", f"failed throw {cards}"
        if fact.mode == "points":
            return {"zh": f"{what_zh}：{fact.wrong} 张被管住 × {fact.per} 分",
                    "en": f"{what_en}: {_plural(fact.wrong, 'stuck card')} × {fact.per}"}
        if fact.mode == "level-points":
            return {"zh": f"{what_zh}：一次性扣一级的分（{fact.points} 分）",
                    "en": f"{what_en}: one level's worth of points ({fact.points})"}
        return {"zh": f"{what_zh}：甩牌方降一级", "en": f"{what_en}: the thrower's side loses one level"}
    zh, en = OFFENCES[fact.offence]
    if fact.mode == "points":
        return {"zh": f"{zh}：{fact.wrong} 张 × {fact.per} 分", "en": f"{en}: {_plural(fact.wrong, 'wrong card')} × {fact.per}"}
    if fact.mode == "level-points":
        return {"zh": f"{zh}：扣一级的分（{fact.points} 分）", "en": f"{en}: one level's worth of points ({fact.points})"}
    return {"zh": f"{zh}：违规方降一级", "en": f"{en}: the offender's side loses one level"}


# --- the scorer's other texts (the follow hint, the lead's obligation, errors) ------------------------

Render = Callable[[_Words, dict[str, str]], Text]
_TEMPLATES: list[tuple[str, str, re.Pattern[str], Render]] = []


def _template(rule: str, pattern: str) -> Callable[[Render], Render]:
    """Register a renderer for one scorer text that is not a finding (a hint, an obligation, an error)."""

    def register(render: Render) -> Render:
        _TEMPLATES.append((rule, render.__name__, re.compile(pattern), render))
        return render

    return register


@_template("hint", rf"no (?P<suit>{SUIT}) left: play any (?P<n>\d+) cards?")
def hint_none_left(w: _Words, g: dict[str, str]) -> Text:
    suit, n = w.suit(g["suit"]), int(g["n"])
    return {"zh": f"没有{suit['zh']}了：任出 {n} 张", "en": f"no {suit['en']} left: play any {_plural(n, 'card')}"}


@_template("hint", rf"play all (?P<held>\d+) (?P<suit>{SUIT}) cards?(?: and any (?P<extra>\d+) more)?")
def hint_play_all(w: _Words, g: dict[str, str]) -> Text:
    suit, held = w.suit(g["suit"]), int(g["held"])
    extra = int(g["extra"]) if g["extra"] else 0
    return {"zh": f"须出全部 {held} 张{suit['zh']}" + (f"，再任垫 {extra} 张" if extra else ""),
            "en": f"play all {held} {suit['en']} card{'s' if held != 1 else ''}" + (f" and any {extra} more" if extra else "")}


@_template("hint", rf"follow (?P<suit>{SUIT}) with (?P<n>\d+) cards?(?:: (?P<req>{REQUIREMENT})(?: \(.+\))?)?")
def hint_follow(w: _Words, g: dict[str, str]) -> Text:
    suit, n = w.suit(g["suit"]), int(g["n"])
    text = {"zh": f"跟 {n} 张{suit['zh']}", "en": f"follow {suit['en']} with {_plural(n, 'card')}"}
    if g["req"] and not re.fullmatch(r"(?:\[1\])+(?:×\d+)?", g["req"]):  # "any n of the suit" needs no words
        req = requirement_words(g["req"])
        text = {"zh": text["zh"] + f"，须出{req['zh']}", "en": text["en"] + f": {req['en']}"}
    return text


# --- the obligation of a lead, without hands (scorer.describe_obligation) ----------------------

_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
            "nine": 9, "ten": 10}
_LABEL = r"(?:[♠♥♣♦]|trumps?)"
_NOUN = r"(?:pairs?|triples?|quads?|泰坦尼克s?|tractors? of \d+ (?:pairs|triples|quads))"
_ITEM = rf"(?P<n>a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d+) (?P<other>other )?(?P<label>{_LABEL})(?: (?P<noun>{_NOUN}))?"


def _label(text: str) -> Text:
    return {"zh": "主牌", "en": "trump"} if text.startswith("trump") else {"zh": text, "en": text}


def _noun_zh(noun: str) -> str:
    base = noun.rstrip("s") if not noun.startswith("tractor") else noun
    m = re.fullmatch(r"tractors? of (\d+) (pair|triple|quad)s", base)
    if m:
        return "拖拉机" if m.group(1) == "2" and m.group(2) == "pair" else (
            f"{m.group(1)} 连对拖拉机" if m.group(2) == "pair" else f"{m.group(1)} 连{'三' if m.group(2) == 'triple' else '四'}张")
    return {"pair": "对子", "triple": "三张", "quad": "四张", "泰坦尼克": "泰坦尼克"}[base]


def _rung_zh(text: str) -> str:
    parts = []
    for item in re.split(r", | and ", text):
        m = re.fullmatch(_ITEM, item)
        if not m:
            raise UnknownTemplateError(item)
        n = _NUMBERS.get(m["n"]) or int(m["n"])
        label = _label(m["label"])["zh"]
        if m["noun"]:
            parts.append(f"{'' if n == 1 else f'{n} 个'}{label}{_noun_zh(m['noun'])}")
        else:
            parts.append(f"{'另 ' if m['other'] else ''}{n} 张{label}")
    return " + ".join(parts)


@_template("obligation", r"mixed lead: play any (?P<n>\d+|[a-z]+) cards?")
def obligation_mixed(w: _Words, g: dict[str, str]) -> Text:
    n = _NUMBERS.get(g["n"]) or int(g["n"])
    return {"zh": f"首家混出：任出 {n} 张", "en": f"mixed lead: play any {g['n']} card{'s' if n != 1 else ''}"}


@_template("obligation", rf"(?P<label>{_LABEL}) single led: play one (?P=label) if you hold one, else any card")
def obligation_single(w: _Words, g: dict[str, str]) -> Text:
    label = _label(g["label"])
    return {"zh": f"首家出{label['zh']}单张：有{label['zh']}须跟一张，没有可任出一张",
            "en": f"{label['en']} single led: play one {label['en']} if you hold one, else any card"}


@_template("obligation", rf"(?P<label>{_LABEL}) (?P<what>.+?) led: play (?P<first>.+?)(?: if you hold (?P<hold>one|them)"
                         r"(?: \((?P<note>[a-z ]+)\))?)?(?P<rest>(?:, else .+?)*), else all your (?P<labels>\S+) and any other cards")
def obligation_ladder(w: _Words, g: dict[str, str]) -> Text:
    label = _label(g["label"])
    rungs = [g["first"]] + [r for r in g["rest"].split(", else ") if r]
    zh_rungs = [_rung_zh(r) for r in rungs]
    notes = {"": "", "a triple counts": "（三张可拆）", "a quad counts": "（四张可拆）",
             "a triple or a quad counts": "（三张、四张可拆）", "not carved from a wider tuple": "（不能从更多张里拆）"}
    if g["note"] not in notes:
        raise UnknownTemplateError(g["note"])
    what = "甩牌" if g["what"].startswith("throw") else _noun_zh(g["what"])
    first = f"有{zh_rungs[0]}须跟{notes[g['note']]}" if g["hold"] else f"须出{zh_rungs[0]}"
    zh = (f"首家出{label['zh']}{what}：{first}"
          + "".join(f"，否则 {r}" for r in zh_rungs[1:]) + f"，再否则出全部{label['zh']}并任垫")
    note = f" ({g['note']})" if g["note"] else ""
    hold = f" if you hold {g['hold']}{note}" if g["hold"] else ""
    en = f"{label['en']} {g['what']} led: play {g['first']}{hold}{g['rest']}, else all your {g['labels']} and any other cards"
    return {"zh": zh, "en": en}


def describe_obligation(text: str, players: Sequence[str] = ()) -> dict[str, Any]:
    """``{"zh", "en", "parsed"}`` for a :func:`scorer.describe_obligation` text; never raises.

    >>> describe_obligation("♥ pair led: play a ♥ pair if you hold one (a triple counts), else two ♥, "
    ...                     "else all your ♥ and any other cards")["zh"]
    '首家出♥对子：有♥对子须跟（三张可拆），否则 2 张♥，再否则出全部♥并任垫'
    """
    return _describe("obligation", text, players)


# --- the page's own error messages (API answers a person can cause from the page) -----------------


@_template("error", r"deals\[\d+\]\.tricks\[(?P<t>\d+)\]: seat (?P<seat>\d+) played but seat (?P<want>\d+) is to play")
def error_out_of_turn(w: _Words, g: dict[str, str]) -> Text:
    t, seat, want = int(g["t"]) + 1, w.seat(g["seat"]), w.seat(g["want"])
    return {"zh": f"第 {t} 墩：该 {want} 出牌，不是 {seat}", "en": f"trick {t}: {want} is to play, not {seat}"}


@_template("error", r"deals\[\d+\]\.tricks\[(?P<t>\d+)\]: seat (?P<seat>\d+) has no card (?P<i>\d+)")
def error_no_such_card(w: _Words, g: dict[str, str]) -> Text:
    t, seat, i = int(g["t"]) + 1, w.seat(g["seat"]), int(g["i"]) + 1
    return {"zh": f"第 {t} 墩：{seat} 没有第 {i} 张牌", "en": f"trick {t}: {seat} has no card {i}"}


@_template("error", r"[a-z_]+(?:\[\d+\])?: unknown card (?P<card>.*)")
def error_unknown_card(w: _Words, g: dict[str, str]) -> Text:
    card = g["card"]
    return {"zh": f"不认识的牌 {card}（可写 10H、♠A、BJ）", "en": f"unknown card {card} (write 10H, ♠A, BJ)"}


_FIXED_ERRORS: dict[str, Text] = {
    "no table session is open: set up a table or resume a session":
        {"zh": "还没有牌局：请先设置牌桌，或继续一局", "en": "no table session is open: set up a table or resume a session"},
    "next deal: the current deal is not complete": {"zh": "这一副还没打完", "en": "the current deal is not complete"},
    "next deal: the game is over": {"zh": "整局已经结束", "en": "the game is over"},
    "bid: the deal has started": {"zh": "这一副已经开始出牌，不能再亮主", "en": "the deal has started: no more bids"},
    "deal: the deal has started; correct single cards instead":
        {"zh": "这一副已经开始出牌：请逐张更正", "en": "the deal has started; correct single cards instead"},
    "cards: a play has at least one card": {"zh": "请至少输入一张牌", "en": "a play has at least one card"},
    "cards: a bid shows at least one card": {"zh": "亮主至少亮一张牌", "en": "a bid shows at least one card"},
    "levels: partners (seats 0/2 and 1/3) share one level":
        {"zh": "对家（座位 0/2、1/3）级数必须相同", "en": "partners (seats 0/2 and 1/3) share one level"},
    "name: expected a non-empty name": {"zh": "请填写名称", "en": "the name is empty"},
    "players: expected a list of names": {"zh": "请填写每位玩家的名字", "en": "every player needs a name"},
    "import: expected a game record (a JSON object)":
        {"zh": "导入的不是牌局记录（应是一个 JSON 对象）", "en": "not a game record (a JSON object)"},
}


@_template("error", "(?P<text>" + "|".join(re.escape(text) for text in _FIXED_ERRORS) + ")")
def error_fixed(w: _Words, g: dict[str, str]) -> Text:
    return dict(_FIXED_ERRORS[g["text"]])


@_template("error", r"players: (?P<profile>[a-z0-9-]+) is played by \[(?P<counts>[\d, ]+)\] players, got (?P<n>\d+)")
def error_player_count(w: _Words, g: dict[str, str]) -> Text:
    from .i18n import STRINGS

    counts = g["counts"].split(", ")
    name = STRINGS.get("profile." + g["profile"], {"zh": g["profile"], "en": g["profile"]})
    return {"zh": f"{name['zh']} 要 {'、'.join(counts)} 人玩，现在是 {g['n']} 人",
            "en": f"{name['en']} is played by {' or '.join(counts)} players, not {g['n']}"}


_PLACE_PARTS = {"deals": ("第 {n} 副", "deal {n}"), "tricks": ("第 {n} 墩", "trick {n}"), "plays": ("第 {n} 手", "play {n}"),
                "hands": ("第 {n} 家的手牌", "hand {n}"), "bids": ("第 {n} 次亮主", "bid {n}"),
                "friends": ("第 {n} 张朋友牌", "friend card {n}"), "start_levels": ("第 {n} 家的起始级数", "starting level {n}")}
_PLACE_FIELDS = {"level": ("级数", "level"), "trump": ("主", "trump"), "dealer": ("庄家", "dealer"), "kitty": ("底牌", "kitty"),
                 "leader": ("首家", "leader"), "attempt": ("甩牌", "attempt"), "cards": ("牌", "cards"),
                 "seat": ("座位", "seat"), "rules": ("规则", "rules"), "players": ("玩家", "players"),
                 "start_levels": ("起始级数", "starting levels"), "tricks": ("出牌", "tricks"), "plays": ("出牌", "plays"),
                 "hands": ("手牌", "hands"), "complete": ("是否打完", "complete"), "card": ("牌", "card"),
                 "nth": ("第几张", "copy"), "bids": ("亮主", "bids"), "friends": ("朋友牌", "friends")}


def _place(text: str) -> Text:
    """A record place (``deals[0].tricks[4].plays[2]``) in words, counting from 1."""
    zh, en = [], []
    for name, index in re.findall(r"([a-z_]+)(?:\[(\d+)\])?", text):
        if index and name in _PLACE_PARTS:
            zh.append(_PLACE_PARTS[name][0].format(n=int(index) + 1))
            en.append(_PLACE_PARTS[name][1].format(n=int(index) + 1))
        elif not index and name in _PLACE_FIELDS:
            zh.append(_PLACE_FIELDS[name][0])
            en.append(_PLACE_FIELDS[name][1])
        else:
            raise UnknownTemplateError(text)
    return {"zh": "".join(zh), "en": ", ".join(en)}


_RECORD_PROBLEMS: list[tuple[re.Pattern[str], str, str]] = [
    (re.compile(r'unknown card (?P<x>".*")'), "不认识的牌 {x}", "unknown card {x}"),
    (re.compile(r'unknown profile (?P<x>".*")'), "没有 {x} 这套规则", "unknown rules {x}"),
    (re.compile(r"missing"), "缺少", "missing"),
    (re.compile(r"expected a list of cards"), "应是一串牌", "expected a list of cards"),
    (re.compile(r"(?P<n>\d+) or more copies of (?P<card>\".*\"), but no decks hold more than (?P<d>\d+)"),
     "{card} 有 {n} 张以上，任何几副牌都不超过 {d} 张", "{n} or more copies of {card}, more than any decks hold ({d})"),
    (re.compile(r"only the last trick may be incomplete \((?P<a>\d+) of (?P<n>\d+) plays\)"),
     "只有最后一墩可以没出完（这墩只有 {a}/{n} 手）", "only the last trick may be incomplete ({a} of {n} plays)"),
]


@_template("error", r"(?P<place>(?:deals|rules|players|start_levels)[a-z_.\[\]\d]*): (?P<problem>.+)")
def error_in_record(w: _Words, g: dict[str, str]) -> Text:
    place = _place(g["place"])
    for pattern, zh, en in _RECORD_PROBLEMS:
        m = pattern.fullmatch(g["problem"])
        if m:
            return {"zh": f"记录有误：{place['zh']}{zh.format(**m.groupdict())}",
                    "en": f"record error in {place['en']}: {en.format(**m.groupdict())}"}
    raise UnknownTemplateError(g["problem"])


@_template("error", r"(?P<file>.+): not valid JSON(?: \(line (?P<line>\d+), column (?P<column>\d+)\)"
                    r"|: .* at line (?P<line2>\d+) column (?P<column2>\d+))")
def error_not_json(w: _Words, g: dict[str, str]) -> Text:
    line, column = g["line"] or g["line2"], g["column"] or g["column2"]
    name = "请求内容" if g["file"] == "request body" else g["file"]
    return {"zh": f"{name} 不是有效的 JSON（第 {line} 行第 {column} 列）",
            "en": f"{g['file']} is not valid JSON (line {line}, column {column})"}


_INPUT_PROBLEMS: list[tuple[re.Pattern[str], str, str]] = [
    (re.compile(r"(?P<n>[\d,]+) bytes, over the limit of (?P<limit>[\d,]+)"), "太大（{n} 字节，上限 {limit}）",
     "too large ({n} bytes, the limit is {limit})"),
    (re.compile(r"not UTF-8 text.*"), "不是 UTF-8 文本", "not UTF-8 text"),
    (re.compile(r"JSON nested deeper than (?P<d>\d+) levels"), "JSON 嵌套超过 {d} 层", "JSON nested deeper than {d} levels"),
    (re.compile(r"an integer of (?P<n>\d+) digits.*"), "数字太长（{n} 位）", "a number of {n} digits"),
    (re.compile(r"(?P<x>-?\d+) is out of range"), "{x} 超出范围", "{x} is out of range"),
    (re.compile(r".*(?: is not a number JSON allows| is out of range)|a number of \d+ characters"),
     "不是有效的数字", "not a valid number"),
    (re.compile(r"(?:.*: )?a lone surrogate.*"), "含有无效字符", "holds an invalid character (a lone surrogate)"),
    (re.compile(r"not valid JSON: .*"), "不是有效的 JSON", "not valid JSON"),
    (re.compile(r"expected a JSON object.*"), "应是一个 JSON 对象", "expected a JSON object"),
    (re.compile(r"expected a whole number.*"), "应是整数", "expected a whole number"),
    (re.compile(r"expected one of (?P<x>.+)"), "应是 {x} 之一", "expected one of {x}"),
    (re.compile(r"(?:unknown profile .*|expected a list of \{card, nth\})"), "不对", "not valid"),
    (re.compile(r"a name of (?P<n>\d+) characters.*"), "名字太长（{n} 个字）", "a name of {n} characters is too long"),
    (re.compile(r"(?P<n>\d+) or more copies of (?P<card>\".*\"), but no decks hold more than (?P<d>\d+)"),
     "{card} 有 {n} 张以上，任何几副牌都不超过 {d} 张", "{n} or more copies of {card}, more than any decks hold ({d})"),
]

_INPUT_PLACES = {"request body": ("请求内容", "the request body"), "file name": ("文件名", "the file name")}


@_template("error", r"(?P<where>[^:]{1,300}): (?P<problem>.+)")
def error_input(w: _Words, g: dict[str, str]) -> Text:
    """Input refused where it is read (a request body, an upload, a field): the place and the problem."""
    where = g["where"]
    zh_where, en_where = _INPUT_PLACES.get(where) or _PLACE_FIELDS.get(where) or (where, where)
    for pattern, zh, en in _INPUT_PROBLEMS:
        m = pattern.fullmatch(g["problem"])
        if m:
            return {"zh": f"{zh_where}：{zh.format(**m.groupdict())}", "en": f"{en_where}: {en.format(**m.groupdict())}"}
    raise UnknownTemplateError(g["problem"])


TEMPLATE_NAMES: tuple[str, ...] = tuple(name for _, name, _, _ in _TEMPLATES)
"""Every template this module reads, by name (tests check that each one is met)."""


def match_template(rule: str, text: str, players: Sequence[str]) -> tuple[str, Text]:
    """The name of the template ``text`` fills and its Chinese and English; raises
    :class:`UnknownTemplateError` if none fits (``rule`` "penalty" and "hint" for those texts)."""
    words = _Words(players)
    for template_rule, name, pattern, render in _TEMPLATES:
        if template_rule != rule:
            continue
        m = pattern.fullmatch(text)
        if m:
            try:
                return name, render(words, {key: value or "" for key, value in m.groupdict().items()})
            except UnknownTemplateError:
                if rule != "error":
                    raise
    raise UnknownTemplateError(f"{rule}: {text}")


def readable_english(text: str, players: Sequence[str]) -> str:
    """The scorer's English with seats as player names and tricks counted from 1 (the fallback).

    >>> readable_english("seat 1's ♠A (played in tricks 3, 4)", ["a", "b"])
    "b's ♠A (played in tricks 4, 5)"
    """
    words = _Words(players)
    text = re.sub(r"\bseat (\d+)\b", lambda m: words.seat(m.group(1)), text)
    return re.sub(r"\b(tricks? )(\d+(?:(?: \(this trick\))?, \d+)*)",
                  lambda m: m.group(1) + re.sub(r"\d+", lambda n: str(int(n.group(0)) + 1), m.group(2)), text)


def _describe(rule: str, text: str, players: Sequence[str]) -> dict[str, Any]:
    try:
        return {**match_template(rule, text, players)[1], "parsed": True}
    except (UnknownTemplateError, KeyError, ValueError, IndexError):
        english = readable_english(text, players)
        return {"zh": english, "en": english, "parsed": False}


def _readable(text: str, players: Sequence[str]) -> dict[str, Any]:
    english = readable_english(text, players)
    return {"zh": english, "en": english, "parsed": False}


def describe_violation(violation: Violation | dict[str, Any], players: Sequence[str]) -> dict[str, Any]:
    """``{"zh", "en", "parsed"}`` for one violation of the audit, from its data
    (:class:`scorer.violations.Violation`); never raises. A violation without its data (an
    audit's dict) or of a kind this module has no words for keeps the scorer's English, seats
    and tricks made readable (``"parsed": False``).

    A text that does not name the violation's seat (a card with too many copies, a bid, the
    kitty) starts with the player's name.

    >>> from tuolaji.scorer.violations import KittySize
    >>> describe_violation(Violation("bad-kitty", None, 2, True, KittySize(6, 8)), ["东", "南", "西", "北"])["zh"]
    '西：底牌有 6 张；本规则扣 8 张'
    """
    if not isinstance(violation, Violation):
        return _readable(str(violation.get("detail", "")), players)
    try:
        described: dict[str, Any] = {**explain_fact(violation.fact, players), "parsed": True}
    except (UnknownTemplateError, KeyError, ValueError, IndexError):
        return _readable(detail(violation.fact), players)
    seat = violation.seat
    if 0 <= seat < len(players):
        name = str(players[seat])
        if name not in described["zh"]:
            described["zh"], described["en"] = f"{name}：{described['zh']}", f"{name}: {described['en']}"
    return described


def describe_penalty(penalty: Penalty | dict[str, Any], players: Sequence[str]) -> dict[str, Any]:
    """``{"zh", "en", "parsed"}`` for one penalty of the audit, from its data
    (:class:`scorer.violations.Penalty`); never raises (an audit's dict keeps the scorer's English)."""
    if not isinstance(penalty, Penalty):
        return _readable(str(penalty.get("detail", "")), players)
    try:
        return {**explain_penalty(penalty.fact, players), "parsed": True}
    except (UnknownTemplateError, KeyError, ValueError, IndexError):
        return _readable(penalty_detail(penalty.fact), players)


def describe_hint(hint: str, players: Sequence[str]) -> dict[str, Any]:
    """``{"zh", "en", "parsed"}`` for a :func:`scorer.follow_hint` text; never raises.

    >>> describe_hint("follow ♥ with 2 cards: [2] (a pair)", [])["zh"]
    '跟 2 张♥，须出对子'
    """
    return _describe("hint", hint, players)


def describe_error(message: str, players: Sequence[str] = ()) -> dict[str, Any]:
    """``{"zh", "en", "parsed"}`` for an error the API answers; never raises.

    >>> describe_error("deals[0].tricks[2]: seat 1 played but seat 3 is to play", ["东", "南", "西", "北"])["zh"]
    '第 3 墩：该 北 出牌，不是 南'
    """
    return _describe("error", message, players)


__all__ = ["FACT_SENTENCES", "TEMPLATE_NAMES", "UnknownTemplateError", "describe_error", "describe_hint",
           "describe_obligation", "describe_penalty", "describe_violation", "explain_fact", "explain_penalty",
           "match_template", "readable_english", "requirement_words", "shapes_words"]
