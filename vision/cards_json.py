"""``models/cards.json``: the reader's settings, metrics and class list beside the networks,
read safely and updated in place."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tuolaji.models import MODELS_DIR
from tuolaji.scorer.errors import InputError


def update_cards_json(models_dir: str | Path | None = None, *, reader: dict[str, Any] | None = None,
                      metrics: dict[str, Any] | None = None, **fields: object) -> Path:
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


def read_cards_json(path: Path) -> dict[str, Any]:
    """``cards.json`` through the safe JSON reader (an object, or InputError naming the file)."""
    from tuolaji.scorer import safejson

    meta = safejson.loads(path.read_bytes(), str(path))
    if not isinstance(meta, dict) or not isinstance(meta.get("reader", {}), dict):
        raise InputError("reader.cards_json", path=str(path))
    return meta
