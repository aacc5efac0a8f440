"""Play assembly, the parts that need no frames: the pipeline's view of the current trick
(:class:`TrickView`), which settled zone leads (:func:`lead_zone`), when a swept trick is over
(:func:`sweep_done`), a short play filled for a person to confirm (:func:`fit_to_size`) and the
check of a resumed replay (:func:`resume_mismatch`). A revised, withdrawn or corrected play is a
command of the live game (:meth:`session.live.LiveGame.revise_play`, ``replace_play``): the
pipeline never changes a record itself.

>>> from tuolaji.vision.tracking import ZoneContent
>>> fit_to_size(ZoneContent(("AS",), (0.9,)), 2)
ZoneContent(cards=('AS', 'AS'), confidence=(0.9, 0.0), unconfirmed=(1,))
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tuolaji.scorer.messages import Message
from tuolaji.scorer.record_types import is_points_trick
from tuolaji.scorer.seats import position_of, seat_of
from tuolaji.session.live import play_matches
from tuolaji.vision.settling import ZoneState
from tuolaji.vision.tracking import ZoneContent


@dataclass
class TrickView:
    """The pipeline's view of the current trick (mirrors the record's last trick)."""

    leader: int | None = None
    plays: list[list[str]] = field(default_factory=list)
    complete_at: float | None = None
    lead_read: ZoneContent | None = None  # the lead as the camera read it (its candidates), when it did

    def committed(self, seat: int, players: int) -> list[str] | None:
        """What ``seat`` has played in this trick (None: nothing yet, or no trick led)."""
        if self.leader is None:
            return None
        position = position_of(self.leader, seat, players)
        return self.plays[position] if position < len(self.plays) else None


def trick_of(record: dict[str, Any], players: int) -> tuple[TrickView, bool]:
    """The record's current trick, and whether it is complete (all ``players`` have played)."""
    tricks = record["deals"][-1].get("tricks", []) if record["deals"] else []
    if not tricks:
        return TrickView(), False
    last = tricks[-1]
    if is_points_trick(last):  # 只记分: a trick by its points is over, the next play leads
        return TrickView(), False
    return TrickView(leader=last["leader"], plays=[list(p) for p in last["plays"]]), len(last["plays"]) >= players


def plays_in_deal(record: dict[str, Any], tricks: int | None = None) -> int:
    """How many plays the record's last deal holds (in its first ``tricks`` tricks only, if given)."""
    if not record["deals"]:
        return 0
    return sum(len(trick.get("plays", [])) for trick in record["deals"][-1].get("tricks", [])[:tricks])


def without_current_tricks(record: dict[str, Any], keep: int = 0) -> dict[str, Any]:
    """A copy of ``record`` with the last deal's tricks but its first ``keep`` (the deal so far
    before a film starts) emptied: a resumed replay watches them again."""
    record = copy.deepcopy(record)
    if record["deals"]:
        record["deals"][-1]["tricks"] = record["deals"][-1].get("tricks", [])[:keep]
    return record


def corrected_seats(record: dict[str, Any]) -> set[int]:
    """The seats whose play in the current trick a person corrected on the page."""
    tricks = record["deals"][-1].get("tricks", []) if record["deals"] else []
    return {c["seat"] for c in tricks[-1].get("corrections", [])} if tricks else set()


def fit_to_size(content: ZoneContent, size: int) -> ZoneContent:
    """A play read short of ``size`` cards (a lead its follows show longer, a follow shorter than
    its lead), taken as it lies with the cards most likely hidden in it put back beside the cards
    they hid under, each marked for a person, never silently guessed: first a twin for each card
    read once, in fan order (two identical cards fanned tight show one corner, and a play of several
    cards is most often of pairs: a tractor, a throw of pairs, a follow of pairs), then more copies of
    its most frequent card. The cards read keep their order, confidence and marks; extra cards stay
    (the audit reports a wrong card count).

    >>> lead = ZoneContent(("KC", "KC", "QC", "JC"), (0.9, 0.9, 0.9, 0.9))
    >>> fit_to_size(lead, 6)
    ZoneContent(cards=('KC', 'KC', 'QC', 'QC', 'JC', 'JC'), confidence=(0.9, 0.9, 0.9, 0.0, 0.9, 0.0), unconfirmed=(3, 5))
    >>> fit_to_size(ZoneContent(("9D", "9D", "8D"), (0.9, 0.9, 0.5), (2,)), 5).cards
    ('9D', '9D', '9D', '8D', '8D')
    """
    if len(content) >= size or not len(content):
        return content
    counts = Counter(content.cards)
    gap = size - len(content)
    twins = [k for k, card in enumerate(content.cards) if counts[card] == 1][:gap]
    commonest = counts.most_common(1)[0][0]
    after = Counter(twins)
    after[max(k for k, card in enumerate(content.cards) if card == commonest)] += gap - len(twins)
    cards: list[str] = []
    confidence: list[float] = []
    unconfirmed: list[int] = []
    for k, card in enumerate(content.cards):
        if k in content.unconfirmed:
            unconfirmed.append(len(cards))
        cards.append(card)
        confidence.append(content.confidence[k])
        for _ in range(after[k]):
            unconfirmed.append(len(cards))
            cards.append(card)
            confidence.append(0.0)
    return ZoneContent(tuple(cards), tuple(confidence), tuple(unconfirmed))


def without_extra_copies(content: ZoneContent, count: int) -> ZoneContent:
    """``content`` with up to ``count`` copies of its repeated cards taken out (the card with the
    most copies first, its least sure copy first), and the copies left of a card cut so marked for
    a person: a fanned card whose corners were counted as two cards is an extra copy of a card the
    play already holds, and the reads that counted it are not to be trusted as sure.

    >>> c = ZoneContent(("8C", "8C", "8C"), (0.81, 0.99, 0.85))
    >>> without_extra_copies(c, 1)
    ZoneContent(cards=('8C', '8C'), confidence=(0.99, 0.85), unconfirmed=(0, 1))
    >>> without_extra_copies(ZoneContent(("BJ", "QS"), (0.9, 0.9)), 1).cards
    ('BJ', 'QS')
    """
    cards, confidence = list(content.cards), list(content.confidence)
    kept = list(range(len(cards)))
    cut: set[str] = set()
    for _ in range(max(0, count)):
        copies = Counter(cards[i] for i in kept)
        name, most = max(copies.items(), key=lambda item: (item[1], -min(confidence[i] for i in kept if cards[i] == item[0])))
        if most < 2:
            break
        kept.remove(min((i for i in kept if cards[i] == name), key=lambda i: (confidence[i], -i)))
        cut.add(name)
    if not cut:
        return content
    unconfirmed = sorted({new for new, old in enumerate(kept) if old in content.unconfirmed or cards[old] in cut})
    return ZoneContent(tuple(cards[i] for i in kept), tuple(confidence[i] for i in kept), tuple(unconfirmed),
                       tuple(content.candidates[i] for i in kept) if content.candidates else (),
                       tuple(content.evidence[i] for i in kept) if content.evidence else (), content.read_weights)


def without_unsure(content: ZoneContent, count: int) -> ZoneContent:
    """``content`` without up to ``count`` of its unsure cards, the least sure first.

    >>> c = ZoneContent(("10C", "10C", "10C", "10C"), (0.97, 0.85, 0.41, 0.78), (2,))
    >>> without_unsure(c, 1)
    ZoneContent(cards=('10C', '10C', '10C'), confidence=(0.97, 0.85, 0.78), unconfirmed=())
    >>> without_unsure(c, 2).cards
    ('10C', '10C', '10C')
    """
    dropped = set(sorted(content.unconfirmed, key=lambda i: (content.confidence[i], -i))[:max(0, count)])
    if not dropped:
        return content
    kept = [i for i in range(len(content)) if i not in dropped]
    renumber = {old: new for new, old in enumerate(kept)}
    return ZoneContent(tuple(content.cards[i] for i in kept), tuple(content.confidence[i] for i in kept),
                       tuple(renumber[i] for i in content.unconfirmed if i not in dropped),
                       tuple(content.candidates[i] for i in kept) if content.candidates else (),
                       tuple(content.evidence[i] for i in kept) if content.evidence else (), content.read_weights)


def lead_zone(zones: list[ZoneState], expected: int | None) -> ZoneState | None:
    """The zone whose new settled content leads the trick: the expected leader's, else the one
    that settled first. Cards lying in another seat's zone since before anything moved there (a
    mark on the cloth read as a card, cards left from an earlier session) are not a lead."""
    candidates = [
        z for z in zones
        if z.content is not None and len(z.content) and z.version != z.used_version and not z.dirty
    ]
    candidates = [z for z in candidates if z.seat == expected or z.last_busy > -1e8]
    if not candidates:
        return None
    candidates.sort(key=lambda z: (z.seat != expected, z.content_at))
    return candidates[0]


def new_lead(zone: ZoneState, trick: TrickView, next_leader: int | None, players: int) -> bool:
    """Whether ``zone`` holds cards laid since ``trick`` ended that are no part of its play in it: the
    next leader's new lead, or another seat's, laid by a hand (the zone moved since) and not what is
    left of its play (a play partly gathered holds some of its cards). The next leader is the trick's
    winner by the reads; a misread of the trick (a K♠ read as 8♠) makes it the wrong seat, and the
    real winner's lead must still end the trick, not wait behind it."""
    content = zone.content
    if content is None or not len(content) or zone.dirty or trick.complete_at is None or zone.content_at <= trick.complete_at:
        return False
    committed = Counter(trick.committed(zone.seat, players) or [])
    if zone.seat == next_leader:
        return content.counts() != committed
    return zone.last_busy > trick.complete_at and not content.counts() <= committed


def sweep_done(zones: list[ZoneState], trick: TrickView, next_leader: int | None, players: int, now: float,
               stale_sweep_s: float) -> bool:
    """Every zone was read again since the trick ended, and is empty (the next leader's may hold a new lead).

    If cards stay behind but a new lead has been still for ``stale_sweep_s`` (:func:`new_lead`:
    the next leader's, or another seat's where the reads made the wrong seat the trick's winner),
    the trick is over all the same: the cards left behind are not taken for plays unless they change.
    """
    assert trick.complete_at is not None
    if any(new_lead(zone, trick, next_leader, players) and now - zone.content_at >= stale_sweep_s for zone in zones):
        return True
    for zone in zones:
        if zone.content_at <= trick.complete_at:
            return False
        content = zone.content
        if content is None or not len(content):
            continue
        committed = trick.committed(zone.seat, players)
        if zone.seat == next_leader and content.counts() != Counter(committed or []):
            continue
        return False
    return True


def resume_mismatch(seen: dict[str, Any], recorded: dict[str, Any], players: int, path: Any) -> Message | None:
    """A resumed replay sees again the plays its record holds: each must be that play (the same
    seat, the same cards but for those a person corrected or had to confirm), else the record is
    of another game: the message saying so, a key and its facts (None while they match). A play is compared once the
    next one is laid (until then it may still be revised: a failed throw taken back, a card added)."""
    deal_index = len(recorded["deals"]) - 1

    def flat(record: dict[str, Any]) -> list[tuple[int, int, dict[str, Any]]]:
        return [(t, position, trick) for t, trick in enumerate(record["deals"][-1].get("tricks", []))
                for position in range(len(trick["plays"]))]

    shown, held = flat(seen), flat(recorded)
    number = len(shown) - 1  # the play before the latest: final now
    if not 0 < number + 1 <= len(held) or number < 0:
        return None
    _, position, trick = held[number]
    _, shown_position, shown_trick = shown[number]
    seat = seat_of(shown_trick["leader"], shown_position, players)
    cards = shown_trick["plays"][shown_position]
    if play_matches(trick, position, seat, cards, players):
        return None
    want_seat = seat_of(trick["leader"], position, players)
    return Message("pipeline.another_game", {"path": str(path or "the session"), "deal": deal_index,
                                             "trick": held[number][0], "turn": want_seat,
                                             "recorded": tuple(trick["plays"][position]), "seat": seat,
                                             "cards": tuple(cards)})
