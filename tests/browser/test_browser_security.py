"""Another site's page, in Chromium, against a real ``tuolaji serve`` on 127.0.0.1 (issue #17).

The attacker's page (``http://attacker.test:PORT/``, mapped to this machine) posts forms,
multipart and ``text/plain`` bodies to every route that changes the game — delete, resume,
both imports, the next deal, a play — and a page that re-points its own name at the server
(``http://rebind.test:PORT/``, DNS rebinding) is refused for its Host. Nothing changes.
"""

from __future__ import annotations

import json
import threading
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tuolaji import scorer
from tuolaji.web.store import DATABASE_NAME, SessionStore

from .conftest import start_serve, stop_serve

pytestmark = pytest.mark.browser

ATTACK = """<!doctype html><meta charset="utf-8"><title>free cards</title>
<iframe name="sink"></iframe>
<form id="f1" method="post" action="{target}sessions/1/delete" target="sink"></form>
<form id="f2" method="post" action="{target}api/next-deal" target="sink" enctype="text/plain">
  <input name='{{"trump":"S","x":"' value='"}}'></form>
<form id="f3" method="post" action="{target}sessions/3/resume" target="sink"></form>
<script>
const target = "{target}";
const record = {record};
window.results = [];
async function attack() {{
  const body = new FormData();
  body.append("file", new Blob([JSON.stringify(record)], {{type: "application/json"}}), "planted.json");
  const tries = [
    fetch(target + "api/sessions/2/delete", {{method: "POST", mode: "no-cors", body: "x", headers: {{"Content-Type": "text/plain"}}}}),
    fetch(target + "api/sessions/3/resume", {{method: "POST", mode: "no-cors"}}),
    fetch(target + "api/sessions/import", {{method: "POST", mode: "no-cors", body: body}}),
    fetch(target + "sessions/import", {{method: "POST", mode: "no-cors", body: body}}),
    fetch(target + "api/sessions/import", {{method: "POST", mode: "no-cors", body: JSON.stringify(record),
                                           headers: {{"Content-Type": "text/plain"}}}}),
    fetch(target + "api/next-deal", {{method: "POST", mode: "no-cors", body: "{{}}", headers: {{"Content-Type": "text/plain"}}}}),
    fetch(target + "api/play", {{method: "POST", mode: "no-cors", body: '{{"seat":0,"cards":["AS"]}}',
                                headers: {{"Content-Type": "text/plain"}}}}),
    // a JSON body needs a preflight the server never grants
    fetch(target + "api/sessions/1/delete", {{method: "POST", body: "{{}}", headers: {{"Content-Type": "application/json"}}}}),
  ];
  // each outcome is taken as it comes: a refusal that lands before its turn is never an unhandled rejection
  window.results = await Promise.all(tries.map((attempt) => attempt.then(() => "sent", () => "blocked")));
  for (const id of ["f1", "f2", "f3"]) {{
    document.getElementById(id).submit();
    await new Promise((done) => setTimeout(done, 300));
  }}
  window.done = true;
}}
attack();
</script>"""


def _serve_attack(page: str) -> tuple[ThreadingHTTPServer, int]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            body = page.encode("utf-8")
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def stored(data: Path) -> list[tuple[int, str, dict]]:
    return [(s.id, s.name, s.record) for s in SessionStore(data / DATABASE_NAME).list()]


@pytest.fixture()
def three_sessions(tmp_path: Path, browser_context) -> Iterator[tuple[str, Path]]:
    data = tmp_path / "data"
    store = SessionStore(data / DATABASE_NAME)
    for seed in (1, 2, 3):
        store.create(scorer.random_record("standard-2deck", seed, hand_size=2), name=f"局 {seed}", source="import")
    process, url = start_serve("--resume", "--data", str(data))
    try:
        yield url, data
    finally:
        stop_serve(process)


def test_a_page_of_another_site_cannot_change_anything(page, three_sessions) -> None:
    url, data = three_sessions
    before = stored(data)
    with urllib.request.urlopen(url + "api/state", timeout=10) as response:
        current = json.loads(response.read())["session"]["id"]
    planted = scorer.random_record("single-deck", 9, hand_size=1)
    attacker, port = _serve_attack(ATTACK.format(target=url, record=json.dumps(planted)))
    try:
        page.goto(f"http://attacker.test:{port}/")
        page.wait_for_function("window.done === true", timeout=20_000)
        page.wait_for_timeout(500)
    finally:
        attacker.shutdown()
        attacker.server_close()
    assert stored(data) == before  # none deleted, none planted, no deal started, no play
    with urllib.request.urlopen(url + "api/state", timeout=10) as response:
        assert json.loads(response.read())["session"]["id"] == current  # nothing resumed


def test_a_page_that_rebinds_its_name_to_the_server_is_refused(page, three_sessions) -> None:
    url, data = three_sessions
    before = stored(data)
    port = url.rstrip("/").rsplit(":", 1)[1]
    response = page.goto(f"http://rebind.test:{port}/")
    assert response is not None and response.status == 400
    assert "rebind.test" in page.content()
    statuses = page.evaluate("""async () => {
        const answers = [];
        for (const path of ["/api/state", "/api/sessions/1/delete", "/api/sessions/import"]) {
            const response = await fetch(path, {method: path === "/api/state" ? "GET" : "POST",
                headers: {"Content-Type": "application/json"}, body: path === "/api/state" ? undefined : "{}"});
            answers.push(response.status);
        }
        return answers;
    }""")
    assert statuses == [400, 400, 400]
    assert stored(data) == before
    # the same server answers its own address
    response = page.goto(url)
    assert response is not None and response.status == 200


def test_on_the_network_the_page_is_read_only_until_the_qr_codes_address_is_opened(page, tmp_path: Path) -> None:
    """``serve --host 127.0.0.2`` (reached through loopback): a phone without the token reads only."""
    import os
    import subprocess
    import sys

    from .conftest import ROOT

    process = subprocess.Popen([sys.executable, "-m", "tuolaji", "serve", "--host", "127.0.0.2",
                                "--port", "0", "--resume", "--data", str(tmp_path / "data")],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               env=os.environ | {"PYTHONUNBUFFERED": "1"})
    try:
        line = process.stdout.readline()
        assert line.startswith("tuolaji serve: open http://127.0.0.2:"), line
        with_token = line.split("open ", 1)[1].split()[0]
        base = with_token.split("?", 1)[0]
        page.goto(base)
        assert "readonly" in page.locator("body").get_attribute("class")
        assert page.locator("#readonly-note").is_visible() and not page.locator("#setup").is_visible()
        assert page.locator("#phones").count() == 0
        page.goto(with_token)
        assert page.url == base  # the token left the address bar (it is kept in a cookie)
        assert "readonly" not in page.locator("body").get_attribute("class")
        assert page.locator("#setup").is_visible() and page.locator("#phones .qr svg").is_visible()
        assert page.locator("#table-url").inner_text() == with_token
        form = page.locator("#setup-form")
        form.wait_for(state="visible")  # no session yet: the set-up is open
        form.locator("input[name=name]").fill("手机开的局")
        for seat, name in enumerate(["东", "南", "西", "北"]):
            page.locator("#player-fields input[name=player]").nth(seat).fill(name)
        form.locator("button[type=submit]").click()
        page.wait_for_function("document.querySelector('#deal-heading').textContent === '第 1 局'")
        assert page.locator("#session-name").inner_text() == "手机开的局"  # set up from the phone
    finally:
        stop_serve(process)
