"""The scorer's words in the page's two languages: violations, penalties, the follow hint,
the lead's obligation and errors.

The audit records each violation and penalty as data (:mod:`scorer.violations`: the cards,
units, seats, tricks and evidence); this module writes that data in Chinese and in the page's
English, with player names and tricks and deals counted from 1 (the scorer's own English,
docs/RECORD.md's ``detail``, is :mod:`scorer.violation_text`). The scorer's other texts are data
too: an error or the follow hint is a key and its parameters (:mod:`scorer.messages`), worded
here from :data:`web.i18n.MESSAGES_ZH`; a lead's obligation is :class:`scorer.follow.Obligation`.
Nothing the scorer writes in English is read back. What this module has no words for (a kind of
finding the scorer gains later, a command's free text) keeps the scorer's English
(``"parsed": False``): the page never loses a detail and never crashes on one.

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
{'zh': 'seat 2 did something new in trick 3', 'en': 'seat 2 did something new in trick 3', 'parsed': False}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypedDict, TypeVar

from tuolaji.scorer.cards import RANKS, SUIT_SYMBOLS, pretty_card
from tuolaji.scorer.errors import InputError
from tuolaji.scorer.follow import Obligation
from tuolaji.scorer.formats import SINGLE
from tuolaji.scorer.messages import FREE_TEXT, MESSAGES_EN, Message, place_parts, render
from tuolaji.scorer.order import SUIT_LABELS
from tuolaji.scorer.record import RecordError
from tuolaji.scorer.violation_text import OFFENCE_EN, cards_text, detail, penalty_detail, unit_text
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
    KittyPointsMismatch,
    KittySize,
    LeaderNotDealer,
    LeaderNotWinner,
    MixedAttempt,
    MixedLead,
    NoBid,
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
    WrongFirstDealer,
    WrongForcedUnit,
    WrongFormat,
    WrongFriendsDealer,
    WrongTrump,
)
from tuolaji.session.history import change_words
from tuolaji.web.cards import card_label
from tuolaji.web.i18n import MESSAGES_PAGE_EN, MESSAGES_ZH, OFFENCES_ZH, PROBLEMS_ZH, STRINGS
from tuolaji.web.security import shown_error

Text = dict[str, str]

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
        return text.replace("SJ", card_label("SJ")).replace("BJ", card_label("BJ"))

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


_POINTS_OF = {"trick": ("这一墩记了", "the trick's"), "defenders": ("闲家得分记了", "the defenders'"),
              "kitty": ("底分记了", "the kitty's")}


@_fact(PointsNotFive)
def points_not_five(w: _Words, f: PointsNotFive) -> Text:
    zh, en = _POINTS_OF[f.what]
    return {"zh": f"{zh} {f.points} 分：分牌只有 5、10、K，分数应是 5 的倍数",
            "en": f"{en} {f.points} points: cards count in fives (5, 10 and K)"}


@_fact(PointsTooMany)
def points_too_many(w: _Words, f: PointsTooMany) -> Text:
    where_zh, where_en = ("一墩记了", "one trick") if f.what == "trick" else ("各墩和底牌一共", "the tricks and the kitty")
    return {"zh": f"{where_zh} {f.points} 分：{f.decks} 副牌一共只有 {100 * f.decks} 分",
            "en": f"{f.points} points in {where_en}: {f.decks} deck{'s' if f.decks != 1 else ''} "
                  f"hold{'s' if f.decks == 1 else ''} {100 * f.decks}"}


@_fact(UnitImpossible)
def unit_impossible(w: _Words, f: UnitImpossible) -> Text:
    return {"zh": f"最后一墩记的赢牌牌型是 {f.unit} 张：{f.decks} 副牌没有 {f.unit} 张的牌型",
            "en": f"the last trick won with a unit of {f.unit} cards: no unit of {f.decks} deck"
                  f"{'s' if f.decks != 1 else ''} has {f.unit}"}


@_fact(UnitMissing)
def unit_missing(w: _Words, f: UnitMissing) -> Text:
    return {"zh": f"最后一墩没有记赢牌的牌型：抠底按单张算（×{f.multiplier}）",
            "en": f"the last trick names no winning unit: the kitty counts as won by a single (×{f.multiplier})"}


@_fact(KittyPointsMismatch)
def kitty_points_mismatch(w: _Words, f: KittyPointsMismatch) -> Text:
    return {"zh": f"记的底分是 {f.points}，底牌的牌却是 {f.cards} 分",
            "en": f"the kitty's points say {f.points}, but its cards hold {f.cards}"}


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


OFFENCES: dict[str, tuple[str, str]] = {offence: (OFFENCES_ZH[offence], OFFENCE_EN[offence]) for offence in OFFENCE_EN}
"""Each penalised offence in Chinese and English (web/i18n.py's ``OFFENCES_ZH``, the scorer's ``OFFENCE_EN``)."""


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
        what_zh, what_en = f"甩 {w.cards_zh(cards)} 失败", f"{OFFENCE_EN['throw']} {cards}"
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


# --- what the scorer says besides findings: errors, the follow hint, the lead's obligation --------------

_PLACE_PARTS = {"deals": ("第 {n} 副", "deal {n}"), "tricks": ("第 {n} 墩", "trick {n}"), "plays": ("第 {n} 手", "play {n}"),
                "hands": ("第 {n} 家的手牌", "hand {n}"), "bids": ("第 {n} 次亮主", "bid {n}"),
                "friends": ("第 {n} 张朋友牌", "friend card {n}"), "start_levels": ("第 {n} 家的起始级数", "starting level {n}"),
                "players": ("第 {n} 位玩家", "player {n}"), "rulings": ("第 {n} 条裁定", "ruling {n}"),
                "cards": ("第 {n} 张", "card {n}")}
_PLACE_FIELDS = {"level": ("级数", "level"), "trump": ("主", "trump"), "dealer": ("庄家", "dealer"), "kitty": ("底牌", "kitty"),
                 "leader": ("首家", "leader"), "attempt": ("甩牌", "attempt"), "cards": ("牌", "cards"),
                 "seat": ("座位", "seat"), "rules": ("规则", "rules"), "players": ("玩家", "players"),
                 "start_levels": ("起始级数", "starting levels"), "tricks": ("出牌", "tricks"), "plays": ("出牌", "plays"),
                 "hands": ("手牌", "hands"), "complete": ("是否打完", "complete"), "card": ("牌", "card"),
                 "nth": ("第几张", "copy"), "bids": ("亮主", "bids"), "friends": ("朋友牌", "friends"),
                 "rulings": ("裁定", "rulings"), "rule": ("规则代码", "rule"), "trick": ("墩", "trick"),
                 "profile": ("规则", "profile"), "ladders": ("跟牌阶梯", "ladders"), "mid_game": ("中途开始", "mid-game"),
                 "name": ("名称", "name"), "levels": ("级数", "levels"), "size": ("大小", "size"),
                 "options": ("自定规则", "house rules"), "deals": ("牌局", "deals"), "points": ("分数", "points"),
                 "request body": ("请求内容", "the request body"), "file name": ("文件名", "the file name")}


def place_words(where: str) -> Text:
    """A place of the record's path notation (:func:`scorer.messages.place_parts`) in words,
    counting from 1; a place of other words (a file's name) as it is.

    >>> place_words("deals[0].tricks[4].plays[2]")
    {'zh': '第 1 副第 5 墩第 3 手', 'en': 'deal 1, trick 5, play 3'}
    >>> place_words("request body")["zh"], place_words("out.json")["zh"]
    ('请求内容', 'out.json')
    """
    zh, en = [], []
    try:
        parts = place_parts(where)
    except ValueError:
        return {"zh": where, "en": where}
    for name, index in parts:
        if index is not None and name in _PLACE_PARTS:
            zh.append(_PLACE_PARTS[name][0].format(n=index + 1))
            en.append(_PLACE_PARTS[name][1].format(n=index + 1))
        elif index is None and name in _PLACE_FIELDS:
            zh.append(_PLACE_FIELDS[name][0])
            en.append(_PLACE_FIELDS[name][1])
        else:
            return {"zh": where, "en": where}
    return {"zh": "".join(zh), "en": ", ".join(en)}


_COUNTED = ("deal", "trick", "index", "position")
"""Parameters that count from 0 in the scorer and from 1 on the page."""
_SEATS = ("seat", "turn")
"""Parameters that are seats: the page shows the player's name."""
_JOINED = {"counts": ("、", " or "), "choices": ("、", ", "), "allowed": ("、", ", "), "suffixes": ("、", ", ")}
"""List parameters and how each language joins them."""


def _profile_name(name: object) -> Text:
    known = STRINGS.get(f"profile.{name}")
    return dict(known) if known else {"zh": str(name), "en": str(name)}


def _page_params(params: dict[str, Any], words: _Words, lang: str, in_record: bool) -> dict[str, Any]:
    """The parameters of a message made readable in ``lang`` (see :data:`web.i18n.MESSAGES_ZH`)."""
    out: dict[str, Any] = {}
    for name, value in params.items():
        if name == "where" and isinstance(value, str):
            place = place_words(value)[lang]
            out["where"] = place
            out["at"] = place if in_record else place + ("：" if lang == "zh" else ": ")
        elif name in _SEATS and isinstance(value, int):
            out[name] = words.seat(value)
        elif name in _COUNTED and isinstance(value, int) and not isinstance(value, bool):
            out[name] = value + 1
        elif isinstance(value, InputError):
            out[name] = describe_error(value, words.players)[lang]
        elif isinstance(value, Message):
            out[name] = _message_words(value, words, in_record=False)[lang]
        elif name == "suit" and isinstance(value, str):
            out[name] = words.suit(value)[lang]
        elif name in ("cards", "recorded") and isinstance(value, (list, tuple)):
            text = " ".join(str(card) for card in value)
            out[name] = words.cards_zh(text) if lang == "zh" else text
        elif name == "profile":
            out[name] = _profile_name(value)[lang]
        elif name == "problem" and isinstance(value, str) and lang == "zh":  # "connection refused" in Chinese
            out[name] = PROBLEMS_ZH.get(value, value)
        elif name == "change" and isinstance(value, str):  # a kind of change of the history
            out[name] = change_words(value)[lang]
        elif name in _JOINED and isinstance(value, (list, tuple)):
            out[name] = _JOINED[name][0 if lang == "zh" else 1].join(str(v) for v in value)
        elif name == "requirement" and isinstance(value, (list, tuple)):
            out[name] = shapes_words([tuple(shape) for shape in value])[lang]
        else:
            out[name] = value
    return out


def _message_words(message: Message, words: _Words, *, in_record: bool) -> Text:
    """A message of :data:`scorer.messages.MESSAGES_EN` in Chinese and the page's English (the
    scorer's own line where the page has no English of its own)."""
    params = dict(message.params)
    zh = render(MESSAGES_ZH[message.key], _page_params(params, words, "zh", in_record))
    if message.key in MESSAGES_PAGE_EN:
        en = render(MESSAGES_PAGE_EN[message.key], _page_params(params, words, "en", in_record))
    else:
        en = str(message)
    return {"zh": zh, "en": en}


def describe_message(message: Message, players: Sequence[str] = ()) -> dict[str, Any]:
    """``{"zh", "en", "parsed"}`` for a message of the scorer (its key and parameters); never raises
    (a key the page has no words for keeps the scorer's English, ``"parsed": False``).

    >>> describe_message(Message("hint.follow_requirement", {"suit": "♥", "n": 2, "requirement": ((2, 1),)}))
    {'zh': '跟 2 张♥，须出对子', 'en': 'follow ♥ with 2 cards: a pair', 'parsed': True}
    """
    if message.key == FREE_TEXT or message.key not in MESSAGES_ZH:
        return _as_written(str(message))
    try:
        return {**_message_words(message, _Words(players), in_record=False), "parsed": True}
    except (KeyError, ValueError, IndexError, TypeError):
        return _as_written(str(message))


def describe_error(error: InputError, players: Sequence[str] = ()) -> dict[str, Any]:
    """``{"zh", "en", "parsed"}`` for an error the page shows, from its key and parameters; never
    raises. An error of another table (嘴和's, ``web.zuihe``) or a command's free text keeps its English.

    >>> from tuolaji.session.live import OutOfTurnError
    >>> describe_error(OutOfTurnError("session.out_of_turn", deal=0, trick=2, seat=1, turn=3), ["东", "南", "西", "北"])
    {'zh': '第 3 墩：该 北 出牌，不是 南', 'en': 'trick 3: 北 is to play, not 南', 'parsed': True}
    """
    if error.messages is not MESSAGES_EN or error.key == FREE_TEXT or error.key not in MESSAGES_ZH:
        return _as_written(str(error))
    in_record = isinstance(error, RecordError) and "where" in error.params  # 「记录有误：」 and the place
    try:
        words = _message_words(error.message, _Words(players), in_record=in_record)
    except (KeyError, ValueError, IndexError, TypeError):
        return _as_written(str(error))
    if in_record:
        words = {"zh": "记录有误：" + words["zh"], "en": words["en"]}
    return {**words, "parsed": True}


class ErrorArguments(TypedDict):
    """:func:`error_arguments`: an error's words for an address, in English and in Chinese."""

    error: str
    error_zh: str


def error_arguments(error: InputError) -> ErrorArguments:
    """An error's words for an address (``/sessions?error=…&error_zh=…``), each cut to the length an
    address carries; an error with Chinese of its own (``zh``: a zip refused on import) keeps it.

    >>> error_arguments(InputError("page.name_empty"))
    {'error': 'the name is empty', 'error_zh': '请填写名称'}
    """
    words = describe_error(error)
    own = getattr(error, "zh", None)
    zh = own if isinstance(own, str) else words["zh"]
    return {"error": shown_error(words["en"]), "error_zh": shown_error(zh)}


def shown_words(arguments: Mapping[str, str]) -> Text | None:
    """The words of :func:`error_arguments` read from an address's arguments, shown as they are
    (None without an error).

    >>> shown_words({"error": "the name is empty", "error_zh": "请填写名称"})
    {'zh': '请填写名称', 'en': 'the name is empty'}
    """
    english = arguments.get("error")
    if not english:
        return None
    return {"zh": arguments.get("error_zh") or english, "en": english}


def describe_hint(hint: Message, players: Sequence[str] = ()) -> dict[str, Any]:
    """``{"zh", "en", "parsed"}`` for the follow hint (:func:`scorer.follow_hint_message`); a
    requirement of singles alone needs no words beyond the suit and the count.

    >>> describe_hint(Message("hint.follow_requirement", {"suit": "♥", "n": 2, "requirement": ((2, 1),)}))["zh"]
    '跟 2 张♥，须出对子'
    >>> describe_hint(Message("hint.none_left", {"suit": "trump", "n": 3}))["zh"]
    '没有主牌了：任出 3 张'
    """
    requirement = hint.params.get("requirement")
    if hint.key == "hint.follow_requirement" and requirement is not None and all(
            tuple(shape) == SINGLE for shape in requirement):
        return describe_message(Message("hint.follow", {k: v for k, v in hint.params.items() if k != "requirement"}),
                                players)
    return describe_message(hint, players)


# --- the obligation of a lead, without hands (scorer.follow.Obligation) -------------------------------

_TUPLE_ZH = {2: "对子", 3: "三张", 4: "四张"}
_WIDER_ZH = {(3,): "（三张可拆）", (4,): "（四张可拆）", (3, 4): "（三张、四张可拆）"}


def _shape_zh(shape: tuple[int, int]) -> str:
    width, length = shape
    if length == 1:
        return _TUPLE_ZH.get(width, f"{width} 张相同")
    if shape == (3, 2):
        return "泰坦尼克"
    if shape == (2, 2):
        return "拖拉机"
    if width == 2:
        return f"{length} 连对拖拉机"
    return f"{length} 连{'三' if width == 3 else '四'}张"


def _rung_zh(requirement: Sequence[tuple[int, int]], label: str) -> str:
    """One rung of the ladder: ``♥对子 + 另 2 张♥``, ``2 张♥``."""
    parts = []
    for shape in dict.fromkeys(s for s in requirement if s != SINGLE):
        count = list(requirement).count(shape)
        parts.append(f"{'' if count == 1 else f'{count} 个'}{label}{_shape_zh(shape)}")
    singles = list(requirement).count(SINGLE)
    if singles:
        parts.append(f"{'另 ' if parts else ''}{singles} 张{label}")
    return " + ".join(parts)


def explain_obligation(obligation: Obligation) -> Text:
    """A lead's obligation in Chinese and English (strict: :class:`UnknownTemplateError` for a
    note of the first rung this module has no words for).

    >>> from tuolaji.scorer.follow import Obligation
    >>> explain_obligation(Obligation(2, 1, ((2, 1),), False, (((2, 1),), ((1, 1), (1, 1))), (3,)))["zh"]
    '首家出♥对子：有♥对子须跟（三张可拆），否则 2 张♥，再否则出全部♥并任垫'
    """
    if obligation.suit is None:
        return {"zh": f"首家混出：任出 {obligation.size} 张", "en": str(obligation)}
    label = _Words.suit(obligation.label)["zh"]
    if obligation.size == 1:
        return {"zh": f"首家出{label}单张：有{label}须跟一张，没有可任出一张", "en": str(obligation)}
    if obligation.wider and obligation.wider not in _WIDER_ZH:
        raise UnknownTemplateError(str(obligation.wider))
    note = "（不能从更多张里拆）" if obligation.protected else _WIDER_ZH.get(obligation.wider, "")
    what = "甩牌" if obligation.throw else _shape_zh(obligation.units[0])
    rungs = [_rung_zh(rung, label) for rung in obligation.rungs]
    first = f"有{rungs[0]}须跟{note}" if obligation.hold_first else f"须出{rungs[0]}"
    zh = (f"首家出{label}{what}：{first}" + "".join(f"，否则 {rung}" for rung in rungs[1:])
          + f"，再否则出全部{label}并任垫")
    return {"zh": zh, "en": str(obligation)}


def describe_obligation(obligation: Obligation, players: Sequence[str] = ()) -> dict[str, Any]:
    """``{"zh", "en", "parsed"}`` for a lead's obligation (:func:`scorer.lead_obligation_fact`); never raises.

    >>> from tuolaji.scorer.follow import Obligation
    >>> describe_obligation(Obligation(3))
    {'zh': '首家混出：任出 3 张', 'en': 'mixed lead: play any three cards', 'parsed': True}
    """
    try:
        return {**explain_obligation(obligation), "parsed": True}
    except (UnknownTemplateError, KeyError, ValueError, IndexError):
        return _as_written(str(obligation))


OBLIGATION_KEYS: frozenset[str] = frozenset({"obligation.mixed", "obligation.single", "obligation.ladder"})
"""The kinds of obligation (:attr:`scorer.follow.Obligation.key`) this module words."""


def _as_written(english: str) -> dict[str, Any]:
    return {"zh": english, "en": english, "parsed": False}


def describe_violation(violation: Violation | dict[str, Any], players: Sequence[str]) -> dict[str, Any]:
    """``{"zh", "en", "parsed"}`` for one violation of the audit, from its data
    (:class:`scorer.violations.Violation`); never raises. A violation without its data (an
    audit's dict) or of a kind this module has no words for keeps the scorer's English
    (``"parsed": False``).

    A text that does not name the violation's seat (a card with too many copies, a bid, the
    kitty) starts with the player's name.

    >>> from tuolaji.scorer.violations import KittySize
    >>> describe_violation(Violation("bad-kitty", None, 2, True, KittySize(6, 8)), ["东", "南", "西", "北"])["zh"]
    '西：底牌有 6 张；本规则扣 8 张'
    """
    if not isinstance(violation, Violation):
        return _as_written(str(violation.get("detail", "")))
    try:
        described: dict[str, Any] = {**explain_fact(violation.fact, players), "parsed": True}
    except (UnknownTemplateError, KeyError, ValueError, IndexError):
        return _as_written(detail(violation.fact))
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
        return _as_written(str(penalty.get("detail", "")))
    try:
        return {**explain_penalty(penalty.fact, players), "parsed": True}
    except (UnknownTemplateError, KeyError, ValueError, IndexError):
        return _as_written(penalty_detail(penalty.fact))


__all__ = ["ErrorArguments", "FACT_SENTENCES", "OBLIGATION_KEYS", "UnknownTemplateError", "describe_error",
           "describe_hint", "describe_message", "describe_obligation", "describe_penalty", "describe_violation",
           "error_arguments", "explain_fact", "explain_obligation", "explain_penalty", "place_words", "shapes_words",
           "shown_words"]
