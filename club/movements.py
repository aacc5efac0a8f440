"""The pair movements a round may be seated by: pure functions of the pairs' count and the round.

Pairs are numbered by the order they were registered (0 the first), tables by the order they were
added (0 the first). A schedule's round is a list of ``(ns, ew)`` pair numbers, one a table in the
tables' order.

- **Round-robin** (``roundrobin``): every pair meets every other once over ``pairs - 1`` rounds
  (``pairs`` when odd: one pair sits out each round), by the circle method; each round the tables
  take the matches in the order of their lower pair, and the lower pair sits 南北 in odd rounds, 东西
  in even ones.
- **Howell** (``howell``): the same meetings by fixed places: the last pair stays at the last table's
  南北 seat, the others move one place each round along the other places (a table's 南北, the tables
  in order, then the 东西 seats back), so a pair's next place is its place's neighbour.
- **Mitchell** (``mitchell``): an even number of pairs on ``pairs / 2`` tables; the first half stay
  南北 at their table all evening, the second half (东西) move one table up each round (the last
  table's to the first), meeting every 南北 pair once over ``pairs / 2`` rounds.

A movement that does not fit (too few tables, an odd count for a Mitchell, its rounds all played) is
refused with an :class:`~scorer.errors.InputError`, one line in both languages.

>>> howell(8, 1)
[(1, 6), (2, 5), (3, 4), (7, 0)]
>>> mitchell(6, 2)
[(0, 5), (1, 3), (2, 4)]
>>> sorted(met for r in range(1, 8) for met in meetings(howell(8, r))) == sorted(meetings_of_all(8))
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from tuolaji.scorer.errors import InputError

MOVEMENTS = ("roundrobin", "howell", "mitchell")
"""The movements a round may be seated by (beside ``hand``, ``drawn`` and ``swiss``)."""

Round = list[tuple[int, int]]


def rounds_of(movement: str, pairs: int) -> int:
    """How many rounds ``movement`` has for ``pairs`` pairs.

    >>> rounds_of("howell", 8), rounds_of("roundrobin", 7), rounds_of("mitchell", 8)
    (7, 7, 4)
    """
    if movement == "mitchell":
        return pairs // 2
    return pairs - 1 if pairs % 2 == 0 else pairs


def tables_of(movement: str, pairs: int) -> int:
    """How many tables ``movement`` seats for ``pairs`` pairs (a pair sitting out when odd).

    >>> tables_of("howell", 8), tables_of("roundrobin", 7), tables_of("mitchell", 6)
    (4, 3, 3)
    """
    return pairs // 2


def _circle(pairs: int, number: int) -> list[tuple[int, int]]:
    """The circle method's matches of round ``number`` (1-based) for an even ``pairs``: the last pair
    fixed, the others on a ring turning one place a round; the fixed pair's match first."""
    ring = [(i + number - 1) % (pairs - 1) for i in range(pairs - 1)]
    return [(pairs - 1, ring[0])] + [(ring[k], ring[pairs - 1 - k]) for k in range(1, pairs // 2)]


def round_robin(pairs: int, number: int) -> Round:
    """Round ``number`` (1-based) of the round-robin of ``pairs`` pairs.

    >>> round_robin(4, 1), round_robin(4, 2), round_robin(4, 3)
    ([(0, 3), (1, 2)], [(2, 0), (3, 1)], [(0, 1), (2, 3)])
    >>> round_robin(5, 1)  # pair 0 sits out
    [(1, 4), (2, 3)]
    """
    even = pairs + pairs % 2
    matches = [tuple(sorted(match)) for match in _circle(even, number) if max(match) < pairs]
    ordered = sorted(matches)
    return [(low, high) if number % 2 == 1 else (high, low) for low, high in ordered]


def howell(pairs: int, number: int) -> Round:
    """Round ``number`` (1-based) of the Howell of ``pairs`` pairs: the last pair (the phantom when odd:
    its table left out) stays at the last table.

    >>> howell(4, 1), howell(4, 2)
    ([(1, 2), (3, 0)], [(2, 0), (3, 1)])
    >>> howell(5, 1)  # pair 0 sits out
    [(1, 4), (2, 3)]
    """
    even = pairs + pairs % 2
    circle = _circle(even, number)
    fixed, moving = circle[0]
    tables = circle[1:] + [(fixed, moving)]
    return [match for match in tables if max(match) < pairs]


def mitchell(pairs: int, number: int) -> Round:
    """Round ``number`` (1-based) of the Mitchell of an even ``pairs``: 南北 pair ``t`` at table ``t``,
    东西 pair ``half + j`` at table ``(j + number - 1) % half``.

    >>> mitchell(6, 1), mitchell(6, 3)
    ([(0, 3), (1, 4), (2, 5)], [(0, 4), (1, 5), (2, 3)])
    """
    half = pairs // 2
    return [(table, half + (table - number + 1) % half) for table in range(half)]


SCHEDULES: dict[str, Callable[[int, int], Round]] = {"roundrobin": round_robin, "howell": howell,
                                                     "mitchell": mitchell}


def movement_round(movement: str, pairs: int, number: int, tables: int) -> Round:
    """Round ``number`` (1-based: the rounds seated by ``movement`` so far, and one) of ``movement`` for
    ``pairs`` pairs on a club of ``tables`` tables, or the one line that says why it does not fit.

    >>> movement_round("mitchell", 8, 2, 4)
    [(0, 7), (1, 4), (2, 5), (3, 6)]
    >>> movement_round("howell", 8, 1, 3)
    Traceback (most recent call last):
    ...
    tuolaji.scorer.errors.InputError: 8 pairs need 4 tables in this movement, the club has 3
    >>> movement_round("mitchell", 7, 1, 4)
    Traceback (most recent call last):
    ...
    tuolaji.scorer.errors.InputError: a Mitchell seats an even number of pairs (North–South stay, East–West move), not 7
    >>> movement_round("roundrobin", 4, 4, 2)
    Traceback (most recent call last):
    ...
    tuolaji.scorer.errors.InputError: this movement has 3 rounds for 4 pairs, all played: seat the next round another way
    """
    if movement not in SCHEDULES:
        raise InputError("club.seating", seating=movement)
    if pairs < 2:
        raise InputError("club.movement_pairs", pairs=pairs)
    if movement == "mitchell" and pairs % 2:
        raise InputError("club.mitchell_odd", pairs=pairs)
    needed = tables_of(movement, pairs)
    if needed > tables:
        raise InputError("club.movement_tables", pairs=pairs, needed=needed, tables=tables)
    rounds = rounds_of(movement, pairs)
    if number > rounds:
        raise InputError("club.movement_done", pairs=pairs, rounds=rounds)
    return SCHEDULES[movement](pairs, number)


def meetings(round_: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """The meetings of a round, each pair of pair numbers lower first.

    >>> meetings([(3, 0), (1, 2)])
    [(0, 3), (1, 2)]
    """
    return [(min(ns, ew), max(ns, ew)) for ns, ew in round_]


def meetings_of_all(pairs: int) -> list[tuple[int, int]]:
    """Every meeting of ``pairs`` pairs, each once (what a round-robin or a Howell plays over its rounds).

    >>> meetings_of_all(3)
    [(0, 1), (0, 2), (1, 2)]
    """
    return [(a, b) for a in range(pairs) for b in range(a + 1, pairs)]
