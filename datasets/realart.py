"""Card art imported from real SVG decks (Debian's card packages, npm), for the scene generator.

The procedural art of :mod:`datasets.cardart` is all the reader saw before; these are
decks other people drew. Each design's faces are rendered once with ``rsvg-convert``
(Debian's librsvg2-bin) to BGRA images ``CACHE_PX`` tall and cached under
``data/cardart-cache/<design>/``, with the corner-index boxes found automatically in
every face (:func:`find_index_boxes`): the ink of rank + pip nearest the top-left
corner, its 180° twin, and a top-right / bottom-left pair when the deck prints four.
A face whose boxes fail the sanity rule is dropped (and counted in ``deck.json``).

Designs are split: the ``HOLDOUT_DESIGNS`` are only drawn by ``--split holdout``, so the
holdout set measures the reader on decks it was never trained on.

Sources and licences are listed in ``models/README.md`` ("Card art from real decks").

>>> source_card_id("aisleriot", "10H"), source_card_id("kde", "QS"), source_card_id("aisleriot", "BJ")
('heart_10', 'queen_spade', 'joker_red')
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from tuolaji.datasets.cardart import SPLITS, Box, split_card
from tuolaji.scorer.cards import CARD_NAMES, JOKERS

CACHE_PX = 360
"""Height in pixels of the cached face renders (scenes draw cards 55-270 px tall)."""

RENDER_VERSION = 1
"""Bumped when rendering changes: older renders are drawn again."""

FINDER_VERSION = 5
"""Bumped when the index-box finder changes: boxes are found again in the cached renders."""

REPO = Path(__file__).resolve().parents[1]
CACHE_DIR = Path(os.environ.get("TUOLAJI_CARDART_CACHE", REPO / "data" / "cardart-cache"))
NPM_DIR = Path(os.environ.get("TUOLAJI_CARDART_NPM", REPO / "data" / "cardart-npm")) / "node_modules"
GNOME_DIR = Path("/usr/share/aisleriot/cards")
KDE_DIR = Path("/usr/share/carddecks")

Box4 = tuple[float, float, float, float]


# ---------------------------------------------------------------- sources

@dataclass(frozen=True)
class Design:
    """One deck design of one source.

    ``scheme`` names how the source spells card ids (:func:`source_card_id`); ``path`` is
    one SVG holding every card as an element (``sheet``) or a folder of one file per card.
    """

    name: str
    package: str
    path: Path
    scheme: str
    sheet: bool = True
    family: str = ""  # designs drawn by one hand (packaged twice) share it, and a split

    def family_name(self) -> str:
        return self.family or self.name

    def installed(self) -> bool:
        return self.path.exists()


def _gnome(stem: str, family: str = "") -> Design:
    return Design(f"gnome-{stem}", "gnome-cards-data", GNOME_DIR / f"{stem}.svgz", "aisleriot", family=family)


def _kde(folder: str, stem: str, family: str = "") -> Design:
    return Design(f"kde-{folder}", "kdegames-card-data-kf5", KDE_DIR / f"svg-{folder}" / f"{stem}.svgz", "kde",
                  family=family)


DESIGNS: tuple[Design, ...] = (
    _gnome("anglo", "anglo"),
    _gnome("anglo_modern"),
    _gnome("anglo_poker", "anglo"),
    _gnome("atlasnye"),
    _gnome("bellot", "bellot"),
    _gnome("dondorf", "dondorf"),
    _gnome("gnomangelo", "anglo"),
    _gnome("neoclassical"),
    _gnome("orell"),
    _gnome("ornamental", "nicu"),
    _gnome("paris", "paris"),
    _gnome("plastic"),
    _gnome("simplistic"),
    _gnome("tango"),
    _gnome("tigullio", "tigullio"),
    _kde("dondorf", "dondorf", "dondorf"),
    _kde("gm-paris", "paris", "paris"),
    _kde("jolly-royal", "jolly-royal"),
    _kde("nicu-ornamental", "ornamental", "nicu"),
    _kde("nicu-white", "white", "nicu"),
    _kde("penguins", "penguins"),
    _kde("standard", "standard"),
    _kde("tigullio-international", "tigullio-international", "tigullio"),
    Design("npm-younestouati", "@younestouati/playing-cards-standard-deck@3.0.0",
           NPM_DIR / "@younestouati" / "playing-cards-standard-deck" / "cards", "younestouati", sheet=False),
    Design("npm-svg-cards", "svg-cards@4.0.2", NPM_DIR / "svg-cards" / "svg-cards-indented.svg", "aisleriot",
           family="bellot"),
    Design("npm-cardsjs", "cardsJS@1.1.1", NPM_DIR / "cardsJS" / "dist" / "cards", "cardsjs", sheet=False),
)
"""Every design imported: French suits with J/Q/K/A indices (licences in models/README.md).
Left out after a look: decks with other suits or court letters (B/D/K, V/D/R, Cyrillic:
ancient_french, berlin, lattmann, rheinland, slavic_costumes, swiss-xvii, tarocco), four-colour
decks, decks whose corners are not a rank over a pip turned 180° (KDE oxygen*, future,
ancient-egyptians; tango_nuevo), KDE xskat-french (rsvg-convert: "has no dimensions") and KDE
konqi-modern (its licence covers KDE members only)."""

HOLDOUT_FAMILIES: frozenset[str] = frozenset({"paris", "tigullio", "npm-cardsjs"})
"""Design families drawn only by the holdout split (never trained on): the Paris pattern and
Tigullio (each packaged by both GNOME and KDE) and the Vectorized Playing Cards (cardsJS)."""

HOLDOUT_DESIGNS: frozenset[str] = frozenset(d.name for d in DESIGNS if d.family_name() in HOLDOUT_FAMILIES)


def design_split(name: str) -> str:
    """"holdout" for the held-out designs, else "train".

    >>> design_split("npm-cardsjs"), design_split("kde-gm-paris"), design_split("gnome-anglo")
    ('holdout', 'holdout', 'train')
    """
    return "holdout" if name in HOLDOUT_DESIGNS else "train"


# ---------------------------------------------------------------- card ids

_AISLERIOT_RANK = {"A": "1", "J": "jack", "Q": "queen", "K": "king"}
_SUIT_WORD = {"S": "spade", "H": "heart", "C": "club", "D": "diamond"}
_NUMERIC_RANK = {"A": "1", "J": "11", "Q": "12", "K": "13"}


def source_card_id(scheme: str, name: str) -> str | None:
    """The id (element id or file stem) of card ``name`` in a source; None if it has none.

    SJ (小王) is the black joker and BJ (大王) the coloured one.

    >>> [source_card_id("aisleriot", n) for n in ("AS", "JC", "SJ")]
    ['spade_1', 'club_jack', 'joker_black']
    >>> [source_card_id("kde", n) for n in ("AS", "10D", "BJ")]
    ['1_spade', '10_diamond', 'red_joker']
    >>> [source_card_id("younestouati", n) for n in ("AS", "KH", "BJ", "SJ")]
    ['1s', '13h', 'joker', None]
    >>> [source_card_id("cardsjs", n) for n in ("10C", "QD", "SJ")]
    ['10C', 'QD', None]
    """
    rank, suit = split_card(name)
    if scheme == "aisleriot":
        if rank == "JOKER":
            return "joker_black" if name == "SJ" else "joker_red"
        return f"{_SUIT_WORD[suit]}_{_AISLERIOT_RANK.get(rank, rank)}"
    if scheme == "kde":
        if rank == "JOKER":
            return "black_joker" if name == "SJ" else "red_joker"
        return f"{_AISLERIOT_RANK.get(rank, rank)}_{_SUIT_WORD[suit]}"
    if scheme == "younestouati":
        if rank == "JOKER":
            return "joker" if name == "BJ" else None  # one joker, printed in colour
        return f"{_NUMERIC_RANK.get(rank, rank)}{suit.lower()}"
    if scheme == "cardsjs":
        return None if rank == "JOKER" else name
    raise ValueError(f"unknown card-id scheme {scheme!r}")


def card_ids(design: Design) -> dict[str, str]:
    """Canonical name -> source id for the cards this design may have (before rendering)."""
    ids = {}
    for name in CARD_NAMES:
        sid = source_card_id(design.scheme, name)
        if sid is not None:
            ids[name] = sid
    return ids


# ---------------------------------------------------------------- rendering

def rsvg_available() -> bool:
    """True when ``rsvg-convert`` (Debian: librsvg2-bin) is on the PATH."""
    return shutil.which("rsvg-convert") is not None


def _rsvg(path: Path, element: str | None, zoom: float) -> np.ndarray | None:
    """BGRA render of one element (or the whole file) at ``zoom``; None if it draws nothing."""
    cmd = ["rsvg-convert", "-z", f"{zoom:.5f}"]
    if element is not None:
        cmd += ["-i", element]
    cmd.append(str(path))
    done = subprocess.run(cmd, capture_output=True, timeout=300, check=False)
    if done.returncode != 0 or not done.stdout:
        return None
    image = cv2.imdecode(np.frombuffer(done.stdout, np.uint8), cv2.IMREAD_UNCHANGED)
    if image is None:
        return None
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGRA)
    elif image.shape[2] == 3:
        image = cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)
    return image


def _crop_to_card(image: np.ndarray) -> np.ndarray | None:
    """The render cut to the bounding box of its opaque pixels (the card)."""
    ys, xs = np.nonzero(image[:, :, 3] > 128)
    if len(xs) < 100:
        return None
    return image[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def _source(design: Design, sid: str) -> tuple[Path, str | None]:
    if design.sheet:
        return design.path, sid
    return design.path / f"{sid}.svg", None


def render_face(design: Design, sid: str, zoom: float, height: int = CACHE_PX) -> np.ndarray | None:
    """One face, BGRA, exactly ``height`` tall, with rounded transparent corners."""
    path, element = _source(design, sid)
    if not path.exists():
        return None
    image = _rsvg(path, element, zoom)
    card = None if image is None else _crop_to_card(image)
    if card is None:
        return None
    width = max(8, round(card.shape[1] * height / card.shape[0]))
    interp = cv2.INTER_AREA if card.shape[0] > height else cv2.INTER_CUBIC
    face = cv2.resize(card, (width, height), interpolation=interp)
    face[:, :, 3] = np.minimum(face[:, :, 3], _rounded_mask(width, height, 0.04 * height))
    return face


def _rounded_mask(width: int, height: int, radius: float) -> np.ndarray:
    from tuolaji.datasets.cardart import _rounded_alpha

    return _rounded_alpha(width, height, radius)


def _zoom_for(design: Design, ids: dict[str, str], height: int) -> float | None:
    """The zoom at which this design's cards render about 1.25×``height`` tall (then area-resized)."""
    for name in ("10S", "AS", "2H", "KC"):
        if name not in ids:
            continue
        path, element = _source(design, ids[name])
        image = _rsvg(path, element, 1.0) if path.exists() else None
        card = None if image is None else _crop_to_card(image)
        if card is not None:
            return 1.25 * height / card.shape[0]
    return None


# ---------------------------------------------------------------- index boxes

_MIN_HEIGHT, _MAX_HEIGHT = 0.06, 0.42  # index box height, fraction of the card's
_MAX_WIDTH = 0.26  # of the card's width
_TWIN_IOU = 0.45


def ink_mask(face: np.ndarray) -> np.ndarray:
    """Pixels printed on the card (bool): far from the paper colour, inside the card,
    clear of the outline along its edge. The paper colour is the median of a ring just
    inside the edge."""
    h, w = face.shape[:2]
    alpha = face[:, :, 3] > 128
    inset = max(2, round(0.012 * h))
    inner = _erode(alpha, inset)
    ring_in = _erode(alpha, 2 * inset)
    ring = inner & ~ring_in
    paper = np.median(face[:, :, :3][ring if ring.any() else alpha].reshape(-1, 3), axis=0)
    diff = np.abs(face[:, :, :3].astype(np.int16) - paper.astype(np.int16)).max(axis=2)
    return inner & (diff > 70)


def _erode(mask: np.ndarray, radius: int) -> np.ndarray:
    """``mask`` shrunk by ``radius`` pixels, the image's edge counting as outside."""
    kernel = np.ones((2 * radius + 1, 2 * radius + 1), np.uint8)
    return cv2.erode(mask.astype(np.uint8), kernel, borderType=cv2.BORDER_CONSTANT, borderValue=0) > 0


def _components(ink: np.ndarray) -> list[Box4]:
    """Boxes (x1, y1, x2, y2, pixel-exclusive right/bottom) of the ink's connected parts."""
    n, _labels, stats, _centroids = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    h, w = ink.shape
    min_area = max(4, int(h * w * 0.00004))
    boxes = []
    for x, y, bw, bh, area in stats[1:n]:
        if area >= min_area:
            boxes.append((float(x), float(y), float(x + bw), float(y + bh)))
    return boxes


def _overlap(a1: float, a2: float, b1: float, b2: float) -> bool:
    return min(a2, b2) > max(a1, b1)


def _gap(a1: float, a2: float, b1: float, b2: float) -> float:
    return max(0.0, max(a1, b1) - min(a2, b2))


def _top_left_index(ink: np.ndarray, gap: float = 0.05) -> tuple[Box4, int] | None:
    """The tight box of the top-left index and how many ink parts it holds, or None.

    Seed: the small ink part nearest the corner. Grow: parts stacked under it (x ranges
    overlap, small vertical gap) or beside it (y ranges overlap, small horizontal gap),
    as long as the union stays index-sized. ``gap``: the largest vertical gap, of the height."""
    h, w = ink.shape
    region = ink[: int(0.5 * h), : int(0.4 * w)]
    parts = [b for b in _components(region)
             if b[3] - b[1] < 0.24 * h and b[2] - b[0] < 0.26 * w and b[0] < 0.26 * w and b[1] < 0.3 * h]
    if not parts:
        return None
    seed = min(parts, key=lambda b: b[0] / w + b[1] / h)
    box, taken = seed, {parts.index(seed)}
    gap_y, gap_x = gap * h, 0.025 * h
    grown = True
    while grown:
        grown = False
        for k, b in enumerate(parts):
            if k in taken:
                continue
            below = _overlap(box[0], box[2], b[0], b[2]) and _gap(box[1], box[3], b[1], b[3]) < gap_y
            beside = _overlap(box[1], box[3], b[1], b[3]) and _gap(box[0], box[2], b[0], b[2]) < gap_x
            if not (below or beside):
                continue
            union = (min(box[0], b[0]), min(box[1], b[1]), max(box[2], b[2]), max(box[3], b[3]))
            if union[3] - union[1] > _MAX_HEIGHT * h or union[2] - union[0] > _MAX_WIDTH * w:
                continue
            box, grown = union, True
            taken.add(k)
    return box, len(taken)


def _sane(box: Box4, parts: int, width: int, height: int) -> bool:
    bw, bh = box[2] - box[0], box[3] - box[1]
    return (parts >= 2 and _MIN_HEIGHT * height <= bh <= _MAX_HEIGHT * height and 0.025 * width <= bw
            and bh >= 0.8 * bw and box[2] < 0.4 * width and box[3] < 0.5 * height)


def _ink_iou(ink_a: np.ndarray, ink_b: np.ndarray) -> float:
    size = (24, 40)
    a = cv2.resize(ink_a.astype(np.uint8) * 255, size, interpolation=cv2.INTER_AREA) > 96
    b = cv2.resize(ink_b.astype(np.uint8) * 255, size, interpolation=cv2.INTER_AREA) > 96
    union = np.count_nonzero(a | b)
    return np.count_nonzero(a & b) / union if union else 0.0


def _cut(ink: np.ndarray, box: Box4) -> np.ndarray:
    x1, y1, x2, y2 = (round(v) for v in box)
    return ink[y1:y2, x1:x2]


def find_index_boxes(face: np.ndarray, joker: bool = False) -> tuple[list[Box], str]:
    """Corner-index boxes of one face, in the order of :func:`datasets.cardart.index_boxes`
    (top-left, bottom-right, then top-right, bottom-left on 4-corner decks), padded like
    the procedural ones; or ``([], reason)`` when the face fails the sanity rule.

    Rule: the top-left ink cluster has at least 2 parts (rank + pip, or letters), is
    index-sized and sits in the corner; the face turned 180° has such a cluster too and
    it prints the same ink (IoU >= 0.45). A top-right cluster matching the top-left one
    (same glyphs, upright) makes the face a 4-corner one. A ``joker`` face allows wider
    gaps (J-O-K-E-R spaced down the corner)."""
    gap = 0.08 if joker else 0.05
    h, w = face.shape[:2]
    ink = ink_mask(face)
    found = _top_left_index(ink, gap)
    if found is None or not _sane(*found, w, h):
        return [], "no top-left index"
    tl = found[0]
    turned = ink[::-1, ::-1]
    twin = _top_left_index(turned, gap)
    if twin is None or not _sane(*twin, w, h):
        return [], "no bottom-right index"
    if _ink_iou(_cut(ink, tl), _cut(turned, twin[0])) < _TWIN_IOU:
        return [], "bottom-right index differs"
    tb = twin[0]
    br = (w - tb[2], h - tb[3], w - tb[0], h - tb[1])
    boxes = [tl, br]
    mirrored = ink[:, ::-1]
    right = _top_left_index(mirrored, gap)
    if right is not None and _sane(*right, w, h):
        mb = right[0]
        tr = (w - mb[2], mb[1], w - mb[0], mb[3])
        if _ink_iou(_cut(ink, tl), _cut(ink, tr)) >= _TWIN_IOU:
            bl = (w - tr[2], h - tr[3], w - tr[0], h - tr[1])
            if np.count_nonzero(_cut(ink, bl)) > 0.5 * np.count_nonzero(_cut(ink, tr)):
                boxes += [tr, bl]
    return [_pad(b, w, h) for b in boxes], ""


def _pad(box: Box4, width: int, height: int) -> Box:
    """The tight ink box grown by 7% of its height (the procedural boxes' 15% of the rank)."""
    pad = 0.07 * (box[3] - box[1])
    return (max(0.0, box[0] - pad), max(0.0, box[1] - pad), min(float(width), box[2] + pad),
            min(float(height), box[3] + pad))


def _one_corner_count(faces: dict[str, list[Box]]) -> dict[str, str]:
    """A deck prints 2 or 4 indices on every face: the faces' majority decides. A 2-corner
    deck's odd 4-corner face (a pip taken for an index) keeps its first two boxes; a
    4-corner deck's odd 2-corner face is dropped (its other corners would go unlabelled).
    Returns the dropped faces: name -> reason."""
    four = sum(1 for boxes in faces.values() if len(boxes) == 4)
    bad = {}
    for name, boxes in faces.items():
        if 2 * four <= len(faces):
            del boxes[2:]
        elif len(boxes) == 2:
            bad[name] = "2 corners in a 4-corner deck"
    return bad


def _consistent(faces: dict[str, list[Box]]) -> dict[str, str]:
    """Faces whose top-left box is far from the deck's usual size (the finder caught
    something else) or whose corner count is not the deck's: name -> reason. Jokers are
    compared among themselves (JOKER runs long)."""
    bad = _one_corner_count(faces)
    plain = [b[0] for n, b in faces.items() if n not in JOKERS]
    if len(plain) < 8:
        return bad
    med_h = float(np.median([b[3] - b[1] for b in plain]))
    med_x = float(np.median([b[0] for b in plain]))
    for name, boxes in faces.items():
        x1, y1, x2, y2 = boxes[0]
        if name in JOKERS:
            if y2 - y1 < 0.6 * med_h:
                bad[name] = "joker index too small"
        elif not 0.7 * med_h <= y2 - y1 <= 1.4 * med_h or abs(x1 - med_x) > 0.5 * med_h:
            bad[name] = "index unlike the deck's others"
    return bad


# ---------------------------------------------------------------- the cache

def _deck_dir(design: Design) -> Path:
    return CACHE_DIR / design.name


def _read_deck(design: Design) -> dict | None:
    path = _deck_dir(design) / "deck.json"
    try:
        deck = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return deck if deck.get("version") == RENDER_VERSION and deck.get("cache_px") == CACHE_PX else None


def _cached(design: Design) -> dict | None:
    """deck.json of a design whose renders and boxes are both current, else None."""
    deck = _read_deck(design)
    return deck if deck is not None and deck.get("finder") == FINDER_VERSION else None


def _renders(design: Design, ids: dict[str, str], workers: int) -> dict[str, np.ndarray | None]:
    """Every face of ``design`` (BGRA, CACHE_PX tall; None where it draws nothing), rendered
    where the cache lacks it and saved there."""
    folder = _deck_dir(design)
    if _read_deck(design) is None:  # renders of another version or size: start again
        for old in folder.glob("*.png"):
            old.unlink()
    faces: dict[str, np.ndarray | None] = {}
    for name in ids:
        path = folder / f"{name}.png"
        faces[name] = cv2.imread(str(path), cv2.IMREAD_UNCHANGED) if path.exists() else None
    todo = [name for name, face in faces.items() if face is None]
    zoom = _zoom_for(design, ids, CACHE_PX) if todo else None
    if zoom is not None:
        with ThreadPoolExecutor(max(1, workers)) as pool:
            done = pool.map(lambda name: render_face(design, ids[name], zoom), todo)
            for name, face in zip(todo, done, strict=True):
                faces[name] = face
                if face is not None:
                    cv2.imwrite(str(folder / f"{name}.png"), face)
    return faces


def build_design(design: Design, workers: int = 2) -> dict:
    """Render the faces of ``design`` the cache lacks, find every face's index boxes,
    write ``deck.json``; returns its content."""
    folder = _deck_dir(design)
    folder.mkdir(parents=True, exist_ok=True)
    ids = card_ids(design)
    faces: dict[str, list[Box]] = {}
    dropped: dict[str, str] = {}
    missing = [n for n in CARD_NAMES if n not in ids]
    for name, face in _renders(design, ids, workers).items():
        if face is None:
            missing.append(name)
            continue
        boxes, reason = find_index_boxes(face, joker=name in JOKERS)
        if boxes:
            faces[name] = boxes
        else:
            dropped[name] = reason
    for name, reason in _consistent(faces).items():
        dropped[name] = reason
        del faces[name]
    deck = {"version": RENDER_VERSION, "finder": FINDER_VERSION, "cache_px": CACHE_PX, "design": design.name,
            "package": design.package, "split": design_split(design.name),
            "faces": {n: [list(b) for b in boxes] for n, boxes in faces.items()},
            "dropped": dropped, "missing": sorted(missing, key=CARD_NAMES.index)}
    (folder / "deck.json").write_text(json.dumps(deck, indent=1))
    return deck


def ensure_cache(designs: Iterable[Design] | None = None, workers: int = 2,
                 log: Callable[[str], None] | None = None) -> dict[str, dict]:
    """Build the cache of every installed design that lacks one; returns design name -> deck.json."""
    decks = {}
    if not rsvg_available():
        return decks
    for design in DESIGNS if designs is None else designs:
        if not design.installed():
            continue
        deck = _cached(design)
        if deck is None:
            if log is not None:
                log(f"real art: rendering {design.name} into {_deck_dir(design)}")
            deck = build_design(design, workers)
        decks[design.name] = deck
    return decks


def available_designs(split: str) -> tuple[str, ...]:
    """Names of the cached designs of ``split`` with at least 40 usable faces, sorted."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, not {split!r}")
    names = []
    for design in DESIGNS:
        deck = _cached(design)
        if deck is not None and design_split(design.name) == split and len(deck["faces"]) >= 40:
            names.append(design.name)
    return tuple(sorted(names))


# ---------------------------------------------------------------- drawing in scenes

@dataclass(frozen=True)
class RealDeck:
    """A cached design, drawn like a :class:`datasets.cardart.CardStyle`: faces at any
    height with their index boxes scaled along."""

    name: str
    faces: dict[str, tuple[Box, ...]]

    def has(self, card: str) -> bool:
        return card in self.faces

    def render(self, card: str, height_px: int) -> np.ndarray:
        """The face of ``card`` (BGRA) ``height_px`` tall."""
        master = _face_image(self.name, card)
        width = max(8, round(master.shape[1] * height_px / master.shape[0]))
        interp = cv2.INTER_AREA if height_px < master.shape[0] else cv2.INTER_LINEAR
        return cv2.resize(master, (width, int(height_px)), interpolation=interp)

    def index_boxes(self, card: str, height_px: int) -> list[Box]:
        """Boxes of the card's corner indices at ``height_px`` (order as in cardart)."""
        s = height_px / CACHE_PX
        master_w = _face_image(self.name, card).shape[1]
        width = max(8, round(master_w * height_px / CACHE_PX))
        sx = width / master_w
        return [(x1 * sx, y1 * s, x2 * sx, y2 * s) for x1, y1, x2, y2 in self.faces[card]]


@functools.lru_cache(maxsize=64)
def load_deck(name: str) -> RealDeck:
    """The cached design ``name`` (build it first with :func:`ensure_cache`)."""
    design = next((d for d in DESIGNS if d.name == name), None)
    deck = None if design is None else _cached(design)
    if deck is None:
        raise FileNotFoundError(f"real card art {name!r} is not cached under {CACHE_DIR}")
    faces = {n: tuple(tuple(b) for b in boxes) for n, boxes in deck["faces"].items()}
    return RealDeck(name, faces)


@functools.lru_cache(maxsize=160)
def _face_image(design: str, card: str) -> np.ndarray:
    image = cv2.imread(str(CACHE_DIR / design / f"{card}.png"), cv2.IMREAD_UNCHANGED)
    if image is None or image.ndim != 3 or image.shape[2] != 4:
        raise FileNotFoundError(f"real card art {design}/{card} is missing from {CACHE_DIR}")
    return image


def contact_sheet(name: str, height_px: int = 150, columns: int = 14) -> np.ndarray:
    """Every usable face of a cached design on one BGR image, index boxes in green."""
    deck = load_deck(name)
    cards = [n for n in CARD_NAMES if deck.has(n)]
    width = max(deck.render(n, height_px).shape[1] for n in cards)
    rows = -(-len(cards) // columns)
    sheet = np.full((rows * (height_px + 6) + 6, columns * (width + 6) + 6, 3), 90, np.uint8)
    for i, card in enumerate(cards):
        face = deck.render(card, height_px)
        y, x = 6 + (i // columns) * (height_px + 6), 6 + (i % columns) * (width + 6)
        a = face[:, :, 3:4].astype(np.float32) / 255
        region = sheet[y : y + height_px, x : x + face.shape[1]]
        region[:] = (region * (1 - a) + face[:, :, :3] * a).astype(np.uint8)
        for x1, y1, x2, y2 in deck.index_boxes(card, height_px):
            cv2.rectangle(region, (round(x1), round(y1)), (round(x2) - 1, round(y2) - 1), (0, 200, 0), 1)
    return sheet


def main(argv: list[str] | None = None) -> int:
    """``python -m tuolaji.datasets.realart [--sheets DIR]``: build the cache, print what each design gave."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m tuolaji.datasets.realart", description=main.__doc__)
    parser.add_argument("--sheets", type=Path, help="also write a contact sheet per design into DIR")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rebuild", action="store_true", help="render every design again")
    args = parser.parse_args(argv)
    if not rsvg_available():
        print("rsvg-convert not found (Debian: librsvg2-bin; scripts/setup.sh dev installs it)", file=sys.stderr)
        return 1
    if args.rebuild:
        for design in DESIGNS:
            (_deck_dir(design) / "deck.json").unlink(missing_ok=True)
    decks = ensure_cache(workers=args.workers, log=print)
    for design in DESIGNS:
        deck = decks.get(design.name)
        if deck is None:
            print(f"{design.name:24s} not installed ({design.package})")
            continue
        four = sum(1 for b in deck["faces"].values() if len(b) == 4)
        print(f"{design.name:24s} {design_split(design.name):7s} faces {len(deck['faces']):2d}  4-corner {four:2d}  "
              f"dropped {len(deck['dropped']):2d}  missing {len(deck['missing']):2d}")
        if args.sheets is not None and deck["faces"]:
            args.sheets.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(args.sheets / f"{design.name}.png"), contact_sheet(design.name))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
