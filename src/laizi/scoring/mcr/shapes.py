"""Hand shapes for MCR scoring: sets (packs), readings of the concealed tiles and waits.

A *pack* is ``(kind, tile, claimed)``: ``kind`` one of :data:`CHOW` :data:`PUNG`
:data:`KONG` :data:`PAIR`; ``tile`` the middle tile of a chow, else the tile; ``claimed``
whether it was claimed from another player (明). Readings are listed in a fixed order
(:func:`readings`) so that, between readings of equal value, the same one is chosen every
time: the order of the standard calculator's search (suits 万 条 筒, then 东南西北中发白).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from itertools import combinations_with_replacement, product
from typing import Final

__all__ = [
    "ALL_PACKS",
    "CHOW",
    "KONG",
    "ORDER",
    "PACK_TILES",
    "PAIR",
    "PUNG",
    "Pack",
    "basic_waits",
    "group_readings",
    "has_other_wait",
    "pack_tiles",
    "readings",
    "search_key",
    "seven_pairs_waits",
]

CHOW, PUNG, KONG, PAIR = 1, 2, 3, 4
Pack = tuple[int, int, bool]

# Search order of tiles: 万, 条, 筒, winds, 中 发 白 (the reference calculator's tile codes).
ORDER: Final[tuple[int, ...]] = tuple(
    t if t < 9 else t + 9 if t < 18 else t - 9 if t < 27 else t if t < 31 else 64 - t
    for t in range(34)
)
BY_ORDER: Final[tuple[int, ...]] = tuple(sorted(range(34), key=ORDER.__getitem__))


def _tiles_of(kind: int, t: int) -> tuple[int, ...]:
    if kind == CHOW:
        return (t - 1, t, t + 1)
    return (t,) * (3 if kind == PUNG else 4 if kind == KONG else 2)


PACK_TILES: Final[dict[Pack, tuple[int, ...]]] = {
    (kind, t, claimed): _tiles_of(kind, t)
    for kind in (CHOW, PUNG, KONG, PAIR) for t in range(34) for claimed in (False, True)
}

ALL_PACKS: Final[tuple[Pack, ...]] = tuple(PACK_TILES)
pack_tiles = PACK_TILES.__getitem__
"""The tiles of a pack (a dict lookup: packs are few and this is called for every set)."""


def _melds(c: list[int], need: int, acc: list[Pack], out: list[tuple[Pack, ...]],
           i: int = 0) -> None:
    if need == 0:
        out.append(tuple(acc))
        return
    while c[i] == 0:  # tiles below i are all used up in this branch
        i += 1
    if c[i] >= 3:
        c[i] -= 3
        acc.append((PUNG, i, False))
        _melds(c, need - 1, acc, out, i)
        acc.pop()
        c[i] += 3
    if i < 27 and i % 9 < 7 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        acc.append((CHOW, i + 1, False))
        _melds(c, need - 1, acc, out, i)
        acc.pop()
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1


def _search_key(p: Pack) -> tuple[int, int]:
    kind, t, _ = p
    return (ORDER[t - 1], 1) if kind == CHOW else (ORDER[t], 0)


_SEARCH_KEY: Final = {p: _search_key(p) for p in ALL_PACKS}
search_key = _SEARCH_KEY.__getitem__
"""The search-order key of a pack (readings list their sets sorted by it)."""


GroupReadings = tuple[tuple[tuple[Pack, ...], int], ...]

GROUP_READINGS: Final[dict[tuple[int, int], GroupReadings]] = {}
"""Readings of one group (万 筒 条 or honours) by (group, :func:`suit_key`): each is its
sets and its pair tile (-1 for none). Sets never span groups, so a hand's readings are
the products of its groups' readings. Filled on first use; the domain is bounded."""


_GROUP_READINGS_MAX: Final = 1 << 16


def _group_readings(k: int, key: int) -> GroupReadings:
    lo, hi = _GROUPS[k]
    counts = key.to_bytes(hi - lo, "little")
    c = [0] * 36
    c[lo:hi] = counts
    total = sum(counts)
    out: list[tuple[tuple[Pack, ...], int]] = []
    sets: list[tuple[Pack, ...]] = []
    if total % 3 == 0:
        if total:
            _melds(c, total // 3, [], sets, lo)
        else:
            sets.append(())
        out.extend((s, -1) for s in sets)
    elif total % 3 == 2:
        for p in range(lo, hi):
            if c[p] < 2:
                continue
            c[p] -= 2
            sets.clear()
            if total == 2:
                sets.append(())
            else:
                _melds(c, (total - 2) // 3, [], sets, lo)
            c[p] += 2
            out.extend((s, p) for s in sets)
    return tuple(out)


group_readings = _group_readings
"""Readings of one group, by (group index, little-endian counts): see GROUP_READINGS."""


@lru_cache(maxsize=1 << 12)
def readings(counts: tuple[int, ...]) -> tuple[tuple[Pack, ...], ...]:
    """Every reading of ``counts`` (34 counts, 3n + 2 tiles) as n sets + a pair.

    Each reading is its sets (in search order) followed by the pair. Readings are
    distinct and listed in search order (see the module docstring).
    """
    if max(counts) > 255 or sum(counts) % 3 != 2:
        return ()
    whole = int.from_bytes(bytes(counts), "little")
    parts: list[GroupReadings] = []
    for k, key in enumerate((whole & _LOW72, whole >> 72 & _LOW72, whole >> 144 & _LOW72,
                             whole >> 216)):
        if not key:
            continue
        got = GROUP_READINGS.get((k, key))
        if got is None:
            if len(GROUP_READINGS) >= _GROUP_READINGS_MAX:
                GROUP_READINGS.clear()  # bounded memory in long sessions
            got = GROUP_READINGS[k, key] = _group_readings(k, key)
        if not got:
            return ()
        parts.append(got)
    sort_key = _SEARCH_KEY.__getitem__
    found: dict[tuple[Pack, ...], tuple[tuple[int, int], ...]] = {}
    for combo in product(*parts):
        pair = -1
        sets: list[Pack] = []
        for group_sets, group_pair in combo:
            sets.extend(group_sets)
            if group_pair >= 0:
                if pair >= 0:
                    break
                pair = group_pair
        else:
            if pair >= 0:
                ordered = tuple(sorted(sets, key=sort_key))
                found[(*ordered, (PAIR, pair, False))] = tuple(map(sort_key, ordered))
    if len(found) <= 1:
        return tuple(found)
    return tuple(sorted(found, key=found.__getitem__))


def suit_key(counts: Sequence[int]) -> int:
    """The :func:`suit_table` key of a group's counts (little-endian, one byte each)."""
    return int.from_bytes(bytes(counts), "little")


@cache
def suit_table(size: int) -> dict[int, int]:
    """Every count vector of one suit (``size`` 9; 7 for the honours, which form no
    chows), each count at most 5, that splits into sets (value 0) or into sets and one
    pair (value 1); built once, on first use (~30k entries for a suit).

    Counts up to 5 cover a standing hand holding four copies plus the tile tried as a wait.
    Keys are :func:`suit_key`: one byte per count, so adding a tile of rank index ``i``
    adds ``1 << 8 * i``.
    """
    sets = [(i, i, i) for i in range(size)]
    if size == 9:
        sets += [(i, i + 1, i + 2) for i in range(7)]
    table: dict[int, int] = {}
    for n in range(5):
        for combo in combinations_with_replacement(sets, n):
            base = [0] * size
            for s in combo:
                for t in s:
                    base[t] += 1
            if max(base) > 5:
                continue
            table[suit_key(base)] = 0
            for p in range(size):
                if base[p] <= 3:
                    base[p] += 2
                    table[suit_key(base)] = 1
                    base[p] -= 2
    return table


_GROUPS: Final = ((0, 9), (9, 18), (18, 27), (27, 34))
_ADD: Final = tuple(1 << 8 * i for i in range(9))
_LOW72: Final = (1 << 72) - 1  # one suit's 9 bytes of a whole hand's key


@lru_cache(maxsize=1 << 12)
def basic_waits(standing: tuple[int, ...]) -> frozenset[int]:
    """Tiles completing ``standing`` (3n + 1 tiles) as sets and a pair, copies unlimited.

    Each group (万 筒 条 honours) must end as sets (status 0) or sets and the pair (1);
    the tile added can mend at most one group, so the others must already be whole."""
    tables = (suit_table(9), suit_table(9), suit_table(9), suit_table(7))
    whole = int.from_bytes(bytes(standing), "little")
    keys = [whole & _LOW72, whole >> 72 & _LOW72, whole >> 144 & _LOW72, whole >> 216]
    status = [tables[k].get(keys[k], -1) for k in range(4)]
    bad = status.count(-1)
    if bad > 1:
        return frozenset()
    pairs = status.count(1)
    out = []
    for k in range(4):
        st = status[k]
        if bad and st >= 0:
            continue  # another group is broken and one tile cannot mend two groups
        need = 1 - pairs + (st == 1)
        if need < 0:
            continue
        get = tables[k].get
        key = keys[k]
        a = _GROUPS[k][0]
        for i in range(9 if k < 3 else 7):
            if get(key + _ADD[i], -1) == need:
                out.append(a + i)
    return frozenset(out)


def has_other_wait(standing: tuple[int, ...], win: int) -> bool:
    """Whether a tile other than ``win`` completes ``standing`` as sets and a pair:
    :func:`basic_waits` ``- {win}`` is non-empty, stopping at the first such tile."""
    tables = (suit_table(9), suit_table(9), suit_table(9), suit_table(7))
    whole = int.from_bytes(bytes(standing), "little")
    keys = [whole & _LOW72, whole >> 72 & _LOW72, whole >> 144 & _LOW72, whole >> 216]
    status = [tables[k].get(keys[k], -1) for k in range(4)]
    bad = status.count(-1)
    if bad > 1:
        return False
    pairs = status.count(1)
    for k in range(4):
        st = status[k]
        if bad and st >= 0:
            continue
        need = 1 - pairs + (st == 1)
        if need < 0:
            continue
        get = tables[k].get
        key = keys[k]
        a = _GROUPS[k][0]
        for i in range(9 if k < 3 else 7):
            if a + i != win and get(key + _ADD[i], -1) == need:
                return True
    return False


def seven_pairs_waits(standing: tuple[int, ...]) -> frozenset[int]:
    """The tile completing seven pairs (a four counts as two pairs), if 13 tiles wait."""
    pairs = sum(n // 2 for n in standing)
    if sum(standing) != 13 or pairs != 6:
        return frozenset()
    return frozenset(t for t, n in enumerate(standing) if n % 2)
