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

from .messages import FINDINGS_EN, FINDINGS_ZH
from .violations import Fact, PenaltyFact, RulingFact


def detail(fact: Fact) -> str:
    """A violation's ``detail``: its fact's message in the record's English."""
    return str(fact.message())


# --- penalties ------------------------------------------------------------------------------------

OFFENCE_EN: dict[str, str] = {offence: FINDINGS_EN[f"offence.{offence}"]
                              for offence in ("throw", "discard", "trumping", "kitty", "card-count")}
"""The English name of each offence seed 001 Ⅰ.九 penalises (:data:`scorer.violations.Offence`), as
:data:`scorer.messages.FINDINGS_EN` words them (``offence.…``); its Chinese is :data:`OFFENCES_ZH`,
and both are read, never spelled again."""

OFFENCES_ZH: dict[str, str] = {offence: FINDINGS_ZH[f"offence.{offence}"] for offence in OFFENCE_EN}
"""The Chinese name of each offence (:data:`OFFENCE_EN`), as :data:`scorer.messages.FINDINGS_ZH`
words them: the one table of them on the page."""

PENALTY_OPTION_OFFENCES: dict[str, str] = {"throw_penalty": "throw", "discard_penalty": "discard",
                                           "trump_penalty": "trumping", "kitty_penalty": "kitty",
                                           "card_count_penalty": "card-count"}
"""The offence each penalty option (:data:`scorer.profiles.PENALTY_OPTIONS`) penalises."""


def penalty_detail(fact: PenaltyFact | RulingFact) -> str:
    """A penalty's ``detail``: its message in the record's English.

    >>> penalty_detail(PenaltyFact("discard", "points", wrong=2, per=10))
    'wrong discard: 2 wrong cards × 10'
    >>> penalty_detail(PenaltyFact("throw", "level", wrong=1, cards=(0, 0, 1)))
    "failed throw ♠2 ♠2 ♠3: the thrower's side loses one level"
    >>> penalty_detail(RulingFact(0, "must-follow-suit", 20, 0))
    'ruling (must-follow-suit): 20 points'
    """
    return str(fact.message())


SENTENCES: frozenset[str] = frozenset(key.removeprefix("fact.") for key in FINDINGS_EN if key.startswith("fact."))
"""The name of every violation sentence (tests check that each one is met)."""

__all__ = ["OFFENCES_ZH", "OFFENCE_EN", "PENALTY_OPTION_OFFENCES", "SENTENCES", "detail",
           "penalty_detail"]
