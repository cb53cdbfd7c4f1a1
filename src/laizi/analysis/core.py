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
    KNITTED,
    knitted_singles_overlap,
    knitted_singles_win,
    orphans_overlap,
    orphans_win,
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
        comp = _COMPILED.get(id(rules))  # type: ignore[assignment]
        if comp is None or comp.rules is not rules:
            comp = compiled(rules)
        n0, n1, n2, n3 = comp.needs
    try:
        # bytearray() reads a list of ints faster than bytes(); the split yields bytes keys
        b = bytearray(counts)
        k0, k1, k2, k3 = _split(b)
    except (TypeError, ValueError, struct.error):
        b = bytearray(_key(counts))
        k0, k1, k2, k3 = _split(b)
    try:
        a0, d0, o0 = n0[k0]
        a1, d1, o1 = n1[k1]
        a2, d2, o2 = n2[k2]
        a3, d3, o3 = n3[k3]
    except KeyError:
        g0, g1, g2, g3 = comp.groups
        a0, d0, o0 = g0.get_need(k0)
        a1, d1, o1 = g1.get_need(k1)
        a2, d2, o2 = g2.get_need(k2)
        a3, d3, o3 = g3.get_need(k3)
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
    if wilds <= _FAST_WILDS:
        if not comp.special:
            return False
        if comp.seven_only:
            # 七对 only: every count even once the wildcards fill the odd ones
            if o0 + o1 + o2 + o3 > wilds or sum(b) + wilds != 14:
                return False
            if b.count(0) + b.count(1) + b.count(2) + b.count(3) + b.count(4) == 34:
                return True
    return _is_win_slow(b, wilds, comp)


def _standard_ok(b: bytes | bytearray, wilds: int, comp: Compiled) -> bool:
    s0 = 0
    dmin = INF * 4
    for g, (lo, hi) in zip(comp.groups, _SLICES, strict=True):
        n0, n1 = compute_need(tuple(b[lo:hi]), g.chows, g.pair_ok)
        s0 += n0
        dmin = min(dmin, n1 - n0)
    s = s0 + dmin
    return s < INF and s <= wilds and (wilds - s) % 3 == 0


def _is_win_slow(b: bytes | bytearray, wilds: int, comp: Compiled) -> bool:
    """Everything the fast path does not answer: many wildcards and the special shapes."""
    if wilds > _FAST_WILDS and _standard_ok(b, wilds, comp):
        return True
    rules = comp.rules
    total = sum(b) + wilds
    if total == 14:
        if rules.seven_pairs:
            odd = b.count(1) + b.count(3)
            if odd <= wilds and b.count(0) + odd + b.count(2) + b.count(4) == 34:
                return True
            if odd <= wilds and seven_pairs_win(b, wilds):  # counts above 4: rare
                return True
        if rules.thirteen_orphans and orphans_win(b, wilds):
            return True
        # 全不靠 holds no tile twice: one C-level count rejects most hands.
        if rules.knitted and b.count(0) + b.count(1) == 34 and knitted_singles_win(b, wilds):
            return True
    if rules.knitted and total >= 11 and total % 3 == 2:
        return knitted_straight_win(b, wilds, comp)
    return False


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


def waits(counts: Sequence[int], wilds: int = 0, rules: WinRules = DEFAULT_RULES) -> list[int]:
    """Tile ids (0-33, ascending) whose addition makes a ``3n + 1`` hand complete.

    A tile the hand already holds four of is still listed when a fifth copy would complete
    the shape (空听); callers count the copies actually left.
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
    if wilds >= BUDGETS:
        return [t for t in range(34) if is_win(_plus(b, t), wilds, rules)]
    groups = comp.groups
    k0, k1, k2, k3 = keys
    n0, n1, n2, n3 = comp.needs
    try:
        a0, d0, o0 = n0[k0]
        a1, d1, o1 = n1[k1]
        a2, d2, o2 = n2[k2]
        a3, d3, o3 = n3[k3]
    except KeyError:
        g0, g1, g2, g3 = groups
        a0, d0, o0 = g0.get_need(k0)
        a1, d1, o1 = g1.get_need(k1)
        a2, d2, o2 = g2.get_need(k2)
        a3, d3, o3 = g3.get_need(k3)
    # Standard shape: the new tile goes to group gi, which then needs (with the pair, or
    # the pair in another group) at most the wildcards the other groups leave.
    spare = wilds - (a0 + a1 + a2 + a3)
    m01 = d0 if d0 < d1 else d1
    m23 = d2 if d2 < d3 else d3
    mask = 0
    for gi, budget, others in (
        (0, spare + a0, d1 if d1 < m23 else m23),
        (1, spare + a1, d0 if d0 < m23 else m23),
        (2, spare + a2, d3 if d3 < m01 else m01),
        (3, spare + a3, d2 if d2 < m01 else m01),
    ):
        b2 = budget - others  # the pair in another group (need1 - need0 may be < 0)
        if budget < 0 and b2 < 0:
            continue
        key = keys[gi]
        got = groups[gi].wait.get(key)
        if got is None:
            got = groups[gi].get_wait(key)
        mask0, mask1 = got
        m = mask1[budget if budget < BUDGETS else BUDGETS - 1] if budget >= 0 else 0
        if b2 >= 0:
            m |= mask0[b2 if b2 < BUDGETS else BUDGETS - 1]
        if m:
            mask |= m << 9 * gi
    rules = comp.rules
    # 七对: adding t flips its parity; wildcards fill the odd ones (odd - 1 of them at best)
    if total == 13 and rules.seven_pairs and o0 + o1 + o2 + o3 - 1 <= wilds:
        mask |= _seven_pairs_waits(b, keys, wilds, comp)
    if (total == 13 and rules.thirteen_orphans) or (rules.knitted and total >= 10):
        for t in range(34):
            if not mask >> t & 1 and _is_win_slow(_plus(b, t), wilds, comp):
                mask |= 1 << t
    return _mask_tiles(mask)


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
        i0, t0, p0, s0 = g0.shape[k0]
        i1, t1, p1, s1 = g1.shape[k1]
        i2, t2, p2, s2 = g2.shape[k2]
        i3, t3, p3, s3 = g3.shape[k3]
    except KeyError:
        i0, t0, p0, s0 = g0.get_shape(k0)
        i1, t1, p1, s1 = g1.get_shape(k1)
        i2, t2, p2, s2 = g2.get_shape(k2)
        i3, t3, p3, s3 = g3.get_shape(k3)
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
                result = min(result, 13 - wilds - orphans_overlap(b))
            if rules.knitted:
                result = min(result, 13 - wilds - knitted_singles_overlap(b))
        # 组合龙 covers at most its held tiles (no more than the best residue class of
        # each suit) + 3 per other set + the pair, so its shanten is at least
        # 8 - wilds - that bound: most hands need no search over the six straights.
        if rules.knitted and n >= 3 and 8 - wilds - _knitted_held_bound(b) < result:
            result = min(result, 3 * n + 1 - wilds - knitted_straight_overlap(b, n, comp))
    return max(result, -1)


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
    """Most real tiles inside a 组合龙 + (n - 3) melds + pair target."""
    best = -INF
    for ks in KNITTED:
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
        got = held + _combine(covers, n - 3)
        if got > best:
            best = got
    return best
