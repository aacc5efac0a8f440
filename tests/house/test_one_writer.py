"""One writer of the record (issue 32, item 4; issue 44, item 1): the live game
(:class:`session.live.LiveGame`) is the only code that changes a record it holds, and
:meth:`LiveGame.apply` its one way in. The pipeline (``vision/``) and the page (``web/``) and the
club (``club/``) send it intents (its typed commands), never whole records: nothing outside
``session/`` calls a ``replace_record``, reaches into the game's private record or commit, or
overrides its methods; inside the game only ``apply`` commits a change, every command method goes
through it, and nothing but the game and the club's copy of a record moves a record on by a change."""

from __future__ import annotations

import ast
import inspect
import textwrap
from pathlib import Path

from tuolaji.session.live import LiveGame
from tuolaji.web.table import CurrentGame

ROOT = Path(__file__).resolve().parents[2]
SKIP = {".venv", ".git", "node_modules", "build", "dist", "__pycache__"}

PRIVATE = {"_record", "_commit", "_save", "_with_deal_copied", "_edit", "_audit_run", "_announcer", "_journal"}
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


def live_game_methods() -> dict[str, ast.FunctionDef]:
    tree = ast.parse((ROOT / "session" / "live.py").read_text("utf-8"))
    [game] = [node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "LiveGame"]
    return {node.name: node for node in game.body if isinstance(node, ast.FunctionDef)}


def calls_on_self(function: ast.AST, name: str) -> bool:
    return any(isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == name
               and isinstance(node.func.value, ast.Name) and node.func.value.id == "self"
               for node in ast.walk(function))


def assigns_the_record(function: ast.AST) -> bool:
    return any(isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign) and any(
        isinstance(target, ast.Attribute) and target.attr == "_record"
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target]))
        for node in ast.walk(function))


def test_inside_the_game_only_apply_commits_a_change() -> None:
    methods = live_game_methods()
    assert [name for name, method in methods.items() if calls_on_self(method, "_commit")] == ["apply"]
    assert [name for name, method in methods.items() if assigns_the_record(method)] == ["__init__", "_commit"]


READERS = {"resume", "players", "version", "snapshot", "record", "audit", "audited", "pending", "findings",
           "dealer_sides", "current", "state", "expected_seat", "subscribe_journal", "journal"}
"""The live game's public names that read it (a new one is a reader here or a command)."""


def test_every_command_method_of_the_game_is_one_apply_made_under_the_tables_lock() -> None:
    """Every public method of the game that is not a reader calls ``apply``, and the table makes
    each of them (its list of writes) under its lock."""
    commands = {name for name in dir(LiveGame) if not name.startswith("_")} - READERS - {"apply"}
    for name in sorted(commands):
        source = textwrap.dedent(inspect.getsource(getattr(LiveGame, name)))
        assert calls_on_self(ast.parse(source), "apply"), f"LiveGame.{name} does not go through apply"
    assert CurrentGame._WRITES == commands | {"apply"}


def test_only_the_game_and_the_clubs_copy_move_a_record_on() -> None:
    """A command's outcome is taken by the game alone (``.applied(``), and a change moves a record on
    (``.applied_to(``) in the game and in the club's copy of a session, nowhere else."""
    allowed = {"applied": {"session/live.py"}, "applied_to": {"session/live.py", "club/store.py"}}
    found: dict[str, set[str]] = {"applied": set(), "applied_to": set()}
    for path in python_files() + sorted((ROOT / "session").glob("*.py")):
        if path.relative_to(ROOT).parts[0] == "tests":
            continue
        tree = ast.parse(path.read_text("utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in found:
                found[node.func.attr].add(str(path.relative_to(ROOT)))
    assert found == allowed


def test_the_scans_see_a_commit_and_a_record_assigned() -> None:
    method = ast.parse("def play(self):\n    self._record = {}\n    self._commit(x)\n")
    assert calls_on_self(method, "_commit") and assigns_the_record(method)
    assert not calls_on_self(ast.parse("game._commit(x)"), "_commit")
