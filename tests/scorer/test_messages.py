"""What the scorer, the session and the page say is data: every error names a message key and its
parameters, every key has its English (its layer's catalogue: scorer/, session/, vision/, web/ or
club/messages.py, joined in scorer.messages.MESSAGES_EN) and its Chinese (web/i18n.py), and the
page words them without reading the English back (web/explain.py holds no regular expression)."""

from __future__ import annotations

import ast
import pickle
import string
from pathlib import Path

import pytest

import tuolaji.club.messages  # noqa: F401  (every layer's catalogue joins the table: all of its keys)
import tuolaji.vision.messages  # noqa: F401
from tuolaji import scorer
from tuolaji.scorer.errors import InputError
from tuolaji.scorer.follow import Obligation
from tuolaji.scorer.messages import FREE_TEXT, MESSAGES_EN, MESSAGES_ZH, Message, render, template_fields
from tuolaji.web.explain import (
    OBLIGATION_KEYS,
    describe_error,
    describe_hint,
    describe_message,
    describe_obligation,
)

ROOT = Path(__file__).resolve().parents[2]
KEYED_PACKAGES = ("scorer", "session", "web", "club", "vision")
"""Where every error is raised by key (the commands' own lines, which no page shows, may be free text)."""
def sources() -> list[Path]:
    return [path for package in KEYED_PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
            if "zuihe" not in path.parts]


def input_error_classes() -> set[str]:
    """The names of InputError and its subclasses defined in the keyed packages."""
    bases: dict[str, set[str]] = {}
    for package in KEYED_PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "zuihe" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef):
                    names = {b.id if isinstance(b, ast.Name) else b.attr for b in node.bases
                             if isinstance(b, ast.Name | ast.Attribute)}
                    bases.setdefault(node.name, set()).update(names)
    found = {"InputError"}
    while True:
        more = {name for name, parents in bases.items() if parents & found} - found
        if not more:
            return found
        found |= more


def raise_sites() -> list[tuple[str, int, str, ast.expr | None]]:
    """(file, line, class, first argument) of every construction of an InputError subclass (嘴和's
    errors have a table of their own: tests/scorer/test_zuihe_messages.py)."""
    classes = input_error_classes()
    sites = []
    for path in sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
                if name in classes:
                    sites.append((str(path.relative_to(ROOT)), node.lineno, name, node.args[0] if node.args else None))
    return sites


def site_keys(first: ast.expr | None) -> list[str] | None:
    """The keys a raise site can name (a constant, or either branch of ``a if c else b``); None when
    it passes another error's key on (``RecordError(exc.key, **exc.params)``)."""
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        return [first.value]
    if isinstance(first, ast.IfExp):
        return [*(site_keys(first.body) or []), *(site_keys(first.orelse) or [])]
    if isinstance(first, ast.Attribute) and first.attr == "key":
        return None
    return ["<not a key: " + ast.dump(first)[:60] + ">" if first is not None else "<no key>"]


def test_every_error_of_the_rules_the_session_and_the_page_names_a_key() -> None:
    sites = raise_sites()
    assert len(sites) >= 150
    unkeyed = [(file, line, cls, keys) for file, line, cls, first in sites
               for keys in [site_keys(first)] if keys is not None and not set(keys) <= set(MESSAGES_EN) - {FREE_TEXT}]
    assert unkeyed == []


def test_every_key_is_said_somewhere() -> None:
    """A key no code names is dead words: each key of the table appears as a constant in the code."""
    constants: set[str] = set()
    for path in sources():
        if path.name in ("messages.py", "i18n.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                constants.add(node.value)
    assert set(MESSAGES_EN) - {FREE_TEXT} - constants == set()


def test_every_key_has_both_languages_with_the_same_facts() -> None:
    assert set(MESSAGES_ZH) == set(MESSAGES_EN)
    for key, english in MESSAGES_EN.items():
        facts = template_fields(english)
        derived = {"at"} if "where" in facts else set()  # the place with its colon
        assert template_fields(MESSAGES_ZH[key]) <= facts | derived, key


@pytest.mark.parametrize("key", sorted(k for k in MESSAGES_EN if k.startswith("hint.")))
def test_every_hint_has_both_languages(key: str) -> None:
    params = {"suit": "trump", "n": 3, "held": 2, "extra": 1, "requirement": ((2, 1), (1, 1))}
    words = describe_hint(Message(key, {name: params[name] for name in template_fields(MESSAGES_EN[key])}))
    assert words["parsed"] and words["zh"] != words["en"]
    assert "主牌" in words["zh"] and "trump" in words["en"]


def test_every_obligation_has_both_languages() -> None:
    kinds = {
        "obligation.mixed": Obligation(3),
        "obligation.single": Obligation(1, 2),
        "obligation.ladder": Obligation(4, 4, ((2, 2),), False, (((2, 2),), ((2, 1), (1, 1), (1, 1)),
                                                                  ((1, 1),) * 4), (3,)),
    }
    assert set(kinds) == OBLIGATION_KEYS
    for key, obligation in kinds.items():
        assert obligation.key == key
        words = describe_obligation(obligation)
        assert words["parsed"] and words["en"] == str(obligation) and words["zh"] != words["en"]


def test_the_english_line_is_the_scorers_and_the_facts_are_data() -> None:
    with pytest.raises(scorer.RecordError) as caught:
        scorer.validate_record({"rules": "standard-2deck", "deals": [
            {"level": "2", "trump": "S", "dealer": 0, "tricks": [{"leader": 0, "plays": [["1H"]]}]}]})
    error = caught.value
    assert str(error) == 'deals[0].tricks[0].plays[0]: unknown card "1H"' and error.args == (str(error),)
    assert error.key == "record.at" and error.params["where"] == "deals[0].tricks[0].plays[0]"
    inner = error.params["error"]
    assert isinstance(inner, scorer.CardError) and (inner.key, inner.params) == ("card.unknown", {"text": "1H"})
    assert describe_error(error)["zh"] == '记录有误：第 1 副第 1 墩第 1 手不认识的牌 "1H"'


def test_an_error_survives_pickling_with_its_facts() -> None:
    from tuolaji.session.live import NotSavedError

    for error in (InputError("record.no_deal", deal=3), NotSavedError("session.not_saved", "locked", where="db",
                                                                      problem="busy"), InputError("a line")):
        again = pickle.loads(pickle.dumps(error))
        assert type(again) is type(error) and (again.key, again.params, str(again)) == (error.key, error.params,
                                                                                          str(error))
        assert getattr(again, "kind", None) == getattr(error, "kind", None)


def test_an_unknown_key_with_facts_is_a_mistake_and_free_text_is_only_text() -> None:
    with pytest.raises(KeyError):
        InputError("record.no_such_key", deal=1)
    free = InputError("camera 3: no such device")
    assert (free.key, free.params, str(free)) == (FREE_TEXT, {"text": "camera 3: no such device"},
                                                  "camera 3: no such device")
    assert describe_error(free) == {"zh": str(free), "en": str(free), "parsed": False}
    assert render(MESSAGES_EN[FREE_TEXT], free.params) == str(free)


def test_the_page_reads_no_english_back() -> None:
    """web/explain.py words data: it imports no regular expressions at all."""
    tree = ast.parse((ROOT / "web" / "explain.py").read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert "re" not in imported and "regex" not in imported
    assert not [node for node in ast.walk(tree) if isinstance(node, ast.Name) and node.id == "re"]


def sample_params(key: str) -> dict[str, object]:
    """Made-up facts of the kinds a key's English template asks for (by its format specs and names)."""
    named: dict[str, object] = {"where": "deals[0].tricks[1]", "seat": 1, "turn": 2, "deal": 0, "trick": 1, "index": 0,
                                "position": 0, "error": InputError("card.unknown", text="1H"),
                                "why": Message("resume.players_or_rules"), "suit": "trump", "profile": "standard-2deck",
                                "change": "setting"}
    params: dict[str, object] = {}
    for _, field, spec, _ in string.Formatter().parse(MESSAGES_EN[key]):
        if not field:
            continue
        name = field.split("[")[0]
        if "[" in field:
            params[name] = ("2", "S", 0)
        elif name in named:
            params[name] = named[name]
        elif spec in (",", "plural") or spec.endswith("x"):
            params[name] = 3
        elif spec == "g":
            params[name] = 1.5
        elif spec.startswith("requirement"):
            params[name] = ((2, 1), (1, 1))
        elif spec and spec != "json":
            params[name] = ("AS", "BJ")
        else:
            params.setdefault(name, 7)
    return params


@pytest.mark.parametrize("key", sorted(set(MESSAGES_EN) - {FREE_TEXT}))
def test_every_key_is_worded_from_its_facts(key: str) -> None:
    """Each key renders in English and in the page's two languages from facts of the kinds it names
    (a template that cannot be filled would leave the page with the English alone)."""
    message = Message(key, sample_params(key))
    english = str(message)
    words = describe_message(message, ["东", "南", "西", "北"])
    assert words["parsed"], key
    assert "{" not in words["zh"].replace("{{", "") or "{" in english, (key, words["zh"])


def test_the_penalties_are_named_in_one_table_a_language() -> None:
    """The English of each penalised offence is the scorer's (``OFFENCE_EN``), and so is the Chinese
    (``OFFENCES_ZH``); the record's details, the rules' words and the set-up form read them."""
    from tuolaji.scorer.profiles import PENALTY_OPTIONS
    from tuolaji.scorer.violation_text import OFFENCE_EN, OFFENCES_ZH, PENALTY_OPTION_OFFENCES
    from tuolaji.web.explain import OFFENCES
    from tuolaji.web.i18n import STRINGS
    from tuolaji.web.rules_words import PENALTY_NAMES

    assert set(OFFENCE_EN) == set(OFFENCES_ZH) == set(PENALTY_OPTION_OFFENCES.values())
    assert set(PENALTY_OPTION_OFFENCES) == set(PENALTY_OPTIONS)
    assert all(OFFENCES[offence] == (OFFENCES_ZH[offence], OFFENCE_EN[offence]) for offence in OFFENCE_EN)
    for option, offence in PENALTY_OPTION_OFFENCES.items():
        assert PENALTY_NAMES[option] == (OFFENCES_ZH[offence], OFFENCE_EN[offence])
        assert STRINGS[f"house.{option}"]["zh"].startswith(OFFENCES_ZH[offence])
        assert STRINGS[f"house.{option}"]["en"].lower().startswith(OFFENCE_EN[offence])
    source = (ROOT / "web" / "explain.py").read_text(encoding="utf-8") + (ROOT / "web" / "view.py").read_text(
        encoding="utf-8") + (ROOT / "web" / "rules_words.py").read_text(encoding="utf-8")
    assert not [word for word in ("小王", "大王", *OFFENCES_ZH.values()) if f'"{word}' in source]
