"""The table the page shows: the current session's live game, and what feeds it plays.

A :class:`Table` owns one :class:`~session.events.EventBus` for the server's lifetime:
the page subscribes to it once and keeps receiving the events of whichever session is
current when another one is resumed. Each session's :class:`~session.live.LiveGame` has a
bus of its own; its events save that session to the :class:`~web.store.SessionStore` and
reach the table's bus only while it is the current session.

A feed belongs to the session it was started for (:meth:`Table.session_game`): a demo,
a replayed record or a camera never writes into another session that a person set up or
resumed meanwhile. Feeds put plays into their game from a background thread:
:class:`RecordFeed` replays a record's tricks at a pace (a stored session, a
``tuolaji replay`` output, tests), :class:`PipelineFeed` runs the camera pipeline on
a webcam or a video file, and :class:`DemoFeed` on the bundled demo, which then turns the
kitty up and starts the next deal as a person would on the page.

>>> import tempfile, pathlib
>>> from tuolaji.web.store import SessionStore
>>> table = Table(SessionStore(pathlib.Path(tempfile.mkdtemp()) / "t.sqlite"))
>>> table.has_game
False
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import functools
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from typing import Any, cast

from tuolaji import scorer
from tuolaji.scorer.errors import InputError
from tuolaji.scorer.record_types import is_points_trick
from tuolaji.scorer.seats import seat_of
from tuolaji.session.changes import rules_record
from tuolaji.session.events import Event, EventBus, StateChanged
from tuolaji.session.journal import Change
from tuolaji.session.live import LiveGame, NotSavedError, ResumeMismatchError, play_matches

from .store import Session, SessionStore


class NoGameError(InputError):
    """The page asked for the live game but no session is open (set up a table first)."""


class Table:
    """The current session and its live game; saved to the store after every change."""

    def __init__(self, store: SessionStore) -> None:
        self.store = store
        self.bus = EventBus()
        self._lock = threading.RLock()
        self._session: Session | None = None
        self._game: LiveGame | None = None
        self.feed: Feed | None = None
        self.club: Any = None  # the club's pusher (tuolaji serve --club: club.outbox.ClubPusher)
        self._games: dict[int, LiveGame] = {}  # every session a feed or the page has open, by id
        self._opened = 0  # how many times a session was opened or closed: with the game's version, what a state is of
        self.on_delete: list[Callable[[int], None]] = []  # called with the id of each session purged from the bin
        # called with each saved change of a session (its id, the change, the record after it): the club's outbox
        self.on_saved: list[Callable[[int, Change, dict[str, Any]], None]] = []

    @property
    def has_game(self) -> bool:
        return self._game is not None

    @property
    def game(self) -> LiveGame:
        """The live game. Read without the table's lock (a reader never waits for a write and its
        audit); changes go through :meth:`writing`."""
        game = self._game
        if game is None:
            raise NoGameError("table.no_game")
        return game

    @property
    def session(self) -> Session | None:
        return self._session

    @property
    def state_version(self) -> tuple[int, int] | None:
        """Which state of the table the page holds (None without a game): the session opened, and the
        changes of its game since. A later state has the same first part and a larger second one, or
        another first part; each state payload and each game event say theirs, so that a page holding
        a change's answer need not fetch the state again when the change's events arrive."""
        game = self._game
        return (self._opened, game.version) if game is not None else None

    @property
    def session_id(self) -> int | None:
        return self._session.id if self._session is not None else None

    def current(self) -> CurrentGame:
        """A stand-in for "whatever game is current" (the page's writes; never a feed's)."""
        return CurrentGame(self)

    def session_game(self, session_id: int | None = None) -> SessionGame:
        """The game of one session (default: the current one), for a feed: its writes go to that
        session whichever session the page shows meanwhile."""
        session_id = self.session_id if session_id is None else session_id
        if session_id is None:
            raise NoGameError("table.no_game")
        return SessionGame(self, session_id)

    def game_of(self, session_id: int) -> LiveGame:
        """The live game of a stored session (loaded once, then kept while the server runs)."""
        with self._lock:
            game = self._games.get(session_id)
            if game is None:
                game = self._load(session_id)
            return game

    def fed_session(self) -> int | None:
        """The session the running feed writes into, None without a feed."""
        return self.feed.session_id if self.feed is not None else None

    def _load(self, session_id: int) -> LiveGame:
        session = self.store.get(session_id)
        bus = EventBus()
        game = LiveGame(session.record, bus=bus, saver=functools.partial(self._save, session_id))
        bus.subscribe(functools.partial(self._on_event, session_id))
        self._games[session_id] = game
        return game

    @contextlib.contextmanager
    def writing(self) -> Iterator[LiveGame]:
        """The current game, held for one change: the change is applied to the game that is
        current and saved before any other change, resume or close (no acknowledged change
        lands on a game that was just replaced)."""
        with self._lock:
            yield self.game

    @contextlib.contextmanager
    def writing_or_none(self) -> Iterator[LiveGame | None]:
        """Like :meth:`writing`, None when no session is open."""
        with self._lock:
            yield self._game

    def open(self, session_id: int) -> None:
        """Make a stored session the live one (resume it). Under the table's lock: a change in
        flight is saved first, so the session is read with it."""
        with self._lock:
            session = self.store.get(session_id)
            fed = self.feed is not None and self.feed.running and self.feed.session_id == session_id
            # a session a feed is writing into keeps its game (the feed holds it); others are read afresh
            game = self._games[session_id] if fed and session_id in self._games else self._load(session_id)
            self._session = session
            self._game = game
            self._opened += 1
            self.bus.publish(StateChanged(reason="session"))

    def start(self, record: dict[str, Any], *, name: str, source: str) -> int:
        """Store a new session with ``record`` and make it the live one."""
        scorer.validate_record(rules_record(record))
        session_id = self.store.create(record, name=name, source=source)
        self.open(session_id)
        return session_id

    def close(self) -> None:
        """Forget the live session (it stays stored)."""
        with self._lock:
            self._session = None
            self._game = None
            self._opened += 1
            self.bus.publish(StateChanged(reason="session"))

    def delete(self, session_id: int) -> None:
        """Move a stored session to the bin (closing it if it is the live one); a feed writing
        into it then fails (no such session). Nothing changes when the store cannot write."""
        with self._lock:
            self.store.delete(session_id)
            if self.session_id == session_id:
                self.close()
            self._games.pop(session_id, None)
        self.purge_bin()

    def restore(self, session_id: int) -> None:
        """Take a session out of the bin (it is listed again, and may be resumed)."""
        self.store.restore(session_id)

    def purge_bin(self, *, older_than_s: float | None = None) -> list[int]:
        """Remove for good the sessions in the bin for longer than :data:`web.store.BIN_DAYS` (or
        ``older_than_s``), and what is kept beside them (their pictures)."""
        try:
            purged = self.store.purge() if older_than_s is None else self.store.purge(older_than_s=older_than_s)
        except NotSavedError:
            return []  # a full disk or a locked database: the bin is emptied at a later listing (logged)
        for session_id in purged:
            for forget in self.on_delete:
                forget(session_id)
        return purged

    def stop_feed(self, timeout: float = 5.0) -> None:
        if self.feed is not None:
            self.feed.stop(timeout)

    def _save(self, session_id: int, change: Change, before: dict[str, Any], after: dict[str, Any]) -> None:
        """Save one change of a session's game before it is made (:meth:`LiveGame.apply`): the
        record, and the history entries added since ``before`` (the rest are stored already); then
        hand the change to :attr:`on_saved` (the club's outbox)."""
        old, new = before.get("history") or [], after.get("history") or []
        extends = isinstance(old, list) and isinstance(new, list) and len(new) >= len(old) and (
            not old or new[len(old) - 1] is old[-1])
        saved = self.store.save(session_id, after, history_stored=len(old) if extends else None)
        with self._lock:
            if self._session is not None and self._session.id == session_id:
                # the live session's summary (deals, tricks, updated) follows what was saved
                self._session = dataclasses.replace(self._session, record=after, updated=saved)
        for listener in list(self.on_saved):
            listener(session_id, change, after)

    def _on_event(self, session_id: int, event: Event) -> None:
        """An event of one session's game (saved already): passed on to the page if it is current."""
        with self._lock:
            game = self._games.get(session_id)
            current = game is not None and self._session is not None and self._session.id == session_id and (
                self._game is game)
        if current:
            self.bus.publish(event)


class CurrentGame:
    """Forwards every attribute to the table's current game at the moment of use."""

    def __init__(self, table: Table) -> None:
        self._table = table

    _WRITES = frozenset({"apply", "play", "correct", "confirm", "revise_play", "replace_play", "doubt_play", "miss_play",
                         "enter_play", "bid", "withdraw_bid", "edit_deal", "set_kitty", "set_kitty_points", "play_points",
                         "settle_points", "concede", "mark_complete", "rule", "remove_ruling", "new_deal", "next_deal", "undo",
                         "redo", "import_record"})
    """The live game's commands: made under the table's lock."""

    def __getattr__(self, name: str) -> Any:
        if name in CurrentGame._WRITES:
            def locked(*args: Any, **kwargs: Any) -> Any:
                with self._table.writing() as game:
                    return getattr(game, name)(*args, **kwargs)

            return locked
        return getattr(self._table.game, name)


class SessionGame:
    """Forwards every attribute to one session's game; its writes are held under the table's lock."""

    _WRITES = CurrentGame._WRITES

    def __init__(self, table: Table, session_id: int) -> None:
        self._table = table
        self.session_id = session_id

    def __getattr__(self, name: str) -> Any:
        if name in SessionGame._WRITES:
            def locked(*args: Any, **kwargs: Any) -> Any:
                with self._table._lock:
                    return getattr(self._table.game_of(self.session_id), name)(*args, **kwargs)

            return locked
        return getattr(self._table.game_of(self.session_id), name)


class Feed:
    """Plays coming from somewhere, in a background thread; :meth:`status` for the page.

    ``session_id``: the session it writes into (None: a bare game, in tests)."""

    kind = "feed"
    session_id: int | None = None
    source: str = ""  # the session's source: demo, camera, video, record

    def __init__(self) -> None:
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.error: str | None = None
        self.finished = False
        self.detail = ""
        self.table: Table | None = None  # the page's table: told when the feed ends (演示结束, 输入结束)

    def start(self) -> Feed:
        self._thread = threading.Thread(target=self._run_guarded, name=f"tuolaji-{self.kind}", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    def join(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def status(self) -> dict[str, Any]:
        return {"kind": self.kind, "running": self.running and not self.finished, "finished": self.finished,
                "error": self.error,
                "detail": self.detail, "session": self.session_id, "source": self.source, "warning": None}

    def _run_guarded(self) -> None:
        try:
            self.run()
        except InputError as exc:
            self.error = str(exc)
        except Exception as exc:  # noqa: BLE001 - a feed thread must report, not vanish
            self.error = f"{type(exc).__name__}: {exc}"
            traceback.print_exc()
        finally:
            self.finished = True
            if self.table is not None:  # the page reloads its state: the feed's end shows at once
                self.table.bus.publish(StateChanged(reason="feed-finished"))

    def run(self) -> None:
        raise NotImplementedError


def deal_setup(deal: dict[str, Any]) -> dict[str, Any]:
    """What is known of a deal before its first trick: no tricks, kitty or completion.

    Recorded hands stay: the page then shows what the seat to play must play.

    >>> deal_setup({"level": "2", "trump": "S", "dealer": 0, "kitty": ["5S"], "tricks": [{}]})
    {'level': '2', 'trump': 'S', 'dealer': 0, 'tricks': []}
    >>> deal_setup({"level": "2", "trump": "S", "dealer": 0, "hands": [["5S"]], "tricks": []})["hands"]
    [['5S']]
    """
    setup = {key: copy.deepcopy(value) for key, value in deal.items()
             if key not in ("tricks", "kitty", "complete", "pictures",  # pictures: of another session's plays
                            "kitty_points", "defender_points", "last_trick", "agreed", "conceded")}  # 只记分: the deal's end
    setup["tricks"] = []
    return setup


def record_setup(record: dict[str, Any]) -> dict[str, Any]:
    """The record as it stands before the first play: its first deal's set-up only."""
    result = {key: copy.deepcopy(value) for key, value in record.items() if key != "deals"}
    result["deals"] = [deal_setup(record["deals"][0])] if record.get("deals") else []
    return result


def _steps(deal: dict[str, Any]) -> int:
    """A deal's steps in a record feed: its plays, a trick by points one, a deal by its points one."""
    if deal.get("defender_points") is not None:
        return 1
    return sum(len(trick.get("plays", [])) or int(is_points_trick(trick)) for trick in deal.get("tricks", []))


class RecordFeed(Feed):
    """Replays a record's plays into the current game, one play every ``pace_s`` seconds.

    Plays the game already holds are skipped, so a resumed session continues where it
    stopped. At the end of each deal the kitty is revealed and a complete deal is
    marked complete, so the page shows the kitty, its multiplier and the outcome.
    """

    kind = "record"

    def __init__(self, table: Table | CurrentGame | LiveGame, record: dict[str, Any], *, pace_s: float = 1.0,
                 on_play: Callable[[int], None] | None = None) -> None:
        super().__init__()
        scorer.validate_record(rules_record(record))
        if isinstance(table, Table):
            self.table = table
            self.game: Any = table.session_game()
            self.session_id = self.game.session_id
            self.source = table.session.source if table.session is not None else "record"
        else:
            self.game = table
        self.record = copy.deepcopy(record)
        self.pace_s = pace_s
        self.on_play = on_play
        self.total_plays = sum(_steps(deal) for deal in record["deals"])
        self.played = 0

    def run(self) -> None:
        players = len(self.record["players"])
        source_audit = scorer.audit_record(rules_record(self.record))
        for deal_index, deal in enumerate(self.record["deals"]):
            have = self.game.snapshot()["deals"]
            if deal_index >= len(have):
                if self._stop.wait(self.pace_s):
                    return
                self.game.new_deal(deal_setup(deal))
                have = self.game.snapshot()["deals"]
            have_tricks = have[deal_index].get("tricks", [])
            if not self._points(deal_index, deal, have[deal_index]):
                return
            for trick_index, trick in enumerate(deal.get("tricks", [])):
                if is_points_trick(trick):  # 只记分: one step, its winner and points
                    self.played += 1
                    if trick_index < len(have_tricks):
                        continue
                    if self._stop.wait(self.pace_s):
                        return
                    self.game.play_points(trick["winner"], trick["points"], unit=trick.get("unit"),
                                          trump=trick.get("trump", True) is not False, leader=trick.get("leader"))
                    self.detail = f"{self.played}/{self.total_plays}"
                    continue
                for position, cards in enumerate(trick["plays"]):
                    self.played += 1
                    if trick_index < len(have_tricks) and position < len(have_tricks[trick_index]["plays"]):
                        seat = seat_of(trick["leader"], position, players)
                        if not play_matches(have_tricks[trick_index], position, seat, cards, players):
                            raise ResumeMismatchError("table.feed_mismatch", deal=deal_index, trick=trick_index,
                                                      seat=seat)
                        continue
                    if self._stop.wait(self.pace_s):
                        return
                    seat = seat_of(trick["leader"], position, players)
                    unconfirmed = [index for who, index in trick.get("unconfirmed", []) if who == seat]
                    self.game.play(seat, cards, attempt=trick.get("attempt") if position == 0 else None,
                                   unconfirmed=unconfirmed)
                    self.detail = f"{self.played}/{self.total_plays}"
                    if self.on_play is not None:
                        self.on_play(self.played)
            self._finish_deal(deal_index, deal, source_audit["deals"][deal_index])

    def _points(self, deal_index: int, deal: dict[str, Any], have: dict[str, Any]) -> bool:
        """A deal kept by points (只记分): its tricks by points in their turn, or the whole deal by the
        defenders' points, into the game (cards' tricks are :meth:`run`'s); False once stopped."""
        if deal.get("defender_points") is not None:
            self.played += 1
            if have.get("defender_points") is None:
                if self._stop.wait(self.pace_s):
                    return False
                last = deal["last_trick"]
                self.game.settle_points(deal["defender_points"], last["winner"], last.get("unit", 1),
                                        trump=last.get("trump", True) is not False, agreed=deal.get("agreed") is True,
                                        kitty_points=deal.get("kitty_points"))
        return True

    def _finish_deal(self, deal_index: int, deal: dict[str, Any], deal_audit: dict[str, Any]) -> None:
        target = self.game.snapshot()["deals"][deal_index]
        kitty = "kitty" in deal and target.get("kitty") != deal["kitty"]
        conceded = deal.get("conceded")  # 认输: the deal ends by its concession, not marked complete
        complete = (deal_audit.get("outcome") is not None and not target.get("complete") and target.get("defender_points") is None
                    and conceded is None)
        if conceded is not None and target.get("conceded") is None:
            if self._stop.wait(self.pace_s):
                return
            self.game.concede(conceded["by"], conceded.get("points"))
        if kitty or complete:
            if self._stop.wait(self.pace_s):
                return
            if kitty:
                self.game.set_kitty(deal_index, list(deal["kitty"]))
            if complete:
                self.game.mark_complete(deal_index)
        if "kitty" not in deal and deal.get("kitty_points") is not None and target.get("kitty_points") != deal["kitty_points"]:
            self.game.set_kitty_points(deal_index, deal["kitty_points"])  # 只记分: the kitty by its points


class PipelineFeed(Feed):
    """The camera pipeline on a webcam index, a video file or the bundled demo video."""

    kind = "pipeline"

    def __init__(self, table: Table, source: Any, *, speed: float | None = 1.0, reader: Any = None,
                 replay_from_start: bool = False, pipeline_options: dict[str, Any] | None = None) -> None:
        super().__init__()
        from tuolaji.vision.pipeline import TablePipeline, open_source

        # a missing camera or a bad video fails here, before the server starts
        self.frame_source = open_source(source) if isinstance(source, str | int) else source
        game = table.session_game()
        self.table: Table = table
        self.game: Any = game
        self.session_id = game.session_id
        self.source = table.session.source if table.session is not None else "camera"
        # the session's game through its stand-in (every attribute of the LiveGame, writes under the table's lock)
        self.pipeline = TablePipeline(cast(LiveGame, game), reader=reader, replay_from_start=replay_from_start,
                                      **(pipeline_options or {}))
        self.speed = speed
        self.started_at: float | None = None
        self._warned: str | None = None  # the reader's warning the page was last told of

    def status(self) -> dict[str, Any]:
        """As :meth:`Feed.status`, with what the reader warns of (``warning``: ``"unreadable"`` while cards
        lie on the table and no corner of theirs is read, :attr:`TablePipeline.reader_warning`)."""
        return super().status() | {"warning": self.pipeline.reader_warning}

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        interrupt = getattr(self.frame_source, "interrupt", None)
        if callable(interrupt):
            interrupt()  # a phone's stream waiting to reconnect stops waiting
        super().stop(timeout)

    def run(self) -> None:
        self.started_at = time.time()
        with self.frame_source:
            frames = self.frame_source
            if self.speed is not None and not self.frame_source.live:
                frames = PacedFrames(self.frame_source, self.speed, self._stop)
            self.pipeline.run(frames, realtime=False, stop=self._stop, progress=self._progress)

    def _progress(self, index: int, count: int | None) -> None:
        warning = self.pipeline.reader_warning
        if warning != self._warned:  # nothing may be recorded for a while: the page is told to fetch the state
            self._warned = warning
            self.table.bus.publish(StateChanged(reason="feed-warning"))
        seconds = index / self.frame_source.fps if self.frame_source.fps else 0.0
        self.detail = f"{seconds:.0f} s" + (f" / {count / self.frame_source.fps:.0f} s" if count and self.frame_source.fps
                                           else "")


class DemoFeed(PipelineFeed):
    """The bundled demo: its video through the camera pipeline, then what the table does once the
    deal's last trick is swept, as a person would on the page: the kitty turned up, so that the
    page shows the settlement (抠底 ×N, the totals and the level change); the demo ends there (the
    page says 演示结束) on the settled deal, not on an empty next one.

    ``finale``: ``{"kitty": cards}``; ``pause_s``: the seconds before the kitty, at real-time speed
    (shorter as the video plays faster). Nothing is done if the video did not end the deal (a
    trick missed: the page shows what is missing).
    """

    def __init__(self, table: Table, source: Any, *, finale: dict[str, Any],
                 pause_s: float = 3.0, **options: Any) -> None:
        super().__init__(table, source, **options)
        self.finale = copy.deepcopy(finale)
        speed = self.speed if self.speed is not None else 20.0
        self.pause_s = pause_s / speed

    def run(self) -> None:
        super().run()
        if self._stop.is_set() or self._stop.wait(self.pause_s):
            return
        self._change(self._kitty)

    def _change(self, make: Callable[[LiveGame], object]) -> bool:
        """One change of the demo's session, a command of its game kept in its history as the page makes it."""
        from . import dealing

        with self.table._lock:
            game = self.table.game_of(self.session_id) if self.session_id is not None else None
            if game is None:
                return False
            try:
                make(game)
            except dealing.RefusedError:
                return False
        return True

    def _kitty(self, game: LiveGame) -> None:
        from . import dealing

        record, audit = game.current()
        deal_index = len(record["deals"]) - 1
        if len(audit["deals"]) > 1 or audit["deals"][deal_index].get("outcome") is None:
            raise dealing.RefusedError("demo.not_ended")
        if dealing.settle_ready(record, deal_index):
            return  # done already (a resumed demo session)
        game.set_kitty(deal_index, list(self.finale["kitty"]), history=True)


class PacedFrames:
    """A video's frames, handed out at ``speed`` times their real-time rate (1.0: as a camera would)."""

    def __init__(self, source: Any, speed: float, stop: threading.Event | None = None) -> None:
        if speed <= 0:
            raise InputError("table.speed", speed=speed)
        self.source = source
        self.speed = speed
        self.stop = stop if stop is not None else threading.Event()
        self.fps = source.fps
        self.frame_count = source.frame_count
        self.live = False

    def __iter__(self) -> Any:
        start = time.monotonic()
        for frame in self.source:
            delay = start + frame.time_s / self.speed - time.monotonic()
            if delay > 0 and self.stop.wait(delay):
                return
            yield frame
