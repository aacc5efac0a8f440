"""Seat arithmetic, in one place: seats are numbered 0..n-1 in playing order (counter-clockwise).

>>> seat_of(3, 2, 4)         # the third to play in a trick led by seat 3 of 4
1
>>> position_of(3, 1, 4)     # ... and back: seat 1 plays third (position 2)
2
>>> seats_from(2, 4)         # every seat in playing order from seat 2
[2, 3, 0, 1]
"""

from __future__ import annotations


def seat_of(leader: int, position: int, players: int) -> int:
    """The seat that plays ``position``-th (0: the leader itself) in a trick led by ``leader``;
    also the seat ``position`` places after any seat."""
    return (leader + position) % players


def position_of(leader: int, seat: int, players: int) -> int:
    """Where ``seat`` plays in a trick led by ``leader`` (0: first): the inverse of :func:`seat_of`."""
    return (seat - leader) % players


def seats_from(first: int, players: int) -> list[int]:
    """Every seat once, in playing order, starting with ``first``."""
    return [seat_of(first, k, players) for k in range(players)]
