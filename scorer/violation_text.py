"""The audit's findings in English: docs/RECORD.md's ``detail`` of each violation and penalty.

A violation's ``detail`` is its fact's message (:meth:`scorer.violations.Fact.message`: the key
``fact.SENTENCE`` of :data:`scorer.messages.FINDINGS_EN` and the fact's fields) in the record's
voice, with seats as numbers and tricks and deals counted from 0 (the golden audits in
``tests/data/scorer/audits`` hold the text). The page renders the same message through its own
catalogue (``web/explain.py``); no kind of finding has words anywhere else.

>>> from tuolaji.scorer.cards import parse_cards
>>> from tuolaji.scorer.violations import Evidence, Revoke
>>> detail(Revoke(suit=0, seat=1, played=tuple(parse_cards(["7D"])), held=tuple(parse_cards(["9S"])),
...               evidence=Evidence(trick=3, played=(3, 10))))
'seat 1 did not follow ♠: played ♦7 while holding ♠9 (played in tricks 3 (this trick), 10)'
"""

from __future__ import annotations

from collections.abc import Iterable

from .cards import pretty_card
from .messages import FINDINGS_EN
from .violations import Fact, PenaltyFact, RulingFact


def cards_text(cards: Iterable[int]) -> str:
    """Cards by name, space-separated (``♠A ♠A SJ``)."""
    return " ".join(pretty_card(c) for c in cards)


def detail(fact: Fact) -> str:
    """A violation's ``detail``: its fact's message in the record's English."""
    return str(fact.message())


# --- penalties ------------------------------------------------------------------------------------

OFFENCE_EN: dict[str, str] = {"throw": "failed throw", "discard": "wrong discard", "trumping": "wrong trumping",
                              "kitty": "wrong kitty", "card-count": "wrong card count"}
"""The English name of each offence seed 001 Ⅰ.九 penalises (:data:`scorer.violations.Offence`): the one
table of them; the page's Chinese is ``web.i18n.OFFENCES_ZH``, and both are read, never spelled again."""

PENALTY_OPTION_OFFENCES: dict[str, str] = {"throw_penalty": "throw", "discard_penalty": "discard",
                                           "trump_penalty": "trumping", "kitty_penalty": "kitty",
                                           "card_count_penalty": "card-count"}
"""The offence each penalty option (:data:`scorer.profiles.PENALTY_OPTIONS`) penalises."""

_RECORD_TAGS = {"discard": "垫错", "trumping": "毙牌出错", "kitty": "留底差错", "card-count": "多牌少牌"}
"""The Chinese name docs/RECORD.md's ``detail`` gives each offence after its English (part of the
record format; tests/scorer/test_messages.py checks that they are the page's ``OFFENCES_ZH``)."""

OFFENCE_NAMES = {offence: f"{OFFENCE_EN[offence]} ({tag})" for offence, tag in _RECORD_TAGS.items()}
"""The penalties of seed 001 Ⅰ.九 other than a failed throw, as docs/RECORD.md names them."""


def penalty_detail(fact: PenaltyFact | RulingFact) -> str:
    """A penalty's ``detail``.

    >>> penalty_detail(PenaltyFact("discard", "points", wrong=2, per=10))
    'wrong discard (垫错): 2 wrong cards × 10'
    >>> penalty_detail(PenaltyFact("throw", "level", wrong=1, cards=(0, 0, 1)))
    "failed throw ♠2 ♠2 ♠3: the thrower's side loses one level"
    >>> penalty_detail(RulingFact(0, "must-follow-suit", 20, 0))
    'ruling for must-follow-suit: 20 points'
    """
    if isinstance(fact, RulingFact):
        what = f"ruling for {fact.rule}" if fact.rule else "ruling"
        if fact.levels:
            return f"{what}: the offender's side loses {fact.levels} level{'s' if fact.levels > 1 else ''}"
        return f"{what}: {fact.points} points"
    throw = fact.offence == "throw"
    what = f"{OFFENCE_EN['throw']} {cards_text(fact.cards)}" if throw else OFFENCE_NAMES[fact.offence]
    if fact.mode == "points":
        unit = "stuck card" if throw else "wrong card"
        return f"{what}: {fact.wrong} {unit}{'s' if fact.wrong != 1 else ''} × {fact.per}"
    if fact.mode == "level-points":
        return f"{what}: one level's worth of points ({fact.points})"
    return f"{what}: the {'thrower' if throw else 'offender'}'s side loses one level"


SENTENCES: frozenset[str] = frozenset(key.removeprefix("fact.") for key in FINDINGS_EN if key.startswith("fact."))
"""The name of every violation sentence (tests check that each one is met)."""

__all__ = ["OFFENCE_EN", "OFFENCE_NAMES", "PENALTY_OPTION_OFFENCES", "SENTENCES", "cards_text", "detail",
           "penalty_detail"]
