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
    BUDGETS,
    COMBINED,
    FINAL,
    INF,
    MAX_MELDS,
    GroupTable,
    combined_id,
    compute_cover,
    compute_need,
    final_value,
)
from laizi.analysis._special import (
    HONOUR_MASK,
    KNITTED,
    KNITTED_CLASSES,
    KNITTED_MASKS,
    orphans_waits,
    seven_pairs_win,
)
from laizi.analysis.types import WinRules

__all__ = ["DEFAULT_RULES", "is_win", "shanten", "waits"]

DEFAULT_RULES = WinRules()
"""Any pair, chows in all three suits, seven pairs allowed, no 十三幺, no knitted shapes."""

_FAST_WILDS = 20
"""Above this many wildcards the table sums could reach :data:`INF`; use plain search."""

_SLICES = ((0, 9), (9, 18), (18, 27), (27, 34))


# ---------------------------------------------------------------- compiled rules

_TABLES: dict[tuple[int, bool, tuple[bool, ...]], GroupTable] = {}


def _table(size: int, chows: bool, pair_ok: tuple[bool, ...]) -> GroupTable:
    key = (size, chows, pair_ok)
    got = _TABLES.get(key)
    if got is None:
        got = _TABLES[key] = GroupTable(size, chows, pair_ok)
    return got


class Compiled:
    """The four group tables (万, 筒, 条, honours) a :class:`WinRules` needs."""

    __slots__ = ("groups", "needs", "rules", "seven_only", "special")

    def __init__(self, rules: WinRules) -> None:
        self.rules = rules
        groups = []
        for g, (lo, hi) in enumerate(_SLICES):
            size = hi - lo
            pair_ok = tuple(
                rules.pair_tiles is None or (lo + i) in rules.pair_tiles for i in range(size)
            )
            groups.append(_table(size, g < 3 and g in rules.chow_suits, pair_ok))
        self.groups: tuple[GroupTable, GroupTable, GroupTable, GroupTable] = (
            groups[0],
            groups[1],
            groups[2],
            groups[3],
        )
        self.needs = tuple(g.need for g in self.groups)
        self.special = rules.seven_pairs or rules.thirteen_orphans or rules.knitted
        self.seven_only = rules.seven_pairs and not (rules.thirteen_orphans or rules.knitted)


_COMPILED: dict[int, Compiled] = {}
_split = struct.Struct("9s9s9s7s").unpack
"""Cuts a 34-byte key into the 万, 筒, 条 and honour keys in one C call (length-checked)."""


def compiled(rules: WinRules) -> Compiled:
    """The cached :class:`Compiled` for ``rules`` (by identity, then by value)."""
    got = _COMPILED.get(id(rules))
    if got is not None and got.rules is rules:
        return got
    got = Compiled(rules)  # equal rules share their GroupTables through _table()
    if len(_COMPILED) > 256:
        _COMPILED.clear()
    _COMPILED[id(rules)] = got
    return got


_DEFAULT = compiled(DEFAULT_RULES)
_DEFAULT_SUIT = _DEFAULT.groups[0].need
_DEFAULT_HONOURS = _DEFAULT.groups[3].need
assert _DEFAULT.groups[1].need is _DEFAULT_SUIT and _DEFAULT.groups[2].need is _DEFAULT_SUIT

# ---------------------------------------------------------------- input checks


def _key(counts: Sequence[int]) -> bytes:
    try:
        b = bytes(counts)
    except (TypeError, ValueError):
        raise ValueError(
            "counts must be 34 non-negative tile counts (ints); got " + repr(list(counts))
        ) from None
    if len(b) != 34:
        raise ValueError(f"counts must have length 34 (tile ids 0-33), got {len(b)}")
    return b


def _check_wilds(wilds: int) -> None:
    if wilds < 0:
        raise ValueError(f"wilds must be >= 0, got {wilds}")


# ---------------------------------------------------------------- is_win


def is_win(counts: Sequence[int], wilds: int = 0, rules: WinRules = DEFAULT_RULES) -> bool:
    """True when the concealed tiles plus ``wilds`` wildcards form a complete hand.

    Complete: ``3n + 2`` tiles making n melds and a pair (``rules.pair_tiles`` /
    ``rules.chow_suits`` respected) or, at 14 tiles, 七对 / 十三幺 / 全不靠 when ``rules``
    allow; 组合龙 (+ melds + a pair) at any ``3n + 2 >= 11``. A wildcard may not make a
    fifth copy of a tile.
    """
    if rules is DEFAULT_RULES:
        comp = _DEFAULT
        n0 = n1 = n2 = _DEFAULT_SUIT  # the three suits share one table under these rules
        n3 = _DEFAULT_HONOURS
    else:
        # compiled(rules) inlined: is_win is the hottest call of the package.
        got = _COMPILED.get(id(rules))
        comp = got if got is not None and got.rules is rules else compiled(rules)
        n0, n1, n2, n3 = comp.needs
    try:
        # bytearray() reads a list of ints faster than bytes(); the split yields bytes keys
        b = bytearray(counts)
        k0, k1, k2, k3 = _split(b)
    except (TypeError, ValueError, struct.error):
        b = bytearray(_key(counts))
        k0, k1, k2, k3 = _split(b)
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
    if s <= wilds <= _FAST_WILDS and (wilds - s) % 3 == 0:
        return True
    if wilds < 0:
        _check_wilds(wilds)
    odd = o0 + o1 + o2 + o3
    if wilds <= _FAST_WILDS:
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
    for g, (lo, hi) in zip(comp.groups, _SLICES, strict=True):
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
    if wilds > _FAST_WILDS and _standard_ok(b, wilds, comp):
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
                and _knitted_singles_fit(b)):
            return True
    if rules.knitted and total >= 11 and total % 3 == 2 and knit + wilds >= 9:
        if not _knitted_straight_win_tables(b, wilds, comp):
            return False
        return total <= 14 or knitted_straight_win_search(b, wilds, comp)
    return False


def _knitted_singles_fit(b: bytes | bytearray) -> bool:
    """全不靠 / 七星不靠 for a 14-tile hand (wildcards included) holding no tile twice:
    every held tile lies in one knitted straight + the honours (wildcards take the rest;
    they never make a fifth copy of a tile the hand holds once)."""
    k0, k1, k2, k3 = _split(b)
    pres = _presence_mask(k0, k1, k2, k3)
    return any(not pres & ~allowed for allowed in _SINGLES_ALLOWED)


_SINGLES_ALLOWED: tuple[int, ...] = tuple(km | HONOUR_MASK for km in KNITTED_MASKS)
"""The tiles of each 全不靠 set: one knitted straight and the seven honours."""


def _residue_best(present: bytes) -> int:
    """Most tiles of one suit's 9-tile presence vector inside one of 147 / 258 / 369."""
    return max(present[0] + present[3] + present[6], present[1] + present[4] + present[7],
               present[2] + present[5] + present[8])


_PRESENT = bytes([0] + [1] * 255)
"""``bytes.translate`` table: a count vector → 0/1 presence."""
_RESIDUE_BEST: dict[bytes, int] = {}
for _m in range(512):
    _pv = bytes((_m >> i) & 1 for i in range(9))
    _RESIDUE_BEST[_pv] = _residue_best(_pv)
del _m, _pv
_PRESENCE_BITS: dict[bytes, int] = {
    bytes((m >> i) & 1 for i in range(size)): m for size in (7, 9) for m in range(1 << size)
}
"""A 0/1 presence key (9 ranks or 7 honours) → its bit mask."""


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
        return _knitted_straight_win_tables(bytearray(c), wilds, comp)
    return knitted_straight_win_search(c, wilds, comp)


def _knitted_straight_win_tables(b: bytes | bytearray, wilds: int, comp: Compiled) -> bool:
    """:func:`knitted_straight_win` from the group tables: per straight, the tiles it
    misses go to wildcards and the rest of each suit is a free group, so the standard
    need formula decides. Exact for at most one meld beside the straight (11 or 14 tiles:
    ``GroupTable.get_knit_cover`` says why the 4-copy rule cannot bind); with more, the
    free need can only be lower than the capped one, so ``False`` is still exact."""
    k0, k1, k2, k3 = _split(b)
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
        for g, (lo, hi) in zip(comp.groups, _SLICES, strict=True):
            n0, n1 = _need_capped(tuple(r[lo:hi]), g.chows, g.pair_ok, tuple(capv[lo:hi]))
            s0 += n0
            dmin = min(dmin, n1 - n0)
        s = s0 + dmin
        if s < INF and s <= w and (w - s) % 3 == 0:
            return True
    return False


# ---------------------------------------------------------------- waits


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
    comp = _DEFAULT if rules is DEFAULT_RULES else compiled(rules)
    try:
        b = bytearray(counts)
        keys = _split(b)
    except (TypeError, ValueError, struct.error):
        b = bytearray(_key(counts))
        keys = _split(b)
    if wilds < 0:
        _check_wilds(wilds)
    total = sum(b) + wilds
    if total % 3 != 1:
        raise ValueError(f"waits needs a hand of 3n+1 tiles, got {total}")
    if wild_tile is not None and not 0 <= wild_tile < 34:
        raise ValueError(f"wild_tile must be a tile id 0-33, got {wild_tile}")
    if wilds >= BUDGETS:
        mask = 0
        for t in range(34):
            if is_win(_plus(b, t), wilds, rules):
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
    mask = _standard_mask(groups, k0, k1, k2, k3, a0, d0, a1, d1, a2, d2, a3, d3, wilds)
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


def _standard_mask(
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
        pres = _presence_mask(k0, k1, k2, k3)
        for allowed in _SINGLES_ALLOWED:
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
                found |= KNITTED_MASKS[i] & ~_presence_mask(k0, k1, k2, k3)
        if w >= 0:
            found |= _standard_mask(groups, r0, r1, r2, k3, a0, d0, a1, d1, a2, d2, a3, d3, w)
    if total > 13:
        # two or more melds beside the straight: the free need can be below the capped
        # one (see _knitted_shanten), so the tables give a superset; check each tile
        for t in range(34):
            if found >> t & 1 and not knitted_straight_win_search(_plus(b, t), wilds, comp):
                found ^= 1 << t
    return mask | found


def _presence_mask(k0: bytes, k1: bytes, k2: bytes, k3: bytes) -> int:
    """The tiles held (34-bit mask) of the four group keys."""
    pm = _PRESENCE_BITS
    return (pm[k0.translate(_PRESENT)] | pm[k1.translate(_PRESENT)] << 9
            | pm[k2.translate(_PRESENT)] << 18 | pm[k3.translate(_PRESENT)] << 27)


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
            if seven_pairs_win(_plus(b, t), wilds):
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


def _plus(b: bytes | bytearray, t: int) -> bytes:
    ba = bytearray(b)
    ba[t] += 1
    return bytes(ba)


_MASK_TILES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(lo + r for r in range(hi - lo) if mask >> r & 1) for mask in range(512))
    for lo, hi in _SLICES
)


# ---------------------------------------------------------------- shanten


def shanten(counts: Sequence[int], wilds: int = 0, rules: WinRules = DEFAULT_RULES) -> int:
    """Tiles still to exchange before the hand is ready (向听数); -1 for a complete hand.

    For ``3n + 1`` and ``3n + 2`` totals. The target hand may hold at most 4 copies of a
    tile, so a hand waiting only on a fifth copy is not ready (shanten 1, not 0).
    """
    comp = _DEFAULT if rules is DEFAULT_RULES else compiled(rules)
    try:
        b = bytearray(counts)
        k0, k1, k2, k3 = _split(b)
    except (TypeError, ValueError, struct.error):
        b = bytearray(_key(counts))
        k0, k1, k2, k3 = _split(b)
    if wilds < 0:
        _check_wilds(wilds)
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
            for g, (lo, hi) in zip(comp.groups, _SLICES, strict=True)
        ]
        best = _combine(covers, n)
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
                result = _knitted_shanten(b, k0, k1, k2, i3, v3, n, wilds, result, comp)
    return max(result, -1)


def _knitted_shanten(
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
    pres = bytes(c).translate(_PRESENT)
    best = _RESIDUE_BEST
    return best[pres[0:9]] + best[pres[9:18]] + best[pres[18:27]]


def _combine(covers: list[tuple[tuple[int, ...], tuple[int, ...]]], n: int) -> int:
    """Best total cover over the groups with at most ``n`` melds and exactly one pair."""
    b0 = list(covers[0][0][: n + 1])
    b1 = list(covers[0][1][: n + 1])
    for h0, h1 in covers[1:]:
        nb0 = [max(b0[i] + h0[m - i] for i in range(m + 1)) for m in range(n + 1)]
        nb1 = [
            max(max(b1[i] + h0[m - i], b0[i] + h1[m - i]) for i in range(m + 1))
            for m in range(n + 1)
        ]
        b0, b1 = nb0, nb1
    return b1[n]


@lru_cache(maxsize=65536)
def _cover_n(
    v: bytes, chows: bool, pair_ok: tuple[bool, ...], melds: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return compute_cover(tuple(v), chows, pair_ok, melds)


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
        for g, (lo, hi) in zip(comp.groups, _SLICES, strict=True)
    ]
    return held + _combine(covers, n - 3)
