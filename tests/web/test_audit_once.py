"""The audit once, its facts kept (issue 32, item 2), and the live game's commands and journal
(item 4): every record change is audited by one run, which the page's state is made from (its
typed findings are read as they are, never paired by their English); the page and the pipeline
change the record by commands, each journalled with its number, kind and params."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.browser.records import played_deal_record
from tuolaji import scorer
from tuolaji.scorer import audit as scorer_audit
from tuolaji.session.changes import RefusedError
from tuolaji.session.events import Change, StateChanged
from tuolaji.session.live import LiveGame, NoSuchCardError
from tuolaji.web import get_table
from tuolaji.web import view as web_view

SETUP = {"players": ["东", "南", "西", "北"], "profile": "standard-2deck", "trump": "NT", "dealer": 0}


def post(client: Any, path: str, body: dict[str, Any] | None = None, status: int = 200) -> dict[str, Any]:
    response = client.post(path, json=body or {})
    assert response.status_code == status, response.get_json()
    return response.get_json()


def counted(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, calls: list[str]) -> None:
    original = getattr(owner, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        calls.append(name)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, wrapper)


def count_audits(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every way to audit a record, counted (the package's names and the module's)."""
    calls: list[str] = []
    for owner in (scorer, scorer_audit):
        for name in ("audit_again", "audit_record", "audit_findings", "audit_with_findings"):
            counted(monkeypatch, owner, name, calls)
    return calls


def test_each_change_of_the_record_is_audited_once_however_often_the_state_is_read(
        app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    client = app.test_client()
    post(client, "/api/setup", SETUP, status=201)
    audits = count_audits(monkeypatch)
    changes = [("/api/bid", {"seat": 1, "cards": ["2H"]}, 200), ("/api/bid/withdraw", {}, 200),
               ("/api/bid", {"seat": 2, "cards": ["2S"]}, 200),
               ("/api/play", {"seat": 1, "cards": ["AS"]}, 201), ("/api/play", {"seat": 2, "cards": ["3S"]}, 201),
               ("/api/correct", {"deal": 0, "trick": 0, "seat": 2, "index": 0, "card": "4S"}, 200),
               ("/api/undo", {}, 200), ("/api/redo", {}, 200)]
    for number, (path, body, status) in enumerate(changes, 1):
        post(client, path, body, status)
        for _ in range(3):
            assert client.get("/api/state").status_code == 200
        assert audits == ["audit_again"] * number, (path, audits)
    assert get_table(app).game.version == len(changes)


def test_a_refused_change_is_not_audited_and_changes_nothing(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    client = app.test_client()
    post(client, "/api/setup", SETUP, status=201)
    post(client, "/api/play", {"seat": 0, "cards": ["AS"]}, status=201)
    client.get("/api/state")
    audits = count_audits(monkeypatch)
    version = get_table(app).game.version
    answer = post(client, "/api/bid", {"seat": 1, "cards": ["2H"]}, status=400)  # the deal has started
    assert answer["message"]["en"] == "the deal has started: no more bids"
    post(client, "/api/redo", status=400)
    client.get("/api/state")
    assert audits == [] and get_table(app).game.version == version


def test_a_bid_that_does_not_stand_is_refused_in_words(app: Any) -> None:
    client = app.test_client()
    post(client, "/api/setup", SETUP, status=201)
    post(client, "/api/bid", {"seat": 1, "cards": ["2H", "2H"]})
    answer = post(client, "/api/bid", {"seat": 2, "cards": ["2S"]}, status=400)
    assert answer["message"]["en"].startswith("this bid does not stand: ") and len(answer["message"]["en"]) > 26
    assert answer["message"]["zh"].startswith("这个亮主不成立：")


def test_the_page_reads_the_runs_findings_as_they_are(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    record = scorer.random_record("standard-2deck", 2, dealer=0)
    record["players"] = ["东", "南", "西", "北"]
    deal = record["deals"][0]
    deal["tricks"][1]["leader"] = (deal["tricks"][1]["leader"] + 1) % 4
    table = get_table(app)
    table.start(record, name="x", source="import")

    def no_matching(*args: Any, **kwargs: Any) -> str:
        raise AssertionError("the page matched a finding by its English")

    monkeypatch.setattr(web_view.violation_text, "detail", no_matching)
    monkeypatch.setattr(web_view.violation_text, "penalty_detail", no_matching)
    state = app.test_client().get("/api/state").get_json()
    texts = state["view"]["deals"][0]["violations"]
    assert len(texts) == len(state["state"]["audit"]["deals"][0]["violations"]) > 0
    assert all(text["parsed"] for text in texts)
    assert texts[0]["zh"].startswith(record["players"][deal["tricks"][1]["leader"]] + " 首出")


def test_the_state_publishes_the_kitty_total_and_each_sides_levels(app: Any) -> None:
    record = played_deal_record()
    table = get_table(app)
    table.start(record, name="x", source="import")
    state = app.test_client().get("/api/state").get_json()
    deal_audit = state["state"]["audit"]["deals"][0]
    shown = state["view"]["deals"][0]
    points = deal_audit["kitty_points"] * deal_audit["kitty_multiplier"]
    assert shown["kitty_total"] == (points if deal_audit["kitty_won_by"] == "defenders" else 0)
    assert shown["levels_after"] == deal_audit["levels_after"]
    assert [side["after"] for side in shown["side_levels"]] == [
        deal_audit["levels_after"][side["seats"][0]] for side in state["view"]["sides"]]
    assert [side["before"] for side in shown["side_levels"]] == [
        shown["levels_before"][side["seats"][0]] for side in state["view"]["sides"]]


# --- the commands and the journal ----------------------------------------------------------------


def bare_record() -> dict[str, Any]:
    return {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": ["东", "南", "西", "北"],
            "deals": [{"level": "2", "trump": "NT", "dealer": 0, "tricks": []}]}


def test_every_command_is_journalled_numbered_with_its_kind_and_params() -> None:
    game = LiveGame(bare_record())
    seen: list[Change] = []
    unsubscribe = game.subscribe_journal(seen.append)
    game.bid(1, ["2H"], history=True)
    game.withdraw_bid(history=True)
    game.edit_deal({"trump": "S"}, history=True)
    game.play(0, ["AS"], history=True)
    game.play(1, ["3S"], unconfirmed=[0])
    game.confirm(0, 0, 1, 0)
    game.correct(0, 0, 0, 0, "KS", history=True)
    game.undo()
    game.redo()
    assert [change.kind for change in seen] == ["bid", "withdraw-bid", "edit-deal", "play", "play", "confirm",
                                                "correct", "undo", "redo"]
    assert [change.number for change in seen] == list(range(1, 10)) and game.version == 9
    assert seen[0].params == {"seat": 1, "cards": ["2H"]} and seen[0].deal == 0
    assert seen[6].params["card"] == "KS" and game.journal(since=8) == seen[8:]
    record = game.snapshot()
    assert record["deals"][0]["tricks"][0]["plays"] == [["KS"], ["3S"]]
    assert [entry["change"] for entry in record["history"]] == [
        "bid", "withdraw", "setting", "play", "correction", "undo", "redo"]  # the camera's play and its
    unsubscribe()                                                              # confirmation are not a person's
    game.set_kitty(0, None)
    assert len(seen) == 9 and game.journal()[-1].kind == "set-kitty"


def test_the_cameras_revisions_are_commands() -> None:
    game = LiveGame(bare_record())
    events: list[Any] = []
    game.bus.subscribe(events.append)
    game.play(0, ["AS", "AS"])
    assert game.revise_play(0, 0, ["AS"], [], committed=["AS", "AS"]) == "failed-throw"
    trick = game.snapshot()["deals"][0]["tricks"][0]
    assert trick["plays"] == [["AS"]] and trick["attempt"] == ["AS", "AS"]
    game.play(1, ["3S"])
    game.replace_play(1, 1, ["4S"], [0], reason="misread-corrected")
    trick = game.snapshot()["deals"][0]["tricks"][0]
    assert trick["plays"][1] == ["4S"] and trick["unconfirmed"] == [[1, 0]]
    assert game.revise_play(1, 1, [], [], committed=["4S"]) == "play-withdrawn"
    assert game.revise_play(0, 0, [], [], committed=["AS"]) == "play-withdrawn"
    assert game.snapshot()["deals"][0]["tricks"] == []
    assert [e.reason for e in events if isinstance(e, StateChanged)] == [
        "failed-throw", "misread-corrected", "play-withdrawn", "play-withdrawn"]
    with pytest.raises(NoSuchCardError):
        game.replace_play(0, 0, ["AS"], [])


def test_a_command_copies_and_audits_only_the_deal_it_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    record = played_deal_record()
    record["deals"] = [copy.deepcopy(record["deals"][0]) for _ in range(4)]
    game = LiveGame(record)
    before = game.current()[0]
    runs: list[str] = []
    counted(monkeypatch, scorer_audit._DealAudit, "run", runs)
    game.set_kitty(3, None)
    after, audit = game.current()
    assert runs == ["run"] and all(after["deals"][i] is before["deals"][i] for i in range(3))
    assert after["deals"][3] is not before["deals"][3] and audit["deals"][3] is not None


def test_a_refused_command_leaves_the_game_as_it_was() -> None:
    game = LiveGame(bare_record())
    game.play(0, ["AS"])
    with pytest.raises(RefusedError):
        game.bid(1, ["2H"])
    with pytest.raises(RefusedError):
        game.undo()  # the camera's play is not in the history
    assert game.version == 1 and [change.kind for change in game.journal()] == ["play"]


# --- bidding and rulings: nothing before the changed deal is audited again (issue 32, item 2) ----


def count_deal_audits(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The index of every deal audited, by any path (a whole record's audit, a run again, the bids'
    state, a ruling's scale)."""
    seen: list[int] = []
    original = scorer_audit._DealAudit.run

    def run(self: Any) -> Any:
        seen.append(self.index)
        return original(self)

    monkeypatch.setattr(scorer_audit._DealAudit, "run", run)
    return seen


def three_deals_then_bidding() -> dict[str, Any]:
    record = played_deal_record()
    record["deals"] = [copy.deepcopy(record["deals"][0]) for _ in range(3)]
    last = scorer.audit_record(record)["deals"][-1]
    dealer = last["next_dealer"]
    record["deals"].append({"level": last["levels_after"][dealer], "trump": "NT", "dealer": dealer, "tricks": []})
    return record


def test_bids_and_the_bids_panel_audit_no_earlier_deal(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    record = three_deals_then_bidding()
    table = get_table(app)
    table.start(record, name="x", source="import")
    client = app.test_client()
    first = client.get("/api/state").get_json()["view"]["bidding"]
    seats = [seat for seat, offers in enumerate(first["offers"]) if offers]
    audited = count_deal_audits(monkeypatch)
    bid = first["offers"][seats[0]][0]
    post(client, "/api/bid", {"seat": seats[0], "cards": bid})
    for _ in range(2):
        bidding = client.get("/api/state").get_json()["view"]["bidding"]
    assert bidding["standing"] == {"seat": seats[0], "cards": bid}
    assert audited == [3], audited  # the bid's deal, once; the bids' state reads the game's run
    post(client, "/api/bid/withdraw")
    client.get("/api/state")
    assert audited == [3, 3], audited
    game = table.game
    game.edit_deal({"trump": "H" if game.record()["deals"][3]["trump"] != "H" else "C"})
    game.audit()  # audited when read
    assert audited == [3, 3, 3], audited


def test_a_ruling_of_a_violation_the_deal_has_not_is_refused_in_words(app: Any) -> None:
    """The index of a violation past the deal's: a refusal naming the deal and the index (the fact
    once shared its name with the refusing finding's keyword and the message could not be made)."""
    from tests.browser.records import revoke_record

    record, _ = revoke_record()
    get_table(app).start(record, name="x", source="import")
    client = app.test_client()
    refused = post(client, "/api/ruling", {"deal": 0, "violation": 999}, status=400)
    assert refused["error"] == "there is no such violation"
    assert refused["message"]["zh"] and refused["message"]["en"]
    with pytest.raises(RefusedError, match="^there is no such violation$"):
        get_table(app).game.rule(0, 999)


def test_a_ruling_audits_its_deal_alone_under_the_profiles_scale(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.browser.records import revoke_record

    record, (trick, seat) = revoke_record()
    record["deals"] = [copy.deepcopy(record["deals"][0]) for _ in range(3)]
    table = get_table(app)
    table.start(record, name="x", source="import")
    client = app.test_client()
    offers = client.get("/api/state").get_json()["view"]["rulings"]
    violations = table.game.audit()["deals"][2]["violations"]
    found = next(i for i, v in enumerate(violations) if v["rule"] == "must-follow-suit")
    assert offers["deal"] == 2 and offers["offers"][found]["points"] > 0
    audited = count_deal_audits(monkeypatch)
    state = post(client, "/api/ruling", {"deal": 2, "violation": found})
    client.get("/api/state")
    assert state["state"]["record"]["deals"][2]["rulings"][0]["points"] == offers["offers"][found]["points"]
    # the offer under the scale (the deal alone), the change's audit, the new state's offers: deal 2 only
    assert audited and set(audited) == {2} and len(audited) <= 3, audited
    again = scorer.ruling_offers(table.game.record(), 2)
    assert again == state["view"]["rulings"]["offers"]  # equal to a fresh computation on the record alone
