"""The bundled demo's game, built with the rules core, and its film (``tuolaji demo``).

The demo shows what the page is for in about two minutes: a ``titanic-3deck`` deal between
four players that the session holds up to its last tricks (the record of the deal so far),
then a video of those tricks read live by the table pipeline: a failed throw, a proven
revoke (a card of the led suit held but not followed, played a trick later), the last trick
won by the defenders, so the kitty counts for them multiplied (抠底 ×N), the settlement with
its level change, and the next deal.

:func:`demo_game` deals and plays the deal with :func:`scorer.random_record` (seeded), then
swaps two of one seat's single cards between two of the filmed tricks so that the seat
revokes, keeping every trick's winner (the audit proves the revoke from the later play), and
checks that the deal holds what the demo is to show. :func:`build_demo` films its last
:data:`FILMED_TRICKS` tricks (:func:`datasets.video.render_video`, ``first_trick``) and
writes the bundled files of :mod:`vision.demo`: the video, the deal so far (``.setup.json``),
the truth and frames of the film, and the whole game (``.record.json``: the deal with its
kitty, and the next deal as 开始下一副 starts it).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from tuolaji import scorer
from tuolaji.scorer.seats import seat_of

PROFILE = "titanic-3deck"
PLAYERS = ["东", "南", "西", "北"]
DEAL_SEED = 79
"""The seed of :func:`scorer.random_record` whose deal ends as the demo needs (found by trying seeds)."""
FILMED_TRICKS = 7
"""How many of the deal's last tricks the video films; the session holds the ones before."""
RENDER_SEED = 2024
NEXT_TRUMP = "NT"
"""The next deal's trump as 开始下一副 starts it (before anyone bids)."""


class DemoDealError(ValueError):
    """The seeded deal does not end as the demo needs (another seed or another count of filmed tricks)."""


def _with_revoke(record: dict[str, Any], first: int) -> tuple[dict[str, Any], int, int]:
    """Swap two single cards of one seat between two filmed tricks so that it revokes in the first,
    every trick keeping its winner; returns the record (without hands) and the revoke's trick and seat."""
    deal = record["deals"][0]
    players = len(record["players"])
    tricks = deal["tricks"]
    winners = [scorer.trick_winner(record, 0, i) for i in range(len(tricks))]
    for t in range(first, len(tricks)):
        for position in range(1, players):
            seat = seat_of(tricks[t]["leader"], position, players)
            for later in range(t + 1, len(tricks)):
                position2 = (seat - tricks[later]["leader"]) % players
                if position2 == 0 or len(tricks[t]["plays"][position]) != 1 or len(tricks[later]["plays"][position2]) != 1:
                    continue
                candidate = copy.deepcopy(record)
                candidate["deals"][0].pop("hands", None)
                a = candidate["deals"][0]["tricks"][t]["plays"][position]
                b = candidate["deals"][0]["tricks"][later]["plays"][position2]
                a[0], b[0] = b[0], a[0]
                if [scorer.trick_winner(candidate, 0, i) for i in range(len(tricks))] != winners:
                    continue
                violations = scorer.audit_record(candidate)["deals"][0]["violations"]
                if [(v["trick"], v["seat"], v["rule"], v["proven"]) for v in violations] == [
                        (t, seat, "must-follow-suit", True)]:
                    return candidate, t, seat
    raise DemoDealError(f"seed {DEAL_SEED}: no revoke can be injected into the filmed tricks")


def demo_game(seed: int = DEAL_SEED, filmed: int = FILMED_TRICKS) -> dict[str, Any]:
    """The demo's whole game: the complete deal with its kitty (a revoke among its last ``filmed``
    tricks), then the next deal's set-up as the page's 开始下一副 makes it.

    >>> game = demo_game()
    >>> audit = scorer.audit_record(game)["deals"][0]
    >>> audit["kitty_won_by"], audit["kitty_multiplier"], audit["outcome"]
    ('defenders', 4, {'side': 'defenders', 'levels': 2})
    >>> game["deals"][1]
    {'level': '4', 'trump': 'NT', 'dealer': 1, 'tricks': []}
    """
    dealt = scorer.random_record(PROFILE, seed, players=len(PLAYERS), dealer=0, level="2", trump="H",
                                 attempt_chance=0.15)
    dealt["players"] = list(PLAYERS)
    first = len(dealt["deals"][0]["tricks"]) - filmed
    record, revoke_trick, _ = _with_revoke(dealt, first)
    deal = record["deals"][0]
    deal.pop("complete", None)  # complete by its cards: every seat played its whole hand
    audit = scorer.audit_record(record)["deals"][0]
    if audit["kitty_won_by"] != "defenders" or audit["kitty_multiplier"] < 2 or not audit["kitty_points"]:
        raise DemoDealError(f"seed {seed}: the defenders do not win the kitty with points in it")
    if audit["outcome"] is None or audit["levels_after"] == record["start_levels"]:
        raise DemoDealError(f"seed {seed}: the deal changes no level")
    if not any(trick.get("attempt") for trick in deal["tricks"][first:]):
        raise DemoDealError(f"seed {seed}: no failed throw among the filmed tricks")
    if revoke_trick + 1 >= len(deal["tricks"]):
        raise DemoDealError(f"seed {seed}: the revoke is in the last trick")
    dealer = int(audit["next_dealer"])
    record["deals"].append({"level": audit["levels_after"][dealer], "trump": NEXT_TRUMP, "dealer": dealer, "tricks": []})
    scorer.validate_record(record)
    return record


def filmed_from(game: dict[str, Any], filmed: int = FILMED_TRICKS) -> int:
    """The first trick the video films (the session holds the tricks before it)."""
    return len(game["deals"][0]["tricks"]) - filmed


def build_demo(out_dir: Path, *, seed: int = DEAL_SEED, render_seed: int = RENDER_SEED) -> dict[str, Path]:
    """Film the demo into ``out_dir``: video, deal so far (set-up), truth, frames and the whole game."""
    from tuolaji.datasets.video import RenderOptions, render_video, save_render
    from tuolaji.vision.demo import DEMO_RECORD_FILE, DEMO_VIDEO

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    game = demo_game(seed)
    first = filmed_from(game)
    filmed_deal = {"format": game["format"], "rules": game["rules"], "players": game["players"],
                   "start_levels": game["start_levels"], "deals": [game["deals"][0]]}
    video = out_dir / DEMO_VIDEO.name
    # 10 frames a second and a quiet camera keep the film small; a hand rests over the revoke's proof
    options = RenderOptions(seed=render_seed, fps=10.0, noise_sigma=1.5, lighting_drift=0.03, first_trick=first,
                            linger=((first + 2, 1),))
    truth = render_video(copy.deepcopy(filmed_deal), video, options)
    paths = save_render(truth, video)
    paths["video"] = video
    paths["record"] = out_dir / DEMO_RECORD_FILE.name
    paths["record"].write_text(json.dumps(game, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return paths
