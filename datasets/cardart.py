"""Playing-card artwork drawn by the project's own code (PIL glyphs + OpenCV shapes).

Every one of the 54 cards of a Tractor deck can be rendered in many "brands": fonts,
index sizes and positions, 2 or 4 corner indices, pip shapes, court panels and
Chinese-deck jokers (大王 in colour, 小王 in black, JOKER written down the corner).
Styles are split into a *train* and a disjoint *holdout* family (fonts, pip shapes,
court and joker designs), so held-out evaluation measures transfer to unseen decks.

>>> import numpy as np
>>> style = CardStyle.random(np.random.default_rng(7))
>>> card = render_card("10H", style, 140)
>>> card.shape[0], card.shape[2], card.dtype.name
(140, 4, 'uint8')
>>> len(index_boxes("10H", style, 140)) == style.corners
True
"""

from __future__ import annotations

import dataclasses
import functools
import math
import os
import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from tuolaji.scorer.cards import CARD_NAMES, JOKERS, RANKS, SUITS  # noqa: F401  (the one vocabulary; re-exported here)

SPLITS: tuple[str, ...] = ("train", "holdout")

# Design families: the holdout split only ever draws the last id of each.
_PIP_VARIANTS = {"train": (0, 1, 2), "holdout": (3,)}
_COURT_STYLES = {"train": (0, 1, 2), "holdout": (3,)}
_JOKER_STYLES = {"train": (0, 1, 2), "holdout": (3,)}

BGR = tuple[int, int, int]
Box = tuple[float, float, float, float]

_FONT_DIRS = ("/usr/share/fonts", "/usr/share/texmf/fonts", "/usr/local/share/fonts")
_SKIP_FONT = re.compile(
    r"italic|oblique|ita\b|bdita|_r?z?b?i\.|[a-z]\d6f|math|symbol|dingbat|d050000l|z003|chorus|hairline|"
    r"thin|extralight|emoji|cursor|mono|biolinum_k",
    re.IGNORECASE,
)
_NOTO_LATIN = re.compile(r"^Noto(Sans|Serif)(Display)?-")
_CJK_FILES = ("wqy-zenhei.ttc", "wqy-microhei.ttc", "uming.ttc", "ukai.ttc", "NotoSansCJK-Regular.ttc")
# Families that must stay in the training split (the fallback on a bare machine).
_ALWAYS_TRAIN = {"dejavusans", "dejavuserif", "dejavusanscondensed", "dejavuserifcondensed"}
_MORE_FONTS_1: dict[str, re.Pattern[str] | None] = {
    folder: None for folder in (
        "allerta", "arapey", "cabin", "cardo", "clear-sans", "comfortaa", "courier-prime", "ebgaramond", "fanwood",
        "fonts-century-catalogue", "fonts-go", "hack", "inter")} | {
    # folders that the packages of the second group share: the first group's own families only
    "adf": re.compile(r"^(Baskervald|Berenis|Gillius|Switzera|Universalis|Verana)"),
    "averia-gwf": re.compile(r"^AveriaSans"),
}
_MORE_FONTS_2 = frozenset({
    "adf", "averia-gwf", "b612", "bebas-neue", "cmu", "dosis", "elstob", "f500", "artemisia", "bodoni-classic",
    "sortsmill", "junicode", "jura", "karla", "karla-variable", "karlatamilinclined", "karlatamilupright", "karmilla",
    "lindenhill", "manrope", "fonts-oldstandard", "opendin", "play", "fonts-prociono", "quattrocento", "quicksand",
    "slab", "andika", "charis", "gentiumplus", "doulos", "sora", "stix", "stix-word", "tiresias", "tuffy", "vollkorn",
    "yanone-kaffeesatz", "fonts-yrsa-rasa", "ocr-b"})
MORE_FONT_FOLDERS = frozenset(_MORE_FONTS_1) | _MORE_FONTS_2
"""Folders of the fonts that the font packages of ``scripts/apt-packages.txt`` marked for ``--more-fonts`` install:
more index fonts, all of the train split, drawn only when asked (``tuolaji generate --more-fonts``: the first
group, session 24's; ``--more-fonts 2``: both groups), so that every other design drawn (the tests', the
benches', the held-out measures') is as before."""


def more_fonts_level(path: str) -> int:
    """0 for a font every design may draw, else the ``--more-fonts`` level from which it is drawn.

    >>> more_fonts_level("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    0
    >>> more_fonts_level("/usr/share/fonts/truetype/adf/GilliusADF-Regular.otf")
    1
    >>> more_fonts_level("/usr/share/fonts/truetype/adf/LibrisADFStd-Regular.otf")
    2
    """
    folder = os.path.basename(os.path.dirname(path))
    if folder not in MORE_FONT_FOLDERS:
        return 0
    if folder in _MORE_FONTS_1:
        only = _MORE_FONTS_1[folder]
        if only is None or only.match(os.path.basename(path)):
            return 1
    return 2


def is_card_name(name: str) -> bool:
    """True for one of the 54 canonical card names.

    >>> is_card_name("10H"), is_card_name("BJ"), is_card_name("1H")
    (True, True, False)
    """
    return name in _CARD_INDEX


_CARD_INDEX = {name: i for i, name in enumerate(CARD_NAMES)}


def split_card(name: str) -> tuple[str, str]:
    """(rank, suit) of a card; jokers give ("JOKER", "S") for 小王 and ("JOKER", "B") for 大王.

    >>> split_card("10H"), split_card("BJ")
    (('10', 'H'), ('JOKER', 'B'))
    """
    if name not in _CARD_INDEX:
        raise ValueError(f"unknown card {name!r}")
    if name in JOKERS:
        return "JOKER", name[0]
    return name[:-1], name[-1]


def _font_family(path: str) -> str:
    stem = os.path.splitext(os.path.basename(path))[0]
    if re.match(r"^PT[A-Z]\d\dF$", stem):
        return stem[:3].lower()
    stem = re.split(r"[-_]", stem)[0]
    return re.sub(r"(bold|regular|roman|book|demi|light|medium|semibold|black|heavy)$", "", stem.lower())


def _font_split(path: str) -> str:
    family = _font_family(path)
    if family in _ALWAYS_TRAIN:
        return "train"
    return "holdout" if zlib.crc32(family.encode()) % 4 == 0 else "train"


@functools.cache
def available_fonts(more: int = 0) -> dict[str, tuple[str, ...]]:
    """Latin index fonts installed on this machine, split into train and holdout families.

    The split depends only on the font's family name, so it is the same on every machine
    that has the same packages. DejaVu (present almost everywhere) is always *train*; a
    holdout split with no fonts of its own falls back to the train fonts. ``more``: the fonts
    of :data:`MORE_FONT_FOLDERS` up to that level (:func:`more_fonts_level`; True is 1) too, all of them *train*.
    """
    found: list[str] = []
    for root in _FONT_DIRS:
        for folder, _dirs, files in os.walk(root):
            for file in files:
                if not file.lower().endswith((".ttf", ".otf")):
                    continue
                if _SKIP_FONT.search(file) or more_fonts_level(os.path.join(folder, file)) > more:
                    continue
                if os.path.basename(folder) == "noto" and not _NOTO_LATIN.match(file):
                    continue
                found.append(os.path.join(folder, file))
    found.sort(key=lambda p: (os.path.basename(p), p))
    unique: dict[str, str] = {}
    for path in found:
        unique.setdefault(os.path.basename(path), path)
    paths = sorted(unique.values(), key=os.path.basename)
    usable = [p for p in paths if _font_renders_latin(p)]
    more_fonts = {p for p in usable if more_fonts_level(p) > 0}
    train = tuple(p for p in usable if _font_split(p) == "train" or p in more_fonts)
    holdout = tuple(p for p in usable if _font_split(p) == "holdout" and p not in more_fonts)
    if not train:
        train = (_pil_default_font_path(),)
    return {"train": train, "holdout": holdout or train}


@functools.cache
def cjk_font() -> str | None:
    """A font file able to write 大王 / 小王, or None when none is installed."""
    for root in _FONT_DIRS:
        for folder, _dirs, files in os.walk(root):
            for name in _CJK_FILES:
                if name in files:
                    return os.path.join(folder, name)
    return None


def _pil_default_font_path() -> str:
    # Pillow ships no TrueType file of its own; DejaVu is the universal fallback.
    return "DejaVuSans.ttf"


def _font_renders_latin(path: str) -> bool:
    try:
        font = ImageFont.truetype(path, 40)
        box_q = font.getbbox("Q")
        box_k = font.getbbox("K")
    except OSError:
        return False
    return (box_q[2] - box_q[0]) > 5 and (box_k[3] - box_k[1]) > 10


INDEX_LAYOUTS = ("vertical", "horizontal")


@dataclass(frozen=True)
class CardStyle:
    """One deck design. Lengths are fractions of the card height unless named otherwise.

    >>> s = CardStyle.random(np.random.default_rng(1), "holdout")
    >>> s.split, s.corners in (2, 4)
    ('holdout', True)
    """

    font_path: str
    split: str = "train"
    aspect: float = 0.714  # width / height (poker 63x88; bridge decks ~0.65)
    corner_radius: float = 0.05  # of the height
    corners: int = 2
    index_layout: str = "vertical"  # the rank over its suit; "horizontal": the suit beside the rank
    index_cx: float = 0.085  # centre of the index, fraction of the width
    index_top: float = 0.045
    rank_height: float = 0.1
    rank_width_scale: float = 1.0
    rank_stroke: int = 0  # extra stroke in master glyph pixels (bolder print)
    pip_height: float = 0.065
    index_gap: float = 0.012
    pip_variant: int = 0
    face_colour: BGR = (250, 250, 250)
    red_colour: BGR = (40, 20, 200)
    black_colour: BGR = (25, 25, 25)
    border_colour: BGR | None = None
    border_width: float = 0.006
    court_style: int = 0
    joker_style: int = 0
    joker_colours: tuple[BGR, ...] = ((40, 20, 200), (200, 100, 20), (20, 170, 230))
    joker_letter_height: float = 0.055
    back_colour: BGR = (140, 40, 30)
    back_pattern: int = 0
    seed: int = 0

    @staticmethod
    def random(rng: np.random.Generator, split: str = "train", more_fonts: int = 0) -> CardStyle:
        """Draw a deck design; "train" and "holdout" use disjoint fonts and designs; ``more_fonts``:
        "train" draws from :data:`MORE_FONT_FOLDERS` up to that level too."""
        if split not in SPLITS:
            raise ValueError(f"split must be one of {SPLITS}, not {split!r}")
        fonts = available_fonts(more_fonts)[split]
        font_path = fonts[int(rng.integers(len(fonts)))]
        jumbo = rng.random() < 0.25
        rank_height = float(rng.uniform(0.12, 0.17) if jumbo else rng.uniform(0.075, 0.12))
        pip_height = float(rank_height * rng.uniform(0.55, 0.9))
        aspect = float(rng.choice([0.714, 0.714, 0.65, 0.68]) + rng.uniform(-0.01, 0.01))
        corners = 4 if rng.random() < 0.35 else 2
        index_cx = float(rng.uniform(0.075, 0.115) if not jumbo else rng.uniform(0.1, 0.14))
        face = int(rng.uniform(225, 256))
        face_colour = (
            int(np.clip(face - rng.uniform(0, 25), 0, 255)),
            int(np.clip(face - rng.uniform(0, 10), 0, 255)),
            face,
        )
        red = (int(rng.uniform(10, 70)), int(rng.uniform(0, 50)), int(rng.uniform(160, 235)))
        black_level = int(rng.uniform(0, 50))
        black = (black_level + int(rng.uniform(0, 25)), black_level, black_level)
        border: BGR | None = None
        if rng.random() < 0.35:
            tone = int(rng.uniform(60, 200))
            border = (tone, tone, tone) if rng.random() < 0.6 else red
        joker_palette = rng.permutation(
            np.array([red, (200, 110, 20), (20, 170, 230), (60, 150, 40), (150, 40, 150)])
        )
        if rng.random() < 0.6:  # most 大王 print their corner in red
            joker_palette = np.concatenate([np.array([red]), joker_palette])
        back = (int(rng.uniform(20, 200)), int(rng.uniform(20, 120)), int(rng.uniform(20, 200)))
        return CardStyle(
            font_path=font_path,
            split=split,
            aspect=aspect,
            corner_radius=float(rng.uniform(0.03, 0.07)),
            corners=corners,
            index_cx=index_cx,
            index_top=float(rng.uniform(0.03, 0.06)),
            rank_height=rank_height,
            rank_width_scale=float(rng.uniform(0.8, 1.15)),
            rank_stroke=int(rng.choice([0, 0, 1, 2, 3])),
            pip_height=pip_height,
            index_gap=float(rank_height * rng.uniform(0.08, 0.3)),
            pip_variant=int(rng.choice(_PIP_VARIANTS[split])),
            face_colour=face_colour,
            red_colour=red,
            black_colour=black,
            border_colour=border,
            border_width=float(rng.uniform(0.004, 0.012)),
            court_style=int(rng.choice(_COURT_STYLES[split])),
            joker_style=int(rng.choice(_JOKER_STYLES[split])),
            joker_colours=tuple(tuple(int(c) for c in colour) for colour in joker_palette[:3]),
            joker_letter_height=float(rng.uniform(0.045, 0.07)),
            back_colour=back,
            back_pattern=int(rng.integers(3)),
            seed=int(rng.integers(2**31)),
        )

    def with_corners(self, corners: int) -> CardStyle:
        """The same design with 2 or 4 corner indices."""
        if corners not in (2, 4):
            raise ValueError("corners must be 2 or 4")
        return dataclasses.replace(self, corners=corners)

    def with_index_layout(self, layout: str) -> CardStyle:
        """The same design with its indices ``"vertical"`` (the rank over its suit) or
        ``"horizontal"`` (the suit beside the rank, as some Asian and casino decks print them).

        >>> style = CardStyle.random(np.random.default_rng(3)).with_index_layout("horizontal")
        >>> x1, y1, x2, y2 = index_boxes("7H", style, 200)[0]
        >>> x2 - x1 > y2 - y1
        True
        """
        if layout not in INDEX_LAYOUTS:
            raise ValueError(f"index layout must be one of {INDEX_LAYOUTS}")
        return dataclasses.replace(self, index_layout=layout)


def card_size(style: CardStyle, height_px: int) -> tuple[int, int]:
    """(width, height) in pixels of a card drawn ``height_px`` tall."""
    return max(8, round(height_px * style.aspect)), int(height_px)


# ---------------------------------------------------------------- glyph masks

_MASTER_PX = 96


@functools.lru_cache(maxsize=8192)
def _text_mask(font_path: str, text: str, stroke: int) -> np.ndarray:
    """Tight uint8 mask of ``text`` drawn with ink height about _MASTER_PX."""
    font = _load_font(font_path, int(_MASTER_PX * 1.45))
    left, top, right, bottom = font.getbbox(text, stroke_width=stroke)
    pad = 8
    image = Image.new("L", (right - left + 2 * pad, bottom - top + 2 * pad), 0)
    ImageDraw.Draw(image).text(
        (pad - left, pad - top), text, fill=255, font=font, stroke_width=stroke, stroke_fill=255
    )
    mask = np.asarray(image)
    ys, xs = np.nonzero(mask > 20)
    if len(xs) == 0:
        return np.zeros((_MASTER_PX, _MASTER_PX // 2), np.uint8)
    return np.ascontiguousarray(mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1])


@functools.lru_cache(maxsize=64)
def _load_font(font_path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(font_path, size)


def _heart_points(n: int, fat: float) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    x = 16 * np.sin(t) ** 3
    y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))
    x = x * fat
    return np.stack([x, y], axis=1)


@functools.lru_cache(maxsize=64)
def _pip_mask(suit: str, variant: int) -> np.ndarray:
    """Tight uint8 mask of a suit pip at about _MASTER_PX tall (several designs)."""
    size = _MASTER_PX * 2
    canvas = np.zeros((size, size), np.uint8)
    c = size / 2
    fat = (1.0, 1.12, 0.9, 1.05)[variant]
    aa = cv2.LINE_AA

    def poly(points: np.ndarray) -> None:
        pts = np.round(points * 8).astype(np.int32)
        cv2.fillPoly(canvas, [pts], 255, aa, shift=3)

    def circle(x: float, y: float, r: float) -> None:
        cv2.circle(canvas, (round(x * 8), round(y * 8)), round(r * 8), 255, -1, aa, shift=3)

    def stem(top_y: float, bottom_y: float, half_top: float, half_bottom: float, flare: int) -> None:
        if flare == 0:
            pts = [(c - half_top, top_y), (c + half_top, top_y), (c + half_bottom, bottom_y), (c - half_bottom, bottom_y)]
            poly(np.array(pts, float))
        else:
            # a concave, trumpet-shaped foot
            ys = np.linspace(top_y, bottom_y, 12)
            ts = (ys - top_y) / (bottom_y - top_y)
            half = half_top + (half_bottom - half_top) * ts**2.2
            left = np.stack([c - half, ys], 1)
            right = np.stack([c + half, ys], 1)[::-1]
            poly(np.concatenate([left, right]))

    scale = size * 0.026
    if suit == "H":
        pts = _heart_points(120, fat) * scale + np.array([c, c - 0.02 * size])
        poly(pts)
    elif suit == "S":
        pts = _heart_points(120, fat) * scale * np.array([1, -1]) + np.array([c, c - 0.08 * size])
        poly(pts)
        half_top = size * (0.02, 0.03, 0.015, 0.025)[variant]
        half_bottom = size * (0.12, 0.1, 0.14, 0.09)[variant]
        stem(c + 0.05 * size, c + 0.34 * size, half_top, half_bottom, variant % 2)
    elif suit == "C":
        r = size * (0.17, 0.185, 0.16, 0.175)[variant]
        circle(c, c - 0.2 * size, r)
        circle(c - 0.19 * size, c + 0.06 * size, r)
        circle(c + 0.19 * size, c + 0.06 * size, r)
        poly(np.array([(c, c - 0.12 * size), (c - 0.12 * size, c + 0.05 * size), (c + 0.12 * size, c + 0.05 * size)]))
        half_top = size * (0.025, 0.035, 0.02, 0.03)[variant]
        half_bottom = size * (0.12, 0.1, 0.14, 0.09)[variant]
        stem(c, c + 0.36 * size, half_top, half_bottom, (variant + 1) % 2)
    elif suit == "D":
        h = size * 0.4
        w = h * (0.78, 0.86, 0.7, 0.82)[variant]
        bow = (0.0, 0.12, 0.18, 0.06)[variant]  # inward curvature of the sides
        ts = np.linspace(0, 1, 16)
        edges = []
        for (x0, y0), (x1, y1) in (((0, -h), (w, 0)), ((w, 0), (0, h)), ((0, h), (-w, 0)), ((-w, 0), (0, -h))):
            xs = x0 + (x1 - x0) * ts
            ys = y0 + (y1 - y0) * ts
            pull = bow * np.sin(np.pi * ts)
            edges.append(np.stack([xs * (1 - pull), ys * (1 - pull)], 1))
        poly(np.concatenate(edges) + np.array([c, c]))
    else:
        raise ValueError(f"unknown suit {suit!r}")
    ys, xs = np.nonzero(canvas > 20)
    return np.ascontiguousarray(canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1])


@functools.lru_cache(maxsize=16)
def _star_mask(points: int) -> np.ndarray:
    size = _MASTER_PX * 2
    canvas = np.zeros((size, size), np.uint8)
    angles = np.arange(2 * points) * np.pi / points - np.pi / 2
    radii = np.where(np.arange(2 * points) % 2 == 0, size * 0.48, size * 0.2)
    pts = np.stack([size / 2 + radii * np.cos(angles), size / 2 + radii * np.sin(angles)], 1)
    cv2.fillPoly(canvas, [np.round(pts * 8).astype(np.int32)], 255, cv2.LINE_AA, shift=3)
    ys, xs = np.nonzero(canvas > 20)
    return np.ascontiguousarray(canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1])


# ---------------------------------------------------------------- layout

@dataclass(frozen=True)
class _Stamp:
    mask_key: tuple  # ("text", font, text, stroke) | ("pip", suit, variant) | ("star", n)
    box: Box  # x1, y1, x2, y2 in card pixels (upright top-left corner)
    colour: BGR


def _mask_for(key: tuple) -> np.ndarray:
    if key[0] == "text":
        return _text_mask(key[1], key[2], key[3])
    if key[0] == "pip":
        return _pip_mask(key[1], key[2])
    return _star_mask(key[1])


def _suit_colour(suit: str, style: CardStyle) -> BGR:
    return style.red_colour if suit in ("H", "D") else style.black_colour


def _index_stamps(name: str, style: CardStyle, height_px: int) -> list[_Stamp]:
    """The glyphs of the top-left corner index, in card pixels."""
    width, height = card_size(style, height_px)
    rank, suit = split_card(name)
    cx = style.index_cx * width
    top = style.index_top * height
    stamps: list[_Stamp] = []
    if rank == "JOKER":
        letter_h = style.joker_letter_height * height
        step = letter_h * 1.18
        y = top
        for i, letter in enumerate("JOKER"):
            mask = _mask_for(("text", style.font_path, letter, style.rank_stroke))
            w = letter_h * mask.shape[1] / mask.shape[0] * style.rank_width_scale
            if suit == "B":
                colour = style.joker_colours[i % 2] if style.joker_style == 2 else style.joker_colours[0]
            else:
                colour = style.black_colour
            stamps.append(_Stamp(("text", style.font_path, letter, style.rank_stroke), (cx - w / 2, y, cx + w / 2, y + letter_h), colour))
            y += step
        if style.joker_style in (1, 3):
            star_h = letter_h * 1.1
            colour = style.joker_colours[1] if suit == "B" else style.black_colour
            y += letter_h * 0.1
            stamps.append(_Stamp(("star", 5), (cx - star_h / 2, y, cx + star_h / 2, y + star_h), colour))
        return stamps
    colour = _suit_colour(suit, style)
    rank_key = ("text", style.font_path, rank, style.rank_stroke)
    mask = _mask_for(rank_key)
    rank_h = style.rank_height * height
    rank_w = rank_h * mask.shape[1] / mask.shape[0] * style.rank_width_scale
    rank_w = min(rank_w, rank_h * (1.25 if rank == "10" else 0.95))
    stamps.append(_Stamp(rank_key, (cx - rank_w / 2, top, cx + rank_w / 2, top + rank_h), colour))
    pip_key = ("pip", suit, style.pip_variant)
    pip = _mask_for(pip_key)
    pip_h = style.pip_height * height
    pip_w = pip_h * pip.shape[1] / pip.shape[0]
    if style.index_layout == "horizontal":  # the rank kept off the card's edge, its suit to its right
        rank_left = max(0.04 * width, cx - rank_w / 2)
        stamps[-1] = _Stamp(rank_key, (rank_left, top, rank_left + rank_w, top + rank_h), colour)
        pip_left = rank_left + rank_w + style.index_gap * height
        pip_top = top + (rank_h - pip_h) / 2
        stamps.append(_Stamp(pip_key, (pip_left, pip_top, pip_left + pip_w, pip_top + pip_h), colour))
        return stamps
    pip_top = top + rank_h + style.index_gap * height
    stamps.append(_Stamp(pip_key, (cx - pip_w / 2, pip_top, cx + pip_w / 2, pip_top + pip_h), colour))
    return stamps


def _union(boxes: Sequence[Box]) -> Box:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _corner_transforms(style: CardStyle, width: int, height: int) -> list[tuple[bool, bool, bool]]:
    """(mirror_x, mirror_y, rotate_180) for each corner index: TL, BR, then TR, BL."""
    corners = [(False, False, False), (True, True, True)]
    if style.corners == 4:
        corners += [(True, False, False), (False, True, True)]
    return corners


def _place(box: Box, width: int, height: int, mirror_x: bool, mirror_y: bool) -> Box:
    x1, y1, x2, y2 = box
    if mirror_x:
        x1, x2 = width - x2, width - x1
    if mirror_y:
        y1, y2 = height - y2, height - y1
    return (x1, y1, x2, y2)


def index_boxes(name: str, style: CardStyle, height_px: int) -> list[Box]:
    """Boxes (x1, y1, x2, y2) of the card's corner indices in card pixel coordinates.

    Order: top-left, bottom-right (rotated 180°), then for 4-corner decks top-right and
    bottom-left. Each box holds the rank (or JOKER column) and the pip under it, with a
    margin of 15% of the rank height so the label box is stable and learnable.

    >>> style = CardStyle.random(np.random.default_rng(3))
    >>> x1, y1, x2, y2 = index_boxes("AS", style, 200)[0]
    >>> 0 <= x1 < x2 < 70 and 0 <= y1 < y2 < 100
    True
    """
    width, height = card_size(style, height_px)
    stamps = _index_stamps(name, style, height_px)
    x1, y1, x2, y2 = _union([s.box for s in stamps])
    pad = 0.15 * style.rank_height * height
    tight = (max(0.0, x1 - pad), max(0.0, y1 - pad), min(width / 2, x2 + pad), min(height / 2, y2 + pad))
    return [_place(tight, width, height, mx, my) for mx, my, _rot in _corner_transforms(style, width, height)]


# ---------------------------------------------------------------- drawing

def _stamp(canvas: np.ndarray, mask: np.ndarray, box: Box, colour: Sequence[float], rotate_180: bool) -> None:
    """Alpha-blend ``colour`` through ``mask`` resized into ``box`` (float BGR canvas)."""
    x1, y1, x2, y2 = box
    w = max(1, round(x2 - x1))
    h = max(1, round(y2 - y1))
    ix, iy = round(x1), round(y1)
    interp = cv2.INTER_AREA if h < mask.shape[0] else cv2.INTER_LINEAR
    alpha = cv2.resize(mask, (w, h), interpolation=interp).astype(np.float32) / 255.0
    if rotate_180:
        alpha = alpha[::-1, ::-1]
    H, W = canvas.shape[:2]
    ox1, oy1 = max(ix, 0), max(iy, 0)
    ox2, oy2 = min(ix + w, W), min(iy + h, H)
    if ox1 >= ox2 or oy1 >= oy2:
        return
    a = alpha[oy1 - iy : oy2 - iy, ox1 - ix : ox2 - ix, None]
    region = canvas[oy1:oy2, ox1:ox2]
    region *= 1.0 - a
    region += a * np.asarray(colour, np.float32)


def _rounded_alpha(width: int, height: int, radius: float) -> np.ndarray:
    alpha = np.zeros((height, width), np.uint8)
    r = max(1.0, radius)
    s = 8
    w8, h8, r8 = (width - 1) * s, (height - 1) * s, round(r * s)
    cv2.rectangle(alpha, (round(r), 0), (width - 1 - round(r), height - 1), 255, -1)
    cv2.rectangle(alpha, (0, round(r)), (width - 1, height - 1 - round(r)), 255, -1)
    for cx, cy in ((r8, r8), (w8 - r8, r8), (r8, h8 - r8), (w8 - r8, h8 - r8)):
        cv2.circle(alpha, (cx, cy), r8, 255, -1, cv2.LINE_AA, shift=3)
    return alpha


_PIP_LAYOUTS: dict[str, list[tuple[float, float]]] = {
    "2": [(0.5, 0.0), (0.5, 1.0)],
    "3": [(0.5, 0.0), (0.5, 0.5), (0.5, 1.0)],
    "4": [(0, 0), (1, 0), (0, 1), (1, 1)],
    "5": [(0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)],
    "6": [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    "7": [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    "8": [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)],
    "9": [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)],
    "10": [(0, 0), (1, 0), (0.5, 1 / 6), (0, 1 / 3), (1, 1 / 3), (0, 2 / 3), (1, 2 / 3), (0.5, 5 / 6), (0, 1), (1, 1)],
}


def _draw_pips(canvas: np.ndarray, rank: str, suit: str, style: CardStyle, width: int, height: int) -> None:
    colour = _suit_colour(suit, style)
    pip = _pip_mask(suit, style.pip_variant)
    if rank == "A":
        ph = height * (0.3 if suit == "S" else 0.22)
        pw = ph * pip.shape[1] / pip.shape[0]
        _stamp(canvas, pip, (width / 2 - pw / 2, height / 2 - ph / 2, width / 2 + pw / 2, height / 2 + ph / 2), colour, False)
        return
    # keep the pips clear of the corner indices (jumbo-index decks shrink them)
    index_right = index_boxes(rank + suit, style, height)[0][2]
    left = max(width * 0.3, index_right + width * 0.1)
    right = width - left
    ph = min(height * 0.13, (right - left) * 0.55)
    pw = ph * pip.shape[1] / pip.shape[0]
    top, bottom = height * 0.2, height * 0.8
    for fx, fy in _PIP_LAYOUTS[rank]:
        x = left + (right - left) * fx
        y = top + (bottom - top) * fy
        _stamp(canvas, pip, (x - pw / 2, y - ph / 2, x + pw / 2, y + ph / 2), colour, fy > 0.5)


def _figure_half(rng: np.random.Generator, w: int, h: int, rank: str, style: CardStyle, suit: str) -> np.ndarray:
    """BGRA drawing of the top half of a double-ended court figure."""
    img = np.zeros((h, w, 4), np.uint8)
    palette = [style.red_colour, (160, 80, 20), (20, 170, 220), style.black_colour, (40, 120, 40)]
    aa = cv2.LINE_AA

    def col(i: int) -> tuple[int, int, int, int]:
        c = palette[i % len(palette)]
        return (int(c[0]), int(c[1]), int(c[2]), 255)

    order = rng.permutation(len(palette))
    head_r = int(min(w, h) * rng.uniform(0.16, 0.22))
    head = (int(w * rng.uniform(0.42, 0.58)), int(h * 0.38))
    # shoulders / robe
    body = np.array([(w * 0.1, h), (w * 0.2, h * 0.62), (w * 0.8, h * 0.62), (w * 0.9, h)], np.int32)
    cv2.fillPoly(img, [body], col(order[0]), aa)
    for k in range(int(rng.integers(2, 5))):
        y = int(h * (0.68 + 0.08 * k))
        cv2.line(img, (int(w * 0.18), y), (int(w * 0.82), y), col(order[1 + k % 3]), max(1, h // 30), aa)
    cv2.circle(img, head, head_r, (170, 200, 235, 255), -1, aa)
    cv2.circle(img, head, head_r, (30, 30, 30, 255), max(1, h // 60), aa)
    hat_top = max(1, head[1] - head_r * 2)
    if rank == "K":
        crown = np.array([(head[0] - head_r, head[1] - head_r // 2), (head[0] - head_r, hat_top), (head[0] - head_r // 2, hat_top + head_r // 2),
                          (head[0], hat_top), (head[0] + head_r // 2, hat_top + head_r // 2), (head[0] + head_r, hat_top),
                          (head[0] + head_r, head[1] - head_r // 2)], np.int32)
        cv2.fillPoly(img, [crown], (20, 190, 230, 255), aa)
    elif rank == "Q":
        cv2.ellipse(img, (head[0], head[1] - head_r // 3), (int(head_r * 1.3), head_r), 0, 180, 360, col(order[2]), -1, aa)
    else:
        cap = np.array([(head[0] - head_r, head[1] - head_r // 2), (head[0] + head_r * 1.4, head[1] - head_r),
                        (head[0], hat_top)], np.int32)
        cv2.fillPoly(img, [cap], col(order[3]), aa)
    # an item held: sword, flower or sceptre
    x = int(w * rng.uniform(0.15, 0.3))
    cv2.line(img, (x, int(h * 0.95)), (x + int(w * 0.05), int(h * 0.15)), col(order[4]), max(1, w // 25), aa)
    # the suit pip in the upper corner of the panel
    pip = _pip_mask(suit, style.pip_variant)
    ph = int(h * 0.2)
    pw = max(1, int(ph * pip.shape[1] / pip.shape[0]))
    small = cv2.resize(pip, (pw, ph), interpolation=cv2.INTER_AREA)
    px = int(w * 0.78) - pw // 2
    py = int(h * 0.08)
    region = img[py : py + ph, px : px + pw]
    a = small[: region.shape[0], : region.shape[1], None].astype(np.float32) / 255
    colour = np.array((*_suit_colour(suit, style), 255), np.float32)
    region[:] = (region * (1 - a) + colour * a).astype(np.uint8)
    return img


def _draw_court(canvas: np.ndarray, rank: str, suit: str, style: CardStyle, width: int, height: int, name: str) -> None:
    rng = np.random.default_rng([style.seed, CARD_NAMES.index(name)])
    x1, x2 = int(width * 0.22), int(width * 0.78)
    y1, y2 = int(height * 0.12), int(height * 0.88)
    if style.court_style == 2:
        # modern decks: one big letter and pip instead of a figure
        _draw_pips(canvas, "A", suit, style, width, height)
        mask = _text_mask(style.font_path, rank, style.rank_stroke)
        lh = height * 0.2
        lw = lh * mask.shape[1] / mask.shape[0]
        _stamp(canvas, mask, (width / 2 - lw / 2, y1, width / 2 + lw / 2, y1 + lh), _suit_colour(suit, style), False)
        _stamp(canvas, mask, (width / 2 - lw / 2, y2 - lh, width / 2 + lw / 2, y2), _suit_colour(suit, style), True)
        return
    pw, ph = x2 - x1, y2 - y1
    if pw < 4 or ph < 8:
        return
    if style.court_style == 3:
        tint = np.array(style.joker_colours[2], np.float32) * 0.25 + 0.75 * np.array(style.face_colour, np.float32)
        canvas[y1:y2, x1:x2] = tint
    half = _figure_half(rng, pw, ph // 2, rank, style, suit)
    full = np.concatenate([half, half[::-1, ::-1]], axis=0)
    full = cv2.resize(full, (pw, ph), interpolation=cv2.INTER_AREA) if full.shape[0] != ph else full
    a = full[:, :, 3:4].astype(np.float32) / 255
    region = canvas[y1:y2, x1:x2]
    region *= 1 - a
    region += a * full[:, :, :3].astype(np.float32)
    if style.court_style in (0, 3):
        frame = style.border_colour or (120, 60, 30)
        cv2.rectangle(canvas, (x1, y1), (x2 - 1, y2 - 1), tuple(float(c) for c in frame), max(1, width // 70), cv2.LINE_AA)
    cv2.line(canvas, (x1, (y1 + y2) // 2), (x2 - 1, (y1 + y2) // 2), (90.0, 90.0, 90.0), 1, cv2.LINE_AA)


def _draw_joker_centre(canvas: np.ndarray, suit: str, style: CardStyle, width: int, height: int) -> None:
    big = suit == "B"
    colours = style.joker_colours if big else (style.black_colour, (90, 90, 90), (150, 150, 150))
    cjk = cjk_font()
    cx, cy = width / 2, height / 2
    if style.joker_style in (0, 3) and cjk is not None:
        text = "大王" if big else "小王"
        for i, ch in enumerate(text):
            mask = _text_mask(cjk, ch, 1)
            ch_h = height * 0.17
            ch_w = ch_h * mask.shape[1] / mask.shape[0]
            y = cy - ch_h * 1.05 + i * ch_h * 1.1
            _stamp(canvas, mask, (cx - ch_w / 2, y, cx + ch_w / 2, y + ch_h), colours[i % len(colours)], False)
        if style.joker_style == 3:
            cv2.rectangle(canvas, (int(width * 0.2), int(height * 0.12)), (int(width * 0.8), int(height * 0.88)),
                          tuple(float(c) for c in colours[1]), max(1, width // 60), cv2.LINE_AA)
        return
    if style.joker_style == 2:
        star = _star_mask(5)
        sh = height * 0.3
        _stamp(canvas, star, (cx - sh / 2, cy - sh / 2, cx + sh / 2, cy + sh / 2), colours[0], False)
        word = _text_mask(style.font_path, "JOKER", 1)
        wh = height * 0.06
        ww = min(width * 0.6, wh * word.shape[1] / word.shape[0])
        _stamp(canvas, word, (cx - ww / 2, cy + sh * 0.6, cx + ww / 2, cy + sh * 0.6 + wh), colours[1], False)
        return
    # a jester: face, three-pointed hat with bells, collar
    r = width * 0.16
    aa = cv2.LINE_AA
    face = (int(cx), int(cy))
    hat = np.array([(cx - r * 1.3, cy - r * 0.4), (cx - r * 1.9, cy - r * 2.2), (cx - r * 0.5, cy - r * 1.1), (cx, cy - r * 2.6),
                    (cx + r * 0.5, cy - r * 1.1), (cx + r * 1.9, cy - r * 2.2), (cx + r * 1.3, cy - r * 0.4)], np.int32)
    cv2.fillPoly(canvas, [hat], tuple(float(c) for c in colours[0]), aa)
    for bx, by in ((cx - r * 1.9, cy - r * 2.2), (cx, cy - r * 2.6), (cx + r * 1.9, cy - r * 2.2)):
        cv2.circle(canvas, (int(bx), int(by)), max(1, int(r * 0.25)), tuple(float(c) for c in colours[2]), -1, aa)
    collar = np.array([(cx - r * 1.6, cy + r * 1.4), (cx, cy + r * 0.8), (cx + r * 1.6, cy + r * 1.4), (cx, cy + r * 2.4)], np.int32)
    cv2.fillPoly(canvas, [collar], tuple(float(c) for c in colours[1]), aa)
    skin = (170.0, 200.0, 235.0) if big else (200.0, 200.0, 200.0)
    cv2.circle(canvas, face, int(r), skin, -1, aa)
    cv2.circle(canvas, face, int(r), tuple(float(c) for c in style.black_colour), max(1, int(r // 8)), aa)


def render_card(name: str, style: CardStyle, height_px: int) -> np.ndarray:
    """The face of card ``name``: BGRA uint8, ``height_px`` tall, transparent outside the card.

    >>> img = render_card("BJ", CardStyle.random(np.random.default_rng(0)), 120)
    >>> img.shape[0], int(img[0, 0, 3]), int(img[60, img.shape[1] // 2, 3])
    (120, 0, 255)
    """
    rank, suit = split_card(name)
    width, height = card_size(style, height_px)
    canvas = np.empty((height, width, 3), np.float32)
    canvas[:] = style.face_colour
    if rank == "JOKER":
        _draw_joker_centre(canvas, suit, style, width, height)
    elif rank in ("J", "Q", "K"):
        _draw_court(canvas, rank, suit, style, width, height, name)
    else:
        _draw_pips(canvas, rank, suit, style, width, height)
    stamps = _index_stamps(name, style, height_px)
    for mirror_x, mirror_y, rotate in _corner_transforms(style, width, height):
        for s in stamps:
            _stamp(canvas, _mask_for(s.mask_key), _place(s.box, width, height, mirror_x, mirror_y), s.colour, rotate)
    radius = style.corner_radius * height
    if style.border_colour is not None:
        thickness = max(1, round(style.border_width * height))
        inset = thickness / 2 + max(1.0, height * 0.012)
        _rounded_outline(canvas, width, height, radius, inset, style.border_colour, thickness)
    out = np.empty((height, width, 4), np.uint8)
    out[:, :, :3] = np.clip(canvas + 0.5, 0, 255).astype(np.uint8)
    out[:, :, 3] = _rounded_alpha(width, height, radius)
    return out


def _rounded_outline(canvas: np.ndarray, width: int, height: int, radius: float, inset: float, colour: BGR, thickness: int) -> None:
    x1, y1 = inset, inset
    x2, y2 = width - 1 - inset, height - 1 - inset
    r = max(1.0, radius - inset)
    col = tuple(float(c) for c in colour)
    aa = cv2.LINE_AA
    s = 8

    def p(x: float, y: float) -> tuple[int, int]:
        return (round(x * s), round(y * s))

    cv2.line(canvas, p(x1 + r, y1), p(x2 - r, y1), col, thickness, aa, shift=3)
    cv2.line(canvas, p(x1 + r, y2), p(x2 - r, y2), col, thickness, aa, shift=3)
    cv2.line(canvas, p(x1, y1 + r), p(x1, y2 - r), col, thickness, aa, shift=3)
    cv2.line(canvas, p(x2, y1 + r), p(x2, y2 - r), col, thickness, aa, shift=3)
    for (cx, cy), start in (((x1 + r, y1 + r), 180), ((x2 - r, y1 + r), 270), ((x2 - r, y2 - r), 0), ((x1 + r, y2 - r), 90)):
        cv2.ellipse(canvas, p(cx, cy), (round(r * s), round(r * s)), 0, start, start + 90, col, thickness, aa, shift=3)


def render_back(style: CardStyle, height_px: int) -> np.ndarray:
    """The back of a card of this deck (BGRA), for face-down distractors in scenes."""
    width, height = card_size(style, height_px)
    canvas = np.empty((height, width, 3), np.float32)
    canvas[:] = style.face_colour
    m = max(2, round(height * 0.04))
    back = np.array(style.back_colour, np.float32)
    canvas[m : height - m, m : width - m] = back
    light = tuple(float(c) for c in np.clip(back + 70, 0, 255))
    step = max(3, round(height * (0.05, 0.08, 0.035)[style.back_pattern]))
    for k in range(-height, width + height, step):
        cv2.line(canvas, (k, m), (k + height, m + height), light, 1, cv2.LINE_AA)
        if style.back_pattern != 1:
            cv2.line(canvas, (k, m), (k - height, m + height), light, 1, cv2.LINE_AA)
    canvas[:m] = style.face_colour
    canvas[height - m :] = style.face_colour
    canvas[:, :m] = style.face_colour
    canvas[:, width - m :] = style.face_colour
    out = np.empty((height, width, 4), np.uint8)
    out[:, :, :3] = np.clip(canvas + 0.5, 0, 255).astype(np.uint8)
    out[:, :, 3] = _rounded_alpha(width, height, style.corner_radius * height)
    return out


def contact_sheet(style: CardStyle, height_px: int = 120, columns: int = 13) -> np.ndarray:
    """All 54 faces of a deck on one BGR image (for eyeballing a design)."""
    width, height = card_size(style, height_px)
    rows = math.ceil(len(CARD_NAMES) / columns)
    sheet = np.full((rows * (height + 6) + 6, columns * (width + 6) + 6, 3), 90, np.uint8)
    for i, name in enumerate(CARD_NAMES):
        card = render_card(name, style, height_px)
        y = 6 + (i // columns) * (height + 6)
        x = 6 + (i % columns) * (width + 6)
        a = card[:, :, 3:4].astype(np.float32) / 255
        region = sheet[y : y + height, x : x + width]
        region[:] = (region * (1 - a) + card[:, :, :3] * a).astype(np.uint8)
        for bx1, by1, bx2, by2 in index_boxes(name, style, height_px):
            cv2.rectangle(region, (round(bx1), round(by1)), (round(bx2), round(by2)), (0, 200, 0), 1)
    return sheet
