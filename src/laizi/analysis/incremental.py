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

__all__ = ["shanten_minus", "shanten_plus"]

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
    return _shanten_step(counts, wilds, rules, tiles, 1)


def shanten_minus(counts: Sequence[int], wilds: int, rules: WinRules,
                  tiles: Sequence[int]) -> list[int]:
    """``[shanten(counts - t, wilds, rules) for t in tiles]``: each tile (held in
    ``counts``) taken out on its own — the hand left by each discard."""
    for t in tiles:
        if not counts[t]:
            raise ValueError(f"tile {t} is not in the hand: nothing to take out")
    return _shanten_step(counts, wilds, rules, tiles, -1)


def _hand(counts: Sequence[int], wilds: int, rules: WinRules, step: int
          ) -> tuple[Compiled, bytearray, list[bytes], list[Shape], int]:
    """The hand cut into its compiled rules, bytes, group keys and shapes, and ``n`` (the
    melds of the hand once a tile is added or taken out), checked as
    :func:`~laizi.analysis.core.shanten` checks it."""
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
    total = shapes[0][1] + shapes[1][1] + shapes[2][1] + shapes[3][1] + wilds + step
    if total % 3 == 0:
        raise ValueError(f"shanten needs a hand of 3n+1 or 3n+2 tiles, got {total}")
    return comp, b, keys, shapes, (total - 1) // 3


def _shanten_step(counts: Sequence[int], wilds: int, rules: WinRules,
                  tiles: Sequence[int], step: int) -> list[int]:
    comp, b, keys, shapes, n = _hand(counts, wilds, rules, step)
    groups = comp.groups
    if n > MAX_MELDS:  # more than 21 tiles: the reference's own search
        out = []
        for t in tiles:
            b[t] += step
            out.append(shanten(b, wilds, rules))
            b[t] -= step
        return out
    # Each half (万+筒, 条+honours) with one tile added: its combined cover id and the
    # changed group's new shape, remembered by the half's two keys (a row per half).
    row0 = _half_row(groups[0], groups[1], keys[0], keys[1], step)
    row1 = _half_row(groups[2], groups[3], keys[2], keys[3], step)
    i0, i1, i2, i3 = shapes[0][0], shapes[1][0], shapes[2][0], shapes[3][0]
    iab = _combined(i0, i1)
    icd = _combined(i2, i3)
    special = comp.special
    rules = comp.rules
    seven = n == 4 and rules.seven_pairs
    orphans = n == 4 and rules.thirteen_orphans
    knitted = rules.knitted and n >= 3
    s0, s1, s2, s3 = shapes
    pairs_all = s0[2] + s1[2] + s2[2] + s3[2]
    singles_all = s0[3] + s1[3] + s2[3] + s3[3]
    orphans_all = s0[6] + s1[6] + s2[6] + s3[6]
    orphan_pairs = s0[7] + s1[7] + s2[7] + s3[7]
    base = 3 * n + 1 - wilds
    final = FINAL
    out = []
    for t in tiles:
        if t < 18:
            got = row0.get(t)
            if got is None:
                got = row0[t] = _half_step(groups[0], groups[1], keys[0], keys[1], t,
                                           step, i0, i1)
            fkey = (got[0], icd, n)
        else:
            got = row1.get(t - 18)
            if got is None:
                got = row1[t - 18] = _half_step(groups[2], groups[3], keys[2], keys[3],
                                                t - 18, step, i2, i3)
            fkey = (iab, got[0], n)
        best = final.get(fkey)
        if best is None:
            best = final_value(*fkey)
        result = base - best
        if special:
            new = got[1]
            gi = _GROUP[t]
            old = shapes[gi]
            if seven:
                # 七对: the pairs and odd counts summed over the groups, one group changed
                pairs = pairs_all - old[2] + new[2]
                if pairs > 7:
                    pairs = 7
                singles = singles_all - old[3] + new[3]
                got7 = 13 - wilds - 2 * pairs - (singles if singles < 7 - pairs else 7 - pairs)
                if got7 < result:
                    result = got7
            if orphans:
                # 十三幺: the 幺九 kinds held, + 1 when none of them can be the pair
                got13 = (12 - wilds - (orphans_all - old[6] + new[6])
                         + (0 if orphan_pairs - old[7] + new[7] else 1))
                if got13 < result:
                    result = got13
            if knitted:
                four = list(shapes)
                four[gi] = new
                k = keys[gi]
                r = _RANK[t]
                nk = k[:r] + _BYTE[k[r] + step] + k[r + 1:]
                result = _knitted(comp, four, result, n, wilds, b, keys, t, nk, step)
        out.append(result if result > -1 else -1)
    return out


_Row = dict[int, tuple[int, Shape]]
_HALVES: dict[tuple[int, int, int], dict[tuple[bytes, bytes], _Row]] = {}
"""Per pair of group tables (万+筒 or 条+honours of one rule set; the tables live as
long as the process) and step (+1, -1), per pair of keys: for each tile of the half added
(taken out), the combined cover id of the half and the new shape of the changed group,
filled when first asked. A row is a dict of tuples of ints, which the garbage collector
stops tracking once it has seen them (a list row stays tracked: rows by the ten thousand
made every collection of the process dearer, random-bot hands played after greedy ones
5% slower)."""
_HALF_ROWS_MAX = 200_000


def _half_row(ga: GroupTable, gb: GroupTable, ka: bytes, kb: bytes, step: int) -> _Row:
    memo = _HALVES.get((id(ga), id(gb), step))
    if memo is None:
        memo = _HALVES[(id(ga), id(gb), step)] = {}
    row = memo.get((ka, kb))
    if row is None:
        if len(memo) > _HALF_ROWS_MAX:
            memo.clear()
        row = memo[(ka, kb)] = {}
    return row


def _half_step(ga: GroupTable, gb: GroupTable, ka: bytes, kb: bytes, pos: int, step: int,
               ia: int, ib: int) -> tuple[int, Shape]:
    """The half's combined cover id and the changed group's new shape, with the tile at
    ``pos`` (0-8 in ``ka``, then ``kb``) added (``step`` 1) or taken out (-1); ``ia`` and
    ``ib`` are the groups' cover ids as they are."""
    if pos < len(ka):
        nk = ka[:pos] + _BYTE[ka[pos] + step] + ka[pos + 1:]
        new = _shape(ga, nk)
        return _combined(new[0], ib), new
    pos -= len(ka)
    nk = kb[:pos] + _BYTE[kb[pos] + step] + kb[pos + 1:]
    new = _shape(gb, nk)
    return _combined(ia, new[0]), new


def _combined(ia: int, ib: int) -> int:
    got = COMBINED.get((ia, ib))
    return got if got is not None else combined_id(ia, ib)


def _knitted(comp: Compiled, four: list[Shape], result: int, n: int, wilds: int,
             b: bytearray, keys: list[bytes], t: int, nk: bytes, step: int) -> int:
    """``result`` lowered by 全不靠 and 组合龙 as :func:`~laizi.analysis.core.shanten`
    lowers it, for the hand with ``t`` added or taken out (``step``; its group's new key
    ``nk``)."""
    bound = four[0][5] + four[1][5] + four[2][5]
    honours = four[3][4]
    singles_bound = honours + bound if n == 4 else 0
    if 8 - wilds - bound < result or 13 - wilds - min(singles_bound, 14) < result:
        k = list(keys)
        k[_GROUP[t]] = nk
        bt = bytearray(b)
        bt[t] += step
        result = knitted_shanten(bt, k[0], k[1], k[2], four[3][0], honours, n, wilds, result,
                                 comp)
    return result
