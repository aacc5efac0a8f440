"""Enrolled decks: a table's own deck, learnt from a few photos (``tuolaji enrol``).

A deck is a copy of the classifier's class head adapted to one physical deck (its
fonts, pips and court faces), saved under ``DATA/decks/NAME/``: ``head.npz`` (``weight``
55×F, ``bias`` 55, over the classifier's ``features`` output) and ``deck.json`` (what it
was learnt from), the head stamped with the classifier it was adapted for (a deck of an
earlier reader is refused, not misread). The reader given a deck reads every index crop's probabilities from
that head instead of the shipped one; everything else (detector, directions, grouping)
is unchanged. DATA is found as for ``tuolaji serve``: ``--data``, else ``$TUOLAJI_DATA``,
else ``./data``.

>>> head = DeckHead("home", np.zeros((55, 3), np.float32), np.log(np.full(55, 1 / 55, np.float32)))
>>> head.probabilities(np.ones((2, 3), np.float32)).shape
(2, 55)
>>> deck_folder(Path("/tmp/t"), "home")
PosixPath('/tmp/t/decks/home')
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tuolaji.scorer.cards import CARD_NAMES
from tuolaji.scorer.errors import InputError

DECK_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")  # matched whole (fullmatch): "$" passes a final newline
HEAD_FILE = "head.npz"
CLASSIFIER_HEAD_FILE = "classifier_head.npz"
"""Beside ``classifier.onnx``: the weights of its class head (``weight`` 55×F, ``bias`` 55),
written by ``tuolaji export``; a deck's head starts from them."""
INFO_FILE = "deck.json"


def classifier_fingerprint(classifier: Path) -> str:
    """A short fingerprint of the classifier file a deck's head reads the features of: a deck
    enrolled with one classifier reads nonsense from another's features."""
    return hashlib.sha256(Path(classifier).read_bytes()).hexdigest()[:16]


def check_deck_fits(head: DeckHead, classifier: Path) -> None:
    """InputError unless ``head`` was enrolled with the classifier file ``classifier``."""
    if head.classifier != classifier_fingerprint(classifier):
        raise InputError("deck.other_reader", deck=head.name, classifier=str(classifier))


def data_folder(explicit: Path | None = None) -> Path:
    """``explicit`` (``--data``), else ``$TUOLAJI_DATA``, else ``./data``."""
    return Path(explicit) if explicit is not None else Path(os.environ.get("TUOLAJI_DATA") or "data")


def check_deck_name(name: str) -> str:
    """``name`` if it can name a deck folder (letters, digits, ``_.-``, at most 64), else InputError.

    >>> check_deck_name("club-3decks")
    'club-3decks'
    >>> check_deck_name("../x")
    Traceback (most recent call last):
    ...
    tuolaji.scorer.errors.InputError: deck name '../x': use letters, digits, '_', '.', '-' (at most 64, not starting with a sign)
    """
    if not DECK_NAME.fullmatch(name):
        raise InputError("deck.name", deck=name)
    return name


def deck_folder(data: Path, name: str) -> Path:
    return data / "decks" / check_deck_name(name)


INDEX_LAYOUTS = ("vertical", "horizontal")
"""How a deck prints its corner indices: the rank above its suit, or the suit beside the rank."""


@dataclass(frozen=True)
class DeckHead:
    """The class head of one enrolled deck: ``softmax(features @ weight.T + bias)``."""

    name: str
    weight: np.ndarray  # 55×F
    bias: np.ndarray  # 55
    classifier: str = ""  # fingerprint of the classifier whose features it reads (classifier_fingerprint)
    index_layout: str = "vertical"  # "horizontal": the deck prints its suits beside its ranks (the reader's index_layout)

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        logits = features @ self.weight.T + self.bias
        logits -= logits.max(axis=1, keepdims=True)
        exp = np.exp(logits)
        probabilities: np.ndarray = (exp / exp.sum(axis=1, keepdims=True)).astype(np.float32)
        return probabilities


def chosen_deck(name: str | None, data: Path | None) -> DeckHead | None:
    """The deck of ``--deck NAME`` (under ``--data``/``$TUOLAJI_DATA``/``./data``), or None without one."""
    if name is None:
        if data is not None and not Path(data).is_dir():
            raise InputError("deck.no_data", path=str(data))
        return None
    return load_deck(data_folder(data), name)




def list_decks(data: Path) -> list[str]:
    """The names of the decks enrolled under ``data``, sorted."""
    folder = data / "decks"
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if (p / HEAD_FILE).is_file() and DECK_NAME.fullmatch(p.name))


def load_deck(data: Path, name: str) -> DeckHead:
    """The deck ``name`` enrolled under ``data``, or InputError naming what is missing."""
    folder = deck_folder(data, name)
    path = folder / HEAD_FILE
    if not path.is_file():
        known = ", ".join(list_decks(data)) or "none"
        raise InputError("deck.not_enrolled", deck=name, path=str(data / "decks"), known=known)
    try:
        with np.load(path) as saved:
            weight, bias = saved["weight"].astype(np.float32), saved["bias"].astype(np.float32)
            classifier = str(saved["classifier"]) if "classifier" in saved else ""
            layout = str(saved["index_layout"]) if "index_layout" in saved else "vertical"
    except (OSError, ValueError, KeyError) as error:
        raise InputError("deck.head", path=str(path), problem=str(error)) from None
    if weight.ndim != 2 or bias.shape != (weight.shape[0],):
        raise InputError("deck.head_shape", path=str(path), weight=weight.shape, bias=bias.shape)
    if layout not in INDEX_LAYOUTS:
        raise InputError("deck.head", path=str(path), problem=f"index_layout {layout!r} is none of {INDEX_LAYOUTS}")
    return DeckHead(name, weight, bias, classifier, layout)


def save_deck(data: Path, head: DeckHead, info: dict[str, Any]) -> Path:
    """Write ``head`` and ``info`` to the deck's folder, each file atomically; returns the folder."""
    folder = deck_folder(data, head.name)
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / (HEAD_FILE + ".tmp.npz")
    np.savez_compressed(tmp, weight=head.weight, bias=head.bias, classifier=np.array(head.classifier),
                        index_layout=np.array(head.index_layout))
    os.replace(tmp, folder / HEAD_FILE)
    tmp_info = folder / (INFO_FILE + ".tmp")
    tmp_info.write_text(json.dumps(info, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp_info, folder / INFO_FILE)
    return folder


RANK_GROUPS, SUIT_GROUPS = 15, 7
"""The shared parts of an enrolled deck's head (:func:`card_groups`): 13 ranks, a joker and no index;
4 suits, 小王, 大王 and no index."""


def card_groups(classes: int = 55) -> np.ndarray:
    """Which shared parts of an enrolled deck's head each of ``classes`` classes reads with
    (``classes`` × 22, 0 or 1): its rank (2 … A, a joker, no index) and its suit (♠ ♥ ♣ ♦,
    小王, 大王, no index), for the 55 classes of :data:`scorer.cards.CARD_NAMES` and "no index";
    no shared part for a head of other classes.

    >>> groups = card_groups()
    >>> [int(groups[k].nonzero()[0][0]) for k in (11, 37)], [int(groups[k].nonzero()[0][1]) - 15 for k in (11, 37)]
    ([11, 11], [0, 2])
    """
    if classes != len(CARD_NAMES) + 1:
        return np.zeros((classes, 0), np.float32)
    groups = np.zeros((classes, RANK_GROUPS + SUIT_GROUPS), np.float32)
    for k in range(classes):
        rank, suit = (k % 13, k // 13) if k < 52 else (13, 4 + k - 52) if k < 54 else (14, 6)
        groups[k, rank] = groups[k, RANK_GROUPS + suit] = 1.0
    return groups


def adapt_head(weight: np.ndarray, bias: np.ndarray, features: np.ndarray, labels: np.ndarray, *,
               groups: np.ndarray | None = None, steps: int = 300, lr: float = 0.05, pull: float = 1e-3,
               card_pull: float = 1e-2) -> tuple[np.ndarray, np.ndarray]:
    """The class head ``weight``, ``bias`` adapted to read ``labels`` from ``features``.

    Each class's row is the shipped row plus what it shares with other classes (``groups``,
    :func:`card_groups`: its rank's part and its suit's part) plus a part of its own. A deck's
    K♣ teaches its kings and its clubs, so a K♠ the photos did not show is read with this deck's
    kings and spades, not left to lose to the K♣ it was taught. The own parts are pulled harder
    to nothing (``card_pull``) than the shared ones (``pull``; without shared parts, every part
    by ``pull``). Adam on the cross-entropy of the enrolled crops plus those pulls, so cards the
    photos did not show keep the shipped reading where nothing was learnt of their rank or suit.
    The features are scaled by their mean norm for a step size that suits every network.

    >>> rng = np.random.default_rng(0)
    >>> f = rng.normal(size=(40, 8)).astype(np.float32)
    >>> y = (f[:, 0] > 0).astype(np.int64)
    >>> w, b = adapt_head(np.zeros((2, 8), np.float32), np.zeros(2, np.float32), f, y)
    >>> float(((f @ w.T + b).argmax(1) == y).mean())
    1.0
    """
    shared = card_groups(weight.shape[0]) if groups is None else np.asarray(groups, np.float32)
    scale = float(np.linalg.norm(features, axis=1).mean()) or 1.0
    x = features / scale
    w0, b0 = weight * scale, bias.copy()
    classes, width = w0.shape
    parts = [np.zeros((shared.shape[1], width), np.float32), np.zeros((classes, width), np.float32),
             np.zeros(shared.shape[1], np.float32), np.zeros(classes, np.float32)]
    own_pull = card_pull if shared.shape[1] else pull  # a head of other classes: each class on its own, as before
    pulls = (pull, own_pull, pull, own_pull)

    def head() -> tuple[np.ndarray, np.ndarray]:
        return w0 + shared @ parts[0] + parts[1], b0 + shared @ parts[2] + parts[3]

    onehot = np.eye(classes, dtype=np.float32)[labels]
    m = [np.zeros_like(p) for p in parts]
    v = [np.zeros_like(p) for p in parts]
    beta1, beta2 = 0.9, 0.999
    for step in range(1, steps + 1):
        w, b = head()
        logits = x @ w.T + b
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        grad_logits = (p - onehot) / len(x)
        grad_w, grad_b = grad_logits.T @ x, grad_logits.sum(axis=0)
        grads = [shared.T @ grad_w, grad_w, shared.T @ grad_b, grad_b]
        for i, (part, grad) in enumerate(zip(parts, grads, strict=True)):
            grad = grad + 2 * pulls[i] * part
            m[i] = beta1 * m[i] + (1 - beta1) * grad
            v[i] = beta2 * v[i] + (1 - beta2) * grad * grad
            part -= lr * (m[i] / (1 - beta1**step)) / (np.sqrt(v[i] / (1 - beta2**step)) + 1e-8)
    w, b = head()
    return (w / scale).astype(np.float32), b.astype(np.float32)
