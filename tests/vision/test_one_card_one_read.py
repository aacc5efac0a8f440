"""Cards before names (issue "One card, one read"): the corner indices that lie on one card's
outline are one card, whatever names they are read as; a fan keeps its cards apart.

The reader reads a real picture here (a white card drawn on a green cloth, its outline found by
:func:`vision.face.card_quads`); only its corner reads are given, as a classifier might make them.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.test_card_reader import card_corners
from tuolaji.vision.detector import CARD_NAMES, CardInstance, IndexReading, group_indices
from tuolaji.vision.outlines import DISAGREEING_CONFIDENCE, cards_on_outline, join_on_outlines
from tuolaji.vision.tracking import ZoneContent, ZoneTracker

MODELS = Path(__file__).resolve().parents[2] / "models"
needs_models = pytest.mark.skipif(not (MODELS / "detector.onnx").exists(), reason="no shipped models")

CLOTH = (40, 110, 40)


def table(*cards: tuple[int, int, int, int]) -> np.ndarray:
    """A 640×480 green cloth with white cards (x, y, width, height) laid on it in order."""
    frame = np.zeros((480, 640, 3), np.uint8)
    frame[:] = CLOTH
    for x, y, w, h in cards:
        cv2.rectangle(frame, (x, y), (x + w, y + h), (70, 70, 70), 2)
        cv2.rectangle(frame, (x + 1, y + 1), (x + w - 1, y + h - 1), (245, 245, 245), -1)
    return frame


def probable(name: str, p: float, other: str) -> np.ndarray:
    probs = np.full(54, (1 - p - 0.02) / 52, np.float32)
    probs[CARD_NAMES.index(name)], probs[CARD_NAMES.index(other)] = p, 0.02
    return probs


def settled(card: CardInstance) -> ZoneContent:
    """What a seat zone holding ``card`` settles as, read twice the same way (the table's tracker)."""
    tracker = ZoneTracker(fan_direction=(1.0, 0.0))
    observation = [(card.card, 0.5, 0.8, card.confidence, tuple(card.candidates(2)))]
    tracker.observe(observation)
    content = tracker.observe(observation)
    assert content is not None
    return content


@pytest.fixture()
def reader_of(monkeypatch: pytest.MonkeyPatch):
    """The shipped reader, its corner reads replaced by the given ones (faces not read)."""
    from tuolaji.vision.detector import CardReader

    reader = CardReader.load()
    reader.settings = dataclasses.replace(reader.settings, face_threshold=0.0)

    def make(readings: list[IndexReading]):
        monkeypatch.setattr(reader, "read_indices", lambda _frame: list(readings))
        return reader

    return make


@needs_models
def test_a_single_of_a_four_corner_deck_is_one_card(reader_of) -> None:
    # small indices (a card 17 index sizes tall), corner sides not read: by their geometry alone
    # no two corners are surely one card's, and one 5♦ would be four
    corners = card_corners("5D", 200, 150, 100, 140, 0.0, corners=4, index=8)
    assert len(group_indices(corners)) == 4
    cards = reader_of(corners).read(table((200, 150, 100, 140)))
    assert [(c.card, len(c.indices)) for c in cards] == [("5D", 4)]


@needs_models
def test_corners_read_as_two_cards_are_one_card_for_a_person_to_confirm(reader_of) -> None:
    top, bottom = card_corners("2S", 200, 150, 100, 140, 0.0)
    top = dataclasses.replace(top, card="2S", confidence=0.93, probs=probable("2S", 0.95, "2C"))
    bottom = dataclasses.replace(bottom, card="2C", confidence=0.88, probs=probable("2C", 0.9, "2S"))
    assert len(group_indices([top, bottom])) == 2  # names no one card could have: two cards by the corners
    cards = reader_of([top, bottom]).read(table((200, 150, 100, 140)))
    assert len(cards) == 1 and cards[0].card == "2S" and cards[0].confidence <= DISAGREEING_CONFIDENCE
    # the table's tracker marks it for a person to confirm: one card, 待确认
    content = settled(cards[0])
    assert content.cards == ("2S",) and content.unconfirmed == (0,)


@needs_models
def test_a_fanned_pair_stays_two_cards(reader_of) -> None:
    lower = card_corners("7H", 200, 150, 100, 140, 0.0)
    upper = card_corners("7H", 232, 150, 100, 140, 0.0)
    readings = [lower[0], *upper]  # the lower card's bottom corner lies under the upper card
    cards = reader_of(readings).read(table((200, 150, 100, 140), (232, 150, 100, 140)))
    assert sorted(c.card for c in cards) == ["7H", "7H"]


@needs_models
def test_two_cards_side_by_side_keep_their_own_corners(reader_of) -> None:
    left = card_corners("9C", 150, 150, 100, 140, 0.0)
    right = card_corners("9S", 262, 150, 100, 140, 0.0)
    cards = reader_of([*left, *right]).read(table((150, 150, 100, 140), (262, 150, 100, 140)))
    assert sorted((c.card, len(c.indices)) for c in cards) == [("9C", 2), ("9S", 2)]


@needs_models
def test_a_column_of_pips_read_as_an_index_is_no_second_card(reader_of) -> None:
    # a held-out video's lone 5♣ came back as two cards: its corner, and its pips read as a 4♣
    # twice an index's size, off the corners: the card's print, not another card's index
    corners = card_corners("5C", 200, 150, 100, 140, 0.0)
    pips = IndexReading("4C", (225, 165, 275, 235), 0.8, 0.0)
    assert len(group_indices([*corners, pips])) == 2
    cards = reader_of([*corners, pips]).read(table((200, 150, 100, 140)))
    assert [(c.card, len(c.indices)) for c in cards] == [("5C", 2)]


def test_an_index_off_the_corners_keeps_the_outline_from_joining() -> None:
    quad = np.array([[0, 0], [100, 0], [100, 140], [0, 140]], np.float32)
    top = CardInstance("4C", (4, 4, 18, 30), 0.9, (IndexReading("4C", (4, 4, 18, 30), 0.9, 0.0),))
    middle = CardInstance("AC", (40, 55, 60, 85), 0.7, (IndexReading("AC", (40, 55, 60, 85), 0.7, 0.0),))
    assert cards_on_outline([top, middle], quad) is None
    assert sorted(c.card for c in join_on_outlines([top, middle], [quad])) == ["4C", "AC"]


def test_a_card_crossing_the_outline_keeps_it_from_joining() -> None:
    quad = np.array([[0, 0], [100, 0], [100, 140], [0, 140]], np.float32)
    inside = IndexReading("8D", (82, 110, 96, 136), 0.9, 180.0)
    outside = IndexReading("8D", (160, 110, 174, 136), 0.9, 180.0)
    top = CardInstance("8D", (4, 4, 18, 30), 0.9, (IndexReading("8D", (4, 4, 18, 30), 0.9, 0.0),))
    crossing = CardInstance("8D", (82, 110, 174, 136), 0.9, (inside, outside))
    assert cards_on_outline([top, crossing], quad) is None


@needs_models
def test_a_card_nothing_could_name_is_still_a_card_of_the_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """A joker of a design never seen: no index read, the face unsure which card it is. The table's
    reader still reports a card there (its face's likeliest name, unsure), so the play is recorded
    with one card for a person to name, never lost."""
    from tuolaji.vision.classes import REJECT
    from tuolaji.vision.detector import TABLE, CardReader
    from tuolaji.vision.inference import GUESS_CONFIDENCE

    reader = CardReader.load(**TABLE)
    monkeypatch.setattr(reader, "read_indices", lambda _frame: [])

    class UnsureFaces:
        def read_both_ways(self, faces: np.ndarray) -> np.ndarray:
            probs = np.full((len(faces), REJECT + 1), 0.7 / REJECT, np.float32)
            probs[:, CARD_NAMES.index("BJ")] = 0.3
            probs[0] = 0.0
            probs[0, REJECT] = 1.0  # the whole picture: a table, not a card
            return probs

    monkeypatch.setattr(reader, "_face", UnsureFaces())
    cards = reader.read(table((200, 150, 100, 140)))
    assert [(c.card, c.confidence) for c in cards] == [("BJ", GUESS_CONFIDENCE)]
    content = settled(cards[0])
    assert len(content.cards) == 1 and content.unconfirmed == (0,)
