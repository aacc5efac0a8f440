"""Issue 30, item 7 (f): a stopped throw's penalty is settled when it is stopped (seed 001 Ⅰ.九:
「每甩错1张（即被卡住的牌）扣10分，同时出最小的牌」) — later plays showing that another unit of the
throw could have been beaten too do not grow it."""

from __future__ import annotations

import copy

from tuolaji import scorer

RULES = {"profile": "standard-2deck", "throw_penalty": "points"}


def record(tricks: list[dict]) -> dict:
    return {"format": "tuolaji-record/1", "rules": RULES, "players": ["老张", "老李", "老王", "老赵"],
            "deals": [{"level": "2", "trump": "H", "dealer": 0, "tricks": tricks}]}


STOPPED = {"leader": 1, "attempt": ["KS", "3S"], "plays": [["3S"], ["4S"], ["5S"], ["6S"]]}
# later 老赵 (seat 0) plays ♠A: he held it when 老李 threw ♠K — a second unit that was stuck, unknown then
LATER = {"leader": 2, "plays": [["7S"], ["AS"], ["8S"], ["KS"]]}


def penalties(rec: dict) -> list[dict]:
    return scorer.audit_record(rec)["deals"][0]["penalties"]


def test_the_penalty_of_a_stopped_throw_does_not_grow_later_in_the_deal():
    at_the_stop = penalties(record([STOPPED]))
    assert [(p["seat"], p["points"]) for p in at_the_stop] == [(1, -10)]  # 1 张被管住: the defender loses 10
    later = penalties(record([STOPPED, LATER]))
    assert [(p["seat"], p["points"]) for p in later] == [(1, -10)]  # still 1 张, not 2
    assert later[0]["detail"] == at_the_stop[0]["detail"]


def test_with_the_hands_recorded_every_stuck_unit_counts_from_the_start():
    rec = record([STOPPED, LATER])
    deal = rec["deals"][0]
    hands = [[] for _ in range(4)]
    for trick in deal["tricks"]:
        for j, play in enumerate(trick["plays"]):
            hands[(trick["leader"] + j) % 4].extend(play)
    deal["hands"] = hands
    early = copy.deepcopy(rec)
    early["deals"][0]["tricks"] = early["deals"][0]["tricks"][:1]
    assert [p["points"] for p in penalties(early)] == [p["points"] for p in penalties(rec)] == [-20]
