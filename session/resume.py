"""Resuming a game: whether a saved record or session and a new input (a set-up, a record, a
video's plays) are the same game, before anything is added to it."""

from __future__ import annotations

from collections import Counter
from typing import Any

from tuolaji import scorer
from tuolaji.scorer.errors import InputError
from tuolaji.scorer.messages import Message
from tuolaji.scorer.seats import seat_of


class ResumeMismatchError(InputError):
    """A resumed input (a video, a record) does not show the plays its record or session already holds:
    the record is of another game, and nothing is added to it."""


def play_matches(trick: dict[str, Any], position: int, seat: int, cards: list[str], players: int) -> bool:
    """Whether ``seat`` playing ``cards`` is the play at ``position`` of a recorded ``trick``: the same
    seat and number of cards, and the same cards but for those a person corrected or still has to
    confirm (the camera may read those differently again).

    >>> trick = {"leader": 1, "plays": [["AH", "KH"], ["3H", "4H"]], "corrections": [
    ...     {"seat": 2, "index": 0, "old": "5H", "new": "3H"}]}
    >>> play_matches(trick, 1, 2, ["5H", "4H"], 4), play_matches(trick, 0, 1, ["AH", "QH"], 4)
    (True, False)
    """
    if seat_of(trick["leader"], position, players) != seat:
        return False
    try:
        canonical = [scorer.format_card(scorer.parse_card(card)) for card in cards]
    except InputError:
        return False
    loose = sum(1 for who, _ in trick.get("unconfirmed", []) if who == seat)
    loose += sum(1 for fix in trick.get("corrections", []) if fix.get("seat") == seat)
    # a lead recorded with a failed throw was first seen as the throw (the attempt), then taken back
    shown_as = [trick["plays"][position]] + ([trick["attempt"]] if position == 0 and trick.get("attempt") else [])
    for recorded in shown_as:
        if len(recorded) == len(canonical) and len(canonical) - sum(
                (Counter(recorded) & Counter(canonical)).values()) <= loose:
            return True
    return False


def check_resumable(existing: dict[str, Any], incoming: dict[str, Any], where: str, *, setup: bool = False) -> None:
    """Refuse to continue ``existing`` (a saved record or session) with ``incoming`` (a set-up or a
    record) unless it is the same game: the same rules and players, and every deal it holds set
    up alike (level, trump, dealer); a record's plays must also start with the plays it holds.
    ``setup``: ``incoming`` is a set-up that may hold the deal so far (the tricks before its video
    starts): ``existing`` must start with those, and may hold more (what the video showed).

    >>> setup = {"rules": "single-deck", "players": ["a", "b", "c", "d"],
    ...          "deals": [{"level": "2", "trump": "S", "dealer": 0, "tricks": []}]}
    >>> check_resumable(setup, setup, "out.json")
    >>> played = setup | {"deals": [{"level": "2", "trump": "S", "dealer": 0, "tricks": [
    ...     {"leader": 0, "plays": [["AS"]]}]}]}
    >>> check_resumable(played, setup | {"deals": [{"level": "3", "trump": "S", "dealer": 0}]}, "out.json")
    Traceback (most recent call last):
    ...
    tuolaji.session.resume.ResumeMismatchError: out.json: holds another game (deals[0]: level 2, trump S, dealer 0; the input: level 3, trump S, dealer 0); nothing was changed: choose another file or session
    >>> so_far = played | {"deals": [played["deals"][0] | {"tricks": played["deals"][0]["tricks"] * 0}]}
    >>> check_resumable(played, played, "out.json", setup=True)
    >>> check_resumable(so_far, played, "out.json", setup=True)
    Traceback (most recent call last):
    ...
    tuolaji.session.resume.ResumeMismatchError: out.json: holds another game (deals[0] holds 0 tricks, the deal so far 1); nothing was changed: choose another file or session
    """
    def refuse(key: str, **params: Any) -> ResumeMismatchError:
        return ResumeMismatchError("session.another_game", where=where, why=Message(key, params))

    if existing.get("rules") != incoming.get("rules") or existing.get("players") != incoming.get("players"):
        raise refuse("resume.players_or_rules")
    have, want = existing.get("deals", []), incoming.get("deals", [])
    if len(have) > max(len(want), 1):
        raise refuse("resume.deals", have=len(have), want=len(want))
    for index, (old, new) in enumerate(zip(have, want, strict=False)):
        setup_old = tuple(old.get(key) for key in ("level", "trump", "dealer"))
        setup_new = tuple(new.get(key) for key in ("level", "trump", "dealer"))
        if setup_old != setup_new and old.get("tricks"):
            raise refuse("resume.setup", deal=index, have=setup_old, want=setup_new)
        players = len(existing.get("players") or []) or 4
        new_tricks = new.get("tricks") or []
        if not new_tricks:
            continue  # a set-up: its plays are checked as the input shows them again
        old_tricks = old.get("tricks") or []
        if setup and len(old_tricks) < len(new_tricks):
            raise refuse("resume.tricks", deal=index, have=len(old_tricks), want=len(new_tricks))
        for t, trick in enumerate(old_tricks):
            if setup and t >= len(new_tricks):
                break  # beyond the deal so far: the video shows them again
            if t >= len(new_tricks) or new_tricks[t].get("leader") != trick.get("leader"):
                raise refuse("resume.trick_missing", deal=index, trick=t)
            for position, cards in enumerate(trick.get("plays", [])):
                other = new_tricks[t].get("plays", [])
                seat = seat_of(trick["leader"], position, players)
                if position >= len(other) or not play_matches(trick, position, seat, other[position], players):
                    raise refuse("resume.play", deal=index, trick=t, seat=seat, cards=tuple(cards))
