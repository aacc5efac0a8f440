"""Commands in, changes out (issue 44, item 1): a play from a phone (``POST /api/play``), from the
camera pipeline and from the club each make exactly one :class:`~session.journal.Change`, and
everything that follows the record reads it: the table's stored record, undo, the page's events and
the club's copy, which the table pushes as that change (not the record) and the club moves on with
the same :meth:`~session.journal.Change.applied_to`."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.records import played_deal_record
from tests.vision.test_pipeline_parts import ScriptedReader
from tuolaji.club.attach import attach_club
from tuolaji.club.outbox import ClubPusher
from tuolaji.club.store import ClubRefused
from tuolaji.session.announce import change_event
from tuolaji.session.events import Event, StateChanged
from tuolaji.session.journal import Change, record_text, text_digest
from tuolaji.session.live import LiveGame
from tuolaji.vision.pipeline import TablePipeline
from tuolaji.web import create_app, get_table
from tuolaji.web.table import Table

from .conftest import ClubServer
from .test_table_push import add_table, wait_for

SETUP = {"format": "tuolaji-record/1", "rules": "standard-2deck", "players": ["东", "南", "西", "北"],
         "deals": [{"level": "2", "trump": "H", "dealer": 0, "tricks": []}]}
CORNERS = [(40, 30), (600, 30), (600, 450), (40, 450)]


class Watched:
    """A table pushing to the club, with what it journals, announces and pushes kept."""

    def __init__(self, tmp_path: Path, club: ClubServer) -> None:
        self.token = token = add_table(club, "T")
        self.club_client = club.app.test_client()
        self.app = create_app({"DATA_DIR": str(tmp_path / "T"), "TESTING": True, "RESUME_LATEST": False})
        self.table: Table = get_table(self.app)
        self.pusher: ClubPusher = attach_club(self.table, tmp_path / "T", club.url, "T", token, retry_s=0.05,
                                              max_retry_s=0.2, timeout_s=3.0, command_poll_s=0.05)
        self.club = club.app.extensions["tuolaji.club"]
        self.table.start(SETUP, name="周五", source="page")
        assert self.pusher.flush(20.0)
        self.changes: list[Change] = []
        self.events: list[Event] = []
        self.pushed: list[dict[str, Any]] = []
        self.table.game.subscribe_journal(self.changes.append)
        self.table.bus.subscribe(self.events.append)
        send = self.pusher.send

        def kept(changes: list[dict[str, Any]]) -> bool:
            self.pushed.extend(changes)
            return send(changes)

        self.pusher.send = kept  # type: ignore[method-assign]

    def stored(self) -> dict[str, Any]:
        session_id = self.table.session_id
        assert session_id is not None
        return self.table.store.get(session_id).record

    def one_change(self, make: Callable[[], None]) -> Change:
        """Make one play; check that it made one change and that storage, the events and the club's
        copy all follow from that change alone."""
        assert self.pusher.flush(20.0)
        stored, club_copy, changes = self.stored(), self.club.record("T"), len(self.changes)
        self.pushed.clear()
        self.events.clear()
        make()
        wait_for(lambda: len(self.changes) > changes)
        assert self.pusher.flush(20.0)
        [change] = self.changes[changes:]
        assert change.kind == "play" and change.command is not None
        assert self.stored() == change.applied_to(stored)
        # the page hears the change first (besides the club line's own news: sending, up)
        assert [event for event in self.events if event != StateChanged(reason="club")][0] == change_event(change, 4)
        # the change, not the record, with the fingerprint of the record it makes
        assert [entry["change"] for entry in self.pushed] == [change.to_json(made=text_digest(record_text(
            self.stored())))]
        assert "record" not in self.pushed[0]
        assert self.club.record("T") == change.applied_to(club_copy) == self.stored()
        return change


@pytest.fixture()
def watched(tmp_path: Path, club: ClubServer) -> Iterator[Watched]:
    table = Watched(tmp_path, club)
    try:
        yield table
    finally:
        table.pusher.stop()


def test_a_play_from_a_phone_the_camera_and_the_club_is_one_change_that_everything_follows(
        watched: Watched) -> None:
    client = watched.app.test_client()

    # a phone: the page's play, a person's (undoable)
    phone = watched.one_change(lambda: client.post("/api/play", json={"seat": 0, "cards": ["AS"]}))
    assert phone.params["seat"] == 0 and phone.logged is not None
    assert watched.stored()["history"][-1] == phone.logged
    # undo is the change's inverse, redo the change again, each one change the club follows too
    with watched.table.writing() as game:
        undo = game.undo()
    assert (undo.deal, undo.after, undo.before) == (phone.deal, phone.before, phone.after)
    with watched.table.writing() as game:
        redo = game.redo()
    assert (redo.deal, redo.after) == (phone.deal, phone.after)
    assert watched.pusher.flush(20.0) and watched.club.record("T") == watched.stored()

    # the camera: the pipeline's settled play into the session it films
    reader = ScriptedReader({0: {0: [("AS", 0.95)]}, 10: {0: [("AS", 0.95)], 1: [("3S", 0.95)]}})

    def film() -> None:
        pipeline = TablePipeline(watched.table.session_game(), reader=reader, settle_s=0.5, calibration=CORNERS)
        for frame in reader.frames(40):
            pipeline.process(frame)

    camera = watched.one_change(film)
    assert camera.params["seat"] == 1 and camera.params["cards"] == ["3S"] and camera.logged is None

    # the club: a play entered on a phone at the club's page comes to the table as a command
    club = watched.one_change(lambda: watched.club_client.post(
        "/club/api/tables/T/plays", headers={"Authorization": f"Bearer {watched.token}"},
        json={"seat": 2, "cards": ["4S"]}))
    assert club.params["seat"] == 2 and club.params["cards"] == ["4S"]
    assert watched.stored()["deals"][0]["tricks"][0]["plays"] == [["AS"], ["3S"], ["4S"]]


def test_a_copy_at_the_club_that_differs_elsewhere_asks_for_the_record_whole(club: ClubServer) -> None:
    """A change whose deal the club's copy holds as it was, but whose copy differs in another deal
    (a change it never got), does not make the record the table's change made: refused (409,
    ``resend``), the copy unchanged."""
    token = add_table(club, "T")
    store = club.app.extensions["tuolaji.club"]
    record = played_deal_record()
    game = LiveGame(record)
    game.next_deal("S")
    store.push("T", token, [{"n": 1, "session": 1, "name": "s", "record": game.snapshot()}])
    game.set_kitty(0, None)  # a change the club never gets
    game.play(int(game.snapshot()["deals"][1]["dealer"]), ["AS"])
    play = game.journal()[-1]
    made = text_digest(record_text(game.snapshot()))
    with pytest.raises(ClubRefused) as refused:
        store.push("T", token, [{"n": 2, "session": 1, "name": "s", "change": play.to_json(made=made)}])
    assert refused.value.status == 409 and refused.value.extra["resend"] is True
    assert store.last_n("T") == 1 and store.record("T")["deals"][1]["tricks"] == []
    # the record whole mends it; the next change then fits and makes the table's record
    store.push("T", token, [{"n": 2, "session": 1, "name": "s", "record": game.snapshot()}])
    game.play((int(game.snapshot()["deals"][1]["dealer"]) + 1) % 4, ["KS"])
    store.push("T", token, [{"n": 3, "session": 1, "name": "s",
                             "change": game.journal()[-1].to_json(made=text_digest(record_text(game.snapshot())))}])
    assert store.record("T") == game.snapshot()
