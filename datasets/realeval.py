"""Scoring the reader on real photos: folders of ``images/`` and ``labels/<stem>.json``.

A label is ``{"cards": ["AS", "10H", ...]}``: the multiset of cards visible in the photo
(card names as in the record format; ``JK`` is a joker of unknown kind, which a read of
either ``BJ`` or ``SJ`` matches). A label may carry ``"split"`` (``train``, ``valid``,
``test``): ``--real-split`` keeps one. Scoring is what a user sees: each physical card
counts once, so per photo the true positives are the cards read that the label holds
(as a multiset), false positives the other reads, false negatives the listed cards
nobody read.

>>> match_cards(["AS", "AS", "BJ", "2H"], ["AS", "JK", "3H"])
(2, 2, 1)
>>> match_cards([], ["AS"])
(0, 0, 1)
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from tuolaji.scorer.cards import JOKERS
from tuolaji.scorer.errors import InputError

ANY_JOKER = "JK"
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")


def match_cards(read: list[str], truth: list[str]) -> tuple[int, int, int]:
    """(true positives, false positives, false negatives) of one photo's reads against its label.

    Exact names match first; then a joker read (``SJ``/``BJ``) may match a listed ``JK``.
    """
    wanted = Counter(truth)
    got = Counter(read)
    tp = 0
    for card in list(got):
        hit = min(got[card], wanted[card])
        tp += hit
        got[card] -= hit
        wanted[card] -= hit
    for joker in JOKERS:
        hit = min(got[joker], wanted[ANY_JOKER])
        tp += hit
        got[joker] -= hit
        wanted[ANY_JOKER] -= hit
    return tp, sum(got.values()), sum(wanted.values())


@dataclass(frozen=True)
class RealPhoto:
    """One labelled photo of a real-photo folder."""

    image: Path
    cards: tuple[str, ...]
    split: str | None = None


def load_real_folder(folder: Path, split: str | None = None) -> list[RealPhoto]:
    """The labelled photos of ``folder`` (``images/`` + ``labels/*.json``), sorted by name;
    with ``split``, only the photos whose label says that split.

    A missing folder, a label that is not a ``{"cards": [...]}`` object, or a label
    without its image raises :class:`InputError` naming the file.
    """
    from tuolaji.scorer.cards import CardError, parse_card

    images_dir, labels_dir = folder / "images", folder / "labels"
    if not images_dir.is_dir() or not labels_dir.is_dir():
        raise InputError(f"{folder}: not a real-photo folder (it needs images/ and labels/)")
    images = {p.stem: p for p in images_dir.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES}
    photos = []
    for label_path in sorted(labels_dir.glob("*.json")):
        try:
            label = json.loads(label_path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise InputError(f"{label_path}: not a JSON label ({error})") from None
        if not isinstance(label, dict) or not isinstance(label.get("cards"), list):
            raise InputError(f"{label_path}: a label is an object with a list \"cards\"")
        for name in label["cards"]:
            if not isinstance(name, str):
                raise InputError(f"{label_path}: card names are strings, not {name!r}")
            if name != ANY_JOKER:
                try:
                    parse_card(name)
                except CardError:
                    raise InputError(f"{label_path}: unknown card {name!r}") from None
        if split is not None and label.get("split") != split:
            continue
        image = images.get(label_path.stem)
        if image is None:
            raise InputError(f"{label_path}: no image {label_path.stem}.* in {images_dir}")
        photos.append(RealPhoto(image, tuple(label["cards"]), label.get("split")))
    if not photos:
        raise InputError(f"{folder}: no labelled photos" + (f" of split {split!r}" if split else ""))
    return photos


@dataclass
class RealTally:
    """Counts over a real-photo set."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    photos: int = 0
    exact: int = 0
    photos_without_jokers: int = 0
    false_jokers: int = 0  # joker reads on photos whose label holds no joker
    overcounted: int = 0  # photos read as more cards than they show (a card read twice, a card where there is none)
    undercounted: int = 0  # photos read as fewer cards than they show
    by_suit: dict[str, list[int]] = field(default_factory=lambda: {s: [0, 0] for s in "SHCDJ"})  # suit -> [found, listed]
    confusions: Counter = field(default_factory=Counter)  # (listed, read) of the photos' unmatched pairs
    # black suits: listed suit -> how its cards were read (S, C: as that suit, the rank right; "missed": neither)
    black_suits: dict[str, Counter] = field(default_factory=lambda: {"S": Counter(), "C": Counter()})
    seconds: list[float] = field(default_factory=list)

    def add(self, read: list[str], truth: list[str]) -> tuple[int, int, int]:
        tp, fp, fn = match_cards(read, truth)
        self.tp, self.fp, self.fn = self.tp + tp, self.fp + fp, self.fn + fn
        self.photos += 1
        self.exact += fp == 0 and fn == 0
        self.overcounted += len(read) > len(truth)
        self.undercounted += len(read) < len(truth)
        if not any(c in (*JOKERS, ANY_JOKER) for c in truth):
            self.photos_without_jokers += 1
            self.false_jokers += sum(c in JOKERS for c in read)
        missing = Counter(truth)
        for card in read:
            if missing[card]:
                missing[card] -= 1
            elif card in JOKERS and missing[ANY_JOKER]:
                missing[ANY_JOKER] -= 1
        left_read = Counter(read) - (Counter(read) & Counter(truth))
        for card in truth:
            suit = "J" if card in (*JOKERS, ANY_JOKER) else card[-1]
            self.by_suit[suit][1] += 1
        for card, count in Counter(truth).items():
            suit = "J" if card in (*JOKERS, ANY_JOKER) else card[-1]
            self.by_suit[suit][0] += count - missing[card]
        self._count_black_suits(truth, missing, left_read)
        if len(left_read) and sum(missing.values()):
            for listed in missing.elements():
                for wrong in left_read:
                    self.confusions[(listed, wrong)] += 1
        return tp, fp, fn

    def _count_black_suits(self, truth: list[str], missing: Counter, left_read: Counter) -> None:
        """Each listed ♠ and ♣ card: read right, read as the other black suit's card of its rank
        (a read of that card left over on the photo), or missed."""
        left = Counter(left_read)
        for card, count in Counter(truth).items():
            if card[-1] in "SC":  # (jokers end in J, the any-joker label in K)
                self.black_suits[card[-1]][card[-1]] += count - missing[card]
        for listed in missing.elements():
            if listed[-1] not in "SC":
                continue
            other = listed[:-1] + ("C" if listed[-1] == "S" else "S")
            if left[other]:
                left[other] -= 1
                self.black_suits[listed[-1]][other[-1]] += 1
            else:
                self.black_suits[listed[-1]]["missed"] += 1

    def metrics(self) -> dict:
        """The counts as rates, confusions and, for black suits, how each was read
        (``black_suits``: listed suit -> read as S, as C, missed).

        >>> tally = RealTally()
        >>> _ = tally.add(["AC", "KS", "2C"], ["AS", "KS", "2C", "3C"])
        >>> tally.metrics()["black_suits"]
        {'S': {'S': 1, 'C': 1, 'missed': 0}, 'C': {'S': 0, 'C': 1, 'missed': 1}}
        """
        p = self.tp / max(1, self.tp + self.fp)
        r = self.tp / max(1, self.tp + self.fn)
        return {
            "photos": self.photos,
            "cards": self.tp + self.fn,
            "precision": round(p, 4),
            "recall": round(r, 4),
            "f1": round(2 * p * r / max(1e-9, p + r), 4),
            "exact_photo_rate": round(self.exact / max(1, self.photos), 4),
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "false_jokers_per_100_photos": round(100 * self.false_jokers / max(1, self.photos_without_jokers), 2),
            "photos_counted_right": self.photos - self.overcounted - self.undercounted,
            "photos_overcounted": self.overcounted,
            "photos_undercounted": self.undercounted,
            "recall_by_suit": {s: round(v[0] / v[1], 4) for s, v in self.by_suit.items() if v[1]},
            "top_confusions": [f"{a}->{b}: {n}" for (a, b), n in self.confusions.most_common(8)],
            "black_suits": {listed: {read: int(counts[read]) for read in ("S", "C", "missed")}
                            for listed, counts in self.black_suits.items()},
            "read_ms_p50": round(float(np.median(self.seconds)) * 1000, 1) if self.seconds else None,
        }


def real_samples(photos: list[RealPhoto]) -> Iterator[tuple[RealPhoto, np.ndarray]]:
    from tuolaji.vision.detector import read_image_file

    for photo in photos:
        yield photo, read_image_file(photo.image)


def format_real_report(m: dict) -> str:
    suits = "  ".join(f"{s} {v:.2f}" for s, v in m["recall_by_suit"].items())
    return "\n".join([
        f"photos {m['photos']}  cards {m['cards']}  precision {m['precision']:.3f}  recall {m['recall']:.3f}  "
        f"F1 {m['f1']:.3f}  exact-photo {m['exact_photo_rate']:.3f}  (tp {m['tp']}, fp {m['fp']}, fn {m['fn']})",
        f"false jokers per 100 photos without jokers: {m['false_jokers_per_100_photos']}",
        f"cards counted right in {m['photos_counted_right']} of {m['photos']} photos "
        f"(more cards read than shown: {m['photos_overcounted']}, fewer: {m['photos_undercounted']})",
        f"recall by suit: {suits}",
        "black suits (listed: read as S / C / missed): " + "  ".join(
            f"{listed} {b['S']} / {b['C']} / {b['missed']}" for listed, b in m["black_suits"].items()),
        f"read time p50 {m['read_ms_p50']} ms per photo",
        "most frequent misreads (listed->read): " + (", ".join(m["top_confusions"]) or "none"),
    ])
