"""The standings and a seating's results: pure functions, no database."""

from __future__ import annotations

import pytest

from tuolaji import scorer
from tuolaji.club.results import pair_results, standings, standings_csv, table_summary
from tuolaji.datasets.demo import demo_game
from tuolaji.scorer.errors import InputError

from .conftest import evening_record


def test_pair_results_of_the_demo_deal() -> None:
    game = demo_game()  # the defenders (east-west: dealer 0 is north-south) go up two levels
    audit = scorer.audit_record(game)["deals"][0]
    results = pair_results(game)
    assert results["ew"] == {"levels_gained": 2, "level_diff": 2, "deals_won": 1,
                             "points": audit["total_defender_points"]}
    assert results["ns"] == {"levels_gained": 0, "level_diff": -2, "deals_won": 0, "points": 0}


def test_pair_results_count_only_the_rounds_deals() -> None:
    record = evening_record((3, 4, 5))
    audits = scorer.audit_record(record)["deals"]
    every = pair_results(record)
    assert every["ns"]["deals_won"] + every["ew"]["deals_won"] == 3
    second = pair_results(record, 1, 2)  # the second deal alone
    assert second["ns"]["deals_won"] + second["ew"]["deals_won"] == 1
    before, after = audits[0]["levels_after"], audits[1]["levels_after"]
    gained = scorer.cards.rank_index(after[0]) - scorer.cards.rank_index(before[0])
    assert second["ns"]["levels_gained"] == gained
    assert pair_results(record, 3)["ns"] == {"levels_gained": 0, "level_diff": every["ns"]["level_diff"],
                                             "deals_won": 0, "points": 0}


def test_standings_rules_and_shared_ranks() -> None:
    rows = [
        {"pair": "甲", "levels_gained": 4, "level_diff": 1, "deals_won": 3, "points": 100},
        {"pair": "乙", "levels_gained": 4, "level_diff": 3, "deals_won": 1, "points": 40},
        {"pair": "丙", "levels_gained": 2, "level_diff": 3, "deals_won": 1, "points": 200},
        {"pair": "丁", "levels_gained": 2, "level_diff": 3, "deals_won": 1, "points": 200},
        {"pair": "甲", "levels_gained": 1, "level_diff": 0, "deals_won": 0, "points": 0},
    ]
    by_levels = standings(rows, "levels")
    assert [(r["rank"], r["pair"]) for r in by_levels] == [(1, "甲"), (2, "乙"), (3, "丁"), (3, "丙")]
    assert by_levels[0] == {"rank": 1, "pair": "甲", "rounds": 2, "levels_gained": 5, "level_diff": 1,
                            "deals_won": 3, "points": 100}
    assert [r["pair"] for r in standings(rows, "level_diff")] == ["乙", "丁", "丙", "甲"]
    assert [r["pair"] for r in standings(rows, "deals")] == ["甲", "乙", "丁", "丙"]
    assert [r["pair"] for r in standings(rows, "points")] == ["丁", "丙", "甲", "乙"]
    with pytest.raises(InputError, match="unknown standings rule 'luck'"):
        standings(rows, "luck")
    assert standings_csv(by_levels).splitlines()[3] == "3,丁,1,2,3,1,200"


def test_summary_of_a_finished_deal_and_the_next() -> None:
    record = evening_record((7,))
    summary = table_summary(record)
    audit = scorer.audit_record(record)["deals"][0]
    assert summary["deal"] == 2 and summary["deals_done"] == 1 and summary["tricks"] == 0
    assert summary["levels"] == audit["levels_after"]
    assert summary["level"] == record["deals"][1]["level"]
