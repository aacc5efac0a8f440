"""The whole-face reader: card outlines, the face warp, the face set, and the shipped face model."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tuolaji import cli
from tuolaji.vision.detector import CARD_NAMES, MODELS_DIR, REJECT, CardReader
from tuolaji.vision.face import FACE_PX, card_quads, order_quad, portrait, warp_face
from tuolaji.vision.tracking import MIN_CONFIDENCE


def _table_with_card(angle: float = 20.0) -> tuple[np.ndarray, np.ndarray]:
    """A dark cloth with one white 100×140 card turned by ``angle``; the card's corners."""
    image = np.full((360, 480, 3), (40, 90, 30), np.uint8)
    box = cv2.boxPoints(((240, 180), (100, 140), angle))
    cv2.fillConvexPoly(image, box.astype(np.int32), (245, 245, 245))
    return image, box


def test_card_quads_finds_a_card_on_cloth_with_its_short_edge_first() -> None:
    image, box = _table_with_card()
    quads = card_quads(image)
    assert len(quads) == 1
    quad = quads[0]
    assert np.allclose(np.sort(quad, axis=0), np.sort(box, axis=0), atol=4)
    assert np.linalg.norm(quad[1] - quad[0]) < np.linalg.norm(quad[2] - quad[1])  # short edge first


def test_card_quads_finds_a_small_card_of_a_table_seen_from_far() -> None:
    image = np.full((480, 640, 3), (40, 90, 30), np.uint8)
    box = cv2.boxPoints(((320, 240), (46, 64), 10.0))  # about 1% of the picture
    cv2.fillConvexPoly(image, box.astype(np.int32), (245, 245, 245))
    quads = card_quads(image)
    assert any(np.allclose(np.sort(q, axis=0), np.sort(box, axis=0), atol=4) for q in quads)
    assert all(np.abs(q.mean(axis=0) - (320, 240)).max() < 3 for q in quads)  # nothing but that card


def test_card_quads_ignores_shapes_that_are_not_cards() -> None:
    image = np.full((360, 480, 3), (40, 90, 30), np.uint8)
    cv2.rectangle(image, (100, 100), (300, 140), (245, 245, 245), -1)  # a long strip
    cv2.circle(image, (380, 250), 60, (245, 245, 245), -1)
    assert card_quads(image) == []


def test_warp_face_stands_the_card_upright_in_the_square() -> None:
    image, _ = _table_with_card(angle=90.0)
    cv2.circle(image, (240, 180), 10, (0, 0, 200), -1)  # a red pip in the middle
    face = warp_face(image, card_quads(image)[0])
    assert face.shape == (FACE_PX, FACE_PX, 3)
    assert face[FACE_PX // 2, FACE_PX // 2, 2] > 150 and face[FACE_PX // 2, FACE_PX // 2, 0] < 80
    assert face[5, 5].min() > 200  # the card's white, not the cloth


def test_order_quad_and_portrait() -> None:
    lying = np.array([[0, 0], [140, 0], [140, 100], [0, 100]], np.float32)
    ordered = order_quad(lying)
    assert np.linalg.norm(ordered[1] - ordered[0]) == pytest.approx(100)
    assert portrait(np.zeros((100, 200, 3), np.uint8)).shape == (200, 100, 3)
    assert portrait(np.zeros((200, 100, 3), np.uint8)).shape == (200, 100, 3)


@pytest.mark.slow
def test_face_set_writes_labelled_pictures(tmp_path: Path) -> None:
    from tuolaji.datasets.faces import write_face_set

    counts = write_face_set(tmp_path, None, seed=5, art_copies=1, styles=1, rejects=20)
    data = np.load(tmp_path / "faces-train.npz")
    assert data["x"].shape[1:] == (FACE_PX, FACE_PX, 3) and data["x"].dtype == np.uint8
    assert len(data["x"]) == len(data["y"]) == counts["train"]
    assert (data["y"] == REJECT).sum() == 20
    assert set(int(v) for v in data["y"]) - {REJECT} <= set(range(len(CARD_NAMES)))
    assert json.loads((tmp_path / "face-set.json").read_text())["seed"] == 5


def test_shipped_face_model_reads_a_card_filling_the_photo() -> None:
    """A photo that is one card (the project's held-out art, drawn big) reads as that card, and a
    table of several cards is not read as one face."""
    if not (MODELS_DIR / "face.onnx").exists():
        pytest.fail("models/face.onnx is missing")
    from tuolaji.datasets.cardart import CardStyle, render_card

    reader = CardReader.load(face_threshold=0.5)
    style = CardStyle.random(np.random.default_rng(4), "holdout")
    right = 0
    names = ("7H", "QS", "10D", "AC", "5S", "KH")
    for name in names:
        face = render_card(name, style, 224)[..., :3]
        photo = cv2.resize(np.ascontiguousarray(face), (224, 224))
        cards = [c.card for c in reader.read(photo)]
        right += cards == [name]
    assert right >= len(names) - 1


def test_detect_cli_reads_faces_with_the_face_setting(tmp_path: Path, capsys) -> None:
    from tuolaji.datasets.cardart import CardStyle, render_card

    style = CardStyle.random(np.random.default_rng(11), "holdout")
    photo = cv2.resize(np.ascontiguousarray(render_card("9C", style, 224)[..., :3]), (224, 224))
    path = tmp_path / "nine.png"
    cv2.imwrite(str(path), photo)
    assert cli.main(["detect", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [c["card"] for c in out[0]["cards"]] == ["9C"]


def _face_probs(card: str, p: float) -> np.ndarray:
    probs = np.full(REJECT + 1, (1 - p) / REJECT, np.float32)
    probs[CARD_NAMES.index(card)] = p
    return probs[None]


def test_merge_faces_makes_one_card_of_same_named_reads_spanning_one_outline() -> None:
    """Two reads of one name inside one card's outline read surely as that card are one card (a
    long JOKER column read from both ends); reads of two names, a face of another name, or an
    outline far bigger than the reads (a picture holding a pair) leave the cards as they are."""
    from tuolaji.vision.readings import CardInstance

    reader = CardReader.load(face_threshold=0.6)
    outline = np.array([[254, 62], [332, 62], [332, 158], [254, 158]], np.float32)
    left, right = CardInstance("BJ", (257, 65, 282, 155), 0.96), CardInstance("BJ", (301, 64, 329, 148), 0.73)
    other = CardInstance("2D", (90, 202, 180, 247), 0.99)
    merged = reader.merge_faces([left, right, other], [outline], _face_probs("BJ", 0.92))
    assert sorted((c.card, c.box) for c in merged) == [("2D", other.box), ("BJ", (257, 64, 329, 155))]
    assert len(reader.merge_faces([left, right], [outline], _face_probs("SJ", 0.92))) == 2
    assert len(reader.merge_faces([left, right], [outline], _face_probs("BJ", 0.3))) == 2
    assert len(reader.merge_faces([left, CardInstance("7H", right.box, 0.7)], [outline], _face_probs("BJ", 0.92))) == 2
    picture = np.array([[0, 0], [640, 0], [640, 480], [0, 480]], np.float32)
    assert len(reader.merge_faces([left, right], [picture], _face_probs("BJ", 0.92))) == 2


def test_merge_faces_keeps_the_two_cards_of_a_fanned_pair() -> None:
    """Two identical cards fanned (a pair) may show one outline that the face reader reads surely
    as that card: their top-left indices lie side by side, a fan's offset apart, and stay two
    cards. Two reads of one card's opposite corners, spanning the outline, still join."""
    from tuolaji.vision.readings import CardInstance, IndexReading

    reader = CardReader.load(face_threshold=0.6)
    outline = np.array([[100, 100], [190, 100], [190, 220], [100, 220]], np.float32)  # both cards' outline

    def card_at(x: float, y: float = 104, angle: float = 0.0) -> CardInstance:
        index = IndexReading("7H", (x, y, x + 10, y + 16), 0.9, angle)
        return CardInstance("7H", index.box, 0.9, (index,))

    below, bottom_right = card_at(104), card_at(176, 200, 180.0)
    above_top = card_at(126)  # the upper card of the fan shows both its corners
    above = CardInstance("7H", (126, 104, 186, 216), 0.9, above_top.indices + bottom_right.indices)
    assert len(reader.merge_faces([below, above], [outline], _face_probs("7H", 0.95))) == 2
    joined = reader.merge_faces([below, bottom_right], [outline], _face_probs("7H", 0.95))
    assert [(c.card, len(c.indices)) for c in joined] == [("7H", 2)]


def test_a_card_outline_with_nothing_read_in_it_is_kept_as_a_guess_at_the_table() -> None:
    """The table pipeline's reader (``TABLE``) keeps a card outline's best face read as a guess,
    under the pipeline's sure threshold, where no index could be read (a jester joker's tiny
    corners): a card played is not a play lost, even when the face cannot say which card it is
    (issue "One card, one read", item 4). The whole picture never gives a guess, nor does an
    outline more likely not a card's face (``face_guess_threshold``); ``tuolaji detect`` (no
    guesses) reports nothing."""
    from tuolaji.vision.detector import TABLE
    from tuolaji.vision.inference import GUESS_CONFIDENCE
    from tuolaji.vision.readings import CardInstance

    table = CardReader.load(**TABLE)
    assert table.settings.face_guess_threshold > 0
    outline = np.array([[186, 94], [276, 94], [276, 194], [186, 194]], np.float32)
    other = CardInstance("AD", (298, 336, 356, 428), 0.97)
    guessed = table.merge_faces([other], [outline], _face_probs("BJ", 0.61))
    assert [(c.card, c.box, c.confidence) for c in guessed if c.card == "BJ"] == [("BJ", (186, 94, 276, 194), GUESS_CONFIDENCE)]
    assert GUESS_CONFIDENCE < MIN_CONFIDENCE  # the pipeline's min_confidence: a person confirms it
    unnamed = table.merge_faces([other], [outline], _face_probs("BJ", 0.3))  # a card, which one unsure
    assert [(c.card, c.confidence) for c in unnamed if c is not other] == [("BJ", GUESS_CONFIDENCE)]
    not_a_face = np.full((1, REJECT + 1), 0.4 / REJECT, np.float32)
    not_a_face[0, REJECT] = 0.6
    assert table.merge_faces([other], [outline], not_a_face) == [other]
    picture = np.array([[0, 0], [640, 0], [640, 480], [0, 480]], np.float32)
    assert table.merge_faces([], [picture], _face_probs("7H", 0.61)) == []
    plain = CardReader.load()
    assert plain.settings.face_guess_threshold == 0
    assert plain.merge_faces([other], [outline], _face_probs("BJ", 0.61)) == [other]


def test_a_face_read_surely_adds_no_second_card_where_its_index_lies_on_the_outline_edge() -> None:
    """A 5♣ lying sideways: its corner index sits on the card's edge, where the outline found runs
    a pixel or two inside, so the index's centre falls just outside it. The face reads 5♣ surely:
    that is the same card, not a second 5♣; a face of another name there, or one far from any
    index, still adds its card."""
    from tuolaji.vision.readings import CardInstance

    reader = CardReader.load(face_threshold=0.6)
    outline = np.array([[452, 218], [534, 218], [534, 268], [452, 268]], np.float32)
    index = CardInstance("5C", (453, 266, 473, 276), 0.82)
    assert [c.card for c in reader.merge_faces([index], [outline], _face_probs("5C", 0.95))] == ["5C"]
    assert sorted(c.card for c in reader.merge_faces([index], [outline], _face_probs("6C", 0.95))) == ["5C", "6C"]
    far = np.array([[52, 18], [134, 18], [134, 68], [52, 68]], np.float32)
    assert sorted(c.card for c in reader.merge_faces([index], [far], _face_probs("5C", 0.95))) == ["5C", "5C"]


def test_a_face_read_sure_of_another_card_does_not_outweigh_corners_that_agree() -> None:
    """Four corners read 10♥ surely; the face reader, on a design it never saw, is all but certain
    of 4♥ (10♥ at 1e-7): the card stays 10♥. Where the corners are themselves the doubt (two read
    8♠ at 0.996, 9♠ at 7e-4) and the face is sure of 9♠, the face still names the card."""
    from tuolaji.vision.readings import CardInstance, IndexReading

    reader = CardReader.load(face_threshold=0.6)
    outline = np.array([[100, 100], [190, 100], [190, 220], [100, 220]], np.float32)

    def index(card: str, p: float, second: str, q: float, x: float, y: float) -> IndexReading:
        probs = np.full(REJECT, (1 - p - q) / (REJECT - 2), np.float32)
        probs[CARD_NAMES.index(card)], probs[CARD_NAMES.index(second)] = p, q
        return IndexReading(card, (x, y, x + 10, y + 16), p, 0.0, probs=probs)

    corners = tuple(index("10H", 0.95, "10D", 0.04, x, y) for x, y in ((104, 104), (176, 104), (104, 200), (176, 200)))
    ten = CardInstance("10H", (104, 104, 186, 216), 0.95, corners)
    face = np.full(REJECT + 1, 1e-7, np.float32)
    face[CARD_NAMES.index("4H")] = 1 - 54e-7
    assert [c.card for c in reader.merge_faces([ten], [outline], face[None])] == ["10H"]
    eights = tuple(index("8S", 0.8, "9S", 0.02, x, y) for x, y in ((104, 104), (176, 200)))
    eight = CardInstance("8S", (104, 104, 186, 216), 0.9, eights)
    assert [c.card for c in reader.merge_faces([eight], [outline], _face_probs("9S", 0.9999))] == ["9S"]


def test_an_outline_inside_a_card_is_not_read_as_a_second_face_of_it(capsys) -> None:
    """A real frame of a table video (tuning deal 305, a held-out design printing its suits beside its
    ranks): a 7♥ whose two corners read 7♥, and whose pips are small and faint. Its card outline and
    the frame printed around its pip field are both found; the face reader takes each for a 3♥. Read
    twice, the face weighed in twice and outweighed the corners: the 7♥ was recorded as 3♥. The
    printed frame is no face of its own."""
    frame = Path(__file__).parent.parent / "data" / "wide" / "seven-pips.jpg"
    assert cli.main(["detect", str(frame), "--careful", "--index-layout", "horizontal", "--json"]) == 0
    cards = {c["card"]: c for c in json.loads(capsys.readouterr().out)[0]["cards"]}
    assert sorted(cards) == ["3H", "7H", "9H", "QH"]
    assert cards["7H"]["box"][0] < 150  # the card lying on the left, and the 3♥ is the one on the right
    assert cards["3H"]["box"][0] > 400


def test_merge_faces_reads_a_card_once_from_its_outermost_outline() -> None:
    from tuolaji.vision.readings import CardInstance, IndexReading

    reader = CardReader.load(face_threshold=0.6)
    outline = np.array([[100, 100], [190, 100], [190, 220], [100, 220]], np.float32)
    frame_inside = np.array([[112, 116], [178, 116], [178, 204], [112, 204]], np.float32)
    probs = np.full(REJECT, 0.02 / (REJECT - 2), np.float32)
    probs[CARD_NAMES.index("7H")], probs[CARD_NAMES.index("3H")] = 0.97, 0.01
    corners = tuple(IndexReading("7H", (x, y, x + 10, y + 16), 0.97, 0.0, probs=probs) for x, y in ((104, 104), (176, 200)))
    seven = CardInstance("7H", (104, 104, 186, 216), 0.97, corners)

    def face(three: float, seven_share: float) -> np.ndarray:
        row = np.full(REJECT + 1, (1 - three - seven_share) / (REJECT - 1), np.float32)
        row[CARD_NAMES.index("3H")], row[CARD_NAMES.index("7H")] = three, seven_share
        return row

    faces = np.stack([face(0.94, 0.025), face(0.94, 0.001)])  # the card's outline, then its printed frame
    assert [c.card for c in reader.merge_faces([seven], [outline], faces[:1])] == ["7H"]
    assert [c.card for c in reader.merge_faces([seven], [outline, frame_inside], faces)] == ["7H"]
