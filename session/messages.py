"""The live game's words (:mod:`session`): its refusals, the resume check, the history's undo and redo.

This layer's catalogue, each key's English and Chinese from its named facts, registered when the
package is imported (:func:`scorer.messages.register_messages`; docs/ARCHITECTURE.md).

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

SESSION_MESSAGES_ZH: dict[str, str] = {
    # the live game (session.live)
    "session.not_saved": "{at}未保存",
    "session.another_game": "{at}是另一局（{why}）；什么也没改：请选别的文件或牌局",
    "resume.players_or_rules": "玩家或规则不同",
    "resume.deals": "有 {have} 副，输入只有 {want} 副",
    "resume.setup": "第 {deal} 副的级数、主或庄家不同",
    "resume.tricks": "第 {deal} 副有 {have} 墩，这一副到现在只有 {want} 墩",
    "resume.trick_missing": "输入里没有第 {deal} 副第 {trick} 墩",
    "resume.play": "第 {deal} 副第 {trick} 墩：记录里 {seat} 出的是 {cards}，输入里不是",
    "session.no_deal_to_play": "记录里没有可以出牌的一副",
    "session.out_of_turn": "第 {trick} 墩：该 {turn} 出牌，不是 {seat}",
    "session.deal_over": "第 {deal} 局已经打完（每人 {cards} 张都出了），这手没有记：请记录底牌，再开始下一局",
    "session.already_played": "{seat} 这手已经有人记了（{cards}），这次没有记：请看现在该谁出牌",
    "session.concede_not_five": "商定的 {points} 分：分都是 5 的倍数（5、10、K），这次没有记",
    "session.concede_over": "第 {deal} 局已经结束了，不能再认输",
    "session.concede_side": "认输的是庄家一方或闲家一方，不是 {by:json}",
    "session.points_not_five": "{points} 分：一墩的分都是 5 的倍数（5、10、K），这次没有记",
    "session.points_too_many": "一墩 {points} 分：{decks} 副牌一共只有 {most} 分，这次没有记",
    "session.points_recorded": "第 {trick} 墩刚有人记了：{seat} {points} 分，这次没有记",
    "session.trick_moved": "第 {trick} 墩已经记完，牌桌往下走了：这次没有记，请再看一下",
    "session.no_card": "第 {trick} 墩：{seat} 没有第 {index} 张牌",
    "session.no_trick_to_revise": "这一副还没有可以修改的墩",
    "session.not_missing": "第 {trick} 墩：{seat} 的出牌不缺，不用补记",
    "session.enter_empty": "第 {trick} 墩：请输入 {seat} 出的牌",
    "session.no_play": "这一墩没有 {seat} 出的第 {position} 手",
    "session.no_deal": "记录里还没有一副牌",
    "points.deal_by_total": "第 {deal} 局已经按闲家总分记下：要记墩，先撤销它",
    "points.deal_done": "第 {deal} 局已经打完：要再记，先撤销最后一墩",
    "points.deal_conceded": "第 {deal} 局已经认输结算：要再记，先撤销认输",
    "points.trick_open": "第 {trick} 墩还没出完：先记完或撤销它",
    "points.below_counted": "闲家在已记的墩里已经得了 {counted} 分，比 {points} 分多",
    # a change the game refuses (session.changes.RefusedError), the history's undo and redo, the page's typed cards
    "change.bid_started": "这一局已经开始出牌，不能再亮主",
    "change.bid_not_standing": "这个亮主不成立：",
    "change.withdraw_started": "这一局已经开始出牌，不能撤回亮主",
    "change.no_bid": "没有可撤回的亮主",
    "change.deal_started": "这一局已经开始出牌，不能再改设置（请更正单张牌）",
    "change.bid_decides_trump": "主由亮主决定：要改主，先撤回亮主",
    "change.bid_decides_dealer": "庄家由亮主决定：要换庄，先撤回亮主",
    "change.not_dealers_level": "打 {level} 不对：庄家 {seat} 在打 {own}",
    "change.deal_not_complete": "这一局还没打完",
    "change.game_over": "牌局已经结束，不能再开下一局",
    "change.kitty_first": "请先记录底牌（或选择“底牌未知”）",
    "change.no_violation": "没有这条违规",
    "change.no_penalty": "规则对这条违规没有规定罚分（可自定罚分）",
    "change.zero_penalty": "罚分要大于 0",
    "change.no_ruling": "没有这条罚分",
    "history.undo_changed": "这一步（{change}）之后记录又有了别的改动，不能撤销",
    "history.redo_changed": "这一步（{change}）之后记录又有了别的改动，不能重做",
    "history.bad_entry": "这条历史记录无法还原",
    "history.nothing_to_undo": "没有可撤销的改动",
    "history.nothing_to_redo": "没有可重做的改动",
    "change.form": "第 {n} 个改动：不是改动（应有类别、参数、局和改动后的内容）",
}
"""The Chinese of each key of :data:`SESSION_MESSAGES_EN`, from the same parameters made readable
(:data:`scorer.messages.MESSAGES_ZH` says how)."""

register_messages("session", SESSION_MESSAGES_EN, SESSION_MESSAGES_ZH)

__all__ = ["SESSION_MESSAGES_EN", "SESSION_MESSAGES_ZH"]
