"""``tuolaji club``: the club server, many tables on one PostgreSQL database.

    tuolaji club                                                     # its own PostgreSQL in data/club; the room on :8760
                                                                     # (and the director's console: /club/director?token=…)
    tuolaji club --data /srv/club                                    # its own PostgreSQL in that folder
    tuolaji club --db postgresql://club@dbhost/club                 # a PostgreSQL server of yours
    tuolaji club --db … --workers 4                                  # four processes (gunicorn)
    tuolaji club --db … --add-table 一号桌                            # register a table, print its token
    tuolaji club --db … --import-sqlite data/tuolaji.sqlite --table 一号桌   # move a table's sessions in
    tuolaji club --db … --organiser-token                            # print the organiser's token

Without ``--db`` (or ``$TUOLAJI_CLUB_DB``) the club starts a PostgreSQL of its own whose files are
in ``--data`` (:mod:`club.own_database`), and stops it when it stops. The database is migrated at
start (:mod:`club.migrations`). A table's machine then runs ``tuolaji serve --club
http://club:8760 --table 一号桌 --club-token TOKEN``. Needs the ``club`` extra (psycopg, gunicorn,
pgserver).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

from tuolaji.scorer.errors import InputError

DEFAULT_PORT = 8760


class ClubError(InputError):
    """A ``tuolaji club`` option that cannot be honoured."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", default=os.environ.get("TUOLAJI_CLUB_DB"), metavar="URL",
                        help="a PostgreSQL server of yours (postgresql://user@host/database; default "
                             "$TUOLAJI_CLUB_DB; without it the club runs a PostgreSQL of its own in --data)")
    parser.add_argument("--data", type=Path, default=Path("data") / "club", metavar="DIR",
                        help="without --db: the folder of the club's own PostgreSQL (default data/club)")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (0.0.0.0: the room's network)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    parser.add_argument("--workers", type=int, default=1, metavar="N",
                        help="server processes (1: one process, waitress; more: gunicorn with N workers)")
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        help="a host name the club answers to besides its addresses and this machine's names (repeatable)")
    parser.add_argument("--threads", type=int, default=64, metavar="N",
                        help="threads of each gunicorn worker (each open page holds one; default 64)")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--add-table", metavar="NAME", help="register a table and print its token, then exit")
    action.add_argument("--import-sqlite", type=Path, metavar="FILE",
                        help="move a table's stored sessions (its tuolaji.sqlite) into the club (with --table)")
    action.add_argument("--organiser-token", action="store_true", help="print the organiser's token, then exit")
    parser.add_argument("--table", metavar="NAME", help="with --import-sqlite: the table the sessions belong to")


def _dsn(args: argparse.Namespace) -> str:
    if not str(args.db).startswith(("postgresql://", "postgres://")):
        raise ClubError(f"--db must be a postgresql:// address, got {args.db!r}")
    return str(args.db)


def run(args: argparse.Namespace) -> int:
    if args.db:
        return _run_on(args, _dsn(args))
    from tuolaji.club.own_database import OwnDatabase

    with OwnDatabase(args.data) as database:
        if not (args.add_table or args.organiser_token or args.import_sqlite):
            print(f"tuolaji club: the club's own database is in {database.folder}", flush=True)
        return _run_on(args, database.dsn)


def _run_on(args: argparse.Namespace, dsn: str) -> int:
    try:
        from tuolaji.club.store import ClubDatabaseDown, ClubStore, read_sqlite_sessions
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.partition(".")[0] == "psycopg":
            raise ClubError("needs the 'club' extra (psycopg): pip install -e '.[club]'") from None
        raise

    try:
        store = ClubStore(dsn)
    except ClubDatabaseDown as exc:
        raise ClubError(str(exc)) from None
    if args.add_table:
        from urllib.parse import quote

        from tuolaji.web.security import lan_address

        token = store.add_table(args.add_table)
        print(token)  # the output: what the table's machine is given (--club-token)
        host = (lan_address() or "127.0.0.1") if args.host in ("0.0.0.0", "127.0.0.1", "localhost") else args.host
        print(f"tuolaji club: the table's phones open http://{host}:{args.port}/club/table/"
              f"{quote(args.add_table.strip(), safe='')}?token={token} (the club served on the room's network: "
              f"--host 0.0.0.0 --port {args.port})", file=sys.stderr)
        return 0
    if args.organiser_token:
        print(store.organiser_token())
        return 0
    if args.import_sqlite is not None:
        if not args.table:
            raise ClubError("--import-sqlite needs --table NAME")
        if not args.import_sqlite.is_file():
            raise ClubError(f"{args.import_sqlite}: no such file")
        applied = store.import_sqlite(args.table, read_sqlite_sessions(args.import_sqlite))
        print(f"tuolaji club: {applied} sessions of {args.import_sqlite} moved into table {args.table}")
        return 0
    token = store.organiser_token()
    print(f"tuolaji club: organiser token {token}", flush=True)
    store.close()
    if args.workers > 1:
        return _gunicorn(args, dsn, token)
    return _waitress(args, dsn, token)


def _console_line(host: str, port: int, token: str) -> None:
    print(f"tuolaji club: the director's console: http://{host}:{port}/club/director?token={token}", flush=True)


def _gunicorn(args: argparse.Namespace, dsn: str, token: str) -> int:
    from tuolaji.web.server import streams_for

    threads = max(8, args.threads)
    command = [sys.executable, "-m", "gunicorn", "--workers", str(args.workers),
               "--worker-class", "tuolaji.club.worker.ClubWorker", "--threads", str(threads),
               # each worker's streams are gated below its threads (app_from_env), so its threads always
               # answer; a worker whose threads are all taken takes no more connections: the next one goes
               # to a worker that can answer it (and one whose streams are all taken lets the others go first)
               "--worker-connections", str(threads), "--bind", f"{args.host}:{args.port}", "--timeout", "120",
               "--graceful-timeout", "5", "--log-level", "warning", "tuolaji.club.app:app_from_env()"]
    print(f"tuolaji club: open http://{args.host}:{args.port}/club  ({args.workers} workers; Ctrl-C stops)",
          flush=True)
    _console_line(args.host, args.port, token)
    process = subprocess.Popen(command, env=os.environ | {"TUOLAJI_CLUB_DB": dsn,
                                                          "TUOLAJI_CLUB_MAX_STREAMS": str(streams_for(threads)),
                                                          "TUOLAJI_CLUB_ALLOW_HOSTS": ",".join(args.allow_host)})

    def forward(signum: int, frame: object) -> None:
        process.send_signal(signum)

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, forward)
        signal.signal(signal.SIGINT, forward)
    return process.wait()


def _waitress(args: argparse.Namespace, dsn: str, token: str) -> int:
    from tuolaji.cli.serve import listen_socket
    from tuolaji.club.app import create_club_app
    from tuolaji.web.server import TableServer, streams_for

    app = create_club_app(dsn, {"ALLOWED_HOSTS": tuple(args.allow_host)})
    sock = listen_socket(args.host, args.port)
    threads = max(8, args.threads)
    server = TableServer(app, sock, threads=threads, max_streams=streams_for(threads),
                         max_body=int(app.config["MAX_CONTENT_LENGTH"]) + 1024 * 1024)
    print(f"tuolaji club: open http://{args.host}:{server.server_address[1]}/club  (Ctrl-C stops)", flush=True)
    _console_line(args.host, server.server_address[1], token)
    thread = threading.Thread(target=server.serve_forever, name="tuolaji-club-http", daemon=True)
    thread.start()
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, lambda signum, frame: server.shutdown(1.0))
    try:
        while thread.is_alive():
            thread.join(0.5)
    except KeyboardInterrupt:
        print("tuolaji club: stopping", file=sys.stderr, flush=True)
        server.shutdown(1.0)
    finally:
        server.server_close()
    return 0
