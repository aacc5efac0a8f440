"""The club's backup and restore from the director's console: PostgreSQL's own ``pg_dump`` and
``pg_restore`` on the club's database (its custom archive format, compressed).

The programs are PostgreSQL's client tools of a version that can read the club's server: the one
the ``club`` extra's pgserver brings, Debian's (``/usr/lib/postgresql/N/bin``) or those on the
``PATH``, the oldest of the server's version or newer (:func:`pick_tool`). A restore replaces the
club's tables with the backup's in one transaction (all or nothing: an archive that is no club's
backup, or one the database cannot take, changes nothing), waiting at most :data:`LOCK_WAIT_S` for
the tables; then the club's migrations bring the restored schema up to date.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from tuolaji.scorer.errors import InputError

MAGIC = b"PGDMP"
"""The first bytes of a ``pg_dump`` custom archive."""

LOCK_WAIT_S = 15
"""How long a restore waits for the club's tables (a long read holding them) before it gives up."""

TIMEOUT_S = 300
"""How long a backup or a restore may take."""


def tool_folders() -> list[Path]:
    """The folders that may hold PostgreSQL's client tools: pgserver's, Debian's, the ``PATH``'s."""
    folders = []
    try:
        import importlib.util

        spec = importlib.util.find_spec("pgserver")
        if spec is not None and spec.origin is not None:
            folders.append(Path(spec.origin).parent / "pginstall" / "bin")
    except (ImportError, ValueError):
        pass
    folders += sorted(Path("/usr/lib/postgresql").glob("*/bin"))
    on_path = shutil.which("pg_dump")
    if on_path:
        folders.append(Path(on_path).resolve().parent)
    return [folder for folder in folders if (folder / "pg_dump").exists() and (folder / "pg_restore").exists()]


def tool_major(folder: Path) -> int | None:
    """The major version of the ``pg_dump`` in ``folder`` (None: it does not run)."""
    try:
        out = subprocess.run([str(folder / "pg_dump"), "--version"], capture_output=True, text=True, timeout=10,
                             check=False).stdout
    except OSError:
        return None
    found = re.search(r"(\d+)(?:\.\d+)?", out)
    return int(found.group(1)) if found else None


def pick_tool(server_major: int, versions: dict[Path, int]) -> Path | None:
    """The folder whose tools have the oldest major version at least the server's (``versions``: each
    folder's). A ``pg_dump`` older than the server refuses it; a newer one reads it.

    >>> pick_tool(16, {Path("/a"): 15, Path("/b"): 17, Path("/c"): 16})
    PosixPath('/c')
    >>> pick_tool(17, {Path("/a"): 16}) is None
    True
    """
    fitting = sorted((major, str(folder)) for folder, major in versions.items() if major >= server_major)
    return Path(fitting[0][1]) if fitting else None


def tools_for(server_major: int) -> Path:
    """The folder of the client tools for a server of ``server_major``, or the one line saying there is none."""
    versions = {folder: major for folder in tool_folders() if (major := tool_major(folder)) is not None}
    folder = pick_tool(server_major, versions)
    if folder is None:
        raise InputError("club.backup_no_tool", major=server_major)
    return folder


def backup(dsn: str, server_major: int) -> bytes:
    """The club's database at ``dsn`` as a ``pg_dump`` custom archive."""
    tools = tools_for(server_major)
    result = subprocess.run([str(tools / "pg_dump"), "--format=custom", "--no-owner", "--no-privileges",
                             "--dbname", dsn], capture_output=True, timeout=TIMEOUT_S, check=False)
    if result.returncode != 0:
        raise InputError("club.backup_failed", reason=_first_line(result.stderr))
    return result.stdout


def restore(dsn: str, server_major: int, archive: bytes) -> None:
    """Replace the club's tables at ``dsn`` with those of ``archive`` (a backup of :func:`backup`), in one
    transaction: refused, nothing changed, when it is no ``pg_dump`` archive or the database cannot take it."""
    if not archive.startswith(MAGIC):
        raise InputError("club.restore_not_backup")
    tools = tools_for(server_major)
    with tempfile.TemporaryDirectory(prefix="tuolaji-restore-") as folder:
        path = Path(folder) / "club.backup"
        path.write_bytes(archive)
        listed = subprocess.run([str(tools / "pg_restore"), "--list", str(path)], capture_output=True,
                                timeout=TIMEOUT_S, check=False)
        if listed.returncode != 0 or b"club_migrations" not in listed.stdout:
            raise InputError("club.restore_not_backup")
        env = os.environ | {"PGOPTIONS": f"-c lock_timeout={LOCK_WAIT_S * 1000}"}
        result = subprocess.run([str(tools / "pg_restore"), "--clean", "--if-exists", "--no-owner", "--no-privileges",
                                 "--single-transaction", "--exit-on-error", "--dbname", dsn, str(path)],
                                capture_output=True, timeout=TIMEOUT_S, check=False, env=env)
    if result.returncode != 0:
        raise InputError("club.restore_failed", reason=_first_line(result.stderr))


def _first_line(text: bytes) -> str:
    lines = [line.strip() for line in text.decode("utf-8", "replace").splitlines() if line.strip()]
    return (lines[0] if lines else "no reason given")[:300]
