"""The camera set-up's API, the calibration kept with the table, the card tracker's API and the
spectator view, which can change nothing."""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import cv2
import numpy as np
import pytest
from flask import Flask

from tests.conftest import anonymous
from tuolaji import scorer
from tuolaji.scorer.tracker import track
from tuolaji.web import get_table
from tuolaji.web.camera import get_desk, load_settings, saved_calibration
from tuolaji.web.security import COMPUTE_ONLY, SAFE_METHODS, TOKEN_HEADER

CORNERS = [[40.0, 30.0], [600.0, 30.0], [600.0, 450.0], [40.0, 450.0]]


def wait_for_frame(client: Any) -> dict[str, Any]:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        state = client.get("/api/camera").get_json()
        if state["view"] is not None:
            return state
        time.sleep(0.05)
    raise AssertionError("no picture from the preview")


@pytest.fixture()
def folder_source(app: Flask) -> str:
    """A folder of frames in DATA/videos: a grey table on a dark floor, with no ground truth beside it."""
    folder = Path(app.config["DATA_DIR"]) / "videos" / "table"
    folder.mkdir(parents=True)
    image = np.full((480, 640, 3), 30, np.uint8)
    image[60:420, 80:560] = (60, 120, 40)
    for index in range(2):
        cv2.imwrite(str(folder / f"{index}.png"), image)
    return "video:table"


class TinyIndices:
    """A reader that sees two cards whose corner indices are 9 px tall (a camera too far away)."""

    def read(self, image: np.ndarray) -> list[Any]:
        return [SimpleNamespace(card=card, box=(x, 100, x + 6, 109), confidence=0.9,
                                indices=[SimpleNamespace(box=(x, 100, x + 6, 109))]) for card, x in (("AS", 200), ("KH", 300))]


def test_choose_a_source_fix_the_corners_and_keep_them(app: Flask, client: Any, folder_source: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tuolaji.web.camera.cameras_found", lambda *args, **kwargs: [0, 1, 2, 3])  # four plugged in
    ids = [choice["id"] for choice in client.get("/api/camera").get_json()["choices"]]
    assert ids[:4] == ["camera:0", "camera:1", "camera:2", "camera:3"] and "demo" in ids and folder_source in ids
    assert client.post("/api/camera/open", json={"source": "../etc", "size": "640x480"}).status_code == 404
    assert client.post("/api/camera/open", json={"source": folder_source, "size": "9x9"}).status_code == 400
    assert client.post("/api/camera/corners", json={"corners": CORNERS}).status_code == 409  # nothing open yet
    assert client.post("/api/camera/open", json={"source": folder_source, "size": "1280x720"}).status_code == 200
    state = wait_for_frame(client)
    assert state["view"]["table_found"] and not state["view"]["given"]
    assert sorted(state["view"]["zones"]) == ["0", "1", "2", "3"]
    found = np.array(state["view"]["corners"])
    assert np.abs(found - [[80, 60], [560, 60], [560, 420], [80, 420]]).max() < 12
    frame = client.get("/api/camera/frame.jpg")
    assert frame.mimetype == "image/jpeg" and cv2.imdecode(np.frombuffer(frame.data, np.uint8), 1).shape == (480, 640, 3)
    bad = client.post("/api/camera/corners", json={"corners": CORNERS[:3]})
    assert bad.status_code == 400 and bad.get_json()["message"]["zh"]
    state = client.post("/api/camera/corners", json={"corners": CORNERS}).get_json()
    assert state["view"]["given"] and state["view"]["corners"] == CORNERS
    assert load_settings(Path(app.config["DATA_DIR"])) == {
        "source": folder_source, "size": "1280x720", "calibration": {"corners": CORNERS, "image_size": [640, 480]}}
    calibration = saved_calibration(Path(app.config["DATA_DIR"]))
    assert calibration is not None and [list(c) for c in calibration.corners] == CORNERS
    get_desk(app).close()


def test_the_next_game_starts_from_the_saved_calibration(tmp_path: Path) -> None:
    from tuolaji.cli.serve import add_arguments, attach_source
    from tuolaji.web import create_app

    app = create_app({"DATA_DIR": str(tmp_path), "TESTING": True})
    client = app.test_client()
    assert client.post("/api/camera/open", json={"source": "demo", "size": "640x480"}).status_code == 200
    wait_for_frame(client)
    client.post("/api/camera/corners", json={"corners": CORNERS})
    get_desk(app).close()
    from tuolaji.vision import demo

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["--video", str(demo.DEMO_VIDEO), "--oracle", str(demo.DEMO_FRAMES), "--data", str(tmp_path)])
    feed = attach_source(get_table(app), args)
    given = feed.pipeline._given_calibration
    assert [list(c) for c in given.corners] == CORNERS


def test_cards_too_small_to_read(app: Flask, client: Any, folder_source: str) -> None:
    client.post("/api/camera/open", json={"source": folder_source, "size": "640x480"})
    wait_for_frame(client)
    get_desk(app).reader = TinyIndices()
    state = client.post("/api/camera/check").get_json()
    check = state["check"]
    assert check["verdict"] == "too-small" and check["index_px"] == 9.0 and check["reader"] == "model"
    # the "cards" lie on the dark cloth: the paper the check measures is dark too
    assert [code for code, _ in check["advice_codes"]] == ["resolution", "closer", "dark"]
    assert dict(check["advice_codes"])["closer"] == {"closer": 2.2}
    assert state["warnings"] == ["too-dark", "too-small"]
    get_desk(app).close()


def test_cards_on_the_table_that_no_corner_can_be_read_of(app: Flask, client: Any) -> None:
    """The page's check on a frame whose cards lie face up but whose corner indices are too faint to read
    (a drawn deck at 640×480): it says cards are there, unread, and what to change, in the page's words."""
    from tuolaji.web.extras_i18n import STRINGS

    folder = Path(app.config["DATA_DIR"]) / "videos" / "faint"
    folder.mkdir(parents=True)
    frame = cv2.imread(str(Path(__file__).resolve().parents[1] / "data" / "faint" / "cards.jpg"))
    for index in range(2):
        cv2.imwrite(str(folder / f"{index}.png"), frame)
    client.post("/api/camera/open", json={"source": "video:faint", "size": "640x480"})
    wait_for_frame(client)
    state = client.post("/api/camera/check").get_json()
    check = state["check"]
    # the page reads as the table does: a face may be guessed, but no corner index is read
    assert check["reader"] == "model" and check["index_px"] is None and check["verdict"] == "unreadable"
    [(code, values)] = check["advice_codes"]
    assert code == "unreadable" and values["shapes"] >= 3 and (values["width"], values["height"]) == (640, 480)
    assert "too-small" in state["warnings"]
    assert "{shapes}" in STRINGS["advice.unreadable"]["zh"] and "1920×1080" in STRINGS["advice.unreadable"]["zh"]
    assert STRINGS["check.verdict.unreadable"]["zh"]
    get_desk(app).close()


class SureCards:
    """A reader (of the models in ``folder``) that reads ``count`` cards surely, with 24 px corner indices."""

    def __init__(self, count: int, folder: str = "models") -> None:
        self.count = count
        self.folder = Path(folder)

    def read(self, image: np.ndarray) -> list[Any]:
        return [SimpleNamespace(card="AS", box=(x, 100, x + 16, 124), confidence=0.9,
                                indices=[SimpleNamespace(box=(x, 100, x + 16, 124))]) for x in range(40, 40 + 60 * self.count, 60)]


def test_the_check_says_when_the_cards_read_far_better_as_a_deck_printing_its_suits_beside_its_ranks(
        app: Flask, client: Any, folder_source: str) -> None:
    """The page's camera check reads the frame with the horizontal decks' reader too; when it reads far
    more cards (5 against 1), the advice says to start with --index-layout horizontal, in the page's words."""
    from tuolaji.web.extras_i18n import STRINGS

    client.post("/api/camera/open", json={"source": folder_source, "size": "640x480"})
    wait_for_frame(client)
    desk = get_desk(app)
    desk.reader, desk.beside_reader = SureCards(1), SureCards(5, "models/horizontal")
    check = client.post("/api/camera/check").get_json()["check"]
    assert check["suits_beside"] is True and "suits-beside" in [code for code, _ in check["advice_codes"]]
    assert check["cards"] == 5  # counted as the advised reader reads them
    desk.reader = SureCards(0)  # the ordinary reader reads no card: the check does not also say none was found
    check = client.post("/api/camera/check").get_json()["check"]
    codes = [code for code, _ in check["advice_codes"]]
    assert "suits-beside" in codes and "no-cards" not in codes and check["verdict"] != "no-cards"
    assert "--index-layout horizontal" in STRINGS["advice.suits-beside"]["zh"]
    desk.reader, desk.beside_reader = SureCards(4), SureCards(5, "models/horizontal")
    check = client.post("/api/camera/check").get_json()["check"]
    assert check["suits_beside"] is False and "suits-beside" not in [code for code, _ in check["advice_codes"]]
    desk.close()


def _writes(app: Flask) -> list[str]:
    paths = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint in COMPUTE_ONLY or rule.endpoint == "static" or not (rule.methods - SAFE_METHODS):
            continue
        paths.append(re.sub(r"<(?:int:)?\w+>", "1", rule.rule))
    return sorted(paths)


def test_the_spectator_view_cannot_change_anything(app: Flask, client: Any) -> None:
    client.post("/api/setup", json={"players": ["东", "南", "西", "北"], "profile": "standard-2deck"})
    page = client.get("/watch").get_data(as_text=True)
    assert 'name="tuolaji-token"' not in page and 'data-mode="watch"' in page and "readonly" in page
    assert app.config["WRITE_TOKEN"] not in page
    writes = _writes(app)
    assert {"/api/play", "/api/setup", "/api/camera/corners", "/api/decks/enrol/start", "/sessions/1/delete"} <= set(writes)
    spectator = anonymous(app)
    referer = "http://localhost/watch"
    for path in writes:
        # what the spectator's page can send: no token
        response = spectator.post(path, json={"seat": 0, "cards": ["AS"]}, headers={"Referer": referer})
        assert response.status_code == 403, path
        # even a browser that holds the token: sent from the spectator view, refused
        response = client.post(path, json={"seat": 0, "cards": ["AS"]},
                               headers={"Referer": referer, TOKEN_HEADER: app.config["WRITE_TOKEN"]})
        assert response.status_code == 403, path
        if response.is_json:
            assert response.get_json()["code"] == "spectator", path
        else:  # the HTML forms' endpoints answer with a page
            assert "观战页面不能改动牌局" in response.get_data(as_text=True), path
    assert get_table(app).game.snapshot()["deals"][0]["tricks"] == []
    assert len(get_table(app).store.list()) == 1
    # reading works
    assert spectator.get("/api/state", headers={"Referer": referer}).status_code == 200
    assert spectator.get("/api/tracker").get_json()["tracker"]["trumps"]["left"] == 12  # no-trump: the 2s and the jokers


def test_the_tracker_is_off_at_the_players_table_and_on_for_the_referee(client: Any) -> None:
    players = client.get("/").get_data(as_text=True)
    assert 'data-mode="live"' in players and 'id="tracker-switch"' in players
    referee = client.get("/referee").get_data(as_text=True)
    assert 'data-mode="referee"' in referee and 'id="tracker-switch"' not in referee
    assert 'name="tuolaji-token"' in referee  # the referee may correct the game


def test_tracker_api_live_and_in_replay(app: Flask, client: Any) -> None:
    record = scorer.random_record("titanic-3deck", 3, tricks=5)
    session = client.post("/api/sessions/import", json=record).get_json()["id"]
    client.post(f"/api/sessions/{session}/resume")
    live = client.get("/api/tracker").get_json()["tracker"]
    assert live == track(record) | {"players": record["players"]}
    from tuolaji.web.replay import record_at

    at = client.get(f"/api/replay/{session}/tracker/7").get_json()["tracker"]
    assert at["plays"] == 7 and at == track(record_at(record, 7)) | {"players": record["players"]}
    assert client.get(f"/api/replay/{session}/tracker/9999").status_code == 404


def test_the_preview_of_a_running_game_is_the_pipeline_s_own(tmp_path: Path) -> None:
    from tuolaji import cli
    from tuolaji.cli.serve import build_server
    from tuolaji.vision import demo

    args = cli.build_parser().parse_args([
        "serve", "--video", str(demo.DEMO_VIDEO), "--oracle", str(demo.DEMO_FRAMES), "--fast", "--port", "0",
        "--data", str(tmp_path)])
    server, table = build_server(args)
    try:
        table.feed.join(120)
        app = server.app
        client = app.test_client()
        state = client.get("/api/camera").get_json()
        assert state["choices"][0] == {"id": "pipeline", "kind": "pipeline", "label": str(demo.DEMO_VIDEO)}
        state = client.post("/api/camera/open", json={"source": "pipeline", "size": "640x480"}).get_json()
        pipeline = table.feed.pipeline
        assert state["preview"]["pipeline"] and state["preview"]["frame"]["index"] == table.feed.frame_source.latest().index
        assert not state["view"]["given"] and state["view"]["table_found"]
        assert np.allclose(state["view"]["corners"], pipeline.calibration.corners, atol=0.1)  # what the pipeline found
        assert "frozen" not in state["warnings"]  # the video ended: not a frozen camera
        check = client.post("/api/camera/check").get_json()["check"]
        assert check["reader"] == "truth" and check["frame"] == table.feed.frame_source.latest().index
        client.post("/api/camera/close")
        assert table.feed.frame_source.latest() is not None  # closing the preview left the pipeline's source alone
    finally:
        server.server_close()
        server.tuolaji_data_lock.close()


def test_on_the_network_the_camera_is_for_token_holders_only(tmp_path: Path) -> None:
    from tuolaji.web import create_app
    from tuolaji.web.security import TOKEN_COOKIE

    app = create_app({"DATA_DIR": str(tmp_path), "TESTING": True, "LOCAL_ONLY": False})
    stranger = anonymous(app)
    for path in ("/camera", "/api/camera", "/api/camera/frame.jpg", "/api/decks"):
        assert stranger.get(path).status_code == 403, path
    phone = anonymous(app)
    phone.set_cookie(TOKEN_COOKIE, app.config["WRITE_TOKEN"])  # scanned the table's code
    assert phone.get("/api/camera").status_code == 200 and phone.get("/camera").status_code == 200
    assert phone.get("/api/camera/frame.jpg").status_code == 409  # allowed; nothing open yet


def test_a_preview_nobody_looks_at_lets_the_camera_go(app: Flask, client: Any, folder_source: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from tuolaji.web import camera

    client.post("/api/camera/open", json={"source": folder_source, "size": "640x480"})
    wait_for_frame(client)
    desk = get_desk(app)
    first = desk.preview
    monkeypatch.setattr(camera, "IDLE_S", 0.0)  # nobody has looked for long enough
    deadline = time.monotonic() + 5
    while not first.idle and time.monotonic() < deadline:
        time.sleep(0.05)
    assert first.idle and not first._thread.is_alive()
    monkeypatch.setattr(camera, "IDLE_S", 60.0)
    state = wait_for_frame(client)  # the page looks again: opened again
    assert desk.preview is not first and not desk.preview.idle and state["source"] == folder_source
    desk.close()


def test_the_check_measures_the_paper_where_a_zone_s_card_lies() -> None:
    """At full resolution the check reads zone by zone: the paper's brightness is measured where
    each card lies in the picture, not at its place in its zone's crop."""
    from tuolaji.vision.camera_check import check_frame

    image = np.full((1080, 1920, 3), 40, np.uint8)  # a dark cloth ...
    image[900:1000, 900:1000] = 230  # ... and one white card in seat 0's zone (the bottom)

    class PaperReader:
        def read(self, crop: np.ndarray) -> list[Any]:
            ys, xs = np.nonzero(crop[:, :, 0] > 200)
            if not len(xs):
                return []
            box = (float(xs.min()), float(ys.min()), float(xs.min() + 22), float(ys.min() + 22))
            return [SimpleNamespace(card="AS", box=box, confidence=0.9, indices=[SimpleNamespace(box=box)])]

    check = check_frame(image, PaperReader())
    assert check.cards >= 1 and check.index_px == 22.0
    assert check.brightness == 230.0 and check.verdict == "good" and check.advice == []  # bright paper: not "dark"


def test_only_the_cameras_the_machine_has_are_offered(app: Flask, client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 43, item 8: the page offers the cameras found (a webcam's metadata node is no second
    camera), says so when there is none, and a camera that is not there cannot be opened."""
    monkeypatch.setattr("tuolaji.web.camera.cameras_found", lambda *args, **kwargs: [0, 2])
    state = client.get("/api/camera").get_json()
    assert [c["id"] for c in state["choices"] if c["kind"] == "camera"] == ["camera:0", "camera:2"]
    assert state["cameras"] == 2
    missing = client.post("/api/camera/open", json={"source": "camera:1", "size": "640x480"})
    assert missing.status_code == 404 and "camera:1" in missing.get_json()["message"]["zh"]
    app.extensions.pop("tuolaji.cameras")  # looked at again: none left
    monkeypatch.setattr("tuolaji.web.camera.cameras_found", lambda *args, **kwargs: [])
    state = client.get("/api/camera").get_json()
    assert state["cameras"] == 0 and not [c for c in state["choices"] if c["kind"] == "camera"]
