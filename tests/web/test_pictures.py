"""Pictures of plays kept within a budget, their addresses, their export and import; the shared PNGs."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from flask import Flask
from PIL import Image

from tests.conftest import TABLE_SETUP
from tuolaji import scorer
from tuolaji.vision.sources import Frame
from tuolaji.web import get_table
from tuolaji.web.pictures import SessionPictures, evidence, pictures_dir


def noisy(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 255, (240, 320, 3), dtype=np.uint8)  # JPEG cannot shrink noise much


def test_pictures_are_kept_within_a_budget_per_deal(app: Flask, client: Any) -> None:
    client.post("/api/setup", json=TABLE_SETUP)
    table = get_table(app)
    keeper = SessionPictures(table, Path(app.config["DATA_DIR"]), budget=50_000)  # a noisy picture: about 43 kB
    kept = [keeper.keep(seat, Frame(10 + seat, 1.5 + seat, noisy(seat)), noisy(seat)) for seat in range(4)]
    assert kept[0] == {"file": "d0-f10-s0.jpg", "frame": 10, "time_s": 1.5}
    folder = pictures_dir(Path(app.config["DATA_DIR"]), table.session_id)
    assert Image.open(folder / kept[0]["file"]).size == (320, 240)
    assert Image.open(folder / kept[1]["file"]).size == (160, 120)  # made smaller to fit
    assert kept[2:] == [None, None] and keeper.dropped == 2  # what does not fit even so is dropped
    assert sum(p.stat().st_size for p in folder.glob("d0-*.jpg")) <= 50_000
    # the next deal has a budget of its own
    client.post("/api/kitty", json={"cards": []})
    table.game.new_deal({"level": "2", "trump": "S", "dealer": 0, "tricks": []})
    assert keeper.keep(0, Frame(99, 9.0, noisy(9)), noisy(9))["file"] == "d1-f99-s0.jpg"


def test_the_record_references_the_pictures_and_the_alert_finds_both(app: Flask, client: Any) -> None:
    from tests.browser.records import revoke_record

    record, (trick, seat) = revoke_record()
    table = get_table(app)
    table.start(record, name="x", source="test")
    session = table.session_id
    with_pictures = table.game.snapshot()
    players = len(record["players"])
    with_pictures["deals"][0]["pictures"] = [
        {"trick": t, "seat": (data["leader"] + p) % players, "file": f"d0-f{t * 10 + p}-s{(data['leader'] + p) % players}.jpg",
         "frame": t * 10 + p, "time_s": 1.0}
        for t, data in enumerate(with_pictures["deals"][0]["tricks"]) for p in range(players)]
    scorer.validate_record(with_pictures)
    found = evidence(with_pictures, scorer.audit_record(with_pictures), session)
    revoke = next(v for v in found if v["rule"] == "must-follow-suit")
    assert (revoke["trick"], revoke["seat"]) == (trick, seat)
    roles = [(p["role"], p["seat"]) for p in revoke["plays"]]
    assert roles[0] == ("fault", seat) and roles[1][0] == "proof" and len(roles) == 2
    proof_trick = revoke["plays"][1]["trick"]
    position = (seat - with_pictures["deals"][0]["tricks"][proof_trick]["leader"]) % players
    assert proof_trick > trick
    assert revoke["plays"][1]["picture"]["url"] == f"/pictures/{session}/d0-f{proof_trick * 10 + position}-s{seat}.jpg"


def test_picture_addresses_are_checked(app: Flask, client: Any) -> None:
    folder = pictures_dir(Path(app.config["DATA_DIR"]), 1)
    folder.mkdir(parents=True)
    (folder / "d0-f1-s0.jpg").write_bytes(b"\xff\xd8jpeg")
    assert client.get("/pictures/1/d0-f1-s0.jpg").data == b"\xff\xd8jpeg"
    for bad in ("..%2Ftuolaji.sqlite", "table-token", "d0-f1-s0.png", "d0-f2-s0.jpg"):
        assert client.get(f"/pictures/1/{bad}").status_code == 404, bad


def test_export_and_import_with_pictures(app: Flask, client: Any) -> None:
    record = scorer.random_record("single-deck", 2, tricks=2)
    record["deals"][0]["pictures"] = [{"trick": 0, "seat": record["deals"][0]["tricks"][0]["leader"], "file": "d0-f3-s0.jpg",
                                       "frame": 3, "time_s": 0.2}]
    session = client.post("/api/sessions/import", json=record).get_json()["id"]
    folder = pictures_dir(Path(app.config["DATA_DIR"]), session)
    folder.mkdir(parents=True)
    (folder / "d0-f3-s0.jpg").write_bytes(b"\xff\xd8picture")  # a JPEG's start: an import refuses what is not one
    exported = client.get(f"/api/sessions/{session}/export.zip")
    archive = zipfile.ZipFile(io.BytesIO(exported.data))
    assert sorted(archive.namelist()) == ["pictures/d0-f3-s0.jpg", "record.json", "session.json"]
    imported = client.post("/api/sessions/import.zip", data=exported.data, content_type="application/zip").get_json()
    assert imported["pictures"] == 1
    assert client.get(f"/pictures/{imported['id']}/d0-f3-s0.jpg").data == b"\xff\xd8picture"
    # the export carries the game's name (a record imported without one is named "import")
    assert client.get(f"/api/sessions/{imported['id']}/export").get_json() == record | {"name": "import"}
    bad = client.post("/api/sessions/import.zip", data=b"not a zip", content_type="application/zip")
    assert bad.status_code == 400 and bad.get_json()["message"]["zh"]
    # a deleted session's pictures stay while it is in the bin (it may be restored), and go with it when purged
    assert client.post(f"/api/sessions/{imported['id']}/delete").status_code == 200
    assert pictures_dir(Path(app.config["DATA_DIR"]), imported["id"]).exists()
    assert get_table(app).purge_bin(older_than_s=0) == [imported["id"]]
    assert not pictures_dir(Path(app.config["DATA_DIR"]), imported["id"]).exists() and folder.exists()


@pytest.mark.parametrize(("profile", "lang"), [(p, "zh") for p in sorted(scorer.PROFILES)] + [("titanic-3deck", "en")])
def test_shared_pictures_are_phone_sized(client: Any, profile: str, lang: str) -> None:
    record = scorer.random_record(profile, 5)
    session = client.post("/api/sessions/import", json=record).get_json()["id"]
    for path in (f"/api/share/{session}/deal/0.png?lang={lang}", f"/api/share/{session}/levels.png?lang={lang}"):
        response = client.get(path)
        assert response.mimetype == "image/png"
        width, height = Image.open(io.BytesIO(response.data)).size
        assert width == 1080 and height >= 1440
    assert client.get(f"/api/share/{session}/deal/1.png").status_code == 404
    assert client.get("/api/share/999/levels.png").status_code == 404
