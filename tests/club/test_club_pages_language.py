"""The club's pages speak one language at a time (issue 43, item 4): every club page, in Chinese and in
English (``?lang=zh``, ``?lang=en``), shows no raw catalogue key and no slash-bilingual text
("俱乐部 / The club"), carries the table's language toggle and takes its words from the one
catalogue; the room's scripts spell no word of their own; the room's summary says a settled deal's
total and the referee's list names the player."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from tuolaji.web.i18n import STRINGS

from .conftest import ClubServer, evening_record, organiser
from .test_rounds import evening

ROOM_SCRIPTS = ("club.js", "club_referee.js", "club_standings.js")
STATIC = Path(__file__).resolve().parents[2] / "web" / "static"
CJK = "\u4e00-\u9fff"
SLASH_BILINGUAL = re.compile(rf"[{CJK}][^<>{{}}\n]{{0,12}}\s/\s*[A-Za-z]|[A-Za-z][^<>{{}}\n]{{0,12}}\s/\s*[{CJK}]")
KEY_SHAPE = re.compile(r"\b[a-z_]+(?:\.[a-z_0-9-]+)+\b")


class VisibleText(HTMLParser):
    """A page's text as a reader sees it (no script, no style) and its attributes a reader hears."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skip = 0
        self.scripts: list[str] = []
        self.toggle = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag in ("script", "style"):
            self.skip += 1
            if tag == "script" and values.get("src"):
                self.scripts.append(str(values["src"]))
        if values.get("id") == "lang-toggle":
            self.toggle = True
        for name in ("aria-label", "placeholder", "title"):
            if values.get(name):
                self.parts.append(str(values[name]))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        if not self.skip and data.strip():
            self.parts.append(data.strip())


def raw_keys(text: str) -> list[str]:
    return [word for word in KEY_SHAPE.findall(text) if word in STRINGS]


CLUB_PAGES = ("/club", "/club/screen", "/club/referee", "/club/standings", "/club/director", "/club/cards",
              "/club/slide", "/club/table/A")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_club_page_in_one_language(club: ClubServer, lang: str) -> None:
    client, records, tables = evening(club)
    tables.push("A", records["A"])
    token = organiser(club)["Authorization"].removeprefix("Bearer ")
    paths = [*CLUB_PAGES, f"/club/referee?token={token}", f"/club/director?token={token}"]
    for path in paths:
        answer = client.get(path + ("&" if "?" in path else "?") + f"lang={lang}")
        assert answer.status_code in (200, 403), path  # the console without its token says so (403)
        html = answer.get_data(as_text=True)
        reader = VisibleText()
        reader.feed(html)
        text = "\n".join(reader.parts)
        assert reader.toggle, f"{path}: no language toggle"
        assert not raw_keys(text), f"{path} ({lang}) shows raw keys: {raw_keys(text)}"
        assert not SLASH_BILINGUAL.search(text), f"{path} ({lang}) is slash-bilingual: {SLASH_BILINGUAL.search(text)}"
        assert f'data-lang="{lang}"' in html, path
        if lang == "en" and not path.startswith("/club/table/"):  # the table's own page shows its players' names
            assert not re.search(f"[{CJK}]", text.replace(STRINGS["lang.toggle"]["en"], "")), f"{path} (en): {text}"
        for script in reader.scripts:
            if script.removeprefix("/static/") in ROOM_SCRIPTS:
                code = re.sub(r"/\*.*?\*/|//[^\n]*", "", (STATIC / script.removeprefix("/static/")).read_text("utf-8"),
                              flags=re.S)
                assert not re.search(f"[{CJK}]", code), f"{script} spells words of its own"
                used = set(re.findall(r'\bt\("([^"]+)"', code))
                assert used <= set(STRINGS), f"{script} uses words not in the catalogue: {used - set(STRINGS)}"


def test_the_club_pages_words_are_in_both_languages() -> None:
    for path in ROOM_SCRIPTS:
        code = (STATIC / path).read_text(encoding="utf-8")
        for key in re.findall(r'\bt\("([^"]+)"', code):
            assert STRINGS[key]["zh"] and STRINGS[key]["en"], key
    for key, words in STRINGS.items():
        if key.startswith(("room.", "referee.", "standings.")):
            assert not SLASH_BILINGUAL.search(words["zh"]) and not SLASH_BILINGUAL.search(words["en"]), key


def test_the_room_says_a_settled_deals_total_and_the_referee_names_the_player(club: ClubServer) -> None:
    from tuolaji import scorer

    client, _, tables = evening(club)
    whole = evening_record((8,), ("老张", "阿梅", "小李", "Bob"))  # its kitty counts: 35 taken in tricks, 75 in all
    record = whole | {"deals": whole["deals"][:1]}  # the deal settled, the next not set up yet
    tables.push("A", record)
    summary = next(t for t in client.get("/club/api/overview").get_json()["tables"] if t["table"] == "A")["summary"]
    audit = scorer.audit_record(record)["deals"][0]
    assert summary["settled"] is True
    assert summary["total_points"] == audit["total_defender_points"] != audit["defender_points"]
    referee = client.get("/club/api/referee").get_json()
    for violation in referee["violations"]:
        assert violation["player"] == record["players"][violation["seat"]]
        assert violation["words"]["zh"] and violation["words"]["en"]


@pytest.mark.browser
def test_the_room_in_both_languages_in_the_browser(page: Any, club: ClubServer) -> None:
    """The room's card names the players, shows the trump by its suit sign and a settled deal's total
    (kitty and penalties in), no one's turn; the toggle redraws it in English and back."""
    from tuolaji import scorer
    from tuolaji.scorer.cards import SUIT_SYMBOLS

    client, _, tables = evening(club)
    whole = evening_record((8,), ("老张", "阿梅", "小李", "Bob"))  # its kitty counts: 35 taken in tricks, 75 in all
    record = whole | {"deals": whole["deals"][:1]}  # the deal settled, the next not set up yet
    tables.push("A", record)
    audit = scorer.audit_record(record)["deals"][0]
    total = audit["total_defender_points"]
    assert total != audit["defender_points"]
    trump = record["deals"][0]["trump"]
    sign = STRINGS["trump.NT"]["zh"] if trump == "NT" else SUIT_SYMBOLS[trump]
    page.goto(f"{club.url}/club?lang=zh")
    card = page.locator(".table[data-table='A']")
    card.locator(".points.total").wait_for()
    assert card.locator(".points.total").inner_text() == str(total)
    assert card.locator(".trump-sign").inner_text() == sign
    assert card.locator(".players").inner_text() == " · ".join(record["players"])
    assert "第 1 局" in card.inner_text() and "副" not in card.inner_text()
    assert card.locator(".turn").count() == 0 and "轮到" not in card.inner_text()
    assert page.locator("h1").inner_text() == "俱乐部"
    page.click("#lang-toggle")
    card.get_by_text("Deal 1").wait_for()
    assert page.locator("h1").inner_text() == "The club"
    assert "Defenders' total" in card.inner_text() and card.locator(".points.total").inner_text() == str(total)
    assert "/" not in page.locator("body").inner_text().replace("#", "")
    page.click("#lang-toggle")
    card.get_by_text("第 1 局").wait_for()
