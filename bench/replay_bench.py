"""Headless replay speed, and the delay from the frame where a play settles to its event.

Usage::

    python bench/replay_bench.py                 # the bundled demo (640x480, 3 decks, its 7 filmed tricks)
    python bench/replay_bench.py --exact 12      # also: trick-exact rate over 12 freshly rendered deals
    python bench/replay_bench.py --exact 10 --real-art holdout   # ... drawn with real deck designs held out of training
    python bench/replay_bench.py --realtime      # pace the video at its frame rate and time events live
    python bench/replay_bench.py --exact 6 --real-art holdout --tricks 6 --profile titanic-3deck
                                                 # full 3-deck hands, their first 6 tricks: pairs, triples, tractors

The card reader is the trained model when ``models/`` holds one; otherwise the oracle
reader of the rendered ground truth, burning ``--reader-cost-ms`` (default 30) of CPU per
read as a stand-in for the model. The pipeline runs the reader only when a zone has been
still for the settle window (plus one confirmation read), never on every frame.

``play_to_page_ms``: for each settled play, from the moment its *settle frame* (the first
frame at which the cards have lain still, with no hand over them, for ``settle_s``)
would arrive from a live camera, to the moment the pipeline publishes the play. Headless,
this is computed by replaying the measured per-frame costs on a camera's clock (a frame
is processed when it has arrived and the previous one is done); ``--realtime`` measures it
on the wall clock instead.

Last line, exactly: ``replay_fps=X play_to_page_ms_p50=Y`` (targets X >= 20, Y <= 500).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tuolaji.datasets.video import RenderOptions, VideoTruth, render_video, save_render  # noqa: E402
from tuolaji.session.events import PlaySettled  # noqa: E402
from tuolaji.session.live import LiveGame  # noqa: E402
from tuolaji.vision.oracle import OracleReader  # noqa: E402
from tuolaji.vision.pipeline import TablePipeline, open_source  # noqa: E402


def make_reader(truth: VideoTruth, cost_ms: float, force_oracle: bool, noise: float = 0.0,
                models: Path | None = None, index_layout: str | None = None) -> tuple[Any, str]:
    models = models or ROOT / "models"
    if not force_oracle and (models / "detector.onnx").exists() and (models / "classifier.onnx").exists():
        from tuolaji.vision.detector import TABLE, CardReader

        told = {"index_layout": index_layout} if index_layout else {}
        reader = CardReader.load(models, **TABLE, **told)
        return reader, (f"trained CardReader of {reader.folder} (table settings: each index read four ways"
                        + (f"; told the deck's indices are {index_layout})" if index_layout else ")"))
    reader = OracleReader(truth, cost_ms=cost_ms, miss_rate=noise, confusion_rate=noise / 2)
    name = f"oracle reader costing {cost_ms:g} ms a read"
    return reader, name + (f", missing {noise:.0%} and misreading {noise / 2:.0%} of cards" if noise else "")


def expected_events(truth: VideoTruth) -> list[Any]:
    """The truth plays that each produce one PlaySettled, in order (a taken-back throw settles as its attempt)."""
    out = []
    for play in truth.plays:
        if play.kind == "take-back":
            continue
        if play.kind == "play" and out and out[-1].kind == "attempt" and out[-1].trick == play.trick:
            continue
        out.append(play)
    return out


def replay_once(video: Path, truth: VideoTruth, reader: Any, settle_s: float, realtime: bool,
                min_confidence: float | None = None) -> dict[str, Any]:
    game = LiveGame(truth.setup)
    events: list[tuple[PlaySettled, float]] = []
    game.bus.subscribe(lambda e: events.append((e, time.perf_counter())) if isinstance(e, PlaySettled) else None)
    options = {} if min_confidence is None else {"min_confidence": min_confidence}
    pipeline = TablePipeline(game, reader=reader, settle_s=settle_s, **options)
    done_at: dict[int, float] = {}
    warned: list[int] = []  # the frames during which the pipeline warned that it reads no corner of the cards it sees

    def progress(index: int, count: int | None) -> None:
        done_at[index] = time.perf_counter()
        if pipeline.reader_warning is not None:
            warned.append(index)

    with open_source(str(video)) as source:
        fps = source.fps
        begun = time.perf_counter()
        pipeline.run(source, realtime=realtime, progress=progress)
        elapsed = time.perf_counter() - begun
    frames = sorted(done_at)
    # Per-frame cost (decode + process), then the same work on a live camera's clock.
    costs, previous = {}, begun
    for index in frames:
        costs[index] = done_at[index] - previous
        previous = done_at[index]
    finish_on_camera: dict[int, float] = {}
    clock = 0.0
    for index in frames:
        clock = max(clock, index / fps) + costs[index]
        finish_on_camera[index] = clock
    wanted = expected_events(truth)
    unmatched = list(wanted)
    latencies = []
    for event, wall in events:
        play = next((p for p in unmatched if (p.trick, p.seat) == (event.trick, event.seat)), None)
        if play is None:
            continue  # a play the truth does not have: counted by tricks_exact
        unmatched.remove(play)
        settle_frame = play.clear_frame + math.ceil(settle_s * fps)
        if realtime:
            arrival_wall = begun + settle_frame / fps
            latencies.append((wall - arrival_wall) * 1000.0)
        else:
            latencies.append((finish_on_camera[event.frame] - settle_frame / fps) * 1000.0)
    first = len(truth.setup["deals"][0].get("tricks", []))  # a video of a deal's last tricks: the filmed ones count
    got = [{k: v for k, v in t.items() if k in ("leader", "plays", "attempt")}
           for t in game.snapshot()["deals"][0]["tricks"][first:]]
    want = truth.record["deals"][0]["tricks"][first:]
    exact = sum(1 for g, w in zip(got, want, strict=False) if g == w)
    accusations = false_accusations(game.snapshot(), truth.record, first)
    cards = card_errors(game.snapshot()["deals"][0]["tricks"][first:], want, len(truth.setup["players"]))
    recorded = game.snapshot()["deals"][0]["tricks"][first:]
    differences = [(number, truth_trick, recorded[number] if number < len(recorded) else None)
                   for number, truth_trick in enumerate(want)
                   if number >= len(got) or got[number] != truth_trick]
    return {
        "differences": differences,
        **cards,
        "frames": len(frames),
        "elapsed": elapsed,
        "fps": len(frames) / elapsed if elapsed > 0 else 0.0,
        "latencies": latencies,
        "reads": pipeline.stats.reads,
        "warned_s": len(warned) / fps if fps else 0.0,
        "doubted": pipeline.stats.doubted_plays,
        "tricks_cut": pipeline.stats.tricks_cut_to_follows,
        "tricks_exact": exact,
        "tricks": len(want),
        "events_match": len(events) == len(wanted),
        **accusations,
    }


def false_accusations(recorded: dict[str, Any], truth: dict[str, Any], first: int = 0) -> dict[str, Any]:
    """Violations the recorded game shows that the true game does not have (trick, seat, rule),
    from trick ``first`` on: ``false_proven`` (shown as proven: an accusation that never happened),
    ``false_to_check`` (shown as to check, resting on cards not yet confirmed), and each of them
    (``false_violations``)."""
    from tuolaji import scorer

    def found(record: dict[str, Any]) -> list[dict[str, Any]]:
        return [v for v in scorer.audit_record(record)["deals"][-1]["violations"]
                if v["trick"] is None or v["trick"] >= first]

    real = {(v["trick"], v["seat"], v["rule"]) for v in found(truth)}
    false = [v for v in found(recorded) if (v["trick"], v["seat"], v["rule"]) not in real]
    return {"false_proven": sum(1 for v in false if v["proven"]),
            "false_to_check": sum(1 for v in false if v.get("to_check")), "false_violations": false}


def card_errors(got: list[dict[str, Any]], want: list[dict[str, Any]], players: int) -> dict[str, int]:
    """Card by card, the recorded tricks against the truth (trick by trick, seat by seat):
    ``cards`` in the truth, ``wrong`` (a card recorded that the seat did not play, or a card
    it played that is missing), ``silent`` (a wrong card not marked unconfirmed for a person:
    a missing card is silent unless its play holds an unconfirmed card, or the play is recorded
    missing, 没看到, for a person to enter), ``flagged`` (cards marked unconfirmed, right or
    wrong, and the cards of a play recorded missing); and of the jokers played, ``jokers``,
    ``jokers_recorded`` (at least recorded as a card of their seat's play: the play recorded with
    as many cards as it had, whatever their names), ``jokers_named`` (recorded as the joker they
    are) and ``jokers_swapped`` (a 大王 recorded as 小王 or the other way round).

    >>> counts = card_errors([{"leader": 0, "plays": [["AS"], ["KS"]], "unconfirmed": [[1, 0]]}],
    ...                      [{"leader": 0, "plays": [["AS"], ["QS"]]}], 2)
    >>> {k: counts[k] for k in ("cards", "wrong", "silent", "flagged")}
    {'cards': 2, 'wrong': 1, 'silent': 0, 'flagged': 1}
    >>> counts = card_errors([{"leader": 0, "plays": [["AS", "AS"], ["KS", "5S"]], "unconfirmed": [[0, 1]]}],
    ...                      [{"leader": 0, "plays": [["AS", "KS"], ["KS", "4S"]]}], 2)
    >>> {k: counts[k] for k in ("cards", "wrong", "silent", "flagged")}
    {'cards': 4, 'wrong': 2, 'silent': 1, 'flagged': 1}
    >>> counts = card_errors([{"leader": 0, "plays": [["AS"], []], "missing": [1]}],
    ...                      [{"leader": 0, "plays": [["AS"], ["QS"]]}], 2)
    >>> {k: counts[k] for k in ("cards", "wrong", "silent", "flagged")}
    {'cards': 2, 'wrong': 1, 'silent': 0, 'flagged': 1}
    >>> counts = card_errors([{"leader": 0, "plays": [["SJ", "SJ"], ["10D"], []], "missing": [2]}],
    ...                      [{"leader": 0, "plays": [["BJ", "SJ"], ["BJ"], ["SJ"]]}], 3)
    >>> {k: v for k, v in counts.items() if k.startswith("jokers")}
    {'jokers': 4, 'jokers_recorded': 3, 'jokers_named': 1, 'jokers_swapped': 1}
    """
    from collections import Counter

    from tuolaji.scorer.seats import seat_of

    totals = {"cards": 0, "wrong": 0, "silent": 0, "flagged": 0,
              "jokers": 0, "jokers_recorded": 0, "jokers_named": 0, "jokers_swapped": 0}
    for number, truth_trick in enumerate(want):
        trick = got[number] if number < len(got) else {"leader": truth_trick["leader"], "plays": []}
        recorded = {seat_of(trick["leader"], j, players): play for j, play in enumerate(trick["plays"])}
        unsure = {(seat, index) for seat, index in trick.get("unconfirmed", [])}
        unseen = set(trick.get("missing", []))
        totals["flagged"] += len(unsure)
        for j, play in enumerate(truth_trick["plays"]):
            seat = seat_of(truth_trick["leader"], j, players)
            totals["cards"] += len(play)
            mine = recorded.get(seat, [])
            extra = Counter(mine) - Counter(play)
            missing = sum((Counter(play) - Counter(mine)).values())
            flagged_play = any(s == seat for s, _ in unsure) or seat in unseen
            if seat in unseen:
                totals["flagged"] += len(play)
            wrong_here = sum(extra.values())
            # of identical cards one too many, the marked one counts as the wrong one
            for index in sorted(range(len(mine)), key=lambda i: (seat, i) not in unsure):
                if extra[mine[index]] > 0:
                    extra[mine[index]] -= 1
                    totals["silent"] += (seat, index) not in unsure
            totals["wrong"] += max(wrong_here, missing)
            totals["silent"] += max(0, missing - wrong_here) if not flagged_play else 0
            played, kept = Counter(play), Counter(mine)
            named, unread, misnamed = played & kept, played - kept, kept - played
            jokers = played["SJ"] + played["BJ"]
            totals["jokers"] += jokers
            totals["jokers_recorded"] += jokers if len(mine) >= len(play) else 0
            totals["jokers_named"] += named["SJ"] + named["BJ"]
            totals["jokers_swapped"] += min(unread["SJ"], misnamed["BJ"]) + min(unread["BJ"], misnamed["SJ"])
    return totals


def exact_rate(count: int, cost_ms: float, force_oracle: bool, settle_s: float, noise: float,
               real_art: str | None = None, models: Path | None = None, tricks: int | None = None,
               profile: str | None = None, show_wrong: bool = False, seed_base: int = 100,
               first: int = 0, corners: int | None = None, focus_hunt: float = 0.0,
               index_layout: str | None = None, min_confidence: float | None = None,
               told_layout: bool = False) -> None:
    """Render ``count`` varied deals (1-4 decks, 4-7 players, both card-art families, a resting hand,
    idle hands passing over the table) and replay them. ``real_art`` ("holdout" or "train"): every
    deal drawn with an imported design of that split (:mod:`datasets.realart`), in turn. ``tricks``:
    full hands, the deal's first ``tricks`` tricks filmed (leads of pairs, triples and tractors as
    a real deal has them; else hands of 2-3 cards); ``profile``: every deal of that profile, 4 players;
    ``corners`` (2 or 4, without ``real_art``): every deal drawn with a held-out procedural design
    printing that many corner indices, ``index_layout`` ("horizontal": the suit beside the rank) with
    its indices so; ``focus_hunt``: that share of frames blurred by a hunting autofocus; ``told_layout``:
    the reader is told the deck's index layout, as a user tells it (``--index-layout``) or enrolment finds it."""
    from tuolaji import scorer

    designs: tuple[str, ...] = ()
    if real_art is not None:
        from tuolaji.datasets.realart import available_designs

        designs = available_designs(real_art)
        if not designs:
            raise SystemExit(f"no imported card art of split {real_art!r} is cached (python -m tuolaji.datasets.realart builds it)")

    profiles = [("standard-2deck", 4, 3), ("titanic-3deck", 4, 3), ("guangzhou-3deck", 4, 3),
                ("friends-3deck", 5, 2), ("friends-3deck", 6, 2), ("friends-3deck", 7, 2), ("single-deck", 4, 3),
                ("four-deck", 4, 3)]
    exact = total = videos_exact = warned_deals = 0
    errors = {"cards": 0, "wrong": 0, "silent": 0, "flagged": 0, "false_proven": 0, "false_to_check": 0, "doubted": 0,
              "jokers": 0, "jokers_recorded": 0, "jokers_named": 0, "jokers_swapped": 0}
    with tempfile.TemporaryDirectory() as folder:
        for k in range(first, count):
            chosen, players, hand = profiles[k % len(profiles)] if profile is None else (profile, 4, 3)
            seed = seed_base + k
            record = (scorer.random_record(chosen, seed, players=players, tricks=tricks) if tricks
                      else scorer.random_record(chosen, seed, players=players, hand_size=hand))
            split = real_art or ("holdout" if k % 2 or corners or index_layout else "train")
            design = designs[k % len(designs)] if designs else None
            video = Path(folder) / f"deal{k}.mp4"
            truth = render_video(record, video, RenderOptions(seed=seed, style_split=split, gesture_rate=0.3,
                                                              linger=((1, (seed % players)),), real_art=design,
                                                              corners=corners, focus_hunt=focus_hunt,
                                                              index_layout=index_layout))
            save_render(truth, video)
            reader, _ = make_reader(truth, cost_ms, force_oracle, noise, models,
                                    (index_layout or "vertical") if told_layout else None)
            result = replay_once(video, truth, reader, settle_s, realtime=False, min_confidence=min_confidence)
            exact += result["tricks_exact"]
            total += result["tricks"]
            videos_exact += result["tricks_exact"] == result["tricks"]
            for key in errors:
                errors[key] += result[key]
            print(f"  {chosen} {players}p seed {seed} ({design or split} art): {result['tricks_exact']}/{result['tricks']} "
                  f"tricks exact, {result['wrong']}/{result['cards']} cards wrong ({result['silent']} silent), "
                  f"{result['flagged']} flagged ({result['doubted']} plays doubted by the next lead), "
                  f"{result['false_proven']} false proven violations "
                  f"({result['false_to_check']} to check), {result['fps']:.0f} fps"
                  + (f", warned unreadable {result['warned_s']:.0f} s" if result["warned_s"] else "")
                  + (f", {result['tricks_cut']} tricks cut to their short follows" if result["tricks_cut"] else ""))
            warned_deals += result["warned_s"] > 0
            if show_wrong:
                for number, truth_trick, recorded in result["differences"]:
                    print(f"    trick {number}: truth {truth_trick['leader']} {truth_trick['plays']}")
                    print(f"    {'':>{len(str(number)) + 6}}  got   "
                          + ("nothing" if recorded is None else
                             f"{recorded['leader']} {recorded['plays']} unconfirmed {recorded.get('unconfirmed', [])}"))
                for v in result["false_violations"]:
                    print(f"    {'proven' if v['proven'] else 'to check'}: trick {v['trick']} seat {v['seat']} {v['rule']}")
    print(f"trick-exact rate: {exact}/{total} = {exact / max(1, total):.3f} over {count - first} videos "
          f"({videos_exact} entirely exact)")
    per100 = 100 / max(1, errors["cards"])
    print(f"cards: {errors['cards']}, wrong {errors['wrong']} ({errors['wrong'] * per100:.2f} per 100), "
          f"silent_per_100={errors['silent'] * per100:.2f} flagged_per_100={errors['flagged'] * per100:.2f} "
          f"(plays doubted by the next lead: {errors['doubted']})")
    print(f"violations that never happened: false_proven={errors['false_proven']} "
          f"(shown as to check instead: {errors['false_to_check']})")
    print(f"jokers played: {errors['jokers']}, recorded as a card of their play {errors['jokers_recorded']}, "
          f"named right {errors['jokers_named']}, 大王/小王 swapped {errors['jokers_swapped']}")
    print(f"deals where the page warned that no corner of the cards on the table could be read: {warned_deals}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--video", type=Path, help="rendered video (default: the bundled demo)")
    parser.add_argument("--frames", type=Path, help="its .frames.json (default: next to the video)")
    parser.add_argument("--reader-cost-ms", type=float, default=30.0)
    parser.add_argument("--oracle", action="store_true", help="use the oracle even when a trained model exists")
    parser.add_argument("--settle", type=float, default=0.7)
    parser.add_argument("--realtime", action="store_true", help="pace the video and time events on the wall clock")
    parser.add_argument("--exact", type=int, default=0, metavar="N", help="also replay N freshly rendered deals")
    parser.add_argument("--real-art", choices=("holdout", "train"),
                        help="with --exact: draw the fresh deals with imported real deck designs of this split")
    parser.add_argument("--tricks", type=int, help="with --exact: full hands, film each deal's first N tricks")
    parser.add_argument("--profile", help="with --exact: every deal of this rule profile (4 players)")
    parser.add_argument("--noise", type=float, default=0.0,
                        help="oracle only: miss this fraction of cards per read, misread half as many")
    parser.add_argument("--seed-base", type=int, default=100,
                        help="with --exact: the first deal's seed (tune on other seeds than those reported)")
    parser.add_argument("--first", type=int, default=0,
                        help="with --exact: start at this deal of the N (to look at one again)")
    parser.add_argument("--show-wrong", action="store_true",
                        help="with --exact: print each trick that is not exact, the truth above what was recorded, and each violation that never happened")
    parser.add_argument("--corners", type=int, choices=(2, 4),
                        help="with --exact and no --real-art: held-out procedural designs printing this many corner indices")
    parser.add_argument("--layout", choices=("vertical", "horizontal"), default=None,
                        help="with --exact and no --real-art: held-out procedural designs with their indices so")
    parser.add_argument("--told-layout", action="store_true",
                        help="with --exact: the reader is told the deck's index layout (--layout), as `--index-layout` "
                             "or an enrolment tells it, and reads with models/horizontal/ where that exists")
    parser.add_argument("--focus-hunt", type=float, default=0.0, metavar="SHARE",
                        help="with --exact: this share of frames blurred by an autofocus that hunts (bursts of 3-8)")
    parser.add_argument("--models", type=Path, default=None, help="models folder (default: the shipped models/)")
    parser.add_argument("--min-confidence", type=float, default=None,
                        help="with --exact: a card read less sure than this goes to a person (default: the pipeline's, "
                             "vision.tracking.MIN_CONFIDENCE)")
    args = parser.parse_args(argv)

    from tuolaji.vision.demo import DEMO_FRAMES, DEMO_VIDEO

    video = args.video or DEMO_VIDEO
    frames = args.frames or (DEMO_FRAMES if args.video is None else video.with_suffix("").with_suffix(".frames.json"))
    truth = VideoTruth.load(frames)
    reader, reader_name = make_reader(truth, args.reader_cost_ms, args.oracle, args.noise, args.models)
    if args.exact:
        exact_rate(args.exact, args.reader_cost_ms, args.oracle, args.settle, args.noise, args.real_art, args.models,
                   args.tricks, args.profile, args.show_wrong, args.seed_base, args.first, args.corners,
                   args.focus_hunt, args.layout, args.min_confidence, args.told_layout)
    result = replay_once(video, truth, reader, args.settle, realtime=args.realtime)
    p50 = statistics.median(result["latencies"]) if result["latencies"] else float("nan")
    print(f"video: {video.name}, {result['frames']} frames, reader: {reader_name}, {result['reads']} reads")
    print(f"cards: {result['cards']}, wrong {result['wrong']}, silent {result['silent']}, flagged {result['flagged']}")
    print(f"tricks exact: {result['tricks_exact']}/{result['tricks']}, "
          f"latency ms min/p50/max: {min(result['latencies']):.0f}/{p50:.0f}/{max(result['latencies']):.0f}"
          if result["latencies"] else "no plays settled")
    print(f"replay_fps={result['fps']:.1f} play_to_page_ms_p50={p50:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
