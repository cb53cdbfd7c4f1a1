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

from itertools import permutations

from .calculator import _KNITTED, _Hand, _nine_gates, _total
from .masks import bits as _bits
from .masks import masks
from .shapes import CHOW, KONG

__all__ = ["NO_BOUND", "upper_bound"]

NO_BOUND = 1 << 20
"""Returned for hands that may take a shape the bound does not model."""


def _starts(last: int) -> int:
    """Suited tiles of rank index 0..``last`` (where a run of length 9 - last fits)."""
    return _bits(s * 9 + r for s in range(3) for r in range(last + 1))


_S0, _S2, _S3, _S4, _S5, _S6 = (_starts(k) for k in (0, 2, 3, 4, 5, 6))
_WIND = _bits(range(27, 31))
_DRAGON = _bits(range(31, 34))
_TERM_WIND = _bits((0, 8, 9, 17, 18, 26, 27, 28, 29, 30))
_ORPHANS = _bits((0, 8, 9, 17, 18, 26, *range(27, 34)))
_ALL = (1 << 34) - 1
_NOT_OUTSIDE = _ALL & ~_bits(t for t in range(34) if t >= 27 or t % 9 in (0, 1, 2, 6, 7, 8))
_NOT_FIVES = _ALL & ~_bits(t for t in range(27) if 2 <= t % 9 <= 6)
_NOT_EVEN = _ALL & ~_bits(t for t in range(27) if t % 9 in (1, 3, 5, 7))
_TERMINAL_CHOWS = tuple(_bits((s, s + 1, s + 2, s + 6, s + 7, s + 8)) for s in (0, 9, 18))
_PURE_TERMINAL = tuple(m | 1 << (s + 4) for m, s in zip(_TERMINAL_CHOWS, (0, 9, 18),
                                                        strict=True))
_KNITTED_BITS = tuple(_bits(k) for k in _KNITTED)
_PERMS = tuple(permutations((0, 1, 2)))
_KONG_FAN = {(1, 0): 1, (0, 1): 2, (2, 0): 4, (1, 1): 5, (0, 2): 6}
_CONCEALED_PUNGS = (0, 0, 2, 16, 64)


def _chow_families(m1: int, m2: int, m3: int, m4: int) -> int:
    """Upper bound of the chow-combination fans (chow_fans: a family of four alone, or a
    family of three + one pair fan, or at most three 1-fan pair fans)."""
    four = 0
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
          or m1 & m1 >> 1 & m1 >> 2 & m1 >> 3 & m1 >> 4 & m1 >> 5 & m1 >> 6 & m1 >> 7
          & m1 >> 8 & _S0):
        three = 16  # 一色三步高, 清龙
    else:
        ch = m1 & m1 >> 1 & m1 >> 2 & _S6
        c0, c1, c2 = ch & 0x7F, ch >> 9 & 0x7F, ch >> 18 & 0x7F
        if c0 and c1 and c2:
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
    return max(four, three + 1 if three else 0, 3)


def _pung_families(pt: int) -> int:
    """Upper bound of the pung-combination fans over the tiles that may be pungs."""
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
    else:
        ps = (p0, p1, p2)
        if any(ps[a] & ps[b] >> 1 & ps[c] >> 2 for a, b, c in _PERMS):
            three = 8  # 三色三节高
    double = bool(p0 & p1 or p0 & p2 or p1 & p2)
    pair = 6 if dragons >= 2 else 2 if double else 0
    pairs = (6 if dragons >= 2 else 0) + (4 if double else 0)
    return max(four, three + pair if three else 0, pairs)


def upper_bound(h: _Hand) -> int:
    """An upper bound of the total fan of ``h`` (flowers excluded), or :data:`NO_BOUND`."""
    fixed = h.fixed
    m1, m2, m3, m4 = h.masks()
    if not fixed:
        if m1 & _ORPHANS == _ORPHANS or not m2 or _nine_gates(h) is not None:
            return NO_BOUND  # 十三幺, 全不靠 / 七星不靠, 九莲宝灯
        ms1, ms2, ms3, ms4 = m1, m2, m3, m4
    else:
        ms1, ms2, ms3, ms4 = masks(h.standing_counts)
    if len(fixed) <= 1 and any(k & ms1 == k for k in _KNITTED_BITS):
        return NO_BOUND  # 组合龙
    base = _total(h.base()[0])
    special = 0
    if not fixed and not ms1 & ~ms2 and not ms3 & ~ms4:  # every count even: 七对
        shifted = m2 & m2 >> 1 & m2 >> 2 & m2 >> 3 & m2 >> 4 & m2 >> 5 & m2 >> 6 & _S2
        special = base + (88 if shifted else 24)

    mk = ck = fixed_chows = 0
    pt = ms3  # tiles that may be pungs or kongs
    for kind, t, claimed in fixed:
        if kind == CHOW:
            fixed_chows += 1
        else:
            pt |= 1 << t
            if kind == KONG:
                if claimed:
                    mk += 1
                else:
                    ck += 1
    kongs = mk + ck
    dep = 88 if kongs == 4 else 32 if kongs == 3 else _KONG_FAN.get((mk, ck), 0)
    dep += _CONCEALED_PUNGS[min(4, ck + min(ms3.bit_count(), 4 - len(fixed)))]
    if not fixed_chows and not ms1 & ~ms2 and not ms4:
        dep += 6  # 碰碰和: no single tile and no four left for chows
    dep += 2 * (pt & _DRAGON).bit_count() + (pt & _TERM_WIND).bit_count()
    if 1 << h.fl.prevalent & pt:
        dep += 2
    if 1 << h.fl.seat & pt:
        dep += 2
    dep += _chow_families(m1, m2, m3, m4)
    dep += _pung_families(pt)
    if any(m2 & k == k for k in _PURE_TERMINAL):
        dep += 64  # 一色双龙会
    t0, t1, t2 = (m1 & k == k for k in _TERMINAL_CHOWS)
    if (t0 and t1 and m2 >> 22 & 1) or (t0 and t2 and m2 >> 13 & 1) \
            or (t1 and t2 and m2 >> 4 & 1):
        dep += 16  # 三色双龙会
    if fixed_chows == len(fixed):
        dep += 2  # 平和
    if (pt & _DRAGON).bit_count() >= 2 and m2 & _DRAGON == _DRAGON:
        dep += 64  # 小三元
    if (pt & _WIND).bit_count() >= 3 and m2 & _WIND == _WIND:
        dep += 64  # 小四喜
    dep += max(0 if m1 & _NOT_FIVES else 16,  # 全带五
               0 if m1 & _NOT_EVEN or fixed_chows else 24,  # 全双刻
               0 if m1 & _NOT_OUTSIDE else 4)  # 全带幺
    dep += 1  # 边张 / 坎张 / 单钓将
    return max(base + dep, special, 8)
