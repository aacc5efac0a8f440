"""Points, the kitty multiplier, level outcomes and dealer rotation (RULES §7, §8).

>>> from tuolaji.scorer.profiles import PROFILES
>>> opts = PROFILES["standard-2deck"]
>>> [level_outcome(opts, 4, p) for p in (0, 35, 40, 80, 125, 160)]
[('dealer', 3), ('dealer', 2), ('dealer', 1), ('defenders', 0), ('defenders', 1), ('defenders', 2)]
>>> kitty_multiplier(opts, 4, trump_win=True), kitty_multiplier(PROFILES["guangzhou-3deck"], 2, trump_win=False)
(8, 1)
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from .cards import RANKS
from .profiles import JACK, Options
from .seats import seat_of


def kitty_multiplier(options: Options, largest_unit: int, trump_win: bool) -> int:
    """Multiplier of the kitty for a last trick won by a format whose largest unit has
    ``largest_unit`` cards (``unit``: 2×, ``power``: 2^n, ``per-card:K``: K×, ``fixed:K``:
    K); ×1 for a plain-suit win under ``kitty_needs_trump``. Seed 001's 「以扣底牌的3倍计」
    is ``per-card:3``: single ×3, pair ×6, triple ×9.

    >>> from tuolaji.scorer.profiles import resolve_rules
    >>> [kitty_multiplier(resolve_rules({"profile": "standard-2deck", "kitty_multiplier": m}), 3, True)
    ...  for m in ("unit", "power", "per-card:3", "fixed:3")]
    [6, 8, 9, 3]
    """
    if options.kitty_needs_trump and not trump_win:
        return 1
    mode = options.kitty_multiplier
    if mode == "unit":
        return 2 * largest_unit
    if mode == "power":
        return int(2**largest_unit)
    k = int(mode.split(":", 1)[1])
    return k * largest_unit if mode.startswith("per-card:") else k


def is_unit_size(cards: int, decks: int) -> bool:
    """Whether a unit of ``decks`` decks can have ``cards`` cards: a single or a tuple of at most
    ``decks`` copies, or a tractor of two or more tuples of 2..``decks`` copies (what a last
    trick recorded by points may name as its winning unit, RULES §7).

    >>> [c for c in range(1, 10) if is_unit_size(c, 2)], [c for c in range(1, 10) if is_unit_size(c, 3)]
    ([1, 2, 4, 6, 8], [1, 2, 3, 4, 6, 8, 9])
    >>> is_unit_size(2, 1)
    False
    """
    if 1 <= cards <= decks:
        return True
    return any(cards % width == 0 and cards // width >= 2 for width in range(2, decks + 1))


def defenders_trick_points(audited_tricks: Iterable[Mapping[str, Any]], dealer_side: Collection[int]) -> int:
    """The points of the audited tricks (the audit output's ``tricks``, cards or points alone) won
    off the dealer's side: the defenders' points so far, the kitty and penalties aside (RULES §8).

    >>> defenders_trick_points([{"winner": 1, "points": 20}, {"winner": 0, "points": 10},
    ...                         {"winner": None, "points": 5}, {"winner": 3}], dealer_side=[0, 2])
    20
    """
    return sum(int(trick.get("points") or 0) for trick in audited_tricks
               if trick.get("winner") is not None and trick["winner"] not in dealer_side)


POINTS_PER_DECK = 100
"""The card points in one deck: four 5s, four 10s, four Ks (RULES §8)."""


def points_still_out(audited_tricks: Iterable[Mapping[str, Any]], decks: int) -> int:
    """The card points no trick has taken yet (剩余分): in the players' hands and the kitty. Every
    trick won counts, cards or points alone, whoever won it.

    >>> points_still_out([{"winner": 1, "points": 20}, {"winner": 0, "points": 10}, {"winner": None, "points": 5}], 3)
    270
    """
    taken = sum(int(trick.get("points") or 0) for trick in audited_tricks if trick.get("winner") is not None)
    return max(0, POINTS_PER_DECK * decks - taken)


def points_to_take_over(threshold: int, defender_points: int) -> int:
    """How many more points the defenders need to take over (还差 N 分上台); 0 once they have them.

    >>> points_to_take_over(80, 45), points_to_take_over(80, 95)
    (35, 0)
    """
    return max(0, threshold - defender_points)


def defender_seats(dealer: int, dealer_side: Collection[int], players: int) -> list[int]:
    """The seats off the dealer's side, in playing order from the dealer's left.

    >>> defender_seats(1, {1, 3}, 4), defender_seats(3, {3, 0}, 5)
    ([2, 0], [4, 1, 2])
    """
    return [seat for seat in (seat_of(dealer, k, players) for k in range(1, players)) if seat not in dealer_side]


def level_outcome(options: Options, players: int, points: int) -> tuple[str, int]:
    """(side that goes up, levels) for the defenders' final points.

    p ≥ T: defenders take over and go up ⌊(p − T)/s⌋; 0 < p < T: the dealer's side goes
    up ⌈(T − p)/s⌉; p ≤ 0 (大光, also after penalties): one more than at 1 point.
    ``max_levels`` caps the count.

    >>> from tuolaji.scorer.profiles import PROFILES
    >>> [level_outcome(PROFILES["guangzhou-3deck"], 4, p)[1] for p in (0, 30, 70, 110, 120, 160, 240)]
    [4, 3, 2, 1, 0, 1, 3]
    """
    threshold = options.threshold_for(players)
    step = options.step_for(players)
    if points >= threshold:
        side, levels = "defenders", (points - threshold) // step
    elif points > 0:
        side, levels = "dealer", math.ceil((threshold - points) / step)
    else:
        side, levels = "dealer", math.ceil(threshold / step) + 1
    if options.max_levels is not None:
        levels = min(levels, options.max_levels)
    return side, levels


def concession_points(options: Options, players: int, conceded_by: str) -> int:
    """The defenders' points a concession (认输, ``conceded_by`` "dealer" or "defenders") counts as
    when the table agrees none: the house's fixed cost (``concede``). ``take-over``: a conceding
    dealer's side steps down and the defenders take the stage without a level (T); conceding
    defenders give the dealer's side one level (T − s, at least 5). ``one-level``: the other side
    goes up one level (T + s, or T − s). The rules say nothing of conceding (RULES.md, the seeds):
    this is what a table expects, and agreed points replace it.

    >>> from tuolaji.scorer.profiles import PROFILES, resolve_rules
    >>> opts = PROFILES["standard-2deck"]
    >>> [level_outcome(opts, 4, concession_points(opts, 4, by)) for by in ("dealer", "defenders")]
    [('defenders', 0), ('dealer', 1)]
    >>> one = resolve_rules({"profile": "standard-2deck", "concede": "one-level"})
    >>> [level_outcome(one, 4, concession_points(one, 4, by)) for by in ("dealer", "defenders")]
    [('defenders', 1), ('dealer', 1)]
    """
    threshold = options.threshold_for(players)
    step = options.step_for(players)
    if conceded_by == "dealer":
        return threshold + step if options.concede == "one-level" else threshold
    return max(threshold - step, 5)


def advance_level(level: int, steps: int, as_dealer: bool, must_defend: tuple[str, ...] = ()) -> tuple[int, bool]:
    """A side's new level (rank index) after going up ``steps``; True if it passed A.

    ``must_defend`` ranks cannot be passed except by winning them as the dealer's side:
    the side stops on them.

    >>> advance_level(3, 2, False)
    (5, False)
    >>> advance_level(1, 3, False, ("5",))  # from 3 up 3, but 5 must be defended
    (3, False)
    >>> advance_level(3, 2, False, ("5",)), advance_level(3, 2, True, ("5",))
    ((3, False), (5, False))
    >>> advance_level(12, 1, True)
    (12, True)
    """
    if steps <= 0:
        return level, False
    target = level + steps
    for r in sorted(RANKS.index(x) for x in must_defend):
        if r == level and not as_dealer:
            return level, False
        if level < r < target:
            return r, False
    if target > 12:
        return 12, True
    return target, False


def jack_hook_level(options: Options, level: int, winning_play: Sequence[int] | None,
                    won_by_defenders: bool) -> int | None:
    """勾J (``jack_hook``): the level (rank index) the dealer's side goes back to when the deal
    is played at J and the defenders won the last trick with a play of Js only; else None.

    >>> from tuolaji.scorer.profiles import resolve_rules
    >>> hook = resolve_rules({"profile": "standard-2deck", "jack_hook": "2"})
    >>> jh, js, sj = 22, 9, 52  # ♥J, ♠J, the small joker
    >>> jack_hook_level(hook, 9, [jh, js], True), jack_hook_level(hook, 9, [jh, sj], True)
    (0, None)
    >>> jack_hook_level(hook, 9, [jh], False), jack_hook_level(hook, 8, [jh], True)
    (None, None)
    """
    if options.jack_hook is None or level != JACK or not won_by_defenders or not winning_play:
        return None
    if all(card < 52 and card % 13 == JACK for card in winning_play):
        return RANKS.index(options.jack_hook)
    return None


def next_dealer(dealer: int, players: int, dealer_side: set[int], side: str, dealer_stays: bool = False) -> int:
    """The next dealer: the next seat after the dealer on the winning side (the dealer
    himself with ``dealer_stays`` when his side keeps the deal).

    >>> next_dealer(1, 4, {1, 3}, "dealer"), next_dealer(1, 4, {1, 3}, "defenders")
    (3, 2)
    """
    if side == "dealer" and dealer_stays:
        return dealer
    for k in range(1, players + 1):
        seat = seat_of(dealer, k, players)
        if (seat in dealer_side) == (side == "dealer"):
            return seat
    return dealer


def partnerships(friends_mode: bool, players: int) -> list[list[int]]:
    """The sides as a game starts: fixed partnerships of alternate seats, or 找朋友 each player
    alone (the dealer's friends are known only once they play the called cards).

    >>> partnerships(False, 4), partnerships(False, 6), partnerships(True, 5)
    ([[0, 2], [1, 3]], [[0, 2, 4], [1, 3, 5]], [[0], [1], [2], [3], [4]])
    """
    if friends_mode:
        return [[seat] for seat in range(players)]
    return [list(range(0, players, 2)), list(range(1, players, 2))]


def dealer_side(friends_mode: bool, players: int, dealer: int, calls: list[tuple[int, int]],
                plays: list[tuple[int, list[int]]], named: Sequence[int | None] = ()) -> set[int]:
    """Seats on the dealer's side after ``plays`` (``(seat, cards)`` in playing order).

    Fixed partnerships: the seats of the dealer's parity. 找朋友: the dealer plus whoever
    played the called nth copy of a card (the dealer playing it himself uses it up); a call
    the plays do not settle goes to the seat ``named`` for it, if any (the record's
    ``friends[i].seat``, for cards not recorded: 只记分).

    >>> sorted(dealer_side(False, 4, 1, [], []))
    [1, 3]
    >>> sorted(dealer_side(True, 5, 0, [(12, 2)], [(0, [12]), (3, [12]), (4, [12])]))
    [0, 3]
    """
    if not friends_mode:
        return {s for s in range(players) if s % 2 == dealer % 2}
    side = {dealer}
    seen = [0] * len(calls)
    done = [False] * len(calls)
    for seat, cards in plays:
        for i, (card, nth) in enumerate(calls):
            if done[i]:
                continue
            seen[i] += cards.count(card)
            if seen[i] >= nth:
                done[i] = True
                side.add(seat)
    for i, named_seat in enumerate(named):
        if i < len(calls) and not done[i] and named_seat is not None:
            side.add(named_seat)
    return side
