"""``laizi play golden`` / ``laizi play mcr``: the display hooks of the 81-fan games.

Before the first hand it prints what a player of 黄金麻将 / 国标麻将 needs (the golden tile
rule, flowers, the 8-fan minimum, the winds and the match schedule); each hand's rule
names its 圈 and dealer, and the board every seat's wind (门风) and the prevalent wind
(圈风). The panel marks the golden tile with ``*`` (the seed also calls it 赖子牌) and
shows everyone's flowers; a complete hand short of the minimum says by how much; after
each win the variant's ``describe`` prints the winner's 门风 / 圈风, the golden tile and
the fan table. The hands themselves are played by the one table loop
(:mod:`laizi.ui.player`).
"""

from __future__ import annotations

from rich.console import RenderableType

from laizi.analysis import WinRules
from laizi.table.driver import Decision
from laizi.table.table import Entry, Table
from laizi.ui.player import Display
from laizi.variants._gb_common import MATCH_HANDS, WIND_LETTERS

__all__ = ["GOLDEN_RULES", "MCR_RULES", "GBDisplay", "header", "schedule"]

_WIND_ZH = dict(zip(WIND_LETTERS, "东南西北", strict=True))

MCR_RULES = (
    "国标麻将 (MCR, 4 players, 144 tiles with 8 flowers). 13 tiles each, the dealer 14. "
    "Flowers are set aside and replaced from the tail; each is 1 fan after a win but "
    "never counts toward the minimum. A win is four melds and a pair, 七对, 十三幺, 全不靠 "
    "or 组合龙, worth at least 8 fan without flowers (the 81 fans of the official table, "
    "不重复 / 不拆移 / 就高不就低). On a self-draw each other player pays 8 + fan; on a "
    "discard the discarder pays 8 + fan and the others 8 each; 抢杠 is paid by the robbed "
    "player. The dealer sits 东 and the deal passes every hand; four rounds of winds "
    "(东南西北 圈) make a match of 16 hands.")
"""``?`` in ``laizi play mcr``."""

GOLDEN_RULES = (
    "黄金麻将 (golden, 4 players, 144 tiles with 8 flowers): the MCR game with a wild "
    "tile. After the deal a tile is turned up; the next one (n → n+1, 9 → 1; 东南西北 → 发 "
    "→ 白 → 东; 中 → 发) is the 黄金牌 golden tile, marked *: wild when a hand is judged, its "
    "own face in a chow, pung or kong, and it can never be discarded. A win needs 8 fan "
    "without flowers (flowers are 1 fan each, set aside and replaced from the tail). "
    "Payments are MCR's (8 + fan from the discarder or every player on a self-draw) × "
    "2^(winner's + payer's doublings): 1 for having opened, 1 per 明杠 / 蓄杠, 2 per 暗杠. "
    "The dealer sits 东, the deal passes every hand; 16 hands make a match. "
    "docs/rules/golden.md has the details.")
"""``?`` in ``laizi play golden``."""


def header(variant_id: str, minimum: int, hands: int, dealer: int) -> list[str]:
    """The lines shown before the first hand (the schedule by seat numbers)."""
    golden = variant_id == "golden"
    lines = ["144 tiles with 8 flowers (补花: set aside and replaced from the tail, 1 fan "
             "each, never toward the minimum)."]
    if golden:
        lines.append("黄金牌: the tile after the indicator (n → n+1, 9 → 1; 东南西北 → 发 → 白 "
                     "→ 东; 中 → 发) is wild for winning, marked *; it can never be discarded.")
    lines.append(f"A win needs {minimum} fan without flowers. The dealer sits 东; the deal "
                 "passes every hand.")
    rounds = []
    for k in range(min(hands, MATCH_HANDS)):
        d = (dealer + k) % 4
        rounds.append(f"{k + 1}:{_WIND_ZH[WIND_LETTERS[k // 4]]}圈/庄{d}")
    lines.append("hands: " + "  ".join(rounds))
    return lines


def schedule(names: list[str], hands: int, dealer: int) -> str:
    """Who deals which hand in which 圈, by the people's names."""
    parts = []
    for k in range(min(hands, MATCH_HANDS)):
        parts.append(f"{k + 1} {_WIND_ZH[WIND_LETTERS[k // 4]]}圈 {names[(dealer + k) % 4]}")
    return "dealers: " + " · ".join(parts)


class GBDisplay(Display):
    """Golden / MCR: the rules and the schedule first, the 圈 and the winds on the
    board, the fan a complete hand lacks."""

    winds = True
    shape_rules = WinRules(thirteen_orphans=True, knitted=True)
    session_name = f"a match of {MATCH_HANDS} hands (four 圈)"

    def __init__(self, rules: str) -> None:
        self.rules = rules

    def header(self, table: Table, me: str, hands: int | None) -> list[RenderableType]:
        minimum = int(getattr(table.options, "minimum", 8))
        count = MATCH_HANDS if hands is None else hands
        names = [p or "-" for p in table.seats]
        lines = header(table.variant.id, minimum, count, table.dealer)
        return [*super().header(table, me, hands), *lines[:-1],
                schedule(names, count, table.dealer)]

    def hand_title(self, hand: Entry) -> str:
        wind = _WIND_ZH.get(str(hand["options"].get("prevalent_wind", "E")), "东")
        return f"{super().hand_title(hand)} · {wind}圈"

    def refusal(self, decision: Decision, tile: int, how: str) -> str | None:
        why = super().refusal(decision, tile, how)
        game = decision.table.game
        judge = getattr(game.variant, "judge_candidate", None) if game is not None else None
        if why is None or judge is None:
            return why
        result = judge(game, decision.seat, tile, how)
        minimum = int(getattr(game.options, "minimum", 8)) if game is not None else 8
        if result.is_win and result.fan_without_flowers < minimum:
            fans = ", ".join(f"{f.zh} {f.points}" for f in result.fans)
            return (f"{result.fan_without_flowers} fan, {minimum} needed (flowers do not "
                    f"count){': ' + fans if fans else ''}")
        return why


DISPLAY = GBDisplay(GOLDEN_RULES)
"""The display hooks of ``laizi play golden``; ``laizi play mcr`` has its own rules."""
