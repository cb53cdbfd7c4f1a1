"""A cheap upper bound on the total of a concrete hand (for golden tiles' 就高 search).

:func:`upper_bound` never underestimates :func:`.calculator.score_prepared`'s total, so
golden.py can skip every assignment whose bound cannot beat the best found so far and
still return the exact maximum (branch and bound). The bound is

* the fans every sets-and-pair reading shares, exactly (the hand's ``base``: situational
  fans, 门前清 / 不求人, suits, tile traits, number ranges, 四归一) plus the kong fans, which
  only melds make;
* plus, for each fan a reading adds (set combinations, concealed pungs, 幺九刻, 箭刻, 圈风 /
  门风, 平和, 全带幺 …, the wait), its value when a *necessary* condition on the tile
  counts holds (e.g. 一色四同顺 needs four copies of three consecutive tiles), taking the
  maximum within a family that is counted at most once;
* ignoring 不计, which only removes fans.

Special shapes: seven pairs is bounded by ``base`` + 24 (88 for seven shifted pairs);
a hand that could be 十三幺, 全不靠, 组合龙 or 九莲宝灯 gets no bound (it is always scored).
Tile sets are bitmasks over tile ids, so a family's condition at every position is a few
shifts and ands.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations
from typing import Final

from .common import KNITTED, flag_fans, total
from .masks import bits as _bits
from .masks import masks, tile_fans
from .prepared import Prepared
from .shapes import CHOW, KONG, Pack

__all__ = ["NO_BOUND", "FixedInfo", "tiles_bound", "upper_bound", "with_flags"]

NO_BOUND: Final = 1 << 20
"""Returned for hands that may take a shape the bound does not model."""


def _starts(last: int) -> int:
    """Suited tiles of rank index 0..``last`` (where a run of length 9 - last fits)."""
    return _bits(s * 9 + r for s in range(3) for r in range(last + 1))


_S0, _S2, _S3, _S4, _S5, _S6 = (_starts(k) for k in (0, 2, 3, 4, 5, 6))
_WIND: Final = _bits(range(27, 31))
_DRAGON: Final = _bits(range(31, 34))
_HONOUR = _WIND | _DRAGON
_SUITS: Final = (_bits(range(9)), _bits(range(9, 18)), _bits(range(18, 27)))
_SUITED: Final = _SUITS[0] | _SUITS[1] | _SUITS[2]
_ENDS: Final = _bits((0, 9, 18))  # rank 1 of each suit; >> 8 of a mask puts rank 9 there
_TERM_WIND: Final = _bits((0, 8, 9, 17, 18, 26, 27, 28, 29, 30))
_ORPHANS: Final = _bits((0, 8, 9, 17, 18, 26, *range(27, 34)))
_ALL: Final = (1 << 34) - 1
_NOT_OUTSIDE: Final = _ALL & ~_bits(t for t in range(34) if t >= 27 or t % 9 in (0, 1, 2, 6, 7, 8))
_NOT_FIVES: Final = _ALL & ~_bits(t for t in range(27) if 2 <= t % 9 <= 6)
_NOT_EVEN: Final = _ALL & ~_bits(t for t in range(27) if t % 9 in (1, 3, 5, 7))
_TERMINAL_CHOWS: Final = tuple(_bits((s, s + 1, s + 2, s + 6, s + 7, s + 8)) for s in (0, 9, 18))
_PURE_TERMINAL: Final = tuple(m | 1 << (s + 4) for m, s in zip(_TERMINAL_CHOWS, (0, 9, 18),
                                                               strict=True))
_TERMINAL_ANY: Final = _bits((0, 9, 18))  # both terminal-chow fans need a 1 of some suit
_KNITTED_BITS: Final = tuple(_bits(k) for k in KNITTED)
_PERMS: Final = tuple(permutations((0, 1, 2)))
_KONG_FAN: Final = {(1, 0): 1, (0, 1): 2, (2, 0): 4, (1, 1): 5, (0, 2): 6}
_CONCEALED_PUNGS: Final = (0, 0, 2, 16, 64)


def _chow_families(m1: int, m2: int, m3: int, m4: int, chows: int) -> int:
    """Upper bound of the chow-combination fans with at most ``chows`` chows (chow_fans: a
    family of four alone, or a family of three + one pair fan, or at most three 1-fan
    pair fans)."""
    ch = m1 & m1 >> 1 & m1 >> 2 & _S6  # starts of the chows the tiles allow
    if chows < 2 or not ch:
        return 0
    c0, c1, c2 = ch & 0x7F, ch >> 9 & 0x7F, ch >> 18 & 0x7F
    pair = bool(m2 & m2 >> 1 & m2 >> 2 & _S6  # 一般高
                or c0 & c1 or c0 & c2 or c1 & c2  # 喜相逢
                or ch & ch >> 3 & _S3  # 连六
                or ch & ch >> 6 & _S0)  # 老少副
    if chows == 2:
        return int(pair)
    four = 0
    if chows == 4:
        if m4 & m4 >> 1 & m4 >> 2 & _S6:
            four = 48  # 一色四同顺
        elif (m1 & m2 >> 1 & m3 >> 2 & m3 >> 3 & m2 >> 4 & m1 >> 5 & _S3
              or m1 & m1 >> 1 & m2 >> 2 & m1 >> 3 & m2 >> 4 & m1 >> 5 & m2 >> 6 & m1 >> 7
              & m1 >> 8 & _S0):
            four = 32  # 一色四步高
    three = 0
    if m3 & m3 >> 1 & m3 >> 2 & _S6:
        three = 24  # 一色三同顺
    elif (m1 & m2 >> 1 & m3 >> 2 & m2 >> 3 & m1 >> 4 & _S4
          or m1 & m1 >> 1 & m2 >> 2 & m1 >> 3 & m2 >> 4 & m1 >> 5 & m1 >> 6 & _S2
          or ch & ch >> 3 & ch >> 6 & _S0):
        three = 16  # 一色三步高, 清龙
    elif c0 and c1 and c2:
        if c0 & c1 & c2:
            three = 8  # 三色三同顺
        else:
            cs = (c0, c1, c2)
            for a, b, c in _PERMS:
                if cs[a] & 1 and cs[b] & 8 and cs[c] & 64:
                    three = 8  # 花龙
                    break
                if cs[a] & cs[b] >> 1 & cs[c] >> 2:
                    three = 6  # 三色三步高
    if chows == 3:
        return max(three, 2 if pair else 0)
    return max(four, three + pair, 3 if pair else 0)


def _pung_families(pt: int, pungs: int) -> int:
    """Upper bound of the pung-combination fans of ``pungs`` pungs or kongs among the
    tiles ``pt`` that may be pungs (pung_fans: a family of four alone; a family of three,
    plus one pair fan when there is a fourth pung; otherwise pair fans)."""
    if pungs < 2:
        return 0
    winds = (pt & _WIND).bit_count()
    dragons = (pt & _DRAGON).bit_count()
    four = 0
    if winds == 4:
        four = 88  # 大四喜
    elif pt & pt >> 1 & pt >> 2 & pt >> 3 & _S5:
        four = 48  # 一色四节高
    p0, p1, p2 = pt & 0x1FF, pt >> 9 & 0x1FF, pt >> 18 & 0x1FF
    three = 0
    if dragons == 3:
        three = 88  # 大三元
    elif pt & pt >> 1 & pt >> 2 & _S6:
        three = 24  # 一色三节高
    elif p0 & p1 & p2:
        three = 16  # 三同刻
    elif winds >= 3:
        three = 12  # 三风刻
    elif p0 and p1 and p2:
        ps = (p0, p1, p2)
        if any(ps[a] & ps[b] >> 1 & ps[c] >> 2 for a, b, c in _PERMS):
            three = 8  # 三色三节高
    double = bool(p0 & p1 or p0 & p2 or p1 & p2)
    pair = 6 if dragons >= 2 else 2 if double else 0
    if pungs == 2:
        return pair
    pairs = (6 if dragons >= 2 else 0) + (4 if double else 0)
    if pungs == 3:
        return max(three, pairs)
    return max(four, three + pair if three else 0, pairs)


class FixedInfo:
    """What the bound needs to know about the melds (the same for every assignment)."""

    __slots__ = ("chows", "ck", "claimed", "kong_fan", "kongs", "mk", "n", "pungs")

    def __init__(self, fixed: Sequence[Pack]) -> None:
        self.n = len(fixed)
        self.chows = sum(1 for p in fixed if p[0] == CHOW)
        self.claimed = sum(1 for p in fixed if p[2])
        self.pungs = _bits(t for kind, t, _ in fixed if kind != CHOW)
        self.mk = sum(1 for kind, _, claimed in fixed if kind == KONG and claimed)
        self.ck = sum(1 for kind, _, claimed in fixed if kind == KONG and not claimed)
        self.kongs = kongs = self.mk + self.ck
        self.kong_fan = 88 if kongs == 4 else 32 if kongs == 3 else \
            _KONG_FAN.get((self.mk, self.ck), 0)


Masks = tuple[int, int, int, int]


def tiles_bound(fi: FixedInfo, full: Masks, standing: Masks, seat: int,
                prevalent: int) -> tuple[int, bool]:
    """The bound less the situational fans: the tile fans (exact) plus the most the sets
    of a reading can add; and whether the tile fans are none at all (无番和, 8 fan, needs
    that). ``full`` / ``standing``: masks of the whole hand / of the concealed tiles
    (:func:`.masks.masks`); seat and prevalent winds are tile ids."""
    m1, m2, m3, m4 = full
    ms1, ms2, ms3, ms4 = standing
    if not fi.n:
        if m1 & _ORPHANS == _ORPHANS or not m2:
            return NO_BOUND, False  # 十三幺, 全不靠 / 七星不靠
        if (not m1 & ~_SUITS[0] or not m1 & ~_SUITS[1] or not m1 & ~_SUITS[2]) \
                and m3 & _ENDS and (m3 >> 8) & _ENDS:
            return NO_BOUND, False  # may be 九莲宝灯
    if fi.n <= 1 and (ms1 & _SUITED).bit_count() >= 9 \
            and any(k & ms1 == k for k in _KNITTED_BITS):
        return NO_BOUND, False  # 组合龙
    ft: dict[str, int] = {}
    tile_fans(m1, m4, fi.kongs, ft, {})
    base = total(ft)
    pairs = 0
    if not fi.n and not ms1 & ~ms2 and not ms3 & ~ms4:  # every count even: 七对
        shifted = m2 & m2 >> 1 & m2 >> 2 & m2 >> 3 & m2 >> 4 & m2 >> 5 & m2 >> 6 & _S2
        pairs = 88 if shifted else 24

    pt = ms3 | fi.pungs  # tiles that may be pungs or kongs
    dep = fi.kong_fan
    conc_pungs = min(ms3.bit_count(), 4 - fi.n)
    hidden = min(4, fi.ck + conc_pungs)
    dep += _CONCEALED_PUNGS[hidden]
    if not fi.chows and not ms1 & ~ms2 and not ms4 and hidden < 4:
        dep += 6  # 碰碰和: no single tile and no four left for chows (四暗刻 excludes it)
    dep += 2 * (pt & _DRAGON).bit_count() + (pt & _TERM_WIND).bit_count()
    if 1 << prevalent & pt:
        dep += 2
    if 1 << seat & pt:
        dep += 2
    dep += _chow_families(m1, m2, m3, m4, 4 - fi.n + fi.chows)
    dep += _pung_families(pt, fi.n - fi.chows + conc_pungs)
    if m1 & _TERMINAL_ANY:
        p0, p1, p2 = _PURE_TERMINAL
        if m2 & p0 == p0 or m2 & p1 == p1 or m2 & p2 == p2:
            dep += 64  # 一色双龙会
        k0, k1, k2 = _TERMINAL_CHOWS
        t0, t1, t2 = m1 & k0 == k0, m1 & k1 == k1, m1 & k2 == k2
        if (t0 and t1 and m2 >> 22 & 1) or (t0 and t2 and m2 >> 13 & 1) \
                or (t1 and t2 and m2 >> 4 & 1):
            dep += 16  # 三色双龙会
    if fi.chows == fi.n and not m1 & _HONOUR:
        dep += 2  # 平和: four chows and a suited pair
    if (pt & _DRAGON).bit_count() >= 2 and m2 & _DRAGON == _DRAGON:
        dep += 64  # 小三元
    if (pt & _WIND).bit_count() >= 3 and m2 & _WIND == _WIND:
        dep += 64  # 小四喜
    dep += max(0 if m1 & _NOT_FIVES else 16,  # 全带五
               0 if m1 & _NOT_EVEN or fi.chows else 24,  # 全双刻
               0 if m1 & _NOT_OUTSIDE else 4)  # 全带幺
    dep += 1  # 边张 / 坎张 / 单钓将
    return base + max(dep, pairs), not ft


def upper_bound(h: Prepared, fi: FixedInfo | None = None) -> int:
    """An upper bound of the total fan of ``h`` (flowers excluded), or :data:`NO_BOUND`."""
    fi = fi or FixedInfo(h.fixed)
    full = h.masks()
    standing = masks(h.standing_counts) if h.fixed else full
    tb, plain = tiles_bound(fi, full, standing, h.fl.seat, h.fl.prevalent)
    return with_flags(tb, plain, flag_fans(h.fl, fi.claimed))


def with_flags(tb: int, plain: bool, flags: dict[str, int]) -> int:
    """The bound from :func:`tiles_bound` and the hand's situational fans: 无番和 (8) is
    possible only when neither the tiles nor the situation give a fan, for a fan once
    present is never excluded without a bigger one staying."""
    if tb >= NO_BOUND:
        return NO_BOUND
    if plain and not flags:
        return max(tb, 8)
    return tb + total(flags)
