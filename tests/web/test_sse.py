"""The server-sent event stream: one queue per client, events as JSON, keep-alives, clean unsubscribe."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import TABLE_SETUP
from tuolaji.session.events import StateChanged
from tuolaji.web import create_app, get_table

SETUP = TABLE_SETUP | {"levels": ["2"] * 4, "trump": "S"}


@pytest.fixture()
def app(tmp_path: Path):
    return create_app({"DATA_DIR": str(tmp_path), "TESTING": True, "SSE_KEEPALIVE_S": 0.2, "SSE_LIFETIME_S": 5})


def messages(chunks: Iterator[bytes]) -> Iterator[str]:
    """Split the stream into SSE messages (blocks separated by a blank line)."""
    buffer = ""
    for chunk in chunks:
        buffer += chunk.decode("utf-8") if isinstance(chunk, bytes) else chunk
        while "\n\n" in buffer:
            message, buffer = buffer.split("\n\n", 1)
            yield message


def data_of(message: str) -> dict | None:
    lines = [line[len("data: "):] for line in message.split("\n") if line.startswith("data: ")]
    return json.loads("\n".join(lines)) if lines else None


def subscriber_count(app) -> int:
    return len(get_table(app).bus._subscribers)


def test_stream_sends_retry_hello_then_every_game_event_in_order(app):
    client = app.test_client()
    client.post("/api/setup", json=SETUP)
    response = client.get("/api/events")
    assert response.mimetype == "text/event-stream" and response.headers["Cache-Control"] == "no-cache"
    stream = messages(response.response)
    assert next(stream) == "retry: 1500"
    hello = next(stream)
    assert hello.startswith("event: hello") and data_of(hello) == {"session": 1}
    for seat, card in enumerate(["AS", "3S", "4S", "KS"]):
        assert client.post("/api/play", json={"seat": seat, "cards": [card]}).status_code == 201
    received = []
    for message in stream:
        event = data_of(message)
        if event is not None:
            received.append(event)
        if event and event["type"] == "trick-complete":
            break
    assert [e["type"] for e in received] == ["play-settled"] * 4 + ["trick-complete"]
    assert received[0] == received[0] | {"deal": 0, "trick": 0, "seat": 0, "cards": ["AS"]}
    # each game event says the table's state it was sent at (the session opened once, four plays since)
    assert received[-1] | {} == {"type": "trick-complete", "deal": 0, "trick": 0, "winner": 0, "points": 10,
                                 "version": [1, 4]}
    response.close()


def test_each_client_has_its_own_queue_and_keep_alives_flow_when_idle(app):
    client = app.test_client()
    client.post("/api/setup", json=SETUP)
    baseline = subscriber_count(app)
    first, second = client.get("/api/events"), client.get("/api/events")
    assert subscriber_count(app) == baseline + 2
    streams = [messages(first.response), messages(second.response)]
    for stream in streams:
        next(stream), next(stream)  # retry, hello
    assert next(streams[0]) == ": keep-alive"  # nothing happened for SSE_KEEPALIVE_S
    client.post("/api/play", json={"seat": 0, "cards": ["AS"]})
    for stream in streams:
        event = next(e for e in map(data_of, stream) if e is not None)
        assert event["type"] == "play-settled" and event["cards"] == ["AS"]
    first.close()
    second.close()
    assert subscriber_count(app) == baseline  # closed streams unsubscribe


def test_corrections_violations_and_session_switches_are_streamed(app):
    client = app.test_client()
    client.post("/api/setup", json=SETUP)
    response = client.get("/api/events")
    stream = messages(response.response)
    next(stream), next(stream)
    table = get_table(app)
    table.game.play(0, ["AS"], unconfirmed=[0])
    client.post("/api/confirm", json={"deal": 0, "trick": 0, "seat": 0, "index": 0})
    client.post("/api/setup", json=SETUP | {"new": True})
    types = []
    for message in stream:
        event = data_of(message)
        if event is not None:
            types.append(event["type"])
            if event["type"] == "state-changed" and event["reason"] == "session":
                break
    assert types[:2] == ["play-settled", "correction-applied"] and types[-1] == "state-changed"
    response.close()


def test_stream_ends_after_its_lifetime_and_a_publisher_never_blocks(app, tmp_path):
    app.config["SSE_LIFETIME_S"] = 0.3
    client = app.test_client()
    client.post("/api/setup", json=SETUP)
    response = client.get("/api/events")
    chunks = list(response.response)  # ends by itself
    assert any(b"keep-alive" in chunk for chunk in chunks)
    # A stalled client (nobody reading) must not block the game: its queue just fills up.
    stalled = client.get("/api/events")
    next(iter(stalled.response))
    done = threading.Event()

    def many_events() -> None:
        for number in range(1500):  # more than a client's queue holds
            get_table(app).bus.publish(StateChanged(reason=f"test {number}"))
        done.set()

    worker = threading.Thread(target=many_events)
    worker.start()
    worker.join(30)
    assert done.is_set()
    stalled.close()
