"""A deal in play: push/pop moves (python-chess style) and the legal-play generator.

>>> from tuolaji.scorer.cards import format_cards, parse_cards
>>> from tuolaji.scorer.profiles import PROFILES
>>> hands = [parse_cards(h) for h in (["AS", "3H"], ["KS", "4H"], ["QS", "5H"], ["JS", "6H"])]
>>> deal = DealState(PROFILES["standard-2deck"], "2", "H", dealer=0, hands=hands)
>>> deal.turn, [format_cards(p) for p in deal.legal_plays()]
(0, [['AS'], ['3H']])
>>> deal.push(parse_cards(["AS"]))
>>> [format_cards(p) for p in deal.legal_plays()]
[['KS']]
>>> for card in ("KS", "QS", "JS"): deal.push(parse_cards([card]))
>>> deal.trick_winners(), deal.turn
([0], 0)
>>> deal.pop(), deal.turn
([Card('JS')], 3)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from .cards import CARD_POINTS
from .follow import check_follow, hand_counts, suit_holding
from .formats import (
    Lead,
    Strength,
    Unit,
    beating_unit,
    beats,
    embeddings,
    read_format,
    strength,
)
from .order import TrumpOrder
from .profiles import Options
from .seats import position_of, seat_of

__all__ = ["DealState", "Trick", "forced_unit", "legal_follows", "random_follow", "single_unit_leads", "trick_resolution"]


class Trick:
    """One trick: leader, plays so far, the lead and the running winner."""

    __slots__ = ("leader", "plays", "lead", "winners", "strengths", "points")

    def __init__(self, leader: int):
        self.leader = leader
        self.plays: list[list[int]] = []
        self.lead: Lead | None = None
        self.winners: list[int] = []  # winning play index after each play
        self.strengths: list[Strength | None] = []
        self.points: int | None = None  # a points-only trick (只记分): its points, and no cards

    def winner_index(self) -> int | None:
        return self.winners[-1] if self.winners else None


def trick_resolution(order: TrumpOrder, lead: Lead, plays: list[list[int]], compare: str,
                     options: Options | None = None) -> int:
    """Index of the winning play among ``plays`` (``plays[0]`` is the lead)."""
    best = 0
    best_strength = strength(order, lead, plays[0], compare, is_lead=True)
    if best_strength is None:
        return 0
    for i in range(1, len(plays)):
        s = strength(order, lead, plays[i], compare, options=options)
        if s is not None and beats(s, best_strength, compare):
            best, best_strength = i, s
    return best


class DealState:
    """The state of one deal: hands (54 counts per seat), tricks, points won per seat.

    ``push(cards)`` plays the next play (no legality check: the table lets everything
    stand), ``pop()`` takes it back. ``legal_plays()`` lists every legal play of the
    seat to move; ``is_legal(cards)`` checks one.
    """

    def __init__(self, options: Options, level: str | int, trump: str | None, dealer: int,
                 hands: list[list[int]], players: int | None = None):
        self.options = options
        self.players = players if players is not None else len(hands)
        self.order = TrumpOrder.of(level, trump, options.twos_trump)
        self.dealer = dealer
        self.hands = [hand_counts(h) for h in hands]
        self.tricks: list[Trick] = []
        self.points = [0] * self.players

    # ------------------------------------------------------------ position
    @property
    def current(self) -> Trick | None:
        """The trick in progress (None before the first play or after a complete trick)."""
        if self.tricks and len(self.tricks[-1].plays) < self.players:
            return self.tricks[-1]
        return None

    @property
    def turn(self) -> int:
        """The seat to play now."""
        trick = self.current
        if trick is not None:
            return seat_of(trick.leader, len(trick.plays), self.players)
        return self.next_leader()

    def next_leader(self) -> int:
        """Leader of the next trick: the dealer first, then the last trick's winner."""
        if not self.tricks:
            return self.dealer
        last = self.tricks[-1]
        w = last.winner_index()
        return seat_of(last.leader, w or 0, self.players)

    def trick_winners(self) -> list[int]:
        """Winning seat of each complete trick."""
        return [seat_of(t.leader, t.winners[-1], self.players) for t in self.tricks if len(t.plays) == self.players]

    def is_over(self) -> bool:
        return self.current is None and all(sum(h) == 0 for h in self.hands)

    def obligation(self) -> str | None:
        """What the lead of the trick in progress obliges the followers, without any hand
        (:func:`scorer.follow.describe_obligation`); None when no trick is in progress.

        >>> from tuolaji.scorer.cards import parse_cards
        >>> from tuolaji.scorer.profiles import PROFILES
        >>> deal = DealState(PROFILES["standard-2deck"], "2", "S", 0, [parse_cards(["9D"])] + [[]] * 3)
        >>> deal.push(parse_cards(["9D"]))
        >>> deal.obligation()
        '♦ single led: play one ♦ if you hold one, else any card'
        """
        from .follow import describe_obligation

        trick = self.current
        if trick is None or trick.lead is None:
            return None
        return describe_obligation(trick.lead, self.options)

    # ------------------------------------------------------------ moves
    def push(self, cards: list[int], leader: int | None = None) -> None:
        """Play ``cards`` for the seat to move. ``leader`` (first play of a trick only)
        records a lead by another seat than the expected one (the table let it stand)."""
        trick = self.current
        if trick is None:
            seat = self.next_leader() if leader is None else leader
            trick = Trick(seat)
            self.tricks.append(trick)
        else:
            seat = seat_of(trick.leader, len(trick.plays), self.players)
        hand = self.hands[seat]
        for c in cards:
            hand[c] -= 1
        compare = self.options.throw_compare
        if not trick.plays:
            trick.lead = Lead.of(self.order, list(cards), self.options)
            trick.plays.append(list(cards))
            trick.winners.append(0)
            trick.strengths.append(strength(self.order, trick.lead, list(cards), compare, is_lead=True)
                                   if not trick.lead.mixed else None)
        else:
            assert trick.lead is not None
            s = strength(self.order, trick.lead, list(cards), compare, options=self.options)
            w = trick.winners[-1]
            cur = trick.strengths[w]
            trick.plays.append(list(cards))
            trick.strengths.append(s)
            if s is not None and cur is not None and beats(s, cur, compare):
                w = len(trick.plays) - 1
            trick.winners.append(w)
        if len(trick.plays) == self.players:
            winner = seat_of(trick.leader, trick.winners[-1], self.players)
            self.points[winner] += sum(CARD_POINTS[c] for p in trick.plays for c in p)

    def push_points(self, winner: int, points: int, leader: int | None = None) -> None:
        """Record a whole trick by its winner and points alone (只记分, docs/RECORD.md: a table
        without a camera), between two tricks; ``leader`` when known (else the seat due to lead).
        The winner takes the points and leads next; no hand changes.

        >>> from tuolaji.scorer.profiles import PROFILES
        >>> deal = DealState(PROFILES["standard-2deck"], "2", "H", dealer=0, hands=[[], [], [], []])
        >>> deal.push_points(3, 25)
        >>> deal.turn, deal.points, deal.trick_winners()
        (3, [0, 0, 0, 25], [3])
        >>> deal.pop(), deal.turn, deal.points
        ([], 0, [0, 0, 0, 0])
        """
        if self.current is not None:
            raise ValueError("a points-only trick is recorded between tricks, not during one")
        if not 0 <= winner < self.players or points < 0:
            raise ValueError(f"a points-only trick: no seat {winner}, or {points} points")
        trick = Trick(self.next_leader() if leader is None else leader)
        trick.plays = [[] for _ in range(self.players)]
        trick.winners = [position_of(trick.leader, winner, self.players)]
        trick.points = points
        self.tricks.append(trick)
        self.points[winner] += points

    def award(self, winner: int) -> None:
        """The last complete trick was won by ``winner`` whatever its plays say: a trick with a
        play not seen (docs/RECORD.md ``missing``, an empty play here) is won by whoever led the
        next one. Its points move to him and he leads next; :meth:`pop` takes them back from him.

        >>> from tuolaji.scorer.profiles import PROFILES
        >>> deal = DealState(PROFILES["standard-2deck"], "2", "H", dealer=0, hands=[[1], [], [3], [12]])
        >>> for cards in ([1], [], [3], [12]): deal.push(cards)  # ♠3, not seen, ♠5, ♠A
        >>> deal.turn, deal.points
        (3, [0, 0, 0, 5])
        >>> deal.award(1); deal.turn, deal.points
        (1, [0, 5, 0, 0])
        """
        trick = self.tricks[-1]
        if len(trick.plays) != self.players:
            raise ValueError("award: the last trick is not complete")
        before = seat_of(trick.leader, trick.winners[-1], self.players)
        points = trick.points if trick.points is not None else sum(CARD_POINTS[c] for p in trick.plays for c in p)
        self.points[before] -= points
        self.points[winner] += points
        trick.winners[-1] = position_of(trick.leader, winner, self.players)

    def pop(self) -> list[int]:
        """Take back the last play (a points-only trick: the whole trick); returns its cards."""
        trick = self.tricks[-1]
        if trick.points is not None:
            self.tricks.pop()
            self.points[seat_of(trick.leader, trick.winners[-1], self.players)] -= trick.points
            return []
        if len(trick.plays) == self.players:
            winner = seat_of(trick.leader, trick.winners[-1], self.players)
            self.points[winner] -= sum(CARD_POINTS[c] for p in trick.plays for c in p)
        cards = trick.plays.pop()
        trick.winners.pop()
        trick.strengths.pop()
        seat = seat_of(trick.leader, len(trick.plays), self.players)
        for c in cards:
            self.hands[seat][c] += 1
        if not trick.plays:
            self.tricks.pop()
        return cards

    # ------------------------------------------------------------ legality
    def is_legal(self, cards: list[int]) -> bool:
        """Whether the seat to move may play ``cards`` (leads: one suit, and a throw must stand)."""
        seat = self.turn
        hand = self.hands[seat]
        need = hand_counts(cards)
        if not cards or any(need[c] > hand[c] for c in set(cards)):
            return False
        trick = self.current
        if trick is None:
            suits = {self.order.suit[c] for c in cards}
            if len(suits) != 1:
                return False
            units = read_format(self.order, list(cards), self.options)
            return len(units) == 1 or not self.beaten_units(seat, units)
        assert trick.lead is not None
        if trick.lead.mixed:
            return len(cards) == trick.lead.size
        if len(cards) != trick.lead.size:
            return False
        return check_follow(self.order, trick.lead, hand, list(cards), self.options) is None

    def beaten_units(self, seat: int, units: list[Unit]) -> list[tuple[Unit, int, Unit]]:
        """Units of a throw by ``seat`` that another hand beats: (unit, seat, beating unit)."""
        out = []
        suit = self.order.suit[units[0].kinds[0]]
        others = [(s, suit_holding(self.order, self.hands[s], suit)) for s in range(self.players) if s != seat]
        for u in units:
            for s, holding in others:
                b = beating_unit(u, holding, self.order.value)
                if b is not None:
                    out.append((u, s, b))
                    break
        return out

    def legal_plays(self, limit: int | None = None) -> list[list[int]]:
        """Every legal play of the seat to move, each sorted by order; at most ``limit``."""
        out = []
        for play in self.iter_legal_plays():
            out.append(play)
            if limit is not None and len(out) >= limit:
                break
        return out

    def iter_legal_plays(self) -> Iterator[list[int]]:
        seat = self.turn
        trick = self.current
        if trick is None:
            yield from self._leads(seat)
            return
        assert trick.lead is not None
        yield from legal_follows(self.order, trick.lead, self.hands[seat], self.options)

    def _leads(self, seat: int) -> Iterator[list[int]]:
        """Every single-unit lead, then per suit every throw that stands (all of them)."""
        order = self.order
        hand = self.hands[seat]
        for suit in range(5):
            holding = suit_holding(order, hand, suit)
            if not holding:
                continue
            yield from single_unit_leads(order, holding)
        for suit in range(5):
            holding = suit_holding(order, hand, suit)
            if holding:
                yield from self.standing_throws(seat, holding)

    def standing_throws(self, seat: int, holding: dict[int, int]) -> Iterator[list[int]]:
        """Every throw from a one-suit ``holding`` that stands: each sub-multiset read as two
        or more units none of which another hand beats (RULES §4), largest first.

        Only kinds that some unbeaten unit can hold, in such a unit's width, are tried, so a
        suit the others cannot beat at all gives every sub-multiset (as many as the product
        of the counts plus one) and a beatable one far fewer.

        >>> from tuolaji.scorer.cards import format_cards, parse_cards
        >>> from tuolaji.scorer.profiles import PROFILES
        >>> hands = [parse_cards(["AH", "KH", "QH", "JH"]), parse_cards(["3H"]), parse_cards(["4H"]), parse_cards(["5H"])]
        >>> deal = DealState(PROFILES["standard-2deck"], "2", "S", 0, hands)
        >>> throws = [format_cards(t) for t in deal.standing_throws(0, {c: 1 for c in parse_cards(["AH", "KH", "QH", "JH"])})]
        >>> len(throws), ["KH", "AH"] in throws
        (11, True)
        """
        order = self.order
        value = order.value
        suit = order.suit[next(iter(holding))]
        others = [suit_holding(order, self.hands[s], suit) for s in range(self.players) if s != seat]
        best_top: dict[tuple[int, int], int] = {}

        def stands(u: Unit) -> bool:
            shape = u.shape
            if shape not in best_top:
                top = -1
                for h in others:
                    b = beating_unit(Unit(u.width, u.length, -1, ()), h, value)
                    if b is not None:
                        top = max(top, b.top)
                best_top[shape] = top
            return u.top >= best_top[shape]

        widths: dict[int, set[int]] = {}
        for lead in single_unit_leads(order, holding):
            units = read_format(order, lead, self.options)
            if len(units) == 1 and stands(units[0]):
                u = units[0]
                for k in u.kinds:
                    widths.setdefault(k, set()).add(u.width)
        kinds = sorted(widths, key=lambda c: (value[c], c), reverse=True)
        if self.options.triple_pair_tractor:  # the reading may carve: every count of a kind
            choices = [list(range(holding[c], -1, -1)) for c in kinds]
        else:  # tuples stay whole: a kind's count is the width of its unit
            choices = [sorted(widths[c], reverse=True) + [0] for c in kinds]
        pick = [0] * len(kinds)

        def rec(i: int) -> Iterator[list[int]]:
            if i == len(kinds):
                cards = [c for c, n in zip(kinds, pick, strict=True) for _ in range(n)]
                if len(cards) < 2:
                    return
                units = read_format(order, cards, self.options)
                if len(units) >= 2 and all(stands(u) for u in units):
                    yield sorted(cards, key=lambda c: (value[c], c))
                return
            for n in choices[i]:
                pick[i] = n
                yield from rec(i + 1)
            pick[i] = 0

        yield from rec(0)

    def standing_throw(self, seat: int, holding: dict[int, int]) -> list[int] | None:
        """The biggest throw from ``holding`` that stands (its units that nobody beats)."""
        order = self.order
        units = read_format(order, [c for c, n in holding.items() for _ in range(n)], self.options)
        if len(units) < 2:
            return None
        beaten = {id(u) for u, _, _ in self.beaten_units(seat, units)}
        keep = [c for u in units if id(u) not in beaten for c in u.cards()]
        if not keep:
            return None
        units2 = read_format(order, keep, self.options)
        if len(units2) < 2 or self.beaten_units(seat, units2):
            return None
        return sorted(keep, key=lambda c: (order.value[c], c))

    def failing_throw(self, seat: int, rng: random.Random) -> tuple[list[int], list[int]] | None:
        """A throw ``seat`` could try that fails here, and its forced unit (or None)."""
        order = self.order
        suits = list(range(5))
        rng.shuffle(suits)
        for suit in suits:
            holding = suit_holding(order, self.hands[seat], suit)
            if not holding:
                continue
            cards = [c for c, n in holding.items() for _ in range(n)]
            units = read_format(order, cards, self.options)
            if len(units) > 4:
                units = rng.sample(units, rng.randint(2, 4))
            if len(units) < 2:
                continue
            throw = [c for u in units for c in u.cards()]
            units = read_format(order, throw, self.options)
            if len(units) < 2:
                continue
            beaten = self.beaten_units(seat, units)
            if beaten:
                forced = forced_unit([u for u, _, _ in beaten], self.options.forced_unit)
                return throw, forced.cards()
        return None

    # ------------------------------------------------------------ random play
    def random_play(self, rng: random.Random, throw_chance: float = 0.15) -> list[int]:
        """A random legal play for the seat to move (constructed, then checked)."""
        seat = self.turn
        hand = self.hands[seat]
        order = self.order
        trick = self.current
        if trick is None:
            suits = [s for s in range(5) if any(hand[c] > 0 for c in order.members[s])]
            suit = rng.choice(suits)
            holding = suit_holding(order, hand, suit)
            if rng.random() < throw_chance:
                throw = self.standing_throw(seat, holding)
                if throw is not None:
                    return throw
            units = single_unit_leads(order, holding)
            bigger = [u for u in units if len(u) > 1]
            roll = rng.random()
            if bigger and roll < 0.3:
                return max(bigger, key=len)
            if bigger and roll < 0.7:
                return rng.choice(bigger)
            return rng.choice(units)
        assert trick.lead is not None
        return random_follow(order, trick.lead, hand, self.options, rng)


def forced_unit(beaten: list[Unit], mode: str) -> Unit:
    """The unit a failed throw must play (RULES §4 ``forced_unit``).

    ``lowest-beaten`` (default; seeds 000, 001, 004 「只能出其中最小牌」): the beaten unit
    whose highest card ranks lowest, ties to the one with fewer cards;
    ``largest-beaten``: of the beaten units those with the most cards, the lowest;
    ``smallest-beaten``: the fewest cards, then the lowest.

    >>> from tuolaji.scorer.formats import Unit
    >>> qq, j = Unit(2, 1, 10, (24,)), Unit(1, 1, 9, (22,))  # ♥QQ J against ♥AA
    >>> forced_unit([qq, j], "lowest-beaten") == j, forced_unit([qq, j], "largest-beaten") == qq
    (True, True)
    """
    return min(beaten, key=forced_key(mode))


def forced_key(mode: str) -> Callable[[Unit], tuple[int, int]]:
    """The order in which ``forced_unit`` picks (smallest key first)."""
    if mode == "smallest-beaten":
        return lambda u: (u.size, u.top)
    if mode == "largest-beaten":
        return lambda u: (-u.size, u.top)
    return lambda u: (u.top, u.size)


def single_unit_leads(order: TrumpOrder, holding: dict[int, int]) -> list[list[int]]:
    """Every distinct single-unit play from a one-suit holding (singles, tuples, tractors)."""
    value = order.value
    out: list[list[int]] = []
    kinds = sorted(holding, key=lambda c: (value[c], c))
    for c in kinds:
        for w in range(1, holding[c] + 1):
            out.append([c] * w)
    maxw = max(holding.values())
    for w in range(2, maxw + 1):
        by_value: dict[int, list[int]] = {}
        for c in kinds:
            if holding[c] >= w:
                by_value.setdefault(value[c], []).append(c)
        vals = sorted(by_value)
        for i, v0 in enumerate(vals):
            chains: list[list[int]] = [[c] for c in by_value[v0]]
            v = v0
            j = i + 1
            while j < len(vals) and vals[j] == v + 1:
                v = vals[j]
                chains = [ch + [c] for ch in chains for c in by_value[v]]
                for ch in chains:
                    out.append([c for c in ch for _ in range(w)])
                j += 1
    return out


def _multiset_combos(items: list[tuple[int, int]], k: int, start: int = 0) -> Iterator[list[int]]:
    if k == 0:
        yield []
        return
    remaining = sum(n for _, n in items[start:])
    if remaining < k:
        return
    if start >= len(items):
        return
    card, n = items[start]
    for take in range(min(n, k), -1, -1):
        for rest in _multiset_combos(items, k - take, start + 1):
            yield [card] * take + rest


def legal_follows(order: TrumpOrder, lead: Lead, hand: list[int], options: Options) -> Iterator[list[int]]:
    """Every legal follow (as a multiset, each once) from a 54-count hand."""
    k = lead.size
    if lead.mixed:
        items = [(c, n) for c, n in enumerate(hand) if n > 0]
        yield from _multiset_combos(items, k)
        return
    holding = suit_holding(order, hand, lead.suit)
    held = sum(holding.values())
    key = order.value
    if held <= k:
        base = sorted((c for c, n in holding.items() for _ in range(n)), key=lambda c: (key[c], c))
        others = [(c, n) for c, n in enumerate(hand) if n > 0 and c not in holding]
        for rest in _multiset_combos(others, k - held):
            yield base + rest
        return
    items = sorted(holding.items(), key=lambda cn: (key[cn[0]], cn[0]))
    for combo in _multiset_combos(items, k):
        if check_follow(order, lead, hand, combo, options, holding) is None:
            yield combo


def random_follow(order: TrumpOrder, lead: Lead, hand: list[int], options: Options, rng: random.Random) -> list[int]:
    """A random legal follow: meet the first satisfiable rung, fill the rest at random."""
    k = lead.size
    if lead.mixed:
        return rng.sample([c for c, n in enumerate(hand) for _ in range(max(n, 0))], k)
    holding = suit_holding(order, hand, lead.suit)
    held = sum(holding.values())
    if held <= k:
        base = [c for c, n in holding.items() for _ in range(n)]
        rest = [c for c, n in enumerate(hand) if c not in holding for _ in range(max(n, 0))]
        return base + rng.sample(rest, k - held)
    value = order.value
    for req in lead.ladder:
        found = []
        for n, units in enumerate(embeddings(req, holding, value, options.protect_longer_tuples)):
            found.append(units)
            if n >= 24:
                break
        if found:
            units = rng.choice(found)
            play = [c for u in units for c in u.cards()]
            left = dict(holding)
            for c in play:
                left[c] -= 1
            pool = [c for c, n in left.items() for _ in range(n)]
            play += rng.sample(pool, k - len(play))
            return play
    raise AssertionError("the all-singles rung is always satisfiable")
