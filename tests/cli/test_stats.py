"""``tuolaji stats``: the players' records of a data folder, as the page's /stats shows them."""

from __future__ import annotations

import json

from tuolaji import cli, scorer
from tuolaji.web.store import DATABASE_NAME, SessionStore


def test_the_records_in_text_and_json_and_a_rename(tmp_path, capsys):
    store = SessionStore(tmp_path / DATABASE_NAME)
    for seed, players in enumerate([["老李", "b", "c", "d"], ["Li", "b", "e", "f"]]):
        record = scorer.random_record("standard-2deck", seed, hand_size=6)
        record["players"] = players
        store.create(record, name=f"g{seed}", source="import")
    assert cli.main(["stats", "--data", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "老李" in out and "2 sessions" in out and out.splitlines()[0].split()[:3] == ["#", "name", "games"]
    assert cli.main(["stats", "--data", str(tmp_path), "--json", "--rename", "li", "老李"]) == 0
    players = json.loads(capsys.readouterr().out)["players"]
    assert next(p for p in players if p["name"] == "老李")["games"] == 2
    assert next(p for p in players if p["name"] == "b")["games"] == 2


def test_no_database(tmp_path, capsys):
    assert cli.main(["stats", "--data", str(tmp_path / "none")]) == 2
    assert "no sessions database" in capsys.readouterr().err
