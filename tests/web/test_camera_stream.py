"""A phone as the camera on /camera and in ``tuolaji serve --camera URL``: its address typed on the
page, the preview and the pipeline reading its stream, the page told while it reconnects."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.vision.mjpeg_server import MjpegServer, encode_video
from tuolaji.scorer.messages import MESSAGES_EN
from tuolaji.vision.demo import DEMO_FRAMES, DEMO_VIDEO
from tuolaji.web.camera import get_desk, load_settings


@pytest.fixture(scope="module")
def pictures() -> list[bytes]:
    return encode_video(DEMO_VIDEO, first=250, last=330)


@pytest.fixture
def phone(pictures: list[bytes]) -> Iterator[MjpegServer]:
    server = MjpegServer(pictures, fps=10.0).start()
    yield server
    server.stop()


def wait_for(client: Any, test: Any, seconds: float = 10.0) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        state = client.get("/api/camera").get_json()
        if test(state):
            return state
        time.sleep(0.05)
    raise AssertionError(f"the camera's state never came: {state}")


@pytest.mark.slow
def test_a_phone_s_address_typed_on_the_page(app: Flask, client: Any, phone: MjpegServer) -> None:
    url = f"http://me:secret@127.0.0.1:{phone.port}/video"
    state = client.post("/api/camera/open", json={"url": url, "size": "1920x1080"}).get_json()
    shown = f"http://me:***@127.0.0.1:{phone.port}/video"
    assert state["source"] == "url" and state["url"] == shown
    assert {"id": "url", "kind": "stream", "label": shown} in state["choices"]
    assert "secret" not in str(state)
    state = wait_for(client, lambda s: s["view"] is not None)
    assert state["preview"]["live"] and state["preview"]["stream"]["connected"]
    assert state["view"]["size"] == [640, 480]
    assert load_settings(Path(app.config["DATA_DIR"]))["url"] == url  # kept with the table, password and all
    # the stream drops: the page says so, and the preview comes back by itself
    phone.drop(3.0, "close")
    state = wait_for(client, lambda s: "stream-down" in s["warnings"])
    assert state["preview"]["stream"]["problem"]
    state = wait_for(client, lambda s: s["preview"]["stream"]["connected"] and s["preview"]["stream"]["reconnects"] >= 1)
    assert "stream-down" not in state["warnings"]
    # the address shown (password hidden) sent back opens the saved one; the choice opens it too
    assert client.post("/api/camera/open", json={"url": shown, "size": "1920x1080"}).status_code == 200
    assert client.post("/api/camera/open", json={"source": "url", "size": "1920x1080"}).status_code == 200
    get_desk(app).close()


def test_an_address_that_is_no_stream_is_refused_in_words(app: Flask, client: Any, phone: MjpegServer) -> None:
    cases = {"ftp://phone/video": "source.stream_url", "http://127.0.0.1:1/video": "source.stream_unreachable",
             f"http://127.0.0.1:{phone.port}/": "source.stream_not_video", 12: "camera.url", " ": "camera.url",
             "http://x/" + "a" * 600: "camera.url"}
    for url, key in cases.items():
        response = client.post("/api/camera/open", json={"url": url, "size": "1920x1080"})
        assert response.status_code == 400, url
        body = response.get_json()
        assert body["message"]["zh"] and body["message"]["en"], body
        words = max(re.split(r"\{[^}]*\}", MESSAGES_EN[key]), key=len).strip()
        assert words in body["error"], (key, body["error"])  # the refusal this address earns
    assert "url" not in load_settings(Path(app.config["DATA_DIR"]))


def test_an_address_typed_as_the_phone_app_shows_it_is_completed(app: Flask, client: Any, phone: MjpegServer) -> None:
    """The phone app shows "192.168.1.5:8080": typed so, it is opened as http://…:8080/video."""
    typed = f"127.0.0.1:{phone.port}"
    state = client.post("/api/camera/open", json={"url": typed, "size": "1920x1080"}).get_json()
    assert load_settings(Path(app.config["DATA_DIR"]))["url"] == f"http://{typed}/video"
    assert state["choices"] and any(c.get("label") == f"http://{typed}/video" for c in state["choices"])
    get_desk(app).close()
    refused = client.post("/api/camera/open", json={"url": "127.0.0.1:1", "size": "1920x1080"})
    assert refused.status_code == 400 and "http://127.0.0.1:1/video" in refused.get_json()["error"]
    assert "（连接被拒绝）" in refused.get_json()["message"]["zh"]  # the trouble in Chinese too


@pytest.mark.slow
def test_serve_with_a_phone_as_the_camera(tmp_path: Path, phone: MjpegServer) -> None:
    """``tuolaji serve --camera URL``: the pipeline reads the phone; /camera previews the very frames
    it reads; the stream drops and the feed stops at once all the same."""
    from tuolaji import cli
    from tuolaji.cli.serve import build_server

    args = cli.build_parser().parse_args([
        "serve", "--camera", phone.url, "--oracle", str(DEMO_FRAMES), "--port", "0", "--data", str(tmp_path)])
    server, table = build_server(args)
    try:
        client = server.app.test_client()
        state = client.get("/api/camera").get_json()
        assert state["choices"][0] == {"id": "pipeline", "kind": "pipeline", "label": phone.url}
        assert table.session is not None and table.session.source == "camera" and table.session.name == phone.url
        state = client.post("/api/camera/open", json={"source": "pipeline", "size": "1920x1080"}).get_json()
        state = wait_for(client, lambda s: s["view"] is not None and s["preview"]["frames"] > 5)
        assert state["preview"]["stream"]["connected"]
        phone.drop(60.0, "stall")
        state = wait_for(client, lambda s: not s["preview"]["stream"]["connected"], seconds=15.0)
        assert "stream-down" in state["warnings"] and table.feed.running
        begun = time.monotonic()
        table.stop_feed(timeout=10.0)
        assert not table.feed.running and time.monotonic() - begun < 5.0
    finally:
        server.server_close()
        server.tuolaji_data_lock.close()
