"""The calculator's public result: :func:`result_from` turns the best reading's fans
into a :class:`~.hand.FanResult`, one item per fan in table order with the sets behind it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .common import Scored
from .fans import FANS
from .hand import ITEM_SHELL, RESULT_SHELL, FanItem, FanResult, WinContext, fan_item

__all__ = ["FAN_ORDER", "result_from"]

_WIN_TILE_FANS: Final = frozenset({
    "self_drawn", "last_tile", "last_tile_draw", "last_tile_claim",
    "out_with_replacement_tile", "robbing_the_kong",
})
_NO_GROUPS: Final = frozenset({"flower_tiles", "chicken_hand"})
FAN_ORDER: Final = {f.key: i for i, f in enumerate(FANS)}

# Which sets a fan without sources of its own lists: the reading (0), the winning tile
# (1: the situational fans) or none (2: 花牌, 无番和).
_GROUP_KIND: Final = {f.key: 1 if f.key in _WIN_TILE_FANS else 2 if f.key in _NO_GROUPS else 0
                      for f in FANS}
_FLOWERS_LAST: Final = FAN_ORDER["flower_tiles"] == len(FANS) - 1
assert _FLOWERS_LAST  # result_from appends 花牌 after the sorted fans


_FAN_KEYS: Final = tuple(f.key for f in FANS)  # (by FAN_ORDER: sorting ints beats a key function)
_KIND_BY_ORDER: Final = tuple(_GROUP_KIND[key] for key in _FAN_KEYS)

_FIXED_ITEMS: Final[dict[int, FanItem]] = {}
"""The items of the fans whose sets are the winning tile (situational fans) or none
(无番和), by (fan, count, winning tile) as one int: their few hundred possible values are
built once and shared by the results (they are frozen)."""
_FLOWER_ITEMS: Final = tuple(fan_item("flower_tiles", n, ()) for n in range(9))


def _fixed_item(order: int, count: int, win: int) -> FanItem:
    key = _FAN_KEYS[order]
    kind = _KIND_BY_ORDER[order]
    got = _FIXED_ITEMS[(order * 64 + count) * 64 + win] = fan_item(
        key, count, ((win,),) if kind == 1 else ())
    return got


# (module constants of this module's own: the compiled build reads them from C statics,
# where a name imported from an interpreted module is a dict lookup at every use)
_FAN_ITEM: Final = FanItem
_FAN_RESULT: Final = FanResult
_ITEM_SHELL: Final = ITEM_SHELL
_RESULT_SHELL: Final = RESULT_SHELL


def result_from(best: Scored, win: int, ctx: WinContext, notes: Sequence[str],
                golden_as: tuple[int, ...] = ()) -> FanResult:
    """The public result of the best reading: one item per fan in table order, with the
    sets behind it (its sources; the winning tile for situational fans; none for 花牌 and
    无番和; else the whole reading)."""
    total, table, sources, shape, reading = best
    items: list[FanItem] = []
    append = items.append
    orders = [FAN_ORDER[key] for key in table]
    orders.sort()
    shell = _ITEM_SHELL
    for order in orders:
        key = _FAN_KEYS[order]
        count = table[key]
        got = sources.get(key)
        if got is not None:
            groups = tuple(got)
        else:
            kind = _KIND_BY_ORDER[order]
            if kind:  # the same item for every hand with this winning tile: shared
                fixed = _FIXED_ITEMS.get((order * 64 + count) * 64 + win)
                if fixed is None:
                    fixed = _fixed_item(order, count, win)
                append(fixed)
                continue
            groups = reading
        if shell is None:  # (hand.py: the interpreter refuses the faster way)
            append(FanItem(key, count, groups))
            continue
        item = shell()  # (hand.py: the frozen dataclass's constructor is slow)
        item.key = key
        item.count = count
        item.groups = groups
        item.__class__ = _FAN_ITEM  # type: ignore[assignment]
        append(item)  # type: ignore[arg-type]
    flowers = ctx.flowers
    if flowers > 0:
        append(_FLOWER_ITEMS[flowers])
        total += flowers
    result_shell = _RESULT_SHELL
    if result_shell is None:
        return FanResult(True, total, tuple(items), shape, reading, win, golden_as,
                         tuple(notes))
    res = result_shell()  # (as the items above)
    res.is_win = True
    res.total = total
    res.fans = tuple(items)
    res.shape = shape
    res.reading = reading
    res.win_tile = win
    res.golden_as = golden_as
    res.notes = tuple(notes)
    res.why_not = None
    res.__class__ = _FAN_RESULT  # type: ignore[assignment]
    return res  # type: ignore[return-value]
