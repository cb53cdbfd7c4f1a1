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
from typing import Final

from .combos import Combo, two_chows_fan, two_pungs_fan
from .combos_fast import chow_fans, pung_fans
from .common import KIND, Considered, FanTable, Flags, Scored, Sources, total
from .exclusions import exclude, wait_fans, wind_fans
from .groups import (
    ENTRIES,
    FIVE,
    GROUP_SPANS,
    OUTSIDE,
    WIND,
    GroupReading,
    combine,
    group_info,
    knitted_possible,
    one_suit,
)
from .prepared import NONE, PACK_ORDER, SINGLE_PUNG, Prepared, PreparedMelds, held_four
from .shapes import PACK_TILES, Pack
from .specials import knitted_scored, nine_gates_scored, score_specials, special_scored

__all__ = ["Considered", "Flags", "Scored", "score_concrete", "score_prepared"]

_HIDDEN: Final = ("", "", "two_concealed_pungs", "three_concealed_pungs", "four_concealed_pungs")
_KONG_KEY: Final = {(1, 0): "melded_kong", (0, 1): "concealed_kong", (2, 0): "two_melded_kongs",
                    (1, 1): "concealed_and_melded_kong", (0, 2): "two_concealed_kongs"}

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

_T0, _T1, _T2, _T3 = ENTRIES
assert GROUP_SPANS == ((0, 9), (18, 27), (9, 18), (27, 34))  # as score_prepared reads them
_Z9: Final = bytes(9)
_Z7: Final = bytes(7)
_ZERO34: Final = bytes(34)
_ODD: Final = bytes(n & 1 for n in range(256))  # bytes.translate: 1 for an odd count


def _basic(h: Prepared, r: GroupReading, shared: tuple[FanTable, Sources] | None = None
           ) -> tuple[FanTable, Sources]:
    """The fans of one sets-and-pair reading ``r`` of the concealed tiles (``shared``:
    ``h.base()``, when the caller has it)."""
    base, base_src = shared or h.base()
    ft = base.copy()
    src = base_src.copy() if base_src else {}  # shared lists are never mutated
    fl = h.fl
    win = h.win
    ml = h.melds
    _, pair, cchows, cpungs, traits, _ = r
    traits &= ml.traits
    chow_on_win = False  # a concealed chow holds the winning tile
    for p in cchows:
        if p[1] - 1 <= win <= p[1] + 1:
            chow_on_win = True
            break
    if cpungs or ml.pungs:
        # A pung completed by a discarded winning tile counts as exposed (明刻), unless
        # the tile can be read into a concealed chow.
        _pung_fans(ml, cpungs, win if not fl.self_drawn and not chow_on_win else -1, ft, src)
    nc = len(cchows) + len(ml.chows)
    if nc >= 2:
        _chow_fans(ml, cchows, nc, pair, r[5], ft, src)
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
        wait_fans(cchows, pair, win, ft, src)
    exclude(ft)
    if h.winds and (cpungs or ml.pungs) and "big_four_winds" not in ft:
        wind_fans(ml.pungs + cpungs, fl, ft, src)
    if not ft:
        ft["chicken_hand"] = 1
    return ft, src


def _pung_fans(ml: PreparedMelds, cpungs: tuple[Pack, ...], exposed: int, ft: FanTable,
               src: Sources) -> None:
    """The fans of a reading's pungs and kongs, melded and concealed (``exposed``: the
    tile of a concealed pung that counts as exposed, or -1): 箭刻 / 幺九刻, kong fans,
    concealed pungs, 碰碰和 and the pung combinations."""
    mk = ml.mk
    ck = ml.ck
    npungs = len(cpungs) + len(ml.pungs)
    for key, tiles in ml.singles:
        ft[key] = ft.get(key, 0) + 1
        src.setdefault(key, []).append(tiles)
    hidden_sets = ml.concealed_sets.copy()
    cp = 0
    for p in cpungs:
        t = p[1]
        tiles = PACK_TILES[p]
        if t != exposed:
            cp += 1
            hidden_sets.append(tiles)
        key = SINGLE_PUNG[t]
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
            ordered = sorted(ml.pungs + cpungs, key=PACK_ORDER.__getitem__)
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


def _chow_fans(ml: PreparedMelds, cchows: tuple[Pack, ...], nc: int, pair: int,
               concealed_sets: tuple[tuple[int, ...], ...], ft: FanTable, src: Sources) -> None:
    """The chow combinations of a reading of ``nc`` >= 2 chows (一色双龙会 / 三色双龙会
    first, with ``concealed_sets`` the reading's concealed sets for their sources)."""
    chows: Sequence[Pack]
    if not ml.chows:
        chows = cchows
    elif cchows:
        chows = sorted(ml.chows + cchows, key=PACK_ORDER.__getitem__)
    else:
        chows = ml.ordered_chows  # (never mutated)
    terminal = ""
    if nc == 4 and pair < 27 and pair % 9 == 4:
        terminal = _terminal_chows(chows, pair)
    if terminal:
        # (four chows: no pung fans were counted above)
        ft[terminal] = 1
        src[terminal] = [*ml.tiles, *concealed_sets, (pair, pair)]
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
    return score_prepared(Prepared(fixed, standing, win, fl))


def _concealed_groups(b: bytes, parts: list[tuple[GroupReading, ...]]) -> int:
    """The readings of each group of the concealed tiles ``b`` (appended to ``parts``) and
    the tiles' code (the OR of the groups' codes); -1 when a group is not complete or not
    exactly one group holds the pair (no sets-and-pair reading)."""
    # (the four groups written out: this runs once per hand, and a loop over the
    # groups' bounds costs a third more; each group's info holds its code, so the
    # hand's code is their OR)
    code = 0
    key = b[:9]
    if key != _Z9:
        reads, c = _T0.get(key) or group_info(0, key)
        if not reads:
            return -1
        parts.append(reads)
        code = c
    key = b[18:27]
    if key != _Z9:
        reads, c = _T1.get(key) or group_info(1, key)
        if not reads:
            return -1
        parts.append(reads)
        code |= c
    key = b[9:18]
    if key != _Z9:
        reads, c = _T2.get(key) or group_info(2, key)
        if not reads:
            return -1
        parts.append(reads)
        code |= c
    key = b[27:]
    if key != _Z7:
        reads, c = _T3.get(key) or group_info(3, key)
        if not reads:
            return -1
        parts.append(reads)
        code |= c
    # A group's readings all hold a pair or none do; with two groups holding one (七对
    # shapes like 44m 55556677p 99s 55z) there is no sets-and-pair reading at all, and
    # combine() would merge their pairs into one.
    if sum(reads[0][1] >= 0 for reads in parts) != 1:
        return -1
    return code


def score_prepared(h: Prepared, trace: list[Considered] | None = None) -> Scored | None:
    """:func:`score_concrete` of a hand already prepared (golden.py builds the ``Prepared``
    once to bound its total first). ``trace``, when given, receives every reading tried
    (tests compare it with :func:`laizi.analysis.decompositions`)."""
    fixed = h.fixed
    b = h.counts
    # The concealed groups: all complete, exactly one holding the pair, means the hand
    # has sets-and-pair readings; the tiles' code then says which special shape is still
    # possible. Otherwise only a special shape can make the hand a win.
    parts: list[tuple[GroupReading, ...]] = []
    code = _concealed_groups(b, parts)
    if code < 0:
        return score_specials(h, trace)
    ml = h.melds
    own_code = code  # of the concealed tiles alone
    if fixed:
        code |= ml.code
    best: Scored | None = None
    seven_pairs = False
    if not fixed:
        if b.translate(_ODD) == _ZERO34:  # every count even
            best = special_scored(h, trace)
            seven_pairs = best is not None  # (only seven pairs can also have sets)
        if best is None and knitted_possible(code):
            best = knitted_scored(h, trace)
        if best is None and one_suit(code):
            best = nine_gates_scored(h, trace)
        if best is not None and not seven_pairs:
            return best
    elif len(fixed) == 1 and knitted_possible(own_code):
        best = knitted_scored(h, trace)
        if best is not None:
            return best
    base = h.base_from(code, held_four(b, ml) if h.hog else NONE)
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


