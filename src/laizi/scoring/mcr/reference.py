"""The reference MCR calculator: one concrete hand (no golden tiles), every reading tried,
the best kept, written to be read and checked rather than to be fast.

:mod:`.calculator` computes exactly the same (``tests/test_fan_fast.py`` holds the two
to each other on random hands; both agree with PyMahjongGB); ``score_hand(...,
slow=True)`` scores through this module.

The pipeline for a reading of four sets and a pair follows the MCR rulebook as the
reference calculator (PyMahjongGB / ChineseOfficialMahjongHelper) applies it:

1. situational fans from the win context (自摸, 和绝张, 妙手回春, 海底捞月, 杠上开花, 抢杠和);
2. a pung completed by a discarded winning tile counts as exposed (明刻) unless that
   tile can also be read into a concealed chow;
3. kong and concealed-pung fans, single-pung fans (箭刻, 幺九刻);
4. set-combination fans (:mod:`.combos`: 套算一次, 不得相同);
5. 九莲宝灯; 不求人 / 门前清 / 全求人; pair-dependent fans (平和, 小三元, 小四喜);
   set traits (全带幺, 全带五, 全双刻); suits; tile traits; number ranges; 四归一;
6. 边张 / 坎张 / 单钓将, only when the hand waited on exactly one tile;
7. 不计: each fan present, largest first, removes the fans it implies (:data:`FANS`);
8. 圈风刻 / 门风刻 (their pungs stop being 幺九刻); 无番和 when nothing else counted.

Special shapes (七对, 十三幺, 全不靠, 七星不靠, 组合龙 + a set + a pair) are tried as well,
and seven pairs is also read as sets when it can be (就高不就低).
"""

from __future__ import annotations

from .combos import chow_fans, pung_fans
from .common import (
    KIND,
    KNITTED,
    KNITTED_BITS,
    Considered,
    FanTable,
    Flags,
    Scored,
    Sources,
    flag_fans,
    total,
    win_fans,
)
from .masks import bits, masks, tile_fans
from .reference_fans import (
    DRAGONS,
    ORPHANS,
    WINDS,
    add_fan,
    combo_fans,
    exclude,
    is_pure_terminal,
    is_three_suited_terminal,
    kong_fans,
    pack_trait_fans,
    rank_range_fans,
    suit_fans,
    tile_hog_fans,
    tile_trait_fans,
    wait_fans,
    wind_fans,
)
from .shapes import (
    BY_ORDER,
    CHOW,
    KONG,
    PAIR,
    PUNG,
    Pack,
    basic_waits,
    has_other_wait,
    pack_tiles,
    readings,
    seven_pairs_waits,
)

__all__ = ["ReferenceHand", "score_concrete", "score_prepared"]

_ORPHAN_BITS = bits(ORPHANS)
_SUITED_BITS = bits(range(27))

class ReferenceHand:
    """One concrete hand: fixed packs, standing tiles (without the winning tile).

    ``base`` / ``base_src`` hold the fans every sets-and-pair reading shares (they depend
    only on the tiles, the melds and the flags): situational fans, 门前清 / 不求人 / 全求人,
    suits, tile traits, number ranges and 四归一. ``waits`` are computed on first need.
    """

    __slots__ = ("_base", "_masks", "_waits", "fixed", "fl", "standing", "standing_counts",
                 "win")

    def __init__(self, fixed: list[Pack], standing: tuple[int, ...], win: int,
                 fl: Flags) -> None:
        self.fixed = fixed
        self.standing = standing  # counts of the standing tiles, winning tile excluded
        self.win = win
        self.fl = fl
        c = list(standing)
        c[win] += 1
        self.standing_counts = tuple(c)
        self._waits: bool | None = None
        self._base: tuple[FanTable, Sources] | None = None
        self._masks: tuple[int, int, int, int] | None = None

    def single_wait(self) -> bool:
        """Whether the hand waited on its winning tile alone (seven pairs included when
        nothing is melded); only called once a reading has shown the hand complete."""
        if self._waits is None:
            win = self.win
            single = not has_other_wait(self.standing, win)
            if single and not self.fixed:
                single = seven_pairs_waits(self.standing) <= {win}
            self._waits = single
        return self._waits

    def masks(self) -> tuple[int, int, int, int]:
        """Masks of the tiles the whole hand (melds included) holds >= 1, 2, 3, 4 times."""
        if self._masks is None:
            if self.fixed:
                c = list(self.standing_counts)
                for p in self.fixed:
                    for t in pack_tiles(p):
                        c[t] += 1
                self._masks = masks(c)
            else:
                self._masks = masks(self.standing_counts)
        return self._masks

    def base(self) -> tuple[FanTable, Sources]:
        if self._base is None:
            claimed = sum(1 for p in self.fixed if p[2])
            ft = dict(flag_fans(self.fl, claimed))
            src: Sources = {}
            m1, _, _, m4 = self.masks()
            tile_fans(m1, m4, sum(1 for p in self.fixed if p[0] == KONG), ft, src)
            self._base = (ft, src)
        return self._base


def _basic(h: ReferenceHand, concealed: tuple[Pack, ...], seed_kongs: bool = False
           ) -> tuple[FanTable, Sources]:
    base, base_src = h.base()
    ft = dict(base)
    src = dict(base_src)  # the shared lists are never mutated: add_fan extends new keys only
    fl = h.fl
    packs = [*h.fixed, *concealed]
    chows = [p for p in packs if p[0] == CHOW]
    pungs = [p for p in packs if p[0] == PUNG or p[0] == KONG]
    pair = concealed[-1][1]
    win = h.win
    if not fl.self_drawn and not any(not m and t - 1 <= win <= t + 1 for _, t, m in chows):
        pungs = [(k, t, True) if t == win and not m else (k, t, m) for k, t, m in pungs]
    if pungs:
        kong_fans(pungs, ft, src, seed_kongs)
    nc = len(chows)
    if nc == 4 and is_three_suited_terminal(chows, pair):
        add_fan(ft, src, "three_suited_terminal_chows", *(pack_tiles(p) for p in packs))
    elif nc == 4 and is_pure_terminal(chows, pair):
        add_fan(ft, src, "pure_terminal_chows", *(pack_tiles(p) for p in packs))
    else:
        if nc >= 2:
            combo_fans(chows, chow_fans, ft, src)
        if len(pungs) >= 2:
            combo_fans(pungs, pung_fans, ft, src)
    if nc == 4:
        if pair < 27:
            ft["all_chows"] = 1
    elif ft.get("two_dragon_pungs"):
        if pair in DRAGONS:
            ft["little_three_dragons"] = 1
            src["little_three_dragons"] = [*src.pop("two_dragon_pungs", []), (pair, pair)]
            del ft["two_dragon_pungs"]
    elif ft.get("big_three_winds") and pair in WINDS:
        ft["little_four_winds"] = 1
        src["little_four_winds"] = [*src.pop("big_three_winds", []), (pair, pair)]
        del ft["big_three_winds"]
    pack_trait_fans(packs, ft)
    _wait_lazy(h, concealed, ft, src)
    exclude(ft)
    wind_fans(pungs, fl, ft, src)
    if not ft:
        ft["chicken_hand"] = 1
    return ft, src


def _wait_lazy(h: ReferenceHand, concealed: tuple[Pack, ...], ft: FanTable, src: Sources) -> None:
    """:func:`wait_fans` with the hand's waits computed only when a set could earn a wait fan."""
    if "melded_hand" in ft or "four_kongs" in ft:
        return  # 全求人 and 四杠 exclude the wait fans: no need for the waits
    win = h.win
    for kind, t, _ in concealed:
        if (kind == CHOW and t - 1 <= win <= t + 1) or (kind == PAIR and t == win):
            if h.single_wait():
                wait_fans(list(concealed), True, win, ft, src)
            return


_Knitted = tuple[FanTable, Sources, tuple[Pack, ...], tuple[int, ...]]


def _knitted_straight(h: ReferenceHand) -> _Knitted | None:
    """组合龙 + one set + a pair (at most one set claimed or kong)."""
    if len(h.fixed) > 1:
        return None
    m1 = h.masks()[0]  # with a meld: a superset of the concealed tiles, a quick filter
    if (m1 & _SUITED_BITS).bit_count() < 9:
        return None
    if h.fixed:
        m1 = masks(h.standing_counts)[0]
    seq = next((s for s, k in zip(KNITTED, KNITTED_BITS, strict=True) if m1 & k == k),
               None)
    if seq is None:
        return None
    c = list(h.standing_counts)
    for t in seq:
        c[t] -= 1
    if h.fixed:
        pairs = [t for t in range(34) if c[t] == 2]
        if len(pairs) != 1 or sum(c) != 2:
            return None
        rest: tuple[Pack, ...] = (h.fixed[0], (PAIR, pairs[0], False))
    else:
        found = readings(tuple(c))
        if len(found) != 1:
            return None
        rest = found[0]
    meld, pair = rest
    fl = h.fl
    ft: FanTable = {"knitted_straight": 1}
    src: Sources = {"knitted_straight": [seq]}
    if meld[0] == CHOW:
        if pair[1] < 27:
            ft["all_chows"] = 1
    else:
        kong_fans([meld], ft, src)
    win_fans(fl, ft)
    if not h.fixed or (meld[0] == KONG and not meld[2]):
        ft["fully_concealed_hand" if fl.self_drawn else "concealed_hand"] = 1
    tiles = [*seq, *pack_tiles(meld), *pack_tiles(pair)]
    suit_fans(tiles, ft)
    tile_hog_fans(tiles, ft, src)
    if not h.fixed:
        c[h.win] -= 1
        # The reference reads the wait from the first four tiles left in search order
        # (the winning tile may sit in the knitted straight: it then counts as well).
        left = [t for t in BY_ORDER for _ in range(max(c[t], 0))][:4]
        lc = [0] * 34
        for t in left:
            lc[t] += 1
        wait_fans([meld, pair], basic_waits(tuple(lc)), h.win, ft, src)
    elif h.standing_counts[h.win] > 1:
        ft["single_wait"] = 1
        src["single_wait"] = [pack_tiles(pair)]
    exclude(ft)
    if meld[1] in WINDS:
        wind_fans([meld], fl, ft, src)
    return ft, src, (meld, pair), seq


def _nine_gates(h: ReferenceHand) -> FanTable | None:
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
    _exclude_situational(ft)
    return ft


def _exclude_situational(ft: FanTable) -> None:
    for key in ("last_tile_draw", "out_with_replacement_tile"):
        if ft.get(key):
            ft.pop("self_drawn", None)
    if ft.get("robbing_the_kong"):
        ft.pop("last_tile", None)


def _special(h: ReferenceHand) -> tuple[FanTable, str] | None:
    """七对 / 连七对, 十三幺, 全不靠 / 七星不靠 (fully concealed hands only)."""
    m1, m2, m3, m4 = h.masks()
    pairs = not m1 & ~m2 and not m3 & ~m4  # every count even
    if not pairs and m2 and m1 != _ORPHAN_BITS:
        return None  # neither seven pairs, nor thirteen orphans, nor all single tiles
    c = h.standing_counts
    tiles = [t for t in range(34) for _ in range(c[t])]
    ft: FanTable = {}
    shape = ""
    if pairs:
        present = [t for t in range(34) if c[t]]
        if all(n == 2 for n in (c[t] for t in present)) and len(present) == 7 \
                and present[0] < 27 and present[-1] - present[0] == 6 \
                and present[0] // 9 == present[-1] // 9:
            ft["seven_shifted_pairs"] = 1
            tile_trait_fans(tiles, ft)
        else:
            ft["seven_pairs"] = 1
            suit_fans(tiles, ft)
            tile_trait_fans(tiles, ft)
            rank_range_fans(tiles, ft)
            tile_hog_fans(tiles, ft, {})
        shape = "seven_pairs"
    elif all(t in ORPHANS for t in tiles) and all(c[t] for t in ORPHANS):
        ft["thirteen_orphans"] = 1
        shape = "thirteen_orphans"
    elif max(c) > 1:
        return None
    else:
        suited = [t for t in tiles if t < 27]
        honours = [t for t in tiles if t >= 27]
        if not 7 <= len(suited) <= 9 or max(c) > 1:
            return None
        if not any(set(suited) <= set(s) for s in KNITTED):
            return None
        if len(suited) == 7:
            ft["greater_honours_and_knitted"] = 1
        else:
            ft["lesser_honours_and_knitted"] = 1
            if len(suited) == 9:
                ft["knitted_straight"] = 1
        del honours
        shape = "honours_and_knitted"
    win_fans(h.fl, ft)
    if shape == "seven_pairs" and "seven_pairs" in ft:
        exclude(ft)
    else:
        _exclude_situational(ft)
    return ft, shape


def score_concrete(fixed: list[Pack], standing: tuple[int, ...], win: int,
                   fl: Flags, seed_kongs: bool = False) -> Scored | None:
    """Best score of a concrete hand, or ``None`` when it is not a winning hand.

    ``standing`` are the counts of the concealed tiles *without* the winning tile.
    Special shapes are tried first; sets-and-pair readings are tried when none applies
    or when the hand is seven pairs. Between readings of equal value the first in
    search order is kept, except that one with 一色三同顺 or 三同刻 (or any reading of a
    seven-pairs hand) replaces an earlier equal one, as the reference calculator does.
    """
    return score_prepared(ReferenceHand(fixed, standing, win, fl), seed_kongs=seed_kongs)




def _trace_special(c: tuple[int, ...], shape: str) -> Considered:
    tiles = tuple(t for t in range(34) for _ in range(c[t]))
    if shape == "seven_pairs":
        return shape, tuple(("pair", (t, t)) for t in range(34) for _ in range(c[t] // 2))
    if shape == "thirteen_orphans":
        pair = next(t for t in range(34) if c[t] == 2)
        return shape, (("singles", tuple(t for t in range(34) if c[t] == 1)),
                       ("pair", (pair, pair)))
    return shape, (("singles", tiles),)


def score_prepared(h: ReferenceHand, trace: list[Considered] | None = None,
                   seed_kongs: bool = False) -> Scored | None:
    """:func:`score_concrete` of a hand already prepared (golden.py builds the
    :class:`ReferenceHand` once to bound its total first). ``trace``, when given, receives
    every reading tried (tests compare it with :func:`laizi.analysis.decompositions`)."""
    fixed = h.fixed
    best: Scored | None = None
    seven_pairs = False
    if not fixed:
        sp = _special(h)
        if sp is not None:
            ft, shape = sp
            tiles = tuple(t for t in range(34) for _ in range(h.standing_counts[t]))
            best = Scored(total(ft), ft, {}, shape, (tiles,))
            seven_pairs = shape == "seven_pairs"
            if trace is not None:
                trace.append(_trace_special(h.standing_counts, shape))
    if best is None and len(fixed) <= 1:
        ks = _knitted_straight(h)
        if ks is not None:
            ft, src, rest, seq = ks
            best = Scored(total(ft), ft, src, "knitted_straight",
                          (seq, *(pack_tiles(p) for p in rest)))
            if trace is not None:
                trace.append(("knitted_straight", (("knitted", seq), *(
                    (KIND[p[0]], pack_tiles(p)) for p in rest if p not in fixed))))
    if best is None and not fixed:
        ng = _nine_gates(h)
        if ng is not None:
            tiles = tuple(t for t in range(34) for _ in range(h.standing_counts[t]))
            best = Scored(total(ng), ng, {}, "nine_gates", (tiles,))
            if trace is not None:
                trace.append(("nine_gates", ()))
    if best is None or seven_pairs:
        for reading in readings(h.standing_counts):
            if trace is not None:
                trace.append(("standard", tuple((KIND[p[0]], pack_tiles(p))
                                                for p in reading)))
            ft, src = _basic(h, reading, seed_kongs)
            value = total(ft)
            if best is None or value > best.total or (value == best.total and (
                    seven_pairs or ft.get("pure_triple_chow") or ft.get("triple_pung"))):
                best = Scored(value, ft, src, "standard",
                              tuple(pack_tiles(p) for p in (*fixed, *reading)))
    return best
