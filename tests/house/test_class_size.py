"""No room grows too big (issue 44, done when: no class over ~300 lines in session/, web/ or club/).

A class's size is its lines from ``class`` to its last line (``ast``'s ``end_lineno - lineno + 1``,
docstrings and blank lines included). A class past the limit is split by responsibility, as the
club's store is (``club/store.py``'s ``ClubStore``, a facade over its parts), rather than the
limit raised.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("session", "web", "club")
MOST_LINES = 320


def class_sizes() -> dict[str, int]:
    """Every class of the folders (``path:Name``, nested ones too) and its lines."""
    sizes = {}
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text("utf-8"), str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef):
                    assert node.end_lineno is not None
                    sizes[f"{path.relative_to(ROOT)}:{node.name}"] = node.end_lineno - node.lineno + 1
    return sizes


def test_no_class_in_session_web_or_club_is_over_the_limit() -> None:
    sizes = class_sizes()
    assert "club/store.py:ClubStore" in sizes and "session/live.py:LiveGame" in sizes  # the scan sees them
    assert {name: lines for name, lines in sizes.items() if lines > MOST_LINES} == {}
