"""The page's words in Chinese (the default) and English.

Templates render ``t(key)`` in the language of the ``lang`` cookie; the page's
script swaps every ``data-i18n`` text when the language toggle is pressed, using
the same table (sent to the page as JSON). Placeholders are ``{name}``.

>>> translate("deal.trump", "en"), translate("deal.trump", "zh")
('Trump', '主')
>>> translate("trick.n", "en", n=4)
'Trick 4'
"""

from __future__ import annotations

LANGUAGES: tuple[str, ...] = ("zh", "en")
DEFAULT_LANGUAGE = "zh"

STRINGS: dict[str, dict[str, str]] = {
    "app.title": {"zh": "拖拉机 · 升级 记分台", "en": "Tractor · live table"},
    "lang.toggle": {"zh": "English", "en": "中文"},
    "lang.toggle.label": {"zh": "切换到英文", "en": "Switch to Chinese"},
    "nav.live": {"zh": "牌桌", "en": "Table"},
    "nav.sessions": {"zh": "牌局记录", "en": "Sessions"},
    "nav.zuihe": {"zh": "嘴和记分", "en": "嘴和 scorer"},
    "nav.skip": {"zh": "跳到牌桌", "en": "Skip to the table"},
    "conn.live": {"zh": "实时", "en": "live"},
    "conn.lost": {"zh": "连接中断，正在重连…", "en": "connection lost, reconnecting…"},
    "feed.pipeline": {"zh": "摄像头识别中", "en": "camera reading"},
    "feed.record": {"zh": "回放记录中", "en": "replaying a record"},
    "feed.done": {"zh": "输入结束", "en": "input finished"},
    "feed.error": {"zh": "输入出错", "en": "input error"},
    "feed.none": {"zh": "手动记录", "en": "manual entry"},
    "session.none": {"zh": "还没有牌局：请先设置牌桌。", "en": "No session yet: set up the table first."},
    "deal.n": {"zh": "第 {n} 副", "en": "Deal {n}"},
    "deal.level": {"zh": "打", "en": "Level"},
    "deal.trump": {"zh": "主", "en": "Trump"},
    "deal.dealer": {"zh": "庄家", "en": "Dealer"},
    "deal.profile": {"zh": "规则", "en": "Rules"},
    "deal.decks": {"zh": "副牌", "en": "decks"},
    "deal.friends": {"zh": "找朋友", "en": "Friends called"},
    "trump.NT": {"zh": "无主", "en": "no trump"},
    "seat.dealer": {"zh": "庄", "en": "dealer"},
    "seat.partner": {"zh": "庄家方", "en": "dealer's side"},
    "seat.defender": {"zh": "闲", "en": "defender"},
    "seat.next": {"zh": "该出牌", "en": "to play"},
    "seat.leader": {"zh": "首家", "en": "led"},
    "seat.winner": {"zh": "大", "en": "wins"},
    "seat.level": {"zh": "级", "en": "level"},
    "trick.n": {"zh": "第 {n} 墩", "en": "Trick {n}"},
    "trick.none": {"zh": "等待首家出牌", "en": "waiting for the lead"},
    "trick.points": {"zh": "分", "en": "points"},
    "trick.won_by": {"zh": "{name} 大", "en": "{name} wins"},
    "score.defenders": {"zh": "闲家得分", "en": "Defenders' points"},
    "score.of": {"zh": "过 {t} 上台", "en": "{t} to take over"},
    "levels.title": {"zh": "各方级数", "en": "Levels"},
    "levels.chart": {"zh": "级数走势", "en": "Levels over the session"},
    "alerts.title": {"zh": "违规提醒", "en": "Violations"},
    "alerts.none": {"zh": "暂无违规", "en": "No violations"},
    "alerts.proven": {"zh": "已证实", "en": "proven"},
    "alerts.suspected": {"zh": "待证实", "en": "suspected"},
    "alerts.where": {"zh": "第 {trick} 墩 · {name}", "en": "trick {trick} · {name}"},
    "penalty.title": {"zh": "罚分", "en": "Penalties"},
    "pending.title": {"zh": "待确认的牌", "en": "Cards to confirm"},
    "pending.none": {"zh": "所有牌已确认", "en": "All cards confirmed"},
    "pending.item": {"zh": "第 {trick} 墩 · {name} 第 {index} 张", "en": "trick {trick} · {name}, card {index}"},
    "action.confirm": {"zh": "确认", "en": "Confirm"},
    "action.correct": {"zh": "更正", "en": "Correct"},
    "action.cancel": {"zh": "取消", "en": "Cancel"},
    "action.start": {"zh": "开始新牌局", "en": "Start a new session"},
    "action.apply": {"zh": "修改本副设置", "en": "Change this deal"},
    "action.bid": {"zh": "亮主", "en": "Bid"},
    "action.play": {"zh": "记录出牌", "en": "Record the play"},
    "action.next_deal": {"zh": "开始下一副", "en": "Start the next deal"},
    "action.kitty": {"zh": "记录底牌", "en": "Record the kitty"},
    "action.resume": {"zh": "继续这局", "en": "Resume"},
    "action.export": {"zh": "导出记录", "en": "Export record"},
    "action.import": {"zh": "导入记录", "en": "Import a record"},
    "action.replay": {"zh": "回放", "en": "Replay"},
    "action.delete": {"zh": "删除", "en": "Delete"},
    "picker.title": {"zh": "更正：第 {trick} 墩 · {name} 第 {index} 张（{card}）",
                     "en": "Correct: trick {trick} · {name}, card {index} ({card})"},
    "picker.type": {"zh": "或输入牌名（如 10H、♠A、BJ）后回车", "en": "or type a card (10H, ♠A, BJ) and press Enter"},
    "picker.unconfirmed": {"zh": "摄像头未能确认这张牌", "en": "The camera could not settle this card"},
    "history.title": {"zh": "出牌记录", "en": "Trick history"},
    "history.trick": {"zh": "墩", "en": "Trick"},
    "history.winner": {"zh": "大", "en": "Winner"},
    "history.points": {"zh": "分", "en": "Points"},
    "history.none": {"zh": "还没有出牌", "en": "No plays yet"},
    "history.attempt": {"zh": "甩牌未成", "en": "failed throw"},
    "history.corrected": {"zh": "已更正", "en": "corrected"},
    "summary.title": {"zh": "本副结算", "en": "Hand summary"},
    "summary.kitty": {"zh": "底牌", "en": "Kitty"},
    "summary.kitty_points": {"zh": "底分 {p} × {m} 倍", "en": "kitty {p} points × {m}"},
    "summary.kitty_dealer": {"zh": "庄家保底", "en": "the dealer's side kept the kitty"},
    "summary.penalties": {"zh": "罚分 {p}", "en": "penalties {p}"},
    "summary.total": {"zh": "闲家总分", "en": "Defenders' total"},
    "summary.outcome.defenders": {"zh": "闲家上台，升 {n} 级", "en": "Defenders take over and go up {n}"},
    "summary.outcome.dealer": {"zh": "庄家升 {n} 级", "en": "Dealer's side goes up {n}"},
    "summary.next_dealer": {"zh": "下一副庄家", "en": "Next dealer"},
    "summary.levels": {"zh": "级数变化", "en": "Level change"},
    "summary.game_winner": {"zh": "{side} 打过 A，赢得整局！", "en": "{side} passed A and won the game!"},
    "summary.in_progress": {"zh": "本副进行中", "en": "Deal in progress"},
    "setup.title": {"zh": "牌桌设置", "en": "Table set-up"},
    "setup.name": {"zh": "牌局名称", "en": "Session name"},
    "setup.players": {"zh": "人数", "en": "Players"},
    "setup.player": {"zh": "座位 {n}", "en": "Seat {n}"},
    "setup.profile": {"zh": "规则", "en": "Rules profile"},
    "setup.decks": {"zh": "几副牌", "en": "Decks"},
    "setup.level": {"zh": "打几", "en": "Level"},
    "setup.levels": {"zh": "起始级数", "en": "Starting levels"},
    "setup.trump": {"zh": "主花色", "en": "Trump"},
    "setup.dealer": {"zh": "庄家", "en": "Dealer"},
    "setup.friend": {"zh": "第 {nth} 张 {card}", "en": "{card} copy {nth}"},
    "seat.friend": {"zh": "朋友", "en": "friend"},
    "setup.friend_card": {"zh": "朋友牌", "en": "Friend card"},
    "setup.friend_nth": {"zh": "第几张", "en": "Which copy"},
    "bids.title": {"zh": "亮主 / 反主", "en": "Bids"},
    "bids.help": {"zh": "先点座位，再点亮出的牌", "en": "Click a seat, then the cards shown"},
    "bids.count": {"zh": "张数", "en": "Copies"},
    "bids.none": {"zh": "还没人亮主", "en": "No bids yet"},
    "manual.title": {"zh": "手动记录出牌", "en": "Enter a play by hand"},
    "manual.cards": {"zh": "牌（空格分隔，如 AS AS）", "en": "Cards (space-separated, e.g. AS AS)"},
    "manual.seat": {"zh": "座位", "en": "Seat"},
    "kitty.cards": {"zh": "底牌（空格分隔）", "en": "Kitty cards (space-separated)"},
    "sessions.title": {"zh": "牌局记录", "en": "Sessions"},
    "sessions.none": {"zh": "还没有保存的牌局", "en": "No stored sessions"},
    "sessions.current": {"zh": "当前", "en": "current"},
    "sessions.deals": {"zh": "副", "en": "deals"},
    "sessions.tricks": {"zh": "墩", "en": "tricks"},
    "sessions.updated": {"zh": "更新于", "en": "updated"},
    "sessions.source": {"zh": "来源", "en": "source"},
    "sessions.import_help": {"zh": "可导入牌局记录或 tuolaji replay 的输出（JSON）",
                             "en": "A game record or a `tuolaji replay` output (JSON)"},
    "sessions.delete_confirm": {"zh": "删除这局的记录？", "en": "Delete this session's record?"},
    "sessions.import_replay": {"zh": "导入后回放", "en": "open in the replay viewer"},
    "replay.title": {"zh": "回放", "en": "Replay"},
    "replay.step": {"zh": "第 {n} / {total} 步", "en": "step {n} of {total}"},
    "replay.play": {"zh": "播放", "en": "Play"},
    "replay.pause": {"zh": "暂停", "en": "Pause"},
    "replay.prev": {"zh": "上一步", "en": "Back"},
    "replay.next": {"zh": "下一步", "en": "Forward"},
    "replay.timeline": {"zh": "时间轴", "en": "Timeline"},
    "keys.help": {"zh": "键盘：Tab 移到任一张牌，回车更正；L 切换语言；Esc 关闭对话框；回放中 ←/→ 前后一步",
                  "en": "Keys: Tab to any card, Enter to correct it; L switches language; Esc closes a dialog; "
                        "in a replay ←/→ step back and forth"},
    "rule.wrong-leader": {"zh": "出牌顺序错", "en": "wrong leader"},
    "rule.wrong-card-count": {"zh": "张数不对", "en": "wrong number of cards"},
    "rule.card-not-available": {"zh": "牌数不符", "en": "card not available"},
    "rule.lead-mixed-suits": {"zh": "首家混花色", "en": "lead mixes suits"},
    "rule.must-follow-suit": {"zh": "没跟花色（藏牌）", "en": "did not follow suit"},
    "rule.must-follow-format": {"zh": "没跟牌型", "en": "did not follow the format"},
    "rule.failed-throw": {"zh": "甩牌失败未退回", "en": "failed throw stood"},
    "rule.wrong-forced-unit": {"zh": "甩牌失败出错牌", "en": "wrong forced unit"},
    "rule.bad-bid": {"zh": "亮主不合规", "en": "bad bid"},
    "rule.bad-kitty": {"zh": "底牌张数不对", "en": "wrong kitty size"},
    "error.title": {"zh": "出错了", "en": "Error"},
}


def translate(key: str, lang: str = DEFAULT_LANGUAGE, **values: object) -> str:
    """The text of ``key`` in ``lang`` (Chinese if unknown), with ``{name}`` placeholders filled."""
    entry = STRINGS.get(key)
    if entry is None:
        return key
    text = entry.get(lang) or entry[DEFAULT_LANGUAGE]
    return text.format(**values) if values else text


def normalise_language(value: str | None) -> str:
    """``"en"`` or ``"zh"`` from a cookie or query value; anything else is the default."""
    return value if value in LANGUAGES else DEFAULT_LANGUAGE
