"""Synthetic overhead table scenes with labelled corner indices.

A scene is a table surface with plays laid and fanned as players lay them (up to three
identical cards, any rotation), hands and sleeves partly covering cards, then camera
effects: perspective, lighting gradients, glare, shadows, blur, noise and JPEG. Every
corner index gets its polygon, its card, its orientation and the fraction of it that is
visible (from the occlusion masks); only indices visible enough are labelled.

Everything is a pure function of ``(seed, index, split)``.

>>> scene = generate_scene(seed=1, index=0, width=320, height=320)
>>> scene.image.shape
(320, 320, 3)
>>> all(0 <= i.box[0] < i.box[2] <= 320 for i in scene.labelled_indices())
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from tuolaji.datasets.cardart import (
    CardStyle,
    index_boxes,
    render_back,
    render_card,
)
from tuolaji.datasets.realart import RealDeck, available_designs, load_deck
from tuolaji.scorer.cards import CARD_NAMES, RANKS, SUITS
from tuolaji.vision.cardcrop import CROP_PX, crop_index, crop_square
from tuolaji.vision.classes import REJECT

VISIBLE_FRACTION = 0.6
"""An index is labelled when at least this fraction of its area is visible."""

HIDDEN_FRACTION = 0.3
"""Below this visible fraction an index counts as hidden (a reject crop when cropped)."""


_TRAIN_SURFACES = ("felt", "wood", "stripes", "mottled", "checks")
_HOLDOUT_SURFACES = ("marble", "plaid", "dots")


@dataclass(frozen=True)
class IndexLabel:
    """One corner index in the final image."""

    card_id: int  # which physical card of the scene
    card: str
    polygon: tuple[tuple[float, float], ...]  # 4 corners, image pixels
    box: tuple[float, float, float, float]  # axis-aligned, clipped to the image
    angle_deg: float  # direction of the glyph's "up", image coords, 0 = up, clockwise
    visible: float  # fraction of the index not covered nor outside the image

    @property
    def labelled(self) -> bool:
        return self.visible >= VISIBLE_FRACTION

    @staticmethod
    def from_meta(entry: dict) -> IndexLabel:
        """The label of one entry of a scene's ``meta/*.json`` ``indices`` (written by ``asdict``)."""
        return IndexLabel(entry["card_id"], entry["card"], tuple(map(tuple, entry["polygon"])), tuple(entry["box"]),
                          entry["angle_deg"], entry["visible"])


@dataclass(frozen=True)
class CardLabel:
    """One physical card in the final image."""

    card_id: int
    card: str
    box: tuple[float, float, float, float]  # axis-aligned bbox of the visible card quad, clipped
    angle_deg: float
    height_px: float
    covered: float  # fraction of the card hidden by other cards, hands or the frame
    readable: bool  # at least one labelled index


@dataclass
class Scene:
    image: np.ndarray  # BGR uint8, after every camera effect (JPEG-decoded)
    indices: list[IndexLabel]
    cards: list[CardLabel]
    info: dict = field(default_factory=dict)

    def labelled_indices(self) -> list[IndexLabel]:
        return [i for i in self.indices if i.labelled]

    def yolo_lines(self) -> list[str]:
        """Label lines "0 cx cy w h" (normalised) of the visible indices."""
        h, w = self.image.shape[:2]
        lines = []
        for i in self.labelled_indices():
            x1, y1, x2, y2 = i.box
            lines.append(f"0 {(x1 + x2) / 2 / w:.6f} {(y1 + y2) / 2 / h:.6f} {(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}")
        return lines


# ---------------------------------------------------------------- surfaces

def _smooth_noise(rng: np.random.Generator, h: int, w: int, scale: float) -> np.ndarray:
    small = rng.standard_normal((max(2, int(h / scale)), max(2, int(w / scale)))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _surface(rng: np.random.Generator, kind: str, h: int, w: int) -> np.ndarray:
    base = rng.uniform(20, 200, 3).astype(np.float32)
    if rng.random() < 0.4:  # classic green / blue / red felt or dark wood tones
        base = np.array([(60, 110, 30), (110, 60, 20), (40, 40, 120), (30, 60, 100), (50, 50, 50)][rng.integers(5)], np.float32)
        base += rng.uniform(-25, 25, 3)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "felt":
        img += _smooth_noise(rng, h, w, 2)[..., None] * rng.uniform(3, 10)
    elif kind == "wood":
        angle = rng.uniform(0, math.pi)
        u = xx * math.cos(angle) + yy * math.sin(angle)
        warp = _smooth_noise(rng, h, w, 60) * rng.uniform(5, 25)
        grain = np.sin((u + warp) / rng.uniform(2, 8)) * 0.5 + np.sin((u + warp) / rng.uniform(15, 40))
        img += grain[..., None] * rng.uniform(8, 25) * np.array([0.6, 0.8, 1.0], np.float32)
    elif kind == "stripes":
        angle = rng.uniform(0, math.pi)
        u = xx * math.cos(angle) + yy * math.sin(angle)
        period = rng.uniform(8, 60)
        stripe = (np.sin(u * 2 * math.pi / period) > rng.uniform(-0.5, 0.5)).astype(np.float32)
        img += stripe[..., None] * rng.uniform(-60, 60, 3)
    elif kind == "mottled":
        img += _smooth_noise(rng, h, w, rng.uniform(10, 50))[..., None] * rng.uniform(10, 35, 3)
    elif kind == "checks":
        period = rng.uniform(10, 50)
        check = ((xx // period + yy // period) % 2).astype(np.float32)
        img += check[..., None] * rng.uniform(-50, 50, 3)
    elif kind == "marble":
        veins = np.abs(np.sin((xx + yy * 0.5 + _smooth_noise(rng, h, w, 40) * 40) / rng.uniform(10, 30)))
        img = img * 0.4 + 140 + (veins[..., None] ** 4) * -rng.uniform(40, 90)
    elif kind == "plaid":
        period = rng.uniform(15, 60)
        bands_x = (np.sin(xx * 2 * math.pi / period) > 0.3).astype(np.float32)
        bands_y = (np.sin(yy * 2 * math.pi / period) > 0.3).astype(np.float32)
        img += bands_x[..., None] * rng.uniform(-50, 50, 3) + bands_y[..., None] * rng.uniform(-50, 50, 3)
    elif kind == "dots":
        period = rng.uniform(12, 40)
        d = np.hypot((xx % period) - period / 2, (yy % period) - period / 2)
        img += (d < period * rng.uniform(0.15, 0.35))[..., None] * rng.uniform(-80, 80, 3)
    img += rng.standard_normal((h, w, 1)).astype(np.float32) * rng.uniform(0, 4)
    return img


# ---------------------------------------------------------------- composition helpers

def _affine(cx: float, cy: float, angle_deg: float, width: int, height: int) -> np.ndarray:
    """2x3 matrix taking card pixels (upright) to scene pixels; angle clockwise."""
    a = math.radians(angle_deg)
    c, s = math.cos(a), math.sin(a)
    rot = np.array([[c, -s], [s, c]])
    centre = np.array([width / 2, height / 2])
    t = np.array([cx, cy]) - rot @ centre
    return np.hstack([rot, t[:, None]])


def _apply(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    return points @ matrix[:, :2].T + matrix[:, 2]


def _paste(canvas: np.ndarray, owner: np.ndarray, rgba: np.ndarray, matrix: np.ndarray, owner_id: int) -> None:
    h, w = canvas.shape[:2]
    warped = cv2.warpAffine(rgba, matrix, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    alpha = warped[:, :, 3:4].astype(np.float32) / 255
    ys, xs = np.nonzero(warped[:, :, 3])
    if len(xs) == 0:
        return
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    a = alpha[y0:y1, x0:x1]
    region = canvas[y0:y1, x0:x1]
    region *= 1 - a
    region += a * warped[y0:y1, x0:x1, :3]
    owner[y0:y1, x0:x1][a[:, :, 0] > 0.5] = owner_id


def _drop_shadow(canvas: np.ndarray, quad: np.ndarray, rng: np.random.Generator, strength: float) -> None:
    h, w = canvas.shape[:2]
    mask = np.zeros((h, w), np.float32)
    offset = rng.uniform(0.5, 3.0, 2)
    cv2.fillPoly(mask, [np.round((quad + offset) * 4).astype(np.int32)], 1.0, cv2.LINE_AA, shift=2)
    mask = cv2.GaussianBlur(mask, (0, 0), 2.0)
    canvas *= (1 - strength * mask)[..., None]


def _hand_layer(rng: np.random.Generator, h: int, w: int, near: tuple[float, float], scale: float) -> np.ndarray:
    """BGRA drawing of a hand (palm, fingers) with a sleeve running off the frame."""
    layer = np.zeros((h, w, 4), np.uint8)
    skin = [(140, 170, 220), (110, 150, 200), (80, 110, 160), (60, 80, 120), (170, 190, 230)][rng.integers(5)]
    skin = tuple(int(np.clip(c + rng.uniform(-15, 15), 0, 255)) for c in skin) + (255,)
    sleeve = tuple(int(c) for c in rng.uniform(10, 230, 3)) + (255,)
    px, py = near
    angle = rng.uniform(0, 2 * math.pi)  # direction from the palm to the arm
    d = np.array([math.cos(angle), math.sin(angle)])
    palm_r = scale * rng.uniform(0.25, 0.4)
    aa = cv2.LINE_AA
    arm_end = np.array([px, py]) + d * (h + w)
    cv2.line(layer, (int(px + d[0] * palm_r), int(py + d[1] * palm_r)), (int(arm_end[0]), int(arm_end[1])), skin, int(palm_r * 1.0), aa)
    cuff = np.array([px, py]) + d * palm_r * rng.uniform(1.5, 3.0)
    cv2.line(layer, (int(cuff[0]), int(cuff[1])), (int(arm_end[0]), int(arm_end[1])), sleeve, int(palm_r * 1.5), aa)
    cv2.ellipse(layer, (int(px), int(py)), (int(palm_r), int(palm_r * 0.85)), math.degrees(angle), 0, 360, skin, -1, aa)
    spread = rng.uniform(0.25, 0.6)
    n_fingers = int(rng.integers(2, 5))
    for k in range(n_fingers):
        fa = angle + math.pi + (k - (n_fingers - 1) / 2) * spread * 0.5
        length = palm_r * rng.uniform(1.0, 1.8)
        tip = (int(px + math.cos(fa) * (palm_r + length)), int(py + math.sin(fa) * (palm_r + length)))
        cv2.line(layer, (int(px), int(py)), tip, skin, max(2, int(palm_r * 0.38)), aa)
    tone = layer[:, :, :3].astype(np.float32)
    shade = 0.85 + 0.15 * _smooth_noise(rng, h, w, 40)[..., None].clip(-1, 1)
    layer[:, :, :3] = np.clip(tone * shade, 0, 255).astype(np.uint8)
    return layer


def _paste_layer(canvas: np.ndarray, owner: np.ndarray, layer: np.ndarray, owner_id: int) -> None:
    a = layer[:, :, 3:4].astype(np.float32) / 255
    canvas *= 1 - a
    canvas += a * layer[:, :, :3]
    owner[a[:, :, 0] > 0.5] = owner_id


def _paper_with_digits(rng: np.random.Generator, style: CardStyle) -> np.ndarray:
    """A score sheet: digits and letters that must not read as card indices."""
    from PIL import Image, ImageDraw, ImageFont

    w, h = int(rng.uniform(60, 160)), int(rng.uniform(60, 160))
    img = Image.new("RGBA", (w, h), (235, 240, 245, 255))
    draw = ImageDraw.Draw(img)
    font = ImageFont.truetype(style.font_path, int(rng.uniform(9, 22)))
    y = 3
    while y < h - 10:
        text = " ".join(str(int(rng.integers(0, 200))) for _ in range(int(rng.integers(1, 4))))
        draw.text((4, y), text, fill=(30, 30, 120, 255), font=font)
        y += int(font.size * 1.3)
    return np.asarray(img)[:, :, [2, 1, 0, 3]].copy()


# ---------------------------------------------------------------- the scene

JOKER_SHARE = 0.06
"""How often a drawn card is a joker (both jokers together; a uniform draw would give 2/54)."""


def _choose_hand(rng: np.random.Generator, counts: dict[str, int], size: int, joker_share: float = JOKER_SHARE) -> list[str]:
    """Card names for one play: singles, pairs, triples or a tractor, at most 3 of a name per scene."""
    names: list[str] = []
    kind = rng.random()
    if kind < 0.3:
        group = 2
    elif kind < 0.42:
        group = 3
    else:
        group = 1
    while len(names) < size:
        if rng.random() < joker_share:
            name = CARD_NAMES[52 + int(rng.integers(2))]
        else:
            name = RANKS[int(rng.integers(13))] + SUITS[int(rng.integers(4))]
        take = min(group, 3 - counts.get(name, 0), size - len(names))
        for _ in range(max(0, take)):
            names.append(name)
            counts[name] = counts.get(name, 0) + 1
        if take <= 0 and len(counts) > 50:
            break
    if group == 1 and rng.random() < 0.5:
        names.sort(key=lambda n: CARD_NAMES.index(n))
    return names


def _real_decks(seed: int, index: int, split: str, count: int, real_art: float) -> list[RealDeck | None]:
    """For each of a scene's ``count`` deck styles, the imported design drawn in its place
    (with probability ``real_art``) or None. A stream of its own, so the scene's layout is
    the same whatever ``real_art`` is, and nothing at all changes when it is 0."""
    if real_art <= 0:
        return [None] * count
    designs = available_designs(split)
    if not designs:
        raise ValueError(f"real_art={real_art} but no imported card art is cached for split {split!r} "
                         "(python -m tuolaji.datasets.realart builds it)")
    rng = np.random.default_rng([seed, index, 0 if split == "train" else 1, 13])
    picks = [(rng.random() < real_art, int(rng.integers(len(designs)))) for _ in range(count)]
    return [load_deck(designs[k]) if use else None for use, k in picks]


_Placement = tuple[str, CardStyle, "RealDeck | None", float, float, float, float, bool]
"""One card to lay: name, style, imported design (or None), height, centre x, y, angle, face down."""
_RawIndex = tuple[int, str, np.ndarray, float]
"""A corner index on the flat table: card id, name, polygon, the direction of its top."""
_RawCard = tuple[int, str, np.ndarray, float, float]
"""A face-up card on the flat table: card id, name, outline, angle, height."""


def generate_scene(seed: int, index: int, width: int = 640, height: int = 480, split: str = "train",
                   joker_share: float = JOKER_SHARE, real_art: float = 0.0, horizontal: float = 0.0,
                   more_fonts: int = 0) -> Scene:
    """Render scene number ``index`` of data set ``seed`` (pure function of its arguments).

    ``real_art``: the chance that each deck of the scene is drawn with an imported design
    (:mod:`datasets.realart`, ``split``'s designs only) instead of the procedural art; a
    card the design lacks (a dropped face, a joker) keeps the procedural face. ``horizontal``:
    the chance that each procedural deck prints its indices with the suit beside the rank
    (drawn from a stream of its own: at 0 the scene is as it always was). ``more_fonts``: the
    procedural decks draw their fonts from :data:`datasets.cardart.MORE_FONT_FOLDERS` too.

    The steps, each drawing from the scene's one random stream in turn: the surface, the
    cards' layout (:func:`_layout`), a stray paper, the cards laid (:func:`_lay_cards`), hands
    over them (:func:`_lay_hands`), what stays visible (:func:`_visibility`), the camera
    (:func:`_camera`), and the labels in the camera's picture (:func:`_labels`)."""
    rng = np.random.default_rng([seed, index, 0 if split == "train" else 1])
    surfaces = _TRAIN_SURFACES if split == "train" else _HOLDOUT_SURFACES
    surface = surfaces[int(rng.integers(len(surfaces)))]
    canvas = _surface(rng, surface, height, width)
    owner = np.full((height, width), -1, np.int32)
    area_scale = math.sqrt(width * height / (640 * 480))
    base_h = math.exp(rng.uniform(math.log(60), math.log(250)))
    styles = [CardStyle.random(rng, split, more_fonts)]
    if rng.random() < 0.2:
        styles.append(CardStyle.random(rng, split, more_fonts))
    if horizontal > 0:
        layouts = np.random.default_rng([seed, index, 7]).random(len(styles)) < horizontal
        styles = [style.with_index_layout("horizontal") if turned else style for style, turned in zip(styles, layouts, strict=True)]
    decks = _real_decks(seed, index, split, len(styles), real_art)
    placements = _layout(rng, styles, decks, base_h, area_scale, width, height, joker_share)
    if rng.random() < 0.15:
        paper = _paper_with_digits(rng, styles[0])
        m = _affine(rng.uniform(0, width), rng.uniform(0, height), rng.uniform(0, 360), paper.shape[1], paper.shape[0])
        _paste(canvas, owner, paper, m, -2)
    raw_indices, card_quads, real_cards = _lay_cards(rng, canvas, owner, placements)
    n_hands = _lay_hands(rng, canvas, owner, card_quads, base_h)
    index_visibility, card_cover = _visibility(owner, raw_indices, card_quads)
    info: dict = {"surface": surface, "card_height": base_h}
    if real_art > 0:
        info["real_art"] = {str(k): v for k, v in real_cards.items()}  # card_id -> imported design
    image, homography, camera = _camera(rng, canvas)
    info.update(camera, hands=n_hands)
    indices, cards = _labels(raw_indices, index_visibility, card_quads, card_cover, homography, width, height)
    return Scene(image=image, indices=indices, cards=cards, info=info)


def _layout(rng: np.random.Generator, styles: list[CardStyle], decks: list[RealDeck | None], base_h: float,
            area_scale: float, width: int, height: int, joker_share: float) -> list[_Placement]:
    """Where the scene's cards lie: plays fanned as players lay them (or a few scattered), then
    sometimes a few face-down cards anywhere."""
    counts: dict[str, int] = {}
    placements: list[_Placement] = []
    n_plays = max(1, int(round(rng.uniform(1, 4.5) * area_scale)))
    for _ in range(n_plays):
        deck_k = int(rng.integers(len(styles)))
        style = styles[deck_k]
        card_h = base_h * rng.uniform(0.92, 1.08)
        card_w = card_h * style.aspect
        n = int(rng.choice([1, 1, 2, 2, 3, 4, 5, 6, 8]))
        names = _choose_hand(rng, counts, n, joker_share)
        angle0 = float(rng.choice([0, 90, 180, 270]) + rng.normal(0, 12)) if rng.random() < 0.7 else float(rng.uniform(0, 360))
        offset = card_w * rng.uniform(0.2, 0.42)
        step_angle = rng.uniform(-7, 7) if rng.random() < 0.5 else rng.uniform(-1.5, 1.5)
        span = offset * (len(names) - 1)
        cx0 = rng.uniform(0.1 * width, 0.9 * width)
        cy0 = rng.uniform(0.1 * height, 0.9 * height)
        scattered = rng.random() < 0.12
        a0 = math.radians(angle0)
        ux, uy = math.cos(a0), math.sin(a0)
        for k, name in enumerate(names):
            if scattered:
                cx = cx0 + rng.uniform(-1.2, 1.2) * card_w
                cy = cy0 + rng.uniform(-1.2, 1.2) * card_w
                ang = float(rng.uniform(0, 360))
            else:
                along = k * offset - span / 2
                perp = rng.normal(0, card_h * 0.02)
                cx = cx0 + ux * along - uy * perp
                cy = cy0 + uy * along + ux * perp
                ang = angle0 + step_angle * (k - (len(names) - 1) / 2)
            placements.append((name, style, decks[deck_k], card_h, cx, cy, ang, False))
    for _ in range(int(rng.integers(0, 3)) if rng.random() < 0.3 else 0):
        style = styles[0]
        placements.append(("", style, None, base_h, rng.uniform(0, width), rng.uniform(0, height), rng.uniform(0, 360), True))
    return placements


def _lay_cards(rng: np.random.Generator, canvas: np.ndarray, owner: np.ndarray,
               placements: list[_Placement]) -> tuple[list[_RawIndex], list[_RawCard], dict[int, str]]:
    """Draw the cards in order (each with its shadow) onto ``canvas``, marking ``owner``; the
    corner indices and outlines of the face-up ones, and the imported design of each card drawn
    with one."""
    shadow_strength = rng.uniform(0.1, 0.4)
    raw_indices: list[_RawIndex] = []
    card_quads: list[_RawCard] = []
    real_cards: dict[int, str] = {}
    for card_id, (name, style, deck, card_h, cx, cy, ang, face_down) in enumerate(placements):
        h_px = max(12, int(round(card_h)))
        real = deck is not None and not face_down and deck.has(name)
        if real:
            assert deck is not None
            img = deck.render(name, h_px)
            real_cards[card_id] = deck.name
        else:
            img = render_back(style, h_px) if face_down else render_card(name, style, h_px)
        ch, cw = img.shape[:2]
        m = _affine(cx, cy, ang, cw, ch)
        quad = _apply(m, np.array([(0, 0), (cw, 0), (cw, ch), (0, ch)], float))
        _drop_shadow(canvas, quad, rng, shadow_strength)
        _paste(canvas, owner, img, m, card_id)
        if face_down:
            continue
        card_quads.append((card_id, name, quad, ang, card_h))
        boxes = deck.index_boxes(name, h_px) if real and deck is not None else index_boxes(name, style, h_px)
        for k, (x1, y1, x2, y2) in enumerate(boxes):
            poly = _apply(m, np.array([(x1, y1), (x2, y1), (x2, y2), (x1, y2)], float))
            rotated = k in (1, 3)  # bottom indices are printed upside down
            raw_indices.append((card_id, name, poly, (ang + (180 if rotated else 0)) % 360))
    return raw_indices, card_quads, real_cards


def _lay_hands(rng: np.random.Generator, canvas: np.ndarray, owner: np.ndarray, card_quads: list[_RawCard],
               base_h: float) -> int:
    """Sometimes one or two hands (with their shadows) over the cards; how many."""
    height, width = owner.shape
    n_hands = int(rng.integers(1, 3)) if rng.random() < 0.35 else 0
    for _ in range(n_hands):
        if card_quads:
            target = card_quads[int(rng.integers(len(card_quads)))][2].mean(axis=0) + rng.normal(0, base_h * 0.4, 2)
        else:
            target = np.array([rng.uniform(0, width), rng.uniform(0, height)])
        layer = _hand_layer(rng, height, width, (float(target[0]), float(target[1])), base_h)
        hand_shadow = cv2.GaussianBlur(layer[:, :, 3].astype(np.float32) / 255, (0, 0), 6)
        shift = np.float32([[1, 0, rng.uniform(3, 12)], [0, 1, rng.uniform(3, 12)]])
        hand_shadow = cv2.warpAffine(hand_shadow, shift, (width, height))
        canvas *= (1 - rng.uniform(0.2, 0.5) * hand_shadow)[..., None]
        _paste_layer(canvas, owner, layer, -3)
    return n_hands


def _visibility(owner: np.ndarray, raw_indices: list[_RawIndex], card_quads: list[_RawCard]) -> tuple[list[float], list[float]]:
    """The visible fraction of each corner index and the covered fraction of each face-up card,
    from the owner map (before the camera warps the picture)."""
    height, width = owner.shape
    index_visibility = []
    for card_id, _name, poly, _angle in raw_indices:
        area = max(1.0, abs(cv2.contourArea(poly.astype(np.float32))))
        x0, y0 = np.floor(poly.min(axis=0)).astype(int)
        x1, y1 = np.ceil(poly.max(axis=0)).astype(int) + 1
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
        if x0 >= x1 or y0 >= y1:
            index_visibility.append(0.0)
            continue
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(mask, [np.round(poly - (x0, y0)).astype(np.int32)], 1)
        visible = float(np.count_nonzero(owner[y0:y1, x0:x1][mask > 0] == card_id))
        index_visibility.append(min(1.0, visible / area))
    card_cover = []
    for card_id, _name, quad, _ang, _h in card_quads:
        area = max(1.0, abs(cv2.contourArea(quad.astype(np.float32))))
        card_cover.append(1.0 - min(1.0, float(np.count_nonzero(owner == card_id)) / area))
    return index_visibility, card_cover


def _camera(rng: np.random.Generator, canvas: np.ndarray) -> tuple[np.ndarray, np.ndarray, dict]:
    """The table as a camera sees it: perspective, lighting, shadow, glare, blur, noise and JPEG.
    The picture (BGR uint8), the perspective's homography, and what was drawn (blur, jpeg, glare)."""
    height, width = canvas.shape[:2]
    jitter = min(width, height) * rng.uniform(0.0, 0.08)
    src = np.float32([(0, 0), (width, 0), (width, height), (0, height)])
    dst = src + rng.uniform(-jitter, jitter, (4, 2)).astype(np.float32)
    homography = cv2.getPerspectiveTransform(src, dst)
    canvas = cv2.warpPerspective(canvas, homography, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    canvas, glare = _lighting(rng, canvas)
    canvas, blur = _blur(rng, canvas)
    canvas += rng.standard_normal(canvas.shape).astype(np.float32) * rng.uniform(0, 7)
    image = np.clip(canvas, 0, 255).astype(np.uint8)
    quality = int(rng.integers(35, 96))
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    image = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return image, homography, {"blur": blur, "jpeg": quality, "glare": bool(glare)}


def _lighting(rng: np.random.Generator, canvas: np.ndarray) -> tuple[np.ndarray, bool]:
    """Gain gradients and a vignette, a cast shadow (a head, a lamp arm), glare; clipped to 0..255."""
    height, width = canvas.shape[:2]
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    gain = rng.uniform(0.65, 1.15) + rng.uniform(-0.35, 0.35) * (xx / width - 0.5) + rng.uniform(-0.35, 0.35) * (yy / height - 0.5)
    if rng.random() < 0.3:
        vx, vy = rng.uniform(0, width), rng.uniform(0, height)
        gain = gain - rng.uniform(0.1, 0.4) * (np.hypot(xx - vx, yy - vy) / max(width, height))
    canvas *= gain[..., None] * rng.uniform(0.88, 1.12, 3).astype(np.float32)
    if rng.random() < 0.3:  # cast shadow (a head, a lamp arm)
        shadow = np.zeros((height, width), np.float32)
        pts = np.stack([rng.uniform(-0.2, 1.2, 5) * width, rng.uniform(-0.2, 1.2, 5) * height], 1)
        cv2.fillPoly(shadow, [cv2.convexHull(pts.astype(np.int32))], 1.0)
        shadow = cv2.GaussianBlur(shadow, (0, 0), rng.uniform(5, 25))
        canvas *= (1 - rng.uniform(0.2, 0.55) * shadow)[..., None]
    glare = rng.random() < 0.3
    if glare:
        gx, gy = rng.uniform(0, width), rng.uniform(0, height)
        sx, sy = rng.uniform(15, 120), rng.uniform(15, 120)
        canvas += (rng.uniform(60, 200) * np.exp(-(((xx - gx) / sx) ** 2 + ((yy - gy) / sy) ** 2) / 2))[..., None]
    return np.clip(canvas, 0, 255), bool(glare)


def _blur(rng: np.random.Generator, canvas: np.ndarray) -> tuple[np.ndarray, float]:
    """Sometimes focus blur or motion blur, sometimes a lower resolution scaled back; the blur's size."""
    height, width = canvas.shape[:2]
    blur = 0.0
    r = rng.random()
    if r < 0.3:
        blur = float(rng.uniform(0.4, 1.3))
        canvas = cv2.GaussianBlur(canvas, (0, 0), blur)
    elif r < 0.4:
        length = int(rng.integers(3, 7))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1 / length
        rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1)
        kernel = cv2.warpAffine(kernel, rot, (length, length))
        kernel /= max(kernel.sum(), 1e-6)
        canvas = cv2.filter2D(canvas, -1, kernel)
        blur = length / 3
    if rng.random() < 0.2:
        f = rng.uniform(0.6, 0.9)
        small = cv2.resize(canvas, (int(width * f), int(height * f)), interpolation=cv2.INTER_AREA)
        canvas = cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)
        blur += (1 - f) * 2
    return canvas, blur


def _labels(raw_indices: list[_RawIndex], index_visibility: list[float], card_quads: list[_RawCard],
            card_cover: list[float], homography: np.ndarray, width: int, height: int) -> tuple[list[IndexLabel], list[CardLabel]]:
    """The labels of the corner indices and cards, carried through the camera's perspective."""

    def warp_points(points: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float32), homography).reshape(-1, 2)

    def clipped_box(points: np.ndarray) -> tuple[float, float, float, float]:
        x1, y1 = points.min(axis=0)
        x2, y2 = points.max(axis=0)
        return (float(np.clip(x1, 0, width)), float(np.clip(y1, 0, height)), float(np.clip(x2, 0, width)), float(np.clip(y2, 0, height)))

    indices: list[IndexLabel] = []
    for (card_id, name, poly, angle), visible in zip(raw_indices, index_visibility, strict=True):
        warped = warp_points(poly)
        box = clipped_box(warped)
        if box[2] - box[0] < 2 or box[3] - box[1] < 2:
            visible = 0.0
        up = warp_points(np.array([_centre(poly), _centre(poly) + 10 * _up_vector(angle)]))
        angle_img = (math.degrees(math.atan2(up[1][0] - up[0][0], -(up[1][1] - up[0][1])))) % 360
        indices.append(IndexLabel(card_id, name, tuple(map(tuple, warped.tolist())), box, angle_img, visible))
    cards: list[CardLabel] = []
    for (card_id, name, quad, ang, card_h), cover in zip(card_quads, card_cover, strict=True):
        readable = any(i.card_id == card_id and i.labelled for i in indices)
        cards.append(CardLabel(card_id, name, clipped_box(warp_points(quad)), float(ang % 360), float(card_h), cover, readable))
    return indices, cards


def _centre(poly: np.ndarray) -> np.ndarray:
    return poly.mean(axis=0)


def _up_vector(angle_deg: float) -> np.ndarray:
    a = math.radians(angle_deg)
    return np.array([math.sin(a), -math.cos(a)])


# ---------------------------------------------------------------- classifier crops

SIDE_LEFT, SIDE_RIGHT, SIDE_NONE = 0, 1, -1
"""Corner sides of :func:`corner_sides`; ``SIDE_NONE`` for reject crops."""


def corner_sides(indices: list[IndexLabel]) -> list[int]:
    """For each index, which corner of its card it is, as its own glyphs stand upright:
    ``SIDE_LEFT`` (a top-left corner, or the bottom-right one printed upside down) or
    ``SIDE_RIGHT`` (the top-right and bottom-left corners of 4-corner decks).

    Measured from the card's centre, the mean of all its index centres (hidden ones too).

    >>> tl = IndexLabel(0, "7H", ((0, 0), (10, 0), (10, 16), (0, 16)), (0, 0, 10, 16), 0.0, 1.0)
    >>> br = IndexLabel(0, "7H", ((60, 84), (50, 84), (50, 68), (60, 68)), (50, 68, 60, 84), 180.0, 1.0)
    >>> tr = IndexLabel(0, "7H", ((50, 0), (60, 0), (60, 16), (50, 16)), (50, 0, 60, 16), 0.0, 1.0)
    >>> corner_sides([tl, br]), corner_sides([tl, br, tr])
    ([0, 0], [0, 0, 1])
    """
    centres: dict[int, list[np.ndarray]] = {}
    for i in indices:
        centres.setdefault(i.card_id, []).append(np.mean(np.asarray(i.polygon, float), axis=0))
    sides = []
    for i in indices:
        offset = np.mean(np.asarray(i.polygon, float), axis=0) - np.mean(centres[i.card_id], axis=0)
        a = math.radians(i.angle_deg)
        sides.append(SIDE_RIGHT if float(offset @ np.array([math.cos(a), math.sin(a)])) > 0 else SIDE_LEFT)
    return sides


def crop_sources(indices: list[IndexLabel]) -> list[tuple[int, int]]:
    """Which indices give classifier crops, in order: (position in ``indices``, crops).

    Two jittered crops of each labelled index big enough to read, one reject crop of
    each index that is almost hidden (but not gone). Random rejects elsewhere follow.
    """
    sources = []
    for k, idx in enumerate(indices):
        x1, y1, x2, y2 = idx.box
        bw, bh = x2 - x1, y2 - y1
        if idx.labelled:
            if max(bw, bh) >= MIN_READABLE_PX:  # smaller: the detector still learns it; no one can read its glyphs
                sources.append((k, 2))
        elif HIDDEN_FRACTION > idx.visible > 0.02 and bw > 3 and bh > 3:
            sources.append((k, 1))
    return sources


def classifier_crops(scene: Scene, rng: np.random.Generator,
                     negatives: int = 3) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Crops for the card classifier: (uint8 N×40×40×3, class ids, up-angle degrees, corner sides).

    Positives are the labelled indices, with the box jittered like a detector's; class
    ``REJECT`` crops are hidden indices, card faces, hands and the table. The angle of
    a reject crop is NaN and its side ``SIDE_NONE``.
    """
    crops, labels, angles, sides = [], [], [], []
    h, w = scene.image.shape[:2]
    sizes = []
    corner = corner_sides(scene.indices)
    for k, count in crop_sources(scene.indices):
        idx = scene.indices[k]
        x1, y1, x2, y2 = idx.box
        bw, bh = x2 - x1, y2 - y1
        if idx.labelled:
            sizes.append(max(bw, bh))
            for _ in range(count):
                jx, jy = rng.normal(0, 0.06, 2) * max(bw, bh)
                s = rng.uniform(0.88, 1.15)
                cx, cy = (x1 + x2) / 2 + jx, (y1 + y2) / 2 + jy
                box = (cx - bw * s / 2, cy - bh * s / 2, cx + bw * s / 2, cy + bh * s / 2)
                crops.append(crop_index(scene.image, box))
                labels.append(CARD_NAMES.index(idx.card))
                angles.append(idx.angle_deg)
                sides.append(corner[k])
        else:
            crops.append(crop_index(scene.image, idx.box))
            labels.append(REJECT)
            angles.append(float("nan"))
            sides.append(SIDE_NONE)
    typical = float(np.median(sizes)) if sizes else 25.0
    for _ in range(negatives):
        side = typical * CROP_SCALE_NEG * rng.uniform(0.7, 1.4)
        if scene.cards and rng.random() < 0.6:
            card = scene.cards[int(rng.integers(len(scene.cards)))]
            bx1, by1, bx2, by2 = card.box
            cx, cy = rng.uniform(bx1, bx2), rng.uniform(by1, by2)
        else:
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        if any(i.labelled and _near(i.box, cx, cy, 0.45) for i in scene.indices):
            continue
        crops.append(crop_square(scene.image, (cx, cy), side, CROP_PX))
        labels.append(REJECT)
        angles.append(float("nan"))
        sides.append(SIDE_NONE)
    if not crops:
        return (np.zeros((0, CROP_PX, CROP_PX, 3), np.uint8), np.zeros(0, np.int64), np.zeros(0, np.float32),
                np.zeros(0, np.int8))
    return np.stack(crops), np.array(labels, np.int64), np.array(angles, np.float32), np.array(sides, np.int8)


def crop_facts_from_meta(meta: dict, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The corner sides (int8) and index sizes (float32: the longest side of the index box in
    pixels; 0 for a reject crop) of a scene's crops, from its ``meta/*.json`` (same selection
    as :func:`classifier_crops`; the class ids must agree). Crops written before they
    carried their sides get them here."""
    indices = [IndexLabel.from_meta(i) for i in meta["indices"]]
    corner = corner_sides(indices)
    sides, sizes, expected = [], [], []
    for k, count in crop_sources(indices):
        idx = indices[k]
        x1, y1, x2, y2 = idx.box
        sides += [corner[k] if idx.labelled else SIDE_NONE] * count
        sizes += [max(x2 - x1, y2 - y1) if idx.labelled else 0.0] * count
        expected += [CARD_NAMES.index(idx.card) if idx.labelled else REJECT] * count
    n = len(expected)
    if list(labels[:n]) != expected or any(v != REJECT for v in labels[n:]):
        raise ValueError(f"{meta.get('image')}: its crops do not follow its meta (another generator version?)")
    rest = len(labels) - n
    return np.array(sides + [SIDE_NONE] * rest, np.int8), np.array(sizes + [0.0] * rest, np.float32)


CROP_SCALE_NEG = 1.3

MIN_READABLE_PX = 12
"""Indices whose box is smaller than this give no classifier crops (too small to read)."""


def _near(box: tuple[float, float, float, float], x: float, y: float, frac: float) -> bool:
    x1, y1, x2, y2 = box
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    r = max(x2 - x1, y2 - y1)
    return abs(x - cx) < r * frac + r / 2 * 0 and abs(y - cy) < r * frac
