"""``tuolaji stats [--data DIR] [--json] [--rename NAME NEW]``: the players' records (战绩) and the
leaderboard (排行榜) over every session of a data folder, as the page's ``/stats`` shows them;
``--rename`` renames a player (or merges him into another) in the data folder's table of names."""

from __future__ import annotations

import argparse
import json
import unicodedata
from pathlib import Path

HEADINGS = {"games": "games", "games_won": "won", "deals": "deals", "dealer": "dealer", "took_over": "over",
            "levels_won": "levels", "kitty": "kitty", "violations": "fouls"}
"""The columns: games played and won, deals played and dealt, 上台 (took over), levels won, 抠底, violations."""


def _pad(text: str, width: int) -> str:
    """``text`` left-aligned in ``width`` terminal columns (a Chinese character takes two)."""
    used = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
    return text + " " * max(width - used, 0)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", type=Path, metavar="DIR",
                        help="data folder of the sessions database (default $TUOLAJI_DATA or ./data)")
    parser.add_argument("--json", action="store_true", help="print the records as JSON")
    parser.add_argument("--rename", nargs=2, metavar=("NAME", "NEW"),
                        help="know the player NAME as NEW in every session (a merge when NEW is another player's name)")


def table(players: list[dict]) -> str:
    """The leaderboard as text, one player a line.

    >>> print(table([{"rank": 1, "name": "老李", "games": 2, "games_won": 1, "deals": 9, "dealer": 3, "took_over": 2,
    ...               "levels_won": 5, "kitty": 1, "violations": 0}]))
      #  name            games    won  deals dealer   over levels  kitty  fouls
      1  老李                2      1      9      3      2      5      1      0
    """
    lines = [f"{'#':>3}  {_pad('name', 14)}" + "".join(f" {heading:>6}" for heading in HEADINGS.values())]
    for player in players:
        lines.append(f"{player['rank']:>3}  {_pad(player['name'], 14)}" + "".join(f" {player[key]:>6}" for key in HEADINGS))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from tuolaji.scorer.names import check_name, printable
    from tuolaji.web.stats import gather, known_player
    from tuolaji.web.store import DATABASE_NAME, SessionStore, default_data_dir

    folder = args.data or default_data_dir()
    database = folder / DATABASE_NAME
    if not database.exists():
        raise FileNotFoundError(2, "no sessions database here", str(database))
    store = SessionStore(database)
    if args.rename:
        old, new = check_name(args.rename[0], "NAME"), check_name(args.rename[1], "NEW")
        known_player(store, old)
        store.rename_player(old, new)
    records = gather(store)
    if args.json:
        print(printable(json.dumps(records, ensure_ascii=False, indent=2), json=True))
        return 0
    print(printable(table(records["players"])) if records["players"] else "no players yet")
    print(f"{records['sessions']} sessions" + (f" ({records['skipped']} unreadable, left out)" if records["skipped"] else ""))
    return 0
