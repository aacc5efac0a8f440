"""Write tests/data/explain/violation_texts.json: the page's words for every violation and penalty
the audit writes over the fuzz corpus of injected faults (tests/test_web_explain.py's
``injected_records``) and the stored records (golden audits, examples, the input-fuzz corpus).

Each entry is one distinct text: the violation (rule, trick, seat, proven, detail) or penalty
(trick, seat, points, detail), the players, and the page's ``{"zh", "en", "parsed"}``
(:func:`web.explain.describe_violation`, :func:`web.explain.describe_penalty`).
``tests/test_web_explain.py`` audits the same corpus and requires the same words for each.
First written by the regex reader of the English ``detail`` (before the audit recorded
violations as data), so the renderers from data keep its words.

    PYTHONPATH=. python scripts/violation_texts_golden.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "data" / "explain" / "violation_texts.json"
CORPUS_SIZE, CORPUS_SEED = 800, 6


def corpus() -> list[tuple[str, dict[str, Any]]]:
    """(name, record) of every record the golden texts come from."""
    sys.path.insert(0, str(ROOT / "tests"))
    from test_web_explain import injected_records

    records = [(f"injected-{k}", rec) for k, rec in enumerate(injected_records(CORPUS_SIZE, seed=CORPUS_SEED))]
    for folder in (ROOT / "tests" / "data" / "scorer" / "records", ROOT / "examples", ROOT / "tests" / "data" / "fuzz"):
        for path in sorted(folder.glob("*.json")):
            value = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(value, dict) and "deals" in value:
                records.append((str(path.relative_to(ROOT)), value))
    return records


def entries(name: str, record: dict[str, Any], audit: dict[str, Any], describe_violation: Any,
            describe_penalty: Any) -> list[dict[str, Any]]:
    players = list(record.get("players") or [])
    out = []
    for d, deal in enumerate(audit["deals"]):
        for v in deal["violations"]:
            out.append({"kind": "violation", "deal": d, "rule": v["rule"], "trick": v["trick"], "seat": v["seat"],
                        "proven": v["proven"], "detail": v["detail"], "players": players,
                        "text": describe_violation(v, players)})
        for p in deal["penalties"]:
            out.append({"kind": "penalty", "deal": d, "trick": p["trick"], "seat": p["seat"], "points": p["points"],
                        "detail": p["detail"], "players": players, "text": describe_penalty(p, players)})
    return out


def key(entry: dict[str, Any]) -> str:
    """What makes an entry distinct (its words depend on nothing else)."""
    return json.dumps({k: v for k, v in entry.items() if k not in ("text", "deal", "template", "source")}, ensure_ascii=False,
                      sort_keys=True)


def template(entry: dict[str, Any]) -> str:
    """The name of the sentence an entry's words fill (the regex reader's template names)."""
    from web.explain import match_template

    rule = entry["rule"] if entry["kind"] == "violation" else "penalty"
    return match_template(rule, entry["detail"], entry["players"])[0]


def main() -> None:
    import scorer
    from web.explain import describe_penalty, describe_violation

    found: dict[str, dict[str, Any]] = {}
    for name, record in corpus():
        for entry in entries(name, record, scorer.audit_record(record), describe_violation, describe_penalty):
            found.setdefault(key(entry), {**entry, "template": template(entry), "source": name})
    rows = sorted(found.values(), key=lambda e: (e["kind"], e.get("rule", ""), e["detail"], key(e)))
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_text("[\n" + ",\n".join(json.dumps(row, ensure_ascii=False) for row in rows) + "\n]\n",
                      encoding="utf-8")
    rules = sorted({row["rule"] for row in rows if row["kind"] == "violation"})
    print(f"{len(rows)} texts, {len(rules)} rule codes: {', '.join(rules)} -> {GOLDEN.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
