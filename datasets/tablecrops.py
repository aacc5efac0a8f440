"""Classifier crops cut from filmed deals: the corner indices as the table camera shows them.

The scenes of :mod:`datasets.scenes` lay plays anywhere at any size. A table is narrower: plays
fanned in the seat zones at the camera's one scale, a lower card's index beside the next card's
edge, an arm passing, the frames of a compressed video. Here deals are filmed with the training
designs (:func:`datasets.video.render_video`, ``style_split="train"``: the held-out designs that
the replay bench measures on are never drawn) and every ``every``-th frame gives crops: each
corner index the truth says shows (not under a later card, not under an arm) cropped as the
scenes' crops are (:func:`datasets.scenes.classifier_crops`: jittered twice, with its card, its
glyphs' up and its corner side), and a few reject crops of the table, hands and card faces.

>>> index_angle(np.array([[0, 0], [10, 0], [10, 14], [0, 14]], float), 0)
0.0
>>> index_angle(np.array([[0, 0], [10, 0], [10, 14], [0, 14]], float), 1)
180.0
"""

from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from tuolaji.datasets.scenes import CardLabel, IndexLabel, Scene, classifier_crops
from tuolaji.datasets.video import RenderOptions, render_video
from tuolaji.vision.classes import REJECT

TURNED_CORNERS = (1, 3)
"""Corner indices printed upside down (the bottom ones), as :mod:`datasets.scenes` lays them."""


def index_angle(card_quad: np.ndarray, corner: int) -> float:
    """The direction (degrees, 0 = up, clockwise) of the glyphs' up of corner index ``corner`` of a
    card whose picture corners are ``card_quad`` (its top-left, top-right, bottom-right, bottom-left
    as the card's face stands)."""
    top = (card_quad[0] + card_quad[1]) / 2
    bottom = (card_quad[2] + card_quad[3]) / 2
    ux, uy = top - bottom
    angle = math.degrees(math.atan2(float(ux), float(-uy))) % 360
    return (angle + 180) % 360 if corner in TURNED_CORNERS else angle


def frame_scene(image: np.ndarray, cards: list[dict[str, Any]], visible: list[list[int]]) -> Scene:
    """The scene of one filmed frame: its picture, every corner index of a lying card (labelled
    where the truth says it shows, else hidden) and the cards, as :func:`classifier_crops` takes them."""
    shown = {pid: bits for pid, bits in visible}
    indices: list[IndexLabel] = []
    labels: list[CardLabel] = []
    for pid, bits in shown.items():
        card = cards[pid]
        quad = np.asarray(card["quad"], float)
        for corner, box in enumerate(card["indices"]):
            x1, y1, x2, y2 = box
            polygon = ((x1, y1), (x2, y1), (x2, y2), (x1, y2))
            indices.append(IndexLabel(pid, card["card"], polygon, (x1, y1, x2, y2), index_angle(quad, corner),
                                      1.0 if bits >> corner & 1 else 0.0))
        x1, y1, x2, y2 = card["box"]
        labels.append(CardLabel(pid, card["card"], (x1, y1, x2, y2), index_angle(quad, 0), y2 - y1, 0.0, True))
    return Scene(image=image, indices=indices, cards=labels)


def write_table_crops(out: Path, videos: int, seed: int, *, profile: str = "titanic-3deck", tricks: int = 6,
                      every: int = 6, index_layout: str | None = None, corners: int | None = None) -> dict[str, Any]:
    """Film ``videos`` deals of ``profile`` (their first ``tricks`` tricks, deal seeds ``seed``,
    ``seed + 1``, ...) with the training designs and write the crops of every ``every``-th frame to
    ``out/crops/NNNNNN.npz`` (one file a deal: ``x`` uint8 N×40×40×3, ``y``, ``angle``, ``side``);
    ``out/table-crops.json`` holds the counts and these arguments."""
    from tuolaji import scorer

    if videos < 1 or every < 1:
        raise ValueError("--videos and --every must be at least 1")
    (out / "crops").mkdir(parents=True, exist_ok=True)
    counts = {"videos": videos, "frames": 0, "index_crops": 0, "reject_crops": 0}
    rng = np.random.default_rng([seed, 7])
    with tempfile.TemporaryDirectory() as folder:
        for k in range(videos):
            deal_seed = seed + k
            record = scorer.random_record(profile, deal_seed, players=4, tricks=tricks)
            video = Path(folder) / "deal.mp4"
            truth = render_video(record, video, RenderOptions(seed=deal_seed, style_split="train", gesture_rate=0.3,
                                                              index_layout=index_layout, corners=corners))
            xs, ys, angles, sides = [], [], [], []
            capture = cv2.VideoCapture(str(video))
            black = set(truth.black_frames)
            number = 0
            while True:
                ok, image = capture.read()
                if not ok:
                    break
                if number % every == 0 and number not in black and number < len(truth.frames) and truth.frames[number]:
                    x, y, angle, side = classifier_crops(frame_scene(image, truth.cards, truth.frames[number]), rng)
                    xs.append(x)
                    ys.append(y)
                    angles.append(angle)
                    sides.append(side)
                    counts["frames"] += 1
                number += 1
            capture.release()
            if not xs:
                continue
            y_all = np.concatenate(ys)
            counts["index_crops"] += int((y_all != REJECT).sum())
            counts["reject_crops"] += int((y_all == REJECT).sum())
            np.savez_compressed(out / "crops" / f"{k:06d}.npz", x=np.concatenate(xs), y=y_all,
                                angle=np.concatenate(angles), side=np.concatenate(sides))
    summary = {**counts, "seed": seed, "profile": profile, "tricks": tricks, "every": every,
               "index_layout": index_layout, "corners": corners, "split": "train"}
    (out / "table-crops.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return summary
