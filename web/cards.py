"""Card images drawn by the project: one function draws any of the 54 cards as SVG.

No image or font is downloaded: suits are SVG paths, ranks are text in the system's
sans-serif font. :func:`card_svg` gives a standalone SVG document (served at
``/cards/<name>.svg``); :func:`card_sprite` gives one hidden ``<svg>`` with a
``<symbol id="card-<name>">`` per card that the page references with ``<use>``.

>>> svg = card_svg("10H")
>>> svg.startswith("<svg") and 'aria-label="♥10"' in svg
True
>>> len(CARD_NAMES), CARD_NAMES[0], CARD_NAMES[-1]
(54, '2S', 'BJ')
>>> card_label("BJ"), card_label("QS")
('大王', '♠Q')
"""

from __future__ import annotations

from html import escape

from tuolaji.scorer.cards import CARD_NAMES, RANKS, SUIT_SYMBOLS, SUITS  # noqa: F401  (the one vocabulary)

from .i18n import translate

RED = "#c62828"
BLACK = "#1b1b1b"
WIDTH, HEIGHT = 200, 280
FONT = "DejaVu Sans, Liberation Sans, Helvetica, Arial, sans-serif"
CJK_FONT = "WenQuanYi Zen Hei, WenQuanYi Micro Hei, Noto Sans CJK SC, PingFang SC, Microsoft YaHei, sans-serif"

# Suit shapes on a 100 x 100 box.
_SUIT_PATHS: dict[str, str] = {
    "H": "M50 92C22 68 2 50 2 29C2 12 15 2 29 2C39 2 46 8 50 17C54 8 61 2 71 2C85 2 98 12 98 29C98 50 78 68 50 92Z",
    "D": "M50 2L88 50L50 98L12 50Z",
    "S": "M50 2C24 30 3 44 3 63C3 78 15 88 29 88C38 88 44 84 47 78C45 89 39 95 30 99L70 99C61 95 55 89 53 78"
         "C56 84 62 88 71 88C85 88 97 78 97 63C97 44 76 30 50 2Z",
    "C": "M50 4A21 21 0 0 0 33 38A21 21 0 1 0 46 70C45 85 39 94 30 99L70 99C61 94 55 85 54 70"
         "A21 21 0 1 0 67 38A21 21 0 0 0 50 4Z",
}

# Pip positions for 2..10: (column, row) with columns -1/0/1 and rows 0 (top) .. 1 (bottom).
_PIPS: dict[str, list[tuple[int, float]]] = {
    "2": [(0, 0), (0, 1)],
    "3": [(0, 0), (0, 0.5), (0, 1)],
    "4": [(-1, 0), (1, 0), (-1, 1), (1, 1)],
    "5": [(-1, 0), (1, 0), (0, 0.5), (-1, 1), (1, 1)],
    "6": [(-1, 0), (1, 0), (-1, 0.5), (1, 0.5), (-1, 1), (1, 1)],
    "7": [(-1, 0), (1, 0), (0, 0.25), (-1, 0.5), (1, 0.5), (-1, 1), (1, 1)],
    "8": [(-1, 0), (1, 0), (0, 0.25), (-1, 0.5), (1, 0.5), (0, 0.75), (-1, 1), (1, 1)],
    "9": [(-1, 0), (1, 0), (-1, 1 / 3), (1, 1 / 3), (0, 0.5), (-1, 2 / 3), (1, 2 / 3), (-1, 1), (1, 1)],
    "10": [(-1, 0), (1, 0), (0, 1 / 6), (-1, 1 / 3), (1, 1 / 3), (-1, 2 / 3), (1, 2 / 3), (0, 5 / 6),
           (-1, 1), (1, 1)],
}


def split_card(name: str) -> tuple[str, str]:
    """``"10H"`` -> ``("10", "H")``; jokers -> ``("SJ", "")`` / ``("BJ", "")``.

    >>> split_card("10H"), split_card("SJ")
    (('10', 'H'), ('SJ', ''))
    """
    if name in ("SJ", "BJ"):
        return name, ""
    if name not in CARD_NAMES:
        raise ValueError(f"unknown card {name!r}")
    return name[:-1], name[-1]


def card_label(name: str, lang: str = "zh") -> str:
    """The short human label of a card: ``♠Q``, ``♥10``, ``小王``, ``大王`` (``small joker``, ``big joker``).

    >>> card_label("10H"), card_label("BJ"), card_label("SJ", "en")
    ('♥10', '大王', 'small joker')
    """
    rank, suit = split_card(name)
    if not suit:
        return translate(f"joker.{rank}", lang)  # the suited cards show their suit's symbol and rank
    return SUIT_SYMBOLS[suit] + rank


def card_labels() -> dict[str, dict[str, str]]:
    """Every card's display words, by language then card name: the page's one card vocabulary."""
    return {lang: {name: card_label(name, lang) for name in CARD_NAMES} for lang in ("zh", "en")}


def card_color(name: str) -> str:
    """Red for hearts, diamonds and the big joker; black for the rest."""
    rank, suit = split_card(name)
    return RED if suit in ("H", "D") or rank == "BJ" else BLACK


def _suit(suit: str, x: float, y: float, size: float, color: str, *, flip: bool = False) -> str:
    """A suit shape centred on (x, y), ``size`` wide; upside down when ``flip``."""
    scale = size / 100
    rotate = f"rotate(180 {x:.1f} {y:.1f}) " if flip else ""
    return (f'<path d="{_SUIT_PATHS[suit]}" fill="{color}" '
            f'transform="{rotate}translate({x - size / 2:.1f} {y - size / 2:.1f}) scale({scale:.3f})"/>')


def _corner(rank: str, suit: str, color: str) -> str:
    """Rank and suit in the top-left corner (the index a player reads)."""
    text = "10" if rank == "10" else rank
    size = 40 if rank == "10" else 46
    return (f'<text x="24" y="50" text-anchor="middle" font-family="{FONT}" font-weight="700" '
            f'font-size="{size}" fill="{color}" letter-spacing="{-4 if rank == "10" else 0}">{text}</text>'
            + _suit(suit, 24, 74, 30, color))


def _joker_corner(color: str) -> str:
    letters = "".join(
        f'<text x="20" y="{34 + 26 * i}" text-anchor="middle" font-family="{FONT}" font-weight="700" '
        f'font-size="24" fill="{color}">{letter}</text>'
        for i, letter in enumerate("JOKER")
    )
    return letters


def _face(rank: str, suit: str, color: str) -> str:
    """A court card: a framed panel with the big letter and suits."""
    return (
        f'<rect x="48" y="44" width="104" height="192" rx="8" fill="{"#fdecea" if color == RED else "#eceff1"}" '
        f'stroke="{color}" stroke-width="3"/>'
        f'<text x="100" y="162" text-anchor="middle" font-family="{FONT}" font-weight="700" font-size="92" '
        f'fill="{color}">{rank}</text>'
        + _suit(suit, 100, 76, 34, color)
        + _suit(suit, 100, 206, 34, color, flip=True)
    )


def _pips(rank: str, suit: str, color: str) -> str:
    if rank == "A":
        return _suit(suit, 100, 140, 96, color)
    parts = []
    for column, row in _PIPS[rank]:
        x = 100 + column * 37
        y = 62 + row * 156
        parts.append(_suit(suit, x, y, 33, color, flip=row > 0.5))
    return "".join(parts)


def _joker_centre(rank: str, color: str) -> str:
    star = "M50 4L62 38L98 38L69 60L80 95L50 73L20 95L31 60L2 38L38 38Z"
    words = "大王" if rank == "BJ" else "小王"
    return (
        f'<path d="{star}" fill="{color if rank == "BJ" else "none"}" stroke="{color}" stroke-width="5" '
        f'transform="translate(52 52) scale(0.96)"/>'
        f'<text x="100" y="218" text-anchor="middle" font-family="{CJK_FONT}" font-weight="700" font-size="46" '
        f'fill="{color}">{words}</text>'
    )


def card_markup(name: str) -> str:
    """The drawing of one card (no ``<svg>`` wrapper) on a 200 x 280 box."""
    rank, suit = split_card(name)
    color = card_color(name)
    parts = [f'<rect x="2" y="2" width="{WIDTH - 4}" height="{HEIGHT - 4}" rx="16" fill="#fff" '
             f'stroke="#9e9e9e" stroke-width="3"/>']
    if not suit:
        corner = _joker_corner(color)
        centre = _joker_centre(rank, color)
    else:
        corner = _corner(rank, suit, color)
        centre = _face(rank, suit, color) if rank in ("J", "Q", "K") else _pips(rank, suit, color)
    parts.append(corner)
    parts.append(f'<g transform="rotate(180 {WIDTH / 2} {HEIGHT / 2})">{corner}</g>')
    parts.append(centre)
    return "".join(parts)


def back_markup() -> str:
    """The back of a card (a face-down kitty card)."""
    return (
        f'<rect x="2" y="2" width="{WIDTH - 4}" height="{HEIGHT - 4}" rx="16" fill="#1e4d8c" stroke="#0d2a52" '
        'stroke-width="3"/><rect x="18" y="18" width="164" height="244" rx="10" fill="none" stroke="#b3c7e6" '
        'stroke-width="4"/><path d="M100 60L150 140L100 220L50 140Z" fill="none" stroke="#b3c7e6" stroke-width="6"/>'
    )


def card_svg(name: str, *, width: int | None = None) -> str:
    """A standalone SVG document of card ``name`` (any of :data:`CARD_NAMES`, or ``"back"``).

    >>> card_svg("BJ").count("<text") >= 11
    True
    """
    label = "back" if name == "back" else card_label(name)
    body = back_markup() if name == "back" else card_markup(name)
    size = f' width="{width}" height="{round(width * HEIGHT / WIDTH)}"' if width else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}"{size} role="img" '
            f'aria-label="{escape(label)}">{body}</svg>')


def card_sprite() -> str:
    """One hidden inline ``<svg>`` holding a ``<symbol id="card-NAME">`` for every card and the back."""
    symbols = [f'<symbol id="card-{name}" viewBox="0 0 {WIDTH} {HEIGHT}">{card_markup(name)}</symbol>'
               for name in CARD_NAMES]
    symbols.append(f'<symbol id="card-back" viewBox="0 0 {WIDTH} {HEIGHT}">{back_markup()}</symbol>')
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0" style="position:absolute" '
            f'aria-hidden="true">{"".join(symbols)}</svg>')
