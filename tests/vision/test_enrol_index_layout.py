"""Enrolment finds how the deck prints its corners (issue 42, item 1: "its corners' layout ...
vertical or horizontal"): a deck is learnt both ways, the rank above its suit and the suit beside
the rank; the way its print shows (its indices' width over height) is kept, with the deck, and
where the photos do not show it, the way that then reads the enrolment's own photos as the cards
listed best; a reader with the deck reads its indices so."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from tuolaji import cli
from tuolaji.datasets.deck_photos import ProceduralDeck, draw_deck_photos
from tuolaji.vision import enrol as enrolment
from tuolaji.vision.decks import DeckHead, classifier_fingerprint, load_deck, save_deck
from tuolaji.vision.inference import CardReader

MODELS = Path(__file__).resolve().parents[2] / "models"


def test_a_deck_saved_as_horizontal_is_read_so_unless_told_otherwise(tmp_path: Path) -> None:
    with np.load(MODELS / "classifier_head.npz") as head:
        deck = DeckHead("sideways", head["weight"], head["bias"], classifier_fingerprint(MODELS / "classifier.onnx"),
                        "horizontal")
    save_deck(tmp_path, deck, {"name": "sideways"})
    loaded = load_deck(tmp_path, "sideways")
    assert loaded.index_layout == "horizontal"
    assert CardReader.load(threads=1, deck=loaded).settings.index_layout == "horizontal"
    assert CardReader.load(threads=1, deck=loaded, index_layout="vertical").settings.index_layout == "vertical"
    assert CardReader.load(threads=1).settings.index_layout == "vertical"
    with pytest.raises(ValueError, match="index_layout must be one of"):
        CardReader.load(threads=1, index_layout="sideways")


def _manifest(tmp_path: Path, layout: str, seed: int = 11) -> Path:
    photos = draw_deck_photos(ProceduralDeck.drawn(seed, index_layout=layout), 4, tmp_path / "photos")
    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps([{"image": os.path.relpath(image, tmp_path),
                                     "cards": json.loads((photos / "labels" / (image.stem + ".json")).read_text())["cards"]}
                                    for image in sorted((photos / "images").iterdir())]))
    return manifest


@pytest.mark.slow
@pytest.mark.parametrize("layout", ["vertical", "horizontal"])
def test_enrolment_keeps_the_layout_its_print_shows(tmp_path: Path, monkeypatch, layout: str) -> None:
    # four photos of a held-out design: both learnt decks read them back about alike (the horizontal
    # decks' reader reads ordinary indices well too: table-photos once tied, and went horizontal), so
    # the print decides, even where the other layout's learnt deck would read the photos better
    manifest = _manifest(tmp_path, layout, seed=3)
    other = "vertical" if layout == "horizontal" else "horizontal"
    real = enrolment._cards_read_right
    monkeypatch.setattr(enrolment, "_cards_read_right", lambda models, threads, deck, seen:
                        real(models, threads, deck, seen) + (100 if deck.index_layout == other else 0))
    data = tmp_path / "data"
    assert cli.main(["enrol", "home-deck", str(manifest), "--data", str(data)]) == 0
    info = json.loads((data / "decks" / "home-deck" / "deck.json").read_text())
    assert info["index_layout"] == layout == load_deck(data, "home-deck").index_layout
    assert (info["index_aspect"] >= enrolment.HORIZONTAL_ASPECT) == (layout == "horizontal")
    assert info["cards_matched"] == info["cards_listed"]


@pytest.mark.slow
@pytest.mark.parametrize("better", ["vertical", "horizontal"])
def test_where_the_print_is_not_seen_the_layout_that_reads_its_photos_best_is_kept(tmp_path: Path, monkeypatch,
                                                                                     better: str) -> None:
    manifest = _manifest(tmp_path, "horizontal")
    judged = []
    real = enrolment._cards_read_right

    def judge(models: Path, threads: int, deck: DeckHead, seen: list) -> int:  # each candidate deck really reads the photos
        right = real(models, threads, deck, seen)
        judged.append((deck.index_layout, right))
        return right + (100 if deck.index_layout == better else 0)

    monkeypatch.setattr(enrolment, "_cards_read_right", judge)
    monkeypatch.setattr(enrolment, "index_aspect", lambda seen, layout="vertical": float("nan"))  # no index near an axis
    data = tmp_path / "data"
    assert cli.main(["enrol", "home-deck", str(manifest), "--data", str(data)]) == 0
    assert sorted(layout for layout, _right in judged) == ["horizontal", "vertical"]
    assert all(right > 0 for _layout, right in judged)  # both learnt decks read most of the listed cards
    info = json.loads((data / "decks" / "home-deck" / "deck.json").read_text())
    assert info["index_layout"] == better == load_deck(data, "home-deck").index_layout
    assert info["index_aspect"] is None
    assert info["cards_matched"] == info["cards_listed"]
