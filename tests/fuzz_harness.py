"""Mutated inputs for every command's input reader and every endpoint (issue #17's fuzz suite).

The corpus (``tests/data/fuzz/``) holds one valid input of each kind: records, a set-up, a
嘴和 hand, request bodies. :func:`mutate` turns one into a hostile variant: a value somewhere in
it replaced by one of :data:`HOSTILE` (the causes the probe found: JSON nested 1,000 deep,
integers of thousands of digits, ``[1]x999…`` ladders, lone surrogates, ``Infinity``, 60 copies
of one card, ids ≥ 2⁶³, a list where a name goes…), or its bytes damaged (flipped, cut, not
UTF-8). The targets run one input each and say what happened:

- ``ok`` / ``refused``: an answer, or a clean refusal (an InputError / OSError, CLI exit 2, a 4xx);
- ``crash``: anything else (a traceback, a 5xx), with the reason — the suite requires none.

``tests/house/test_input_fuzz.py`` runs it under Hypothesis in CI; ``bench/fuzz_bench.py`` runs
10,000 inputs or more and prints the counts.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import struct
import tempfile
import traceback
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CORPUS_DIR = Path(__file__).resolve().parent / "data" / "fuzz"
_MARK = "\u0001HOSTILE{}\u0001"

# Raw JSON texts a value may be replaced by (raw: some cannot be Python values, e.g. NaN or 1,000 levels deep)
HOSTILE: list[str] = [
    "[" * 1000 + "]" * 1000,                       # nesting that overflows recursive readers
    '{"a":' * 600 + "1" + "}" * 600,
    "1" + "0" * 5000,                              # over Python's 4,300-digit int limit
    "-" + "9" * 4400,
    str(2**63), str(2**64), "-1", "0", "1e999", "-1e999", "Infinity", "-Infinity", "NaN", "1.5",
    '"\\ud800"', '"名\\udfff字"', '"\\u0000"',       # lone surrogates, a NUL
    '"[1]x' + "9" * 30 + '"', '"[1]x100000000"', '"[2]x999"', '"[' + ",".join(["2"] * 400) + ']"',
    json.dumps(["AS"] * 60), json.dumps(["AS"] * 5), json.dumps(["BJ"] * 40 + ["SJ"] * 20),
    '"' + "x" * 100_000 + '"', json.dumps(["x" * 1000] * 5),
    "[]", "{}", "null", "true", '""', "[1]", '[{"card": 1}]', "[[[]]]", '{"profile": []}', '["a", 1, null]',
    json.dumps({"[1]": ["[1]x100000000"]}), json.dumps({"profile": "standard-2deck", "ladders": {"[60]": ["[60]"]}}),
]

BYTE_DAMAGE = ("flip", "truncate", "latin1", "bom", "nul", "garbage")


def corpus() -> dict[str, bytes]:
    """The stored corpus: file name → bytes."""
    return {path.name: path.read_bytes() for path in sorted(CORPUS_DIR.glob("*.json"))}


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*path, index))
    return found


def _replace(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {key: (_replace(item, rest, new) if key == head else item) for key, item in value.items()}
    return [(_replace(item, rest, new) if index == head else item) for index, item in enumerate(value)]


def mutate(seed: bytes, rng: random.Random) -> tuple[bytes, str]:
    """A hostile variant of ``seed`` and a short description of what was done."""
    choice = rng.random()
    if choice < 0.7:
        value = json.loads(seed)
        paths = _paths(value)
        count = rng.choice((1, 1, 1, 2, 3))
        marks: dict[str, str] = {}
        described = []
        for n in range(count):
            path = rng.choice(paths)
            raw = rng.choice(HOSTILE)
            mark = _MARK.format(n)
            marks[json.dumps(mark)] = raw
            value = _replace(value, path, mark)
            paths = _paths(value)
            described.append(f"{'/'.join(map(str, path)) or '<root>'}={raw[:24]}")
        text = json.dumps(value, ensure_ascii=False)
        for quoted, raw in marks.items():
            text = text.replace(quoted, raw)
        return text.encode("utf-8"), "value " + "; ".join(described)
    damage = rng.choice(BYTE_DAMAGE)
    data = bytearray(seed)
    if damage == "flip":
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
    elif damage == "truncate":
        data = data[: rng.randrange(len(data))]
    elif damage == "latin1":
        data = bytearray(seed.decode("utf-8").encode("utf-8", "replace").replace(b"\xe4", b"\xff"))
        data[rng.randrange(len(data))] = 0xE9
    elif damage == "bom":
        data = bytearray(b"\xef\xbb\xbf" + bytes(data))
    elif damage == "nul":
        data.insert(rng.randrange(len(data)), 0)
    else:
        data = bytearray(rng.randbytes(rng.randint(0, 64)))
    return bytes(data), f"bytes {damage}"


# --- images -----------------------------------------------------------------------------


def png(width: int, height: int, *, body: bool = True) -> bytes:
    """A PNG of ``width``×``height`` grey pixels; ``body=False``: the header alone (a claim)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
    pixels = zlib.compress(b"".join(b"\x00" + b"\x80" * width for _ in range(height))) if body else b"x"
    return b"\x89PNG\r\n\x1a\n" + header + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


def mutate_image(rng: random.Random) -> tuple[bytes, str]:
    kind = rng.choice(("huge-claim", "wide-claim", "flip", "truncate", "garbage", "ok"))
    if kind == "huge-claim":
        return png(60000, 60000, body=False), kind
    if kind == "wide-claim":
        return png(30000, 30000, body=False), kind
    data = bytearray(png(24, 16))
    if kind == "flip":
        for _ in range(rng.randint(1, 6)):
            data[rng.randrange(len(data))] = rng.randrange(256)
    elif kind == "truncate":
        data = data[: rng.randrange(len(data))]
    elif kind == "garbage":
        data = bytearray(rng.randbytes(rng.randint(0, 100)))
    return bytes(data), kind


# --- targets ------------------------------------------------------------------------------


@dataclass
class Outcome:
    kind: str  # "ok", "refused" or "crash"
    detail: str = ""


@dataclass
class Tally:
    counts: dict[str, dict[str, int]] = field(default_factory=dict)
    crashes: list[str] = field(default_factory=list)

    def add(self, target: str, outcome: Outcome, what: str) -> None:
        per = self.counts.setdefault(target, {"ok": 0, "refused": 0, "crash": 0})
        per[outcome.kind] += 1
        if outcome.kind == "crash":
            self.crashes.append(f"{target}: {what}: {outcome.detail}")

    @property
    def total(self) -> int:
        return sum(sum(per.values()) for per in self.counts.values())


def run_cli(argv: list[str]) -> Outcome:
    """``tuolaji ARGV`` in this process: exit 0 or 2 with one line, or a crash."""
    import tuolaji_cli

    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = tuolaji_cli.main(argv)
    except BaseException as exc:  # noqa: BLE001 - a traceback is what the fuzz looks for
        if isinstance(exc, KeyboardInterrupt):
            raise
        return Outcome("crash", "".join(traceback.format_exception_only(type(exc), exc)).strip()[:300])
    text = err.getvalue()
    if code == 0:
        return Outcome("ok")
    if code == 2 and text.count("\n") == 1 and "Traceback" not in text:
        return Outcome("refused", text.strip()[:120])
    return Outcome("crash", f"exit {code}: {text[-300:]!r}")


def run_reader(read: Callable[[], Any]) -> Outcome:
    """A reader function: a value, or a clean refusal (InputError or OSError), or a crash."""
    from scorer.errors import InputError

    try:
        read()
    except (InputError, OSError) as exc:
        text = str(exc)
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return Outcome("crash", f"a refusal that cannot be printed: {text[:80]!r}")
        return Outcome("refused", text[:120])
    except Exception as exc:  # noqa: BLE001
        return Outcome("crash", "".join(traceback.format_exception_only(type(exc), exc)).strip()[:300])
    return Outcome("ok")


class Workspace:
    """A folder for the inputs written to files, and one application with a session set up."""

    def __init__(self) -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix="tuolaji-fuzz-")
        self.folder = Path(self._tmp.name)
        self._app: Any = None

    def file(self, data: bytes, name: str = "input.json") -> str:
        path = self.folder / name
        path.write_bytes(data)
        return str(path)

    @property
    def app(self) -> Any:
        if self._app is None:
            from web import create_app

            self._app = create_app({"DATA_DIR": str(self.folder / "data"), "TESTING": True})
            self.client = self._page_client()
            self.client.post("/api/setup", json={"players": ["东", "南", "西", "北"], "profile": "standard-2deck"})
            self.client.post("/api/play", json={"seat": 0, "cards": ["AS"]})
        return self._app

    def _page_client(self) -> Any:
        from flask.testing import FlaskClient

        from web.security import TOKEN_HEADER

        client = FlaskClient(self._app, self._app.response_class, use_cookies=True)
        client.environ_base["HTTP_" + TOKEN_HEADER.upper().replace("-", "_")] = self._app.config["WRITE_TOKEN"]
        return client

    def close(self) -> None:
        self._tmp.cleanup()


def cli_targets(ws: Workspace) -> dict[str, Callable[[bytes], Outcome]]:
    """Every command's input reader, on one input's bytes."""
    from scorer.record import validate_record
    from session.live import read_json_file
    from tuolaji_cli import replay as replay_cli
    from tuolaji_cli import serve as serve_cli
    from web.table import record_setup

    def audit(data: bytes) -> Outcome:
        return run_cli(["audit", ws.file(data)])

    def audit_json(data: bytes) -> Outcome:
        return run_cli(["audit", ws.file(data), "--json"])

    def zuihe(data: bytes) -> Outcome:
        return run_cli(["zuihe", ws.file(data), "--json"])

    def zuihe_options(data: bytes) -> Outcome:
        text = data.decode("utf-8", "replace")[:200]
        return run_cli(["zuihe", ws.file(data), "-o", f"sizes={text}", "-o", f"patterns={text}"])

    def replay_setup(data: bytes) -> Outcome:
        return run_reader(lambda: replay_cli.load_setup(Path(ws.file(data))))

    def serve_record(data: bytes) -> Outcome:
        def read() -> None:
            record = serve_cli.load_record(Path(ws.file(data)))
            validate_record(record)
            record_setup(record)
        return run_reader(read)

    def render_record(data: bytes) -> Outcome:
        return run_reader(lambda: validate_record(read_json_file(Path(ws.file(data)))))

    return {"audit": audit, "audit --json": audit_json, "zuihe": zuihe, "zuihe -o": zuihe_options,
            "replay --setup": replay_setup, "serve --record": serve_record, "render-video --record": render_record}


def image_target(ws: Workspace, data: bytes) -> Outcome:
    from vision.detector import read_image_file

    return run_reader(lambda: read_image_file(ws.file(data, "image.png")))


POST_ENDPOINTS = ("/api/setup", "/api/deal", "/api/next-deal", "/api/bid", "/api/play", "/api/correct",
                  "/api/confirm", "/api/kitty", "/api/sessions/1/rename", "/api/sessions/import",
                  "/zuihe/api/score", "/sessions/import")
URL_IDS = ("1", "0", str(2**63), str(2**64), "99999999999999999999999", "-1", "%ED%A0%80", "x" * 300)
URL_TEMPLATES = ("/api/replay/{}", "/api/replay/1/at/{}", "/api/sessions/{}/export", "/replay/{}",
                 "/api/sessions/{}/resume", "/api/sessions/{}/delete", "/sessions/{}/resume", "/cards/{}.svg")


def endpoint_outcome(response: Any) -> Outcome:
    if response.status_code >= 500:
        return Outcome("crash", f"HTTP {response.status_code}")
    if response.status_code >= 400 and response.mimetype == "application/json":
        body = response.get_json(silent=True) or {}
        message = body.get("message")
        if body.get("error") and not (isinstance(message, dict) and {"zh", "en"} <= set(message)):
            return Outcome("crash", f"HTTP {response.status_code} without a message in both languages: {body}")
    return Outcome("ok" if response.status_code < 400 else "refused", str(response.status_code))


def post_endpoint(ws: Workspace, path: str, data: bytes, how: str) -> Outcome:
    ws.app  # noqa: B018 - set up once
    client = ws.client
    try:
        if how == "json":
            response = client.post(path, data=data, content_type="application/json")
        elif how == "text":
            response = client.post(path, data=data, content_type="text/plain")
        else:
            response = client.post(path, data={"file": (io.BytesIO(data), "x.json"), "replay": "1"},
                                   content_type="multipart/form-data")
    except Exception as exc:  # noqa: BLE001 - the test client re-raises what the app did not handle
        return Outcome("crash", "".join(traceback.format_exception_only(type(exc), exc)).strip()[:300])
    return endpoint_outcome(response)


def url_endpoint(ws: Workspace, template: str, ident: str) -> Outcome:
    ws.app  # noqa: B018
    if "delete" in template and ident == "1":
        ident = "2"  # keep the session the bodies write to
    path = template.format(ident)
    try:
        response = ws.client.post(path) if "resume" in path or "delete" in path else ws.client.get(path)
    except Exception as exc:  # noqa: BLE001
        return Outcome("crash", "".join(traceback.format_exception_only(type(exc), exc)).strip()[:300])
    return endpoint_outcome(response)


def run_one(ws: Workspace, rng: random.Random, tally: Tally, seeds: dict[str, bytes]) -> None:
    """One mutated input to every target that reads its kind (files, bodies, an image, a URL)."""
    name = rng.choice(sorted(seeds))
    data, what = mutate(seeds[name], rng)
    what = f"{name} {what}"
    targets = cli_targets(ws)
    if name.startswith("hand"):
        for target in ("zuihe", "zuihe -o"):
            tally.add(target, targets[target](data), what)
        tally.add("POST /zuihe/api/score", post_endpoint(ws, "/zuihe/api/score", data, "json"), what)
        return
    if name.startswith(("record", "setup")):
        for target in ("audit", "audit --json", "replay --setup", "serve --record", "render-video --record"):
            tally.add(target, targets[target](data), what)
        for path, how in (("/api/sessions/import", "json"), ("/api/sessions/import", "file"),
                          ("/sessions/import", "file")):
            tally.add(f"POST {path} ({how})", post_endpoint(ws, path, data, how), what)
        return
    path = rng.choice(POST_ENDPOINTS)
    how = rng.choice(("json", "json", "json", "text", "file"))
    tally.add(f"POST {path} ({how})", post_endpoint(ws, path, data, how), what)
    template = rng.choice(URL_TEMPLATES)
    tally.add(f"{template}", url_endpoint(ws, template, rng.choice(URL_IDS)), what)
    image, kind = mutate_image(rng)
    tally.add("detect (image reader)", image_target(ws, image), kind)
