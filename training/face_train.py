"""Training and export of the whole-face reader (``tuolaji train face``, ``tuolaji export --face``; the 'train' extra).

The network reads a card stretched to an 80×80 square (BGR, 0..1, NCHW) and returns logits
over the 54 cards and "not a face" (the index classifier's class order). Training-only
helper heads for rank and suit share what the cards have in common. A joker of unknown
kind (label ``ANY_JOKER_LABEL``) is scored by the sum of the two jokers' probabilities.

Checkpoints (``OUT/last.pt``, every epoch, with the optimiser state) resume with
``--resume``; ``OUT/history.json`` holds each epoch's validation accuracy.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from tuolaji.datasets.faces import ANY_JOKER_LABEL
from tuolaji.training.classifier_model import conv_block, rank_and_suit_targets
from tuolaji.vision.classes import REJECT
from tuolaji.vision.face import FACE_PX

NUM_CLASSES = REJECT + 1


class FaceNet(nn.Module):
    """A plain CNN: 80×80 → 40 → 20 → 10 → 5, global average pooling, one linear head per output.

    >>> [tuple(t.shape) for t in FaceNet(width=8).forward_train(torch.zeros(2, 3, 80, 80))]
    [(2, 55), (2, 15), (2, 7)]
    """

    def __init__(self, width: int = 24) -> None:
        super().__init__()
        w = width
        self.width = width
        self.features = nn.Sequential(
            conv_block(3, w, 2), conv_block(w, w, 1),
            conv_block(w, 2 * w, 2), conv_block(2 * w, 2 * w, 1),
            conv_block(2 * w, 4 * w, 2), conv_block(4 * w, 4 * w, 1),
            conv_block(4 * w, 8 * w, 2), conv_block(8 * w, 8 * w, 1),
        )
        flat = 8 * w * 2
        self.dropout = nn.Dropout(0.25)
        self.classes = nn.Linear(flat, NUM_CLASSES)
        self.rank = nn.Linear(flat, 15)
        self.suit = nn.Linear(flat, 7)

    def _pooled(self, x: torch.Tensor) -> torch.Tensor:
        f = self.features(x)
        # mean and max pooling: a pip count is a sum, a court panel or a JOKER is a peak
        return self.dropout(torch.cat([f.mean(dim=(2, 3)), f.amax(dim=(2, 3))], dim=1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.classes(self._pooled(x))

    def forward_train(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        f = self._pooled(x)
        return self.classes(f), self.rank(f), self.suit(f)


def _rank_suit(labels: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Rank (0-12, 13 joker, 14 reject) and suit (0-3, 4 小王, 5 大王, 6 reject; -100 unknown joker kind)."""
    rank, suit = rank_and_suit_targets(labels.clamp_min(0))
    joker = labels == ANY_JOKER_LABEL
    rank = torch.where(joker, torch.full_like(rank, 13), rank)
    suit = torch.where(joker, torch.full_like(suit, -100), suit)
    return rank, suit


def face_loss(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """Cross-entropy, where a joker of unknown kind counts both jokers' probability."""
    log_p = torch.log_softmax(logits, dim=1)
    known = labels >= 0
    picked = log_p.gather(1, labels.clamp_min(0)[:, None])[:, 0]
    either = torch.logsumexp(log_p[:, 52:54], dim=1)
    return -torch.where(known, picked, either).mean()


def _augment(batch: np.ndarray, rng: np.random.Generator, strong: bool = False) -> np.ndarray:
    """Extra variety at batch time: shifts of a few pixels and brightness; with ``strong``, also
    a half turn (a card reads the same either way up), a white balance and a covered patch
    (a finger, a card lying over it, glare)."""
    n = len(batch)
    pad = 6
    padded = np.pad(batch, ((0, 0), (pad, pad), (pad, pad), (0, 0)), mode="edge")
    out = np.empty_like(batch)
    offsets = rng.integers(0, 2 * pad + 1, (n, 2))
    for i, (dx, dy) in enumerate(offsets):
        out[i] = padded[i, dy:dy + FACE_PX, dx:dx + FACE_PX]
    if not strong:
        gain = rng.uniform(0.85, 1.15, (n, 1, 1, 1)).astype(np.float32)
        return np.clip(out.astype(np.float32) * gain, 0, 255)
    turned = rng.random(n) < 0.5
    out[turned] = out[turned][:, ::-1, ::-1]
    gain = (rng.uniform(0.8, 1.2, (n, 1, 1, 1)) * rng.uniform(0.92, 1.08, (n, 1, 1, 3))).astype(np.float32)
    pictures = out.astype(np.float32) * gain
    for i in np.flatnonzero(rng.random(n) < 0.3):
        h, w = (int(v) for v in rng.integers(FACE_PX // 8, FACE_PX // 3, 2))
        y, x = int(rng.integers(0, FACE_PX - h)), int(rng.integers(0, FACE_PX - w))
        pictures[i, y:y + h, x:x + w] = rng.uniform(0, 255, 3).astype(np.float32)
    return np.clip(pictures, 0, 255)


def _to_tensor(batch: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(np.ascontiguousarray(batch.transpose(0, 3, 1, 2), dtype=np.float32) / 255.0)


def _load(paths: list[Path], name: str) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = [], []
    for folder in paths:
        data = np.load(folder / name)
        xs.append(data["x"])
        ys.append(data["y"].astype(np.int64))
    return np.concatenate(xs), np.concatenate(ys)


def evaluate(net: FaceNet, x: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """Accuracy over cards (a JK label: either joker), over rejects, and overall."""
    net.eval()
    preds = []
    with torch.no_grad():
        for start in range(0, len(x), 256):
            preds.append(net(_to_tensor(x[start:start + 256].astype(np.float32))).argmax(1).numpy())
    pred = np.concatenate(preds)
    right = np.where(y == ANY_JOKER_LABEL, (pred == 52) | (pred == 53), pred == y)
    cards, rejects = y != REJECT, y == REJECT
    return {"accuracy": float(right.mean()), "cards": float(right[cards].mean()) if cards.any() else 0.0,
            "rejects": float(right[rejects].mean()) if rejects.any() else 0.0}


def train(train_dirs: list[Path], val_dirs: list[Path], out: Path, epochs: int, resume: bool = False,
          init: Path | None = None, lr: float = 0.003, batch: int = 96, width: int = 24, threads: int = 2,
          seed: int = 0, samples_per_epoch: int = 0, strong_augment: bool = False) -> dict:
    """Train (or resume) the face network; returns the last epoch's validation figures."""
    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    out.mkdir(parents=True, exist_ok=True)
    x, y = _load(train_dirs, "faces-train.npz")
    vx, vy = _load(val_dirs, "faces-val.npz")
    net = FaceNet(width)
    optimiser = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=5e-4)
    steps_per_epoch = max(1, (samples_per_epoch or len(x)) // batch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=lr, total_steps=epochs * steps_per_epoch, pct_start=0.15)
    start_epoch, history = 0, []
    last = out / "last.pt"
    if resume and last.exists():
        state = torch.load(last, map_location="cpu", weights_only=False)
        net.load_state_dict(state["model"])
        optimiser.load_state_dict(state["optimiser"])
        schedule.load_state_dict(state["schedule"])
        start_epoch, history = state["epoch"], state["history"]
    elif init is not None:
        net.load_state_dict(torch.load(init, map_location="cpu", weights_only=False)["model"])
    rng = np.random.default_rng([seed, start_epoch])
    result: dict = history[-1] if history else {}
    for epoch in range(start_epoch, epochs):
        net.train()
        began = time.time()
        order = np.concatenate([rng.permutation(len(x)) for _ in range(-(-steps_per_epoch * batch // len(x)))])
        total = 0.0
        for step in range(steps_per_epoch):
            pick = order[step * batch:(step + 1) * batch]
            labels = torch.from_numpy(y[pick])
            classes, rank, suit = net.forward_train(_to_tensor(_augment(x[pick], rng, strong_augment)))
            rank_t, suit_t = _rank_suit(labels)
            loss = face_loss(classes, labels) + 0.3 * (nn.functional.cross_entropy(rank, rank_t)
                                                       + nn.functional.cross_entropy(suit, suit_t, ignore_index=-100))
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item()
        result = {"epoch": epoch + 1, "loss": total / steps_per_epoch, **evaluate(net, vx, vy),
                  "seconds": round(time.time() - began)}
        history.append(result)
        torch.save({"model": net.state_dict(), "optimiser": optimiser.state_dict(), "schedule": schedule.state_dict(),
                    "epoch": epoch + 1, "history": history, "width": width,
                    "settings": {"lr": lr, "batch": batch, "seed": seed, "samples_per_epoch": samples_per_epoch,
                                 "strong_augment": strong_augment, "init": str(init) if init else None}}, last)
        (out / "history.json").write_text(json.dumps(history, indent=1) + "\n", encoding="utf-8")
        print(json.dumps(result), flush=True)
    return result


class _ExportFace(nn.Module):
    def __init__(self, net: FaceNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.net(x), dim=1)


def export_face(checkpoint: Path, out: Path) -> Path:
    """Write ``face.onnx`` (input ``faces`` N×3×80×80 BGR 0..1, output ``probs`` N×55)."""
    state = torch.load(checkpoint, map_location="cpu", weights_only=False)
    net = FaceNet(state.get("width", 24))
    net.load_state_dict(state["model"])
    net.eval()
    out.mkdir(parents=True, exist_ok=True)
    target = out / "face.onnx"
    torch.onnx.export(_ExportFace(net), torch.zeros(1, 3, FACE_PX, FACE_PX), str(target), input_names=["faces"],
                      output_names=["probs"], dynamic_axes={"faces": {0: "n"}, "probs": {0: "n"}}, opset_version=17,
                      dynamo=False)
    return target
