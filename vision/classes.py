"""The card classifier's output contract: which class each output of ``classifier.onnx`` is.

Outputs 0..53 are the 54 cards in the order of :data:`scorer.cards.CARD_NAMES` (the one
declaration of the card vocabulary); output 54, :data:`REJECT`, is "not a card index".
Generation (:mod:`datasets`), training, export and the reader all take the order from here;
``tuolaji export`` writes :data:`CLASSIFIER_CLASSES` into ``cards.json``
(``classifier_classes``) and :func:`check_classes` holds a loaded ``cards.json`` to it.

>>> len(CLASSIFIER_CLASSES), CLASSIFIER_CLASSES[REJECT], CLASSIFIER_CLASSES[0]
(55, 'reject', '2S')
>>> check_classes({"classifier_classes": ["2S", "reject"]}, "models/cards.json")
Traceback (most recent call last):
...
tuolaji.scorer.errors.InputError: models/cards.json: classifier_classes (2 classes, starting ['2S', 'reject']) is not the reader's vocabulary (55 classes: the 54 cards of scorer.cards.CARD_NAMES, then 'reject'); re-export the models with `tuolaji export`
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tuolaji.scorer.cards import CARD_NAMES, JOKERS
from tuolaji.scorer.errors import InputError

REJECT = len(CARD_NAMES)
"""The class "not a card index" (after the 54 cards)."""
CLASSIFIER_CLASSES: tuple[str, ...] = (*CARD_NAMES, "reject")
JOKER_NAMES = JOKERS


def check_classes(meta: Mapping[str, Any], where: str) -> None:
    """Refuse a ``cards.json`` whose ``classifier_classes`` are not :data:`CLASSIFIER_CLASSES` (in order).

    A ``cards.json`` without the list (written by hand for a test) is taken as following it.
    """
    classes = meta.get("classifier_classes")
    if classes is None or (isinstance(classes, list | tuple) and tuple(classes) == CLASSIFIER_CLASSES):
        return
    shown = f"{len(classes)} classes, starting {list(classes[:3])}" if isinstance(classes, list | tuple) else repr(classes)
    raise InputError("reader.classes", where=where, shown=shown, classes=len(CLASSIFIER_CLASSES))
