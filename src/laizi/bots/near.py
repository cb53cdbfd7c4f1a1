"""The tiles whose draw may lower a hand's shanten, for the greedy bot's 有效牌: held tiles
and their neighbours within two ranks, and 十三幺's terminals and honours when the shapes
include it (a lone new tile elsewhere could simply be discarded again). :func:`near_mask`
is the fast form, :func:`near_set` its reference (``tests/test_greedy_fast.py``)."""

from __future__ import annotations

from collections.abc import Sequence

from laizi.analysis import WinRules

__all__ = ["near_mask", "near_set"]

_TERMINALS_HONOURS = frozenset(t for t in range(34) if t >= 27 or t % 9 in (0, 8))
_NEAR_MASK = tuple(
    sum(1 << u for u in range(34)
        if u == t or (t < 27 and u < 27 and u // 9 == t // 9 and abs(u - t) <= 2))
    for t in range(34))
"""A tile and its neighbours within two ranks, as a 34-bit mask."""
_TERMINALS_HONOURS_MASK = sum(1 << t for t in range(34) if t >= 27 or t % 9 in (0, 8))


def near_mask(counts: Sequence[int], rules: tuple[WinRules, ...]) -> int:
    """:func:`near_set` as a 34-bit mask, from precomputed neighbourhoods."""
    m = 0
    masks = _NEAR_MASK
    for t in range(34):
        if counts[t]:
            m |= masks[t]
    for r in rules:
        if r.thirteen_orphans:
            return m | _TERMINALS_HONOURS_MASK
    return m


def near_set(counts: Sequence[int], rules: tuple[WinRules, ...]) -> set[int]:
    """The tiles whose draw may lower the shanten of a hand without wildcards: held
    tiles and their neighbours within two ranks (十三幺's terminals and honours too).
    The reference of :func:`near_mask`."""
    near = set()
    for t in range(34):
        if counts[t]:
            near.add(t)
            if t < 27:
                r = t % 9
                for d in (-2, -1, 1, 2):
                    if 0 <= r + d <= 8:
                        near.add(t + d)
    if any(r.thirteen_orphans for r in rules):
        near |= _TERMINALS_HONOURS
    return near
