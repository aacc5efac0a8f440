"""Pictures of plays: the bundled demo through the camera pipeline, a revoke injected by two
corrections, and both pictures that prove it in the alert; each play's picture on demand in the
trick history; the replay jumps to a trick, plays at a chosen speed and shows the video's frame."""

from __future__ import annotations

import copy
import io
import json
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

from tuolaji import scorer
from tuolaji.scorer.order import TrumpOrder

from .conftest import get_json, guide_screenshot, post_json, start_serve, stop_serve, write_headers

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "vision" / "demo"


@pytest.fixture(scope="module")
def demo_played(tmp_path_factory, browser_context):
    data = tmp_path_factory.mktemp("evidence") / "data"
    process, url = start_serve("--demo", "--fast", "--oracle", str(DEMO / "demo-3deck.frames.json"), "--data", str(data))
    try:
        truth = json.loads((DEMO / "demo-3deck.truth.json").read_text(encoding="utf-8"))
        plays = sum(len(t["plays"]) for t in truth["deals"][0]["tricks"])
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            state = get_json(url + "api/state")
            if (state.get("state") and state["feed"]["finished"]  # the demo is over: the kitty, the next deal
                    and sum(len(t["plays"]) for t in state["state"]["record"]["deals"][0]["tricks"]) == plays):
                break
            time.sleep(0.5)
        else:
            pytest.fail("the demo was not played through in time")
        yield url, data, state
    finally:
        stop_serve(process)


def revoke_by_swap(record: dict, first: int = 0) -> tuple[int, int, int, int, int, str, str]:
    """Two cards of one seat to swap so that it fails to follow trick i's suit while holding the card it
    plays in trick j: (i, j, seat, the card's index in trick i, in trick j, the card of trick i, of trick j);
    tricks from ``first`` on only, a seat that has not revoked in trick i already."""
    deal = record["deals"][0]
    order = TrumpOrder.of(deal["level"], deal["trump"])
    n = len(record["players"])
    tricks = deal["tricks"]
    already = {(v["trick"], v["seat"]) for v in scorer.audit_record(record)["deals"][0]["violations"]}
    for i, trick in enumerate(tricks):
        if i < first:
            continue
        led = order.suit[scorer.parse_card(trick["plays"][0][0])]
        for position in range(1, n):
            seat = (trick["leader"] + position) % n
            if (i, seat) in already:
                continue
            for a_index, a in enumerate(trick["plays"][position]):
                if order.suit[scorer.parse_card(a)] != led:
                    continue
                for j in range(i + 1, len(tricks)):
                    later = tricks[j]
                    p = (seat - later["leader"]) % n
                    for b_index, b in enumerate(later["plays"][p]):
                        if order.suit[scorer.parse_card(b)] == led:
                            continue
                        swapped = copy.deepcopy(record)
                        swapped["deals"][0]["tricks"][i]["plays"][position][a_index] = b
                        swapped["deals"][0]["tricks"][j]["plays"][p][b_index] = a
                        violations = scorer.audit_record(swapped)["deals"][0]["violations"]
                        if any(v["rule"] == "must-follow-suit" and v["trick"] == i and v["seat"] == seat and v["proven"]
                               for v in violations):
                            return i, j, seat, a_index, b_index, a, b
                    if any(order.suit[scorer.parse_card(c)] == led for c in later["plays"][p]):
                        break  # the seat shows the led suit here: a later swap's proof would be this trick
    raise AssertionError("no swap makes a proven revoke")


def test_the_alert_shows_both_pictures_of_an_injected_revoke(page, demo_played, tmp_path):
    url, data, state = demo_played
    record = state["state"]["record"]
    pictures = record["deals"][0]["pictures"]
    tricks = record["deals"][0]["tricks"]
    players = len(record["players"])
    filmed = len(json.loads((DEMO / "demo-3deck.setup.json").read_text(encoding="utf-8"))["deals"][0]["tricks"])
    assert sorted((p["trick"], p["seat"]) for p in pictures) == sorted(  # every filmed play's (not the deal so far)
        (t, (trick["leader"] + k) % players) for t, trick in enumerate(tricks) if t >= filmed for k in range(players))
    assert all(isinstance(p["time_s"], float) and p["file"].endswith(".jpg") for p in pictures)
    scorer.validate_record(record)  # the references are a key docs/RECORD.md readers ignore
    session = state["session"]["id"]
    folder = data / "pictures" / str(session)
    assert sum(f.stat().st_size for f in folder.glob("*.jpg")) < 2 * 1024 * 1024

    i, j, seat, a_index, b_index, a, b = revoke_by_swap(record, filmed)
    post_json(url + "api/correct", data, {"deal": 0, "trick": i, "seat": seat, "index": a_index, "card": b})
    post_json(url + "api/correct", data, {"deal": 0, "trick": j, "seat": seat, "index": b_index, "card": a})

    page.goto(url)
    alert = page.locator(f'#alerts li[data-rule="must-follow-suit"][data-trick="{i}"][data-seat="{seat}"]')
    alert.wait_for(state="attached")
    earlier = page.locator("#alerts .earlier-alerts > details")  # the last deal's alerts, folded under the current deal's
    if earlier.count() and not earlier.evaluate("el => el.open"):
        earlier.locator("summary").click()
    alert.wait_for()
    figures = alert.locator(".evidence figure")
    figures.first.wait_for()
    assert figures.count() == 2
    assert [f.get_attribute("data-role") for f in figures.all()] == ["fault", "proof"]
    assert [f.get_attribute("data-trick") for f in figures.all()] == [str(i), str(j)]
    page.wait_for_function("[...document.querySelectorAll('#alerts .evidence img')].every((img) => img.complete && img.naturalWidth > 50)")
    sources = [img.get_attribute("src") for img in alert.locator(".evidence img").all()]
    by_trick = {p["trick"]: p["file"] for p in pictures if p["seat"] == seat}
    assert sources == [f"/pictures/{session}/{by_trick[i]}", f"/pictures/{session}/{by_trick[j]}"]
    assert "违规的一手" in alert.inner_text() and "证明手里有牌的一手" in alert.inner_text()
    guide_screenshot(page, tmp_path, "guide-evidence.png", ".alerts-box")

    # every play's picture on demand in the trick history (the demo's deal, closed once the next one started)
    history = page.locator(".deal-history[data-deal='0']")
    if history.get_attribute("open") is None:
        history.locator("summary").first.click()
    page.locator(f"#trick-0-{j} td[data-seat='{seat}'] .picture-btn").click()
    dialog = page.locator("#picture-dialog")
    dialog.wait_for(state="visible")
    page.wait_for_function("document.getElementById('picture-image').naturalWidth > 50")
    assert page.locator("#picture-image").get_attribute("src").endswith(by_trick[j])
    assert f"第 {j + 1} 墩" in page.locator("#picture-title").inner_text()
    page.locator("#picture-dialog button[type=submit]").click()
    assert dialog.is_hidden()


def test_pictures_go_with_export_and_import(demo_played):
    url, data, state = demo_played
    session = state["session"]["id"]
    with urllib.request.urlopen(url + f"api/sessions/{session}/export.zip", timeout=20) as response:
        archive = zipfile.ZipFile(io.BytesIO(response.read()))
    names = archive.namelist()
    files = sorted(p.name for p in (data / "pictures" / str(session)).glob("*.jpg"))
    assert sorted(n.removeprefix("pictures/") for n in names if n.startswith("pictures/")) == files
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as copy_zip:
        for name in names:
            copy_zip.writestr(name, archive.read(name))
    request = urllib.request.Request(url + "api/sessions/import.zip", data=buffer.getvalue(),
                                     headers=write_headers(data) | {"Content-Type": "application/zip"}, method="POST")
    with urllib.request.urlopen(request, timeout=20) as response:
        imported = json.loads(response.read())
    assert imported["pictures"] == len(files)
    first = files[0]
    with urllib.request.urlopen(url + f"pictures/{imported['id']}/{first}", timeout=10) as response:
        assert response.read() == (data / "pictures" / str(session) / first).read_bytes()


def test_replay_jumps_plays_at_a_speed_and_shows_the_video_frame(page, demo_played):
    url, _, state = demo_played
    session = state["session"]["id"]
    record = state["state"]["record"]
    page.goto(url + f"replay/{session}#0")
    jump = page.locator("#replay-jump")
    jump.wait_for()
    tricks = record["deals"][0]["tricks"]
    assert jump.locator("option").count() >= 1 + len(tricks)
    filmed = len(json.loads((DEMO / "demo-3deck.setup.json").read_text(encoding="utf-8"))["deals"][0]["tricks"])
    jump.select_option(label=f"第 1 局 第 {filmed + 1} 墩")  # the first filmed trick (the deal so far has no pictures)
    step = (filmed + 1) * len(record["players"])
    page.wait_for_function(f"location.hash === '#{step}'")
    frame = page.locator("#replay-frame")
    frame.wait_for(state="visible")
    page.wait_for_function("document.querySelector('#replay-frame img').naturalWidth === 640")
    last = next(p for p in record["deals"][0]["pictures"] if p["trick"] == filmed and
                p["seat"] == (tricks[filmed]["leader"] + len(record["players"]) - 1) % len(record["players"]))
    assert frame.get_attribute("data-frame") == str(last["frame"])
    # the tracker follows the step
    page.locator("#tracker-trumps").wait_for()
    # play at ×4 (6 steps: 4.2 s at ×1, 1.05 s at ×4) and pause, before the end
    page.select_option("#replay-speed", "4")
    started = time.monotonic()
    page.click("#replay-play")
    page.wait_for_function(f"location.hash === '#{step + 6}'")
    assert time.monotonic() - started < 3.0
    page.click("#replay-play")
    page.wait_for_timeout(400)  # a step asked for before the pause may still arrive
    stopped = page.evaluate("location.hash")
    page.wait_for_timeout(800)
    assert page.evaluate("location.hash") == stopped
