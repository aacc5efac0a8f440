"""What the rules core says, as data: a message key and its parameters.

Every :class:`~scorer.errors.InputError` raised by the rules core, the session, the reader, the page
and the club carries ``key`` (one of :data:`MESSAGES_EN`: the rules core's own keys,
:data:`RULES_MESSAGES_EN`, and those of each layer above, registered from the layer's own catalogue
by :func:`register_messages`) and ``params`` (the facts: places, numbers, cards, the value refused);
``str(error)`` is the English line rendered here, which the CLI prints. The
follow hint is a :class:`Message` too (:func:`scorer.follow_hint_message`). The page renders the
same key and parameters in Chinese and in its English (``web.i18n.MESSAGES_ZH``), so nobody reads
the English back.

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

MESSAGES_EN: dict[str, str] = dict(RULES_MESSAGES_EN)
"""The English line of every message key known: the rules core's (:data:`RULES_MESSAGES_EN`) and
those of each layer above that has registered its catalogue (:func:`register_messages`: the
session's, the reader's, the page's and the club's, each when its package is imported). The one
table :class:`~scorer.errors.InputError` and :class:`Message` read."""

CATALOGUES: dict[str, Mapping[str, str]] = {"scorer": RULES_MESSAGES_EN}
"""Each layer's own catalogue of messages, by the layer's package (``scorer``, ``session``,
``vision``, ``web``, ``club``): a key belongs to the lowest layer that raises it."""


def register_messages(layer: str, catalogue: Mapping[str, str]) -> Mapping[str, str]:
    """Add ``layer``'s catalogue (key -> English template) to :data:`MESSAGES_EN`, once, at the
    layer's import; a key another layer already owns is a mistake (:class:`KeyError`). The rules
    core imports nothing above it: each layer brings its words down.

    >>> register_messages("scorer", {"record.at": "{where}"})
    Traceback (most recent call last):
    ...
    KeyError: "messages of scorer: 'record.at' is scorer's already"
    """
    for key, template in catalogue.items():
        owner = next((name for name, words in CATALOGUES.items() if key in words), None)
        if owner is not None and (owner != layer or CATALOGUES[owner][key] != template):
            raise KeyError(f"messages of {layer}: {key!r} is {owner}'s already")
    CATALOGUES[layer] = catalogue
    MESSAGES_EN.update(catalogue)
    return catalogue


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


__all__ = ["CATALOGUES", "FINDINGS_EN", "FREE_TEXT", "MESSAGES_EN", "Message", "RECORD_VOICE", "RULES_MESSAGES_EN", "SPECS",
           "Voice", "place_parts", "register_messages", "render", "template_fields"]
