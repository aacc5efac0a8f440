"""Training runs offline in a checkout: where its data lives, and ultralytics kept off the network.

Training, export and evaluation work in a checkout of the project: :data:`REPO` is its root,
``data/`` under it holds the generated sets and the runs, and the relative paths of
``models/train.yaml`` are relative to it. (The runtime never looks for the checkout: it reads the
shipped models through :mod:`models`.)
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
"""The checkout's root (training only)."""


def configure_offline(data_dir: Path, threads: int) -> None:
    """Keep ultralytics off the network and torch on ``threads`` threads (call before importing them)."""
    config_dir = data_dir / "yolo_config"
    (config_dir / "Ultralytics").mkdir(parents=True, exist_ok=True)
    os.environ["YOLO_CONFIG_DIR"] = str(config_dir)
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ["YOLO_AUTOINSTALL"] = "false"
    os.environ["YOLO_VERBOSE"] = os.environ.get("YOLO_VERBOSE", "true")
    os.environ["OMP_NUM_THREADS"] = str(threads)
    os.environ["MKL_NUM_THREADS"] = str(threads)
    font = local_font()
    for name in ("Arial.ttf", "Arial.Unicode.ttf"):
        target = config_dir / "Ultralytics" / name
        if not target.exists() and font is not None:
            shutil.copyfile(font, target)


def local_font() -> Path | None:
    from tuolaji.datasets.cardart import available_fonts

    for path in available_fonts()["train"]:
        if path.endswith(".ttf") and os.path.exists(path):
            return Path(path)
    return None
