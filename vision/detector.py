"""The card reader: corner-index detector + card classifier + grouping, on ONNX Runtime.

Two models from ``models/`` (no torch, no ultralytics at run time):

1. ``detector.onnx``: a one-class YOLO detector of card corner indices (rank + suit pip)
   on the whole frame, resized and letterboxed into 544×416 (a 640×480 frame at 0.85
   scale: trained at 0.7, it finds more of the smallest indices a little larger);
   output ``(1, 5, N)`` = cx, cy, w, h, score
   (already a sigmoid) in input pixels. Numpy NMS.
2. ``classifier.onnx``: reads a 40×40 crop around each index, taken from the frame at
   its full resolution, into the 54 cards or "not a card index", the direction of the
   card's top, and (classifiers with a side head) whether the index is a right-hand
   corner of its card.

Then :func:`group_indices` pairs the indices of one physical card: the same card (the same
name, or names both readings' probabilities allow; the card is then read from all of them), opposite
directions a card's height or diagonal apart (2- and 4-corner decks), or the same
direction a card's width apart, a left-hand corner and a right-hand one (the top corners
of 4-corner decks). Fanned identical cards show only left-hand corners, a fan offset apart
with the same direction, so two identical cards side by side stay two.

>>> reader = CardReader.load()                                    # doctest: +SKIP
>>> [c.card for c in reader.read(cv2.imread("table.jpg"))]        # doctest: +SKIP
['10H', '10H', 'BJ']
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from models import MODELS_DIR
from scorer.cards import CARD_NAMES
from scorer.errors import InputError
from vision.cardcrop import CROP_PX, crop_index
from vision.classes import JOKER_NAMES, REJECT, check_classes
from vision.decks import DeckHead
from vision.face import FaceReader, card_quads, portrait, stretch_to_face, warp_face

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class IndexReading:
    """One corner index: where it is, what it reads and where its card's top points."""

    card: str
    box: Box  # x1, y1, x2, y2 in frame pixels
    confidence: float  # classifier probability × detector score ** detector_weight
    angle_deg: float  # clockwise from "up" in the image: the direction of the card's top
    side: float = math.nan  # probability that this is a right-hand corner of its card as its glyphs stand (NaN: not read)
    # the classifier's probabilities of the 54 cards (summing to 1, reject left out); None: only the name is known
    probs: np.ndarray | None = field(default=None, compare=False, repr=False)

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2)

    def confidence_as(self, card: str) -> float:
        """The confidence this reading would have if it had read ``card`` (0 when its
        probabilities are unknown and it read another card)."""
        if card == self.card:
            return self.confidence
        if self.probs is None:
            return 0.0
        k = CARD_NAMES.index(card)
        return self.confidence * float(self.probs[k]) / max(float(self.probs[CARD_NAMES.index(self.card)]), 1e-9)


@dataclass(frozen=True)
class CardInstance:
    """One physical card: its name, a box around its visible corner indices, a confidence.

    >>> i = IndexReading("AS", (10, 10, 20, 30), 0.9, 0.0)
    >>> CardInstance("AS", (10, 10, 20, 30), 0.9, (i,)).card
    'AS'
    """

    card: str
    box: Box
    confidence: float
    indices: tuple[IndexReading, ...] = field(default=())

    def candidates(self, count: int = 5) -> list[tuple[str, float]]:
        """The likeliest cards this one may be, with their probabilities given all its corners
        (independent reads: the normalised product), most probable first; only its name
        (probability 1) when its corners carry no probabilities.

        >>> p = np.full(54, 0.2 / 53); p[CARD_NAMES.index("9C")] = 0.8
        >>> [(c, round(v, 2)) for c, v in CardInstance("9C", (0, 0, 9, 9), 0.8, (IndexReading("9C", (0, 0, 9, 9), 0.8, 0.0, probs=p),)).candidates(2)]
        [('9C', 0.8), ('2S', 0.0)]
        """
        if not self.indices or any(r.probs is None for r in self.indices):
            return [(self.card, 1.0)]
        log_p = sum(np.log(np.asarray(r.probs, np.float64) + 1e-9) for r in self.indices)
        p = np.exp(log_p - log_p.max())
        p /= p.sum()
        order = np.argsort(-p, kind="stable")[:count]
        return [(CARD_NAMES[int(k)], float(p[k])) for k in order]


@dataclass(frozen=True)
class ReaderSettings:
    input_width: int = 544  # frames are read at 0.85 scale of 640x480 (the detector trained at 0.7 finds more small indices)
    input_height: int = 416
    detect_threshold: float = 0.25
    nms_iou: float = 0.5
    class_threshold: float = 0.4
    card_threshold: float = 0.35
    detector_weight: float = 1.0  # index confidence = class probability × detector score ** detector_weight
    max_indices: int = 96
    classify_turns: int = 1  # 4: also read each crop turned by 90°, 180° and 270°, and average (4× the classifier's cost)
    reread_below: float = 0.8  # ... only the crops read less surely than this (when classify_turns is 1; 0: none)
    coarse_scale: float = 0.5  # a second detector pass at this fraction of the scale, for close-ups (0: none)
    coarse_min_index: float = 40.0  # ... keeping only indices at least this long (detector input pixels)
    coarse_skip_below: float = 30.0  # no coarse pass when the sure indices of the first are all shorter than this (0: always)
    index_spacing: float = 0.0  # > 0: same-named indices closer than this many index sizes are one (see drop_duplicate_reads)
    max_upscale: float = 1.0  # the detector never reads a picture enlarged more than this
    joker_threshold: float = 0.0  # a card read as a joker needs at least this confidence too (a joker is reported only on its evidence)
    face_threshold: float = 0.0  # > 0: whole card faces are read too (face.onnx), a face read counting from this probability


CAREFUL: dict[str, float] = {"classify_turns": 4}
"""Reader settings for reads that may take longer: every index read four ways
(``tuolaji detect --careful``)."""

FAST: dict[str, float] = {"input_width": 448, "input_height": 336, "reread_below": 0.0}
"""Reader settings for the quickest reads: frames at 0.7 scale (the detector's training
scale), every index read once (``tuolaji detect --fast``): about a quarter less time,
fewer of the smallest cards."""


def reader_preset(careful: bool = False, fast: bool = False) -> dict[str, float]:
    """The settings of ``--careful`` or ``--fast`` (never both: a ValueError)."""
    if careful and fast:
        raise ValueError("--careful and --fast exclude each other")
    return dict(CAREFUL) if careful else dict(FAST) if fast else {}

TABLE: dict[str, float] = {**CAREFUL, "index_spacing": 0.75, "face_threshold": 0.0}
"""Reader settings of the table pipeline: it reads only when a zone has settled, so it
reads carefully, and the table is laid by ``docs/TABLE.md`` (every index of a fan visible),
so two same-named indices closer than 0.75 index sizes are one. Its zones hold seats'
plays, fans and several cards, not one card filling the picture: no face reads."""


class CardReader:
    """Reads the cards in a BGR frame. Create with :meth:`load`; :meth:`read` is thread-compatible
    (one reader per thread)."""

    def __init__(self, detector, classifier, settings: ReaderSettings, deck: DeckHead | None = None,
                 face: FaceReader | None = None) -> None:
        self._detector = detector
        self._face = face
        self._classifier = classifier
        self.settings = settings
        self._cls_outputs = [o.name for o in classifier.get_outputs()]
        if deck is not None and "features" not in self._cls_outputs:
            raise InputError(f"deck {deck.name!r}: this classifier has no features output (re-export it with `tuolaji export`)")
        self.deck = deck
        self._det_input = detector.get_inputs()[0].name
        # a detector exported with a fixed input reads at that size (width, height), whatever the
        # settings say; one with dynamic height and width (None) also reads portrait frames upright
        shape = detector.get_inputs()[0].shape[2:]
        self._det_fixed = tuple(int(d) for d in shape[::-1]) if all(isinstance(d, int) for d in shape) else None
        self._cls_input = classifier.get_inputs()[0].name

    @staticmethod
    def load(models_dir: str | Path | None = None, threads: int = 2, deck: DeckHead | None = None,
             **overrides: float) -> CardReader:
        """Load ``detector.onnx``, ``classifier.onnx`` and ``cards.json`` from ``models_dir``.

        ``overrides`` replace settings of ``cards.json`` (for instance ``**CAREFUL``);
        ``deck`` (from :func:`vision.decks.load_deck`) reads the cards of an enrolled deck.
        """
        import onnxruntime as ort

        folder = Path(models_dir) if models_dir is not None else MODELS_DIR
        meta_path = folder / "cards.json"
        meta = _read_meta(meta_path) if meta_path.exists() else {}
        check_classes(meta, str(meta_path))
        known = ReaderSettings.__dataclass_fields__
        chosen = {k: v for k, v in meta.get("reader", {}).items() if k in known}
        unknown = set(overrides) - set(known)
        if unknown:
            raise TypeError(f"unknown reader settings: {sorted(unknown)}")
        settings = ReaderSettings(**{**chosen, **overrides})
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        # two sessions take turns on the same cores: threads that spin-wait after a run slow the other down
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        names = ["detector.onnx", "classifier.onnx"]
        if settings.face_threshold > 0 and (folder / "face.onnx").exists():
            names.append("face.onnx")
        sessions = []
        for name in names:
            path = folder / name
            if not path.exists():
                raise OSError(2, "No such file or directory", str(path))
            try:
                sessions.append(ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"]))
            except Exception as exc:  # noqa: BLE001 - onnxruntime's errors (InvalidProtobuf, Fail…) have no common base
                first = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else type(exc).__name__
                raise InputError(f"{path}: not a usable ONNX model ({first})") from None
        face = FaceReader(sessions[2]) if len(sessions) > 2 else None
        return CardReader(sessions[0], sessions[1], settings, deck, face)

    # ------------------------------------------------------------ stages

    def detect(self, frame_bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Index boxes (K×4, frame pixels) and scores (K) after NMS.

        Two passes: the frame at the detector's scale, and (``coarse_scale``) at a fraction
        of it, from which only indices at least ``coarse_min_index`` pixels long at the
        first scale are kept — close-up photos put indices far larger than the detector
        was trained on (at 3× the training scale its recall falls from 0.76 to 0.37, with
        this pass it stays at 0.81).
        """
        s = self.settings
        h, w = frame_bgr.shape[:2]
        in_w, in_h = self._det_fixed or (s.input_width, s.input_height)
        if self._det_fixed is None and h > w:
            in_w, in_h = in_h, in_w
        boxes, scores, ratio = self._detect_pass(frame_bgr, in_w, in_h, 1.0)
        if s.coarse_scale > 0 and not self._only_small_indices(boxes, scores, ratio):
            if self._det_fixed is None:  # a smaller canvas: a quarter of the cost at scale 0.5
                small_w = max(32, round(in_w * s.coarse_scale / 32) * 32)
                small_h = max(32, round(in_h * s.coarse_scale / 32) * 32)
                more, more_scores, _ = self._detect_pass(frame_bgr, small_w, small_h, 1.0)
            else:
                more, more_scores, _ = self._detect_pass(frame_bgr, in_w, in_h, s.coarse_scale)
            large = np.maximum(more[:, 2] - more[:, 0], more[:, 3] - more[:, 1]) * ratio >= s.coarse_min_index
            boxes, scores = np.concatenate([boxes, more[large]]), np.concatenate([scores, more_scores[large]])
        if not len(boxes):
            return np.zeros((0, 4), np.float32), np.zeros(0, np.float32)
        order = nms(boxes, scores, s.nms_iou)[: s.max_indices]
        boxes = boxes[order]
        boxes[:, [0, 2]] = boxes[:, [0, 2]].clip(0, w)
        boxes[:, [1, 3]] = boxes[:, [1, 3]].clip(0, h)
        return boxes.astype(np.float32), scores[order]

    def _only_small_indices(self, boxes: np.ndarray, scores: np.ndarray, ratio: float) -> bool:
        """True when the first pass found sure indices (score >= ``SURE_INDEX``), all shorter than
        ``coarse_skip_below`` detector pixels: the camera is far from the cards, and no close-up
        index is left for the coarse pass (on the tuning scenes it then found 6 more boxes in 106
        frames; on close-ups the rule never held)."""
        sure = scores >= SURE_INDEX
        if self.settings.coarse_skip_below <= 0 or not sure.any():
            return False
        longest = float(np.maximum(boxes[sure, 2] - boxes[sure, 0], boxes[sure, 3] - boxes[sure, 1]).max()) * ratio
        return longest < self.settings.coarse_skip_below

    def _detect_pass(self, frame_bgr: np.ndarray, in_w: int, in_h: int, shrink: float) -> tuple[np.ndarray, np.ndarray, float]:
        """One detector run: the frame letterboxed into in_w×in_h (at ``shrink`` of the fitting
        scale); boxes in frame pixels and scores above the threshold, and the scale used."""
        h, w = frame_bgr.shape[:2]
        # a small picture (a close-up photo, a zone of a big frame) is not enlarged: its indices are large already
        ratio = min(min(in_w / w, in_h / h) * shrink, self.settings.max_upscale)
        nw, nh = max(1, round(w * ratio)), max(1, round(h * ratio))
        # linear, as the training letterbox resized (and several times faster than INTER_AREA)
        resized = frame_bgr if (nw, nh) == (w, h) else cv2.resize(frame_bgr, (nw, nh), interpolation=cv2.INTER_LINEAR)
        canvas = np.full((in_h, in_w, 3), 114, np.uint8)
        canvas[:nh, :nw] = resized
        # 1×3×H×W RGB 0..1 (twice as fast as cv2.dnn.blobFromImage, the same values)
        blob = cv2.cvtColor(canvas, cv2.COLOR_BGR2RGB).transpose(2, 0, 1)[None].astype(np.float32) * np.float32(1 / 255.0)
        raw = self._detector.run(None, {self._det_input: blob})[0][0]  # (5, N)
        keep = raw[4] >= self.settings.detect_threshold
        cx, cy, bw, bh = raw[0, keep], raw[1, keep], raw[2, keep], raw[3, keep]
        boxes = np.stack([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2], axis=1) / ratio
        return boxes.reshape(-1, 4), raw[4, keep], ratio

    def classify(self, frame_bgr: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Class probabilities (K×55), unit up-vectors (K×2) and right-hand-corner probabilities
        (K; NaN from a classifier without that output) for the crops around ``boxes``.

        Each crop is read once, or (``classify_turns`` 4) also turned by 90°, 180° and 270°
        and the four reads averaged; with ``reread_below``, only the crops read less surely
        than that are read the other three ways.
        """
        if len(boxes) == 0:
            return np.zeros((0, REJECT + 1), np.float32), np.zeros((0, 2), np.float32), np.zeros(0, np.float32)
        crops = np.stack([crop_index(frame_bgr, tuple(b)) for b in boxes])
        probs, up, side = self._read_turned(crops, (0,))
        again = np.ones(len(crops), bool) if self.settings.classify_turns >= 4 else probs.max(axis=1) < self.settings.reread_below
        if again.any():
            turned_probs, turned_up, turned_side = self._read_turned(crops[again], (1, 2, 3))
            n = int(again.sum())
            probs[again] = (probs[again] + turned_probs.reshape(3, n, -1).sum(axis=0)) / 4
            up[again] += turned_up.reshape(3, n, 2).sum(axis=0)
            side[again] = (side[again] + turned_side.reshape(3, n).sum(axis=0)) / 4
        up = up / np.linalg.norm(up, axis=1, keepdims=True).clip(1e-6)
        return probs, refine_ups(crops, up), side.astype(np.float32)

    def _read_turned(self, crops: np.ndarray, turns: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The classifier's outputs for the crops turned by each of ``turns`` counter-clockwise
        quarter turns, in one run (turn after turn: len(turns)·K rows): probabilities, the
        up-vectors turned back (unnormalised), and the sides (NaN when the classifier has no
        side output)."""
        outputs = self._run_classifier(np.concatenate([np.rot90(crops, k, axes=(1, 2)) for k in turns]))
        probs, up = outputs["probs"], outputs["up"]
        if self.deck is not None:
            probs = self.deck.probabilities(outputs["features"])
        # each turned back clockwise by its k quarter turns (y points down)
        cos, sin = (np.repeat(np.array([_QUARTER_TURNS[k][i] for k in turns], np.float32), len(crops)) for i in (0, 1))
        up = np.stack([up[:, 0] * cos - up[:, 1] * sin, up[:, 0] * sin + up[:, 1] * cos], axis=1)
        # a corner's side is the same however the crop is turned
        side = outputs["side"].reshape(-1) if "side" in outputs else np.full(len(probs), np.nan, np.float32)
        return probs, up, side

    def _run_classifier(self, crops: np.ndarray) -> dict[str, np.ndarray]:
        """The classifier's outputs by name (``probs``, ``up``, and ``side`` and ``features``
        where the network has them) for a batch of BGR uint8 crops."""
        blob = np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32) * (1 / 255.0)
        outputs = self._classifier.run(None, {self._cls_input: blob})
        return {name: np.asarray(value, np.float32) for name, value in zip(self._cls_outputs, outputs, strict=True)}

    def crop_features(self, crops: np.ndarray) -> np.ndarray:
        """The features the class head reads (N×F) of BGR uint8 crops (what enrolment adapts on)."""
        if "features" not in self._cls_outputs:
            raise InputError("this classifier has no features output (re-export it with `tuolaji export`)")
        return self._run_classifier(crops)["features"]

    def read_indices(self, frame_bgr: np.ndarray) -> list[IndexReading]:
        """Every corner index read in the frame (rejects dropped)."""
        _check_frame(frame_bgr)
        boxes, scores = self.detect(frame_bgr)
        probs, orient, side = self.classify(frame_bgr, boxes)
        return self.readings_from(boxes, scores, probs, orient, side)

    def readings_from(self, boxes: np.ndarray, scores: np.ndarray, probs: np.ndarray,
                      orient: np.ndarray, side: np.ndarray | None = None) -> list[IndexReading]:
        """Index readings from the two models' outputs (rejects and unsure reads dropped)."""
        readings = []
        if side is None:
            side = np.full(len(boxes), np.nan, np.float32)
        for box, score, p, o, right in zip(boxes, scores, probs, orient, side, strict=True):
            k = int(p.argmax())
            if k == REJECT or p[k] < self.settings.class_threshold:
                continue
            angle = math.degrees(math.atan2(float(o[0]), float(-o[1]))) % 360
            confidence = float(p[k]) * float(score) ** self.settings.detector_weight
            cards = p[:REJECT] / max(float(p[:REJECT].sum()), 1e-9)
            cards.flags.writeable = False
            readings.append(IndexReading(CARD_NAMES[k], tuple(float(v) for v in box), confidence, angle, float(right), cards))
        return readings

    def read(self, frame_bgr: np.ndarray) -> list[CardInstance]:
        """The physical cards in a BGR frame, most confident first."""
        cards = self.cards_from(self.read_indices(frame_bgr))
        if self._face is not None:
            cards = self.with_faces(frame_bgr, cards)
        return cards

    @property
    def has_faces(self) -> bool:
        """True when whole card faces are read too (``face.onnx`` loaded)."""
        return self._face is not None

    def with_faces(self, frame_bgr: np.ndarray, cards: list[CardInstance]) -> list[CardInstance]:
        """``cards`` (read from corner indices) checked against the whole faces in the frame
        (:meth:`face_reads`, :meth:`merge_faces`)."""
        if self._face is None:
            return cards
        return self.merge_faces(cards, *self.face_reads(frame_bgr))

    def face_reads(self, frame_bgr: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
        """The outlines a card's face may fill (the whole frame, then every card outline found
        in it) and the face reader's probabilities (K×55) for each."""
        if self._face is None:
            raise InputError("no face reader loaded (models/face.onnx and face_threshold > 0)")
        h, w = frame_bgr.shape[:2]
        quads = [np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)] + card_quads(frame_bgr)
        faces = [stretch_to_face(portrait(frame_bgr))] + [warp_face(frame_bgr, q) for q in quads[1:]]
        return quads, self._face.read_both_ways(np.stack(faces))

    def merge_faces(self, cards: list[CardInstance], quads: list[np.ndarray], probs: np.ndarray) -> list[CardInstance]:
        """Index reads and face reads together. A face read surely (``face_threshold``) where
        no index was read adds its card; where one card was read from its indices, that card
        becomes the likeliest given both its indices and the face; an outline holding
        several cards (a fan, a table) is left as the indices read it."""
        threshold = self.settings.face_threshold
        cards = list(cards)
        for quad, p in zip(quads, probs, strict=True):
            k = int(p.argmax())
            if k == REJECT or p[k] < threshold:
                continue
            inside = [i for i, c in enumerate(cards) if _inside(quad, c.box)]
            if not inside:
                x1, y1 = (float(v) for v in quad.min(axis=0))
                x2, y2 = (float(v) for v in quad.max(axis=0))
                cards.append(CardInstance(CARD_NAMES[k], (x1, y1, x2, y2), float(p[k])))
            elif len(inside) == 1:
                card = cards[inside[0]]
                joint = _card_probs(card) * (p[:REJECT] / max(float(p[:REJECT].sum()), 1e-9))
                best = int(joint.argmax())
                if CARD_NAMES[best] != card.card:
                    cards[inside[0]] = CardInstance(CARD_NAMES[best], card.box, float(joint[best] / joint.sum()), card.indices)
        return sorted(cards, key=lambda c: -c.confidence)

    def cards_from(self, readings: list[IndexReading]) -> list[CardInstance]:
        """The physical cards of some index readings (grouped, the unsure ones dropped)."""
        cards = group_indices(readings, self.settings.index_spacing)
        s = self.settings
        return [c for c in cards if c.confidence >= s.card_threshold and (c.card not in JOKER_NAMES or c.confidence >= s.joker_threshold)]


def _inside(quad: np.ndarray, box: Box) -> bool:
    centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    return cv2.pointPolygonTest(quad.reshape(-1, 1, 2).astype(np.float32), centre, False) >= 0


def _card_probs(card: CardInstance) -> np.ndarray:
    """The 54 cards' probabilities of one card read from its indices (one-hot without them)."""
    probs = np.full(len(CARD_NAMES), 1e-6)
    for name, p in card.candidates(len(CARD_NAMES)):
        probs[CARD_NAMES.index(name)] = max(p, 1e-6)
    return probs


_QUARTER_TURNS = ((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0))  # (cos, sin) of k × 90°

SURE_INDEX = 0.5
"""A first-pass detector score from which an index counts as sure (see ``coarse_skip_below``)."""


def _check_frame(frame: np.ndarray) -> None:
    if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise ValueError("frame must be a BGR uint8 array of shape (H, W, 3)")


REFINE_COHERENCE = 0.15
"""Least share of the crop's gradient energy that must agree on one square orientation."""
REFINE_MAX_TURN_DEG = 25.0
"""The classifier's up-vector is moved to the crop's square orientation only if that is this close."""


def refine_up(crop_bgr: np.ndarray, up: np.ndarray) -> np.ndarray:
    """The classifier's unit up-vector, snapped to the card's edges and glyph strokes.

    A corner index shows the card's edges and upright glyph strokes, so the crop's
    gradients point along the card's axes: their four-fold orientation (angle × 4,
    weighted by gradient energy) gives the card's rotation modulo 90° to a few degrees,
    where the classifier's estimate errs by 8° (median). The snapped direction is used
    only when the gradients agree (``REFINE_COHERENCE``) and it lies within
    ``REFINE_MAX_TURN_DEG`` of the classifier's.

    >>> crop = np.full((40, 40, 3), 255, np.uint8)
    >>> crop[10:30, 18:22] = 0                      # an upright stroke
    >>> refine_up(crop, np.array([0.26, -0.97], np.float32)).round(3).tolist()   # 15° off
    [0.0, -1.0]
    """
    return refine_ups(crop_bgr[None], np.asarray(up, np.float32)[None])[0]


def refine_ups(crops_bgr: np.ndarray, ups: np.ndarray) -> np.ndarray:
    """:func:`refine_up` for a batch of crops (K×S×S×3) and up-vectors (K×2) at once."""
    ups = np.asarray(ups, np.float32)
    if len(crops_bgr) == 0:
        return ups.reshape(0, 2)
    # luma rounded as cv2.cvtColor rounds it (fixed point, 14 bits)
    weights = np.array([1868, 9617, 4899], np.int32)
    gray = ((crops_bgr.astype(np.int32) @ weights + 8192) >> 14).astype(np.float32)
    padded = np.pad(gray, ((0, 0), (1, 1), (1, 1)), mode="reflect")  # the 3×3 Sobel's own border rule
    dx = padded[:, :, 2:] - padded[:, :, :-2]
    gx = dx[:, :-2] + 2 * dx[:, 1:-1] + dx[:, 2:]
    dy = padded[:, 2:] - padded[:, :-2]
    gy = dy[:, :, :-2] + 2 * dy[:, :, 1:-1] + dy[:, :, 2:]
    energy = gx * gx + gy * gy
    total = energy.sum(axis=(1, 2))
    # energy × e^(4iθ) = (gx + i·gy)^4 / energy, without the arctangents
    cos2, sin2 = gx * gx - gy * gy, 2 * gx * gy
    inverse = np.divide(1.0, energy, out=np.zeros_like(energy), where=energy > 0)
    z_re = ((cos2 * cos2 - sin2 * sin2) * inverse).sum(axis=(1, 2))
    z_im = (2 * cos2 * sin2 * inverse).sum(axis=(1, 2))
    z = z_re + 1j * z_im
    square = np.degrees(np.angle(z) / 4)  # each card's rotation modulo 90°
    angle = np.degrees(np.arctan2(ups[:, 0], -ups[:, 1]))
    turn = (square - angle + 45) % 90 - 45
    snap = (total > 0) & (np.abs(z) >= REFINE_COHERENCE * total) & (np.abs(turn) <= REFINE_MAX_TURN_DEG)
    snapped = np.radians(angle + turn)
    out = ups.copy()
    out[snap] = np.stack([np.sin(snapped), -np.cos(snapped)], axis=1)[snap].astype(np.float32)
    return out


def nms(boxes: np.ndarray, scores: np.ndarray, iou: float) -> np.ndarray:
    """Indices of the boxes kept by greedy non-maximum suppression, best first.

    >>> b = np.array([[0, 0, 10, 10], [1, 1, 10, 10], [20, 20, 30, 30]], float)
    >>> nms(b, np.array([0.9, 0.8, 0.7]), 0.5).tolist()
    [0, 2]
    """
    x1, y1, x2, y2 = boxes.T
    areas = (x2 - x1).clip(0) * (y2 - y1).clip(0)
    order = scores.argsort()[::-1]
    keep = []
    while order.size:
        i = order[0]
        keep.append(i)
        rest = order[1:]
        w = (np.minimum(x2[i], x2[rest]) - np.maximum(x1[i], x1[rest])).clip(0)
        h = (np.minimum(y2[i], y2[rest]) - np.maximum(y1[i], y1[rest])).clip(0)
        inter = w * h
        overlap = inter / np.maximum(areas[i] + areas[rest] - inter, 1e-9)
        order = rest[overlap <= iou]
    return np.array(keep, dtype=np.int64)


# ------------------------------------------------------------ grouping

def _index_size(reading: IndexReading) -> float:
    """Side of the (unrotated) index patch, undoing the growth of a rotated axis-aligned box."""
    x1, y1, x2, y2 = reading.box
    a = math.radians(reading.angle_deg)
    grow = abs(math.cos(a)) + abs(math.sin(a))
    return max(1.0, math.sqrt(max(x2 - x1, 1.0) * max(y2 - y1, 1.0)) / grow)


def _up(reading: IndexReading) -> np.ndarray:
    a = math.radians(reading.angle_deg)
    return np.array([math.sin(a), -math.cos(a)])


def _offset(a: IndexReading, b: IndexReading) -> tuple[float, float]:
    """Where b lies in a's card frame (x to the card's right, y to its bottom), in index sizes."""
    ua = _up(a)
    size = (_index_size(a) + _index_size(b)) / 2
    d = np.subtract(b.centre, a.centre)
    right = np.array([-ua[1], ua[0]])
    return float(d @ right) / size, float(d @ -ua) / size


def _opposite_offset(a: IndexReading, b: IndexReading) -> tuple[float, float]:
    """(down, across): where b lies from a, in index sizes, in the frame of a pair of opposite
    corners (down along a's up-vector minus b's)."""
    axis = _up(a) - _up(b)
    axis /= max(float(np.linalg.norm(axis)), 1e-9)
    size = (_index_size(a) + _index_size(b)) / 2
    d = np.subtract(b.centre, a.centre)
    return float(d @ -axis) / size, float(d @ np.array([-axis[1], axis[0]])) / size


OPPOSITE_DOT = -0.65
"""Up-vectors of two corners of one card point opposite ways: their dot product is at most this
(within 50° of opposite: the classifier's directions err by 27° at the 90th percentile)."""
VERTICAL_RATIO = 0.3
"""Across / down offset below which two opposite corners are one above the other (4-corner decks).
This and ``DIAGONAL_RATIO`` were chosen by grouping F1 on the tuning set, with the detector's
boxes and the classifier's directions (true names): 0.78 with the exact windows of the decks'
geometry, 0.90 with these."""
DIAGONAL_RATIO = (0.4, 1.7)
"""Across / down offsets of diagonal corners, widened for the errors of the directions."""


def pair_kind(a: IndexReading, b: IndexReading) -> str | None:
    """"vertical" or "diagonal" when two indices can be opposite corners of one card,
    "level" when they can be its two top (or two bottom) corners, else None.

    Corner indices of one card face opposite ways (the bottom ones are printed upside
    down), and each sees the other *below* itself in the card's frame: straight below
    (top-left/bottom-left of a 4-corner deck) or down a diagonal (top-left/bottom-right).
    Fanned identical cards face the same way, so they never pair. The card's frame is
    the mean of the two readings' directions, which halves their independent errors.

    >>> a = IndexReading("7H", (0, 0, 10, 16), 0.9, 0.0)
    >>> pair_kind(a, IndexReading("7H", (40, 70, 50, 86), 0.9, 180.0))
    'diagonal'
    >>> pair_kind(a, IndexReading("7H", (15, 0, 25, 16), 0.9, 0.0)) is None
    True

    Two same-facing corners level with each other are the top corners of a 4-corner card
    only if the classifier read the left one as a left-hand corner and the right one as a
    right-hand corner (fanned identical cards show left-hand corners only):

    >>> left = IndexReading("7H", (0, 0, 10, 16), 0.9, 0.0, side=0.05)
    >>> pair_kind(left, IndexReading("7H", (40, 0, 50, 16), 0.9, 0.0, side=0.95))
    'level'
    >>> pair_kind(left, IndexReading("7H", (40, 0, 50, 16), 0.9, 0.0, side=0.1)) is None
    True
    """
    if not may_be_same_card(a, b):
        return None
    ua, ub = _up(a), _up(b)
    if float(ua @ ub) >= LEVEL_DOT:
        return "level" if _level_pair(a, b) else None
    if float(ua @ ub) > OPPOSITE_DOT:
        return None
    down, across = _opposite_offset(a, b)
    if not 1.2 <= down <= 14.0:
        return None
    ratio = abs(across) / down
    if ratio < VERTICAL_RATIO:
        return "vertical"
    if DIAGONAL_RATIO[0] <= ratio <= DIAGONAL_RATIO[1]:
        return "diagonal"
    return None


DIAGONAL_EXPECTED = 0.79
"""Across / down offset of the diagonal corners of a card: the median on the tuning set (a poker
card's index centres give about 0.76, a bridge card's 0.68)."""
VERTICAL_SPREAD = 0.12
"""The across / down offset of a vertical pair (median 0.05 on the tuning set) counts against
it in units of this ..."""
DIAGONAL_SPREAD = 0.12
"""... and a diagonal pair's distance from ``DIAGONAL_EXPECTED`` in units of this (chosen by card
F1 on the tuning set: 0.8862 by distance alone, 0.8871 with these)."""


def pair_cost(a: IndexReading, b: IndexReading, kind: str) -> float:
    """The order in which index pairs join (cheapest first): their distance in index sizes,
    plus, for opposite corners, how far their offset is from a card's.

    Two identical cards fanned side by side offer crossed pairs (the bottom corner of one
    with the top corner of the other): for 2-corner decks the crossed diagonal is even the
    shorter one, but its slope is off a card's by the fan's spread.

    >>> tl, br = IndexReading("7H", (0, 0, 10, 16), 0.9, 0.0), IndexReading("7H", (40, 70, 50, 86), 0.9, 180.0)
    >>> fanned_tl = IndexReading("7H", (18, 0, 28, 16), 0.9, 0.0)
    >>> pair_cost(tl, br, "diagonal") < pair_cost(fanned_tl, br, "diagonal")
    True
    >>> math.dist(tl.centre, br.centre) > math.dist(fanned_tl.centre, br.centre)
    True
    """
    cost = math.dist(a.centre, b.centre) / ((_index_size(a) + _index_size(b)) / 2)
    if kind in ("vertical", "diagonal"):
        down, across = _opposite_offset(a, b)
        ratio = abs(across) / max(down, 1e-9)
        cost += ratio / VERTICAL_SPREAD if kind == "vertical" else abs(ratio - DIAGONAL_EXPECTED) / DIAGONAL_SPREAD
    return cost


SAME_CARD_JOINT = 0.02
"""Two readings of different names may still be one card's corners when, for some card,
the product of their probabilities is at least this ..."""
SAME_CARD_EACH = 0.1
"""... and each gives that card at least this probability (chosen by card F1 on the tuning set)."""


def may_be_same_card(a: IndexReading, b: IndexReading) -> bool:
    """True when a and b read the same card, or (both with probabilities) could both be
    reads of one card: a blurred corner read 9♠ at 0.6 and 9♣ at 0.35 may be the other
    corner of a sharp 9♣.

    >>> p = np.zeros(54); p[CARD_NAMES.index("9S")], p[CARD_NAMES.index("9C")] = 0.6, 0.4
    >>> q = np.zeros(54); q[CARD_NAMES.index("9C")] = 1.0
    >>> a, b = IndexReading("9S", (0, 0, 10, 16), 0.6, 0.0, probs=p), IndexReading("9C", (40, 70, 50, 86), 0.9, 180.0, probs=q)
    >>> may_be_same_card(a, b), may_be_same_card(a, IndexReading("9C", (40, 70, 50, 86), 0.9, 180.0))
    (True, False)
    """
    if a.card == b.card:
        return True
    if a.probs is None or b.probs is None:
        return False
    joint = a.probs * b.probs
    k = int(joint.argmax())
    return bool(joint[k] >= SAME_CARD_JOINT and a.probs[k] >= SAME_CARD_EACH and b.probs[k] >= SAME_CARD_EACH)


def fused_card(group: tuple[IndexReading, ...]) -> str:
    """The card a group of readings of one physical card shows: the most probable one
    given all their probabilities (independent reads: the product), else the surest name.

    >>> p = np.full(54, 0.1 / 53); p[CARD_NAMES.index("9S")] = 0.9
    >>> q = np.full(54, 0.05 / 52); q[CARD_NAMES.index("9S")], q[CARD_NAMES.index("9C")] = 0.3, 0.65
    >>> fused_card((IndexReading("9C", (0, 0, 10, 16), 0.65, 0.0, probs=q), IndexReading("9S", (40, 70, 50, 86), 0.9, 180.0, probs=p)))
    '9S'
    """
    if len({r.card for r in group}) == 1 or any(r.probs is None for r in group):
        return max(group, key=lambda r: r.confidence).card
    log_p = sum(np.log(r.probs + 1e-6) for r in group)
    return CARD_NAMES[int(log_p.argmax())]


LEVEL_DOT = 0.8
"""Up-vectors of two same-facing corners: their dot product is at least this (within 37°)."""
SIDE_SURE = 0.75
"""A reading is taken for a right-hand corner at this side probability or more, for a
left-hand one at 1 minus this or less; in between (or unread: NaN) it pairs only with
opposite corners."""
LEVEL_ACROSS = (1.2, 6.0)
"""Index sizes from the left-hand to the right-hand top corner of a 4-corner card."""
LEVEL_SLOPE = 0.3
"""Most drop (down / across, in the pair's mean frame) between two level corners."""


def _level_pair(a: IndexReading, b: IndexReading) -> bool:
    """True when a and b (same-facing) are a left-hand and a right-hand corner, level, the
    right-hand one a card's width to the right of the other."""
    if a.side <= 1 - SIDE_SURE and b.side >= SIDE_SURE:
        left, right = a, b
    elif b.side <= 1 - SIDE_SURE and a.side >= SIDE_SURE:
        left, right = b, a
    else:
        return False
    up = _up(left) + _up(right)
    up /= max(float(np.linalg.norm(up)), 1e-9)
    size = (_index_size(left) + _index_size(right)) / 2
    d = np.subtract(right.centre, left.centre)
    across = float(d @ np.array([-up[1], up[0]])) / size
    down = float(d @ -up) / size
    return LEVEL_ACROSS[0] <= across <= LEVEL_ACROSS[1] and abs(down) <= LEVEL_SLOPE * across


def _one_card(a: IndexReading, b: IndexReading) -> bool:
    """False when a and b cannot be two corners of one card: read as cards neither could be
    (:func:`may_be_same_card`), facing across each other, or facing opposite ways where no
    opposite corners could lie.

    Read corner sides only ever join corners (:func:`_level_pair`), never part them: one
    misread side must not split a whole card in two.
    """
    return may_be_same_card(a, b) and (float(_up(a) @ _up(b)) >= LEVEL_DOT or pair_kind(a, b) is not None)


def _fanned_apart(a: IndexReading, b: IndexReading, card_height: float) -> bool:
    """True when a and b face the same way but cannot be two top (or bottom) corners of one
    card ``card_height`` index sizes tall: closer than a card's width, or one below the other."""
    if float(_up(a) @ _up(b)) < 0.8:
        return False
    dx, dy = _offset(a, b)
    return abs(dx) < 0.55 * card_height or abs(dy) > 0.4 * card_height


def _index_between(a: IndexReading, b: IndexReading, readings: list[IndexReading]) -> bool:
    """True when a and b face the same way and another index facing that way lies between them.

    Two same-facing corners of one card (top-left and top-right of a 4-corner deck) have
    the card's edge between them; an index of another card there would lie on top of
    that edge, and the card laid over it (``docs/TABLE.md``: fans overlap to the right) hides
    the far corner. So of three fanned identical cards, the outer two never pair. Only a
    reading at least half as sure as the less sure of a and b counts (a pip misread as an
    index must not split a card).
    """
    if float(_up(a) @ _up(b)) < 0.8:
        return False
    start, end = np.array(a.centre), np.array(b.centre)
    span = end - start
    length2 = float(span @ span)
    if length2 <= 0:
        return False
    size = (_index_size(a) + _index_size(b)) / 2
    least = 0.5 * min(a.confidence, b.confidence)
    for r in readings:
        if r is a or r is b or r.confidence < least or float(_up(r) @ _up(a)) < 0.8:
            continue
        d = np.array(r.centre) - start
        t = float(d @ span) / length2
        if 0.15 < t < 0.85 and abs(float(d[0] * span[1] - d[1] * span[0])) / math.sqrt(length2) < size:
            return True
    return False


DUPLICATE_OVERLAP = 0.55
"""Two same-named, same-facing readings whose boxes share this much of the smaller one are one index."""


def _overlap_of_smaller(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return w * h / max(smaller, 1e-9)


def drop_duplicate_reads(readings: list[IndexReading], spacing: float = 0.0) -> list[IndexReading]:
    """The readings without second detections of one index (most confident kept).

    The detector sometimes boxes one index twice (the rank alone and rank + suit) with
    too little overlap for NMS; both read the same card the same way up. Fanned
    identical cards leave each index visible (``docs/TABLE.md``), so theirs overlap less.
    ``spacing`` > 0 also takes same-named, same-facing readings whose centres are closer
    than that many index sizes for one index: on a table laid by ``docs/TABLE.md`` no two
    visible indices are closer than an index's width.

    >>> a = IndexReading("7H", (0, 0, 10, 16), 0.9, 0.0)
    >>> len(drop_duplicate_reads([a, IndexReading("7H", (1, 3, 10, 20), 0.8, 5.0)]))
    1
    >>> len(drop_duplicate_reads([a, IndexReading("7H", (8, 0, 18, 16), 0.8, 0.0)]))
    2
    >>> len(drop_duplicate_reads([a, IndexReading("7H", (6, 0, 16, 16), 0.3, 0.0)], spacing=0.75))
    1
    """
    kept: list[IndexReading] = []
    for reading in sorted(readings, key=lambda r: -r.confidence):
        if not any(k.card == reading.card and float(_up(k) @ _up(reading)) > 0.7
                   and (_overlap_of_smaller(k.box, reading.box) >= DUPLICATE_OVERLAP
                        or math.dist(k.centre, reading.centre) < spacing * (_index_size(k) + _index_size(reading)) / 2)
                   for k in kept):
            kept.append(reading)
    return kept


def group_indices(readings: list[IndexReading], spacing: float = 0.0) -> list[CardInstance]:
    """Group index readings into physical cards, nearest plausible pairs first.

    A card's name is the most probable one given all its readings (:func:`fused_card`),
    its confidence that at least one of them read it right.

    Each index takes at most one "vertical" and one "diagonal" partner, so of two
    identical fanned cards the top one's bottom index pairs with its own (nearer) top
    index, and the covered card stays a card of its own.

    >>> tl = IndexReading("7H", (0, 0, 10, 16), 0.9, 0.0)
    >>> br = IndexReading("7H", (40, 70, 50, 86), 0.8, 180.0)
    >>> fan = IndexReading("7H", (-15, 0, -5, 16), 0.9, 0.0)
    >>> sorted(len(c.indices) for c in group_indices([tl, br, fan]))
    [1, 2]
    """
    readings = drop_duplicate_reads(readings, spacing)
    n = len(readings)
    parent = list(range(n))
    size = [1] * n

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    candidates = []
    for i in range(n):
        for j in range(i + 1, n):
            kind = pair_kind(readings[i], readings[j])
            if kind is not None:
                candidates.append((pair_cost(readings[i], readings[j], kind), kind, i, j))
    candidates.sort()
    members: dict[int, list[int]] = {i: [i] for i in range(n)}
    heights: dict[int, float] = {}  # a group's card height (index sizes), known once opposite corners joined it
    taken: set[tuple[int, str]] = set()
    for _dist, kind, i, j in candidates:
        if (i, kind) in taken or (j, kind) in taken:
            continue
        ri, rj = find(i), find(j)
        if ri != rj:
            if size[ri] + size[rj] > 4:
                continue
            if kind == "level":
                height = heights.get(ri, heights.get(rj))
            else:
                height = (_offset(readings[i], readings[j])[1] + _offset(readings[j], readings[i])[1]) / 2
            if any(not _one_card(readings[p], readings[q])
                   or (height is not None and _fanned_apart(readings[p], readings[q], height))
                   or _index_between(readings[p], readings[q], readings)
                   for p in members[ri] for q in members[rj]):
                continue
            parent[rj] = ri
            size[ri] += size[rj]
            members[ri] += members.pop(rj)
            if height is not None:
                heights[ri] = height
        taken.add((i, kind))
        taken.add((j, kind))
    groups: dict[int, list[IndexReading]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(readings[i])
    cards = []
    for members in groups.values():
        group = tuple(sorted(members, key=lambda r: -r.confidence))
        card = fused_card(group)
        miss = 1.0
        for r in group:
            miss *= 1.0 - r.confidence_as(card)
        box = (min(r.box[0] for r in group), min(r.box[1] for r in group),
               max(r.box[2] for r in group), max(r.box[3] for r in group))
        cards.append(CardInstance(card, box, 1.0 - miss, group))
    cards.sort(key=lambda c: -c.confidence)
    return cards


def update_cards_json(models_dir: str | Path | None = None, *, reader: dict | None = None,
                      metrics: dict | None = None, **fields: object) -> Path:
    """Merge ``reader`` settings, ``metrics`` and top-level ``fields`` into ``cards.json``
    (of ``models_dir``, default the shipped models); returns its path."""
    path = (Path(models_dir) if models_dir is not None else MODELS_DIR) / "cards.json"
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    if reader:
        data.setdefault("reader", {}).update(reader)
    if metrics:
        data.setdefault("metrics", {}).update(metrics)
    data.update(fields)
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return path


def _read_meta(path: Path) -> dict:
    """``cards.json`` through the safe JSON reader (an object, or InputError naming the file)."""
    from scorer import safejson

    meta = safejson.loads(path.read_bytes(), str(path))
    if not isinstance(meta, dict) or not isinstance(meta.get("reader", {}), dict):
        raise InputError(f"{path}: expected an object with a \"reader\" object")
    return meta


def _quiet_opencv() -> None:
    try:
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_FATAL)  # errors are reported by us
    except AttributeError:
        pass


def read_image_file(path: str | Path) -> np.ndarray:
    """Decode an image file to BGR, or raise InputError naming the file."""
    from vision.inputs import read_image_bytes

    p = Path(path)
    if not p.exists():
        raise OSError(2, "No such file or directory", str(p))
    if p.is_dir():
        raise InputError(f"{p}: a folder, not an image")
    data = read_image_bytes(p)  # the header's size is checked before anything is decoded
    _quiet_opencv()  # a broken file is our one line, not OpenCV's warnings besides it
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise InputError(f"{p}: cannot decode image")
    return image


__all__ = ["CARD_NAMES", "CAREFUL", "CROP_PX", "FAST", "JOKER_NAMES", "MODELS_DIR", "REJECT", "TABLE", "CardInstance", "CardReader", "IndexReading", "ReaderSettings", "group_indices", "nms",
           "read_image_file", "reader_preset", "refine_up", "refine_ups", "update_cards_json"]
