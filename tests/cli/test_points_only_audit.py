"""``tuolaji audit`` on records kept by points (只记分, docs/RECORD.md): the bundled example
``examples/points-only-2deck.json`` (a deal by its tricks' points, one by the defenders' points,
one by cards and then points) and its golden audit.

Regenerate after a deliberate change with ``REGEN_SCORER_FIXTURES=1 pytest tests/cli/test_points_only_audit.py``
and review the diff.
"""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.scorer.test_points_only import _as_points, _last_unit
from tuolaji import cli
from tuolaji.scorer import audit_record, points_deal, random_record, validate_record

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "points-only-2deck.json"
GOLDEN = ROOT / "tests" / "data" / "scorer" / "audits" / "points-only-2deck.audit.json"
REGEN = os.environ.get("REGEN_SCORER_FIXTURES") == "1"


def build_points_example() -> dict[str, Any]:
    """Three deals of a game kept without a camera: deal 0 by each trick's winner and points (its
    kitty's cards turned up), deal 1 by the defenders' points, deal 2 by cards for 8 tricks, then
    by points (the camera failed) with the kitty's points."""
    first = random_record("standard-2deck", 401, dealer=0, level="2")
    game = _as_points(first)
    game["players"] = ["老张", "小李", "阿王", "大刘"]
    out = audit_record(game)["deals"][0]
    dealer = out["next_dealer"]
    full = random_record("standard-2deck", 402, dealer=dealer, level=out["levels_after"][dealer])
    played = audit_record(full)["deals"][0]
    unit, by_trump = _last_unit(full)
    summary = {key: full["deals"][0][key] for key in ("level", "trump", "dealer")}
    summary |= points_deal(played["defender_points"], played["tricks"][-1]["winner"], unit, trump=by_trump,
                           kitty_points=played["kitty_points"])
    game["deals"].append(summary)
    out = audit_record(game)["deals"][1]
    dealer = out["next_dealer"]
    mixed = _as_points(random_record("standard-2deck", 403, dealer=dealer, level=out["levels_after"][dealer]), 8,
                       kitty_cards=False)
    game["deals"].append(mixed["deals"][0])
    return game


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_the_points_example_is_the_generated_game() -> None:
    built = build_points_example()
    if REGEN:
        EXAMPLE.write_text(json.dumps(built, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    assert json.loads(EXAMPLE.read_text(encoding="utf-8")) == built
    validate_record(built)


def test_audit_json_of_the_points_example(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["audit", str(EXAMPLE), "--json"], capsys)
    assert code == 0 and err == ""
    audit = json.loads(out)
    if REGEN:
        GOLDEN.write_text(json.dumps(audit, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    assert audit == json.loads(GOLDEN.read_text(encoding="utf-8"))
    deals = audit["deals"]
    assert all(d["violations"] == [] and d["outcome"] is not None for d in deals)
    assert all(t["plays"] == [] and t["points_only"] for t in deals[0]["tricks"])
    assert deals[1]["tricks"] == []
    assert [bool(t.get("points_only")) for t in deals[2]["tricks"]] == [t >= 8 for t in range(len(deals[2]["tricks"]))]
    # the game carries on as with cards: each deal's dealer and level are the settlement's
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    for before, deal in zip(deals, record["deals"][1:], strict=False):
        assert deal["dealer"] == before["next_dealer"] and deal["level"] == before["levels_after"][deal["dealer"]]


def test_audit_table_of_a_points_record(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["audit", str(EXAMPLE)], capsys)
    assert code == 0 and "violations: none" in out and "total defender points" in out


def test_audit_json_reports_what_points_allow(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    bad = copy.deepcopy(record)
    bad["deals"][0]["tricks"][3]["points"] += 3
    bad["deals"][1]["last_trick"]["unit"] = 3  # no unit of 2 decks has 3 cards
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad, ensure_ascii=False), encoding="utf-8")
    code, out, _ = run_cli(["audit", str(path), "--json"], capsys)
    assert code == 0
    deals = json.loads(out)["deals"]
    assert [(v["trick"], v["rule"]) for v in deals[0]["violations"]] == [(3, "bad-points"), (None, "bad-points")]
    assert "cards count in fives" in deals[0]["violations"][0]["detail"]
    assert [v["detail"] for v in deals[1]["violations"]] == [
        "the last trick won with a unit of 3 cards: no unit of 2 decks has 3"]


def test_a_malformed_points_record_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    record["deals"][2]["tricks"][9]["plays"] = [["AS"]]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    code, out, err = run_cli(["audit", str(path), "--json"], capsys)
    assert code == 2 and out == ""
    assert err.strip() == "tuolaji audit: deals[2].tricks[9]: a points-only trick has no plays (it records its winner and points)"
