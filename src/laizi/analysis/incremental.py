"""Shanten of one hand with each of several tiles added: :func:`shanten_plus`.

A bot measuring a hand's 有效牌 asks :func:`~laizi.analysis.core.shanten` of the hand
plus each candidate tile in turn, twenty or thirty questions that differ in one tile.
Adding a tile changes one group's key (万, 筒, 条 or honours) and leaves the other three
groups' shapes as they were, so the hand is cut into its group keys and shapes once and
each candidate looks up one new group shape. :func:`shanten` stays the reference: every
answer here is the number it gives for ``counts`` with the tile added
(``tests/test_analysis_incremental.py`` holds them equal).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

from laizi.analysis._group import COMBINED, FINAL, MAX_MELDS, combined_id, final_value
from laizi.analysis._tables import GroupTable, Shape
from laizi.analysis.compiled_rules import (
    DEFAULT,
    DEFAULT_RULES,
    Compiled,
    check_wilds,
    compiled,
    counts_key,
    split_key,
)
from laizi.analysis.core import shanten
from laizi.analysis.knitted import knitted_shanten
from laizi.analysis.types import WinRules

__all__ = ["shanten_plus"]

_GROUP = tuple(t // 9 if t < 27 else 3 for t in range(34))
_RANK = tuple(t % 9 if t < 27 else t - 27 for t in range(34))


def _shape(g: GroupTable, key: bytes) -> Shape:
    got = g.shape.get(key)
    return got if got is not None else g.get_shape(key)


def shanten_plus(counts: Sequence[int], wilds: int, rules: WinRules,
                 tiles: Sequence[int]) -> list[int]:
    """``[shanten(counts + t, wilds, rules) for t in tiles]``: each tile (a tile kind
    0-33) added to ``counts`` on its own. ``counts`` plus one tile and ``wilds`` must be a
    3n+1 or 3n+2 hand, as for :func:`~laizi.analysis.core.shanten`."""
    comp = DEFAULT if rules is DEFAULT_RULES else compiled(rules)
    try:
        b = bytearray(counts)
        keys = list(split_key(b))
    except (TypeError, ValueError, struct.error):
        b = bytearray(counts_key(counts))
        keys = list(split_key(b))
    if wilds < 0:
        check_wilds(wilds)
    groups = comp.groups
    shapes = [_shape(groups[i], keys[i]) for i in range(4)]
    total = shapes[0][1] + shapes[1][1] + shapes[2][1] + shapes[3][1] + wilds + 1
    if total % 3 == 0:
        raise ValueError(f"shanten needs a hand of 3n+1 or 3n+2 tiles, got {total}")
    n = (total - 1) // 3
    if n > MAX_MELDS:  # more than 21 tiles: the reference's own search
        out = []
        for t in tiles:
            b[t] += 1
            out.append(shanten(b, wilds, rules))
            b[t] -= 1
        return out
    # The combined cover of the two pairs of groups a tile leaves alone.
    iab = _combined(shapes[0][0], shapes[1][0])
    icd = _combined(shapes[2][0], shapes[3][0])
    out = []
    for t in tiles:
        gi = _GROUP[t]
        r = _RANK[t]
        k = keys[gi]
        nk = k[:r] + bytes((k[r] + 1,)) + k[r + 1:]
        new = _shape(groups[gi], nk)
        if gi < 2:
            jab = _combined(new[0], shapes[1][0]) if gi == 0 else _combined(shapes[0][0], new[0])
            jcd = icd
        else:
            jab = iab
            jcd = _combined(new[0], shapes[3][0]) if gi == 2 else _combined(shapes[2][0], new[0])
        best = FINAL.get((jab, jcd, n))
        if best is None:
            best = final_value(jab, jcd, n)
        result = 3 * n + 1 - wilds - best
        if comp.special:
            four = list(shapes)
            four[gi] = new
            result = _special(comp, four, result, n, wilds, b, keys, t, nk)
        out.append(result if result > -1 else -1)
    return out


def _combined(ia: int, ib: int) -> int:
    got = COMBINED.get((ia, ib))
    return got if got is not None else combined_id(ia, ib)


def _special(comp: Compiled, four: list[Shape], result: int, n: int, wilds: int,
             b: bytearray, keys: list[bytes], t: int, nk: bytes) -> int:
    """``result`` lowered by the special shapes the rules allow (七对, 十三幺, 全不靠 and
    组合龙), as :func:`~laizi.analysis.core.shanten` lowers it, for the hand with ``t``
    added (its group's new key ``nk``)."""
    (_i0, _t0, p0, s0, _v0, q0, r0, x0), (_i1, _t1, p1, s1, _v1, q1, r1, x1) = four[0], four[1]
    (_i2, _t2, p2, s2, _v2, q2, r2, x2), (i3, _t3, p3, s3, v3, _q3, r3, x3) = four[2], four[3]
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
            got = 12 - wilds - r0 - r1 - r2 - r3 + (0 if x0 or x1 or x2 or x3 else 1)
            if got < result:
                result = got
    if rules.knitted and n >= 3:
        bound = q0 + q1 + q2
        singles_bound = v3 + bound if n == 4 else 0
        if 8 - wilds - bound < result or 13 - wilds - min(singles_bound, 14) < result:
            k = list(keys)
            k[_GROUP[t]] = nk
            bt = bytearray(b)
            bt[t] += 1
            result = knitted_shanten(bt, k[0], k[1], k[2], i3, v3, n, wilds, result, comp)
    return result
