"""``tuolaji audit RECORD [--json]``: audit a game record.

A readable table by default; ``--json`` prints exactly docs/RECORD.md's audit output. A
malformed record is one line naming the place and exit status 2 (the dispatcher turns
the :class:`~scorer.record.RecordError` into that line); the file is only read.
The exit status is 0 whether or not violations were found.
"""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from typing import Any

from tuolaji.scorer.audit import audit_record
from tuolaji.scorer.names import printable
from tuolaji.scorer.record import loads_record


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", metavar="RECORD", help="a game record (JSON, docs/RECORD.md)")
    parser.add_argument("--json", action="store_true", help="print docs/RECORD.md's audit output as JSON")


def load_record(path: str) -> Any:
    """Read and decode a record file; bad JSON raises RecordError naming line and column."""
    from tuolaji.scorer.safejson import MAX_RECORD_BYTES

    with open(path, "rb") as fh:
        data = fh.read(MAX_RECORD_BYTES + 1)
    return loads_record(data, where=path, max_bytes=MAX_RECORD_BYTES)  # a table's backup comes back whole


def _pad(text: str, width: int) -> str:
    """Left-justify by display width (CJK names take two columns)."""
    shown = sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)
    return text + " " * max(0, width - shown)


def format_table(record: dict[str, Any], audit: dict[str, Any]) -> str:
    """The audit as a readable text table."""
    names = record.get("players") or []
    lines: list[str] = []

    def who(seat: int | None) -> str:
        if seat is None:
            return "-"
        return f"{seat}:{names[seat]}" if seat < len(names) else str(seat)

    for i, deal in enumerate(audit["deals"]):
        src = record["deals"][i]
        lines.append(f"deal {i}: level {src.get('level')} trump {src.get('trump')} dealer {who(src.get('dealer'))}")
        lines.append(f"  {'trick':>5}  {'leader':<10} {'winner':<10} {'points':>6}  plays")
        for t, trick in enumerate(deal["tricks"]):
            plays = " | ".join(
                ("*" if not p["legal"] else "") + " ".join(p["cards"]) for p in trick["plays"]
            )
            lines.append(f"  {t:>5}  {_pad(who(trick['leader']), 10)} {_pad(who(trick['winner']), 10)} "
                         f"{trick['points']:>6}  {plays}")
        if deal["violations"]:
            lines.append(f"  violations ({len(deal['violations'])}):")
            for v in deal["violations"]:
                where = "deal" if v["trick"] is None else f"trick {v['trick']}"
                status = "proven" if v["proven"] else "not yet proven"
                lines.append(f"    {where:<10} seat {_pad(who(v['seat']), 8)} {v['rule']:<19} {status:<15} {v['detail']}")
        else:
            lines.append("  violations: none")
        for p in deal["penalties"]:
            where = "deal" if p["trick"] is None else f"trick {p['trick']}"
            lines.append(f"  penalty: {where} seat {who(p['seat'])} {p['points']:+d} points  {p['detail']}")
        lines.append(f"  defender points: {deal['defender_points']}  penalty points: {deal['penalty_points']}")
        if deal["outcome"] is None:
            lines.append("  deal in progress: no outcome yet")
        else:
            lines.append(
                f"  kitty: {deal['kitty_points']} points × {deal['kitty_multiplier']}, won by {deal['kitty_won_by']}"
            )
            out = deal["outcome"]
            lines.append(
                f"  total defender points: {deal['total_defender_points']}  →  {out['side']} +{out['levels']} "
                f"level{'s' if out['levels'] != 1 else ''}; next dealer {who(deal['next_dealer'])}; "
                f"levels after: {' '.join(deal['levels_after'])}"
                + (f"; game won by the {deal['game_winner']}" if deal["game_winner"] else "")
            )
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    record = load_record(args.record)
    audit = audit_record(record)
    if args.json:
        sys.stdout.write(printable(json.dumps(audit, ensure_ascii=False, indent=2), json=True) + "\n")
    else:
        print(printable(format_table(record, audit)))  # nothing of the record reaches the terminal as a control
    return 0
