"""Issue 33: a delete that can be undone for a while (item 5: the bin), and the cost of a change
at the limits counted, not timed (item 8): a correction audits its own deal, saves what changed
(not the history again), and the state that every watching page reloads is made once."""

from __future__ import annotations

import copy
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from tuolaji import scorer
from tuolaji.scorer import audit as scorer_audit
from tuolaji.web import create_app, get_table
from tuolaji.web import history as web_history
from tuolaji.web import store as web_store
from tuolaji.web import view as web_view

PLAYERS = ["东", "南", "西", "北"]


def make_app(data: Path) -> Any:
    return create_app({"DATA_DIR": str(data), "TESTING": True})


def played(profile: str = "standard-2deck", seed: int = 3, deals: int = 1) -> dict[str, Any]:
    record = scorer.random_record(profile, seed, players=4)
    record["players"] = list(PLAYERS)
    record["deals"] = [copy.deepcopy(record["deals"][0]) for _ in range(deals)]
    return record


# --- the bin -----------------------------------------------------------------------------------


def test_a_deleted_session_goes_to_the_bin_is_restored_from_it_and_is_purged_after_30_days(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    client = app.test_client()
    session_id = client.post("/api/sessions/import", json={"name": "周五", "record": played()}).get_json()["id"]
    client.post(f"/api/sessions/{session_id}/resume")
    answer = client.post(f"/api/sessions/{session_id}/delete")
    assert answer.status_code == 200 and answer.get_json()["bin"] is True
    listed = client.get("/api/sessions").get_json()
    assert listed["sessions"] == [] and [s["id"] for s in listed["bin"]] == [session_id]
    assert listed["bin"][0]["purge"] - listed["bin"][0]["deleted"] == 30 * 86400
    assert client.get("/api/state").get_json()["session"] is None  # the live session was closed
    assert client.post(f"/api/sessions/{session_id}/resume").status_code == 404  # not while it is in the bin
    page = client.get("/sessions?lang=zh").get_data(as_text=True)
    assert "回收站" in page and f'action="/sessions/{session_id}/restore"' in page and "恢复" in page
    assert client.post(f"/sessions/{session_id}/restore").status_code == 302  # the page's form
    assert [s["id"] for s in client.get("/api/sessions").get_json()["sessions"]] == [session_id]
    assert client.post(f"/api/sessions/{session_id}/resume").status_code == 200
    assert client.post(f"/api/sessions/{session_id}/restore").status_code == 404  # not in the bin now
    client.post(f"/api/sessions/{session_id}/delete")
    assert client.post(f"/api/sessions/{session_id}/restore").get_json() == {"restored": session_id}
    client.post(f"/api/sessions/{session_id}/delete")
    store = get_table(app).store
    assert store.purge(now=time.time() + 29 * 86400) == []
    assert store.purge(now=time.time() + 31 * 86400) == [session_id]
    assert client.get("/api/sessions").get_json() == {"current": None, "sessions": [], "bin": []}


def test_the_bin_and_its_words_in_both_languages(tmp_path: Path) -> None:
    from tuolaji.web.i18n import STRINGS

    for key in ("sessions.bin", "sessions.bin_help", "action.restore", "sessions.delete_confirm"):
        assert STRINGS[key]["zh"] and STRINGS[key]["en"]
    assert "30" in STRINGS["sessions.delete_confirm"]["zh"] and "restored" in STRINGS["sessions.delete_confirm"]["en"]
    app = make_app(tmp_path)
    client = app.test_client()
    session_id = client.post("/api/sessions/import", json=played()).get_json()["id"]
    client.post(f"/api/sessions/{session_id}/delete")
    page = client.get("/sessions?lang=en").get_data(as_text=True)
    assert 'data-i18n="sessions.bin"' in page and 'data-i18n="action.restore"' in page


# --- the history keeps what changed ---------------------------------------------------------------


def test_a_correction_is_kept_in_the_history_as_the_trick_it_changed_not_the_deals_later_tricks() -> None:
    record = played("four-deck", 5)
    before = record
    for _ in range(20):  # corrections of the first trick: each entry holds what it added
        after = copy.deepcopy(before)
        trick = after["deals"][0]["tricks"][0]
        trick.setdefault("corrections", []).append({"seat": trick["leader"], "index": 0, "old": trick["plays"][0][0],
                                                   "new": trick["plays"][0][0], "source": "page"})
        before = web_history.logged(before, after, "correction")
    sizes = [len(json.dumps(entry)) for entry in before["history"]]
    assert max(sizes) < 400 and max(sizes) - min(sizes) < 10  # not the 33 later tricks, not the earlier corrections
    undone = before
    for _ in range(20):
        undone = web_history.undo(undone)
    assert undone["deals"] == record["deals"]
    assert web_history.redo(undone)["deals"][0]["tricks"][0]["corrections"] == before["deals"][0]["tricks"][0][
        "corrections"][:1]


def test_history_entries_of_the_earlier_kind_are_still_undone() -> None:
    record = played()
    after = copy.deepcopy(record)
    after["deals"][0]["tricks"] = after["deals"][0]["tricks"][:-1]
    tricks = record["deals"][0]["tricks"]
    entry = {"change": "play", "at": 0, "deal": 0, "before": {}, "after": {}, "tricks_from": len(tricks) - 1,
             "tricks_before": [], "tricks_after": [tricks[-1]]}
    undone = web_history.undo(record | {"history": [entry]})
    assert undone["deals"][0]["tricks"] == after["deals"][0]["tricks"]
    assert web_history.redo(undone)["deals"] == record["deals"]


# --- the cost of a change, counted ------------------------------------------------------------------


def test_a_change_is_audited_from_its_deal_on_with_the_audit_a_whole_audit_gives() -> None:
    rng = random.Random(7)
    record = scorer.random_record("titanic-3deck", 11)
    record["deals"] = [copy.deepcopy(record["deals"][0]) for _ in range(6)]
    run = scorer.audit_again(record)
    for _ in range(12):
        changed = copy.deepcopy(record)
        deal = rng.randrange(len(changed["deals"]))
        tricks = changed["deals"][deal]["tricks"]
        trick = rng.randrange(len(tricks))
        tricks[trick]["plays"][rng.randrange(len(tricks[trick]["plays"]))][0] = rng.choice(["AS", "BJ", "3H", "7C"])
        if rng.random() < 0.3:
            changed["deals"] = changed["deals"][: deal + 1]
        again = scorer.audit_again(changed, run)
        assert again.output == scorer.audit_record(changed)
        assert all(a is b for a, b in zip(again.output["deals"][:deal], run.output["deals"][:deal], strict=False))
        record, run = changed, again


def count_calls(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[int]:
    calls = [0]
    original = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls


def test_a_correction_in_the_last_deal_of_a_long_game_audits_that_deal_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(tmp_path)
    client = app.test_client()
    record = played("standard-2deck", 4, deals=12)
    session_id = client.post("/api/sessions/import", json=record).get_json()["id"]
    client.post(f"/api/sessions/{session_id}/resume")
    runs = count_calls(monkeypatch, scorer_audit._DealAudit, "run")
    trick = record["deals"][11]["tricks"][0]
    answer = client.post("/api/correct", json={"deal": 11, "trick": 0, "seat": trick["leader"], "index": 0,
                                               "card": trick["plays"][0][0]})
    assert answer.status_code == 200
    assert runs[0] == 1


def test_a_correction_saves_what_changed_whatever_the_length_of_the_history(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[int] = []
    dumps = web_store._dumps

    def counted(value: Any, where: str, *args: Any) -> str:
        text = dumps(value, where, *args)
        written.append(len(text))
        return text

    app = make_app(tmp_path)
    client = app.test_client()
    record = played("four-deck", 6)
    client.post("/api/sessions/import", json=record)
    client.post("/api/sessions/1/resume")
    trick = record["deals"][0]["tricks"][5]
    body = {"deal": 0, "trick": 5, "seat": trick["leader"], "index": 0, "card": trick["plays"][0][0]}
    monkeypatch.setattr(web_store, "_dumps", counted)
    per_correction = []
    for number in range(60):
        written.clear()
        assert client.post("/api/correct", json=body).status_code == 200
        per_correction.append(sum(written))
        if number in (1, 59):
            assert len(written) == 2  # the record and one history entry
    # the 60th correction writes the record (one correction longer) and its entry, not 60 entries
    assert per_correction[59] - per_correction[1] < 58 * 120


def test_twenty_pages_reloading_the_state_after_a_change_make_it_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(tmp_path)
    client = app.test_client()
    record = played("standard-2deck", 4)
    client.post("/api/sessions/import", json=record)
    client.post("/api/sessions/1/resume")
    made = count_calls(monkeypatch, web_view, "table_view")
    trick = record["deals"][0]["tricks"][2]
    client.post("/api/correct", json={"deal": 0, "trick": 2, "seat": trick["leader"], "index": 0,
                                      "card": trick["plays"][0][0]})
    viewers = [app.test_client() for _ in range(20)]
    bodies = {viewer.get("/api/state").get_data() for viewer in viewers}
    assert made[0] == 1 and len(bodies) == 1
    state = json.loads(bodies.pop())
    assert state["state"]["record"]["deals"][0]["tricks"][2]["corrections"][0]["new"] == trick["plays"][0][0]
    assert "history" not in state["state"]["record"] and state["view"]["history"]["entries"] == 1


def test_an_audit_of_a_long_game_runs_no_garbage_collection_while_it_runs() -> None:
    """The collector walking the whole record and audit again and again was 40% of a 1,000-deal audit."""
    import gc

    record = played("four-deck", 8, deals=40)
    collections = [0]

    def count(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            collections[0] += 1

    gc.callbacks.append(count)
    try:
        scorer.audit_record(record)
        scorer.audit_again(record)
    finally:
        gc.callbacks.remove(count)
    assert collections[0] <= 2 and gc.isenabled()  # at most the one each audit's young objects meet at its end


def test_the_sessions_page_audits_a_stored_game_once_until_it_is_saved_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tuolaji.web import pages

    app = make_app(tmp_path)
    client = app.test_client()
    client.post("/api/sessions/import", json=played("standard-2deck", 4, deals=3))
    audits = count_calls(monkeypatch, pages.scorer, "audit_record")
    for _ in range(3):
        assert client.get("/sessions").status_code == 200
    assert audits[0] == 1
    client.post("/api/sessions/1/resume")
    trick = client.get("/api/state").get_json()["state"]["record"]["deals"][2]["tricks"][0]
    client.post("/api/correct", json={"deal": 2, "trick": 0, "seat": trick["leader"], "index": 0,
                                      "card": trick["plays"][0][0]})
    audits[0] = 0
    client.get("/sessions")
    assert audits[0] == 1  # saved again: its summary made anew
