"""Photos of one deck, as a table's camera takes them: what enrolment is measured on where no real
photos of a deck are at hand (``bench/enrol_bench.py --design`` / ``--horizontal``, the tests).

A deck is anything with ``has(card)`` and ``render(card, height_px)`` (BGRA): an imported design
(:class:`datasets.realart.RealDeck`) or a procedural one (:class:`ProceduralDeck`).

>>> import tempfile
>>> deck = ProceduralDeck.drawn(7, index_layout="horizontal")
>>> deck.style.index_layout, deck.has("BJ"), deck.render("AS", 100).shape[2]
('horizontal', True, 4)
>>> with tempfile.TemporaryDirectory() as folder:
...     photos = draw_deck_photos(deck, 2, Path(folder) / "photos")
...     sorted(p.name for p in (photos / "labels").iterdir())
['photo000.json', 'photo001.json']
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from tuolaji.datasets.cardart import CardStyle, render_card
from tuolaji.datasets.realcrops import camera_look
from tuolaji.scorer.cards import CARD_NAMES


def paste_card(canvas: np.ndarray, face: np.ndarray, centre: tuple[float, float], angle: float) -> None:
    """``face`` (a BGRA card) drawn onto ``canvas`` in place, centred at ``centre``, turned ``angle``
    degrees counter-clockwise, its transparent corners showing what lies under them.

    >>> canvas = np.zeros((100, 100, 3), np.uint8)
    >>> paste_card(canvas, np.full((20, 10, 4), 255, np.uint8), (50.0, 50.0), 90.0)
    >>> int(canvas[50, 40:61, 0].astype(bool).sum()), int(canvas[40:61, 50, 0].astype(bool).sum())
    (20, 10)
    """
    h, w = face.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    matrix[:, 2] += (centre[0] - w / 2, centre[1] - h / 2)
    size = (canvas.shape[1], canvas.shape[0])
    colour = cv2.warpAffine(face[:, :, :3], matrix, size, flags=cv2.INTER_AREA)
    alpha = cv2.warpAffine(face[:, :, 3], matrix, size, flags=cv2.INTER_AREA).astype(np.float32)[..., None] / 255
    canvas[:] = (canvas * (1 - alpha) + colour * alpha).astype(np.uint8)


class Deck(Protocol):
    def has(self, card: str) -> bool: ...

    def render(self, card: str, height_px: int) -> np.ndarray: ...


@dataclass(frozen=True)
class ProceduralDeck:
    """A procedural design (:class:`datasets.cardart.CardStyle`), every card of it."""

    style: CardStyle

    @staticmethod
    def drawn(seed: int, split: str = "holdout", index_layout: str = "vertical") -> ProceduralDeck:
        """The design ``seed`` draws from ``split``'s fonts and designs, its indices printed so."""
        return ProceduralDeck(CardStyle.random(np.random.default_rng(seed), split).with_index_layout(index_layout))

    def has(self, card: str) -> bool:
        return card in CARD_NAMES

    def render(self, card: str, height_px: int) -> np.ndarray:
        return render_card(card, self.style, height_px)


def draw_deck_photos(deck: Deck, count: int, folder: Path, seed: int = 0) -> Path:
    """``count`` 640×480 photos of ``deck``, 3-6 cards each at a table camera's scale, turned any
    way, on varied cloths, with a camera's look: a real-photo folder (``images/``, ``labels/``)."""
    names = [n for n in CARD_NAMES if deck.has(n)]
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    rng = np.random.default_rng(seed)
    for n in range(count):
        canvas = np.empty((480, 640, 3), np.uint8)
        canvas[:] = rng.integers(30, 140, 3)
        canvas = cv2.add(canvas, rng.integers(0, 25, canvas.shape, dtype=np.uint8))
        chosen = [names[int(k)] for k in rng.choice(len(names), size=int(rng.integers(3, 7)), replace=False)]
        height = float(rng.uniform(90, 170))
        for k, name in enumerate(chosen):
            centre = (90 + (k % 3) * 210 + rng.uniform(-25, 25), 120 + (k // 3) * 240 + rng.uniform(-25, 25))
            paste_card(canvas, deck.render(name, int(height)), centre, float(rng.uniform(0, 360)))
        cv2.imwrite(str(folder / "images" / f"photo{n:03d}.jpg"), camera_look(canvas, rng))
        (folder / "labels" / f"photo{n:03d}.json").write_text(json.dumps({"cards": chosen}))
    return folder
