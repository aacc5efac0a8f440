"""Card art imported from real decks: id mapping, the index-box finder, the cache, scenes.

Tests that render need ``rsvg-convert`` and one installed deck (Debian's
gnome-cards-data or the npm decks under data/cardart-npm; ``scripts/setup.sh dev``
installs both); they skip, saying which, when those are missing.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tuolaji import cli
from tuolaji.datasets import realart
from tuolaji.datasets.cardart import CARD_NAMES, CardStyle, index_boxes, render_card
from tuolaji.datasets.scenes import generate_scene


def _fast_design() -> realart.Design:
    """An installed design that renders quickly (one small SVG per card first)."""
    if not realart.rsvg_available():
        pytest.skip("rsvg-convert is not installed (Debian librsvg2-bin: scripts/setup.sh dev)")
    for name in ("npm-younestouati", "gnome-anglo", "npm-svg-cards", "kde-standard"):
        design = next(d for d in realart.DESIGNS if d.name == name)
        if design.installed():
            return design
    pytest.skip("no deck installed: gnome-cards-data, kdegames-card-data-kf5 or data/cardart-npm (scripts/setup.sh dev)")


@pytest.fixture(scope="module")
def one_deck(tmp_path_factory: pytest.TempPathFactory) -> realart.Design:
    """A private cache holding one train design, the only one known while these tests run."""
    design = _fast_design()
    cache = tmp_path_factory.mktemp("cardart-cache")
    patch = pytest.MonkeyPatch()
    patch.setattr(realart, "CACHE_DIR", cache)
    patch.setattr(realart, "DESIGNS", (design,))
    realart.load_deck.cache_clear()
    realart._face_image.cache_clear()
    realart.build_design(design, workers=2)
    yield design
    patch.undo()
    realart.load_deck.cache_clear()
    realart._face_image.cache_clear()


def test_every_scheme_maps_the_54_names_to_distinct_ids() -> None:
    for scheme in ("aisleriot", "kde", "younestouati", "cardsjs"):
        ids = [realart.source_card_id(scheme, n) for n in CARD_NAMES]
        present = [i for i in ids if i is not None]
        assert len(present) == len(set(present)) >= 52, scheme
    assert realart.source_card_id("aisleriot", "SJ") == "joker_black"  # 小王 is the black joker
    assert realart.source_card_id("aisleriot", "BJ") == "joker_red"  # 大王 the coloured one
    assert realart.source_card_id("kde", "KH") == "king_heart"
    assert realart.source_card_id("younestouati", "JD") == "11d"
    assert realart.source_card_id("cardsjs", "10S") == "10S"
    with pytest.raises(ValueError):
        realart.source_card_id("nope", "AS")


def test_the_designs_have_unique_names_and_a_disjoint_holdout() -> None:
    names = [d.name for d in realart.DESIGNS]
    assert len(names) == len(set(names))
    assert realart.HOLDOUT_DESIGNS <= set(names)
    train = {n for n in names if realart.design_split(n) == "train"}
    holdout = {n for n in names if realart.design_split(n) == "holdout"}
    assert train and holdout and not train & holdout and train | holdout == set(names)
    # a design packaged twice (GNOME and KDE, npm) is one family, on one side only
    families: dict[str, set[str]] = {}
    for d in realart.DESIGNS:
        families.setdefault(d.family_name(), set()).add(realart.design_split(d.name))
    assert all(len(sides) == 1 for sides in families.values()), families
    assert {"gnome-paris", "kde-gm-paris", "npm-cardsjs"} <= realart.HOLDOUT_DESIGNS
    # whatever is cached on this machine follows the split
    assert not set(realart.available_designs("train")) & set(realart.available_designs("holdout"))


@pytest.mark.parametrize("name", ["10H", "QS", "AC", "BJ"])
def test_the_finder_finds_the_procedural_indices(name: str) -> None:
    """On the project's own art, whose boxes are known, the finder lands on the same corners."""
    style = CardStyle.random(np.random.default_rng(5)).with_corners(2)
    face = render_card(name, style, realart.CACHE_PX)
    found, reason = realart.find_index_boxes(face)
    assert reason == "" and len(found) == 2
    for got, want in zip(found, index_boxes(name, style, realart.CACHE_PX), strict=True):
        assert _iou(got, want) > 0.5, (name, got, want)


def test_the_finder_sees_four_corners_and_rejects_a_blank_face() -> None:
    style = CardStyle.random(np.random.default_rng(8)).with_corners(4)
    found, _ = realart.find_index_boxes(render_card("7D", style, realart.CACHE_PX))
    assert len(found) == 4
    blank = render_card("7D", style, realart.CACHE_PX)
    blank[:, :, :3] = 250
    assert realart.find_index_boxes(blank) == ([], "no top-left index")


def test_index_boxes_of_a_real_face_sit_in_opposite_corners_on_ink(one_deck: realart.Design) -> None:
    deck = realart.load_deck(one_deck.name)
    assert len(deck.faces) >= 48
    for card in ("10H", "QS", "AC", "4D"):
        face = deck.render(card, realart.CACHE_PX)
        h, w = face.shape[:2]
        ink = realart.ink_mask(face)
        boxes = deck.index_boxes(card, realart.CACHE_PX)
        assert len(boxes) in (2, 4)
        tl, br = boxes[0], boxes[1]
        assert tl[2] < 0.4 * w and tl[3] < 0.45 * h, (card, tl)  # in the top-left corner
        assert br[0] > 0.6 * w and br[1] > 0.55 * h, (card, br)  # its twin in the bottom-right one
        assert abs((tl[0] + tl[2]) - (2 * w - br[0] - br[2])) < 0.06 * w  # 180° apart
        assert abs((tl[1] + tl[3]) - (2 * h - br[1] - br[3])) < 0.06 * h
        for x1, y1, x2, y2 in boxes:
            cut = ink[round(y1) : round(y2), round(x1) : round(x2)]
            assert 0.08 < cut.mean() < 0.8, (card, cut.mean())  # holds rank and pip, not a blank


def test_a_red_suit_prints_red_and_a_black_suit_black(one_deck: realart.Design) -> None:
    deck = realart.load_deck(one_deck.name)
    for card, red in (("5H", True), ("5S", False), ("9D", True), ("9C", False)):
        x1, y1, x2, y2 = (round(v) for v in deck.index_boxes(card, realart.CACHE_PX)[0])
        face = deck.render(card, realart.CACHE_PX)
        ink = realart.ink_mask(face)[y1:y2, x1:x2]
        b, g, r = (face[y1:y2, x1:x2, c][ink].mean() for c in range(3))
        assert (r > b + 60) == red, (card, b, g, r)


def test_option_off_leaves_scenes_and_files_unchanged(tmp_path: Path) -> None:
    a = generate_scene(3, 1, 320, 320)
    b = generate_scene(3, 1, 320, 320, real_art=0.0)
    assert np.array_equal(a.image, b.image) and a.indices == b.indices and a.info == b.info
    cli.main(["generate", "--out", str(tmp_path / "a"), "--count", "2", "--seed", "3", "--size", "160x160",
                      "--quiet"])
    cli.main(["generate", "--out", str(tmp_path / "b"), "--count", "2", "--seed", "3", "--size", "160x160",
                      "--quiet", "--real-art", "0"])
    for sub in ("images/000001.jpg", "labels/000001.txt", "meta/000001.json", "generate.json"):
        assert (tmp_path / "a" / sub).read_bytes() == (tmp_path / "b" / sub).read_bytes(), sub
    assert "real_art" not in json.loads((tmp_path / "a" / "generate.json").read_text())


def test_a_scene_with_real_art_labels_the_real_indices(one_deck: realart.Design) -> None:
    drawn = labelled = 0
    for index in range(4):
        off = generate_scene(11, index, 480, 360)
        scene = generate_scene(11, index, 480, 360, real_art=1.0)
        # the layout is the same: only the faces change
        assert [c.card for c in scene.cards] == [c.card for c in off.cards]
        real = {int(k) for k in scene.info["real_art"]}
        assert set(scene.info["real_art"].values()) <= {one_deck.name}
        drawn += len(real)
        grey = scene.image.mean(axis=2)
        for i in scene.labelled_indices():
            x1, y1, x2, y2 = (round(v) for v in i.box)
            if i.card_id not in real or min(x2 - x1, y2 - y1) < 14:
                continue
            cut = grey[y1:y2, x1:x2]
            dark = cut < 0.6 * np.percentile(cut, 90)
            assert 0.04 < dark.mean() < 0.75, (index, i.card, dark.mean())  # ink on paper: an index
            labelled += 1
    assert drawn > 10 and labelled > 5


def test_the_holdout_never_draws_a_train_design(one_deck: realart.Design) -> None:
    assert realart.available_designs("train") == (one_deck.name,)
    assert realart.available_designs("holdout") == ()
    with pytest.raises(ValueError, match="no imported card art"):
        generate_scene(11, 0, 320, 320, split="holdout", real_art=0.5)


def test_generate_writes_the_share_and_designs_it_drew_from(one_deck: realart.Design, tmp_path: Path) -> None:
    assert cli.main(["generate", "--out", str(tmp_path), "--count", "2", "--seed", "2", "--size", "320x240",
                             "--quiet", "--real-art", "0.7"]) == 0
    settings = json.loads((tmp_path / "generate.json").read_text())
    assert settings["real_art"] == 0.7 and settings["real_art_designs"] == [one_deck.name]
    meta = json.loads((tmp_path / "meta" / "000000.json").read_text())
    assert meta["real_art"] == 0.7 and "real_art" in meta["info"]


def _iou(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def test_a_video_drawn_with_real_art_shows_its_cards_where_the_truth_says(one_deck: realart.Design, tmp_path: Path) -> None:
    from tuolaji import scorer
    from tuolaji.datasets.video import RenderOptions, render_video
    from tuolaji.vision.oracle import OracleReader

    record = scorer.random_record("standard-2deck", 4, hand_size=1)
    truth = render_video(record, tmp_path / "deal.mp4", RenderOptions(seed=4, fps=10.0, real_art=one_deck.name))
    procedural = render_video(record, tmp_path / "plain.mp4", RenderOptions(seed=4, fps=10.0))
    assert [p.cards for p in truth.plays] == [p.cards for p in procedural.plays]
    reader = OracleReader(truth)
    for play in truth.plays:
        seen = [i.card for i in reader.read_index(play.clear_frame + 1)]
        assert all(card in seen for card in play.cards)
    # the boxes of the real design differ from the procedural art's
    assert [c["box"] for c in truth.cards] != [c["box"] for c in procedural.cards]
    assert cv2.VideoCapture(str(tmp_path / "deal.mp4")).get(cv2.CAP_PROP_FRAME_COUNT) == truth.frame_count
