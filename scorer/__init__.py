"""tuolaji's rules core: a pure-Python engine for 拖拉机 / 升级 (Tractor).

Cards and notation, trump order, units and formats, follow legality, trick winners,
points, levels, bidding, 找朋友, a deal state with push/pop and a legal-play generator,
game records and their audit (see docs/RULES.md and docs/RECORD.md).

>>> from tuolaji.scorer import parse_card, format_card, random_record, audit_record
>>> format_card(parse_card("♥T"))
'10H'
>>> rec = random_record("standard-2deck", seed=0)
>>> audit_record(rec)["deals"][0]["violations"]
[]
"""

from .audit import (
    AuditRun,
    audit_again,
    audit_findings,
    audit_record,
    audit_with_findings,
    bidding_state,
    next_dealers,
    proven_violation_plays,
    ruling_offers,
)
from .bidding import Bid, BiddingState, BidError
from .cards import CARD_NAMES, Card, CardError, format_card, format_cards, parse_card, parse_cards
from .follow import Obligation, describe_obligation
from .formats import Lead, Unit, read_format, throw_ladder, unit_ladder
from .order import TRUMP, TrumpOrder
from .profiles import PROFILES, FirstDealer, ForcedUnit, Options, Penalty, RulesError, resolve_rules
from .record import (
    RecordError,
    build_state,
    dealer_side_seats,
    dealer_sides,
    dumps_record,
    follow_hint,
    follow_hint_message,
    lead_obligation,
    lead_obligation_fact,
    legal_plays,
    loads_record,
    next_leader,
    normalize_record,
    parse_record,
    points_deal,
    points_trick,
    random_record,
    seat_points,
    trick_winner,
    validate_record,
)
from .record_types import CardTrick, Deal, Play, PointsTrick, Record, Trick, is_points_trick
from .scoring import partnerships
from .state import DealState

__all__ = [
    "CardTrick",
    "Deal",
    "Play",
    "PointsTrick",
    "Record",
    "Trick",
    "is_points_trick",
    "Bid",
    "Obligation",
    "BidError",
    "BiddingState",
    "CARD_NAMES",
    "PROFILES",
    "TRUMP",
    "Card",
    "CardError",
    "DealState",
    "FirstDealer",
    "ForcedUnit",
    "Penalty",
    "Lead",
    "Options",
    "RecordError",
    "RulesError",
    "TrumpOrder",
    "Unit",
    "AuditRun",
    "audit_again",
    "audit_findings",
    "audit_record",
    "audit_with_findings",
    "proven_violation_plays",
    "bidding_state",
    "build_state",
    "dealer_side_seats",
    "dealer_sides",
    "describe_obligation",
    "dumps_record",
    "follow_hint",
    "follow_hint_message",
    "loads_record",
    "normalize_record",
    "format_card",
    "format_cards",
    "lead_obligation",
    "lead_obligation_fact",
    "legal_plays",
    "next_dealers",
    "next_leader",
    "parse_card",
    "parse_cards",
    "parse_record",
    "partnerships",
    "points_deal",
    "points_trick",
    "random_record",
    "seat_points",
    "read_format",
    "resolve_rules",
    "ruling_offers",
    "throw_ladder",
    "trick_winner",
    "unit_ladder",
    "validate_record",
]
