"""One writer of the record (issue 32, item 4): the live game (:class:`session.live.LiveGame`) is
the only code that changes a record it holds. The pipeline (``vision/``) and the page (``web/``)
and the club (``club/``) send it intents (its typed commands), never whole records: nothing outside ``session/`` calls a
``replace_record``, reaches into the game's private record or commit, or overrides its methods."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIP = {".venv", ".git", "node_modules", "build", "dist", "__pycache__"}

PRIVATE = {"_record", "_commit", "_save", "_with_deal_copied", "_edit", "_audit_run"}
"""The live game's insides: read or called only by session/."""


def python_files() -> list[Path]:
    return sorted(path for path in ROOT.rglob("*.py")
                  if not SKIP & set(path.relative_to(ROOT).parts) and path.relative_to(ROOT).parts[0] != "session")


def offences(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "replace_record":
            found.append((node.lineno, "replace_record: change the record with a LiveGame command"))
        elif isinstance(node, ast.Name) and node.id == "replace_record":
            found.append((node.lineno, "replace_record: change the record with a LiveGame command"))
        elif isinstance(node, ast.Constant) and node.value == "replace_record":
            found.append((node.lineno, "replace_record named (getattr): change the record with a LiveGame command"))
        elif isinstance(node, ast.ClassDef) and any(
                (isinstance(base, ast.Name) and base.id == "LiveGame")
                or (isinstance(base, ast.Attribute) and base.attr == "LiveGame") for base in node.bases):
            found.append((node.lineno, f"class {node.name}(LiveGame): subscribe to the journal, never override"))
    return found


def private_uses(tree: ast.AST) -> list[tuple[int, str]]:
    """``game._record``, ``game._commit(...)``: the game's insides used from outside session/."""
    return [(node.lineno, f"{node.attr}: the live game's own") for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr in PRIVATE
            and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))]


def test_no_code_outside_session_replaces_a_record_or_overrides_the_game() -> None:
    bad = []
    for path in python_files():
        if path == Path(__file__).resolve():
            continue
        tree = ast.parse(path.read_text("utf-8"), str(path))
        bad += [f"{path.relative_to(ROOT)}:{line}: {why}" for line, why in offences(tree)]
    assert not bad, "\n".join(bad)


def test_the_pipeline_the_page_and_the_club_never_touch_the_games_insides() -> None:
    bad = []
    for folder in ("vision", "web", "club"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text("utf-8"), str(path))
            bad += [f"{path.relative_to(ROOT)}:{line}: {why}" for line, why in private_uses(tree)]
    assert not bad, "\n".join(bad)


def test_the_scan_sees_a_replace_record_call() -> None:
    tree = ast.parse("game.replace_record(record, reason='x')\nclass Mine(live.LiveGame):\n    pass\n")
    assert sorted(line for line, _ in offences(tree)) == [1, 2]
    assert [line for line, _ in private_uses(ast.parse("game._record['deals'] = []\nself._record = {}\n"))] == [1]
