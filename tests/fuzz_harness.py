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
    from tuolaji import cli

    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(argv)
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
    from tuolaji.scorer.errors import InputError

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
            from tuolaji.web import create_app

            self._app = create_app({"DATA_DIR": str(self.folder / "data"), "TESTING": True})
            self.client = self._page_client()
            self.client.post("/api/setup", json={"players": ["东", "南", "西", "北"], "profile": "standard-2deck"})
            self.client.post("/api/play", json={"seat": 0, "cards": ["AS"]})
        return self._app

    def _page_client(self) -> Any:
        from flask.testing import FlaskClient

        from tuolaji.web.security import TOKEN_HEADER

        client = FlaskClient(self._app, self._app.response_class, use_cookies=True)
        client.environ_base["HTTP_" + TOKEN_HEADER.upper().replace("-", "_")] = self._app.config["WRITE_TOKEN"]
        return client

    def close(self) -> None:
        self._tmp.cleanup()


def cli_targets(ws: Workspace) -> dict[str, Callable[[bytes], Outcome]]:
    """Every command's input reader, on one input's bytes."""
    from tuolaji.cli import replay as replay_cli
    from tuolaji.cli import serve as serve_cli
    from tuolaji.scorer.record import validate_record
    from tuolaji.session.live import read_json_file
    from tuolaji.web.table import record_setup

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
    from tuolaji.vision.detector import read_image_file

    return run_reader(lambda: read_image_file(ws.file(data, "image.png")))


POST_ENDPOINTS = ("/api/setup", "/api/deal", "/api/next-deal", "/api/bid", "/api/play", "/api/correct",
                  "/api/confirm", "/api/kitty", "/api/sessions/1/rename", "/api/sessions/import",
                  "/zuihe/api/score", "/sessions/import", "/api/stats/rename", "/api/points/trick", "/api/points/deal")
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


# --- cost: inputs at and past every limit, timed by bench/fuzz_bench.py --cost (issue #33) ---------


def escaped_quotes(size: int) -> str:
    """``"`` then ``\\"`` repeated: an unterminated string of ``size`` characters (a reader that
    backtracks over escapes takes time quadratic in it)."""
    text = '"' + '\\"' * ((size - 1) // 2)
    return text + "x" * (size - len(text))


def cost_inputs(limit: int) -> dict[str, bytes]:
    """Hostile JSON texts of ``limit`` bytes (at a reader's limit; ``limit + 1``: past it)."""
    def fill(head: str, unit: str, tail: str = "") -> bytes:
        count = max(0, (limit - len(head) - len(tail)) // len(unit))
        text = head + unit * count + tail
        return (text + " " * (limit - len(text))).encode()[:limit]

    return {
        "escaped quotes": escaped_quotes(limit).encode(),
        "escaped backslashes": fill('"', "\\\\"),
        "unicode escapes": fill('"', "\\u4e1c"),
        "open brackets": fill("", "["),
        "32 deep then wide": fill("[" * 31 + "[", "0,", "0" + "]" * 32),
        "digits": fill("", "9"),
        "a float": fill("0.", "1"),
        "small numbers": fill("[", "0,", "0]"),
        "integers of 30 digits": fill("[", "-" + "9" * 30 + ",", "0]"),
        "big exponents": fill("[", "1e100,", "0]"),
        "surrogate pairs": fill("[", '"\\ud83d\\ude00",', '"x"]'),
        "short strings": fill("[", '"AS",', '"AS"]'),
        "keys": fill("{", '"k":0,', '"k":0}'),
        "whitespace": fill("", " ", "1"),
        "a lone surrogate at the end": fill("[", '"x",', '"\\ud800"]'),
        "not UTF-8 at the end": fill("", " ")[:-1] + b"\xff",
        "a hand of many cards": fill('{"hand": [', '"ZH",', '"ZH"]}'),
        "a record of many players": fill('{"format": "tuolaji-record/1", "rules": "standard-2deck", "players": [',
                                         '"a",', '"a"], "deals": []}'),
        "a record of many deals": fill('{"format": "tuolaji-record/1", "rules": "standard-2deck", '
                                       '"players": ["a","b","c","d"], "deals": [',
                                       '{"level":"2","trump":"S","dealer":0,"tricks":[]},',
                                       '{"level":"2","trump":"S","dealer":0,"tricks":[]}]}'),
    }


def cost_readers(ws: Workspace) -> dict[str, tuple[int, Callable[[bytes], Outcome]]]:
    """Every reader of JSON from outside, with its limit: name → (limit, run one input)."""
    from tuolaji.scorer import safejson
    from tuolaji.scorer.zuihe import score
    from tuolaji.session.live import read_json_file

    cli = cli_targets(ws)

    def reader(data: bytes) -> Outcome:
        return run_reader(lambda: safejson.loads(data, "input"))

    def file_reader(data: bytes) -> Outcome:
        return run_reader(lambda: read_json_file(Path(ws.file(data))))

    def zuihe_reader(data: bytes) -> Outcome:
        return run_reader(lambda: score(safejson.loads(data, "hand", max_bytes=safejson.MAX_HAND_BYTES)))

    targets: dict[str, tuple[int, Callable[[bytes], Outcome]]] = {
        "safejson.loads": (safejson.MAX_BYTES, reader),
        "read_json_file": (safejson.MAX_BYTES, file_reader),
        "zuihe hand (reader + score)": (safejson.MAX_HAND_BYTES, zuihe_reader),
        "tuolaji zuihe": (safejson.MAX_HAND_BYTES, cli["zuihe"]),
    }
    for name in ("audit", "audit --json", "replay --setup", "serve --record", "render-video --record"):
        targets[f"tuolaji {name}"] = (safejson.MAX_BYTES, cli[name])
    return targets


def cost_routes(ws: Workspace) -> dict[str, tuple[int, Callable[[bytes], Outcome]]]:
    """Every route that reads a body or a query string, with its limit: name → (limit, run one input)."""
    from urllib.parse import quote

    from tuolaji.scorer import safejson
    from tuolaji.scorer.safejson import MAX_HAND_BYTES
    from tuolaji.web.security import MAX_QUERY_BYTES

    ws.app  # noqa: B018 - set up once
    from tests.conftest import anonymous

    stranger = anonymous(ws.app)

    def post(path: str, how: str = "json", client: Any = None) -> Callable[[bytes], Outcome]:
        def run(data: bytes) -> Outcome:
            return post_endpoint(ws, path, data, how) if client is None else endpoint_outcome(
                client.post(path, data=data, content_type="application/json"))
        return run

    def get(path: str, key: str) -> Callable[[bytes], Outcome]:
        def run(data: bytes) -> Outcome:
            # the bytes as sent: %-encoded, cut to the length given (at or past the limit)
            query = f"{key}=" + quote(data.decode("utf-8", "replace"), safe="")
            return endpoint_outcome(stranger.get(f"{path}?{query[:len(data)]}"))
        return run

    def path(template: str) -> Callable[[bytes], Outcome]:
        def run(data: bytes) -> Outcome:
            return endpoint_outcome(stranger.get(template.format(quote(data.decode("utf-8", "replace"),
                                                                       safe="")[:len(data)])))
        return run

    def import_zip(data: bytes) -> Outcome:
        return post_endpoint(ws, "/api/sessions/import.zip", zip_with_record(data), "zip")

    body = safejson.MAX_BYTES
    paths = {f"GET {template.format('<…>')} (no token)": (MAX_REQUEST_HEADER_BYTES, path(template))
             for template in ("/api/replay/{}", "/replay/{}", "/cards/{}.svg", "/pictures/1/{}", "/{}")}
    return paths | {
        "POST /zuihe/api/score (no token)": (MAX_HAND_BYTES, post("/zuihe/api/score", client=stranger)),
        "GET /api/rules?options= (no token)": (MAX_QUERY_BYTES, get("/api/rules", "options")),
        "GET /api/rules?profile= (no token)": (MAX_QUERY_BYTES, get("/api/rules", "profile")),
        "GET /api/rules?players= (no token)": (MAX_QUERY_BYTES, get("/api/rules", "players")),
        "GET /sessions?error= (no token)": (MAX_QUERY_BYTES, get("/sessions", "error")),
        "GET /?lang= (no token)": (MAX_QUERY_BYTES, get("/", "lang")),
        "POST /api/play": (body, post("/api/play")),
        "POST /api/setup": (body, post("/api/setup")),
        "POST /api/correct": (body, post("/api/correct")),
        "POST /api/sessions/import (json)": (body, post("/api/sessions/import")),
        "POST /api/sessions/import (file)": (body, post("/api/sessions/import", "file")),
        "POST /api/sessions/import.zip (record.json)": (body, import_zip),
    }


MAX_REQUEST_HEADER_BYTES = 256 * 1024
"""The longest request line and headers the server reads (waitress' own limit): a path's limit."""


def zip_bomb(gib: float = 1.0) -> bytes:
    """A zip of about 1 MB per GiB whose record.json unpacks to ``gib`` GiB of spaces (its directory tells the truth)."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    chunk = b" " * (1 << 20)
    # a full flush starts each block afresh, so every mebibyte of spaces compresses to the same block
    block = compressor.compress(chunk) + compressor.flush(zlib.Z_FULL_FLUSH)
    crc = 0
    for _ in range(int(gib * 1024)):
        crc = zlib.crc32(chunk, crc)
    stream = block * int(gib * 1024) + compressor.flush()
    size = int(gib * 1024) << 20
    name = b"record.json"
    local = struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, 0, 8, 0, 0, crc, len(stream), size, len(name), 0) + name
    central = struct.pack("<4s6H3L5H2L", b"PK\x01\x02", 20, 20, 0, 8, 0, 0, crc, len(stream), size, len(name),
                          0, 0, 0, 0, 0, 0) + name
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, 1, 1, len(central), len(local) + len(stream), 0)
    return local + stream + central + end


def zip_with_record(record: bytes) -> bytes:
    """A zip of one ``record.json`` holding ``record`` (deflated)."""
    buffer = io.BytesIO()
    import zipfile

    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("record.json", record)
    return buffer.getvalue()
