"""The camera set-up page driven as a person would: a video file stands in for the camera."""

from __future__ import annotations

import json
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from tuolaji.scorer.cards import RANKS

from .conftest import get_json, guide_screenshot, start_serve, stop_serve

pytestmark = pytest.mark.browser


def layout_photo(cards: list[str], seed: int, size: tuple[int, int] = (1280, 720)) -> np.ndarray:
    """A camera's picture of ``cards`` of one deck laid out face up on a cloth, seven to a row."""
    from tuolaji.datasets.cardart import CardStyle, render_card

    style = CardStyle.random(np.random.default_rng(3), "train")
    rng = np.random.default_rng(seed)
    w, h = size
    canvas = np.empty((h, w, 3), np.uint8)
    canvas[:] = rng.integers(40, 120, 3)
    for n, name in enumerate(cards):
        card = render_card(name, style, 190)
        ch, cw = card.shape[:2]
        matrix = cv2.getRotationMatrix2D((cw / 2, ch / 2), float(rng.choice([0.0, 180.0])), 1.0)
        matrix[:, 2] += ((n % 7 + 0.5) * w / 7 - cw / 2, (n // 7 + 0.5) * h / 2 - ch / 2)
        colour = cv2.warpAffine(card[:, :, :3], matrix, size, flags=cv2.INTER_AREA)
        alpha = cv2.warpAffine(card[:, :, 3], matrix, size, flags=cv2.INTER_AREA).astype(np.float32)[..., None] / 255
        canvas[:] = (canvas * (1 - alpha) + colour * alpha).astype(np.uint8)
    return canvas


ENROL_STEPS = [("S", [r + "S" for r in RANKS]), ("H", [r + "H" for r in RANKS]), ("C", [r + "C" for r in RANKS]),
               ("D", [r + "D" for r in RANKS]), ("J", ["BJ", "SJ"])]


@pytest.fixture(scope="module")
def camera_server(tmp_path_factory):
    data = tmp_path_factory.mktemp("camera") / "data"
    for n, (key, cards) in enumerate(ENROL_STEPS):  # what the camera sees at each step of the enrolment
        folder = data / "videos" / f"layout-{key}"
        folder.mkdir(parents=True)
        cv2.imwrite(str(folder / "000.png"), layout_photo(cards, n))
    still = data / "videos" / "still"
    still.mkdir(parents=True)
    ys, xs = np.mgrid[0:240, 0:320]
    chequer = np.dstack([((ys // 20 + xs // 20) % 2 * 80).astype(np.uint8)] * 3)  # no table, dark, never moves
    for index in range(3):
        cv2.imwrite(str(still / f"{index:03d}.png"), chequer)
    beside = data / "videos" / "beside"  # a held-out drawn deck printing its suits beside its ranks
    beside.mkdir(parents=True)
    from tuolaji.datasets.scenes import generate_scene

    cv2.imwrite(str(beside / "000.png"), generate_scene(5300, 0, 640, 480, split="holdout", horizontal=1.0).image)
    process, url = start_serve("--resume", "--data", str(data))
    try:
        yield url, data
    finally:
        stop_serve(process)


def open_source(page, source: str, size: str = "640x480") -> None:
    page.select_option("#camera-source", source)
    page.select_option("#camera-size", size)
    page.click("#camera-form button[type=submit]")
    page.locator("#camera-stage").wait_for(state="visible")


def test_preview_drag_the_corners_and_check(page, camera_server, tmp_path):
    url, data = camera_server
    page.goto(url + "camera")
    assert "还没有打开摄像头" in page.locator("#camera-none").inner_text()
    # the cameras this machine has are the ones offered; none is said plainly (issue 43, item 8)
    cameras = get_json(url + "api/camera")["cameras"]
    offered = page.locator("#camera-source option").all_text_contents()
    assert len([o for o in offered if o.startswith("摄像头")]) == cameras, offered
    page.wait_for_function(f"document.getElementById('camera-no-camera').hidden === {str(cameras != 0).lower()}")
    open_source(page, "demo")
    # the outline the pipeline found and the four seat zones, over a live picture
    page.wait_for_function("document.querySelectorAll('#camera-overlay polygon.zone').length >= 4")
    assert page.locator("#camera-overlay polygon.table-outline.found").count() == 1
    assert page.locator("#camera-overlay text.zone-label").all_text_contents() == ["座位 1", "座位 2", "座位 3", "座位 4"]
    page.wait_for_function("document.getElementById('camera-frame').naturalWidth === 640")
    first = page.locator("#camera-info").inner_text()
    assert "640×480" in first and "自动找到" in first
    page.wait_for_function(f"!document.getElementById('camera-info').textContent.includes({json.dumps(first)})")

    # drag the top-left corner 40 px right and 30 px down (in the picture's pixels)
    state = page.evaluate("window.TuolajiCamera.state")
    before = state["view"]["corners"][0]
    handle = page.locator("#camera-overlay circle.corner[data-index='0']")
    box = handle.bounding_box()
    stage = page.locator("#camera-frame").bounding_box()
    scale = stage["width"] / 640
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    for step in range(1, 6):
        page.mouse.move(x + 40 * scale * step / 5, y + 30 * scale * step / 5)
    page.mouse.up()
    page.wait_for_function("document.getElementById('camera-info').textContent.includes('手动标定')")
    saved = json.loads((data / "table-camera.json").read_text(encoding="utf-8"))
    assert saved["source"] == "demo" and saved["size"] == "640x480"
    moved = saved["calibration"]["corners"][0]
    assert abs(moved[0] - (before[0] + 40)) < 3 and abs(moved[1] - (before[1] + 30)) < 3, (before, moved)
    outline = page.locator("#table-outline")
    assert outline.get_attribute("class") == "table-outline"  # given, no longer the dashed "found" outline
    drawn = [float(v) for v in outline.get_attribute("points").split()[0].split(",")]
    assert abs(drawn[0] - moved[0]) < 0.2 and abs(drawn[1] - moved[1]) < 0.2

    # the camera check (the reader issue's): how tall the indices are, and the verdict
    # the demo's first filmed trick lies on the table from frame 80 to about 105 (10 frames a second)
    page.wait_for_function("window.TuolajiCamera.state.preview.frame.index > 80")
    page.click("#camera-check")
    verdict = page.locator("#check-verdict")
    verdict.wait_for()
    assert verdict.get_attribute("data-verdict") == "good"
    assert "可以读牌" in verdict.inner_text()
    assert "像素" in page.locator("#check-result").inner_text()
    page.set_viewport_size({"width": 1280, "height": 820})
    guide_screenshot(page, tmp_path, "guide-camera.png")
    page.set_viewport_size({"width": 1440, "height": 1000})

    # back to finding the table itself
    page.click("#camera-reset")
    page.wait_for_function("document.getElementById('camera-info').textContent.includes('自动找到')")
    assert "calibration" not in json.loads((data / "table-camera.json").read_text(encoding="utf-8"))


def test_warnings_no_table_dark_and_frozen(page, camera_server):
    url, _ = camera_server
    page.goto(url + "camera")
    page.locator("#camera-source option[value='video:still']").wait_for(state="attached")
    open_source(page, "video:still")
    warnings = page.locator("#camera-warnings")
    page.wait_for_function("document.querySelector('#camera-warnings li[data-code=frozen]') !== null", timeout=10_000)
    codes = [li.get_attribute("data-code") for li in warnings.locator("li").all()]
    assert codes == ["no-table", "too-dark", "frozen"]
    text = warnings.inner_text()
    assert "没有找到桌面：使用整个画面" in text and "画面太暗" in text and "画面不动了" in text
    page.click("#lang-toggle")
    assert "No table found" in warnings.inner_text()
    page.click("#lang-toggle")


def test_the_check_says_the_cards_print_their_suits_beside_their_ranks(page, camera_server, tmp_path):
    """The camera check of a deck printing "10♥" on one line advises --index-layout horizontal, in Chinese
    and in English."""
    url, _ = camera_server
    page.goto(url + "camera")
    page.locator("#camera-source option[value='video:beside']").wait_for(state="attached")
    open_source(page, "video:beside")
    page.wait_for_function("window.TuolajiCamera.state.preview && window.TuolajiCamera.state.preview.frame")
    page.click("#camera-check")
    advice = page.locator("#check-advice li[data-code=suits-beside]")
    advice.wait_for()
    assert "角标像是横排的" in advice.inner_text() and "--index-layout horizontal" in advice.inner_text()
    page.set_viewport_size({"width": 1280, "height": 820})
    guide_screenshot(page, tmp_path, "camera-check-suits-beside.png")
    page.set_viewport_size({"width": 1440, "height": 1000})
    page.click("#lang-toggle")
    assert "print each suit beside its rank" in advice.inner_text()
    page.click("#lang-toggle")


def test_guided_enrolment_from_the_camera(page, camera_server):
    url, data = camera_server
    page.goto(url + "camera")
    page.locator("#deck-list li.none").wait_for()
    assert "还没有登记过牌组" in page.locator("#deck-list").inner_text()
    open_source(page, "demo")
    page.fill("#enrol-start input[name=name]", "club")
    page.click("#enrol-start button[type=submit]")
    step = page.locator("#enrol-step")
    for n, what in enumerate(["黑桃", "红桃", "梅花", "方块", "大王"], start=1):
        page.wait_for_function(f"document.getElementById('enrol-step').textContent.includes('第 {n}/5 步')")
        assert what in step.inner_text()
        page.click("#enrol-shoot")
    page.locator("#enrol-finish").wait_for(state="visible")
    manifest = json.loads((data / "enrol" / "club" / "manifest.json").read_text(encoding="utf-8"))
    assert [len(p["cards"]) for p in manifest] == [13, 13, 13, 13, 2]
    assert all((data / "enrol" / "club" / p["image"]).is_file() for p in manifest)
    assert cv2.imread(str(data / "enrol" / "club" / manifest[0]["image"])).shape == (480, 640, 3)
    page.click("#enrol-finish")
    result = page.locator("#enrol-result")
    deadline = time.monotonic() + 120
    while result.get_attribute("data-status") not in ("done", "failed") and time.monotonic() < deadline:
        page.wait_for_timeout(500)
    # the demo's frames show no suit laid out: the learner says which listed cards it did not find
    assert result.get_attribute("data-status") == "failed"
    assert "登记失败" in result.inner_text() and "not found" in result.inner_text()
    assert not (Path(data) / "decks" / "club").exists()


def test_a_deck_enrolled_from_the_camera_in_five_steps(page, camera_server):
    url, data = camera_server
    page.goto(url + "camera")
    page.locator("#deck-list li").first.wait_for()
    page.fill("#enrol-start input[name=name]", "home")
    page.click("#enrol-start button[type=submit]")
    for n, (key, _cards) in enumerate(ENROL_STEPS, start=1):
        page.wait_for_function(f"document.getElementById('enrol-step').textContent.includes('第 {n}/5 步')")
        open_source(page, f"video:layout-{key}", "1280x720")  # the layout of this step, under the camera
        page.wait_for_function("document.getElementById('camera-frame').naturalWidth > 0 && "
                               f"window.TuolajiCamera.state.source === 'video:layout-{key}'")
        page.click("#enrol-shoot")
    page.locator("#enrol-finish").wait_for(state="visible")
    page.click("#enrol-finish")
    result = page.locator("#enrol-result")
    page.wait_for_function("['done', 'failed'].includes(document.getElementById('enrol-result').dataset.status)",
                           timeout=180_000)
    assert result.get_attribute("data-status") == "done", result.inner_text()
    assert "登记完成：home（54/54 张牌认出）" in result.inner_text()
    page.wait_for_function("[...document.querySelectorAll('#deck-list li')].some((li) => li.textContent === 'home')")
    assert (data / "decks" / "home" / "head.npz").is_file()
    manifest = json.loads((data / "enrol" / "home" / "manifest.json").read_text(encoding="utf-8"))
    assert [p["cards"] for p in manifest] == [cards for _key, cards in ENROL_STEPS]


def test_a_phone_as_the_camera(page, camera_server):
    """A phone's address typed on the page: its picture, the page told while its stream drops,
    a wrong address refused next to the field."""
    from tests.vision.mjpeg_server import MjpegServer, encode_video
    from tuolaji.vision.demo import DEMO_VIDEO

    url, data = camera_server
    phone = MjpegServer(encode_video(DEMO_VIDEO, first=250, last=300), fps=10.0).start()
    try:
        page.goto(url + "camera")
        page.locator("#camera-source option[value='demo']").wait_for(state="attached")  # the page's script is up
        assert "IP Webcam" in page.locator("[data-i18n='camera.url.help']").inner_text()
        page.fill("#camera-url", "http://127.0.0.1:1/video")
        page.click("#camera-form button[type=submit]")
        error = page.locator("#camera-url-error")
        error.wait_for(state="visible")
        assert "连不上" in error.inner_text()
        page.fill("#camera-url", phone.url)
        page.click("#camera-form button[type=submit]")
        page.locator("#camera-stage").wait_for(state="visible")
        error.wait_for(state="hidden")  # the stage may show the camera an earlier test opened before this answer comes
        page.wait_for_function("document.getElementById('camera-info').textContent.includes('手机画面已连接')")
        assert page.locator("#camera-source").input_value() == "url"
        assert json.loads((data / "table-camera.json").read_text(encoding="utf-8"))["url"] == phone.url
        phone.drop(4.0, "close")
        page.wait_for_function("document.querySelector('#camera-warnings li[data-code=\"stream-down\"]') !== null",
                               timeout=10_000)
        assert "手机画面断了" in page.locator("#camera-warnings").inner_text()
        page.wait_for_function("document.querySelector('#camera-warnings li[data-code=\"stream-down\"]') === null",
                               timeout=15_000)
        # choosing another source clears the address typed
        page.select_option("#camera-source", "demo")
        assert page.locator("#camera-url").input_value() == ""
        page.click("#camera-form button[type=submit]")
        page.wait_for_function("window.TuolajiCamera.state.source === 'demo'")
    finally:
        phone.stop()


def test_a_deck_enrolled_from_one_photo_of_it_laid_out_in_order(page, camera_server):
    """The whole deck laid out in order under the camera (one row per suit, then the jokers): one
    photo, no card typed, and the deck is learnt."""
    from tuolaji.datasets.cardart import CardStyle
    from tuolaji.datasets.layout import layout_photo as whole_deck

    url, data = camera_server
    folder = data / "videos" / "layout-whole"
    folder.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(folder / "000.png"), whole_deck(CardStyle.random(np.random.default_rng(3), "holdout"),
                                                    np.random.default_rng(1)))
    page.goto(url + "camera")
    page.locator("#deck-list li").first.wait_for()
    page.fill("#enrol-start input[name=name]", "laid")
    page.click("#enrol-layout")
    page.wait_for_function("document.getElementById('enrol-step').textContent.includes('第 1/1 步')")
    assert "每种花色一行" in page.locator("#enrol-step").inner_text()
    open_source(page, "video:layout-whole", "1920x1080")
    page.wait_for_function("document.getElementById('camera-frame').naturalWidth > 0 && "
                           "window.TuolajiCamera.state.source === 'video:layout-whole'")
    page.click("#enrol-shoot")
    page.locator("#enrol-finish").wait_for(state="visible")
    manifest = json.loads((data / "enrol" / "laid" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest == [{"image": "01-layout.jpg", "layout": True}]
    page.click("#enrol-finish")
    result = page.locator("#enrol-result")
    deadline = time.monotonic() + 180
    while result.get_attribute("data-status") not in ("done", "failed") and time.monotonic() < deadline:
        page.wait_for_timeout(500)
    assert result.get_attribute("data-status") == "done", result.inner_text()
    assert "登记完成：laid" in result.inner_text()
    assert (data / "decks" / "laid" / "deck.json").is_file()
    page.locator("#deck-list li", has_text="laid").wait_for()
