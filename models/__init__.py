"""The shipped card models, as package data: ``detector.onnx``, ``classifier.onnx``,
``classifier_small.onnx`` (the small-index specialist), ``face.onnx``, ``classifier_head.npz``
and ``cards.json`` (their class list and reader settings; see ``models/README.md``).

This package holds files, not code. :data:`MODELS_DIR` is where they are, in a checkout
and in an installed wheel alike; the card reader loads from it unless told another folder.
"""

from __future__ import annotations

from pathlib import Path

MODELS_DIR = Path(__file__).resolve().parent
"""The folder of the shipped model files."""
