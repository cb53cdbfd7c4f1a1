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
_BYTE = tuple(bytes((c,)) for c in range(256))


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
    i0, i1, i2, i3 = shapes[0][0], shapes[1][0], shapes[2][0], shapes[3][0]
    iab = _combined(i0, i1)
    icd = _combined(i2, i3)
    dicts = [g.shape for g in groups]
    special = comp.special
    rules = comp.rules
    seven = n == 4 and rules.seven_pairs
    orphans = n == 4 and rules.thirteen_orphans
    knitted = rules.knitted and n >= 3
    pairs_all = sum(sh[2] for sh in shapes)
    singles_all = sum(sh[3] for sh in shapes)
    orphans_all = sum(sh[6] for sh in shapes)
    orphan_pairs = sum(sh[7] for sh in shapes)
    base = 3 * n + 1 - wilds
    combined, final = COMBINED, FINAL
    out = []
    for t in tiles:
        gi = _GROUP[t]
        r = _RANK[t]
        k = keys[gi]
        nk = k[:r] + _BYTE[k[r] + 1] + k[r + 1:]
        new = dicts[gi].get(nk)
        if new is None:
            new = groups[gi].get_shape(nk)
        # the shape ids of the pair of groups the tile changes, then their combination
        if gi < 2:
            pair = (new[0], i1) if gi == 0 else (i0, new[0])
            jab = combined.get(pair)
            if jab is None:
                jab = combined_id(*pair)
            fkey = (jab, icd, n)
        else:
            pair = (new[0], i3) if gi == 2 else (i2, new[0])
            jcd = combined.get(pair)
            if jcd is None:
                jcd = combined_id(*pair)
            fkey = (iab, jcd, n)
        best = final.get(fkey)
        if best is None:
            best = final_value(*fkey)
        result = base - best
        if special:
            old = shapes[gi]
            if seven:
                # 七对: the pairs and odd counts summed over the groups, one group changed
                pairs = pairs_all - old[2] + new[2]
                if pairs > 7:
                    pairs = 7
                singles = singles_all - old[3] + new[3]
                got = 13 - wilds - 2 * pairs - (singles if singles < 7 - pairs else 7 - pairs)
                if got < result:
                    result = got
            if orphans:
                # 十三幺: the 幺九 kinds held, + 1 when none of them can be the pair
                got = (12 - wilds - (orphans_all - old[6] + new[6])
                       + (0 if orphan_pairs - old[7] + new[7] else 1))
                if got < result:
                    result = got
            if knitted:
                four = list(shapes)
                four[gi] = new
                result = _knitted(comp, four, result, n, wilds, b, keys, t, nk)
        out.append(result if result > -1 else -1)
    return out


def _combined(ia: int, ib: int) -> int:
    got = COMBINED.get((ia, ib))
    return got if got is not None else combined_id(ia, ib)


def _knitted(comp: Compiled, four: list[Shape], result: int, n: int, wilds: int,
             b: bytearray, keys: list[bytes], t: int, nk: bytes) -> int:
    """``result`` lowered by 全不靠 and 组合龙 as :func:`~laizi.analysis.core.shanten`
    lowers it, for the hand with ``t`` added (its group's new key ``nk``)."""
    bound = four[0][5] + four[1][5] + four[2][5]
    honours = four[3][4]
    singles_bound = honours + bound if n == 4 else 0
    if 8 - wilds - bound < result or 13 - wilds - min(singles_bound, 14) < result:
        k = list(keys)
        k[_GROUP[t]] = nk
        bt = bytearray(b)
        bt[t] += 1
        result = knitted_shanten(bt, k[0], k[1], k[2], four[3][0], honours, n, wilds, result,
                                 comp)
    return result
