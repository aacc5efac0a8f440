"""The card-index classifier network (torch; training side only — runtime uses its ONNX).

Input: a batch of 40×40 BGR crops, float32 in 0..1, NCHW. Outputs: logits over the 54
cards + "not a card index" (55), a 2-vector pointing to the top of the card in image
coordinates (sin, -cos of the clockwise angle from "up"), and (networks with a side
head) a logit for "this is a right-hand corner of its card, as its glyphs stand" (the
top-right and bottom-left corners of 4-corner decks); the reader uses them to pair the
corner indices of one card.

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


def conv_block(c_in: int, c_out: int, stride: int) -> nn.Sequential:
    """A 3×3 convolution, batch norm and ReLU (the card networks' one building block)."""
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, stride, 1, bias=False), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True))


class CardIndexNet(nn.Module):
    """A small plain CNN: 40×40 → 20×20 → 10×10 → 5×5, then one linear layer per head.

    ``width`` sets the channels (w, 2w, 4w, 8w); ``extra`` adds that many more 3×3 blocks
    at 10×10 and at 5×5; ``side`` adds the corner-side head. Checkpoints store all three
    (:func:`architecture`).

    >>> net = CardIndexNet(width=8, extra=1)
    >>> [tuple(t.shape) for t in net(torch.zeros(2, 3, 40, 40))]
    [(2, 55), (2, 2), (2, 1)]
    >>> len(CardIndexNet(width=8, side=False)(torch.zeros(2, 3, 40, 40)))
    2
    """

    def __init__(self, num_classes: int = NUM_CLASSES, width: int = 16, extra: int = 0, side: bool = True) -> None:
        super().__init__()
        w = width
        self.width, self.extra, self.has_side = width, extra, side
        layers = [
            conv_block(3, w, 1),
            conv_block(w, 2 * w, 2),
            conv_block(2 * w, 2 * w, 1),
            conv_block(2 * w, 4 * w, 2),
            conv_block(4 * w, 4 * w, 1),
        ]
        layers += [conv_block(4 * w, 4 * w, 1) for _ in range(extra)]
        layers.append(conv_block(4 * w, 8 * w, 2))
        layers += [conv_block(8 * w, 8 * w, 1) for _ in range(extra)]
        self.features = nn.Sequential(*layers)
        flat = 8 * w * 5 * 5
        self.dropout = nn.Dropout(0.2)
        self.classes = nn.Linear(flat, num_classes)
        self.orientation = nn.Linear(flat, 2)
        self.side = nn.Linear(flat, 1) if side else None
        # training-only helpers: rank (13 + joker + reject) and suit (4 + 2 jokers + reject)
        # share what the 54 cards have in common, so the features learn faster
        self.rank = nn.Linear(flat, RANK_CLASSES)
        self.suit = nn.Linear(flat, SUIT_CLASSES)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """Class logits, orientation, and (with a side head) the right-corner logit."""
        f = self.dropout(self.features(x).flatten(1))
        if self.side is None:
            return self.classes(f), self.orientation(f)
        return self.classes(f), self.orientation(f), self.side(f)

    def forward_train(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """:meth:`forward` plus the rank and suit helper logits, and the side logit (or None)."""
        f = self.dropout(self.features(x).flatten(1))
        side = self.side(f) if self.side is not None else None
        return self.classes(f), self.orientation(f), self.rank(f), self.suit(f), side


def architecture(net: CardIndexNet) -> dict:
    """The constructor arguments a checkpoint needs to rebuild ``net``."""
    return {"width": net.width, "extra": net.extra, "side": net.has_side}


def from_checkpoint(state: dict, side: bool | None = None) -> CardIndexNet:
    """Rebuild the network saved in a checkpoint dict (older ones: width 16, no extra blocks,
    no side head). ``side=True`` adds a fresh side head to a network saved without one."""
    saved = {"width": 16, "extra": 0, "side": False, **state.get("architecture", {})}
    net = CardIndexNet(**{**saved, "side": saved["side"] if side is None else side})
    missing, unexpected = net.load_state_dict(state["model"], strict=False)
    if unexpected or any(not key.startswith("side.") for key in missing) or (missing and saved["side"]):
        raise ValueError(f"checkpoint does not fit the network: missing {missing}, unexpected {unexpected}")
    return net


class ExportWrapper(nn.Module):
    """What goes into the ONNX file: probabilities, a unit orientation vector and (when a
    network has a side head) the probability of a right-hand corner. Several networks
    make an ensemble: their probabilities, directions and side probabilities are averaged
    (the side over the networks that have the head)."""

    def __init__(self, *nets: CardIndexNet) -> None:
        super().__init__()
        self.nets = nn.ModuleList(nets)
        self.has_side = any(net.has_side for net in nets)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        probs, ups, sides = [], [], []
        for net in self.nets:
            out = net(x)
            probs.append(torch.softmax(out[0], dim=1))
            ups.append(out[1] / out[1].norm(dim=1, keepdim=True).clamp_min(1e-6))
            if len(out) > 2:
                sides.append(torch.sigmoid(out[2]).squeeze(1))
        up = torch.stack(ups).mean(0)
        result = (torch.stack(probs).mean(0), up / up.norm(dim=1, keepdim=True).clamp_min(1e-6))
        return (*result, torch.stack(sides).mean(0)) if self.has_side else result
