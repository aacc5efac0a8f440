"""Training pictures for the whole-face reader (``tuolaji face-set``).

The face reader (:mod:`vision.face`) reads a card from its whole face: a card seen upright,
its outline stretched to a ``FACE_PX`` square. It is trained on three kinds of pictures:

- **real photos** of single cards (a folder laid out like ``realcards/cards-crops``, only its
  ``train`` split; every ``val_every``-th photo goes to the validation set, the same photos
  ``tuolaji real-crops --val-out`` holds out), each drawn several times with the gap between
  a clean photo and a table camera put in;
- **real deck art** (:mod:`datasets.realart`, the train designs only) and the project's own
  card art (:mod:`datasets.cardart`, train fonts), warped onto surfaces with a little
  perspective, a margin or a cut edge, light and blur;
- **not a card face** (class ``REJECT``): card backs, bare surfaces, a corner or half of a
  card, several cards in one picture, whole synthetic table scenes. The reader must say
  "not a face" for these, which is what lets it look at a whole photo or a box that may
  not hold one card.

A joker whose kind a label does not say (``JK``) gets the label ``ANY_JOKER_LABEL``: the
training loss takes the sum of the two jokers' probabilities for it.

Files: ``OUT/faces-<part>.npz`` with ``x`` (N×FACE_PX×FACE_PX×3 uint8 BGR) and ``y`` (int16).

>>> stretch_to_face(np.zeros((120, 80, 3), np.uint8)).shape
(80, 80, 3)
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np

from tuolaji.scorer.cards import CARD_NAMES
from tuolaji.scorer.errors import InputError
from tuolaji.vision.classes import REJECT
from tuolaji.vision.face import FACE_PX, stretch_to_face

ANY_JOKER_LABEL = -2
"""Label of a joker of unknown kind (either joker's probability counts)."""

SURFACES = ("felt", "wood", "stripes", "mottled", "checks", "marble", "plaid", "dots")


def camera_look(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Sometimes a soft shadow or a glare band across the card and sensor noise, then what
    :func:`datasets.realcrops.camera_look` does (white balance, defocus or motion blur, JPEG)."""
    from tuolaji.datasets.realcrops import camera_look as table_camera_look

    out = image.astype(np.float32)
    if rng.random() < 0.3:
        h, w = out.shape[:2]
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        angle = rng.uniform(0, math.pi)
        u = (xx * math.cos(angle) + yy * math.sin(angle)) / max(h, w)
        band = 1.0 / (1.0 + np.exp(-(u - rng.uniform(0.2, 0.8)) * rng.uniform(8, 30)))
        gain = rng.uniform(0.45, 0.85) if rng.random() < 0.7 else rng.uniform(1.2, 1.6)
        out *= (1 + (gain - 1) * band)[..., None]
    out += rng.standard_normal(out.shape[:2] + (1,)).astype(np.float32) * float(rng.uniform(0, 5))
    return table_camera_look(np.clip(out, 0, 255).astype(np.uint8), rng)


def _surface(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    from tuolaji.datasets.scenes import _surface as scene_surface

    return np.clip(scene_surface(rng, SURFACES[int(rng.integers(len(SURFACES)))], h, w), 0, 255).astype(np.uint8)


def _composite(face_bgra: np.ndarray, background: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """``face_bgra`` warped onto ``background`` at ``quad`` (4×2, clockwise from top-left)."""
    fh, fw = face_bgra.shape[:2]
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    matrix = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    h, w = background.shape[:2]
    warped = cv2.warpPerspective(face_bgra, matrix, (w, h), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
    alpha = warped[..., 3:4].astype(np.float32) / 255.0
    return (warped[..., :3] * alpha + background * (1 - alpha)).astype(np.uint8)


def _card_picture(face_bgra: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A face as the reader sees one: placed on a surface with a jittered outline (a margin, or
    its edges cut off), then that outline stretched to the face square, as the reader warps
    the card quads it finds."""
    side = FACE_PX * 2
    height = side
    width = side
    background = _surface(rng, height, width)
    # where the card is drawn, relative to the square the reader will cut
    grow = rng.uniform(-0.08, 0.12) if rng.random() < 0.8 else rng.uniform(-0.18, -0.08)
    corners = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    quad = (corners - 0.5) * (1 - 2 * grow) + 0.5 + rng.normal(0, 0.025, (4, 2)).astype(np.float32)
    quad *= np.array([width, height], np.float32)
    if rng.random() < 0.5:  # upside down: the same card
        quad = quad[[2, 3, 0, 1]]
    picture = _composite(face_bgra, background, quad)
    return camera_look(cv2.resize(picture, (FACE_PX, FACE_PX), interpolation=cv2.INTER_AREA), rng)


def _reject_picture(rng: np.random.Generator, faces: list[np.ndarray], backs: list[np.ndarray]) -> np.ndarray:
    """A picture that is not one whole card face."""
    side = FACE_PX * 2
    kind = rng.random()
    background = _surface(rng, side, side)
    if kind < 0.15:
        picture = background
    elif kind < 0.35 and backs:
        picture = _composite(backs[int(rng.integers(len(backs)))], background,
                             np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
                             + rng.normal(0, side * 0.04, (4, 2)).astype(np.float32))
    elif kind < 0.45:  # one whole card, small in the picture (the picture is not that card's outline)
        face = faces[int(rng.integers(len(faces)))]
        ch = side * rng.uniform(0.3, 0.62)
        cw = ch * 0.7
        cx, cy = rng.uniform(0.3, 0.7, 2) * side
        quad = np.array([[cx - cw / 2, cy - ch / 2], [cx + cw / 2, cy - ch / 2], [cx + cw / 2, cy + ch / 2],
                         [cx - cw / 2, cy + ch / 2]], np.float32) + rng.normal(0, side * 0.01, (4, 2)).astype(np.float32)
        picture = _composite(face, background, quad)
    elif kind < 0.65:  # a part of a card: a corner, a half, the middle
        face = faces[int(rng.integers(len(faces)))]
        scale = rng.uniform(1.6, 3.2)
        fx, fy = rng.uniform(-0.2, 0.7, 2) * side * scale
        quad = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32) * scale - np.array([fx, fy], np.float32)
        picture = _composite(face, background, quad)
    else:  # two to five cards side by side, fanned or scattered
        picture = background
        count = int(rng.integers(2, 6))
        for _ in range(count):
            face = faces[int(rng.integers(len(faces)))]
            ch = side * rng.uniform(0.45, 0.8)
            cw = ch * 0.7
            cx, cy = rng.uniform(0.15, 0.85, 2) * side
            angle = rng.uniform(-0.6, 0.6) + (math.pi / 2 if rng.random() < 0.3 else 0)
            ca, sa = math.cos(angle), math.sin(angle)
            box = np.array([[-cw / 2, -ch / 2], [cw / 2, -ch / 2], [cw / 2, ch / 2], [-cw / 2, ch / 2]], np.float32)
            quad = box @ np.array([[ca, sa], [-sa, ca]], np.float32) + np.array([cx, cy], np.float32)
            picture = _composite(face, picture, quad)
    return camera_look(cv2.resize(picture, (FACE_PX, FACE_PX), interpolation=cv2.INTER_AREA), rng)


def _photo_picture(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A single-card photo (the card filling it) drawn again: a little zoom, shift, tilt and
    turn, upside down half of the time, then the camera's look."""
    h, w = image.shape[:2]
    zoom = rng.uniform(0.9, 1.12)
    angle = rng.uniform(-6, 6) + (180.0 if rng.random() < 0.5 else 0.0)
    matrix = cv2.getRotationMatrix2D((w / 2 + rng.uniform(-0.05, 0.05) * w, h / 2 + rng.uniform(-0.05, 0.05) * h), angle, zoom)
    turned = cv2.warpAffine(image, matrix, (w, h), borderMode=cv2.BORDER_REFLECT)
    if rng.random() < 0.5:  # the size a card has in a table camera's frame, enlarged again
        small = int(rng.uniform(28, 60))
        turned = cv2.resize(cv2.resize(turned, (small, int(small * 1.4)), interpolation=cv2.INTER_AREA), (w, h))
    return camera_look(stretch_to_face(turned), rng)


def _label(card: str) -> int:
    return ANY_JOKER_LABEL if card == "JK" else CARD_NAMES.index(card)


def _real_pictures(folder: Path, val_every: int, copies: int, seed: int) -> tuple[list, list, list, list]:
    from tuolaji.datasets.realeval import load_real_folder
    from tuolaji.vision.detector import read_image_file

    photos = load_real_folder(folder, "train")
    train_x, train_y, val_x, val_y = [], [], [], []
    for number, photo in enumerate(photos):
        if len(photo.cards) != 1:
            continue
        image = read_image_file(photo.image)
        label = _label(photo.cards[0])
        rng = np.random.default_rng([seed, number])
        if number % val_every == 0:
            val_x.append(stretch_to_face(image))
            val_y.append(label)
            continue
        train_x.append(stretch_to_face(image))
        train_y.append(label)
        for _ in range(copies - 1):
            train_x.append(_photo_picture(image, rng))
            train_y.append(label)
    return train_x, train_y, val_x, val_y


def _art_faces(rng: np.random.Generator, styles: int) -> tuple[list[tuple[str, np.ndarray]], list[np.ndarray]]:
    """(card, BGRA face) of every train real design and of ``styles`` drawn project styles, and card backs."""
    from tuolaji.datasets import realart
    from tuolaji.datasets.cardart import CardStyle, render_back, render_card

    faces: list[tuple[str, np.ndarray]] = []
    backs: list[np.ndarray] = []
    for name in realart.available_designs("train"):
        deck = realart.load_deck(name)
        for card in CARD_NAMES:
            if deck.has(card):
                faces.append((card, deck.render(card, FACE_PX * 3)))
    for _ in range(styles):
        style = CardStyle.random(rng, "train")
        for card in CARD_NAMES:
            faces.append((card, _with_alpha(render_card(card, style, FACE_PX * 3))))
        backs.append(_with_alpha(render_back(style, FACE_PX * 3)))
    return faces, backs


def _with_alpha(image: np.ndarray) -> np.ndarray:
    if image.ndim == 3 and image.shape[2] == 4:
        return image
    return np.concatenate([image, np.full(image.shape[:2] + (1,), 255, np.uint8)], axis=2)


def write_face_set(out: Path, real: Path | None, seed: int, art_copies: int = 3, styles: int = 30,
                   real_copies: int = 6, rejects: int = 6000, val_every: int = 10) -> dict:
    """Write the face training set (``faces-train.npz``) and its validation set (``faces-val.npz``:
    the held-out real photos, upright and clean, and fresh art pictures) to ``out``; returns counts."""
    rng = np.random.default_rng(seed)
    out.mkdir(parents=True, exist_ok=True)
    xs: list[np.ndarray] = []
    ys: list[int] = []
    val_x: list[np.ndarray] = []
    val_y: list[int] = []
    if real is not None:
        rx, ry, vx, vy = _real_pictures(real, val_every, real_copies, seed)
        xs += rx
        ys += ry
        val_x += vx
        val_y += vy
    faces, backs = _art_faces(rng, styles)
    if not faces:
        raise InputError("no card art to draw faces from (build the real-art cache: python -m tuolaji.datasets.realart)")
    for card, face in faces:
        for _ in range(art_copies):
            xs.append(_card_picture(face, rng))
            ys.append(CARD_NAMES.index(card))
    art_val = rng.choice(len(faces), size=min(400, len(faces)), replace=False)
    for k in art_val:
        val_x.append(_card_picture(faces[int(k)][1], rng))
        val_y.append(CARD_NAMES.index(faces[int(k)][0]))
    face_images = [f for _, f in faces]
    for _ in range(rejects):
        xs.append(_reject_picture(rng, face_images, backs))
        ys.append(REJECT)
    for _ in range(rejects // 10):
        val_x.append(_reject_picture(rng, face_images, backs))
        val_y.append(REJECT)
    np.savez_compressed(out / "faces-train.npz", x=np.stack(xs), y=np.array(ys, np.int16))
    np.savez_compressed(out / "faces-val.npz", x=np.stack(val_x), y=np.array(val_y, np.int16))
    counts = {"train": len(ys), "val": len(val_y), "art_faces": len(faces), "rejects": rejects,
              "seed": seed, "source": str(real) if real else None}
    (out / "face-set.json").write_text(json.dumps(counts, indent=1) + "\n", encoding="utf-8")
    return counts
