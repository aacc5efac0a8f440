"""Weight averaging: one network from two checkpoints of one lineage.

Two runs that start from the same weights (a fine-tuning and the network it started from)
lie close together in weight space, and the network halfway between them often keeps what
each was good at: here the shipped detector (best on the fixed synthetic set) and a
fine-tuning on the real-art scenes (best on real photos). :func:`average_checkpoints` blends
every floating-point tensor as ``(1 - weight) * first + weight * second``; counters (batch
norm's number of batches) come from ``second``. The result is a checkpoint of the same kind,
which ``tuolaji export`` turns into the ONNX file the reader loads. How the shipped blend was
chosen is in ``models/README.md``.

Two kinds of checkpoint are known: an ultralytics detector (``tuolaji train detector``; its
network under ``model``, or ``ema``) and a classifier (``tuolaji train classifier``; a state
dict under ``model``).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from tuolaji.scorer.errors import InputError


def blend_state(first: dict[str, Any], second: dict[str, Any], weight: float, where: str = "") -> dict[str, Any]:
    """``(1 - weight) * first + weight * second`` for every floating-point tensor, the rest
    from ``second``; the two must hold the same tensors of the same shapes.

    >>> import torch
    >>> blend_state({"w": torch.tensor([0.0, 2.0]), "n": torch.tensor(3)},
    ...             {"w": torch.tensor([1.0, 4.0]), "n": torch.tensor(5)}, 0.25)
    {'w': tensor([0.2500, 2.5000]), 'n': tensor(5)}
    >>> blend_state({"w": torch.zeros(2)}, {"v": torch.zeros(2)}, 0.5, "a.pt and b.pt")
    Traceback (most recent call last):
    ...
    tuolaji.scorer.errors.InputError: a.pt and b.pt: not one network (tensors only in one: v, w)
    """
    if first.keys() != second.keys():
        only = sorted(set(first) ^ set(second))
        raise InputError(f"{where}: not one network (tensors only in one: {', '.join(only[:5])})")
    blended: dict[str, Any] = {}
    for key, b in second.items():
        a = first[key]
        if tuple(a.shape) != tuple(b.shape):
            raise InputError(f"{where}: not one network ({key} is {tuple(a.shape)} in one, {tuple(b.shape)} in the other)")
        blended[key] = ((1 - weight) * a.float() + weight * b.float()).to(b.dtype) if b.is_floating_point() else b.clone()
    return blended


def _detector_network(state: dict[str, Any]) -> Any:
    network = state.get("ema") if state.get("ema") is not None else state.get("model")
    if not hasattr(network, "state_dict"):
        raise InputError("not an ultralytics detector checkpoint (no network under 'model' or 'ema')")
    return network


def _load(path: Path) -> Any:
    import pickle
    import zipfile

    import torch

    if not path.exists():
        raise OSError(2, "No such file or directory", str(path))
    try:
        return torch.load(path, map_location="cpu", weights_only=False)
    except (pickle.UnpicklingError, zipfile.BadZipFile, RuntimeError, EOFError, ValueError) as error:
        raise InputError(f"{path}: not a checkpoint torch can read ({type(error).__name__})") from None


def average_checkpoints(first: Path, second: Path, weight: float, out: Path) -> Path:
    """Write to ``out`` the blend of two checkpoints of one kind and one architecture,
    ``weight`` of the way from ``first`` to ``second``; the rest of the checkpoint (settings,
    history) is ``second``'s, with no optimiser state (continue from it with ``--init``)."""
    import torch

    if not 0.0 <= weight <= 1.0:
        raise InputError(f"--weight: expected a number from 0 to 1, got {weight}")
    a, b = (_load(path) for path in (first, second))
    where = f"{first} and {second}"
    if not isinstance(a, dict) or not isinstance(b, dict) or "model" not in a or "model" not in b:
        raise InputError(f"{where}: not training checkpoints (no 'model')")
    detector_a, detector_b = (hasattr(s["model"], "state_dict") or hasattr(s.get("ema"), "state_dict") for s in (a, b))
    if detector_a != detector_b:
        raise InputError(f"{where}: one is a detector, the other a classifier")
    result = dict(b)
    if detector_b:
        network = copy.deepcopy(_detector_network(b))
        network.load_state_dict(blend_state(_detector_network(a).state_dict(), network.state_dict(), weight, where))
        result.update(model=network, ema=None, optimizer=None, updates=None)
    else:
        if a.get("architecture") != b.get("architecture"):
            raise InputError(f"{where}: not one network (architectures {a.get('architecture')} and {b.get('architecture')})")
        result["model"] = blend_state(a["model"], b["model"], weight, where)
        result.pop("optimiser", None)
    result["averaged"] = {"first": str(first), "second": str(second), "weight": weight}
    out.parent.mkdir(parents=True, exist_ok=True)
    temporary = out.with_name(out.name + ".part")
    torch.save(result, temporary)
    temporary.replace(out)
    return out
