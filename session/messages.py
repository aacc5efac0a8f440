"""The live game's words (:mod:`session`): its refusals, the resume check, the history's undo and redo.

Each key's English line, from its named facts: this layer's catalogue, registered into the rules
core's table (:func:`scorer.messages.register_messages`) when the package is imported, so that an
``InputError(key, **params)`` raised here renders through the one renderer. The page's Chinese of
each key is :data:`web.i18n.MESSAGES_ZH`.

>>> from tuolaji.scorer.messages import Message
>>> str(Message("session.out_of_turn", {"deal": 0, "trick": 2, "seat": 1, "turn": 3}))  # the record's voice
'trick 2: seat 3 is to play, not seat 1'
"""

from __future__ import annotations

from tuolaji.scorer.messages import register_messages

SESSION_MESSAGES_EN: dict[str, str] = {
    # the live game (session.live)
    "session.not_saved": "{where}: not saved ({problem})",
    "session.another_game": "{where}: holds another game ({why}); nothing was changed: choose another file or session",
    "resume.players_or_rules": "players or rules differ",
    "resume.deals": "{have} deals, the input has {want}",
    "resume.setup": "deals[{deal}]: level {have[0]}, trump {have[1]}, dealer {have[2]}; "
                    "the input: level {want[0]}, trump {want[1]}, dealer {want[2]}",
    "resume.tricks": "deals[{deal}] holds {have} tricks, the deal so far {want}",
    "resume.trick_missing": "deals[{deal}].tricks[{trick}] is not in the input",
    "resume.play": "deals[{deal}].tricks[{trick}]: seat {seat} is recorded playing {cards: |}, the input shows otherwise",
    "session.no_deal_to_play": "record has no deal to play in",
    "session.out_of_turn": "trick {trick:count}: {turn:seat} is to play, not {seat:seat}",
    "session.deal_over": ("deal {deal:count} is over (every seat has played its {cards} cards); this play "
                          "was not recorded: record the kitty, then start the next deal"),
    "session.already_played": ("{seat:seat}'s play is already recorded ({cards: |}); this one was not: see "
                               "whose turn it is now"),
    "session.concede_not_five": "{points} points agreed: points come in fives (5, 10, K); nothing recorded",
    "session.concede_over": "deal {deal:count} is over already: there is nothing to concede",
    "session.concede_side": "who concedes is the dealer's side or the defenders, not {by:json}",
    "session.points_not_five": "{points} points: a trick's points come in fives (5, 10, K); not recorded",
    "session.points_too_many": "{points} points in one trick: {decks} decks hold {most} in all; not recorded",
    "session.points_recorded": ("trick {trick:count} was just recorded: {seat:seat} {points} points; this "
                                "one was not"),
    "session.trick_moved": ("trick {trick:count} was recorded meanwhile and the table moved on; this play "
                            "was not recorded: look again"),
    "session.no_card": "trick {trick:count}: {seat:seat} has no card {index:count}",
    "session.no_trick_to_revise": "the current deal has no trick to revise",
    "session.not_missing": "deals[{deal}].tricks[{trick}]: seat {seat}'s play is not missing",
    "session.enter_empty": "deals[{deal}].tricks[{trick}]: enter the cards seat {seat} played",
    "session.no_play": "the current trick has no play {position} by seat {seat}",
    "session.no_deal": "{what}: the record has no deal",
    "points.deal_by_total": "deal {deal:count} is kept by the defenders' points: undo it to record tricks",
    "points.deal_done": "deal {deal:count} is over: undo its last trick to record more",
    "points.deal_conceded": "deal {deal:count} was conceded: undo the concession to record more",
    "points.trick_open": "trick {trick:count} is not complete: finish it or undo it first",
    "points.below_counted": "the defenders have {counted} points in the tricks recorded, more than {points}",
    # a change the game refuses (session.changes.RefusedError), the history's undo and redo, the page's typed cards
    "change.bid_started": "the deal has started: no more bids",
    "change.bid_not_standing": "this bid does not stand: {detail:finding}",
    "change.withdraw_started": "the deal has started: bids cannot be withdrawn",
    "change.no_bid": "there is no bid to withdraw",
    "change.deal_started": "the deal has started: correct single cards instead",
    "change.bid_decides_trump": "the standing bid decides the trump: withdraw the bid to change it",
    "change.bid_decides_dealer": "the standing bid decides the dealer: withdraw the bid to change him",
    "change.not_dealers_level": "level {level} is wrong: the dealer {seat:seat} is at {own}",
    "change.deal_not_complete": "the current deal is not complete",
    "change.game_over": "the game is over",
    "change.kitty_first": "record the kitty first (or mark it unknown)",
    "change.no_violation": "there is no such violation",
    "change.no_penalty": "the rules give this violation no penalty (set one of your own)",
    "change.zero_penalty": "a penalty must be above 0",
    "change.no_ruling": "there is no such penalty",
    "history.undo_changed": "the {change:change} cannot be undone: the record changed after it",
    "history.redo_changed": "the {change:change} cannot be redone: the record changed after it",
    "history.bad_entry": "this history entry cannot be applied",
    "history.nothing_to_undo": "there is nothing to undo",
    "history.nothing_to_redo": "there is nothing to redo",
    "change.form": "change {n}: not a change (its kind, params, deal and what it made)",
}
"""The English of every message key this layer raises (and no lower layer does)."""

register_messages("session", SESSION_MESSAGES_EN)

__all__ = ["SESSION_MESSAGES_EN"]
