"""The game's vocabulary, typed once: every word the engine, the table, the hall and the
browser exchange, as string enums.

Each enum's values are the exact strings of the logs and the wire protocol (docs/protocol.md):
a member *is* its string (``ActionType.DISCARD == "discard"``, it hashes and serialises as
the string), so typing a value changes no log byte. The browser's copy,
``server/static/js/protocol.js``, is generated from this module (``scripts/gen_protocol.py``;
a test fails when it is stale), so the client never spells a word by hand.

This module imports nothing from laizi: it sits below every other module.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "ActionType",
    "ClientOp",
    "GameEventType",
    "HandEnd",
    "MeldKind",
    "Outcome",
    "Phase",
    "QuickPhrase",
    "ServerOp",
    "TableEventType",
    "TurnStart",
    "WinHow",
]


class Phase(StrEnum):
    """What the game is waiting for (牌局阶段)."""

    TURN = "turn"  # a seat's own turn: discard, kong or self-drawn win (出牌)
    CLAIM = "claim"  # the claim window on a discard (吃 / 碰 / 杠 / 胡)
    ROB = "rob"  # the window to rob an added kong (抢杠胡)
    DECIDE = "decide"  # a variant's own decision (Taiwan's 宣告听牌); Variant.resolve ends it
    OVER = "over"  # the hand is over (和牌 or 流局)


class TurnStart(StrEnum):
    """How the current turn began (摸牌方式): it decides whether a self-drawn win or a kong
    is possible."""

    DEALT = "dealt"  # the dealer's first turn (天胡 possible)
    DRAWN = "drawn"  # an ordinary draw from the wall (摸牌)
    REPLACED = "replaced"  # a replacement draw after a kong or a flower (杠上 / 补花)
    CLAIMED = "claimed"  # after a chow or pung: discard only (吃碰后出牌)


class ActionType(StrEnum):
    """What a seat can do (动作)."""

    DISCARD = "discard"  # 打牌
    WIN = "win"  # 胡: self-drawn (自摸), on a discard (点炮) or robbing an added kong (抢杠)
    CONCEALED_KONG = "concealed_kong"  # 暗杠
    ADDED_KONG = "added_kong"  # 补杠 / 蓄杠: the fourth tile added to one's exposed pung
    SPECIAL_KONG = "special_kong"  # variant kongs of one tile (红中杠, 赖子杠)
    CHOW = "chow"  # 吃
    PUNG = "pung"  # 碰
    KONG = "kong"  # 明杠 on a discard (直杠)
    PASS = "pass"  # 过
    DECLARE = "declare"  # 宣告听牌 (Taiwan 天听 / 地听): ready, the hand locked from then on
    FLOWER_WIN = "flower_win"  # 花胡 八仙过海 (Taiwan): all eight flowers
    ROB_FLOWER = "rob_flower"  # 花胡 七抢一 (Taiwan): seven flowers rob the eighth
    # 错和: a 胡 declared without a win, by a Botzone-protocol program under MCR's
    # profile=botzone (docs/datasets.md). Never a legal action: nobody is offered it.
    WRONG_WIN = "wrong_win"


class MeldKind(StrEnum):
    """A meld in front of a seat (副露 / 杠)."""

    CHOW = "chow"  # 吃
    PUNG = "pung"  # 碰
    KONG = "kong"  # 明杠 on a discard (直杠)
    ADDED_KONG = "added_kong"  # 补杠: a claimed pung turned kong by the owner's own tile
    CONCEALED_KONG = "concealed_kong"  # 暗杠
    RED_DRAGON_KONG = "red_dragon_kong"  # 红中杠 (Jingzhou): one red dragon set aside
    LAIZI_KONG = "laizi_kong"  # 赖子杠 (Jingzhou): one wildcard set aside


class WinHow(StrEnum):
    """How a hand was won (胡牌方式), as the engine's win event names it."""

    SELF_DRAW = "self_draw"  # 自摸 (杠上开花 is a self-draw after a kong)
    DISCARD = "discard"  # 点炮 / 放炮
    ROBBED_KONG = "robbed_kong"  # 抢杠


class Outcome(StrEnum):
    """A hand record's outcome (结果)."""

    WIN = "win"  # 和牌: somebody won
    DRAW = "draw"  # 黄庄 / 流局: the wall ran out
    WRONG_WIN = "wrong_win"  # 错和: a wrong 胡 ended the hand (MCR profile=botzone)


class HandEnd(StrEnum):
    """How a hand ended, as far as the table's rotation (下桌 / 连庄) is concerned.

    ``ROB_KONG`` is spelt ``rob_kong`` here and ``robbed_kong`` in :class:`WinHow`: both
    spellings are in stored logs and records, so neither can change (docs/protocol.md)."""

    DISCARD = "discard"  # 放胡: won on a discard
    ROB_KONG = "rob_kong"  # 抢杠: won by robbing an added kong
    SELF_DRAW = "self_draw"  # 自摸, 杠上开花 included
    DRAWN = "drawn"  # 黄庄 / 流局: no winner


class GameEventType(StrEnum):
    """The entries of one hand's log (牌局记录), in the order a hand writes them."""

    START = "start"  # everything needed to recreate the hand
    DEAL = "deal"  # 发牌
    INDICATOR = "indicator"  # the wildcard indicator turned (翻赖子 / 翻金)
    FLOWER = "flower"  # a flower set aside and replaced (补花)
    DRAW = "draw"  # 摸牌
    ACTION = "action"  # a seat's decision
    CLAIM = "claim"  # the claim that won the window
    REVEALED = "revealed"  # a hand shown at the end (亮牌)
    END = "end"  # the hand's result (结算)


class TableEventType(StrEnum):
    """The entries of a table's log (a match of hands, 一场)."""

    TABLE = "table"  # the table's variant, options and people
    JOIN = "join"  # 上桌
    LEAVE = "leave"  # 下桌
    ENTROPY = "entropy"  # a person's contribution to the next hand's secret
    HORSE = "horse"  # 买马
    HAND = "hand"  # a hand begins
    ACTION = "action"  # a decision in the current hand
    HAND_END = "hand_end"  # the hand's settlement
    CLOSE = "close"  # the match is over


class ClientOp(StrEnum):
    """What a browser (or ``laizi connect``) sends the hall over its websocket."""

    ACT = "act"  # a decision at the table
    START = "start"  # the host starts the match
    PAUSE = "pause"  # the host pauses
    RESUME = "resume"  # the host resumes
    END = "end"  # the host ends the match
    DISMISS = "dismiss"  # a vote to dismiss the room (解散)
    BACK = "back"  # back from 托管
    HORSE = "horse"  # buy horses (买马)
    ENTROPY = "entropy"  # a contribution to the next hand's secret
    READY = "ready"  # ready for the next hand (准备)
    PING = "ping"  # keep-alive
    SIT = "sit"  # a waiting person takes a free seat
    PHRASE = "phrase"  # a quick phrase or emoji to the room (快捷语), by its id
    KICK = "kick"  # the host removes a person (踢出): a bot plays their seat
    HOST = "host"  # the host hands the host role (房主) to another player
    LOCK = "lock"  # the host locks (or unlocks) the room to newcomers (锁定房间)
    HINT_WAITS = "hint_waits"  # the 听牌 waits of one ready discard, asked for (听牌提示)


class ServerOp(StrEnum):
    """What the hall sends a websocket."""

    STATE = "state"  # a frame: the seat's view, its legal actions and the new events
    HINTS = "hints"  # a seat's 听牌 hints for the version of its last state frame
    ACK = "ack"  # a client message was applied (carries its ``seq``)
    ERROR = "error"  # a client message was refused (carries a code, laizi.errors)
    PHRASE = "phrase"  # somebody's quick phrase, to everybody in the room (not in any log)


class QuickPhrase(StrEnum):
    """The table's fixed quick phrases and emoji (快捷语 / 表情): a person sends one by its
    id, never free text; the browser holds their words (static/js/phrases.js)."""

    HURRY = "hurry"  # 快点吧
    SORRY = "sorry"  # 不好意思
    NICE = "nice"  # 打得好
    AGAIN = "again"  # 再来一局
    THANKS = "thanks"  # 谢谢
    HELLO = "hello"  # 大家好
    LUCK = "luck"  # 手气不错
    BYE = "bye"  # 我先走了
    SMILE = "smile"  # 😄
    LAUGH = "laugh"  # 😂
    CRY = "cry"  # 😭
    ANGRY = "angry"  # 😠
    THUMBS = "thumbs"  # 👍
    FLOWER = "flower"  # 🌹
