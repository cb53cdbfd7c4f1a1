"""荆州晃晃 hand value and settlement, as pure functions.

Value of a win = 刀 × 硬:

* 刀 (blade) is 2 for 大刀 and 1 for 小刀. 大刀 = 门清 (no chow, pung or 明杠, and a
  self-draw; concealed kongs allowed), 七对, or 碰碰胡 (= 大对胡); several reasons count once.
* 硬 is 2 for 硬胡 (no laizi, or every laizi standing for its own face in some valid
  reading) and 1 for 软胡.
* A hand holding two or more laizi may only win as 大刀: its 小刀 readings are refused.

The best allowed reading counts (a player declares the reading that pays most).

Payments, base 底分 ``B``, ``k`` laizi discarded in the hand by anyone:

=============  =====================  ===========================
how            who pays               each pays
=============  =====================  ===========================
放胡            the discarder alone    B × 刀 × 硬 × 2^k
自摸            all three              B × 刀 × 硬 × 2 × 2^k
杠上开花        all three              B × 刀 × 硬 × 4 × 2^k
抢杠            the robbed player      B × 刀 × 硬 × 2 × 2^k
=============  =====================  ===========================
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from laizi import tiles
from laizi.analysis import is_win
from laizi.analysis.types import SUITED_SUITS, WinRules
from laizi.copying import rebuild_from_fields
from laizi.core.jsondata import JSON
from laizi.reasons import Reason
from laizi.settlement import Payment

__all__ = [
    "ANY_SHAPE",
    "BIG_SHAPE",
    "PUNGS_ONLY",
    "SEATS",
    "TILE_KINDS",
    "HandValue",
    "Meld",
    "MeldKind",
    "NotAWin",
    "WinKind",
    "can_win",
    "evaluate",
    "laizi_of",
    "payments",
    "settle",
    "win_multiplier",
]

SEATS = 4
TILE_KINDS: tuple[int, ...] = (*range(27), tiles.RED, tiles.GREEN, tiles.WHITE)
"""The 30 kinds of the 120-tile 晃晃 set: 万 筒 条 and 中 发 白 (no winds, no flowers)."""

ANY_SHAPE = WinRules(pair_tiles=None, chow_suits=SUITED_SUITS, seven_pairs=True)
"""Any pair, chows in the three suits, 七对."""
PUNGS_ONLY = WinRules(pair_tiles=None, chow_suits=frozenset(), seven_pairs=False)
"""Readings with no chow at all: 碰碰胡 / 大对胡."""
BIG_SHAPE = WinRules(pair_tiles=None, chow_suits=frozenset(), seven_pairs=True)
"""碰碰胡 or 七对 readings: the shapes that are 大刀 whatever the way of winning."""

_DRAGON_CYCLE = {tiles.RED: tiles.GREEN, tiles.GREEN: tiles.WHITE, tiles.WHITE: tiles.RED}


def laizi_of(indicator: int) -> int:
    """The laizi (癞子) shown by ``indicator``: its successor, n → n+1 and 9 → 1 in the same
    suit, 中 → 发 → 白 → 中."""
    if tiles.is_suited(indicator):
        return indicator - 8 if indicator % 9 == 8 else indicator + 1
    if indicator in _DRAGON_CYCLE:
        return _DRAGON_CYCLE[indicator]
    raise ValueError(f"{tiles.name(indicator)} is not a 晃晃 tile and cannot be the indicator")


class WinKind(StrEnum):
    """How the hand was won."""

    DISCARD = "discard"  # 放胡: on another player's discard
    SELF_DRAW = "self_draw"  # 自摸
    KONG_DRAW = "kong_draw"  # 杠上开花: self-drawn on the replacement tile after one's own kong
    ROB_KONG = "rob_kong"  # 抢杠: on the tile another player added to their pung

    @property
    def self_drawn(self) -> bool:
        return self in (WinKind.SELF_DRAW, WinKind.KONG_DRAW)

    @property
    def chinese(self) -> str:
        return {"discard": "放胡", "self_draw": "自摸", "kong_draw": "杠上开花",
                "rob_kong": "抢杠"}[self.value]


class MeldKind(StrEnum):
    """An exposed or declared meld."""

    CHOW = "chow"  # 吃
    PUNG = "pung"  # 碰
    KONG = "kong"  # 明杠: on a discard (直杠) or added to a pung (补杠)
    CONCEALED_KONG = "concealed_kong"  # 暗杠: keeps the hand 门清


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared meld; ``tile`` is its lowest tile (the only tile of a pung or kong)."""

    kind: MeldKind
    tile: int

    def to_json(self) -> JSON:
        return {"kind": self.kind.value, "tile": tiles.name(self.tile, "mpsz")}


@dataclass(frozen=True, slots=True)
class HandValue:
    """``dao`` (刀, 1 or 2) × ``ying`` (硬, 1 or 2), with the reasons (``dao``, ``ying``)."""

    dao: int
    ying: int
    reasons: tuple[Reason, ...]

    @property
    def value(self) -> int:
        return self.dao * self.ying


class NotAWin(ValueError):
    """The tiles do not make a winning hand under 晃晃 rules (the message says which)."""


def win_multiplier(win: WinKind) -> int:
    """What each payer pays per unit: 放胡 1, 自摸 2, 杠上开花 4, 抢杠 2."""
    return {WinKind.DISCARD: 1, WinKind.SELF_DRAW: 2, WinKind.KONG_DRAW: 4,
            WinKind.ROB_KONG: 2}[win]


def _check_tiles(concealed: Sequence[int], melds: Sequence[Meld], laizi: int) -> None:
    kinds = set(TILE_KINDS)
    for t in (*concealed, laizi, *(m.tile for m in melds)):
        if t not in kinds:
            raise NotAWin(f"{tiles.name(t) if 0 <= t < 42 else t} is not a 晃晃 tile")
    if len(melds) > 4:
        raise NotAWin(f"a hand has at most 4 melds, got {len(melds)}")
    if len(concealed) != 14 - 3 * len(melds):
        raise NotAWin(
            f"a complete hand with {len(melds)} melds has {14 - 3 * len(melds)} concealed "
            f"tiles, got {len(concealed)}"
        )
    seen = tiles.to_counts(concealed)
    for m in melds:
        if m.kind is MeldKind.CHOW:
            for d in range(3):
                seen[m.tile + d] += 1
        else:
            seen[m.tile] += 4 if m.kind in (MeldKind.KONG, MeldKind.CONCEALED_KONG) else 3
    over = [t for t, c in enumerate(seen) if c > 4]
    if over:
        raise NotAWin(f"there are only four {tiles.name(over[0])} in the set")
    for m in melds:
        if m.tile == laizi:
            raise NotAWin("a laizi never takes part in a meld")
        if m.kind is MeldKind.CHOW and (not tiles.is_suited(m.tile) or m.tile % 9 > 6):
            raise NotAWin(f"no chow starts at {tiles.name(m.tile)}")


def evaluate(
    concealed: Sequence[int],
    melds: Sequence[Meld],
    laizi: int,
    win: WinKind,
    winning_tile: int | None = None,
) -> HandValue:
    """The value of a complete hand, or :class:`NotAWin` saying why it may not win.

    ``concealed`` holds the concealed tiles *including* the winning tile; ``melds`` the
    declared melds. ``winning_tile`` (optional) lets the dead-laizi rule be checked: a
    discarded laizi can never be won on.
    """
    _check_tiles(concealed, melds, laizi)
    if winning_tile is not None and winning_tile == laizi and not win.self_drawn:
        raise NotAWin("a discarded laizi is dead: nobody may win on it")
    n_laizi = sum(1 for t in concealed if t == laizi)
    hard_counts = tiles.to_counts(concealed)
    soft_counts = list(hard_counts)
    soft_counts[laizi] = 0
    no_chow_melds = all(m.kind is not MeldKind.CHOW for m in melds)
    menqing = win.self_drawn and all(m.kind is MeldKind.CONCEALED_KONG for m in melds)

    best: HandValue | None = None
    for ying, counts, wilds in ((2, hard_counts, 0), (1, soft_counts, n_laizi)):
        if not is_win(counts, wilds, ANY_SHAPE):
            continue
        all_pungs = no_chow_melds and is_win(counts, wilds, PUNGS_ONLY)
        seven_pairs = not all_pungs and not melds and is_win(counts, wilds, BIG_SHAPE)
        dao = 2 if menqing or all_pungs or seven_pairs else 1
        if dao == 1 and n_laizi >= 2:
            continue
        reasons = (
            Reason.of("dao", times=dao, menqing=menqing, all_pungs=all_pungs,
                      seven_pairs=seven_pairs),
            Reason.of("ying", hard=ying == 2, times=ying),
        )
        if best is None or dao * ying > best.value:
            best = HandValue(dao, ying, reasons)
    if best is None:
        if n_laizi >= 2 and is_win(soft_counts, n_laizi, ANY_SHAPE):
            raise NotAWin(
                f"a hand holding {n_laizi} laizi may only win as 大刀 "
                "(门清 self-draw, 七对 or 碰碰胡); this is a 小刀"
            )
        raise NotAWin("the tiles do not form four melds and a pair or 七对")
    return best


def can_win(
    concealed: Sequence[int],
    melds: Sequence[Meld],
    laizi: int,
    win: WinKind,
    winning_tile: int | None = None,
) -> bool:
    """True when :func:`evaluate` accepts the hand."""
    try:
        evaluate(concealed, melds, laizi, win, winning_tile)
    except NotAWin:
        return False
    return True


def payments(
    win: WinKind,
    winner: int,
    loser: int | None,
    value: HandValue,
    laizi_discarded: int = 0,
    base: int = 1,
) -> list[Payment]:
    """The table's payments for one win (seats 0-3); they sum to zero.

    ``loser`` is the discarder (放胡) or the robbed player (抢杠) and ``None`` for a
    self-drawn win. ``laizi_discarded`` counts every laizi discarded in the hand, by anyone.
    """
    if not 0 <= winner < SEATS:
        raise ValueError(f"winner seat {winner} is not a seat 0-{SEATS - 1}")
    if base < 1:
        raise ValueError(f"the base (底分) must be a positive whole number, got {base}")
    if laizi_discarded < 0:
        raise ValueError("the number of discarded laizi cannot be negative")
    if win.self_drawn:
        if loser is not None:
            raise ValueError(f"a {win.chinese} win has no single loser")
        payers = [s for s in range(SEATS) if s != winner]
    else:
        if loser is None or loser == winner or not 0 <= loser < SEATS:
            raise ValueError(f"a {win.chinese} win needs the seat of the player who pays")
        payers = [loser]
    each = base * value.value * win_multiplier(win) * 2**laizi_discarded
    reasons = [Reason.of("base", points=base), *value.reasons,
               Reason.of("win_times", how=win.value, times=win_multiplier(win))]
    if laizi_discarded:
        reasons.append(Reason.of("laizi_discarded", count=laizi_discarded,
                                 times=2**laizi_discarded))
    return [Payment(p, winner, each, tuple(reasons)) for p in payers]


def settle(
    concealed: Sequence[int],
    melds: Sequence[Meld],
    laizi: int,
    win: WinKind,
    winner: int,
    loser: int | None = None,
    laizi_discarded: int = 0,
    base: int = 1,
    winning_tile: int | None = None,
) -> list[Payment]:
    """:func:`evaluate` then :func:`payments`: the whole table settlement of one win."""
    value = evaluate(concealed, melds, laizi, win, winning_tile)
    return payments(win, winner, loser, value, laizi_discarded, base)


rebuild_from_fields(Meld, HandValue)  # copy and pickle, compiled too
