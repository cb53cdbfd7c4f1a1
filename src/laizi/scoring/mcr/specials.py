"""The special shapes in the fast calculator: 七对 / 连七对, 十三幺, 全不靠 / 七星不靠,
组合龙 with a set and a pair, 九莲宝灯 (:mod:`.reference` has them plainly).

:func:`score_specials` scores a hand that has no sets-and-pair reading; the others are
called by :func:`.calculator.score_prepared` when the tiles' code allows the shape.
"""

from __future__ import annotations

from typing import Final

from .common import (
    KIND,
    KNITTED,
    KNITTED_BITS,
    Considered,
    FanTable,
    Scored,
    Sources,
    total,
    win_fans,
)
from .exclusions import exclude, exclude_situational, wait_fans, wind_fans
from .groups import hand_readings, tile_code, tile_fans_of
from .masks import bits, presence, tile_fans
from .prepared import SINGLE_PUNG, Prepared, held_four, hog_fans, tiles_of
from .shapes import BY_ORDER, CHOW, KONG, PACK_TILES, PAIR, Pack, basic_waits

__all__ = ["knitted_scored", "nine_gates_scored", "score_specials", "special_scored"]

_ORPHAN_BITS: Final = bits((0, 8, 9, 17, 18, 26, *range(27, 34)))
_SUITED_BITS: Final = bits(range(27))


_Knitted = tuple[FanTable, Sources, tuple[Pack, ...], tuple[int, ...]]


def _knitted_straight(h: Prepared) -> _Knitted | None:
    """组合龙 + one set + a pair (at most one set claimed or kong)."""
    b = h.counts
    m1 = presence(b)
    seq = next((s for s, k in zip(KNITTED, KNITTED_BITS, strict=True) if m1 & k == k),
               None)
    if seq is None:
        return None
    c = bytearray(b)
    for t in seq:
        c[t] -= 1
    if h.fixed:
        if c.count(2) != 1 or sum(c) != 2:
            return None
        meld: Pack = h.fixed[0]
        pair: Pack = (PAIR, c.find(2), False)
    else:
        found = hand_readings(bytes(c))
        if len(found) != 1:
            return None
        meld, pair = found[0][0][0], (PAIR, found[0][1], False)
    fl = h.fl
    ft: FanTable = {"knitted_straight": 1}
    src: Sources = {"knitted_straight": [seq]}
    if meld[0] == CHOW:
        if pair[1] < 27:
            ft["all_chows"] = 1
    else:
        _one_pung(meld, ft, src)
    win_fans(fl, ft)
    if not h.fixed or (meld[0] == KONG and not meld[2]):
        ft["fully_concealed_hand" if fl.self_drawn else "concealed_hand"] = 1
    # The tile fans of the whole hand (straight, set or meld, pair): of a knitted hand
    # only 无字, 五门齐 and 四归一 can be.
    ml = h.melds
    ft.update(tile_fans_of(tile_code(m1 | ml.bits)))
    fours = held_four(b, ml)
    if fours:
        hog_fans(ft, src, fours, h.fixed)
    if not h.fixed:
        win = h.win
        # The reference reads the wait from the first four tiles left in search order
        # (the winning tile may sit in the knitted straight: it then counts as well).
        if c[win]:
            c[win] -= 1
        left = bytearray(34)
        n = 0
        for t in BY_ORDER:
            k = c[t]
            if k:
                k = min(k, 4 - n)
                left[t] = k
                n += k
                if n == 4:
                    break
        key = bytes(left)
        single = _KNIT_WAITS.get(key)
        if single is None:
            if len(_KNIT_WAITS) >= _KNIT_WAITS_MAX:
                _KNIT_WAITS.clear()
            single = _KNIT_WAITS[key] = len(basic_waits(tuple(left))) == 1
        if single and "melded_hand" not in ft and "four_kongs" not in ft:
            wait_fans((meld,) if meld[0] == CHOW else (), pair[1], win, ft, src)
    elif b[h.win] > 1:
        ft["single_wait"] = 1
        src["single_wait"] = [PACK_TILES[pair]]
    exclude(ft)
    if 27 <= meld[1] <= 30:
        wind_fans([meld], fl, ft, src)
    return ft, src, (meld, pair), seq


_KNIT_WAITS: Final[dict[bytes, bool]] = {}
"""Whether four tiles (counts as bytes) wait on one tile only: the wait of a knitted
straight's set and pair; kept bounded."""
_KNIT_WAITS_MAX: Final = 1 << 14



def _one_pung(p: Pack, ft: FanTable, src: Sources) -> None:
    """The fans of a single pung or kong (beside a knitted straight)."""
    kind, t, claimed = p
    tiles = PACK_TILES[p]
    key = SINGLE_PUNG[t]
    if key:
        ft[key] = 1
        src[key] = [tiles]
    if kind == KONG:
        key = "melded_kong" if claimed else "concealed_kong"
        ft[key] = 1
        src[key] = [tiles]


def _nine_gates(h: Prepared) -> FanTable | None:
    """九莲宝灯: 1112345678999 of one suit concealed plus any tile of it.

    The hand is not read into sets; the sets it necessarily holds are fixed by the
    winning tile (清龙 + 四归一 on a 1 or 9, 双暗刻 + 幺九刻 on 2 5 8, 连六 on 2-4 6-8).
    """
    win = h.win
    if win >= 27:
        return None
    s = win - win % 9
    if h.standing[s:s + 9] != (3, 1, 1, 1, 1, 1, 1, 1, 3) or sum(h.standing) != 13:
        return None
    ft: FanTable = {"nine_gates": 1}
    r = win % 9 + 1
    if r in (1, 9):
        ft.update(pure_straight=1, tile_hog=1)
    if r in (2, 5, 8):
        ft.update(two_concealed_pungs=1, pung_of_terminals_or_honours=1)
    if r in (2, 3, 4, 6, 7, 8):
        ft["short_straight"] = 1
    win_fans(h.fl, ft)
    exclude_situational(ft)
    return ft


def _special(h: Prepared) -> tuple[FanTable, str] | None:
    """七对 / 连七对, 十三幺, 全不靠 / 七星不靠 (fully concealed hands only)."""
    m1, m2, m3, m4 = h.masks()
    pairs = not m1 & ~m2 and not m3 & ~m4  # every count even
    if not pairs and m2 and m1 != _ORPHAN_BITS:
        return None  # neither seven pairs, nor thirteen orphans, nor all single tiles
    ft: FanTable = {}
    if pairs:
        shape = "seven_pairs"
        low = (m1 & -m1).bit_length() - 1
        if not m4 and low < 27 and m1 == 0x7F << low and low % 9 <= 2:
            ft["seven_shifted_pairs"] = 1
            tile_fans(m1, m4, 0, ft, {})
            for key in ("no_honours", "full_flush", "one_voided_suit", "lower_four",
                        "lower_tiles", "upper_four", "upper_tiles", "middle_tiles"):
                ft.pop(key, None)  # 连七对 takes only the tile traits (断幺, 推不倒, …)
        else:
            ft["seven_pairs"] = 1
            # (tile_fans(m1, m4, 0, ft, {}) from the tables: the same fans, and the
            # sources of a seven-pairs hand are not kept)
            ft.update(tile_fans_of(tile_code(m1)))
            if m4:
                ft["tile_hog"] = m4.bit_count()
    elif m1 == _ORPHAN_BITS:
        ft["thirteen_orphans"] = 1
        shape = "thirteen_orphans"
    else:  # 14 single tiles
        suited = m1 & _SUITED_BITS
        n = suited.bit_count()
        if not 7 <= n <= 9 or not any(suited & ~k == 0 for k in KNITTED_BITS):
            return None
        if n == 7:
            ft["greater_honours_and_knitted"] = 1
        else:
            ft["lesser_honours_and_knitted"] = 1
            if n == 9:
                ft["knitted_straight"] = 1
        shape = "honours_and_knitted"
    win_fans(h.fl, ft)
    if "seven_pairs" in ft:
        exclude(ft)
    else:
        exclude_situational(ft)
    return ft, shape


def _trace_special(c: tuple[int, ...], shape: str) -> Considered:
    if shape == "seven_pairs":
        return shape, tuple(("pair", (t, t)) for t in range(34) for _ in range(c[t] // 2))
    if shape == "thirteen_orphans":
        pair = next(t for t in range(34) if c[t] == 2)
        return shape, (("singles", tuple(t for t in range(34) if c[t] == 1)),
                       ("pair", (pair, pair)))
    return shape, (("singles", tiles_of(c)),)


def special_scored(h: Prepared, trace: list[Considered] | None) -> Scored | None:
    sp = _special(h)
    if sp is None:
        return None
    ft, shape = sp
    if trace is not None:
        trace.append(_trace_special(h.standing_counts, shape))
    return tuple.__new__(Scored, (total(ft), ft, {}, shape, (h.sorted_tiles(),)))


def knitted_scored(h: Prepared, trace: list[Considered] | None) -> Scored | None:
    ks = _knitted_straight(h)
    if ks is None:
        return None
    ft, src, rest, seq = ks
    if trace is not None:
        trace.append(("knitted_straight", (("knitted", seq), *(
            (KIND[p[0]], PACK_TILES[p]) for p in rest if p not in h.fixed))))
    return tuple.__new__(Scored, (total(ft), ft, src, "knitted_straight",
                                  (seq, *(PACK_TILES[p] for p in rest))))


def nine_gates_scored(h: Prepared, trace: list[Considered] | None) -> Scored | None:
    ng = _nine_gates(h)
    if ng is None:
        return None
    if trace is not None:
        trace.append(("nine_gates", ()))
    return tuple.__new__(Scored, (total(ng), ng, {}, "nine_gates", (h.sorted_tiles(),)))


def score_specials(h: Prepared, trace: list[Considered] | None) -> Scored | None:
    """A hand without a sets-and-pair reading: only a special shape can make it a win."""
    fixed = h.fixed
    best = None
    if not fixed:
        best = special_scored(h, trace)
    if best is None and len(fixed) <= 1:
        best = knitted_scored(h, trace)
    if best is None and not fixed:
        best = nine_gates_scored(h, trace)
    return best
