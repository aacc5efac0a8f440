"""The scorer's words in the page's two languages: violation and penalty details, and the follow hint.

The scorer writes its ``detail`` strings (and :func:`scorer.follow_hint`) in English with
seat numbers and 0-based tricks, and RECORD.md fixes that text. This module reads each
template back into its parts (cards, units, seats, tricks, the evidence) and writes it
again in Chinese and in English, with player names and 1-based trick numbers. A text it
cannot read (a template the scorer gains later) falls back to the scorer's English with
seats and tricks made readable: the page never loses a detail and never crashes on one.

>>> names = ["东", "南", "西", "北"]
>>> text = explain_detail("must-follow-suit", "led ♠; seat 1 played ♦7 while holding ♠9 (played in trick 10)", names)
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
from typing import Any

from scorer.cards import SUIT_SYMBOLS
from scorer.profiles import RulesError, parse_requirement

Text = dict[str, str]

CARD = r"(?:[♠♥♣♦](?:10|[2-9JQKA])|SJ|BJ)"
CARDS = rf"{CARD}(?: {CARD})*"
UNIT = rf"{CARD}+"
UNITS = rf"{UNIT}(?: {UNIT})*"
SUIT = r"(?:[♠♥♣♦]|trump)"
TRUMP = r"(?:S|H|C|D|NT)"
REQUIREMENT = r"(?:\[\d+(?:,\d+)*\](?:×\d+)?)+"
_TRICK_ITEM = r"\d+(?: \(this trick\))?"
_EVIDENCE_PART = (rf"played in tricks? {_TRICK_ITEM}(?:, {_TRICK_ITEM})*"
                  r"|shown in the attempt of trick \d+|in the recorded hand")
EVIDENCE = rf"(?:{_EVIDENCE_PART})(?:; (?:{_EVIDENCE_PART}))*"
_BEATEN_ONE = rf"{UNIT} beaten by seat \d+'s {UNIT} \({EVIDENCE}\)"
BEATEN = rf"{_BEATEN_ONE}(?:; {_BEATEN_ONE})*"

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

    def evidence(self, text: str) -> Text:
        zh, en = [], []
        for part in text.split("; "):
            if part == "in the recorded hand":
                zh.append("记录的手牌里有")
                en.append(part)
                continue
            shown = re.fullmatch(r"shown in the attempt of trick (\d+)", part)
            if shown:
                n = int(shown.group(1)) + 1
                zh.append(f"第 {n} 墩甩牌时亮出")
                en.append(f"shown in the attempt of trick {n}")
                continue
            played = re.fullmatch(rf"played in tricks? ({_TRICK_ITEM}(?:, {_TRICK_ITEM})*)", part)
            if not played:
                raise UnknownTemplateError(part)
            items = played.group(1).split(", ")
            numbers = [int(item.split()[0]) + 1 for item in items]
            current = [item.endswith("(this trick)") for item in items]
            earlier_or_later = [str(n) for n, this in zip(numbers, current, strict=True) if not this]
            where = (["本墩"] if any(current) else []) + (
                [f"第 {'、'.join(earlier_or_later)} 墩"] if earlier_or_later else [])
            zh.append("、".join(where) + "打出")
            labels = [f"{n} (this trick)" if this else str(n) for n, this in zip(numbers, current, strict=True)]
            en.append(("played in trick " if len(labels) == 1 else "played in tricks ") + ", ".join(labels))
        return {"zh": "；".join(zh), "en": "; ".join(en)}

    def beaten(self, text: str) -> Text:
        zh, en = [], []
        pattern = re.compile(rf"({UNIT}) beaten by seat (\d+)'s ({UNIT}) \(({EVIDENCE})\)")
        position = 0
        while position < len(text):
            m = pattern.match(text, position)
            if not m:
                raise UnknownTemplateError(text)
            unit, seat, by, evidence = m.groups()
            why = self.evidence(evidence)
            name = self.seat(seat)
            zh.append(f"{self.cards_zh(unit)} 被 {name} 的 {self.cards_zh(by)} 管住（{why['zh']}）")
            en.append(f"{unit} beaten by {name}'s {by} ({why['en']})")
            position = m.end()
            if text.startswith("; ", position):
                position += 2
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


# --- the templates ------------------------------------------------------------------------

Render = Callable[[_Words, dict[str, str]], Text]
_TEMPLATES: list[tuple[str, str, re.Pattern[str], Render]] = []


def _template(rule: str, pattern: str) -> Callable[[Render], Render]:
    """Register a renderer for one scorer template (``rule`` "*" matches any rule code)."""

    def register(render: Render) -> Render:
        _TEMPLATES.append((rule, render.__name__, re.compile(pattern), render))
        return render

    return register


def _bid(g: dict[str, str]) -> tuple[int, str]:
    return int(g["i"]) + 1, g["cards"]


@_template("bad-bid", rf"bid (?P<i>\d+) \((?P<cards>{CARDS})\) after the kitty: these rules have no 炒地皮")
def bid_after_kitty(w: _Words, g: dict[str, str]) -> Text:
    i, cards = _bid(g)
    return {"zh": f"第 {i} 次亮主（{w.cards_zh(cards)}）在扣底之后：本规则不能炒地皮",
            "en": f"bid {i} ({cards}) came after the kitty: these rules have no 炒地皮"}


@_template("bad-bid", rf"bid (?P<i>\d+) \((?P<cards>{CARDS})\) is not a bid under the (?P<order>[a-z-]+) bid order")
def bid_not_a_bid(w: _Words, g: dict[str, str]) -> Text:
    i, cards = _bid(g)
    if g["order"] not in BID_ORDERS_ZH:
        raise UnknownTemplateError(g["order"])
    return {"zh": f"第 {i} 次亮主（{w.cards_zh(cards)}）按{BID_ORDERS_ZH[g['order']]}的亮主规则不算亮主",
            "en": f"bid {i} ({cards}) is not a bid under the {g['order']} bid order"}


@_template("bad-bid", rf"bid (?P<i>\d+) \((?P<cards>{CARDS})\): seat (?P<seat>\d+) overcalls his own bid")
def bid_self_overcall(w: _Words, g: dict[str, str]) -> Text:
    i, cards = _bid(g)
    name = w.seat(g["seat"])
    return {"zh": f"第 {i} 次亮主（{w.cards_zh(cards)}）：{name} 不能自己反自己",
            "en": f"bid {i} ({cards}): {name} overcalls his own bid"}


@_template("bad-bid", rf"bid (?P<i>\d+) \((?P<cards>{CARDS})\) does not overcall the standing bid")
def bid_too_low(w: _Words, g: dict[str, str]) -> Text:
    i, cards = _bid(g)
    return {"zh": f"第 {i} 次亮主（{w.cards_zh(cards)}）没有大过已亮的主",
            "en": f"bid {i} ({cards}) does not overcall the standing bid"}


@_template("bad-bid", rf"no bid: the deal is played in no-trump, not (?P<trump>{TRUMP})")
def bid_none(w: _Words, g: dict[str, str]) -> Text:
    trump = w.trump(g["trump"])
    return {"zh": f"没人亮主：这副应打无主，不是 {trump['zh']}",
            "en": f"no bid: the deal is played in no trump, not {trump['en']}"}


@_template("bad-bid", rf"the winning bid makes (?P<want>{TRUMP}) trump, the deal says (?P<trump>{TRUMP})")
def bid_wrong_trump(w: _Words, g: dict[str, str]) -> Text:
    want, trump = w.trump(g["want"]), w.trump(g["trump"])
    return {"zh": f"亮主结果是{want['zh']}，记录里却是{trump['zh']}",
            "en": f"the winning bid makes {want['en']}, the deal says {trump['en']}"}


@_template("bad-bid", r"first dealer should be seat (?P<want>\d+) \((?P<how>[a-z-]+)\), not seat (?P<seat>\d+)")
def bid_first_dealer(w: _Words, g: dict[str, str]) -> Text:
    if g["how"] not in FIRST_DEALER:
        raise UnknownTemplateError(g["how"])
    how_zh, how_en = FIRST_DEALER[g["how"]]
    want, seat = w.seat(g["want"]), w.seat(g["seat"])
    return {"zh": f"第一副的庄家应是 {want}（{how_zh}），不是 {seat}",
            "en": f"the first dealer should be {want} ({how_en}), not {seat}"}


def _seats(w: _Words, text: str) -> tuple[str, str]:
    names = [w.seat(x) for x in text.split(", ")]
    return "、".join(names), ", ".join(names)


@_template("bad-bid", rf"bid (?P<i>\d+) \((?P<cards>{CARDS})\): seat (?P<seat>\d+) is not on the side that won the last deal "
                      r"\(seats (?P<seats>\d+(?:, \d+)*)\)")
def bid_losing_side(w: _Words, g: dict[str, str]) -> Text:
    i, cards = _bid(g)
    name = w.seat(g["seat"])
    zh, en = _seats(w, g["seats"])
    return {"zh": f"第 {i} 次亮主（{w.cards_zh(cards)}）：{name} 不是上一副赢的一方（{zh}），不能亮主",
            "en": f"bid {i} ({cards}): {name} is not on the side that won the last deal ({en})"}


@_template("bad-bid", rf"bid (?P<i>\d+) \((?P<cards>{CARDS})\) shows (?P<k>\d+) copies of (?P<card>{CARD}); "
                      r"(?P<d>\d+) decks? hold (?P<h>\d+)")
def bid_too_many_copies(w: _Words, g: dict[str, str]) -> Text:
    i, cards = _bid(g)
    decks = int(g["d"])
    return {"zh": f"第 {i} 次亮主（{w.cards_zh(cards)}）亮了 {g['k']} 张 {w.cards_zh(g['card'])}，{decks} 副牌只有 {g['h']} 张",
            "en": f"bid {i} ({cards}) shows {g['k']} copies of {g['card']}; {_plural(decks, 'deck')} hold {g['h']}"}


@_template("bad-bid", rf"bid (?P<i>\d+) \((?P<cards>{CARDS})\) shows a level no player of the winning side is at")
def bid_no_winner_level(w: _Words, g: dict[str, str]) -> Text:
    i, cards = _bid(g)
    return {"zh": f"第 {i} 次亮主（{w.cards_zh(cards)}）亮的不是赢的一方任何人打的级牌",
            "en": f"bid {i} ({cards}) shows a level no player of the winning side is at"}


@_template("bad-bid", rf"bid (?P<i>\d+) \((?P<cards>{CARDS})\) shows (?P<k>\d+) (?P<card>{CARD}); seat (?P<seat>\d+) "
                      r"holds (?P<h>\d+) \((?P<source>the recorded hand|his plays)(?P<kitty> and the kitty)?\)")
def bid_not_held(w: _Words, g: dict[str, str]) -> Text:
    i, cards = _bid(g)
    name, card = w.seat(g["seat"]), g["card"]
    recorded = g["source"] == "the recorded hand"
    source_zh = ("记录的手牌" if recorded else "他打出的牌") + ("和底牌" if g["kitty"] else "")
    source_en = ("the recorded hand" if recorded else "his plays") + (" and the kitty" if g["kitty"] else "")
    return {"zh": f"第 {i} 次亮主（{w.cards_zh(cards)}）亮了 {g['k']} 张 {w.cards_zh(card)}，"
                  f"{name} 只有 {g['h']} 张（{source_zh}）",
            "en": f"bid {i} ({cards}) shows {g['k']} {card}; {name} holds {g['h']} ({source_en})"}


@_template("bad-bid", r"the winning bid makes seat (?P<want>\d+) dealer, not seat (?P<seat>\d+)")
def bid_wrong_friends_dealer(w: _Words, g: dict[str, str]) -> Text:
    want, seat = w.seat(g["want"]), w.seat(g["seat"])
    return {"zh": f"放的是 {want} 的级牌，应由 {want} 做庄，不是 {seat}",
            "en": f"the winning bid makes {want} the dealer, not {seat}"}


@_template("wrong-dealer", r"seat (?P<seat>\d+) deals deal (?P<i>\d+); seat (?P<want>\d+) deals after deal (?P<j>\d+)")
def dealer_rotation(w: _Words, g: dict[str, str]) -> Text:
    seat, want, i, j = w.seat(g["seat"]), w.seat(g["want"]), int(g["i"]) + 1, int(g["j"]) + 1
    return {"zh": f"第 {i} 副由 {seat} 做庄；第 {j} 副之后应由 {want} 做庄",
            "en": f"{seat} deals deal {i}; {want} deals after deal {j}"}


@_template("wrong-dealer", r"seat (?P<seat>\d+) deals deal (?P<i>\d+); the side that won deal (?P<j>\d+) "
                           r"is seats (?P<seats>\d+(?:, \d+)*)")
def dealer_not_winner(w: _Words, g: dict[str, str]) -> Text:
    seat, i, j = w.seat(g["seat"]), int(g["i"]) + 1, int(g["j"]) + 1
    zh, en = _seats(w, g["seats"])
    return {"zh": f"第 {i} 副由 {seat} 做庄；第 {j} 副赢的一方是 {zh}，庄家应出自这一方",
            "en": f"{seat} deals deal {i}; the side that won deal {j} is {en}"}


@_template("wrong-dealer", r"deal (?P<i>\d+) is played at level (?P<level>10|[2-9JQKA]); its dealer, seat (?P<seat>\d+), "
                           r"is at level (?P<own>10|[2-9JQKA])")
def dealer_wrong_level(w: _Words, g: dict[str, str]) -> Text:
    seat, i = w.seat(g["seat"]), int(g["i"]) + 1
    return {"zh": f"第 {i} 副打 {g['level']}，但庄家 {seat} 打的是 {g['own']}",
            "en": f"deal {i} is played at level {g['level']}; its dealer, {seat}, is at level {g['own']}"}


@_template("bad-friend-call", rf"friend call (?P<k>\d+) \((?P<card>{CARD})\) is a trump: only off-suit cards are called")
def friend_call_trump(w: _Words, g: dict[str, str]) -> Text:
    k, card = int(g["k"]) + 1, g["card"]
    return {"zh": f"第 {k} 张朋友牌 {w.cards_zh(card)} 是主牌：叫朋友只能叫副牌",
            "en": f"friend card {k} ({card}) is a trump: only off-suit cards are called"}


@_template("bad-friend-call", rf"friend call (?P<k>\d+) \((?P<card>{CARD}), copy (?P<nth>\d+)\): (?P<d>\d+) decks? hold (?P<h>\d+)")
def friend_call_copy(w: _Words, g: dict[str, str]) -> Text:
    k, card, decks = int(g["k"]) + 1, g["card"], int(g["d"])
    return {"zh": f"第 {k} 张朋友牌叫第 {g['nth']} 张 {w.cards_zh(card)}，{decks} 副牌只有 {g['h']} 张",
            "en": f"friend card {k} (copy {g['nth']} of {card}): {_plural(decks, 'deck')} hold {g['h']}"}


@_template("bad-kitty", r"the kitty holds (?P<n>\d+) cards; these rules bury (?P<k>\d+)")
def kitty_size(w: _Words, g: dict[str, str]) -> Text:
    return {"zh": f"底牌有 {g['n']} 张；本规则扣 {g['k']} 张",
            "en": f"the kitty holds {g['n']} cards; these rules bury {g['k']}"}


@_template("wrong-leader", r"seat (?P<seat>\d+) led; the dealer leads the first trick")
def leader_first(w: _Words, g: dict[str, str]) -> Text:
    name = w.seat(g["seat"])
    return {"zh": f"{name} 首出；第一墩应由庄家首出", "en": f"{name} led; the dealer leads the first trick"}


@_template("wrong-leader", r"seat (?P<seat>\d+) led; seat (?P<winner>\d+) won trick (?P<t>\d+)")
def leader_not_winner(w: _Words, g: dict[str, str]) -> Text:
    name, winner, t = w.seat(g["seat"]), w.seat(g["winner"]), int(g["t"]) + 1
    return {"zh": f"{name} 首出；第 {t} 墩是 {winner} 大，应由 {winner} 首出",
            "en": f"{name} led; {winner} won trick {t}"}


@_template("card-not-available", rf"(?P<card>{CARD}): (?P<k>\d+) copies played(?: and (?P<kitty>\d+) in the kitty)?, "
                                 rf"(?P<d>\d+) decks? hold (?P<h>\d+)")
def card_too_many(w: _Words, g: dict[str, str]) -> Text:
    card, decks, played = g["card"], int(g["d"]), int(g["k"])
    kitty = {"zh": f"，底牌里还有 {g['kitty']} 张", "en": f" and {g['kitty']} in the kitty"} if g["kitty"] else {"zh": "", "en": ""}
    return {"zh": f"{w.cards_zh(card)} 已出了 {played} 张{kitty['zh']}，{decks} 副牌只有 {g['h']} 张",
            "en": f"{card}: {_plural(played, 'copy').replace('copys', 'copies')} played{kitty['en']}, "
                  f"{_plural(decks, 'deck')} hold {g['h']}"}


@_template("card-not-available", rf"seat (?P<seat>\d+) played (?P<card>{CARD}) not in the recorded hand")
def card_not_in_hand(w: _Words, g: dict[str, str]) -> Text:
    name, card = w.seat(g["seat"]), g["card"]
    return {"zh": f"{name} 出了 {w.cards_zh(card)}，但记录的手牌里没有这张",
            "en": f"{name} played {card}, which is not in the recorded hand"}


@_template("card-not-available",
           rf"seat (?P<seat>\d+) attempted (?P<card>{CARD}) not in (?P<where>the recorded hand|his hand \(never played\))")
def card_attempt_not_in_hand(w: _Words, g: dict[str, str]) -> Text:
    name, card = w.seat(g["seat"]), g["card"]
    recorded = g["where"] == "the recorded hand"
    return {"zh": f"{name} 甩牌时亮出 {w.cards_zh(card)}，但" + ("记录的手牌里没有这张" if recorded else "手里没有这张（始终没打出）"),
            "en": f"{name} attempted {card}, which is not in " + ("the recorded hand" if recorded
                                                                   else "his hand (never played)")}


@_template("wrong-card-count", r"seat (?P<seat>\d+) led no cards")
def count_empty_lead(w: _Words, g: dict[str, str]) -> Text:
    name = w.seat(g["seat"])
    return {"zh": f"{name} 首出却没有出牌", "en": f"{name} led no cards"}


@_template("wrong-card-count", r"seat (?P<seat>\d+) played (?P<n>\d+) cards? to a lead of (?P<k>\d+)")
def count_follow(w: _Words, g: dict[str, str]) -> Text:
    name, n, k = w.seat(g["seat"]), int(g["n"]), int(g["k"])
    return {"zh": f"{name} 出了 {n} 张，首家出的是 {k} 张", "en": f"{name} played {_plural(n, 'card')} to a lead of {k}"}


@_template("lead-mixed-suits", rf"seat (?P<seat>\d+) led (?P<cards>{CARDS}) mixing (?P<suits>{SUIT}(?:, {SUIT})*)")
def mixed_lead(w: _Words, g: dict[str, str]) -> Text:
    name, cards = w.seat(g["seat"]), g["cards"]
    suits = [w.suit(s) for s in g["suits"].split(", ")]
    return {"zh": f"{name} 首出 {w.cards_zh(cards)}，混了{'、'.join(s['zh'] for s in suits)}",
            "en": f"{name} led {cards} mixing {', '.join(s['en'] for s in suits)}"}


@_template("lead-mixed-suits", rf"seat (?P<seat>\d+) attempted (?P<cards>{CARDS}) mixing suits")
def mixed_attempt(w: _Words, g: dict[str, str]) -> Text:
    name, cards = w.seat(g["seat"]), g["cards"]
    return {"zh": f"{name} 甩 {w.cards_zh(cards)}，混了花色", "en": f"{name} attempted {cards} mixing suits"}


@_template("must-follow-suit",
           rf"led (?P<suit>{SUIT}); seat (?P<seat>\d+) played (?P<played>{CARDS}) while holding (?P<held>{CARDS}) "
           rf"\((?P<evidence>{EVIDENCE})\)")
def revoke(w: _Words, g: dict[str, str]) -> Text:
    name, suit, why = w.seat(g["seat"]), w.suit(g["suit"]), w.evidence(g["evidence"])
    return {"zh": f"{name} 未跟 {suit['zh']}：出了 {w.cards_zh(g['played'])}，但手里有 {w.cards_zh(g['held'])}（{why['zh']}）",
            "en": f"{name} did not follow {suit['en']}: played {g['played']} while holding {g['held']} ({why['en']})"}


@_template("must-follow-format",
           rf"led (?P<lead>{CARDS}); seat (?P<seat>\d+) played (?P<played>{CARDS}) but held (?P<units>{UNITS}) "
           rf"for (?P<req>{REQUIREMENT}) \((?P<evidence>{EVIDENCE})\)")
def wrong_format(w: _Words, g: dict[str, str]) -> Text:
    name, why, req = w.seat(g["seat"]), w.evidence(g["evidence"]), requirement_words(g["req"])
    return {"zh": f"首家出 {w.cards_zh(g['lead'])}，{name} 出了 {w.cards_zh(g['played'])}，"
                  f"但手里有 {w.cards_zh(g['units'])}，应跟{req['zh']}（{why['zh']}）",
            "en": f"{g['lead']} led; {name} played {g['played']} but held {g['units']} for {req['en']} ({why['en']})"}


@_template("failed-throw",
           rf"throw (?P<cards>{CARDS}) stood but (?P<beaten>{BEATEN}); the leader should have played (?P<unit>{UNIT})")
def throw_stood(w: _Words, g: dict[str, str]) -> Text:
    beaten = w.beaten(g["beaten"])
    return {"zh": f"甩 {w.cards_zh(g['cards'])} 被当作成功，但{beaten['zh']}；首家只该出 {w.cards_zh(g['unit'])}",
            "en": f"throw {g['cards']} stood but {beaten['en']}; the leader should have played {g['unit']}"}


@_template("wrong-forced-unit", rf"the attempt (?P<cards>{CARDS}) is a single unit, not a throw")
def attempt_single(w: _Words, g: dict[str, str]) -> Text:
    return {"zh": f"甩牌 {w.cards_zh(g['cards'])} 只是一手牌，不算甩牌",
            "en": f"the attempt {g['cards']} is a single unit, not a throw"}


@_template("wrong-forced-unit", rf"the attempted throw (?P<cards>{CARDS}) stands: nobody could beat any of its units")
def attempt_stands(w: _Words, g: dict[str, str]) -> Text:
    return {"zh": f"甩牌 {w.cards_zh(g['cards'])} 本该成功：没人管得住其中任何一手",
            "en": f"the attempted throw {g['cards']} stands: nobody could beat any of its units"}


@_template("wrong-forced-unit", rf"the attempted throw (?P<cards>{CARDS}) is not yet shown to fail")
def attempt_unproven(w: _Words, g: dict[str, str]) -> Text:
    return {"zh": f"甩牌 {w.cards_zh(g['cards'])} 还不能证明失败",
            "en": f"the attempted throw {g['cards']} is not yet shown to fail"}


@_template("wrong-forced-unit",
           rf"failed throw (?P<cards>{CARDS}) \((?P<beaten>{BEATEN})\): the forced unit is (?P<unit>{UNIT}) "
           rf"\((?P<how>[a-z-]+)\), seat (?P<seat>\d+) played (?P<played>{CARDS})")
def forced_unit(w: _Words, g: dict[str, str]) -> Text:
    if g["how"] not in FORCED_UNIT:
        raise UnknownTemplateError(g["how"])
    how_zh, how_en = FORCED_UNIT[g["how"]]
    beaten, name = w.beaten(g["beaten"]), w.seat(g["seat"])
    return {"zh": f"甩 {w.cards_zh(g['cards'])} 失败（{beaten['zh']}）：应出 {w.cards_zh(g['unit'])}（{how_zh}），"
                  f"{name} 却出了 {w.cards_zh(g['played'])}",
            "en": f"failed throw {g['cards']} ({beaten['en']}): the forced unit is {g['unit']} ({how_en}), "
                  f"{name} played {g['played']}"}


@_template("penalty", rf"failed throw (?P<cards>{CARDS}): (?P<n>\d+) stuck cards? × (?P<points>\d+)")
def penalty_points(w: _Words, g: dict[str, str]) -> Text:
    n = int(g["n"])
    return {"zh": f"甩 {w.cards_zh(g['cards'])} 失败：{n} 张被管住 × {g['points']} 分",
            "en": f"failed throw {g['cards']}: {_plural(n, 'stuck card')} × {g['points']}"}


@_template("penalty", rf"failed throw (?P<cards>{CARDS}): the thrower's side loses one level")
def penalty_level(w: _Words, g: dict[str, str]) -> Text:
    return {"zh": f"甩 {w.cards_zh(g['cards'])} 失败：甩牌方降一级",
            "en": f"failed throw {g['cards']}: the thrower's side loses one level"}


@_template("penalty", rf"failed throw (?P<cards>{CARDS}): one level's worth of points \((?P<points>\d+)\)")
def penalty_throw_level_points(w: _Words, g: dict[str, str]) -> Text:
    return {"zh": f"甩 {w.cards_zh(g['cards'])} 失败：一次性扣一级的分（{g['points']} 分）",
            "en": f"failed throw {g['cards']}: one level's worth of points ({g['points']})"}


PENALTY_NAMES = {"wrong discard (垫错)": ("垫错", "wrong discard"), "wrong trumping (毙牌出错)": ("毙牌出错", "wrong trumping"),
                 "wrong kitty (留底差错)": ("留底差错", "wrong kitty"),
                 "wrong card count (多牌少牌)": ("多牌少牌", "wrong card count")}
_PENALTY_WHAT = "(?P<what>" + "|".join(re.escape(x) for x in PENALTY_NAMES) + ")"


@_template("penalty", rf"{_PENALTY_WHAT}: (?P<n>\d+) wrong cards? × (?P<points>\d+)")
def penalty_wrong_cards(w: _Words, g: dict[str, str]) -> Text:
    zh, en = PENALTY_NAMES[g["what"]]
    n = int(g["n"])
    return {"zh": f"{zh}：{n} 张 × {g['points']} 分", "en": f"{en}: {_plural(n, 'wrong card')} × {g['points']}"}


@_template("penalty", rf"{_PENALTY_WHAT}: one level's worth of points \((?P<points>\d+)\)")
def penalty_level_points(w: _Words, g: dict[str, str]) -> Text:
    zh, en = PENALTY_NAMES[g["what"]]
    return {"zh": f"{zh}：扣一级的分（{g['points']} 分）", "en": f"{en}: one level's worth of points ({g['points']})"}


@_template("penalty", rf"{_PENALTY_WHAT}: the offender's side loses one level")
def penalty_offender_level(w: _Words, g: dict[str, str]) -> Text:
    zh, en = PENALTY_NAMES[g["what"]]
    return {"zh": f"{zh}：违规方降一级", "en": f"{en}: the offender's side loses one level"}


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


def explain_detail(rule: str, detail: str, players: Sequence[str]) -> Text:
    """A violation's ``detail`` in Chinese and English (strict: :class:`UnknownTemplateError` if unknown)."""
    return match_template(rule, detail, players)[1]


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


def describe_violation(violation: dict[str, Any], players: Sequence[str]) -> dict[str, Any]:
    """``{"zh", "en", "parsed"}`` for one audit violation; never raises (English when unknown).

    A text that does not name the violation's seat (a card with too many copies, a bid, the
    kitty) starts with the player's name.

    >>> describe_violation({"rule": "bad-kitty", "seat": 2, "detail": "the kitty holds 6 cards; these rules bury 8"},
    ...                    ["东", "南", "西", "北"])["zh"]
    '西：底牌有 6 张；本规则扣 8 张'
    """
    described = _describe(str(violation.get("rule")), str(violation.get("detail", "")), players)
    seat = violation.get("seat")
    if described["parsed"] and isinstance(seat, int) and 0 <= seat < len(players):
        name = str(players[seat])
        if name not in described["zh"]:
            described["zh"], described["en"] = f"{name}：{described['zh']}", f"{name}: {described['en']}"
    return described


def describe_penalty(penalty: dict[str, Any], players: Sequence[str]) -> dict[str, Any]:
    """``{"zh", "en", "parsed"}`` for one audit penalty; never raises."""
    return _describe("penalty", str(penalty.get("detail", "")), players)


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


__all__ = ["describe_error", "describe_obligation", "TEMPLATE_NAMES", "UnknownTemplateError", "describe_hint", "describe_penalty", "describe_violation",
           "explain_detail", "match_template", "readable_english", "requirement_words"]
