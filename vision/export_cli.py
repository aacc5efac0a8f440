"""``tuolaji export``: turn trained checkpoints into the ONNX files the reader loads.

* the detector (ultralytics ``.pt``) -> ``detector.onnx``, a rectangular 336×448 input
  (a 640×480 frame at the 0.7 scale the detector trained at; the network is fully
  convolutional, so a 4:3 frame needs no square padding);
* the classifier (``best.pt`` of ``tuolaji train classifier``) -> ``classifier.onnx``
  with a dynamic batch axis, outputs ``probs`` (N×55) and ``up`` (N×2);
* ``cards.json``: class names, input sizes, reader thresholds and provenance.

Example::

    tuolaji export --detector data/runs/detector/weights/best.pt \\
                   --classifier data/runs/classifier/best.pt --out models
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

from vision.train_cli import REPO, configure_offline

CARD_NAMES: tuple[str, ...] = tuple(
    r + s for s in "SHCD" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
) + ("SJ", "BJ")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--detector", type=Path, help="ultralytics checkpoint (.pt) of the index detector")
    parser.add_argument("--classifier", type=Path, help="classifier checkpoint (.pt) from `tuolaji train classifier`")
    parser.add_argument("--out", type=Path, default=REPO / "models", help="output folder (default models/)")
    parser.add_argument("--imgsz", default="336x448", help="detector input HxW (default 336x448: 640x480 frames at 0.7)")


def export_detector(checkpoint: Path, out_dir: Path, height: int = 336, width: int = 448) -> Path:
    """Export the ultralytics detector to ``out_dir/detector.onnx``."""
    if not checkpoint.exists():
        raise OSError(2, "No such file or directory", str(checkpoint))
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


def export_classifier(checkpoint: Path, out_dir: Path) -> Path:
    """Export the classifier to ``out_dir/classifier.onnx`` (dynamic batch)."""
    if not checkpoint.exists():
        raise OSError(2, "No such file or directory", str(checkpoint))
    import torch

    from vision.cardcrop import CROP_PX
    from vision.classifier_model import ExportWrapper, from_checkpoint

    state = torch.load(checkpoint, map_location="cpu", weights_only=False)
    net = from_checkpoint(state)
    wrapper = ExportWrapper(net).eval()
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / "classifier.onnx"
    dummy = torch.zeros(2, 3, CROP_PX, CROP_PX)
    torch.onnx.export(wrapper, (dummy,), str(target), input_names=["crops"], output_names=["probs", "up"],
                      dynamic_axes={"crops": {0: "n"}, "probs": {0: "n"}, "up": {0: "n"}}, opset_version=17,
                      dynamo=False)
    return target


def write_cards_json(out_dir: Path, height: int = 336, width: int = 448, extra: dict | None = None) -> Path:
    """Class names and reader settings next to the ONNX files (existing keys are kept)."""
    path = out_dir / "cards.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    data.update({
        "detector_classes": ["index"],
        "classifier_classes": [*CARD_NAMES, "reject"],
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
    from scorer.errors import InputError

    if not args.detector and not args.classifier:
        raise InputError("export: give --detector and/or --classifier")
    try:
        height, width = (int(v) for v in args.imgsz.lower().split("x"))
    except ValueError:
        raise InputError(f"--imgsz: expected HxW like 480x640, got {args.imgsz!r}") from None
    if args.detector:
        print(f"wrote {export_detector(args.detector, args.out, height, width)}")
    if args.classifier:
        print(f"wrote {export_classifier(args.classifier, args.out)}")
    print(f"wrote {write_cards_json(args.out, height, width)}")
    return 0
