"""Share a result (blueprint ``share``): a deal's settlement, or a whole game's level chart, as one
PNG image laid out for a phone (1080 px wide, portrait: what 微信 shows full width).

``GET /api/share/<session>/deal/<n>.png``, ``GET /api/share/<session>/deal/<n>/hands.png`` (复盘: everyone's
hand, once the deal is settled) and ``GET /api/share/<session>/levels.png``; ``?lang=en``
for English (Chinese by default). The figures are the audit's (:func:`scorer.audit_record`)
and the page's view of it (:func:`web.view.table_view`).
"""

from __future__ import annotations

import functools
import io
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import Blueprint, Response, abort, request

from tuolaji import scorer
from tuolaji.scorer.cards import SUIT_SYMBOLS
from tuolaji.session.changes import rules_record

from . import view
from .api import get_table
from .cards import card_label
from .i18n import normalise_language, translate

if TYPE_CHECKING:  # Pillow is loaded when a picture is drawn, not with the page (the demo never draws one)
    from PIL import Image, ImageFont

share_bp = Blueprint("share", __name__, url_prefix="/api/share")

WIDTH = 1080
MARGIN = 72
FONT_FILES = ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
              "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", "/usr/share/fonts/truetype/arphic/uming.ttc")
FELT = (31, 107, 67)
INK = (29, 35, 42)
MUTED = (95, 107, 118)
GOLD = (242, 183, 5)
RED = (179, 38, 30)
SIDE_COLOURS = ((179, 38, 30), (21, 101, 192), (46, 125, 50), (230, 81, 0), (106, 27, 154), (0, 131, 143), (93, 64, 55))
SUITS = SUIT_SYMBOLS

def word(key: str, lang: str, **values: object) -> str:
    """The picture's words: ``share.card.KEY`` of the page's catalogue (web/extras_i18n.py)."""
    return translate(f"share.card.{key}", lang, **values)


@functools.cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    from PIL import ImageFont

    for path in FONT_FILES:
        if Path(path).is_file():
            return ImageFont.truetype(path, size)
    return ImageFont.load_default(size)


def png_response(image: Image.Image) -> Response:
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=True)
    return Response(buffer.getvalue(), mimetype="image/png", headers={"Cache-Control": "no-store"})


def _trump_text(trump: str, lang: str) -> str:
    return SUITS.get(trump, translate("trump.NT", lang) if trump == "NT" else trump)


class Card:
    """A portrait canvas drawn top to bottom."""

    def __init__(self, height: int) -> None:
        from PIL import Image, ImageDraw

        self.image = Image.new("RGB", (WIDTH, height), (255, 255, 255))
        self.draw = ImageDraw.Draw(self.image)
        self.y = 0

    def band(self, title: str, subtitle: str) -> None:
        self.draw.rectangle((0, 0, WIDTH, 260), fill=FELT)
        self.draw.text((MARGIN, 60), title, font=font(44), fill=GOLD)
        self.draw.text((MARGIN, 130), subtitle, font=font(64), fill=(255, 255, 255))
        self.y = 320

    def line(self, text: str, size: int = 40, colour: tuple[int, int, int] = INK, gap: int = 24) -> None:
        self.draw.text((MARGIN, self.y), text, font=font(size), fill=colour)
        self.y += size + gap

    def crop(self) -> Image.Image:
        return self.image.crop((0, 0, WIDTH, max(self.y + MARGIN, WIDTH * 4 // 3)))


def deal_card(record: dict[str, Any], deal_index: int, name: str, lang: str) -> Image.Image:
    """The settlement of one deal, as a phone-sized picture."""
    run = scorer.audit_again(rules_record(record))  # one audit: its output, typed findings and dealer sides
    audit = run.output
    table = view.table_view(record, audit, run.findings, run.dealer_sides())
    deal = record["deals"][deal_index]
    deal_audit = audit["deals"][deal_index]
    sides = table["sides"]
    players = record["players"]
    card = Card(2400)
    card.band(word("title", lang) + (f" · {name}" if name else ""), word("deal", lang, n=deal_index + 1))
    card.line("   ".join([word("level", lang, level=deal["level"]), word("trump", lang, trump=_trump_text(deal["trump"], lang)),
                          word("dealer", lang, name=players[deal["dealer"]])]), 40, MUTED, 40)
    card.line(word("points", lang), 40, MUTED, 8)
    total = deal_audit.get("total_defender_points", deal_audit.get("defender_points", 0))
    card.draw.text((MARGIN, card.y), str(total), font=font(180), fill=RED)
    card.draw.text((MARGIN + 40 + card.draw.textlength(str(total), font=font(180)), card.y + 110),
                   word("of", lang, threshold=table["threshold"]), font=font(40), fill=MUTED)
    card.y += 240
    if deal_audit.get("kitty_points") is not None and (deal.get("kitty") is not None or deal.get("kitty_points") is not None):
        won = deal_audit.get("kitty_won_by") == "defenders"  # kept, the kitty multiplies nothing: no multiplier named
        card.line(word("kitty.defenders" if won else "kitty.dealer", lang, points=deal_audit["kitty_points"],
                       multiplier=deal_audit.get("kitty_multiplier", 1)), 36)
        if deal.get("kitty"):  # 只记分 may keep the kitty's points alone
            card.line(" ".join(card_label(c) for c in deal["kitty"]), 36, MUTED, 32)
    if deal_audit.get("penalty_points"):
        card.line(word("penalty", lang, points=deal_audit["penalty_points"]), 36, RED)
    if deal.get("agreed"):
        card.line(word("agreed", lang), 36, MUTED)
    conceded = deal_audit.get("conceded")
    if conceded:  # 认输: no kitty line (none was counted), who conceded instead
        card.line(word("conceded." + str(conceded["by"]), lang, points=conceded["points"]), 36, MUTED)
    outcome = deal_audit.get("outcome")
    card.y += 16
    if outcome is None:
        card.line(word("outcome.open", lang), 56, INK, 40)
    else:
        dealers = set(scorer.dealer_side_seats(rules_record(record), deal_index))
        side = "·".join(players[seat] for seat in range(len(players))
                        if (seat in dealers) == (outcome["side"] == "dealer"))
        key = "outcome.dealer" if outcome["side"] == "dealer" else (
            "outcome.defenders" if outcome.get("levels") else "outcome.none")
        card.line(word(key, lang, side=side, n=outcome.get("levels", 0)), 60, FELT, 48)
        after = deal_audit.get("levels_after")
        if after:
            card.line(word("after", lang), 40, MUTED, 16)
            for index, team in enumerate(sides):
                colour = SIDE_COLOURS[index % len(SIDE_COLOURS)]
                card.line(f"{team['name']}   {after[team['seats'][0]]}", 52, colour, 20)
        if deal_audit.get("game_winner"):
            card.line(word("winner", lang, side=side), 48, RED)
    violations = deal_audit.get("violations", [])
    if violations:
        card.y += 16
        card.line(word("violations", lang, n=len(violations)), 40, RED)
    return card.crop()


def hands_card(record: dict[str, Any], deal_index: int, name: str, lang: str) -> Image.Image | None:
    """复盘 of one settled deal: each seat's hand as it played it and the kitty its dealer buried, as a
    phone-sized picture (None when the view has no 复盘 for it: not settled, or kept by points)."""
    audit = scorer.audit_record(rules_record(record))
    review = view.review_hands(record, deal_index, audit["deals"][deal_index])
    if review is None:
        return None
    deal = record["deals"][deal_index]
    players = record["players"]
    card = Card(2400)
    card.band(word("title", lang) + (f" · {name}" if name else ""), word("review", lang, n=deal_index + 1))
    card.line("   ".join([word("level", lang, level=deal["level"]), word("trump", lang, trump=_trump_text(deal["trump"], lang)),
                          word("dealer", lang, name=players[deal["dealer"]])]), 40, MUTED, 40)
    per_line = 13
    for seat, hand in enumerate(review["hands"]):
        card.line(players[seat], 44, SIDE_COLOURS[seat % len(SIDE_COLOURS)], 12)
        for start in range(0, len(hand), per_line):
            card.line(" ".join(card_label(c) for c in hand[start:start + per_line]), 36, INK, 12)
        card.y += 24
    card.line(translate("review.kitty", lang, name=players[review["dealer"]]), 40, MUTED, 12)  # the page's words
    card.line(" ".join(card_label(c) for c in review["kitty"]), 36, INK, 12)
    return card.crop()


def levels_card(record: dict[str, Any], name: str, lang: str) -> Image.Image:
    """The game's level chart: each side's level after every deal."""
    run = scorer.audit_again(rules_record(record))  # one audit: its output, typed findings and dealer sides
    audit = run.output
    table = view.table_view(record, audit, run.findings, run.dealer_sides())
    history = table["level_history"]
    sides = table["sides"]
    card = Card(1800)
    card.band(word("title", lang) + (f" · {name}" if name else ""), word("levels", lang, n=max(0, len(history) - 1)))
    left, top, right, bottom = MARGIN + 70, card.y + 20, WIDTH - MARGIN, card.y + 820
    ranks = view.LEVELS
    for index, rank in enumerate(ranks):
        y = bottom - (bottom - top) * index / (len(ranks) - 1)
        card.draw.line((left, y, right, y), fill=(225, 229, 234), width=2)
        card.draw.text((MARGIN, y - 18), rank, font=font(30), fill=MUTED)
    steps = max(1, len(history) - 1)
    for index, team in enumerate(sides):
        colour = SIDE_COLOURS[index % len(SIDE_COLOURS)]
        points = [(left + (right - left) * k / steps, bottom - (bottom - top) * ranks.index(levels[team["seats"][0]])
                   / (len(ranks) - 1)) for k, levels in enumerate(history)]
        if len(points) > 1:
            card.draw.line(points, fill=colour, width=8, joint="curve")
        for x, y in points:
            card.draw.ellipse((x - 12, y - 12, x + 12, y + 12), fill=colour)
    card.y = bottom + 60
    for index, team in enumerate(sides):
        colour = SIDE_COLOURS[index % len(SIDE_COLOURS)]
        card.draw.rectangle((MARGIN, card.y + 8, MARGIN + 40, card.y + 48), fill=colour)
        card.draw.text((MARGIN + 64, card.y), f"{team['name']}   {table['levels'][team['seats'][0]]}", font=font(48), fill=colour)
        card.y += 80
    players = record["players"]
    for index, deal_audit in enumerate(audit["deals"]):
        if deal_audit.get("game_winner"):
            dealers = set(scorer.dealer_side_seats(rules_record(record), index))
            side = "·".join(players[seat] for seat in range(len(players))
                            if (seat in dealers) == (deal_audit["game_winner"] == "dealer"))
            card.line(word("winner", lang, side=side), 48, RED)
    return card.crop()


def request_language() -> str:
    return normalise_language(request.args.get("lang") or request.cookies.get("lang"))


@share_bp.get("/<int:session_id>/deal/<int:deal>.png")
def deal_png(session_id: int, deal: int) -> Response:
    session = get_table().store.get(session_id)
    if not 0 <= deal < len(session.record.get("deals", [])):
        abort(404)
    return png_response(deal_card(session.record, deal, session.name, request_language()))


@share_bp.get("/<int:session_id>/levels.png")
def levels_png(session_id: int) -> Response:
    session = get_table().store.get(session_id)
    if not session.record.get("deals"):
        abort(404)
    return png_response(levels_card(session.record, session.name, request_language()))


@share_bp.get("/<int:session_id>/deal/<int:deal>/hands.png")
def hands_png(session_id: int, deal: int) -> Response:
    session = get_table().store.get(session_id)
    if not 0 <= deal < len(session.record.get("deals", [])):
        abort(404)
    picture = hands_card(session.record, deal, session.name, request_language())
    if picture is None:
        abort(404)
    return png_response(picture)
