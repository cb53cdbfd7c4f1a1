"""荆州麻将 · 红中赖子杠: tiles, the laizi, and how a hand is judged (hand types).

Pure functions on count vectors and melds, shared by live play (win legality) and the
settlement of hand records. See ``docs/rules/jingzhou.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from laizi import tiles as T
from laizi.analysis import WinRules, is_win
from laizi.copying import rebuild_from_fields
from laizi.core.melds import CHOW, OPEN_KINDS, STANDARD_KINDS, Meld
from laizi.core.records import DISCARD_WIN, ROBBED_KONG, SELF_DRAW
from laizi.vocab import MeldKind

__all__ = [
    "BIG_HANDS",
    "LAIZI_KONG",
    "RED",
    "RED_KONG",
    "TILE_KINDS",
    "Reading",
    "could_win",
    "is_ready",
    "laizi_for",
    "readings",
]

RED = T.RED  # 中
RED_KONG = MeldKind.RED_DRAGON_KONG  # 红中杠
LAIZI_KONG = MeldKind.LAIZI_KONG  # 赖子杠

TILE_KINDS: tuple[int, ...] = (*range(9, 27), T.SOUTH, T.WEST, T.NORTH, T.WHITE, T.GREEN, T.RED)
"""筒 1-9, 条 1-9, 南 西 北 白 发 中 (no 万, no 东, no flowers): 24 kinds × 4 = 96 tiles."""

_HONOUR_NEXT = {T.SOUTH: T.WEST, T.WEST: T.NORTH, T.NORTH: T.GREEN, T.GREEN: T.WHITE,
                T.WHITE: T.SOUTH, T.RED: T.GREEN}

TWO_FIVE_EIGHT = frozenset(t for t in range(9, 27) if t % 9 in (1, 4, 7))
"""2, 5 and 8 of 筒 and 条: the only pairs (将) of 屁胡, and the tiles of 将一色."""
_CHOW_SUITS = frozenset({1, 2})
RULES_258 = WinRules(pair_tiles=TWO_FIVE_EIGHT, chow_suits=_CHOW_SUITS, seven_pairs=False)
RULES_ANY_PAIR = WinRules(pair_tiles=None, chow_suits=_CHOW_SUITS, seven_pairs=False)
RULES_PUNGS = WinRules(pair_tiles=None, chow_suits=frozenset(), seven_pairs=False)

# Big hands (大胡), in the order they are listed on a settlement.
QING = "清一色"
FENG = "风一色"
JIANG = "将一色"
PENG = "碰碰胡"
QIDUI = "七对"
QUAN = "全求人"
GANGKAI = "杠开"
QIANGGANG = "抢杠"
BIG_HANDS = (QING, FENG, JIANG, PENG, QIDUI, QUAN, GANGKAI, QIANGGANG)
GOLD_HANDS = frozenset({FENG, JIANG})
"""Big hands that go straight to 金顶."""


def laizi_for(indicator: int) -> int:
    """The laizi (赖子) an indicator (赖子皮) gives: n → n+1 in its suit (9 → 1); honours
    南 → 西 → 北 → 发 → 白 → 南, and 中 → 发. 中 is never the laizi."""
    if T.is_suited(indicator):
        return indicator - 8 if indicator % 9 == 8 else indicator + 1
    if indicator in _HONOUR_NEXT:
        return _HONOUR_NEXT[indicator]
    raise ValueError(f"{T.name(indicator, 'mpsz')} is not a Jingzhou tile")


_win = is_win
"""The win check of every reading. A memo per rule set stood here; measured with
``benchmarks/bench_win.py --jingzhou-memo`` (interleaved rounds, medians of per-round
ratios) it made play 1.13-1.19× slower with random agents (the simple bot, timed the
same way ad hoc: 1.08-1.21×) than calling ``is_win`` directly, since a 34-tuple's hash
and a mostly missing lookup cost more than ``is_win``'s four table lookups, while
growing ~23 KiB a hand up to ~100 MB before it cleared. So it is gone."""


_odd = (1).__and__


def _seven_pairs(counts: Sequence[int], wilds: int) -> bool:
    """七对: 14 concealed tiles in seven pairs (two identical pairs allowed); a wildcard
    completes a pair."""
    if sum(counts) + wilds != 14:
        return False
    return sum(map(_odd, counts)) <= wilds


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a winning hand: with every laizi as its own face (``hard``, 硬胡)
    or with the laizi as wildcards (软胡)."""

    hard: bool
    big_hands: tuple[str, ...]
    pihu: bool
    """Valid as a 屁胡: four melds and a 2/5/8 pair, at most one laizi held."""


_258 = tuple(sorted(TWO_FIVE_EIGHT))


def _composition(nat: Sequence[int], set_melds: Sequence[Meld]) -> tuple[bool, bool, int]:
    """(all honours, all 2/5/8, the one suit or -1) of the non-wild tiles and the melds."""
    per_suit = [sum(nat[0:9]), sum(nat[9:18]), sum(nat[18:27]), sum(nat[27:34])]
    jiang = 0
    for t in _258:
        jiang += nat[t]
    for m in set_melds:
        t0 = m.tiles[0]
        k = len(m.tiles)
        per_suit[3 if t0 >= 27 else t0 // 9] += k
        if m.tiles[-1] == t0 and t0 in TWO_FIVE_EIGHT:
            jiang += k
    total = sum(per_suit)
    honours = per_suit[3] == total
    used = [i for i in range(3) if per_suit[i]]
    one = used[0] if len(used) == 1 and not per_suit[3] else -1
    return honours, jiang == total, one


def could_win(hand: Sequence[int], melds: Sequence[Meld], laizi: int | None) -> bool:
    """A cheap necessary condition for :func:`readings` to find a win (most hands fail
    it): the wildcard reading has a standard shape, or seven pairs, or is all honours or
    all 2/5/8 (the shapeless big hands)."""
    held = hand[laizi] if laizi is not None else 0
    nat = list(hand)
    if held:
        nat[laizi] = 0  # type: ignore[index]
    if _win(tuple(nat), held, RULES_ANY_PAIR):
        return True
    set_melds = [m for m in melds if m.kind in STANDARD_KINDS]
    if not set_melds and _seven_pairs(nat, held):
        return True
    # Shapeless hands need every concealed tile an honour, or every one a 2/5/8.
    total = sum(nat)
    if sum(nat[:27]) and sum(nat[t] for t in _258) != total:
        return False
    honours, jiang, _ = _composition(nat, set_melds)
    return honours or jiang


def _reading(
    nat: list[int], wilds: int, held_laizi: int, melds: Sequence[Meld], how: str,
    after_kong: bool, hard: bool,
) -> Reading | None:
    key = tuple(nat)
    set_melds = [m for m in melds if m.kind in STANDARD_KINDS]
    std_any = _win(key, wilds, RULES_ANY_PAIR)
    std_258 = std_any and _win(key, wilds, RULES_258)
    honours, jiang, suit = _composition(nat, set_melds)
    big: list[str] = []
    if suit in (1, 2) and std_any:
        big.append(QING)
    if honours:
        big.append(FENG)
    if jiang:
        big.append(JIANG)
    if std_any and not any(m.kind == CHOW for m in set_melds) and _win(key, wilds, RULES_PUNGS):
        big.append(PENG)
    if not set_melds and _seven_pairs(nat, wilds):
        big.append(QIDUI)
    if (how == DISCARD_WIN and std_any and len(set_melds) == 4
            and all(m.kind in OPEN_KINDS for m in set_melds)):
        big.append(QUAN)
    shape = std_258 or bool(big)
    if shape and how == SELF_DRAW and after_kong:
        big.append(GANGKAI)
    if shape and how == ROBBED_KONG:
        big.append(QIANGGANG)
    pihu = std_258 and held_laizi <= 1
    if not big and not pihu:
        return None
    return Reading(hard, tuple(big), pihu)


_READINGS: dict[tuple[object, ...], tuple[tuple[Reading, ...], str | None]] = {}
"""readings' recent answers by everything they read (the counts, each meld's kind and
tiles, the laizi, how, after a kong): a posed win is judged for the 屁胡 minimum and
then settled, and the 听牌 hints settle a win on a discard once for each seat that could
discard it, each time with the same readings. Bounded, as the other tables are."""
_READINGS_MAX = 4_096


def readings(
    hand: Sequence[int], melds: Sequence[Meld], laizi: int | None, how: str, after_kong: bool
) -> tuple[list[Reading], str | None]:
    """The valid readings of a complete hand (``hand``: 34-counts of the concealed tiles,
    winning tile included), or a reason the hand is not a win. The 8-point minimum of
    屁胡 is judged by the settlement, not here."""
    key = (bytes(hand), tuple([(str(m.kind), m.tiles) for m in melds]), laizi, how,
           bool(after_kong))
    got = _READINGS.get(key)
    if got is None:
        found, why = _readings(hand, melds, laizi, how, after_kong)
        if len(_READINGS) >= _READINGS_MAX:
            _READINGS.clear()
        got = _READINGS[key] = (tuple(found), why)
    return list(got[0]), got[1]


def _readings(
    hand: Sequence[int], melds: Sequence[Meld], laizi: int | None, how: str, after_kong: bool
) -> tuple[list[Reading], str | None]:
    """:func:`readings`, worked out."""
    if hand[RED]:
        return [], "a 中 is in the hand (play it out as a 红中杠 first)"
    opened = any(m.kind in OPEN_KINDS for m in melds)
    held = hand[laizi] if laizi is not None else 0
    out: list[Reading] = []
    natural = _reading(list(hand), 0, held, melds, how, after_kong, True)
    if natural is not None:
        out.append(natural)
    if held:
        nat = list(hand)
        nat[laizi] = 0  # type: ignore[index]
        wild = _reading(nat, held, held, melds, how, after_kong, False)
        if wild is not None:
            out.append(wild)
    if not out:
        if held > 1:
            nat = list(hand)
            nat[laizi] = 0  # type: ignore[index]
            if _win(tuple(nat), held, RULES_258):
                return [], f"屁胡 allows at most one laizi in the hand ({held} held)"
        return [], "not a winning hand"
    if not opened:
        out = [r for r in out if QIDUI in r.big_hands]
        if not out:
            return [], "the hand has not opened (开口: a chow, pung or 明杠); only 七对 wins closed"
    return out, None


_READY: dict[tuple[bytes, tuple[tuple[str, tuple[int, ...]], ...], int | None], bool] = {}
"""Readiness by hand, melds (kind and tiles: all a reading looks at) and laizi. A
discarder's readiness is part of every discard win's record, and the 听牌 hints pose many
wins on the same discarders' hands in one turn."""


def is_ready(hand: Sequence[int], melds: Sequence[Meld], laizi: int | None) -> bool:
    """听牌: some tile would make the hand a win (开口 required, except for 七对; the
    8-point minimum of 屁胡 aside, since it depends on how the win comes)."""
    if hand[RED]:
        return False
    key = (bytes(hand), tuple((str(m.kind), m.tiles) for m in melds), laizi)
    known = _READY.get(key)
    if known is None:
        known = _ready(hand, melds, laizi)
        if len(_READY) > 100_000:
            _READY.clear()
        _READY[key] = known
    return known


def _ready(hand: Sequence[int], melds: Sequence[Meld], laizi: int | None) -> bool:
    counts = list(hand)
    for t in TILE_KINDS:
        if t == RED or counts[t] >= 4:
            continue
        counts[t] += 1
        found, _ = _readings(counts, melds, laizi, DISCARD_WIN, False)
        counts[t] -= 1
        if found:
            return True
    return False


rebuild_from_fields(Reading)  # copy and pickle, compiled too
