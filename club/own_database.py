"""The club's own PostgreSQL: ``tuolaji club`` without ``--db`` starts one in its data folder.

A club on a laptop needs no system install and no terminal beyond the one command: the
``club`` extra installs `pgserver <https://pypi.org/project/pgserver/>`_, a PostgreSQL
(16) packaged as a wheel (about 45 MB installed). Its first start makes the database files
in the folder (about a second); later starts take a quarter of a second. It listens on a
socket inside the folder only, never on the network; the club's server is what the room
talks to. It stops when the club stops (Ctrl-C or SIGTERM), and the folder keeps the
evening for the next start. Run as root (a container), it runs PostgreSQL as a system
user of its own (``pgserver``), as PostgreSQL refuses root.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from types import TracebackType
from typing import Any

from tuolaji.scorer.errors import InputError

DATABASE = "club"
"""The database the club keeps in its own server (beside PostgreSQL's own ``postgres``)."""

SOCKET_PATH_LIMIT = 100
"""A Unix socket's path must stay under about 107 bytes: the folder's path, with the socket's
file name (``.s.PGSQL.5432``), must fit."""


class OwnDatabaseError(InputError):
    """The club's own PostgreSQL could not be started."""


class OwnDatabase:
    """A PostgreSQL server whose files are in ``folder`` (made if missing), for as long as the
    ``with`` block lasts; :attr:`dsn` is the club's database on it."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder).expanduser().resolve()
        self.dsn = ""
        self._server: Any = None

    def __enter__(self) -> OwnDatabase:
        try:
            with warnings.catch_warnings():  # no $XDG_RUNTIME_DIR (a container): its lock goes to /tmp
                warnings.simplefilter("ignore")
                import pgserver.postgres_server
        except ModuleNotFoundError:
            raise OwnDatabaseError("club.own_db_missing") from None
        if len(str(self.folder / "pgdata" / ".s.PGSQL.5432")) > SOCKET_PATH_LIMIT:
            raise OwnDatabaseError("club.own_db_path_too_long", folder=str(self.folder), most=SOCKET_PATH_LIMIT - len("/pgdata/.s.PGSQL.5432"))
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            self.folder.chmod(self.folder.stat().st_mode | 0o711)  # its own user reaches the files inside
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                self._server = pgserver.postgres_server.get_server(self.folder / "pgdata", cleanup_mode="stop")
            if DATABASE not in self._server.psql("SELECT datname FROM pg_database;"):
                self._server.psql(f"CREATE DATABASE {DATABASE};")
        except Exception as exc:  # initdb or the server failed: say where, keep the folder as it is
            raise OwnDatabaseError("club.own_db_failed", folder=str(self.folder), error=_one_line(exc)) from None
        self.dsn = re.sub(r"/postgres\?", f"/{DATABASE}?", self._server.get_uri(), count=1)
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if self._server is not None:
            self._server.cleanup()  # cleanup_mode "stop": stops the server, keeps the files
            self._server = None


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return text[:300] if text else type(error).__name__
