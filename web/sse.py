"""Server-sent event streams: the one loop every stream of the page and of the club runs.

A stream opens with its ``retry`` and its hello, then sends each event of its queue as one JSON
line (numbered with ``id:`` where asked), a comment line as keep-alive when nothing happened for
``keepalive_s``, and ends after ``lifetime_s`` (the client reconnects); ``close`` runs when it
ends, however it ends.

>>> import queue
>>> events = queue.Queue()
>>> events.put({"type": "play"})
>>> lines = event_lines(lambda timeout: events.get(timeout=timeout), close=lambda: None,
...                     hello={"session": 1}, keepalive_s=0.01, lifetime_s=0.05)
>>> [next(lines) for _ in range(4)]
['retry: 1500\\n\\n', 'event: hello\\ndata: {"session": 1}\\n\\n', 'id: 1\\ndata: {"type": "play"}\\n\\n', ': keep-alive\\n\\n']
"""

from __future__ import annotations

import json
import queue
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import Response

SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def event_lines(next_event: Callable[[float], Any], *, close: Callable[[], None], hello: dict[str, Any],
                keepalive_s: float, lifetime_s: float | None, message: Callable[[Any], Any] = lambda e: e,
                retry_ms: int = 1500, numbered: bool = True, hello_event: bool = True) -> Iterator[str]:
    """The stream's text, chunk by chunk. ``next_event(timeout)`` gives the next event or raises
    :class:`queue.Empty`; ``message(event)`` is what is sent of it (None: nothing)."""
    started = time.monotonic()
    number = 0
    try:
        yield f"retry: {retry_ms}\n\n"
        yield ("event: hello\n" if hello_event else "") + f"data: {json.dumps(hello, ensure_ascii=False)}\n\n"
        while lifetime_s is None or time.monotonic() - started < float(lifetime_s):
            try:
                event = next_event(keepalive_s)
            except queue.Empty:
                yield ": keep-alive\n\n"
                continue
            sent = message(event)
            if sent is None:
                continue
            number += 1
            head = f"id: {number}\n" if numbered else ""
            yield f"{head}data: {json.dumps(sent, ensure_ascii=False)}\n\n"
    finally:
        close()


def event_stream(next_event: Callable[[float], Any], **options: Any) -> Response:
    """:func:`event_lines` as a streamed ``text/event-stream`` response."""
    return Response(event_lines(next_event, **options), mimetype="text/event-stream", headers=SSE_HEADERS)
