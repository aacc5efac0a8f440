"""One server process's ear on the club's database: ``LISTEN`` on the changes' channel, relayed
to this process's open pages (their event streams).

PostgreSQL delivers each ``NOTIFY`` at its transaction's commit, in commit order, to every
process listening: a change applied through any server process reaches the pages of all of
them, in order per table. When the database goes away the listener says so to the pages
(``{"database": "down"}``), tries again every second, and says ``{"database": "up"}`` when it is
back (the pages then read the room afresh: nothing they missed is lost).
"""

from __future__ import annotations

import json
import logging
import queue
import threading
from typing import Any

import psycopg

from .database import CHANNEL

log = logging.getLogger("tuolaji.club")

QUEUE_SIZE = 1000
"""Events kept for a page that reads slowly; past it, the page is told to read the room afresh."""


class Listener:
    """A background thread that relays the club's notifications to subscribers' queues."""

    def __init__(self, dsn: str, *, retry_s: float = 1.0) -> None:
        self.dsn = dsn
        self.retry_s = retry_s
        self.up = False
        self._subscribers: set[queue.Queue[dict[str, Any]]] = set()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tuolaji-club-listen", daemon=True)

    def start(self, wait_s: float = 5.0) -> None:
        self._thread.start()
        self._ready.wait(wait_s)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5.0)

    def subscribe(self) -> queue.Queue[dict[str, Any]]:
        q: queue.Queue[dict[str, Any]] = queue.Queue(QUEUE_SIZE)
        with self._lock:
            self._subscribers.add(q)
        return q

    def unsubscribe(self, q: queue.Queue[dict[str, Any]]) -> None:
        with self._lock:
            self._subscribers.discard(q)

    def publish(self, event: dict[str, Any]) -> None:
        with self._lock:
            subscribers = list(self._subscribers)
        for q in subscribers:
            try:
                q.put_nowait(event)
            except queue.Full:  # a page that stopped reading: it reads the room afresh when it catches up
                with q.mutex:
                    q.queue.clear()
                q.put_nowait({"resync": True})

    def _run(self) -> None:
        was_up: bool | None = None
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.dsn, autocommit=True, connect_timeout=3) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    self.up = True
                    self._ready.set()
                    if was_up is False:
                        log.warning("the club database is back")
                        self.publish({"database": "up"})
                    was_up = True
                    while not self._stop.is_set():
                        for notice in connection.notifies(timeout=0.5):
                            try:
                                event = json.loads(notice.payload)
                            except ValueError:
                                continue
                            self.publish(event)
                        connection.execute("SELECT 1")  # notices a dead server between notifications
            except psycopg.Error as exc:
                self.up = False
                self._ready.set()
                if was_up is not False:
                    log.warning("the club database is unavailable (%s); tables keep playing and catch up",
                                str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__)
                    self.publish({"database": "down"})
                was_up = False
                self._stop.wait(self.retry_s)
