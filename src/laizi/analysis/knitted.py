"""组合龙 (knitted straight + melds + a pair) and 全不靠 in the analysis: the win checks
from the group tables and by a capped search, the shanten of the knitted shapes, and the
cheap necessary conditions that spare most hands the look (see ``docs/analysis.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from laizi.analysis._group import (
    COMBINED,
    FINAL,
    INF,
    MAX_MELDS,
    combined_id,
    compute_cover,
    compute_need,
    final_value,
)
from laizi.analysis._special import HONOUR_MASK, KNITTED, KNITTED_CLASSES, KNITTED_MASKS
from laizi.analysis.compiled_rules import (
    PRESENT,
    SLICES,
    Compiled,
    combine_covers,
    presence_mask,
    split_key,
)

__all__ = [
    "SINGLES_ALLOWED",
    "knitted_shanten",
    "knitted_singles_fit",
    "knitted_straight_overlap",
    "knitted_straight_possible",
    "knitted_straight_win",
    "knitted_straight_win_search",
    "knitted_straight_win_tables",
]

def knitted_singles_fit(b: bytes | bytearray) -> bool:
    """全不靠 / 七星不靠 for a 14-tile hand (wildcards included) holding no tile twice:
    every held tile lies in one knitted straight + the honours (wildcards take the rest;
    they never make a fifth copy of a tile the hand holds once)."""
    k0, k1, k2, k3 = split_key(b)
    pres = presence_mask(k0, k1, k2, k3)
    return any(not pres & ~allowed for allowed in SINGLES_ALLOWED)


SINGLES_ALLOWED: tuple[int, ...] = tuple(km | HONOUR_MASK for km in KNITTED_MASKS)
"""The tiles of each 全不靠 set: one knitted straight and the seven honours."""


def _residue_best(present: bytes) -> int:
    """Most tiles of one suit's 9-tile presence vector inside one of 147 / 258 / 369."""
    return max(present[0] + present[3] + present[6], present[1] + present[4] + present[7],
               present[2] + present[5] + present[8])


_RESIDUE_BEST: dict[bytes, int] = {}

for _m in range(512):
    _pv = bytes((_m >> i) & 1 for i in range(9))
    _RESIDUE_BEST[_pv] = _residue_best(_pv)


del _m, _pv


def knitted_straight_possible(c: Sequence[int], wilds: int) -> bool:
    """A cheap necessary condition of :func:`knitted_straight_win`: some knitted
    straight misses at most ``wilds`` tiles. Each suit contributes at most its best
    residue class (147 / 258 / 369), so their sum bounds the tiles present of any
    knitted straight; ``False`` means no 组合龙 is possible."""
    return wilds >= 9 or _knitted_held_bound(c) + wilds >= 9


@lru_cache(maxsize=65536)
def _need_capped(
    v: tuple[int, ...], chows: bool, pair_ok: tuple[bool, ...], capv: tuple[int, ...]
) -> tuple[int, int]:
    return compute_need(v, chows, pair_ok, capv)


def knitted_straight_win(c: Sequence[int], wilds: int, comp: Compiled) -> bool:
    """组合龙: the nine tiles of a knitted straight + (n - 3) melds + a pair."""
    if len(c) == 34 and sum(c) + wilds <= 14:
        return knitted_straight_win_tables(bytearray(c), wilds, comp)
    return knitted_straight_win_search(c, wilds, comp)


def knitted_straight_win_tables(b: bytes | bytearray, wilds: int, comp: Compiled) -> bool:
    """:func:`knitted_straight_win` from the group tables: per straight, the tiles it
    misses go to wildcards and the rest of each suit is a free group, so the standard
    need formula decides. Exact for at most one meld beside the straight (11 or 14 tiles:
    ``GroupTable.get_knit_cover`` says why the 4-copy rule cannot bind); with more, the
    free need can only be lower than the capped one, so ``False`` is still exact."""
    k0, k1, k2, k3 = split_key(b)
    g0, g1, g2, g3 = comp.groups
    e0 = g0.knit_need.get(k0)
    if e0 is None:
        e0 = g0.get_knit_need(k0)
    e1 = g1.knit_need.get(k1)
    if e1 is None:
        e1 = g1.get_knit_need(k1)
    e2 = g2.knit_need.get(k2)
    if e2 is None:
        e2 = g2.get_knit_need(k2)
    # each suit holds at most its best class of the straight: most hands stop here
    if (max(e0[0][0], e0[1][0], e0[2][0]) + max(e1[0][0], e1[1][0], e1[2][0])
            + max(e2[0][0], e2[1][0], e2[2][0]) + wilds < 9):
        return False
    a3, d3, _o3, _q3, _m3 = g3.get_need(k3)
    for c0, c1, c2 in KNITTED_CLASSES:
        h0, a0, d0, _r0 = e0[c0]
        h1, a1, d1, _r1 = e1[c1]
        h2, a2, d2, _r2 = e2[c2]
        w = wilds - 9 + h0 + h1 + h2
        if w < 0:
            continue
        s = a0 + a1 + a2 + a3 + min(d0, d1, d2, d3)
        if s <= w and (w - s) % 3 == 0:
            return True
    return False


def knitted_straight_win_search(c: Sequence[int], wilds: int, comp: Compiled) -> bool:
    """:func:`knitted_straight_win` by a capped search per straight: any size (the
    4-copy rule can bind from two melds on), and the cross-check of the table path."""
    if not knitted_straight_possible(c, wilds):
        return False
    for ks in KNITTED:
        missing = sum(1 for t in ks if c[t] == 0)
        if missing > wilds:
            continue
        r = list(c)
        capv = list(c)
        for t in ks:
            if r[t]:
                r[t] -= 1
            else:
                capv[t] += 1
        w = wilds - missing
        s0 = 0
        dmin = INF * 4
        for g, (lo, hi) in zip(comp.groups, SLICES, strict=True):
            n0, n1 = _need_capped(tuple(r[lo:hi]), g.chows, g.pair_ok, tuple(capv[lo:hi]))
            s0 += n0
            dmin = min(dmin, n1 - n0)
        s = s0 + dmin
        if s < INF and s <= w and (w - s) % 3 == 0:
            return True
    return False


def knitted_shanten(
    b: bytearray, k0: bytes, k1: bytes, k2: bytes, i3: int, honours: int, n: int, wilds: int,
    result: int, comp: Compiled,
) -> int:
    """``result`` lowered by 全不靠 (14 tiles) and 组合龙, from the group tables.

    A straight's target holds each of its tiles once, so it covers the held tiles of its
    three residue classes plus the best cover of the rest by ``n - 3`` melds and the pair:
    per suit and class, ``GroupTable.get_knit_cover`` has both, and the rest combines
    through the same memoised cover ids as the standard shape. 组合龙's shanten is at
    least ``8 - wilds - held`` (3 tiles a meld + the pair at best), which skips most
    straights without any combination. ``honours``: the honour kinds held.
    """
    g0, g1, g2, _g3 = comp.groups
    e0 = g0.knit_cover.get(k0)
    if e0 is None:
        e0 = g0.get_knit_cover(k0)
    e1 = g1.knit_cover.get(k1)
    if e1 is None:
        e1 = g1.get_knit_cover(k1)
    e2 = g2.knit_cover.get(k2)
    if e2 is None:
        e2 = g2.get_knit_cover(k2)
    if n == 4:
        # 全不靠: the held tiles of one straight and the honours, 14 at most
        held_best = 0
        for c0, c1, c2 in KNITTED_CLASSES:
            held = e0[c0][0] + e1[c1][0] + e2[c2][0]
            if held > held_best:
                held_best = held
        got = honours + held_best
        got = 13 - wilds - (got if got < 14 else 14)
        if got < result:
            result = got
    m = n - 3
    if m > MAX_MELDS:  # over 28 tiles: beyond the cover tables
        return min(result, 3 * n + 1 - wilds - knitted_straight_overlap(b, n, comp))
    # From two melds beside the straight on, the 4-copy caps can bind (a pung and a chow
    # through a tile of the straight would be its fifth copy): the free cover is then an
    # upper bound, and the capped programme runs only for a straight that would win.
    capped = m >= 2
    for i, (c0, c1, c2) in enumerate(KNITTED_CLASSES):
        h0, i0 = e0[c0]
        h1, i1 = e1[c1]
        h2, i2 = e2[c2]
        held = h0 + h1 + h2
        if 8 - wilds - held >= result:
            continue
        iab = COMBINED.get((i0, i1))
        if iab is None:
            iab = combined_id(i0, i1)
        icd = COMBINED.get((i2, i3))
        if icd is None:
            icd = combined_id(i2, i3)
        v = FINAL.get((iab, icd, m))
        if v is None:
            v = final_value(iab, icd, m)
        got = 3 * n + 1 - wilds - held - v
        if got < result and capped:
            got = 3 * n + 1 - wilds - _knitted_overlap_capped(b, KNITTED[i], n, comp)
        if got < result:
            result = got
    return result


def _knitted_held_bound(c: Sequence[int]) -> int:
    """At least the tiles of any knitted straight that ``c`` holds (see
    :func:`knitted_straight_possible`)."""
    pres = bytes(c).translate(PRESENT)
    best = _RESIDUE_BEST
    return best[pres[0:9]] + best[pres[9:18]] + best[pres[18:27]]


@lru_cache(maxsize=65536)
def _cover_capped(
    v: tuple[int, ...], chows: bool, pair_ok: tuple[bool, ...], melds: int, caps: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return compute_cover(v, chows, pair_ok, melds, caps)


def knitted_straight_overlap(c: Sequence[int], n: int, comp: Compiled) -> int:
    """Most real tiles inside a 组合龙 + (n - 3) melds + pair target (the capped
    programme over all six straights: the slow path and the tests' cross-check)."""
    return max(_knitted_overlap_capped(c, ks, n, comp) for ks in KNITTED)


def _knitted_overlap_capped(c: Sequence[int], ks: tuple[int, ...], n: int, comp: Compiled) -> int:
    """Most real tiles inside the straight ``ks`` + (n - 3) melds + pair, the melds'
    copies of each straight tile capped at 3 (the straight holds the fourth)."""
    r = list(c)
    caps = [4] * 34
    held = 0
    for t in ks:
        caps[t] = 3
        if r[t]:
            r[t] -= 1
            held += 1
    covers = [
        _cover_capped(tuple(r[lo:hi]), g.chows, g.pair_ok, n - 3, tuple(caps[lo:hi]))
        for g, (lo, hi) in zip(comp.groups, SLICES, strict=True)
    ]
    return held + combine_covers(covers, n - 3)
