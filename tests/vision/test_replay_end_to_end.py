"""End to end: render a deal -> `tuolaji replay` -> the recovered record equals the ground truth.

Each video is rendered once per session (a few tricks with small hands keep them short).
The card reader is the oracle fed by the renderer's ground truth, so these tests measure
the pipeline itself: calibration, motion, settling, turn order, failed throws, sweeps,
resume. (The bundled demo is replayed with the trained reader when models/ holds one.)
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from tuolaji import cli, scorer
from tuolaji.datasets.video import RenderOptions, VideoTruth, render_video, save_render
from tuolaji.session.events import PlaySettled, StateChanged
from tuolaji.session.live import LiveGame
from tuolaji.vision.oracle import OracleReader
from tuolaji.vision.pipeline import TablePipeline, open_source

ROOT = Path(__file__).resolve().parents[2]

TWO_DECK: dict[str, Any] = {
    "format": "tuolaji-record/1", "rules": "standard-2deck", "players": ["东", "南", "西", "北"],
    "deals": [{"level": "2", "trump": "H", "dealer": 0, "tricks": [
        {"leader": 0, "attempt": ["AS", "KS"], "plays": [["KS"], ["AS"], ["3S"], ["4S"]]},
        {"leader": 1, "plays": [["QD", "QD"], ["5D", "6D"], ["9D", "10D"], ["7D", "8D"]]},
        {"leader": 1, "plays": [["5C", "5C", "6C", "6C"], ["7C", "8C", "9C", "JC"], ["3C", "4C", "10C", "10C"],
                                ["QC", "KC", "AC", "AC"]]},
    ]}],
}

THREE_DECK: dict[str, Any] = {
    "format": "tuolaji-record/1", "rules": "titanic-3deck", "players": ["东", "南", "西", "北"],
    "deals": [{"level": "2", "trump": "H", "dealer": 0, "tricks": [
        {"leader": 0, "plays": [["8S", "8S", "8S"], ["9S", "JS", "QS"], ["KS", "KS", "KS"], ["3S", "4S", "5S"]]},
        {"leader": 2, "attempt": ["AC", "AC", "KC"], "plays": [["KC"], ["AC"], ["3C"], ["4C"]]},
        {"leader": 3, "plays": [["7D", "7D", "7D", "8D", "8D", "8D"], ["3D", "4D", "5D", "6D", "9D", "10D"],
                                ["JD", "JD", "QD", "QD", "KD", "AD"], ["AD", "KD", "QD", "JD", "10D", "9D"]]},
    ]}],
}

pytestmark = pytest.mark.slow  # end to end: the quick subset leaves it out


def inject_revoke(record: dict[str, Any]) -> tuple[dict[str, Any], int, int]:
    """Swap two of one seat's single cards between tricks so it revokes, keeping every winner.

    Returns the record and the (trick, seat) whose revoke the audit proves from later plays.
    """
    deal = record["deals"][0]
    players = len(record["players"])
    tricks = deal["tricks"]
    winners = [scorer.trick_winner(record, 0, i) for i in range(len(tricks))]
    for t, trick in enumerate(tricks):
        for position in range(1, players):
            seat = (trick["leader"] + position) % players
            for t2 in range(t + 1, len(tricks)):
                position2 = (seat - tricks[t2]["leader"]) % players
                if position2 == 0 or len(trick["plays"][position]) != 1 or len(tricks[t2]["plays"][position2]) != 1:
                    continue
                candidate = copy.deepcopy(record)
                a = candidate["deals"][0]["tricks"][t]["plays"][position]
                b = candidate["deals"][0]["tricks"][t2]["plays"][position2]
                a[0], b[0] = b[0], a[0]
                candidate["deals"][0].pop("hands", None)
                if [scorer.trick_winner(candidate, 0, i) for i in range(len(tricks))] != winners:
                    continue
                violations = scorer.audit_record(candidate)["deals"][0]["violations"]
                if any(v["trick"] == t and v["seat"] == seat and v["rule"] == "must-follow-suit" and v["proven"]
                       for v in violations):
                    return candidate, t, seat
    raise AssertionError("no revoke could be injected into this deal")


def fast(seed: int, **changes: Any) -> RenderOptions:
    """Brisk players and 12 fps keep the test videos short."""
    return RenderOptions(seed=seed, fps=12.0, arm_s=0.35, gap_s=(0.3, 0.6), throw_wait_s=1.3, sweep_wait_s=0.9,
                         **changes)


CASES: dict[str, tuple[dict[str, Any], RenderOptions]] = {
    # failed throw, pair, tractor; the tractor's leader rests a still hand over it; frames lost and black frames
    "two-deck-throw-tractor": (TWO_DECK, fast(5, linger=((2, 1),), dropouts=((11.0, 6, "skip"), (19.0, 3, "black")))),
    # triple, failed throw in three decks, triple tractor; card art the reader never trained on
    "three-deck-triples": (THREE_DECK, fast(6, style_split="holdout", linger=((0, 1),))),
    # hands pass over the table (and over cards already played) without playing
    "random-2deck": (scorer.random_record("standard-2deck", 7, hand_size=3), fast(7, gesture_rate=0.5)),
    "random-3deck": (scorer.random_record("titanic-3deck", 11, hand_size=3), fast(11)),
    "random-5-players": (scorer.random_record("friends-3deck", 3, players=5, hand_size=2), fast(3)),
}


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Path]]:
    folder = tmp_path_factory.mktemp("videos")
    out: dict[str, dict[str, Path]] = {}
    revoked = None
    for seed in range(1, 40):  # the first small deal where a revoke can be injected keeping every winner
        try:
            revoked, _, _ = inject_revoke(scorer.random_record("standard-2deck", seed, hand_size=3))
            break
        except AssertionError:
            continue
    assert revoked is not None
    cases = dict(CASES)
    cases["revoke"] = (revoked, fast(1))
    for name, (record, options) in cases.items():
        video = folder / f"{name}.mp4"
        truth = render_video(record, video, options)
        paths = save_render(truth, video)
        paths["video"] = video
        out[name] = paths
    return out


def replay(paths: dict[str, Path], out: Path, *extra: str) -> int:
    return cli.main(["replay", str(paths["video"]), "--setup", str(paths["setup"]), "--out", str(out),
                             "--oracle", str(paths["frames"]), "--quiet", *extra])


def tricks_of(path: Path) -> list[dict[str, Any]]:
    record = json.loads(path.read_text(encoding="utf-8"))
    return [{k: v for k, v in t.items() if k in ("leader", "plays", "attempt")} for t in record["deals"][0]["tricks"]]


@pytest.mark.parametrize("name", [*CASES, "revoke"])
def test_replay_recovers_the_record_trick_for_trick(rendered, tmp_path, capsys, name):
    paths = rendered[name]
    out = tmp_path / "got.json"
    assert replay(paths, out) == 0
    truth = json.loads(paths["truth"].read_text(encoding="utf-8"))
    assert tricks_of(out) == tricks_of(paths["truth"])
    got = json.loads(out.read_text(encoding="utf-8"))
    assert scorer.audit_record(got) == scorer.audit_record(truth)
    assert "unconfirmed" not in json.dumps(got)
    printed = capsys.readouterr().out
    assert f"{len(truth['deals'][0]['tricks'])} tricks" in printed
    if name == "revoke":  # the audit of what the camera saw proves the injected revoke
        violations = scorer.audit_record(got)["deals"][0]["violations"]
        assert any(v["rule"] == "must-follow-suit" and v["proven"] for v in violations)
        assert "must-follow-suit (proven)" in printed


def test_triples_tractors_failed_throws_and_idle_hands_are_in_the_test_videos(rendered):
    assert VideoTruth.load(rendered["random-2deck"]["frames"]).gesture_frames
    sizes = {len(play) for name in ("two-deck-throw-tractor", "three-deck-triples")
             for trick in tricks_of(rendered[name]["truth"]) for play in trick["plays"]}
    assert {1, 2, 3, 4, 6} <= sizes
    assert all(any("attempt" in t for t in tricks_of(rendered[n]["truth"]))
               for n in ("two-deck-throw-tractor", "three-deck-triples"))


def _run_pipeline(paths: dict[str, Path], game: LiveGame, stop: threading.Event | None = None) -> TablePipeline:
    pipeline = TablePipeline(game, reader=OracleReader(VideoTruth.load(paths["frames"])))
    with open_source(paths["video"]) as source:
        pipeline.run(source, stop=stop)
    return pipeline


def test_a_lingering_hand_and_a_dropout_never_produce_a_wrong_play_event(rendered):
    paths = rendered["two-deck-throw-tractor"]
    truth = VideoTruth.load(paths["frames"])
    assert truth.black_frames, "the video has black frames"
    lingering = [p for p in truth.plays if (p.trick, p.seat) == (2, 1)][0]
    hidden = [sum(1 for pid, _ in truth.frames[f] if truth.cards[pid]["trick"] == 2 and truth.cards[pid]["seat"] == 1)
              for f in range(lingering.laid_frame, lingering.clear_frame)]
    assert min(hidden) < len(lingering.cards), "the resting hand hides some of the cards it laid"
    game = LiveGame(json.loads(paths["setup"].read_text(encoding="utf-8")))
    events: list[Any] = []
    game.bus.subscribe(events.append)
    _run_pipeline(paths, game)
    settled = [(e.trick, e.seat, list(e.cards)) for e in events if isinstance(e, PlaySettled)]
    record = json.loads(paths["truth"].read_text(encoding="utf-8"))
    expected = []
    for t, trick in enumerate(record["deals"][0]["tricks"]):
        for position, play in enumerate(trick["plays"]):
            cards = trick.get("attempt", play) if position == 0 else play
            expected.append((t, (trick["leader"] + position) % 4, cards))
    assert settled == expected
    assert [e.reason for e in events if isinstance(e, StateChanged)] == ["failed-throw"]


def test_an_interrupted_replay_resumes_from_its_record_with_nothing_lost(rendered, tmp_path, capsys):
    paths = rendered["three-deck-triples"]
    out = tmp_path / "partial.json"
    setup = json.loads(paths["setup"].read_text(encoding="utf-8"))
    game = LiveGame(setup, path=out)
    stop = threading.Event()

    def crash_after_six(event: Any) -> None:
        if isinstance(event, PlaySettled) and event.trick == 1 and event.seat == 3:
            stop.set()  # the process dies right after the 6th play was written

    game.bus.subscribe(crash_after_six)
    _run_pipeline(paths, game, stop=stop)
    partial = json.loads(out.read_text(encoding="utf-8"))
    assert sum(len(t["plays"]) for t in partial["deals"][0]["tricks"]) == 6
    assert replay(paths, out) == 0
    assert "resumed" in capsys.readouterr().out
    assert tricks_of(out) == tricks_of(paths["truth"])


def test_bundled_demo_replays_to_its_truth(tmp_path):
    """The pipeline alone: the demo read by the oracle comes back trick for trick."""
    from tuolaji.vision.demo import DEMO_FRAMES, DEMO_SETUP, DEMO_TRUTH, DEMO_VIDEO

    out = tmp_path / "demo.json"
    args = ["replay", str(DEMO_VIDEO), "--setup", str(DEMO_SETUP), "--out", str(out), "--quiet",
            "--oracle", str(DEMO_FRAMES)]
    assert cli.main(args) == 0
    assert tricks_of(out) == tricks_of(DEMO_TRUTH)


def _shipped_reader_not_ready() -> bool:
    from tuolaji.vision.demo import shipped_reader_is_ready

    return not shipped_reader_is_ready()


@pytest.mark.skipif(not all((ROOT / "models" / name).exists() for name in ("detector.onnx", "classifier.onnx")),
                    reason="no shipped card model")
@pytest.mark.xfail(condition=_shipped_reader_not_ready(), strict=True,
                   reason="issue 4: models/cards.json does not record that the shipped reader replays the demo "
                          "exactly; record it with `tuolaji demo --record-check` once it does")
def test_bundled_demo_replays_to_its_truth_with_the_shipped_reader(tmp_path):
    """Camera to record for real: the demo read by the shipped card model comes back exactly."""
    from tuolaji.vision.demo import DEMO_SETUP, DEMO_TRUTH, DEMO_VIDEO

    out = tmp_path / "demo.json"
    args = ["replay", str(DEMO_VIDEO), "--setup", str(DEMO_SETUP), "--out", str(out), "--quiet"]
    assert cli.main(args) == 0
    assert tricks_of(out) == tricks_of(DEMO_TRUTH)


# --- bad input: one line, exit status 2 -------------------------------------------------------


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tuolaji", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


def test_missing_video_is_one_line_and_exit_2(tmp_path):
    setup = tmp_path / "setup.json"
    setup.write_text(json.dumps(TWO_DECK | {"deals": [{"level": "2", "trump": "H", "dealer": 0}]}))
    result = _cli("replay", str(tmp_path / "nope.mp4"), "--setup", str(setup), "--out", str(tmp_path / "o.json"))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "nope.mp4" in result.stderr
    assert not (tmp_path / "o.json").exists()


def test_corrupt_video_is_one_line_and_exit_2(tmp_path):
    video = tmp_path / "broken.mp4"
    video.write_bytes(b"\x00\x00\x00\x18ftypmp42" + bytes(range(256)) * 40)
    setup = tmp_path / "setup.json"
    setup.write_text(json.dumps(TWO_DECK | {"deals": [{"level": "2", "trump": "H", "dealer": 0}]}))
    result = _cli("replay", str(video), "--setup", str(setup), "--out", str(tmp_path / "o.json"))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "broken.mp4" in result.stderr and "not a readable video" in result.stderr


@pytest.mark.parametrize("content, message", [
    ('{"hello": 1}', "not a game record"),
    ("[1, 2", "not valid JSON"),
    (json.dumps(TWO_DECK | {"deals": [TWO_DECK["deals"][0] | {"tricks": TWO_DECK["deals"][0]["tricks"][:1] + [
        {"leader": 1, "plays": [["QD", "QD"]]}]}]}), "the deal so far ends in the middle of a trick"),
    (json.dumps({"format": "tuolaji-record/1", "rules": "standard-2deck", "players": ["a", "b", "c", "d"],
                 "deals": [{"level": "2", "trump": "X", "dealer": 0}]}), "setup.json: "),
])
def test_setup_that_is_not_a_setup_is_one_line_and_exit_2(rendered, tmp_path, content, message):
    setup = tmp_path / "setup.json"
    setup.write_text(content)
    paths = rendered["random-2deck"]
    result = _cli("replay", str(paths["video"]), "--setup", str(setup), "--out", str(tmp_path / "o.json"),
                  "--oracle", str(paths["frames"]))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and message in result.stderr


@pytest.mark.parametrize("seed", [0, 1])
def test_an_imperfect_reader_is_outvoted_by_more_reads(seed):
    """A reader that misses 5% of the cards and misnames 2.5% (at random, per read) still gets every trick."""
    from tuolaji.vision.demo import DEMO_FRAMES, DEMO_VIDEO

    truth = VideoTruth.load(DEMO_FRAMES)
    game = LiveGame(truth.setup)
    pipeline = TablePipeline(game, reader=OracleReader(truth, miss_rate=0.05, confusion_rate=0.025, seed=seed))
    with open_source(DEMO_VIDEO) as source:
        pipeline.run(source)
    got = [{k: v for k, v in t.items() if k in ("leader", "plays", "attempt")}
           for t in game.snapshot()["deals"][0]["tricks"]]
    assert got == truth.record["deals"][0]["tricks"]
