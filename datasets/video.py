"""Overhead videos of a Tractor deal being played, with the ground truth of every frame.

:func:`render_video` takes a record (for instance ``scorer.random_record``) and films
its first deal as a webcam above the table would see it: each seat's arm reaches into
its zone and lays the play fanned (index corners visible, as ``docs/TABLE.md`` asks), a
failed throw is laid and partly taken back, the trick's winner sweeps the cards away,
and the camera adds mild perspective, lighting drift, noise, blur (and, where asked, an autofocus
that hunts) and MP4 compression.
Optional disturbances: a hand that lingers over the cards it laid, hands passing over
the table without playing, a frame dropout (frames lost, frames black).
``first_trick`` films a deal's last tricks only: the tricks before it are the record of
the deal so far, which the truth's set-up then holds (the bundled demo, :mod:`datasets.demo`).

It returns a :class:`VideoTruth`: the record exactly as filmed (setup and tricks), the
table corners in the image, and per frame the cards whose corner index a reader could
see (image boxes). :class:`vision.oracle.OracleReader` answers ``read(frame)`` from it,
so the table pipeline can be tested without a trained card model.

Scale: cards are about 90 px tall in a 640×480 frame (the card reader trains on
60–190 px, ``datasets/scenes.py``), fanned with a step of a third of a card width.

>>> import pathlib, tempfile
>>> from tuolaji import scorer
>>> record = scorer.random_record("standard-2deck", 3, hand_size=2)
>>> out = pathlib.Path(tempfile.mkdtemp()) / "deal.mp4"
>>> truth = render_video(record, out, RenderOptions(seed=3))
>>> out.exists(), truth.frame_count > 0, len(truth.plays) == 8
(True, True, True)
"""

from __future__ import annotations

import copy
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from tuolaji.datasets.cardart import CardStyle, card_size, index_boxes, render_card
from tuolaji.scorer.seats import seat_of
from tuolaji.vision.oracle import PlayTruth, VideoTruth  # the truth file format lives with its reader

FRAME_SIZE = (640, 480)
TABLE_RECT = (48.0, 36.0, 592.0, 444.0)  # x0, y0, x1, y1 of the table before the camera's perspective
CARD_HEIGHT_PX = 90.0


@dataclass(frozen=True)
class RenderOptions:
    """How to film a deal. Times are seconds of video."""

    seed: int = 0
    fps: float = 15.0
    style_split: str = "train"
    card_height_px: float = CARD_HEIGHT_PX
    noise_sigma: float = 3.0
    lighting_drift: float = 0.07
    perspective_px: float = 22.0
    arm_s: float = 0.45
    lay_s: float = 0.3
    gap_s: tuple[float, float] = (0.6, 1.0)  # still time after a play before the next arm comes
    throw_wait_s: float = 1.6  # a failed throw lies still this long before the cards are taken back
    sweep_wait_s: float = 1.1
    linger: tuple[tuple[int, int], ...] = ()  # (trick, seat): that hand rests over its cards
    linger_s: float = 1.6
    dropouts: tuple[tuple[float, int, str], ...] = ()  # (time_s, frames, "skip" | "black")
    gesture_rate: float = 0.0  # chance, after each play, that another player's hand passes over the table
    max_tricks: int | None = None
    first_trick: int = 0  # film from this trick on: the tricks before it are the record of the deal so far
    real_art: str | None = None  # an imported design (datasets.realart) to draw the cards with; None: procedural art
    corners: int | None = None  # 2 or 4: the procedural design prints that many corner indices (None: as drawn)
    index_layout: str | None = None  # "vertical" or "horizontal": the procedural design's indices so (None: as drawn)
    focus_hunt: float = 0.0  # share of frames blurred by an autofocus hunting (bursts of 3-8 frames)


def setup_of(record: dict[str, Any]) -> dict[str, Any]:
    """The set-up a replay starts from: rules, players and the last deal without tricks, hands or kitty.

    >>> setup_of({"format": "tuolaji-record/1", "rules": "standard-2deck", "players": ["a", "b", "c", "d"],
    ...           "deals": [{"level": "2", "trump": "S", "dealer": 0, "hands": [], "tricks": [{}]}]})["deals"]
    [{'level': '2', 'trump': 'S', 'dealer': 0, 'tricks': []}]
    """
    setup = {key: copy.deepcopy(value) for key, value in record.items() if key != "deals"}
    deal = {key: copy.deepcopy(value) for key, value in record["deals"][-1].items()
            if key not in ("tricks", "hands", "kitty", "complete")}
    deal["tricks"] = []
    setup["deals"] = [deal]
    return setup


def filmed_record(record: dict[str, Any], max_tricks: int | None = None, *, first_trick: int | None = None) -> dict[str, Any]:
    """What a camera can know of ``record``: the set-up plus the tricks (no hands, no kitty);
    with ``first_trick``, only the tricks before it: the deal so far, the set-up of a video
    that films the rest.

    >>> record = {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": ["a", "b", "c", "d"],
    ...           "deals": [{"level": "2", "trump": "S", "dealer": 0, "tricks": [
    ...               {"leader": 0, "plays": [["AS"], ["3S"], ["4S"], ["5S"]]}]}]}
    >>> len(filmed_record(record)["deals"][0]["tricks"]), filmed_record(record, first_trick=0)["deals"][0]["tricks"]
    (1, [])
    """
    filmed = setup_of(record)
    tricks = copy.deepcopy(record["deals"][-1].get("tricks", []))
    if max_tricks is not None:
        tricks = tricks[:max_tricks]
    if first_trick is not None:
        tricks = tricks[:first_trick]
    filmed["deals"][0]["tricks"] = [
        {key: value for key, value in trick.items() if key in ("leader", "plays", "attempt")} for trick in tricks
    ]
    return filmed


# ------------------------------------------------------------------ geometry


def _seat_angle(seat: int, players: int) -> float:
    return math.radians(90.0 - seat * 360.0 / players)


def _table_point(x: float, y: float) -> np.ndarray:
    """Normalised table coordinates ([-1, 1]², y down) -> pre-camera canvas pixels."""
    x0, y0, x1, y1 = TABLE_RECT
    return np.array([x0 + (x + 1) / 2 * (x1 - x0), y0 + (y + 1) / 2 * (y1 - y0)])


def _seat_point(seat: int, players: int, radius: float) -> np.ndarray:
    a = _seat_angle(seat, players)
    return _table_point(radius * math.cos(a), radius * math.sin(a))


@dataclass
class _Placement:
    pid: int
    card: str
    seat: int
    trick: int
    patch: np.ndarray  # BGRA, warped into canvas pixels
    origin: tuple[int, int]  # top-left of the patch in the canvas
    quad: np.ndarray  # 4×2 canvas corners
    index_centres: list[np.ndarray]  # canvas points of the corner indices
    index_quads: list[np.ndarray]
    samples: np.ndarray  # points spread over the card, to tell whether a hand covers it


class _Arm:
    """One arm over the table: from ``anchor`` (off the table, at the seat) to a moving hand."""

    def __init__(self, seat: int, players: int, rng: np.random.Generator, size: float) -> None:
        self.seat = seat
        angle = _seat_angle(seat, players) + rng.uniform(-0.25, 0.25)
        self.anchor = _table_point(1.9 * math.cos(angle), 1.9 * math.sin(angle))
        sleeves = [(60, 40, 160), (150, 60, 40), (40, 40, 40), (200, 200, 210), (40, 140, 200), (110, 50, 110)]
        skins = [(120, 160, 215), (95, 135, 190), (70, 100, 150), (150, 185, 230)]
        self.sleeve = tuple(int(c) for c in sleeves[int(rng.integers(len(sleeves)))])
        self.skin = tuple(int(c) for c in skins[int(rng.integers(len(skins)))])
        self.width = float(rng.uniform(0.7, 0.85))  # of ``size``
        self.size = size


def _draw_arm(canvas: np.ndarray, arm: _Arm, hand: np.ndarray, scale: float = 1.0,
              camera: np.ndarray | None = None) -> None:
    """Sleeve from the anchor to the wrist, then palm and fingers, sized like a real hand (a card is ~0.5 of it).

    Shapes are laid out on the table plane; ``camera`` (a homography) places their points in
    the picture, ``scale`` shrinks everything (the occlusion mask is drawn at a quarter size).
    """
    size = arm.size
    direction = hand - arm.anchor
    length = float(np.hypot(*direction)) or 1.0
    unit = direction / length
    normal = np.array([-unit[1], unit[0]])
    palm = hand - unit * size * 0.3
    wrist = palm - unit * size * 0.45
    fingers = [palm + normal * (k - 1.5) * 0.2 * size + unit * 0.2 * size for k in range(4)]
    thumb = palm + normal * 0.3 * size
    points = np.array([arm.anchor, wrist, palm, *fingers, *(f + unit * 0.62 * size for f in fingers),
                       thumb, thumb + normal * 0.3 * size + unit * 0.25 * size], dtype=np.float64)
    if camera is not None:
        points = cv2.perspectiveTransform(points.reshape(1, -1, 2), camera)[0]
    points = points * scale
    anchor, wrist_p, palm_p = points[0], points[1], points[2]
    cv2.line(canvas, _pt(anchor), _pt(wrist_p), arm.sleeve, max(1, int(arm.width * size * scale)), cv2.LINE_AA)
    angle = math.degrees(math.atan2(unit[1], unit[0]))
    cv2.ellipse(canvas, _pt(palm_p), (max(1, int(0.5 * size * scale)), max(1, int(0.42 * size * scale))), angle, 0,
                360, arm.skin, -1, cv2.LINE_AA)
    for k in range(4):
        cv2.line(canvas, _pt(points[3 + k]), _pt(points[7 + k]), arm.skin, max(1, int(0.16 * size * scale)),
                 cv2.LINE_AA)
    cv2.line(canvas, _pt(points[11]), _pt(points[12]), arm.skin, max(1, int(0.17 * size * scale)), cv2.LINE_AA)


def _pt(p: np.ndarray) -> tuple[int, int]:
    return (int(round(float(p[0]))), int(round(float(p[1]))))


# ------------------------------------------------------------------ the script


@dataclass
class _Segment:
    """A stretch of time with one arm moving (or none), and table changes at its start/end."""

    start: float
    end: float
    arm: _Arm | None = None
    path: list[np.ndarray] = field(default_factory=list)  # hand positions, evenly through the segment
    add_at: list[tuple[float, list[_Placement]]] = field(default_factory=list)
    remove_at: list[tuple[float, list[int]]] = field(default_factory=list)

    def hand_at(self, t: float) -> np.ndarray | None:
        if self.arm is None or not self.path:
            return None
        f = min(1.0, max(0.0, (t - self.start) / max(1e-6, self.end - self.start)))
        pos = f * (len(self.path) - 1)
        i = min(len(self.path) - 2, int(pos)) if len(self.path) > 1 else 0
        if len(self.path) == 1:
            return self.path[0]
        frac = pos - i
        eased = 0.5 - 0.5 * math.cos(math.pi * frac)
        return self.path[i] * (1 - eased) + self.path[i + 1] * eased


class _Director:
    """Turns a record into timed segments and card placements."""

    def __init__(self, record: dict[str, Any], options: RenderOptions, rng: np.random.Generator) -> None:
        self.options = options
        self.rng = rng
        self.players = len(record["players"])
        self.style = CardStyle.random(rng, options.style_split)
        if options.corners is not None:
            self.style = self.style.with_corners(options.corners)
        if options.index_layout is not None:
            self.style = self.style.with_index_layout(options.index_layout)
        self.deck = None
        if options.real_art is not None:
            from tuolaji.datasets.realart import load_deck

            self.deck = load_deck(options.real_art)  # cards the design lacks keep the procedural face
        self.segments: list[_Segment] = []
        self.placements: list[_Placement] = []
        self.plays: list[PlayTruth] = []
        self.play_times: list[tuple[float, float]] = []
        self.gesture_times: list[float] = []
        self.time = 1.2  # an empty table first: calibration and background
        self.arms = {seat: _Arm(seat, self.players, rng, options.card_height_px) for seat in range(self.players)}
        self._patch_cache: dict[tuple[str, int], np.ndarray] = {}

    def _fan(self, cards: list[str], seat: int, trick: int) -> list[_Placement]:
        o = self.options
        radius = 0.6 if self.players <= 4 else 0.64
        centre = _seat_point(seat, self.players, radius) + self.rng.normal(0, 4, 2)
        a = _seat_angle(seat, self.players)
        up = -np.array([math.cos(a), math.sin(a)])  # towards the table centre
        tilt = math.radians(self.rng.normal(0, 5))
        up = np.array([up[0] * math.cos(tilt) - up[1] * math.sin(tilt), up[0] * math.sin(tilt) + up[1] * math.cos(tilt)])
        right = np.array([-up[1], up[0]])
        height = int(round(o.card_height_px * self.rng.uniform(0.95, 1.05)))
        width = self.deck.render("AS", height).shape[1] if self.deck is not None and self.deck.has("AS") \
            else card_size(self.style, height)[0]
        step = width * self.rng.uniform(0.36, 0.42)
        out = []
        for k, name in enumerate(cards):
            offset = (k - (len(cards) - 1) / 2) * step
            c = centre + right * offset + up * self.rng.normal(0, 1.5)
            out.append(self._place(name, seat, trick, c, up, right, height))
        return out

    def _place(self, name: str, seat: int, trick: int, centre: np.ndarray, up: np.ndarray, right: np.ndarray,
               height: int) -> _Placement:
        key = (name, height)
        real = self.deck is not None and self.deck.has(name)
        if key not in self._patch_cache:
            self._patch_cache[key] = self.deck.render(name, height) if real else render_card(name, self.style, height)
        face = self._patch_cache[key]
        h, w = face.shape[:2]
        down = -up
        # card pixel (x, y) -> canvas: centre + (x - w/2) * right + (y - h/2) * down
        matrix = np.array([[right[0], down[0], centre[0] - w / 2 * right[0] - h / 2 * down[0]],
                           [right[1], down[1], centre[1] - w / 2 * right[1] - h / 2 * down[1]]])
        corners = np.array([(0, 0), (w, 0), (w, h), (0, h)], dtype=np.float64)
        quad = corners @ matrix[:, :2].T + matrix[:, 2]
        x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 1
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
        shifted = matrix.copy()
        shifted[:, 2] -= (x0, y0)
        patch = cv2.warpAffine(face, shifted, (int(x1 - x0), int(y1 - y0)), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
        centres, quads = [], []
        boxes = self.deck.index_boxes(name, height) if real else index_boxes(name, self.style, height)
        for bx0, by0, bx1, by1 in boxes:
            box = np.array([(bx0, by0), (bx1, by0), (bx1, by1), (bx0, by1)], dtype=np.float64)
            canvas_box = box @ matrix[:, :2].T + matrix[:, 2]
            quads.append(canvas_box)
            centres.append(canvas_box.mean(axis=0))
        grid = np.array([(fx * w, fy * h) for fx in (0.1, 0.5, 0.9) for fy in (0.1, 0.5, 0.9)], dtype=np.float64)
        samples = grid @ matrix[:, :2].T + matrix[:, 2]
        placement = _Placement(len(self.placements), name, seat, trick, patch, (int(x0), int(y0)), quad, centres, quads,
                               samples)
        self.placements.append(placement)
        return placement

    def _hand_target(self, placements: list[_Placement], seat: int) -> np.ndarray:
        """Where the hand rests while laying: over the far half of the fan, where the indices are."""
        a = _seat_angle(seat, self.players)
        up = -np.array([math.cos(a), math.sin(a)])
        centre = np.mean([p.quad.mean(axis=0) for p in placements], axis=0)
        return centre + up * self.options.card_height_px * 0.1

    def _reach(self, seat: int, target: np.ndarray, *, hold_s: float, add: list[_Placement] | None = None,
               remove: list[int] | None = None) -> tuple[float, float]:
        """Arm in, lay (or pick up) at the hold, arm out. Returns (cards changed time, arm gone time)."""
        o = self.options
        arm = self.arms[seat]
        start = self.time
        out_point = arm.anchor
        entry = _Segment(start, start + o.arm_s, arm, [out_point, target])
        change_time = start + o.arm_s + o.lay_s * 0.5
        # While laying the hand shifts a little; a lingering hand then rests perfectly still.
        lay = _Segment(start + o.arm_s, start + o.arm_s + o.lay_s, arm, [target, target + self.rng.normal(0, 3, 2), target])
        hold = _Segment(lay.end, lay.end + hold_s, arm, [target])
        if add:
            lay.add_at.append((change_time, add))
        if remove:
            lay.remove_at.append((change_time, remove))
        leave_start = hold.end
        leave = _Segment(leave_start, leave_start + o.arm_s, arm, [target, out_point])
        self.segments += [entry, lay, hold, leave]
        self.time = leave.end
        return change_time, leave.end

    def play(self, trick: int, seat: int, cards: list[str], kind: str, *, linger: bool) -> list[_Placement]:
        placements = self._fan(cards, seat, trick)
        target = self._hand_target(placements, seat)
        hold = self.options.linger_s if linger else 0.0
        laid, clear = self._reach(seat, target, hold_s=hold, add=placements)
        self.plays.append(PlayTruth(trick, seat, list(cards), kind, 0, 0))
        self.play_times.append((laid, clear))
        return placements

    def take_back(self, trick: int, seat: int, taken: list[_Placement]) -> None:
        target = self._hand_target(taken, seat)
        laid, clear = self._reach(seat, target, hold_s=0.15, remove=[p.pid for p in taken])
        self.plays.append(PlayTruth(trick, seat, [p.card for p in taken], "take-back", 0, 0))
        self.play_times.append((laid, clear))

    def gesture(self, seat: int) -> None:
        """A hand passes over the table and back (pointing, reaching for a drink): not a play."""
        o = self.options
        arm = self.arms[seat]
        angle = self.rng.uniform(0, 2 * math.pi)
        target = _table_point(0.5 * math.cos(angle), 0.5 * math.sin(angle))
        start = self.time
        self.gesture_times.append(start)
        self.segments.append(_Segment(start, start + 2.5 * o.arm_s, arm, [arm.anchor, target, target, arm.anchor]))
        self.time = start + 2.5 * o.arm_s

    def sweep(self, winner: int, lying: list[_Placement]) -> None:
        o = self.options
        arm = self.arms[winner]
        stops = []
        for k in range(1, self.players + 1):
            seat = seat_of(winner, k, self.players)
            stops.append((seat, _seat_point(seat, self.players, 0.55)))
        path = [arm.anchor] + [p for _, p in stops] + [arm.anchor]
        start = self.time
        duration = o.arm_s * 2 + 0.32 * self.players
        segment = _Segment(start, start + duration, arm, path)
        for index, (seat, _) in enumerate(stops):
            when = start + duration * (index + 1) / (len(path) - 1)
            segment.remove_at.append((when, [p.pid for p in lying if p.seat == seat]))
        self.segments.append(segment)
        self.time = segment.end

    def wait(self, seconds: float) -> None:
        self.time += seconds


def _script(record: dict[str, Any], options: RenderOptions, rng: np.random.Generator) -> _Director:
    director = _Director(record, options, rng)
    deal = record["deals"][-1]
    tricks = deal.get("tricks", [])
    if options.max_tricks is not None:
        tricks = tricks[: options.max_tricks]
    players = director.players
    from tuolaji import scorer

    for t, trick in enumerate(tricks):
        if t < options.first_trick:
            continue  # the deal so far: in the set-up, not on film
        lying: list[_Placement] = []
        leader = trick["leader"]
        for position, cards in enumerate(trick["plays"]):
            seat = seat_of(leader, position, players)
            linger = (t, seat) in options.linger
            if position == 0 and trick.get("attempt"):
                attempt = list(trick["attempt"])
                laid = director.play(t, seat, attempt, "attempt", linger=linger)
                director.wait(options.throw_wait_s)
                kept = list(cards)
                taken, remaining = [], []
                for placement in laid:
                    if placement.card in kept:
                        kept.remove(placement.card)
                        remaining.append(placement)
                    else:
                        taken.append(placement)
                director.take_back(t, seat, taken)
                director.plays.append(PlayTruth(t, seat, list(cards), "play", 0, 0))
                director.play_times.append(director.play_times[-1])
                lying += remaining
            else:
                lying += director.play(t, seat, list(cards), "play", linger=linger)
            low, high = options.gap_s
            director.wait(float(rng.uniform(low, high)))
            if options.gesture_rate and rng.random() < options.gesture_rate:
                director.gesture(int(rng.integers(players)))
                director.wait(float(rng.uniform(low, high)))
        if len(trick["plays"]) == players:
            director.wait(options.sweep_wait_s)
            winner = scorer.trick_winner(record, len(record["deals"]) - 1, t)
            director.sweep(winner if winner is not None else leader, lying)
            director.wait(0.8)
    director.wait(1.2)
    return director


# ------------------------------------------------------------------ filming


def _floor_and_table(rng: np.random.Generator) -> np.ndarray:
    w, h = FRAME_SIZE
    floor = np.empty((h, w, 3), np.float32)
    floor[:] = rng.choice([(40, 70, 110), (60, 60, 70), (30, 50, 80), (90, 100, 110)])
    grain = cv2.resize(rng.normal(0, 1, (h // 4, w // 16)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    floor += grain[:, :, None] * 10
    felt = np.array(rng.choice([(45, 115, 40), (110, 75, 30), (45, 45, 120), (70, 110, 80)]), np.float32)
    x0, y0, x1, y1 = (int(v) for v in TABLE_RECT)
    mottle = cv2.resize(rng.normal(0, 1, (h // 24, w // 24)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    table = felt[None, None, :] + mottle[:, :, None] * 5 + rng.normal(0, 2, (h, w, 1)).astype(np.float32)
    floor[y0:y1, x0:x1] = table[y0:y1, x0:x1]
    cv2.rectangle(floor, (x0, y0), (x1 - 1, y1 - 1), tuple(float(c) * 0.7 for c in felt), 2)
    return np.clip(floor, 0, 255).astype(np.uint8)


def _indices_under_later_cards(lying: list[_Placement]) -> dict[int, list[bool]]:
    """For each lying card, which of its corner indices a card laid later covers (a fan hides all but one)."""
    out = {}
    for position, placement in enumerate(lying):
        later = [p.quad.astype(np.float32).reshape(-1, 1, 2) for p in lying[position + 1:]]
        out[placement.pid] = [
            any(cv2.pointPolygonTest(quad, (float(c[0]), float(c[1])), False) > 0 for quad in later)
            for c in placement.index_centres
        ]
    return out


def _composite(canvas: np.ndarray, placement: _Placement) -> None:
    x0, y0 = placement.origin
    patch = placement.patch
    h, w = patch.shape[:2]
    cx0, cy0 = max(0, x0), max(0, y0)
    cx1, cy1 = min(canvas.shape[1], x0 + w), min(canvas.shape[0], y0 + h)
    if cx1 <= cx0 or cy1 <= cy0:
        return
    sub = patch[cy0 - y0: cy1 - y0, cx0 - x0: cx1 - x0].astype(np.float32)
    alpha = sub[:, :, 3:4] / 255.0
    region = canvas[cy0:cy1, cx0:cx1].astype(np.float32)
    canvas[cy0:cy1, cx0:cx1] = np.clip(region * (1 - alpha) + sub[:, :, :3] * alpha, 0, 255).astype(np.uint8)


@dataclass
class _Camera:
    """The camera over the table: its perspective, the lighting's drift and a bank of noise frames."""

    homography: np.ndarray
    table_corners: np.ndarray  # the table's corners in the picture
    light_phase: np.ndarray
    gx: np.ndarray  # a coarse grid across the picture, -0.5..0.5 (the lighting field's gradient)
    gy: np.ndarray
    noise_bank: list[tuple[np.ndarray, np.ndarray]]  # (noise added, noise taken away), frame after frame


def _set_camera(rng: np.random.Generator, options: RenderOptions) -> _Camera:
    w, h = FRAME_SIZE
    x0, y0, x1, y1 = TABLE_RECT
    src = np.float32([(0, 0), (w, 0), (w, h), (0, h)])
    dst = src + rng.uniform(-options.perspective_px, options.perspective_px, (4, 2)).astype(np.float32)
    homography = cv2.getPerspectiveTransform(src, dst)
    table_corners = cv2.perspectiveTransform(
        np.float64([[(x0, y0), (x1, y0), (x1, y1), (x0, y1)]]), homography)[0]
    light_phase = rng.uniform(0, 2 * math.pi, 3)
    yy, xx = np.mgrid[0:h // 8, 0:w // 8].astype(np.float32)
    gx, gy = xx / (w // 8) - 0.5, yy / (h // 8) - 0.5
    noise_bank = []
    for _ in range(5):
        noise = rng.normal(0, options.noise_sigma, (h, w, 3))
        noise_bank.append((np.clip(noise, 0, 255).astype(np.uint8), np.clip(-noise, 0, 255).astype(np.uint8)))
    return _Camera(homography, table_corners, light_phase, gx, gy, noise_bank)


def _table_changes(director: _Director) -> list[tuple[float, str, Any]]:
    """Every change of what lies on the table, in time order: (time, "add" | "remove", placements | ids)."""
    changes: list[tuple[float, str, Any]] = []
    for segment in director.segments:
        for when, placements in segment.add_at:
            changes.append((when, "add", placements))
        for when, pids in segment.remove_at:
            changes.append((when, "remove", pids))
    changes.sort(key=lambda item: item[0])
    return changes


def _hunting_blur(total: int, options: RenderOptions) -> dict[int, float]:
    """Tick -> the blur (Gaussian sigma, pixels) of a frame filmed while the autofocus hunts: bursts
    of 3-8 frames softly out of focus (a stronger blur reads as motion and is not read), ``options.focus_hunt`` of all frames, drawn apart from the scene's other chances."""
    if options.focus_hunt <= 0:
        return {}
    rng = np.random.default_rng((options.seed, 0xF0C5))
    blurred: dict[int, float] = {}
    while len(blurred) < options.focus_hunt * total:
        start, length, sigma = int(rng.integers(0, total)), int(rng.integers(3, 9)), float(rng.uniform(0.6, 1.0))
        for tick in range(start, min(total, start + length)):
            blurred[tick] = sigma
    return blurred


def _dropout_ticks(options: RenderOptions) -> dict[int, str]:
    """Tick -> "skip" | "black" for every tick a dropout loses."""
    dropouts = {}
    for when, count, kind in options.dropouts:
        first = int(round(when * options.fps))
        for k in range(count):
            dropouts[first + k] = kind
    return dropouts


def _card_truth(placement: _Placement, homography: np.ndarray) -> dict[str, Any]:
    """A laid card's truth: its name, seat, trick, its box and its corners (top-left, top-right,
    bottom-right, bottom-left as its face stands) and its indices' boxes in the picture."""
    quad_img = cv2.perspectiveTransform(placement.quad.reshape(1, -1, 2), homography)[0]
    return {
        "card": placement.card,
        "seat": placement.seat,
        "trick": placement.trick,
        "box": [round(float(v), 1) for v in (*quad_img.min(axis=0), *quad_img.max(axis=0))],
        "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in quad_img],
        "indices": [
            [round(float(v), 1) for v in (*q.min(axis=0), *q.max(axis=0))]
            for q in (cv2.perspectiveTransform(iq.reshape(1, -1, 2), homography)[0] for iq in placement.index_quads)
        ],
    }


def _filmed_table(base: np.ndarray, lying: list[_Placement], homography: np.ndarray) -> np.ndarray:
    """The table with ``lying`` laid on it in order, as the camera sees it (before arms and lighting)."""
    w, h = FRAME_SIZE
    static = base.copy()
    for placement in lying:
        _composite(static, placement)
    return cv2.warpPerspective(cv2.GaussianBlur(static, (3, 3), 0.7), homography, (w, h),
                               flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def _draw_arms(canvas: np.ndarray, segments: list[_Segment], t: float, homography: np.ndarray) -> np.ndarray:
    """Draw the arms over the table at time ``t``; their mask at a quarter of the picture's size."""
    w, h = FRAME_SIZE
    hand_mask = np.zeros((h // 4, w // 4), np.uint8)
    for segment in segments:
        if segment.start <= t < segment.end:
            hand = segment.hand_at(t)
            if hand is not None and segment.arm is not None:
                _draw_arm(canvas, segment.arm, hand, camera=homography)
                _draw_arm(hand_mask, _MaskArm(segment.arm), hand, scale=0.25)
    return hand_mask


def _covered_seats(lying: list[_Placement], hand_mask: np.ndarray) -> set[int]:
    """The seats with a lying card under an arm."""
    w, h = FRAME_SIZE
    covered: set[int] = set()
    if hand_mask.any():
        for placement in lying:
            for point in placement.samples:
                mx, my = int(point[0] / 4), int(point[1] / 4)
                if 0 <= mx < w // 4 and 0 <= my < h // 4 and hand_mask[my, mx]:
                    covered.add(placement.seat)
                    break
    return covered


def _visible_indices(lying: list[_Placement], under_cards: dict[int, list[bool]], hand_mask: np.ndarray) -> list[list[int]]:
    """[card id, bit mask of its visible corner indices] of every lying card showing one: not under
    a card laid later, inside the picture, not under an arm."""
    w, h = FRAME_SIZE
    visible: list[list[int]] = []
    for placement in lying:
        bits = 0
        for k, centre in enumerate(placement.index_centres):
            mx, my = int(centre[0] / 4), int(centre[1] / 4)
            if under_cards[placement.pid][k] or not (0 <= mx < w // 4 and 0 <= my < h // 4) or hand_mask[my, mx]:
                continue
            bits |= 1 << k
        if bits:
            visible.append([placement.pid, bits])
    return visible


def _lit(canvas: np.ndarray, t: float, tick: int, camera: _Camera, options: RenderOptions) -> np.ndarray:
    """The frame the camera records at time ``t``: lighting drift and sensor noise over ``canvas``."""
    w, h = FRAME_SIZE
    gain = 1.0 + options.lighting_drift * math.sin(2 * math.pi * t / 17.0 + camera.light_phase[0])
    field_small = gain + options.lighting_drift * (
        math.cos(t / 9.0 + camera.light_phase[1]) * camera.gx + math.sin(t / 11.0 + camera.light_phase[2]) * camera.gy)
    field = cv2.resize(np.clip(field_small * 128.0, 0, 255).astype(np.uint8), (w, h), interpolation=cv2.INTER_LINEAR)
    frame = cv2.multiply(canvas, cv2.merge([field, field, field]), scale=1.0 / 128.0)
    raise_noise, lower_noise = camera.noise_bank[tick % len(camera.noise_bank)]
    return cv2.subtract(cv2.add(frame, raise_noise), lower_noise)


def render_video(record: dict[str, Any], out_path: Path, options: RenderOptions | None = None) -> VideoTruth:
    """Film the last deal of ``record`` into ``out_path`` (MP4, 'mp4v') and return the ground truth.

    The steps: the director scripts the deal (:func:`_script`), the table and the camera are set
    (:func:`_floor_and_table`, :func:`_set_camera`), then tick after tick the table's changes are
    laid (:func:`_filmed_table`), the arms drawn (:func:`_draw_arms`), what they cover and what
    shows noted (:func:`_covered_seats`, :func:`_visible_indices`) and the frame lit
    (:func:`_lit`); last, each play's frames (:func:`_play_frames`)."""
    from tuolaji import scorer

    options = options or RenderOptions()
    scorer.validate_record(record)
    rng = np.random.default_rng(options.seed)
    director = _script(record, options, rng)
    fps = options.fps
    w, h = FRAME_SIZE
    base = _floor_and_table(rng)
    camera = _set_camera(rng, options)
    changes = _table_changes(director)
    by_id = {p.pid: p for p in director.placements}
    dropouts = _dropout_ticks(options)

    out_path = Path(out_path)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    writer = cv2.VideoWriter(str(out_path), cv2.VideoWriter_fourcc(*"mp4v"), fps, (w, h))
    if not writer.isOpened():
        raise OSError(f"cannot write video {out_path}")
    truth = VideoTruth(
        record=filmed_record(record, options.max_tricks),
        setup=filmed_record(record, first_trick=options.first_trick),
        fps=fps,
        frame_size=(w, h),
        table_corners=[[float(x), float(y)] for x, y in camera.table_corners],
    )
    truth.cards.extend(_card_truth(placement, camera.homography) for placement in director.placements)

    lying: list[int] = []
    under_cards: dict[int, list[bool]] = {}
    static = _filmed_table(base, [], camera.homography)
    change_index = 0
    total = int(math.ceil(director.time * fps))
    hunting = _hunting_blur(total, options)
    written = 0
    tick_to_frame: list[int] = []
    covered_seats: list[set[int]] = []  # per written frame: seats with a card under an arm
    segments = sorted(director.segments, key=lambda s: s.start)
    for tick in range(total):
        t = tick / fps
        dirty = False
        while change_index < len(changes) and changes[change_index][0] <= t:
            _, kind, payload = changes[change_index]
            if kind == "add":
                lying += [p.pid for p in payload]
            else:
                lying = [pid for pid in lying if pid not in set(payload)]
            change_index += 1
            dirty = True
        if dirty:
            static = _filmed_table(base, [by_id[pid] for pid in lying], camera.homography)
            under_cards = _indices_under_later_cards([by_id[pid] for pid in lying])
        tick_to_frame.append(written)
        if dropouts.get(tick) == "skip":
            continue
        canvas = static.copy()
        hand_mask = _draw_arms(canvas, segments, t, camera.homography)
        covered_seats.append(_covered_seats([by_id[pid] for pid in lying], hand_mask))
        visible = _visible_indices([by_id[pid] for pid in lying], under_cards, hand_mask)
        if dropouts.get(tick) == "black":
            frame = np.full((h, w, 3), 8, np.uint8)
            truth.black_frames.append(written)
            visible = []
        else:
            frame = _lit(canvas, t, tick, camera, options)
            if tick in hunting:
                frame = cv2.GaussianBlur(frame, (0, 0), hunting[tick])
        writer.write(frame)
        truth.frames.append(visible)
        written += 1
    writer.release()
    _play_frames(director, tick_to_frame, covered_seats, fps)
    truth.plays = director.plays
    truth.gesture_frames = [_frame_of(when, tick_to_frame, fps) for when in director.gesture_times]
    return truth


def _frame_of(time_s: float, tick_to_frame: list[int], fps: float) -> int:
    """The written frame showing time ``time_s`` (the next one kept, past a dropout's skipped ticks)."""
    tick = min(len(tick_to_frame) - 1, max(0, int(math.ceil(time_s * fps))))
    return tick_to_frame[tick]


def _play_frames(director: _Director, tick_to_frame: list[int], covered_seats: list[set[int]], fps: float) -> None:
    """Each play's frame once laid, and the first frame from then on with no arm over its seat's cards."""
    for play, (laid, _arm_gone) in zip(director.plays, director.play_times, strict=True):
        play.laid_frame = _frame_of(laid, tick_to_frame, fps)
        clear = play.laid_frame
        while clear < len(covered_seats) and play.seat in covered_seats[clear]:
            clear += 1
        play.clear_frame = clear


class _MaskArm:
    """The same arm drawn in white on the occlusion mask."""

    def __init__(self, arm: _Arm) -> None:
        self.anchor = arm.anchor
        self.width = arm.width
        self.size = arm.size
        self.sleeve = 255
        self.skin = 255


def save_render(truth: VideoTruth, video_path: Path) -> dict[str, Path]:
    """Write the files that go with a rendered video: ``.truth.json``, ``.setup.json``, ``.frames.json``."""
    video_path = Path(video_path)
    stem = video_path.with_suffix("")
    paths = {
        "truth": stem.with_name(stem.name + ".truth.json"),
        "setup": stem.with_name(stem.name + ".setup.json"),
        "frames": stem.with_name(stem.name + ".frames.json"),
    }
    paths["truth"].write_text(json.dumps(truth.record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    paths["setup"].write_text(json.dumps(truth.setup, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    truth.save(paths["frames"])
    return paths
