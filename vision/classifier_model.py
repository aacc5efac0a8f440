"""The card-index classifier network (torch; training side only — runtime uses its ONNX).

Input: a batch of 40×40 BGR crops, float32 in 0..1, NCHW. Outputs: logits over the 54
cards + "not a card index" (55), and a 2-vector pointing to the top of the card in
image coordinates (sin, -cos of the clockwise angle from "up"); the reader uses it to
pair the corner indices of one card.

About 14 M multiply-adds per crop, so a frame's dozen crops cost a few milliseconds.
"""

from __future__ import annotations

import torch
from torch import nn

NUM_CLASSES = 55
RANK_CLASSES = 15
SUIT_CLASSES = 7


def rank_and_suit_targets(labels: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Rank id (0-12, 13 joker, 14 reject) and suit id (0-3 SHCD, 4 小王, 5 大王, 6 reject) of class ids."""
    rank = torch.where(labels < 52, labels % 13, torch.where(labels < 54, torch.full_like(labels, 13),
                                                              torch.full_like(labels, 14)))
    suit = torch.where(labels < 52, labels // 13, labels - 48)
    return rank, suit


def _block(c_in: int, c_out: int, stride: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, stride, 1, bias=False), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True))


class CardIndexNet(nn.Module):
    """A small plain CNN: 40×40 → 20×20 → 10×10 → 5×5, then one linear layer per head.

    ``width`` sets the channels (w, 2w, 4w, 8w); ``extra`` adds that many more 3×3 blocks
    at 10×10 and at 5×5. Checkpoints store both (:func:`architecture`).

    >>> net = CardIndexNet(width=8, extra=1)
    >>> [tuple(t.shape) for t in net(torch.zeros(2, 3, 40, 40))]
    [(2, 55), (2, 2)]
    """

    def __init__(self, num_classes: int = NUM_CLASSES, width: int = 16, extra: int = 0) -> None:
        super().__init__()
        w = width
        self.width, self.extra = width, extra
        layers = [
            _block(3, w, 1),
            _block(w, 2 * w, 2),
            _block(2 * w, 2 * w, 1),
            _block(2 * w, 4 * w, 2),
            _block(4 * w, 4 * w, 1),
        ]
        layers += [_block(4 * w, 4 * w, 1) for _ in range(extra)]
        layers.append(_block(4 * w, 8 * w, 2))
        layers += [_block(8 * w, 8 * w, 1) for _ in range(extra)]
        self.features = nn.Sequential(*layers)
        flat = 8 * w * 5 * 5
        self.dropout = nn.Dropout(0.2)
        self.classes = nn.Linear(flat, num_classes)
        self.orientation = nn.Linear(flat, 2)
        # training-only helpers: rank (13 + joker + reject) and suit (4 + 2 jokers + reject)
        # share what the 54 cards have in common, so the features learn faster
        self.rank = nn.Linear(flat, RANK_CLASSES)
        self.suit = nn.Linear(flat, SUIT_CLASSES)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        f = self.dropout(self.features(x).flatten(1))
        return self.classes(f), self.orientation(f)

    def forward_train(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        f = self.dropout(self.features(x).flatten(1))
        return self.classes(f), self.orientation(f), self.rank(f), self.suit(f)


def architecture(net: CardIndexNet) -> dict:
    """The constructor arguments a checkpoint needs to rebuild ``net``."""
    return {"width": net.width, "extra": net.extra}


def from_checkpoint(state: dict) -> CardIndexNet:
    """Rebuild the network saved in a checkpoint dict (older ones: width 16, no extra blocks)."""
    net = CardIndexNet(**state.get("architecture", {"width": 16, "extra": 0}))
    net.load_state_dict(state["model"])
    return net


class ExportWrapper(nn.Module):
    """What goes into the ONNX file: probabilities and a unit orientation vector."""

    def __init__(self, net: CardIndexNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        logits, orient = self.net(x)
        return torch.softmax(logits, dim=1), orient / orient.norm(dim=1, keepdim=True).clamp_min(1e-6)
