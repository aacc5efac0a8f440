"""A deck that prints its suits beside its ranks is read by a reader of its own (issue 41: held-out
horizontal designs): ``models/horizontal/``, networks trained on such indices, chosen when the user
says so (``--index-layout horizontal``) or the deck's enrolment found it; the shipped networks read
every other deck as before."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from tuolaji import cli
from tuolaji.vision.decks import DeckHead, classifier_fingerprint
from tuolaji.vision.inference import LAYOUT_READERS, CardReader, layout_reader_folder

MODELS = Path(__file__).resolve().parents[2] / "models"


@pytest.fixture(scope="module")
def models_with_a_layout_reader(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped models with a reader of their own for horizontal decks: the same detector, the
    small-index specialist standing in for a classifier trained on such indices (another file: another
    fingerprint), and settings that say it reads them as they lie."""
    root = tmp_path_factory.mktemp("models")
    for path in MODELS.iterdir():
        if path.is_file():
            (root / path.name).symlink_to(path)
    own = root / LAYOUT_READERS["horizontal"]
    own.mkdir()
    (own / "detector.onnx").symlink_to(MODELS / "detector.onnx")
    shutil.copyfile(MODELS / "classifier_small.onnx", own / "classifier.onnx")
    meta = json.loads((MODELS / "cards.json").read_text())
    meta["reader"] |= {"learnt_layouts": "vertical,horizontal", "small_reader_px": 0.0, "face_threshold": 0.0}
    (own / "cards.json").write_text(json.dumps(meta))
    return root


def _deck(classifier: Path, layout: str) -> DeckHead:
    with np.load(MODELS / "classifier_head.npz") as head:
        return DeckHead("home", head["weight"], head["bias"], classifier_fingerprint(classifier), layout)


def test_a_horizontal_deck_is_read_by_the_layout_reader_and_every_other_deck_as_before(models_with_a_layout_reader: Path) -> None:
    root = models_with_a_layout_reader
    told = CardReader.load(root, threads=1, index_layout="horizontal")
    assert told.folder == root / "horizontal"
    assert told.settings.index_layout == "horizontal" and "horizontal" in told.settings.learnt_layouts.split(",")
    assert told.settings.small_reader_px == 0.0  # its own settings, not the shipped reader's
    assert CardReader.load(root, threads=1).folder == root
    assert CardReader.load(root, threads=1, index_layout="vertical").folder == root


def test_a_reader_that_learnt_the_layout_reads_its_indices_as_they_lie(models_with_a_layout_reader: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    root = models_with_a_layout_reader
    told = CardReader.load(root, threads=1, index_layout="horizontal")
    without_own = CardReader.load(MODELS, threads=1, index_layout="horizontal") if not (MODELS / "horizontal").exists() \
        else CardReader.load(MODELS, threads=1, index_layout="horizontal", learnt_layouts="vertical")
    rearranged: list[int] = []
    for reader in (told, without_own):
        monkeypatch.setattr(reader, "_reread_restacked", lambda *args, **kwargs: rearranged.append(len(args[1])))
    image = np.full((240, 320, 3), 60, np.uint8)
    boxes = np.array([[100, 100, 120, 130], [200, 80, 222, 110]], np.float32)
    told.classify(image, boxes)
    assert rearranged == []
    without_own.classify(image, boxes)  # the shipped networks read a horizontal deck's every index rearranged
    assert rearranged == [2]


def test_a_deck_enrolled_with_the_shipped_networks_keeps_reading_with_them(models_with_a_layout_reader: Path) -> None:
    root = models_with_a_layout_reader
    enrolled_before = _deck(root / "classifier.onnx", "horizontal")
    assert layout_reader_folder(root, "horizontal", enrolled_before) is None
    assert CardReader.load(root, threads=1, deck=enrolled_before).folder == root
    enrolled_with_it = _deck(root / "horizontal" / "classifier.onnx", "horizontal")
    assert layout_reader_folder(root, "horizontal", enrolled_with_it) == root / "horizontal"


def test_the_index_layout_option_chooses_the_reader_and_refuses_a_layout_it_does_not_know(
        models_with_a_layout_reader: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import cv2

    picture = tmp_path / "table.png"
    cv2.imwrite(str(picture), np.full((240, 320, 3), 60, np.uint8))
    assert cli.main(["detect", str(picture), "--models", str(models_with_a_layout_reader), "--index-layout", "horizontal",
                     "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == [{"image": str(picture), "cards": []}]  # the cloth alone: no card
    with pytest.raises(SystemExit) as refused:
        cli.main(["detect", str(picture), "--index-layout", "diagonal"])
    assert refused.value.code == 2
    assert "--index-layout: invalid choice: 'diagonal'" in capsys.readouterr().err


def _cards_read_right(output: str, scenes: list) -> tuple[int, int, int]:
    """Cards read right and cards read that are not there, over ``scenes``, from ``detect --json``'s
    output, and the cards the scenes show."""
    from collections import Counter

    right = extra = shown = 0
    for result, scene in zip(json.loads(output), scenes, strict=True):
        truth = Counter(card.card for card in scene.cards if card.readable)
        got = Counter(card["card"] for card in result["cards"])
        right, extra, shown = right + sum((got & truth).values()), extra + sum((got - truth).values()), shown + sum(truth.values())
    return right, extra, shown


def test_told_the_deck_prints_its_suits_beside_its_ranks_detect_reads_such_a_deck(tmp_path: Path,
                                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Held-out drawn designs printing the suit beside the rank (10♥ on one line), read by `detect` as a
    user reads a photo: told so, the shipped layout reader names most of their cards; not told, the
    ordinary reader names almost none (it reads such an index as one lying on its side)."""
    import cv2

    from tuolaji.datasets.scenes import generate_scene

    assert (MODELS / "horizontal" / "cards.json").is_file()  # shipped: models/README, "A reader for horizontal decks"
    scenes = [generate_scene(4107, k, 640, 480, split="holdout", horizontal=1.0) for k in (0, 1, 2, 5)]
    paths = []
    for k, scene in enumerate(scenes):
        paths.append(str(tmp_path / f"scene{k}.png"))
        cv2.imwrite(paths[-1], scene.image)
    assert cli.main(["detect", *paths, "--careful", "--index-layout", "horizontal", "--json"]) == 0
    told_right, told_extra, shown = _cards_read_right(capsys.readouterr().out, scenes)
    assert cli.main(["detect", *paths, "--careful", "--json"]) == 0
    untold_right, _untold_extra, _ = _cards_read_right(capsys.readouterr().out, scenes)
    assert told_right >= 0.55 * shown and told_right >= untold_right + 0.4 * shown, (told_right, untold_right, shown)
    assert told_extra <= 0.2 * shown, (told_extra, shown)


@pytest.mark.slow  # a two-trick video rendered and replayed twice with the trained reader: about 30 s
def test_a_table_video_of_a_horizontal_deck_is_recorded_when_the_replay_is_told(tmp_path: Path) -> None:
    """`tuolaji replay --index-layout horizontal` on a video of a held-out design printing its suits
    beside its ranks records its tricks as they were played; not told, it records fewer of them."""
    from tuolaji import scorer
    from tuolaji.datasets.video import RenderOptions, render_video, save_render

    record = scorer.random_record("titanic-3deck", 4401, players=4, tricks=3)
    video = tmp_path / "horizontal.mp4"
    paths = save_render(render_video(record, video, RenderOptions(seed=4401, style_split="holdout",
                                                                    index_layout="horizontal")), video)
    want = record["deals"][0]["tricks"][:3]

    def exact(*extra: str) -> int:
        out = tmp_path / f"record{len(extra)}.json"
        assert cli.main(["replay", str(video), "--setup", str(paths["setup"]), "--out", str(out), "--quiet", *extra]) == 0
        got = json.loads(out.read_text(encoding="utf-8"))["deals"][0]["tricks"]
        return sum(g.get("leader") == w["leader"] and g.get("plays") == w["plays"] for g, w in zip(got, want, strict=False))

    told, untold = exact("--index-layout", "horizontal"), exact()
    assert told >= 2 and told > untold, (told, untold)


@pytest.mark.slow  # a drawn deck enrolled from four photos: about 5 s
def test_a_horizontal_deck_is_enrolled_on_the_layout_reader_and_read_with_it(tmp_path: Path) -> None:
    """`tuolaji enrol` on four photos of a held-out drawn deck printing its suits beside its ranks keeps it
    as horizontal (each learnt deck reads the four back alike: the layout reader, which named more of
    them before learning, decides), learnt on ``models/horizontal/``'s classifier, and `--deck` then
    reads with that reader."""
    import os

    from tuolaji.datasets.deck_photos import ProceduralDeck, draw_deck_photos
    from tuolaji.vision.decks import load_deck

    photos = draw_deck_photos(ProceduralDeck.drawn(11, index_layout="horizontal"), 4, tmp_path / "photos")
    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps([{"image": os.path.relpath(image, tmp_path),
                                     "cards": json.loads((photos / "labels" / (image.stem + ".json")).read_text())["cards"]}
                                    for image in sorted((photos / "images").iterdir())]))
    data = tmp_path / "data"
    assert cli.main(["enrol", "sideways", str(manifest), "--data", str(data)]) == 0
    deck = load_deck(data, "sideways")
    assert deck.index_layout == "horizontal"
    assert deck.classifier == classifier_fingerprint(MODELS / "horizontal" / "classifier.onnx")
    assert CardReader.load(threads=1, deck=deck).folder == MODELS / "horizontal"


def test_a_lone_card_of_a_horizontal_deck_is_one_card_though_its_indices_are_wide() -> None:
    """"10♦" printed on one line is half as large again as "10" over "♦": on a card lying alone (its
    outline 57 px across as found), two such corners 28 px large are one card when the deck is known
    to print its suits beside its ranks, and stay as read (two 10♦, a pair) for an ordinary deck,
    whose corners are never that large for their card."""
    from tuolaji.vision.outlines import join_on_outlines
    from tuolaji.vision.readings import CardInstance, IndexReading

    quad = np.array([[514, 226], [516, 282], [436, 282], [436, 224]], np.float32)  # a card lying sideways
    left = IndexReading("10D", (435.3, 248.0, 455.8, 284.7), 0.9, 271.0)
    right = IndexReading("10D", (496.7, 225.2, 518.9, 263.7), 0.88, 91.0)
    cards = [CardInstance("10D", left.box, 0.9, (left,)), CardInstance("10D", right.box, 0.88, (right,))]
    assert [len(c.indices) for c in join_on_outlines(cards, [quad], wide=True)] == [2]
    assert [len(c.indices) for c in join_on_outlines(cards, [quad])] == [1, 1]


def test_a_pair_of_a_four_corner_horizontal_deck_is_two_cards_not_three() -> None:
    """Two 2♣ of a held-out tuning design printing "2♣" in all four corners, the lower one fanned out to
    the right showing its right-hand corners. Its wide indices sit further in from the card's sides, so
    the top card's corners are less than 0.55 of its height apart and its diagonal steeper than an
    ordinary card's: told the deck prints its suits beside its ranks, the reader makes the top card of
    its four corners and the pair is two cards; an ordinary deck's rules make three."""
    from tuolaji.vision.grouping import group_indices
    from tuolaji.vision.readings import IndexReading

    readings = [IndexReading("2C", (286, 63, 306, 79), 0.93, 358, 0.0), IndexReading("2C", (319, 61, 342, 78), 0.87, 1, 0.99),
                IndexReading("2C", (292, 133, 314, 151), 0.88, 178, 0.98), IndexReading("2C", (329, 130, 350, 149), 0.86, 169, 0.0),
                IndexReading("2C", (351, 134, 372, 151), 0.89, 176, 0.0), IndexReading("2C", (344, 62, 362, 79), 0.84, 358, 0.98)]
    assert sorted(len(card.indices) for card in group_indices(readings, wide=True)) == [2, 4]
    assert sorted(len(card.indices) for card in group_indices(readings)) == [2, 2, 2]


@pytest.mark.parametrize(("seed", "angle", "card"), [(9, 0.0, "9H"), (4, 0.0, "QS"), (7, 90.0, "9H"), (9, 180.0, "QS")])
def test_a_fanned_pair_of_a_horizontal_deck_is_two_cards_though_the_detector_boxes_its_indices_as_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, seed: int, angle: float, card: str) -> None:
    """Two identical cards of a deck printing "9♥" on one line, the top one fanned a third of a card
    to the side (as docs/TABLE.md asks): their two wide indices lie side by side and the detector
    boxes them as one long box. `detect --index-layout horizontal` reads that box again as two
    indices and finds the pair; without that, the pair is one card."""
    import cv2

    from tuolaji.datasets.cardart import CardStyle, render_card
    from tuolaji.datasets.deck_photos import paste_card
    from tuolaji.vision import inference

    style = CardStyle.random(np.random.default_rng(seed), "train").with_index_layout("horizontal")
    canvas = np.empty((480, 640, 3), np.uint8)
    canvas[:] = (100, 80, 60)
    face = render_card(card, style, 120)
    step = face.shape[1] / 3
    for k in range(2):
        paste_card(canvas, face, (320 + k * step * np.cos(np.radians(angle)), 240 - k * step * np.sin(np.radians(angle))), angle)
    photo = tmp_path / "pair.png"
    cv2.imwrite(str(photo), canvas)

    def read() -> list[str]:
        assert cli.main(["detect", str(photo), "--careful", "--index-layout", "horizontal", "--json"]) == 0
        return sorted(c["card"] for c in json.loads(capsys.readouterr().out)[0]["cards"])

    assert read() == [card, card]
    monkeypatch.setattr(inference, "WIDE_TWO_INDICES", float("inf"))
    assert read() == [card]


def test_two_left_hand_corners_close_together_at_one_end_of_an_outline_are_two_fanned_cards() -> None:
    """An outline found on a fan of a horizontal deck (a stretch between its cards' edges) holds the
    wide indices of two fanned identical cards at the two ends of its short edge, both read as
    left-hand corners and a third of its length apart: no card's two top corners lie so, so the
    outline joins nothing. One card's top corners (a left-hand and a right-hand one) at the same
    spot are still one card: a side read alone parts nothing, nor does closeness alone."""
    from tuolaji.vision.outlines import cards_on_outline
    from tuolaji.vision.readings import CardInstance, IndexReading

    quad = np.array([[390, 192], [372, 290], [270, 276], [274, 216]], np.float32)  # found on a fan of two Q♠
    top = IndexReading("QS", (370, 173, 394, 204), 0.89, 98.0, 0.0)
    lower = IndexReading("QS", (251, 246, 276, 278), 0.84, 275.0, 0.0)
    upper = IndexReading("QS", (255, 217, 277, 258), 0.71, 276.0, 0.04)
    cards = [CardInstance("QS", (top.box[0], top.box[1], lower.box[2], lower.box[3]), 0.9, (top, lower)),
             CardInstance("QS", upper.box, 0.71, (upper,))]
    assert cards_on_outline(cards, quad, wide=True) is None
    right_hand = IndexReading("QS", upper.box, 0.71, 276.0, 0.97)
    assert cards_on_outline([cards[0], CardInstance("QS", upper.box, 0.71, (right_hand,))], quad, wide=True) == [0, 1]


def test_check_camera_says_when_the_cards_print_their_suits_beside_their_ranks(tmp_path: Path,
                                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """`tuolaji check-camera` on a frame of a held-out drawn deck printing its suits beside its ranks
    reads it with both readers and advises `--index-layout horizontal`; on a frame of an ordinary deck it
    does not."""
    import cv2

    from tuolaji.datasets.scenes import generate_scene

    said = {}
    for name, share in (("beside", 1.0), ("ordinary", 0.0)):
        frame = tmp_path / f"{name}.png"
        cv2.imwrite(str(frame), generate_scene(5300, 0, 640, 480, split="holdout", horizontal=share).image)
        cli.main(["check-camera", str(frame), "--json"])
        said[name] = json.loads(capsys.readouterr().out)
    assert said["beside"]["suits_beside"] is True
    assert any("--index-layout horizontal" in line for line in said["beside"]["advice"])
    assert said["beside"]["verdict"] != "no-cards" and said["beside"]["cards"] >= 3  # as the advised reader reads
    assert not any("no card corner" in line for line in said["beside"]["advice"])
    assert said["ordinary"]["suits_beside"] is False
    assert not any("--index-layout" in line for line in said["ordinary"]["advice"])


def test_a_wide_ten_boxed_in_two_parts_is_read_as_one_index(monkeypatch: pytest.MonkeyPatch) -> None:
    """A frame of a table video (a held-out horizontal design): in one seat's zone a 10♠ lies under
    a 7♠, only its "10♠" showing, three glyphs long, which the detector boxes as two unsure parts.
    The table's reader, told the layout, reads the box around both parts again and finds the 10♠
    beside the 7♠; without that, the seat's two cards read as one."""
    import cv2

    from tuolaji.vision.detector import TABLE

    frame = cv2.imread(str(Path(__file__).parent.parent / "data" / "wide" / "ten-under-seven.jpg"))
    reader = CardReader.load(**TABLE, index_layout="horizontal")

    def in_the_zone() -> list[str]:
        return sorted(c.card for c in reader.read(frame) if 418 <= (c.box[0] + c.box[2]) / 2 <= 531
                      and 184 <= (c.box[1] + c.box[3]) / 2 <= 294)

    assert in_the_zone() == ["10S", "7S"]
    monkeypatch.setattr(CardReader, "join_split_index", lambda self, frame, *outputs: outputs)
    assert in_the_zone() == ["7S"]
