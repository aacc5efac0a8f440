"""The record on disk: atomic writes (a crash leaves the old file or the new one, never half), the
free space that tells a full disk from another failed write, and JSON read within limits.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "game.json"
>>> write_json_atomic(path, {"deals": []}); read_json_file(path)
{'deals': []}
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import stat
import tempfile
from pathlib import Path
from typing import Any

from tuolaji.scorer import safejson
from tuolaji.scorer.errors import InputError


class NotSavedError(InputError):
    """A change that could not be saved (the disk full, the database locked, …): it is not made.

    ``kind``: ``disk-full``, ``locked``, ``too-large`` or ``failed`` (the page words each: ``not_saved.KIND``
    of its catalogue)."""

    KINDS = ("disk-full", "locked", "too-large", "failed")

    def __init__(self, key: str, /, kind: str = "failed", **params: Any) -> None:
        super().__init__(key, **params)
        self.kind = kind if kind in self.KINDS else "failed"


ROOM_NEEDED = 1024 * 1024
"""Below this many free bytes, a write's input/output error is the disk being full (SQLite says
``disk I/O error`` when it cannot size its shared-memory file, not ``disk is full``)."""


def not_saved(exc: BaseException, where: str, folder: Path | None = None) -> NotSavedError:
    """The :class:`NotSavedError` of a failed write: the disk full, the database locked, or else;
    ``folder``: where it was written (its free space tells a full disk from another I/O error)."""
    text = str(exc).lower()
    name = str(getattr(exc, "sqlite_errorname", ""))
    if (isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC))) or (
            name == "SQLITE_FULL" or "disk is full" in text or "no space" in text):
        kind = "disk-full"
    elif name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in text or "busy" in text:
        kind = "locked"
    elif folder is not None and (name.startswith("SQLITE_IOERR") or "i/o error" in text) and _free(folder) < ROOM_NEEDED:
        kind = "disk-full"
    else:
        kind = "failed"
    return NotSavedError("session.not_saved", kind, where=where, problem=str(exc))


def _free(folder: Path) -> int:
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return ROOM_NEEDED  # unknown: not called full



def _new_file_mode() -> int:
    """The mode a new file gets under the process's umask (0666 masked), as ``open`` would give."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def write_json_atomic(path: Path, data: Any) -> None:
    """Write ``data`` as JSON to ``path`` so that a crash leaves the old or the new file, never half.

    The file keeps its mode (a new one gets the umask's), and the folder is synced after the
    rename, so the new name survives a power cut too.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        mode = _new_file_mode()
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, ensure_ascii=False, indent=1)
            handle.write("\n")
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            os.fsync(handle.fileno())
        os.replace(tmp_name, path)
    except BaseException:
        if os.path.exists(tmp_name):
            os.unlink(tmp_name)
        raise
    _fsync_folder(path.parent)


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return  # a platform whose folders cannot be opened (the rename is then as durable as it gets)
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def read_json_file(path: Path, *, max_bytes: int = safejson.MAX_BYTES) -> Any:
    """The JSON in ``path``, read by :func:`scorer.safejson.loads` (size, depth, UTF-8 and number limits);
    bad content raises :class:`InputError` naming the file and the place."""
    path = Path(path)
    with open(path, "rb") as handle:
        data = handle.read(max_bytes + 1)
    return safejson.loads(data, str(path), max_bytes=max_bytes)



def clone(value: Any) -> Any:
    """A deep copy of JSON data (dicts, lists and scalars; anything else is shared), several times
    faster than :func:`copy.deepcopy`, which a record's every change makes."""
    if isinstance(value, dict):
        return {key: clone(item) for key, item in value.items()}
    if isinstance(value, list):
        return [clone(item) for item in value]
    return value


def copy_record(record: dict[str, Any]) -> dict[str, Any]:
    """A copy of a record that shares its ``history`` entries (they are never changed in place,
    only appended to): copying it costs the record, not every change ever made to it."""
    result = {key: clone(value) for key, value in record.items() if key != "history"}
    if "history" in record:
        history = record["history"]
        result["history"] = list(history) if isinstance(history, list) else clone(history)
    return result
