"""The scorer's words in the page's two languages: violations, penalties, the follow hint,
the lead's obligation and errors.

The audit records each violation and penalty as data (:mod:`scorer.violations`: the cards,
units, seats, tricks and evidence); a violation is a message (:meth:`scorer.violations.Fact.message`),
which this module writes through the one template of each language (:data:`scorer.messages.FINDINGS_ZH`,
:data:`scorer.messages.FINDINGS_EN`) in the page's voice (:class:`PageVoice`: player names, tricks
and deals counted from 1); the record's ``detail`` is the same English template in the record's
voice (:mod:`scorer.violation_text`). The scorer's other texts are data
too: an error or the follow hint is a key and its parameters (:mod:`scorer.messages`), worded
here from :data:`scorer.messages.MESSAGES_ZH`; a lead's obligation is :class:`scorer.follow.Obligation`.
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

from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from tuolaji.scorer.errors import InputError
from tuolaji.scorer.follow import Obligation
from tuolaji.scorer.formats import SINGLE
from tuolaji.scorer.messages import (
    FINDINGS_EN,
    FINDINGS_ZH,
    FREE_TEXT,
    MESSAGES_EN,
    MESSAGES_ZH,
    VALUES_ZH,
    Message,
    Voice,
    place_parts,
    render,
)
from tuolaji.scorer.record import RecordError
from tuolaji.scorer.violation_text import OFFENCE_EN, OFFENCES_ZH, detail, penalty_detail
from tuolaji.scorer.violations import Fact, Penalty, PenaltyFact, RulingFact, Violation
from tuolaji.web.cards import card_label
from tuolaji.web.history import change_words
from tuolaji.web.i18n import STRINGS, both, translate
from tuolaji.web.security import shown_error

Text = dict[str, str]


class UnknownTemplateError(ValueError):
    """A scorer text that matches none of the templates this module knows."""


class _Words:
    """Renders the parts of a scorer text (seats, cards, suits) in both languages."""

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
        if label == "trump":
            return {"zh": FINDINGS_ZH["word.trump_suit"], "en": FINDINGS_EN["word.trump_suit"]}
        return {"zh": label, "en": label}

# --- the audit's findings, from their data (scorer.violations) ------------------------------------


class PageVoice(Voice):
    """The page's voice for a finding in ``lang``: players by name, tricks and deals counted from 1,
    the jokers in Chinese, the words of the rules core's catalogue (its Chinese, :data:`scorer.messages.FINDINGS_ZH`, or its
    English, :data:`scorer.messages.FINDINGS_EN`); a value it has no word for is :class:`UnknownTemplateError`."""

    def __init__(self, lang: str, players: Sequence[str], *, in_record: bool = False) -> None:
        super().__init__(FINDINGS_ZH if lang == "zh" else FINDINGS_EN)
        self.lang = lang
        self.names = _Words(players)
        self.in_record = in_record  # a record error's place: after 「记录有误：」, without its colon

    def unknown(self, value: Any) -> str:
        raise UnknownTemplateError(str(value))

    def word(self, group: str, value: Any) -> str:
        if group == "ruled" and value is not None:  # a ruling names its rule as the page does, if it can
            label = STRINGS.get(f"rule.{value}")
            return self.say("ruled.*", value=label[self.lang]) if label else self.say("ruled.None")
        return super().word(group, value)

    def seat(self, value: int) -> str:
        return self.names.seat(value)

    def seats(self, value: Any) -> str:
        return self.say("sep.list").join(self.names.seat(x) for x in value)

    def count(self, value: int) -> int:
        return value + 1

    def place(self, value: str) -> str:
        return place_words(value)[self.lang]

    def at(self, value: str) -> str:
        return self.place(value) + ("" if self.in_record else translate("place.colon", self.lang))

    def profile(self, value: str) -> str:
        return _profile_name(value)[self.lang]

    def finding(self, value: str) -> str:
        return ""  # the finding is worded from its data after the message (web.dealing.refused_response)

    def card_names(self, text: str) -> str:
        return self.names.cards_zh(text) if self.lang == "zh" else text

    def trick_list(self, tricks: Any, this: int) -> str:
        if self.lang != "zh":
            return super().trick_list(tricks, this)
        others = [str(self.count(t)) for t in tricks if t != this]  # 本墩 first, then the others
        parts = [self.say("evidence.this_trick", trick=self.count(this))] if this in tricks else []
        if others:
            parts.append(self.say("evidence.tricks", n=len(others), tricks=self.say("sep.list").join(others)))
        return self.say("sep.list").join(parts)


def shapes_words(requirement: Sequence[tuple[int, int]]) -> Text:
    """A follow requirement (its shapes, :data:`scorer.profiles.Requirement`) in words, widest first.

    >>> shapes_words(((2, 1), (1, 1), (1, 1)))
    {'zh': '对子 + 2 张单牌', 'en': 'a pair + 2 singles'}
    """
    return {lang: PageVoice(lang, ()).shapes(requirement) for lang in ("zh", "en")}


FACT_SENTENCES: frozenset[str] = frozenset(key.removeprefix("fact.") for key in FINDINGS_ZH if key.startswith("fact."))
"""The sentence of every kind of violation the page words (tests check each is met)."""


def explain_fact(fact: Fact, players: Sequence[str]) -> Text:
    """A finding in Chinese and the page's English: its message (:meth:`scorer.violations.Fact.message`)
    in the page's voices (strict: :class:`UnknownTemplateError` for a kind or option value the
    catalogue has no words for)."""
    message = fact.message()
    if message.key not in FINDINGS_ZH:
        raise UnknownTemplateError(type(fact).__name__)
    return {lang: PageVoice(lang, players).say(message.key, **message.params) for lang in ("zh", "en")}


OFFENCES: dict[str, tuple[str, str]] = {offence: (OFFENCES_ZH[offence], OFFENCE_EN[offence]) for offence in OFFENCE_EN}
"""Each penalised offence in Chinese and English (the scorer's ``OFFENCES_ZH`` and ``OFFENCE_EN``)."""


def explain_penalty(fact: PenaltyFact | RulingFact, players: Sequence[str] = ()) -> Text:
    """A penalty in Chinese and the page's English: its message in the page's voices.

    >>> explain_penalty(PenaltyFact("discard", "points", wrong=2, per=10))["zh"]
    '垫错：2 张 × 10 分'
    >>> explain_penalty(RulingFact(0, "must-follow-suit", 20, 0))["zh"]
    '裁定（未跟花色）：罚 20 分'
    """
    message = fact.message()
    return {lang: PageVoice(lang, players).say(message.key, **message.params) for lang in ("zh", "en")}


# --- what the scorer says besides findings: errors, the follow hint, the lead's obligation --------------

def place_words(where: str) -> Text:
    """A place of the record's path notation (:func:`scorer.messages.place_parts`) in words,
    counting from 1; a place of other words (a file's name) as it is.

    >>> place_words("deals[0].tricks[4].plays[2]")
    {'zh': '第 1 副第 5 墩第 3 手', 'en': 'deal 1, trick 5, play 3'}
    >>> place_words("request body")["zh"], place_words("out.json")["zh"]
    ('请求内容', 'out.json')
    """
    try:
        parts = place_parts(where)
    except ValueError:
        return {"zh": where, "en": where}
    said: Text | None = None
    for name, index in parts:
        key = f"place.part.{name}" if index is not None else f"place.field.{name}"
        if key not in STRINGS:
            return {"zh": where, "en": where}
        words = both(key, n=index + 1) if index is not None else both(key)
        said = words if said is None else both("place.join", a=said, b=words)
    return said if said is not None else {"zh": where, "en": where}


_COUNTED = ("deal", "trick", "index", "position")
"""Parameters that count from 0 in the scorer and from 1 on the page."""
_SEATS = ("seat", "turn")
"""Parameters that are seats: the page shows the player's name."""
_JOINED = frozenset({"counts", "choices", "allowed", "suffixes"})
"""List parameters, joined as the catalogue joins a list (``sep.list``)."""


def _profile_name(name: object) -> Text:
    known = STRINGS.get(f"profile.{name}")
    return dict(known) if known else {"zh": str(name), "en": str(name)}


def _chinese_params(params: dict[str, Any], words: _Words, in_record: bool) -> dict[str, Any]:
    """The parameters of a message made readable in Chinese, by their names (see
    :data:`scorer.messages.MESSAGES_ZH`); the English names its facts' voice by specs instead."""
    out: dict[str, Any] = {}
    for name, value in params.items():
        if name == "where" and isinstance(value, str):
            place = place_words(value)["zh"]
            out["where"] = place
            out["at"] = place if in_record else place + translate("place.colon", "zh")
        elif name in _SEATS and isinstance(value, int):
            out[name] = words.seat(value)
        elif name in _COUNTED and isinstance(value, int) and not isinstance(value, bool):
            out[name] = value + 1
        elif isinstance(value, InputError):
            out[name] = describe_error(value, words.players)["zh"]
        elif isinstance(value, Message):
            out[name] = _message_words(value, words, in_record=False)["zh"]
        elif name == "suit" and isinstance(value, str):
            out[name] = words.suit(value)["zh"]
        elif name in ("cards", "recorded") and isinstance(value, (list, tuple)):
            out[name] = words.cards_zh(" ".join(str(card) for card in value))
        elif name == "profile":
            out[name] = _profile_name(value)["zh"]
        elif name == "problem" and isinstance(value, str):  # "connection refused" in Chinese
            out[name] = VALUES_ZH.get(name, {}).get(value, value)
        elif name == "change" and isinstance(value, str):  # a kind of change of the history
            out[name] = change_words(value)["zh"]
        elif name in _JOINED and isinstance(value, (list, tuple)):
            out[name] = FINDINGS_ZH["sep.list"].join(str(v) for v in value)
        elif name == "requirement" and isinstance(value, (list, tuple)):
            out[name] = shapes_words([tuple(shape) for shape in value])["zh"]
        else:
            out[name] = value
    return out


def _message_words(message: Message, words: _Words, *, in_record: bool) -> Text:
    """A message of :data:`scorer.messages.MESSAGES_EN` in Chinese (:data:`scorer.messages.MESSAGES_ZH`, its
    parameters made readable) and in English: the one English template, in the page's voice (the facts
    its specs name, ``{seat:seat}``, ``{deal:count}``, ``{where:at}``, as the page writes them; the
    same words as ``str(message)`` where it names none)."""
    params = dict(message.params)
    zh = render(MESSAGES_ZH[message.key], _chinese_params(params, words, in_record))
    en = render(MESSAGES_EN[message.key], params, PageVoice("en", words.players, in_record=in_record))
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
        words = both("error.in_record", text=words)
    return {**words, "parsed": True}


class ErrorArguments(TypedDict):
    """:func:`error_arguments`: an error's words for an address, in English and in Chinese."""

    error: str
    error_zh: str


def error_arguments(error: InputError) -> ErrorArguments:
    """An error's words for an address (``/sessions?error=…&error_zh=…``), each cut to the length an
    address carries; an error with Chinese of its own (``zh``: a zip refused on import) keeps it.

    >>> error_arguments(InputError("name.empty"))
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

def explain_obligation(obligation: Obligation) -> Text:
    """A lead's obligation in Chinese and English: its message (:meth:`scorer.follow.Obligation.message`)
    in the page's voices (strict: :class:`UnknownTemplateError` for a note of the first rung the
    catalogue has no words for).

    >>> from tuolaji.scorer.follow import Obligation
    >>> explain_obligation(Obligation(2, 1, ((2, 1),), False, (((2, 1),), ((1, 1), (1, 1))), (3,)))["zh"]
    '首家出♥对子：有♥对子须跟（三张可拆），否则 2 张♥，再否则出全部♥并任垫'
    """
    message = obligation.message()
    return {lang: PageVoice(lang, ()).say(message.key, **message.params) for lang in ("zh", "en")}


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
            described.update(both("finding.named", name=name, text=described))
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
