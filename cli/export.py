"""``tuolaji export``: turn trained checkpoints into the ONNX files the reader loads.

* the detector (ultralytics ``.pt``) -> ``detector.onnx``, a rectangular 416×544 input
  (a 640×480 frame at 0.85 scale: the detector trained at 0.7, and finds more of the
  smallest indices a little larger; the network is fully convolutional, so a 4:3 frame
  needs no square padding);
* the classifier (``best.pt`` of ``tuolaji train classifier``) -> ``classifier.onnx``
  with a dynamic batch axis, outputs ``probs`` (N×55), ``up`` (N×2) and (networks with a
  side head) ``side`` (N), in 32-bit floats: it reads the same on every CPU
  (``--int8-classifier`` quantizes its convolutions to 8 bits with 7-bit weights, which no
  CPU's integer kernels can overflow; models/README has the figures of both);
* a small-index specialist (``--small-classifier``, a classifier trained with
  ``--set small_only=18``) -> ``classifier_small.onnx``, the same contract;
* ``cards.json``: class names, input sizes, reader thresholds and provenance;
* ``reader_check.npz``: index crops of the fixed test set and the bundled demo with what the
  classifiers read on them through ONNX Runtime's reference path; the reader checks this
  CPU's optimised kernels against them at load (:mod:`vision.model_check`).

Example::

    tuolaji export --detector data/runs/detector/weights/best.pt \\
                   --classifier data/runs/classifier/best.pt --out models
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from tuolaji.models import MODELS_DIR

if TYPE_CHECKING:
    import numpy as np


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--detector", type=Path, help="ultralytics checkpoint (.pt) of the index detector")
    parser.add_argument("--classifier", type=Path, action="append",
                        help="classifier checkpoint (.pt) from `tuolaji train classifier`; twice or more: one ensemble network")
    parser.add_argument("--small-classifier", type=Path,
                        help="small-index specialist checkpoint (.pt; `tuolaji train classifier --set small_only=18`) -> classifier_small.onnx")
    parser.add_argument("--out", type=Path, default=MODELS_DIR, help="output folder (default: the shipped models/)")
    parser.add_argument("--face", type=Path, help="face reader checkpoint (last.pt of `tuolaji train face`) -> face.onnx")
    parser.add_argument("--int8-classifier", action="store_true",
                        help="quantize the classifiers' convolutions to 8 bits (7-bit weights; default: 32-bit floats)")
    parser.add_argument("--calibration", type=Path, action="append",
                        help="crops set(s) to calibrate the 8-bit classifier on (default: the checkpoint's training sets)")
    parser.add_argument("--reader-check", action="store_true",
                        help="only write reader_check.npz for the classifiers already in --out")
    parser.add_argument("--imgsz", default="416x544", help="detector input HxW (default 416x544: 640x480 frames at 0.85)")


def export_detector(checkpoint: Path, out_dir: Path, height: int = 416, width: int = 544) -> Path:
    """Export the ultralytics detector to ``out_dir/detector.onnx``."""
    if not checkpoint.exists():
        raise OSError(2, "No such file or directory", str(checkpoint))
    from tuolaji.training.offline import REPO, configure_offline

    configure_offline(REPO / "data", 2)
    from ultralytics import YOLO

    model = YOLO(str(checkpoint))
    # dynamic height and width: the reader turns its input upright for portrait photos
    produced = Path(model.export(format="onnx", imgsz=[height, width], opset=17, simplify=True, dynamic=True,
                                 half=False, batch=1, device="cpu"))
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / "detector.onnx"
    shutil.copyfile(produced, target)
    return target


CALIBRATION_CROPS = 1024
"""Training crops the 8-bit classifier's activation ranges are measured on."""


def export_classifier(checkpoints: Path | list[Path], out_dir: Path, quantize: bool = False,
                      calibration: list[Path] | None = None, name: str = "classifier.onnx") -> Path:
    """Export the classifier to ``out_dir/name`` (dynamic batch), 8-bit unless
    ``quantize`` is false; ``calibration`` defaults to the first checkpoint's training sets.
    The classifier (not the small-index specialist) also gets its ``features`` output.

    Several checkpoints make one ensemble network (probabilities and directions averaged).
    """
    import tempfile

    import torch

    from tuolaji.training.classifier_model import ExportWrapper, from_checkpoint
    from tuolaji.training.offline import REPO
    from tuolaji.vision.cardcrop import CROP_PX

    checkpoints = [checkpoints] if isinstance(checkpoints, Path) else list(checkpoints)
    for checkpoint in checkpoints:
        if not checkpoint.exists():
            raise OSError(2, "No such file or directory", str(checkpoint))
    states = [torch.load(c, map_location="cpu", weights_only=False) for c in checkpoints]
    if quantize and not calibration:
        calibration = [REPO / p if not Path(p).is_absolute() else Path(p) for p in states[0].get("train", ["data/sets/cls-train"])]
    wrapper = ExportWrapper(*(from_checkpoint(state) for state in states)).eval()
    outputs = ["probs", "up", "side"] if wrapper.has_side else ["probs", "up"]
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / name
    dummy = torch.zeros(2, 3, CROP_PX, CROP_PX)
    with tempfile.TemporaryDirectory() as tmp:
        float_path = Path(tmp) / "classifier.float.onnx" if quantize else target
        torch.onnx.export(wrapper, (dummy,), str(float_path), input_names=["crops"], output_names=outputs,
                          dynamic_axes={name: {0: "n"} for name in ["crops", *outputs]}, opset_version=17, dynamo=False)
        if quantize:
            quantize_classifier(float_path, target, calibration or [])
    if len(checkpoints) == 1 and name == "classifier.onnx":
        expose_features(target)
    return target


FEATURES_OUTPUT = "features"
"""The classifier's output that enrolment adapts a deck's head on (:mod:`vision.enrol`)."""



def expose_features(classifier: Path) -> Path:
    """Add the input of the class head (the flattened features, after any dequantization)
    to ``classifier``'s outputs as ``features``, and write that head's weights to
    ``classifier_head.npz`` beside it; returns the npz path.

    ``softmax(features @ weight.T + bias)`` is then the network's ``probs``: enrolment
    starts a deck's head from these weights and adapts them to the deck.
    """
    import numpy as np
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(classifier))
    graph = model.graph
    heads = [n for n in graph.node if n.op_type == "Gemm" and "classes" in n.output[0]]
    if len(heads) != 1:
        raise ValueError(f"{classifier}: expected one class head (a Gemm), found {len(heads)}")
    head = heads[0]
    transposed = any(a.name == "transB" and a.i == 1 for a in head.attribute)
    initializers = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    weight, bias = initializers[head.input[1]], initializers[head.input[2]]
    weight = weight if transposed else weight.T
    if FEATURES_OUTPUT not in [o.name for o in graph.output]:
        graph.node.append(onnx.helper.make_node("Identity", [head.input[0]], [FEATURES_OUTPUT]))
        graph.output.append(onnx.helper.make_tensor_value_info(FEATURES_OUTPUT, onnx.TensorProto.FLOAT, ["n", weight.shape[1]]))
        onnx.save(model, str(classifier))
    from tuolaji.vision.decks import CLASSIFIER_HEAD_FILE

    path = classifier.parent / CLASSIFIER_HEAD_FILE
    np.savez_compressed(path, weight=weight.astype(np.float32), bias=bias.astype(np.float32))
    return path


def quantize_classifier(float_path: Path, target: Path, calibration: list[Path], count: int = CALIBRATION_CROPS,
                        seed: int = 0) -> Path:
    """Write an 8-bit copy of the float classifier at ``float_path`` to ``target``.

    Static quantization of the convolutions (QDQ, signed weights per output channel in 7
    bits, unsigned 8-bit activations; the heads stay in floats) with activation ranges
    measured on ``count`` crops drawn (seeded) from the ``calibration`` crop sets: the same
    crops give the same file. Full 8-bit weights overflow the 16-bit pair sums of the AVX2
    integer kernel (255·127·2 > 32767) on CPUs without VNNI, which then read worse; 7-bit
    weights (255·64·2 ≤ 32767) cannot.
    """
    import numpy as np
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    from tuolaji.training.classifier_train import load_crops
    from tuolaji.vision.cardcrop import classifier_blob

    crops, _labels, _angles, _sides = load_crops(calibration)
    chosen = crops[np.random.default_rng(seed).permutation(len(crops))[:count]]
    blobs = classifier_blob(chosen)

    class Batches(CalibrationDataReader):
        def __init__(self) -> None:
            self.start = 0

        def get_next(self) -> dict | None:
            if self.start >= len(blobs):
                return None
            batch = blobs[self.start : self.start + 64]
            self.start += 64
            return {"crops": batch}

    prepared = float_path.with_suffix(".prepared.onnx")
    quant_pre_process(str(float_path), str(prepared))
    quantize_static(str(prepared), str(target), Batches(), quant_format=QuantFormat.QDQ, per_channel=True,
                    activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, reduce_range=True,
                    op_types_to_quantize=["Conv", "Relu", "Flatten"])  # the heads stay in floats: exact probabilities and directions
    return target


def write_cards_json(out_dir: Path, height: int = 416, width: int = 544, extra: dict | None = None) -> Path:
    """Class names and reader settings next to the ONNX files.

    The reader's thresholds are kept (the starting point for tuning the new models); what
    was measured of the models these replace (``metrics``, ``reader_tuned_on``) is dropped.
    """
    from tuolaji.vision.classes import CLASSIFIER_CLASSES

    path = out_dir / "cards.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    for stale in ("metrics", "reader_tuned_on"):
        data.pop(stale, None)
    data.update({
        "detector_classes": ["index"],
        "classifier_classes": list(CLASSIFIER_CLASSES),
        "detector_input": {"height": height, "width": width, "layout": "NCHW RGB float 0..1, letterboxed at top-left"},
        "classifier_input": {"size": 40, "layout": "NCHW BGR float 0..1, square crop 1.3x the index box"},
    })
    reader = data.setdefault("reader", {"detect_threshold": 0.25, "nms_iou": 0.5, "class_threshold": 0.4,
                                        "card_threshold": 0.35})
    reader.update(input_width=width, input_height=height)
    if extra:
        data.update(extra)
    path.write_text(json.dumps(data, indent=1) + "\n")
    return path


def run(args: argparse.Namespace) -> int:
    from tuolaji.scorer.errors import InputError

    if args.reader_check:
        print(f"wrote {write_reader_check(args.out)}")
        return 0
    if not args.detector and not args.classifier and not args.face and not args.small_classifier:
        raise InputError("export: give --detector, --classifier, --small-classifier, --face or --reader-check")
    try:
        height, width = (int(v) for v in args.imgsz.lower().split("x"))
    except ValueError:
        raise InputError(f"--imgsz: expected HxW like 480x640, got {args.imgsz!r}") from None
    if args.detector:
        print(f"wrote {export_detector(args.detector, args.out, height, width)}")
    if args.face:
        from tuolaji.training.face_train import export_face

        if not args.face.exists():
            raise OSError(2, "No such file or directory", str(args.face))
        print(f"wrote {export_face(args.face, args.out)}")
    if args.small_classifier:
        from tuolaji.vision.inference import SMALL_CLASSIFIER_FILE

        print(f"wrote {export_classifier(args.small_classifier, args.out, args.int8_classifier, args.calibration, SMALL_CLASSIFIER_FILE)}")
    if args.classifier:
        print(f"wrote {export_classifier(args.classifier, args.out, args.int8_classifier, args.calibration)}")
    if args.classifier or args.small_classifier or args.detector:
        print(f"wrote {write_reader_check(args.out)}")
    if not args.detector and not args.classifier:  # cards.json describes the detector and the classifier
        return 0
    extra = {"classifier_weights": "int8 (7-bit weights)" if args.int8_classifier else "float32"} if args.classifier else None
    print(f"wrote {write_cards_json(args.out, height, width, extra)}")
    return 0


CHECK_CROPS = 96
"""How many index crops ``reader_check.npz`` holds at most."""


def check_crops(models_dir: Path, limit: int = CHECK_CROPS) -> np.ndarray:
    """Index crops for the reader check: every index a detector finds in the fixed test set
    (``tests/data/detector``) and in frames of the bundled demo, corners of jokers among them;
    at most ``limit``, spread evenly. The detector is ``models_dir``'s, or the shipped one where
    that folder has none or it finds nothing (a detector trained for a few minutes)."""
    import cv2
    import numpy as np

    from tuolaji.training.offline import REPO
    from tuolaji.vision.cardcrop import crop_index
    from tuolaji.vision.demo import DEMO_VIDEO
    from tuolaji.vision.detector import CardReader

    frames = [cv2.imread(str(p)) for p in sorted((REPO / "tests" / "data" / "detector" / "images").glob("*.jpg"))]
    capture = cv2.VideoCapture(str(DEMO_VIDEO))
    count = int(capture.get(cv2.CAP_PROP_FRAME_COUNT))
    for index in range(0, count, max(1, count // 24)):
        capture.set(cv2.CAP_PROP_POS_FRAMES, index)
        ok, frame = capture.read()
        if ok:
            frames.append(frame)
    capture.release()
    frames = [f for f in frames if f is not None]
    folders = [f for f in (models_dir, MODELS_DIR) if (f / "detector.onnx").exists()]
    for folder in dict.fromkeys(folders):
        reader = CardReader.load(folder)
        crops = [crop_index(frame, tuple(box)) for frame in frames for box in reader.detect(frame)[0]]
        if crops:
            chosen = np.linspace(0, len(crops) - 1, min(limit, len(crops))).round().astype(int)
            return np.stack([crops[k] for k in chosen])
    raise ValueError(f"{models_dir}: no detector found an index for the reader check")


def write_reader_check(models_dir: Path) -> Path:
    """Write ``reader_check.npz`` for the classifiers in ``models_dir`` (:mod:`vision.model_check`)."""
    from tuolaji.vision.model_check import write_check

    return write_check(models_dir, check_crops(models_dir))
