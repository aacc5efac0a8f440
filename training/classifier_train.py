"""Training loop of the card-index classifier (called by ``tuolaji train classifier``).

Reads the crops written by ``tuolaji generate --crops`` (``crops/*.npz``), augments them
(any rotation: exact quarter turns plus small free rotations, colour and contrast
jitter, blur, noise), and trains :class:`training.classifier_model.CardIndexNet`.
After every epoch it writes ``last.pt`` (weights, optimiser, epoch, metrics) and keeps
``best.pt`` (highest validation accuracy); ``resume=True`` continues from ``last.pt``.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import TextIO

import cv2
import numpy as np

from tuolaji.scorer.cards import CARD_NAMES
from tuolaji.scorer.errors import InputError
from tuolaji.vision.classes import REJECT


def load_crops(folders: list[Path], sizes: bool = False) -> tuple[np.ndarray, ...]:
    """All crops of the given data sets: (uint8 N×40×40×3, int64 labels, float32 angles, int8
    corner sides), and with ``sizes`` their index sizes (float32 px, 0 for rejects and for crops
    without a scene's meta, such as those of real photos) as a fifth.

    Crops written before they carried their corner sides get them from the scene's meta,
    as do the sizes.
    """
    from tuolaji.datasets.scenes import crop_facts_from_meta

    xs, ys, angles, sides, index_sizes = [], [], [], [], []
    for folder in folders:
        files = sorted((folder / "crops").glob("*.npz"))
        if not files:
            raise InputError(f"{folder}: no crops/*.npz (generate the set with --crops)")
        for file in files:
            with np.load(file) as data:
                if not len(data["y"]):
                    continue
                xs.append(data["x"])
                ys.append(data["y"])
                angles.append(data["angle"])
                if "side" in data and not sizes:
                    sides.append(data["side"])
                    continue
                meta_path = folder / "meta" / f"{file.stem}.json"
                if "side" in data and not meta_path.exists():  # crops of real photos: their sizes are not known
                    sides.append(data["side"])
                    index_sizes.append(np.zeros(len(data["y"]), np.float32))
                    continue
                meta = json.loads(meta_path.read_text())
                try:
                    scene_sides, scene_sizes = crop_facts_from_meta(meta, data["y"])
                except ValueError as error:
                    raise InputError(f"{file}: {error}") from None
                sides.append(data["side"] if "side" in data else scene_sides)
                index_sizes.append(scene_sizes)
    loaded = (np.concatenate(xs), np.concatenate(ys), np.concatenate(angles), np.concatenate(sides))
    return (*loaded, np.concatenate(index_sizes)) if sizes else loaded


def epoch_order(count: int, per_epoch: int, rng: np.random.Generator, weights: np.ndarray | None = None) -> np.ndarray:
    """Which crops (distinct) an epoch trains on: a random ``per_epoch`` of ``count``, each drawn
    with probability proportional to its weight (all alike without weights).

    >>> epoch_order(5, 3, np.random.default_rng(0)).tolist() == np.random.default_rng(0).permutation(5)[:3].tolist()
    True
    >>> sorted(epoch_order(4, 2, np.random.default_rng(1), np.array([1.0, 1.0, 0.0, 0.0])).tolist())
    [0, 1]
    """
    if weights is None:
        return rng.permutation(count)[:per_epoch]
    return rng.choice(count, size=per_epoch, replace=False, p=weights / weights.sum())


LOWRES_FROM = 20.0
"""Crops of indices at least this long (px) may be read as if cut from a smaller index (``lowres_share``)."""
LOWRES_TO = (10.0, 18.0)
"""... of an index this long (px): the sizes read worst."""


def lowres_factors(index_size: np.ndarray, labels: np.ndarray, share: float, rng: np.random.Generator) -> np.ndarray:
    """For each crop, the factor its picture is shrunk by before being blown up again (0: kept):
    ``share`` of the crops of indices at least ``LOWRES_FROM`` px long look as if cut from an
    index ``LOWRES_TO`` px long, the pixels such an index gives (blur does not make them)."""
    factors = rng.uniform(*LOWRES_TO, len(labels)) / np.maximum(index_size, 1.0)
    chosen = (labels != REJECT) & (index_size >= LOWRES_FROM) & (rng.random(len(labels)) < share)
    return np.where(chosen, factors, 0.0)


UNKNOWN_INDEX_PX = 31.0
"""The index size a crop of unknown size (a real photo's) is taken to have when shrunk
(:func:`specialist_sizes`): its 40 px crop is then about the index's own pixels (1.3 x 31)."""


def specialist_sizes(index_size: np.ndarray, labels: np.ndarray, below: float) -> np.ndarray:
    """The index size each crop is taken to have for :func:`lowres_factors` when a small-index
    specialist trains (``small_only``): crops of indices shorter than ``below`` px keep their
    pixels (0); every larger one, and every card crop of unknown size, is then always shrunk
    to a small index's resolution; rejects stay as they are.

    >>> specialist_sizes(np.array([12.0, 40.0, 0.0, 0.0]), np.array([3, 3, 3, REJECT]), 18.0).tolist()
    [0.0, 40.0, 31.0, 0.0]
    """
    card = labels != REJECT
    sizes = np.where(card & (index_size <= 0), UNKNOWN_INDEX_PX, index_size).astype(np.float32)
    return np.where(card & (sizes < below), 0.0, sizes).astype(np.float32)


def shape_jittered(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A crop drawn as another typeface might print it: narrower or wider (0.82-1.18), slanted
    (shear up to 0.2 either way) and, one time in three, with thinner or bolder strokes (a 2×2 min
    or max filter, which thins or thickens dark ink on a light face by about a pixel). The
    slant and stretch keep the crop's centre, so the index's up-angle is kept.

    >>> crop = np.full((40, 40, 3), 240, np.uint8); crop[12:28, 18:22] = 20
    >>> jittered = shape_jittered(crop, np.random.default_rng(0))
    >>> jittered.shape, jittered.dtype.name, int(jittered.min()) < 100 < int(jittered.max())
    ((40, 40, 3), 'uint8', True)
    """
    size = img.shape[0]
    stretch = float(rng.uniform(0.82, 1.18))
    shear = float(rng.uniform(-0.2, 0.2))
    centre = size / 2 - 0.5
    m = np.array([[stretch, shear, 0.0], [0.0, 1.0, 0.0]], np.float32)
    m[:, 2] = (centre, centre) - m[:, :2] @ np.array([centre, centre], np.float32)
    img = cv2.warpAffine(np.ascontiguousarray(img), m, (size, size), borderMode=cv2.BORDER_REPLICATE)
    if rng.random() < 1 / 3:
        kernel = np.ones((2, 2), np.uint8)
        img = cv2.erode(img, kernel) if rng.random() < 0.5 else cv2.dilate(img, kernel)  # erode: bolder ink
    return img


def lightness_inverted(img: np.ndarray) -> np.ndarray:
    """A crop as a deck printed light on dark would show it: its lightness (CIELAB L) turned over,
    its colours kept, so black ink on a white face becomes white ink on a black one and red ink
    stays red. Decks printed so (black and gold designs) are read as no index at all by a reader
    that never saw one (models/README.md, "Session 31").

    >>> crop = np.full((40, 40, 3), 250, np.uint8); crop[12:28, 18:22] = (10, 10, 10); crop[30:34, 18:22] = (40, 30, 200)
    >>> out = lightness_inverted(crop)
    >>> int(out[0, 0].max()) < 20, int(out[20, 20].min()) > 230, int(out[32, 20, 2]) > int(out[32, 20, 0]) + 60
    (True, True, True)
    """
    lab = cv2.cvtColor(np.ascontiguousarray(img), cv2.COLOR_BGR2LAB)
    lab[..., 0] = 255 - lab[..., 0]
    return cv2.cvtColor(lab, cv2.COLOR_LAB2BGR)


def augment(x: np.ndarray, angle: np.ndarray, rng: np.random.Generator,
            shrink: np.ndarray | None = None, shape_jitter: float = 0.0,
            invert_share: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Augmented copies of a batch of crops and their (clockwise, degrees) up-angles; ``shrink``
    (from :func:`lowres_factors`) lowers the resolution of some first; ``shape_jitter``: this share
    of the crops is drawn as another typeface might print it (:func:`shape_jittered`);
    ``invert_share``: this share is printed light on dark (:func:`lightness_inverted`)."""
    out = np.empty_like(x)
    new_angle = angle.copy()
    size = x.shape[1]
    for i in range(len(x)):
        img = x[i]
        if shrink is not None and shrink[i] > 0:
            small = max(6, round(size * float(shrink[i])))
            img = cv2.resize(cv2.resize(img, (small, small), interpolation=cv2.INTER_AREA), (size, size), interpolation=cv2.INTER_LINEAR)
        if shape_jitter > 0 and rng.random() < shape_jitter:
            img = shape_jittered(img, rng)
        if invert_share > 0 and rng.random() < invert_share:
            img = lightness_inverted(img)
        k = int(rng.integers(4))
        img = np.rot90(img, k)  # counter-clockwise quarter turns
        turn = -90.0 * k
        if rng.random() < 0.8:
            theta = float(rng.uniform(-25, 25))
            # detector boxes are off by a few pixels and up to ~20% in size: train for that
            scale = float(rng.uniform(0.82, 1.2))
            # cv2 angles are counter-clockwise; ours are clockwise
            m = cv2.getRotationMatrix2D((size / 2 - 0.5, size / 2 - 0.5), -theta, scale)
            m[:, 2] += rng.normal(0, 2.5, 2)
            img = cv2.warpAffine(np.ascontiguousarray(img), m, (size, size), borderMode=cv2.BORDER_REPLICATE)
            turn += theta
        img = img.astype(np.float32)
        if rng.random() < 0.15:
            img = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.4, 1.0)))
        gain = rng.uniform(0.7, 1.25) * rng.uniform(0.88, 1.12, 3)
        contrast = rng.uniform(0.7, 1.25)
        mean = img.mean()
        img = (img - mean) * contrast + mean
        img = img * gain + rng.uniform(-25, 25)
        if rng.random() < 0.5:
            img += rng.standard_normal(img.shape).astype(np.float32) * rng.uniform(1, 8)
        out[i] = np.clip(img, 0, 255).astype(np.uint8)
        new_angle[i] = (angle[i] + turn) % 360
    return out, new_angle


def angle_vectors(angle_deg: np.ndarray) -> np.ndarray:
    """Unit vectors (x, y) in image coordinates of a clockwise-from-up angle."""
    a = np.radians(np.nan_to_num(angle_deg))
    return np.stack([np.sin(a), -np.cos(a)], axis=1).astype(np.float32)


def to_tensor_batch(x: np.ndarray):
    import torch

    return torch.from_numpy(np.ascontiguousarray(x.transpose(0, 3, 1, 2))).float().div_(255.0)


SPADES = np.array([i for i, name in enumerate(CARD_NAMES) if name.endswith("S")])
CLUBS = np.array([i for i, name in enumerate(CARD_NAMES) if name.endswith("C")])
"""The class ids of the 13 spades and the 13 clubs, rank for rank in the same order."""


def black_suit_swaps(pred: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """Of the crops of spades (clubs), the share read as the club (spade) of the same rank: the
    reader's commonest confusion on real decks.

    >>> y = np.array([SPADES[0], SPADES[0], CLUBS[3], CLUBS[3]])
    >>> black_suit_swaps(np.array([CLUBS[0], SPADES[0], CLUBS[3], SPADES[3]]), y)
    {'spade_as_club': 0.5, 'club_as_spade': 0.5}
    """
    out = {}
    for name, own, other in (("spade_as_club", SPADES, CLUBS), ("club_as_spade", CLUBS, SPADES)):
        rank = {int(c): k for k, c in enumerate(own)}
        mine = np.isin(y, own)
        swapped = [int(p) == int(other[rank[int(t)]]) for p, t in zip(pred[mine], y[mine], strict=True)]
        out[name] = round(float(np.mean(swapped)), 4) if swapped else 0.0
    return out


def black_weights(y: np.ndarray, weight: float) -> np.ndarray:
    """Per crop: ``weight`` for a crop of a spade or a club, 1 for any other.

    >>> black_weights(np.array([SPADES[2], 14, CLUBS[0]]), 3.0).tolist()
    [3.0, 1.0, 3.0]
    """
    return np.where(np.isin(y, np.concatenate([SPADES, CLUBS])), weight, 1.0)


def evaluate(net, x: np.ndarray, y: np.ndarray, angle: np.ndarray, side: np.ndarray | None = None, batch: int = 512) -> dict:
    import torch

    net.eval()
    preds, orients, rights = [], [], []
    with torch.no_grad():
        for i in range(0, len(x), batch):
            out = net(to_tensor_batch(x[i : i + batch]))
            preds.append(out[0].argmax(1).numpy())
            orients.append(out[1].numpy())
            if len(out) > 2:
                rights.append(out[2][:, 0].numpy() > 0)
    pred = np.concatenate(preds)
    orient = np.concatenate(orients)
    pos = y != REJECT
    acc = float((pred == y).mean())
    pos_acc = float((pred[pos] == y[pos]).mean()) if pos.any() else 0.0
    rej_recall = float((pred[~pos] == REJECT).mean()) if (~pos).any() else 0.0
    vec = angle_vectors(angle[pos])
    cos = (orient[pos] * vec).sum(1) / np.maximum(np.linalg.norm(orient[pos], axis=1), 1e-6)
    angle_err = float(np.degrees(np.median(np.arccos(np.clip(cos, -1, 1))))) if pos.any() else 180.0
    metrics = {"acc": acc, "card_acc": pos_acc, "reject_recall": rej_recall, "angle_err_median_deg": angle_err,
               **black_suit_swaps(pred, y)}
    if rights and side is not None and (known := pos & (side >= 0)).any():
        right = np.concatenate(rights)
        metrics["side_acc"] = float((right[known] == (side[known] == 1)).mean())
    return metrics


def train_classifier(train_dirs: list[Path], val_dirs: list[Path], out_dir: Path, epochs: int = 30, batch: int = 128,
                     samples_per_epoch: int | None = None, lr: float = 0.003, weight_decay: float = 1e-4, seed: int = 0, threads: int = 2,
                     resume: bool = False, init: Path | None = None, log: TextIO | None = None,
                     width: int = 16, extra: int = 0, small_below: float = 0.0, small_weight: float = 1.0,
                     lowres_share: float = 0.0, small_only: float = 0.0, black_weight: float = 1.0,
                     shape_jitter: float = 0.0, invert_share: float = 0.0) -> dict:
    """Train (or resume) the classifier; returns the last epoch's metrics.

    With ``small_weight`` != 1, crops of indices shorter than ``small_below`` pixels are drawn
    that many times as often into each epoch (small indices are the ones read worst). With
    ``lowres_share`` > 0, that share of the crops of larger indices is read at a small index's
    resolution (:func:`lowres_factors`). With ``small_only`` > 0 it trains a small-index
    specialist: every card crop of an index at least that long (or of unknown size) is read
    at a small index's resolution (:func:`specialist_sizes`). With ``black_weight`` != 1, crops of
    spades and clubs are drawn that many times as often too (:func:`black_weights`: ♠ and ♣ at
    webcam sizes are the commonest confusion). With ``shape_jitter`` > 0, that share of the crops
    is drawn as another typeface might print it (:func:`shape_jittered`: the fonts never drawn are
    what the held-out decks' indices are misread by). With ``invert_share`` > 0, that share of the
    crops is printed light on dark (:func:`lightness_inverted`).
    """
    import torch
    import torch.nn.functional as F

    from tuolaji.training.classifier_model import (
        CardIndexNet,
        architecture,
        from_checkpoint,
        rank_and_suit_targets,
    )

    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    weights = None
    index_size = None
    weighted = small_weight != 1.0 and small_below > 0
    if weighted or lowres_share > 0 or small_only > 0:
        x, y, angle, side, index_size = load_crops(train_dirs, sizes=True)
        if small_only > 0:  # small_weight then draws the crops of natively small indices more often
            native_small = (y != REJECT) & (index_size > 0) & (index_size < small_only)
            weights = np.where(native_small, small_weight, 1.0) if small_weight != 1.0 else None
            index_size = specialist_sizes(index_size, y, small_only)
            lowres_share = 1.0
        elif weighted:
            weights = np.where((y != REJECT) & (index_size < small_below), small_weight, 1.0)
    else:
        x, y, angle, side = load_crops(train_dirs)
    if black_weight != 1.0:
        weights = black_weights(y, black_weight) * (1.0 if weights is None else weights)
    vx, vy, vangle, vside = load_crops(val_dirs)
    out_dir.mkdir(parents=True, exist_ok=True)
    last = out_dir / "last.pt"
    saved = torch.load(last, map_location="cpu", weights_only=False) if resume and last.exists() else None
    if resume and saved is None:
        raise OSError(2, "No checkpoint to resume from", str(last))
    if saved is not None:  # a resumed run keeps the network it was started with
        net = from_checkpoint(saved)
    elif init is not None:
        net = from_checkpoint(torch.load(init, map_location="cpu", weights_only=False), side=True)  # a fresh side head if it had none
    else:
        net = CardIndexNet(width=width, extra=extra)
    optimiser = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=weight_decay)
    per_epoch = min(len(x), int(samples_per_epoch)) if samples_per_epoch else len(x)
    steps_per_epoch = math.ceil(per_epoch / batch)
    start_epoch, best = 0, -1.0
    history: list[dict] = []
    if saved is not None:
        optimiser.load_state_dict(saved["optimiser"])
        start_epoch, best, history = saved["epoch"] + 1, saved["best"], saved["history"]
    total_steps = epochs * steps_per_epoch

    def lr_at(step: int) -> float:
        warm = steps_per_epoch
        if step < warm:
            return lr * (step + 1) / warm
        return lr * 0.5 * (1 + math.cos(math.pi * min(1.0, (step - warm) / max(1, total_steps - warm))))

    metrics: dict = {}
    for epoch in range(start_epoch, epochs):
        net.train()
        rng = np.random.default_rng([seed, epoch])
        order = epoch_order(len(x), per_epoch, rng, weights)
        t0 = time.time()
        running = 0.0
        for s in range(steps_per_epoch):
            idx = order[s * batch : (s + 1) * batch]
            shrink = lowres_factors(index_size[idx], y[idx], lowres_share, rng) if lowres_share > 0 else None
            bx, bangle = augment(x[idx], angle[idx], rng, shrink, shape_jitter, invert_share)
            by = torch.from_numpy(y[idx])
            for group in optimiser.param_groups:
                group["lr"] = lr_at(epoch * steps_per_epoch + s)
            logits, orient, rank_logits, suit_logits, right_logit = net.forward_train(to_tensor_batch(bx))
            rank, suit = rank_and_suit_targets(by)
            loss = F.cross_entropy(logits, by, label_smoothing=0.05)
            loss = loss + 0.5 * F.cross_entropy(rank_logits, rank) + 0.5 * F.cross_entropy(suit_logits, suit)
            pos = by != REJECT
            if pos.any():
                target = torch.from_numpy(angle_vectors(bangle))[pos]
                loss = loss + 0.5 * F.mse_loss(orient[pos], target)
            known = torch.from_numpy(side[idx] >= 0)
            if right_logit is not None and known.any():
                target = torch.from_numpy((side[idx] == 1).astype(np.float32))[known]
                loss = loss + 0.3 * F.binary_cross_entropy_with_logits(right_logit[known, 0], target)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            running += float(loss.detach())
        metrics = evaluate(net, vx, vy, vangle, vside)
        metrics.update(epoch=epoch + 1, loss=running / steps_per_epoch, seconds=round(time.time() - t0, 1))
        history.append(metrics)
        is_best = metrics["acc"] > best
        best = max(best, metrics["acc"])
        state = {"model": net.state_dict(), "architecture": architecture(net), "optimiser": optimiser.state_dict(), "epoch": epoch, "best": best,
                 "history": history, "train": [str(p) for p in train_dirs], "val": [str(p) for p in val_dirs],
                 "epochs": epochs, "batch": batch, "lr": lr, "seed": seed, "small_below": small_below, "small_weight": small_weight,
                 "lowres_share": lowres_share, "small_only": small_only, "black_weight": black_weight,
                 "shape_jitter": shape_jitter, "invert_share": invert_share}
        torch.save(state, out_dir / "last.tmp")
        (out_dir / "last.tmp").replace(last)
        if is_best:
            torch.save({"model": net.state_dict(), "architecture": architecture(net), "epoch": epoch, "metrics": metrics}, out_dir / "best.pt")
        (out_dir / "history.json").write_text(json.dumps(history, indent=1))
        if log:
            print(f"classifier epoch {epoch + 1}/{epochs} " + " ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                                                           for k, v in metrics.items()), file=log, flush=True)
    return metrics
