"""The README's screenshots, taken from the running page.

Starts ``tuolaji serve --resume`` on a temporary data folder (no camera, no demo), drives the
page in Debian's Chromium through Playwright as a scorer would — set-up with a house rule, bids,
a trick entered by hand (typed Chinese names, a refused card, cards clicked), a lead for the wrong
seat taken back with 撤销, a 找朋友 set-up, an imported deal, a correction, the kitty and a penalty
ruled in the settlement, the next deal and the deal's result row, replay, and the sessions page's
import and export — and writes ``docs/screenshot.png`` and ``docs/guide-*.png`` (reduced to 256
colours, so the pictures stay small)::

    .venv/bin/python scripts/screenshots.py              # every shot, into docs/
    .venv/bin/python scripts/screenshots.py --out /tmp/shots --only setup bids

The page's element ids and classes the tour uses are all in ``SELECTORS`` below: when the page
changes, change them there. ``tests/browser/test_browser_screenshots.py`` runs the first steps so
this script cannot rot unnoticed.
"""

from __future__ import annotations

import argparse
import copy
import json
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.browser.conftest import start_serve, stop_serve  # noqa: E402
from tests.browser.records import point_correction, revoke_record  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

VIEWPORT = {"width": 1280, "height": 900}

SELECTORS: dict[str, str] = {
    # the live page (web/templates/live.html, web/static/live.js and the modules it imports)
    "controls": "section.controls",  # 牌桌设置 and 本局设置, below the history
    "table_area": "section.table-area",  # the felt, the undo bar and the entry beside it
    "felt_controls": "#felt-controls",  # 亮主 / 反主 and 手动记录出牌, under the felt
    "felt": "#felt",
    "deal_heading": "#deal-heading",
    "deal_facts": "#deal-facts",
    "setup": "#setup",
    "setup_open": "#setup > summary",
    "setup_form": "#setup-form",
    "setup_name": "#setup-form input[name=name]",
    "setup_decks": "#setup-form select[name=decks]",
    "setup_profile": "#setup-form select[name=profile]",
    "setup_count": "#setup-form select[name=count]",
    "setup_player": "#player-fields input[name=player]",
    "setup_trump": "#setup-form select[name=trump]",
    "setup_dealer": "#setup-form select[name=dealer]",
    "setup_friend_card": "#friend-fields select[name=friend_card]",
    "setup_friend_nth": "#friend-fields select[name=friend_nth]",
    "setup_submit": "#setup-form button[type=submit]",
    "profile_about": "#profile-about",
    "house_rules": "#house-rules",
    "house_rules_open": "#house-rules > summary",
    "house_option": '#setup-form select[name=house][data-option="{option}"]',
    "bids": "#bids",
    "bids_open": "#bids > summary",
    "bid_seat": '.seat-pick[data-seat="{seat}"]',
    "bid_card": '.bid-card[data-cards="{cards}"]',
    "bid_list": "#bid-list",
    "manual": "#manual",
    "manual_open": "#manual > summary",
    "manual_seat": "#manual-form select[name=seat]",
    "manual_cards": "#manual-form input[name=cards]",
    "manual_submit": "#manual-form button[type=submit]",
    "manual_error": "#manual-error",
    "manual_grid_card": '#manual-grid .pick-add[data-card="{card}"]',
    "manual_chosen": "#manual-chosen .card",
    "manual_clear": "#manual-clear",
    "seat_cards": '#felt .seat[data-seat="{seat}"] .card',
    "undo": "#undo",
    "alert": '#alerts li[data-rule="{rule}"]',
    "history_card": '#trick-{deal}-{trick} td[data-seat="{seat}"] button.card',
    "picker": "#picker",
    "picker_card": '#picker .pick[data-card="{card}"]',
    "summary": "#summary",
    "kitty_wait": "#kitty-wait",
    "kitty_cards": "#kitty-wait-form input[name=cards]",
    "kitty_submit": "#kitty-wait-form button[type=submit]",
    "total_points": "#total-points",
    "ruling_offer": '#summary .ruling-item[data-rule="{rule}"] .ruling-offer',
    "ruled": '#summary .ruling-item[data-rule="{rule}"] .ruled',
    "next_deal_form": "#next-deal-form",
    "next_deal_trump": "#next-deal-form select[name=trump]",
    "next_deal_submit": "#next-deal-form button[type=submit]",
    "levels_chart_svg": "#levels-chart svg",
    "history": "section.history",
    "result_row": '#history .deal-result[data-deal="{deal}"]',
    # the sessions page (web/templates/sessions.html)
    "sessions_row": 'tr[data-session="{session}"]',
    "session_results": '.session-results[data-session="{session}"] .deal-result',
    "resume": 'tr[data-session="{session}"] form[action$="/resume"] button',
    "export": 'tr[data-session="{session}"] a[href$="/export"]',
    "import_file": 'form[action$="/sessions/import"] input[type=file]',
    "import_replay": 'form[action$="/sessions/import"] input[name=replay]',
    "import_submit": 'form[action$="/sessions/import"] button[type=submit]',
    # the replay page (web/templates/replay.html)
    "replay_step": "#step-label",
    "replay_prev": "#replay-prev",
}

PLAYERS = ["老张", "小李", "阿王", "大刘"]
FRIENDS_PLAYERS = ["老张", "小李", "阿王", "大刘", "小陈"]
IMPORTED = ["东家", "南家", "西家", "北家"]

# the first trick of the hand-entered deal: (seat, cards), in playing order from the dealer (seat 1);
# the first typed in Chinese names, the second clicked in the card grid, the others typed as codes
FIRST_TRICK = [(1, "黑桃A 黑桃A"), (2, "3S 4S"), (3, "KS 5S"), (0, "9S 9S")]
# the next lead entered for the wrong seat (小李, seat 1, won the trick), then undone
WRONG_LEAD = (0, "7H")
# the house rule chosen in the set-up: (option, value, what the profile's explanation then says)
HOUSE_RULE = ("kitty_multiplier", "power", "2 的次方")


def sel(name: str, **values: object) -> str:
    """The selector ``name`` of :data:`SELECTORS`, its ``{placeholders}`` filled."""
    return SELECTORS[name].format(**values)


def shrink(path: Path) -> None:
    """Rewrite the PNG at ``path`` in 256 colours (a page's flat colours lose nothing visible; the
    file is about a third of the size), unless that is not smaller."""
    from PIL import Image

    with Image.open(path) as image:
        small = image.convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    packed = path.with_suffix(".small.png")
    small.save(packed, optimize=True)
    if packed.stat().st_size < path.stat().st_size:
        packed.replace(path)
    else:
        packed.unlink()


@contextmanager
def serve(data: Path) -> Iterator[str]:
    """``tuolaji serve --resume`` on the data folder ``data`` (a fresh one: no session yet); yields its address."""
    process, url = start_serve("--resume", "--data", str(data))
    try:
        yield url
    finally:
        stop_serve(process)


@contextmanager
def chromium() -> Iterator[Any]:
    """A browser context of Debian's Chromium, Chinese, at :data:`VIEWPORT`."""
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"screenshots: {CHROMIUM} is not installed (bash scripts/setup.sh dev installs it)")
    from playwright import sync_api

    user_data = tempfile.mkdtemp(prefix="tuolaji-shots-")
    try:
        with sync_api.sync_playwright() as playwright:
            context = playwright.chromium.launch_persistent_context(
                user_data, executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS, viewport=VIEWPORT,
                locale="zh-CN", accept_downloads=True)
            context.set_default_timeout(15_000)
            try:
                yield context
            finally:
                context.close()
    finally:
        shutil.rmtree(user_data, ignore_errors=True)


def imported_record() -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    """The deal the tour imports: a short complete deal with one revoke, its kitty not yet recorded.

    Returns the record, a correction that changes the score (see ``tests/browser/records.py``) and
    the kitty to type."""
    record, _ = revoke_record()
    record = copy.deepcopy(record)
    record["players"] = list(IMPORTED)
    kitty = record["deals"][0].pop("kitty")
    del record["deals"][0]["hands"]  # as a camera records a deal: the hands are known from the plays
    fix = point_correction(record)
    assert fix is not None
    return record, fix, kitty


class Tour:
    """The walk through the page; each step leaves the page where the next one starts, and
    returns the screenshots it wrote."""

    def __init__(self, page: Any, url: str, out: Path) -> None:
        self.page, self.url, self.out = page, url, Path(out)
        self.out.mkdir(parents=True, exist_ok=True)
        self.imported: int | None = None
        self.record, self.fix, self.kitty = imported_record()

    # --- helpers ---------------------------------------------------------------------------------
    def shot(self, name: str, part: str | None = None, *, full_page: bool = False) -> Path:
        path = self.out / name
        self.page.wait_for_timeout(150)  # let the last render settle
        if part:
            self.page.locator(part).first.screenshot(path=str(path))
        else:
            self.page.screenshot(path=str(path), full_page=full_page)
        shrink(path)
        return path

    def wait_text(self, selector: str, text: str) -> None:
        self.page.wait_for_function("([s, t]) => (document.querySelector(s) || {textContent: ''}).textContent.includes(t)",
                                    arg=[selector, text])

    def open_details(self, name: str) -> None:
        details = self.page.locator(sel(name))
        if details.get_attribute("open") is None:
            self.page.locator(sel(name + "_open")).click()

    def close_details(self, *names: str) -> None:
        for name in names:
            self.page.evaluate("s => { const d = document.querySelector(s); if (d) d.open = false; }", sel(name))

    def fill_setup(self, name: str, decks: str, profile: str, players: list[str]) -> None:
        page = self.page
        page.locator(sel("setup_form")).wait_for(state="visible")
        page.locator(sel("setup_name")).fill(name)
        page.locator(sel("setup_decks")).select_option(decks)
        page.locator(sel("setup_profile")).select_option(profile)
        page.locator(sel("setup_count")).select_option(str(len(players)))
        for seat, player in enumerate(players):
            page.locator(sel("setup_player")).nth(seat).fill(player)

    def submit_setup(self, last_player: str) -> None:
        with self.page.expect_response(lambda response: response.url.endswith("/api/setup")) as answer:
            self.page.locator(sel("setup_submit")).click()
        assert answer.value.ok, answer.value.text()
        self.wait_text(sel("felt"), last_player)

    # --- the steps -------------------------------------------------------------------------------
    def setup(self) -> list[Path]:
        """牌桌设置: a new 2-deck game for four players, a house rule chosen; the profile's explanation
        follows it."""
        page = self.page
        page.goto(self.url)
        self.fill_setup("周五晚上", "2", "standard-2deck", PLAYERS)
        self.open_details("house_rules")
        page.locator(sel("house_option", option=HOUSE_RULE[0])).select_option(HOUSE_RULE[1])
        self.wait_text(sel("profile_about"), HOUSE_RULE[2])
        shot = self.shot("guide-setup.png", sel("setup"))
        self.submit_setup(PLAYERS[-1])
        return [shot]

    def bids(self) -> list[Path]:
        """亮主 / 反主: 小李 shows one ♠2, 阿王 overcalls with a pair of ♥2."""
        page = self.page
        self.close_details("setup")
        self.open_details("bids")
        page.locator(sel("bid_seat", seat=1)).click()
        page.locator(sel("bid_card", cards="2S")).click()
        self.wait_text(sel("bid_list"), PLAYERS[1])
        page.locator(sel("bid_seat", seat=2)).click()
        page.locator(sel("bid_card", cards="2H 2H")).click()
        self.wait_text(sel("bid_list"), PLAYERS[2])
        self.wait_text(sel("deal_facts"), "♥")
        shot = self.shot("guide-bids.png", sel("felt_controls"))
        self.close_details("bids")
        return [shot]

    def play(self, seat: int, cards: str) -> None:
        """A play typed into 手动记录出牌 for ``seat`` (any card names the page reads), and recorded."""
        page = self.page
        page.locator(sel("manual_seat")).select_option(str(seat))
        page.locator(sel("manual_cards")).fill(cards)
        self.record_play(seat)

    def record_play(self, seat: int) -> None:
        page = self.page
        count = page.locator(sel("seat_cards", seat=seat)).count()
        with page.expect_response(lambda response: response.url.endswith("/api/play")) as answer:
            page.locator(sel("manual_submit")).click()
        assert answer.value.ok, answer.value.text()
        page.wait_for_function("([s, n]) => document.querySelectorAll(s).length !== n",
                               arg=[sel("seat_cards", seat=seat), count])

    def manual(self) -> list[Path]:
        """手动记录出牌: the first trick entered — typed in Chinese names, a card that is no card refused
        with the reason, cards clicked in the grid, typed codes."""
        page = self.page
        self.close_details("setup", "bids")
        self.open_details("manual")
        (first, typed), (second, clicked), *rest = FIRST_TRICK
        self.play(first, typed)
        page.locator(sel("manual_cards")).fill("红桃1")  # no such card: refused, the reason under the field
        page.locator(sel("manual_submit")).click()
        page.locator(sel("manual_error")).wait_for(state="visible")
        form = self.shot("guide-manual-form.png", sel("felt_controls"))
        page.locator(sel("manual_clear")).click()
        page.locator(sel("manual_seat")).select_option(str(second))
        for card in clicked.split():
            page.locator(sel("manual_grid_card", card=card)).click()
        page.locator(sel("manual_chosen")).nth(len(clicked.split()) - 1).wait_for()
        click = self.shot("guide-manual-click.png", sel("felt_controls"))
        self.record_play(second)
        for seat, cards in rest:
            self.play(seat, cards)
        self.close_details("manual")
        felt = self.shot("guide-manual.png", sel("table_area"))
        return [felt, form, click]

    def undo(self) -> list[Path]:
        """撤销: the next lead entered for the wrong seat (the alert says so), then taken back."""
        page = self.page
        self.open_details("manual")
        self.play(*WRONG_LEAD)
        page.locator(sel("alert", rule="wrong-leader")).wait_for()
        self.wait_text(sel("undo"), "出牌")
        self.close_details("manual")
        shot = self.shot("guide-undo.png", sel("table_area"))
        with page.expect_response(lambda response: response.url.endswith("/api/undo")) as answer:
            page.locator(sel("undo")).click()
        assert answer.value.ok, answer.value.text()
        page.wait_for_function("s => document.querySelectorAll(s).length === 0", arg=sel("alert", rule="wrong-leader"))
        return [shot]

    def friends(self) -> list[Path]:
        """找朋友: a 3-deck game for five players, the dealer calling the second ♠A."""
        page = self.page
        self.open_details("setup")
        self.fill_setup("找朋友", "3", "friends-3deck", FRIENDS_PLAYERS)
        page.locator(sel("setup_friend_card")).first.select_option("AS")
        page.locator(sel("setup_friend_nth")).first.select_option("2")
        page.locator(sel("setup_dealer")).select_option("0")
        shot = self.shot("guide-friends.png", sel("setup"))
        self.submit_setup(FRIENDS_PLAYERS[-1])
        self.wait_text(sel("deal_facts"), "找朋友")
        facts = self.shot("guide-friends-deal.png", sel("table_area"))
        return [shot, facts]

    def import_record(self) -> list[Path]:
        """导入记录 on the sessions page: a played deal's record file, then 继续这局 on it (the
        sessions page is shot by :meth:`export`)."""
        page = self.page
        path = self.out / ".import" / "周六牌局.json"
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps(self.record, ensure_ascii=False), encoding="utf-8")
        page.goto(self.url + "sessions")
        page.locator(sel("import_file")).set_input_files(str(path))
        page.locator(sel("import_replay")).uncheck()
        page.locator(sel("import_submit")).click()
        page.wait_for_url("**/sessions")
        shutil.rmtree(path.parent, ignore_errors=True)
        self.imported = max(int(row) for row in page.eval_on_selector_all(
            "tr[data-session]", "rows => rows.map(r => r.dataset.session)"))
        page.locator(sel("resume", session=self.imported)).click()
        page.wait_for_url(self.url)
        page.locator(sel("kitty_wait")).wait_for(state="visible")
        return []

    def correction(self) -> list[Path]:
        """更正: a misread card in the history clicked, the right one picked; the score follows."""
        page, fix = self.page, self.fix
        page.locator(sel("history_card", deal=fix["deal"], trick=fix["trick"], seat=fix["seat"])).click()
        page.locator(sel("picker")).wait_for(state="visible")
        page.locator(sel("picker_card", card=fix["new"])).hover()
        shot = self.shot("guide-correction.png")
        page.locator(sel("picker_card", card=fix["new"])).click()
        page.locator(sel("picker")).wait_for(state="hidden")
        page.wait_for_function("([s, c]) => (document.querySelector(s) || {dataset: {}}).dataset.card === c",
                               arg=[sel("history_card", deal=fix["deal"], trick=fix["trick"], seat=fix["seat"]), fix["new"]])
        return [shot]

    def kitty(self) -> list[Path]:
        """记录底牌 and 本局违规与处罚: the deal is played, the kitty typed in, the revoke given the rules'
        penalty with one click; the settlement, and the whole page."""
        page = self.page
        page.locator(sel("kitty_cards")).fill(" ".join(self.kitty))
        page.locator(sel("kitty_submit")).click()
        page.locator(sel("total_points")).wait_for()
        page.locator(sel("alert", rule="must-follow-suit")).wait_for()
        with page.expect_response(lambda response: response.url.endswith("/api/ruling")) as answer:
            page.locator(sel("ruling_offer", rule="must-follow-suit")).click()
        assert answer.value.ok, answer.value.text()
        page.locator(sel("ruled", rule="must-follow-suit")).wait_for()
        settlement = self.shot("guide-kitty.png", sel("summary"))
        page.evaluate("window.scrollTo(0, 0)")
        whole = self.shot("screenshot.png")
        return [settlement, whole]

    def next_deal(self) -> list[Path]:
        """开始下一局: the next dealer at his level, trump chosen; the first deal's result row stays in
        the history, the level chart has its first point."""
        page = self.page
        page.locator(sel("next_deal_trump")).select_option("S")
        page.locator(sel("next_deal_submit")).click()
        self.wait_text(sel("deal_heading"), "2")
        page.locator(sel("levels_chart_svg")).wait_for()
        page.locator(sel("result_row", deal=0)).wait_for()
        results = self.shot("guide-results.png", sel("history"))
        return [self.shot("guide-next-deal.png", full_page=True), results]

    def replay(self) -> list[Path]:
        """回放: the imported game, a few steps back from its end."""
        page = self.page
        page.goto(f"{self.url}replay/{self.imported}")
        page.locator(sel("replay_step")).wait_for()
        self.wait_text(sel("replay_step"), "/")
        for _ in range(3):
            before = page.locator(sel("replay_step")).inner_text()
            page.locator(sel("replay_prev")).click()
            page.wait_for_function("([s, t]) => document.querySelector(s).textContent !== t",
                                   arg=[sel("replay_step"), before])
        return [self.shot("guide-replay.png")]

    def export(self) -> list[Path]:
        """导出记录: the sessions page (each deal's result under its game), and the imported game
        downloaded as a record the scorer reads, with the ruling and the page's history in it."""
        from tuolaji import scorer

        page = self.page
        page.goto(self.url + "sessions")
        page.locator(sel("sessions_row", session=self.imported)).wait_for()
        page.locator(sel("session_results", session=self.imported)).first.wait_for()
        with page.expect_download() as download:
            page.locator(sel("export", session=self.imported)).click()
        saved = self.out / ".export.json"
        download.value.save_as(str(saved))
        record = json.loads(saved.read_text(encoding="utf-8"))
        saved.unlink()
        scorer.validate_record(record)
        assert len(record["deals"]) == 2 and record["deals"][0]["kitty"] == self.kitty
        assert [r["rule"] for r in record["deals"][0]["rulings"]] == ["must-follow-suit"]
        assert [entry["change"] for entry in record["history"]] == ["correction", "kitty", "ruling", "next-deal"]
        return [self.shot("guide-sessions.png", "main")]


STEPS: dict[str, Callable[[Tour], list[Path]]] = {
    "setup": Tour.setup,
    "bids": Tour.bids,
    "manual": Tour.manual,
    "undo": Tour.undo,
    "friends": Tour.friends,
    "import": Tour.import_record,
    "correction": Tour.correction,
    "kitty": Tour.kitty,
    "next-deal": Tour.next_deal,
    "replay": Tour.replay,
    "export": Tour.export,
}
"""The steps in order; a step needs the ones before it (``--only`` runs the first steps up to the last named)."""


def take(page: Any, url: str, out: Path, steps: list[str] | None = None) -> list[Path]:
    """Run the tour's steps (all, or up to the last of ``steps``) on a fresh server at ``url``;
    the screenshots of the steps named go to ``out``."""
    names = list(STEPS)
    wanted = set(steps or names)
    last = max(names.index(name) for name in wanted)
    tour = Tour(page, url, out)
    written: list[Path] = []
    scratch = Path(tempfile.mkdtemp(prefix="tuolaji-shots-"))
    try:
        for name in names[:last + 1]:
            if name in wanted:
                written += STEPS[name](tour)
            else:  # run it for the page's state, keep its pictures out of ``out``
                tour.out = scratch
                STEPS[name](tour)
                tour.out = Path(out)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs", help="folder for the PNGs (default docs/)")
    parser.add_argument("--only", nargs="+", choices=list(STEPS), metavar="STEP",
                        help="only these steps' shots (the steps before them still run): " + ", ".join(STEPS))
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="tuolaji-shots-data-") as data, serve(Path(data) / "data") as url, \
            chromium() as context:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        written = take(page, url, args.out, args.only)
        page.close()
    for path in written:
        print(path)
    if errors:
        print("screenshots: the page reported errors: " + "; ".join(errors), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
