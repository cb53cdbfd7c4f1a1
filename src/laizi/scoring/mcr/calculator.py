"""Score one concrete MCR hand (no golden tiles), fast: every reading tried, the best kept.

This computes exactly what :mod:`.reference` computes — the same fans, counts, sets and
tie-breaks; the rules and the pipeline are described there — and is what every caller
uses. ``tests/test_fan_fast.py`` holds the two to each other on random hands, and both
agree with PyMahjongGB fan by fan (``tests/test_mcr_vs_gb.py``). Where the time goes
instead (see docs/fan.md, "Speed"):

* the concealed tiles are looked up group by group (万, 条, 筒, honours) in tables of
  complete groups (:mod:`.groups`): a hand whose groups are all complete has its
  readings (with each reading's chows, pungs, tiles and 全带幺 / 全带五 / 全双刻 bits)
  from at most four lookups, and one whose groups are not is no sets-and-pair hand;
* the tiles' *code* (which tiles are present, as bits) is the key of the fans of tile
  presence (suits, 断幺, 推不倒, number ranges …); each group's code is kept with its
  readings, so a hand's is the OR of its groups' and its melds', and the union of those
  fans with the situational ones is one lookup by (code, flags); what the melds add
  (kong counts, their 箭刻 / 幺九刻, their sets, their code) is worked out once per hand
  and kept per set of melds;
* the special shapes are looked at only when the code allows them (seven pairs: every
  count even; 组合龙: 147 258 369 in three suits; 九莲宝灯: one suit), or when the hand
  has no sets-and-pair reading at all;
* 边张 / 坎张 / 单钓将 need the hand's waits only when a set touches the winning tile,
  and then from the winning tile's group; 不计 follows a plan kept per set of excluding
  fans present; counts are added as integers with a byte per tile.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import mul
from typing import Final

from .combos import Combo, two_chows_fan, two_pungs_fan
from .combos_fast import chow_fans, pung_fans
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
from .groups import (
    ENTRIES,
    EVEN,
    FIVE,
    GROUP_SPANS,
    OUTSIDE,
    TILE_BITS,
    TRAITS,
    WIND,
    GroupReading,
    combine,
    group_info,
    hand_readings,
    knitted_possible,
    one_suit,
    other_wait,
    tile_code,
    tile_fans_of,
)
from .masks import bits, masks, presence, tile_fans
from .shapes import (
    ALL_PACKS,
    BY_ORDER,
    CHOW,
    KONG,
    ORDER,
    PACK_TILES,
    PAIR,
    Pack,
    basic_waits,
)

__all__ = ["Considered", "Flags", "Scored", "flag_fans", "score_concrete", "score_prepared"]

_KNITTED: Final = KNITTED  # (bound.py imports these names from here)
_total = total

_ORPHAN_BITS: Final = bits((0, 8, 9, 17, 18, 26, *range(27, 34)))
_SUITED_BITS: Final = bits(range(27))

_EXCLUSIONS: Final = tuple((f.key, f.excludes) for f in FANS if f.excludes
                           or f.key in ("nine_gates", "four_concealed_pungs", "big_three_winds"))
_EXCLUDES: Final = dict(_EXCLUSIONS)
_RANK: Final = {key: i for i, (key, _) in enumerate(_EXCLUSIONS)}
_EXCLUDER_BIT: Final = {key: 1 << i for key, i in _RANK.items()}
"""A bit per excluding fan: the set of those present is an int (44 bits), cheaper to make
and to look up by than a frozenset."""
_SPECIAL_EXCLUDERS: Final = frozenset({"nine_gates", "four_concealed_pungs", "big_three_winds"})

_SINGLE_PUNG: Final[tuple[str, ...]] = tuple(
    "dragon_pung" if t >= 31 else
    "pung_of_terminals_or_honours" if t >= 27 or t % 9 in (0, 8) else ""
    for t in range(34))
"""The fan a pung (or kong) of tile t earns alone: 箭刻, 幺九刻 or none."""
_HIDDEN: Final = ("", "", "two_concealed_pungs", "three_concealed_pungs", "four_concealed_pungs")
_KONG_KEY: Final = {(1, 0): "melded_kong", (0, 1): "concealed_kong", (2, 0): "two_melded_kongs",
                    (1, 1): "concealed_and_melded_kong", (0, 2): "two_concealed_kongs"}
_PACK_ORDER: Final = {p: ORDER[p[1]] for p in ALL_PACKS}

_CHOW_COMBOS: Final[dict[tuple[int, ...], list[tuple[str, tuple[tuple[int, ...], ...]]]]] = {}
_PUNG_COMBOS: Final[dict[tuple[int, ...], Combo]] = {}
"""Set-combination fans by the sets' tiles (in search order), filled on first use: a
table over a bounded domain (at most a few tens of thousands of set tuples). A chow's
tiles follow from its middle tile, so the chow table keeps each fan's sets as tiles
(a pung's depend on whether it is a kong: that table keeps their indexes)."""


def _chow_combo(mids: tuple[int, ...]) -> list[tuple[str, tuple[tuple[int, ...], ...]]]:
    got = _CHOW_COMBOS[mids] = [
        (key, tuple((mids[i] - 1, mids[i], mids[i] + 1) for i in idx))
        for key, idx in chow_fans(list(mids))]
    return got

_ALL_TRAITS = OUTSIDE | FIVE | EVEN
_VALUE: Final = VALUE
_T0, _T1, _T2, _T3 = ENTRIES
assert GROUP_SPANS == ((0, 9), (18, 27), (9, 18), (27, 34))  # as score_prepared reads them
_Z9: Final = bytes(9)
_Z7: Final = bytes(7)
_NONE: Final[list[int]] = []  # (never mutated)
_ZERO: Final = (bytes(9), bytes(9), bytes(9), bytes(7))
_ZERO34: Final = bytes(34)
_ODD: Final = bytes(n & 1 for n in range(256))  # bytes.translate: 1 for an odd count
_HALF: Final = bytes(n // 2 for n in range(256))  # bytes.translate: the pairs of a count

# ---------------------------------------------------------------- the hand


def _pack_mask(p: Pack) -> int:
    mask = 0
    for t in PACK_TILES[p]:
        mask |= 1 << t
    return mask


_MELD_PACKS: Final = tuple(p for p in ALL_PACKS if p in TRAITS and p[0] != PAIR)
_PACK_MASK: Final = {p: _pack_mask(p) for p in _MELD_PACKS}
"""A meld's tiles as a mask."""
_PACK_COUNTS: Final = {p: sum(1 << 8 * t for t in PACK_TILES[p]) for p in _MELD_PACKS}
"""A meld's tiles as counts, a byte per tile."""
_PACK_HOG: Final = {p: 0 if p[0] == KONG else _PACK_COUNTS[p] for p in _MELD_PACKS}
"""A meld's tiles that count toward 四归一 (a kong's do not), as counts, a byte a tile."""


class _Melds:
    """What the melds bring to every reading, worked out once per hand."""

    __slots__ = ("bits", "chows", "ck", "claimed", "code", "concealed_sets", "counts",
                 "hog_counts", "kong_sets", "kongs", "mk", "ordered_chows", "ordered_pungs",
                 "pungs", "singles", "tiles", "traits")

    def __init__(self, fixed: list[Pack]) -> None:
        chows: list[Pack] = []
        pungs: list[Pack] = []
        tiles: list[tuple[int, ...]] = []
        kong_sets: list[tuple[int, ...]] = []
        concealed_sets: list[tuple[int, ...]] = []  # concealed kongs
        singles: list[tuple[str, tuple[int, ...]]] = []  # 箭刻 / 幺九刻 with their sets
        mk = ck = claimed = 0
        traits = _ALL_TRAITS
        bits = hog = 0
        for p in fixed:
            pt = PACK_TILES[p]
            tiles.append(pt)
            traits &= TRAITS[p]
            bits |= _PACK_MASK[p]
            if p[0] == CHOW:
                chows.append(p)
                claimed += 1
                hog += _PACK_HOG[p]
                continue
            pungs.append(p)
            single = _SINGLE_PUNG[p[1]]
            if single:
                singles.append((single, pt))
            if p[0] == KONG:
                kong_sets.append(pt)
                if p[2]:
                    mk += 1
                    claimed += 1
                else:
                    ck += 1
                    concealed_sets.append(pt)
            else:
                claimed += 1
                hog += _PACK_HOG[p]
        self.tiles = tuple(tiles)
        self.traits = traits
        self.bits = bits
        # (the code of the melds' tiles: OR-ed with the concealed groups' codes it gives
        # every bit tile_fans_of reads; only the knitted bits need the tiles together)
        self.code = tile_code(bits)
        self.hog_counts = hog  # the tiles that count toward 四归一, a byte per tile
        self.counts = sum(map(_PACK_COUNTS.__getitem__, fixed))  # all their tiles
        self.claimed = claimed
        self.mk = mk
        self.ck = ck
        self.kongs = mk + ck
        self.chows = tuple(chows)
        self.pungs = tuple(pungs)
        # (in search order, as the set-combination fans take them: a reading without
        # concealed pungs, or without concealed chows, need not sort)
        self.ordered_chows = sorted(chows, key=_PACK_ORDER.__getitem__)
        self.ordered_pungs = sorted(pungs, key=_PACK_ORDER.__getitem__)
        self.kong_sets = kong_sets
        self.concealed_sets = concealed_sets
        self.singles = singles


_NO_MELDS: Final = _Melds([])
_MELDS: Final[dict[tuple[Pack, ...], _Melds]] = {}
"""_Melds by the melds (a table over a part of the hand: a player's melds stay the same
over many questions, and golden tiles' candidates share them); kept bounded."""
_MELDS_MAX: Final = 1 << 14


class _Hand:
    """One concrete hand: fixed packs, standing tiles (without the winning tile).

    ``counts`` are the concealed tiles' counts with the winning tile, as bytes; ``base``
    holds the fans every sets-and-pair reading shares (situational fans, 门前清 / 不求人 /
    全求人, suits, tile traits, number ranges, 四归一); everything is computed on first
    need.
    """

    __slots__ = ("_base", "_masks", "_melds", "_standing", "_waits", "counts", "fixed", "fl",
                 "hog", "tiles", "win", "winds")

    def __init__(self, fixed: list[Pack], standing: tuple[int, ...] | None, win: int,
                 fl: Flags, full_masks: tuple[int, int, int, int] | None = None,
                 counts: bytes | None = None, melds: _Melds | None = None,
                 hog: bool = True, tiles: bytes | None = None) -> None:
        """``standing``: counts of the standing tiles, winning tile excluded; or ``None``
        when ``counts`` are given. ``full_masks`` (of the whole hand) may be given when
        the caller has them already; ``melds``, what the melds bring, likewise; ``hog``
        false when the caller knows that no tile is held four times but as a kong; ``tiles``
        the concealed tiles (winning tile included) in any order, when the caller has them."""
        self.hog = hog
        self.tiles = tiles
        self.fixed = fixed
        self.win = win
        self.fl = fl
        if counts is None:
            assert standing is not None
            c = bytearray(standing)
            c[win] += 1
            counts = bytes(c)
        self.counts = counts
        self._standing = standing
        self._waits: bool | None = None
        self._base: tuple[FanTable, Sources] | None = None
        self._masks = full_masks
        if melds is not None:
            self._melds = melds
        elif fixed:
            key = tuple(fixed)
            ml = _MELDS.get(key)
            if ml is None:
                if len(_MELDS) >= _MELDS_MAX:
                    _MELDS.clear()
                ml = _MELDS[key] = _Melds(fixed)
            self._melds = ml
        else:
            self._melds = _NO_MELDS
        self.winds = True  # whether the hand may hold a wind pung (圈风刻 / 门风刻)

    @property
    def standing(self) -> tuple[int, ...]:
        """Counts of the standing tiles, the winning tile excluded."""
        if self._standing is None:
            c = list(self.counts)
            c[self.win] -= 1
            self._standing = tuple(c)
        return self._standing

    def sorted_tiles(self) -> tuple[int, ...]:
        """The concealed tiles, winning tile included, sorted."""
        if self.tiles is not None:
            return tuple(sorted(self.tiles))
        return _tiles_of(self.counts)

    @property
    def standing_counts(self) -> tuple[int, ...]:
        """Counts of the concealed tiles, the winning tile included."""
        return tuple(self.counts)

    def single_wait(self) -> bool:
        """Whether the hand waited on its winning tile alone (seven pairs included when
        nothing is melded); only called once a reading has shown the hand complete."""
        if self._waits is None:
            win = self.win
            single = not other_wait(self.counts, win)
            if single and not self.fixed:
                # (shapes.seven_pairs_waits(standing) <= {win}, on bytes: the standing
                # 13 tiles wait on seven pairs when they hold six pairs, a four counting
                # as two, and then on their one odd tile)
                standing = bytearray(self.counts)
                standing[win] -= 1
                single = sum(standing.translate(_HALF)) != 6 or bool(standing[win] & 1)
            self._waits = single
        return self._waits

    def masks(self) -> tuple[int, int, int, int]:
        """Masks of the tiles the whole hand (melds included) holds >= 1, 2, 3, 4 times."""
        if self._masks is None:
            if self.fixed:
                whole = int.from_bytes(self.counts, "little") + self._melds.counts
                self._masks = masks(whole.to_bytes(34, "little"))
            else:
                self._masks = masks(self.counts)
        return self._masks

    def base(self) -> tuple[FanTable, Sources]:
        if self._base is None:
            ft = dict(flag_fans(self.fl, self._melds.claimed))
            src: Sources = {}
            m1, _, _, m4 = self.masks()
            tile_fans(m1, m4, self._melds.kongs, ft, src)
            self._base = (ft, src)
        return self._base

    def base_from(self, code: int, fours: list[int]) -> tuple[FanTable, Sources]:
        """:meth:`base` from the OR of the groups' codes (melds included) and the tiles
        held four times not as a kong. The table returned is shared: callers copy it."""
        fl = self.fl
        # (one lookup by an int for the union of flag_fans and tile_fans_of: both are
        # tables already, and their union per hand was a new dict and two tuple keys)
        claimed = self._melds.claimed
        key = (code & TILE_BITS) << 7 | claimed << 4 | fl[0] | fl[1] << 1 | fl[2] << 2 \
            | fl[3] << 3
        ft = _BASES.get(key)
        if ft is None:
            if len(_BASES) >= _BASES_MAX:
                _BASES.clear()
            ft = _BASES[key] = flag_fans(fl, claimed) | tile_fans_of(code)
        if fours:
            ft = ft.copy()
            src: Sources = {}
            _hog(ft, src, fours, self.fixed)
            self._base = (ft, src)
        else:
            self._base = (ft, _NO_SOURCES)
        return self._base


_BASES: Final[dict[int, FanTable]] = {}
"""flag_fans | tile_fans_of by (tile code, claimed melds, the four win flags they read) as
one int: a table over parts of a hand (at most 2^16 codes, 80 flag values); bounded."""
_BASES_MAX: Final = 1 << 15
_NO_SOURCES: Final[Sources] = {}  # (never mutated: _basic copies a base's sources when it has any)


def _basic(h: _Hand, r: GroupReading, shared: tuple[FanTable, Sources] | None = None
           ) -> tuple[FanTable, Sources]:
    """The fans of one sets-and-pair reading ``r`` of the concealed tiles (``shared``:
    ``h.base()``, when the caller has it)."""
    base, base_src = shared or h.base()
    ft = base.copy()
    src = base_src.copy() if base_src else {}  # shared lists are never mutated
    fl = h.fl
    win = h.win
    ml = h._melds
    _, pair, cchows, cpungs, traits, _ = r
    traits &= ml.traits
    chow_on_win = False  # a concealed chow holds the winning tile
    for p in cchows:
        if p[1] - 1 <= win <= p[1] + 1:
            chow_on_win = True
            break
    if cpungs or ml.pungs:
        mk = ml.mk
        ck = ml.ck
        npungs = len(cpungs) + len(ml.pungs)
        for key, tiles in ml.singles:
            ft[key] = ft.get(key, 0) + 1
            src.setdefault(key, []).append(tiles)
        # A pung completed by a discarded winning tile counts as exposed (明刻), unless
        # the tile can be read into a concealed chow.
        exposed = win if not fl.self_drawn and not chow_on_win else -1
        hidden_sets = ml.concealed_sets.copy()
        cp = 0
        for p in cpungs:
            t = p[1]
            tiles = PACK_TILES[p]
            if t != exposed:
                cp += 1
                hidden_sets.append(tiles)
            key = _SINGLE_PUNG[t]
            if key:
                ft[key] = ft.get(key, 0) + 1
                src.setdefault(key, []).append(tiles)
        kongs = mk + ck
        hidden = ck + cp
        if kongs:
            key = _KONG_KEY[mk, ck] if kongs <= 2 else \
                "three_kongs" if kongs == 3 else "four_kongs"
            ft[key] = 1
            src[key] = ml.kong_sets.copy()
            if kongs == 2 and ck == 2 and cp == 0:
                hidden = 0  # 双暗杠 already holds the two concealed sets
        if hidden >= 2:
            key = _HIDDEN[hidden]
            ft[key] = 1
            src[key] = hidden_sets
        if npungs == 4 and kongs < 4 and hidden < 4:
            ft["all_pungs"] = 1
            src["all_pungs"] = [PACK_TILES[p] for p in ml.pungs + cpungs]
        if npungs >= 2:
            ordered: Sequence[Pack]
            if not ml.pungs:
                ordered = cpungs
            elif cpungs:
                ordered = sorted(ml.pungs + cpungs, key=_PACK_ORDER.__getitem__)
            else:
                ordered = ml.ordered_pungs  # (never mutated)
            if npungs == 2:  # one pair fan or none: not worth a table entry
                key2 = two_pungs_fan(ordered[0][1], ordered[1][1])
                if key2:
                    ft[key2] = ft.get(key2, 0) + 1
                    src.setdefault(key2, []).extend(
                        [PACK_TILES[ordered[0]], PACK_TILES[ordered[1]]])
            else:
                mids = tuple([p[1] for p in ordered])
                found = _PUNG_COMBOS.get(mids)
                if found is None:
                    found = _PUNG_COMBOS[mids] = pung_fans(list(mids))
                for key, idx in found:
                    ft[key] = ft.get(key, 0) + 1
                    src.setdefault(key, []).extend([PACK_TILES[ordered[i]] for i in idx])
    nc = len(cchows) + len(ml.chows)
    if nc >= 2:
        chows: Sequence[Pack]
        if not ml.chows:
            chows = cchows
        elif cchows:
            chows = sorted(ml.chows + cchows, key=_PACK_ORDER.__getitem__)
        else:
            chows = ml.ordered_chows  # (never mutated)
        terminal = ""
        if nc == 4 and pair < 27 and pair % 9 == 4:
            terminal = _terminal_chows(chows, pair)
        if terminal:
            # (four chows: no pung fans were counted above)
            ft[terminal] = 1
            src[terminal] = [*ml.tiles, *r[5], (pair, pair)]
        elif nc == 2:  # one pair fan or none: not worth a table entry
            key2 = two_chows_fan(chows[0][1], chows[1][1])
            if key2:
                ft[key2] = ft.get(key2, 0) + 1
                src.setdefault(key2, []).extend([PACK_TILES[chows[0]], PACK_TILES[chows[1]]])
        else:
            mids = tuple([p[1] for p in chows])
            got = _CHOW_COMBOS.get(mids)
            if got is None:
                got = _chow_combo(mids)
            for key, sets in got:
                ft[key] = ft.get(key, 0) + 1
                src.setdefault(key, []).extend(sets)
    if nc == 4:
        if pair < 27:
            ft["all_chows"] = 1
    elif "two_dragon_pungs" in ft:
        if pair >= 31:
            ft["little_three_dragons"] = 1
            src["little_three_dragons"] = [*src.pop("two_dragon_pungs", []), (pair, pair)]
            del ft["two_dragon_pungs"]
    elif "big_three_winds" in ft and 27 <= pair < 31:
        ft["little_four_winds"] = 1
        src["little_four_winds"] = [*src.pop("big_three_winds", []), (pair, pair)]
        del ft["big_three_winds"]
    if traits:
        if traits & OUTSIDE:
            ft["outside_hand"] = 1
        elif traits & FIVE:
            ft["all_fives"] = 1
        else:
            ft["all_even_pungs"] = 1
    if (chow_on_win or pair == win) and "melded_hand" not in ft \
            and "four_kongs" not in ft and h.single_wait():
        _wait(cchows, pair, win, ft, src)
    _exclude(ft)
    if h.winds and (cpungs or ml.pungs) and "big_four_winds" not in ft:
        _winds(ml.pungs + cpungs, fl, ft, src)
    if not ft:
        ft["chicken_hand"] = 1
    return ft, src


def _terminal_chows(chows: tuple[Pack, ...] | list[Pack], pair: int) -> str:
    """三色双龙会 or 一色双龙会 of four chows and a pair of 5 (checked in that order)."""
    ps = pair // 9
    others = sorted([(t // 9, t % 9 + 1) for _, t, _ in chows])
    a, b = sorted({0, 1, 2} - {ps})
    if others == [(a, 2), (a, 8), (b, 2), (b, 8)]:
        return "three_suited_terminal_chows"
    if others == [(ps, 2), (ps, 2), (ps, 8), (ps, 8)]:
        return "pure_terminal_chows"
    return ""


def _wait(chows: tuple[Pack, ...], pair: int, win: int, ft: FanTable,
          src: Sources) -> None:
    """边张 / 坎张 / 单钓将 of a hand that waited on ``win`` alone (the last matching chow
    of each kind, as the reference finds them)."""
    edge = closed = None
    for p in chows:
        t = p[1]
        if t == win:
            closed = p
        elif t + 1 == win or t - 1 == win:
            edge = p
    if edge is not None:
        ft["edge_wait"] = 1
        src["edge_wait"] = [PACK_TILES[edge]]
    elif closed is not None:
        ft["closed_wait"] = 1
        src["closed_wait"] = [PACK_TILES[closed]]
    elif pair == win:
        ft["single_wait"] = 1
        src["single_wait"] = [(pair, pair)]


def _exclude(ft: FanTable) -> None:
    """不计: in table order, every fan still present removes what it implies."""
    present = 0
    bit_of = _EXCLUDER_BIT
    for key in ft:
        present |= bit_of.get(key, 0)
    if not present:
        return
    got = _PLANS.get(present)
    if got is None:
        plan = _plan({key for key, bit in bit_of.items() if bit & present})
        # Without 九莲宝灯 / 四暗刻 / 三风刻 a plan only removes fans, in any order: kept
        # as the fans it removes (a membership test each is cheaper than a pop).
        got = _PLANS[present] = (tuple(dict.fromkeys(fan for fan, _ in plan)), None) \
            if not any(sp for _, sp in plan) else ((), plan)
    removed, steps = got
    if steps is None:
        for fan in removed:
            if fan in ft:
                del ft[fan]
        return
    for fan, special in steps:
        if special:
            _exclude_special(ft, fan)
        else:
            ft.pop(fan, None)


_PLANS: Final[dict[int, tuple[tuple[str, ...], tuple[tuple[str, bool], ...] | None]]] = {}
"""The steps of _exclude by the set of excluding fans present (as _EXCLUDER_BIT bits): a
fan removes fans only if no bigger fan removed it first, and only excluding fans remove
excluding fans, so which ones act is decided by that set alone (at most a few hundred sets
occur). Kept as (the fans removed, None) when the steps only remove fans, else ((), the
steps)."""


def _plan(present: set[str]) -> tuple[tuple[str, bool], ...]:
    """The steps in order: (a fan to remove, False), or (九莲宝灯 / 四暗刻 / 三风刻, True)
    where their own step (_exclude_special) comes."""
    alive = set(present)
    steps: list[tuple[str, bool]] = []
    for key in sorted(present, key=_RANK.__getitem__):
        if key not in alive:
            continue  # removed by a bigger fan: it removes nothing itself
        for e in _EXCLUDES[key]:
            alive.discard(e)
            steps.append((e, False))
        if key in _SPECIAL_EXCLUDERS:
            steps.append((key, True))
            if key != "big_three_winds":
                alive.discard("fully_concealed_hand")  # turned into 自摸 (_exclude_special)
    return tuple(steps)


def _exclude_special(ft: FanTable, key: str) -> None:
    """What 九莲宝灯, 四暗刻 and 三风刻 do besides removing fans."""
    if key == "big_three_winds":
        if "all_honours" not in ft and "all_terminals_and_honours" not in ft:
            _dec(ft, "pung_of_terminals_or_honours", 3)
        return
    if key == "nine_gates":
        # The 1s or 9s pung is part of the nine gates.
        _dec(ft, "pung_of_terminals_or_honours", 1)
    if ft.pop("fully_concealed_hand", None):
        ft["self_drawn"] = 1


def _dec(ft: FanTable, key: str, n: int) -> None:
    left = ft.get(key, 0) - n
    if left > 0:
        ft[key] = left
    else:
        ft.pop(key, None)


def _winds(pungs: tuple[Pack, ...] | list[Pack], fl: Flags, ft: FanTable,
           src: Sources) -> None:
    """圈风刻 / 门风刻 (their pungs stop being 幺九刻 unless a bigger fan took them)."""
    deducted = ("big_three_winds" in ft or "all_terminals_and_honours" in ft
                or "all_honours" in ft or "little_four_winds" in ft)
    for p in pungs:
        t = p[1]
        if t < 27 or t > 30:
            continue
        if t == fl.prevalent:
            ft["prevalent_wind"] = 1
            src["prevalent_wind"] = [PACK_TILES[p]]
            if not deducted:
                _dec(ft, "pung_of_terminals_or_honours", 1)
        if t == fl.seat:
            ft["seat_wind"] = 1
            src["seat_wind"] = [PACK_TILES[p]]
            if fl.seat != fl.prevalent and not deducted:
                _dec(ft, "pung_of_terminals_or_honours", 1)


# ---------------------------------------------------------------- special shapes

_Knitted = tuple[FanTable, Sources, tuple[Pack, ...], tuple[int, ...]]


def _knitted_straight(h: _Hand) -> _Knitted | None:
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
    ml = h._melds
    ft.update(tile_fans_of(tile_code(m1 | ml.bits)))
    fours = _fours(b, ml)
    if fours:
        _hog(ft, src, fours, h.fixed)
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
            _wait((meld,) if meld[0] == CHOW else (), pair[1], win, ft, src)
    elif b[h.win] > 1:
        ft["single_wait"] = 1
        src["single_wait"] = [PACK_TILES[pair]]
    _exclude(ft)
    if 27 <= meld[1] <= 30:
        _winds([meld], fl, ft, src)
    return ft, src, (meld, pair), seq


_KNIT_WAITS: Final[dict[bytes, bool]] = {}
"""Whether four tiles (counts as bytes) wait on one tile only: the wait of a knitted
straight's set and pair; kept bounded."""
_KNIT_WAITS_MAX: Final = 1 << 14


def _fours(b: bytes, ml: _Melds) -> list[int]:
    """Tiles held four times, not as a kong (四归一), in tile order."""
    full = (int.from_bytes(b, "little") + ml.hog_counts).to_bytes(34, "little") \
        if ml.hog_counts else b
    if not full.count(4):
        return _NONE
    fours = []
    t = full.find(4)
    while t >= 0:
        fours.append(t)
        t = full.find(4, t + 1)
    return fours


def _hog(ft: FanTable, src: Sources, fours: list[int], fixed: list[Pack]) -> None:
    """四归一 for ``fours``; its sets list every tile held four times, kongs too (as
    masks.tile_fans lists them)."""
    ft["tile_hog"] = len(fours)
    held = sorted([*fours, *(p[1] for p in fixed if p[0] == KONG)])
    src["tile_hog"] = [(t,) * 4 for t in held]


def _one_pung(p: Pack, ft: FanTable, src: Sources) -> None:
    """The fans of a single pung or kong (beside a knitted straight)."""
    kind, t, claimed = p
    tiles = PACK_TILES[p]
    key = _SINGLE_PUNG[t]
    if key:
        ft[key] = 1
        src[key] = [tiles]
    if kind == KONG:
        key = "melded_kong" if claimed else "concealed_kong"
        ft[key] = 1
        src[key] = [tiles]


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
    win_fans(h.fl, ft)
    _exclude_situational(ft)
    return ft


def _exclude_situational(ft: FanTable) -> None:
    if "last_tile_draw" in ft or "out_with_replacement_tile" in ft:
        ft.pop("self_drawn", None)
    if "robbing_the_kong" in ft:
        ft.pop("last_tile", None)


def _special(h: _Hand) -> tuple[FanTable, str] | None:
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
        _exclude(ft)
    else:
        _exclude_situational(ft)
    return ft, shape


# ---------------------------------------------------------------- entry points


def score_concrete(fixed: list[Pack], standing: tuple[int, ...], win: int,
                   fl: Flags) -> Scored | None:
    """Best score of a concrete hand, or ``None`` when it is not a winning hand.

    ``standing`` are the counts of the concealed tiles *without* the winning tile.
    Special shapes are tried first; sets-and-pair readings are tried when none applies
    or when the hand is seven pairs. Between readings of equal value the first in
    search order is kept, except that one with 一色三同顺 or 三同刻 (or any reading of a
    seven-pairs hand) replaces an earlier equal one, as the reference calculator does.
    """
    return score_prepared(_Hand(fixed, standing, win, fl))


_ONE_TILE: Final = tuple(bytes((t,)) for t in range(34))


def _tiles_of(c: bytes | tuple[int, ...]) -> tuple[int, ...]:
    """The tiles of the counts ``c``, sorted (in C: a copy of each tile's byte per count)."""
    return tuple(b"".join(map(mul, _ONE_TILE, c)))


def _trace_special(c: tuple[int, ...], shape: str) -> Considered:
    if shape == "seven_pairs":
        return shape, tuple(("pair", (t, t)) for t in range(34) for _ in range(c[t] // 2))
    if shape == "thirteen_orphans":
        pair = next(t for t in range(34) if c[t] == 2)
        return shape, (("singles", tuple(t for t in range(34) if c[t] == 1)),
                       ("pair", (pair, pair)))
    return shape, (("singles", _tiles_of(c)),)


def score_prepared(h: _Hand, trace: list[Considered] | None = None) -> Scored | None:
    """:func:`score_concrete` of a hand already prepared (golden.py builds the ``_Hand``
    once to bound its total first). ``trace``, when given, receives every reading tried
    (tests compare it with :func:`laizi.analysis.decompositions`)."""
    fixed = h.fixed
    b = h.counts
    # The concealed groups: all complete, exactly one holding the pair, means the hand
    # has sets-and-pair readings; the tiles' code then says which special shape is still
    # possible. Otherwise only a special shape can make the hand a win.
    parts: list[tuple[GroupReading, ...]] = []
    # (the four groups written out: this runs once per hand, and a loop over the
    # groups' bounds costs a third more; each group's info holds its code, so the
    # hand's code is their OR)
    code = 0
    key = b[:9]
    if key != _Z9:
        reads, c = _T0.get(key) or group_info(0, key)
        if not reads:
            return _score_specials(h, trace)
        parts.append(reads)
        code = c
    key = b[18:27]
    if key != _Z9:
        reads, c = _T1.get(key) or group_info(1, key)
        if not reads:
            return _score_specials(h, trace)
        parts.append(reads)
        code |= c
    key = b[9:18]
    if key != _Z9:
        reads, c = _T2.get(key) or group_info(2, key)
        if not reads:
            return _score_specials(h, trace)
        parts.append(reads)
        code |= c
    key = b[27:]
    if key != _Z7:
        reads, c = _T3.get(key) or group_info(3, key)
        if not reads:
            return _score_specials(h, trace)
        parts.append(reads)
        code |= c
    # A group's readings all hold a pair or none do; with two groups holding one (七对
    # shapes like 44m 55556677p 99s 55z) there is no sets-and-pair reading at all, and
    # combine() would merge their pairs into one.
    if sum(reads[0][1] >= 0 for reads in parts) != 1:
        return _score_specials(h, trace)
    ml = h._melds
    own_code = code  # of the concealed tiles alone
    if fixed:
        code |= ml.code
    best: Scored | None = None
    seven_pairs = False
    if not fixed:
        if b.translate(_ODD) == _ZERO34:  # every count even
            best = _special_scored(h, trace)
            seven_pairs = best is not None  # (only seven pairs can also have sets)
        if best is None and knitted_possible(code):
            best = _knitted_scored(h, trace)
        if best is None and one_suit(code):
            best = _nine_gates_scored(h, trace)
        if best is not None and not seven_pairs:
            return best
    elif len(fixed) == 1 and knitted_possible(own_code):
        best = _knitted_scored(h, trace)
        if best is not None:
            return best
    base = h.base_from(code, _fours(b, ml) if h.hog else _NONE)
    h.winds = bool(code & WIND)
    reading_tiles = ml.tiles
    for r in parts[0] if len(parts) == 1 else combine(parts):
        pair = r[1]
        if trace is not None:
            trace.append(("standard", (*((KIND[p[0]], PACK_TILES[p]) for p in r[0]),
                                       ("pair", (pair, pair)))))
        ft, src = _basic(h, r, base)
        tot = total(ft)
        if best is None or tot > best.total or (tot == best.total and (
                seven_pairs or "pure_triple_chow" in ft or "triple_pung" in ft)):
            best = tuple.__new__(Scored, (tot, ft, src, "standard",
                                          (*reading_tiles, *r[5], (pair, pair))))
    return best


def _special_scored(h: _Hand, trace: list[Considered] | None) -> Scored | None:
    sp = _special(h)
    if sp is None:
        return None
    ft, shape = sp
    if trace is not None:
        trace.append(_trace_special(h.standing_counts, shape))
    return tuple.__new__(Scored, (total(ft), ft, {}, shape, (h.sorted_tiles(),)))


def _knitted_scored(h: _Hand, trace: list[Considered] | None) -> Scored | None:
    ks = _knitted_straight(h)
    if ks is None:
        return None
    ft, src, rest, seq = ks
    if trace is not None:
        trace.append(("knitted_straight", (("knitted", seq), *(
            (KIND[p[0]], PACK_TILES[p]) for p in rest if p not in h.fixed))))
    return tuple.__new__(Scored, (total(ft), ft, src, "knitted_straight",
                                  (seq, *(PACK_TILES[p] for p in rest))))


def _nine_gates_scored(h: _Hand, trace: list[Considered] | None) -> Scored | None:
    ng = _nine_gates(h)
    if ng is None:
        return None
    if trace is not None:
        trace.append(("nine_gates", ()))
    return tuple.__new__(Scored, (total(ng), ng, {}, "nine_gates", (h.sorted_tiles(),)))


def _score_specials(h: _Hand, trace: list[Considered] | None) -> Scored | None:
    """A hand without a sets-and-pair reading: only a special shape can make it a win."""
    fixed = h.fixed
    best = None
    if not fixed:
        best = _special_scored(h, trace)
    if best is None and len(fixed) <= 1:
        best = _knitted_scored(h, trace)
    if best is None and not fixed:
        best = _nine_gates_scored(h, trace)
    return best
