"""Write tests/data/explain/violation_texts.json: the page's words for every violation and penalty
the audit writes over the fuzz corpus of injected faults and the stored records (golden audits,
examples, the input-fuzz corpus): ``golden_corpus`` and ``golden_rows`` of
``tests/web/test_explain.py``, which requires the same words for each.

Each row is one distinct text: the violation (rule, trick, seat, proven, detail) or penalty
(trick, seat, points, detail), the players, the page's ``{"zh", "en", "parsed"}``
(:func:`web.explain.describe_violation`, :func:`web.explain.describe_penalty`), the name of
its sentence and the first record it came from. The file was first written (commit "Golden page
texts …") by the regex reader of the English ``detail``, before the audit recorded violations as
data; rewrite it only for a deliberate change of the words, and review the diff.

    PYTHONPATH=. python scripts/violation_texts_golden.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.web.test_explain import GOLDEN, golden_corpus, golden_key, golden_rows  # noqa: E402


def main() -> None:
    found: dict[str, dict[str, Any]] = {}
    for name, record in golden_corpus():
        for row, _finding in golden_rows(record):
            found.setdefault(golden_key(row), {**row, "source": name})
    rows = sorted(found.values(), key=lambda e: (e["kind"], e.get("rule", ""), e["detail"], golden_key(e)))
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_text("[\n" + ",\n".join(json.dumps(row, ensure_ascii=False) for row in rows) + "\n]\n",
                      encoding="utf-8")
    rules = sorted({row["rule"] for row in rows if row["kind"] == "violation"})
    print(f"{len(rows)} texts, {len(rules)} rule codes: {', '.join(rules)} -> {GOLDEN.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
