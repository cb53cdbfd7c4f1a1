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

from collections.abc import Callable

from .combos import Combo, chow_fans, pung_fans
from .common import (
    KIND,
    KNITTED,
    KNITTED_BITS,
    VALUE,
    Considered,
    FanTable,
    Flags,
    Scored,
    Sources,
    flag_fans,
    total,
    win_fans,
)
from .fans import FANS
from .masks import bits, masks, tile_fans
from .shapes import (
    ALL_PACKS,
    BY_ORDER,
    CHOW,
    KONG,
    ORDER,
    PAIR,
    PUNG,
    Pack,
    basic_waits,
    has_other_wait,
    pack_tiles,
    readings,
    seven_pairs_waits,
)

__all__ = ["Considered", "Flags", "Scored", "flag_fans", "score_concrete", "score_prepared"]

_WINDS = frozenset(range(27, 31))
_DRAGONS = frozenset(range(31, 34))
_TERMINALS = frozenset({0, 8, 9, 17, 18, 26})
_ORPHANS = frozenset(_TERMINALS | _WINDS | _DRAGONS)
_GREEN = frozenset({19, 20, 21, 23, 25, 32})  # 23468条 发
_REVERSIBLE = frozenset({9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31})
_KNITTED = KNITTED
_KNITTED_BITS = KNITTED_BITS
_ORPHAN_BITS = bits(_ORPHANS)
_SUITED_BITS = bits(range(27))
_EXCLUSIONS = tuple((f.key, f.excludes) for f in FANS if f.excludes
                    or f.key in ("nine_gates", "four_concealed_pungs", "big_three_winds"))
_EXCLUDES = dict(_EXCLUSIONS)
_RANK = {key: i for i, (key, _) in enumerate(_EXCLUSIONS)}
_VALUE = VALUE


def _add(ft: FanTable, src: Sources, key: str, *groups: tuple[int, ...]) -> None:
    ft[key] = ft.get(key, 0) + 1
    if groups:
        src.setdefault(key, []).extend(groups)


_win_flags = win_fans


def _kongs(pungs: list[Pack], ft: FanTable, src: Sources, seed: bool = False) -> None:
    """Kong fans, concealed-pung fans, 碰碰和 and the single-pung fans (``seed``: one
    concealed and one melded kong are 暗杠 + 明杠, as the seed's table has no 明暗杠)."""
    mk = ck = cp = 0
    concealed_sets = []
    kong_sets = []
    for p in pungs:
        kind, t, claimed = p
        tiles = pack_tiles(p)
        if kind == KONG:
            kong_sets.append(tiles)
            if claimed:
                mk += 1
            else:
                ck += 1
        elif not claimed:
            cp += 1
        if not claimed:
            concealed_sets.append(tiles)
        if t in _DRAGONS:
            _add(ft, src, "dragon_pung", tiles)
        elif t in _TERM_WIND:
            _add(ft, src, "pung_of_terminals_or_honours", tiles)
    kongs = mk + ck
    hidden = ck + cp  # concealed pungs and kongs
    if kongs == 1:
        _add(ft, src, "melded_kong" if mk else "concealed_kong", *kong_sets)
    elif kongs == 2 and ck == 1 and seed:
        for p in pungs:
            if p[0] == KONG:
                _add(ft, src, "melded_kong" if p[2] else "concealed_kong", pack_tiles(p))
    elif kongs == 2:
        key = ("two_melded_kongs", "concealed_and_melded_kong", "two_concealed_kongs")[ck]
        _add(ft, src, key, *kong_sets)
    elif kongs == 3:
        _add(ft, src, "three_kongs", *kong_sets)
    elif kongs == 4:
        _add(ft, src, "four_kongs", *kong_sets)
    if kongs == 2 and ck == 2 and cp == 0:
        hidden = 0  # 双暗杠 already holds the two concealed sets
    if hidden >= 2:
        _add(ft, src, _HIDDEN[hidden], *concealed_sets)
    if len(pungs) == 4 and kongs < 4 and hidden < 4:
        _add(ft, src, "all_pungs", *(pack_tiles(p) for p in pungs))


_HIDDEN = ("", "", "two_concealed_pungs", "three_concealed_pungs", "four_concealed_pungs")
_TERM_WIND = _TERMINALS | _WINDS


_PACK_ORDER = {p: ORDER[p[1]] for p in ALL_PACKS}


_COMBO_TABLES: dict[object, dict[tuple[int, ...], Combo]] = {chow_fans: {}, pung_fans: {}}
"""Set-combination fans by the sets' tiles (in search order), filled on first use: a
table over a bounded domain (at most a few tens of thousands of set tuples)."""


def _combos(packs: list[Pack], finder: Callable[[list[int]], Combo], ft: FanTable,
            src: Sources) -> None:
    ordered = sorted(packs, key=_PACK_ORDER.__getitem__)
    mids = tuple([p[1] for p in ordered])
    table = _COMBO_TABLES[finder]
    found = table.get(mids)
    if found is None:
        found = table[mids] = finder(list(mids))
    for key, idx in found:
        _add(ft, src, key, *(pack_tiles(ordered[i]) for i in idx))


def _pure_terminal(chows: list[Pack], pair: int) -> bool:
    if pair >= 27 or pair % 9 != 4:
        return False
    ranks = sorted(t % 9 + 1 for _, t, _ in chows)
    return all(t // 9 == pair // 9 for _, t, _ in chows) and ranks == [2, 2, 8, 8]


def _three_suited_terminal(chows: list[Pack], pair: int) -> bool:
    if pair >= 27 or pair % 9 != 4:
        return False
    others = sorted((t // 9, t % 9 + 1) for _, t, _ in chows)
    suits = sorted({0, 1, 2} - {pair // 9})
    return others == [(suits[0], 2), (suits[0], 8), (suits[1], 2), (suits[1], 8)]


def _suits(tiles: list[int], ft: FanTable) -> None:
    present = {t // 9 for t in tiles}  # 3 = honours
    if 3 not in present:
        ft["no_honours"] = 1
    voided = sum(1 for s in (0, 1, 2) if s not in present)
    if voided == 2:
        ft["half_flush" if 3 in present else "full_flush"] = 1
    elif voided:
        ft["one_voided_suit"] = voided
    if len(present) == 4 and any(t in _WINDS for t in tiles) \
            and any(t in _DRAGONS for t in tiles):
        ft["all_types"] = 1


def _tile_traits(tiles: list[int], ft: FanTable) -> None:
    if not any(t in _ORPHANS for t in tiles):
        ft["all_simples"] = 1
    if all(t in _REVERSIBLE for t in tiles):
        ft["reversible_tiles"] = 1
    if all(t in _GREEN for t in tiles):
        ft["all_green"] = 1
    if ft.get("all_simples"):
        return
    if all(t >= 27 for t in tiles):
        ft["all_honours"] = 1
    elif all(t in _TERMINALS for t in tiles):
        ft["all_terminals"] = 1
    elif all(t in _ORPHANS for t in tiles):
        ft["all_terminals_and_honours"] = 1


def _rank_range(tiles: list[int], ft: FanTable) -> None:
    if any(t >= 27 for t in tiles):
        return
    ranks = {t % 9 + 1 for t in tiles}
    if ranks <= {1, 2, 3, 4}:
        ft["lower_four" if 4 in ranks else "lower_tiles"] = 1
    elif ranks <= {6, 7, 8, 9}:
        ft["upper_four" if 6 in ranks else "upper_tiles"] = 1
    elif ranks <= {4, 5, 6}:
        ft["middle_tiles"] = 1


def _tile_hog(tiles: list[int], ft: FanTable, src: Sources) -> None:
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    fours = [t for t in range(34) if counts[t] == 4]
    n = len(fours) - (len(tiles) - 14)
    if n > 0:
        ft["tile_hog"] = n
        src["tile_hog"] = [(t,) * 4 for t in fours]


def _pack_traits(packs: list[Pack], ft: FanTable) -> None:
    terminal = honour = five = even = 0
    for kind, t, _ in packs:
        if t >= 27:
            honour += 1
            continue
        r = t % 9 + 1
        if kind == CHOW:
            terminal += r in (2, 8)
            five += r in (4, 5, 6)
        else:
            terminal += r in (1, 9)
            five += r == 5
            even += r in (2, 4, 6, 8)
    if terminal + honour == 5:
        ft["outside_hand"] = 1
    elif five == 5:
        ft["all_fives"] = 1
    elif even == 5:
        ft["all_even_pungs"] = 1


def _wait(concealed: list[Pack], waits: frozenset[int] | bool, win: int, ft: FanTable,
          src: Sources) -> None:
    """边张 / 坎张 / 单钓将 when the hand waited on ``win`` alone (``waits``: the hand's
    waits, or whether ``win`` was its only wait)."""
    if (waits is not True and (waits is False or len(waits) != 1)) \
            or ft.get("melded_hand") or ft.get("four_kongs"):
        return
    edge = closed = single = None
    for p in concealed:
        kind, t, _ = p
        if kind == CHOW:
            if t == win:
                closed = p
            elif t + 1 == win or t - 1 == win:
                edge = p
        elif kind == PAIR and t == win:
            single = p
    for key, found in (("edge_wait", edge), ("closed_wait", closed),
                       ("single_wait", single)):
        if found is not None:
            ft[key] = 1
            src[key] = [pack_tiles(found)]
            return


def _exclude(ft: FanTable) -> None:
    """不计: in table order, every fan still present removes what it implies."""
    present = [k for k in ft if k in _RANK]
    if len(present) > 1:
        present.sort(key=_RANK.__getitem__)
    for key in present:
        if not ft.get(key):
            continue
        for e in _EXCLUDES[key]:
            ft.pop(e, None)
        if key in ("nine_gates", "four_concealed_pungs"):
            if key == "nine_gates":
                # The 1s or 9s pung is part of the nine gates.
                _dec(ft, "pung_of_terminals_or_honours", 1)
            if ft.pop("fully_concealed_hand", None):
                ft["self_drawn"] = 1
        elif key == "big_three_winds" and not ft.get("all_honours") \
                and not ft.get("all_terminals_and_honours"):
            _dec(ft, "pung_of_terminals_or_honours", 3)


def _dec(ft: FanTable, key: str, n: int) -> None:
    left = ft.get(key, 0) - n
    if left > 0:
        ft[key] = left
    else:
        ft.pop(key, None)


def _winds(pungs: list[Pack], fl: Flags, ft: FanTable, src: Sources) -> None:
    if "big_four_winds" in ft or not any(p[1] in _WINDS for p in pungs):
        return
    deducted = any(ft.get(k) for k in ("big_three_winds", "all_terminals_and_honours",
                                       "all_honours", "little_four_winds"))
    for p in pungs:
        t = p[1]
        if t not in _WINDS:
            continue
        if t == fl.prevalent:
            ft["prevalent_wind"] = 1
            src["prevalent_wind"] = [pack_tiles(p)]
            if not deducted:
                _dec(ft, "pung_of_terminals_or_honours", 1)
        if t == fl.seat:
            ft["seat_wind"] = 1
            src["seat_wind"] = [pack_tiles(p)]
            if fl.seat != fl.prevalent and not deducted:
                _dec(ft, "pung_of_terminals_or_honours", 1)


_total = total


class _Hand:
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


def _basic(h: _Hand, concealed: tuple[Pack, ...], seed_kongs: bool = False
           ) -> tuple[FanTable, Sources]:
    base, base_src = h.base()
    ft = dict(base)
    src = dict(base_src)  # the shared lists are never mutated: _add extends new keys only
    fl = h.fl
    packs = [*h.fixed, *concealed]
    chows = [p for p in packs if p[0] == CHOW]
    pungs = [p for p in packs if p[0] == PUNG or p[0] == KONG]
    pair = concealed[-1][1]
    win = h.win
    if not fl.self_drawn and not any(not m and t - 1 <= win <= t + 1 for _, t, m in chows):
        pungs = [(k, t, True) if t == win and not m else (k, t, m) for k, t, m in pungs]
    if pungs:
        _kongs(pungs, ft, src, seed_kongs)
    nc = len(chows)
    if nc == 4 and _three_suited_terminal(chows, pair):
        _add(ft, src, "three_suited_terminal_chows", *(pack_tiles(p) for p in packs))
    elif nc == 4 and _pure_terminal(chows, pair):
        _add(ft, src, "pure_terminal_chows", *(pack_tiles(p) for p in packs))
    else:
        if nc >= 2:
            _combos(chows, chow_fans, ft, src)
        if len(pungs) >= 2:
            _combos(pungs, pung_fans, ft, src)
    if nc == 4:
        if pair < 27:
            ft["all_chows"] = 1
    elif ft.get("two_dragon_pungs"):
        if pair in _DRAGONS:
            ft["little_three_dragons"] = 1
            src["little_three_dragons"] = [*src.pop("two_dragon_pungs", []), (pair, pair)]
            del ft["two_dragon_pungs"]
    elif ft.get("big_three_winds") and pair in _WINDS:
        ft["little_four_winds"] = 1
        src["little_four_winds"] = [*src.pop("big_three_winds", []), (pair, pair)]
        del ft["big_three_winds"]
    _pack_traits(packs, ft)
    _wait_lazy(h, concealed, ft, src)
    _exclude(ft)
    _winds(pungs, fl, ft, src)
    if not ft:
        ft["chicken_hand"] = 1
    return ft, src


def _wait_lazy(h: _Hand, concealed: tuple[Pack, ...], ft: FanTable, src: Sources) -> None:
    """:func:`_wait` with the hand's waits computed only when a set could earn a wait fan."""
    if "melded_hand" in ft or "four_kongs" in ft:
        return  # 全求人 and 四杠 exclude the wait fans: no need for the waits
    win = h.win
    for kind, t, _ in concealed:
        if (kind == CHOW and t - 1 <= win <= t + 1) or (kind == PAIR and t == win):
            if h.single_wait():
                _wait(list(concealed), True, win, ft, src)
            return


_Knitted = tuple[FanTable, Sources, tuple[Pack, ...], tuple[int, ...]]


def _knitted_straight(h: _Hand) -> _Knitted | None:
    """组合龙 + one set + a pair (at most one set claimed or kong)."""
    if len(h.fixed) > 1:
        return None
    m1 = h.masks()[0]  # with a meld: a superset of the concealed tiles, a quick filter
    if (m1 & _SUITED_BITS).bit_count() < 9:
        return None
    if h.fixed:
        m1 = masks(h.standing_counts)[0]
    seq = next((s for s, k in zip(_KNITTED, _KNITTED_BITS, strict=True) if m1 & k == k),
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
        _kongs([meld], ft, src)
    _win_flags(fl, ft)
    if not h.fixed or (meld[0] == KONG and not meld[2]):
        ft["fully_concealed_hand" if fl.self_drawn else "concealed_hand"] = 1
    tiles = [*seq, *pack_tiles(meld), *pack_tiles(pair)]
    _suits(tiles, ft)
    _tile_hog(tiles, ft, src)
    if not h.fixed:
        c[h.win] -= 1
        # The reference reads the wait from the first four tiles left in search order
        # (the winning tile may sit in the knitted straight: it then counts as well).
        left = [t for t in BY_ORDER for _ in range(max(c[t], 0))][:4]
        lc = [0] * 34
        for t in left:
            lc[t] += 1
        _wait([meld, pair], basic_waits(tuple(lc)), h.win, ft, src)
    elif h.standing_counts[h.win] > 1:
        ft["single_wait"] = 1
        src["single_wait"] = [pack_tiles(pair)]
    _exclude(ft)
    if meld[1] in _WINDS:
        _winds([meld], fl, ft, src)
    return ft, src, (meld, pair), seq


def _nine_gates(h: _Hand) -> FanTable | None:
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
    _win_flags(h.fl, ft)
    _exclude_situational(ft)
    return ft


def _exclude_situational(ft: FanTable) -> None:
    for key in ("last_tile_draw", "out_with_replacement_tile"):
        if ft.get(key):
            ft.pop("self_drawn", None)
    if ft.get("robbing_the_kong"):
        ft.pop("last_tile", None)


def _special(h: _Hand) -> tuple[FanTable, str] | None:
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
            _tile_traits(tiles, ft)
        else:
            ft["seven_pairs"] = 1
            _suits(tiles, ft)
            _tile_traits(tiles, ft)
            _rank_range(tiles, ft)
            _tile_hog(tiles, ft, {})
        shape = "seven_pairs"
    elif all(t in _ORPHANS for t in tiles) and all(c[t] for t in _ORPHANS):
        ft["thirteen_orphans"] = 1
        shape = "thirteen_orphans"
    elif max(c) > 1:
        return None
    else:
        suited = [t for t in tiles if t < 27]
        honours = [t for t in tiles if t >= 27]
        if not 7 <= len(suited) <= 9 or max(c) > 1:
            return None
        if not any(set(suited) <= set(s) for s in _KNITTED):
            return None
        if len(suited) == 7:
            ft["greater_honours_and_knitted"] = 1
        else:
            ft["lesser_honours_and_knitted"] = 1
            if len(suited) == 9:
                ft["knitted_straight"] = 1
        del honours
        shape = "honours_and_knitted"
    _win_flags(h.fl, ft)
    if shape == "seven_pairs" and "seven_pairs" in ft:
        _exclude(ft)
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
    return score_prepared(_Hand(fixed, standing, win, fl), seed_kongs=seed_kongs)


_KIND = KIND


def _trace_special(c: tuple[int, ...], shape: str) -> Considered:
    tiles = tuple(t for t in range(34) for _ in range(c[t]))
    if shape == "seven_pairs":
        return shape, tuple(("pair", (t, t)) for t in range(34) for _ in range(c[t] // 2))
    if shape == "thirteen_orphans":
        pair = next(t for t in range(34) if c[t] == 2)
        return shape, (("singles", tuple(t for t in range(34) if c[t] == 1)),
                       ("pair", (pair, pair)))
    return shape, (("singles", tiles),)


def score_prepared(h: _Hand, trace: list[Considered] | None = None,
                   seed_kongs: bool = False) -> Scored | None:
    """:func:`score_concrete` of a hand already prepared (golden.py builds the ``_Hand``
    once to bound its total first). ``trace``, when given, receives every reading tried
    (tests compare it with :func:`laizi.analysis.decompositions`)."""
    fixed = h.fixed
    best: Scored | None = None
    seven_pairs = False
    if not fixed:
        sp = _special(h)
        if sp is not None:
            ft, shape = sp
            tiles = tuple(t for t in range(34) for _ in range(h.standing_counts[t]))
            best = Scored(_total(ft), ft, {}, shape, (tiles,))
            seven_pairs = shape == "seven_pairs"
            if trace is not None:
                trace.append(_trace_special(h.standing_counts, shape))
    if best is None and len(fixed) <= 1:
        ks = _knitted_straight(h)
        if ks is not None:
            ft, src, rest, seq = ks
            best = Scored(_total(ft), ft, src, "knitted_straight",
                          (seq, *(pack_tiles(p) for p in rest)))
            if trace is not None:
                trace.append(("knitted_straight", (("knitted", seq), *(
                    (_KIND[p[0]], pack_tiles(p)) for p in rest if p not in fixed))))
    if best is None and not fixed:
        ng = _nine_gates(h)
        if ng is not None:
            tiles = tuple(t for t in range(34) for _ in range(h.standing_counts[t]))
            best = Scored(_total(ng), ng, {}, "nine_gates", (tiles,))
            if trace is not None:
                trace.append(("nine_gates", ()))
    if best is None or seven_pairs:
        for reading in readings(h.standing_counts):
            if trace is not None:
                trace.append(("standard", tuple((_KIND[p[0]], pack_tiles(p))
                                                for p in reading)))
            ft, src = _basic(h, reading, seed_kongs)
            total = _total(ft)
            if best is None or total > best.total or (total == best.total and (
                    seven_pairs or ft.get("pure_triple_chow") or ft.get("triple_pung"))):
                best = Scored(total, ft, src, "standard",
                              tuple(pack_tiles(p) for p in (*fixed, *reading)))
    return best
