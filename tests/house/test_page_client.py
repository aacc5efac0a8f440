"""The page's client holds together (issue 32, item 5): one shared module and a file per page.

- ``web/static/client.js`` is the one place that talks to the server (``api``, the table's token,
  the error line) and reads the page's words (the strings, the card vocabulary); the other files
  import it (ES modules, no build step);
- no file is over 400 lines (the old 1,130-line ``table.js`` is gone);
- the panels follow the page's render event: no ``setInterval`` anywhere but the named loops that
  ask the server for what changes there (``poll…``: the camera's picture and state);
- no rule in the JS: no seat arithmetic (``%``), no kitty figure multiplied, no card words spelled
  (the server sends the sides, the friends, the kitty's total and the cards' display words).

The 嘴和 page (``zuihe.js``) is a page of its own with its own words; it keeps to the size and
polling rules.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "web" / "static"
TEMPLATES = Path(__file__).resolve().parents[2] / "web" / "templates"
SCRIPTS = sorted(STATIC.glob("*.js"))
TABLE_SCRIPTS = [path for path in SCRIPTS if path.name != "zuihe.js"]
PANELS = ("tracker.js", "evidence.js", "share.js")

_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`(?:[^`\\]|\\.)*`')
_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def code_of(path: Path) -> str:
    """The script without its comments and string literals (what is left is what it computes)."""
    text = path.read_text(encoding="utf-8")
    out, i = [], 0
    while i < len(text):  # strings first, so a "//" inside one is no comment
        string = _STRING.match(text, i)
        comment = _COMMENT.match(text, i)
        if string:
            out.append('""')
            i = string.end()
        elif comment:
            i = comment.end()
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def test_the_scripts_are_the_shared_module_and_one_file_per_page():
    names = {path.name for path in SCRIPTS}
    assert "table.js" not in names
    assert {"client.js", "live.js", "replay.js", "sessions.js", "camera.js"} <= names
    pages = {"live.html": "live.js", "replay.html": "replay.js", "sessions.html": "sessions.js", "camera.html": "camera.js"}
    for template, script in pages.items():
        assert f"filename='{script}'" in (TEMPLATES / template).read_text(encoding="utf-8"), template


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda path: path.name)
def test_no_script_is_over_400_lines(path):
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 400


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda path: path.name)
def test_only_named_server_polling_loops_use_set_interval(path):
    code = code_of(path)
    for call in re.finditer(r"\bsetInterval\s*\(\s*([^,]*),", code):
        name = call.group(1).strip()
        assert re.fullmatch(r"poll[A-Z]\w*", name), f"{path.name}: setInterval({name}, …) is no named poll loop"
        assert re.search(rf"\bfunction {name}\s*\(", code), f"{path.name}: {name} is not defined there"
    if path.name in PANELS:
        assert "setInterval" not in code and "onRender(" in code, f"{path.name} does not follow the render event"
    assert ".renders(" not in code, f"{path.name} watches the render count"


@pytest.mark.parametrize("path", TABLE_SCRIPTS, ids=lambda path: path.name)
def test_one_client_talks_to_the_server_and_reads_the_words(path):
    code = code_of(path)
    text = path.read_text(encoding="utf-8")
    if path.name == "client.js":
        assert "function api(" in code and "X-Tuolaji-Token" in text and "tuolaji-token" in text
        return
    assert "function api(" not in code and "X-Tuolaji-Token" not in text and "tuolaji-token" not in text
    assert 'getElementById("i18n")' not in text and 'getElementById("cards")' not in text
    assert not re.search(r"\bfetch\(", code), f"{path.name} fetches without the shared module"
    assert re.search(r'from "\./client\.js"', text), f"{path.name} does not import the shared module"


@pytest.mark.parametrize("path", TABLE_SCRIPTS, ids=lambda path: path.name)
def test_no_rule_in_the_scripts(path):
    code = code_of(path)
    assert "%" not in code, f"{path.name}: arithmetic modulo (seat order is the server's)"
    assert not re.search(r"kitty_\w+\W*\*|\*\W*[\w.]*kitty_", code), f"{path.name}: a kitty figure computed"
    text = path.read_text(encoding="utf-8")
    for word in ("小王", "大王", "joker"):
        assert word not in _COMMENT.sub("", text), f"{path.name} spells a card's words ({word}): they are the server's"


def test_the_code_reader_drops_strings_and_comments():
    sample = STATIC / "client.js"
    code = code_of(sample)
    assert "card-img" not in code and "The page client" not in code and "function t(" in code
