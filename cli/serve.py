"""``tuolaji serve``: the live table page, fed by a camera, a video file, a record or the demo.

    tuolaji serve                      # the bundled demo video, replayed at real-time speed
    tuolaji serve --camera 0           # webcam 0; set the table up on the page
    tuolaji serve --camera http://192.168.1.5:8080/video   # a phone as the camera (IP Webcam, DroidCam)
    tuolaji serve --video game.mp4     # a recorded table video
    tuolaji serve --record game.json --pace 1.5   # replay a record's plays, one every 1.5 s
    tuolaji serve --resume             # continue the most recent stored session (no input)

The server binds to 127.0.0.1 unless ``--host`` says otherwise and prints the address
to open. Sessions live in ``--data`` (default ``$TUOLAJI_DATA`` or ``./data``), which one
server at a time may use (a lock). On a network address (``--host 0.0.0.0``) the address
printed carries the table token, which every change needs (:mod:`web.security`): the page
shows it as a QR code for the players' phones; without it a page is read-only.

The server is waitress (:mod:`web.server`): idle connections cost a descriptor, not a thread,
and close after ``--idle-timeout`` seconds; at most ``--max-connections`` are open at once (by
default what the open-file limit leaves, which the server raises to the system's maximum at
start); a few streams of events at most, so plays are always answered.
"""

from __future__ import annotations

import argparse
import errno
import logging
import os
import signal
import socket
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tuolaji import scorer
from tuolaji.cli._common import add_index_layout_argument, camera_spec, finite_float, index_layout_override
from tuolaji.scorer.errors import InputError
from tuolaji.session.live import check_resumable, read_json_file

if TYPE_CHECKING:
    from tuolaji.web.server import TableServer
    from tuolaji.web.table import Feed, Table

DEFAULT_PORT = 8750


class ServeError(InputError):
    """A ``tuolaji serve`` option that cannot be honoured (a missing session, an unreadable record)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--camera", type=camera_spec, metavar="N|URL",
                        help="read the table from webcam N, or from a phone camera app's stream: "
                        "http://PHONE:8080/video (IP Webcam), http://PHONE:4747/video (DroidCam), rtsp://...")
    source.add_argument("--video", type=Path, metavar="FILE", help="read the table from a video file")
    source.add_argument("--demo", action="store_true", help="replay the bundled demo video (the default)")
    source.add_argument("--record", type=Path, metavar="FILE",
                        help="replay the plays of a game record (or a `tuolaji replay` output)")
    source.add_argument("--resume", action="store_true",
                        help="no input: continue the most recent stored session on the page")
    parser.add_argument("--session", type=int, metavar="ID",
                        help="feed the input into stored session ID instead of a new one")
    parser.add_argument("--camera-size", default="1920x1080", metavar="WxH",
                        help="resolution to ask a webcam for (default 1920x1080; see `tuolaji check-camera`); "
                        "a phone's stream comes at the size set in its app")
    parser.add_argument("--deck", metavar="NAME", help="read with the deck enrolled under this name in --data (`tuolaji enrol`)")
    add_index_layout_argument(parser)
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to bind (default 127.0.0.1: this machine only; 0.0.0.0: the players' phones "
                        "on the network too, which need the table token to change anything)")
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        help="also answer to this host name (addresses, localhost and this machine's name always are)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0: any free port)")
    parser.add_argument("--data", type=Path, metavar="DIR",
                        help="data folder for the sessions database (default $TUOLAJI_DATA or ./data)")
    parser.add_argument("--verbose", action="store_true", help="log every HTTP request")
    parser.add_argument("--idle-timeout", type=whole_number(low=1, high=3600), default=60, metavar="S",
                        help="close a connection idle this many seconds (default 60)")
    parser.add_argument("--max-connections", type=whole_number(low=16, high=100_000), metavar="N",
                        help="connections open at once (default: what the open-file limit leaves, at most "
                        "4096); past it, the ones idle the longest are closed")
    parser.add_argument("--pace", type=finite_float(low=0, high=3600), default=1.5, metavar="S",
                        help="with --record: seconds between plays (default 1.5)")
    parser.add_argument("--oracle", type=Path, metavar="FRAMES",
                        help="with --video/--demo: read cards from a rendered video's .frames.json (testing)")
    parser.add_argument("--speed", type=finite_float(low=0, above=True, high=1000), default=1.0, metavar="X",
                        help="with --video/--demo: play the video X times faster than real time (default 1)")
    parser.add_argument("--club", metavar="URL",
                        help="also send every change to the club server at URL (`tuolaji club`), with --table")
    parser.add_argument("--table", metavar="NAME", help="with --club: this table's name in the club")
    parser.add_argument("--club-token", default=os.environ.get("TUOLAJI_CLUB_TOKEN"), metavar="TOKEN",
                        help="with --club: the table's token from the organiser (default $TUOLAJI_CLUB_TOKEN)")
    parser.add_argument("--fast", action="store_true",
                        help="with --video/--demo: process frames as fast as they decode")


def whole_number(*, low: int, high: int) -> Callable[[str], int]:
    """An argparse ``type``: a whole number from ``low`` to ``high``."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = low - 1
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"expected a whole number from {low} to {high}, got {text!r}")
        return value

    return parse


def load_record(path: Path) -> dict[str, Any]:
    """A record file, or the record inside a ``tuolaji replay`` output that wraps one."""
    data = read_json_file(path)
    if isinstance(data, dict) and "format" not in data and isinstance(data.get("record"), dict):
        data = data["record"]
    if not isinstance(data, dict):
        raise ServeError(f"{path}: not a game record")
    return data


def default_setup() -> dict[str, Any]:
    """The table before anyone set it up on the page: four players, two decks, no trump yet."""
    return {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": ["东", "南", "西", "北"],
            "start_levels": ["2", "2", "2", "2"],
            "deals": [{"level": "2", "trump": "NT", "dealer": 0, "tricks": []}]}


def video_setup(sidecar: dict[str, Any]) -> dict[str, Any]:
    """The set-up of a video from its ``.setup.json``: its first deal before any play, or, when the
    video films only a deal's last tricks (like the bundled demo), the deal so far with its tricks."""
    from tuolaji.web.table import record_setup

    if sidecar.get("deals") and sidecar["deals"][-1].get("tricks"):
        scorer.validate_record(sidecar)
        return sidecar
    return record_setup(sidecar)


def _open_or_start(table: Table, args: argparse.Namespace, setup: dict[str, Any], *, name: str, source: str) -> None:
    if args.session is not None:
        table.open(args.session)
    else:
        table.start(setup, name=name, source=source)


def attach_source(table: Table, args: argparse.Namespace) -> Feed | None:
    """Open the session the input feeds and start the input in a background thread."""
    from tuolaji.web.table import PipelineFeed, RecordFeed, record_setup

    if args.resume:
        latest = table.store.latest()
        if args.session is not None:
            table.open(args.session)
        elif latest is not None:
            try:
                table.open(latest.id)
            except InputError as exc:  # a session saved by an older version, or edited by hand: start without it
                print(f"tuolaji serve: session {latest.id} cannot be resumed ({exc}); no session is open",
                      file=sys.stderr, flush=True)
        return None
    if args.record is not None:
        record = load_record(args.record)
        if args.session is not None:  # continue a session with this record: only if it is the same game
            check_resumable(table.store.get(args.session).record, record, f"session {args.session}")
        _open_or_start(table, args, record_setup(record), name=args.record.name, source="record")
        return RecordFeed(table, record, pace_s=args.pace)
    if args.camera is not None or args.video is not None:
        spec: str | int = args.camera if args.camera is not None else str(args.video)
        setup = default_setup()
        if args.video is not None:
            sidecar = args.video.with_name(args.video.stem + ".setup.json")
            if sidecar.exists():
                setup = video_setup(load_record(sidecar))
        from tuolaji.vision.pipeline import open_source
        from tuolaji.vision.preview import FrameTap
        from tuolaji.vision.sources import parse_size

        # a missing camera, an unreachable phone or an unreadable video is reported before the model;
        # the set-up page sees its frames
        source = open_source(spec, camera_size=parse_size(args.camera_size))
        frames = FrameTap(source)
        reader = make_reader(args)
        name = (f"camera {spec}" if isinstance(spec, int) else source.name) if args.camera is not None else args.video.name
        _open_or_start(table, args, setup, name=name, source="camera" if args.camera is not None else "video")
        options = camera_options(table, args, video=args.video)
        options["filmed_from"] = len(setup["deals"][-1]["tricks"]) if setup["deals"] else 0
        return PipelineFeed(table, frames, speed=None if args.fast else args.speed, reader=reader,
                            replay_from_start=args.video is not None and args.session is not None,
                            pipeline_options=options)
    return attach_demo(table, args)


def attach_demo(table: Table, args: argparse.Namespace) -> Feed:
    """The bundled demo: the session starts from the record of the deal so far, the video of its
    last tricks goes through the camera pipeline at real-time speed, then the demo turns the kitty
    up and starts the next deal (:class:`web.table.DemoFeed`)."""
    from tuolaji.vision import demo
    from tuolaji.web.table import DemoFeed

    setup = load_record(Path(demo.DEMO_SETUP))  # the deal so far: its first tricks, whole
    if args.session is not None:
        check_resumable(table.store.get(args.session).record, setup, f"session {args.session}", setup=True)
    if args.oracle is None and not demo.shipped_reader_is_ready():
        f1 = demo.shipped_reader_f1()
        why = "no trained card model" if f1 is None else (
            f"the shipped card model does not yet replay the demo exactly (card F1 {f1:.2f}, models/README.md)")
        print(f"tuolaji serve: {why}; the demo reads its cards from {demo.DEMO_FRAMES.name}",
              file=sys.stderr, flush=True)
        args.oracle = Path(demo.DEMO_FRAMES)
    reader = make_reader(args, fallback_frames=Path(demo.DEMO_FRAMES))
    _open_or_start(table, args, setup, name="demo", source="demo")
    from tuolaji.vision.preview import FrameTap
    from tuolaji.vision.sources import open_source

    options = camera_options(table, args, video=Path(demo.DEMO_VIDEO), calibrated=False)
    options["filmed_from"] = len(setup["deals"][-1]["tricks"])
    return DemoFeed(table, FrameTap(open_source(str(demo.DEMO_VIDEO))), finale=demo.demo_finale(),
                    speed=None if args.fast else args.speed, reader=reader,
                    replay_from_start=args.session is not None, pipeline_options=options)


def camera_options(table: Table, args: argparse.Namespace, *, video: Path | None,
                   calibrated: bool = True) -> dict[str, Any]:
    """The pipeline's options from the table's set-up: the calibration saved on ``/camera``
    (not for the demo, filmed by its own camera) and the keeper of the plays' pictures."""
    from tuolaji.web.camera import saved_calibration
    from tuolaji.web.pictures import SessionPictures
    from tuolaji.web.store import default_data_dir

    data = Path(args.data) if args.data else default_data_dir()
    options: dict[str, Any] = {"pictures": SessionPictures(table, data, video=str(video.resolve()) if video else None)}
    calibration = saved_calibration(data) if calibrated else None
    if calibration is not None:
        options["calibration"] = calibration
    return options


def make_reader(args: argparse.Namespace, *, fallback_frames: Path | None = None) -> Any:
    """The card reader: ``--oracle`` frames, else the trained model; for the demo, its frames file
    when no model has been trained yet (said on stderr)."""
    from tuolaji.vision.oracle import OracleReader

    if args.oracle is not None:
        if not args.oracle.exists():
            raise FileNotFoundError(2, "no such file", str(args.oracle))
        return OracleReader.from_file(args.oracle)
    try:
        from tuolaji.vision.decks import chosen_deck
        from tuolaji.vision.detector import TABLE, CardReader

        return CardReader.load(deck=chosen_deck(getattr(args, "deck", None), args.data), **TABLE,
                               **index_layout_override(args))
    except (OSError, ModuleNotFoundError) as exc:
        if fallback_frames is None:
            raise ServeError(f"no card reader available ({exc}); train one with `tuolaji train`, "
                             "or pass --oracle FRAMES.json") from exc
        print(f"tuolaji serve: no trained card model ({exc}); the demo reads its cards from "
              f"{fallback_frames.name}", file=sys.stderr, flush=True)
        return OracleReader.from_file(fallback_frames)


def lock_data_dir(folder: Path) -> Any:
    """An exclusive lock on the data folder for this server's lifetime (the open file holding it):
    a second server on the same sessions would overwrite the first one's changes."""
    import fcntl
    import os

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "tuolaji.lock"
    handle = open(path, "a+", encoding="utf-8")  # noqa: SIM115 - held open for the server's lifetime
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        pid = handle.read().strip()[:20]
        handle.close()
        raise ServeError(f"{folder}: another tuolaji serve is using this data folder"
                         + (f" (process {pid})" if pid else "") + "; stop it, or pass another --data") from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"{os.getpid()}\n")
    handle.flush()
    return handle


def listen_socket(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port``; a port in use or an address not on this machine is a ServeError."""
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        raise ServeError(f"--host {host}: not an address or name of this machine ({exc})") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        why = "the port is in use (another server?); pass another --port" if exc.errno == errno.EADDRINUSE else (
            exc.strerror or str(exc))
        raise ServeError(f"cannot listen on {host}:{port}: {why}") from None
    return sock


def raise_open_files_limit() -> int | None:
    """Raise this process's limit on open files to the most the system allows it (the hard limit;
    on macOS, where that may be unlimited, the kernel's ceiling); the limit now in force, None
    where the system has no such limit (Windows)."""
    try:
        import resource
    except ImportError:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return None
    # an "unlimited" hard limit (macOS) still has a ceiling: 10240 is macOS's OPEN_MAX
    for wanted in ([hard] if hard != resource.RLIM_INFINITY else [65536, 10240]):
        if wanted <= soft:
            break
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            break
        except (ValueError, OSError):
            continue
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return None if soft == resource.RLIM_INFINITY else soft


def app_config(args: argparse.Namespace, data: Path | str, *, local_only: bool, public_url: str | None) -> dict[str, Any]:
    """The page's configuration for these options."""
    return {"DATA_DIR": str(data), "RESUME_LATEST": False, "LOCAL_ONLY": local_only,
            "ALLOWED_HOSTS": tuple(args.allow_host), "PUBLIC_URL": public_url,
            "FEED_VIDEO": str(args.video) if args.video else None, "CARD_DECK": getattr(args, "deck", None),
            "CARD_INDEX_LAYOUT": getattr(args, "index_layout", None)}


def build_server(args: argparse.Namespace) -> tuple[TableServer, Table]:
    """The application, its input attached and started, and its HTTP server (not yet serving)."""
    from tuolaji.web import create_app, get_table
    from tuolaji.web.api import MAX_IMPORT_BYTES
    from tuolaji.web.security import is_loopback_host, lan_address
    from tuolaji.web.server import TableServer, connection_limit
    from tuolaji.web.store import default_data_dir

    open_files = raise_open_files_limit()
    data = args.data if args.data else default_data_dir()
    data_lock = lock_data_dir(Path(data))
    try:
        sock = listen_socket(args.host, args.port)
    except ServeError:
        data_lock.close()
        raise
    local_only = is_loopback_host(args.host)
    public_host = args.host
    if args.host in ("0.0.0.0", "", "::"):
        public_host = lan_address() or socket.gethostname()
    port = sock.getsockname()[1]
    public_url = None if local_only else f"http://{f'[{public_host}]' if ':' in public_host else public_host}:{port}/"
    try:
        app = create_app(app_config(args, data, local_only=local_only, public_url=public_url))
        table = get_table(app)
        feed = attach_source(table, args)
        server = TableServer(
            app, sock, connection_limit=args.max_connections or connection_limit(open_files),
            idle_timeout_s=args.idle_timeout, access_log=args.verbose,
            # a body past the page's own limits (an import's the largest) is refused by the server before it is read whole
            max_body=max(int(app.config["MAX_CONTENT_LENGTH"]), MAX_IMPORT_BYTES) + 1024 * 1024)
    except BaseException:
        sock.close()
        data_lock.close()
        raise
    server.tuolaji_data_lock = data_lock  # type: ignore[attr-defined]
    server.tuolaji_token = app.config["WRITE_TOKEN"]  # type: ignore[attr-defined]
    server.tuolaji_public_url = public_url  # type: ignore[attr-defined]
    server.tuolaji_club_pusher = None  # type: ignore[attr-defined]
    if getattr(args, "club", None):
        from tuolaji.club.attach import attach_club

        if not args.table or not args.club_token:
            sock.close()
            data_lock.close()
            raise ServeError("--club needs --table NAME and the table's token (--club-token or $TUOLAJI_CLUB_TOKEN)")
        server.tuolaji_club_pusher = attach_club(table, Path(data), args.club, args.table, args.club_token)  # type: ignore[attr-defined]
    if feed is not None:
        table.feed = feed
        feed.start()
    return server, table


def _stop_on_sigterm(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def run(args: argparse.Namespace) -> int:
    server, table = build_server(args)
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _stop_on_sigterm)  # `kill` stops it as cleanly as Ctrl-C
        # Ctrl-C stops it even when started where SIGINT is ignored (a background job of a script
        # inherits SIGINT ignored, and Python then installs no KeyboardInterrupt for it)
        signal.signal(signal.SIGINT, signal.default_int_handler)
    quiet_server_logs(verbose=args.verbose)
    host = "127.0.0.1" if args.host in ("0.0.0.0", "") else args.host
    if ":" in host:
        host = f"[{host}]"
    token = server.tuolaji_token  # type: ignore[attr-defined]
    public_url = server.tuolaji_public_url  # type: ignore[attr-defined]
    if public_url is None:
        print(f"tuolaji serve: open http://{host}:{server.server_address[1]}/  (Ctrl-C stops)", flush=True)
    else:
        print(f"tuolaji serve: open http://{host}:{server.server_address[1]}/?token={token}  (Ctrl-C stops)", flush=True)
        print(f"tuolaji serve: listening on {args.host}: phones on the network open {public_url}?token={token} "
              f"(the QR code on the page); without the table token {token} they can only watch", flush=True)
    stopper = threading.Thread(target=server.serve_forever, name="tuolaji-http", daemon=True)
    stopper.start()
    try:
        while stopper.is_alive():
            stopper.join(0.5)
    except KeyboardInterrupt:
        print("tuolaji serve: stopping", file=sys.stderr, flush=True)
    finally:
        table.stop_feed(timeout=60.0)  # the feed finishes its frame (a camera read is never cut mid-way)
        server.shutdown()  # the requests under way are answered first
        if server.tuolaji_club_pusher is not None:  # type: ignore[attr-defined]
            server.tuolaji_club_pusher.flush(3.0)  # type: ignore[attr-defined]  # what is unsent waits in the outbox
            server.tuolaji_club_pusher.stop()  # type: ignore[attr-defined]
        server.server_close()
        server.tuolaji_data_lock.close()  # type: ignore[attr-defined]
    return 0


def quiet_server_logs(*, verbose: bool) -> None:
    """The server's warnings on stderr as ``tuolaji serve: …`` lines, and the club's news (reached, lost); its
    queue-depth warnings only with --verbose."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("tuolaji serve: %(message)s"))
    for name in ("waitress", "tuolaji.server", "tuolaji.club"):
        log = logging.getLogger(name)
        if not log.handlers:
            log.addHandler(handler)
        log.propagate = False
        log.setLevel(logging.INFO if name == "tuolaji.club" else logging.WARNING)  # the club reached, or lost
    logging.getLogger("waitress.queue").setLevel(logging.WARNING if verbose else logging.ERROR)
