"""One message mechanism (issue 44, item 3): every key has both languages, and no module keeps words of its own.

What the rules core, the page and the club say is a key and its parameters, worded once per
language in a catalogue and rendered by one function a language:

- the refusals, errors and hints: each layer's English and Chinese in its own catalogue
  (``scorer/messages.py``, ``session/messages.py``, ``vision/messages.py``, ``web/messages.py``,
  ``club/messages.py``: a key belongs to the lowest layer that raises it, and its Chinese sits beside
  its English there and nowhere else), registered at the layer's import into the one table a
  language, ``scorer.messages.MESSAGES_EN`` and ``scorer.messages.MESSAGES_ZH``;
- the audit's findings (a violation's fact, a penalty, a ruling): ``scorer.messages.FINDINGS_EN``
  and ``scorer.messages.FINDINGS_ZH``, one template a kind, written in a voice (the record's or the page's);
- the page's own words (with the pages around the table and the club's): ``web.i18n.STRINGS``,
  each ``{"zh", "en"}``, rendered by ``web.i18n.both``/``translate``;
- 嘴和's: ``scorer.zuihe.messages.MESSAGES_EN`` and ``MESSAGES_ZH``, side by side.

The second half reads the source of every module of web/, scorer/, session/ and club/ (an AST walk) for a word table
of its own outside the catalogue modules: a ``{"zh": …, "en": …}`` literal with words in it, a
(Chinese, English) pair of strings, words chosen by ``lang == "zh"``, or a module-level table of
Chinese words. The few that remain are listed in :data:`KNOWN` with why; the count may only go
down. The checker itself is tested on small sources, so a table added back is known to fail it.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest

import tuolaji.club.messages  # noqa: F401  (every layer's catalogue joins the one table)
import tuolaji.session.messages  # noqa: F401
import tuolaji.vision.messages  # noqa: F401
import tuolaji.web.messages  # noqa: F401
from tuolaji.scorer import violations
from tuolaji.scorer.messages import CATALOGUES as LAYER_CATALOGUES
from tuolaji.scorer.messages import (
    CATALOGUES_ZH,
    FINDINGS_EN,
    FINDINGS_ZH,
    MESSAGES_EN,
    MESSAGES_ZH,
    template_fields,
)
from tuolaji.web.i18n import STRINGS

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("web", "scorer", "session", "club")
CATALOGUES = {"web/i18n.py", "web/extras_i18n.py", "web/club_i18n.py", "scorer/messages.py",
              "scorer/zuihe/messages.py", "session/messages.py", "vision/messages.py", "web/messages.py",
              "club/messages.py"}
"""The catalogue modules: the only places words are written down as tables."""

KNOWN: dict[str, int] = {
    # the club's table page: one {zh, en} literal of its own (club/ is another room's; issue 44, item 2)
    "club/table_page.py": 1,
    # 嘴和's rules vocabulary (suits, honours, group names, the reasons of a loose hand)
    "scorer/zuihe/score.py": 3,
    "scorer/zuihe/cards.py": 2,
    "scorer/zuihe/search.py": 1,
}
"""The word tables left outside the catalogues, by module (the count may only go down)."""

_CJK = re.compile(r"[\u3400-\u9fff\uff00-\uffef\u3000-\u303f]")
_LATIN = re.compile(r"[A-Za-z]{3,}")


def _text(node: ast.AST) -> str | None:
    """The literal text of a string constant, an f-string or a sum of them (None for anything else)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _text(node.left), _text(node.right)
        if left is not None or right is not None:
            return (left or "") + (right or "")
    return None


def _chinese(text: str | None) -> bool:
    return bool(text) and bool(_CJK.search(text or ""))


def word_tables(source: str) -> list[tuple[int, str]]:
    """Each word table of its own a module's source keeps: (line, what)."""
    tree = ast.parse(source)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            keyed = {k.value: v for k, v in zip(node.keys, node.values, strict=True)
                     if isinstance(k, ast.Constant) and isinstance(k.value, str)}
            if {"zh", "en"} <= set(keyed) and any(_text(keyed[lang]) for lang in ("zh", "en")):
                found.append((node.lineno, "a {zh, en} literal"))
        elif isinstance(node, ast.Tuple) and len(node.elts) == 2:
            first, second = (_text(e) for e in node.elts)
            if first and second and _chinese(first) and _LATIN.search(second) and not _chinese(second.split(":")[0]):
                found.append((node.lineno, "a (Chinese, English) pair"))
        elif isinstance(node, ast.IfExp):
            tested = {n.value for n in ast.walk(node.test) if isinstance(n, ast.Constant)}
            body, orelse = _text(node.body), _text(node.orelse)
            if tested & {"zh", "en"} and body is not None and orelse is not None and (_chinese(body) or _chinese(orelse)):
                found.append((node.lineno, "words chosen by language"))
    for statement in tree.body:
        value = statement.value if isinstance(statement, (ast.Assign, ast.AnnAssign)) else None
        if isinstance(value, ast.Dict):
            words = [t for v in value.values if (t := _text(v)) and _chinese(t) and not _LATIN.search(t)]
            if len(words) >= 2:
                found.append((statement.lineno, "a table of Chinese words"))
    return found


def modules() -> list[Path]:
    return sorted(path for folder in FOLDERS for path in (ROOT / folder).rglob("*.py")
                  if path.relative_to(ROOT).as_posix() not in CATALOGUES)


# --- every key has both languages ----------------------------------------------------------------


def test_every_word_of_the_page_has_chinese_and_english() -> None:
    missing = [key for key, entry in STRINGS.items() if not (entry.get("zh") and entry.get("en"))]
    assert missing == []
    assert all(set(entry) <= {"zh", "en"} for entry in STRINGS.values())


def test_every_message_has_chinese_and_english_with_the_same_facts() -> None:
    from tuolaji.scorer.zuihe.messages import MESSAGES_EN as ZUIHE_EN
    from tuolaji.scorer.zuihe.messages import MESSAGES_ZH as ZUIHE_ZH

    for english, chinese in ((MESSAGES_EN, MESSAGES_ZH), (FINDINGS_EN, FINDINGS_ZH), (ZUIHE_EN, ZUIHE_ZH)):
        assert set(english) == set(chinese)
        for key, template in chinese.items():
            assert template_fields(template) <= template_fields(english[key]) | {"at"}, key


LAYERS = ("scorer", "session", "vision", "web", "club", "cli")
"""The layers that raise keyed errors, from the bottom up (the commands use the keys of those below)."""


def raised_keys() -> dict[str, set[str]]:
    """Each literal key a module of the layers raises, and the layers that raise it: the first
    argument of a call of ``InputError`` or a subclass of it (``BadRequestError``, ``ClubRefused``,
    ``RefusedError``, ...; either branch of ``a if c else b``), found by reading the source."""
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for layer in LAYERS
             for path in sorted((ROOT / layer).rglob("*.py")) if "zuihe" not in path.parts}
    bases: dict[str, set[str]] = {}
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases.setdefault(node.name, set()).update(
                    b.id if isinstance(b, ast.Name) else b.attr for b in node.bases if isinstance(b, ast.Name | ast.Attribute))
    classes = {"InputError"}
    while more := {name for name, parents in bases.items() if parents & classes} - classes:
        classes |= more

    def keys(first: ast.expr) -> list[str]:
        if isinstance(first, ast.IfExp):
            return [*keys(first.body), *keys(first.orelse)]
        text = first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None
        return [text] if text is not None and re.fullmatch(r"[a-z][a-z0-9_]*(\.[a-z0-9_-]+)+", text) else []

    found: dict[str, set[str]] = {}
    for path, tree in trees.items():
        layer = path.relative_to(ROOT).parts[0]
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and node.args:
                func = node.func
                name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
                if name in classes:
                    for key in keys(node.args[0]):
                        found.setdefault(key, set()).add(layer)
    return found


def test_every_key_raised_anywhere_is_in_its_layers_catalogue_with_both_languages() -> None:
    """A key raised with no catalogue would be shown as its own name (or refused: ``InputError`` takes
    no unknown key): every key a layer raises is in the catalogue of that layer or one below it, in
    both languages; each key belongs to the lowest layer that raises it, and to one catalogue only."""
    raised = raised_keys()
    assert len(raised) >= 300
    assert set(LAYER_CATALOGUES) == {"scorer", "session", "vision", "web", "club"}
    owner: dict[str, str] = {}
    for layer, catalogue in LAYER_CATALOGUES.items():
        for key in catalogue:
            assert key not in owner, f"{key!r} in the catalogues of {owner.get(key)} and {layer}"
            owner[key] = layer
    assert set(owner) == set(MESSAGES_EN)
    unknown = sorted(key for key in raised if key not in owner)
    assert unknown == [], "raised but in no catalogue"
    assert sorted(key for key in raised if key not in MESSAGES_ZH) == [], "raised but with no Chinese"
    misplaced = {key: (owner[key], sorted(layers)) for key, layers in raised.items()
                 if owner[key] != min((layer for layer in layers if layer != "cli"), key=LAYERS.index, default=owner[key])}
    assert misplaced == {}, "a key belongs to the lowest layer that raises it"


def chinese_of_keys(source: str, keys: set[str]) -> list[tuple[int, str]]:
    """Each place a module's source writes the Chinese of one of ``keys``: (line, key) of a dict entry
    or a subscript assignment (``TABLE["key"] = "..."``) whose key is one of them and whose value is
    Chinese text."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        pairs: list[tuple[ast.expr | None, ast.expr]] = []
        if isinstance(node, ast.Dict):
            pairs = list(zip(node.keys, node.values, strict=True))
        elif isinstance(node, ast.Assign):
            pairs = [(target.slice, node.value) for target in node.targets if isinstance(target, ast.Subscript)]
        for key, value in pairs:
            if isinstance(key, ast.Constant) and key.value in keys and _chinese(_text(value)):
                found.append((key.lineno, key.value))
    return found


@pytest.mark.parametrize(("source", "found"), [
    ('MESSAGES_ZH = {"session.out_of_turn": "第 {trick} 墩：该 {turn} 出牌"}', [(1, "session.out_of_turn")]),
    ('ZH = {}\nZH["fact.revoke"] = "未跟花色"', [(2, "fact.revoke")]),
    ('ZH = {"session.out_of_turn": "trick {trick}", "page.words": "中文"}', []),
])
def test_the_checker_finds_the_chinese_of_a_key(source: str, found: list[tuple[int, str]]) -> None:
    assert chinese_of_keys(source, {"session.out_of_turn", "fact.revoke"}) == found


def test_each_layers_chinese_is_in_its_own_catalogue_beside_its_english() -> None:
    """A layer's catalogue holds both languages of its keys: its Chinese has the same keys as its
    English (registered together), is a table of the layer's own ``messages`` module, and no other
    module (the page's ``web/i18n.py`` included) writes the Chinese of any layer's key, nor of a
    finding (the rules core's, ``scorer/messages.py``), nor of a 嘴和 key (``scorer/zuihe/messages.py``)."""
    import importlib

    assert set(CATALOGUES_ZH) == set(LAYER_CATALOGUES)
    gathered: dict[str, str] = {}
    for layer, english in LAYER_CATALOGUES.items():
        chinese = CATALOGUES_ZH[layer]
        assert set(chinese) == set(english), layer
        module = importlib.import_module(f"tuolaji.{layer}.messages")
        assert any(table is chinese for table in vars(module).values()), f"{layer}'s Chinese is not in {layer}/messages.py"
        assert any(table is english for table in vars(module).values()), f"{layer}'s English is not in {layer}/messages.py"
        gathered.update(chinese)
    assert gathered == MESSAGES_ZH
    from tuolaji.scorer.zuihe.messages import MESSAGES_EN as ZUIHE_EN

    home = {key: f"{layer}/messages.py" for layer, english in LAYER_CATALOGUES.items() for key in english}
    home.update({key: "scorer/messages.py" for key in FINDINGS_EN})
    home.update({key: "scorer/zuihe/messages.py" for key in ZUIHE_EN})  # 嘴和's, beside its English too
    stray: dict[str, list[str]] = {}
    for path in sorted(path for layer in LAYERS for path in (ROOT / layer).rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        for line, key in chinese_of_keys(path.read_text(encoding="utf-8"), set(home)):
            if home[key] != name:
                stray.setdefault(name, []).append(f"{line}: {key} (belongs in {home[key]})")
    assert stray == {}, "a key's Chinese outside its layer's catalogue"


def test_each_layer_registers_its_catalogue_when_imported() -> None:
    """A layer's errors can be raised as soon as any module of it is imported: its package's
    ``__init__`` imports its catalogue (which registers itself)."""
    for layer in ("session", "vision", "web", "club"):
        tree = ast.parse((ROOT / layer / "__init__.py").read_text(encoding="utf-8"))
        imported = {alias.name for node in tree.body if isinstance(node, ast.ImportFrom) and node.level == 1
                    and not node.module for alias in node.names}
        assert "messages" in imported, layer
        assert f"register_messages(\"{layer}\"" in (ROOT / layer / "messages.py").read_text(encoding="utf-8")


def _kinds(base: type) -> list[type]:
    out = []
    for kind in base.__subclasses__():
        out.append(kind)
        out.extend(_kinds(kind))
    return out


def test_every_finding_is_one_message_worded_in_both_languages() -> None:
    """Each kind of violation is one key (``fact.SENTENCE``) whose parameters are its fields; each
    penalty and ruling a ``penalty.``/``ruling.`` key; each has its English and its Chinese."""
    kinds = [kind for kind in _kinds(violations.Fact) if kind.__module__ == violations.__name__ and kind.sentence]
    assert len(kinds) >= 39
    for kind in kinds:
        key = f"fact.{kind.sentence}"
        assert key in FINDINGS_EN and key in FINDINGS_ZH, key
        names = {f.name for f in dataclasses.fields(kind)}
        assert template_fields(FINDINGS_EN[key]) <= names and template_fields(FINDINGS_ZH[key]) <= names, key
    keys = {violations.PenaltyFact(offence, mode, 1).message().key  # type: ignore[arg-type]
            for offence in ("throw", "discard") for mode in ("points", "level-points", "level")}
    keys |= {violations.RulingFact(0, None, 10, 0).message().key, violations.RulingFact(0, None, 0, 1).message().key}
    assert keys <= set(FINDINGS_EN) & set(FINDINGS_ZH)


def test_no_module_words_a_kind_of_finding_of_its_own() -> None:
    """One renderer per kind: the page and the rules core's text modules import no kind of finding by name
    (they word a finding through its message), only the generic names."""
    generic = {"Fact", "Violation", "Penalty", "PenaltyFact", "RulingFact", "DealFindings"}
    kinds = {kind.__name__ for kind in _kinds(violations.Fact)} | {"Evidence", "Beaten"}
    offenders = {}
    for path in [*sorted((ROOT / "web").rglob("*.py")), ROOT / "scorer" / "violation_text.py", ROOT / "scorer" / "messages.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("violations"):
                named = {alias.name for alias in node.names} & kinds - generic
                if named:
                    offenders[path.relative_to(ROOT).as_posix()] = sorted(named)
    assert offenders == {}


# --- no module keeps a word table of its own ---------------------------------------------------------


@pytest.mark.parametrize(("source", "what"), [
    ('WORDS = {"title": {"zh": "拖拉机", "en": "Tractor"}}', "a {zh, en} literal"),
    ('def f():\n    return {"zh": f"第 {n} 副", "en": f"deal {n}"}', "a {zh, en} literal"),
    ('PLACES = {"deals": ("第 {n} 副", "deal {n}")}', "a (Chinese, English) pair"),
    ('def f(lang):\n    return "无主" if lang == "zh" else "no trump"', "words chosen by language"),
    ('SUITS_ZH = {"S": "黑桃", "H": "红桃"}', "a table of Chinese words"),
])
def test_the_checker_finds_a_word_table(source: str, what: str) -> None:
    assert [found for _, found in word_tables(source)] == [what]


@pytest.mark.parametrize("source", [
    'error_response(both("watch.refused"), 403)',
    'def f(words):\n    return {"zh": words["zh"], "en": words["en"]}',
    'NOTES = {"a": "seed 001 找朋友: 3 decks", "b": "seed 004 泰坦尼克: 3 decks"}',
    'text = "：" if colon else ": "',
])
def test_the_checker_lets_words_from_the_catalogue_pass(source: str) -> None:
    assert word_tables(source) == []


def test_no_module_keeps_a_word_table_of_its_own() -> None:
    """Outside the catalogue modules, web/, scorer/, session/ and club/ write no words in two languages of their own
    (the few of :data:`KNOWN` excepted, which may only shrink)."""
    found: dict[str, list[tuple[int, str]]] = {}
    for path in modules():
        tables = word_tables(path.read_text(encoding="utf-8"))
        if tables:
            found[path.relative_to(ROOT).as_posix()] = tables
    grown = {name: tables for name, tables in found.items() if len(tables) > KNOWN.get(name, 0)}
    assert grown == {}, "a word table outside the catalogues (web/i18n.py, scorer/messages.py): " + repr(grown)
    gone = {name for name, count in KNOWN.items() if len(found.get(name, ())) < count}
    assert gone == set(), f"fewer word tables than KNOWN says in {sorted(gone)}: lower the count"
