"""Reading real decks, as a user meets it: `eval-detector --real`, `real-crops`, `enrol`,
`detect --deck`, `check-camera`, zone reads of full-resolution frames, and reads checked
against the game. The photos are drawn here with the project's own card art, in the
layouts of real-photo folders, so the tests need nothing from outside the repository."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from tuolaji.datasets.cardart import CardStyle, render_card
from tuolaji.datasets.deck_photos import paste_card
from tuolaji.datasets.realeval import match_cards
from tuolaji.vision.detector import CardInstance, IndexReading
from tuolaji.vision.read_check import DealFacts, deal_facts, weigh_read

REPO = Path(__file__).resolve().parents[2]
needs_models = pytest.mark.skipif(not (REPO / "models" / "classifier_head.npz").exists(), reason="no shipped models")


def tuolaji(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tuolaji", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=300, env=env)


def deck_photo(cards: list[str], style: CardStyle, seed: int, size: tuple[int, int] = (640, 480),
               card_height: int = 170) -> np.ndarray:
    """A photo of ``cards`` of one deck laid apart on a cloth, upright or upside down."""
    rng = np.random.default_rng(seed)
    w, h = size
    canvas = np.empty((h, w, 3), np.uint8)
    canvas[:] = rng.integers(40, 120, 3)
    per_row = 4
    for n, name in enumerate(cards):
        col, row = n % per_row, n // per_row
        centre = ((col + 0.5) * w / per_row + rng.uniform(-8, 8), (row + 0.5) * h / 2 + rng.uniform(-8, 8))
        paste_card(canvas, render_card(name, style, card_height), centre, float(rng.choice([0.0, 180.0]) + rng.uniform(-8, 8)))
    return canvas


STYLE = CardStyle.random(np.random.default_rng(3), "train")
DECK_PHOTOS = [["AS", "2S", "3S", "4S"], ["AH", "KH", "QH", "JH"], ["7C", "8C", "9C", "10C"], ["5D", "6D", "AD", "BJ"]]


@pytest.fixture(scope="module")
def real_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real-photo folder (images/, labels/) of four photos, two of them in split "test"."""
    folder = tmp_path_factory.mktemp("real")
    (folder / "images").mkdir()
    (folder / "labels").mkdir()
    for n, cards in enumerate(DECK_PHOTOS):
        cv2.imwrite(str(folder / "images" / f"photo{n}.jpg"), deck_photo(cards, STYLE, n))
        label = {"cards": [("JK" if c == "BJ" else c) for c in cards], "split": "test" if n % 2 else "train"}
        (folder / "labels" / f"photo{n}.json").write_text(json.dumps(label))
    return folder


def test_a_card_counts_once_and_jk_matches_either_joker() -> None:
    assert match_cards(["AS", "AS"], ["AS"]) == (1, 1, 0)
    assert match_cards(["SJ", "BJ"], ["JK", "JK"]) == (2, 0, 0)
    assert match_cards(["AC"], ["AS"]) == (0, 1, 1)


@needs_models
def test_eval_detector_real_scores_a_folder_of_labelled_photos(real_folder: Path) -> None:
    result = tuolaji("eval-detector", "--real", str(real_folder), "--json")
    assert result.returncode == 0, result.stderr
    metrics = json.loads(result.stdout)
    assert metrics["photos"] == 4 and metrics["cards"] == 16
    assert metrics["tp"] + metrics["fn"] == 16
    assert metrics["f1"] >= 0.7, metrics  # the project's own art, laid apart: the reader knows it
    assert set(metrics["recall_by_suit"]) == {"S", "H", "C", "D", "J"}
    spades, clubs = metrics["black_suits"]["S"], metrics["black_suits"]["C"]
    listed_black = sum(1 for cards in DECK_PHOTOS for c in cards if c[-1] in "SC" and c not in ("SJ", "BJ"))
    assert sum(spades.values()) + sum(clubs.values()) == listed_black
    assert round(spades["S"] / sum(spades.values()), 4) == metrics["recall_by_suit"]["S"]
    assert "black suits (listed: read as S / C / missed): S " in tuolaji("eval-detector", "--real", str(real_folder)).stdout
    only_test = json.loads(tuolaji("eval-detector", "--real", str(real_folder), "--real-split", "test", "--json").stdout)
    assert only_test["photos"] == 2 and only_test["cards"] == 8


def test_eval_detector_real_names_a_bad_label_in_one_line(tmp_path: Path, real_folder: Path) -> None:
    folder = tmp_path / "bad"
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    (folder / "labels" / "x.json").write_text('{"cards": ["ZZ"]}')
    (folder / "images" / "x.jpg").write_bytes((real_folder / "images" / "photo0.jpg").read_bytes())
    result = tuolaji("eval-detector", "--real", str(folder))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "x.json" in result.stderr and "ZZ" in result.stderr
    missing = tuolaji("eval-detector", "--real", str(tmp_path / "nowhere"))
    assert missing.returncode == 2 and "images/ and labels/" in missing.stderr


@needs_models
def test_real_crops_cuts_labelled_corner_crops_from_single_card_photos(tmp_path: Path) -> None:
    folder = tmp_path / "single"
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    style = CardStyle.random(np.random.default_rng(6), "train")
    for name in ("QS", "7H", "AD"):
        card = render_card(name, style, 448)
        photo = cv2.resize(card[:, :, :3], (224, 224), interpolation=cv2.INTER_AREA)  # filling the picture, as in cards-crops
        cv2.imwrite(str(folder / "images" / f"train_{name}.jpg"), photo)
        (folder / "labels" / f"train_{name}.json").write_text(json.dumps({"cards": [name], "split": "train"}))
    result = tuolaji("real-crops", str(folder), "--split", "train", "--out", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    assert "3 photos" in result.stdout
    from tuolaji.vision.detector import CARD_NAMES

    labels = Counter()
    files = sorted((tmp_path / "out" / "crops").glob("*.npz"))
    assert len(files) == 3
    for file in files:
        with np.load(file) as data:
            assert data["x"].shape[1:] == (40, 40, 3) and len(data["y"]) == len(data["angle"]) == len(data["side"])
            card = file.stem.split("_")[1]
            assert set(data["y"].tolist()) <= {CARD_NAMES.index(card), 54}  # its own card, or "not an index"
            assert (data["y"] != 54).sum() >= 2  # a corner, at two scales at least
            labels.update(data["y"].tolist())
    assert sum(v for k, v in labels.items() if k != 54) >= 12
    held = tuolaji("real-crops", str(folder), "--split", "train", "--out", str(tmp_path / "t"), "--val-out", str(tmp_path / "v"))
    assert held.returncode == 0, held.stderr
    assert len(list((tmp_path / "v" / "crops").glob("*.npz"))) == 1 and len(list((tmp_path / "t" / "crops").glob("*.npz"))) == 2
    assert [p.name for p in (tmp_path / "v" / "photos" / "images").iterdir()] == ["train_7H.jpg"]  # every tenth, from the first
    refused = tuolaji("real-crops", str(folder), "--split", "test", "--out", str(tmp_path / "no"))
    assert refused.returncode == 2 and "for measuring" in refused.stderr


def _manifest(folder: Path, photos: list[list[str]], seed: int = 10) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    entries = []
    for n, cards in enumerate(photos):
        name = f"enrol{n}.jpg"
        cv2.imwrite(str(folder / name), deck_photo(cards, STYLE, seed + n))
        entries.append({"image": name, "cards": cards})
    path = folder / "manifest.json"
    path.write_text(json.dumps(entries))
    return path


@needs_models
@pytest.mark.slow
def test_enrol_learns_nothing_from_a_card_the_manifest_leaves_out_apart_from_the_listed_ones(tmp_path: Path) -> None:
    """What enrolment learns as no index from a card read beyond the manifest's list (a big pip, a court's
    picture beside a listed card's corner) never reaches a card lying apart that the manifest left out (a
    card at a photo's edge): it teaches nothing either way."""
    infos = {}
    for name, photos in (("all", DECK_PHOTOS), ("one-left-out", [DECK_PHOTOS[0][:3], *DECK_PHOTOS[1:]])):
        manifest = _manifest(tmp_path / name, photos)
        for n, cards in enumerate(DECK_PHOTOS):  # the same photos: 4S lies in the first, listed or not
            cv2.imwrite(str(tmp_path / name / f"enrol{n}.jpg"), deck_photo(cards, STYLE, 10 + n))
        result = tuolaji("enrol", "home", str(manifest), "--data", str(tmp_path / name / "data"))
        assert result.returncode == 0, result.stderr
        infos[name] = json.loads((tmp_path / name / "data" / "decks" / "home" / "deck.json").read_text())
    assert infos["one-left-out"]["cards_matched"] == infos["all"]["cards_matched"] - 1
    assert infos["one-left-out"]["not_index_lessons"] == infos["all"]["not_index_lessons"]


@needs_models
@pytest.mark.slow
def test_enrol_learns_a_deck_and_detect_reads_with_it(tmp_path: Path) -> None:
    manifest = _manifest(tmp_path / "photos", DECK_PHOTOS)
    data = tmp_path / "data"
    result = tuolaji("enrol", "home", str(manifest), "--data", str(data))
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("\n") == 1
    assert "4 photos" in result.stdout and "16 of 16 cards matched" in result.stdout
    assert (data / "decks" / "home" / "head.npz").is_file()
    info = json.loads((data / "decks" / "home" / "deck.json").read_text())
    assert info["photos"] == 4 and info["cards_matched"] == 16
    photos = [str(tmp_path / "photos" / f"enrol{n}.jpg") for n in range(4)]
    read = tuolaji("detect", *photos, "--deck", "home", "--data", str(data), "--json")
    assert read.returncode == 0, read.stderr
    found = [sorted(c["card"] for c in entry["cards"]) for entry in json.loads(read.stdout)]
    right = sum(match_cards(cards, listed)[0] for cards, listed in zip(found, DECK_PHOTOS, strict=True))
    assert right >= 15, found  # the deck's own photos, read with the head learnt from them
    env = {**__import__("os").environ, "TUOLAJI_DATA": str(data)}
    from_env = tuolaji("detect", photos[0], "--deck", "home", "--json", env=env)
    assert from_env.returncode == 0, from_env.stderr
    # a deck enrolled with an earlier reader (its head not stamped with this classifier) is refused, not misread
    head = data / "decks" / "home" / "head.npz"
    with np.load(head) as saved:
        np.savez_compressed(head, weight=saved["weight"], bias=saved["bias"])
    stale = tuolaji("detect", photos[0], "--deck", "home", "--data", str(data))
    assert stale.returncode == 2 and stale.stderr.count("\n") == 1
    assert "'home'" in stale.stderr and "enrol it again" in stale.stderr


@needs_models
def test_enrol_refuses_bad_manifests_in_one_line(tmp_path: Path) -> None:
    data = str(tmp_path / "data")
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("[{")
    missing = tmp_path / "missing.json"
    missing.write_text(json.dumps([{"image": "nope.jpg", "cards": ["AS"]}]))
    unknown = _manifest(tmp_path / "u", [["AS"]])
    unknown.write_text(json.dumps([{"image": "enrol0.jpg", "cards": ["1X"]}]))
    too_many = _manifest(tmp_path / "t", [["AS", "2S"]])
    too_many.write_text(json.dumps([{"image": "enrol0.jpg", "cards": ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"]}]))
    for manifest, words in ((bad_json, "not a JSON manifest"), (missing, "nope.jpg not found"),
                            (unknown, "unknown card '1X'"), (too_many, "not found")):
        result = tuolaji("enrol", "deck", str(manifest), "--data", data)
        assert result.returncode == 2, (manifest, result.stdout)
        assert result.stderr.count("\n") == 1 and words in result.stderr, result.stderr
        assert str(manifest) in result.stderr
    assert not (tmp_path / "data" / "decks" / "deck").exists()
    bad_name = tuolaji("enrol", "../up", str(missing), "--data", data)
    assert bad_name.returncode == 2 and "deck name" in bad_name.stderr
    no_deck = tuolaji("detect", str(tmp_path / "u" / "enrol0.jpg"), "--deck", "ghost", "--data", data)
    assert no_deck.returncode == 2 and "not enrolled" in no_deck.stderr


@needs_models
def test_check_camera_measures_the_indices_and_says_what_to_change(tmp_path: Path) -> None:
    small = deck_photo(["AS", "KH", "7C", "10D"], STYLE, 3, size=(640, 480), card_height=34)
    cv2.imwrite(str(tmp_path / "far.jpg"), small)
    far = tuolaji("check-camera", str(tmp_path / "far.jpg"), "--json")
    assert far.returncode == 1, far.stderr
    report = json.loads(far.stdout)
    assert report["size"] == [640, 480] and report["verdict"] in ("too-small", "marginal", "unreadable")
    assert any("--camera-size" in line for line in report["advice"])
    near = deck_photo(["AS", "KH", "7C", "10D"], STYLE, 3, size=(1920, 1080), card_height=360)
    cv2.imwrite(str(tmp_path / "near.jpg"), near)
    good = tuolaji("check-camera", str(tmp_path / "near.jpg"))
    assert "picture 1920x1080" in good.stdout and "corner indices" in good.stdout, good.stdout + good.stderr
    assert good.returncode in (0, 1)
    nothing = tuolaji("check-camera", str(tmp_path / "none.jpg"))
    assert nothing.returncode == 2 and "none.jpg" in nothing.stderr


@needs_models
def test_check_camera_tells_cards_it_cannot_read_from_an_empty_table() -> None:
    """A frame of a drawn deck whose corner indices are too faint at 640×480: no corner is read, yet four
    plays lie on the cloth. The check says the cards are there and unreadable, and what to change; on the
    same table before the first card it says that no card lies there."""
    faint = tuolaji("check-camera", str(REPO / "tests" / "data" / "faint" / "cards.jpg"), "--json")
    assert faint.returncode == 1, faint.stderr
    report = json.loads(faint.stdout)
    assert report["cards"] == 0 and report["index_px"] is None
    assert report["verdict"] == "unreadable" and report["shapes"] >= 3
    assert len(report["advice"]) == 1 and "cards lie on the table" in report["advice"][0]
    assert "at 640x480" in report["advice"][0] and "--camera-size 1920x1080" in report["advice"][0]
    said = tuolaji("check-camera", str(REPO / "tests" / "data" / "faint" / "cards.jpg")).stdout
    assert "no corner index found on" in said and ": unreadable" in said
    empty = json.loads(tuolaji("check-camera", str(REPO / "tests" / "data" / "faint" / "empty.jpg"), "--json").stdout)
    assert empty["verdict"] == "no-cards" and empty["shapes"] == 0
    assert "lay a few cards face up" in empty["advice"][0]


class _ZoneReader:
    """Reads one card at the middle of whatever picture it is given, and remembers the sizes."""

    def __init__(self) -> None:
        self.sizes: list[tuple[int, int]] = []

    def read(self, image: np.ndarray) -> list[CardInstance]:
        h, w = image.shape[:2]
        self.sizes.append((w, h))
        box = (w / 2 - 10, h / 2 - 15, w / 2 + 10, h / 2 + 15)
        return [CardInstance("AS", box, 0.95, (IndexReading("AS", box, 0.95, 0.0),))]


def test_a_full_resolution_frame_is_read_zone_by_zone_at_full_resolution() -> None:
    from tuolaji.session.live import LiveGame
    from tuolaji.vision.pipeline import TablePipeline
    from tuolaji.vision.sources import Frame

    setup = {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": ["a", "b", "c", "d"],
             "start_levels": ["2"] * 4, "deals": [{"level": "2", "trump": "S", "dealer": 0, "tricks": []}]}
    reader = _ZoneReader()
    pipeline = TablePipeline(LiveGame(setup), reader=reader, calibration=[(0, 0), (1920, 0), (1920, 1080), (0, 1080)])
    frame = np.full((1080, 1920, 3), 90, np.uint8)
    pipeline.process(Frame(0, 0.0, frame))
    reader.sizes.clear()
    by_seat = pipeline._read(Frame(1, 0.1, frame))
    assert len(reader.sizes) == 4 and all(w < 1920 and h <= 1080 for w, h in reader.sizes)
    assert sorted(by_seat) == [0, 1, 2, 3]  # each zone's card, found in its own rectangle, mapped back to its seat
    small = TablePipeline(LiveGame(setup), reader=_ZoneReader(), calibration=[(0, 0), (640, 0), (640, 480), (0, 480)])
    small.process(Frame(0, 0.0, np.full((480, 640, 3), 90, np.uint8)))
    small.reader.sizes.clear()
    small._read(Frame(1, 0.1, np.full((480, 640, 3), 90, np.uint8)))
    assert small.reader.sizes == [(640, 480)]  # a small frame is read whole, as before


def _record(tricks: list[dict]) -> dict:
    return {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": ["a", "b", "c", "d"],
            "start_levels": ["2"] * 4, "deals": [{"level": "2", "trump": "H", "dealer": 0, "tricks": tricks}]}


def test_an_unsure_read_of_a_card_whose_copies_are_gone_takes_the_next_candidate() -> None:
    record = _record([{"leader": 0, "plays": [["AS"], ["AS"], ["3S"], ["4S"]]}, {"leader": 1, "plays": [["KS"]]}])
    facts = deal_facts(record)
    assert facts is not None and facts.gone["AS"] == 2
    assert weigh_read([("AS", 0.55), ("AC", 0.4)], facts, seat=2) == ("AC", 0.4)
    # a clear read of a card whose every copy is out is never written as sure: the next
    # candidate, at its own (low) probability, goes to a person
    assert weigh_read([("AS", 0.93), ("AC", 0.05)], facts, seat=2) == ("AC", 0.05)
    assert weigh_read([("AS", 0.99)], facts, seat=2) == ("AS", 0.0)  # nothing else possible: still doubted


def test_a_read_of_a_suit_its_seat_is_void_in_is_doubted_but_a_clear_one_stays() -> None:
    """Seat 2 followed a spade lead with a heart (trump): it holds no spade. A later unsure
    spade read at seat 2 gives way to another candidate; a clear one stays (a revoke is real)
    but with probability 0, so a person confirms it before it proves anything."""
    record = _record([{"leader": 0, "plays": [["AS"], ["KS"], ["5H"], ["4S"]]}, {"leader": 0, "plays": [["AD"]]}])
    facts = deal_facts(record)
    assert facts is not None and facts.void_in("9S", 2) and not facts.void_in("9S", 1) and not facts.void_in("9C", 2)
    assert weigh_read([("9S", 0.6), ("9C", 0.35)], facts, seat=2) == ("9C", 0.35)
    assert weigh_read([("9S", 0.6), ("9C", 0.35)], facts, seat=1) == ("9S", 0.6)
    assert weigh_read([("9S", 0.97), ("9C", 0.02)], facts, seat=2) == ("9S", 0.0)
    # a follow short of cards (a play still being laid) proves no void
    short = deal_facts(_record([{"leader": 0, "plays": [["AS", "AS"], ["KS", "KS"], ["5H"], ["4S", "4S"]]},
                                {"leader": 0, "plays": [["AD"]]}]))
    assert short is not None and not short.void_in("9S", 2)


def test_a_void_a_later_play_contradicts_weighs_no_more() -> None:
    """Seat 2 showed a spade void, then played a spade (a revoke the audit reports): its later
    spade reads are read as they are, not all doubted for the rest of the deal."""
    record = _record([{"leader": 0, "plays": [["AS"], ["KS"], ["5H"], ["4S"]]},
                      {"leader": 0, "plays": [["QS"], ["JS"], ["9S"], ["3S"]]},
                      {"leader": 0, "plays": [["AD"]]}])
    facts = deal_facts(record)
    assert facts is not None and not facts.void_in("8S", 2)
    assert weigh_read([("8S", 0.97), ("8C", 0.02)], facts, seat=2) == ("8S", 0.97)
    # a void shown after the contradicting play still counts
    later = deal_facts(_record([{"leader": 0, "plays": [["AS"], ["KS"], ["9S"], ["4S"]]},
                                {"leader": 0, "plays": [["QS"], ["JS"], ["5H"], ["3S"]]},
                                {"leader": 0, "plays": [["AD"]]}]))
    assert later is not None and later.void_in("8S", 2)


def test_an_impossible_clear_read_reaches_the_zone_as_unsure() -> None:
    """The demo's failure on a CPU that misread: a 4th 大王 in a 3-deck deal, read at 0.95. The
    zone's read keeps the possible 小王 at a confidence under any threshold, for a person."""
    from tuolaji.vision.calibration import SeatZones, TableCalibration
    from tuolaji.vision.zone_reading import reads_by_seat

    record = _record([{"leader": 0, "plays": [["BJ", "BJ"], ["2S", "3S"], ["4S", "5S"], ["6S", "7S"]]},
                      {"leader": 1, "plays": [["BJ"]]}])
    record["rules"] = "titanic-3deck"
    facts = deal_facts(record)
    assert facts is not None and facts.decks == 3

    class Read:
        card, confidence, box = "BJ", 0.95, (300.0, 390.0, 340.0, 450.0)

        def candidates(self) -> list[tuple[str, float]]:
            return [("BJ", 0.95), ("SJ", 0.04)]

    calibration = TableCalibration.full_frame((640, 480))
    zones = SeatZones(4)
    seat = zones.seat_at(*[float(x) for x in calibration.to_table([(320.0, 420.0)])[0]])
    by_seat, weighed = reads_by_seat([Read()], calibration, zones, facts)
    assert weighed == 1
    [(card, _u, _v, confidence, candidates)] = by_seat[seat]
    assert card == "SJ" and confidence < 0.1
    assert dict(candidates)["BJ"] == 0.0  # summed into the track, the impossible card weighs nothing


def test_the_last_tricks_own_cards_are_not_gone_for_their_seat() -> None:
    facts = deal_facts(_record([{"leader": 0, "plays": [["AS"], ["AS"], ["3S"], ["4S"]]}]))
    assert facts is not None
    assert weigh_read([("AS", 0.6), ("AC", 0.3)], facts, seat=0) == ("AS", 0.6)  # still lying in seat 0's zone
    assert weigh_read([("AS", 0.6), ("AC", 0.3)], facts, seat=2) == ("AC", 0.3)


def test_a_follower_most_likely_follows_the_led_suit_but_the_leader_does_not_count() -> None:
    facts = deal_facts(_record([{"leader": 1, "plays": [["9C"]]}]))
    assert facts is not None and facts.leader == 1
    assert weigh_read([("9S", 0.5), ("9C", 0.45)], facts, seat=2) == ("9C", 0.45)
    assert weigh_read([("9S", 0.5), ("9C", 0.45)], facts, seat=1) == ("9S", 0.5)
    trump = weigh_read([("5D", 0.5), ("2D", 0.4)], DealFacts(2, led_suit=facts.suit_of("AH"), leader=1, suit_of=facts.suit_of), 3)
    assert trump == ("2D", 0.4)  # the level card 2 is a trump: it follows a trump lead


def test_a_known_hand_bounds_its_seat() -> None:
    record = _record([])
    record["deals"][0]["hands"] = [["QS", "KD"], ["AS"], ["AC"], ["AD"]]
    facts = deal_facts(record)
    assert facts is not None
    assert weigh_read([("QC", 0.5), ("QS", 0.45)], facts, seat=0) == ("QS", 0.45)


def test_replay_and_check_camera_refuse_a_missing_deck_and_a_bad_camera_size(tmp_path: Path) -> None:
    video = REPO / "vision" / "demo" / "demo-3deck.mp4"
    setup = REPO / "vision" / "demo" / "demo-3deck.setup.json"
    ghost = tuolaji("replay", str(video), "--setup", str(setup), "--out", str(tmp_path / "r.json"),
                    "--deck", "ghost", "--data", str(tmp_path))
    assert ghost.returncode == 2 and "deck 'ghost'" in ghost.stderr and ghost.stderr.count("\n") == 1
    assert not (tmp_path / "r.json").exists()
    size = tuolaji("check-camera", "--camera", "0", "--camera-size", "huge")
    assert size.returncode == 2 and "--camera-size" in size.stderr


@needs_models
def test_hard_crops_cuts_what_the_reader_wrongly_reads_as_a_card(tmp_path: Path) -> None:
    """A generated scene whose meta lists no index (so every index read in it is stray) and a
    single-card photo with a second, small card in its middle (away from the photo's corners,
    read as another card): both give "not an index" crops; the held-out tenth is not searched."""
    style = CardStyle.random(np.random.default_rng(6), "train")
    scenes = tmp_path / "scenes"
    (scenes / "images").mkdir(parents=True)
    (scenes / "meta").mkdir()
    cv2.imwrite(str(scenes / "images" / "000000.jpg"), deck_photo(["AS", "KH"], style, seed=2))
    (scenes / "meta" / "000000.json").write_text(json.dumps({"image": "images/000000.jpg", "indices": []}))
    photos = tmp_path / "single"
    (photos / "images").mkdir(parents=True)
    (photos / "labels").mkdir()
    for n, (name, inner) in enumerate((("7H", "QS"), ("7H", "QS"), ("JK", "QS"))):
        big = render_card("7D" if name == "JK" else name, style, 448)[:, :, :3]
        picture = cv2.resize(big, (224, 224), interpolation=cv2.INTER_AREA).copy()
        paste_card(picture, render_card(inner, style, 110), (112, 112), 0.0)
        stem = f"p{n}_{name}"
        cv2.imwrite(str(photos / "images" / f"{stem}.jpg"), picture)
        (photos / "labels" / f"{stem}.json").write_text(json.dumps({"cards": [name], "split": "train"}))
    result = tuolaji("hard-crops", str(scenes), "--real", str(photos), "--out", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    counts = json.loads((tmp_path / "out" / "hard-crops.json").read_text())
    assert counts["scenes"] == 1 and counts["photos"] == 1  # p0 is the held-out tenth, p2 a joker
    assert counts["scene_strays"] >= 2 and counts["photo_strays"] >= 1
    assert f"{counts['crops']} crops" in result.stdout
    files = sorted(p.name for p in (tmp_path / "out" / "crops").glob("*.npz"))
    assert files == ["photo-p1_7H.npz", "scenes-000000.npz"]
    for file in (tmp_path / "out" / "crops").glob("*.npz"):
        with np.load(file) as data:
            assert data["x"].shape[1:] == (40, 40, 3) and set(data["y"].tolist()) == {54}
            assert np.isnan(data["angle"]).all() and (data["side"] == -1).all()
    refused = tuolaji("hard-crops", "--real", str(photos), "--split", "valid", "--out", str(tmp_path / "no"))
    assert refused.returncode == 2 and "for measuring" in refused.stderr
    nothing = tuolaji("hard-crops", "--out", str(tmp_path / "no"))
    assert nothing.returncode == 2 and nothing.stderr.count("\n") == 1
