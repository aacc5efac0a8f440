"""The club's PostgreSQL for its tests: the club's own server (:class:`~club.own_database.OwnDatabase`,
pgserver from the ``club`` extra), started as ``tuolaji club --data DIR`` starts it for a user, once a
test session in a temporary folder and stopped at its end; each test gets a database of its own
(``club_db``). Tests that take the server away mid-test stop and start it again (:class:`OwnServer`).

One module keeps the club on a system PostgreSQL (``tests/club/test_system_postgres.py``, the
``system_postgres`` fixture: Debian's ``initdb`` and ``pg_ctl``, :class:`PostgresServer`), as
``tuolaji club --db URL`` uses an existing server. Nothing is skipped: without the ``club`` extra or
Debian's ``postgresql`` (``scripts/setup.sh dev`` installs both) the tests fail, saying so. Run as
root (a container), either server runs PostgreSQL as a user of its own, as PostgreSQL refuses root.
"""

from __future__ import annotations

import itertools
import os
import pwd
import re
import shutil
import subprocess
import tempfile
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


def postgres_bin() -> Path:
    """The folder of the newest PostgreSQL's programs (``initdb``, ``postgres``, ``pg_ctl``)."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3]))
    if found:
        return found[-1].parent
    on_path = shutil.which("initdb")
    if on_path:
        return Path(on_path).parent
    raise RuntimeError("PostgreSQL is not installed (no initdb in /usr/lib/postgresql/*/bin or on PATH): "
                       "run `bash scripts/setup.sh dev` (Debian's postgresql package)")


class PostgresServer:
    """A throwaway PostgreSQL cluster on a unix socket in ``folder``; :meth:`stop` and
    :meth:`start` stop and start it again on the same data (a restart mid-test)."""

    def __init__(self, folder: Path, port: int = 5432) -> None:
        self.bin = postgres_bin()
        self.folder = folder
        self.data = folder / "data"
        self.socket_dir = folder / "socket"
        self.port = port
        self.user = "tuolaji"
        self._as: dict[str, Any] = {}
        if os.geteuid() == 0:
            account = pwd.getpwnam("postgres")
            self._as = {"user": account.pw_uid, "group": account.pw_gid}
        self.socket_dir.mkdir(parents=True)
        if self._as:
            for path in (folder, self.socket_dir):
                os.chown(path, self._as["user"], self._as["group"])
        self._run([str(self.bin / "initdb"), "-D", str(self.data), "-U", self.user, "--auth=trust",
                   "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"])
        with open(self.data / "postgresql.conf", "a", encoding="utf-8") as conf:
            conf.write(f"\nlisten_addresses = ''\nunix_socket_directories = '{self.socket_dir}'\nport = {port}\n"
                       "fsync = off\nmax_connections = 300\nshared_buffers = 64MB\n")

    def _run(self, command: list[str]) -> None:
        result = subprocess.run(command, capture_output=True, text=True, **self._as)
        if result.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed: {result.stderr.strip() or result.stdout.strip()}")

    def start(self) -> None:
        self._run([str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.folder / "server.log"),
                   "-w", "-t", "30", "start"])

    def stop(self, mode: str = "fast") -> None:
        self._run([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "-t", "30", "stop"])

    def dsn(self, database: str = "postgres") -> str:
        return f"postgresql://{self.user}@/{database}?host={self.socket_dir}&port={self.port}"

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.dsn(), autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return self.dsn(name)


class OwnServer:
    """The club's own PostgreSQL (:class:`~club.own_database.OwnDatabase`) in ``folder``, as
    ``tuolaji club --data`` starts it; :meth:`stop` and :meth:`start` stop and start it again on the
    same data and socket (a restart mid-test). For the tests' speed it does not wait for the disk
    (``fsync = off``, a setting it reloads; a database per test is a ``CREATE DATABASE``)."""

    def __init__(self, folder: Path) -> None:
        with warnings.catch_warnings():  # no $XDG_RUNTIME_DIR (a container): its lock goes to /tmp
            warnings.simplefilter("ignore")
            from pgserver._commands import POSTGRES_BIN_PATH

        self.bin = Path(POSTGRES_BIN_PATH)
        self.folder = folder
        self._own: Any = None

    def start(self) -> None:
        from tuolaji.club.own_database import OwnDatabase

        self._own = OwnDatabase(self.folder).__enter__()

    def stop(self, mode: str = "fast") -> None:
        """Stop the server: ``fast`` as the club stops it (its sessions told), ``immediate`` at once."""
        if self._own is None:
            return
        if mode != "fast":
            from pgserver._commands import pg_ctl

            pg_ctl(["-w", "-m", mode, "stop"], pgdata=self._own._server.pgdata, user=self._own._server.system_user)
        self._own.__exit__(None, None, None)
        self._own = None

    def dsn(self, database: str = "postgres") -> str:
        assert self._own is not None, "the club's own PostgreSQL is stopped"
        return re.sub(r"/club\?", f"/{database}?", self._own.dsn, count=1)

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.dsn(), autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return self.dsn(name)

    def skip_fsync(self) -> None:
        import psycopg

        with psycopg.connect(self.dsn(), autocommit=True) as connection:
            connection.execute("ALTER SYSTEM SET fsync = off")
            connection.execute("SELECT pg_reload_conf()")


@pytest.fixture(scope="session")
def postgres() -> Iterator[OwnServer]:
    """The club's own PostgreSQL, one a test session."""
    folder = Path(tempfile.mkdtemp(prefix="tuolaji-own-"))
    server = OwnServer(folder / "club")
    server.start()
    server.skip_fsync()
    try:
        yield server
    finally:
        try:
            server.stop("immediate")
        except Exception:  # noqa: BLE001 - already gone: nothing to stop
            pass
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def system_postgres() -> Iterator[PostgresServer]:
    """A system PostgreSQL (Debian's ``initdb``, ``pg_ctl``) for the module that keeps the club on one."""
    folder = Path(tempfile.mkdtemp(prefix="tuolaji-pg-"))
    server = PostgresServer(folder)
    server.start()
    try:
        yield server
    finally:
        try:
            server.stop("immediate")
        except RuntimeError:
            pass
        shutil.rmtree(folder, ignore_errors=True)


_numbers = itertools.count(1)


@pytest.fixture()
def club_db(postgres: OwnServer) -> str:
    """The address of a new, empty database on the test server."""
    return postgres.create_database(f"club_{os.getpid()}_{next(_numbers)}_{int(time.time() * 1000) % 100000}")


def played_records(seed: int = 1, plays: int | None = None) -> list[dict[str, Any]]:
    """The records of a table playing a random deal (:func:`scorer.random_record`) one play at a time
    through a :class:`~session.live.LiveGame`: the set-up first, then one record a play."""
    from tuolaji import scorer
    from tuolaji.session.live import LiveGame

    full = scorer.random_record("standard-2deck", seed, players=4, dealer=0, level="2", trump="H")
    deal = full["deals"][0]
    setup = {"format": full["format"], "rules": full["rules"], "players": ["东", "南", "西", "北"],
             "start_levels": full["start_levels"],
             "deals": [{k: v for k, v in deal.items() if k not in ("tricks", "complete")} | {"tricks": []}]}
    game = LiveGame(setup)
    records = [game.snapshot()]
    for trick in deal["tricks"]:
        for position, cards in enumerate(trick["plays"]):
            if plays is not None and len(records) > plays:
                return records
            game.play((trick["leader"] + position) % 4, cards)
            records.append(game.snapshot())
    return records


class ClubServer:
    """The club's application served on 127.0.0.1 (waitress, :class:`web.server.TableServer`) in a
    thread; :meth:`stop` and :meth:`start` take it away and bring it back on the same port."""

    def __init__(self, dsn: str, port: int = 0) -> None:
        from tuolaji.club.app import create_club_app

        self.app = create_club_app(dsn, {"SSE_KEEPALIVE_S": 0.5})
        self.port = port
        self.server: Any = None
        self.thread: Any = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ClubServer:
        import socket
        import threading

        from tuolaji.web.server import TableServer

        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", self.port))
        sock.listen(128)
        self.port = sock.getsockname()[1]
        self.server = TableServer(self.app, sock)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown(grace_s=1.0)
            self.server.server_close()
            self.thread.join(5.0)
            self.server = None

    def close(self) -> None:
        self.stop()
        self.app.extensions["tuolaji.club.listener"].stop()
        self.app.extensions["tuolaji.club.clock"].stop()


@pytest.fixture()
def club(club_db: str) -> Iterator[ClubServer]:
    server = ClubServer(club_db).start()
    try:
        yield server
    finally:
        server.close()


def organiser(club: ClubServer) -> dict[str, str]:
    """The organiser's Authorization header."""
    token = club.app.extensions["tuolaji.club"].organiser_token()
    return {"Authorization": f"Bearer {token}"}


def evening_record(seeds: tuple[int, ...], players: tuple[str, ...] = ("东", "南", "西", "北")) -> dict[str, Any]:
    """A four-player record of complete random deals (one a seed), each dealt by the winner the rules
    name, at the levels the deals before made, then the next deal set up (no tricks yet)."""
    from tuolaji import scorer

    record: dict[str, Any] | None = None
    dealer, level = 0, "2"
    for seed in seeds:
        deal = scorer.random_record("standard-2deck", seed, players=4, dealer=dealer, level=level,
                                    trump="H")["deals"][0]
        deal.pop("complete", None)
        if record is None:
            record = {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": list(players),
                      "start_levels": ["2", "2", "2", "2"], "deals": [deal]}
        else:
            record["deals"].append(deal)
        audit = scorer.audit_record(record)["deals"][-1]
        dealer = int(audit["next_dealer"])
        level = audit["levels_after"][dealer]
    assert record is not None
    record["deals"].append({"level": level, "trump": "NT", "dealer": dealer, "tricks": []})
    scorer.validate_record(record)
    return record
