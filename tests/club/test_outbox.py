"""The table's outbox on its own: numbered changes kept on disk across a restart, acknowledged
ones gone, a record saved again unchanged not queued twice, the batches bounded."""

from __future__ import annotations

from pathlib import Path

from tuolaji.club.outbox import ClubPusher, Outbox

from .conftest import played_records


def test_changes_survive_a_restart_until_acknowledged(tmp_path: Path) -> None:
    records = played_records(seed=2, plays=5)
    outbox = Outbox(tmp_path / "outbox.sqlite")
    assert [outbox.enqueue(1, "s", r) for r in records[:4]] == [1, 2, 3, 4]
    assert outbox.enqueue(2, "other", records[0]) == 5  # another session: the table's next number
    outbox.ack(2)
    again = Outbox(tmp_path / "outbox.sqlite")  # the machine restarted
    assert [c["n"] for c in again.pending()] == [3, 4, 5]
    assert again.pending()[0]["record"] == records[2] and again.acked == 2 and again.last_n == 5
    assert again.enqueue(1, "s", records[3]) is None  # saved again unchanged: nothing to send
    assert again.reconcile([(1, "s", records[5]), (2, "other", records[0])]) == 1
    assert [c["n"] for c in again.pending()] == [3, 4, 5, 6]
    again.ack(99)  # more than was queued: up to the last queued
    assert again.pending() == [] and again.acked == 6
    again.ack(1)  # an older acknowledgement changes nothing
    assert again.acked == 6 and again.enqueue(1, "s", records[4]) == 7


def test_batches_are_bounded(tmp_path: Path) -> None:
    records = played_records(seed=2, plays=30)
    outbox = Outbox(tmp_path / "outbox.sqlite")
    for record in records:
        outbox.enqueue(1, "s", record)
    assert len(outbox.pending(limit=10)) == 10
    one = len(outbox.pending(limit=1)[0]["record"]["deals"][0]["tricks"])
    assert one == 0
    assert len(outbox.pending(limit=100, max_bytes=1)) == 1  # always at least one, however big


def test_an_unreachable_club_keeps_everything(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "outbox.sqlite")
    outbox.enqueue(1, "s", played_records(plays=0)[0])
    pusher = ClubPusher(outbox, "http://127.0.0.1:9", "T", "token", timeout_s=2.0)
    assert pusher.send(outbox.pending()) is False
    assert pusher.state == "offline" and "the club cannot be reached" in (pusher.last_error or "")
    assert "1 changes wait" in (pusher.last_error or "")
    assert [c["n"] for c in outbox.pending()] == [1]


def test_a_command_applied_is_known_by_its_id_and_content(tmp_path: Path) -> None:
    """What a club restored from a backup asks again (its done lost) is answered with the verdict
    given, not applied twice; a new command that reuses the number (the club's numbering restarted
    from its backup's) is a new command."""
    outbox = Outbox(tmp_path / "club-outbox.sqlite")
    play = {"id": 7, "kind": "play", "body": {"seat": 1, "cards": ["AS"]}}
    assert outbox.verdict(play) is None
    outbox.command_done(7, play, {"result": "applied"})
    assert outbox.verdict(play) == {"result": "applied"} and outbox.command == 7
    assert outbox.verdict(play | {"body": {"seat": 2, "cards": ["KS"]}}) is None
    outbox.rewind(0, lambda: [])
    assert outbox.command == 0 and outbox.verdict(play) == {"result": "applied"}
