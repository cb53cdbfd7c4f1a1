"""``laizi play golden`` / ``laizi play mcr``: the terminal front end of the 81-fan games.

It prints what a player of 黄金麻将 / 国标麻将 needs before the first hand (the golden tile
rule, flowers, the 8-fan minimum, the winds and the match schedule) and then plays the
generic session of :mod:`laizi.commands.play`: the panel marks the golden tile with ``*``
(the seed also calls it 赖子牌) and shows everyone's flowers; after each win the variant's
``describe`` prints the winner's 门风 / 圈风, the golden tile and the fan table.
"""

from __future__ import annotations

import argparse
from typing import IO

from laizi.commands.play import register_player, session
from laizi.variants import get
from laizi.variants._gb_common import MATCH_HANDS, WIND_LETTERS

__all__ = ["gb_session", "header", "register"]

_WIND_ZH = dict(zip(WIND_LETTERS, "东南西北", strict=True))


def header(variant_id: str, minimum: int, hands: int, dealer: int) -> list[str]:
    """The lines shown before the first hand."""
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


def gb_session(args: argparse.Namespace, stdin: IO[str], stdout: IO[str]) -> int:
    variant = get(args.variant)
    minimum = 8
    for pair in args.option:
        name, _, value = pair.partition("=")
        if name.strip() == "minimum" and value.strip().isdigit():
            minimum = int(value)
    if 0 <= args.dealer < variant.seats and args.hands >= 1:
        for line in header(variant.id, minimum, args.hands, args.dealer):
            print(line, file=stdout)
    return session(args, stdin, stdout)


def register() -> None:
    register_player("golden", gb_session)
    register_player("mcr", gb_session)
