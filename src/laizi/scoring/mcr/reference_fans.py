"""The fans of one reading's parts in the reference MCR calculator (:mod:`.reference`),
written to be read: kong and pung fans, set combinations, suits, tile traits, number
ranges, 四归一, set traits, the wait, 不计 and the wind pungs, each as its own function
over the reading's sets or tiles.
"""

from __future__ import annotations

from collections.abc import Callable

from .combos import Combo, chow_fans, pung_fans
from .common import FanTable, Flags, Sources
from .fans import FANS
from .shapes import ALL_PACKS, CHOW, KONG, ORDER, PAIR, Pack, pack_tiles

__all__ = [
    "DRAGONS",
    "ORPHANS",
    "TERMINALS",
    "WINDS",
    "add_fan",
    "combo_fans",
    "decrease",
    "exclude",
    "is_pure_terminal",
    "is_three_suited_terminal",
    "kong_fans",
    "pack_trait_fans",
    "rank_range_fans",
    "suit_fans",
    "tile_hog_fans",
    "tile_trait_fans",
    "wait_fans",
    "wind_fans",
]

WINDS = frozenset(range(27, 31))
DRAGONS = frozenset(range(31, 34))
TERMINALS = frozenset({0, 8, 9, 17, 18, 26})
ORPHANS = frozenset(TERMINALS | WINDS | DRAGONS)
_GREEN = frozenset({19, 20, 21, 23, 25, 32})  # 23468条 发
_REVERSIBLE = frozenset({9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31})
_EXCLUSIONS = tuple((f.key, f.excludes) for f in FANS if f.excludes
                    or f.key in ("nine_gates", "four_concealed_pungs", "big_three_winds"))
_EXCLUDES = dict(_EXCLUSIONS)
_RANK = {key: i for i, (key, _) in enumerate(_EXCLUSIONS)}


def add_fan(ft: FanTable, src: Sources, key: str, *groups: tuple[int, ...]) -> None:
    ft[key] = ft.get(key, 0) + 1
    if groups:
        src.setdefault(key, []).extend(groups)




def kong_fans(pungs: list[Pack], ft: FanTable, src: Sources, seed: bool = False) -> None:
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
        if t in DRAGONS:
            add_fan(ft, src, "dragon_pung", tiles)
        elif t in _TERM_WIND:
            add_fan(ft, src, "pung_of_terminals_or_honours", tiles)
    kongs = mk + ck
    hidden = ck + cp  # concealed pungs and kongs
    if kongs == 1:
        add_fan(ft, src, "melded_kong" if mk else "concealed_kong", *kong_sets)
    elif kongs == 2 and ck == 1 and seed:
        for p in pungs:
            if p[0] == KONG:
                add_fan(ft, src, "melded_kong" if p[2] else "concealed_kong", pack_tiles(p))
    elif kongs == 2:
        key = ("two_melded_kongs", "concealed_and_melded_kong", "two_concealed_kongs")[ck]
        add_fan(ft, src, key, *kong_sets)
    elif kongs == 3:
        add_fan(ft, src, "three_kongs", *kong_sets)
    elif kongs == 4:
        add_fan(ft, src, "four_kongs", *kong_sets)
    if kongs == 2 and ck == 2 and cp == 0:
        hidden = 0  # 双暗杠 already holds the two concealed sets
    if hidden >= 2:
        add_fan(ft, src, _HIDDEN[hidden], *concealed_sets)
    if len(pungs) == 4 and kongs < 4 and hidden < 4:
        add_fan(ft, src, "all_pungs", *(pack_tiles(p) for p in pungs))


_HIDDEN = ("", "", "two_concealed_pungs", "three_concealed_pungs", "four_concealed_pungs")
_TERM_WIND = TERMINALS | WINDS


_PACK_ORDER = {p: ORDER[p[1]] for p in ALL_PACKS}


_COMBO_TABLES: dict[object, dict[tuple[int, ...], Combo]] = {chow_fans: {}, pung_fans: {}}
"""Set-combination fans by the sets' tiles (in search order), filled on first use: a
table over a bounded domain (at most a few tens of thousands of set tuples)."""


def combo_fans(packs: list[Pack], finder: Callable[[list[int]], Combo], ft: FanTable,
               src: Sources) -> None:
    ordered = sorted(packs, key=_PACK_ORDER.__getitem__)
    mids = tuple([p[1] for p in ordered])
    table = _COMBO_TABLES[finder]
    found = table.get(mids)
    if found is None:
        found = table[mids] = finder(list(mids))
    for key, idx in found:
        add_fan(ft, src, key, *(pack_tiles(ordered[i]) for i in idx))


def is_pure_terminal(chows: list[Pack], pair: int) -> bool:
    if pair >= 27 or pair % 9 != 4:
        return False
    ranks = sorted(t % 9 + 1 for _, t, _ in chows)
    return all(t // 9 == pair // 9 for _, t, _ in chows) and ranks == [2, 2, 8, 8]


def is_three_suited_terminal(chows: list[Pack], pair: int) -> bool:
    if pair >= 27 or pair % 9 != 4:
        return False
    others = sorted((t // 9, t % 9 + 1) for _, t, _ in chows)
    suits = sorted({0, 1, 2} - {pair // 9})
    return others == [(suits[0], 2), (suits[0], 8), (suits[1], 2), (suits[1], 8)]


def suit_fans(tiles: list[int], ft: FanTable) -> None:
    present = {t // 9 for t in tiles}  # 3 = honours
    if 3 not in present:
        ft["no_honours"] = 1
    voided = sum(1 for s in (0, 1, 2) if s not in present)
    if voided == 2:
        ft["half_flush" if 3 in present else "full_flush"] = 1
    elif voided:
        ft["one_voided_suit"] = voided
    if len(present) == 4 and any(t in WINDS for t in tiles) \
            and any(t in DRAGONS for t in tiles):
        ft["all_types"] = 1


def tile_trait_fans(tiles: list[int], ft: FanTable) -> None:
    if not any(t in ORPHANS for t in tiles):
        ft["all_simples"] = 1
    if all(t in _REVERSIBLE for t in tiles):
        ft["reversible_tiles"] = 1
    if all(t in _GREEN for t in tiles):
        ft["all_green"] = 1
    if ft.get("all_simples"):
        return
    if all(t >= 27 for t in tiles):
        ft["all_honours"] = 1
    elif all(t in TERMINALS for t in tiles):
        ft["all_terminals"] = 1
    elif all(t in ORPHANS for t in tiles):
        ft["all_terminals_and_honours"] = 1


def rank_range_fans(tiles: list[int], ft: FanTable) -> None:
    if any(t >= 27 for t in tiles):
        return
    ranks = {t % 9 + 1 for t in tiles}
    if ranks <= {1, 2, 3, 4}:
        ft["lower_four" if 4 in ranks else "lower_tiles"] = 1
    elif ranks <= {6, 7, 8, 9}:
        ft["upper_four" if 6 in ranks else "upper_tiles"] = 1
    elif ranks <= {4, 5, 6}:
        ft["middle_tiles"] = 1


def tile_hog_fans(tiles: list[int], ft: FanTable, src: Sources) -> None:
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    fours = [t for t in range(34) if counts[t] == 4]
    n = len(fours) - (len(tiles) - 14)
    if n > 0:
        ft["tile_hog"] = n
        src["tile_hog"] = [(t,) * 4 for t in fours]


def pack_trait_fans(packs: list[Pack], ft: FanTable) -> None:
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


def wait_fans(concealed: list[Pack], waits: frozenset[int] | bool, win: int, ft: FanTable,
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


def exclude(ft: FanTable) -> None:
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
                decrease(ft, "pung_of_terminals_or_honours", 1)
            if ft.pop("fully_concealed_hand", None):
                ft["self_drawn"] = 1
        elif key == "big_three_winds" and not ft.get("all_honours") \
                and not ft.get("all_terminals_and_honours"):
            decrease(ft, "pung_of_terminals_or_honours", 3)


def decrease(ft: FanTable, key: str, n: int) -> None:
    left = ft.get(key, 0) - n
    if left > 0:
        ft[key] = left
    else:
        ft.pop(key, None)


def wind_fans(pungs: list[Pack], fl: Flags, ft: FanTable, src: Sources) -> None:
    if "big_four_winds" in ft or not any(p[1] in WINDS for p in pungs):
        return
    deducted = any(ft.get(k) for k in ("big_three_winds", "all_terminals_and_honours",
                                       "all_honours", "little_four_winds"))
    for p in pungs:
        t = p[1]
        if t not in WINDS:
            continue
        if t == fl.prevalent:
            ft["prevalent_wind"] = 1
            src["prevalent_wind"] = [pack_tiles(p)]
            if not deducted:
                decrease(ft, "pung_of_terminals_or_honours", 1)
        if t == fl.seat:
            ft["seat_wind"] = 1
            src["seat_wind"] = [pack_tiles(p)]
            if fl.seat != fl.prevalent and not deducted:
                decrease(ft, "pung_of_terminals_or_honours", 1)
