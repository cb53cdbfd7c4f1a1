"""Fans formed by combining sets (chow and pung families), with 套算一次 and 不得相同.

Inputs are pack tiles (the middle tile of a chow, the tile of a pung) sorted in search
order. The principles, as the standard calculator applies them:

* a family of four (一色四同顺, 一色四步高, 一色四节高, 大四喜) is counted alone;
* a family of three is counted, then the fourth set may combine once with one of the
  three (套算一次), at most one 1-fan pair fan for chows;
* otherwise sets are combined in pairs, each kind of pair fan counted once per set
  (不得相同) and at most (number of sets that combine with another) - 1 pair fans in all,
  the surplus dropped from the cheapest, most repeated kinds first.
"""

from __future__ import annotations

from typing import Final

__all__ = ["chow_fans", "pung_fans"]

_SUITED_EXTRA_ORDER: Final = ("pure_double_chow", "mixed_double_chow", "short_straight",
                              "two_terminal_chows")


def _same_suit(*ts: int) -> bool:
    return len({t // 9 for t in ts}) == 1


def _mixed(a: int, b: int, c: int) -> bool:
    return len({a // 9, b // 9, c // 9}) == 3


def _rank(t: int) -> int:
    return t % 9 + 1


def _shifted_unordered(r0: int, r1: int, r2: int) -> bool:
    lo, mid, hi = sorted((r0, r1, r2))
    return lo + 1 == mid and mid + 1 == hi


def four_chows_fan(t: list[int]) -> str | None:
    t0, t1, t2, t3 = t
    if _same_suit(t0, t1, t2, t3):
        for step in (2, 1):
            if t0 + step == t1 and t1 + step == t2 and t2 + step == t3:
                return "four_pure_shifted_chows"
        if t0 == t1 == t2 == t3:
            return "quadruple_chow"
    return None


def three_chows_fan(t0: int, t1: int, t2: int) -> str | None:
    r0, r1, r2 = _rank(t0), _rank(t1), _rank(t2)
    if _mixed(t0, t1, t2):
        if _shifted_unordered(r0, r1, r2):
            return "mixed_shifted_chows"
        if r0 == r1 == r2:
            return "mixed_triple_chow"
        if sorted((r0, r1, r2)) == [2, 5, 8]:
            return "mixed_straight"
        return None
    if not _same_suit(t0, t1, t2):
        return None
    if t0 + 3 == t1 and t1 + 3 == t2:
        return "pure_straight"
    for step in (2, 1):
        if t0 + step == t1 and t1 + step == t2:
            return "pure_shifted_chows"
    if t0 == t1 == t2:
        return "pure_triple_chow"
    return None


def two_chows_fan(t0: int, t1: int) -> str | None:
    if t0 // 9 != t1 // 9:
        return "mixed_double_chow" if _rank(t0) == _rank(t1) else None
    if t0 + 3 == t1 or t1 + 3 == t0:
        return "short_straight"
    if {_rank(t0), _rank(t1)} == {2, 8}:
        return "two_terminal_chows"
    if t0 == t1:
        return "pure_double_chow"
    return None


def _trim(pair_fans: list[str | None], max_cnt: int) -> dict[str, int]:
    """Keep at most ``max_cnt`` pair fans: first cut repeats, then whole kinds, cheapest
    kinds (老少副, 连六, 喜相逢, 一般高) first."""
    table = dict.fromkeys(_SUITED_EXTRA_ORDER, 0)
    for f in pair_fans:
        if f is not None:
            table[f] += 1
    cnt = sum(table.values())
    for limit in (1, 0):
        for key in reversed(_SUITED_EXTRA_ORDER):
            while cnt > max_cnt and table[key] > limit:
                table[key] -= 1
                cnt -= 1
    return {k: v for k, v in table.items() if v}


Combo = list[tuple[str, tuple[int, ...]]]
"""Fan keys with the indexes of the sets that form them (one entry per count)."""


def _extra_chow(three: tuple[int, int, int], t: list[int], extra: int) -> Combo:
    found = {two_chows_fan(t[i], t[extra]): i for i in reversed(three)}
    for key in _SUITED_EXTRA_ORDER:
        if key in found:
            return [(key, (found[key], extra))]
    return []


_TRIPLES: Final = ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0))
_PAIRS4: Final = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))


def chow_fans(t: list[int]) -> Combo:
    """Fans among 2-4 chows (middle tiles, sorted in search order)."""
    n = len(t)
    if n == 4:
        fan = four_chows_fan(t)
        if fan:
            return [(fan, (0, 1, 2, 3))]
        for a, b, c, d in _TRIPLES:
            fan = three_chows_fan(t[a], t[b], t[c])
            if fan:
                return [(fan, (a, b, c)), *_extra_chow((a, b, c), t, d)]
        pairs: tuple[tuple[int, int], ...] = _PAIRS4
    elif n == 3:
        fan = three_chows_fan(t[0], t[1], t[2])
        if fan:
            return [(fan, (0, 1, 2))]
        pairs = ((0, 1), (0, 2), (1, 2))
    elif n == 2:
        fan = two_chows_fan(t[0], t[1])
        return [(fan, (0, 1))] if fan else []
    else:
        return []
    fans = [two_chows_fan(t[i], t[j]) for i, j in pairs]
    if n == 4:
        related = sum(1 for k in range(4)
                      if any(f for (i, j), f in zip(pairs, fans, strict=True) if k in (i, j)))
        max_cnt = 3 - (4 - related)
        if max_cnt <= 0:
            return []
    else:
        max_cnt = 2
    kept = _trim(fans, max_cnt)
    out: Combo = []
    for key, count in kept.items():
        members = [p for p, f in zip(pairs, fans, strict=True) if f == key]
        out.extend((key, members[i]) for i in range(count))
    return out


def four_pungs_fan(t: list[int]) -> str | None:
    t0, t1, t2, t3 = t
    if t0 < 27 and _same_suit(t0, t1, t2, t3) and t0 + 1 == t1 and t1 + 1 == t2 \
            and t2 + 1 == t3:
        return "four_pure_shifted_pungs"
    if {t0, t1, t2, t3} == {27, 28, 29, 30}:
        return "big_four_winds"
    return None


def three_pungs_fan(t0: int, t1: int, t2: int) -> str | None:
    if t0 < 27 and t1 < 27 and t2 < 27:
        r0, r1, r2 = _rank(t0), _rank(t1), _rank(t2)
        if _mixed(t0, t1, t2):
            if _shifted_unordered(r0, r1, r2):
                return "mixed_shifted_pungs"
            if r0 == r1 == r2:
                return "triple_pung"
        elif _same_suit(t0, t1, t2) and t0 + 1 == t1 and t1 + 1 == t2:
            return "pure_shifted_pungs"
        return None
    s = {t0, t1, t2}
    if len(s) == 3 and s <= {27, 28, 29, 30}:
        return "big_three_winds"
    if s == {31, 32, 33}:
        return "big_three_dragons"
    return None


def two_pungs_fan(t0: int, t1: int) -> str | None:
    if t0 < 27 and t1 < 27:
        return "double_pung" if _rank(t0) == _rank(t1) else None
    if t0 >= 31 and t1 >= 31:
        return "two_dragon_pungs"
    return None


def pung_fans(t: list[int]) -> Combo:
    """Fans among 2-4 pungs/kongs (tiles sorted in search order)."""
    n = len(t)
    if n == 4:
        fan = four_pungs_fan(t)
        if fan:
            return [(fan, (0, 1, 2, 3))]
        for a, b, c, free in _TRIPLES:
            fan = three_pungs_fan(t[a], t[b], t[c])
            if fan:
                out: Combo = [(fan, (a, b, c))]
                for i in range(4):
                    if i == free:
                        continue
                    extra = two_pungs_fan(t[i], t[free])
                    if extra:
                        out.append((extra, (i, free)))
                        break
                return out
        pairs: tuple[tuple[int, int], ...] = _PAIRS4
    elif n == 3:
        fan = three_pungs_fan(t[0], t[1], t[2])
        if fan:
            return [(fan, (0, 1, 2))]
        pairs = ((0, 1), (0, 2), (1, 2))
    elif n == 2:
        pairs = ((0, 1),)
    else:
        return []
    res: Combo = []
    for i, j in pairs:
        f = two_pungs_fan(t[i], t[j])
        if f:
            res.append((f, (i, j)))
    return res
