"""Players' records (战绩) across games: per player, from game records and their audits alone.

A player is a name, matched across games by :func:`name_key` (case, width and spaces do not
count: ``"Lao Li"``, ``"laoli"`` and ``"ＬａｏＬｉ"`` are one player), then through ``aliases``
(a name's key -> the name it is known by: a rename, or two names merged into one). Every
figure is read off the audit; nothing here scores. Per player:

- ``games``: the games (records) he sat in; ``games_won``: those whose audit names a game
  winner (a side past A) with him on that side;
- ``deals``: the complete deals (the audit has an outcome) he played; ``dealer``: those he dealt;
- ``took_over`` (上台): the deals his side defended and took over;
- ``levels_won``: the levels his side went up, over all the deals it won;
- ``kitty``: (抠底) the deals whose last trick he won for the defenders, taking the kitty;
- ``violations``: the violations the audit found of his plays;
- ``deals_won``: the complete deals his side won (held as dealers or took over), and
  ``deal_rate``/``game_rate`` the percentages of deals and games won (None before any);
- ``partners``: whom he played on one side with, most deals first: ``{"name", "deals", "won"}``.

>>> from tuolaji.scorer.audit import audit_record
>>> rec = {"rules": "standard-2deck", "players": ["Lao Li", "b", "c", "d"], "deals": [
...     {"level": "2", "trump": "S", "dealer": 0, "complete": True, "kitty": ["KD"] + ["3D"] * 7,
...      "tricks": [{"leader": 0, "plays": [["5H"], ["KH"], ["3H"], ["4H"]]}]}]}
>>> rows = player_stats([(rec, audit_record(rec))], {name_key("b"): "老王"})
>>> [(row.name, row.deals, row.dealer, row.levels_won, row.kitty) for row in rows]
[('Lao Li', 1, 1, 2, 0), ('c', 1, 0, 2, 0), ('老王', 1, 0, 0, 1), ('d', 1, 0, 0, 0)]
>>> lao_li = rows[0].as_dict({row.key: row.name for row in rows})
>>> lao_li["deals_won"], lao_li["deal_rate"], lao_li["partners"]
(1, 100, [{'name': 'c', 'deals': 1, 'won': 1}])
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from .record import dealer_sides
from .record_types import Record

STAT_KEYS: tuple[str, ...] = ("games", "games_won", "deals", "dealer", "took_over", "levels_won", "kitty", "violations")
"""The figures of a player's record, in the order shown."""

RANKING: tuple[str, ...] = ("games_won", "levels_won", "took_over", "kitty", "deals")
"""The leaderboard's order (排行榜): games won first, then levels won, 上台, 抠底, deals played."""


def name_key(name: str) -> str:
    """The key a player's name is matched by: NFKC, case folded, without spaces.

    >>> name_key(" Lao  LI "), name_key("ＬａｏＬｉ"), name_key("老 李")
    ('laoli', 'laoli', '老李')
    """
    text = unicodedata.normalize("NFKC", str(name)).casefold()
    return "".join(text.split())


def resolve(name: str, aliases: Mapping[str, str]) -> str:
    """The name a player is known by: the alias of his name's key, followed while it leads on
    (a cycle stops where it would repeat itself); the name itself without one.

    >>> resolve("li", {"li": "老李", "老李": "李哥"}), resolve("x", {}), resolve("laoli", {"laoli": "Lao Li"})
    ('李哥', 'x', 'Lao Li')
    """
    current = str(name)
    seen: set[str] = set()
    while (key := name_key(current)) in aliases and key not in seen:
        seen.add(key)
        current = aliases[key]
    return current


@dataclass
class PlayerStats:
    """One player's record; ``names``: the names he played under (as written in the records)."""

    key: str
    name: str
    games: int = 0
    games_won: int = 0
    deals: int = 0
    dealer: int = 0
    took_over: int = 0
    levels_won: int = 0
    kitty: int = 0
    violations: int = 0
    names: list[str] = field(default_factory=list)
    deals_won: int = 0
    together: dict[str, list[int]] = field(default_factory=dict)
    """Per partner's key: [deals on one side, of them won]."""

    @property
    def deal_rate(self) -> int | None:
        """The percentage of his complete deals his side won (None before any)."""
        return round(100 * self.deals_won / self.deals) if self.deals else None

    @property
    def game_rate(self) -> int | None:
        """The percentage of his games his side won (None before any)."""
        return round(100 * self.games_won / self.games) if self.games else None

    def as_dict(self, names: Mapping[str, str] | None = None) -> dict[str, Any]:
        """The record as JSON values; ``names``: each player's key -> the name he is known by (the
        partners are named with it)."""
        data = asdict(self)
        together = data.pop("together")
        data["deal_rate"], data["game_rate"] = self.deal_rate, self.game_rate
        data["partners"] = [{"name": (names or {}).get(key, key), "deals": deals, "won": won}
                            for key, (deals, won) in sorted(together.items(), key=lambda item: (-item[1][0], -item[1][1], item[0]))]
        return data


def player_stats(games: Iterable[tuple[Record, Mapping[str, Any]]],
                 aliases: Mapping[str, str] | None = None) -> list[PlayerStats]:
    """Each player's record over ``games`` (pairs of a record and its audit), in leaderboard
    order (:data:`RANKING`, then the name). ``aliases``: a name's :func:`name_key` -> the name
    it is known by."""
    aliases = aliases or {}
    table: dict[str, PlayerStats] = {}
    for record, audit in games:
        names = [str(name) for name in record.get("players") or []]
        rows = []
        for name in names:
            shown = resolve(name, aliases)
            key = name_key(shown)
            row = table.setdefault(key, PlayerStats(key=key, name=shown.strip()))
            if name_key(name) in aliases:  # renamed: known by the alias's name
                row.name = shown.strip()
            if name not in row.names:
                row.names.append(name)
            rows.append(row)
        for row in {id(row): row for row in rows}.values():
            row.games += 1
        _add_game(record, audit, rows)
    return sorted(table.values(), key=lambda row: (*(-getattr(row, key) for key in RANKING), row.name))


def _add_game(record: Record, audit: Mapping[str, Any], rows: list[PlayerStats]) -> None:
    deals = list(record.get("deals") or [])
    audits = list(audit.get("deals") or [])
    if not deals or not rows:
        return
    sides = dealer_sides(record)
    n = len(rows)
    winners: set[int] = set()
    for index, (deal, deal_audit) in enumerate(zip(deals, audits, strict=False)):
        for violation in deal_audit.get("violations") or []:
            seat = violation.get("seat")
            if isinstance(seat, int) and 0 <= seat < n and violation.get("proven", True):
                rows[seat].violations += 1
        outcome = deal_audit.get("outcome")
        if outcome is None:
            continue
        dealer_seats = set(sides[index]) if index < len(sides) else set()
        dealer = deal.get("dealer")
        for seat in range(n):
            rows[seat].deals += 1
        if isinstance(dealer, int) and 0 <= dealer < n:
            rows[dealer].dealer += 1
        defenders_won = outcome.get("side") == "defenders"
        for seat in range(n):
            on_winning_side = (seat in dealer_seats) != defenders_won
            for other in range(n):  # his partners in this deal: the others on his side
                if other != seat and (other in dealer_seats) == (seat in dealer_seats) and rows[other] is not rows[seat]:
                    tally = rows[seat].together.setdefault(rows[other].key, [0, 0])
                    tally[0] += 1
                    tally[1] += int(on_winning_side)
            if on_winning_side:
                rows[seat].deals_won += 1
                rows[seat].levels_won += int(outcome.get("levels") or 0)
                if defenders_won:
                    rows[seat].took_over += 1
        tricks = deal_audit.get("tricks") or []
        # the last trick's winner; a deal kept by its points alone (只记分) names him in its own last_trick
        last_trick = deal.get("last_trick")
        last_winner = tricks[-1].get("winner") if tricks else last_trick.get("winner") if last_trick else None
        if deal_audit.get("kitty_won_by") == "defenders" and isinstance(last_winner, int) and 0 <= last_winner < n:
            rows[last_winner].kitty += 1
        if deal_audit.get("game_winner"):
            winners = {seat for seat in range(n) if (seat in dealer_seats) == (deal_audit["game_winner"] == "dealer")}
    for row in {id(rows[seat]): rows[seat] for seat in winners}.values():
        row.games_won += 1
