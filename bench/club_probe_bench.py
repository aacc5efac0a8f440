"""Issue 45's probes, rerun: what a stranger (or a broken phone) costs the club and the table.

    .venv/bin/python bench/club_probe_bench.py [--streams 150] [--skip-camera | --camera-only]

- **streams**: ``--streams`` tokenless event streams held open on ``tuolaji club`` (one process,
  waitress; then ``--workers 2``, gunicorn), half on the room's stream and half on a table's; then
  the time health, the room and a table's push take to answer (each a fresh connection);
- **push cost**: a 4 MB push with a wrong token, the round trip; a body declaring 400 MB, the time to
  its refusal (none of it sent);
- **camera deadline**: a phone stream trickling its first picture a byte every 0.5 s, the time
  ``StreamSource`` (what ``serve --camera``, ``check-camera`` and the page's 打开 open) takes to say so,
  and ``tuolaji check-camera`` whole (its start included);
- **backup**: a session of 5 MiB exported, imported (JSON) and audited.

It starts a PostgreSQL of its own (``initdb`` in a temporary folder, as the tests do). The last
lines: ``streams_<mode>: held=… refused=… health_ms=… room_ms=… push_ms=…``, ``wrong_token_4mb_ms=…
declared_400mb_ms=…``, ``camera_trickle_s=…``, ``backup_5mib: export_s=… import_s=… audit_s=…``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.club.conftest import PostgresServer, played_records  # noqa: E402
from tuolaji.club.store import ClubStore  # noqa: E402

TABLE = "/club/api/tables/T1"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def request(port: int, method: str, path: str, body: bytes | None = None,
            headers: dict[str, str] | None = None) -> tuple[int, float]:
    """A request on a fresh connection: its status and its time in ms."""
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, body=body, headers={"Content-Type": "application/json"} | (headers or {}))
        response = connection.getresponse()
        response.read()
        return response.status, (time.perf_counter() - started) * 1000
    finally:
        connection.close()


def start_club(dsn: str, port: int, *extra: str) -> subprocess.Popen[bytes]:
    process = subprocess.Popen([sys.executable, "-m", "tuolaji", "club", "--db", dsn, "--port", str(port), *extra],
                               cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if request(port, "GET", "/club/api/health")[0] == 200:
                return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("the club did not start")


def streams_probe(dsn: str, token: str, count: int, mode: str, extra: tuple[str, ...], n: int) -> int:
    port = free_port()
    process = start_club(dsn, port, *extra)
    held: list[socket.socket] = []
    refused = 0
    try:
        for i in range(count):
            sock = socket.create_connection(("127.0.0.1", port), timeout=30)
            path = "/club/api/events" if i % 2 else "/club/table/T1/api/events"
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            head = b""
            while b"\r\n\r\n" not in head:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                head += chunk
            if b"content-length" in head.lower().split(b"\r\n\r\n")[0]:
                refused += 1
                sock.close()
            else:
                held.append(sock)
        _, health = request(port, "GET", "/club/api/health")
        _, room = request(port, "GET", "/club/api/overview")
        record = played_records(3)[min(n, 10) - 1]
        body = json.dumps({"changes": [{"n": n, "session": 1, "name": "s", "record": record}]}).encode()
        status, push = request(port, "POST", TABLE + "/changes", body, {"Authorization": f"Bearer {token}"})
        assert status == 200, status
        print(f"streams_{mode}: held={len(held)} refused={refused} health_ms={health:.1f} room_ms={room:.1f} "
              f"push_ms={push:.1f}", flush=True)
    finally:
        for sock in held:
            sock.close()
        process.terminate()
        process.wait(30)
    return n + 1


def push_cost_probe(dsn: str) -> None:
    port = free_port()
    process = start_club(dsn, port)
    try:
        record = played_records(1)[-1]
        changes = []
        while len(json.dumps({"changes": changes})) < 4_000_000:
            changes.append({"n": len(changes) + 1, "session": 1, "name": "x", "record": record})
        body = json.dumps({"changes": changes}).encode()
        times = []
        for _ in range(5):
            status, took = request(port, "POST", TABLE + "/changes", body, {"Authorization": "Bearer wrong"})
            assert status == 403, status
            times.append(took)
        started = time.perf_counter()
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            sock.sendall((f"POST {TABLE}/changes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                          f"Content-Length: {400 * 1024 * 1024}\r\n\r\n{{").encode())
            head = sock.recv(4096)
        declared = (time.perf_counter() - started) * 1000
        assert head.startswith(b"HTTP/1.1 413"), head[:80]
        print(f"wrong_token_4mb_ms={min(times):.1f} (median {sorted(times)[2]:.1f}, body {len(body) / 1e6:.1f} MB) "
              f"declared_400mb_ms={declared:.1f}", flush=True)
    finally:
        process.terminate()
        process.wait(30)


def camera_probe() -> None:
    from tuolaji.vision.sources import SourceError, StreamSource

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    head = b"HTTP/1.0 200 OK\r\nContent-Type: multipart/x-mixed-replace; boundary=frame\r\n\r\n"

    def feed() -> None:
        client, _ = server.accept()
        with client:
            client.recv(4096)
            client.sendall(head)
            try:
                for byte in b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: 5000\r\n\r\n" + b"\xff" * 5000:
                    time.sleep(0.5)
                    client.sendall(bytes([byte]))
            except OSError:
                return

    url = f"http://127.0.0.1:{server.getsockname()[1]}/video"
    threading.Thread(target=feed, daemon=True).start()
    started = time.monotonic()
    try:
        StreamSource(url)
        line = "opened?"
    except SourceError as exc:
        line = str(exc)
    print(f"camera_trickle_s={time.monotonic() - started:.2f} ({line})", flush=True)
    threading.Thread(target=feed, daemon=True).start()
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "tuolaji", "check-camera", "--camera", url], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    print(f"check_camera_trickle_s={time.monotonic() - started:.2f} (exit {result.returncode}: "
          f"{result.stderr.strip()})", flush=True)
    server.close()


def backup_probe(folder: Path) -> None:
    from tests.web.test_large_records import legal_record
    from tuolaji.web import create_app, get_table

    record = legal_record(1000, 5 * 1024 * 1024)
    app = create_app({"DATA_DIR": str(folder / "data"), "TESTING": True, "RESUME_LATEST": False})
    session_id = get_table(app).store.create(record, name="probe", source="page")
    client = app.test_client()
    client.environ_base["HTTP_X_TUOLAJI_TOKEN"] = app.config["WRITE_TOKEN"]
    started = time.perf_counter()
    export = client.get(f"/api/sessions/{session_id}/export")
    exported = time.perf_counter()
    answer = client.post("/api/sessions/import", data=export.data, content_type="application/json")
    imported = time.perf_counter()
    assert answer.status_code == 201, answer.get_json()
    path = folder / "backup.json"
    path.write_bytes(export.data)
    result = subprocess.run([sys.executable, "-m", "tuolaji", "audit", str(path)], cwd=ROOT, capture_output=True)
    audited = time.perf_counter()
    assert result.returncode == 0, result.stderr[-300:]
    print(f"backup_5mib: bytes={len(export.data)} export_s={exported - started:.2f} import_s={imported - exported:.2f} "
          f"audit_s={audited - imported:.2f}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=150)
    parser.add_argument("--skip-camera", action="store_true")
    parser.add_argument("--camera-only", action="store_true")
    args = parser.parse_args()
    if args.camera_only:
        camera_probe()
        return 0
    folder = Path(tempfile.mkdtemp(prefix="tuolaji-probe-"))
    pg_folder = Path(tempfile.mkdtemp(prefix="tuolaji-pg-"))  # its own: PostgreSQL's user must reach it
    server = PostgresServer(pg_folder)
    server.start()
    try:
        dsn = server.create_database("probe")
        store = ClubStore(dsn)
        token = store.add_table("T1")
        store.close()
        n = streams_probe(dsn, token, args.streams, "waitress", (), 1)
        streams_probe(dsn, token, args.streams, "gunicorn2", ("--workers", "2"), n)
        push_cost_probe(dsn)
        if not args.skip_camera:
            camera_probe()
        backup_probe(folder)
    finally:
        try:
            server.stop("immediate")
        except RuntimeError:
            pass
        shutil.rmtree(folder, ignore_errors=True)
        shutil.rmtree(pg_folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    raise SystemExit(main())
