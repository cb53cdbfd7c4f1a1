"""The last steps of every reading's fans in the fast calculator: 边张 / 坎张 / 单钓将,
不计 (each fan removes what it implies, by a plan kept per set of excluding fans present),
and 圈风刻 / 门风刻 with what they take from 幺九刻. :mod:`.reference` does the same plainly.
"""

from __future__ import annotations

from typing import Final

from .common import FanTable, Flags, Sources
from .fans import FANS
from .shapes import PACK_TILES, Pack

__all__ = ["exclude", "exclude_situational", "wait_fans", "wind_fans"]

_EXCLUSIONS: Final = tuple((f.key, f.excludes) for f in FANS if f.excludes
                           or f.key in ("nine_gates", "four_concealed_pungs", "big_three_winds"))
_EXCLUDES: Final = dict(_EXCLUSIONS)
_RANK: Final = {key: i for i, (key, _) in enumerate(_EXCLUSIONS)}
_EXCLUDER_BIT: Final = {key: 1 << i for key, i in _RANK.items()}
"""A bit per excluding fan: the set of those present is an int (44 bits), cheaper to make
and to look up by than a frozenset."""
_SPECIAL_EXCLUDERS: Final = frozenset({"nine_gates", "four_concealed_pungs", "big_three_winds"})


def wait_fans(chows: tuple[Pack, ...], pair: int, win: int, ft: FanTable,
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


def exclude(ft: FanTable) -> None:
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
"""The steps of exclude by the set of excluding fans present (as _EXCLUDER_BIT bits): a
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


def wind_fans(pungs: tuple[Pack, ...] | list[Pack], fl: Flags, ft: FanTable,
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


def exclude_situational(ft: FanTable) -> None:
    if "last_tile_draw" in ft or "out_with_replacement_tile" in ft:
        ft.pop("self_drawn", None)
    if "robbing_the_kong" in ft:
        ft.pop("last_tile", None)

