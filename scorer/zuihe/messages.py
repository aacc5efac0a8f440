"""Why a 嘴和 hand is refused, as data: a message key and its parameters.

Every :class:`ZuiheInputError` (``HandError``, ``CardError``) carries ``key`` and
``params``; ``str(error)`` is the English line rendered here from :data:`MESSAGES_EN`.
Other languages render the same key and parameters from their own table (the Chinese
one is ``web.zuihe_i18n.MESSAGES_ZH``), so no one has to read the English back.

Templates are :meth:`str.format` strings rendered by :func:`scorer.messages.render`: a list
parameter takes a ``{name:SEP|EMPTY}`` spec, joined by ``SEP`` and shown as ``EMPTY`` when it is empty.

>>> error = ZuiheInputError("cha_shape", where="melds[0]", cards=("5B", "5B", "6B"))
>>> str(error), error.key, error.params["cards"]
('melds[0]: a cha (叉) is 3 alike, got 5B 5B 6B', 'cha_shape', ('5B', '5B', '6B'))
>>> render(MESSAGES_EN["size"], {"total": 29, "hand": 29, "melds": 0, "yun": 0, "sizes": (30, 31)})
'hand: 29 cards in all (hand 29 + melds 0 + yun 0); a 嘴和 winner holds 30 or 31'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from ..errors import InputError
from ..messages import render

#: The English line of every message key; the parameters each one names are the data.
MESSAGES_EN: dict[str, str] = {
    # options
    "patterns": 'options.patterns: must be "best" or "sum", got {value!r}',
    "option_pair": '{where}: expected key=value, got "{pair}"',
    "option_unknown": "{where}.{key}: unknown option (known: {known:, })",
    "options_object": "options: expected an object",
    "bool": "{where}: expected true or false, got {value!r}",
    "sizes": '{where}: expected "any" or sizes like 30,31, got {value!r}',
    # the HAND.json object
    "hand_object": 'HAND.json: expected an object with a "hand" list',
    "top_key": "{key}: unknown key (hand, melds, yun, flags, options)",
    "hand_missing": "hand: missing (the concealed cards)",
    "melds_list": "melds: expected a list",
    "cards_list": "{where}: expected a list of cards, got {type}",
    # melds
    "meld_object": '{where}: expected an object like {{"type": "cha", "cards": [...]}}',
    "meld_key": "{where}: unknown key {key!r}",
    "meld_type": "{where}.type: unknown meld type {value!r} (cha, guang or chi)",
    "meld_cards_missing": "{where}.cards: missing",
    "cha_shape": "{where}: a cha (叉) is 3 alike, got {cards: |nothing}",
    "guang_shape": "{where}: a guang (光) is 4 alike, got {cards: |nothing}",
    "chi_shape": "{where}: a chi (吃) must be a 副, 报 or 七套, got {cards: |nothing}",
    # 云幺
    "yun_list": "{where}: expected a list of cards or a list of lists",
    "yun_shape": "{where}: a 云幺 is 中 发 白 1B 1T 1W (小) or those and 9T (大), got {cards: |nothing}",
    # flags
    "flags_object": "{where}: expected an object",
    "flag_bool": "{where}.{key}: expected true or false, got {value!r}",
    "flag_jian": "{where}.jian: expected null, huang, mian, cha or tong, got {value!r}",
    "flag_unknown": "{where}.{key}: unknown flag (tianhe, dihe, mo, za, jian)",
    "tianhe_dihe": "{where}: tianhe (天和, the dealer's) and dihe (地和, another player's) contradict",
    # the whole hand
    "fifth_copy": "{where}: a 5th {card} ({name}); there are only 4 of each",
    "too_many": "hand: {total} cards in all; a 嘴和 hand holds at most {most} (the dealer's)",
    "size": "hand: {total} cards in all (hand {hand} + melds {melds} + yun {yun}); a 嘴和 winner holds {sizes: or }",
    # cards
    "card_kind": "card kind {kind} is out of range 0..29",
    "card_unknown": 'unknown card "{text}"',
    "card_at": '{where}[{index}]: unknown card "{text}"',
}


class ZuiheInputError(InputError):
    """A 嘴和 input error: ``key`` (one of :data:`MESSAGES_EN`) and ``params``; its text is the English."""

    messages: ClassVar[Mapping[str, str]] = MESSAGES_EN


__all__ = ["MESSAGES_EN", "ZuiheInputError", "render"]
