"""Synthetic scenes and `tuolaji generate`: valid labels, visibility, determinism."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from tuolaji import cli
from tuolaji.datasets.cardart import CARD_NAMES
from tuolaji.datasets.scenes import (
    REJECT,
    SIDE_LEFT,
    SIDE_NONE,
    SIDE_RIGHT,
    VISIBLE_FRACTION,
    classifier_crops,
    generate_scene,
)


@pytest.fixture(scope="module")
def scenes():
    return [generate_scene(31, i, 640, 480) for i in range(6)]


def test_labels_are_inside_the_image_and_visible_only(scenes) -> None:
    labelled = 0
    for scene in scenes:
        h, w = scene.image.shape[:2]
        for index in scene.indices:
            x1, y1, x2, y2 = index.box
            assert 0 <= x1 <= x2 <= w and 0 <= y1 <= y2 <= h
            assert index.card in CARD_NAMES
        lines = scene.yolo_lines()
        visible = [i for i in scene.indices if i.visible >= VISIBLE_FRACTION]
        assert len(lines) == len(visible)
        labelled += len(lines)
        for line in lines:
            cls, cx, cy, bw, bh = line.split()
            assert cls == "0"
            cx, cy, bw, bh = map(float, (cx, cy, bw, bh))
            assert 0 <= cx - bw / 2 + 1e-6 and cx + bw / 2 <= 1 + 1e-6
            assert 0 <= cy - bh / 2 + 1e-6 and cy + bh / 2 <= 1 + 1e-6
            assert bw > 0 and bh > 0
        # a readable card is one with at least one labelled index
        for card in scene.cards:
            assert card.readable == any(i.card_id == card.card_id and i.labelled for i in scene.indices)
    assert labelled > 20


def test_hidden_indices_are_not_labelled() -> None:
    hidden = 0
    for i in range(12):
        scene = generate_scene(32, i, 640, 480)
        hidden += sum(1 for x in scene.indices if x.visible < VISIBLE_FRACTION)
        for x in scene.indices:
            assert 0.0 <= x.visible <= 1.0
    assert hidden > 0, "fans and hands must hide some indices"


def test_no_more_than_three_identical_cards(scenes) -> None:
    for scene in scenes:
        names = [c.card for c in scene.cards]
        assert max(names.count(n) for n in set(names)) <= 3


def test_same_seed_same_scene_other_seed_other_scene() -> None:
    a = generate_scene(5, 3, 320, 320)
    b = generate_scene(5, 3, 320, 320)
    c = generate_scene(6, 3, 320, 320)
    assert np.array_equal(a.image, b.image) and a.yolo_lines() == b.yolo_lines()
    assert not np.array_equal(a.image, c.image)
    h = generate_scene(5, 3, 320, 320, split="holdout")
    assert not np.array_equal(a.image, h.image)


def test_classifier_crops_have_card_and_reject_classes(scenes) -> None:
    x, y, angle, side = classifier_crops(scenes[0], np.random.default_rng(0), negatives=4)
    assert x.shape[1:] == (40, 40, 3) and len(x) == len(y) == len(angle) == len(side)
    assert (y == REJECT).any() and (y < REJECT).any()
    assert np.isnan(angle[y == REJECT]).all() and not np.isnan(angle[y < REJECT]).any()
    assert (side[y == REJECT] == SIDE_NONE).all() and set(side[y < REJECT]) <= {SIDE_LEFT, SIDE_RIGHT}


def _digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha1(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and p.name not in ("dataset.yaml",)}


def test_generate_cli_is_deterministic_and_parallel_safe(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    assert cli.main(["generate", "--out", str(one), "--count", "4", "--seed", "9", "--size", "320x240",
                             "--crops", "--quiet"]) == 0
    assert cli.main(["generate", "--out", str(two), "--count", "4", "--seed", "9", "--size", "320x240",
                             "--crops", "--workers", "2", "--quiet"]) == 0
    assert _digest(one) == _digest(two)
    assert len(list((one / "images").glob("*.jpg"))) == 4
    meta = json.loads((one / "meta" / "000000.json").read_text())
    assert meta["size"] == [320, 240] and meta["seed"] == 9
    labels = (one / "labels" / "000000.txt").read_text().splitlines()
    assert len(labels) == sum(1 for i in meta["indices"] if i["visible"] >= VISIBLE_FRACTION)


def test_generate_more_fonts_draws_more_index_fonts_for_training_and_leaves_every_other_design_as_it_was(
        tmp_path: Path, capsys) -> None:
    """`generate --more-fonts` (training sets) draws the fonts apt-packages.txt marks for it too and says
    so in generate.json (`--more-fonts 2`: its second group too); without it, and in the held-out split, the
    fonts are exactly as before."""
    from tuolaji.datasets.cardart import MORE_FONT_FOLDERS, available_fonts, more_fonts_level

    plain, more, most = available_fonts(), available_fonts(True), available_fonts(2)
    assert more["holdout"] == plain["holdout"] == most["holdout"]
    assert set(plain["train"]) <= set(more["train"]) <= set(most["train"])
    assert not any(Path(p).parent.name in MORE_FONT_FOLDERS for p in plain["train"] + plain["holdout"])
    assert {more_fonts_level(p) for p in more["train"]} <= {0, 1} and {more_fonts_level(p) for p in most["train"]} <= {0, 1, 2}
    out2 = tmp_path / "most"
    assert cli.main(["generate", "--out", str(out2), "--count", "1", "--seed", "9", "--size", "160x120",
                     "--more-fonts", "2", "--quiet"]) == 0
    assert json.loads((out2 / "generate.json").read_text())["more_fonts"] == 2
    out = tmp_path / "more"
    assert cli.main(["generate", "--out", str(out), "--count", "1", "--seed", "9", "--size", "160x120",
                     "--more-fonts", "--quiet"]) == 0
    assert json.loads((out / "generate.json").read_text())["more_fonts"] is True
    assert cli.main(["generate", "--out", str(tmp_path / "plain"), "--count", "1", "--seed", "9", "--size", "160x120",
                     "--quiet"]) == 0
    assert "more_fonts" not in json.loads((tmp_path / "plain" / "generate.json").read_text())
    capsys.readouterr()
    assert cli.main(["generate", "--out", str(tmp_path / "h"), "--count", "1", "--seed", "9", "--split", "holdout",
                     "--more-fonts", "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--more-fonts" in err[0] and not (tmp_path / "h" / "generate.json").exists()


def test_generate_cli_rejects_a_bad_size(tmp_path: Path, capsys) -> None:
    assert cli.main(["generate", "--out", str(tmp_path), "--count", "1", "--seed", "1", "--size", "big"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--size" in err[0]


def test_crops_written_before_they_carried_sides_get_them_from_the_meta(tmp_path: Path) -> None:
    from tuolaji.scorer.errors import InputError
    from tuolaji.training.classifier_train import load_crops

    out = tmp_path / "set"
    assert cli.main(["generate", "--out", str(out), "--count", "3", "--seed", "4", "--size", "320x320",
                             "--crops", "--quiet"]) == 0
    x, y, angle, side = load_crops([out])
    assert set(side[y < REJECT]) <= {SIDE_LEFT, SIDE_RIGHT} and (side[y == REJECT] == SIDE_NONE).all()
    for file in sorted((out / "crops").glob("*.npz")):  # as an older generator wrote them
        with np.load(file) as data:
            kept = {k: data[k] for k in ("x", "y", "angle")}
        np.savez_compressed(file, **kept)
    again = load_crops([out])
    assert np.array_equal(again[3], side) and np.array_equal(again[1], y)
    first = sorted((out / "crops").glob("*.npz"))[0]
    with np.load(first) as data:
        kept = {k: data[k] for k in ("x", "y", "angle")}
    kept["y"] = np.roll(kept["y"], 1)  # crops that do not follow their scene
    np.savez_compressed(first, **kept)
    with pytest.raises(InputError, match="do not follow its meta"):
        load_crops([out])


def test_crop_index_sizes_come_from_the_meta_and_weight_small_indices_into_epochs(tmp_path: Path) -> None:
    """``load_crops(sizes=True)`` gives each crop its index's longest side (0 for rejects), and
    ``small_weight`` draws the crops of small indices that many times as often."""
    from tuolaji.training.classifier_train import epoch_order, load_crops

    out = tmp_path / "set"
    assert cli.main(["generate", "--out", str(out), "--count", "4", "--seed", "5", "--size", "640x480",
                             "--crops", "--quiet"]) == 0
    x, y, angle, side, size = load_crops([out], sizes=True)
    assert len(size) == len(y) and (size[y == REJECT] == 0).all() and (size[y < REJECT] >= 12).all()
    meta = json.loads(sorted((out / "meta").glob("*.json"))[0].read_text())
    sides = [max(x2 - x1, y2 - y1) for x1, y1, x2, y2 in (i["box"] for i in meta["indices"] if i["visible"] >= VISIBLE_FRACTION)]
    readable = [v for v in sides if v >= 12]  # smaller indices give no crops
    assert size[0] == size[1] == pytest.approx(readable[0])  # two jittered crops of each
    assert np.array_equal(load_crops([out])[3], side)
    small = (y < REJECT) & (size < np.median(size[y < REJECT]))
    weights = np.where(small, 4.0, 1.0)
    drawn = np.concatenate([epoch_order(len(y), len(y) // 4, np.random.default_rng(k), weights) for k in range(200)])
    plain = np.concatenate([epoch_order(len(y), len(y) // 4, np.random.default_rng(k)) for k in range(200)])
    assert np.isin(drawn, np.where(small)[0]).mean() > 1.5 * np.isin(plain, np.where(small)[0]).mean()
    real = tmp_path / "real"  # crops without a scene's meta (real-crops, hard-crops): sizes unknown, so 0
    (real / "crops").mkdir(parents=True)
    np.savez_compressed(real / "crops" / "photo.npz", x=x[:3], y=y[:3], angle=angle[:3], side=side[:3])
    both = load_crops([out, real], sizes=True)
    assert len(both[4]) == len(y) + 3 and (both[4][-3:] == 0).all() and np.array_equal(both[4][:-3], size)


def test_joker_share_sets_how_often_jokers_are_drawn(tmp_path: Path, capsys) -> None:
    def jokers(share: str) -> float:
        out = tmp_path / share
        assert cli.main(["generate", "--out", str(out), "--count", "6", "--seed", "3", "--size", "320x240",
                                 "--joker-share", share, "--quiet"]) == 0
        cards = [c["card"] for m in sorted((out / "meta").glob("*.json")) for c in json.loads(m.read_text())["cards"]]
        assert json.loads((out / "generate.json").read_text())["joker_share"] == float(share)
        return sum(c in ("SJ", "BJ") for c in cards) / len(cards)

    assert jokers("0") == 0.0
    assert jokers("0.6") > 0.35
    assert cli.main(["generate", "--out", str(tmp_path / "bad"), "--count", "1", "--seed", "1",
                             "--joker-share", "2"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--joker-share" in err[0]


def test_lowres_share_reads_large_indices_at_a_small_index_resolution() -> None:
    """``lowres_share`` shrinks that share of the crops of large indices (never rejects, never crops
    of indices already small or of unknown size) to the pixels a 10-18 px index gives, then blows
    them up again: the crop keeps its size but loses its fine detail."""
    from tuolaji.training.classifier_train import LOWRES_TO, augment, lowres_factors

    sizes = np.array([40.0, 40.0, 12.0, 0.0, 40.0] * 200, np.float32)
    labels = np.array([3, 3, 3, 3, REJECT] * 200)
    factors = lowres_factors(sizes, labels, 0.5, np.random.default_rng(0))
    chosen = factors > 0
    assert not chosen[2::5].any() and not chosen[3::5].any() and not chosen[4::5].any()
    assert 0.4 < chosen[0::5].mean() < 0.6
    assert (factors[chosen] * 40 >= LOWRES_TO[0] - 1e-6).all() and (factors[chosen] * 40 <= LOWRES_TO[1] + 1e-6).all()
    assert not lowres_factors(sizes, labels, 0.0, np.random.default_rng(0)).any()

    crop = np.where(np.indices((40, 40)).sum(axis=0)[..., None] % 2 == 0, 255, 0).repeat(3, axis=2).astype(np.uint8)  # a fine checkerboard
    crops, angles = np.stack([crop, crop]), np.zeros(2, np.float32)
    sharp, _ = augment(crops, angles, np.random.default_rng(2))
    shrunk, _ = augment(crops, angles, np.random.default_rng(2), np.array([0.0, 0.3]))
    assert shrunk.shape == sharp.shape
    assert np.array_equal(shrunk[0], sharp[0])
    detail = [float(np.abs(np.diff(c.astype(np.float32), axis=1)).mean()) for c in (sharp[1], shrunk[1])]
    assert detail[1] < 0.5 * detail[0]


def _index_width_over_height(scene) -> float:  # type: ignore[no-untyped-def]
    """The median index's extent across its glyphs' up direction over its extent along it."""
    import math

    ratios = []
    for index in scene.indices:
        if index.card in ("BJ", "SJ"):
            continue
        p = np.array(index.polygon, np.float64)
        a = math.radians(index.angle_deg)
        up = np.array([math.sin(a), -math.cos(a)])
        sides = [p[1] - p[0], p[2] - p[1]]
        along = max(abs(float(s @ up)) for s in sides)
        across = max(abs(float(s @ np.array([-up[1], up[0]]))) for s in sides)
        ratios.append(across / along)
    return float(np.median(ratios))


def test_horizontal_share_prints_the_suit_beside_the_rank_on_the_same_table(tmp_path: Path, capsys) -> None:
    for index in range(3):
        upright, beside = generate_scene(41, index, 480, 360), generate_scene(41, index, 480, 360, horizontal=1.0)
        assert [i.card for i in upright.indices] == [i.card for i in beside.indices]  # the same cards, laid alike
        assert _index_width_over_height(upright) < 1.0 < _index_width_over_height(beside)
    assert cli.main(["generate", "--out", str(tmp_path / "h"), "--count", "1", "--seed", "1", "--horizontal", "1.5",
                     "--quiet"]) == 2
    assert "--horizontal must be between 0 and 1, got 1.5" in capsys.readouterr().err
