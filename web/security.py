"""Who may change the game: the table token, the Host check and the Origin check.

Three rules hold for every request (:func:`init_security` installs them):

1. **Host names.** The server answers only to its own names: an IP address (what a
   phone types or scans), ``localhost`` (and ``*.localhost``), this machine's host
   name, and any name given with ``tuolaji serve --allow-host``. Any other ``Host``
   header is refused with 400 — a page of another site that re-points its own name at
   this machine (DNS rebinding) gets nothing.
2. **The table token.** Every request that changes something (any method but GET,
   HEAD and OPTIONS, except the 嘴和 scorer, which only computes) must carry the
   table's token, in the ``X-Tuolaji-Token`` header (the page's script) or the
   ``_token`` form field (the page's forms). A page of another origin cannot read it,
   so it cannot forge a request (CSRF); without it the answer is 403 and the page is
   read-only.
3. **Origin.** A browser's ``Origin`` (or, lacking it, ``Referer``) on such a request
   must be this server itself.

Who gets the token in the page: on a server bound to this machine only (the default
``127.0.0.1``) every page, since every client is local; on a server open to the
network (``--host 0.0.0.0``) only a browser that opened the address with
``?token=…`` — printed at start and shown as a QR code on the page of anyone who has
it — which keeps it in a cookie for this server. Others see a read-only view.

The token is kept in the data folder (``table-token``, readable by its owner only), so
the players' phones stay in after a restart. It is put only in pages opened as pages (a
browser's ``Sec-Fetch-Dest: document``), never in one fetched by a script, so a script on a
page without it (the spectator view ``/watch``) cannot read it from another page; and it is
redacted from every log line (:class:`TokenRedactor`).

Every response forbids framing (``X-Frame-Options: DENY``, ``frame-ancestors 'none'``, so no
other site can frame a page and steer a click) and type sniffing (``nosniff``). A query string
is at most :data:`MAX_QUERY_BYTES` (414 beyond), which bounds the work of every GET.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import os
import re
import secrets
import socket
from collections.abc import Iterable
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlsplit

from flask import Flask, Response, jsonify, redirect, request
from werkzeug.wrappers.response import Response as BaseResponse

from .i18n import both

TOKEN_HEADER = "X-Tuolaji-Token"
TOKEN_FIELD = "_token"
TOKEN_COOKIE = "tuolaji_token"
TOKEN_FILE = "table-token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
COMPUTE_ONLY = frozenset({"zuihe.api_score"})
"""POST endpoints that change nothing (they only compute an answer): no token needed."""
MAX_QUERY_BYTES = 8 * 1024
"""The longest query string answered (the longest legal one, ``/api/rules?options=…``, is far shorter)."""
MAX_SHOWN_ERROR = 400
"""The most characters of an error carried in an address (``/sessions?error=…``): one naming a
4 MiB card would not fit in :data:`MAX_QUERY_BYTES`."""
WATCH_PATH = "/watch"
LOGGERS = ("werkzeug", "waitress", "waitress.queue", "gunicorn.access", "gunicorn.error", "tuolaji", "tuolaji.server")
"""The loggers a request line can reach (the development server's, waitress', gunicorn's, ours)."""

def load_or_create_token(data_dir: Path) -> str:
    """The table token kept in ``data_dir`` (made on first use, mode 0600)."""
    path = Path(data_dir) / TOKEN_FILE
    try:
        token = path.read_text(encoding="ascii").strip()
        if len(token) >= 16 and token.isascii() and all(c.isalnum() or c in "-_" for c in token):
            return token
    except (OSError, UnicodeDecodeError):
        pass
    token = secrets.token_urlsafe(12)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(token + "\n")
    return token


def own_host_names(extra: Iterable[str] = ()) -> frozenset[str]:
    """This machine's names (host name, its fully qualified form, ``.local``) and ``extra``."""
    names = {"localhost"}
    try:
        host = socket.gethostname().lower()
        names |= {host, host + ".local", socket.getfqdn().lower()}
    except OSError:
        pass
    names |= {name.lower().strip() for name in extra if name.strip()}
    return frozenset(n for n in names if n)


def split_host(host: str) -> str:
    """The name or address of a ``Host`` header, without its port.

    >>> split_host("[::1]:8750"), split_host("127.0.0.1:8750"), split_host("Table.local")
    ('::1', '127.0.0.1', 'table.local')
    """
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    if host.count(":") == 1:
        return host.split(":", 1)[0]
    return host


def host_allowed(host: str, names: frozenset[str]) -> bool:
    """Whether ``host`` (a ``Host`` header) names this server.

    >>> names = frozenset({"localhost", "table"})
    >>> [host_allowed(h, names) for h in ("127.0.0.1:8750", "[::1]:1", "192.168.1.20", "table:8750",
    ...                                   "a.localhost", "evil.example:8750", "")]
    [True, True, True, True, True, False, False]
    """
    name = split_host(host)
    if not name:
        return False
    try:
        ipaddress.ip_address(name)
        return True  # an address cannot be re-pointed by another site's DNS
    except ValueError:
        pass
    return name in names or name.endswith(".localhost")


def is_loopback_host(host: str) -> bool:
    """Whether binding ``host`` keeps the server to this machine (no other machine can connect).

    >>> [is_loopback_host(h) for h in ("127.0.0.1", "localhost", "::1", "0.0.0.0", "127.0.0.2", "")]
    [True, True, True, False, False, False]
    """
    return host in ("127.0.0.1", "localhost", "::1")


def token_matches(app: Flask, given: object) -> bool:
    return isinstance(given, str) and hmac.compare_digest(given.encode("utf-8", "replace"),
                                                          app.config["WRITE_TOKEN"].encode())


def page_token(app: Flask) -> str | None:
    """The token this client holds (None: a read-only view)."""
    if app.config["LOCAL_ONLY"] or token_matches(app, request.cookies.get(TOKEN_COOKIE)):
        return cast(str, app.config["WRITE_TOKEN"])  # Flask's config holds untyped values
    return None


def token_for_page(app: Flask) -> str | None:
    """The token to put in this page: the client's, unless the page is the spectator view or
    was fetched by a script (only a page a browser opens as a page may hold it, so a script
    on ``/watch`` cannot fetch ``/`` to read it)."""
    if request.headers.get("Sec-Fetch-Dest", "document") != "document" or request.path == WATCH_PATH:
        return None
    return page_token(app)


def shown_error(message: str) -> str:
    """``message`` cut to :data:`MAX_SHOWN_ERROR` characters, for an address.

    >>> shown_error("x" * 1000)[-3:], len(shown_error("x" * 1000)), shown_error("short")
    ('xx…', 400, 'short')
    """
    return message if len(message) <= MAX_SHOWN_ERROR else message[:MAX_SHOWN_ERROR - 1] + "…"


def refusal(kind: str, status: int, **values: str) -> Response:
    """A refusal in both languages: JSON for the API, a short page in the reader's language otherwise."""
    return error_response(both(f"refused.{kind}", **values), status, code=kind)


def error_response(message: dict[str, str], status: int, *, code: str) -> Response:
    if request.path.startswith(("/api/", "/zuihe/api/")) or request.accept_mimetypes.best == "application/json":
        response = jsonify({"error": message["en"], "code": code, "message": message})
    else:
        from .i18n import normalise_language

        lang = normalise_language(request.args.get("lang") or request.cookies.get("lang"))
        from markupsafe import escape

        response = Response(f"<!doctype html><meta charset='utf-8'><title>{status}</title>"
                            f"<p>{escape(message[lang])}</p><p><a href='/'>↩</a></p>", mimetype="text/html")
    response.status_code = status
    return response


def _same_origin(value: str) -> bool:
    if value == "null":
        return False
    parts = urlsplit(value)
    return f"{parts.scheme}://{parts.netloc}".lower() == f"{request.scheme}://{request.host}".lower()


def check_request(app: Flask) -> Response | BaseResponse | None:
    """The three rules for the request in hand; a response refuses it, None lets it through."""
    if not host_allowed(request.host, app.config["HOST_NAMES"]):
        shown = request.host[:80].encode("ascii", "backslashreplace").decode("ascii")
        return refusal("host", 400, host=shown)
    if len(request.query_string) > MAX_QUERY_BYTES:
        return refusal("query", 414, size=f"{len(request.query_string):,}", limit=f"{MAX_QUERY_BYTES:,}")
    if request.method in SAFE_METHODS:
        given = request.args.get("token")
        if given is not None and request.method == "GET":
            return _take_token(app, given)
        return None
    if request.endpoint in COMPUTE_ONLY:
        return None
    origin = request.headers.get("Origin") or request.headers.get("Referer")
    if origin is not None and not _same_origin(origin):
        shown = origin[:80].encode("ascii", "backslashreplace").decode("ascii")
        return refusal("origin", 403, origin=shown)
    given = request.headers.get(TOKEN_HEADER)
    if given is None and request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        given = request.form.get(TOKEN_FIELD)
    if not token_matches(app, given):
        return refusal("token", 403)
    return None


def _take_token(app: Flask, given: str) -> BaseResponse | None:
    """``?token=…`` (the printed address, the QR code): a right one is kept in a cookie and
    dropped from the address bar; a wrong one leaves the view read-only."""
    if not token_matches(app, given):
        return None
    args = {key: value for key, value in request.args.items() if key != "token"}
    from urllib.parse import urlencode

    target = request.path + (f"?{urlencode(args)}" if args else "")
    response = redirect(target)
    response.set_cookie(TOKEN_COOKIE, given, max_age=3600 * 24 * 30, httponly=True, samesite="Strict")
    return response


def table_url(app: Flask) -> str | None:
    """The address for the players' phones, token included (None on a server bound to this machine only)."""
    if app.config["LOCAL_ONLY"]:
        return None
    base: str = app.config.get("PUBLIC_URL") or request.host_url
    return base.rstrip("/") + "/?token=" + cast(str, app.config["WRITE_TOKEN"])


def qr_svg(text: str) -> str:
    """``text`` as an inline SVG QR code (for the phones at the table)."""
    import segno

    return segno.make(text, error="m").svg_inline(scale=4, dark="#111", light="#fff")


def protect_response(response: BaseResponse) -> BaseResponse:
    """No framing by any page (merged into a policy the response already has), no type sniffing;
    the spectator view opens no window it could reach (a popup of a page that holds the token)."""
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["X-Content-Type-Options"] = "nosniff"
    policy = response.headers.get("Content-Security-Policy", "").strip().rstrip(";")
    if not re.search(r"(?:^|;)\s*frame-ancestors\s", policy):
        policy = f"{policy}; frame-ancestors 'none'" if policy else "frame-ancestors 'none'"
    else:
        policy = re.sub(r"((?:^|;)\s*frame-ancestors)\s[^;]*", r"\1 'none'", policy)
    response.headers["Content-Security-Policy"] = policy
    if request.path == WATCH_PATH:
        response.headers["Cross-Origin-Opener-Policy"] = "same-origin"
    return response


_TOKEN_PARAMETER = re.compile(r"((?:^|[?&;\s\"'])_?token=)[^&\s\"';]+", re.IGNORECASE)


class TokenRedactor(logging.Filter):
    """Takes the table token out of a log record: ``token=…`` in an address, and the token itself
    wherever it appears (a Referer, a message)."""

    def __init__(self) -> None:
        super().__init__("tuolaji-token")
        self.tokens: set[str] = set()

    def redact(self, text: str) -> str:
        text = _TOKEN_PARAMETER.sub(r"\1…redacted", text)
        for token in self.tokens:
            text = text.replace(token, "…redacted")
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except (TypeError, ValueError):
            return True
        redacted = self.redact(message)
        if redacted != message:
            record.msg, record.args = redacted, ()
        return True


REDACTOR = TokenRedactor()
"""The one filter on every logger of :data:`LOGGERS` (each application adds its token to it)."""


def install_redactor(app: Flask) -> None:
    """Redact ``app``'s token from every log line its server and the app itself write."""
    REDACTOR.tokens.add(app.config["WRITE_TOKEN"])
    for logger in (*map(logging.getLogger, LOGGERS), app.logger):
        if REDACTOR not in logger.filters:
            logger.addFilter(REDACTOR)


def init_security(app: Flask) -> None:
    """Install the checks, the headers, the log redaction and the page's context (``write_token``,
    ``table_url``, ``table_qr``)."""
    install_redactor(app)

    @app.before_request
    def _check() -> Any:
        return check_request(app)

    @app.after_request
    def _protect(response: BaseResponse) -> BaseResponse:
        return protect_response(response)

    @app.context_processor
    def _context() -> dict[str, Any]:
        token = token_for_page(app)
        url = table_url(app) if token else None
        return {"write_token": token, "table_url": url, "table_qr": qr_svg(url) if url else None,
                "local_only": app.config["LOCAL_ONLY"]}


def lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent), or None."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") or address == "0.0.0.0" else address
