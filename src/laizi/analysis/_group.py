"""The exact programmes behind the per-group tables (:mod:`laizi.analysis._tables`):
:func:`compute_need` (the fewest wildcards completing a group's tiles into melds and the
pair, 4-copy rule included) and :func:`compute_cover` (the most tiles of a group a target
of at most m melds and the pair can hold), and the combination of cover vectors across
groups (:func:`combined_id`, :func:`final_value`, memoised by interned ids).

The tables answer from automata built on these; a key the automata do not take (counts
above 5, or above 4 for covers), the capped questions of the knitted shapes and hands of
more than :data:`MAX_MELDS` melds come here directly.
"""

from __future__ import annotations

INF = 64
"""Stands for "impossible"; larger than any real wildcard count, small enough to add."""

MAX_MELDS = 6
"""Cover tables are kept for up to 6 melds: 17 real tiles + up to 4 wildcards (3n+1 or
3n+2 <= 21) all fit; larger hands use a memoised direct DP."""

BUDGETS = 9
"""Wait masks are kept for wildcard budgets 0-8; larger budgets fall back to a search."""

Cover = tuple[tuple[int, ...], tuple[int, ...]]
"""A group's cover vectors ``(h0, h1)``: see :func:`compute_cover`."""


def compute_need(
    v: tuple[int, ...],
    chows: bool,
    pair_ok: tuple[bool, ...],
    capv: tuple[int, ...] | None = None,
) -> tuple[int, int]:
    """Fewest wildcards completing all of ``v`` into melds (and the pair): exact search.

    The lowest remaining real tile must belong to some group; each group that can hold it
    is tried, missing members filled by wildcards subject to the 4-copy rule. ``capv[t]``
    is what the reading already holds of tile ``t`` before this group's wildcards (``v``
    itself unless another part of the reading, e.g. a 组合龙, also holds the tile).
    """
    size = len(v)
    cv = v if capv is None else capv

    # A dict rather than functools.cache: the compiled build cannot decorate a nested
    # function.
    memo: dict[tuple[tuple[int, ...], tuple[int, ...], int], int] = {}

    def solve(rem: tuple[int, ...], wild: tuple[int, ...], pair: int) -> int:
        key = (rem, wild, pair)
        got = memo.get(key)
        if got is None:
            got = memo[key] = search(rem, wild, pair)
        return got

    def search(rem: tuple[int, ...], wild: tuple[int, ...], pair: int) -> int:
        i = 0
        while i < size and rem[i] == 0:
            i += 1
        if i == size:
            if not pair:
                return 0
            best = INF
            for t in range(size):
                if pair_ok[t] and cv[t] + wild[t] + 2 <= 4:
                    best = 2
                    break
            return best
        best = INF
        r = list(rem)
        w = list(wild)
        have = rem[i]
        # pung (刻子) of tile i with k real copies and 3 - k wildcards
        for k in range(1, min(have, 3) + 1):
            extra = 3 - k
            if extra and cv[i] + w[i] + extra > 4:
                continue
            r[i] -= k
            w[i] += extra
            sub = solve(tuple(r), tuple(w), pair)
            r[i] += k
            w[i] -= extra
            if sub + extra < best:
                best = sub + extra
        # pair (将) of tile i
        if pair and pair_ok[i]:
            for k in range(1, min(have, 2) + 1):
                extra = 2 - k
                if extra and cv[i] + w[i] + extra > 4:
                    continue
                r[i] -= k
                w[i] += extra
                sub = solve(tuple(r), tuple(w), 0)
                r[i] += k
                w[i] -= extra
                if sub + extra < best:
                    best = sub + extra
        # chows (顺子) holding tile i; lower members can only be wildcards
        if chows:
            for s in (i - 2, i - 1, i):
                if s < 0 or s + 2 >= size:
                    continue
                extra = 0
                ok = True
                used: list[int] = []
                for t in (s, s + 1, s + 2):
                    if r[t] > 0:
                        r[t] -= 1
                        used.append(t)
                    else:
                        if cv[t] + w[t] + 1 > 4:
                            ok = False
                        w[t] += 1
                        extra += 1
                sub = solve(tuple(r), tuple(w), pair) if ok else INF
                for t in (s, s + 1, s + 2):
                    if t in used:
                        r[t] += 1
                    else:
                        w[t] -= 1
                if sub + extra < best:
                    best = sub + extra
        return min(best, INF)

    zero = (0,) * size
    n0 = solve(v, zero, 0)
    n1 = solve(v, zero, 1)
    return min(n0, INF), min(n1, INF)


def compute_cover(
    v: tuple[int, ...],
    chows: bool,
    pair_ok: tuple[bool, ...],
    max_melds: int,
    caps: tuple[int, ...] | None = None,
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(h0, h1)``: ``h_p[m]`` = most tiles of ``v`` inside a target of at most ``m``
    melds (+ a pair when ``p``) whose every tile has at most 4 copies.

    A dynamic programme over the ranks; the state carries how many chows started one and
    two ranks back (they still need this rank), the melds and whether the pair is placed.
    ``h1`` entries are ``-INF`` when no pair tile is allowed in this group. ``caps[i]``
    lowers the 4-copy limit where another part of the reading already holds the tile.
    """
    size = len(v)
    cap = caps if caps is not None else (4,) * size
    can_chow = chows and size == 9
    states: dict[tuple[int, int, int, int], int] = {(0, 0, 0, 0): 0}
    for i in range(size):
        x = v[i]
        ahead = x + (v[i + 1] if i + 1 < size else 0) + (v[i + 2] if i + 2 < size else 0)
        ci = cap[i]
        chow_here = can_chow and i + 2 < size
        pair_here = pair_ok[i]
        new: dict[tuple[int, int, int, int], int] = {}
        for (a, b, m, p), val in states.items():
            base = a + b
            for u in (0, 1) if x and m < max_melds else (0,):
                for q in (0, 1) if not p and pair_here else (0,):
                    t0 = base + 3 * u + 2 * q
                    if t0 > ci:
                        continue
                    kmax = min(ci - t0, max_melds - m - u, ahead) if chow_here else 0
                    mu = m + u
                    pq = p + q
                    for k in range(kmax + 1):
                        tt = t0 + k
                        got = val + (x if x < tt else tt)
                        nk = (k, a, mu + k, pq)
                        if new.get(nk, -1) < got:
                            new[nk] = got
        # Pareto pruning: with the same carries and pair, a state using more melds for no
        # more covered tiles can never do better ("at most m melds").
        best: dict[tuple[int, int, int], int] = {}
        states = {}
        for key in sorted(new, key=lambda s: s[2]):
            carry = (key[0], key[1], key[3])
            val = new[key]
            if best.get(carry, -1) < val:
                best[carry] = val
                states[key] = val
    h0 = [-INF] * (max_melds + 1)
    h1 = [-INF] * (max_melds + 1)
    for (_a, _b, m, p), val in states.items():
        h = h1 if p else h0
        if h[m] < val:
            h[m] = val
    for h in (h0, h1):
        for m in range(1, max_melds + 1):
            if h[m] < h[m - 1]:
                h[m] = h[m - 1]
    return tuple(h0), tuple(h1)


# ---------------------------------------------------------------- cover combination
#
# Many count vectors share one cover vector, so cover vectors are interned to small ids
# and the max-plus combination of two groups is memoised per pair of ids: the combination
# of 万+筒 and of 条+honours, then the value at n melds, are mostly dictionary hits.

COVERS: list[Cover] = []
_COVER_IDS: dict[Cover, int] = {}
COMBINED: dict[tuple[int, int], int] = {}
FINAL: dict[tuple[int, int, int], int] = {}
MEMO_LIMIT = 2_000_000
"""The combination memos are cleared past this many entries (bounded memory)."""


def intern_cover(cover: Cover) -> int:
    got = _COVER_IDS.get(cover)
    if got is None:
        got = _COVER_IDS[cover] = len(COVERS)
        COVERS.append(cover)
    return got


def combine_pair(a: Cover, b: Cover, melds: int) -> Cover:
    """Max-plus combination of two groups' cover vectors (the pair in at most one)."""
    a0, a1 = a
    b0, b1 = b
    r0 = []
    r1 = []
    for m in range(melds + 1):
        best0 = -INF
        best1 = -INF
        for i in range(m + 1):
            j = m - i
            x = a0[i] + b0[j]
            if x > best0:
                best0 = x
            x = a1[i] + b0[j]
            if x > best1:
                best1 = x
            x = a0[i] + b1[j]
            if x > best1:
                best1 = x
        r0.append(max(best0, -INF))
        r1.append(max(best1, -INF))
    return tuple(r0), tuple(r1)


def combined_id(ia: int, ib: int) -> int:
    if len(COMBINED) > MEMO_LIMIT:
        COMBINED.clear()
    got = COMBINED[(ia, ib)] = intern_cover(combine_pair(COVERS[ia], COVERS[ib], MAX_MELDS))
    return got


def final_value(iab: int, icd: int, n: int) -> int:
    """Most covered tiles with at most ``n`` melds and the pair, over all four groups."""
    a0, a1 = COVERS[iab]
    b0, b1 = COVERS[icd]
    best = -INF
    for i in range(n + 1):
        j = n - i
        x = a1[i] + b0[j]
        if x > best:
            best = x
        x = a0[i] + b1[j]
        if x > best:
            best = x
    if len(FINAL) > MEMO_LIMIT:
        FINAL.clear()
    FINAL[(iab, icd, n)] = best
    return best
