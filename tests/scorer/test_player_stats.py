"""Players' records (scorer/player_stats.py) over crafted records and audits: what each figure counts,
names matched across games, renames and merges, the leaderboard's order."""

from __future__ import annotations

from typing import Any

import pytest

from tuolaji import scorer
from tuolaji.scorer.player_stats import RANKING, STAT_KEYS, name_key, player_stats, resolve


def game(players: list[str], deals: list[tuple[int, dict[str, Any]]], rules: str = "standard-2deck"
         ) -> tuple[dict[str, Any], dict[str, Any]]:
    """A record of deals (dealer, no plays) and a crafted audit of them (each deal's audit as given)."""
    record = {"rules": rules, "players": players,
              "deals": [{"level": "2", "trump": "S", "dealer": dealer} for dealer, _ in deals]}
    return record, {"deals": [deal_audit for _, deal_audit in deals]}


def done(side: str, levels: int, *, last: int = 0, kitty: str = "dealer", violations: list[dict[str, Any]] | None = None,
         winner: str | None = None) -> dict[str, Any]:
    return {"outcome": {"side": side, "levels": levels}, "tricks": [{"winner": last}], "kitty_won_by": kitty,
            "violations": violations or [], "game_winner": winner}


def by_name(rows: list[Any]) -> dict[str, dict[str, Any]]:
    return {row.name: {key: getattr(row, key) for key in STAT_KEYS} for row in rows}


def test_each_figure_counts_what_the_audit_says():
    players = ["东", "南", "西", "北"]
    record, audit = game(players, [
        (0, done("dealer", 2, last=2)),  # 东·西 deal and go up 2
        (2, done("defenders", 1, last=1, kitty="defenders",  # 南 takes the kitty; 南·北 take over, up 1
                 violations=[{"trick": 3, "seat": 3, "rule": "must-follow-suit", "proven": True},
                             {"trick": 4, "seat": 0, "rule": "failed-throw", "proven": False}])),
        (1, {"outcome": None, "tricks": [], "violations": [{"trick": 0, "seat": 3, "rule": "wrong-leader"}]}),
    ])
    stats = by_name(player_stats([(record, audit)]))
    assert stats["东"] == {"games": 1, "games_won": 0, "deals": 2, "dealer": 1, "took_over": 0, "levels_won": 2,
                          "kitty": 0, "violations": 0}
    assert stats["南"] == {"games": 1, "games_won": 0, "deals": 2, "dealer": 0, "took_over": 1, "levels_won": 1,
                          "kitty": 1, "violations": 0}
    assert stats["西"]["dealer"] == 1 and stats["西"]["levels_won"] == 2
    # a deal in progress is no deal played yet, but its proven violations count; an unproven one does not
    assert stats["北"] == {"games": 1, "games_won": 0, "deals": 2, "dealer": 0, "took_over": 1, "levels_won": 1,
                          "kitty": 0, "violations": 2}


def test_games_won_are_the_side_past_a():
    record, audit = game(["a", "b", "c", "d"], [(1, done("dealer", 1)), (1, done("dealer", 2, winner="dealer"))])
    stats = by_name(player_stats([(record, audit)]))
    assert [stats[name]["games_won"] for name in "abcd"] == [0, 1, 0, 1]
    record, audit = game(["a", "b", "c", "d"], [(1, done("defenders", 1, winner="defenders"))])
    assert [by_name(player_stats([(record, audit)]))[name]["games_won"] for name in "abcd"] == [1, 0, 1, 0]


def test_the_dealers_side_in_a_friends_game_is_the_scorers():
    record = scorer.random_record("friends-3deck", 3, players=5)
    audit = scorer.audit_record(record)
    sides = scorer.dealer_sides(record)
    outcome = audit["deals"][0]["outcome"]
    stats = by_name(player_stats([(record, audit)]))
    winners = {seat for seat in range(5) if (seat in sides[0]) == (outcome["side"] == "dealer")}
    for seat, name in enumerate(record["players"]):
        assert stats[name]["levels_won"] == (outcome["levels"] if seat in winners else 0)
        assert stats[name]["took_over"] == int(seat in winners and outcome["side"] == "defenders")


def test_names_match_across_games_whatever_their_case_width_and_spaces():
    first = game(["Lao Li", "b", "c", "d"], [(0, done("dealer", 1))])
    second = game(["ＬａｏＬｉ ", "e", "f", "g"], [(0, done("dealer", 1))])
    rows = player_stats([first, second])
    li = next(row for row in rows if row.key == "laoli")
    assert (li.name, li.games, li.deals, li.dealer, li.names) == ("Lao Li", 2, 2, 2, ["Lao Li", "ＬａｏＬｉ "])
    assert len(rows) == 7


def test_a_rename_and_a_merge():
    first = game(["老李", "b", "c", "d"], [(0, done("dealer", 1))])
    second = game(["li", "e", "f", "g"], [(0, done("dealer", 2))])
    rows = player_stats([first, second], {name_key("li"): "老李", name_key("老李"): "李哥"})
    li = next(row for row in rows if row.name == "李哥")
    assert (li.games, li.levels_won, li.names) == (2, 3, ["老李", "li"])
    assert resolve("LI", {"li": "老李"}) == "老李"


def test_the_leaderboard_order():
    record, audit = game(["a", "b", "c", "d"], [(0, done("dealer", 1)), (1, done("dealer", 3, last=2, kitty="defenders"))])
    rows = player_stats([(record, audit)])
    assert [row.name for row in rows] == ["b", "d", "c", "a"]  # levels won, then 抠底, then the name
    keys = [tuple(-getattr(row, key) for key in RANKING) for row in rows]
    assert keys == sorted(keys)


@pytest.mark.parametrize("name, key", [(" 老 李 ", "老李"), ("LAO\u3000LI", "laoli"), ("Ｐ１", "p1")])
def test_name_key(name, key):
    assert name_key(name) == key


def test_no_games_no_players():
    assert player_stats([]) == []
    assert player_stats([({"players": ["a"], "deals": []}, {"deals": []})])[0].games == 1


def test_a_deal_kept_by_its_points_alone_credits_the_kitty_to_its_last_winner():
    record = {"rules": "standard-2deck", "players": list("abcd"), "deals": [
        {"level": "2", "trump": "S", "dealer": 0, **scorer.points_deal(90, 1, 2), "kitty_points": 10}]}
    stats = by_name(player_stats([(record, scorer.audit_record(record))]))
    assert (stats["b"]["kitty"], stats["b"]["took_over"], stats["d"]["kitty"]) == (1, 1, 0)
