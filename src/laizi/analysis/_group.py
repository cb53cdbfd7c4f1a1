"""Per-group tables: one *group* is a suit (9 tiles) or the honours (7 tiles).

A standard hand (n melds + a pair) splits into independent groups: a meld never crosses a
suit. For a group's count vector ``v`` (keyed by ``bytes(v)``) the tables hold:

* ``need``: the fewest wildcards that complete *every* tile of ``v`` into melds
  (``need0``) or into melds + the pair (``need1``); :data:`INF` when impossible.
* ``cover``: for shanten, ``h[p][m]`` = the most tiles of ``v`` that a target of at most
  ``m`` melds (+ the pair when ``p``) can contain, every target tile at most 4 copies.
* ``wait``: bit masks of the ranks ``r`` whose addition makes ``need`` small enough, per
  wildcard budget (used by :func:`laizi.analysis.waits`).

The tables are filled on first use of a key (a dynamic programme per key, memoised) rather
than shipped as data; ``scripts/gen_tables.py`` fills and measures them in bulk.

The 4-copy rule: a wildcard may stand for a tile only while the reading holds at most 4
copies of it (the hand's own copies included). The hand's own tiles are never refused, so
a hypothetical fifth real copy (asked by :func:`waits`) is judged by shape alone.
"""

from __future__ import annotations

from functools import cache

INF = 64
"""Stands for "impossible"; larger than any real wildcard count, small enough to add."""

MAX_MELDS = 5
"""Cover tables are kept for up to 5 melds (a 17-tile Taiwan hand)."""

BUDGETS = 9
"""Wait masks are kept for wildcard budgets 0-8; larger budgets fall back to a search."""


class GroupTable:
    """Lazily filled tables for one kind of group.

    ``size`` is 9 (suit) or 7 (honours), ``chows`` whether sequences may be formed and
    ``pair_ok[i]`` whether the tile of rank ``i + 1`` may be the pair.
    """

    __slots__ = ("chows", "cover", "cover_id", "need", "pair_ok", "shape", "size", "wait")

    def __init__(self, size: int, chows: bool, pair_ok: tuple[bool, ...]) -> None:
        self.size = size
        self.chows = chows and size == 9
        self.pair_ok = pair_ok
        self.need: dict[bytes, tuple[int, int, int]] = {}
        self.cover: dict[bytes, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self.cover_id: dict[bytes, int] = {}
        self.shape: dict[bytes, tuple[int, int, int, int]] = {}
        self.wait: dict[bytes, tuple[tuple[int, ...], tuple[int, ...]]] = {}

    # ------------------------------------------------------------------ need
    def get_need(self, key: bytes) -> tuple[int, int, int]:
        """``(need0, need1 - need0, odd)`` for ``key`` (odd: ranks held an odd number of
        times, for 七对); filled on first use."""
        got = self.need.get(key)
        if got is None:
            n0, n1 = self._need_from_cover(key)
            odd = sum(1 for x in key if x & 1)
            got = self.need[key] = (n0, n1 - n0, odd)
        return got

    def _need_from_cover(self, key: bytes) -> tuple[int, int]:
        """With every count at most 4, a wildcard completion is a target of at most 4
        copies per tile that covers all of ``key``: the fewest melds whose cover reaches
        the whole group give the fewest wildcards. Otherwise (a fifth real copy, or more
        than :data:`MAX_MELDS` melds needed) the plain search answers."""
        size = len(key)
        if key.count(0) + key.count(1) + key.count(2) + key.count(3) + key.count(4) == size:
            n = sum(key)
            h0, h1 = self.get_cover(key)
            out = []
            for p, h in ((0, h0), (1, h1)):
                got = INF
                for m in range(MAX_MELDS + 1):
                    if h[m] == n:
                        got = 3 * m + 2 * p - n
                        break
                out.append(got)
            # each meld covers at least one tile: with n <= MAX_MELDS, INF is final
            if n <= MAX_MELDS or (out[0] < INF and out[1] < INF):
                return out[0], out[1]
        return compute_need(tuple(key), self.chows, self.pair_ok)

    # ------------------------------------------------------------------ cover
    def get_cover(self, key: bytes) -> tuple[tuple[int, ...], tuple[int, ...]]:
        got = self.cover.get(key)
        if got is None:
            got = self.cover[key] = compute_cover(tuple(key), self.chows, self.pair_ok, MAX_MELDS)
        return got

    def get_cover_id(self, key: bytes) -> int:
        """The interned id (see :func:`intern_cover`) of ``key``'s cover vector."""
        got = self.cover_id.get(key)
        if got is None:
            got = self.cover_id[key] = intern_cover(self.get_cover(key))
        return got

    def get_shape(self, key: bytes) -> tuple[int, int, int, int]:
        """``(cover id, tiles, pairs, singles)`` for shanten: the 七对 term needs the pairs
        (``min(x, 4) // 2`` summed) and the odd counts of the group."""
        got = self.shape.get(key)
        if got is None:
            pairs = sum(min(x, 4) // 2 for x in key)
            singles = sum(min(x, 4) & 1 for x in key)
            got = self.shape[key] = (self.get_cover_id(key), sum(key), pairs, singles)
        return got

    # ------------------------------------------------------------------ waits
    def get_wait(self, key: bytes) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """``(mask0, mask1)``: ``mask_p[b]`` has bit r set when adding rank r leaves a
        need (without / with the pair) of at most ``b`` wildcards."""
        got = self.wait.get(key)
        if got is None:
            mask0 = [0] * BUDGETS
            mask1 = [0] * BUDGETS
            base = bytearray(key)
            for r in range(self.size):
                base[r] += 1
                n0, d, _odd = self.get_need(bytes(base))
                base[r] -= 1
                n1 = n0 + d
                for b in range(BUDGETS):
                    if n0 <= b:
                        mask0[b] |= 1 << r
                    if n1 <= b:
                        mask1[b] |= 1 << r
            got = self.wait[key] = (tuple(mask0), tuple(mask1))
        return got


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

    @cache
    def solve(rem: tuple[int, ...], wild: tuple[int, ...], pair: int) -> int:
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

Cover = tuple[tuple[int, ...], tuple[int, ...]]

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
