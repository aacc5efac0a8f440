"""The bundled demo: the last tricks of a 3-deck deal filmed from above, the deal so far, the truth.

A ``titanic-3deck`` deal between four players (东 南 西 北), built with the rules core
(:mod:`datasets.demo`): the session starts from the record of the deal so far
(:data:`DEMO_SETUP`, its first tricks), and the video films its last seven tricks, read live
by the table pipeline: a failed throw (甩牌失败), a revoke that the next trick proves, the last
trick won by the defenders (抠底 ×4). The page then shows the kitty turned up, the settlement
and its level change, and the demo ends there (:data:`DEMO_RECORD_FILE`: the whole game, with
the next deal as 开始下一副 would start it).
``tuolaji replay`` on the video from the set-up must reproduce :data:`DEMO_TRUTH` exactly;
the page plays it when no camera is at hand.

>>> DEMO_VIDEO.name, DEMO_SETUP.name, DEMO_TRUTH.name, DEMO_RECORD_FILE.name
('demo-3deck.mp4', 'demo-3deck.setup.json', 'demo-3deck.truth.json', 'demo-3deck.record.json')
>>> len(demo_record()["deals"]), len(json.loads(DEMO_SETUP.read_text(encoding="utf-8"))["deals"][0]["tricks"])
(2, 21)

Rebuild it (deterministic for a given OpenCV build) with ``tuolaji demo``
(:mod:`tuolaji.demo`; the renderer is loaded only there: reading the demo needs only
these files).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tuolaji.models import MODELS_DIR

if TYPE_CHECKING:
    from tuolaji.vision.zone_reading import CardReaderLike

DEMO_DIR = Path(__file__).resolve().parent / "demo"
DEMO_VIDEO = DEMO_DIR / "demo-3deck.mp4"
DEMO_SETUP = DEMO_DIR / "demo-3deck.setup.json"
DEMO_TRUTH = DEMO_DIR / "demo-3deck.truth.json"
DEMO_FRAMES = DEMO_DIR / "demo-3deck.frames.json"
"""Per-frame ground truth (for ``tuolaji replay --oracle`` and the reader's evaluation)."""

DEMO_RECORD_FILE = DEMO_DIR / "demo-3deck.record.json"
"""The whole demo game: the deal with its kitty, and the next deal as 开始下一副 starts it."""


def demo_record() -> dict[str, Any]:
    """The whole demo game (:data:`DEMO_RECORD_FILE`)."""
    record: dict[str, Any] = json.loads(DEMO_RECORD_FILE.read_text(encoding="utf-8"))
    return record


def demo_finale() -> dict[str, Any]:
    """What the demo does once the video has played: the kitty turned up (the deal settled)."""
    game = demo_record()
    return {"kitty": list(game["deals"][0]["kitty"])}


READY_F1 = 0.95
"""Card F1 on the fixed test set that issue 3 asks of the shipped card reader."""


def _recorded_metrics(models_dir: Path) -> dict[str, Any] | None:
    if not all((Path(models_dir) / name).exists() for name in ("detector.onnx", "classifier.onnx")):
        return None
    try:
        metrics = json.loads((Path(models_dir) / "cards.json").read_text(encoding="utf-8"))["metrics"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return metrics if isinstance(metrics, dict) else None


def shipped_reader_f1(models_dir: Path = MODELS_DIR) -> float | None:
    """The shipped card reader's card F1 on the fixed test set, as recorded in ``cards.json``
    (``metrics.fixed_test_f1``); None when there is no model or no measurement."""
    value = (_recorded_metrics(models_dir) or {}).get("fixed_test_f1")
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def shipped_reader_is_ready(models_dir: Path = MODELS_DIR) -> bool:
    """Whether the shipped card reader replays the demo exactly, as recorded in ``cards.json``
    (``metrics.demo_replay_exact``, written by :func:`record_demo_check`; the tests replay
    the demo and hold the record to it).

    Until it does, the demo reads its cards from :data:`DEMO_FRAMES` (and says so), so a
    newcomer sees the pipeline and the page score the deal rather than a model's
    misreads; ``--video`` and ``--camera`` always use the model.
    """
    return (_recorded_metrics(models_dir) or {}).get("demo_replay_exact") is True


def replay_demo(reader: CardReaderLike) -> dict[str, Any]:
    """Replay the demo headless with ``reader`` from the deal so far: the record it ends with."""
    from tuolaji.session.live import LiveGame
    from tuolaji.vision.pipeline import TablePipeline, open_source

    game = LiveGame(json.loads(DEMO_SETUP.read_text(encoding="utf-8")))
    with open_source(str(DEMO_VIDEO)) as source:
        TablePipeline(game, reader=reader).run(source)
    return game.snapshot()


def demo_replays_exactly(reader: CardReaderLike) -> tuple[int, int]:
    """Replay the demo headless with ``reader``: (filmed tricks equal to the truth, filmed tricks
    in the truth or in the replay, whichever has more)."""
    setup = json.loads(DEMO_SETUP.read_text(encoding="utf-8"))
    truth = json.loads(DEMO_TRUTH.read_text(encoding="utf-8"))
    first = len(setup["deals"][0]["tricks"])
    got = replay_demo(reader)["deals"][0]["tricks"][first:]
    want = truth["deals"][0]["tricks"][first:]
    keys = ("leader", "plays", "attempt")
    exact = sum(1 for g, w in zip(got, want, strict=False)
                if {k: g.get(k) for k in keys} == {k: w.get(k) for k in keys})
    return exact, max(len(got), len(want))
