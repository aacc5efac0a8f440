"""The card reader on ONNX Runtime: its settings (:class:`ReaderSettings` and the presets),
and :class:`CardReader`, which runs the detector and the classifier (and the face reader) on a
frame and hands the index readings to :mod:`vision.grouping`.
"""

from __future__ import annotations

import itertools
import logging
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

import cv2
import numpy as np

from tuolaji.models import MODELS_DIR
from tuolaji.scorer.cards import CARD_NAMES
from tuolaji.scorer.errors import InputError
from tuolaji.vision.cardcrop import CROP_PX, classifier_blob, crop_index, crop_restacked
from tuolaji.vision.cards_json import read_cards_json
from tuolaji.vision.classes import JOKER_NAMES, REJECT, check_classes
from tuolaji.vision.decks import INDEX_LAYOUTS, DeckHead, check_deck_fits, classifier_fingerprint
from tuolaji.vision.face import FaceReader, card_quads, portrait, stretch_to_face, warp_face, within_outline
from tuolaji.vision.grouping import fanned_side_by_side, group_indices, index_size, nms
from tuolaji.vision.model_check import KernelCheck, checked_session, load_check, session_options
from tuolaji.vision.orientation import refine_ups
from tuolaji.vision.outlines import cards_on_outline, join_on_outlines, one_card
from tuolaji.vision.readings import Box, CardInstance, IndexReading, as_box, union_box

if TYPE_CHECKING:
    from onnxruntime import InferenceSession

log = logging.getLogger(__name__)


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
    face_guess_threshold: float = 0.0  # > 0: a card outline with nothing read in it, its face at least this likely a
    # card's (any card), gives its face's likeliest card as a guess (confidence at most GUESS_CONFIDENCE: a person names it)
    small_index_px: float = 0.0  # > 0: a card whose corner indices are all shorter than this (frame px) ...
    small_card_threshold: float = 0.0  # ... counts from this confidence instead of card_threshold (small indices read less surely)
    small_reader_px: float = 0.0  # > 0: index boxes whose longest side is under this (frame px) are also read by the
    # small-index specialist (classifier_small.onnx, where shipped; never with an enrolled deck) ...
    small_reader_weight: float = 1.0  # ... its probabilities weighing this much against the classifier's (1: its read alone)
    restack_below: float = 0.0  # > 0: an index read less surely than this is also read as if its suit stood beside its
    # rank (cardcrop.crop_restacked), and that read kept where it is surer
    index_layout: str = "vertical"  # "horizontal": the deck prints its suits beside the ranks, and every index is read
    # so (a joker's column, which such decks print as the others do, as it stands) unless the classifier learnt them
    learnt_layouts: str = "vertical"  # the index layouts the classifier was trained to read as they lie (comma-separated):
    # a layout reader (LAYOUT_READERS) reads its layout's indices without rearranging them


class ReaderOverrides(TypedDict, total=False):
    """Settings that replace those of ``cards.json`` (:meth:`CardReader.load`'s ``**overrides``):
    any of :class:`ReaderSettings`'s fields."""

    input_width: int
    input_height: int
    detect_threshold: float
    nms_iou: float
    class_threshold: float
    card_threshold: float
    detector_weight: float
    max_indices: int
    classify_turns: int
    reread_below: float
    coarse_scale: float
    coarse_min_index: float
    coarse_skip_below: float
    index_spacing: float
    max_upscale: float
    joker_threshold: float
    face_threshold: float
    face_guess_threshold: float
    small_index_px: float
    small_card_threshold: float
    small_reader_px: float
    small_reader_weight: float
    restack_below: float
    index_layout: str
    learnt_layouts: str


CAREFUL: ReaderOverrides = {"classify_turns": 4}
"""Reader settings for reads that may take longer: every index read four ways
(``tuolaji detect --careful``)."""

FAST: ReaderOverrides = {"input_width": 448, "input_height": 336, "reread_below": 0.0}
"""Reader settings for the quickest reads: frames at 0.7 scale (the detector's training
scale), every index read once (``tuolaji detect --fast``): about a quarter less time,
fewer of the smallest cards."""


def reader_preset(careful: bool = False, fast: bool = False) -> ReaderOverrides:
    """The settings of ``--careful`` or ``--fast`` (never both: a ValueError)."""
    if careful and fast:
        raise ValueError("--careful and --fast exclude each other")
    return CAREFUL.copy() if careful else FAST.copy() if fast else {}

TABLE: ReaderOverrides = {**CAREFUL, "index_spacing": 0.75, "face_guess_threshold": 0.5}
"""Reader settings of the table pipeline: it reads only when a zone has settled, so it
reads carefully, and the table is laid by ``docs/TABLE.md`` (every index of a fan visible),
so two same-named indices closer than 0.75 index sizes are one. Whole faces are read as
``cards.json`` says (a card lying alone in a zone shows its face); a card outline in which
nothing could be read, but whose face is more likely a card's than not, is still a card played,
so its face's likeliest card is kept as a guess (``face_guess_threshold``) that the pipeline
marks unconfirmed, rather than a play lost."""

LAYOUT_READERS = {"horizontal": "horizontal"}
"""Sub-folders of a models folder with a reader of their own for decks of one index layout: a deck
printing its suits beside its ranks (``index_layout`` "horizontal", told or found by enrolment) is
read by ``models/horizontal/`` where it exists, networks trained on such indices (how:
models/README.md), rather than by the shipped networks reading each index rearranged."""

SMALL_CLASSIFIER_FILE = "classifier_small.onnx"
"""The small-index specialist: a copy of the classifier trained only on indices read at under
18 px (``small_reader_px``; how it was made: models/README.md)."""

GUESS_CONFIDENCE = 0.5
"""The most a guessed card (``face_guess_threshold``) is reported sure of: below the table
pipeline's ``min_confidence`` (:data:`vision.tracking.MIN_CONFIDENCE`, 0.55), so a person confirms it."""


class CardReader:
    """Reads the cards in a BGR frame. Create with :meth:`load`; :meth:`read` is thread-compatible
    (one reader per thread)."""

    def __init__(self, detector: InferenceSession, classifier: InferenceSession, settings: ReaderSettings,
                 deck: DeckHead | None = None, face: FaceReader | None = None,
                 small_classifier: InferenceSession | None = None) -> None:
        self._detector = detector
        self._face = face
        self.kernel_checks: tuple[KernelCheck, ...] = ()  # how the classifiers read on this CPU (vision.model_check)
        self.folder: Path | None = None  # the models folder it was loaded from (a layout reader's own, LAYOUT_READERS)
        self._classifier = classifier
        self._small = small_classifier
        self._small_outputs = [o.name for o in small_classifier.get_outputs()] if small_classifier is not None else []
        self._small_input = small_classifier.get_inputs()[0].name if small_classifier is not None else ""
        self.settings = settings
        self._cls_outputs = [o.name for o in classifier.get_outputs()]
        if deck is not None and "features" not in self._cls_outputs:
            raise InputError("reader.deck_features", deck=deck.name)
        self.deck = deck
        self._det_input = detector.get_inputs()[0].name
        # a detector exported with a fixed input reads at that size (width, height), whatever the
        # settings say; one with dynamic height and width (None) also reads portrait frames upright
        shape = detector.get_inputs()[0].shape[2:]
        self._det_fixed = tuple(int(d) for d in shape[::-1]) if all(isinstance(d, int) for d in shape) else None
        self._cls_input = classifier.get_inputs()[0].name

    @staticmethod
    def load(models_dir: str | Path | None = None, threads: int = 2, deck: DeckHead | None = None,
             **overrides: float | str) -> CardReader:
        """Load ``detector.onnx``, ``classifier.onnx`` and ``cards.json`` from ``models_dir``.

        ``overrides`` replace settings of ``cards.json`` (for instance ``**CAREFUL``);
        ``deck`` (from :func:`vision.decks.load_deck`) reads the cards of an enrolled deck.
        """
        import onnxruntime as ort

        folder = Path(models_dir) if models_dir is not None else MODELS_DIR
        meta_path = folder / "cards.json"
        meta = read_cards_json(meta_path) if meta_path.exists() else {}
        check_classes(meta, str(meta_path))
        known = ReaderSettings.__dataclass_fields__
        chosen = {k: v for k, v in meta.get("reader", {}).items() if k in known}
        unknown = set(overrides) - set(known)
        if unknown:
            raise TypeError(f"unknown reader settings: {sorted(unknown)}")
        if deck is not None and deck.index_layout != "vertical" and "index_layout" not in overrides:
            chosen["index_layout"] = deck.index_layout  # the deck's corners, as its enrolment found them
        settings = ReaderSettings(**{**chosen, **overrides})
        if settings.index_layout not in INDEX_LAYOUTS:
            raise ValueError(f"index_layout must be one of {INDEX_LAYOUTS}, not {settings.index_layout!r}")
        layout_folder = layout_reader_folder(folder, settings.index_layout, deck)
        if layout_folder is not None:
            return CardReader.load(layout_folder, threads, deck, **{**overrides, "index_layout": settings.index_layout})
        options = session_options(threads)
        names = ["detector.onnx", "classifier.onnx"]
        with_face = settings.face_threshold > 0 and model_file(folder, "face.onnx").exists()
        if with_face:
            names.append("face.onnx")
        # an enrolled deck's head reads the classifier's own features: the specialist is left out
        if settings.small_reader_px > 0 and deck is None and (folder / SMALL_CLASSIFIER_FILE).exists():
            names.append(SMALL_CLASSIFIER_FILE)
        sessions = []
        for name in names:
            path = model_file(folder, name)
            if not path.exists():
                raise OSError(2, "No such file or directory", str(path))
            try:
                sessions.append(ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"]))
            except Exception as exc:  # noqa: BLE001 - onnxruntime's errors (InvalidProtobuf, Fail…) have no common base
                first = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else type(exc).__name__
                raise InputError("reader.onnx", path=str(path), problem=first) from None
        if deck is not None:
            check_deck_fits(deck, folder / "classifier.onnx")
        # the classifiers read as their reference reads on this CPU, or through the reference path
        check = load_check(folder)
        kernel_checks = []
        for k, name in enumerate(names):
            if name in ("classifier.onnx", SMALL_CLASSIFIER_FILE):
                sessions[k], result = checked_session(folder / name, sessions[k], threads, check)
                kernel_checks.append(result)
                if result.reference_kernels:
                    log.warning("card reader: %s", result.note)
        face = FaceReader(sessions[2]) if with_face else None
        small = sessions[-1] if names[-1] == SMALL_CLASSIFIER_FILE else None
        reader = CardReader(sessions[0], sessions[1], settings, deck, face, small)
        reader.kernel_checks = tuple(kernel_checks)
        reader.folder = folder
        return reader

    # ------------------------------------------------------------ stages

    def detect(self, frame_bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Index boxes (K×4, frame pixels) and scores (K) after NMS.

        Two passes: the frame at the detector's scale, and (``coarse_scale``) at a fraction
        of it, from which only indices at least ``coarse_min_index`` pixels long at the
        first scale are kept — close-up photos put indices far larger than the detector
        was trained on, and it misses most of them at its own scale (figures: models/README.md).
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
        index is left for the coarse pass (how often it holds: models/README.md, "Coarse pass")."""
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
        than that are read the other three ways. With the small-index specialist loaded, the
        boxes shorter than ``small_reader_px`` are read by it too (``small_reader_weight``).
        """
        if len(boxes) == 0:
            return np.zeros((0, REJECT + 1), np.float32), np.zeros((0, 2), np.float32), np.zeros(0, np.float32)
        crops = np.stack([crop_index(frame_bgr, tuple(b)) for b in boxes])
        chosen = np.zeros(len(boxes), bool)
        if self._small is not None:
            chosen = np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]) < self.settings.small_reader_px
        w = self.settings.small_reader_weight
        by_classifier = ~chosen if w >= 1 else np.ones(len(boxes), bool)  # the specialist alone: no need to read them twice
        probs = np.zeros((len(boxes), REJECT + 1), np.float32)
        up = np.zeros((len(boxes), 2), np.float32)
        side = np.full(len(boxes), np.nan, np.float32)
        if by_classifier.any():
            probs[by_classifier], up[by_classifier], side[by_classifier] = self._read_crops(crops[by_classifier], small=False)
        if chosen.any():
            small_probs, small_up, small_side = self._read_crops(crops[chosen], small=True)
            if w < 1:  # the classifier read these crops too (by_classifier is every crop)
                small_probs = w * small_probs + (1 - w) * probs[chosen]
                small_up = w * small_up + (1 - w) * up[chosen]
                small_side = w * small_side + (1 - w) * side[chosen]
            probs[chosen] = small_probs
            up[chosen] = small_up / np.linalg.norm(small_up, axis=1, keepdims=True).clip(1e-6)
            side[chosen] = small_side
        up = refine_ups(crops, up)
        if self.settings.index_layout == "horizontal" and "horizontal" not in self.settings.learnt_layouts.split(","):
            self._reread_restacked(frame_bgr, boxes, chosen, probs, up, side, np.ones(len(boxes), bool))
        elif self.settings.restack_below > 0:
            unsure = probs[:, :REJECT].max(axis=1) < self.settings.restack_below
            self._reread_restacked(frame_bgr, boxes, chosen, probs, up, side, unsure)
        return probs, up, side

    def _reread_restacked(self, frame_bgr: np.ndarray, boxes: np.ndarray, chosen: np.ndarray,
                          probs: np.ndarray, up: np.ndarray, side: np.ndarray, which: np.ndarray) -> None:
        """Read the indices ``which`` again as indices with the suit beside the rank
        (:func:`vision.cardcrop.crop_restacked`), each by the network that read it, and keep that
        read in ``probs`` and ``side`` where it names a card more surely, and its up-vector (turned back
        into the frame) with it, or with ``index_layout`` "horizontal" unless the first read is a surer
        joker (a horizontal deck's indices all lie as their rearranged reads say)."""
        every = self.settings.index_layout == "horizontal"
        for small in (False, True):
            rows = np.flatnonzero(which & (chosen == small))
            if len(rows) == 0:
                continue
            _crops, again, again_up, again_side = self._rearranged(frame_bgr, boxes[rows], up[rows], small)
            surer = again[:, :REJECT].max(axis=1) > probs[rows, :REJECT].max(axis=1)
            turned = surer | ~np.isin(probs[rows].argmax(axis=1), list(_JOKER_IDS)) if every else surer
            for row, k in enumerate(rows):
                if turned[row]:
                    angle = math.atan2(up[k, 1], up[k, 0]) + math.pi  # the turn crop_restacked made, undone
                    x, y = again_up[row]
                    up[k] = (x * math.cos(angle) - y * math.sin(angle), x * math.sin(angle) + y * math.cos(angle))
                if surer[row]:
                    probs[k], side[k] = again[row], again_side[row]

    def _rearranged(self, frame_bgr: np.ndarray, boxes: np.ndarray, ups: np.ndarray, small: bool = False
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The crops of ``boxes`` rearranged (:func:`vision.cardcrop.crop_restacked`, from the
        classifier's up-vectors ``ups`` of their plain crops), each stacked as the network (``small``: the
        specialist) reads more surely, and that network's probabilities, up-vectors and sides of them."""
        n = len(boxes)
        crops = np.stack([crop_restacked(frame_bgr, tuple(box), (float(u[0]), float(u[1])), rank_first=first)
                          for first in (True, False) for box, u in zip(boxes, ups, strict=True)])
        probs, up, side = self._read_crops(crops, small=small)
        mirrored = probs[n:, :REJECT].max(axis=1) > probs[:n, :REJECT].max(axis=1)  # the surer of the two stackings
        return tuple(np.where(mirrored.reshape((n,) + (1,) * (v.ndim - 1)), v[n:], v[:n])  # type: ignore[return-value]
                     for v in (crops, probs, up, side))

    def rearranged_crops(self, frame_bgr: np.ndarray, boxes: np.ndarray, ups: np.ndarray) -> np.ndarray:
        """The classifier crops of ``boxes`` read as indices with the suit beside the rank (what a reader
        with ``index_layout`` "horizontal" reads), from the up-vectors ``ups`` that :meth:`classify`
        gave their plain crops with ``index_layout`` "vertical": what enrolment teaches a horizontal deck's
        head with."""
        if len(boxes) == 0:
            return np.zeros((0, CROP_PX, CROP_PX, 3), np.uint8)
        return self._rearranged(frame_bgr, np.asarray(boxes, np.float32), np.asarray(ups, np.float32))[0]

    def _read_crops(self, crops: np.ndarray, small: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """One network's probabilities, unit up-vectors and sides of ``crops`` (the classifier's,
        or with ``small`` the specialist's), with the rereads :meth:`classify` describes."""
        probs, up, side = self._read_turned(crops, (0,), small)
        again = np.ones(len(crops), bool) if self.settings.classify_turns >= 4 else probs.max(axis=1) < self.settings.reread_below
        if again.any():
            turned_probs, turned_up, turned_side = self._read_turned(crops[again], (1, 2, 3), small)
            n = int(again.sum())
            probs[again] = (probs[again] + turned_probs.reshape(3, n, -1).sum(axis=0)) / 4
            up[again] += turned_up.reshape(3, n, 2).sum(axis=0)
            side[again] = (side[again] + turned_side.reshape(3, n).sum(axis=0)) / 4
        return probs, up / np.linalg.norm(up, axis=1, keepdims=True).clip(1e-6), side

    def _read_turned(self, crops: np.ndarray, turns: tuple[int, ...], small: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The classifier's (``small``: the specialist's) outputs for the crops turned by each of
        ``turns`` counter-clockwise quarter turns, in one run (turn after turn: len(turns)·K rows):
        probabilities, the up-vectors turned back (unnormalised), and the sides (NaN when the
        network has no side output)."""
        outputs = self._run_classifier(np.concatenate([np.rot90(crops, k, axes=(1, 2)) for k in turns]), small)
        probs, up = outputs["probs"], outputs["up"]
        if self.deck is not None and not small:
            probs = self.deck.probabilities(outputs["features"])
        # each turned back clockwise by its k quarter turns (y points down)
        cos, sin = (np.repeat(np.array([_QUARTER_TURNS[k][i] for k in turns], np.float32), len(crops)) for i in (0, 1))
        up = np.stack([up[:, 0] * cos - up[:, 1] * sin, up[:, 0] * sin + up[:, 1] * cos], axis=1)
        # a corner's side is the same however the crop is turned
        side = outputs["side"].reshape(-1) if "side" in outputs else np.full(len(probs), np.nan, np.float32)
        return probs, up, side

    def _run_classifier(self, crops: np.ndarray, small: bool = False) -> dict[str, np.ndarray]:
        """The classifier's (``small``: the specialist's) outputs by name (``probs``, ``up``, and
        ``side`` and ``features`` where the network has them) for a batch of BGR uint8 crops."""
        blob = classifier_blob(crops)
        session, feed, names = ((self._small, self._small_input, self._small_outputs) if small
                                else (self._classifier, self._cls_input, self._cls_outputs))
        assert session is not None  # the specialist is asked only where it is loaded
        outputs = session.run(None, {feed: blob})
        return {name: np.asarray(value, np.float32) for name, value in zip(names, outputs, strict=True)}

    @property
    def has_small_reader(self) -> bool:
        """True when small indices are also read by the small-index specialist (``classifier_small.onnx``)."""
        return self._small is not None

    def crop_features(self, crops: np.ndarray) -> np.ndarray:
        """The features the class head reads (N×F) of BGR uint8 crops (what enrolment adapts on)."""
        if "features" not in self._cls_outputs:
            raise InputError("reader.features")
        return self._run_classifier(crops)["features"]

    def read_indices(self, frame_bgr: np.ndarray) -> list[IndexReading]:
        """Every corner index read in the frame (rejects dropped)."""
        _check_frame(frame_bgr)
        boxes, scores = self.detect(frame_bgr)
        probs, orient, side = self.classify(frame_bgr, boxes)
        if self._wide:
            boxes, scores, probs, orient, side = self.join_split_index(frame_bgr, boxes, scores, probs, orient, side)
            boxes, scores, probs, orient, side = self.split_fanned_pairs(frame_bgr, boxes, scores, probs, orient, side)
        return self.readings_from(boxes, scores, probs, orient, side)

    def join_split_index(self, frame_bgr: np.ndarray, boxes: np.ndarray, scores: np.ndarray, probs: np.ndarray,
                         orient: np.ndarray, side: np.ndarray) -> tuple[np.ndarray, ...]:
        """The index boxes (with their scores and the classifier's outputs) where two boxes that read
        unsurely (under :data:`SPLIT_UNSURE`, or as no index) lie end to end as the two parts of one
        wide index would (:func:`_end_to_end`: a deck printing its suits beside its ranks; a "10♠" is
        three glyphs long, and the detector may box its "10" and its "0♠" apart) read again as one box
        around both: where that reads one card (not a joker) at least :data:`SPLIT_UNSURE` and surer
        than either part, it replaces them, with the surer part's score."""
        unsure = [k for k in range(len(boxes))
                  if int(probs[k].argmax()) == REJECT or float(probs[k].max()) < SPLIT_UNSURE]
        pairs = [(a, b) for i, a in enumerate(unsure) for b in unsure[i + 1:] if _end_to_end(as_box(boxes[a]), as_box(boxes[b]))]
        if not pairs:
            return boxes, scores, probs, orient, side
        joined = np.array([union_box([as_box(boxes[a]), as_box(boxes[b])]) for a, b in pairs], np.float32)
        joined_probs, joined_orient, joined_side = self.classify(frame_bgr, joined)
        used: set[int] = set()
        keep = np.ones(len(boxes), bool)
        added: list[int] = []
        for n in sorted(range(len(pairs)), key=lambda n: -float(joined_probs[n][:REJECT].max())):
            a, b = pairs[n]
            card = int(joined_probs[n].argmax())
            sure = float(joined_probs[n][card])
            if a in used or b in used or card == REJECT or card in _JOKER_IDS or sure < SPLIT_UNSURE \
                    or sure <= max(float(probs[a][:REJECT].max()), float(probs[b][:REJECT].max())):
                continue
            used |= {a, b}
            keep[[a, b]] = False
            added.append(n)
        if not added:
            return boxes, scores, probs, orient, side
        best = [max(pairs[n], key=lambda k: float(scores[k])) for n in added]
        return (np.concatenate([boxes[keep], joined[added]]), np.concatenate([scores[keep], scores[best]]),
                np.concatenate([probs[keep], joined_probs[added]]), np.concatenate([orient[keep], joined_orient[added]]),
                np.concatenate([side[keep], joined_side[added]]))

    def split_fanned_pairs(self, frame_bgr: np.ndarray, boxes: np.ndarray, scores: np.ndarray, probs: np.ndarray,
                           orient: np.ndarray, side: np.ndarray) -> tuple[np.ndarray, ...]:
        """The index boxes (with their scores and the classifier's outputs) with each box too long
        for one wide index (:data:`WIDE_TWO_INDICES`; a deck printing its suits beside its ranks)
        read again as its two halves along its length (:func:`_two_indices`: where another index read
        lies at one end of it, that index and the rest): where both halves read one card (not a
        joker), each at least ``class_threshold`` surely, they are two indices of it, boxed as one by
        the detector (identical cards fanned side by side; the whole box, two indices, reads as
        whatever it likes), and replace it with the whole box's score. A box read as a joker is
        never split: its JOKER column is long by design."""
        named = probs[:, :REJECT].argmax(axis=1) if len(probs) else np.zeros(0, np.int64)
        long = [k for k in range(len(boxes)) if int(probs[k].argmax()) != REJECT and int(named[k]) not in _JOKER_IDS
                and _length_ratio(as_box(boxes[k])) >= WIDE_TWO_INDICES]
        if not long:
            return boxes, scores, probs, orient, side
        sure = [j for j in range(len(boxes)) if int(probs[j].argmax()) != REJECT and float(probs[j].max()) >= self.settings.class_threshold]
        halves = np.array([half for k in long for half in _two_indices(as_box(boxes[k]), [as_box(boxes[j]) for j in sure if j != k])],
                          np.float32)
        half_probs, half_orient, half_side = self.classify(frame_bgr, halves)
        rows: list[list[int]] = [[k] for k in range(len(boxes))]  # each row's source: a box, or -1 - a half
        for n, k in enumerate(long):
            first, second = half_probs[2 * n], half_probs[2 * n + 1]
            card = int(first.argmax())
            if card == int(second.argmax()) and card not in _JOKER_IDS and card != REJECT \
                    and min(float(first[card]), float(second[card])) >= self.settings.class_threshold:
                rows[k] = [-1 - 2 * n, -2 - 2 * n]
        order = [source for row in rows for source in row]

        def pick(whole: np.ndarray, half: np.ndarray) -> np.ndarray:
            return np.stack([whole[i] if i >= 0 else half[-1 - i] for i in order])

        scores_out = np.array([scores[i] if i >= 0 else scores[long[(-1 - i) // 2]] for i in order], np.float32)
        return (pick(boxes, halves), scores_out, pick(probs, half_probs), pick(orient, half_orient), pick(side, half_side))

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
            cards = _card_share(p)
            readings.append(IndexReading(CARD_NAMES[k], as_box(box), confidence, angle, float(right), cards))
        return readings

    def read(self, frame_bgr: np.ndarray) -> list[CardInstance]:
        """The physical cards in a BGR frame, most confident first: the corner indices on one
        card outline counted as one card (:func:`vision.outlines.join_on_outlines`), then
        checked against the whole faces (:meth:`with_faces`)."""
        readings = self.read_indices(frame_bgr)
        quads = card_quads(frame_bgr) if readings or self.has_faces else []
        return self.with_faces(frame_bgr, self.cards_from(readings, quads), quads)

    @property
    def has_faces(self) -> bool:
        """True when whole card faces are read too (``face.onnx`` loaded)."""
        return self._face is not None

    def with_faces(self, frame_bgr: np.ndarray, cards: list[CardInstance],
                   quads: list[np.ndarray] | None = None) -> list[CardInstance]:
        """``cards`` (read from corner indices) checked against the whole faces in the frame
        (:meth:`face_reads`, :meth:`merge_faces`; ``quads``: its card outlines, when found already)."""
        if self._face is None or self.settings.face_threshold <= 0:
            return cards
        return self.merge_faces(cards, *self.face_reads(frame_bgr, cards, quads))

    def face_reads(self, frame_bgr: np.ndarray, cards: list[CardInstance] | None = None,
                   quads: list[np.ndarray] | None = None) -> tuple[list[np.ndarray], np.ndarray]:
        """The outlines a card's face may fill (the whole frame, then every card outline found
        in it, or ``quads`` where given) and the face reader's probabilities (K×55) for each. Given
        the ``cards`` read from corners, outlines holding two or more different cards (a fan, a
        table: :meth:`merge_faces` leaves those to the corners) are not read, unless those cards'
        indices lie in its corners, one in each (one card's corners read differently)."""
        if self._face is None:
            raise InputError("reader.no_face")
        h, w = frame_bgr.shape[:2]
        outlines = [(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32), True)]
        outlines += [(quad, False) for quad in (card_quads(frame_bgr) if quads is None else quads)]
        if cards is not None:
            outlines = [(q, whole) for q, whole in outlines
                        if len({c.card for c in cards if _inside(q, c.box)}) < 2 or _one_card_outline(q, cards, self._wide)]
        if not outlines:
            return [], np.zeros((0, REJECT + 1), np.float32)
        faces = [stretch_to_face(portrait(frame_bgr)) if whole else warp_face(frame_bgr, q) for q, whole in outlines]
        return [q for q, _ in outlines], self._face.read_both_ways(np.stack(faces))

    def merge_faces(self, cards: list[CardInstance], quads: list[np.ndarray], probs: np.ndarray) -> list[CardInstance]:
        """Index reads and face reads together:

        - a face read surely (``face_threshold``; a joker also ``joker_threshold``) where no index
          was read adds its card, unless a card of that name was read from an index on the
          outline's edge (the same card, its outline found a little inside it);
        - where one card was read from its indices, that card becomes the likeliest given both
          its indices and the face, and carries their joint probabilities (``CardInstance.probs``:
          what its candidates say);
        - the cards read from corners whose indices lie in the corners of one outline read surely
          as a card, one in each (:func:`vision.outlines.cards_on_outline`; the whole picture of a
          card among them), are that one card (:func:`vision.outlines.one_card`), whatever names
          its corners were read as; a sure face read inside such a card adds no second card;
        - several reads of one name inside one outline read surely as that card, spanning it, are
          one card whose indices were read apart (a long JOKER column read from both ends), unless
          two of them lie side by side as fanned cards do (a pair: :func:`vision.grouping.fanned_side_by_side`);
        - an outline holding different cards (a fan, a table) is left as the indices read it;
        - with ``face_guess_threshold``, a card outline (not the whole picture) with nothing read
          in it whose face is at least that likely a card's (whichever card: a joker of a design
          never seen, a smudged index) gives its face's likeliest card as a guess, at most
          :data:`GUESS_CONFIDENCE` sure: a card seen is a card played, for a person to name.
        """
        s = self.settings
        cards = list(cards)
        # an outline inside another card's (its printed frame, a court panel) is that card's picture cut
        # short: read as a face it would weigh in a second time, and wrongly (a 7♥ whose pip field read 3♥)
        inner = {k for k, quad in enumerate(quads) if not _is_frame(quad) and any(
            j != k and not _is_frame(other) and within_outline(quad, other) for j, other in enumerate(quads))}
        if inner:
            kept = [k for k in range(len(quads)) if k not in inner]
            quads, probs = [quads[k] for k in kept], probs[kept]
        sure_faces = [(quad, CARD_NAMES[int(p.argmax())]) for quad, p in zip(quads, probs, strict=True)
                if int(p.argmax()) != REJECT and p.max() >= s.face_threshold]
        for quad, _name in sure_faces:
            on = cards_on_outline(cards, quad, self._wide)
            if on is not None and len(on) > 1 and not _fanned(quad, [cards[i] for i in on]):
                # one card whose corners were read apart: the face's read then weighs in below
                cards = [c for i, c in enumerate(cards) if i not in on] + [one_card([cards[i] for i in on])]
        for quad, p in zip(quads, probs, strict=True):
            k = int(p.argmax())
            inside = [i for i, c in enumerate(cards) if _inside(quad, c.box)]
            if k == REJECT or p[k] < (max(s.face_threshold, s.joker_threshold) if k in _JOKER_IDS else s.face_threshold):
                card_face = 1.0 - float(p[REJECT])  # that the outline holds a card's face, whichever
                if 0 < s.face_guess_threshold <= card_face and not inside and not _is_frame(quad):
                    best = int(p[:REJECT].argmax())
                    cards.append(CardInstance(CARD_NAMES[best], _bounds(quad), min(card_face, GUESS_CONFIDENCE), (), _card_share(p)))
                continue
            if not inside:
                if not any(c.card == CARD_NAMES[k] and _reaches_into(quad, c.box) for c in cards) \
                        and not _within_read_card(quad, CARD_NAMES[k], sure_faces, cards):
                    cards.append(CardInstance(CARD_NAMES[k], _bounds(quad), float(p[k]), (), _card_share(p)))
            elif len({cards[i].card for i in inside}) == 1 and len(inside) > 1:
                parts = [cards[i] for i in inside]
                if parts[0].card == CARD_NAMES[k] and _spans(quad, parts) and not _fanned(quad, parts):
                    cards = _joined(cards, inside)
            elif len(inside) == 1:
                card = cards[inside[0]]
                joint = _card_probs(card) * _doubted(_card_share(p))
                joint = (joint / joint.sum()).astype(np.float32)
                joint.flags.writeable = False
                best = int(joint.argmax())
                sure = float(joint[best])
                if CARD_NAMES[best] == card.card:  # the face agrees: as sure as the surer of the two
                    cards[inside[0]] = CardInstance(card.card, card.box, max(card.confidence, sure), card.indices, joint)
                elif best not in _JOKER_IDS or sure >= s.joker_threshold:
                    cards[inside[0]] = CardInstance(CARD_NAMES[best], card.box, sure, card.indices, joint)
        return sorted(cards, key=lambda c: -c.confidence)

    def cards_from(self, readings: list[IndexReading], quads: list[np.ndarray] | None = None) -> list[CardInstance]:
        """The physical cards of some index readings (grouped, those on one card outline of
        ``quads`` joined into one card: :func:`vision.outlines.join_on_outlines`, the unsure ones dropped).

        A card counts from ``card_threshold``, or from ``small_card_threshold`` when all its
        indices are shorter than ``small_index_px`` (a small index is read less surely, right
        or wrong); a joker also needs ``joker_threshold``.
        """
        s = self.settings
        cards = [c for c in group_indices(readings, s.index_spacing, self._wide)
                 if c.confidence >= self.card_bar(c) and (c.card not in JOKER_NAMES or c.confidence >= s.joker_threshold)]
        return join_on_outlines(cards, quads, self._wide) if quads else cards

    @property
    def _wide(self) -> bool:
        """Whether the deck prints its suits beside its ranks: its indices are wider for their card."""
        return self.settings.index_layout == "horizontal"

    def card_bar(self, card: CardInstance) -> float:
        """The confidence from which ``card`` (read from its corner indices) counts as read."""
        s = self.settings
        if s.small_index_px > 0 and card.indices and max(index_size(r) for r in card.indices) < s.small_index_px:
            return s.small_card_threshold
        return s.card_threshold


_JOKER_IDS = frozenset(CARD_NAMES.index(name) for name in JOKER_NAMES)


WIDE_TWO_INDICES = 2.0
"""A box of a deck printing its suits beside its ranks at least this many times as long as it is
wide holds two indices: one wide index is at most about 1.5 times as long (1.26-1.47 measured
upright on held-out designs, less when turned), so a box this long is the detector's one box over
two fanned identical cards' indices (:meth:`CardReader.split_fanned_pairs`). Not lower: both halves
of one wide index can read its card (the rank half guessing the suit), and a box of one index may
be boxed up to 2 times as long (models/README.md, session 25)."""


SPLIT_UNSURE = 0.5
"""An index box read under this (or as no index) may be part of a wide index boxed in two
(:meth:`CardReader.join_split_index`); the box around both parts must read its card at least this surely."""
JOINED_LONGEST = 3.0
"""The longest a wide index is for its height: a "10♠", three glyphs side by side."""


def _end_to_end(a: Box, b: Box) -> bool:
    """Whether boxes ``a`` and ``b`` lie end to end as the two parts of one wide index: side by side
    along one axis, as high as each other across it (each overlapping the other across by at least
    0.6 of the smaller), at most a fifth of that height apart or overlapping by less than half the
    shorter one, the box around both at most :data:`JOINED_LONGEST` times as long as high.

    >>> _end_to_end((432, 247, 443, 260), (433, 262, 444, 275))  # a "10♠" turned, boxed as two
    True
    >>> _end_to_end((0, 0, 10, 12), (30, 0, 40, 12)), _end_to_end((0, 0, 10, 12), (11, 20, 21, 32))
    (False, False)
    """
    for along in (0, 1):
        across = 1 - along
        overlap_across = min(a[across + 2], b[across + 2]) - max(a[across], b[across])
        small_across = min(a[across + 2] - a[across], b[across + 2] - b[across])
        if small_across <= 0 or overlap_across < 0.6 * small_across:
            continue
        gap = max(a[along], b[along]) - min(a[along + 2], b[along + 2])  # < 0: they overlap
        shorter = min(a[along + 2] - a[along], b[along + 2] - b[along])
        length = max(a[along + 2], b[along + 2]) - min(a[along], b[along])
        high = max(a[across + 2], b[across + 2]) - min(a[across], b[across])
        if -0.5 * shorter < gap <= 0.2 * small_across and length <= JOINED_LONGEST * high:
            return True
    return False


def _length_ratio(box: Box) -> float:
    """The long side of ``box`` over its short side."""
    w, h = max(box[2] - box[0], 1e-6), max(box[3] - box[1], 1e-6)
    return max(w, h) / min(w, h)


def _two_indices(box: Box, others: list[Box]) -> tuple[Box, Box]:
    """``box`` (too long for one index) cut in two across its long side: where another box lies
    over one end of it (the detector's own box of one of the two indices: half of it or more
    inside, reaching to within a quarter of its length of the long box's end or beyond, and at
    least 0.6 of its length of the long box left beyond it), that box and the rest of the long
    one; else two halves.

    >>> _two_indices((0, 0, 40, 20), [])
    ((0, 0, 20.0, 20), (20.0, 0, 40, 20))
    >>> _two_indices((10, 0, 60, 20), [(4, 1, 34, 19)])
    ((4, 1, 34, 19), (34, 0, 60, 20))
    >>> _two_indices((10, 0, 60, 20), [(20, 1, 50, 19)])  # in its middle: no end of it
    ((10, 0, 35.0, 20), (35.0, 0, 60, 20))
    """
    x1, y1, x2, y2 = box
    along = 0 if x2 - x1 >= y2 - y1 else 1
    low, high = box[along], box[along + 2]

    def stretch(start: float, end: float) -> Box:
        return (start, y1, end, y2) if along == 0 else (x1, start, x2, end)

    for other in others:
        start, end = other[along], other[along + 2]
        length = end - start
        if length <= 0 or _inside_share(other, box) < 0.5:
            continue
        if start - low <= 0.25 * length and high - end >= 0.6 * length:
            return other, stretch(end, high)
        if high - end <= 0.25 * length and start - low >= 0.6 * length:
            return stretch(low, start), other
    middle = (low + high) / 2
    return stretch(low, middle), stretch(middle, high)


def _inside_share(inner: Box, outer: Box) -> float:
    """The share of ``inner``'s area that lies inside ``outer``."""
    w = min(inner[2], outer[2]) - max(inner[0], outer[0])
    h = min(inner[3], outer[3]) - max(inner[1], outer[1])
    area = (inner[2] - inner[0]) * (inner[3] - inner[1])
    return max(w, 0.0) * max(h, 0.0) / area if area > 0 else 0.0


def model_file(folder: Path, name: str) -> Path:
    """``folder / name``; where ``folder`` is a layout reader's (:data:`LAYOUT_READERS`) without
    that file, the models folder's own (a layout reader shares the face reader, ``face.onnx``)."""
    path = folder / name
    if not path.exists() and folder.name in LAYOUT_READERS.values() and (folder.parent / name).exists():
        return folder.parent / name
    return path


def layout_reader_folder(models: Path, index_layout: str, deck: DeckHead | None = None) -> Path | None:
    """The folder of ``models``' own reader for decks of ``index_layout`` (:data:`LAYOUT_READERS`),
    or None where there is none, or where ``deck`` was enrolled with the networks of ``models``
    itself (a deck enrolled before the layout reader was shipped keeps reading as it was enrolled)."""
    name = LAYOUT_READERS.get(index_layout)
    if name is None or not (models / name / "cards.json").is_file():
        return None
    layout_folder = models / name
    if deck is not None and deck.classifier != classifier_fingerprint(layout_folder / "classifier.onnx"):
        return None
    return layout_folder


def load_layout_reader(models_dir: str | Path | None, index_layout: str, threads: int = 2,
                       overrides: ReaderOverrides | None = None) -> CardReader | None:
    """The reader of ``models_dir``'s own networks for decks of ``index_layout`` (:data:`LAYOUT_READERS`),
    loaded with ``overrides``; None where the models have none."""
    folder = layout_reader_folder(Path(models_dir) if models_dir is not None else MODELS_DIR, index_layout)
    if folder is None:
        return None
    settings: ReaderOverrides = {**(overrides or {}), "index_layout": index_layout}
    return CardReader.load(folder, threads, None, **settings)


def _one_card_outline(quad: np.ndarray, cards: list[CardInstance], wide: bool = False) -> bool:
    on = cards_on_outline(cards, quad, wide)
    return on is not None and len(on) > 1


def _within_read_card(quad: np.ndarray, name: str, sure: list[tuple[np.ndarray, str]], cards: list[CardInstance]) -> bool:
    """Whether ``quad`` lies inside another outline read surely as the card ``name`` that holds a
    card of that name read from its corners (a court panel or a frame of pips inside the card)."""
    centre = tuple(float(v) for v in np.asarray(quad, np.float32).reshape(-1, 2).mean(axis=0))
    return any(outer is not quad and outer_name == name
               and cv2.pointPolygonTest(outer.reshape(-1, 1, 2).astype(np.float32), centre, False) > 0
               and any(c.card == name and c.indices and _inside(outer, c.box) for c in cards)
               for outer, outer_name in sure)


def _bounds(quad: np.ndarray) -> Box:
    (x1, y1), (x2, y2) = quad.min(axis=0), quad.max(axis=0)
    return float(x1), float(y1), float(x2), float(y2)


def _is_frame(quad: np.ndarray) -> bool:
    """Whether ``quad`` is the whole picture's rectangle (read as a face in case the picture is one card)."""
    x1, y1, x2, y2 = _bounds(quad)
    return x1 == 0 and y1 == 0 and all(float(x) in (x1, x2) and float(y) in (y1, y2) for x, y in quad)


SPAN_AREA = 2.0
"""Reads span an outline when the outline's area is at most this many times their joint box's."""


def _spans(quad: np.ndarray, cards: list[CardInstance]) -> bool:
    """Whether ``cards`` together span the outline ``quad`` (it is their card's outline, not a
    bigger picture holding them)."""
    x1, y1, x2, y2 = union_box([c.box for c in cards])
    return float(cv2.contourArea(quad.reshape(-1, 1, 2).astype(np.float32))) <= SPAN_AREA * max(1.0, (x2 - x1) * (y2 - y1))


def _fanned(quad: np.ndarray, parts: list[CardInstance]) -> bool:
    """Whether two of ``parts`` (cards inside the outline ``quad``) hold indices lying side by side
    as fanned cards' do."""
    return any(fanned_side_by_side(p, q, quad) for a, b in itertools.combinations(parts, 2)
               for p in a.indices for q in b.indices)


def _joined(cards: list[CardInstance], which: list[int]) -> list[CardInstance]:
    """``cards`` with those at ``which`` (all of one name) made one card."""
    parts = [cards[i] for i in which]
    one = CardInstance(parts[0].card, union_box([c.box for c in parts]), max(c.confidence for c in parts), tuple(r for c in parts for r in c.indices))
    return [c for i, c in enumerate(cards) if i not in which] + [one]


def _card_share(probs: np.ndarray) -> np.ndarray:
    """The 54 cards' probabilities of a read, "not a card" left out and the rest renormalised
    (read-only: cards carry it)."""
    share = probs[:REJECT] / max(float(probs[:REJECT].sum()), 1e-9)
    share.flags.writeable = False
    return share


def _inside(quad: np.ndarray, box: Box) -> bool:
    centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    return cv2.pointPolygonTest(quad.reshape(-1, 1, 2).astype(np.float32), centre, False) >= 0


def _reaches_into(quad: np.ndarray, box: Box) -> bool:
    """Whether ``box`` reaches into the outline ``quad``: its centre lies within half its size
    outside it (an index on the card's edge, where the outline found runs a little inside)."""
    centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    distance = cv2.pointPolygonTest(quad.reshape(-1, 1, 2).astype(np.float32), centre, True)
    return distance >= -max(box[2] - box[0], box[3] - box[1]) / 2


FACE_DOUBT = 0.01
"""The share of a face read taken as no evidence (spread evenly over the 54 cards) before it is weighed
against a card's corner indices: a face reader sure of a card of a design it never saw can be wrong,
and on its own it must not outweigh corners that agree (four corners read 10♥ at 0.93-0.98, the face 4♥
at 0.9993 and 10♥ at 1e-7: the corners' card stays)."""


def _doubted(share: np.ndarray) -> np.ndarray:
    """A face read's card probabilities with :data:`FACE_DOUBT` of them spread evenly."""
    return (1.0 - FACE_DOUBT) * share + FACE_DOUBT / len(share)


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
