"""The club's gunicorn worker (``tuolaji club --workers N``): gunicorn's threaded worker, which lets
the other workers take a new connection first while its own event streams are all taken.

Every worker waits on the one listening socket and the quickest takes each connection. A worker
whose streams are all taken (its :class:`~web.server.StreamGate`, :data:`club.app.WORKER_GATE`)
would take the next page's stream only to refuse it, however much room the others have. So a worker
waits before taking a connection, the longer the more streams it holds (up to :data:`YIELD_S` when
they are all taken): the least busy worker takes it first, and a full one takes it only when none
other did (a request that is no stream, or every worker full).
"""

from __future__ import annotations

import time
from typing import Any

from gunicorn.workers.gthread import ThreadWorker

from . import app

YIELD_S = 0.02
"""How long a worker with its streams all taken lets the others take a new connection first."""


class ClubWorker(ThreadWorker):
    def accept(self, listener: Any) -> None:
        gate = app.WORKER_GATE
        if gate is not None and gate.open:  # the busier, the later: the least busy worker takes it first
            time.sleep(YIELD_S * min(1.0, gate.open / max(1, gate.limit)))
        super().accept(listener)
