"""What the rules core says, as data: a message key and its parameters.

Every :class:`~scorer.errors.InputError` raised by the rules core, the session, the reader, the page
and the club carries ``key`` (one of :data:`MESSAGES_EN`: the rules core's own keys,
:data:`RULES_MESSAGES_EN`, and those of each layer above, registered from the layer's own catalogue
by :func:`register_messages`, with their Chinese) and ``params`` (the facts: places, numbers,
cards, the value refused); ``str(error)`` is the English line rendered here, which the CLI prints.
The follow hint is a :class:`Message` too (:func:`scorer.follow_hint_message`). The page renders the
same key and parameters in Chinese (:data:`MESSAGES_ZH`, gathered the same way: each layer's
catalogue holds both languages of its keys) and in its English, so nobody reads the English back.

Templates are :meth:`str.format` strings with a few format specs of their own:

- a list parameter takes ``{name:SEP|EMPTY}``: joined by ``SEP``, ``EMPTY`` when it is empty (without a
  spec it is shown as Python shows it);
- ``{name:json}`` is the value as JSON (``json.dumps(value, ensure_ascii=False)``);
- ``{name:plural}`` is ``s`` unless the number is 1;
- ``{name:requirement}`` is a follow requirement (a tuple of shapes) in words (:meth:`Voice.shapes`);
- the specs of a :class:`Voice` write a fact as the voice does: ``{seat:seat}`` (``seat 2`` in the
  record's English, the player's name on the page), ``{deal:count}`` (from 0, from 1 on the page),
  ``{where:place}`` (the place; in words on the page) and ``{where:at}`` (the place and its colon).

One template a key and a language: the record's English (``str(error)``, what the commands print
and the JSON API's ``error``) and the page's English are the same template in two voices.

A place (``where``) is the record's path notation, ``deals[0].tricks[4].plays[2]``; its parts are
:func:`place_parts`.

>>> message = Message("record.at", {"where": "deals[0].tricks[4].plays[2]",
...                                  "error": Message("card.unknown", {"text": "1H"})})
>>> str(message)
'deals[0].tricks[4].plays[2]: unknown card "1H"'
>>> place_parts("deals[0].tricks[4].plays[2]")
(('deals', 0), ('tricks', 4), ('plays', 2))
>>> render(MESSAGES_EN["hint.follow_requirement"], {"suit": "♥", "n": 4, "requirement": ((2, 2),)})
'follow ♥ with 4 cards: a tractor'
>>> str(Message("json.bytes", {"where": "request body", "size": 3000, "most": 2000}))
'request body: 3,000 bytes, over the limit of 2,000'
"""

from __future__ import annotations

import json
import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

FREE_TEXT = "text"
"""The key of a message that is only its English line (the commands' own errors, which no page shows)."""

#: The English line of every message key of the rules core; the parameters each one names are the facts.
RULES_MESSAGES_EN: dict[str, str] = {
    FREE_TEXT: "{text}",
    # a place, then what is wrong there (another message)
    "record.at": "{where}: {error}",
    # cards
    "card.index": "card index out of range: {value}",
    "card.not_text": "not a card: {value!r}",
    "card.unknown": 'unknown card "{text}"',
    "card.rank": 'unknown rank "{text}"',
    "card.trump": 'unknown trump "{text}"',
    # the record
    "record.seat": "{where}: expected a seat number 0..{most}, got {value:json}",
    "record.cards_list": "{where}: expected a list of cards",
    "record.cards_count": "{where}: {count} cards, but {decks} deck{decks:plural} hold {cards}",
    "record.copies": "{where}: {copies} or more copies of {card:json}, but no decks hold more than {most}",
    "record.level": '{where}: unknown level "{value}"',
    "record.object": "record: expected a JSON object",
    "record.format": 'format: expected "{want}", got {value:json}',
    "record.missing": "{where}: missing",
    "record.list": "{where}: expected a list",
    "record.names": "every player needs a name",
    "record.name_length": "{where}: a name of {length} characters (at most {most})",
    "name.unprintable": "{where}: a name may not hold {char} (control characters and text-direction marks print nothing)",
    "record.player_count": "players: the rules allow {allowed:, } players, the record has {players}",
    "record.odd_players": "players: fixed partnerships need an even number of players, the record has {players}",
    "record.start_levels": "start_levels: expected {players} levels",
    "record.bool": "{where}: expected true or false",
    "record.deals": "deals: {deals} deals (at most {most})",
    "record.object_at": "{where}: expected an object",
    "record.trump": "{where}: expected S, H, C, D or NT, got {value:json}",
    "record.hands": "{where}: expected {players} hands",
    "record.empty_bid": "{where}: empty bid",
    "record.nth": "{where}: expected a positive number",
    "record.tricks": "{where}: {tricks} tricks, more than {cards} cards can make",
    "record.plays": "{where}: {plays} plays for {players} players",
    "record.incomplete": "{where}: only the last trick may be incomplete ({plays} of {players} plays)",
    "record.rulings": "{where}: expected a list (at most {most})",
    "record.ruling_amount": "{where}: expected either points or levels",
    "record.rule_code": "{where}: expected a rule code",
    "record.no_deal": "deals[{deal}]: no such deal",
    "record.no_trick": "deals[{deal}].tricks[{trick}]: no such trick",
    "record.no_seat": "seat: no seat {seat}",
    # 只记分: deals and tricks recorded by points alone (docs/RECORD.md)
    "record.points": "{where}: expected a number of points 0..{most}, got {value:json}",
    "record.unit": "{where}: expected the cards of the winning unit, 1..{most}, got {value:json}",
    "record.points_and_cards": "{where}: a points-only trick has no {key} (it records its winner and points)",
    "record.points_and_tricks": "{where}: a deal recorded by its defender_points has no tricks",
    "record.last_trick": "{where}: only a deal recorded by its defender_points has a last_trick",
    "record.points_hands": "{where}: a deal recorded by points has no hands",
    "record.conceded_by": "{where}: who conceded is \"dealer\" or \"defenders\", not {value:json}",
    "record.missing_seats": "{where}: expected a list of the seats whose play was not seen",
    "record.unconfirmed": "{where}: expected a list of [seat, card index] pairs of cards to confirm",
    "record.missing_twice": "{where}: seat {seat} is listed twice",
    "record.missing_not_played": "{where}: seat {seat} has no play in this trick yet",
    "record.missing_played": "{where}: seat {seat}'s play was not seen, so its play is [], not {count} card{count:plural}",
    "rules.hand_size": "hand_size: {size} cards for {players} players do not fit in {decks} decks",
    # the rules (profiles and their options)
    "rules.requirement_length": 'bad requirement "{text}": {length} characters',
    "rules.requirement": 'bad requirement "{text}"',
    "rules.requirement_cards": 'bad requirement "{text}": more cards than four decks hold in one play',
    "rules.ladders": "{where}: expected an object of ladders",
    "rules.ladder_length": '{where}["{shape}"]: {rungs} requirements (at most {most})',
    "rules.ladder_shape": '{where}["{shape}"]: expected one unit shape and a list of requirements',
    "rules.ladder_size": '{where}["{shape}"]: every requirement must have {size} cards',
    "rules.ladder_ends": '{where}["{shape}"]: a ladder starts with the shape and ends in singles',
    "rules.option_value": "{where}.{option}: expected {expected}, got {value!r}",
    "rules.option_unknown": "{where}: unknown option {option!r}",
    "rules.profile_unknown": '{where}: unknown profile "{profile}"',
    "rules.rules_value": "{where}: expected a profile name or an object",
    # bounds of the format search
    "search.width": "a unit of {width} copies of one card: no ladder is searched beyond {most}",
    "search.length": "a tractor of {length} consecutive tuples: none is longer than {most}",
    "search.partitions": "partitions of {n}: more than {most} tuples are never searched",
    # JSON read safely
    "json.bytes": "{where:at}{size:,} bytes, over the limit of {most:,}",
    "json.utf8": "{where:at}not UTF-8 text (byte {byte})",
    "json.surrogate_text": "{where:at}not UTF-8 text (a lone surrogate)",
    "json.depth": "{where}: JSON nested deeper than {most} levels",
    "json.invalid": "{where:at}not valid JSON: {problem} at line {line} column {column}",
    "json.int_digits": "{where:at}an integer of {digits} digits (at most {most})",
    "json.number_chars": "{where:at}a number of {chars} characters",
    "json.constant": "{where:at}{name} is not a number JSON allows",
    "json.recursion": "{where}: {problem}",
    "json.range": "{where:at}{number} is out of range",
    "json.surrogate": "{where:at}{path}: a lone surrogate (\\u{code:04x}) is not text",
    "name.type": "{where}: expected a name",
    "name.empty": "the name is empty",
    # the follow hint (scorer.follow_hint)
    "hint.none_left": "no {suit} left: play any {n} card{n:plural}",
    "hint.play_all": "play all {held} {suit} card{held:plural}",
    "hint.play_all_and_more": "play all {held} {suit} card{held:plural} and any {extra} more",
    "hint.follow": "follow {suit} with {n} card{n:plural}",
    "hint.follow_requirement": "follow {suit} with {n} card{n:plural}: {requirement:requirement}",
}

#: The Chinese of every message key of the rules core, from the same parameters made readable
#: (:data:`MESSAGES_ZH`).
RULES_MESSAGES_ZH: dict[str, str] = {
    FREE_TEXT: "{text}",
    # a place, then what is wrong there (another message)
    "record.at": "{at}{error}",
    # cards
    "card.index": "牌号 {value} 超出范围",
    "card.not_text": "{value!r} 不是牌",
    "card.unknown": '不认识的牌 "{text}"',
    "card.rank": '不认识的点数 "{text}"',
    "card.trump": '不认识的主 "{text}"',
    # the record
    "record.seat": "{at}应是座位号 0..{most}，现在是 {value:json}",
    "record.cards_list": "{at}应是一串牌",
    "record.cards_count": "{at}{count} 张牌，{decks} 副牌只有 {cards} 张",
    "record.copies": "{at}{card:json} 有 {copies} 张以上，任何几副牌都不超过 {most} 张",
    "record.level": '{at}不认识的级数 "{value}"',
    "record.object": "记录应是一个 JSON 对象",
    "record.format": '格式应是 "{want}"，现在是 {value:json}',
    "record.missing": "{at}缺少",
    "record.list": "{at}应是一个列表",
    "record.names": "请填写每位玩家的名字",
    "record.name_length": "{at}名字太长（{length} 个字，最多 {most}）",
    "name.unprintable": "{at}名字里不能有 {char}（控制字符和文字方向符号显示不出来）",
    "record.player_count": "这套规则要 {allowed} 人玩，记录里是 {players} 人",
    "record.odd_players": "固定搭档要偶数个玩家，记录里是 {players} 人",
    "record.start_levels": "起始级数应有 {players} 个",
    "record.bool": "{at}应是 true 或 false",
    "record.deals": "记录有 {deals} 副（最多 {most} 副）",
    "record.object_at": "{at}应是一个对象",
    "record.trump": "{at}应是 S、H、C、D 或 NT，现在是 {value:json}",
    "record.hands": "{at}应有 {players} 家的手牌",
    "record.empty_bid": "{at}亮主没有牌",
    "record.nth": "{at}应是正整数",
    "record.tricks": "{at}有 {tricks} 墩，{cards} 张牌打不出这么多墩",
    "record.plays": "{at}{players} 个玩家却有 {plays} 手",
    "record.incomplete": "{at}只有最后一墩可以没出完（这墩只有 {plays}/{players} 手）",
    "record.rulings": "{at}应是一个列表（最多 {most} 条）",
    "record.ruling_amount": "{at}应给出罚分或降级",
    "record.rule_code": "{at}应是一个规则代码",
    "record.no_deal": "没有第 {deal} 副",
    "record.no_trick": "第 {deal} 副没有第 {trick} 墩",
    "record.no_seat": "没有这个座位（{seat}）",
    # 只记分: deals and tricks recorded by points alone (docs/RECORD.md)
    "record.points": "{at}应是 0..{most} 的分数，现在是 {value:json}",
    "record.unit": "{at}应是赢的那手牌的张数 1..{most}，现在是 {value:json}",
    "record.points_and_cards": "{at}只记分的一墩没有 {key}（只记谁赢和得分）",
    "record.points_and_tricks": "{at}按闲家得分记录的一副没有出牌",
    "record.last_trick": "{at}只有按闲家得分记录的一副才有 last_trick",
    "record.points_hands": "{at}按分数记录的一副没有手牌",
    "record.conceded_by": "{at}认输的一方应是 \"dealer\"（庄家）或 \"defenders\"（闲家），现在是 {value:json}",
    "record.missing_seats": "{at}应是一串没看到出牌的座位号",
    "record.unconfirmed": "{at}应是一串要确认的牌：[座位, 第几张]",
    "record.missing_twice": "{at}座位 {seat} 写了两次",
    "record.missing_not_played": "{at}座位 {seat} 在这一墩还没有出牌",
    "record.missing_played": "{at}座位 {seat} 的出牌没有看到，应记为 []，而不是 {count} 张牌",
    "rules.hand_size": "{players} 人每人 {size} 张，{decks} 副牌不够",
    # the rules (profiles and their options)
    "rules.requirement_length": '跟牌要求 "{text}" 太长（{length} 个字）',
    "rules.requirement": '跟牌要求 "{text}" 写得不对',
    "rules.requirement_cards": '跟牌要求 "{text}" 一手的牌比四副牌还多',
    "rules.ladders": "{at}应是一个对象（各牌型的跟牌阶梯）",
    "rules.ladder_length": '{at}"{shape}" 有 {rungs} 级要求（最多 {most} 级）',
    "rules.ladder_shape": '{at}"{shape}" 应是一个牌型和一串要求',
    "rules.ladder_size": '{at}"{shape}" 的每级要求都应是 {size} 张',
    "rules.ladder_ends": '{at}"{shape}" 的阶梯应从牌型本身开始、以单张结束',
    "rules.option_value": "{at}选项 {option} 的取值 {value!r} 不对",
    "rules.option_unknown": "{at}没有 {option!r} 这个选项",
    "rules.profile_unknown": '{at}没有 "{profile}" 这套规则',
    "rules.rules_value": "{at}应是规则名或一个对象",
    # bounds of the format search
    "search.width": "一手 {width} 张相同的牌：跟牌阶梯最多找到 {most} 张",
    "search.length": "{length} 连的拖拉机：最多只找 {most} 连",
    "search.partitions": "{n} 的拆分：超过 {most} 组不再搜索",
    # JSON read safely
    "json.bytes": "{at}太大（{size:,} 字节，上限 {most:,}）",
    "json.utf8": "{at}不是 UTF-8 文本",
    "json.surrogate_text": "{at}不是 UTF-8 文本",
    "json.depth": "{at}JSON 嵌套超过 {most} 层",
    "json.invalid": "{where} 不是有效的 JSON（第 {line} 行第 {column} 列）",
    "json.int_digits": "{at}数字太长（{digits} 位）",
    "json.number_chars": "{at}不是有效的数字",
    "json.constant": "{at}不是有效的数字",
    "json.recursion": "{at}JSON 嵌套太深",
    "json.range": "{at}{number} 超出范围",
    "json.surrogate": "{at}含有无效字符",
    "name.type": "{at}应是名字",
    "name.empty": "请填写名称",
    # the follow hint (scorer.follow_hint)
    "hint.none_left": "没有{suit}了：任出 {n} 张",
    "hint.play_all": "须出全部 {held} 张{suit}",
    "hint.play_all_and_more": "须出全部 {held} 张{suit}，再任垫 {extra} 张",
    "hint.follow": "跟 {n} 张{suit}",
    "hint.follow_requirement": "跟 {n} 张{suit}，须出{requirement}",
}

MESSAGES_EN: dict[str, str] = dict(RULES_MESSAGES_EN)
"""The English line of every message key known: the rules core's (:data:`RULES_MESSAGES_EN`) and
those of each layer above that has registered its catalogue (:func:`register_messages`: the
session's, the reader's, the page's and the club's, each when its package is imported). The one
table :class:`~scorer.errors.InputError` and :class:`Message` read."""

MESSAGES_ZH: dict[str, str] = dict(RULES_MESSAGES_ZH)
"""The Chinese of every key of :data:`MESSAGES_EN`, gathered the same way (:data:`RULES_MESSAGES_ZH`
and each layer's own, registered with its English), from the same parameters made readable
(:func:`web.explain.describe_message`): ``where`` is the place in words and ``at`` the place with
its colon (none in a record error, which begins 「记录有误：」); seats are player names; deals, tricks
and positions count from 1; a nested message is worded in the same language. The one table the
page's Chinese reads."""

CATALOGUES: dict[str, Mapping[str, str]] = {"scorer": RULES_MESSAGES_EN}
"""Each layer's own catalogue of messages (its English), by the layer's package (``scorer``,
``session``, ``vision``, ``web``, ``club``): a key belongs to the lowest layer that raises it."""

CATALOGUES_ZH: dict[str, Mapping[str, str]] = {"scorer": RULES_MESSAGES_ZH}
"""The Chinese of each layer's catalogue, by the layer's package: the same keys as its English in
:data:`CATALOGUES`, written in the same module."""

VALUES_ZH: dict[str, dict[str, str]] = {}
"""The Chinese of the few parameter values a layer writes in English words, by the parameter's name
(``problem``: the reader's ``connection refused``, ``timed out``), registered with the layer's
catalogue (:func:`register_messages`); the page's Chinese reads them (a value not there is shown as
it is)."""


def register_messages(layer: str, english: Mapping[str, str], chinese: Mapping[str, str], *,
                      values_zh: Mapping[str, Mapping[str, str]] | None = None) -> Mapping[str, str]:
    """Add ``layer``'s catalogue (key -> English template, key -> Chinese template, the same keys) to
    :data:`MESSAGES_EN` and :data:`MESSAGES_ZH`, once, at the layer's import, and the Chinese of the
    parameter values it writes in words (``values_zh``) to :data:`VALUES_ZH`; a key another layer
    already owns, or a key in one language only, is a mistake (:class:`KeyError`). The rules core
    imports nothing above it: each layer brings its words down, in both languages.

    >>> register_messages("scorer", {"record.at": "{where}"}, {"record.at": "{at}"})
    Traceback (most recent call last):
    ...
    KeyError: "messages of scorer: 'record.at' is scorer's already"
    """
    if set(english) != set(chinese):
        raise KeyError(f"messages of {layer}: {sorted(set(english) ^ set(chinese))} in one language only")
    for key, template in english.items():
        owner = next((name for name, words in CATALOGUES.items() if key in words), None)
        if owner is not None and (owner != layer or CATALOGUES[owner][key] != template
                                  or CATALOGUES_ZH[owner][key] != chinese[key]):
            raise KeyError(f"messages of {layer}: {key!r} is {owner}'s already")
    CATALOGUES[layer] = english
    CATALOGUES_ZH[layer] = chinese
    MESSAGES_EN.update(english)
    MESSAGES_ZH.update(chinese)
    for name, words in (values_zh or {}).items():
        VALUES_ZH.setdefault(name, {}).update(words)
    return english


#: The English of every finding of the audit (:meth:`scorer.violations.Fact.message`: ``fact.`` and
#: the kind's ``sentence``, the fact's fields the parameters) and of their parts. A spec names how a
#: field is written (:class:`Voice`): ``seat``/``seats``, ``count`` (a trick, deal, bid or friend call:
#: from 0 in the record, from 1 on the page), ``cards``/``card``/``unit``/``units``, ``suit``/``suits``,
#: ``trump``, ``rank``, ``evidence``, ``beaten``, ``shapes``, and ``@GROUP`` (the words of the value,
#: key ``GROUP.value``, ``GROUP.*`` for any other). One template a kind: the record's ``detail`` and
#: the page's English are both this one, in different voices.
FINDINGS_EN: dict[str, str] = {
    "fact.bid_after_kitty": "bid {bid:count} ({cards:cards}) came after the kitty: these rules have no 炒地皮",
    "fact.bid_not_a_bid": "bid {bid:count} ({cards:cards}) is not a bid under the {bid_order:@bid_order} bid order",
    "fact.bid_self_overcall": "bid {bid:count} ({cards:cards}): {seat:seat} overcalls his own bid",
    "fact.bid_too_low": "bid {bid:count} ({cards:cards}) does not overcall the standing bid",
    "fact.bid_losing_side": ("bid {bid:count} ({cards:cards}): {seat:seat} is not on the side that won the last deal "
                             "({winners:seats})"),
    "fact.bid_too_many_copies": ("bid {bid:count} ({cards:cards}) shows {copies} copies of {card:card}; "
                                 "{decks} deck{decks:plural} hold {decks}"),
    "fact.bid_no_winner_level": "bid {bid:count} ({cards:cards}) shows a level no player of the winning side is at",
    "fact.bid_not_held": ("bid {bid:count} ({cards:cards}) shows {copies} {card:card}; {seat:seat} holds {held} "
                          "({source:@bid_source}{kitty:@bid_kitty})"),
    "fact.bid_none": "no bid: the deal is played in no trump, not {trump:trump}",
    "fact.bid_wrong_trump": "the winning bid makes {want:trump}, the deal says {trump:trump}",
    "fact.bid_first_dealer": "the first dealer should be {want:seat} ({how:@first_dealer}), not {seat:seat}",
    "fact.bid_wrong_friends_dealer": "the winning bid makes {want:seat} the dealer, not {seat:seat}",
    "fact.dealer_rotation": "{seat:seat} deals deal {deal:count}; {want:seat} deals after deal {after:count}",
    "fact.dealer_not_winner": "{seat:seat} deals deal {deal:count}; the side that won deal {after:count} is {winners:seats}",
    "fact.dealer_wrong_level": ("deal {deal:count} is played at level {level:rank}; its dealer, {seat:seat}, "
                                "is at level {own:rank}"),
    "fact.friend_call_trump": "friend card {call:count} ({card:card}) is a trump: only off-suit cards are called",
    "fact.friend_call_copy": "friend card {call:count} (copy {nth} of {card:card}): {decks} deck{decks:plural} hold {decks}",
    "fact.kitty_size": "the kitty holds {size} cards; these rules bury {buried}",
    "fact.points_not_five": "{what:@points_of} {points} points: cards count in fives (5, 10 and K)",
    "fact.points_too_many": "{points} points in {what:@points_in}: {decks} deck{decks:plural} hold{decks:verb_s} {decks:hundred}",
    "fact.unit_impossible": "the last trick won with a unit of {unit} cards: no unit of {decks} deck{decks:plural} has {unit}",
    "fact.unit_missing": "the last trick names no winning unit: the kitty counts as won by a single (×{multiplier})",
    "fact.kitty_points_mismatch": "the kitty's points say {points}, but its cards hold {cards}",
    "fact.leader_first": "{seat:seat} led; the dealer leads the first trick",
    "fact.leader_not_winner": "{seat:seat} led; {winner:seat} won trick {won:count}",
    "fact.card_too_many": "{card:card}: {played} cop{played:y_ies} played{kitty:@card_kitty}, {decks} deck{decks:plural} hold {decks}",
    "fact.card_not_in_hand": "{seat:seat} played {card:card}, which is not in the recorded hand",
    "fact.card_attempt_not_in_hand": "{seat:seat} attempted {card:card}, which is not in {recorded:@attempt_held}",
    "fact.count_empty_lead": "{seat:seat} led no cards",
    "fact.count_follow": "{seat:seat} played {played} card{played:plural} to a lead of {led}",
    "fact.mixed_lead": "{seat:seat} led {cards:cards} mixing {suits:suits}",
    "fact.mixed_attempt": "{seat:seat} attempted {cards:cards} mixing suits",
    "fact.revoke": ("{seat:seat} did not follow {suit:suit}: played {played:cards} while holding {held:cards} "
                    "({evidence:evidence})"),
    "fact.wrong_format": ("{lead:cards} led; {seat:seat} played {played:cards} but held {units:units} for "
                          "{requirement:shapes} ({evidence:evidence})"),
    "fact.throw_stood": "throw {cards:cards} stood but {beaten:beaten}; the leader should have played {forced:unit}",
    "fact.attempt_single": "the attempt {cards:cards} is a single unit, not a throw",
    "fact.attempt_stands": "the attempted throw {cards:cards} stands: nobody could beat any of its units",
    "fact.attempt_unproven": "the attempted throw {cards:cards} is not yet shown to fail",
    "fact.forced_unit": ("failed throw {cards:cards} ({beaten:beaten}): the forced unit is {forced:unit} "
                         "({how:@forced_unit}), {seat:seat} played {played:cards}"),
    # the parts of a finding (:class:`Voice`)
    "word.seat": "seat {seat}",
    "word.seats": "seats {seats}",
    "word.trump_suit": "trump",
    "word.no_trump": "no trump",
    "word.trump": "{symbol} trump",
    "sep.list": ", ",
    "sep.parts": "; ",
    "evidence.played": "played in {tricks}",
    "evidence.tricks": "trick{n:plural} {tricks}",
    "evidence.this_trick": "{trick} (this trick)",
    "evidence.attempt": "shown in the attempt of trick {trick}",
    "evidence.hand": "in the recorded hand",
    "beaten.unit": "{unit:unit} beaten by {seat:seat}'s {by:unit} ({evidence:evidence})",
    "shape.1x1": "single",
    "shape.2x1": "pair",
    "shape.3x1": "triple",
    "shape.4x1": "quad",
    "shape.2x2": "tractor",
    "shape.3x2": "泰坦尼克 (two running triples)",
    "shape.kind": "{width} of a kind",
    "shape.pairs": "tractor of {length} pairs",
    "shape.run": "run of {length} × {width} of a kind",
    "shape.single": "a single",
    "shape.singles": "{count} singles",
    "shape.one": "{name:article}{name}",
    "shape.many": "{count} × {name}",
    "shape.join": " + ",
    "bid_order.two-deck": "two-deck",
    "bid_order.titanic": "titanic",
    "bid_order.count": "count",
    "bid_order.chaodipi": "chaodipi",
    "bid_source.hand": "the recorded hand",
    "bid_source.plays": "his plays",
    "bid_kitty.true": " and the kitty",
    "bid_kitty.false": "",
    "first_dealer.first-bidder": "the first bidder",
    "first_dealer.winning-bidder": "the winning bidder",
    "forced_unit.lowest-beaten": "the lowest beaten unit",
    "forced_unit.largest-beaten": "the largest beaten unit",
    "forced_unit.smallest-beaten": "the smallest beaten unit",
    "points_of.trick": "the trick's",
    "points_of.defenders": "the defenders'",
    "points_of.kitty": "the kitty's",
    "points_in.trick": "one trick",
    "points_in.deal": "the tricks and the kitty",
    "card_kitty.0": "",
    "card_kitty.*": " and {value} in the kitty",
    "attempt_held.true": "the recorded hand",
    "attempt_held.false": "his hand (never played)",
    # penalties (scorer.violations.PenaltyFact, RulingFact)
    "penalty.throw.points": "{offence:@offence} {cards:cards}: {wrong} stuck card{wrong:plural} × {per}",
    "penalty.throw.level-points": "{offence:@offence} {cards:cards}: one level's worth of points ({points})",
    "penalty.throw.level": "{offence:@offence} {cards:cards}: the thrower's side loses one level",
    "penalty.points": "{offence:@offence}: {wrong} wrong card{wrong:plural} × {per}",
    "penalty.level-points": "{offence:@offence}: one level's worth of points ({points})",
    "penalty.level": "{offence:@offence}: the offender's side loses one level",
    "ruling.points": "ruling{rule:@ruled}: {points} points",
    "ruling.levels": "ruling{rule:@ruled}: the offender's side loses {levels} level{levels:plural}",
    "ruled.None": "",
    "ruled.*": " ({value})",
    "offence.throw": "failed throw",
    "offence.discard": "wrong discard",
    "offence.trumping": "wrong trumping",
    "offence.kitty": "wrong kitty",
    "offence.card-count": "wrong card count",
    # a lead's obligation, without hands (scorer.follow.Obligation)
    "obligation.mixed": "mixed lead: play any {size:@number} card{size:plural}",
    "obligation.single": "{suit:suit} single led: play one {suit:suit} if you hold one, else any card",
    "obligation.ladder": ("{suit:suit} {lead:lead_what} led: play {lead:lead_rungs}, else all your {lead:lead_suits} "
                          "and any other cards"),
    "ob.throw": "throw of {units}",
    "ob.single": "single",
    "ob.a_unit": "{noun:article}{noun}",
    "ob.units_of": "{n} {noun}s",
    "ob_tuple.2": "pair",
    "ob_tuple.3": "triple",
    "ob_tuple.4": "quad",
    "ob_tuple.*": "{value}-tuple",
    "ob_shape.2x2": "tractor of 2 pairs",
    "ob_shape.3x2": "泰坦尼克",
    "ob.pairs": "tractor of {length} pairs",
    "ob.run": "tractor of {length} {tuple}s",
    "ob.unit": "{noun:article}{suit} {noun}",
    "ob.units": "{n} {suit} {noun}s",
    "ob.singles": "{n} {suit}",
    "ob.other": "{n} other {suit}",
    "ob.suits": "{suit}s",
    "ob.and": " and ",
    "ob.comma": ", ",
    "ob.first": "{rung}",
    "ob.first_held_one": "{rung} if you hold one{note}",
    "ob.first_held": "{rung} if you hold them{note}",
    "ob.next": ", else {rung}",
    "ob.protected": " (not carved from a wider tuple)",
    "ob_wider.3": " (a triple counts)",
    "ob_wider.4": " (a quad counts)",
    "ob_wider.3+4": " (a triple or a quad counts)",
    "number.0": "no",
    "number.1": "one",
    "number.2": "two",
    "number.3": "three",
    "number.4": "four",
    "number.5": "five",
    "number.6": "six",
    "number.7": "seven",
    "number.8": "eight",
    "number.9": "nine",
    "number.10": "ten",
    "number.*": "{value}",
}

FINDINGS_ZH: dict[str, str] = {
    "fact.bid_after_kitty": "第 {bid:count} 次亮主（{cards:cards}）在扣底之后：本规则不能炒地皮",
    "fact.bid_not_a_bid": "第 {bid:count} 次亮主（{cards:cards}）按{bid_order:@bid_order}的亮主规则不算亮主",
    "fact.bid_self_overcall": "第 {bid:count} 次亮主（{cards:cards}）：{seat:seat} 不能自己反自己",
    "fact.bid_too_low": "第 {bid:count} 次亮主（{cards:cards}）没有大过已亮的主",
    "fact.bid_losing_side": "第 {bid:count} 次亮主（{cards:cards}）：{seat:seat} 不是上一副赢的一方（{winners:seats}），不能亮主",
    "fact.bid_too_many_copies": "第 {bid:count} 次亮主（{cards:cards}）亮了 {copies} 张 {card:card}，{decks} 副牌只有 {decks} 张",
    "fact.bid_no_winner_level": "第 {bid:count} 次亮主（{cards:cards}）亮的不是赢的一方任何人打的级牌",
    "fact.bid_not_held": ("第 {bid:count} 次亮主（{cards:cards}）亮了 {copies} 张 {card:card}，{seat:seat} 只有 {held} 张"
                          "（{source:@bid_source}{kitty:@bid_kitty}）"),
    "fact.bid_none": "没人亮主：这副应打无主，不是 {trump:trump}",
    "fact.bid_wrong_trump": "亮主结果是{want:trump}，记录里却是{trump:trump}",
    "fact.bid_first_dealer": "第一副的庄家应是 {want:seat}（{how:@first_dealer}），不是 {seat:seat}",
    "fact.bid_wrong_friends_dealer": "放的是 {want:seat} 的级牌，应由 {want:seat} 做庄，不是 {seat:seat}",
    "fact.dealer_rotation": "第 {deal:count} 副由 {seat:seat} 做庄；第 {after:count} 副之后应由 {want:seat} 做庄",
    "fact.dealer_not_winner": "第 {deal:count} 副由 {seat:seat} 做庄；第 {after:count} 副赢的一方是 {winners:seats}，庄家应出自这一方",
    "fact.dealer_wrong_level": "第 {deal:count} 副打 {level:rank}，但庄家 {seat:seat} 打的是 {own:rank}",
    "fact.friend_call_trump": "第 {call:count} 张朋友牌 {card:card} 是主牌：叫朋友只能叫副牌",
    "fact.friend_call_copy": "第 {call:count} 张朋友牌叫第 {nth} 张 {card:card}，{decks} 副牌只有 {decks} 张",
    "fact.kitty_size": "底牌有 {size} 张；本规则扣 {buried} 张",
    "fact.points_not_five": "{what:@points_of} {points} 分：分牌只有 5、10、K，分数应是 5 的倍数",
    "fact.points_too_many": "{what:@points_in} {points} 分：{decks} 副牌一共只有 {decks:hundred} 分",
    "fact.unit_impossible": "最后一墩记的赢牌牌型是 {unit} 张：{decks} 副牌没有 {unit} 张的牌型",
    "fact.unit_missing": "最后一墩没有记赢牌的牌型：抠底按单张算（×{multiplier}）",
    "fact.kitty_points_mismatch": "记的底分是 {points}，底牌的牌却是 {cards} 分",
    "fact.leader_first": "{seat:seat} 首出；第一墩应由庄家首出",
    "fact.leader_not_winner": "{seat:seat} 首出；第 {won:count} 墩是 {winner:seat} 大，应由 {winner:seat} 首出",
    "fact.card_too_many": "{card:card} 已出了 {played} 张{kitty:@card_kitty}，{decks} 副牌只有 {decks} 张",
    "fact.card_not_in_hand": "{seat:seat} 出了 {card:card}，但记录的手牌里没有这张",
    "fact.card_attempt_not_in_hand": "{seat:seat} 甩牌时亮出 {card:card}，但{recorded:@attempt_held}",
    "fact.count_empty_lead": "{seat:seat} 首出却没有出牌",
    "fact.count_follow": "{seat:seat} 出了 {played} 张，首家出的是 {led} 张",
    "fact.mixed_lead": "{seat:seat} 首出 {cards:cards}，混了{suits:suits}",
    "fact.mixed_attempt": "{seat:seat} 甩 {cards:cards}，混了花色",
    "fact.revoke": "{seat:seat} 未跟 {suit:suit}：出了 {played:cards}，但手里有 {held:cards}（{evidence:evidence}）",
    "fact.wrong_format": ("首家出 {lead:cards}，{seat:seat} 出了 {played:cards}，但手里有 {units:units}，"
                          "应跟{requirement:shapes}（{evidence:evidence}）"),
    "fact.throw_stood": "甩 {cards:cards} 被当作成功，但{beaten:beaten}；首家只该出 {forced:unit}",
    "fact.attempt_single": "甩牌 {cards:cards} 只是一手牌，不算甩牌",
    "fact.attempt_stands": "甩牌 {cards:cards} 本该成功：没人管得住其中任何一手",
    "fact.attempt_unproven": "甩牌 {cards:cards} 还不能证明失败",
    "fact.forced_unit": "甩 {cards:cards} 失败（{beaten:beaten}）：应出 {forced:unit}（{how:@forced_unit}），{seat:seat} 却出了 {played:cards}",
    "word.seat": "座位 {seat}",
    "word.seats": "座位 {seats}",
    "word.trump_suit": "主牌",
    "word.no_trump": "无主",
    "word.trump": "{symbol} 为主",
    "sep.list": "、",
    "sep.parts": "；",
    "evidence.played": "{tricks}打出",
    "evidence.tricks": "第 {tricks} 墩",
    "evidence.this_trick": "本墩",
    "evidence.attempt": "第 {trick} 墩甩牌时亮出",
    "evidence.hand": "记录的手牌里有",
    "beaten.unit": "{unit:unit} 被 {seat:seat} 的 {by:unit} 管住（{evidence:evidence}）",
    "shape.1x1": "单张",
    "shape.2x1": "对子",
    "shape.3x1": "三张",
    "shape.4x1": "四张",
    "shape.2x2": "拖拉机",
    "shape.3x2": "泰坦尼克",
    "shape.kind": "{width} 张相同",
    "shape.pairs": "{length} 连对拖拉机",
    "shape.run": "{length} 连{width}张",
    "shape.single": "单张",
    "shape.singles": "{count} 张单牌",
    "shape.one": "{name}",
    "shape.many": "{count} 个{name}",
    "shape.join": " + ",
    "bid_order.two-deck": "两副牌",
    "bid_order.titanic": "三副牌（泰坦尼克）",
    "bid_order.count": "比张数",
    "bid_order.chaodipi": "炒地皮",
    "bid_source.hand": "记录的手牌",
    "bid_source.plays": "他打出的牌",
    "bid_kitty.true": "和底牌",
    "bid_kitty.false": "",
    "first_dealer.first-bidder": "先亮主的人",
    "first_dealer.winning-bidder": "亮主最大的人",
    "forced_unit.lowest-beaten": "被管住的最小一手",
    "forced_unit.largest-beaten": "被管住的最大一手",
    "forced_unit.smallest-beaten": "被管住的最小一手",
    "points_of.trick": "这一墩记了",
    "points_of.defenders": "闲家得分记了",
    "points_of.kitty": "底分记了",
    "points_in.trick": "一墩记了",
    "points_in.deal": "各墩和底牌一共",
    "card_kitty.0": "",
    "card_kitty.*": "，底牌里还有 {value} 张",
    "attempt_held.true": "记录的手牌里没有这张",
    "attempt_held.false": "手里没有这张（始终没打出）",
    "penalty.throw.points": "甩 {cards:cards} 失败：{wrong} 张被管住 × {per} 分",
    "penalty.throw.level-points": "甩 {cards:cards} 失败：一次性扣一级的分（{points} 分）",
    "penalty.throw.level": "甩 {cards:cards} 失败：甩牌方降一级",
    "penalty.points": "{offence:@offence}：{wrong} 张 × {per} 分",
    "penalty.level-points": "{offence:@offence}：扣一级的分（{points} 分）",
    "penalty.level": "{offence:@offence}：违规方降一级",
    "ruling.points": "裁定{rule:@ruled}：罚 {points} 分",
    "ruling.levels": "裁定{rule:@ruled}：违规方降 {levels} 级",
    "ruled.None": "",
    "ruled.*": "（{value}）",
    "offence.throw": "甩牌失败",
    "offence.discard": "垫错",
    "offence.trumping": "毙牌出错",
    "offence.kitty": "留底差错",
    "offence.card-count": "多牌少牌",
    "obligation.mixed": "首家混出：任出 {size} 张",
    "obligation.single": "首家出{suit:suit}单张：有{suit:suit}须跟一张，没有可任出一张",
    "obligation.ladder": "首家出{suit:suit}{lead:lead_what}：{lead:lead_rungs}，再否则出全部{suit:suit}并任垫",
    "ob.throw": "甩牌",
    "ob.single": "单张",
    "ob.a_unit": "{noun}",
    "ob.units_of": "{n} 个{noun}",
    "ob_tuple.2": "对子",
    "ob_tuple.3": "三张",
    "ob_tuple.4": "四张",
    "ob_tuple.*": "{value} 张相同",
    "ob_shape.2x2": "拖拉机",
    "ob_shape.3x2": "泰坦尼克",
    "ob.pairs": "{length} 连对拖拉机",
    "ob.run": "{length} 连{tuple}",
    "ob.unit": "{suit}{noun}",
    "ob.units": "{n} 个{suit}{noun}",
    "ob.singles": "{n} 张{suit}",
    "ob.other": "另 {n} 张{suit}",
    "ob.suits": "{suit}",
    "ob.and": " + ",
    "ob.comma": " + ",
    "ob.first": "须出{rung}",
    "ob.first_held_one": "有{rung}须跟{note}",
    "ob.first_held": "有{rung}须跟{note}",
    "ob.next": "，否则 {rung}",
    "ob.protected": "（不能从更多张里拆）",
    "ob_wider.3": "（三张可拆）",
    "ob_wider.4": "（四张可拆）",
    "ob_wider.3+4": "（三张、四张可拆）",
    **{f"number.{n}": str(n) for n in range(11)},
    "number.*": "{value}",
}
"""The Chinese of every key of :data:`FINDINGS_EN`: the audit's findings and their
parts, written by the page's voice (:class:`web.explain.PageVoice`: names for seats, counting from 1)."""

SPECS: dict[str, Callable[[Any], str]] = {}
"""The format specs of the templates beyond :meth:`str.format`'s own, by name."""


def _spec(name: str) -> Callable[[Callable[[Any], str]], Callable[[Any], str]]:
    def register(function: Callable[[Any], str]) -> Callable[[Any], str]:
        SPECS[name] = function
        return function

    return register


@_spec("json")
def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


CHANGE_NAMES_EN: dict[str, str] = {
    "enter-play": "entered play", "play": "play", "points": "points-only trick", "bid": "bid", "withdraw": "withdrawn bid", "kitty": "kitty",
    "setting": "deal setting", "ruling": "penalty", "correction": "correction", "confirm": "confirmation",
    "next-deal": "next deal", "settle": "settlement"}
"""The English name of each kind of change of a record's history (``{change:change}``; the page's
Chinese: ``session.history``'s names)."""

CHANGE_NAMES_ZH: dict[str, str] = {
    "enter-play": "补记出牌", "play": "出牌", "points": "只记分", "bid": "亮主", "withdraw": "撤回亮主", "kitty": "底牌",
    "setting": "本局设置", "ruling": "罚分", "correction": "更正", "confirm": "确认", "next-deal": "开始下一局",
    "settle": "结算"}
"""The Chinese name of each kind of change of a record's history (the English:
:data:`CHANGE_NAMES_EN`), the page's undo button's (:func:`web.history.change_words`)."""


@_spec("change")
def _change(value: Any) -> str:
    return CHANGE_NAMES_EN.get(value, str(value)) if isinstance(value, str) else str(value)


@_spec("plural")
def _plural(value: Any) -> str:
    return "" if value == 1 else "s"


@_spec("verb_s")
def _verb_s(value: Any) -> str:
    return "s" if value == 1 else ""


@_spec("y_ies")
def _y_ies(value: Any) -> str:
    return "y" if value == 1 else "ies"


@_spec("hundred")
def _hundred(value: Any) -> str:
    return str(100 * value)


@_spec("article")
def _article(value: Any) -> str:
    return "an " if str(value)[:1] in ("a", "e", "i", "o", "u") else "a "


@_spec("requirement")
def _requirement(value: Any) -> str:
    return RECORD_VOICE.shapes(value)


class Voice:
    """How the parts of a finding are written (the ``{field:SPEC}`` of a ``fact.`` template): the
    record's English (docs/RECORD.md's ``detail``: seats as ``seat 2``, tricks, deals, bids and
    friend calls counted from 0). The page's voices (``web.explain``) name the players, count from 1
    and read the words of another catalogue; every word is a key of the voice's catalogue.

    >>> from tuolaji.scorer.violations import Evidence
    >>> Voice().evidence(Evidence(trick=3, played=(3, 10)))
    'played in tricks 3 (this trick), 10'
    >>> Voice().shapes(((2, 1), (1, 1), (1, 1)))
    'a pair + 2 singles'
    """

    SPECS: frozenset[str] = frozenset({"seat", "seats", "count", "cards", "card", "unit", "units", "suit", "suits",
                                       "trump", "rank", "evidence", "beaten", "shapes", "lead_what", "lead_rungs",
                                       "lead_suits", "place", "at", "profile", "finding"})
    """The specs a voice writes."""

    def __init__(self, catalogue: Mapping[str, str] | None = None) -> None:
        self.catalogue: Mapping[str, str] = FINDINGS_EN if catalogue is None else catalogue

    def say(self, key: str, **params: Any) -> str:
        """The words of ``key`` in this voice."""
        return render(self.catalogue[key], params, self)

    def word(self, group: str, value: Any) -> str:
        """``{value:@group}``: the words of ``group.value`` (``group.*`` for any other value; the
        value as it is where the catalogue has neither)."""
        name = str(value).lower() if isinstance(value, bool) else str(value)
        if f"{group}.{name}" in self.catalogue:
            return self.say(f"{group}.{name}")
        if f"{group}.*" in self.catalogue:
            return self.say(f"{group}.*", value=value)
        return self.unknown(value)

    def unknown(self, value: Any) -> str:
        """A value the catalogue has no word for: the record writes it as it is."""
        return str(value)

    def seat(self, value: int) -> str:
        return self.say("word.seat", seat=value)

    def seats(self, value: Any) -> str:
        return self.say("word.seats", seats=", ".join(str(v) for v in value))

    def count(self, value: int) -> int:
        return value

    def place(self, value: str) -> str:
        """A place of the record's path notation (``deals[0].tricks[4]``), as the record writes it."""
        return str(value)

    def at(self, value: str) -> str:
        """A place and its colon, before what is wrong there."""
        return f"{self.place(value)}: "

    def profile(self, value: str) -> str:
        """A rules profile, by its name."""
        return str(value)

    def finding(self, value: str) -> str:
        """The record's detail of the finding a change is refused for; a page words the finding
        from its data after the message (:func:`web.dealing.refused_response`), its voice writes none."""
        return str(value)

    def card_names(self, text: str) -> str:
        """Cards as the record names them (``♠A SJ``), in this voice."""
        return text

    def cards(self, value: Any) -> str:
        from .cards import pretty_card

        return self.card_names(" ".join(pretty_card(c) for c in value))

    def card(self, value: int) -> str:
        return self.cards((value,))

    def unit(self, value: Any) -> str:
        from .cards import pretty_card

        return self.card_names("".join(pretty_card(c) for c in value))

    def units(self, value: Any) -> str:
        return " ".join(self.unit(u) for u in value)

    def suit(self, value: int) -> str:
        from .order import SUIT_LABELS

        label = SUIT_LABELS[value]
        return self.say("word.trump_suit") if label == "trump" else label

    def suits(self, value: Any) -> str:
        return self.say("sep.list").join(self.suit(s) for s in value)

    def trump(self, value: str) -> str:
        from .cards import SUIT_SYMBOLS

        return self.say("word.no_trump") if value == "NT" else self.say("word.trump", symbol=SUIT_SYMBOLS[value])

    def rank(self, value: int) -> str:
        from .cards import RANKS

        return RANKS[value]

    def trick_list(self, tricks: Any, this: int) -> str:
        """The tricks cards were played in, the finding's own marked."""
        labels = [self.say("evidence.this_trick", trick=self.count(t)) if t == this else str(self.count(t))
                  for t in tricks]
        return self.say("evidence.tricks", n=len(labels), tricks=self.say("sep.list").join(labels))

    def evidence(self, value: Any) -> str:
        """Where held cards show up (:class:`scorer.violations.Evidence`)."""
        parts = []
        if value.played:
            parts.append(self.say("evidence.played", tricks=self.trick_list(value.played, value.trick)))
        if value.attempt is not None:
            parts.append(self.say("evidence.attempt", trick=self.count(value.attempt)))
        if value.hand or not parts:
            parts.append(self.say("evidence.hand"))
        return self.say("sep.parts").join(parts)

    def beaten(self, value: Any) -> str:
        """Each beaten unit of a throw, who beats it with what, and the evidence."""
        return self.say("sep.parts").join(self.say("beaten.unit", unit=b.unit, seat=b.seat, by=b.by,
                                                   evidence=b.evidence) for b in value)

    def shape(self, width: int, length: int) -> str:
        if f"shape.{width}x{length}" in self.catalogue:
            return self.say(f"shape.{width}x{length}")
        if length == 1:
            return self.say("shape.kind", width=width)
        return self.say("shape.pairs" if width == 2 else "shape.run", width=width, length=length)

    def shapes(self, value: Any) -> str:
        """A follow requirement (its shapes) in words, widest first."""
        shapes = sorted((tuple(s) for s in value), key=lambda s: (s[0] * s[1], s[0]), reverse=True)
        counts: dict[tuple[int, ...], int] = {}
        for shape in shapes:
            counts[shape] = counts.get(shape, 0) + 1
        parts = []
        for (width, length), count in counts.items():
            if (width, length) == (1, 1):
                parts.append(self.say("shape.single") if count == 1 else self.say("shape.singles", count=count))
            else:
                name = self.shape(width, length)
                parts.append(self.say("shape.one", name=name) if count == 1
                             else self.say("shape.many", count=count, name=name))
        return self.say("shape.join").join(parts)

    # --- a lead's obligation (scorer.follow.Obligation): the same structure in every language ---

    def and_list(self, items: list[str]) -> str:
        if len(items) <= 2:
            return self.say("ob.and").join(items)
        return self.say("ob.comma").join(items[:-1]) + self.say("ob.and") + items[-1]

    def lead_shape(self, shape: Any) -> str:
        """A unit's shape as the obligation names it (``pair``, ``tractor of 3 pairs``)."""
        width, length = shape
        if f"ob_shape.{width}x{length}" in self.catalogue:
            return self.say(f"ob_shape.{width}x{length}")
        name = self.word("ob_tuple", width)
        if length == 1:
            return name
        return self.say("ob.pairs" if width == 2 else "ob.run", length=length, tuple=name)

    def suit_noun(self, suit: int, n: int) -> str:
        from .order import TRUMP

        label = self.suit(suit)
        return self.say("ob.suits", suit=label) if suit == TRUMP and n != 1 else label

    def rung(self, requirement: Any, suit: int) -> str:
        """One rung of the ladder: ``a ♥ pair and two other ♥``, ``two ♥``."""
        single = (1, 1)
        label = self.suit(suit)
        shapes = [tuple(x) for x in requirement]
        parts = []
        for shape in dict.fromkeys(x for x in shapes if x != single):
            count, noun = shapes.count(shape), self.lead_shape(shape)
            parts.append(self.say("ob.unit", suit=label, noun=noun) if count == 1
                         else self.say("ob.units", n=self.word("number", count), suit=label, noun=noun))
        singles = shapes.count(single)
        if not parts:
            n = singles if singles > 1 else 1
            return self.say("ob.singles", n=self.word("number", n), suit=self.suit_noun(suit, n))
        if singles:
            parts.append(self.say("ob.other", n=self.word("number", singles), suit=self.suit_noun(suit, singles)))
        return self.and_list(parts)

    def lead_what(self, value: Any) -> str:
        """What was led: a unit's shape, or a throw of its units."""
        if not value.throw:
            return self.lead_shape(value.units[0])
        names = [self.lead_shape(shape) if tuple(shape) != (1, 1) else self.say("ob.single") for shape in value.units]
        counted = [self.say("ob.units_of", n=self.word("number", names.count(x)), noun=x) if names.count(x) > 1
                   else self.say("ob.a_unit", noun=x) for x in dict.fromkeys(names)]
        return self.say("ob.throw", units=self.and_list(counted))

    def lead_rungs(self, value: Any) -> str:
        """The ladder: the first rung (owed if held), then each one owed failing the one before."""
        rungs = [self.rung(requirement, value.suit) for requirement in value.rungs]
        if value.hold_first:
            note = self.say("ob.protected") if value.protected else (
                self.word("ob_wider", "+".join(str(x) for x in value.wider)) if value.wider else "")
            key = "ob.first_held_one" if len(value.rungs[0]) == 1 else "ob.first_held"
            first = self.say(key, rung=rungs[0], note=note)
        else:
            first = self.say("ob.first", rung=rungs[0])
        return first + "".join(self.say("ob.next", rung=rung) for rung in rungs[1:])

    def lead_suits(self, value: Any) -> str:
        return self.suit_noun(value.suit, 2)


RECORD_VOICE = Voice()
"""The record's English (``str(message)``, docs/RECORD.md's ``detail``)."""


class _Formatter(string.Formatter):
    def __init__(self, voice: Voice | None = None) -> None:
        super().__init__()
        self.voice = voice

    def format_field(self, value: Any, format_spec: str) -> Any:
        if format_spec in SPECS:
            return SPECS[format_spec](value)
        voice = self.voice or RECORD_VOICE
        if format_spec.startswith("@"):
            return voice.word(format_spec[1:], value)
        if format_spec in Voice.SPECS:
            return str(getattr(voice, format_spec)(value))
        if isinstance(value, (list, tuple)) and format_spec:
            sep, _, empty = format_spec.partition("|")
            return sep.join(str(v) for v in value) if value else empty
        return super().format_field(value, format_spec)


_FORMATTER = _Formatter()


def render(template: str, params: Mapping[str, Any], voice: Voice | None = None) -> str:
    """``template`` with ``params`` filled in (lists joined, the specs above applied, a finding's
    parts written by ``voice``, the record's English by default).

    >>> render("{where}: {n} card{n:plural}, {cards:, |none}", {"where": "x", "n": 2, "cards": ()})
    'x: 2 cards, none'
    """
    return (_FORMATTER if voice is None else _Formatter(voice)).vformat(template, (), params)


def template_fields(template: str) -> set[str]:
    """The parameter names ``template`` uses.

    >>> sorted(template_fields(MESSAGES_EN["record.copies"]))
    ['card', 'copies', 'most', 'where']
    """
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in _FORMATTER.parse(template) if name}


@dataclass(frozen=True)
class Message:
    """One thing the scorer says: ``key`` (of :data:`MESSAGES_EN`, or :data:`FINDINGS_EN` for a finding)
    and its ``params``; ``str()`` is the English (the record's)."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return render(MESSAGES_EN[self.key] if self.key in MESSAGES_EN else FINDINGS_EN[self.key], self.params)


def place_parts(where: str) -> tuple[tuple[str, int | None], ...]:
    """A place in the record's path notation as (name, index or None) parts.

    >>> place_parts("deals[1].hands[0]"), place_parts("rules.ladders"), place_parts("request body")
    ((('deals', 1), ('hands', 0)), (('rules', None), ('ladders', None)), (('request body', None),))
    """
    parts: list[tuple[str, int | None]] = []
    for step in where.split("."):
        name, bracket, rest = step.partition("[")
        index: int | None = None
        if bracket:
            number = rest.removesuffix("]")
            if not number.isdigit() or "[" in number:
                raise ValueError(f"not a place: {where!r}")
            index = int(number)
        parts.append((name, index))
    return tuple(parts)


__all__ = ["CATALOGUES", "CATALOGUES_ZH", "CHANGE_NAMES_ZH", "FINDINGS_EN", "FINDINGS_ZH", "FREE_TEXT", "MESSAGES_EN",
           "MESSAGES_ZH", "Message", "RECORD_VOICE", "RULES_MESSAGES_EN", "RULES_MESSAGES_ZH", "SPECS",
           "VALUES_ZH", "Voice", "place_parts", "register_messages", "render", "template_fields"]
