"""Tables over single groups: readings, tile facts and waits, so that scoring a hand is
a handful of lookups.

A *group* is the tiles of one suit (万, 条, 筒) or the honours. Sets never span groups,
so a hand's readings are the products of its groups' readings, and every group of a
winning hand's concealed tiles is *complete*: sets, or sets and the pair. The table of
complete groups (:func:`complete_groups`) lists each once — every multiset of at most
four sets, with or without a pair, no count above four: 21,743 suit groups and 498
honour groups — with its readings in search order; it is built on first use (about
0.1 s) and shared by the three suits (a reading is stored as indexes into the suit's
packs, with its chows, pungs and 全带幺 / 全带五 / 全双刻 bits).

Per group actually met, :func:`group_info` keeps (bounded) its readings as concrete
packs with their chows, pungs and tiles, so that a hand pays for them once per group
rather than once per set, and the group's *code* (:func:`tile_code`, from which tiles it
holds: a table per group of 512 rank masks); OR-ed over a hand's groups, codes decide
every fan that depends only on which tiles are present (:func:`tile_fans_of`).

:func:`other_wait` answers whether a complete hand also waited on a tile other than
its winning tile, from the winning tile's group alone (kept per group and tile).
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement, permutations, product
from typing import Final

from .shapes import CHOW, PAIR, PUNG, Pack, pack_tiles, search_key, suit_table

__all__ = [
    "ENTRIES",
    "EVEN",
    "FIVE",
    "GROUP_SPANS",
    "OUTSIDE",
    "TRAITS",
    "WIND",
    "GroupInfo",
    "GroupReading",
    "complete_groups",
    "entry",
    "group_info",
    "hand_readings",
    "knitted_possible",
    "one_suit",
    "other_wait",
    "tile_code",
    "tile_fans_of",
]

GROUP_SPANS: Final[tuple[tuple[int, int], ...]] = ((0, 9), (18, 27), (9, 18), (27, 34))
"""First and end tile of 万, 条, 筒 and the honours: the search order of the groups."""
_GROUP_OF: Final = tuple(next(i for i, (lo, hi) in enumerate(GROUP_SPANS) if lo <= t < hi)
                         for t in range(34))

# ---------------------------------------------------------------- per-pack facts

OUTSIDE, FIVE, EVEN = 1, 2, 4
"""Bits of a set or pair toward 全带幺 (a terminal or honour), 全带五 (a 5), 全双刻 (an
even pung or pair); a reading earns the fan whose bit all its sets and its pair have."""


def _traits(kind: int, t: int) -> int:
    if t >= 27:
        return OUTSIDE
    r = t % 9 + 1
    if kind == CHOW:
        return (OUTSIDE if r in (2, 8) else 0) | (FIVE if r in (4, 5, 6) else 0)
    return ((OUTSIDE if r in (1, 9) else 0) | (FIVE if r == 5 else 0)
            | (EVEN if r in (2, 4, 6, 8) else 0))


TRAITS: Final[dict[Pack, int]] = {(k, t, c): _traits(k, t)
                                  for k in (CHOW, PUNG, 3, PAIR) for t in range(34)
                                  for c in (False, True) if k != CHOW or (t < 27 and 0 < t % 9 < 8)}

# ---------------------------------------------------------------- complete groups

RelReading = tuple[tuple[int, ...], int, tuple[int, ...], tuple[int, ...], int]
"""One reading of a group: indexes of its sets in the group's packs (search order), its
pair's rank in the group (-1 for none), the indexes of its chows and of its pungs, and
the AND of its sets' and pair's OUTSIDE / FIVE / EVEN bits (the same in every suit)."""

# The packs of each group, by index: a suit's pungs of ranks 1-9 then its chows 123 …
# 789 (as the pack's middle tile); the honours' pungs.
_PACKS: Final[tuple[tuple[Pack, ...], ...]] = tuple(
    (*((PUNG, lo + r, False) for r in range(9)), *((CHOW, lo + r + 1, False) for r in range(7)))
    if hi - lo == 9 else tuple((PUNG, lo + r, False) for r in range(7))
    for lo, hi in GROUP_SPANS)
_PACK_TILES: Final = tuple(tuple(pack_tiles(p) for p in packs) for packs in _PACKS)


def _build(size: int) -> dict[bytes, tuple[RelReading, ...]]:
    """Every complete group of ``size`` tiles (9: a suit, 7: the honours) → its readings,
    each with its sets in search order, the readings in search order."""
    lo = 0 if size == 9 else 27
    packs = _PACKS[0 if size == 9 else 3]
    keys = [search_key(p) for p in packs]
    order = sorted(range(len(packs)), key=keys.__getitem__)  # pack indexes, search order
    tiles = [[p[1] - lo - 1 + k for k in range(3)] if p[0] == CHOW else [p[1] - lo] * 3
             for p in packs]
    pair_traits = [TRAITS[PAIR, lo + r, False] for r in range(size)]
    found: dict[bytes, list[RelReading]] = {}
    for n in range(5):
        # combinations of indexes in search order come out sorted, readings in order
        for combo in combinations_with_replacement(order, n):
            c = [0] * size
            for k in combo:
                for t in tiles[k]:
                    c[t] += 1
            if n and max(c) > 4:
                continue
            chows = tuple([k for k in combo if packs[k][0] == CHOW])
            pungs = tuple([k for k in combo if packs[k][0] != CHOW])
            traits = OUTSIDE | FIVE | EVEN
            for k in combo:
                traits &= TRAITS[packs[k]]
            found.setdefault(bytes(c), []).append((combo, -1, chows, pungs, traits))
            for p in range(size):
                if c[p] <= 2:
                    c[p] += 2
                    found.setdefault(bytes(c), []).append(
                        (combo, p, chows, pungs, traits & pair_traits[p]))
                    c[p] -= 2
    return {key: tuple(rs) for key, rs in found.items()}


@cache
def complete_groups(size: int) -> dict[bytes, tuple[RelReading, ...]]:
    """The table of complete groups of ``size`` (9 or 7) tiles, built once."""
    return _build(size)


# ---------------------------------------------------------------- tile codes

# Bits of a group's code; OR-ed over a hand's groups (melds included) they decide the
# fans of tile presence. "Not" bits are set by any tile that breaks the property.
_P_CHAR, _P_DOTS, _P_BAMB, _HON, _WIND, _DRAGON, _HAS4, _HAS6 = (1 << i for i in range(8))
(_NOT_1234, _NOT_6789, _NOT_456, _ORPHAN, _NOT_REV, _NOT_GREEN, _NOT_TERMINAL,
 _NOT_ORPHAN) = (1 << i for i in range(8, 16))
WIND: Final = _WIND
"""The bit of a code set by a wind."""
TILE_BITS: Final = (1 << 16) - 1
"""The part of a code that :func:`tile_fans_of` reads."""
KNIT_SHIFT: Final = 17
"""Bits 17-25: suit s (tile order 万 筒 条) holds ranks 147 (bit 3s), 258, 369."""
_REVERSIBLE: Final = frozenset({9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31})
_GREEN: Final = frozenset({19, 20, 21, 23, 25, 32})


def _code(lo: int, ranks: int) -> int:
    """The code of a group whose tiles (as a rank mask, bit r-1 = rank r) are present."""
    code = 0
    for i in range(9 if lo < 27 else 7):
        if not ranks >> i & 1:
            continue
        t = lo + i
        if t not in _REVERSIBLE:
            code |= _NOT_REV
        if t not in _GREEN:
            code |= _NOT_GREEN
        if t >= 27:
            code |= _HON | (_WIND if t < 31 else _DRAGON) | _ORPHAN | _NOT_TERMINAL
            continue
        r = i + 1
        code |= (_P_CHAR, _P_DOTS, _P_BAMB)[t // 9]
        code |= _HAS4 if r == 4 else _HAS6 if r == 6 else 0
        code |= 0 if r <= 4 else _NOT_1234
        code |= 0 if r >= 6 else _NOT_6789
        code |= 0 if 4 <= r <= 6 else _NOT_456
        code |= _ORPHAN if r in (1, 9) else _NOT_TERMINAL | _NOT_ORPHAN
    if lo < 27:
        s = lo // 9
        for k, rs in enumerate(((0, 3, 6), (1, 4, 7), (2, 5, 8))):
            if all(ranks >> r & 1 for r in rs):
                code |= 1 << (KNIT_SHIFT + 3 * s + k)
    return code


# codes of each group (tile order: 万 筒 条 honours) by its rank mask
_CODES: Final = tuple(tuple(_code(lo, m) for m in range(1 << (9 if lo < 27 else 7)))
                      for lo in (0, 9, 18, 27))
_C0, _C1, _C2, _CH = _CODES


def tile_code(m1: int) -> int:
    """The code of a hand holding the tiles of the mask ``m1`` (bit t = tile t)."""
    return _C0[m1 & 511] | _C1[m1 >> 9 & 511] | _C2[m1 >> 18 & 511] | _CH[m1 >> 27]


def _knit_ok(bits: int) -> bool:
    return any(all(bits >> (3 * s + k) & 1 for s, k in zip(perm, range(3), strict=True))
               for perm in permutations(range(3)))


_KNIT_OK: Final = tuple(_knit_ok(b) for b in range(512))


def one_suit(code: int) -> bool:
    """Whether the tiles of ``code`` are of one suit and no honour (清一色)."""
    return not code & _HON and (code & 7).bit_count() == 1


def knitted_possible(code: int) -> bool:
    """Whether the tiles of ``code`` hold a knitted straight (147 258 369, three suits)."""
    return _KNIT_OK[code >> KNIT_SHIFT & 511]


_TILE_FANS: Final[dict[int, dict[str, int]]] = {}
"""tile_fans_of by code: at most 2^16 entries (the codes), filled on first use."""


def tile_fans_of(code: int) -> dict[str, int]:
    """无字, 缺一门, 混一色, 清一色, 五门齐, 断幺, 推不倒, 绿一色, 字一色, 清幺九, 混幺九
    and the number ranges of a hand whose groups' codes OR to ``code`` (what
    :func:`.masks.tile_fans` finds, 四归一 aside). Callers copy the answer."""
    key = code & TILE_BITS
    got = _TILE_FANS.get(key)
    if got is None:
        got = _TILE_FANS[key] = _tile_fans(key)
    return got


def _tile_fans(code: int) -> dict[str, int]:
    ft: dict[str, int] = {}
    honours = code & _HON
    if not honours:
        ft["no_honours"] = 1
    voided = 3 - (code & 7).bit_count()
    if voided == 2:
        ft["half_flush" if honours else "full_flush"] = 1
    elif voided:
        ft["one_voided_suit"] = voided
    elif code & _WIND and code & _DRAGON:
        ft["all_types"] = 1
    simples = not code & _ORPHAN
    if simples:
        ft["all_simples"] = 1
    if not code & _NOT_REV:
        ft["reversible_tiles"] = 1
    if not code & _NOT_GREEN:
        ft["all_green"] = 1
    if not simples:
        if not code & 7:
            ft["all_honours"] = 1
        elif not code & _NOT_TERMINAL:
            ft["all_terminals"] = 1
        elif not code & _NOT_ORPHAN:
            ft["all_terminals_and_honours"] = 1
    if not honours:
        if not code & _NOT_1234:
            ft["lower_four" if code & _HAS4 else "lower_tiles"] = 1
        elif not code & _NOT_6789:
            ft["upper_four" if code & _HAS6 else "upper_tiles"] = 1
        elif not code & _NOT_456:
            ft["middle_tiles"] = 1
    return ft


# ---------------------------------------------------------------- entries

GroupReading = tuple[tuple[Pack, ...], int, tuple[Pack, ...], tuple[Pack, ...], int,
                     tuple[tuple[int, ...], ...]]
"""A reading of a group or a hand: (sets in search order, pair tile or -1, its chows,
its pungs, the AND of its sets' and pair's OUTSIDE / FIVE / EVEN bits, its sets' tiles)."""

Entry = tuple[GroupReading, ...]
"""What :func:`entry` keeps of a complete group: its readings."""

GroupInfo = tuple[Entry, int]
"""What :func:`group_info` keeps of a group met: its readings (none when the group is
not complete) and its code (:func:`tile_code` of its tiles), so that a hand's code is
the OR of its groups' and needs no mask of its own."""

_ENTRIES: Final[tuple[dict[bytes, GroupInfo], ...]] = ({}, {}, {}, {})
ENTRIES: Final = _ENTRIES
"""The groups' infos kept, per group (callers may look up first, and call
:func:`group_info` on a miss)."""
_ENTRIES_MAX: Final = 1 << 15


_SETS: tuple[dict[tuple[int, ...], tuple[tuple[Pack, ...], tuple[Pack, ...],
                                          tuple[Pack, ...], tuple[tuple[int, ...], ...]]],
             ...] = ({}, {}, {}, {})
"""Per group, a multiset of its sets (pack indexes) as concrete packs: (sets, chows,
pungs, tiles). At most 4,845 per suit; shared by the groups that differ by their pair,
so that meeting a new group costs little."""


def _sets(i: int, idx: tuple[int, ...], chows: tuple[int, ...], pungs: tuple[int, ...]
          ) -> tuple[tuple[Pack, ...], tuple[Pack, ...], tuple[Pack, ...],
                     tuple[tuple[int, ...], ...]]:
    table = _SETS[i]
    got = table.get(idx)
    if got is None:
        pack = _PACKS[i].__getitem__
        got = table[idx] = (tuple(map(pack, idx)), tuple(map(pack, chows)),
                            tuple(map(pack, pungs)), tuple(map(_PACK_TILES[i].__getitem__, idx)))
    return got


def _entry(i: int, key: bytes) -> Entry:
    lo, hi = GROUP_SPANS[i]
    rel = complete_groups(hi - lo).get(key)
    if rel is None:
        return ()
    out: list[GroupReading] = []
    for idx, q, cs, ps, traits in rel:
        sets, chows, pungs, tiles = _sets(i, idx, cs, ps)
        out.append((sets, lo + q if q >= 0 else -1, chows, pungs, traits, tiles))
    return tuple(out)


def _group_code(i: int, key: bytes) -> int:
    lo = GROUP_SPANS[i][0]
    ranks = sum(1 << r for r, n in enumerate(key) if n)
    return _CODES[lo // 9][ranks]


def group_info(i: int, key: bytes) -> GroupInfo:
    """The readings of group ``i`` (search order: 万 条 筒 honours) with counts ``key``
    (none when the group is not complete) and the group's code; kept per group met
    (bounded)."""
    table = _ENTRIES[i]
    try:
        return table[key]
    except KeyError:
        pass
    if len(table) >= _ENTRIES_MAX:
        table.clear()  # bounded memory in long sessions
    got = table[key] = (_entry(i, key), _group_code(i, key))
    return got


def entry(i: int, key: bytes) -> Entry:
    """The readings of group ``i`` with counts ``key``, none when the group is not
    complete (:func:`group_info`'s first part)."""
    return group_info(i, key)[0]


_ZERO: Final = (bytes(9), bytes(9), bytes(9), bytes(7))


def hand_readings(b: bytes) -> list[GroupReading]:
    """Every reading of the counts ``b`` (34 bytes, 3n + 2 tiles) as n sets (in search
    order) and a pair, the readings in search order: exactly what
    :func:`.shapes.readings` lists, with each reading's chows, pungs, bits and tiles."""
    parts: list[tuple[GroupReading, ...]] = []
    pairs = 0
    for i in range(4):
        lo, hi = GROUP_SPANS[i]
        key = b[lo:hi]
        if key == _ZERO[i]:
            continue
        reads = entry(i, key)
        if not reads:
            return []
        if reads[0][1] >= 0:
            pairs += 1
        parts.append(reads)
    if pairs != 1:
        return []
    return combine(parts)


def combine(parts: list[tuple[GroupReading, ...]]) -> list[GroupReading]:
    """The readings of a hand from its groups' readings (exactly one with the pair)."""
    if len(parts) == 1:
        return list(parts[0])
    # The common cases (each group read one way) written out; pair tiles are -1 but one.
    if len(parts) == 2 and len(parts[0]) == 1 and len(parts[1]) == 1:
        a, b = parts[0][0], parts[1][0]
        return [(a[0] + b[0], max(a[1], b[1]), a[2] + b[2], a[3] + b[3], a[4] & b[4],
                 a[5] + b[5])]
    if len(parts) == 3 and len(parts[0]) == 1 and len(parts[1]) == 1 and len(parts[2]) == 1:
        a, b, c = parts[0][0], parts[1][0], parts[2][0]
        return [(a[0] + b[0] + c[0], max(a[1], b[1], c[1]), a[2] + b[2] + c[2],
                 a[3] + b[3] + c[3], a[4] & b[4] & c[4], a[5] + b[5] + c[5])]
    if len(parts) == 4 and len(parts[0]) == len(parts[1]) == len(parts[2]) == \
            len(parts[3]) == 1:
        a, b, c, d = parts[0][0], parts[1][0], parts[2][0], parts[3][0]
        return [(a[0] + b[0] + c[0] + d[0], max(a[1], b[1], c[1], d[1]),
                 a[2] + b[2] + c[2] + d[2], a[3] + b[3] + c[3] + d[3],
                 a[4] & b[4] & c[4] & d[4], a[5] + b[5] + c[5] + d[5])]
    out: list[GroupReading] = []
    for combo in product(*parts):
        sets: tuple[Pack, ...] = ()
        chows: tuple[Pack, ...] = ()
        pungs: tuple[Pack, ...] = ()
        tiles: tuple[tuple[int, ...], ...] = ()
        pair = -1
        traits = OUTSIDE | FIVE | EVEN
        for r in combo:
            sets += r[0]
            if r[1] >= 0:
                pair = r[1]
            chows += r[2]
            pungs += r[3]
            traits &= r[4]
            tiles += r[5]
        out.append((sets, pair, chows, pungs, traits, tiles))
    return out


# ---------------------------------------------------------------- waits

_ADD: Final = tuple(1 << 8 * i for i in range(9))


_W: Final = tuple(bytes((t,)) for t in range(34))
_IN_GROUP: Final[dict[bytes, int]] = {}
"""_in_group by the group's counts and the winning tile (as bytes), kept bounded."""


def _in_group(group: bytes, win: int, lo: int) -> int:
    """For a complete group G holding ``win``: 1 when a tile x != win of G's own kind
    makes G - win + x complete with G's pair status; else 2 when G has no pair and
    G - win is sets and a pair (the pair may then move into G); else 0."""
    size = len(group)
    get = suit_table(size).get
    less = int.from_bytes(group, "little") - _ADD[win - lo]
    status = 1 if sum(group) % 3 == 2 else 0
    w = win - lo
    for x in range(size):
        if x != w and get(less + _ADD[x], -1) == status:
            return 1
    return 2 if not status and get(less, -1) == 1 else 0


def other_wait(b: bytes, win: int) -> bool:
    """Whether a tile other than ``win`` completes the hand ``b`` less ``win`` (34 counts
    as bytes, every group complete), copies unlimited: what
    :func:`.shapes.has_other_wait` answers for the standing tiles.

    The other groups are complete and stay so. A tile x of ``win``'s group G completes
    the hand when G - win + x is complete with G's own pair status. A tile of another
    group K can only do so when G has no pair, G - win is sets and a pair, and K is the
    pair's group with K + x only sets (the pair moves into G). Counts up to 5 are looked
    up (a wait on a fifth copy counts, as in :func:`.shapes.basic_waits`).
    """
    gi = _GROUP_OF[win]
    lo, hi = GROUP_SPANS[gi]
    group = b[lo:hi]
    key = group + _W[win]
    got = _IN_GROUP.get(key)
    if got is None:
        if len(_IN_GROUP) >= _ENTRIES_MAX:
            _IN_GROUP.clear()
        got = _IN_GROUP[key] = _in_group(group, win, lo)
    if got < 2:
        return got == 1
    for i in range(4):  # the pair's group
        plo, phi = GROUP_SPANS[i]
        k = b[plo:phi]
        if i != gi and sum(k) % 3 == 2:
            pkey = int.from_bytes(k, "little")
            pget = suit_table(phi - plo).get
            return any(pget(pkey + _ADD[x], -1) == 0 for x in range(phi - plo))
    return False
