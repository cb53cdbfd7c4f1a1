"""Slow, obviously-correct reference analysis that the fast code is held to.

Nothing here shares code with ``laizi.analysis``. Definitions:

* a reading = concrete groups + what each wildcard stands for; a wildcard may stand for
  tile t only if the reading holds at most 4 copies of t (real copies are never refused);
* ``is_win``: some reading exists (standard n melds + pair; 14-tile special shapes; 组合龙
  + melds + pair);
* ``waits``: tiles whose addition gives ``is_win``;
* ``shanten``: 3n+1 - wildcards - (most real tiles inside one complete target hand whose
  every tile has at most 4 copies); -1 for a complete hand.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations_with_replacement, permutations

from laizi.analysis.types import WinRules

ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
HONOURS = tuple(range(27, 34))
KNITTED = tuple(
    tuple(sorted(s * 9 + o + d for s, o in enumerate(offs) for d in (0, 3, 6)))
    for offs in permutations(range(3))
)


def _pair_ok(rules: WinRules, t: int) -> bool:
    return rules.pair_tiles is None or t in rules.pair_tiles


def _chow_ok(rules: WinRules, t: int) -> bool:
    """A chow may start at t."""
    return t < 27 and t % 9 <= 6 and t // 9 in rules.chow_suits


def all_melds(rules: WinRules) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = [(t, t, t) for t in range(34)]
    out += [(t, t + 1, t + 2) for t in range(27) if _chow_ok(rules, t)]
    return out


# ---------------------------------------------------------------- concrete hands


def concrete_partitions(
    h: tuple[int, ...], rules: WinRules, need_pair: bool = True
) -> Iterator[list[tuple[str, tuple[int, ...]]]]:
    """Every split of a concrete (wild-free) multiset into melds + a pair: the lowest tile
    starts a pung, a chow or the pair."""
    i = next((t for t in range(34) if h[t]), None)
    if i is None:
        if not need_pair:
            yield []
        return
    x = list(h)
    if x[i] >= 3:
        x[i] -= 3
        for rest in concrete_partitions(tuple(x), rules, need_pair):
            yield [("pung", (i, i, i)), *rest]
        x[i] += 3
    if need_pair and x[i] >= 2 and _pair_ok(rules, i):
        x[i] -= 2
        for rest in concrete_partitions(tuple(x), rules, False):
            yield [("pair", (i, i)), *rest]
        x[i] += 2
    if _chow_ok(rules, i) and x[i + 1] and x[i + 2]:
        for t in (i, i + 1, i + 2):
            x[t] -= 1
        for rest in concrete_partitions(tuple(x), rules, need_pair):
            yield [("chow", (i, i + 1, i + 2)), *rest]


def assignments(c: Sequence[int], w: int) -> Iterator[tuple[int, ...]]:
    """Every multiset of ``w`` tiles the wildcards may stand for (4-copy rule)."""
    for combo in combinations_with_replacement(range(34), w):
        ok = True
        for t in set(combo):
            if c[t] + combo.count(t) > 4:
                ok = False
        if ok:
            yield combo


def readings_bruteforce(c: Sequence[int], w: int, rules: WinRules) -> set[tuple[object, ...]]:
    """All readings by brute force over wildcard assignments (small ``w`` only)."""
    out: set[tuple[object, ...]] = set()
    total = sum(c) + w
    if total % 3 != 2:
        return out
    for combo in assignments(c, w):
        h = list(c)
        for t in combo:
            h[t] += 1
        for part in concrete_partitions(tuple(h), rules):
            out.add(("standard", tuple(sorted(part, key=lambda g: (g[1], g[0]))), combo))
        if total == 14 and rules.seven_pairs and all(x % 2 == 0 for x in h):
            pairs = tuple(("pair", (t, t)) for t in range(34) for _ in range(h[t] // 2))
            out.add(("seven_pairs", pairs, combo))
    return out


# ---------------------------------------------------------------- is_win


def _standard_win(r: list[int], w: int, rules: WinRules, pair: bool, held: list[int]) -> bool:
    """Backtracking with wildcards: ``held`` = real tiles + wildcards placed (for the cap)."""
    i = next((t for t in range(34) if r[t]), None)
    if i is None:
        # only wildcards left: they must form whole groups of tiles with room
        if pair:
            for t in range(34):
                if _pair_ok(rules, t) and w >= 2 and held[t] + 2 <= 4:
                    held[t] += 2
                    ok = _standard_win(r, w - 2, rules, False, held)
                    held[t] -= 2
                    if ok:
                        return True
            return False
        if w == 0:
            return True
        if w % 3:
            return False
        return sum(1 for t in range(34) if held[t] <= 1) >= w // 3  # wildcard pungs
    groups: list[tuple[int, ...]] = [(i, i, i)]
    if pair and _pair_ok(rules, i):
        groups.append((i, i))
    for s in (i - 2, i - 1, i):
        if s >= 0 and _chow_ok(rules, s) and s // 9 == i // 9:
            groups.append((s, s + 1, s + 2))
    for g in groups:
        took = []
        wild_at = []
        for t in g:
            if r[t]:
                r[t] -= 1
                took.append(t)
            else:
                wild_at.append(t)
        for t in wild_at:
            held[t] += 1
        ok = len(wild_at) <= w and all(held[t] <= 4 for t in wild_at)
        if ok:
            ok = _standard_win(r, w - len(wild_at), rules, pair and len(g) == 3, held)
        for t in took:
            r[t] += 1
        for t in wild_at:
            held[t] -= 1
        if ok:
            return True
    return False


def is_win(c: Sequence[int], w: int = 0, rules: WinRules | None = None) -> bool:
    rules = rules or WinRules()
    total = sum(c) + w
    if total % 3 != 2:
        return False
    if _standard_win(list(c), w, rules, True, list(c)):
        return True
    if total == 14:
        if rules.seven_pairs:
            odd = [t for t in range(34) if c[t] % 2]
            if len(odd) <= w and all(c[t] + 1 <= 4 for t in odd):
                return True
        if rules.thirteen_orphans:
            for e in ORPHANS:
                target = [0] * 34
                for t in ORPHANS:
                    target[t] += 1
                target[e] += 1
                if all(target[t] >= c[t] for t in range(34)):
                    return True
        if rules.knitted:
            for ks in KNITTED:
                allowed = set(ks) | set(HONOURS)
                if all(c[t] <= 1 and (c[t] == 0 or t in allowed) for t in range(34)):
                    return True
    if rules.knitted and total >= 11:
        for ks in KNITTED:
            r = list(c)
            held = list(c)
            used = 0
            for t in ks:
                if r[t]:
                    r[t] -= 1
                else:
                    used += 1
                    held[t] += 1
            if used <= w and _standard_win(r, w - used, rules, True, held):
                return True
    return False


def waits(c: Sequence[int], w: int = 0, rules: WinRules | None = None) -> list[int]:
    out = []
    for t in range(34):
        d = list(c)
        d[t] += 1
        if is_win(d, w, rules):
            out.append(t)
    return out


# ---------------------------------------------------------------- shanten


def _best_cover(c: tuple[int, ...], rules: WinRules, melds: int, caps: tuple[int, ...]) -> int:
    """Most real tiles of ``c`` inside a target of at most ``melds`` melds + a pair whose
    tile counts stay within ``caps``: each real tile, lowest first, is either left out or
    starts a block = a target group holding it plus any of the other real tiles it can."""

    @cache
    def go(rem: tuple[int, ...], target: tuple[int, ...], m: int, pair: int) -> int:
        i = next((t for t in range(34) if rem[t]), None)
        if i is None:
            if pair:
                return 0
            # the pair drawn whole on a tile with room
            ok = any(_pair_ok(rules, t) and target[t] + 2 <= caps[t] for t in range(34))
            return 0 if ok else -99
        r = list(rem)
        r[i] -= 1
        best = go(tuple(r), target, m, pair)  # tile i left out
        groups: list[tuple[int, ...]] = []
        if m < melds:
            groups.append((i, i, i))
            for s in (i - 2, i - 1, i):
                if s >= 0 and _chow_ok(rules, s) and s // 9 == i // 9:
                    groups.append((s, s + 1, s + 2))
        if not pair and _pair_ok(rules, i):
            groups.append((i, i))
        for g in groups:
            tg = list(target)
            for t in g:
                tg[t] += 1
            if any(tg[t] > caps[t] for t in g):
                continue
            others = list(g)
            others.remove(i)
            # which other members are covered by real tiles (every subset)
            for mask in range(1 << len(others)):
                r2 = list(r)
                got = 1
                ok = True
                for k, t in enumerate(others):
                    if mask >> k & 1:
                        if r2[t] == 0:
                            ok = False
                            break
                        r2[t] -= 1
                        got += 1
                if not ok:
                    continue
                is_pair = len(g) == 2
                sub = go(tuple(r2), tuple(tg), m + (0 if is_pair else 1), pair or int(is_pair))
                best = max(best, got + sub)
        return best

    return go(tuple(c), (0,) * 34, 0, 0)


def shanten(c: Sequence[int], w: int = 0, rules: WinRules | None = None) -> int:
    rules = rules or WinRules()
    total = sum(c) + w
    assert total % 3 != 0
    n = (total - 1) // 3
    if total % 3 == 2 and is_win(c, w, rules) and max(c) <= 4:
        return -1
    best = 3 * n + 1 - w - _best_cover(tuple(c), rules, n, (4,) * 34)
    if n == 4:
        if rules.seven_pairs:
            pairs = min(7, sum(min(x, 4) // 2 for x in c))
            singles = sum(1 for x in c if min(x, 4) % 2)
            best = min(best, 13 - w - 2 * pairs - min(7 - pairs, singles))
        if rules.thirteen_orphans:
            kinds = sum(1 for t in ORPHANS if c[t])
            dup = any(c[t] >= 2 for t in ORPHANS)
            best = min(best, 13 - w - kinds - int(dup))
        if rules.knitted:
            for ks in KNITTED:
                got = sum(1 for t in set(ks) | set(HONOURS) if c[t])
                best = min(best, 13 - w - min(14, got))
    if rules.knitted and n >= 3:
        for ks in KNITTED:
            r = list(c)
            caps = [4] * 34
            held = 0
            for t in ks:
                caps[t] = 3
                if r[t]:
                    r[t] -= 1
                    held += 1
            best = min(
                best, 3 * n + 1 - w - held - _best_cover(tuple(r), rules, n - 3, tuple(caps))
            )
    return max(best, -1)
