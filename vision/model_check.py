"""The same reads on every CPU: each classifier checked against its reference reads at load.

ONNX Runtime picks its kernels by the CPU it runs on (AVX2, AVX-512, VNNI, ARM NEON), and
its graph optimisations fuse a model into those kernels. A model that reads right on one
CPU can read worse on another: an 8-bit model whose products overflow the 16-bit sums of
the AVX2 integer kernel did exactly that. The shipped classifiers are float networks, and
``models/reader_check.npz`` holds index crops (corners of the fixed test set and of the
bundled demo, jokers among them) with what each classifier reads on them with every graph
optimisation off (ONNX Runtime's reference path). At load, :func:`checked_session` runs the
optimised session on those crops; where it reads any crop as another card, or its
probabilities stray more than :data:`TOLERANCE`, the model is read through the reference
path instead, and the reader says so (:attr:`KernelCheck.note`). ``tuolaji check-reader``
prints the check with this CPU's features.

>>> KernelCheck("classifier.onnx", crops=3, disagreeing=0, max_difference=1e-6).agrees
True
>>> KernelCheck("classifier.onnx", crops=3, disagreeing=1, max_difference=0.4).agrees
False
"""

from __future__ import annotations

import hashlib
import importlib
import platform
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tuolaji.vision.cardcrop import classifier_blob

CHECK_FILE = "reader_check.npz"
"""The check crops and the reference reads, beside the models."""
TOLERANCE = 0.02
"""The largest difference of a class probability from the reference that still counts as the same read
(float kernels of different CPUs differ by about 1e-5)."""


@dataclass(frozen=True)
class KernelCheck:
    """How one model's optimised session read the check crops against the reference."""

    model: str
    crops: int
    disagreeing: int  # crops read as another card (or reject) than the reference reads
    max_difference: float  # the largest probability difference from the reference
    reference_kernels: bool = False  # the model is read through the reference path (the optimised one disagreed)
    checked: bool = True  # False: no check crops for this model file (a model trained after the check was made)

    @property
    def agrees(self) -> bool:
        """True when the optimised session reads every check crop as the reference does."""
        return self.disagreeing == 0 and self.max_difference <= TOLERANCE

    @property
    def note(self) -> str:
        """One line for a person."""
        if not self.checked:
            return f"{self.model}: no check crops for this model file; not checked"
        if self.agrees:
            return (f"{self.model}: {self.crops} check crops read as the reference reads them "
                    f"(largest probability difference {self.max_difference:.1e})")
        kernels = "reading it with ONNX Runtime's reference kernels instead" if self.reference_kernels else "not used"
        return (f"{self.model}: this CPU's optimised kernels read {self.disagreeing} of {self.crops} check crops "
                f"as another card (largest probability difference {self.max_difference:.2f}); {kernels}")


def model_fingerprint(path: Path) -> str:
    """A short digest of a model file: check crops are kept for exactly one file."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def cpu_features() -> str:
    """The machine and the CPU features that choose ONNX Runtime's kernels, e.g.
    ``x86_64 AVX2 FMA3 AVX512F AVX512BW AVX512VNNI``: as numpy's CPUID probe sees them (what this
    process really runs on, an emulated CPU too), else from /proc/cpuinfo."""
    wanted = ("AVX2", "FMA3", "AVX512F", "AVX512BW", "AVX512VNNI", "ASIMD", "ASIMDDP", "ASIMDFHM")
    machine = platform.machine() or "unknown"
    # numpy 2 keeps its probe in numpy._core, numpy 1.x in numpy.core (private modules: no stubs name them)
    probed: dict[str, bool] = {}
    for module in ("numpy._core._multiarray_umath", "numpy.core._multiarray_umath"):
        try:
            probed = importlib.import_module(module).__cpu_features__
            break
        except (ImportError, AttributeError):  # pragma: no cover - not this numpy's place for it
            continue
    present = [name for name in wanted if probed.get(name)]
    if not probed:
        cpuinfo = Path("/proc/cpuinfo")
        flags: set[str] = set()
        if cpuinfo.exists():
            for line in cpuinfo.read_text(errors="replace").splitlines():
                if line.startswith(("flags", "Features")):
                    flags.update(line.split(":", 1)[1].split())
                    break
        present = [f for f in ("avx2", "fma", "avx512f", "avx512bw", "avx512_vnni", "asimd", "asimddp") if f in flags]
    return " ".join([machine, *present])


def session_options(threads: int, reference: bool = False) -> Any:
    """ONNX Runtime's options for the reader's sessions on ``threads`` threads; ``reference``: every
    graph optimisation off (ONNX Runtime's reference path)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    # two sessions take turns on the same cores: threads that spin-wait after a run slow the other down
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    if reference:
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return options


def class_probabilities(session: Any, crops: np.ndarray) -> np.ndarray:
    """The ``probs`` output of a classifier session for BGR uint8 crops (N×40×40×3), in batches."""
    feed = session.get_inputs()[0].name
    names = [o.name for o in session.get_outputs()]
    out = []
    for start in range(0, len(crops), 64):
        blob = classifier_blob(crops[start:start + 64])
        out.append(np.asarray(session.run(["probs"] if "probs" in names else None, {feed: blob})[0], np.float32))
    return np.concatenate(out) if out else np.zeros((0, 0), np.float32)


def compare(model: str, probs: np.ndarray, reference: np.ndarray) -> KernelCheck:
    """How ``probs`` agree with the ``reference`` reads of the same crops."""
    if len(reference) == 0:
        return KernelCheck(model, 0, 0, 0.0)
    disagreeing = int((probs.argmax(axis=1) != reference.argmax(axis=1)).sum())
    return KernelCheck(model, len(reference), disagreeing, float(np.abs(probs - reference).max()))


def load_check(models_dir: Path) -> dict[str, Any] | None:
    """The check crops and reference reads of ``models_dir`` (None when it has none)."""
    path = models_dir / CHECK_FILE
    if not path.exists():
        return None
    with np.load(path, allow_pickle=False) as data:
        return {key: data[key] for key in data.files}


def checked_session(path: Path, session: Any, threads: int, check: dict[str, Any] | None) -> tuple[Any, KernelCheck]:
    """``session`` when it reads the check crops as the reference does, else a session of the
    same model on the reference path (on ``threads`` threads); and the check. A model file the
    check was not made for is not checked."""
    key = path.stem
    if check is None or f"{key}__probs" not in check or str(check.get(f"{key}__fingerprint")) != model_fingerprint(path):
        return session, KernelCheck(path.name, 0, 0, 0.0, checked=False)
    result = compare(path.name, class_probabilities(session, check["crops"]), check[f"{key}__probs"])
    if result.agrees:
        return session, result
    import onnxruntime as ort

    reference = ort.InferenceSession(str(path), session_options(threads, reference=True), providers=["CPUExecutionProvider"])
    return reference, KernelCheck(path.name, result.crops, result.disagreeing, result.max_difference, reference_kernels=True)


def write_check(models_dir: Path, crops: np.ndarray, models: tuple[str, ...] = ("classifier.onnx", "classifier_small.onnx")) -> Path:
    """Write ``models_dir/reader_check.npz``: ``crops`` and each model's reads of them on the
    reference path, with the model file's fingerprint."""
    import onnxruntime as ort

    data: dict[str, np.ndarray] = {"crops": np.ascontiguousarray(crops, dtype=np.uint8)}
    for name in models:
        path = models_dir / name
        if not path.exists():
            continue
        session = ort.InferenceSession(str(path), session_options(2, reference=True), providers=["CPUExecutionProvider"])
        data[f"{path.stem}__probs"] = class_probabilities(session, data["crops"]).astype(np.float32)
        data[f"{path.stem}__fingerprint"] = np.array(model_fingerprint(path))
    target = models_dir / CHECK_FILE
    np.savez_compressed(target, **data)  # type: ignore[arg-type]
    return target
