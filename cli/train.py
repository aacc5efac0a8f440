"""``tuolaji train``: train the card models on this machine's CPU, offline and resumable.

Three models, one per sub-command:

* ``tuolaji train detector``: the one-class corner-index YOLO detector (ultralytics,
  from ``models/cardindex.yaml``, no pretrained weights), trained on 320×320 scenes at
  the pixel scale of a 640×480 camera frame. Ultralytics writes ``last.pt`` after every
  epoch; ``--resume`` continues from it.
* ``tuolaji train classifier``: the small CNN (:mod:`training.classifier_model`) that reads
  a crop around each detected index into one of the 54 cards or "not a card index", and
  the direction of the card's top. It checkpoints after every epoch; ``--resume``
  continues from ``last.pt``.
* ``tuolaji train face``: the whole-face reader (:mod:`training.face_train`) on the
  pictures of ``tuolaji face-set``; the same checkpoints and ``--resume``.

Settings come from ``models/train.yaml``; flags override them. Needs the ``train`` extra
(torch, ultralytics). Nothing here touches the network: ultralytics runs with
``YOLO_OFFLINE``, no auto-install, settings sync off, its config folder under ``data/``
and a local font standing in for the Arial.ttf it would otherwise download.

Example::

    nice -n 5 tuolaji train detector --resume
    tuolaji train classifier --epochs 30
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from tuolaji.models import MODELS_DIR
from tuolaji.scorer.errors import InputError

DEFAULT_CONFIG = MODELS_DIR / "train.yaml"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("model", choices=("detector", "classifier", "face"), help="which model to train")
    parser.add_argument("--config", type=Path, default=DEFAULT_CONFIG, help="settings yaml (default models/train.yaml)")
    parser.add_argument("--train", nargs="+", type=Path, help="training set folder(s) written by `tuolaji generate`")
    parser.add_argument("--val", nargs="+", type=Path, help="validation set folder(s)")
    parser.add_argument("--out", type=Path, help="run folder (detector: project/name; classifier: out)")
    parser.add_argument("--epochs", type=int, help="number of epochs")
    parser.add_argument("--batch", type=int, help="batch size")
    parser.add_argument("--threads", type=int, help="torch threads (default from the settings: 2)")
    parser.add_argument("--resume", action="store_true", help="continue the run in the run folder from last.pt")
    parser.add_argument("--init", type=Path, help="start from these weights (a .pt) instead of scratch")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="override one setting of the yaml, e.g. --set lr0=0.002 (repeatable)")


def load_settings(path: Path, model: str) -> dict:
    """The ``model`` section of the settings yaml.

    >>> load_settings(DEFAULT_CONFIG, "detector")["batch"]
    16
    """
    import yaml

    if not path.exists():
        raise OSError(2, "No such file or directory", str(path))
    data = yaml.safe_load(path.read_text()) or {}
    if model not in data:
        raise InputError(f"{path}: no section {model!r}")
    return dict(data[model])


def _import_ultralytics(threads: int):
    import torch

    torch.set_num_threads(threads)
    import ultralytics.utils.torch_utils as torch_utils
    from ultralytics import YOLO
    from ultralytics.utils import SETTINGS

    torch_utils.NUM_THREADS = threads
    if SETTINGS.get("sync", True):
        SETTINGS.update({"sync": False})
    return YOLO


def _write_data_yaml(run_dir: Path, train: list[Path], val: list[Path]) -> Path:
    for folder in [*train, *val]:
        if not (folder / "images").is_dir():
            raise InputError(f"{folder}: not a data set (no images/ folder); run `tuolaji generate` first")
    run_dir.mkdir(parents=True, exist_ok=True)
    path = run_dir / "data.yaml"
    lines = ["train:"] + [f"  - {(f / 'images').resolve()}" for f in train]
    lines += ["val:"] + [f"  - {(f / 'images').resolve()}" for f in val]
    lines += ["names:", "  0: index", ""]
    path.write_text("\n".join(lines))
    return path


def train_detector(settings: dict, args: argparse.Namespace) -> int:
    from tuolaji.training.offline import REPO, configure_offline

    threads = int(args.threads or settings.get("threads", 2))
    configure_offline(REPO / "data", threads)
    yolo = _import_ultralytics(threads)
    project = Path(settings.get("project", "data/runs"))
    name = settings.get("name", "detector")
    if args.out:
        project, name = args.out.parent, args.out.name
    project = project if project.is_absolute() else REPO / project
    run_dir = project / name
    last = run_dir / "weights" / "last.pt"
    train, val = _sets(args, settings)
    if args.resume:
        if not last.exists():
            raise OSError(2, "No checkpoint to resume from", str(last))
        _repoint_checkpoint(last, _write_data_yaml(run_dir, train, val), project, name, args.epochs)
        yolo(str(last)).train(resume=True)
        return 0
    data_yaml = _write_data_yaml(run_dir, train, val)
    model_file = str(args.init or _repo_path(settings.get("model", "models/cardindex.yaml")))
    # every other setting goes to ultralytics as is (imgsz, lr0, mosaic, ...)
    own = {"model", "train", "val", "project", "name", "epochs", "batch", "threads"}
    overrides = {k: v for k, v in settings.items() if k not in own}
    yolo(model_file).train(
        data=str(data_yaml),
        epochs=int(args.epochs or settings.get("epochs", 60)),
        batch=int(args.batch or settings.get("batch", 32)),
        workers=0,
        device="cpu",
        project=str(project),
        name=name,
        exist_ok=True,
        pretrained=args.init is not None,  # --init: start from those weights
        amp=False,
        plots=False,
        deterministic=False,
        verbose=True,
        **overrides,
    )
    return 0


def _repoint_checkpoint(checkpoint: Path, data_yaml: Path, project: Path, name: str, epochs: int | None) -> None:
    """Point a checkpoint's saved paths at this machine's folders, so a run copied from
    another machine (or from models/checkpoints/) resumes here; ``epochs`` changes the
    run's length (its learning-rate schedule and last no-mosaic epochs follow)."""
    import torch

    state = torch.load(checkpoint, map_location="cpu", weights_only=False)
    train_args = state.get("train_args", {})
    train_args.update(data=str(data_yaml), project=str(project), name=name, save_dir=str(project / name),
                      device="cpu", workers=0, exist_ok=True)
    if epochs:
        train_args["epochs"] = int(epochs)
    state["train_args"] = train_args
    torch.save(state, checkpoint)


def _sets(args: argparse.Namespace, settings: dict) -> tuple[list[Path], list[Path]]:
    """The training and validation folders: the command line's, else the settings'."""
    train = [_repo_path(p) for p in (args.train or _as_list(settings["train"]))]
    val = [_repo_path(p) for p in (args.val or _as_list(settings["val"]))]
    return train, val


def _as_list(value) -> list:
    return list(value) if isinstance(value, list | tuple) else [value]


def _repo_path(path) -> Path:
    from tuolaji.training.offline import REPO

    p = Path(path)
    return p if p.is_absolute() else REPO / p


def apply_overrides(settings: dict, pairs: list[str]) -> dict:
    """Settings with ``KEY=VALUE`` overrides (values parsed as YAML scalars).

    >>> apply_overrides({"lr0": 0.004}, ["lr0=0.002", "mosaic=0"])
    {'lr0': 0.002, 'mosaic': 0}
    """
    import yaml

    out = dict(settings)
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise InputError(f"--set: expected KEY=VALUE, got {pair!r}")
        out[key.strip()] = yaml.safe_load(value)
    return out


def train_face(settings: dict, args: argparse.Namespace) -> int:
    from tuolaji.training.face_train import train

    train_dirs, val_dirs = _sets(args, settings)
    for folder in [*train_dirs, *val_dirs]:
        if not (folder / "faces-train.npz").exists():
            raise InputError(f"{folder}: not a face set (no faces-train.npz); run `tuolaji face-set` first")
    result = train(train_dirs, val_dirs, args.out or _repo_path(settings.get("out", "data/runs/face")),
                   int(args.epochs or settings.get("epochs", 20)), resume=args.resume, init=args.init,
                   lr=float(settings.get("lr", 0.003)), batch=int(args.batch or settings.get("batch", 96)),
                   width=int(settings.get("width", 20)), threads=int(args.threads or settings.get("threads", 2)),
                   seed=int(settings.get("seed", 0)), samples_per_epoch=int(settings.get("samples_per_epoch", 0)),
                   strong_augment=bool(settings.get("strong_augment", False)))
    print(f"train face: epoch {result.get('epoch')}, validation accuracy {result.get('accuracy', 0):.3f}")
    return 0


def run(args: argparse.Namespace) -> int:
    settings = apply_overrides(load_settings(args.config, args.model), args.set)
    if args.model == "detector":
        return train_detector(settings, args)
    if args.model == "face":
        return train_face(settings, args)
    from tuolaji.training.classifier_train import train_classifier

    threads = int(args.threads or settings.get("threads", 2))
    os.environ["OMP_NUM_THREADS"] = str(threads)
    out = args.out or _repo_path(settings.get("out", "data/runs/classifier"))
    train, val = _sets(args, settings)
    train_classifier(
        train_dirs=train,
        val_dirs=val,
        out_dir=out,
        epochs=int(args.epochs or settings.get("epochs", 30)),
        batch=int(args.batch or settings.get("batch", 128)),
        samples_per_epoch=settings.get("samples_per_epoch"),
        lr=float(settings.get("lr", 0.003)),
        weight_decay=float(settings.get("weight_decay", 1e-4)),
        seed=int(settings.get("seed", 0)),
        threads=threads,
        resume=args.resume,
        init=args.init,
        log=sys.stderr,
        width=int(settings.get("width", 16)),
        extra=int(settings.get("extra", 0)),
        small_below=float(settings.get("small_below", 0.0)),
        small_weight=float(settings.get("small_weight", 1.0)),
        lowres_share=float(settings.get("lowres_share", 0.0)),
        small_only=float(settings.get("small_only", 0.0)),
        black_weight=float(settings.get("black_weight", 1.0)),
        shape_jitter=float(settings.get("shape_jitter", 0.0)),
        invert_share=float(settings.get("invert_share", 0.0)),
    )
    return 0
