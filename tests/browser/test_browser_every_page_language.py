"""Every page of the table in one language at a time (issue 43, "Done when": every club and table page
in both languages with no raw key): each page, drawn by its scripts in Chromium, in Chinese and in
English, shows no catalogue key as text, and in English no Chinese but the players' own names and the
toggle's 中文. The club's pages: tests/club/test_club_pages_language.py."""

from __future__ import annotations

import re

import pytest

from tuolaji.web.i18n import STRINGS

from .records import played_deal_record

pytestmark = pytest.mark.browser

KEY_SHAPE = re.compile(r"\b[a-z_]+(?:\.[a-z_0-9-]+)+\b")
CJK = re.compile("[\u4e00-\u9fff]")


def raw_keys(text: str) -> list[str]:
    return [word for word in KEY_SHAPE.findall(text) if word in STRINGS]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_table_page_speaks_one_language(page, server, lang: str) -> None:
    record = played_deal_record()
    record["players"] = ["Amy", "Bo", "Cai", "Dee"]  # the players' names: the one text no language changes
    session = server.open_record(record)
    page.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
    pages = ["", "tv", "referee", "sessions", f"replay/{session}", "stats", "camera", "zuihe/"]
    for path in pages:
        page.goto(server.url + path)
        page.wait_for_load_state("load")
        page.wait_for_timeout(700)  # the page's scripts draw the state
        assert page.evaluate("document.documentElement.dataset.lang") == lang, path
        # the words a reader sees, not the cards' pictures (a joker's face prints 大王 / 小王 as Chinese decks do)
        text = page.evaluate("""() => { const body = document.body.cloneNode(true);
            body.querySelectorAll('svg').forEach((svg) => svg.remove());
            const box = document.createElement('div'); box.style.position = 'absolute'; box.appendChild(body);
            document.documentElement.appendChild(box); const text = box.innerText; box.remove(); return text; }""")
        assert not raw_keys(text), f"/{path} ({lang}) shows raw keys: {raw_keys(text)}"
        if lang == "en" and not path.startswith("zuihe"):  # 嘴和's paper cards print their characters in any language
            chinese = CJK.findall(text.replace(STRINGS["lang.toggle"]["en"], ""))
            where = [text[max(0, m.start() - 60):m.end() + 20] for m in CJK.finditer(text)][:2]
            assert not chinese, f"/{path} (en) shows Chinese: {''.join(chinese)[:80]} in {where}"
