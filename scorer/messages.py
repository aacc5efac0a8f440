"""What the rules core says, as data: a message key and its parameters.

Every :class:`~scorer.errors.InputError` raised by the rules core, the session and the page
carries ``key`` (one of :data:`MESSAGES_EN`) and ``params`` (the facts: places, numbers, cards,
the value refused); ``str(error)`` is the English line rendered here, which the CLI prints. The
follow hint is a :class:`Message` too (:func:`scorer.follow_hint_message`). The page renders the
same key and parameters in Chinese and in its English (``web.i18n.MESSAGES_ZH``), so nobody reads
the English back.

Templates are :meth:`str.format` strings with a few format specs of their own:

- a list parameter takes ``{name:SEP|EMPTY}``: joined by ``SEP``, ``EMPTY`` when it is empty;
- ``{name:json}`` is the value as JSON (``json.dumps(value, ensure_ascii=False)``);
- ``{name:plural}`` is ``s`` unless the number is 1;
- ``{name:requirement}`` is a follow requirement (a tuple of shapes) in the bracket notation and
  ``{name:requirement_shapes}`` its shapes in words, `` (a pair, 2× pair)`` or nothing.

A place (``where``) is the record's path notation, ``deals[0].tricks[4].plays[2]``; its parts are
:func:`place_parts`.

>>> message = Message("record.at", {"where": "deals[0].tricks[4].plays[2]",
...                                  "error": Message("card.unknown", {"text": "1H"})})
>>> str(message)
'deals[0].tricks[4].plays[2]: unknown card "1H"'
>>> place_parts("deals[0].tricks[4].plays[2]")
(('deals', 0), ('tricks', 4), ('plays', 2))
>>> render(MESSAGES_EN["hint.follow_requirement"], {"suit": "♥", "n": 4, "requirement": ((2, 2),)})
'follow ♥ with 4 cards: [2,2] (a pair-tractor)'
"""

from __future__ import annotations

import json
import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

FREE_TEXT = "text"
"""The key of a message that is only its English line (the commands' own errors, which no page shows)."""

#: The English line of every message key; the parameters each one names are the facts.
MESSAGES_EN: dict[str, str] = {
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
    "record.names": "players: expected a list of names",
    "record.name_length": "{where}: a name of {length} characters (at most {most})",
    "record.player_count": "players: the rules allow {allowed} players, the record has {players}",
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
    "json.bytes": "{where}: {size:,} bytes, over the limit of {most:,}",
    "json.utf8": "{where}: not UTF-8 text (byte {byte})",
    "json.surrogate_text": "{where}: not UTF-8 text (a lone surrogate)",
    "json.depth": "{where}: JSON nested deeper than {most} levels",
    "json.invalid": "{where}: not valid JSON: {problem} at line {line} column {column}",
    "json.int_digits": "{where}: an integer of {digits} digits (at most {most})",
    "json.number_chars": "{where}: a number of {chars} characters",
    "json.constant": "{where}: {name} is not a number JSON allows",
    "json.recursion": "{where}: {problem}",
    "json.range": "{where}: {number} is out of range",
    "json.surrogate": "{where}: {path}: a lone surrogate (\\u{code:04x}) is not text",
    # the follow hint (scorer.follow_hint)
    "hint.none_left": "no {suit} left: play any {n} card{n:plural}",
    "hint.play_all": "play all {held} {suit} card{held:plural}",
    "hint.play_all_and_more": "play all {held} {suit} card{held:plural} and any {extra} more",
    "hint.follow": "follow {suit} with {n} card{n:plural}",
    "hint.follow_requirement": "follow {suit} with {n} card{n:plural}: {requirement:requirement}"
                               "{requirement:requirement_shapes}",
}

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


@_spec("plural")
def _plural(value: Any) -> str:
    return "" if value == 1 else "s"


@_spec("requirement")
def _requirement(value: Any) -> str:
    from .profiles import requirement_name

    return requirement_name(tuple(value))


_SHAPE_WORDS = {(2, 1): "a pair", (3, 1): "a triple", (4, 1): "a quad", (2, 2): "a pair-tractor", (3, 2): "a 泰坦尼克",
                (1, 1): "a single"}


@_spec("requirement_shapes")
def _requirement_shapes(value: Any) -> str:
    shapes = [tuple(shape) for shape in value]
    parts: list[str] = []
    for shape in dict.fromkeys(s for s in shapes if s != (1, 1)):
        count = shapes.count(shape)
        name = _SHAPE_WORDS.get(shape, f"a {shape[0]}-wide tractor of {shape[1]}")
        parts.append(name if count == 1 else f"{count}× {name[2:]}")
    return f" ({', '.join(parts)})" if parts else ""


class _Formatter(string.Formatter):
    def format_field(self, value: Any, format_spec: str) -> Any:
        if format_spec in SPECS:
            return SPECS[format_spec](value)
        if isinstance(value, (list, tuple)):
            sep, _, empty = format_spec.partition("|")
            return sep.join(str(v) for v in value) if value else empty
        return super().format_field(value, format_spec)


_FORMATTER = _Formatter()


def render(template: str, params: Mapping[str, Any]) -> str:
    """``template`` with ``params`` filled in (lists joined, the specs above applied).

    >>> render("{where}: {n} card{n:plural}, {cards:, |none}", {"where": "x", "n": 2, "cards": ()})
    'x: 2 cards, none'
    """
    return _FORMATTER.vformat(template, (), params)


def template_fields(template: str) -> set[str]:
    """The parameter names ``template`` uses.

    >>> sorted(template_fields(MESSAGES_EN["record.copies"]))
    ['card', 'copies', 'most', 'where']
    """
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in _FORMATTER.parse(template) if name}


@dataclass(frozen=True)
class Message:
    """One thing the scorer says: ``key`` (of :data:`MESSAGES_EN`) and its ``params``; ``str()`` is
    the English."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return render(MESSAGES_EN[self.key], self.params)


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


__all__ = ["FREE_TEXT", "MESSAGES_EN", "Message", "SPECS", "place_parts", "render", "template_fields"]
