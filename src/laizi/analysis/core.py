"""The public analysis functions: :func:`is_win`, :func:`waits`, :func:`shanten`.

A hand is a 34-count vector of its concealed real tiles plus ``wilds`` wildcards (赖子 /
黄金牌, their own copies removed from the vector) and a :class:`WinRules`. See
``docs/analysis.md`` for the definitions and the conventions (the 4-copy rule, waits on a
tile the hand holds four of, shanten of a hand whose only waits are such tiles).
"""

from __future__ import annotations

import struct
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
from laizi.analysis._special import seven_pairs_win
from laizi.analysis.compiled_rules import (
    COMPILED,
    DEFAULT,
    DEFAULT_HONOURS,
    DEFAULT_RULES,
    DEFAULT_SUIT,
    FAST_WILDS,
    SLICES,
    Compiled,
    check_wilds,
    combine_covers,
    compiled,
    counts_key,
    split_key,
)
from laizi.analysis.knitted import (
    knitted_shanten,
    knitted_singles_fit,
    knitted_straight_win_search,
    knitted_straight_win_tables,
)
from laizi.analysis.types import WinRules

__all__ = ["is_win", "shanten"]

def is_win(counts: Sequence[int], wilds: int = 0, rules: WinRules = DEFAULT_RULES) -> bool:
    """True when the concealed tiles plus ``wilds`` wildcards form a complete hand.

    Complete: ``3n + 2`` tiles making n melds and a pair (``rules.pair_tiles`` /
    ``rules.chow_suits`` respected) or, at 14 tiles, 七对 / 十三幺 / 全不靠 when ``rules``
    allow; 组合龙 (+ melds + a pair) at any ``3n + 2 >= 11``. A wildcard may not make a
    fifth copy of a tile.
    """
    if rules is DEFAULT_RULES:
        comp = DEFAULT
        n0 = n1 = n2 = DEFAULT_SUIT  # the three suits share one table under these rules
        n3 = DEFAULT_HONOURS
    else:
        # compiled(rules) inlined: is_win is the hottest call of the package.
        got = COMPILED.get(id(rules))
        comp = got if got is not None and got.rules is rules else compiled(rules)
        n0, n1, n2, n3 = comp.needs
    try:
        # bytearray() reads a list of ints faster than bytes(); the split yields bytes keys
        b = bytearray(counts)
        k0, k1, k2, k3 = split_key(b)
    except (TypeError, ValueError, struct.error):
        b = bytearray(counts_key(counts))
        k0, k1, k2, k3 = split_key(b)
    try:
        a0, d0, o0, q0, m0 = n0[k0]
        a1, d1, o1, q1, m1 = n1[k1]
        a2, d2, o2, q2, m2 = n2[k2]
        a3, d3, o3, _q3, _m3 = n3[k3]
    except KeyError:
        g0, g1, g2, g3 = comp.groups
        a0, d0, o0, q0, m0 = g0.get_need(k0)
        a1, d1, o1, q1, m1 = g1.get_need(k1)
        a2, d2, o2, q2, m2 = g2.get_need(k2)
        a3, d3, o3, _q3, _m3 = g3.get_need(k3)
    if d1 < d0:
        d0 = d1
    if d3 < d2:
        d2 = d3
    s = a0 + a1 + a2 + a3 + (d0 if d0 < d2 else d2)
    # s >= 0 (each group's need1 is), so a negative wilds never passes the first test
    if s <= wilds <= FAST_WILDS and (wilds - s) % 3 == 0:
        return True
    if wilds < 0:
        check_wilds(wilds)
    odd = o0 + o1 + o2 + o3
    if wilds <= FAST_WILDS:
        if not comp.special:
            return False
        if comp.seven_only:
            # 七对 only: every count even once the wildcards fill the odd ones
            if odd > wilds or sum(b) + wilds != 14:
                return False
            if b.count(0) + b.count(1) + b.count(2) + b.count(3) + b.count(4) == 34:
                return True
        else:
            # each special shape's necessary condition (see _is_win_slow), from the facts
            # the lookups carry: most hands are refused here without another look
            rules = comp.rules
            if not ((rules.seven_pairs and odd <= wilds)
                    or (rules.thirteen_orphans and not (m0 + m1 + m2))
                    or (rules.knitted and (odd + wilds == 14 or q0 + q1 + q2 + wilds >= 9))):
                return False
    return _is_win_slow(b, wilds, comp, odd, q0 + q1 + q2, m0 + m1 + m2)


def _standard_ok(b: bytes | bytearray, wilds: int, comp: Compiled) -> bool:
    s0 = 0
    dmin = INF * 4
    for g, (lo, hi) in zip(comp.groups, SLICES, strict=True):
        n0, n1 = compute_need(tuple(b[lo:hi]), g.chows, g.pair_ok)
        s0 += n0
        dmin = min(dmin, n1 - n0)
    s = s0 + dmin
    return s < INF and s <= wilds and (wilds - s) % 3 == 0


def _is_win_slow(
    b: bytes | bytearray, wilds: int, comp: Compiled, odd: int, knit: int, middle: int
) -> bool:
    """Everything the fast path does not answer: many wildcards and the special shapes.

    ``odd``, ``knit`` and ``middle`` are the sums over the groups of the facts the need
    lookups carry (:meth:`GroupTable.get_need`): ranks held an odd number of times, the
    bound on a knitted straight's held tiles, tiles of ranks 2-8. Each is a necessary
    condition of one shape, so most hands are refused without looking at them again.
    """
    if wilds > FAST_WILDS and _standard_ok(b, wilds, comp):
        return True
    rules = comp.rules
    total = sum(b) + wilds
    if total == 14:
        # 七对: wildcards pair the odd counts (the total fixes the parity of the rest)
        if rules.seven_pairs and odd <= wilds:
            if b.count(0) + b.count(1) + b.count(2) + b.count(3) + b.count(4) == 34:
                return True
            if seven_pairs_win(b, wilds):  # counts above 4: rare
                return True
        # 十三幺: only 幺九 tiles, none three times, at most one pair; at 14
        # tiles that leaves exactly as many wildcards as missing orphans (+ 1 without the
        # pair), so two C-level counts decide
        if (rules.thirteen_orphans and not middle and b.count(2) <= 1
                and b.count(0) + b.count(1) + b.count(2) == 34):
            return True
        # 全不靠 holds no tile twice (so every held tile is an odd count)
        if (rules.knitted and odd + wilds == 14 and b.count(0) + b.count(1) == 34
                and knitted_singles_fit(b)):
            return True
    if rules.knitted and total >= 11 and total % 3 == 2 and knit + wilds >= 9:
        if not knitted_straight_win_tables(b, wilds, comp):
            return False
        return total <= 14 or knitted_straight_win_search(b, wilds, comp)
    return False


def shanten(counts: Sequence[int], wilds: int = 0, rules: WinRules = DEFAULT_RULES) -> int:
    """Tiles still to exchange before the hand is ready (向听数); -1 for a complete hand.

    For ``3n + 1`` and ``3n + 2`` totals. The target hand may hold at most 4 copies of a
    tile, so a hand waiting only on a fifth copy is not ready (shanten 1, not 0).
    """
    comp = DEFAULT if rules is DEFAULT_RULES else compiled(rules)
    try:
        b = bytearray(counts)
        k0, k1, k2, k3 = split_key(b)
    except (TypeError, ValueError, struct.error):
        b = bytearray(counts_key(counts))
        k0, k1, k2, k3 = split_key(b)
    if wilds < 0:
        check_wilds(wilds)
    g0, g1, g2, g3 = comp.groups
    try:
        i0, t0, p0, s0, _v0, q0, r0, x0 = g0.shape[k0]
        i1, t1, p1, s1, _v1, q1, r1, x1 = g1.shape[k1]
        i2, t2, p2, s2, _v2, q2, r2, x2 = g2.shape[k2]
        i3, t3, p3, s3, v3, _q3, r3, x3 = g3.shape[k3]
    except KeyError:
        i0, t0, p0, s0, _v0, q0, r0, x0 = g0.get_shape(k0)
        i1, t1, p1, s1, _v1, q1, r1, x1 = g1.get_shape(k1)
        i2, t2, p2, s2, _v2, q2, r2, x2 = g2.get_shape(k2)
        i3, t3, p3, s3, v3, _q3, r3, x3 = g3.get_shape(k3)
    total = t0 + t1 + t2 + t3 + wilds
    if total % 3 == 0:
        raise ValueError(f"shanten needs a hand of 3n+1 or 3n+2 tiles, got {total}")
    n = (total - 1) // 3
    if n <= MAX_MELDS:
        iab = COMBINED.get((i0, i1))
        if iab is None:
            iab = combined_id(i0, i1)
        icd = COMBINED.get((i2, i3))
        if icd is None:
            icd = combined_id(i2, i3)
        best = FINAL.get((iab, icd, n))
        if best is None:
            best = final_value(iab, icd, n)
    else:
        # more than MAX_MELDS melds: only with more than 21 tiles (wildcards included)
        covers = [
            _cover_n(bytes(b[lo:hi]), g.chows, g.pair_ok, n)
            for g, (lo, hi) in zip(comp.groups, SLICES, strict=True)
        ]
        best = combine_covers(covers, n)
    result = 3 * n + 1 - wilds - best
    if comp.special:
        rules = comp.rules
        if n == 4:
            if rules.seven_pairs:
                pairs = p0 + p1 + p2 + p3
                if pairs > 7:
                    pairs = 7
                singles = s0 + s1 + s2 + s3
                got = 13 - wilds - 2 * pairs - (singles if singles < 7 - pairs else 7 - pairs)
                if got < result:
                    result = got
            if rules.thirteen_orphans:
                # the 幺九 kinds held, + 1 when one of them can be the pair
                got = 12 - wilds - r0 - r1 - r2 - r3 + (0 if x0 or x1 or x2 or x3 else 1)
                if got < result:
                    result = got
        if rules.knitted and n >= 3:
            # 组合龙 covers at most its held tiles (each suit: its best residue class, the
            # bound q) + 3 per other set + the pair, so its shanten is at least
            # 8 - wilds - bound; 全不靠 at least 13 - wilds - (honours + bound). Most
            # hands need no look at the six straights.
            bound = q0 + q1 + q2
            singles_bound = v3 + bound if n == 4 else 0
            if 8 - wilds - bound < result or 13 - wilds - min(singles_bound, 14) < result:
                result = knitted_shanten(b, k0, k1, k2, i3, v3, n, wilds, result, comp)
    return max(result, -1)


@lru_cache(maxsize=65536)
def _cover_n(
    v: bytes, chows: bool, pair_ok: tuple[bool, ...], melds: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return compute_cover(tuple(v), chows, pair_ok, melds)
