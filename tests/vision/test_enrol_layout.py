"""Enrolment from one photo of the deck laid out in a known order (``tuolaji enrol NAME --layout
PHOTO``): the cards are named by where they lie, so nothing is typed; a photo that cannot be used
is refused in one line saying why."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tuolaji import cli
from tuolaji.datasets.cardart import CardStyle
from tuolaji.datasets.layout import layout_photo
from tuolaji.scorer.cards import CARD_NAMES

MODELS = Path(__file__).resolve().parents[2] / "models"
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not (MODELS / "classifier_head.npz").exists(), reason="no shipped models")]


@pytest.fixture(scope="module")
def style() -> CardStyle:
    return CardStyle.random(np.random.default_rng(3), "holdout")


def photo(tmp_path: Path, style: CardStyle, name: str, order: list[str] | None = None) -> Path:
    path = tmp_path / name
    cv2.imwrite(str(path), layout_photo(style, np.random.default_rng(1), order=order))
    return path


def test_a_deck_laid_out_in_order_is_enrolled_from_one_photo(tmp_path: Path, style: CardStyle, capsys) -> None:
    laid = photo(tmp_path, style, "layout.png")
    data = tmp_path / "data"
    assert cli.main(["enrol", "club-deck", "--layout", str(laid), "--data", str(data)]) == 0
    line = capsys.readouterr().out
    assert "enrolled deck club-deck: 1 photos" in line
    matched = int(line.split(" of 54 cards matched")[0].rsplit(" ", 1)[1])
    assert matched >= 50  # a card whose corners the reader found no box on teaches nothing, but is named all the same
    info = json.loads((data / "decks" / "club-deck" / "deck.json").read_text())
    assert info["layouts"] == [str(laid)] and info["manifest"] is None
    # the deck reads: detect with it
    assert cli.main(["detect", str(laid), "--deck", "club-deck", "--data", str(data), "--json"]) == 0
    read = json.loads(capsys.readouterr().out)
    assert len(read[0]["cards"]) >= 50


def test_a_layout_with_cards_out_of_order_is_refused_in_one_line(tmp_path: Path, style: CardStyle, capsys) -> None:
    spades_backwards = list(reversed(CARD_NAMES[:13])) + list(CARD_NAMES[13:])
    laid = photo(tmp_path, style, "backwards.png", spades_backwards)
    assert cli.main(["enrol", "club-deck", "--layout", str(laid), "--data", str(tmp_path / "data")]) == 2
    err = capsys.readouterr().err.strip()
    assert "backwards.png" in err and "not where the layout puts them" in err and "row 1" in err and "\n" not in err
    assert not (tmp_path / "data" / "decks" / "club-deck").exists()


def test_a_layout_missing_a_card_is_refused_in_one_line(tmp_path: Path, style: CardStyle, capsys) -> None:
    laid = photo(tmp_path, style, "short.png")
    image = cv2.imread(str(laid))
    image[850:, 185:] = (40, 110, 40)  # the 大王 taken away: 53 cards on the cloth
    cv2.imwrite(str(laid), image)
    assert cli.main(["enrol", "club-deck", "--layout", str(laid), "--data", str(tmp_path / "data")]) == 2
    err = capsys.readouterr().err.strip()
    assert "short.png: 53 card(s) found lying apart where a laid-out deck has 54" in err


def test_nothing_to_enrol_from_is_refused(tmp_path: Path, capsys) -> None:
    assert cli.main(["enrol", "club-deck", "--data", str(tmp_path)]) == 2
    assert "nothing to enrol from" in capsys.readouterr().err
    assert cli.main(["enrol", "club-deck", "--layout", str(tmp_path / "none.png"), "--data", str(tmp_path)]) == 2
    assert "none.png" in capsys.readouterr().err
