"""The card reader: corner-index detector + card classifier + grouping, on ONNX Runtime.

Two models from ``models/`` (no torch, no ultralytics at run time):

1. ``detector.onnx``: a one-class YOLO detector of card corner indices (rank + suit pip)
   on the whole frame, resized and letterboxed into 544×416; output ``(1, 5, N)`` = cx, cy,
   w, h, score (already a sigmoid) in input pixels. Numpy NMS.
2. ``classifier.onnx``: reads a 40×40 crop around each index, taken from the frame at
   its full resolution, into the 54 cards or "not a card index", the direction of the
   card's top, and (classifiers with a side head) whether the index is a right-hand
   corner of its card.

Then :func:`group_indices` pairs the indices of one physical card.

The reader lives in several modules, one job each; this one gathers their public names
(the name every caller and the documentation use):

* :mod:`vision.inference`: :class:`CardReader` (the ONNX runs) and its settings
  (:class:`ReaderSettings`, :data:`CAREFUL`, :data:`FAST`, :data:`TABLE`, :func:`reader_preset`);
* :mod:`vision.readings`: what it reads (:class:`IndexReading`, :class:`CardInstance`);
* :mod:`vision.orientation`: the direction of a card's top refined (:func:`refine_up`);
* :mod:`vision.grouping`: NMS and the grouping of indices into cards, with their tuned constants;
* :mod:`vision.cards_json`: ``cards.json`` read and updated; :mod:`vision.inputs`: image files.

>>> reader = CardReader.load()                                    # doctest: +SKIP
>>> [c.card for c in reader.read(cv2.imread("table.jpg"))]        # doctest: +SKIP
['10H', '10H', 'BJ']
>>> from tuolaji.vision import grouping
>>> group_indices is grouping.group_indices and CardReader.__module__
'tuolaji.vision.inference'
"""

from __future__ import annotations

from tuolaji.models import MODELS_DIR
from tuolaji.scorer.cards import CARD_NAMES
from tuolaji.vision.cardcrop import CROP_PX
from tuolaji.vision.cards_json import update_cards_json
from tuolaji.vision.classes import JOKER_NAMES, REJECT
from tuolaji.vision.grouping import (
           drop_duplicate_reads,
           fused_card,
           group_indices,
           may_be_same_card,
           nms,
           pair_cost,
           pair_kind,
)
from tuolaji.vision.inference import (
           CAREFUL,
           FAST,
           TABLE,
           CardReader,
           ReaderSettings,
           load_layout_reader,
           reader_preset,
)
from tuolaji.vision.inputs import read_image_file
from tuolaji.vision.orientation import refine_up, refine_ups
from tuolaji.vision.readings import Box, CardInstance, IndexReading

__all__ = ["CARD_NAMES", "CAREFUL", "CROP_PX", "FAST", "JOKER_NAMES", "MODELS_DIR", "REJECT", "TABLE",
           "Box", "CardInstance", "CardReader", "IndexReading", "ReaderSettings", "drop_duplicate_reads",
           "fused_card", "group_indices", "load_layout_reader", "may_be_same_card", "nms", "pair_cost",
           "pair_kind", "read_image_file", "reader_preset", "refine_up", "refine_ups", "update_cards_json"]
