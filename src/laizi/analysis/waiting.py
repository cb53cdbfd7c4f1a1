"""The waits of a hand (听牌): :func:`waits`, from the group tables' wait masks, with the
special shapes' waits (七对, 十三幺, 全不靠, 组合龙) added where the rules allow them.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

from laizi.analysis._group import BUDGETS
from laizi.analysis._special import KNITTED_CLASSES, KNITTED_MASKS, orphans_waits, seven_pairs_win
from laizi.analysis._tables import GroupTable
from laizi.analysis.compiled_rules import (
    DEFAULT,
    DEFAULT_RULES,
    SLICES,
    Compiled,
    check_wilds,
    compiled,
    counts_key,
    plus,
    presence_mask,
    split_key,
)
from laizi.analysis.core import is_win
from laizi.analysis.knitted import SINGLES_ALLOWED, knitted_straight_win_search
from laizi.analysis.types import WinRules

__all__ = ["waits"]

def waits(
    counts: Sequence[int],
    wilds: int = 0,
    rules: WinRules = DEFAULT_RULES,
    wild_tile: int | None = None,
) -> list[int]:
    """Tile ids (0-33, ascending) whose addition makes a ``3n + 1`` hand complete.

    A tile the hand already holds four of is still listed when a fifth copy would complete
    the shape (空听); callers count the copies actually left.

    ``wild_tile``: the face of the wildcards in play, when there is one. Drawing it adds a
    wildcard, not a real copy, so it is listed when ``wilds + 1`` wildcards complete the
    hand (a ready hand almost always: the new wildcard stands for any of its waits).
    """
    comp = DEFAULT if rules is DEFAULT_RULES else compiled(rules)
    try:
        b = bytearray(counts)
        keys = split_key(b)
    except (TypeError, ValueError, struct.error):
        b = bytearray(counts_key(counts))
        keys = split_key(b)
    if wilds < 0:
        check_wilds(wilds)
    total = sum(b) + wilds
    if total % 3 != 1:
        raise ValueError(f"waits needs a hand of 3n+1 tiles, got {total}")
    if wild_tile is not None and not 0 <= wild_tile < 34:
        raise ValueError(f"wild_tile must be a tile id 0-33, got {wild_tile}")
    if wilds >= BUDGETS:
        mask = 0
        for t in range(34):
            if is_win(plus(b, t), wilds, rules):
                mask |= 1 << t
    else:
        mask = _waits_mask(b, keys, wilds, total, comp)
    if wild_tile is not None:
        bit = 1 << wild_tile
        if is_win(b, wilds + 1, rules):
            mask |= bit
        elif mask & bit:
            mask ^= bit
    return _mask_tiles(mask)


def _waits_mask(
    b: bytearray, keys: tuple[bytes, ...], wilds: int, total: int, comp: Compiled
) -> int:
    """:func:`waits` as a 34-bit mask, for fewer than :data:`BUDGETS` wildcards."""
    groups = comp.groups
    k0, k1, k2, k3 = keys
    n0, n1, n2, n3 = comp.needs
    try:
        a0, d0, o0, q0, m0 = n0[k0]
        a1, d1, o1, q1, m1 = n1[k1]
        a2, d2, o2, q2, m2 = n2[k2]
        a3, d3, o3, _q3, _m3 = n3[k3]
    except KeyError:
        g0, g1, g2, g3 = groups
        a0, d0, o0, q0, m0 = g0.get_need(k0)
        a1, d1, o1, q1, m1 = g1.get_need(k1)
        a2, d2, o2, q2, m2 = g2.get_need(k2)
        a3, d3, o3, _q3, _m3 = g3.get_need(k3)
    mask = standard_mask(groups, k0, k1, k2, k3, a0, d0, a1, d1, a2, d2, a3, d3, wilds)
    rules = comp.rules
    # 七对: adding t flips its parity; wildcards fill the odd ones (odd - 1 of them at best)
    if total == 13 and rules.seven_pairs and o0 + o1 + o2 + o3 - 1 <= wilds:
        mask |= _seven_pairs_waits(b, keys, wilds, comp)
    # Cheap necessary conditions from the lookups: 十三幺 holds no tile of ranks 2-8;
    # 组合龙 at least 8 - wilds tiles of one straight (each suit holds at most its best
    # residue class q of it); 全不靠 13 - wilds singles (odd counts), each suit's inside
    # one residue class.
    if total == 13 and rules.thirteen_orphans and not (m0 + m1 + m2):
        mask |= orphans_waits(b, wilds)
    if rules.knitted and total >= 10:
        straight = q0 + q1 + q2 + wilds >= 8
        singles = (total == 13 and o0 + o1 + o2 + o3 + wilds == 13
                   and q0 == 9 - k0.count(0) and q1 == 9 - k1.count(0)
                   and q2 == 9 - k2.count(0) and b.count(0) + b.count(1) == 34)
        if straight or singles:
            mask |= _knitted_waits(b, keys, wilds, total, comp, singles, straight)
    return mask


def standard_mask(
    groups: tuple[GroupTable, GroupTable, GroupTable, GroupTable],
    k0: bytes, k1: bytes, k2: bytes, k3: bytes,
    a0: int, d0: int, a1: int, d1: int, a2: int, d2: int, a3: int, d3: int,
    wilds: int,
) -> int:
    """Tiles completing the standard shape (34-bit mask) of a ``3n + 1`` hand given as the
    four group keys and their ``(need0, need1 - need0)``, for ``wilds < BUDGETS``."""
    # The new tile goes to group gi, which then needs (with the pair, or the pair in
    # another group) at most the wildcards the other groups leave.
    spare = wilds - (a0 + a1 + a2 + a3)
    m01 = d0 if d0 < d1 else d1
    m23 = d2 if d2 < d3 else d3
    mask = 0
    for gi, key, budget, others in (
        (0, k0, spare + a0, d1 if d1 < m23 else m23),
        (1, k1, spare + a1, d0 if d0 < m23 else m23),
        (2, k2, spare + a2, d3 if d3 < m01 else m01),
        (3, k3, spare + a3, d2 if d2 < m01 else m01),
    ):
        b2 = budget - others  # the pair in another group (need1 - need0 may be < 0)
        if budget < 0 and b2 < 0:
            continue
        g = groups[gi]
        got = g.wait.get(key)
        if got is None:
            got = g.get_wait(key)
        mask0, mask1 = got
        m = mask1[budget if budget < BUDGETS else BUDGETS - 1] if budget >= 0 else 0
        if b2 >= 0:
            m |= mask0[b2 if b2 < BUDGETS else BUDGETS - 1]
        if m:
            mask |= m << 9 * gi
    return mask


def _knitted_waits(
    b: bytearray, keys: tuple[bytes, ...], wilds: int, total: int, comp: Compiled,
    singles: bool, straight: bool,
) -> int:
    """Tiles completing 全不靠 / 七星不靠 or 组合龙 (34-bit mask), for ``wilds < BUDGETS``.

    全不靠: a 13-tile hand of singles inside one straight + the honours waits on the rest
    of that set. 组合龙 with at most one meld (10 or 13 tiles), per straight missing at most
    ``wilds + 1`` tiles: the drawn tile either fills a missing tile of the straight (then
    the rest must be complete with the wildcards left, one more than before) or joins the
    rest (the standard waits of the rest with the wildcards left). In larger hands (two or
    more melds, where the 4-copy rule can bind) that is a superset, each tile of it checked
    by the capped search.
    """
    mask = 0
    k0, k1, k2, k3 = keys
    if singles:  # a 13-tile hand of singles (checked by the caller)
        pres = presence_mask(k0, k1, k2, k3)
        for allowed in SINGLES_ALLOWED:
            if not pres & ~allowed:
                mask |= allowed & ~pres
    if not straight:
        return mask
    groups = comp.groups
    g0, g1, g2, g3 = groups
    e0 = g0.knit_need.get(k0)
    if e0 is None:
        e0 = g0.get_knit_need(k0)
    e1 = g1.knit_need.get(k1)
    if e1 is None:
        e1 = g1.get_knit_need(k1)
    e2 = g2.knit_need.get(k2)
    if e2 is None:
        e2 = g2.get_knit_need(k2)
    a3, d3, _o3, _q3, _m3 = g3.get_need(k3)
    found = 0  # 组合龙 waits
    for i, (c0, c1, c2) in enumerate(KNITTED_CLASSES):
        h0, a0, d0, r0 = e0[c0]
        h1, a1, d1, r1 = e1[c1]
        h2, a2, d2, r2 = e2[c2]
        held = h0 + h1 + h2
        w = wilds - 9 + held
        if w < -1:
            continue
        if held < 9:
            s = a0 + a1 + a2 + a3 + min(d0, d1, d2, d3)
            if s <= w + 1 and (w + 1 - s) % 3 == 0:
                found |= KNITTED_MASKS[i] & ~presence_mask(k0, k1, k2, k3)
        if w >= 0:
            found |= standard_mask(groups, r0, r1, r2, k3, a0, d0, a1, d1, a2, d2, a3, d3, w)
    if total > 13:
        # two or more melds beside the straight: the free need can be below the capped
        # one (see knitted_shanten), so the tables give a superset; check each tile
        for t in range(34):
            if found >> t & 1 and not knitted_straight_win_search(plus(b, t), wilds, comp):
                found ^= 1 << t
    return mask | found


def _mask_tiles(mask: int) -> list[int]:
    """The tile ids of a 34-bit mask, ascending (four table lookups)."""
    if not mask:
        return []
    return [
        *_MASK_TILES[0][mask & 511],
        *_MASK_TILES[1][mask >> 9 & 511],
        *_MASK_TILES[2][mask >> 18 & 511],
        *_MASK_TILES[3][mask >> 27],
    ]


def _seven_pairs_waits(
    b: bytes | bytearray, keys: tuple[bytes, ...], wilds: int, comp: Compiled
) -> int:
    """Tiles completing 七对: adding t flips its parity; wildcards fill the odd ones."""
    if b.count(0) + b.count(1) + b.count(2) + b.count(3) + b.count(4) != 34:
        mask = 0
        for t in range(34):
            if seven_pairs_win(plus(b, t), wilds):
                mask |= 1 << t
        return mask
    odd = b.count(1) + b.count(3)
    if odd - 1 > wilds:
        return 0
    odd_mask = even_mask = 0
    for g, key, shift in zip(comp.groups, keys, (0, 9, 18, 27), strict=True):
        o, e = g.get_parity(key)
        odd_mask |= o << shift
        even_mask |= e << shift
    return odd_mask | even_mask if odd + 1 <= wilds else odd_mask


_MASK_TILES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(lo + r for r in range(hi - lo) if mask >> r & 1) for mask in range(512))
    for lo, hi in SLICES
)
