"""Types and small tables shared by the fast calculator (:mod:`.calculator`) and the
reference (:mod:`.reference`): the checked win flags, a scored reading, the situational
fans and the fan values."""

from __future__ import annotations

from typing import Final, NamedTuple

from .fans import FANS
from .masks import bits

__all__ = [
    "KIND",
    "KNITTED",
    "KNITTED_BITS",
    "VALUE",
    "Considered",
    "FanTable",
    "Flags",
    "Scored",
    "Sources",
    "flag_fans",
    "total",
    "win_fans",
]

FanTable = dict[str, int]
Sources = dict[str, list[tuple[int, ...]]]

VALUE: Final[dict[str, int]] = {f.key: f.value for f in FANS}

KNITTED: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(sorted(s * 9 + r for s, start in zip(perm, (0, 1, 2), strict=True)
                 for r in range(start, 9, 3)))
    for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
)
"""The six knitted straights (147 258 369 in three different suits), sorted tiles."""
KNITTED_BITS: Final[tuple[int, ...]] = tuple(bits(k) for k in KNITTED)

KIND: Final = {1: "chow", 2: "pung", 4: "pair"}
"""Pack kinds (shapes.CHOW PUNG PAIR) as :class:`laizi.analysis.GroupKind` values."""


class Flags(NamedTuple):
    """Win flags after the hand has been checked against them (a NamedTuple: made for
    every hand and candidate, and used as a dict key by golden.py)."""

    self_drawn: bool
    last_copy: bool
    about_kong: bool
    wall_last: bool
    seat: int
    prevalent: int


class Scored(NamedTuple):
    """The best reading of a concrete hand: fan counts, the sets behind each, the shape."""

    total: int
    table: FanTable
    sources: Sources
    shape: str
    reading: tuple[tuple[int, ...], ...]


Considered = tuple[str, tuple[tuple[str, tuple[int, ...]], ...]]
"""A reading the scorer tried: its shape and its concealed groups as (kind, tiles), kinds
named as :class:`laizi.analysis.GroupKind` values (chow pung pair knitted singles)."""


def win_fans(fl: Flags, ft: FanTable) -> None:
    """The situational fans of the flags (自摸, 和绝张, 妙手回春 / 海底捞月, 杠上开花 /
    抢杠和) into ``ft``."""
    if fl.last_copy:
        ft["last_tile"] = 1
    if fl.wall_last:
        ft["last_tile_draw" if fl.self_drawn else "last_tile_claim"] = 1
    if fl.about_kong:
        ft["out_with_replacement_tile" if fl.self_drawn else "robbing_the_kong"] = 1
    if fl.self_drawn:
        ft["self_drawn"] = 1


_FLAG_FANS: Final[dict[tuple[Flags, int], FanTable]] = {}
"""flag_fans by (flags, claimed melds): at most 2^4 * 4 * 4 * 5 entries."""


def flag_fans(fl: Flags, claimed: int) -> FanTable:
    """The situational fans and 门前清 / 不求人 / 全求人 / 自摸 of a hand with ``claimed``
    claimed melds (shared by every sets-and-pair reading). The answer is kept (a bounded
    table): callers copy it before adding to it."""
    got = _FLAG_FANS.get((fl, claimed))
    if got is None:
        ft: FanTable = {}
        win_fans(fl, ft)
        if claimed == 0:
            ft["fully_concealed_hand" if fl.self_drawn else "concealed_hand"] = 1
        elif claimed == 4:
            ft["self_drawn" if fl.self_drawn else "melded_hand"] = 1
        elif fl.self_drawn:
            ft["self_drawn"] = 1
        got = _FLAG_FANS[fl, claimed] = ft
    return got


def total(ft: FanTable) -> int:
    """The fan total of a table (flowers aside: they are never in it)."""
    value = VALUE
    n = 0
    for k, c in ft.items():
        n += value[k] * c
    return n
