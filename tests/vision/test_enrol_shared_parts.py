"""Enrolment teaches a deck's ranks and suits, not only the cards its photos show (issue 42,
item 1: "its index glyphs and suit pips"): a K♣ on the photos teaches the deck's kings and clubs,
so a K♠ the photos never showed is read with the deck's kings and spades, not taken for the K♣
that was taught. Before, each card's row of the head was adapted on its own, and on a drawn deck
enrolled on 12 photos the K♠ and K♥ it had not shown were read as K♣ and K♦."""

from __future__ import annotations

import json
import os
from pathlib import Path

import cv2
import numpy as np
import pytest

from tuolaji import cli
from tuolaji.datasets.deck_photos import ProceduralDeck, draw_deck_photos
from tuolaji.scorer.cards import CARD_NAMES
from tuolaji.vision.decks import adapt_head, card_groups, load_deck
from tuolaji.vision.inference import CardReader

CLASSES = len(CARD_NAMES) + 1


def _features(card: str, shipped: bool, rng: np.random.Generator, glyphs: np.ndarray) -> np.ndarray:
    """A crop's features: its rank's glyph plus its suit's pip, as the shipped decks draw them
    (``shipped``) or as this deck does (glyphs of its own), with some noise."""
    k = CARD_NAMES.index(card)
    rank, suit = k % 13, k // 13
    row = glyphs[rank] + glyphs[13 + suit + (0 if shipped else 4)]
    return (row + 0.05 * rng.normal(size=row.shape)).astype(np.float32)


def test_a_card_the_photos_did_not_show_is_read_by_what_its_rank_and_suit_taught() -> None:
    rng = np.random.default_rng(3)
    glyphs = np.eye(21, 64, dtype=np.float32) * 3  # 13 ranks, 4 shipped suits' pips, 4 of this deck's
    shipped = np.stack([_features(c, True, rng, glyphs) for c in CARD_NAMES for _ in range(8)])
    labels = np.repeat(np.arange(len(CARD_NAMES)), 8)
    weight, bias = adapt_head(np.zeros((CLASSES, 64), np.float32), np.zeros(CLASSES, np.float32), shipped, labels,
                              steps=400)  # a head that reads the shipped decks
    taught = [c for c in CARD_NAMES[:52] if c not in ("KS", "KH", "8C")]  # what the enrolment photos showed
    crops = np.stack([_features(c, False, rng, glyphs) for c in taught for _ in range(4)])
    deck_w, deck_b = adapt_head(weight, bias, crops, np.repeat([CARD_NAMES.index(c) for c in taught], 4))
    unseen = np.stack([_features(c, False, rng, glyphs) for c in ("KS", "KH", "8C")])
    assert [CARD_NAMES[int(k)] for k in (unseen @ deck_w.T + deck_b).argmax(axis=1)] == ["KS", "KH", "8C"]
    # each card's row on its own (no shared parts) takes them for the cards that were taught
    alone_w, alone_b = adapt_head(weight, bias, crops, np.repeat([CARD_NAMES.index(c) for c in taught], 4),
                                  groups=np.zeros((CLASSES, 0), np.float32))
    assert [CARD_NAMES[int(k)] for k in (unseen @ alone_w.T + alone_b).argmax(axis=1)] != ["KS", "KH", "8C"]


def test_card_groups_are_a_rank_and_a_suit_each() -> None:
    groups = card_groups()
    assert groups.shape == (CLASSES, 22) and (groups.sum(axis=1) == 2).all()
    assert card_groups(2).shape == (2, 0)


@pytest.mark.slow
def test_enrolled_on_twelve_photos_the_kings_they_did_not_show_are_read_on_the_others(tmp_path: Path) -> None:
    # the drawn horizontal deck bench/enrol_bench.py --horizontal 11 enrols: 12 of 40 photos, no K♠ among them
    photos = draw_deck_photos(ProceduralDeck.drawn(11, index_layout="horizontal"), 40, tmp_path / "photos")
    images = sorted((photos / "images").iterdir())
    cards = {image: json.loads((photos / "labels" / (image.stem + ".json")).read_text())["cards"] for image in images}
    chosen = [images[int(i * len(images) / 12)] for i in range(12)]
    assert not any("KS" in cards[image] for image in chosen)
    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps([{"image": os.path.relpath(image, tmp_path), "cards": cards[image]} for image in chosen]))
    data = tmp_path / "data"
    assert cli.main(["enrol", "home-deck", str(manifest), "--data", str(data)]) == 0
    reader = CardReader.load(threads=1, deck=load_deck(data, "home-deck"))
    kings = [image for image in images if image not in chosen and {"KS", "KH"} & set(cards[image])]
    assert len(kings) >= 3
    for image in kings:
        read = [card.card for card in reader.read(cv2.imread(str(image)))]
        assert len(read) == len(cards[image]), image.name
        assert [k for k in cards[image] if k in ("KS", "KH")] == [k for k in read if k in ("KS", "KH")], image.name
