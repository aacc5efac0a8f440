"""The live game's words (:mod:`session`): its refusals, the resume check, the history's undo and redo.

Each key's English line, from its named facts: this layer's catalogue, registered into the rules
core's table (:func:`scorer.messages.register_messages`) when the package is imported, so that an
``InputError(key, **params)`` raised here renders through the one renderer. The page's Chinese of
each key is :data:`web.i18n.MESSAGES_ZH`.
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
    "session.out_of_turn": "deals[{deal}].tricks[{trick}]: seat {seat} played but seat {turn} is to play",
    "session.deal_over": ("deals[{deal}]: the deal is over (every seat has played its {cards} cards): "
                          "record the kitty, then start the next deal"),
    "session.already_played": "deals[{deal}].tricks[{trick}]: seat {seat}'s play is already recorded ({cards: |})",
    "session.concede_not_five": "{points} points agreed: points come in fives (5, 10, K); nothing recorded",
    "session.concede_over": "deals[{deal}] is over already: there is nothing to concede",
    "session.concede_side": "who concedes is the dealer's side or the defenders, not {by:json}",
    "session.points_not_five": "{points} points: a trick's points come in fives (5, 10, K); nothing recorded",
    "session.points_too_many": "{points} points in one trick: {decks} decks hold {most} in all; nothing recorded",
    "session.points_recorded": "deals[{deal}].tricks[{trick}]: this trick is recorded already ({seat}: {points} points); nothing recorded",
    "session.trick_moved": "deals[{deal}].tricks[{trick}]: the table moved on since this play was typed; nothing recorded",
    "session.no_card": "deals[{deal}].tricks[{trick}]: seat {seat} has no card {index}",
    "session.no_trick_to_revise": "the current deal has no trick to revise",
    "session.not_missing": "deals[{deal}].tricks[{trick}]: seat {seat}'s play is not missing",
    "session.enter_empty": "deals[{deal}].tricks[{trick}]: enter the cards seat {seat} played",
    "session.no_play": "the current trick has no play {position} by seat {seat}",
    "session.no_deal": "{what}: the record has no deal",
    "points.deal_by_total": "deals[{deal}] is kept by the defenders' points: undo its settlement to record tricks",
    "points.deal_done": "deals[{deal}] is over: undo its last trick to record more",
    "points.deal_conceded": "deals[{deal}] was conceded (认输): undo the concession to record more",
    "points.trick_open": "deals[{deal}].tricks[{trick}] is not complete: finish it or undo it first",
    "points.below_counted": "deals[{deal}]: the defenders have {counted} points in the tricks recorded, more than {points}",
    # a change the game refuses (session.changes.RefusedError), the history's undo and redo, the page's typed cards
    "change.bid_started": "bid: the deal has started",
    "change.bid_not_standing": "bid: {detail}",
    "change.withdraw_started": "bid: the deal has started",
    "change.no_bid": "bid: no bid to withdraw",
    "change.deal_started": "deal: the deal has started; correct single cards instead",
    "change.bid_decides_trump": "trump: the standing bid decides the trump",
    "change.bid_decides_dealer": "dealer: the standing bid decides the dealer",
    "change.not_dealers_level": "level: {level} is not the dealer's level {own} (seat {seat})",
    "change.deal_not_complete": "next deal: the current deal is not complete",
    "change.game_over": "next deal: the game is over",
    "change.kitty_first": "next deal: the kitty is not recorded",
    "change.no_violation": "ruling: deal {deal} has no violation {index}",
    "change.no_penalty": "ruling: the rules give this violation no penalty",
    "change.zero_penalty": "ruling: a penalty of 0",
    "change.no_ruling": "ruling: deal {deal} has no ruling {ruling}",
    "history.undo_changed": "history: the {change:change} cannot be undone: the record changed since",
    "history.redo_changed": "history: the {change:change} cannot be redone: the record changed since",
    "history.bad_entry": "history: an entry that cannot be applied ({problem})",
    "history.nothing_to_undo": "history: nothing to undo",
    "history.nothing_to_redo": "history: nothing to redo",
    "change.form": "change {n}: not a change (its kind, params, deal and what it made)",
}
"""The English of every message key this layer raises (and no lower layer does)."""

register_messages("session", SESSION_MESSAGES_EN)

__all__ = ["SESSION_MESSAGES_EN"]
