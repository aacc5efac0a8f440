"""Indices that print the suit beside the rank are read as the rank above its suit (issue 41:
held-out horizontal designs)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from tuolaji.datasets.scenes import generate_scene
from tuolaji.scorer.cards import CARD_NAMES
from tuolaji.vision.cardcrop import crop_restacked
from tuolaji.vision.classes import REJECT
from tuolaji.vision.inference import CardReader

_SQUARE, _DISC = (0, 0, 200), (200, 0, 0)  # BGR: the "rank" red, the "suit" blue


def _index_beside(turns: int) -> tuple[np.ndarray, tuple[float, float, float, float], tuple[float, float]]:
    """A white card with a red square (the rank) left of a blue disc (the suit), turned by
    ``turns`` quarter turns anticlockwise on screen; its box and the up-vector the classifier gives
    such an index (along the line of print, towards the rank)."""
    image = np.full((200, 200, 3), 255, np.uint8)
    cv2.rectangle(image, (70, 88), (92, 112), _SQUARE, -1)
    cv2.circle(image, (118, 100), 11, _DISC, -1)
    box = (64.0, 82.0, 136.0, 118.0)
    up = (-1.0, 0.0)
    for _ in range(turns % 4):
        image = np.ascontiguousarray(np.rot90(image))  # anticlockwise on screen: (x, y) -> (y, W-1-x)
        x1, y1, x2, y2 = box
        box = (y1, 199 - x2, y2, 199 - x1)
        up = (up[1], -up[0])
    return image, box, up


def _centre_of(crop: np.ndarray, colour: tuple[int, int, int]) -> np.ndarray:
    near = np.abs(crop.astype(int) - np.array(colour)).sum(axis=2) < 150
    ys, xs = np.nonzero(near)
    assert len(xs) > 0, f"no {colour} in the crop"
    return np.array([xs.mean(), ys.mean()])


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_the_suit_beside_the_rank_comes_out_under_it_however_the_card_lies(turns: int) -> None:
    image, box, up = _index_beside(turns)
    crop = crop_restacked(image, box, up)
    rank, suit = _centre_of(crop, _SQUARE), _centre_of(crop, _DISC)
    assert abs(rank[0] - suit[0]) < 6  # one above the other
    assert rank[1] < suit[1] - 8  # the rank on top


def test_an_index_turned_by_a_half_comes_out_turned_by_a_half() -> None:
    image, box, up = _index_beside(0)
    crop = crop_restacked(image, box, (-up[0], -up[1]))  # the classifier's up the other way along the line
    rank, suit = _centre_of(crop, _SQUARE), _centre_of(crop, _DISC)
    assert abs(rank[0] - suit[0]) < 6 and rank[1] > suit[1] + 8


def test_a_mirrored_corner_comes_out_turned_by_a_half_when_stacked_the_other_way() -> None:
    """A 4-corner deck's right-hand corners print the suit inside and the rank at the card's edge:
    the classifier's up then points right, towards the rank, and the turned patch has the rank on the
    left, upside down; set under the suit it is an ordinary index turned by a half."""
    image = np.full((200, 200, 3), 255, np.uint8)
    cv2.circle(image, (82, 100), 11, _DISC, -1)
    cv2.rectangle(image, (108, 88), (130, 112), _SQUARE, -1)
    crop = crop_restacked(image, (64.0, 82.0, 136.0, 118.0), (1.0, 0.0), rank_first=False)
    rank, suit = _centre_of(crop, _SQUARE), _centre_of(crop, _DISC)
    assert abs(rank[0] - suit[0]) < 6 and rank[1] > suit[1] + 8


def _horizontal_indices(count: int) -> list[tuple[np.ndarray, np.ndarray, list[str]]]:
    """Held-out scenes whose decks all print the suit beside the rank: each image, its fully
    visible index boxes of at least 16 px and their cards."""
    scenes = []
    for index in range(count):
        scene = generate_scene(4107, index, 640, 480, split="holdout", horizontal=1.0)
        shown = [i for i in scene.labelled_indices() if i.visible >= 0.99 and min(i.box[2] - i.box[0], i.box[3] - i.box[1]) >= 16]
        if shown:
            scenes.append((scene.image, np.array([i.box for i in shown], np.float32), [i.card for i in shown]))
    return scenes


@pytest.mark.slow  # the shipped reader on 8-14 rendered scenes: about 10 s
def test_the_shipped_reader_reads_more_horizontal_indices_right_restacked_and_no_fewer_ordinary_ones() -> None:
    plain = CardReader.load(threads=1, restack_below=0.0, classify_turns=4)
    restacking = CardReader.load(threads=1, restack_below=0.4, classify_turns=4)
    right = {"plain": 0, "restacking": 0}
    total = 0
    for image, boxes, cards in _horizontal_indices(8):
        total += len(cards)
        for name, reader in (("plain", plain), ("restacking", restacking)):
            probs, _up, _side = reader.classify(image, boxes)
            right[name] += sum(CARD_NAMES[k] == card for k, card in zip(probs.argmax(axis=1), cards, strict=True) if k != REJECT)
    assert total >= 40
    assert right["restacking"] >= right["plain"] + 0.08 * total, (right, total)
    ordinary = {"plain": 0, "restacking": 0}
    for index in range(6):  # ordinary scenes of held-out designs: no index read worse
        scene = generate_scene(4107, index, 640, 480, split="holdout")
        boxes = np.array([i.box for i in scene.labelled_indices()], np.float32)
        cards = [i.card for i in scene.labelled_indices()]
        for name, reader in (("plain", plain), ("restacking", restacking)):
            probs, _up, _side = reader.classify(scene.image, boxes)
            ordinary[name] += sum(CARD_NAMES[k] == card for k, card in zip(probs.argmax(axis=1), cards, strict=True) if k != REJECT)
    assert ordinary["restacking"] >= ordinary["plain"], ordinary


@pytest.mark.slow  # the shipped reader on 8-14 rendered scenes: about 10 s
def test_a_reader_told_the_deck_is_horizontal_turns_its_indices_the_right_way() -> None:
    """The classifier takes a horizontal index for an ordinary one lying on its side: its directions,
    which join a card's corners into one card, are a quarter turn off; told the deck's layout, the
    reader gives the cards' own directions."""
    told = CardReader.load(threads=1, classify_turns=4, index_layout="horizontal")
    untold = CardReader.load(threads=1, classify_turns=4)
    within = {"told": 0, "untold": 0}
    total = 0
    for index in range(8):
        scene = generate_scene(4107, index, 640, 480, split="holdout", horizontal=1.0)
        shown = scene.labelled_indices()
        boxes = np.array([i.box for i in shown], np.float32)
        truth = np.array([[math.sin(math.radians(i.angle_deg)), -math.cos(math.radians(i.angle_deg))] for i in shown])
        total += len(shown)
        for name, reader in (("told", told), ("untold", untold)):
            ups = reader.classify(scene.image, boxes)[1]
            within[name] += int(((ups * truth).sum(axis=1) > math.cos(math.radians(30))).sum())
    assert within["untold"] < 0.25 * total < 0.4 * total < within["told"], (within, total)
