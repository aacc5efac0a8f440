"""Cards and their notation.

A card is one of 54 kinds; copies of a kind (from several decks) are identical, so a
card is just its kind. Internally a card is a small int (its index in
:data:`CARD_NAMES`); :class:`Card` is an ``int`` subclass that prints its name.

>>> parse_card("♥10"), parse_card("th"), parse_card("BJ")
(Card('10H'), Card('10H'), Card('BJ'))
>>> format_card(parse_card("as"))
'AS'
"""

from __future__ import annotations

import re

from .errors import InputError

SUITS: tuple[str, ...] = ("S", "H", "C", "D")
SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SMALL_JOKER = 52
BIG_JOKER = 53
NUM_KINDS = 54

JOKERS: tuple[str, ...] = ("SJ", "BJ")
"""The small and the big joker."""
CARD_NAMES: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS) + JOKERS
"""The 54 canonical card names: ``2S``…``AS``, ``2H``…, ``2C``…, ``2D``…``AD``, ``SJ``, ``BJ``."""

_SYMBOL_TO_SUIT = {sym: s for s, sym in SUIT_SYMBOLS.items()}
CARD_INDEX = {name: i for i, name in enumerate(CARD_NAMES)}
"""A canonical card name -> its index in :data:`CARD_NAMES` (the record reader's fast path)."""
_CHINESE_SUITS = {"黑桃": "S", "红桃": "H", "红心": "H", "梅花": "C", "草花": "C", "方块": "D", "方片": "D"}
"""The suits' Chinese names, as players type them before the rank (黑桃A)."""
_CARD_TOKEN = re.compile(r"(?:黑桃|红桃|红心|梅花|草花|方块|方片|[♠♥♣♦])\s*(?:10|[2-9TJQKAtjqka])"
                         r"|(?:10|[2-9TJQKAtjqka])\s*[♠♥♣♦SHCDshcd](?![a-zA-Z])|[大小][王鬼]|[SsBb][Jj]")
_RANK_POINTS = {"5": 5, "10": 10, "K": 10}
CARD_POINTS: tuple[int, ...] = tuple(
    _RANK_POINTS.get(RANKS[i % 13], 0) if i < 52 else 0 for i in range(NUM_KINDS)
)
"""Point value of each card kind (5 → 5, 10 → 10, K → 10)."""


class CardError(InputError):
    """A string that is not a card."""


class Card(int):
    """One card kind, an ``int`` in ``0..53`` that prints as its canonical name.

    >>> c = Card(12)
    >>> c, c.name, c.suit, c.rank, c.points
    (Card('AS'), 'AS', 'S', 'A', 0)
    >>> Card(53).suit is None
    True
    """

    __slots__ = ()

    def __new__(cls, value: int) -> Card:
        if not 0 <= int(value) < NUM_KINDS:
            raise CardError("card.index", value=value)
        return super().__new__(cls, value)

    @property
    def name(self) -> str:
        return CARD_NAMES[self]

    @property
    def suit(self) -> str | None:
        """Printed suit letter, ``None`` for jokers."""
        return SUITS[self // 13] if self < 52 else None

    @property
    def rank(self) -> str | None:
        """Printed rank, ``None`` for jokers."""
        return RANKS[self % 13] if self < 52 else None

    @property
    def is_joker(self) -> bool:
        return self >= 52

    @property
    def points(self) -> int:
        return CARD_POINTS[self]

    def __str__(self) -> str:
        return CARD_NAMES[self]

    def __repr__(self) -> str:
        return f"Card({CARD_NAMES[self]!r})"


CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(NUM_KINDS))


def parse_card(text: str) -> Card:
    """Parse a card name: canonical (``10H``), ``T`` for 10, lower case, suit symbols.

    >>> [format_card(parse_card(t)) for t in ("10h", "♠A", "A♠", "tc", "sj", "大王")]
    ['10H', 'AS', 'AS', '10C', 'SJ', 'BJ']
    >>> [format_card(parse_card(t)) for t in ("黑桃A", "红桃10", "方块Q", "梅花2", "小王", "红心k")]
    ['AS', '10H', 'QD', '2C', 'SJ', 'KH']
    >>> parse_card("1H")
    Traceback (most recent call last):
    ...
    tuolaji.scorer.cards.CardError: unknown card "1H"
    """
    if not isinstance(text, str):
        raise CardError("card.not_text", value=text)
    raw = text.strip()
    found = CARD_INDEX.get(raw)
    if found is not None:
        return CARDS[found]
    if raw in ("小王", "小鬼"):
        return CARDS[SMALL_JOKER]
    if raw in ("大王", "大鬼"):
        return CARDS[BIG_JOKER]
    s = raw.upper()
    if s in ("SJ", "BJ"):
        return CARDS[CARD_INDEX[s]]
    suit = None
    rank = None
    chinese = next((name for name in _CHINESE_SUITS if s.startswith(name)), None)
    if chinese is not None:  # 黑桃A, 红桃10, 梅花2, 方块Q
        suit, rank = _CHINESE_SUITS[chinese], s[len(chinese):].strip()
    elif s and (s[0] in _SYMBOL_TO_SUIT):
        suit, rank = _SYMBOL_TO_SUIT[s[0]], s[1:]
    elif s and (s[-1] in _SYMBOL_TO_SUIT):
        suit, rank = _SYMBOL_TO_SUIT[s[-1]], s[:-1]
    elif s and s[-1] in SUITS:
        suit, rank = s[-1], s[:-1]
    if rank == "T":
        rank = "10"
    if suit is None or rank not in RANKS:
        raise CardError("card.unknown", text=text)
    return CARDS[SUITS.index(suit) * 13 + RANKS.index(rank)]


def format_card(card: int) -> str:
    """Canonical name of a card.

    >>> format_card(0), format_card(52)
    ('2S', 'SJ')
    """
    return CARD_NAMES[card]


def pretty_card(card: int) -> str:
    """Human-readable name with a suit symbol (``♥10``, ``小王``/``大王`` as SJ/BJ).

    >>> pretty_card(parse_card("10H")), pretty_card(52)
    ('♥10', 'SJ')
    """
    if card >= 52:
        return CARD_NAMES[card]
    return SUIT_SYMBOLS[SUITS[card // 13]] + RANKS[card % 13]


def split_card_text(text: str) -> list[str]:
    """The card names in a typed text: separated by spaces, commas or 、, or written one after the
    other (黑桃A红桃10, ♠A♠A); a piece that is no card is kept whole, for its error to name it.

    >>> split_card_text("黑桃A 红桃10,大王、AS")
    ['黑桃A', '红桃10', '大王', 'AS']
    >>> split_card_text("黑桃A红桃10小王 红桃1")
    ['黑桃A', '红桃10', '小王', '红桃1']
    """
    pieces = [piece for piece in re.split(r"[\s,，、;；]+", text) if piece]
    out: list[str] = []
    for piece in pieces:
        found = _CARD_TOKEN.findall(piece)
        if len(found) > 1 and "".join(found).replace(" ", "") == piece.replace(" ", ""):
            out.extend(found)
        else:
            out.append(piece)
    return out


def parse_cards(texts: list[str]) -> list[Card]:
    """Parse a list of card names.

    >>> parse_cards(["AS", "♥10"])
    [Card('AS'), Card('10H')]
    """
    return [parse_card(t) for t in texts]


def format_cards(cards: list[int]) -> list[str]:
    """Canonical names of a list of cards.

    >>> format_cards([0, 53])
    ['2S', 'BJ']
    """
    return [CARD_NAMES[c] for c in cards]


def rank_index(rank: str) -> int:
    """Index of a rank name in :data:`RANKS` (``T`` and lower case accepted).

    >>> rank_index("10"), rank_index("a"), rank_index("T")
    (8, 12, 8)
    """
    r = str(rank).strip().upper()
    if r == "T":
        r = "10"
    if r not in RANKS:
        raise CardError("card.rank", text=rank)
    return RANKS.index(r)
