"""The card artwork: 54 canonical cards, styles, index boxes, train/holdout separation."""

from __future__ import annotations

import numpy as np
import pytest

from tuolaji.datasets.cardart import (
    CARD_NAMES,
    CardStyle,
    available_fonts,
    card_size,
    index_boxes,
    render_back,
    render_card,
    split_card,
)


def test_card_names_are_canonical_and_ordered() -> None:
    assert len(CARD_NAMES) == 54 == len(set(CARD_NAMES))
    assert CARD_NAMES[:13] == ("2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS")
    assert CARD_NAMES[13] == "2H" and CARD_NAMES[26] == "2C" and CARD_NAMES[39] == "2D"
    assert CARD_NAMES[-2:] == ("SJ", "BJ")
    with pytest.raises(ValueError):
        split_card("1H")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_card_renders_with_transparent_corners(seed: int) -> None:
    style = CardStyle.random(np.random.default_rng(seed))
    for name in CARD_NAMES:
        img = render_card(name, style, 110)
        w, h = card_size(style, 110)
        assert img.shape == (h, w, 4) and img.dtype == np.uint8
        assert img[0, 0, 3] == 0 and img[h // 2, w // 2, 3] == 255
    back = render_back(style, 110)
    assert back.shape == (h, w, 4)


def test_index_boxes_lie_in_the_corners_and_hold_ink() -> None:
    for seed in range(6):
        style = CardStyle.random(np.random.default_rng(seed))
        for name in ("10H", "QS", "AD", "SJ", "BJ"):
            img = render_card(name, style, 160)
            h, w = img.shape[:2]
            boxes = index_boxes(name, style, 160)
            assert len(boxes) == style.corners
            for x1, y1, x2, y2 in boxes:
                assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h
                # each index sits in one quadrant of the card
                assert (x2 <= w / 2 + 1) or (x1 >= w / 2 - 1)
                assert (y2 <= h / 2 + 1) or (y1 >= h / 2 - 1)
                patch = img[round(y1):round(y2), round(x1):round(x2), :3].astype(int)
                face = np.array(style.face_colour)
                assert np.abs(patch - face).sum(axis=2).max() > 80, "index box without ink"


def test_red_and_black_indices_and_jokers() -> None:
    style = CardStyle.random(np.random.default_rng(11)).with_corners(2)

    def ink(name: str) -> np.ndarray:
        img = render_card(name, style, 200)
        x1, y1, x2, y2 = (round(v) for v in index_boxes(name, style, 200)[0])
        patch = img[y1:y2, x1:x2, :3].reshape(-1, 3).astype(int)
        dark = patch[patch.sum(axis=1) < 450]
        return dark.mean(axis=0)

    b, g, r = ink("7H")
    assert r > b + 60 and r > g + 60  # hearts print red
    b, g, r = ink("7S")
    assert max(b, g, r) - min(b, g, r) < 40  # spades print black
    b, g, r = ink("SJ")
    assert max(b, g, r) - min(b, g, r) < 40  # 小王 is black
    b, g, r = ink("BJ")
    assert max(b, g, r) - min(b, g, r) > 60  # 大王 is in colour


def test_styles_are_seeded_and_splits_disjoint() -> None:
    a = CardStyle.random(np.random.default_rng(5))
    b = CardStyle.random(np.random.default_rng(5))
    assert a == b
    fonts = available_fonts()
    if fonts["holdout"] != fonts["train"]:
        assert not set(fonts["train"]) & set(fonts["holdout"])
    train = {CardStyle.random(np.random.default_rng(s), "train") for s in range(40)}
    holdout = {CardStyle.random(np.random.default_rng(s), "holdout") for s in range(40)}
    assert {s.court_style for s in train}.isdisjoint({s.court_style for s in holdout})
    assert {s.joker_style for s in train}.isdisjoint({s.joker_style for s in holdout})
    assert {s.pip_variant for s in train}.isdisjoint({s.pip_variant for s in holdout})
    assert {s.corners for s in train} == {2, 4}
    with pytest.raises(ValueError):
        CardStyle.random(np.random.default_rng(0), "test")
